//! `generate_tests`: one class from search to verified JUnit sources (DESIGN.md §2). The
//! search's suite is minimised and given regression assertions (`postprocess`), rendered
//! (`junit`), then compiled and run in fresh JVMs by a [`Verifier`]: a test that does not compile
//! is dropped (a renderer bug, logged), an assertion that fails in any run is removed, a test that
//! fails outside an assertion is dropped, until every written test passes every run. The coverage
//! reported is recomputed from the final tests as written (DESIGN.md §3.9).

use jvm_model::ClassName;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use exec::ExecResult;
use goals::Criterion;
use junit::naming::TestNames;
use junit::{JUnitTest, RenderConfig, Rendered, Style};
use postprocess::{AssertionConfig, Runner, RunnerError};
use testcase::{Statement, TestCase};

use crate::problem::{CriterionCoverage, GoalRuns};
use crate::replay_check::ReplayCheck;
use crate::{EngineError, GenerateConfig, JvmProblem, search_class, smart};

/// Rounds that run the tests in which a failing assertion is removed; from the next one on, a test
/// that fails goes whole. A test whose assertions keep failing round after round is flaky.
const ASSERTION_ROUNDS: usize = 2;
/// Rounds that run the tests (compile-only rounds aside). Past it, the tests that failed in the last
/// round go and the rest are written as they passed it (the loop once ran 7 rounds of 5
/// fresh JVMs on a class whose tests failed anew in every round).
const MAX_RUN_ROUNDS: usize = 4;
/// Rounds in all, compile-only ones included; each compile-only round drops at least one test, so
/// this bounds a pathological suite, never a real one.
const MAX_ROUNDS: usize = 12;
/// Shares of the post-processing budget by which minimisation must stop shrinking and assertion
/// generation stop adding inspectors, and after which no further verification round starts: the
/// round under way at the end finishes, so the budget is kept up to about one round.
const MINIMISE_SHARE: f64 = 0.35;
const ASSERT_SHARE: f64 = 0.55;
/// Mutation analysis (with `AssertionStrategy::Mutation`) runs no batch past this share.
const MUTATION_SHARE: f64 = 0.65;
/// The contract checks (`WriteConfig::contracts`) run no batch past this share.
const CONTRACTS_SHARE: f64 = 0.72;
const VERIFY_SHARE: f64 = 0.85;

/// How the tests of one class are written. No `Default`: [`WriteConfig::new`] gives EvoSuite's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteConfig {
    pub style: Style,
    /// Fresh-JVM runs of the written tests; an assertion that fails in any of them is removed.
    pub verify_runs: usize,
    /// Test methods per file; a larger suite is split into `<Simple>Test`, `<Simple>Test2`, ...
    pub tests_per_file: usize,
    /// Per-test timeout written into the tests (`@Test(timeout = ...)`), milliseconds.
    pub test_timeout_ms: u64,
    /// Measure the written tests' line and branch coverage with JaCoCo too (one more run).
    pub jacoco: bool,
    /// Wall time of minimisation, assertion generation and verification together; `None`: no
    /// limit. When it runs out, what was verified so far is written (see [`generate_tests`]).
    pub post_budget: Option<Duration>,
    /// Replay every written test in the concolic interpreter and compare it with the JVM's run
    /// (`replay_check`, the interpreter's fidelity figures): reporting only, the tests do not change.
    pub replay_check: bool,
    /// How test methods are named: after what each shows (the default), or numbered.
    pub test_names: TestNames,
    /// How the assertions are chosen: all those observed (capped), or those that kill mutants.
    pub assertions: crate::AssertionStrategy,
    /// Check the contracts of `equals`, `hashCode`, `toString`, `compareTo` and `Iterator` on the
    /// objects the tests build, and the exceptions the class throws from inside on arguments in
    /// range; each violation is written as a failing test in `<Simple>ViolationTest`
    /// (docs/contracts.md).
    pub contracts: bool,
}

impl WriteConfig {
    /// 5 verification runs, 100 tests per file, EvoSuite's 4 s timeout per test, no time limit on
    /// post-processing.
    pub fn new(style: Style) -> WriteConfig {
        WriteConfig {
            style,
            verify_runs: 5,
            tests_per_file: 100,
            test_timeout_ms: 4000,
            jacoco: false,
            post_budget: None,
            replay_check: false,
            test_names: TestNames::Descriptive,
            // EvoSuite's default strategy: on our fixtures it keeps 39-48 % fewer assertions at an
            // equal PIT score (docs/mutation.md).
            assertions: crate::AssertionStrategy::Mutation,
            // No false report on the contract fixtures' twins (docs/contracts.md).
            contracts: true,
        }
    }
}

/// Line and branch coverage (covered, total) that JaCoCo measured on the written tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JacocoFigures {
    pub lines: (u32, u32),
    pub branches: (u32, u32),
}

/// A compile error in a rendered file: `file` indexes the files given to [`Verifier::compile`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    pub file: usize,
    pub line: Option<u32>,
    pub message: String,
}

/// A test method that did not pass one run: `line` is the deepest line of the test class in the
/// failure's stack trace (the failing assertion's line), when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFailure {
    pub file: usize,
    pub method: String,
    pub line: Option<u32>,
    pub message: String,
}

/// Compiles and runs rendered test classes (implemented over `worker::verify` by
/// [`crate::JvmVerifier`]; a trait so that the repair loop does not depend on processes).
pub trait Verifier {
    /// Compiles every file; the errors, empty when all compiled.
    fn compile(&mut self, files: &[Rendered]) -> Result<Vec<CompileError>, EngineError>;
    /// Runs the files compiled by the last `compile` `runs` times, each in a fresh JVM; every
    /// failure of every run.
    fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError>;
    /// Measures the coverage of `cut` by the files compiled last with an independent tool (JaCoCo),
    /// when asked for ([`WriteConfig::jacoco`]).
    fn coverage(&mut self, files: &[Rendered], cut: &str) -> Result<JacocoFigures, EngineError>;
    /// When post-processing's time ends: a run still going then may be cut short (its unfinished
    /// tests count as failed). Ignored by default.
    fn set_deadline(&mut self, _deadline: Option<Instant>) {}
    /// How many of the asked runs the last `run` made: fewer when the deadline came first (the
    /// first few always run). `None`: all of them, or not known.
    fn runs_done(&self) -> Option<usize> {
        None
    }
    /// Told the run's program database before the first compile, so that what the verifier reads
    /// of the classes under test is read from it (each class parsed once per run). Nothing by
    /// default.
    fn prepare(&mut self, _db: &programdb::ProgramDb) -> Result<(), EngineError> {
        Ok(())
    }
}

/// What `generate_tests` reports while it runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stage {
    /// The end of a search generation: goals covered of the goals known at the start, tests
    /// executed, wall time so far.
    Search { iteration: u64, evaluations: u64, covered: usize, goals: usize, elapsed: Duration },
    /// A post-processing phase, with the time left of the post-processing budget, if there is one.
    Post { phase: Phase, left: Option<Duration> },
}

/// The phases after the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Minimising,
    Asserting,
    /// A verification round (from 1): compiling and running the written tests.
    Verifying {
        round: usize,
    },
}

/// Wall time of each phase after the search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    /// Cutting the tests at guards and minimising them.
    pub minimise: Duration,
    pub assertions: Duration,
    /// The contract checks' probes and the violation tests' fresh-JVM runs.
    pub contracts: Duration,
    pub verification: Duration,
    /// The final coverage (re-execution of the written tests, JaCoCo when asked for).
    pub coverage: Duration,
}

