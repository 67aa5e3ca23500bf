//! MOSA (Panichella, Kifetew & Tonella, ICST 2015) and DynaMOSA (Panichella, Kifetew & Tonella,
//! TSE 2018) as EvoSuite implements them (digest 002 §2.4–2.5): a population of tests, one
//! objective per uncovered target; the preference sorting puts the best test of each target in
//! front 0 and ranks the rest by non-dominated sorting; the next population is filled front by
//! front, the last front cut by the sub-vector crowding distance (`fastEpsilonDominanceAssignment`);
//! parents are chosen by a tournament on rank, then crowding distance. DynaMOSA is the same loop
//! whose targets grow as covered goals release their control-dependent goals (`Search` keeps the
//! target set) and whose population keeps all of front 0 even beyond the population size.
//!
//! The sorting and the crowding distance are public pure functions over fitness vectors so they
//! can be tested on hand-made values.

use std::cmp::Ordering;

use rand::RngExt;
use testcase::{TestCase, TestRng};

use crate::context::{Individual, Search};
use crate::select::tournament;
use crate::{GoalIdx, SearchError};

/// The value of `g` in a fitness vector; infinite (worst) for a goal discovered after the vector
/// was computed.
fn at(v: &[f64], g: GoalIdx) -> f64 {
    v.get(g.index()).copied().unwrap_or(f64::INFINITY)
}

/// Whether `a` Pareto-dominates `b` on `targets`: no worse on all, better on one (minimising).
pub fn dominates(a: &[f64], b: &[f64], targets: &[GoalIdx]) -> bool {
    let mut better = false;
    for g in targets {
        let (x, y) = (at(a, *g), at(b, *g));
        if x > y {
            return false;
        }
        if x < y {
            better = true;
        }
    }
    better
}

/// The fitness of a population on the current targets, gathered once per generation into two
/// dense layouts: `by_test[i * t + k]` (rows per test, for dominance) and `by_target[k * n + i]`
/// (rows per target, for front 0 and the crowding distance). The full vectors have one value per
/// goal (thousands) and the targets are a scattered subset: walking them target by target across
/// a hundred separate vectors was most of the engine's own time in a generation (issue 4).
pub struct Objectives {
    n: usize,
    t: usize,
    by_test: Vec<f64>,
    by_target: Vec<f64>,
}

impl Objectives {
    /// Gathers `fitness[i][targets[k]]` (infinite where a row is too short).
    pub fn new(fitness: &[&[f64]], targets: &[GoalIdx]) -> Objectives {
        let (n, t) = (fitness.len(), targets.len());
        let mut by_test = Vec::with_capacity(n * t);
        for row in fitness {
            by_test.extend(targets.iter().map(|&g| at(row, g)));
        }
        let mut by_target = vec![0.0; n * t];
        for (i, row) in by_test.chunks_exact(t.max(1)).enumerate().take(n) {
            for (k, &v) in row.iter().enumerate().take(t) {
                by_target[k * n + i] = v;
            }
        }
        Objectives { n, t, by_test, by_target }
    }

    fn test(&self, i: usize) -> &[f64] {
        &self.by_test[i * self.t..(i + 1) * self.t]
    }

    fn target(&self, k: usize) -> &[f64] {
        &self.by_target[k * self.n..(k + 1) * self.n]
    }
}

/// Whether `a` dominates `b`, both gathered over the same targets.
fn dominates_dense(a: &[f64], b: &[f64]) -> bool {
    let mut better = false;
    for (x, y) in a.iter().zip(b) {
        if x > y {
            return false;
        }
        if x < y {
            better = true;
        }
    }
    better
}

/// EvoSuite's `RankBasedPreferenceSorting`: fronts of indices into `fitness`.
///
/// Front 0 holds, for each target, the test with the lowest fitness on it (shorter `lengths` win
/// ties; remaining ties are broken with `rng`). If front 0 has fewer than `min_ranked` tests, the
/// rest are ranked by non-dominated sorting over `targets` until at least `min_ranked` tests are
/// ranked (tests beyond that are left out); otherwise all the rest form front 1. With no targets,
/// every test is in front 0. `lengths` has one entry per row of `fitness`; a row shorter than a
/// target counts as worst on it.
pub fn preference_sort(
    fitness: &[&[f64]],
    lengths: &[usize],
    targets: &[GoalIdx],
    min_ranked: usize,
    rng: &mut TestRng,
) -> Vec<Vec<usize>> {
    preference_sort_dense(&Objectives::new(fitness, targets), lengths, min_ranked, rng)
}

