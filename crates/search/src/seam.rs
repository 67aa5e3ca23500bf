//! The seam through which a technique joins a search, the same for every algorithm: a [`Hook`] is
//! called between generations with a read-only [`View`] of the search and the problem itself; it
//! returns tests to evaluate (templates of paper 000, DSE results of paper 004), and it may have
//! the problem register goals of its own (path conditions of paper 003), which then grow
//! `Problem::n_goals` exactly as context goals do.
//!
//! When a hook runs and when its tests are evaluated, relative to the one batch in flight
//! (`context::pipelined`):
//! - hooks run once before the first batch `pipelined` makes (after MOSA's and whole suite's
//!   initial population; before anything for random and MIO), and then after each batch k is
//!   absorbed, when the run goes on; never after the last batch;
//! - the tests they return go into the next batch made, after the algorithm's own tests: at the
//!   start, the first batch; after batch k, batch k+2, since batch k+1 is already running. So an
//!   injected test sees, like the algorithm's own offspring of that batch, the results of every
//!   batch but the one before it. A batch made but never started (the budget ran out) is dropped
//!   with whatever was injected into it;
//! - goals a hook had the problem register are picked up right after the hooks ran: they become
//!   targets as the policy says (all goals: at once; DynaMOSA: released with `by: None`) before the
//!   next batch is made, and the next evaluations the problem returns (batch k+1's, already
//!   running) must score them (`Problem`'s contract);
//! - injected tests count against the evaluation budget like any other; each algorithm absorbs
//!   them with its own tests of the batch (MOSA, DynaMOSA: into the union ranked for the next
//!   population; whole suite: appended to the best suite as an extra candidate suite; MIO and
//!   random: as fresh samples).
//!
//! With no hook (`Seams::none`, what `search::run` passes) nothing here runs: no extra call, no
//! draw from the RNG, no bookkeeping, and every run is the one it was before the seam existed.

use std::sync::Arc;

use testcase::{TestCase, TestCluster, TestFactory, TestRng, ValuePool};

use crate::target::{TargetPolicy, Targets};
use crate::{Archive, Evaluation, GoalIdx, Problem, ProblemError, SearchConfig};

/// A technique called between generations. `P` is the problem the search runs on, so that a hook
/// can ask it, through its own typed API, to register goals (their fitness is the problem's to
/// compute); a hook that only injects tests implements `Hook<P>` for every `P`.
pub trait Hook<P: ?Sized> {
    /// Tests to evaluate in the next batch made (see the module's doc for when). `rng` is the
    /// search's: a hook that draws from it shifts the search's later draws (deterministically);
    /// one that does not leaves them as they were. An error ends the search (`SearchError::Hook`).
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut P,
        rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError>;
}

/// What a hook sees of the search between generations: read-only.
pub struct View<'a> {
    pub(crate) archive: &'a Archive,
    pub(crate) targets: &'a Targets,
    pub(crate) best: &'a Best,
    pub(crate) cluster: &'a TestCluster,
    pub(crate) pool: &'a ValuePool,
    pub(crate) config: &'a SearchConfig,
    pub(crate) iteration: u64,
    pub(crate) evaluations: u64,
}

impl<'a> View<'a> {
    /// The covered goals and the shortest test covering each.
    pub fn archive(&self) -> &'a Archive {
        self.archive
    }

    /// Generations (GA) or batches (random, MIO) absorbed so far.
    pub fn iteration(&self) -> u64 {
        self.iteration
    }

    /// Tests evaluated so far (the evaluation budget counts these).
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// Goals known now (grows with context goals and goals hooks registered).
    pub fn n_goals(&self) -> usize {
        self.archive.n_goals()
    }

    /// Whether `g` guides the search now (the target policy's choice).
    pub fn is_target(&self, g: GoalIdx) -> bool {
        self.targets.is_target(g)
    }

    /// The targets not covered yet, ascending.
    pub fn uncovered_targets(&self) -> Vec<GoalIdx> {
        (0..self.targets.n_goals())
            .map(GoalIdx::new)
            .filter(|&g| self.targets.is_target(g) && !self.archive.is_covered(g))
            .collect()
    }

    /// For an uncovered goal, the best fitness any evaluated test reached on it and the shortest
    /// first test that reached it; `None` for a covered goal (see the archive) or one no test has
    /// a value for yet.
    pub fn best(&self, g: GoalIdx) -> Option<(f64, &'a TestCase)> {
        if self.archive.is_covered(g) {
            return None;
        }
        self.best.per_goal.get(g.index()).and_then(|b| b.as_ref()).map(|(f, t)| (*f, &**t))
    }

    /// A test factory over the search's cluster and value pool, to build or mutate tests.
    pub fn factory(&self) -> TestFactory<'a> {
        TestFactory::new(self.cluster, self.pool, &self.config.factory)
    }

    /// The search's test cluster (what a test can call).
    pub fn cluster(&self) -> &'a TestCluster {
        self.cluster
    }

    pub fn config(&self) -> &'a SearchConfig {
        self.config
    }
}

