//! MOSA's preference sorting and crowding distance on hand-made fitness vectors (digest 002 §2.4).

use expect_test::{Expect, expect};
use search::GoalIdx;
use search::mosa::{crowding_distance, dominates, preference_sort};
use testcase::rng_from_seed;

fn goals(ids: &[u32]) -> Vec<GoalIdx> {
    ids.iter().map(|&i| GoalIdx::new(i as usize)).collect()
}

/// Sorts `rows` (one fitness vector per test) over `targets`, and prints each front with the
/// crowding distances of its members.
fn check_sort(rows: &[&[f64]], lengths: &[usize], targets: &[u32], min_ranked: usize, expect: Expect) {
    let targets = goals(targets);
    let fronts = preference_sort(rows, lengths, &targets, min_ranked, &mut rng_from_seed(0));
    let mut s = String::new();
    for (k, f) in fronts.iter().enumerate() {
        let d = crowding_distance(rows, f, &targets);
        let members: Vec<String> = f.iter().zip(&d).map(|(i, d)| format!("t{i}({d:.2})")).collect();
        s.push_str(&format!("front {k}: {}\n", members.join(" ")));
    }
    expect.assert_eq(&s);
}

#[test]
fn front_zero_is_the_best_test_per_target() {
    // Three goals; t0 is best on g0, t1 on g1, t2 and t3 tie on g2 (t3 is shorter).
    check_sort(
        &[
            &[0.1, 0.9, 0.5],
            &[0.5, 0.2, 0.5],
            &[0.6, 0.6, 0.3],
            &[0.7, 0.7, 0.3],
            &[0.9, 0.9, 0.9],
            &[0.8, 0.3, 0.9],
        ],
        &[5, 5, 6, 4, 1, 2],
        &[0, 1, 2],
        3,
        expect![[r#"
            front 0: t0(0.67) t1(0.67) t3(0.67)
            front 1: t2(0.67) t4(0.00) t5(0.67)
        "#]],
    );
}

#[test]
fn the_rest_is_ranked_by_non_dominated_sorting_until_enough_are_ranked() {
    // Front 0 = {t0, t1}; the rest: t2 dominates t3 which dominates t4; t5 is incomparable to t2.
    let rows: [&[f64]; 6] = [&[0.0, 0.9], &[0.9, 0.0], &[0.3, 0.3], &[0.4, 0.4], &[0.5, 0.5], &[0.2, 0.6]];
    let lengths = [1, 1, 1, 1, 1, 1];
    check_sort(
        &rows,
        &lengths,
        &[0, 1],
        10,
        expect![[r#"
            front 0: t0(0.50) t1(0.50)
            front 1: t2(0.50) t5(0.50)
            front 2: t3(0.00)
            front 3: t4(0.00)
        "#]],
    );
    // With 4 tests wanted, the sorting stops once front 1 brings the count to 4: t3 and t4 are unranked.
    check_sort(
        &rows,
        &lengths,
        &[0, 1],
        4,
        expect![[r#"
            front 0: t0(0.50) t1(0.50)
            front 1: t2(0.50) t5(0.50)
        "#]],
    );
    // A covered goal is no target: over g1 alone, t1 is front 0 and the rest form a chain.
    check_sort(
        &rows,
        &lengths,
        &[1],
        3,
        expect![[r#"
            front 0: t1(0.00)
            front 1: t2(0.00)
            front 2: t3(0.00)
        "#]],
    );
    // No targets at all: everything in front 0.
    check_sort(
        &rows[..2],
        &lengths[..2],
        &[],
        3,
        expect![[r#"
        front 0: t0(0.00) t1(0.00)
    "#]],
    );
}

#[test]
fn crowding_distance_rewards_tests_best_on_a_goal() {
    // Front of 4 over 3 goals: t0 alone minimal on g0 ((4-1)/4), t1 and t2 share the minimum on
    // g1 ((4-2)/4), g2 is equal everywhere and ignored.
    let rows: [&[f64]; 4] = [&[0.1, 0.5, 1.0], &[0.2, 0.3, 1.0], &[0.3, 0.3, 1.0], &[0.4, 0.6, 1.0]];
    let d = crowding_distance(&rows, &[0, 1, 2, 3], &goals(&[0, 1, 2]));
    expect![[r#"
        [
            0.75,
            0.5,
            0.5,
            0.0,
        ]
    "#]]
    .assert_debug_eq(&d);
    assert!(dominates(rows[1], rows[3], &goals(&[0, 1])));
    assert!(!dominates(rows[0], rows[1], &goals(&[0, 1])));
    assert!(!dominates(rows[2], rows[2], &goals(&[0, 1])), "a test does not dominate itself");
}

/// The preference sorting as EvoSuite's `RankBasedPreferenceSorting` states it, target by target:
/// the ties of the best (value, length) in index order, one drawn at random where there are
/// several; then non-dominated fronts of the rest. The optimised `preference_sort` must give the
/// same fronts and consume the same draws.
fn reference_sort(
    rows: &[&[f64]],
    lengths: &[usize],
    targets: &[GoalIdx],
    min_ranked: usize,
    rng: &mut testcase::TestRng,
) -> Vec<Vec<usize>> {
    use rand::RngExt;
    let n = rows.len();
    if targets.is_empty() {
        return if n == 0 { Vec::new() } else { vec![(0..n).collect()] };
    }
    let at = |i: usize, g: GoalIdx| rows[i].get(g.index()).copied().unwrap_or(f64::INFINITY);
    let key = |i: usize, g: GoalIdx| (at(i, g), lengths[i]);
    let cmp = |a: (f64, usize), b: (f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    let mut in_zero = vec![false; n];
    for &g in targets {
        let Some(best) = (0..n).min_by(|&a, &b| cmp(key(a, g), key(b, g))) else { continue };
        let ties: Vec<usize> =
            (0..n).filter(|&i| cmp(key(i, g), key(best, g)) == std::cmp::Ordering::Equal).collect();
        let pick = if ties.len() == 1 { ties[0] } else { ties[rng.random_range(0..ties.len())] };
        in_zero[pick] = true;
    }
    let mut fronts = vec![(0..n).filter(|&i| in_zero[i]).collect::<Vec<_>>()];
    let mut remaining: Vec<usize> = (0..n).filter(|&i| !in_zero[i]).collect();
    if fronts[0].len() >= min_ranked {
        if !remaining.is_empty() {
            fronts.push(remaining);
        }
        return fronts;
    }
    let mut ranked = fronts[0].len();
    while ranked < min_ranked && !remaining.is_empty() {
        let front: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&i| !remaining.iter().any(|&j| j != i && dominates(rows[j], rows[i], targets)))
            .collect();
        remaining.retain(|i| !front.contains(i));
        ranked += front.len();
        fronts.push(front);
    }
    fronts
}

/// EvoSuite's sub-vector dominance crowding, target by target.
fn reference_crowding(rows: &[&[f64]], front: &[usize], targets: &[GoalIdx]) -> Vec<f64> {
    let at = |i: usize, g: GoalIdx| rows[i].get(g.index()).copied().unwrap_or(f64::INFINITY);
    let mut d = vec![0.0f64; front.len()];
    for &g in targets {
        let min = front.iter().map(|&i| at(i, g)).fold(f64::INFINITY, f64::min);
        let max = front.iter().map(|&i| at(i, g)).fold(f64::NEG_INFINITY, f64::max);
        if min == max {
            continue;
        }
        let n_min = front.iter().filter(|&&i| at(i, g) == min).count();
        let w = (front.len() - n_min) as f64 / front.len() as f64;
        for (k, &i) in front.iter().enumerate() {
            if at(i, g) == min {
                d[k] = d[k].max(w);
            }
        }
    }
    d
}

/// Random populations with many ties (three values, three lengths, short rows for goals found
/// later): the optimised sorting and crowding agree with the references, draws included.
#[test]
fn preference_sort_matches_the_target_by_target_reference() {
    use rand::RngExt;
    let mut draw = rng_from_seed(7);
    for case in 0..400 {
        let n = draw.random_range(0..30usize);
        let n_goals = draw.random_range(1..12usize);
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                let len = if draw.random_bool(0.1) { draw.random_range(0..n_goals) } else { n_goals };
                (0..len).map(|_| [0.0, 0.5, 1.0, 2.5][draw.random_range(0..4usize)]).collect()
            })
            .collect();
        let rows: Vec<&[f64]> = rows.iter().map(Vec::as_slice).collect();
        let lengths: Vec<usize> = (0..n).map(|_| draw.random_range(1..4usize)).collect();
        let targets: Vec<GoalIdx> =
            (0..n_goals).filter(|_| draw.random_bool(0.7)).map(GoalIdx::new).collect();
        let min_ranked = draw.random_range(0..n + 2);
        let (mut r1, mut r2) = (rng_from_seed(case), rng_from_seed(case));
        let fast = preference_sort(&rows, &lengths, &targets, min_ranked, &mut r1);
        let slow = reference_sort(&rows, &lengths, &targets, min_ranked, &mut r2);
        assert_eq!(fast, slow, "case {case}");
        assert_eq!(r1.random_range(0..u64::MAX), r2.random_range(0..u64::MAX), "draws of case {case}");
        for front in &fast {
            let d = crowding_distance(&rows, front, &targets);
            assert_eq!(d, reference_crowding(&rows, front, &targets), "crowding of case {case}");
        }
    }
}

/// `Front0`, kept over generations (offspring pushed, targets dropped and added, the next
/// population kept), gives the fronts, draws and front-0 crowding distances that sorting each
/// generation's union from scratch gives.
#[test]
fn front0_kept_over_generations_matches_sorting_from_scratch() {
    use rand::RngExt;
    use search::mosa::{Front0, crowding_distance_rows, preference_sort_rows};
    let mut draw = rng_from_seed(11);
    for case in 0..60u64 {
        let mut n_targets = draw.random_range(0..10usize);
        let value =
            |d: &mut testcase::TestRng| [0.0, 0.5, 1.0, 2.5, f64::INFINITY][d.random_range(0..5usize)];
        let mut population: Vec<(Vec<f64>, usize)> = Vec::new();
        let mut front0 = Front0::new(n_targets);
        let (mut r1, mut r2) = (rng_from_seed(case), rng_from_seed(case));
        for generation in 0..25 {
            // Sometimes the targets change: some go (covered), some come (released).
            if generation > 0 && draw.random_bool(0.3) {
                let keep: Vec<usize> = (0..n_targets).filter(|_| draw.random_bool(0.8)).collect();
                let added = draw.random_range(0..3usize);
                let mut map: Vec<Option<usize>> = keep.iter().map(|&k| Some(k)).collect();
                map.extend((0..added).map(|_| None));
                for (row, _) in &mut population {
                    let mut new: Vec<f64> = keep.iter().map(|&k| row[k]).collect();
                    new.extend((0..added).map(|_| value(&mut draw)));
                    *row = new;
                }
                n_targets = map.len();
                let rows: Vec<&[f64]> = population.iter().map(|(r, _)| r.as_slice()).collect();
                front0.remap(&map, &rows);
            }
            let offspring = draw.random_range(0..8usize);
            let mut union = population.clone();
            union.extend(
                (0..offspring).map(|_| {
                    ((0..n_targets).map(|_| value(&mut draw)).collect(), draw.random_range(1..4usize))
                }),
            );
            for (row, len) in &union[population.len()..] {
                front0.push(row, *len);
            }
            let rows: Vec<&[f64]> = union.iter().map(|(r, _)| r.as_slice()).collect();
            let lengths: Vec<usize> = union.iter().map(|(_, l)| *l).collect();
            let min_ranked = draw.random_range(0..6usize);
            let kept = front0.fronts(&rows, min_ranked, &mut r1);
            let scratch = preference_sort_rows(&rows, n_targets, &lengths, min_ranked, &mut r2);
            assert_eq!(kept, scratch, "case {case}, generation {generation}");
            assert_eq!(r1.random_range(0..u64::MAX), r2.random_range(0..u64::MAX), "draws: case {case}");
            // The next population: front 0 and some of the rest, in union order.
            let zero = scratch.first().cloned().unwrap_or_default();
            let mut next: Vec<usize> = (0..union.len())
                .filter(|i| zero.contains(i) || (n_targets > 0 && draw.random_bool(0.3)))
                .collect();
            if n_targets == 0 {
                next = (0..union.len()).collect();
            }
            front0.keep(&next);
            if next == zero && !zero.is_empty() {
                assert_eq!(
                    front0.crowding(),
                    crowding_distance_rows(&rows, n_targets, &zero),
                    "crowding: case {case}, generation {generation}"
                );
            }
            population = next.iter().map(|&i| union[i].clone()).collect();
        }
    }
}
