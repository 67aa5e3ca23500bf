//! Whole test suite generation (Fraser & Arcuri, TSE 2013) with EvoSuite's monotonic GA
//! (`MonotonicGA`, digest 002 §2.3): individuals are suites; the fitness of a suite is the sum over
//! the goals not yet in the archive of the best value any of its tests reaches (EvoSuite's sum of
//! normalised distances, with covered goals removed as the archive fills); rank selection with
//! `rank_bias`, elitism, single-point relative crossover of suites, suite mutation (each test with
//! probability 1/|T|, then new tests with probability `p_test_insertion^k`); offspring replace their
//! parents only if the better offspring is no worse than the better parent (length breaks ties).
//!
//! Tests a hook injects (`seam`) become one extra candidate suite of their generation: the best
//! suite with them added (`with_injected` says why), which competes in the sorting; the population
//! keeps its size.
//!
//! A generation's offspring are bred first and evaluated in one batch; the replacement decisions
//! follow in breeding order. That is EvoSuite's loop with the evaluations moved together, which
//! changes nothing but the moment the archive learns of a covering test. Generations run with one
//! in flight (`context::pipelined`): offspring are bred from the population before the replacement
//! of the generation still running.

use std::sync::Arc;

use rand::RngExt;
use testcase::{TestCase, TestRng};

use crate::SearchError;
use crate::context::{Batches, Individual, Search, pipelined};
use crate::select::rank_index;

/// A suite member: already evaluated, or new and waiting for the generation's batch.
enum Member {
    Done(Individual),
    Todo(TestCase),
}

/// A suite and the best value its tests reach on each goal, computed once when the suite is made
/// (it does not depend on the archive, which only decides which goals count), shared by its copies.
#[derive(Clone)]
struct Suite {
    tests: Vec<Individual>,
    best: Arc<Vec<f64>>,
}

impl Suite {
    /// The best value per goal is taken test by test over whole fitness vectors (one sequential
    /// pass each); a goal found after every test ran is infinite (see `suite_fitness`).
    fn new(tests: Vec<Individual>) -> Suite {
        let width = tests.iter().map(|t| t.eval.fitness.len()).max().unwrap_or(0);
        let mut best = vec![f64::INFINITY; width];
        for t in &tests {
            // Values are never NaN (the search checks them), so a plain compare, which vectorises.
            for (b, &x) in best.iter_mut().zip(&t.eval.fitness) {
                *b = if x < *b { x } else { *b };
            }
        }
        Suite { tests, best: Arc::new(best) }
    }

    fn length(&self) -> usize {
        self.tests.iter().map(Individual::len).sum()
    }
}

/// The goals a suite's fitness sums over, ascending: the targets the archive has not covered
/// (every goal but the covered ones, unless a target policy says otherwise), and the weight of
/// each one's term when the policy gives weights (smart selection, `guiding`; empty: all 1).
struct Open {
    goals: Vec<usize>,
    weights: Vec<f64>,
}

fn open_goals(cx: &Search<'_>) -> Open {
    let goals: Vec<usize> = cx.uncovered_targets().into_iter().map(|g| g.index()).collect();
    let weights = match cx.weights() {
        Some(w) => goals.iter().map(|&g| w.get(g).copied().unwrap_or(1.0)).collect(),
        None => Vec::new(),
    };
    Open { goals, weights }
}

/// Suite fitness over the `open` goals, summed in goal order.
fn suite_fitness(open: &Open, suite: &Suite) -> f64 {
    let mut sum = 0.0;
    for (k, &g) in open.goals.iter().enumerate() {
        // An empty suite reaches nothing: the worst value EvoSuite uses for a goal is 1 per
        // normalised term; any bound works as long as it is the same for all suites.
        let b = suite.best.get(g).copied().unwrap_or(f64::INFINITY);
        let term = if b.is_finite() { b } else { 1.0 };
        sum += match open.weights.get(k) {
            Some(w) => w * term,
            None => term,
        };
    }
    sum
}

/// Sorts best first over the `open` goals: lower fitness, then shorter (stable, so ties keep their
/// order).
fn sort_population(open: &Open, population: Vec<Suite>) -> Vec<(f64, Suite)> {
    let mut scored: Vec<(f64, Suite)> =
        population.into_iter().map(|s| (suite_fitness(open, &s), s)).collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.length().cmp(&b.1.length())));
    scored
}

