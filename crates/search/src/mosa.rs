//! MOSA (Panichella, Kifetew & Tonella, ICST 2015) and DynaMOSA (Panichella, Kifetew & Tonella,
//! TSE 2018) as EvoSuite implements them (digest 002 §2.4–2.5): a population of tests, one
//! objective per uncovered target; the preference sorting puts the best test of each target in
//! front 0 and ranks the rest by non-dominated sorting; the next population is filled front by
//! front, the last front cut by the sub-vector crowding distance (`fastEpsilonDominanceAssignment`);
//! parents are chosen by a tournament on rank, then crowding distance. DynaMOSA is the same loop
//! whose targets grow as covered goals release their control-dependent goals (the target policy,
//! `target::ControlDependence`) and whose population keeps all of front 0 even beyond the
//! population size. Tests a hook injects join the union of population and offspring.
//!
//! The sorting and the crowding distance are public pure functions over fitness vectors so they
//! can be tested on hand-made values (and against a target-by-target reference, `tests/mosa.rs`).
//! The run works on rows, each test's values on the current targets: a member keeps its row from
//! one generation to the next, so that only offspring are read from their full fitness vectors.

use std::cmp::Ordering;

use rand::RngExt;
use testcase::{TestCase, TestRng};

use crate::context::{Batches, Individual, Search, pipelined};
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

/// A test's fitness on the current targets, in target order: one row per test. MOSA's passes walk
/// these rows in order; the rows of the tests that survive a generation are kept with them
/// (`Member::row`), so a generation gathers only its offspring's values from the full fitness
/// vectors (thousands of goals per test, the targets a scattered subset: gathering every member's
/// values each generation was most of the engine's own time on large classes).
fn gather(fitness: &[f64], targets: &[GoalIdx]) -> Vec<f64> {
    targets.iter().map(|&g| at(fitness, g)).collect()
}

/// [`preference_sort`] over rows gathered on `n_targets` targets (`rows[i][k]`: test `i` on the
/// `k`-th target). The same fronts and the same draws from `rng` as a scan target by target: per
/// target, the best (value, length) and its ties are found in one pass over the rows (ties keep
/// index order), a random tie is drawn for each target in target order where there are several,
/// and only the targets whose drawn tie is not the first are scanned again. A target on which every
/// test has the same value needs no special case: its ties are the shortest tests.
pub fn preference_sort_rows(
    rows: &[&[f64]],
    n_targets: usize,
    lengths: &[usize],
    min_ranked: usize,
    rng: &mut TestRng,
) -> Vec<Vec<usize>> {
    let n = rows.len();
    if n_targets == 0 {
        return if n == 0 { Vec::new() } else { vec![(0..n).collect()] };
    }
    if n == 0 {
        return vec![Vec::new()];
    }
    let lens: Vec<usize> = (0..n).map(|i| lengths.get(i).copied().unwrap_or(usize::MAX)).collect();
    // Per target: the best value and length, how many tests tie with it, and the first of them.
    // Branch-free over 64-bit lanes (values as `total_cmp` keys), so that the compiler can
    // vectorise the pass: it walks every member's row, hundreds of tests by thousands of targets.
    let mut best_v: Vec<i64> = rows[0][..n_targets].iter().map(|&x| order_key(x)).collect();
    let mut best_l: Vec<u64> = vec![lens[0] as u64; n_targets];
    let mut count: Vec<u64> = vec![1; n_targets];
    let mut first: Vec<u64> = vec![0; n_targets];
    for (i, row) in rows.iter().enumerate().skip(1) {
        let (len, at) = (lens[i] as u64, i as u64);
        let lanes = best_v.iter_mut().zip(best_l.iter_mut()).zip(count.iter_mut()).zip(first.iter_mut());
        for ((((b, l), c), f), &x) in lanes.zip(&row[..n_targets]) {
            let x = order_key(x);
            let less = (x < *b) | ((x == *b) & (len < *l));
            let tie = (x == *b) & (len == *l);
            *b = if less { x } else { *b };
            *l = if less { len } else { *l };
            *c = if less { 1 } else { *c + u64::from(tie) };
            *f = if less { at } else { *f };
        }
    }
    let count: Vec<usize> = count.into_iter().map(|c| c as usize).collect();
    let first: Vec<usize> = first.into_iter().map(|f| f as usize).collect();
    // The draws, in target order; the tie drawn is the first one unless the draw says otherwise.
    let mut in_zero = vec![false; n];
    let mut later: Vec<(usize, usize)> = Vec::new();
    for k in 0..n_targets {
        let wanted = if count[k] == 1 { 0 } else { rng.random_range(0..count[k]) };
        if wanted == 0 {
            in_zero[first[k]] = true;
        } else {
            later.push((k, wanted));
        }
    }
    if !later.is_empty() {
        let mut seen = vec![0usize; later.len()];
        let from = later.iter().map(|&(k, _)| first[k]).min().unwrap_or(0);
        for (i, row) in rows.iter().enumerate().skip(from) {
            for (&(k, wanted), s) in later.iter().zip(seen.iter_mut()) {
                if order_key(row[k]) == best_v[k] && lens[i] as u64 == best_l[k] {
                    if *s == wanted {
                        in_zero[i] = true;
                    }
                    *s += 1;
                }
            }
        }
    }
    rank_rest(rows, &in_zero, min_ranked)
}