/// Counts of the repair loop.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verification {
    /// Rounds of render, compile and run.
    pub rounds: usize,
    /// Tests dropped because their file did not compile (renderer bugs: see the log).
    pub uncompilable_tests: usize,
    /// Assertions removed because they failed in a run.
    pub failing_assertions: usize,
    /// Tests dropped because they failed outside an assertion (an unexpected or missing exception,
    /// a timeout), or kept failing after `ASSERTION_ROUNDS`.
    pub failing_tests: usize,
    /// Whether the final files compiled and passed every run (false when no JUnit runs were asked
    /// for, or when the last round's failing tests were dropped without another round: the round
    /// cap or the post-processing budget was reached).
    pub verified: bool,
    /// Whether the post-processing budget ran out in verification (no further round was started).
    pub stopped_by_budget: bool,
    /// Rounds that ran the tests fewer times than asked because the post-processing budget's end
    /// came first (each logged with its count).
    pub short_rounds: usize,
}

/// The search's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchFigures {
    pub evaluations: u64,
    pub generations: u64,
    pub elapsed: Duration,
    pub worker_time: Duration,
    /// Tests and statements of the archive's suite, before minimisation.
    pub tests: usize,
    pub statements: usize,
    /// What DSE did, when it was on (report.json `dse`).
    pub dse: Option<dse::DseStats>,
    /// Its wall time by part, when it was on (report.json `dse.cost`; reporting only).
    pub dse_cost: Option<dse::DseCost>,
    /// What object construction templates did, when they were on (report.json `ocg`).
    pub ocg: Option<ocg::OcgStats>,
    /// What SUSHI did, when it was on (report.json `sushi`).
    pub sushi: Option<sushi::SushiStats>,
    /// What local search did, when it was on (report.json `local_search`).
    pub local_search: Option<localsearch::LocalSearchStats>,
    /// Smart selection's guiding and deferred static goals per criterion, when it was on
    /// (report.json `goal_selection`).
    pub selection: Option<crate::SelectionCounts>,
    /// The portfolio's lines under the adaptive allocation (report.json `portfolio`): per
    /// technique its gate and why, what it was given, what it cost and what it earned.
    pub portfolio: Option<Vec<crate::ArmReport>>,
}

/// The written tests of one class and everything reported about them.
#[derive(Debug, Clone)]
pub struct ClassTests {
    pub class: String,
    /// The test classes, in order (`<Simple>Test`, `<Simple>Test2`, ...), verified.
    pub files: Vec<Rendered>,
    /// The tests as written (their cases are what `coverage` was computed from).
    pub tests: Vec<JUnitTest>,
    /// Covered/total goals per criterion over the written tests; goals only in static initialisers
    /// count as covered (the JVM runs them when the tests load the class).
    pub coverage: Vec<CriterionCoverage>,
    /// The selected goals the written tests do not cover, as text.
    pub uncovered: Vec<String>,
    /// The selected line and branch goals, each with the written tests (indices into `tests`)
    /// that cover it: the HTML report's per-line view (class-initialisation goals aside).
    pub goal_runs: Vec<GoalRuns>,
    pub search: SearchFigures,
    /// Tests and statements after minimisation.
    pub minimised_tests: usize,
    pub minimised_statements: usize,
    pub verification: Verification,
    /// JaCoCo's line and branch coverage of the written tests, when asked for.
    pub jacoco: Option<JacocoFigures>,
    /// The interpreter's replays of the written tests against the JVM's runs, when asked for
    /// ([`WriteConfig::replay_check`]).
    pub replay_check: Option<ReplayCheck>,
    /// Wall time after the search: minimisation, assertions, verification, final coverage.
    pub postprocess_time: Duration,
    /// Its parts.
    pub phases: PhaseTimes,
    /// Tests cut before (or dropped for) a statement a worker's guard refused.
    pub guard_cuts: postprocess::GuardCuts,
    /// Classes or methods left uninstrumented, with the reason.
    pub unchanged: Vec<String>,
    /// The other classes of the classpath run with the containment guards.
    pub guarded_dependencies: usize,
    /// What went wrong on the way and was repaired (dropped tests with the compiler's message...).
    pub log: Vec<String>,
    /// What the run's program database read: classes parsed and parses, methods decoded and
    /// decodes (equal pairs: nothing read twice).
    pub program: programdb::DbStats,
    /// What flag fitness found and what the written tests cover of it, when it was on
    /// (report.json `flags`).
    pub flags: Option<crate::FlagFigures>,
    /// What the written tests add over the project's own, in complement mode
    /// (`GenerateConfig::existing`).
    pub complement: Option<crate::Complement>,
    /// What mutation analysis did, with `AssertionStrategy::Mutation` (report.json `mutation`).
    pub mutation: Option<crate::MutationFigures>,
    /// The contract violations whose tests failed the same way in every fresh-JVM run, with
    /// `WriteConfig::contracts` (report.json `violations`).
    pub violations: Vec<contracts::Violation>,
    /// Their tests, `<Simple>ViolationTest`, failing by design; `None` without violations.
    pub violation_file: Option<Rendered>,
}

impl ClassTests {
    /// Statements of the written tests.
    pub fn statements(&self) -> usize {
        self.tests.iter().map(|t| t.case.len()).sum()
    }

    /// Assertions of the written tests.
    pub fn assertions(&self) -> usize {
        self.tests.iter().map(|t| t.assertions.len()).sum()
    }

    /// Written tests that expect an exception.
    pub fn expected_exceptions(&self) -> usize {
        self.tests.iter().filter(|t| t.expected_exception.is_some()).count()
    }

    /// Written tests with neither an assertion nor an expected exception.
    pub fn unasserted(&self) -> usize {
        self.tests.iter().filter(|t| t.assertions.is_empty() && t.expected_exception.is_none()).count()
    }

    /// Of [`ClassTests::unasserted`], the tests that end with a call returning `void` (or a field
    /// store): they exist for a goal of that call, whose effect no inspector observed.
    pub fn unasserted_void(&self) -> usize {
        self.tests
            .iter()
            .filter(|t| t.assertions.is_empty() && t.expected_exception.is_none())
            .filter(|t| t.case.statements.last().is_some_and(|s| s.value_type().is_none()))
            .count()
    }

    /// Coverage of one criterion, if it has goals.
    pub fn criterion(&self, c: Criterion) -> Option<CriterionCoverage> {
        self.coverage.iter().copied().find(|x| x.criterion == c)
    }
}

/// The simple name of the first test class of `cut` (binary name): `Stack` -> `StackTest`,
/// `a.Outer$Inner` -> `Outer_InnerTest`.
pub fn test_class_name(cut: &str) -> String {
    let simple = cut.rsplit_once('.').map_or(cut, |(_, s)| s);
    format!("{}Test", simple.replace('$', "_"))
}

/// The search problem as `postprocess` runs tests: one worker round trip per batch, the goals
/// whose fitness is 0 as covered, and the time left to the current phase.
pub(crate) struct ProblemRunner<'a> {
    pub(crate) problem: &'a mut JvmProblem,
    pub(crate) deadline: Option<Instant>,
}