fn no_worse(a: &(f64, usize), b: &(f64, usize)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 <= b.1)
}

/// The `Todo` tests of `suites`, in order, and the suites' shape: each member kept (`Some`) or
/// waiting for the next evaluation of those tests (`None`).
fn split(suites: Vec<Vec<Member>>) -> (Vec<TestCase>, Vec<Vec<Option<Individual>>>) {
    let mut todo = Vec::new();
    let mut shape = Vec::with_capacity(suites.len());
    for s in suites {
        let mut members = Vec::with_capacity(s.len());
        for m in s {
            match m {
                Member::Done(i) => members.push(Some(i)),
                Member::Todo(t) => {
                    todo.push(t);
                    members.push(None);
                }
            }
        }
        shape.push(members);
    }
    (todo, shape)
}

/// The suites of `shape` with the evaluations of their `Todo` tests, in order.
fn join(shape: Vec<Vec<Option<Individual>>>, evaluated: Vec<Individual>) -> Vec<Suite> {
    let mut evaluated = evaluated.into_iter();
    shape
        .into_iter()
        .map(|members| {
            Suite::new(members.into_iter().filter_map(|m| m.or_else(|| evaluated.next())).collect())
        })
        .collect()
}

/// Offspring bred and waiting for their batch: their shape and their parents, in breeding order.
struct Bred {
    shape: Vec<Vec<Option<Individual>>>,
    parents: Vec<(Suite, Suite)>,
}

/// The population, best first, and the offspring bred from it whose batch is not absorbed yet.
struct Generations {
    population: Vec<(f64, Suite)>,
    bred: std::collections::VecDeque<Bred>,
}

impl Batches for Generations {
    fn make(&mut self, cx: &Search<'_>, rng: &mut TestRng) -> Vec<TestCase> {
        let config = cx.config;
        let pop_size = config.population.max(2);
        let n_elite = config.elite.min(pop_size).min(self.population.len());
        let population = &self.population;
        let mut parents = Vec::new();
        let mut offspring = Vec::new();
        while n_elite + offspring.len() < pop_size {
            let a = rank_index(population.len(), config.rank_bias, rng);
            let b = rank_index(population.len(), config.rank_bias, rng);
            let (pa, pb) = (&population[a].1, &population[b].1);
            let (mut o1, mut o2): (Vec<Member>, Vec<Member>) = if rng
                .random_bool(config.crossover_rate.clamp(0.0, 1.0))
                && pa.tests.len() >= 2
                && pb.tests.len() >= 2
            {
                // Single-point relative crossover of suites: one relative cut for both parents.
                let split: f64 = rng.random();
                let cut = |s: &Suite| ((s.tests.len() - 1) as f64 * split).floor() as usize + 1;
                let (ca, cb) = (cut(pa), cut(pb));
                let c1 = pa.tests[..ca].iter().chain(&pb.tests[cb..]).cloned().map(Member::Done).collect();
                let c2 = pb.tests[..cb].iter().chain(&pa.tests[ca..]).cloned().map(Member::Done).collect();
                (c1, c2)
            } else {
                (
                    pa.tests.iter().cloned().map(Member::Done).collect(),
                    pb.tests.iter().cloned().map(Member::Done).collect(),
                )
            };
            mutate_suite(cx, &mut o1, rng);
            mutate_suite(cx, &mut o2, rng);
            parents.push((pa.clone(), pb.clone()));
            offspring.push(o1);
            offspring.push(o2);
        }
        let (todo, shape) = split(offspring);
        self.bred.push_back(Bred { shape, parents });
        todo
    }