/// Front 0 (the rows marked in `in_zero`), then, if it has fewer than `min_ranked` rows, the
/// non-dominated fronts of the rest until at least `min_ranked` rows are ranked; else the rest as
/// one front.
fn rank_rest(rows: &[&[f64]], in_zero: &[bool], min_ranked: usize) -> Vec<Vec<usize>> {
    let n = rows.len();
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
            .filter(|&i| !remaining.iter().any(|&j| j != i && dominates_dense(rows[j], rows[i])))
            .collect();
        remaining.retain(|i| !front.contains(i));
        ranked += front.len();
        fronts.push(front);
    }
    fronts
}

/// An integer that orders as `f64::total_cmp` orders floats (its own definition).
fn order_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
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
    let rows: Vec<Vec<f64>> = fitness.iter().map(|f| gather(f, targets)).collect();
    let rows: Vec<&[f64]> = rows.iter().map(Vec::as_slice).collect();
    preference_sort_rows(&rows, targets.len(), lengths, min_ranked, rng)
}

/// EvoSuite's sub-vector dominance crowding (`fastEpsilonDominanceAssignment`): for each target on
/// which the front's tests differ, the tests with the minimum value get at least
/// `(|front| − |minimal|) / |front|`; all others keep 0. One value per member of `front`.
pub fn crowding_distance(fitness: &[&[f64]], front: &[usize], targets: &[GoalIdx]) -> Vec<f64> {
    let rows: Vec<Vec<f64>> = fitness.iter().map(|f| gather(f, targets)).collect();
    let rows: Vec<&[f64]> = rows.iter().map(Vec::as_slice).collect();
    crowding_distance_rows(&rows, targets.len(), front)
}

/// [`crowding_distance`] over gathered rows: minimum, maximum and the number of minimal tests per
/// target in one pass over the front, then one pass for the distances.
pub fn crowding_distance_rows(rows: &[&[f64]], n_targets: usize, front: &[usize]) -> Vec<f64> {
    let mut min = vec![f64::INFINITY; n_targets];
    let mut max = vec![f64::NEG_INFINITY; n_targets];
    let mut n_min = vec![0u64; n_targets];
    for &i in front {
        let row = &rows[i][..n_targets];
        // Branch-free, as in `preference_sort_rows`.
        for (((lo, hi), c), &x) in min.iter_mut().zip(max.iter_mut()).zip(n_min.iter_mut()).zip(row) {
            let less = x < *lo;
            *c = if less { 1 } else { *c + u64::from(x == *lo) };
            *lo = if less { x } else { *lo };
            *hi = if x > *hi { x } else { *hi };
        }
    }
    // Per target, what its minimal tests get (negative: the front does not differ on it).
    let size = front.len() as f64;
    let weight: Vec<f64> = (0..n_targets)
        .map(|k| if max[k] != min[k] { (front.len() - n_min[k] as usize) as f64 / size } else { -1.0 })
        .collect();
    distances(rows, front, &min, &weight)
}

/// Per member of `front`, the largest `weight[k]` over the targets `k` on which its value is the
/// minimum `min[k]` (0 if none is positive).
fn distances(rows: &[&[f64]], front: &[usize], min: &[f64], weight: &[f64]) -> Vec<f64> {
    front
        .iter()
        .map(|&i| {
            let mut d: f64 = 0.0;
            for ((&x, &lo), &w) in rows[i].iter().zip(min).zip(weight) {
                let c = if x == lo { w } else { -1.0 };
                d = if c > d { c } else { d };
            }
            d
        })
        .collect()
}

/// One target's part of [`Front0`]: the best (value as `order_key`, length) over the rows and the
/// rows that have it (ties), and the minimum value and the rows that have it (ascending both).
#[derive(Debug, Clone)]
struct Best {
    key: i64,
    len: u64,
    ties: Vec<u32>,
    min: f64,
    mins: Vec<u32>,
}

