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

/// The fitness of a population on the current targets, gathered once per generation. The full
/// vectors have one value per goal (thousands) and the targets are a scattered subset: walking
/// them target by target across a hundred separate vectors was most of the engine's own time in a
/// generation (issue 4). Most targets have the same value in every test (code no test reached):
/// such a target never decides dominance nor crowding, and its front-0 pick is among the shortest
/// tests, so only the varying targets are kept, one row per test (`by_test[i * v + k]`), and every
/// pass below walks those rows in order (a target-major copy cost more to build than it saved).
pub struct Objectives {
    n: usize,
    /// Per target, in target order: `Some(k)`, its column among the varying targets, or `None`
    /// when every test has the same value on it.
    rows: Vec<Option<usize>>,
    v: usize,
    by_test: Vec<f64>,
}

impl Objectives {
    /// Gathers `fitness[i][targets[k]]` (infinite where a row is too short).
    pub fn new(fitness: &[&[f64]], targets: &[GoalIdx]) -> Objectives {
        Objectives::with_candidates(fitness, targets, |_| true)
    }

    /// As [`Objectives::new`], when the caller knows that every test has the same value on each
    /// target for which `may_vary` is false.
    pub fn with_candidates(
        fitness: &[&[f64]],
        targets: &[GoalIdx],
        may_vary: impl Fn(GoalIdx) -> bool,
    ) -> Objectives {
        let n = fitness.len();
        // A target varies when some test's value differs (bit for bit) from the first test's.
        let mut varies = vec![false; targets.len()];
        if let Some((first, rest)) = fitness.split_first() {
            for (flag, &g) in varies.iter_mut().zip(targets) {
                if may_vary(g) {
                    let b = at(first, g).to_bits();
                    *flag = rest.iter().any(|row| at(row, g).to_bits() != b);
                }
            }
        }
        let mut rows = Vec::with_capacity(targets.len());
        let mut kept = Vec::new();
        for (&g, &flag) in targets.iter().zip(&varies) {
            rows.push(flag.then_some(kept.len()));
            if flag {
                kept.push(g);
            }
        }
        let v = kept.len();
        let mut by_test = Vec::with_capacity(n * v);
        for row in fitness {
            by_test.extend(kept.iter().map(|&g| at(row, g)));
        }
        Objectives { n, rows, v, by_test }
    }

    fn test(&self, i: usize) -> &[f64] {
        &self.by_test[i * self.v..(i + 1) * self.v]
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
    if obj.rows.is_empty() {
        return if n == 0 { Vec::new() } else { vec![(0..n).collect()] };
    }
    let len = |i: usize| lengths.get(i).copied().unwrap_or(usize::MAX);
    let lens: Vec<usize> = (0..n).map(len).collect();
    // The ties of a target with one value for all tests: the shortest tests, in order.
    let shortest_len = lens.iter().copied().min().unwrap_or(usize::MAX);
    let shortest: Vec<usize> = (0..n).filter(|&i| lens[i] == shortest_len).collect();
    // Per varying target, the best (value, length) over the tests (ties: the lowest index
    // first, as a scan target by target would keep them), then how many tests tie with it.
    let v = obj.v;
    let mut best: Vec<(f64, usize)> =
        if n > 0 { obj.test(0).iter().map(|&x| (x, lens[0])).collect() } else { Vec::new() };
    for (i, &len) in lens.iter().enumerate().skip(1) {
        for (b, &x) in best.iter_mut().zip(obj.test(i)) {
            if x.total_cmp(&b.0).then(len.cmp(&b.1)) == Ordering::Less {
                *b = (x, len);
            }
        }
    }
    let same =
        |b: &(f64, usize), x: f64, len: usize| x.total_cmp(&b.0).then(len.cmp(&b.1)) == Ordering::Equal;
    let mut count = vec![0usize; v];
    for (i, &len) in lens.iter().enumerate() {
        for ((c, b), &x) in count.iter_mut().zip(&best).zip(obj.test(i)) {
            *c += usize::from(same(b, x, len));
        }
    }
    // The draws, in target order; then the drawn tie of each varying target, in one more pass.
    let mut in_zero = vec![false; n];
    let mut wanted: Vec<Option<usize>> = vec![None; v];
    for row in &obj.rows {
        match *row {
            None if shortest.is_empty() => {}
            None => {
                let pick = if shortest.len() == 1 {
                    shortest[0]
                } else {
                    shortest[rng.random_range(0..shortest.len())]
                };
                in_zero[pick] = true;
            }
            Some(_) if n == 0 => {}
            Some(k) => {
                wanted[k] = Some(if count[k] == 1 { 0 } else { rng.random_range(0..count[k]) });
            }
        }
    }
    let mut seen = vec![0usize; v];
    for i in 0..n {
        for (k, &x) in obj.test(i).iter().enumerate() {
            if same(&best[k], x, lens[i]) {
                if wanted[k] == Some(seen[k]) {
                    in_zero[i] = true;
                }
                seen[k] += 1;
            }
        }
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
    let v = obj.v;
    let mut min = vec![f64::INFINITY; v];
    let mut max = vec![f64::NEG_INFINITY; v];
    for &i in front {
        for ((lo, hi), &x) in min.iter_mut().zip(max.iter_mut()).zip(obj.test(i)) {
            if x < *lo {
                *lo = x;
            }
            *hi = hi.max(x);
        }
    }
    // The tests with the minimum of a target are those equal to its final minimum.
    let mut n_min = vec![0usize; v];
    for &i in front {
        for ((c, lo), &x) in n_min.iter_mut().zip(&min).zip(obj.test(i)) {
            *c += usize::from(x == *lo);
        }
    }
    front
        .iter()
        .map(|&i| {
            let mut d: f64 = 0.0;
            for (k, &x) in obj.test(i).iter().enumerate() {
                if max[k] != min[k] && x == min[k] {
                    d = d.max((front.len() - n_min[k]) as f64 / front.len() as f64);
                }
            }
            d
        })
        .collect()
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
    // A target can only vary over the union where some test differs from the run's reference
    // vector or lacks the goal (evaluated before the goal existed).
    let min_len = fitness.iter().map(|f| f.len()).min().unwrap_or(0);
    let mut marked = vec![false; cx.n_goals()];
    for ind in &union {
        for &g in ind.diff.iter() {
            if let Some(m) = marked.get_mut(g as usize) {
                *m = true;
            }
        }
    }
    let may_vary = |g: GoalIdx| g.index() >= min_len || marked.get(g.index()).is_none_or(|m| *m);
    let obj = Objectives::with_candidates(&fitness, &targets, may_vary);
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
