//! Verification of generated JUnit suites before they are written: compile them with the
//! JDK's `javac` ([`compile`]), run them with JUnit's own runner, each run in a fresh JVM
//! ([`run_tests`], [`run_repeatedly`]), learn which test failed at which line of the test class
//! ([`TestOutcome::Failed`], [`summarize`]), and measure the line and branch coverage of the class
//! under test with JaCoCo ([`jacoco_coverage`]).
//!
//! The Java side is `java/runtime/src/suitesmith/tools` (in the embedded runtime jar): `RunTests` and
//! `JacocoReport` drive JUnit 4, the JUnit 5 platform and `org.jacoco.core` by reflection and print
//! tab-separated records (docs/verify.md), never JUnit's human output. What the tests do (fail,
//! hang, call `System.exit`) is data in a [`TestRunReport`]; only our machinery failing is an `Err`.
//! Architecture invariant: every process started here is killed by its deadline or when its guard is
//! dropped, so no JVM outlives the call that started it.

mod jacoco;
mod jars;
mod javac;
pub(crate) mod process;
mod records;
mod run;

use std::path::PathBuf;
use std::time::Duration;

pub use jacoco::{
    ClassCoverage, CoverageDetail, LineCoverage, MethodCoverage, jacoco_coverage, jacoco_detail,
    nested_classes,
};
pub use jars::{CoverageAgent, JUnitJars, JUnitVersion, JacocoJars};
pub use javac::{Compilation, Diagnostic, DiagnosticKind, compile, compile_with, javac_module_options};
pub use run::{run_repeatedly, run_tests, summarize};

use crate::WorkerError;

/// How one JVM of [`run_tests`] runs.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Wall-clock limit of the whole JVM; past it the JVM is killed and every test that had not
    /// finished is [`TestOutcome::TimedOut`].
    pub timeout: Duration,
    /// Runs the JVM with the JaCoCo agent writing (appending) to this exec file.
    pub coverage: Option<CoverageAgent>,
    /// The JVM's working directory; `None`: a fresh temporary directory, removed afterwards.
    pub working_dir: Option<PathBuf>,
    /// Extra JVM flags, placed before `-cp` (e.g. `-Xmx512m`).
    pub jvm_args: Vec<String>,
    /// Contains the tests in the working directory: `user.dir`, `java.io.tmpdir` (`tmp/` in it) and
    /// `user.home` (`home/` in it) point there, and the guards run in verification mode with it as
    /// their scratch (`-Dsuitesmith.verify.scratch`): guard-instrumented classes on the classpath may
    /// then write files only below it, and a test during which a guard refused fails (docs/verify.md).
    pub contained: bool,
    /// The operating-system sandbox of the JVM, which may write only below its working directory
    /// and the exec file's directory, contained or not; `None`: the default
    /// ([`crate::default_sandbox`]), never no sandbox.
    pub sandbox: Option<std::sync::Arc<sandbox::Sandbox>>,
}

impl RunOptions {
    /// No coverage, a fresh working directory, no extra flags, not contained, the default sandbox.
    pub fn new(timeout: Duration) -> RunOptions {
        RunOptions {
            timeout,
            coverage: None,
            working_dir: None,
            jvm_args: Vec::new(),
            contained: false,
            sandbox: None,
        }
    }
}

/// What one fresh JVM reported: every test method JUnit planned, in JUnit's order, with its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestRunReport {
    pub tests: Vec<TestResult>,
    pub end: JvmEnd,
    /// The last 64 KiB of the JVM's stderr (which also receives the tests' System.out).
    pub stderr: String,
    pub elapsed: Duration,
}

impl TestRunReport {
    /// The outcome of `class.method` (the first, if JUnit ran that name more than once).
    pub fn outcome(&self, class: &str, method: &str) -> Option<&TestOutcome> {
        self.tests.iter().find(|t| t.class == class && t.method == method).map(|t| &t.outcome)
    }

    /// True when every test passed or was skipped.
    pub fn all_passed(&self) -> bool {
        self.tests.iter().all(|t| matches!(t.outcome, TestOutcome::Passed | TestOutcome::Skipped { .. }))
    }
}