impl Runner for ProblemRunner<'_> {
    fn run(&mut self, tests: &[TestCase]) -> Result<Vec<ExecResult>, RunnerError> {
        Ok(self.problem.execute(tests)?)
    }

    /// The goals a result covers; path-condition goals (SUSHI) are means to branches, not
    /// coverage, so a test is never kept for one alone, nor for goals the project's own tests
    /// cover (complement mode).
    fn covered(&self, result: &ExecResult) -> Vec<u32> {
        let f = self.problem.fitness(&result.trace);
        f.iter()
            .enumerate()
            .filter(|&(i, f)| {
                let g = search::GoalIdx::new(i);
                *f == 0.0 && !self.problem.is_path_goal(g) && !self.problem.is_settled(g)
            })
            .map(|(i, _)| i as u32)
            .collect()
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The post-processing budget's clock: when it started and the deadline of each phase.
#[derive(Debug, Clone, Copy)]
struct PostClock {
    started: Instant,
    budget: Option<Duration>,
}

impl PostClock {
    /// The instant by which the phase whose share of the budget is `share` must end.
    fn by(&self, share: f64) -> Option<Instant> {
        self.budget.map(|b| self.started + b.mul_f64(share))
    }

    fn left(&self) -> Option<Duration> {
        self.budget.map(|b| b.saturating_sub(self.started.elapsed()))
    }
}

/// Assertion generation on the minimised suite within its deadline; what the budget cut short is
/// logged.
fn assert_phase(
    problem: &mut JvmProblem,
    suite: &[TestCase],
    db: &programdb::ProgramDb,
    class: &str,
    deadline: Option<Instant>,
    log: &mut Vec<String>,
) -> Result<Vec<postprocess::AssertedTest>, EngineError> {
    let mut runner = ProblemRunner { problem, deadline };
    let a = postprocess::assertions(&mut runner, suite, db, &AssertionConfig::evosuite(class))
        .map_err(EngineError::Post)?;
    if runner.out_of_time() {
        log.push(
            "post-processing budget: assertion generation stopped early (no inspector calls)".to_string(),
        );
    }
    let not_run = a.iter().filter(|t| t.stats.not_run).count();
    if not_run > 0 {
        log.push(format!(
            "post-processing budget: {not_run} tests not run for assertions (written without any)"
        ));
    }
    Ok(a)
}

/// The assertions of the minimised suite: all those observed ([`assert_phase`]), then, with
/// `AssertionStrategy::Mutation`, those that kill mutants (`crate::mutants::mutation_phase`).
fn choose_assertions(
    problem: &mut JvmProblem,
    suite: &[TestCase],
    db: &programdb::ProgramDb,
    config: &GenerateConfig,
    write: &WriteConfig,
    clock: &PostClock,
    log: &mut Vec<String>,
) -> Result<(Vec<postprocess::AssertedTest>, Option<crate::MutationFigures>), EngineError> {
    let mut asserted = assert_phase(problem, suite, db, &config.class, clock.by(ASSERT_SHARE), log)?;
    let mutation = match write.assertions {
        crate::AssertionStrategy::All => None,
        crate::AssertionStrategy::Mutation => {
            let deadline = clock.by(MUTATION_SHARE);
            let classes = problem.classes().to_vec();
            // Its machinery failing (no schemata worker starts) costs the choice, not the class:
            // the tests not analysed keep all their assertions.
            match crate::mutants::mutation_phase(db, config, &classes, &mut asserted, deadline, log) {
                Ok(figures) => Some(figures),
                Err(e) => {
                    log.push(format!("mutation analysis failed, tests keep all their assertions: {e}"));
                    None
                }
            }
        }
    };
    Ok((asserted, mutation))
}

/// Generates, minimises, asserts, renders and verifies the tests of `config.class`. The files are
/// returned, not written: the caller writes them when every class is done.
///
/// Before minimisation every test is cut before its first statement a worker's guard refused
/// ([`postprocess::cut_at_guards`]): the files never contain such a statement. With a
/// post-processing budget ([`WriteConfig::post_budget`]), minimisation and assertion generation
/// stop early when their share is used (keeping what they checked), and verification starts no
/// round past its share: the tests that passed the last round are written, never nothing.
pub fn generate_tests(
    config: &GenerateConfig,
    write: &WriteConfig,
    verifier: &mut dyn Verifier,
    on_stage: &mut dyn FnMut(&Stage),
) -> Result<ClassTests, EngineError> {
    let started = Instant::now();
    let ((mut problem, result, hooks), db) = search_class(config, &mut |e| {
        if let search::Event::Iteration { iteration, evaluations, covered, goals, .. } = *e {
            let elapsed = started.elapsed();
            on_stage(&Stage::Search { iteration, evaluations, covered, goals, elapsed });
        }
    })?;
    let suite = result.suite();
    let search = search_figures(&result, &problem, &suite, hooks, smart::counts(&db, &problem, config));
    let clock = PostClock { started: Instant::now(), budget: write.post_budget };
    let mut phases = PhaseTimes::default();
    let mut log = Vec::new();
    let mut stage = |phase: Phase| on_stage(&Stage::Post { phase, left: clock.left() });
    stage(Phase::Minimising);
    let t0 = Instant::now();
    let (suite, guard_cuts) = {
        let mut runner = ProblemRunner { problem: &mut problem, deadline: None };
        postprocess::cut_at_guards(&mut runner, suite).map_err(EngineError::Post)?
    };
    log.extend(guard_cut_note(&guard_cuts));
    let minimised = {
        let mut runner = ProblemRunner { problem: &mut problem, deadline: clock.by(MINIMISE_SHARE) };
        let m = postprocess::minimise(&mut runner, suite).map_err(EngineError::Post)?;
        if runner.out_of_time() {
            log.push("post-processing budget: minimisation stopped early".to_string());
        }
        m
    };
    phases.minimise = t0.elapsed();

    stage(Phase::Asserting);
    let t0 = Instant::now();
    let (asserted, mutation) =
        choose_assertions(&mut problem, &minimised.suite, &db, config, write, &clock, &mut log)?;
    phases.assertions = t0.elapsed();
    let deadline = clock.by(CONTRACTS_SHARE);
    let (violations, contracts_time) = if write.contracts {
        crate::violations::find(&mut problem, &minimised.suite, &db, &config.class, deadline, &mut log)
    } else {
        (Vec::new(), Duration::ZERO)
    };

    let render_config = render_config_of(config, write, &db, &minimised.suite);
    let (tests, observed): (Vec<JUnitTest>, Vec<_>) = asserted
        .into_iter()
        .filter_map(|a| without_vm_error(a.test, &mut log).map(|t| (t, a.observed)))
        .unzip();
    let tests = crate::names::named(&config.class, tests, &observed, write.test_names);
    let tests = property_changes(&mut problem, tests)?;
    let t0 = Instant::now();
    verifier.prepare(&db)?;
    verifier.set_deadline(clock.by(1.0));
    let cx = Verify {
        cut: &config.class,
        write,
        render_config: &render_config,
        verifier,
        rounds: &Rounds { last_start: clock.by(VERIFY_SHARE), end: clock.by(1.0) },
        on_stage: &mut stage,
        log: &mut log,
    };
    let (tests, files, verification) = verify(cx, tests)?;
    verifier.set_deadline(None);
    phases.verification = t0.elapsed();
    let t0 = Instant::now();
    let jacoco = if write.jacoco { jacoco(verifier, &files, &config.class, &mut log) } else { None };
    let end = clock.by(1.0);
    let (violations, violation_file, verify_time) =
        crate::violations::verify(verifier, &config.class, violations, &render_config, end, &mut log)?;
    phases.contracts = contracts_time + verify_time;

    // Coverage of the tests as written, with the goals the class initialisers cover (`class_init_goals`).
    let cases: Vec<TestCase> = tests.iter().map(postprocess::as_written).collect();
    let results = problem.execute(&cases)?;
    let (coverage, uncovered, flags) = final_figures(&problem, &config.criteria, &results);
    let goal_runs = problem.goal_runs(&[Criterion::Line, Criterion::Branch], &results);
    phases.coverage = t0.elapsed().saturating_sub(verify_time);
    // The JVM's runs of the written tests are the ones just made for the coverage.
    let replay_check =
        write.replay_check.then(|| crate::replay_check::of(&problem, &db, config, &cases, &results));
    let traces: Vec<&protocol::Trace> = results.iter().map(|r| &r.trace).collect();
    let complement = config
        .existing
        .as_deref()
        .map(|e| crate::complement::complement(&problem, e, &config.criteria, &traces));
    Ok(ClassTests {
        class: config.class.clone(),
        files,
        coverage,
        uncovered,
        goal_runs,
        search,
        minimised_tests: minimised.suite.len(),
        minimised_statements: minimised.statements_after,
        verification,
        jacoco,
        replay_check,
        postprocess_time: clock.started.elapsed(),
        phases,
        guard_cuts,
        unchanged: problem.unchanged().to_vec(),
        guarded_dependencies: problem.dependencies().len(),
        tests,
        log,
        program: db.stats(),
        flags,
        complement,
        mutation,
        violations,
        violation_file,
    })
}

/// `tests` with [`JUnitTest::changes_system_properties`] set from runs of them as written (the
/// workers restore the properties after each run and say whether a test changed them): the class
/// of such a test restores them after each of its tests. The assertion phase ran these tests, so
/// the result cache mostly answers.
fn property_changes(
    problem: &mut JvmProblem,
    mut tests: Vec<JUnitTest>,
) -> Result<Vec<JUnitTest>, EngineError> {
    mark_property_changes(problem, tests.iter_mut())?;
    Ok(tests)
}

/// Sets [`JUnitTest::changes_system_properties`] of `tests` from runs of them as written.
pub(crate) fn mark_property_changes<'a>(
    problem: &mut JvmProblem,
    tests: impl Iterator<Item = &'a mut JUnitTest>,
) -> Result<(), EngineError> {
    let mut tests: Vec<&mut JUnitTest> = tests.collect();
    let cases: Vec<TestCase> = tests.iter().map(|t| postprocess::as_written(t)).collect();
    let results = problem.execute(&cases)?;
    for (t, r) in tests.iter_mut().zip(&results) {
        t.changes_system_properties = r.properties_changed;
    }
    Ok(())
}

