//! The search of suitesmith: EvoSuite's algorithms over test cases (random, Randoop-like; whole
//! suite, a monotonic GA; MOSA; DynaMOSA, the default; MIO), all sharing one archive that keeps the
//! shortest covering test per goal, driven by one `SearchConfig`, one seeded `TestRng` and a
//! `Clock`. Execution and fitness are behind the `Problem` trait so that this crate knows neither
//! JVM workers nor traces: a problem evaluates a batch of tests and returns per test the fitness of
//! every goal. Results are consumed in the order given, so a seed reproduces a run whatever the
//! number of workers behind `Problem::evaluate`. Every algorithm runs with one batch in flight
//! (`context::pipelined`): the next batch is made before the last one's results are absorbed, so
//! that the workers run it while the engine works.
//!
//! Two seams let techniques in without touching the algorithms, the same for all five:
//! - the **target policy** (`target`): which goals guide the search. All goals, or DynaMOSA's
//!   release along control dependences, chosen from `SearchConfig::algorithm`; another policy is
//!   passed in `Seams::policy`. Smart goal selection (paper 002: a subset of the goals as guides,
//!   DynaMOSA's release restricted to it) plugs in here, as a policy that filters another's targets.
//! - **hooks** (`seam`, [`run_with`]): a [`Hook`] is called between generations with a read-only
//!   [`View`] (archive, targets, best test per uncovered goal, generation, evaluations, a test
//!   factory) and the problem. It returns tests that the next batch evaluates and the algorithm
//!   absorbs like its own, and it may have the problem register goals, which grow
//!   `Problem::n_goals` as context goals do. EvoObj's templates built from the object construction
//!   graph (OCG, paper 000: one uncovered branch's template injected per generation with p = 0.3)
//!   and DSE results (paper 004: concolic runs on the best tests, the solved inputs injected) are
//!   injected tests; SUSHI's path conditions (paper 003) are goals the hook has the problem register,
//!   whose distance the problem computes from traces (the trace extension point, `fitness`), with
//!   the tests that satisfy them then archived and minimised like any other. Evoif's interprocedural
//!   flags (paper 001) change fitness, not the search: they need no seam here.
//!
//! Not here: goal construction and fitness functions (`goals`, `fitness`), execution (`exec`),
//! minimisation and assertions (`postprocess`), the techniques themselves.

mod archive;
mod clock;
mod config;
mod context;
pub mod guiding;
mod mio;
pub mod mosa;
mod random;
mod seam;
mod select;
pub mod target;
mod whole_suite;

pub use archive::Archive;
pub use clock::{Clock, SystemClock};
pub use config::{Algorithm, Budget, MioConfig, SearchConfig};
pub use context::{Event, Progress, Stats};
pub use seam::{Hook, Seams, View};
pub use target::{TargetPolicy, target_policy};
use testcase::pool::DynamicPool;
use testcase::{TestCase, TestCluster, TestRng, ValuePool};

/// A goal of the problem: an index in `0..Problem::n_goals()`; the engine's goal space numbers its
/// goals so (`fitness::GoalSpace`).
pub use fitness::GoalIdx;

/// The result of running one test: the fitness of every goal and where the test stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// One value per goal, indexed by `GoalIdx`, of length `Problem::n_goals()`: `0.0` means the
    /// test covers the goal; otherwise lower is better (EvoSuite's minimised fitness, e.g. approach
    /// level + ν(branch distance), or `1.0` for a binary goal not covered). Values must be finite
    /// and non-negative.
    pub fitness: Vec<f64>,
    /// The index of the statement that threw an exception out of the test (the first one; the
    /// rest of the test did not run), or `None` if every statement completed. Random search uses
    /// it to decide which tests to extend (Randoop's feedback).
    pub exception_at: Option<usize>,
}

impl Evaluation {
    /// Whether the test covers goal `g`.
    pub fn covers(&self, g: GoalIdx) -> bool {
        self.fitness.get(g.index()).is_some_and(|f| *f == 0.0)
    }
}

/// An error while evaluating, as reported by the `Problem` (e.g. no worker can be started).
pub type ProblemError = Box<dyn std::error::Error + Send + Sync>;

