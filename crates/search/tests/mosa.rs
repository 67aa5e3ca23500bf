//! MOSA's preference sorting and crowding distance on hand-made fitness vectors (digest 002 §2.4).

use expect_test::{Expect, expect};
use search::GoalIdx;
use search::mosa::{crowding_distance, dominates, preference_sort};
use testcase::rng_from_seed;

fn goals(ids: &[u32]) -> Vec<GoalIdx> {
    ids.iter().map(|i| GoalIdx(*i)).collect()
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