impl Best {
    const EMPTY: Best =
        Best { key: i64::MAX, len: u64::MAX, ties: Vec::new(), min: f64::INFINITY, mins: Vec::new() };

    fn add(&mut self, x: f64, len: u64, at: u32) {
        let key = order_key(x);
        if self.ties.is_empty() || key < self.key || (key == self.key && len < self.len) {
            self.key = key;
            self.len = len;
            self.ties.clear();
            self.ties.push(at);
        } else if key == self.key && len == self.len {
            self.ties.push(at);
        }
        if x < self.min {
            self.min = x;
            self.mins.clear();
            self.mins.push(at);
        } else if x == self.min {
            self.mins.push(at);
        }
    }
}

/// What front 0 of the preference sorting and its crowding distance need, kept up to date for a
/// population that keeps all of front 0 from one generation to the next (DynaMOSA), so that a
/// generation costs a pass over its offspring's rows and over the lists of best and minimal rows,
/// instead of passes over every member's row (on gson `JsonReader`, front 0 holds ~600
/// tests for ~1,700 targets, ~1M values, while the minimal rows of the targets on which front 0
/// differs are ~60k; ranking from scratch was most of the engine's time). Rows are
/// positions in the order they were pushed; the fronts, the draws from the RNG and the distances
/// are those of [`preference_sort_rows`] and [`crowding_distance_rows`] on the same rows.
#[derive(Debug, Clone, Default)]
pub struct Front0 {
    best: Vec<Best>,
    lens: Vec<usize>,
}

impl Front0 {
    /// No rows yet, on `n_targets` targets.
    pub fn new(n_targets: usize) -> Front0 {
        Front0 { best: vec![Best::EMPTY; n_targets], lens: Vec::new() }
    }

    /// Rows pushed so far.
    pub fn len(&self) -> usize {
        self.lens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lens.is_empty()
    }

    /// Adds the next row (its values on the targets, in order) of a test of length `len`.
    pub fn push(&mut self, row: &[f64], len: usize) {
        let at = self.lens.len() as u32;
        for (b, &x) in self.best.iter_mut().zip(row) {
            b.add(x, len as u64, at);
        }
        self.lens.push(len);
    }

    /// New targets: `map[k]` is the old position of the `k`-th new target, or `None` for a target
    /// computed afresh from `rows` (the rows pushed so far, on the new targets).
    pub fn remap(&mut self, map: &[Option<usize>], rows: &[&[f64]]) {
        let old = std::mem::take(&mut self.best);
        self.best = map
            .iter()
            .enumerate()
            .map(|(k, m)| match m {
                Some(o) => old[*o].clone(),
                None => {
                    let mut b = Best::EMPTY;
                    for (i, (row, &len)) in rows.iter().zip(&self.lens).enumerate() {
                        b.add(row[k], len as u64, i as u32);
                    }
                    b
                }
            })
            .collect();
    }

    /// The fronts of [`preference_sort_rows`] over the rows pushed (`rows`: the same rows).
    pub fn fronts(&self, rows: &[&[f64]], min_ranked: usize, rng: &mut TestRng) -> Vec<Vec<usize>> {
        let n = self.lens.len();
        if self.best.is_empty() {
            return if n == 0 { Vec::new() } else { vec![(0..n).collect()] };
        }
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut in_zero = vec![false; n];
        for b in &self.best {
            let wanted = if b.ties.len() == 1 { 0 } else { rng.random_range(0..b.ties.len()) };
            in_zero[b.ties[wanted] as usize] = true;
        }
        rank_rest(rows, &in_zero, min_ranked)
    }

    /// Keeps the rows `kept` (ascending positions; they must include front 0, so that each
    /// target's best stays), renumbered from 0.
    pub fn keep(&mut self, kept: &[usize]) {
        if kept.is_empty() {
            *self = Front0::new(self.best.len());
            return;
        }
        let mut new_at = vec![u32::MAX; self.lens.len()];
        for (j, &i) in kept.iter().enumerate() {
            new_at[i] = j as u32;
        }
        let renumber = |t: &mut u32| {
            *t = new_at[*t as usize];
            *t != u32::MAX
        };
        for b in &mut self.best {
            b.ties.retain_mut(renumber);
            b.mins.retain_mut(renumber);
            debug_assert!(!b.ties.is_empty(), "a target's best row was not kept");
        }
        self.lens = kept.iter().map(|&i| self.lens[i]).collect();
    }