    fn absorb(
        &mut self,
        cx: &mut Search<'_>,
        _: &mut TestRng,
        evaluated: Vec<Individual>,
        injected: Vec<Individual>,
    ) {
        let Some(Bred { shape, parents }) = self.bred.pop_front() else { return };
        let config = cx.config;
        let pop_size = config.population.max(2);
        let mut next: Vec<Suite> =
            self.population.iter().take(config.elite.min(pop_size)).map(|p| p.1.clone()).collect();
        // Fitness values of this generation use the archive after the batch, for parents too.
        let open = open_goals(cx);
        let score = |s: &Suite| (suite_fitness(&open, s), s.length());
        let mut offspring = join(shape, evaluated).into_iter();
        for (pa, pb) in parents {
            let (Some(mut o1), Some(mut o2)) = (offspring.next(), offspring.next()) else { break };
            // Empty or oversized offspring are replaced by their parents (EvoSuite's `isTooLong`).
            if o1.tests.is_empty() || o1.tests.len() > config.max_suite_size {
                o1 = pa.clone();
            }
            if o2.tests.is_empty() || o2.tests.len() > config.max_suite_size {
                o2 = pb.clone();
            }
            let (s1, s2, sa, sb) = (score(&o1), score(&o2), score(&pa), score(&pb));
            let best_off = if no_worse(&s1, &s2) { s1 } else { s2 };
            let best_par = if no_worse(&sa, &sb) { sa } else { sb };
            if no_worse(&best_off, &best_par) {
                next.push(o1);
                next.push(o2);
            } else {
                next.push(pa);
                next.push(pb);
            }
        }
        next.truncate(pop_size);
        if !injected.is_empty() {
            next.push(with_injected(self.population.first().map(|p| &p.1), injected, config.max_suite_size));
        }
        self.population = sort_population(&open, next);
        // Only an injected candidate can make the population larger than its size: the worst goes.
        self.population.truncate(pop_size);
    }
}

/// Tests a hook injected, as one extra candidate suite: the best suite of the last population with
/// the injected tests added (first, so that `max_suite_size` never cuts them). Joined to the best
/// suite, the candidate is no worse than it on any goal, so an injected test that improves a goal
/// makes it the best suite and one that does not costs only its length; a suite of the injected
/// tests alone would lose to every suite that reaches what they do not and be dropped at once.
/// (The archive has already taken whatever they cover.)
fn with_injected(best: Option<&Suite>, injected: Vec<Individual>, max_suite_size: usize) -> Suite {
    let mut tests = injected;
    tests.extend(best.into_iter().flat_map(|s| s.tests.iter().cloned()));
    tests.truncate(max_suite_size.max(1));
    Suite::new(tests)
}

/// The initial population, then generations with one in flight ([`pipelined`]): the offspring
/// the workers run were bred from the population before the last generation's replacement.
pub(crate) fn run(cx: &mut Search<'_>, rng: &mut TestRng) -> Result<(), SearchError> {
    let config = cx.config;
    let pop_size = config.population.max(2);
    let (lo, hi) =
        (config.min_initial_tests.max(1), config.max_initial_tests.max(config.min_initial_tests.max(1)));
    let initial: Vec<Vec<Member>> = (0..pop_size)
        .map(|_| {
            let n = rng.random_range(lo..=hi);
            (0..n).map(|_| Member::Todo(cx.factory().random_test(rng))).collect()
        })
        .collect();
    let (todo, shape) = split(initial);
    let evaluated = cx.evaluate(todo)?;
    let population = sort_population(&open_goals(cx), join(shape, evaluated));
    cx.end_iteration();
    // The best suite's tests are all in the archive already for the goals they cover; nothing
    // else to return.
    pipelined(cx, rng, &mut Generations { population, bred: Default::default() })
}

/// EvoSuite's `TestSuiteChromosome.mutate`: each test mutated with probability 1/|T|, emptied tests
/// removed, then new random tests added while `rand <= p_test_insertion^k` and the suite is
/// smaller than `max_suite_size`.
fn mutate_suite(cx: &Search<'_>, suite: &mut Vec<Member>, rng: &mut TestRng) {
    let factory = cx.factory();
    let p = if suite.is_empty() { 0.0 } else { 1.0 / suite.len() as f64 };
    for m in suite.iter_mut() {
        if rng.random_bool(p) {
            let mut t = match m {
                Member::Done(i) => (*i.test).clone(),
                Member::Todo(t) => std::mem::take(t),
            };
            let changed = factory.mutate(&mut t, rng);
            *m = match (changed, &*m) {
                (false, Member::Done(_)) => continue,
                _ => Member::Todo(t),
            };
        }
    }
    suite.retain(|m| match m {
        Member::Done(i) => !i.test.is_empty(),
        Member::Todo(t) => !t.is_empty(),
    });
    let alpha = cx.config.p_test_insertion.clamp(0.0, 1.0);
    let mut k = 1;
    while rng.random::<f64>() <= alpha.powi(k) && suite.len() < cx.config.max_suite_size {
        suite.push(Member::Todo(factory.random_test(rng)));
        k += 1;
    }
}