/// One test method of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestResult {
    /// Binary name of the test class.
    pub class: String,
    /// The method name; `initializationError` when the class could not be loaded or set up (JUnit 4's
    /// name for it, used for JUnit 5 too).
    pub method: String,
    pub outcome: TestOutcome,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestOutcome {
    Passed,
    /// A failed assertion or any other exception (also from `@Before`/`@BeforeClass`).
    Failed(Failure),
    /// `@Ignore`/`@Disabled`, or a failed assumption.
    Skipped {
        reason: String,
    },
    /// JUnit's own per-test timeout fired, or the JVM's wall-clock limit passed before the test ended.
    TimedOut,
    /// The JVM ended (`System.exit`, a crash) before this test finished; also a planned test that
    /// JUnit never reported.
    Aborted,
}

/// Why a test failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Binary name of the exception, e.g. `org.junit.ComparisonFailure`.
    pub exception: String,
    /// The first line of its message, at most 300 characters.
    pub message: String,
    /// The line of the test class where it surfaced: the first frame of the stack trace (from the
    /// throw site) in the test class or its nested classes. For an assertion, the assert's line.
    pub line: Option<u32>,
}

/// How the JVM of a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JvmEnd {
    /// JUnit finished every class it was given.
    Completed,
    /// Killed at the wall-clock limit.
    TimedOut,
    /// Exited before JUnit finished (a test called `System.exit`, or the JVM crashed); the code is
    /// `None` when a signal ended it.
    Exited { code: Option<i32> },
}

/// The outcomes of one test method over several runs ([`summarize`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestSummary {
    pub class: String,
    pub method: String,
    /// One outcome per run in which the test was planned, in run order.
    pub outcomes: Vec<TestOutcome>,
}

impl TestSummary {
    /// Passed (or was skipped) in every run.
    pub fn always_passed(&self) -> bool {
        self.outcomes.iter().all(|o| matches!(o, TestOutcome::Passed | TestOutcome::Skipped { .. }))
    }

    /// Passed in some runs and not in others: a flaky test.
    pub fn is_flaky(&self) -> bool {
        !self.always_passed() && self.outcomes.iter().any(|o| matches!(o, TestOutcome::Passed))
    }

    /// The distinct test-class lines at which it failed, ascending.
    pub fn failure_lines(&self) -> Vec<u32> {
        let mut lines: Vec<u32> = self
            .outcomes
            .iter()
            .filter_map(|o| match o {
                TestOutcome::Failed(f) => f.line,
                _ => None,
            })
            .collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }
}

/// Everything that can go wrong with the verification machinery (never with the tests themselves).
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error(
        "{jar} is missing: JUnit {version} is needed to compile and run the generated tests; install it with `apt-get install {packages}`"
    )]
    JUnitMissing { jar: PathBuf, version: u8, packages: &'static str },
    #[error(
        "{jar} is missing: JaCoCo is needed to measure coverage; install it with `apt-get install libjacoco-java`"
    )]
    JacocoMissing { jar: PathBuf },
    #[error(
        "no javac next to {java}: compiling the generated tests needs a JDK, not a JRE; set JAVA_HOME to a JDK"
    )]
    NoJavac { java: PathBuf },
    #[error("cannot start {program}: {source}")]
    Spawn { program: PathBuf, source: std::io::Error },
    #[error("javac could not run ({status}): {output}")]
    Javac { status: String, output: String },
    #[error("{tool} failed: {detail}{}", crate::stderr_suffix(.stderr))]
    Tool { tool: &'static str, detail: String, stderr: String },
    #[error("{what}: {source}")]
    Io { what: String, source: std::io::Error },
    #[error("cannot read {path}: {detail}")]
    Jar { path: PathBuf, detail: String },
    #[error("{path} cannot be passed to the JVM: {reason}")]
    BadPath { path: PathBuf, reason: &'static str },
    #[error("class {class} is not in the given class files")]
    ClassFileMissing { class: String },
    #[error("JaCoCo exec file {path} does not exist (the JVM may have been killed before writing it)")]
    ExecFileMissing { path: PathBuf },
    #[error("the exec data of {class} comes from other class bytes than the class files given")]
    ExecMismatch { class: String },
    #[error(transparent)]
    Runtime(#[from] WorkerError),
}

impl VerifyError {
    fn io(what: impl Into<String>, source: std::io::Error) -> VerifyError {
        VerifyError::Io { what: what.into(), source }
    }
}