/// The render configuration of a test class of the given simple name.
fn render_config_of(
    config: &GenerateConfig,
    write: &WriteConfig,
    db: &programdb::ProgramDb,
    suite: &[TestCase],
) -> impl Fn(String) -> RenderConfig {
    let package_classes = package_classes(db.classpath(), &config.class);
    let static_nested = static_nested(db, suite);
    let (style, seed, jvm_args, timeout_ms) =
        (write.style, config.seed, config.jvm_args.clone(), write.test_timeout_ms);
    move |name: String| {
        let mut rc = RenderConfig::new(style, seed);
        rc.jvm_args.clone_from(&jvm_args);
        rc.class_name = Some(name);
        rc.timeout_ms = timeout_ms;
        rc.package_classes = package_classes.clone();
        rc.static_nested = static_nested.clone();
        rc
    }
}

/// Coverage per criterion, the uncovered goals and the flag figures (when flags are on) of the
/// final runs of the written tests.
fn final_figures(
    problem: &JvmProblem,
    criteria: &[Criterion],
    results: &[ExecResult],
) -> (Vec<CriterionCoverage>, Vec<String>, Option<crate::FlagFigures>) {
    let (coverage, uncovered) = problem.final_coverage(criteria, results);
    (coverage, uncovered, problem.flag_figures(results))
}

/// JaCoCo's figures of the written tests. JaCoCo is a cross-check on top: its failure is logged,
/// never a reason to lose the tests.
fn jacoco(
    verifier: &mut dyn Verifier,
    files: &[Rendered],
    cut: &str,
    log: &mut Vec<String>,
) -> Option<JacocoFigures> {
    verifier.coverage(files, cut).map_err(|e| log.push(format!("JaCoCo could not measure: {e}"))).ok()
}

/// The search's figures for the report.
fn search_figures(
    result: &search::SearchResult,
    problem: &JvmProblem,
    suite: &[TestCase],
    hooks: crate::HookFigures,
    selection: Option<crate::SelectionCounts>,
) -> SearchFigures {
    let (dse, dse_cost) = hooks.dse.unzip();
    SearchFigures {
        dse,
        dse_cost,
        ocg: hooks.ocg,
        sushi: hooks.sushi,
        local_search: hooks.local_search,
        portfolio: hooks.portfolio,
        evaluations: result.stats.evaluations,
        generations: result.stats.iterations,
        elapsed: result.stats.elapsed,
        worker_time: problem.worker_time(),
        tests: suite.len(),
        statements: suite.iter().map(TestCase::len).sum(),
        selection,
    }
}

/// The log line saying what `cut_at_guards` did, if it did anything.
fn guard_cut_note(cuts: &postprocess::GuardCuts) -> Option<String> {
    cuts.any().then(|| {
        format!(
            "{} tests cut and {} dropped before a statement the workers' guards refused ({})",
            cuts.tests_cut,
            cuts.tests_dropped,
            cuts.refused.join("; ")
        )
    })
}

/// The nested classes the tests construct that are declared `static`, which the renderer must
/// know: their constructors may take an instance of the enclosing class as a plain argument.
fn static_nested(db: &programdb::ProgramDb, suite: &[TestCase]) -> Vec<String> {
    let mut out = BTreeSet::new();
    for t in suite {
        for st in &t.statements {
            if let Statement::Constructor { ctor, .. } = st
                && ctor.class.contains('$')
                && testcase::cluster::is_static_nested_in(db, &ctor.class)
            {
                out.insert(ctor.class.clone());
            }
        }
    }
    out.into_iter().collect()
}

/// The other classes of the CUT's package on the classpath (binary names), which the renderer
/// must know about: one named like a `java.lang` class shadows it.
fn package_classes(cp: &classfile::ClassPath, cut: &str) -> Vec<String> {
    let cut = ClassName::from_binary(cut);
    let package = cut.package_internal();
    cp.class_names()
        .map(ClassName::from_internal)
        .filter(|n| n.package_internal() == package && !n.internal().contains('$'))
        .map(|n| n.binary())
        .collect()
}

/// Splits the tests into files of at most `per_file` tests and renders them. Returns each file
/// with the indices (into `tests`) of its tests.
fn render_files(
    cut: &str,
    tests: &[JUnitTest],
    per_file: usize,
    render_config: &dyn Fn(String) -> RenderConfig,
) -> Result<Vec<(Rendered, Vec<usize>)>, EngineError> {
    let base = test_class_name(cut);
    let per_file = per_file.max(1);
    let n_files = tests.len().div_ceil(per_file).max(1);
    let mut out = Vec::with_capacity(n_files);
    for f in 0..n_files {
        let range: Vec<usize> = (f * per_file..((f + 1) * per_file).min(tests.len())).collect();
        let name = if f == 0 { base.clone() } else { format!("{base}{}", f + 1) };
        let chunk: Vec<JUnitTest> = range.iter().map(|&i| tests[i].clone()).collect();
        let rendered = junit::render(cut, &chunk, &render_config(name))?;
        out.push((rendered, range));
    }
    Ok(out)
}