/// [`preference_sort`] over gathered objectives (the same fronts, the same draws from `rng`).
pub fn preference_sort_dense(
    obj: &Objectives,
    lengths: &[usize],
    min_ranked: usize,
    rng: &mut TestRng,
) -> Vec<Vec<usize>> {
    let n = obj.n;
    if obj.t == 0 {
        return if n == 0 { Vec::new() } else { vec![(0..n).collect()] };
    }
    let len = |i: usize| lengths.get(i).copied().unwrap_or(usize::MAX);
    let lens: Vec<usize> = (0..n).map(len).collect();
    let mut in_zero = vec![false; n];
    let mut ties = Vec::new();
    for k in 0..obj.t {
        let row = obj.target(k);
        ties.clear();
        let Some((&first, rest)) = row.split_first() else { continue };
        let (mut best, mut best_len) = (first, lens[0]);
        ties.push(0);
        for (i, &fi) in rest.iter().enumerate().map(|(i, f)| (i + 1, f)) {
            match fi.total_cmp(&best).then(lens[i].cmp(&best_len)) {
                Ordering::Less => {
                    ties.clear();
                    ties.push(i);
                    (best, best_len) = (fi, lens[i]);
                }
                Ordering::Equal => ties.push(i),
                Ordering::Greater => {}
            }
        }
        let pick = if ties.len() == 1 { ties[0] } else { ties[rng.random_range(0..ties.len())] };
        in_zero[pick] = true;
    }
    let zero: Vec<usize> = (0..n).filter(|&i| in_zero[i]).collect();
    let mut remaining: Vec<usize> = (0..n).filter(|&i| !in_zero[i]).collect();
    let mut fronts = vec![zero];
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
            .filter(|&i| !remaining.iter().any(|&j| j != i && dominates_dense(obj.test(j), obj.test(i))))
            .collect();
        remaining.retain(|i| !front.contains(i));
        ranked += front.len();
        fronts.push(front);
    }
    fronts
}

/// EvoSuite's sub-vector dominance crowding (`fastEpsilonDominanceAssignment`): for each target on
/// which the front's tests differ, the tests with the minimum value get at least
/// `(|front| − |minimal|) / |front|`; all others keep 0. One value per member of `front`.
pub fn crowding_distance(fitness: &[&[f64]], front: &[usize], targets: &[GoalIdx]) -> Vec<f64> {
    crowding_distance_dense(&Objectives::new(fitness, targets), front)
}

/// [`crowding_distance`] over gathered objectives.
pub fn crowding_distance_dense(obj: &Objectives, front: &[usize]) -> Vec<f64> {
    let mut d = vec![0.0; front.len()];
    let mut min_set = Vec::new();
    for k in 0..obj.t {
        let row = obj.target(k);
        let mut min = f64::INFINITY;
        let mut max = f64::NEG_INFINITY;
        min_set.clear();
        for (m, &i) in front.iter().enumerate() {
            let v = row[i];
            if v < min {
                min = v;
                min_set.clear();
                min_set.push(m);
            } else if v == min {
                min_set.push(m);
            }
            max = max.max(v);
        }
        if max == min {
            continue;
        }
        let value = (front.len() - min_set.len()) as f64 / front.len() as f64;
        for &m in &min_set {
            d[m] = f64::max(d[m], value);
        }
    }
    d
}

/// A member of the population with its rank and crowding distance, for the tournament.
struct Ranked {
    ind: Individual,
    rank: usize,
    distance: f64,
}

fn better(a: &Ranked, b: &Ranked) -> Ordering {
    a.rank.cmp(&b.rank).then(b.distance.total_cmp(&a.distance))
}

/// Whether a test calls anything (EvoSuite's `hasMethodCall`): a test without a call cannot cover
/// anything in the class under test.
fn has_call(t: &TestCase) -> bool {
    t.statements.iter().any(|s| s.is_call())
}

