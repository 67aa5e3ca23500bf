//! `generate_tests`: one class from search to verified JUnit sources (DESIGN.md §2). The
//! search's suite is minimised and given regression assertions (`postprocess`), rendered
//! (`junit`), then compiled and run in fresh JVMs by a [`Verifier`] in the repair loop
//! (`verify_rounds`), until every written test passed the last run made of the files as written.
//! The coverage reported is recomputed from the final tests as written (DESIGN.md §3.9).

use jvm_model::ClassName;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use exec::ExecResult;
use goals::Criterion;
use junit::naming::TestNames;
use junit::{JUnitTest, RenderConfig, Rendered, Style};
use postprocess::{AssertionConfig, Runner, RunnerError};
use testcase::{Statement, TestCase};

use crate::problem::{CriterionCoverage, GoalRuns};
use crate::replay_check::ReplayCheck;
use crate::verify_rounds::{Rounds, Verify};
use crate::{EngineError, GenerateConfig, JvmProblem, search_class, smart};

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
    /// Of the last `run`'s runs, how many ran every test in one JVM: in the others a JVM ended
    /// early (a test killed it, or its time limit came) and the tests after it ran in fresh
    /// JVMs, without the static state the tests before them left. `None`: all of them.
    fn whole_runs(&self) -> Option<usize> {
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
    /// a timeout), kept failing after the assertion rounds, failed in the last round, or failed a
    /// confirmation.
    pub failing_tests: usize,
    /// Whether the final files compiled and passed the last run made of them as written: a round's
    /// `WriteConfig::verify_runs` runs, or the confirmation after the last round's drops (false when
    /// no JUnit runs were asked for, or when no test passing one is left).
    pub verified: bool,
    /// Whether the post-processing budget ran out in verification (no further round was started).
    pub stopped_by_budget: bool,
    /// Rounds that ran the tests fewer times than asked because the post-processing budget's end
    /// came first (each logged with its count).
    pub short_rounds: usize,
    /// Confirmations made: after the round cap or the budget ended the rounds and the last round's
    /// failing tests were dropped, runs of the tests left without them (tests of a class share static
    /// state in one JVM, so a test may have passed only because a dropped one ran before it).
    pub confirmations: usize,
    /// Tests not written because no confirmation passed before the post-processing budget's end or
    /// the confirmations' cap: each passed the last run made of it only with tests since dropped.
    pub unconfirmed_tests: usize,
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
    let (tests, files, verification) = crate::verify_rounds::verify(cx, tests)?;
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

#[cfg(test)]
pub(crate) mod tests {
    //! Tests expecting a JVM error, cut before verification.

    use junit::{Assertion, Check, Expected, Subject};
    use testcase::{PrimValue, Statement, VarId};

    use super::*;

    /// `int int0 = v; assertEquals(v, int0);` (the repair loop's tests use it too).
    pub(crate) fn test_of(v: i32) -> JUnitTest {
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
}
