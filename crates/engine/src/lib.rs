//! The engine of suitesmith: the glue that runs the search (`search`) on a real class in real JVM
//! workers (`exec`, `worker`), scoring traces with the goal model (`fitness`). `to_protocol` turns
//! the test model into wire statements, `JvmProblem` implements `search::Problem`, and `generate`
//! runs one class end to end: cluster, value pool, problem, search, and a final execution of the
//! suite to report coverage per criterion.

mod allocation;
mod batches;
mod complement;
mod convert;
mod dse_target;
mod feed;
mod flag_figures;
mod mutants;
mod names;
mod ocg_target;
mod pipeline;
mod problem;
mod replay_check;
mod smart;
mod sushi_target;
mod techniques;
mod verifier;
mod verify_rounds;
mod violations;

use std::path::PathBuf;
use std::time::Duration;

use programdb::{DbConfig, ProgramDb};
use search::{Algorithm, Budget, SearchConfig, SystemClock};
use testcase::{ClusterConfig, TestCase, TestCluster, ValuePool, rng_from_seed};

pub use complement::{Complement, ComplementCoverage, CoveredBefore, ExistingSuite};
pub use contracts::{ContractKind, Violation};
pub use convert::to_protocol;
pub use dse::{DseConfig, DseCost, DseStats, QueryTimes};
pub use dse_target::explain_dse;
pub use flag_figures::FlagFigures;
pub use goals::Criterion;
pub use localsearch::{LocalSearchConfig, LocalSearchStats};
pub use mutants::{AssertionStrategy, MutationFigures};
pub use ocg::{OcgConfig, OcgStats};
pub use pipeline::{
    ClassTests, CompileError, JacocoFigures, Phase, PhaseTimes, SearchFigures, Stage, TestFailure,
    Verification, Verifier, WriteConfig, generate_tests, test_class_name,
};
pub use portfolio::ArmReport;
pub use problem::{CriterionCoverage, DEFAULT_CRITERIA, Extras, GoalRuns, JvmProblem};
pub use replay_check::{ReplayCheck, replay_check, stop_kind};
pub use smart::{GoalSelection, SelectionCounts};
pub use sushi::{SushiConfig, SushiStats};
pub use techniques::{Allocation, PortfolioConfig, Technique, Techniques};
pub use verifier::JvmVerifier;
pub use violations::violation_class_name;
pub use worker::{Sandbox, SandboxLayer, SandboxRequest};