/// When the repair loop may start another round that runs the tests.
#[derive(Debug, Clone, Copy)]
struct Rounds {
    /// No round runs the tests after this instant (the post-processing budget's share).
    last_start: Option<Instant>,
    /// The end of the post-processing budget: no round starts that the last one's durations say
    /// would end past it (a round of 5 fresh JVMs on a large suite takes tens of seconds).
    end: Option<Instant>,
}

impl Rounds {
    /// Whether another round that runs the tests may start, the last one having taken `compile`
    /// to compile and `run` to run them: the next round compiles and runs, and if it fails, one
    /// more compile checks what is left (javac on a few hundred tests takes seconds).
    fn another(&self, compile: Duration, run: Duration) -> bool {
        let now = Instant::now();
        self.last_start.is_none_or(|d| now < d) && self.end.is_none_or(|e| now + compile * 2 + run <= e)
    }
}

/// What the repair loop ([`verify`]) works with besides the tests.
struct Verify<'a> {
    /// The class under test (binary name), for the log.
    cut: &'a str,
    write: &'a WriteConfig,
    /// The render configuration for a test class of the given simple name.
    render_config: &'a dyn Fn(String) -> RenderConfig,
    verifier: &'a mut dyn Verifier,
    rounds: &'a Rounds,
    on_stage: &'a mut dyn FnMut(Phase),
    log: &'a mut Vec<String>,
}

/// The repair loop: render, compile, run `write.verify_runs` times; drop what did not compile,
/// remove failing assertions in the first `ASSERTION_ROUNDS` rounds that run the tests and drop
/// every other failing test whole, until a round passes. After `MAX_RUN_ROUNDS` such rounds, or
/// once `rounds.last_start` has passed, the tests that failed the last round go whole and the rest
/// are written after a compile check, as they passed that round. Each round's drops are logged.
fn verify(
    cx: Verify<'_>,
    mut tests: Vec<JUnitTest>,
) -> Result<(Vec<JUnitTest>, Vec<Rendered>, Verification), EngineError> {
    let Verify { cut, write, render_config, verifier, rounds, on_stage, log } = cx;
    let mut v = Verification::default();
    let mut run_rounds = 0;
    // Set when the loop stops running the tests: the next successful compile ends it.
    let mut last_cut = false;
    loop {
        v.rounds += 1;
        on_stage(Phase::Verifying { round: v.rounds });
        if v.rounds > MAX_ROUNDS && !tests.is_empty() {
            // Unreachable on real suites (see MAX_ROUNDS); give up on every test rather than
            // write one that was not verified.
            log.push(format!("{cut}: verification did not settle after {MAX_ROUNDS} rounds; no tests kept"));
            v.failing_tests += tests.len();
            tests.clear();
        }
        let files = render_files(cut, &tests, write.tests_per_file, render_config)?;
        let rendered: Vec<Rendered> = files.iter().map(|(r, _)| r.clone()).collect();
        let compile_started = Instant::now();
        let errors = verifier.compile(&rendered)?;
        let compile_took = compile_started.elapsed();
        if !errors.is_empty() {
            let drop = uncompilable(cut, &files, &errors, log);
            if drop.is_empty() {
                // Not even an empty test class compiles: the classpath or the JDK is at fault.
                return Err(EngineError::Uncompilable(errors[0].message.clone()));
            }
            v.uncompilable_tests += drop.len();
            tests = keep_except(tests, &drop);
            continue;
        }
        if tests.is_empty() {
            // The empty class compiled (so the classpath and JDK are sound), but a test class
            // without a test method is not written: JUnit 4 fails it ("No runnable methods").
            v.verified = write.verify_runs > 0 && !last_cut;
            return Ok((tests, Vec::new(), v));
        }
        if write.verify_runs == 0 || last_cut {
            return Ok((tests, rendered, v));
        }
        run_rounds += 1;
        let round_started = Instant::now();
        let failures = verifier.run(&rendered, write.verify_runs)?;
        if let Some(n) = verifier.runs_done().filter(|&n| n < write.verify_runs) {
            v.short_rounds += 1;
            log.push(format!(
                "{cut}: verification round {}: the tests ran {n} of {} times (the post-processing budget)",
                v.rounds, write.verify_runs
            ));
        }
        if failures.is_empty() {
            v.verified = true;
            return Ok((tests, rendered, v));
        }
        let out_of_time = !rounds.another(compile_took, round_started.elapsed());
        // The last round: whatever failed goes whole, since no round will check a repaired test.
        let last = run_rounds >= MAX_RUN_ROUNDS || out_of_time;
        let (drop_tests, failed_assertions, why) =
            failing(&files, &failures, run_rounds <= ASSERTION_ROUNDS && !last);
        let failed = failed_assertions.iter().filter(|(t, _)| !drop_tests.contains(t)).count();
        let drop_assertions = with_dependents(&tests, &failed_assertions);
        let removed = drop_assertions.iter().filter(|(t, _)| !drop_tests.contains(t)).count();
        v.failing_assertions += removed;
        v.failing_tests += drop_tests.len();
        log.push(format!(
            "{cut}: verification round {}: {removed} assertions removed ({failed} failed, \
             the others observe values depending on theirs), {} tests dropped{}",
            v.rounds,
            drop_tests.len(),
            match (last, out_of_time) {
                (true, true) => "; the post-processing budget is used: the rest are written as they passed",
                (true, false) => "; the last round: the rest are written as they passed",
                _ => "",
            }
        ));
        log.extend(why.into_iter().map(|w| format!("  {w}")));
        remove_assertions(&mut tests, &drop_assertions);
        tests = keep_except(tests, &drop_tests);
        if last {
            last_cut = true;
            v.stopped_by_budget = out_of_time;
        }
    }
}

/// The tests (indices into the suite) a round's compile errors point at, each error logged: the
/// test whose lines hold the error, or every test of the file for an error outside them.
fn uncompilable(
    cut: &str,
    files: &[(Rendered, Vec<usize>)],
    errors: &[CompileError],
    log: &mut Vec<String>,
) -> BTreeSet<usize> {
    let mut drop = BTreeSet::new();
    for e in errors {
        let (file, indices) = &files[e.file];
        let hit = e.line.and_then(|l| file.tests.iter().position(|t| t.first_line <= l && l <= t.last_line));
        // The offending line itself: the dropped test is written nowhere else.
        let code = e.line.and_then(|l| file.source.lines().nth(l.saturating_sub(1) as usize)).map(str::trim);
        log.push(format!(
            "{cut}: renderer bug: {}:{}: {}{}",
            file.relative_path(),
            e.line.map_or("?".to_string(), |l| l.to_string()),
            e.message,
            code.map_or(String::new(), |c| format!(" [in `{c}`]"))
        ));
        match hit {
            Some(t) => drop.insert(indices[t]),
            // An error outside any test method: nothing in this file can be kept.
            None => {
                drop.extend(indices.iter().copied());
                true
            }
        };
    }
    drop
}

