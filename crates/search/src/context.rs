//! The state every algorithm shares: the problem and the hooks (`seam`), the archive, the target
//! policy (`target`: all goals, DynaMOSA's released goals, or one passed in), the budget and the
//! statistics. All evaluation goes through `Search::evaluate`, which batches, validates, updates
//! the archive in the order of the batch, tells the policy what was covered and reports events;
//! `pipelined` runs every algorithm with one batch in flight and calls the hooks between batches.

use std::sync::Arc;
use std::time::Duration;

use testcase::{TestCase, TestCluster, TestFactory, TestRng, ValuePool};

use crate::seam::{Best, Driver, View};
use crate::target::{Goals, Release, TargetPolicy, Targets};
use crate::{Archive, Clock, Evaluation, GoalIdx, SearchConfig, SearchError, SearchResult};

/// Progress of a run, for a callback (CLI progress bar, statistics).
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A goal was covered for the first time, by the `evaluations`-th evaluated test.
    Covered { goal: GoalIdx, evaluations: u64 },
    /// A goal became a target: a DynaMOSA root at the start or a goal added while searching (`by:
    /// None`), or released when the goal `by` was covered. The target policy decides what it
    /// reports (`target::Release`): DynaMOSA's reports every release; the all-goals policy, which
    /// targets every goal from the start, reports none.
    Released { goal: GoalIdx, by: Option<GoalIdx> },
    /// A generation (GA) or a batch (random, MIO) ended.
    /// `goals` is the number of goals known now (context goals appear while searching).
    Iteration { iteration: u64, evaluations: u64, covered: usize, goals: usize, targets: usize },
}

/// One point of the coverage curve, recorded at the end of every iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub iteration: u64,
    pub evaluations: u64,
    pub covered: usize,
}

/// Counters of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    pub n_goals: usize,
    pub covered: usize,
    /// Generations (GA) or batches of new tests (random, MIO).
    pub iterations: u64,
    /// Tests evaluated.
    pub evaluations: u64,
    /// Calls of `Problem::evaluate`.
    pub batches: u64,
    /// Coverage after each iteration.
    pub history: Vec<Progress>,
    /// Clock time spent inside `Problem::evaluate` calls (waiting for a batch and processing its
    /// results; the next batch may run meanwhile, see [`pipelined`]), and in the whole run.
    pub evaluation_time: Duration,
    pub elapsed: Duration,
}

/// A test with its evaluation. Both are shared: populations, suites and the archive point at the
/// same values.
#[derive(Debug, Clone)]
pub(crate) struct Individual {
    pub test: Arc<TestCase>,
    pub eval: Arc<Evaluation>,
}

impl Individual {
    pub fn len(&self) -> usize {
        self.test.len()
    }
}

/// The goals a fitness vector covers (value `0.0`), ascending, after checking that every value is
/// finite and non-negative (`test` is the position in the batch, for the error). Zeros are rare:
/// the check is a branch-free reduction per block of values, and only a block holding a zero is
/// scanned for positions.
fn covered_goals(test: usize, fitness: &[f64]) -> Result<Vec<GoalIdx>, SearchError> {
    const BLOCK: usize = 64;
    let mut covered = Vec::new();
    for (b, block) in fitness.chunks(BLOCK).enumerate() {
        // On the bits, so that the loop vectorises: a value is valid when it is below +inf's bits
        // (non-negative and finite) or is -0.0, and zero when only its sign bit may be set.
        let (mut bad, mut zero) = (false, false);
        for &f in block {
            let b = f.to_bits();
            bad |= (b >= f64::INFINITY.to_bits()) & (b != (-0.0f64).to_bits());
            zero |= (b << 1) == 0;
        }
        if bad {
            let (k, &value) =
                block.iter().enumerate().find(|(_, f)| !f.is_finite() || **f < 0.0).unwrap_or((0, &block[0]));
            return Err(SearchError::BadFitness { test, goal: GoalIdx::new(b * BLOCK + k), value });
        }
        if zero {
            covered.extend(
                block
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| **f == 0.0)
                    .map(|(k, _)| GoalIdx::new(b * BLOCK + k)),
            );
        }
    }
    Ok(covered)
}

