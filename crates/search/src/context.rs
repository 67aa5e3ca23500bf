//! The state every algorithm shares: the problem, the archive, the target set (all goals, or
//! DynaMOSA's released goals), the budget and the statistics. All evaluation goes through
//! `Search::evaluate`, which batches, validates, updates the archive in the order of the batch,
//! releases dependent goals and reports events.

use std::sync::Arc;
use std::time::Duration;

use testcase::{TestCase, TestCluster, TestFactory, TestRng, ValuePool};

use crate::{Archive, Clock, Evaluation, GoalIdx, Problem, SearchConfig, SearchError, SearchResult};

/// Progress of a run, for a callback (CLI progress bar, statistics).
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A goal was covered for the first time, by the `evaluations`-th evaluated test.
    Covered { goal: GoalIdx, evaluations: u64 },
    /// A goal became a target: a DynaMOSA root at the start (`by: None`), or released when the goal
    /// `by` was covered. Only DynaMOSA reports releases; the others target every goal.
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
            return Err(SearchError::BadFitness { test, goal: GoalIdx((b * BLOCK + k) as u32), value });
        }
        if zero {
            covered.extend(
                block
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| **f == 0.0)
                    .map(|(k, _)| GoalIdx((b * BLOCK + k) as u32)),
            );
        }
    }
    Ok(covered)
}

pub(crate) struct Search<'a> {
    problem: &'a mut dyn Problem,
    cluster: &'a TestCluster,
    pool: &'a mut ValuePool,
    pub config: &'a SearchConfig,
    clock: &'a dyn Clock,
    on_event: &'a mut dyn FnMut(&Event),
    pub archive: Archive,
    pub stats: Stats,
    /// Whether each goal is a target (DynaMOSA: released; otherwise all).
    target: Vec<bool>,
    dynamic: bool,
    n_targets: usize,
}