/// Per failing test of a round: the test to drop, or (when `repair` and the failing line is an
/// assertion) that assertion as (test, assertion); with a line of the log for each.
fn failing(
    files: &[(Rendered, Vec<usize>)],
    failures: &[TestFailure],
    repair: bool,
) -> (BTreeSet<usize>, BTreeSet<(usize, usize)>, Vec<String>) {
    let mut drop_tests = BTreeSet::new();
    let mut drop_assertions: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut why = Vec::new();
    // A round runs the tests several times: a test failing in each run is one line of the log.
    let mut logged: BTreeSet<(usize, &str, Option<u32>)> = BTreeSet::new();
    for f in failures {
        if !logged.insert((f.file, f.method.as_str(), f.line)) {
            continue;
        }
        let (file, indices) = &files[f.file];
        let Some(t) = file.tests.iter().position(|t| t.method == f.method) else {
            // A class-level failure (the test class could not be set up): no test of the file
            // can be trusted.
            why.push(format!("{} as a whole ({}): {}", file.class_name, f.method, short(&f.message)));
            drop_tests.extend(indices.iter().copied());
            continue;
        };
        let lines = &file.tests[t];
        let assertion = f.line.and_then(|l| lines.assertions.iter().find(|(_, al)| *al == l));
        let at = f.line.map_or(String::new(), |l| format!(" line {l}"));
        match assertion {
            Some(&(a, _)) if repair => {
                why.push(format!(
                    "{}.{}{at}: assertion removed: {}",
                    file.class_name,
                    f.method,
                    short(&f.message)
                ));
                drop_assertions.insert((indices[t], a));
            }
            _ => {
                why.push(format!(
                    "{}.{}{at}: test dropped: {}",
                    file.class_name,
                    f.method,
                    short(&f.message)
                ));
                drop_tests.insert(indices[t]);
            }
        }
    }
    (drop_tests, drop_assertions, why)
}

/// The (test, assertion) pairs of `failed` with, in each test, the assertions that observe values
/// depending on what a failed one observed (`JUnitTest::dependent_assertions`). A value that
/// differs between runs (the code under test read the real clock) fails one assertion per run
/// of JUnit, which stops a test at its first failure: removed one by one, a test asserting three
/// values that depend on it outlasted the assertion rounds and was dropped whole (ThreeTen-Extra's
/// `DayOfMonth.now()`: 10 of 29 tests at 5,000 evaluations).
fn with_dependents(tests: &[JUnitTest], failed: &BTreeSet<(usize, usize)>) -> BTreeSet<(usize, usize)> {
    let mut by_test: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &(t, a) in failed {
        by_test.entry(t).or_default().push(a);
    }
    let mut out = BTreeSet::new();
    for (t, unstable) in by_test {
        for a in tests[t].dependent_assertions(&unstable) {
            out.insert((t, a));
        }
    }
    out
}

/// Removes the (test, assertion) pairs of `drop` from the tests.
fn remove_assertions(tests: &mut [JUnitTest], drop: &BTreeSet<(usize, usize)>) {
    for (t, test) in tests.iter_mut().enumerate() {
        let remove: Vec<usize> = drop.range((t, 0)..=(t, usize::MAX)).map(|&(_, a)| a).collect();
        if !remove.is_empty() {
            test.assertions = test
                .assertions
                .drain(..)
                .enumerate()
                .filter(|(a, _)| !remove.contains(a))
                .map(|(_, x)| x)
                .collect();
        }
    }
}