pub(crate) struct Search<'a> {
    /// The problem, and the hooks called between generations (`seam`).
    driver: &'a mut dyn Driver,
    cluster: &'a TestCluster,
    pool: &'a mut ValuePool,
    pub config: &'a SearchConfig,
    clock: &'a dyn Clock,
    on_event: &'a mut dyn FnMut(&Event),
    pub archive: Archive,
    pub stats: Stats,
    /// Which goals are targets (`target`): all, or DynaMOSA's released goals, or a policy passed in.
    policy: Box<dyn TargetPolicy + 'a>,
    /// The best test per uncovered goal, for hooks' `View::best`; kept only when there are hooks.
    best: Option<Best>,
}

impl<'a> Search<'a> {
    pub fn new(
        driver: &'a mut dyn Driver,
        policy: Box<dyn TargetPolicy + 'a>,
        cluster: &'a TestCluster,
        pool: &'a mut ValuePool,
        config: &'a SearchConfig,
        clock: &'a dyn Clock,
        on_event: &'a mut dyn FnMut(&Event),
    ) -> Result<Search<'a>, SearchError> {
        if config.budget.time.is_none() && config.budget.evaluations.is_none() {
            return Err(SearchError::NoBudget);
        }
        let n = driver.problem().n_goals();
        let best = driver.hooked().then(Best::default);
        let mut s = Search {
            driver,
            cluster,
            pool,
            config,
            clock,
            on_event,
            archive: Archive::new(n),
            stats: Stats {
                n_goals: n,
                covered: 0,
                iterations: 0,
                evaluations: 0,
                batches: 0,
                history: Vec::new(),
                evaluation_time: Duration::ZERO,
                elapsed: Duration::ZERO,
            },
            policy,
            best,
        };
        let mut released = Vec::new();
        let goals = Goals { problem: s.driver.problem(), archive: &s.archive };
        s.policy.start(goals, &mut released)?;
        s.report(&released);
        Ok(s)
    }

    /// Reports the policy's releases, in order.
    fn report(&mut self, released: &[Release]) {
        for r in released {
            (self.on_event)(&Event::Released { goal: r.goal, by: r.by });
        }
    }

    pub fn factory(&self) -> TestFactory<'_> {
        TestFactory::new(self.cluster, self.pool, &self.config.factory)
    }

    pub fn n_goals(&self) -> usize {
        self.archive.n_goals()
    }

    /// The goals that guide the search now (the target policy's choice).
    pub fn targets(&self) -> &Targets {
        self.policy.targets()
    }

    /// The target policy's goal weights for whole suite (`TargetPolicy::weights`).
    pub fn weights(&self) -> Option<&[f64]> {
        self.policy.weights()
    }

    /// The targets not yet covered, ascending: the objectives of MOSA's ranking, the goals whole
    /// suite sums over.
    pub fn uncovered_targets(&self) -> Vec<GoalIdx> {
        let targets = self.policy.targets();
        (0..self.archive.n_goals())
            .map(GoalIdx::new)
            .filter(|&g| targets.is_target(g) && !self.archive.is_covered(g))
            .collect()
    }

    /// The fraction of the budget used.
    pub fn progress(&self) -> f64 {
        self.config.budget.progress(self.clock.elapsed(), self.stats.evaluations)
    }

    pub fn should_stop(&self) -> bool {
        (self.config.stop_zero && self.all_covered())
            || self
                .config
                .stop_goals
                .as_ref()
                .is_some_and(|gs| gs.iter().all(|&g| self.archive.is_covered(g)))
            || self.config.budget.exhausted(self.clock.elapsed(), self.stats.evaluations)
    }

    /// Whether every goal is covered, the settled ones (`SearchConfig::settled`) counted as covered.
    fn all_covered(&self) -> bool {
        let settled = self.config.settled.iter().filter(|&&g| !self.archive.is_covered(g)).count();
        self.archive.n_covered() + settled >= self.archive.n_goals()
    }

    /// Adds goals discovered by the problem: uncovered, and targets as the policy decides.
    fn grow(&mut self, n: usize) -> Result<(), SearchError> {
        let old = self.archive.n_goals();
        if n <= old {
            return Ok(());
        }
        self.archive.grow(n);
        self.stats.n_goals = n;
        let mut released = Vec::new();
        let goals = Goals { problem: self.driver.problem(), archive: &self.archive };
        self.policy.grown(old..n, goals, &mut released)?;
        self.report(&released);
        Ok(())
    }

    /// Takes in the problem's goal count after a batch or after the hooks ran.
    fn sync_goals(&mut self) -> Result<(), SearchError> {
        let n = self.driver.problem().n_goals();
        if n < self.n_goals() {
            return Err(SearchError::GoalsShrank { before: self.n_goals(), after: n });
        }
        self.grow(n)
    }

    /// Runs the hooks between generations (`seam`) and returns the tests they inject; nothing at
    /// all without hooks.
    fn between(&mut self, rng: &mut TestRng) -> Result<Vec<TestCase>, SearchError> {
        let Some(best) = &self.best else { return Ok(Vec::new()) };
        let view = View {
            archive: &self.archive,
            targets: self.policy.targets(),
            best,
            cluster: self.cluster,
            pool: &*self.pool,
            config: self.config,
            iteration: self.stats.iterations,
            evaluations: self.stats.evaluations,
        };
        let tests = self.driver.between(&view, rng).map_err(|source| SearchError::Hook { source })?;
        self.sync_goals()?;
        Ok(tests)
    }

    /// Whether the search would stop after `n` more evaluations, judged now: before a batch's
    /// results are in, whether the batch after it may start ([`pipelined`]).
    fn stops_after(&self, n: usize) -> bool {
        self.should_stop()
            || self.config.budget.exhausted(self.clock.elapsed(), self.stats.evaluations + n as u64)
    }

    /// Evaluates a batch in one call of the problem, then updates the archive test by test in the
    /// batch's order.
    pub fn evaluate(&mut self, tests: Vec<TestCase>) -> Result<Vec<Individual>, SearchError> {
        self.evaluate_then(tests, None)
    }

    /// [`Search::evaluate`], letting the problem start `then`, the next batch, as soon as `tests`
    /// have run (`Problem::evaluate_then`).
    fn evaluate_then(
        &mut self,
        tests: Vec<TestCase>,
        then: Option<&[TestCase]>,
    ) -> Result<Vec<Individual>, SearchError> {
        if tests.is_empty() {
            return Ok(Vec::new());
        }
        let before = self.clock.elapsed();
        let evals = self
            .driver
            .problem_mut()
            .evaluate_then(&tests, then, &mut self.pool.dynamic)
            .map_err(|source| SearchError::Evaluate { tests: tests.len(), source })?;
        self.stats.evaluation_time += self.clock.elapsed().saturating_sub(before);
        self.stats.batches += 1;
        if evals.len() != tests.len() {
            return Err(SearchError::WrongCount { expected: tests.len(), got: evals.len() });
        }
        self.sync_goals()?;
        let n = self.n_goals();
        // Validation and the goals each test covers, in one pass over each vector (they are a
        // few thousand values per test; the archive only needs the zeros).
        let mut covered = Vec::with_capacity(evals.len());
        for (i, e) in evals.iter().enumerate() {
            if e.fitness.len() != n {
                return Err(SearchError::WrongWidth { test: i, expected: n, got: e.fitness.len() });
            }
            covered.push(covered_goals(i, &e.fitness)?);
        }
        let mut out = Vec::with_capacity(tests.len());
        let mut released = Vec::new();
        for ((test, eval), covered) in tests.into_iter().zip(evals).zip(covered) {
            let ind = Individual { test: Arc::new(test), eval: Arc::new(eval) };
            self.stats.evaluations += 1;
            if let Some(best) = &mut self.best {
                best.record(&ind.test, &ind.eval);
            }
            let newly = self.archive.update_covered(&ind.test, &covered);
            for g in newly {
                (self.on_event)(&Event::Covered { goal: g, evaluations: self.stats.evaluations });
                released.clear();
                let goals = Goals { problem: self.driver.problem(), archive: &self.archive };
                self.policy.covered(g, goals, &mut released)?;
                self.report(&released);
            }
            out.push(ind);
        }
        self.stats.covered = self.archive.n_covered();
        Ok(out)
    }

    /// Records the end of a generation or batch.
    pub fn end_iteration(&mut self) {
        self.stats.iterations += 1;
        let p = Progress {
            iteration: self.stats.iterations,
            evaluations: self.stats.evaluations,
            covered: self.archive.n_covered(),
        };
        self.stats.history.push(p);
        let goals = self.n_goals();
        (self.on_event)(&Event::Iteration {
            iteration: p.iteration,
            evaluations: p.evaluations,
            covered: p.covered,
            goals,
            targets: self.policy.targets().n_targets(),
        });
    }

    pub fn finish(mut self) -> SearchResult {
        self.stats.elapsed = self.clock.elapsed();
        self.stats.covered = self.archive.n_covered();
        SearchResult { archive: self.archive, stats: self.stats }
    }
}