    /// [`crowding_distance_rows`] of all the rows pushed, taken as one front: after
    /// [`Front0::keep`] of front 0, front 0's distances. A row's distance is the largest weight
    /// `(|front| - |minimal|) / |front|` of the targets on which it is minimal and the front
    /// differs, that is the one with the fewest minimal rows: one pass over the lists of minimal
    /// rows instead of over every row.
    pub fn crowding(&self) -> Vec<f64> {
        let size = self.lens.len();
        let mut fewest = vec![usize::MAX; size];
        for b in self.best.iter().filter(|b| b.mins.len() < size) {
            for &i in &b.mins {
                let f = &mut fewest[i as usize];
                *f = (*f).min(b.mins.len());
            }
        }
        fewest
            .into_iter()
            .map(|n| if n == usize::MAX { 0.0 } else { (size - n) as f64 / size as f64 })
            .collect()
    }
}

/// A member of the population with its rank and crowding distance, for the tournament, and its
/// fitness on the targets of the generation that ranked it (`Rows`).
struct Ranked {
    ind: Individual,
    rank: usize,
    distance: f64,
    row: Vec<f64>,
}

/// The targets the kept rows were gathered on; the next generation's rows are the same values
/// when the targets did not change, else a remap of them (a target kept is copied from the old
/// row; only a new target is read from the full fitness vector).
#[derive(Default)]
struct Rows {
    targets: Vec<GoalIdx>,
}

impl Rows {
    /// The rows of `union` on `targets`: `rows[i]` is kept (remapped when the targets changed) for
    /// a member ranked before, gathered for a new one.
    /// Also returns, when the targets changed, each new target's position among the old ones.
    fn update(
        &mut self,
        union: &[Individual],
        mut rows: Vec<Option<Vec<f64>>>,
        targets: Vec<GoalIdx>,
    ) -> (Vec<Vec<f64>>, Option<Vec<Option<usize>>>) {
        let mut changed = None;
        if targets != self.targets {
            // For each new target, its position among the old ones (both lists ascend).
            let mut map: Vec<Option<usize>> = Vec::with_capacity(targets.len());
            let mut j = 0;
            for g in &targets {
                while j < self.targets.len() && self.targets[j] < *g {
                    j += 1;
                }
                map.push((self.targets.get(j) == Some(g)).then_some(j));
            }
            for (row, ind) in rows.iter_mut().zip(union) {
                if let Some(old) = row {
                    let new = map
                        .iter()
                        .zip(&targets)
                        .map(|(m, &g)| m.map_or_else(|| at(&ind.eval.fitness, g), |o| old[o]))
                        .collect();
                    *old = new;
                }
            }
            self.targets = targets;
            changed = Some(map);
        }
        let rows = rows
            .into_iter()
            .zip(union)
            .map(|(row, ind)| row.unwrap_or_else(|| gather(&ind.eval.fitness, &self.targets)))
            .collect();
        (rows, changed)
    }
}

fn better(a: &Ranked, b: &Ranked) -> Ordering {
    a.rank.cmp(&b.rank).then(b.distance.total_cmp(&a.distance))
}

/// Whether a test calls anything (EvoSuite's `hasMethodCall`): a test without a call cannot cover
/// anything in the class under test.
fn has_call(t: &TestCase) -> bool {
    t.statements.iter().any(|s| s.is_call())
}

/// The population and what its ranking keeps between generations.
struct Generations {
    population: Vec<Ranked>,
    rows: Rows,
    /// DynaMOSA's front 0 state over `population` (`None` for MOSA, whose population may lose
    /// front 0 members to the population size).
    front0: Option<Front0>,
    pop_size: usize,
}

impl Batches for Generations {
    fn make(&mut self, cx: &Search<'_>, rng: &mut TestRng) -> Vec<TestCase> {
        breed(cx, &self.population, self.pop_size, rng)
    }

    /// Injected tests join the union after the offspring and are ranked with them.
    fn absorb(
        &mut self,
        cx: &mut Search<'_>,
        rng: &mut TestRng,
        offspring: Vec<Individual>,
        injected: Vec<Individual>,
    ) {
        let population = std::mem::take(&mut self.population);
        let size = population.len() + offspring.len() + injected.len();
        let mut union = Vec::with_capacity(size);
        let mut kept = Vec::with_capacity(size);
        for r in population {
            union.push(r.ind);
            kept.push(Some(r.row));
        }
        kept.resize(size, None);
        union.extend(offspring);
        union.extend(injected);
        self.population =
            select_next(cx, union, kept, &mut self.rows, self.front0.as_mut(), self.pop_size, rng);
    }
}