pub(crate) fn run(cx: &mut Search<'_>, rng: &mut TestRng, dynamic: bool) -> Result<(), SearchError> {
    let pop_size = cx.config.population.max(2);
    let initial: Vec<TestCase> = (0..pop_size).map(|_| cx.factory().random_test(rng)).collect();
    let evaluated = cx.evaluate(initial)?;
    let mut population = select_next(cx, evaluated, pop_size, dynamic, rng);
    cx.end_iteration();
    while !cx.should_stop() {
        let offspring = breed(cx, &population, pop_size, rng);
        let offspring = cx.evaluate(offspring)?;
        let union: Vec<Individual> = population.into_iter().map(|r| r.ind).chain(offspring).collect();
        population = select_next(cx, union, pop_size, dynamic, rng);
        cx.end_iteration();
    }
    Ok(())
}

/// MOSA's `breedNextGeneration`: pairs of tournament-selected parents, crossover, mutation; only
/// changed offspring are kept. Then `population × p_test_insertion` new tests, random or mutated
/// from the archive.
fn breed(cx: &Search<'_>, population: &[Ranked], pop_size: usize, rng: &mut TestRng) -> Vec<TestCase> {
    let factory = cx.factory();
    let config = cx.config;
    let mut out = Vec::with_capacity(pop_size + 5);
    for _ in 0..pop_size / 2 {
        let a = tournament(population.len(), config.tournament_size, rng, |i, j| {
            better(&population[i], &population[j])
        });
        let b = tournament(population.len(), config.tournament_size, rng, |i, j| {
            better(&population[i], &population[j])
        });
        let (pa, pb) = (&population[a].ind.test, &population[b].ind.test);
        let crossed = rng.random_bool(config.crossover_rate.clamp(0.0, 1.0));
        let (mut o1, mut o2) =
            if crossed { factory.crossover(pa, pb, rng) } else { ((**pa).clone(), (**pb).clone()) };
        for (o, parent) in [(&mut o1, pa), (&mut o2, pb)] {
            let mut changed = crossed;
            // EvoSuite mutates again once if the first mutation changed nothing.
            if factory.mutate(o, rng) || factory.mutate(o, rng) {
                changed = true;
            }
            if !has_call(o) {
                *o = (**parent).clone();
                changed = factory.mutation_insert(o, rng);
            }
            if changed && !o.is_empty() {
                out.push(std::mem::take(o));
            }
        }
    }
    let extra = (pop_size as f64 * config.p_test_insertion).round() as usize;
    let covered = cx.archive.covered_goals();
    for _ in 0..extra {
        if covered.is_empty() || rng.random_bool(0.5) {
            out.push(factory.random_test(rng));
        } else {
            let g = covered[rng.random_range(0..covered.len())];
            let Some(t) = cx.archive.test_for(g) else { continue };
            let mut t = t.clone();
            factory.mutate(&mut t, rng);
            out.push(t);
        }
    }
    out
}

/// Preference sorting of `union` and the next population: whole fronts while they fit, then the
/// most crowded-apart tests of the next front. DynaMOSA keeps at least all of front 0.
fn select_next(
    cx: &Search<'_>,
    union: Vec<Individual>,
    pop_size: usize,
    dynamic: bool,
    rng: &mut TestRng,
) -> Vec<Ranked> {
    let targets = cx.uncovered_targets();
    let fitness: Vec<&[f64]> = union.iter().map(|i| i.eval.fitness.as_slice()).collect();
    let lengths: Vec<usize> = union.iter().map(Individual::len).collect();
    let obj = Objectives::new(&fitness, &targets);
    let fronts = preference_sort_dense(&obj, &lengths, pop_size, rng);
    let mut remain = if dynamic { pop_size.max(fronts.first().map_or(0, Vec::len)) } else { pop_size };
    let mut chosen: Vec<(usize, usize, f64)> = Vec::with_capacity(remain);
    for (rank, front) in fronts.iter().enumerate() {
        if remain == 0 || front.is_empty() {
            break;
        }
        let d = crowding_distance_dense(&obj, front);
        if front.len() <= remain {
            chosen.extend(front.iter().zip(&d).map(|(&i, &di)| (i, rank, di)));
            remain -= front.len();
        } else {
            let mut order: Vec<usize> = (0..front.len()).collect();
            // Stable sort: equal distances keep the front's order.
            order.sort_by(|&x, &y| d[y].total_cmp(&d[x]));
            chosen.extend(order.into_iter().take(remain).map(|k| (front[k], rank, d[k])));
            remain = 0;
        }
    }
    let mut slots: Vec<Option<Individual>> = union.into_iter().map(Some).collect();
    chosen
        .into_iter()
        .filter_map(|(i, rank, distance)| slots[i].take().map(|ind| Ranked { ind, rank, distance }))
        .collect()
}