impl<'a> Search<'a> {
    pub fn new(
        problem: &'a mut dyn Problem,
        cluster: &'a TestCluster,
        pool: &'a mut ValuePool,
        config: &'a SearchConfig,
        clock: &'a dyn Clock,
        on_event: &'a mut dyn FnMut(&Event),
    ) -> Result<Search<'a>, SearchError> {
        if config.budget.time.is_none() && config.budget.evaluations.is_none() {
            return Err(SearchError::NoBudget);
        }
        let n = problem.n_goals();
        let dynamic = config.algorithm == crate::Algorithm::DynaMosa;
        let mut s = Search {
            problem,
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
            target: vec![!dynamic; n],
            dynamic,
            n_targets: if dynamic { 0 } else { n },
        };
        if dynamic {
            // Validate the whole control dependence up front: a bad index is an error, not a panic.
            for g in (0..n).map(|i| GoalIdx(i as u32)) {
                for c in s.problem.released_by(g) {
                    if c.index() >= n {
                        return Err(SearchError::BadGoal { goal: *c, n_goals: n });
                    }
                }
            }
            for r in s.problem.roots() {
                s.release(r, None)?;
            }
        }
        Ok(s)
    }

    pub fn factory(&self) -> TestFactory<'_> {
        TestFactory::new(self.cluster, self.pool, &self.config.factory)
    }

    pub fn n_goals(&self) -> usize {
        self.target.len()
    }

    /// The targets not yet covered, ascending: the objectives of MOSA's ranking.
    pub fn uncovered_targets(&self) -> Vec<GoalIdx> {
        (0..self.target.len())
            .map(|i| GoalIdx(i as u32))
            .filter(|g| self.target[g.index()] && !self.archive.is_covered(*g))
            .collect()
    }

    /// The fraction of the budget used.
    pub fn progress(&self) -> f64 {
        self.config.budget.progress(self.clock.elapsed(), self.stats.evaluations)
    }

    pub fn should_stop(&self) -> bool {
        (self.config.stop_zero && self.archive.all_covered())
            || self
                .config
                .stop_goals
                .as_ref()
                .is_some_and(|gs| gs.iter().all(|&g| self.archive.is_covered(g)))
            || self.config.budget.exhausted(self.clock.elapsed(), self.stats.evaluations)
    }

    /// Makes `g` a target, and, if it is already covered, its dependents too (worklist; STYLE.md
    /// rule 7).
    fn release(&mut self, g: GoalIdx, by: Option<GoalIdx>) -> Result<(), SearchError> {
        let mut work = vec![(g, by)];
        while let Some((g, by)) = work.pop() {
            let n_goals = self.target.len();
            match self.target.get(g.index()) {
                None => return Err(SearchError::BadGoal { goal: g, n_goals }),
                Some(true) => continue,
                Some(false) => {}
            }
            self.target[g.index()] = true;
            self.n_targets += 1;
            (self.on_event)(&Event::Released { goal: g, by });
            if self.archive.is_covered(g) {
                for c in self.problem.released_by(g).iter().rev() {
                    work.push((*c, Some(g)));
                }
            }
        }
        Ok(())
    }

    /// Adds goals discovered by the problem: uncovered targets for every algorithm.
    fn grow(&mut self, n: usize) -> Result<(), SearchError> {
        let old = self.target.len();
        if n <= old {
            return Ok(());
        }
        self.archive.grow(n);
        self.target.resize(n, !self.dynamic);
        self.stats.n_goals = n;
        if self.dynamic {
            for g in old..n {
                self.release(GoalIdx(g as u32), None)?;
            }
        } else {
            self.n_targets += n - old;
        }
        Ok(())
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
            .problem
            .evaluate_then(&tests, then, &mut self.pool.dynamic)
            .map_err(|source| SearchError::Evaluate { tests: tests.len(), source })?;
        self.stats.evaluation_time += self.clock.elapsed().saturating_sub(before);
        self.stats.batches += 1;
        if evals.len() != tests.len() {
            return Err(SearchError::WrongCount { expected: tests.len(), got: evals.len() });
        }
        let n = self.problem.n_goals();
        if n < self.n_goals() {
            return Err(SearchError::GoalsShrank { before: self.n_goals(), after: n });
        }
        self.grow(n)?;
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
        for ((test, eval), covered) in tests.into_iter().zip(evals).zip(covered) {
            let ind = Individual { test: Arc::new(test), eval: Arc::new(eval) };
            self.stats.evaluations += 1;
            let newly = self.archive.update_covered(&ind.test, &covered);
            for g in newly {
                (self.on_event)(&Event::Covered { goal: g, evaluations: self.stats.evaluations });
                if self.dynamic {
                    let children = self.problem.released_by(g).to_vec();
                    for c in children {
                        self.release(c, Some(g))?;
                    }
                }
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
            targets: self.n_targets,
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
    /// The evaluations of a batch `make` gave, in its order.
    fn absorb(&mut self, cx: &mut Search<'_>, rng: &mut TestRng, batch: Vec<Individual>);
}

/// Runs `alg` with one batch in flight: batch k+1 is made before the results of batch k are
/// absorbed, so the workers run it while the engine absorbs batch k (archive, ranking) and makes
/// batch k+2 (issue 4: the engine's work overlaps the workers' instead of alternating with it).
/// Batches thus see the results of all batches but the one just before them. That lag is part of
/// the algorithm, not of the timing: a seed gives the same run with any number of workers, and
/// with a `Problem` that ignores `then`. Whether batch k+1 starts is judged before batch k's
/// results are in (its evaluations counted), and a batch that was started is always evaluated: a
/// run can end the rest of batch k plus batch k+1 after its time budget, one batch more than a loop
/// that waits for each batch.
pub(crate) fn pipelined(
    cx: &mut Search<'_>,
    rng: &mut TestRng,
    alg: &mut dyn Batches,
) -> Result<(), SearchError> {
    if cx.should_stop() {
        return Ok(());
    }
    let mut ahead = Some(alg.make(cx, rng));
    let mut next = alg.make(cx, rng);
    while let Some(batch) = ahead.take() {
        let go_on = !cx.stops_after(batch.len());
        let done = cx.evaluate_then(batch, go_on.then_some(next.as_slice()))?;
        alg.absorb(cx, rng, done);
        cx.end_iteration();
        if go_on {
            ahead = Some(std::mem::take(&mut next));
            next = alg.make(cx, rng);
        }
    }
    Ok(())
}