/// What the search optimises: a fixed set of goals, their control dependence for DynaMOSA, and a
/// batch evaluator. The engine implements it on top of the worker pool and `fitness`.
///
/// Contract:
/// - `evaluate` receives the tests of one batch (one round trip to the workers; the search batches
///   a whole generation) and returns exactly one `Evaluation` per test, **in the order of
///   `tests`**, each with `n_goals()` values. Any parallelism is the problem's business; the search
///   consumes results in order, which keeps runs reproducible.
/// - `evaluate` may add values observed during execution (comparison operands: `String.equals`,
///   numeric compares) to `dynamic`, the dynamic value pool the test factory draws constants from.
///   It should do so in the order of `tests` too.
/// - `n_goals` may grow from one `evaluate` call to the next (never shrink), for goals discovered
///   while running tests, like EvoSuite's exception goals, or between calls, when a hook had the
///   problem register goals of its own (`Hook`): the evaluations a call returns have the
///   `n_goals()` of after the call (including those of a batch started before the goals were
///   registered). A new goal is a target as the target policy says (all goals: at once; DynaMOSA:
///   released with `by: None`); tests evaluated before it existed count as not covering it.
/// - `roots` and `released_by` define DynaMOSA's targets (Panichella et al., TSE 2018,
///   `target::ControlDependence`): goals with no control dependence (root branches, branchless
///   methods, goals without dependences) are targeted from the start; covering a goal `g` releases
///   `released_by(g)`. The other algorithms target every goal from the start and ignore both.
pub trait Problem {
    /// Number of goals (`GoalIdx::new(0)..GoalIdx(n)`); may grow between batches (see above).
    fn n_goals(&self) -> usize;
    /// DynaMOSA's initial targets.
    fn roots(&self) -> Vec<GoalIdx>;
    /// The goals that become targets once `g` is covered (its control-dependent goals).
    fn released_by(&self, g: GoalIdx) -> &[GoalIdx];
    /// Runs a batch of tests; see the trait's contract.
    fn evaluate(
        &mut self,
        tests: &[TestCase],
        dynamic: &mut DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError>;
    /// [`Problem::evaluate`] of `tests`, told the batch the search evaluates next: `then` may start
    /// running as soon as `tests` have run, while the search works on their evaluations (the
    /// engine's time then overlaps the workers'). The call after one with `then` must be
    /// `evaluate_then` with exactly `then` as its `tests`. The evaluations must be those
    /// `evaluate` gives; the default ignores `then`.
    fn evaluate_then(
        &mut self,
        tests: &[TestCase],
        then: Option<&[TestCase]>,
        dynamic: &mut DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        let _ = then;
        self.evaluate(tests, dynamic)
    }
}

/// Why a search stopped early.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("evaluating a batch of {tests} tests failed: {source}")]
    Evaluate {
        tests: usize,
        #[source]
        source: ProblemError,
    },
    #[error("the problem returned {got} evaluations for a batch of {expected} tests")]
    WrongCount { expected: usize, got: usize },
    #[error("evaluation {test} of a batch has {got} fitness values, expected {expected} (one per goal)")]
    WrongWidth { test: usize, expected: usize, got: usize },
    #[error("evaluation {test} of a batch has fitness {value} for goal {goal}: not finite and non-negative")]
    BadFitness { test: usize, goal: GoalIdx, value: f64 },
    #[error("the budget sets no limit (neither time nor evaluations)")]
    NoBudget,
    #[error("the problem's goal count shrank from {before} to {after}")]
    GoalsShrank { before: usize, after: usize },
    #[error("the problem's control dependence names goal {goal}, but it has only {n_goals} goals")]
    BadGoal { goal: GoalIdx, n_goals: usize },
    #[error("a hook failed between generations: {source}")]
    Hook {
        #[source]
        source: ProblemError,
    },
}

/// The outcome of a search: the archive (its distinct tests are the generated suite) and the
/// statistics.
#[derive(Debug, Clone)]
pub struct SearchResult {
    pub archive: Archive,
    pub stats: Stats,
}

impl SearchResult {
    /// The final suite: the archive's distinct tests, in order of the smallest goal each covers.
    pub fn suite(&self) -> Vec<TestCase> {
        self.archive.tests()
    }
}

/// Runs `config.algorithm` on `problem` until the budget is spent or every goal is covered:
/// [`run_with`] with no hook and the configuration's target policy.
///
/// `cluster` and `pool` feed the test factory (`pool.dynamic` is handed to `Problem::evaluate` to
/// grow); `clock` measures the time budget; `rng` is the run's only source of randomness;
/// `on_event` sees progress (coverage, DynaMOSA releases, one `Event::Iteration` per generation).
pub fn run(
    problem: &mut dyn Problem,
    cluster: &TestCluster,
    pool: &mut ValuePool,
    config: &SearchConfig,
    clock: &dyn Clock,
    rng: &mut TestRng,
    on_event: &mut dyn FnMut(&Event),
) -> Result<SearchResult, SearchError> {
    run_with(&mut seam::Dyn(problem), cluster, pool, config, clock, rng, on_event, Seams::none())
}

/// [`run`] with `seams`: hooks called between generations (their tests evaluated and absorbed by
/// every algorithm; goals they have `problem` register become targets; see [`Hook`]) and a target
/// policy in place of the configuration's. With `Seams::none()` it is exactly [`run`]: the same
/// draws, batches, events and archive.
#[allow(clippy::too_many_arguments)] // `run`'s inputs and the seams; `run` stays the short form
pub fn run_with<P: Problem>(
    problem: &mut P,
    cluster: &TestCluster,
    pool: &mut ValuePool,
    config: &SearchConfig,
    clock: &dyn Clock,
    rng: &mut TestRng,
    on_event: &mut dyn FnMut(&Event),
    seams: Seams<'_, P>,
) -> Result<SearchResult, SearchError> {
    let policy = seams.policy.unwrap_or_else(|| target_policy(config));
    let mut driver = seam::Hooked { problem, hooks: seams.hooks };
    let mut cx = context::Search::new(&mut driver, policy, cluster, pool, config, clock, on_event)?;
    // Nothing to do for a problem without goals (or a budget spent before starting).
    if !cx.should_stop() {
        match config.algorithm {
            Algorithm::Random => random::run(&mut cx, rng)?,
            Algorithm::WholeSuite => whole_suite::run(&mut cx, rng)?,
            Algorithm::Mosa => mosa::run(&mut cx, rng, false)?,
            Algorithm::DynaMosa => mosa::run(&mut cx, rng, true)?,
            Algorithm::Mio => mio::run(&mut cx, rng)?,
        }
    }
    Ok(cx.finish())
}