/// Everything that can stop `generate` (never the code under test misbehaving: that is data).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("class {0} is not on the classpath")]
    MissingClass(String),
    #[error("cannot read the classpath: {0}")]
    ClassPath(#[from] classfile::Error),
    #[error("cannot compute the techniques' gates: {0}")]
    Gates(#[from] portfolio::GateError),
    #[error("cannot prepare the classes under test: {0}")]
    Subject(#[from] exec::SubjectError),
    #[error("cannot build the goal model: {0}")]
    Model(#[from] fitness::ModelError),
    #[error("cannot build the test cluster: {0}")]
    Cluster(#[from] testcase::ClusterError),
    #[error("worker: {0}")]
    Worker(#[from] worker::WorkerError),
    #[error("execution: {0}")]
    Exec(#[from] exec::ExecError),
    #[error("search: {0}")]
    Search(#[from] search::SearchError),
    #[error("the stopping goal list names {0:?}, which is not a goal of the selected criteria")]
    UnknownGoal(String),
    #[error("post-processing: {0}")]
    Post(postprocess::PostError),
    #[error("rendering: {0}")]
    Render(#[from] junit::RenderError),
    #[error("an empty test class does not compile (check the classpath and the JDK): {0}")]
    Uncompilable(String),
    #[error("verification: {0}")]
    Verify(#[from] worker::verify::VerifyError),
    #[error("cannot use the verification scratch directory: {0}")]
    Scratch(std::io::Error),
}

/// A set of the selected goals: those of `criteria`, except the ones whose text (as
/// `Generation::uncovered` prints it, e.g. `line c0 L7 (example/Triangle:7)`) is in `except`.
/// Only goals known before the search count: context-branch goals, found while it runs, never do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalFilter {
    pub criteria: Vec<Criterion>,
    pub except: Vec<String>,
}

/// One generation run. No `Default`: every field is a decision, and
/// [`GenerateConfig::standard`] states the product's.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateConfig {
    /// User classpath (directories and jars) holding the class under test and its dependencies.
    pub classpath: Vec<PathBuf>,
    /// The class under test, binary name with dots (`example.Stack`).
    pub class: String,
    /// Criteria whose goals the search targets (`DEFAULT_CRITERIA` for EvoSuite's default).
    pub criteria: Vec<Criterion>,
    pub algorithm: Algorithm,
    pub budget: Budget,
    pub seed: u64,
    /// JVM workers evaluating tests in parallel; results do not depend on it.
    pub workers: usize,
    /// Per-test timeout in the worker.
    pub timeout_ms: u32,
    /// Stop as soon as every goal of this set is covered (besides the budget and full coverage):
    /// tests and benchmarks time how long the feasible goals of a subject take. `None` for users.
    pub stop_when_covered: Option<GoalFilter>,
    /// The techniques on top of EvoSuite's core and their parameters (`Techniques::standard`,
    /// the product's; `Techniques::none`, the core alone). A technique that is off leaves the run
    /// exactly as it is without it.
    pub techniques: Techniques,
    /// The user's flags for every JVM that runs the code under test: the workers, and the
    /// verification's runs (`JvmVerifier::with_jvm_args`, whose javac gets their module options),
    /// e.g. `--add-exports` for classes compiled against a JDK module's internal packages. Empty
    /// for most runs.
    pub jvm_args: Vec<String>,
    /// The operating-system sandbox of every JVM that runs the code under test (DESIGN.md §10,
    /// docs/sandbox.md): `Auto` takes the first available layer.
    pub sandbox: SandboxRequest,
    /// Complement mode: what the project's own tests cover, whose goals the search leaves alone
    /// and the report counts apart (`ExistingSuite`, docs/maven.md). `None` for plain runs.
    pub existing: Option<std::sync::Arc<ExistingSuite>>,
}

/// The search budget per class when the user gives none: EvoSuite's (`search_budget`, 60 s).
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(60);

impl GenerateConfig {
    /// The product's defaults for one class: EvoSuite's criteria and algorithm, the standard
    /// techniques, a worker per processor (`worker::default_workers`), the protocol's per-test
    /// timeout, the sandbox's first available layer. The CLI, the tests and the benchmarks start
    /// from it and change what they decide.
    pub fn standard(classpath: Vec<PathBuf>, class: &str, budget: Budget, seed: u64) -> GenerateConfig {
        GenerateConfig {
            classpath,
            class: class.to_string(),
            criteria: DEFAULT_CRITERIA.to_vec(),
            algorithm: Algorithm::DynaMosa,
            budget,
            seed,
            workers: worker::default_workers(),
            timeout_ms: protocol::TEST_TIMEOUT_MS,
            stop_when_covered: None,
            techniques: Techniques::standard(),
            jvm_args: Vec::new(),
            sandbox: SandboxRequest::Auto,
            existing: None,
        }
    }
}

/// The result of `generate`.
#[derive(Debug, Clone)]
pub struct Generation {
    /// The archive's suite (shortest covering test per goal, distinct tests).
    pub suite: Vec<TestCase>,
    /// The suite as text: each test's `Display`, separated by a `// test N` line.
    pub suite_text: String,
    /// Covered/total selected goals per criterion, recomputed from a final execution of the suite.
    /// The context-branch total is the number of (calling context, branch side) goals the search
    /// found, since they have no static list (`JvmProblem::coverage`).
    pub coverage: Vec<CriterionCoverage>,
    /// The selected goals the suite does not cover, as text with class and line.
    pub uncovered: Vec<String>,
    /// Tests evaluated by the search, and its generations (iterations).
    pub evaluations: u64,
    pub generations: u64,
    /// Wall time of the search; the part the search spent in `Problem::evaluate` calls (waiting for
    /// a batch, processing its results); and the workers' wall time, during which they ran a batch
    /// of the search, partly while the engine worked on the batch before (`JvmProblem::worker_time`).
    /// `elapsed - worker_time` is the engine's overhead.
    pub elapsed: Duration,
    pub evaluation_time: Duration,
    pub worker_time: Duration,
    /// Classes or methods left uninstrumented, with the reason.
    pub unchanged: Vec<String>,
    /// What DSE did, when it was on.
    pub dse: Option<DseStats>,
    /// What object construction templates did, when they were on.
    pub ocg: Option<OcgStats>,
    /// What SUSHI did, when it was on.
    pub sushi: Option<SushiStats>,
    /// What local search did, when it was on.
    pub local_search: Option<LocalSearchStats>,
    /// What flag fitness found and what the suite covers of it, when it was on.
    pub flags: Option<FlagFigures>,
    /// Per technique its gate, what the portfolio gave it and what it earned, under the adaptive
    /// allocation (`Allocation::Adaptive`).
    pub portfolio: Option<Vec<ArmReport>>,
}

impl Generation {
    /// Coverage of one criterion, if it has goals.
    pub fn criterion(&self, c: Criterion) -> Option<CriterionCoverage> {
        self.coverage.iter().copied().find(|x| x.criterion == c)
    }

    /// One line per criterion: `Branch: 12/12`.
    pub fn coverage_summary(&self) -> String {
        self.coverage.iter().map(|c| format!("{:?}: {}/{}\n", c.criterion, c.covered, c.total)).collect()
    }
}

/// The classpath the cluster reads: the user's plus `java.base` of the JDK (for JDK types to have
/// generators), when it can be found.
pub(crate) fn cluster_classpath(user: &[PathBuf]) -> Vec<PathBuf> {
    let mut cp = user.to_vec();
    cp.extend(testcase::cluster::jdk_base_jmod());
    cp
}

/// Generates tests for one class: builds the cluster and the value pool (constants of the CUT),
/// prepares the problem, runs `config.algorithm`, then executes the archive's suite once more to
/// compute its coverage per criterion.
pub fn generate(config: &GenerateConfig) -> Result<Generation, EngineError> {
    generate_in(&open_program(config)?, config)
}

/// The program database of a run of `config`: the user's classpath and `java.base`, opened once;
/// the cluster, the planner, the instrumenter and the goal model all read classes through it.
pub fn open_program(config: &GenerateConfig) -> Result<ProgramDb, EngineError> {
    Ok(ProgramDb::open(&cluster_classpath(&config.classpath), DbConfig::STANDARD)?)
}

/// `generate` with the run's program database given (`open_program`), so that a caller can ask it
/// afterwards what was parsed and decoded.
pub fn generate_in(db: &ProgramDb, config: &GenerateConfig) -> Result<Generation, EngineError> {
    let (mut problem, result, hooks) = search_class_in(db, config, &mut |_| {})?;
    // The final re-execution below is not part of the search.
    let search_worker_time = problem.worker_time();
    let suite = result.suite();
    let results = problem.execute(&suite)?;
    let (coverage, uncovered) = problem.final_coverage(&config.criteria, &results);
    let mut suite_text = String::new();
    for (i, t) in suite.iter().enumerate() {
        suite_text.push_str(&format!("// test {i}\n{t}"));
        if !suite_text.ends_with('\n') {
            suite_text.push('\n');
        }
    }
    Ok(Generation {
        suite,
        suite_text,
        coverage,
        uncovered,
        evaluations: result.stats.evaluations,
        generations: result.stats.iterations,
        elapsed: result.stats.elapsed,
        evaluation_time: result.stats.evaluation_time,
        worker_time: search_worker_time,
        unchanged: problem.unchanged().to_vec(),
        dse: hooks.dse.map(|(stats, _)| stats),
        ocg: hooks.ocg,
        sushi: hooks.sushi,
        local_search: hooks.local_search,
        flags: problem.flag_figures(&results),
        portfolio: hooks.portfolio,
    })
}

/// What a search leaves: the problem (its workers stay up for post-processing), the search's
/// result, and what the techniques in hooks did.
pub(crate) type Searched = (JvmProblem, search::SearchResult, HookFigures);

/// What the hooks of a search did: DSE and what it cost in wall time, object construction
/// templates; each `None` when off.
#[derive(Debug, Clone, Default)]
pub(crate) struct HookFigures {
    pub dse: Option<(DseStats, DseCost)>,
    pub ocg: Option<OcgStats>,
    pub sushi: Option<SushiStats>,
    pub local_search: Option<LocalSearchStats>,
    /// The portfolio's lines (`portfolio::Portfolio::report`) under the adaptive allocation.
    pub portfolio: Option<Vec<ArmReport>>,
}

/// The search part of a run ([`Searched`]) and the run's program database, whose classpath has
/// `java.base` for the cluster. `on_event` sees the search's events.
pub(crate) fn search_class(
    config: &GenerateConfig,
    on_event: &mut dyn FnMut(&search::Event),
) -> Result<(Searched, ProgramDb), EngineError> {
    let db = open_program(config)?;
    let searched = search_class_in(&db, config, on_event)?;
    Ok((searched, db))
}

/// `search_class` with the run's program database given. With no hook and no target policy the
/// search is `search::run`, untouched; otherwise `search::run_with`, with the technique hooks
/// called as the allocation says (`allocation`: each at every `between` under
/// `Allocation::Fixed`, as arms of one portfolio under `Allocation::Adaptive`, after the class's
/// gates turned off the techniques with nothing to work on).
fn search_class_in(
    db: &ProgramDb,
    config: &GenerateConfig,
    on_event: &mut dyn FnMut(&search::Event),
) -> Result<Searched, EngineError> {
    // The core alone has nothing to allocate: no gates, no portfolio.
    let any = Technique::ALL.into_iter().any(|x| config.techniques.is_on(x));
    let adaptive = match &config.techniques.allocation {
        Allocation::Adaptive(p) if any => Some((p, allocation::class_gates(db, &config.class)?)),
        _ => None,
    };
    let gated = adaptive.as_ref().map(|(_, gates)| config.techniques.gated(gates));
    let t = gated.as_ref().unwrap_or(&config.techniques);
    let cluster = TestCluster::build_in(db, &config.class, &cluster_config(t))?;
    let mut search_config = SearchConfig::evosuite(config.budget);
    search_config.algorithm = config.algorithm;
    let mut pool = ValuePool::new(cluster.constants().clone(), search_config.factory.dynamic_pool_size);
    let mut problem = JvmProblem::with_db(
        db,
        &config.classpath,
        &config.class,
        &config.criteria,
        config.workers,
        config.timeout_ms,
        Extras {
            flags: t.flags,
            string_distance: t.string_distance,
            sushi: Some(&t.sushi),
            jvm_args: &config.jvm_args,
            sandbox: config.sandbox,
        },
    )?;
    if let Some(existing) = &config.existing {
        let settled = complement::settled_goals(&problem, existing);
        problem.settle(&settled);
        search_config.settled = settled.into_iter().collect();
    }
    if let Some(filter) = &config.stop_when_covered {
        search_config.stop_goals = Some(stop_goals(&problem, filter)?);
    }
    let prepared = problem.take_sushi();
    let explored = prepared.as_ref().map(|p| allocation::exploration_cost(&p.figures));
    if let (Some(_), Some((time, _))) = (&adaptive, explored) {
        search_config.budget = allocation::less_exploration(search_config.budget, time);
    }
    let mut rng = rng_from_seed(config.seed);
    let clock = SystemClock::start();
    let policy = smart::policy(db, &problem, &t.goal_selection, &config.criteria, &search_config);
    let hookless = !t.dse.enabled && !t.ocg.enabled && !t.local_search.enabled;
    if hookless && policy.is_none() && prepared.is_none() {
        let result =
            search::run(&mut problem, &cluster, &mut pool, &search_config, &clock, &mut rng, on_event)?;
        let portfolio =
            adaptive.map(|(p, gates)| allocation::report_without_hooks(p, &gates, &search_config.budget));
        return Ok((problem, result, HookFigures { portfolio, ..HookFigures::default() }));
    }
    // The search's clock also times DSE's parts, for the report and, when the run stops on the
    // clock only, for DSE's share of it (a run with an evaluation budget counts work instead).
    // The lead (`dse::within_time_share`): a quarter of the budget, so that DSE may work at the
    // start, when exact-value goals get their first values and fire its trigger.
    let share_by = match (search_config.budget.time, search_config.budget.evaluations) {
        (Some(t), None) => dse::ShareBy::Time { lead: t / 4 },
        _ => dse::ShareBy::Work,
    };
    let dse_config = allocation::dse_config(&t.dse, adaptive.is_some());
    let mut hooks = allocation::TechniqueHooks {
        dse: t.dse.enabled.then(|| dse::Dse::timed(db, &dse_config, config.seed, &clock, share_by)),
        ocg: t.ocg.enabled.then(|| ocg::OcgHook::new(db, &t.ocg, config.seed)),
        sushi: prepared.map(|p| sushi::SushiHook::new(&t.sushi, p)),
        local: t.local_search.enabled.then(|| localsearch::LocalSearch::new(&t.local_search)),
    };
    let run = |hooks: Vec<&mut dyn search::Hook<JvmProblem>>| {
        let seams = search::Seams { hooks, policy };
        search::run_with(&mut problem, &cluster, &mut pool, &search_config, &clock, &mut rng, on_event, seams)
    };
    let (result, portfolio) = match adaptive {
        Some((p, gates)) => {
            let budget = search_config.budget;
            let (result, report) =
                allocation::adaptive(&mut hooks, p, gates, &budget, &clock, explored, run)?;
            (result, Some(report))
        }
        None => (run(hooks.all())?, None),
    };
    let figures = hook_figures(hooks, &result, &mut problem, portfolio)?;
    Ok((problem, result, figures))
}

/// The cluster's configuration for the techniques `t`: EvoSuite's, with the techniques that change
/// the cluster or the static pool.
fn cluster_config(t: &Techniques) -> ClusterConfig {
    let mut cluster_config = ClusterConfig {
        stubs: t.stubs,
        files: t.files,
        code_constants: t.code_constants,
        package_generators: t.package_generators,
        format_strings: t.format_strings,
        regex_strings: t.regex_strings,
        ..ClusterConfig::evosuite()
    };
    if t.ocg.enabled {
        // Templates build objects as deep as the slice follows calls (t_dep), deeper than
        // EvoSuite's dependency depth: their classes must be in the cluster (docs/ocg.md).
        cluster_config.cluster_depth = cluster_config.cluster_depth.max(t.ocg.slice.depth);
    }
    cluster_config
}

/// What the hooks did, once the search is over: the templates and SUSHI see the final archive
/// first (SUSHI re-executes its solved goals' tests on `problem`).
fn hook_figures(
    mut hooks: allocation::TechniqueHooks<'_>,
    result: &search::SearchResult,
    problem: &mut JvmProblem,
    portfolio: Option<Vec<ArmReport>>,
) -> Result<HookFigures, EngineError> {
    if let Some(h) = hooks.ocg.as_mut() {
        h.finish(&result.archive);
    }
    if let Some(h) = hooks.sushi.as_mut() {
        h.finish(&result.archive, problem).map_err(|source| search::SearchError::Hook { source })?;
    }
    Ok(HookFigures {
        dse: hooks.dse.map(|h| (h.stats().clone(), h.cost().clone())),
        ocg: hooks.ocg.map(|h| h.stats().clone()),
        sushi: hooks.sushi.map(|h| h.stats()),
        local_search: hooks.local.map(|h| h.stats().clone()),
        portfolio,
    })
}

/// The search goals of `filter`; an `except` entry that names no goal of the filter's criteria is
/// an error, so that a stale list of infeasible goals cannot silently widen the stopping set.
fn stop_goals(problem: &JvmProblem, filter: &GoalFilter) -> Result<Vec<search::GoalIdx>, EngineError> {
    let mut texts = std::collections::BTreeSet::new();
    let mut goals = Vec::new();
    for g in problem.goals().filter(|&g| filter.criteria.contains(&problem.criterion(g))) {
        let text = problem.goal_text(g);
        if !filter.except.contains(&text) {
            goals.push(g);
        }
        texts.insert(text);
    }
    if let Some(unknown) = filter.except.iter().find(|e| !texts.contains(*e)) {
        return Err(EngineError::UnknownGoal(unknown.clone()));
    }
    Ok(goals)
}