/// The initial population, then generations with one in flight ([`pipelined`]): the offspring
/// the workers run were bred from the population before the last generation's selection.
pub(crate) fn run(cx: &mut Search<'_>, rng: &mut TestRng, dynamic: bool) -> Result<(), SearchError> {
    let pop_size = cx.config.population.max(2);
    let initial: Vec<TestCase> = (0..pop_size).map(|_| cx.factory().random_test(rng)).collect();
    let evaluated = cx.evaluate(initial)?;
    let mut rows = Rows::default();
    let fresh = vec![None; evaluated.len()];
    let mut front0 = dynamic.then(Front0::default);
    let population = select_next(cx, evaluated, fresh, &mut rows, front0.as_mut(), pop_size, rng);
    cx.end_iteration();
    pipelined(cx, rng, &mut Generations { population, rows, front0, pop_size })
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
/// most crowded-apart tests of the next front. DynaMOSA (`front0` given) keeps at least all of
/// front 0; MOSA cuts it to the population size if it is larger. `kept[i]` is
/// the row `union[i]` had as a member of the last population (see `Rows`). `front0`, DynaMOSA's
/// state over the last population (empty before the first selection), is brought up to the union
/// by its offspring's rows, ranks it, and is left over the next population, which then keeps the
/// union's order (`Front0` numbers rows in order).
fn select_next(
    cx: &Search<'_>,
    union: Vec<Individual>,
    kept: Vec<Option<Vec<f64>>>,
    rows: &mut Rows,
    front0: Option<&mut Front0>,
    pop_size: usize,
    rng: &mut TestRng,
) -> Vec<Ranked> {
    let n_members = kept.iter().filter(|r| r.is_some()).count();
    let (all_rows, map) = rows.update(&union, kept, cx.uncovered_targets());
    let n_targets = rows.targets.len();
    let lengths: Vec<usize> = union.iter().map(Individual::len).collect();
    let refs: Vec<&[f64]> = all_rows.iter().map(Vec::as_slice).collect();
    let mut chosen: Vec<(usize, usize, f64)>;
    match front0 {
        Some(f) => {
            if f.len() != n_members {
                // The first selection (or a state out of step, which does not happen): from scratch.
                *f = Front0::new(n_targets);
            } else if let Some(map) = &map {
                f.remap(map, &refs[..n_members]);
            }
            for (row, &len) in refs.iter().zip(&lengths).skip(f.len()) {
                f.push(row, len);
            }
            let fronts = f.fronts(&refs, pop_size, rng);
            if fronts[0].len() >= pop_size {
                // All of front 0 and nothing else: its crowding from the state.
                f.keep(&fronts[0]);
                let d = f.crowding();
                chosen = fronts[0].iter().zip(d).map(|(&i, di)| (i, 0, di)).collect();
            } else {
                chosen = choose(&refs, n_targets, &fronts, pop_size.max(fronts[0].len()));
                chosen.sort_by_key(|c| c.0);
                let members: Vec<usize> = chosen.iter().map(|c| c.0).collect();
                f.keep(&members);
            }
        }
        None => {
            let fronts = preference_sort_rows(&refs, n_targets, &lengths, pop_size, rng);
            chosen = choose(&refs, n_targets, &fronts, pop_size);
        }
    }
    drop(refs);
    let mut slots: Vec<Option<(Individual, Vec<f64>)>> = union.into_iter().zip(all_rows).map(Some).collect();
    chosen
        .into_iter()
        .filter_map(|(i, rank, distance)| {
            slots[i].take().map(|(ind, row)| Ranked { ind, rank, distance, row })
        })
        .collect()
}

/// Up to `remain` rows of `fronts`, as (row, rank, crowding distance): whole fronts while they fit,
/// then the most crowded-apart rows of the next front (stable: equal distances keep the front's
/// order).
fn choose(
    refs: &[&[f64]],
    n_targets: usize,
    fronts: &[Vec<usize>],
    mut remain: usize,
) -> Vec<(usize, usize, f64)> {
    let mut chosen = Vec::with_capacity(remain);
    for (rank, front) in fronts.iter().enumerate() {
        if remain == 0 || front.is_empty() {
            break;
        }
        let d = crowding_distance_rows(refs, n_targets, front);
        if front.len() <= remain {
            chosen.extend(front.iter().zip(&d).map(|(&i, &di)| (i, rank, di)));
            remain -= front.len();
        } else {
            let mut order: Vec<usize> = (0..front.len()).collect();
            order.sort_by(|&x, &y| d[y].total_cmp(&d[x]));
            chosen.extend(order.into_iter().take(remain).map(|k| (front[k], rank, d[k])));
            remain = 0;
        }
    }
    chosen
}