/// What a run takes besides the problem and its configuration: the hooks, called in order, and
/// the target policy (`None`: the one `SearchConfig::algorithm` implies, `target::target_policy`).
pub struct Seams<'h, P: ?Sized> {
    pub hooks: Vec<&'h mut dyn Hook<P>>,
    pub policy: Option<Box<dyn TargetPolicy + 'h>>,
}

impl<'h, P: ?Sized> Seams<'h, P> {
    /// No hook, the configuration's policy: the search as `search::run` runs it.
    pub fn none() -> Seams<'h, P> {
        Seams { hooks: Vec::new(), policy: None }
    }
}

/// Per goal, the best non-zero fitness seen and the test that reached it (the shortest of the first
/// tests reaching that value), kept only when hooks are installed (`View::best`): it costs a pass
/// over every fitness vector.
#[derive(Debug, Default)]
pub(crate) struct Best {
    per_goal: Vec<Option<(f64, Arc<TestCase>)>>,
}

impl Best {
    pub fn record(&mut self, test: &Arc<TestCase>, eval: &Evaluation) {
        if self.per_goal.len() < eval.fitness.len() {
            self.per_goal.resize(eval.fitness.len(), None);
        }
        for (b, &f) in self.per_goal.iter_mut().zip(&eval.fitness) {
            let better = match b {
                None => f > 0.0,
                Some((bf, bt)) => f > 0.0 && (f < *bf || (f == *bf && test.len() < bt.len())),
            };
            if better {
                *b = Some((f, test.clone()));
            }
        }
    }
}

/// The problem and the hooks, behind one object-safe face so that the search's state stays free of
/// the problem's type: the hooks need it typed, the search only as `dyn Problem`.
pub(crate) trait Driver {
    fn problem(&self) -> &dyn Problem;
    fn problem_mut(&mut self) -> &mut dyn Problem;
    fn hooked(&self) -> bool;
    /// Every hook's tests, in hook order.
    fn between(&mut self, view: &View<'_>, rng: &mut TestRng) -> Result<Vec<TestCase>, ProblemError>;
}

pub(crate) struct Hooked<'p, 'h, P> {
    pub problem: &'p mut P,
    pub hooks: Vec<&'h mut dyn Hook<P>>,
}

impl<P: Problem> Driver for Hooked<'_, '_, P> {
    fn problem(&self) -> &dyn Problem {
        &*self.problem
    }

    fn problem_mut(&mut self) -> &mut dyn Problem {
        &mut *self.problem
    }

    fn hooked(&self) -> bool {
        !self.hooks.is_empty()
    }

    fn between(&mut self, view: &View<'_>, rng: &mut TestRng) -> Result<Vec<TestCase>, ProblemError> {
        let mut tests = Vec::new();
        for h in &mut self.hooks {
            tests.extend(h.between(view, self.problem, rng)?);
        }
        Ok(tests)
    }
}

/// `search::run`'s problem, typed for `Hooked`: every call forwarded.
pub(crate) struct Dyn<'a>(pub &'a mut dyn Problem);

impl Problem for Dyn<'_> {
    fn n_goals(&self) -> usize {
        self.0.n_goals()
    }

    fn roots(&self) -> Vec<GoalIdx> {
        self.0.roots()
    }

    fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        self.0.released_by(g)
    }

    fn evaluate(
        &mut self,
        tests: &[TestCase],
        dynamic: &mut testcase::pool::DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        self.0.evaluate(tests, dynamic)
    }

    fn evaluate_then(
        &mut self,
        tests: &[TestCase],
        then: Option<&[TestCase]>,
        dynamic: &mut testcase::pool::DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        self.0.evaluate_then(tests, then, dynamic)
    }
}