/// An algorithm whose batches are made from its state and whose results are absorbed into it in
/// batch order, run by [`pipelined`].
pub(crate) trait Batches {
    /// The next batch, from the state as it is.
    fn make(&mut self, cx: &Search<'_>, rng: &mut TestRng) -> Vec<TestCase>;
    /// The evaluations of a batch `make` gave, in its order, and of the tests hooks injected into
    /// it (`seam`; empty without hooks), which the algorithm lets compete like its own.
    fn absorb(
        &mut self,
        cx: &mut Search<'_>,
        rng: &mut TestRng,
        batch: Vec<Individual>,
        injected: Vec<Individual>,
    );
}

/// Runs `alg` with one batch in flight: batch k+1 is made before the results of batch k are
/// absorbed, so the workers run it while the engine absorbs batch k (archive, ranking) and makes
/// batch k+2 (so that the engine's work overlaps the workers' instead of alternating with it).
/// Batches thus see the results of all batches but the one just before them. That lag is part of
/// the algorithm, not of the timing: a seed gives the same run with any number of workers, and
/// with a `Problem` that ignores `then`. Whether batch k+1 starts is judged before batch k's
/// results are in (its evaluations counted), and a batch that was started is always evaluated: a
/// run can end the rest of batch k plus batch k+1 after its time budget, one batch more than a loop
/// that waits for each batch.
///
/// Hooks (`seam`) run before the first batch is made and after each batch k is absorbed when the
/// run goes on, before batch k+2 is made; the tests they return are appended to that batch (the
/// first one, or k+2: k+1 is running), so they wait one batch like the algorithm's own.
pub(crate) fn pipelined(
    cx: &mut Search<'_>,
    rng: &mut TestRng,
    alg: &mut dyn Batches,
) -> Result<(), SearchError> {
    if cx.should_stop() {
        return Ok(());
    }
    // Each batch with the number of the algorithm's own tests at its head.
    let injected = cx.between(rng)?;
    let mut ahead = Some(with(alg.make(cx, rng), injected));
    let mut next = with(alg.make(cx, rng), Vec::new());
    while let Some((batch, own)) = ahead.take() {
        let go_on = !cx.stops_after(batch.len());
        let mut done = cx.evaluate_then(batch, go_on.then_some(next.0.as_slice()))?;
        let injected = done.split_off(own);
        alg.absorb(cx, rng, done, injected);
        cx.end_iteration();
        if go_on {
            let injected = cx.between(rng)?;
            ahead = Some(std::mem::take(&mut next));
            next = with(alg.make(cx, rng), injected);
        }
    }
    Ok(())
}

/// A batch of the algorithm's own tests followed by injected ones, and how many are its own.
fn with(mut own: Vec<TestCase>, injected: Vec<TestCase>) -> (Vec<TestCase>, usize) {
    let n = own.len();
    own.extend(injected);
    (own, n)
}