/// A failure message for the log: its first line, at most 200 characters.
fn short(message: &str) -> String {
    let line = message.lines().next().unwrap_or("");
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

/// Errors of the JVM itself whose throwing depends on the heap or stack size the tests run with,
/// not on the code under test alone: a test must not expect them.
const VM_ERRORS: [&str; 4] = [
    "java.lang.OutOfMemoryError",
    "java.lang.StackOverflowError",
    "java.lang.InternalError",
    "java.lang.UnknownError",
];

/// A test that expects a JVM error loses its throwing (last) statement and the assertions placed
/// after it; `None` when nothing is left.
fn without_vm_error(mut t: JUnitTest, log: &mut Vec<String>) -> Option<JUnitTest> {
    let Some(e) = t.expected_exception.as_deref() else { return Some(t) };
    if !VM_ERRORS.contains(&e) {
        return Some(t);
    }
    log.push(format!("a test expected {e}, which depends on the JVM's memory: its last statement was cut"));
    let last = t.case.len().checked_sub(1)?;
    t.expected_exception = None;
    t.assertions.retain(|a| a.after < last);
    t.case = postprocess::remove_with_dependents(&t.case, &[last]);
    // Without that statement a test may be left with values alone (literals the call took), which
    // test nothing: it goes.
    postprocess::has_call(&t.case).then_some(t)
}

fn keep_except(tests: Vec<JUnitTest>, drop: &BTreeSet<usize>) -> Vec<JUnitTest> {
    tests.into_iter().enumerate().filter(|(i, _)| !drop.contains(i)).map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    //! The repair loop against a scripted verifier: which tests and assertions survive which
    //! failures, without a JVM.

    use junit::{Assertion, Check, Expected, Subject};
    use testcase::{PrimValue, Statement, VarId};

    use super::*;

    /// [`super::verify`] with its inputs spelled out, stage reports ignored.
    fn verify(
        cut: &str,
        tests: Vec<JUnitTest>,
        write: &WriteConfig,
        render_config: &dyn Fn(String) -> RenderConfig,
        verifier: &mut dyn Verifier,
        rounds: &Rounds,
        log: &mut Vec<String>,
    ) -> Result<(Vec<JUnitTest>, Vec<Rendered>, Verification), EngineError> {
        let cx = Verify { cut, write, render_config, verifier, rounds, on_stage: &mut |_| {}, log };
        super::verify(cx, tests)
    }

    /// Fails to compile any file holding `= {uncompilable};`, fails every run at the line of an
    /// assertion on a value in `failing`, and without a line for a test holding `= {crashing};`.
    struct Scripted {
        uncompilable: i32,
        failing: i32,
        crashing: i32,
        calls: Vec<&'static str>,
    }

    fn lines_with(f: &Rendered, needle: &str) -> Vec<u32> {
        f.source.lines().enumerate().filter(|(_, l)| l.contains(needle)).map(|(i, _)| i as u32 + 1).collect()
    }

    impl Verifier for Scripted {
        fn compile(&mut self, files: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
            self.calls.push("compile");
            let mut out = Vec::new();
            for (i, f) in files.iter().enumerate() {
                for line in lines_with(f, &format!("= {};", self.uncompilable)) {
                    out.push(CompileError { file: i, line: Some(line), message: "scripted".into() });
                }
            }
            Ok(out)
        }

        fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
            self.calls.push("run");
            assert_eq!(runs, 5);
            let mut out = Vec::new();
            for (i, f) in files.iter().enumerate() {
                for t in &f.tests {
                    let inside = |l: &u32| t.first_line <= *l && *l <= t.last_line;
                    for line in
                        lines_with(f, &format!("assertEquals({},", self.failing)).iter().filter(|l| inside(l))
                    {
                        out.push(TestFailure {
                            file: i,
                            method: t.method.clone(),
                            line: Some(*line),
                            message: "x".into(),
                        });
                    }
                    if lines_with(f, &format!("= {};", self.crashing)).iter().any(inside) {
                        out.push(TestFailure {
                            file: i,
                            method: t.method.clone(),
                            line: None,
                            message: "y".into(),
                        });
                    }
                }
            }
            Ok(out)
        }

        fn coverage(&mut self, _: &[Rendered], _: &str) -> Result<JacocoFigures, EngineError> {
            Ok(JacocoFigures::default())
        }
    }

    const NO_LIMIT: Rounds = Rounds { last_start: None, end: None };

    /// The render configuration of the tests here: JUnit 4, seed 1, the class name given.
    fn junit4_named(name: String) -> RenderConfig {
        let mut rc = RenderConfig::new(Style::JUnit4, 1);
        rc.class_name = Some(name);
        rc
    }

    /// `int int0 = v; assertEquals(v, int0);`
    fn test_of(v: i32) -> JUnitTest {
        let mut case = TestCase::new();
        let var = case.push(Statement::Primitive(PrimValue::Int(v)));
        let check = Check::Equals { subject: Subject::Var(var), value: Expected::Prim(PrimValue::Int(v)) };
        JUnitTest {
            case,
            assertions: vec![Assertion { after: 0, check }],
            expected_exception: None,
            name: None,
            changes_system_properties: false,
        }
    }

    fn run_loop(
        tests: Vec<JUnitTest>,
        v: &mut Scripted,
    ) -> (Vec<JUnitTest>, Vec<Rendered>, Verification, Vec<String>) {
        let write = WriteConfig::new(Style::JUnit4);
        let config = junit4_named;
        let mut log = Vec::new();
        let (t, f, ver) = verify("p.Cut", tests, &write, &config, v, &NO_LIMIT, &mut log).expect("verifies");
        (t, f, ver, log)
    }

    #[test]
    fn uncompilable_tests_go_failing_assertions_go_crashing_tests_go() {
        let mut v = Scripted { uncompilable: 13, failing: 7, crashing: 9, calls: Vec::new() };
        let (tests, files, ver, log) =
            run_loop(vec![test_of(1), test_of(7), test_of(13), test_of(9)], &mut v);
        let values: Vec<(usize, usize)> = tests.iter().map(|t| (t.case.len(), t.assertions.len())).collect();
        assert_eq!(values, [(1, 1), (1, 0)], "1 keeps its assertion, 7 loses it, 13 and 9 are dropped");
        assert_eq!(
            ver,
            Verification {
                rounds: 3,
                uncompilable_tests: 1,
                failing_assertions: 1,
                failing_tests: 1,
                verified: true,
                stopped_by_budget: false,
                short_rounds: 0,
            }
        );
        assert_eq!(v.calls, ["compile", "compile", "run", "compile", "run"]);
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].class_name, "CutTest");
        assert!(log.iter().any(|l| l.contains("renderer bug")), "{log:?}");
    }

    #[test]
    fn a_class_left_without_tests_gets_no_file() {
        let mut v = Scripted { uncompilable: 13, failing: 7, crashing: 9, calls: Vec::new() };
        let (tests, files, ver, _) = run_loop(vec![test_of(13)], &mut v);
        assert!(tests.is_empty());
        assert!(files.is_empty(), "{files:?}");
        assert_eq!(v.calls, ["compile", "compile"], "the empty class is still compiled once");
        assert_eq!(ver.uncompilable_tests, 1);
    }

    #[test]
    fn a_failing_assertion_that_stays_drops_its_test_after_the_assertion_rounds() {
        // The assertion on 7 is re-added every time: the loop must end by dropping the test.
        struct Stubborn(Scripted);
        impl Verifier for Stubborn {
            fn compile(&mut self, f: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
                self.0.compile(f)
            }
            fn run(&mut self, f: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
                let mut out = self.0.run(f, runs)?;
                // Every test of value 7 fails at its first body line, which is no assertion.
                for (i, file) in f.iter().enumerate() {
                    for t in &file.tests {
                        if file
                            .source
                            .lines()
                            .nth(t.first_line as usize - 1)
                            .is_some_and(|l| l.contains("= 7;"))
                        {
                            out.push(TestFailure {
                                file: i,
                                method: t.method.clone(),
                                line: Some(t.first_line),
                                message: "z".into(),
                            });
                        }
                    }
                }
                Ok(out)
            }
            fn coverage(&mut self, f: &[Rendered], c: &str) -> Result<JacocoFigures, EngineError> {
                self.0.coverage(f, c)
            }
        }
        let mut v = Stubborn(Scripted { uncompilable: -1, failing: 7, crashing: -1, calls: Vec::new() });
        let write = WriteConfig::new(Style::JUnit4);
        let config = junit4_named;
        let (tests, _, ver) =
            verify("Cut", vec![test_of(7), test_of(2)], &write, &config, &mut v, &NO_LIMIT, &mut Vec::new())
                .expect("verifies");
        assert_eq!(tests.len(), 1);
        assert_eq!(ver.failing_tests, 1);
        assert!(ver.verified);
    }

    #[test]
    fn tests_per_file_splits_into_numbered_classes() {
        let mut v = Scripted { uncompilable: -1, failing: -1, crashing: -1, calls: Vec::new() };
        let mut write = WriteConfig::new(Style::JUnit5);
        write.tests_per_file = 2;
        let config = |name: String| {
            let mut rc = RenderConfig::new(Style::JUnit5, 1);
            rc.class_name = Some(name);
            rc
        };
        let tests: Vec<JUnitTest> = (0..5).map(test_of).collect();
        let (_, files, _) =
            verify("a.b.C$D", tests, &write, &config, &mut v, &NO_LIMIT, &mut Vec::new()).expect("verifies");
        let names: Vec<String> = files.iter().map(Rendered::binary_name).collect();
        assert_eq!(names, ["a.b.C_DTest", "a.b.C_DTest2", "a.b.C_DTest3"]);
        assert_eq!(files.iter().map(|f| f.tests.len()).collect::<Vec<_>>(), [2, 2, 1]);
    }

    #[test]
    fn a_test_expecting_a_jvm_error_loses_its_throwing_statement() {
        // int v0 = 3; int v1 = Math.abs(v0); int v2 = 4 (expected to throw OutOfMemoryError).
        let mut t = test_of(3);
        let abs = testcase::MethodRef {
            class: "java.lang.Math".into(),
            name: "abs".into(),
            descriptor: "(I)I".into(),
            is_static: true,
            owner: testcase::JType::Class { name: "java.lang.Math".into(), args: Vec::new() },
            params: vec![testcase::JType::Prim(testcase::PrimType::Int)],
            ret: Some(testcase::JType::Prim(testcase::PrimType::Int)),
        };
        t.case.push(Statement::Method {
            method: std::sync::Arc::new(abs),
            receiver: None,
            args: vec![VarId(0)],
        });
        t.case.push(Statement::Primitive(PrimValue::Int(4)));
        t.assertions.push(Assertion {
            after: 2,
            check: Check::Equals {
                subject: Subject::Var(VarId(2)),
                value: Expected::Prim(PrimValue::Int(4)),
            },
        });
        t.expected_exception = Some("java.lang.OutOfMemoryError".into());
        let mut log = Vec::new();
        let cut = without_vm_error(t.clone(), &mut log).expect("a call is left");
        assert_eq!((cut.case.len(), cut.assertions.len(), cut.expected_exception), (2, 1, None));
        assert_eq!(log.len(), 1);
        // Left with literals alone, the test goes.
        let mut only_values = test_of(3);
        only_values.case.push(Statement::Primitive(PrimValue::Int(4)));
        only_values.expected_exception = Some("java.lang.StackOverflowError".into());
        assert_eq!(without_vm_error(only_values, &mut log), None);
        t.expected_exception = Some("java.lang.IllegalStateException".into());
        assert_eq!(without_vm_error(t.clone(), &mut log), Some(t));
        assert_eq!(test_class_name("Top"), "TopTest");
    }

    /// Fails, in run round k (from 1), the assertion of the test holding the value k: a suite
    /// whose tests fail anew in every round, as flaky ones do.
    struct Flaky {
        runs: usize,
        compiles: usize,
    }

    /// [`Flaky`] whose rounds each made only two of the runs asked (the deadline came first).
    struct Short(Flaky);

    impl Verifier for Short {
        fn compile(&mut self, f: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
            self.0.compile(f)
        }

        fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
            self.0.run(files, runs)
        }

        fn coverage(&mut self, f: &[Rendered], cut: &str) -> Result<JacocoFigures, EngineError> {
            self.0.coverage(f, cut)
        }

        fn runs_done(&self) -> Option<usize> {
            Some(2)
        }
    }

    impl Verifier for Flaky {
        fn compile(&mut self, _: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
            self.compiles += 1;
            Ok(Vec::new())
        }

        fn run(&mut self, files: &[Rendered], _: usize) -> Result<Vec<TestFailure>, EngineError> {
            self.runs += 1;
            let mut s =
                Scripted { uncompilable: -1, failing: self.runs as i32, crashing: -1, calls: Vec::new() };
            s.run(files, 5)
        }

        fn coverage(&mut self, _: &[Rendered], _: &str) -> Result<JacocoFigures, EngineError> {
            Ok(JacocoFigures::default())
        }
    }

    #[test]
    fn the_repair_loop_stops_after_its_run_rounds_and_drops_the_last_failures() {
        let mut v = Flaky { runs: 0, compiles: 0 };
        let write = WriteConfig::new(Style::JUnit4);
        let config = junit4_named;
        let tests: Vec<JUnitTest> = (1..=8).map(test_of).collect();
        let mut log = Vec::new();
        let (kept, _, ver) =
            verify("Cut", tests, &write, &config, &mut v, &NO_LIMIT, &mut log).expect("verifies");
        assert_eq!(v.runs, MAX_RUN_ROUNDS, "no round runs the tests past the cap");
        assert_eq!(v.compiles, MAX_RUN_ROUNDS + 1, "the written files are compiled once more");
        // Rounds 1 and 2 remove the assertions of 1 and 2; rounds 3 and 4 drop 3 and 4 whole.
        let values: Vec<usize> = kept.iter().map(|t| t.assertions.len()).collect();
        assert_eq!(values, [0, 0, 1, 1, 1, 1]);
        assert_eq!((ver.failing_assertions, ver.failing_tests, ver.verified), (2, 2, false));
        assert!(!ver.stopped_by_budget);
        assert!(
            log.iter().any(|l| l.contains("verification round 4") && l.contains("the last round")),
            "{log:?}"
        );
        assert!(log.iter().any(|l| l.contains("assertion removed")), "{log:?}");
    }

    #[test]
    fn out_of_time_the_failing_tests_go_and_the_rest_are_written_without_another_run() {
        let mut v = Flaky { runs: 0, compiles: 0 };
        let write = WriteConfig::new(Style::JUnit4);
        let config = junit4_named;
        let past = Rounds { last_start: Some(Instant::now()), end: None };
        let tests: Vec<JUnitTest> = (1..=3).map(test_of).collect();
        let mut log = Vec::new();
        let (kept, files, ver) =
            verify("Cut", tests, &write, &config, &mut v, &past, &mut log).expect("verifies");
        assert_eq!((v.runs, v.compiles), (1, 2));
        assert_eq!(kept.len(), 2, "the test failing in the one round goes whole");
        assert_eq!(files.len(), 1);
        assert!(ver.stopped_by_budget && !ver.verified);
        assert!(log.iter().any(|l| l.contains("budget is used")), "{log:?}");
        // The same when the budget's end is too near for another round as long as the last one.
        let mut v = Flaky { runs: 0, compiles: 0 };
        let near = Rounds { last_start: None, end: Some(Instant::now()) };
        let tests: Vec<JUnitTest> = (1..=3).map(test_of).collect();
        let (kept, _, ver) =
            verify("Cut", tests, &write, &config, &mut v, &near, &mut log).expect("verifies");
        assert_eq!((v.runs, kept.len(), ver.stopped_by_budget), (1, 2, true));
    }

    /// [`Flaky`] whose compiles each take the given time (javac on a large suite).
    struct SlowCompile(Flaky, Duration);

    impl Verifier for SlowCompile {
        fn compile(&mut self, f: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
            std::thread::sleep(self.1);
            self.0.compile(f)
        }

        fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
            self.0.run(files, runs)
        }

        fn coverage(&mut self, f: &[Rendered], cut: &str) -> Result<JacocoFigures, EngineError> {
            self.0.coverage(f, cut)
        }
    }

    /// A round that fails needs a compile after it: with 1 s left after a round whose compile
    /// took 0.4 s (and whose run took next to nothing), another round (0.4 s) and the compile
    /// after it (0.4 s) might fit, but not with the compile of a round as slow as this one's to
    /// spare; no round starts, the failing test goes whole.
    #[test]
    fn no_round_starts_when_its_compile_and_the_one_after_it_would_end_past_the_budget() {
        let compile = Duration::from_millis(400);
        let mut v = SlowCompile(Flaky { runs: 0, compiles: 0 }, compile);
        let write = WriteConfig::new(Style::JUnit4);
        let rounds =
            Rounds { last_start: None, end: Some(Instant::now() + compile + Duration::from_millis(600)) };
        let tests: Vec<JUnitTest> = (1..=3).map(test_of).collect();
        let mut log = Vec::new();
        let (kept, _, ver) =
            verify("Cut", tests, &write, &junit4_named, &mut v, &rounds, &mut log).expect("verifies");
        assert_eq!((v.0.runs, v.0.compiles, kept.len(), ver.stopped_by_budget), (1, 2, 2, true), "{log:?}");
    }

    #[test]
    fn a_round_cut_short_by_the_deadline_is_counted_and_logged() {
        let mut v = Short(Flaky { runs: 0, compiles: 0 });
        let write = WriteConfig::new(Style::JUnit4);
        let config = junit4_named;
        let past = Rounds { last_start: Some(Instant::now()), end: None };
        let tests: Vec<JUnitTest> = (1..=3).map(test_of).collect();
        let mut log = Vec::new();
        let (_, _, ver) = verify("Cut", tests, &write, &config, &mut v, &past, &mut log).expect("verifies");
        assert_eq!((v.0.runs, ver.short_rounds), (1, 1));
        assert!(log.iter().any(|l| l.contains("round 1: the tests ran 2 of 5 times")), "{log:?}");
        // A verifier that ran every run asked for (the default) counts none.
        let mut v = Flaky { runs: 0, compiles: 0 };
        let tests: Vec<JUnitTest> = (1..=3).map(test_of).collect();
        let (_, _, ver) = verify("Cut", tests, &write, &config, &mut v, &past, &mut log).expect("verifies");
        assert_eq!(ver.short_rounds, 0);
    }
}
