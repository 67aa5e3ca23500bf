//! `JvmVerifier`: the [`Verifier`] of `generate_tests` over `worker::verify` (the only crate that
//! starts processes): the rendered files are written to a scratch directory, compiled with the
//! JDK's `javac` against JUnit and the user's classpath alone, and run with JUnit's own runner, each
//! run in a fresh JVM.
//!
//! The runs are guarded and contained: the class under test and its nested classes are
//! guard-instrumented as in the workers (the escape and determinism redirections of `rt_abi`, no
//! probes, no static reset), and so is every other class of the user's classpath that calls a
//! redirected method (the containment redirections alone, `exec::guard_dependencies`), into a
//! directory placed before the user's classpath, and every JVM runs
//! in verification mode inside a scratch directory (`RunOptions::contained`: working, temporary and
//! home directories there; the guards refuse files outside it, exits, processes and sockets, and a
//! test during which a guard refused fails). A JVM that dies before its tests are done is run again
//! on the unfinished tests, the one it was running alone first, so that only a test that kills its
//! JVM by itself is reported for it. The five runs differ in time zone, identity-hash sequence and
//! processor count, so assertions on the clock, on identity hashes or on the schedule fail in one.

use jvm_model::ClassName;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use junit::Rendered;
use worker::Java;
use worker::verify::{
    self, DiagnosticKind, JUnitJars, JUnitVersion, JacocoJars, JvmEnd, RunOptions, TestOutcome,
};

use crate::EngineError;
use crate::pipeline::{CompileError, JacocoFigures, TestFailure, Verifier};

/// Wall-clock limit of one JUnit run: generous, since every test already has its own timeout.
const RUN_TIMEOUT: Duration = Duration::from_secs(300);
/// Wall-clock limit of a JVM running one test again alone: its start plus the test's own timeout
/// (4 s in the written tests), with room for a loaded machine.
const ALONE_TIMEOUT: Duration = Duration::from_secs(60);
/// A run cut short by the post-processing deadline still gets this long: a JVM's start and a few
/// tests, so that a round started just before the deadline is not all failures.
const MIN_RUN_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs a round always makes, whatever the deadline: the first two differ in identity-hash mode
/// ([`HASH_AND_SCHEDULE`]), which catches the commonest values the workers' constant hashes hide.
/// Past them, a run starts only if the last run's duration says it ends before the deadline: on a
/// loaded machine five fresh JVMs over a large suite took 54 s of a 60 s post-processing budget
/// (okio's `Buffer`, in a whole-jar run), and the run's wall time went 30 s past its bound.
const MIN_RUNS: usize = 2;

/// The run that carries the JaCoCo agent, as a user's build with coverage does (jacoco-maven-plugin,
/// an IDE's coverage runner). The agent changes what code sees: to inject its runtime it opens
/// `java.lang` to unnamed modules, so reflection into JDK classes that fails in a plain JVM
/// (`InaccessibleObjectException`) succeeds under coverage. In a whole-jar run of
/// commons-lang3, 19 written tests of 8 builder classes expected that exception and failed in the
/// bench's JaCoCo run. One of the first [`MIN_RUNS`] runs, so that it is never skipped.
const JACOCO_RUN: usize = 1;

/// The default time zone of each verification run. The tests run wherever the user runs them, and
/// the clock of JDK code (`new Date()`, `LocalTime.now()`) is the real one: an assertion on the hour,
/// minute or date of "now", or on anything that depends on the zone, fails in one of these runs and
/// is removed. Offsets +0, +14, -11, +5:45 and +12:45 differ in the hour, the date and the minute.
const TIME_ZONES: [&str; 5] =
    ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu", "Pacific/Chatham"];

/// The identity-hash mode and processor count of each verification run. The workers run with
/// constant identity hashes (`-XX:hashCode=2`), so a value that depends on `System.identityHashCode`
/// (a default `hashCode`/`toString`, the order of an identity-keyed hash set, Guava's
/// `Ordering.arbitrary()`) is asserted as the search saw it, and a plain JVM's default sequence is
/// the same in every fresh run: five identical runs would pass it every time and the user's run
/// would fail it. Each run here hashes differently: the default thread-local xorshift, a global
/// sequence (3), addresses (4), the global Park-Miller generator (0), and the default again on one
/// processor, whose start-up allocates and hashes differently. One processor in two runs also
/// changes the thread schedule and what sizes pools by `availableProcessors` (the common pool).
/// None is mode 2. `hashCode` is an experimental flag on JDK 17, hence the unlock flag in every run.
const HASH_AND_SCHEDULE: [&[&str]; 5] = [
    &[],
    &["-XX:hashCode=3"],
    &["-XX:hashCode=4", "-XX:ActiveProcessorCount=1"],
    &["-XX:hashCode=0"],
    &["-XX:ActiveProcessorCount=1"],
];

/// Compiles and runs test classes in a scratch directory that lives as long as the value.
#[derive(Debug)]
pub struct JvmVerifier {
    java: Java,
    jars: JUnitJars,
    version: JUnitVersion,
    classpath: Vec<PathBuf>,
    /// The class under test (binary name), whose classes the runs guard.
    cut: String,
    /// Registered in `worker::cleanup`, so a signal handler removes it too.
    scratch: worker::cleanup::ScratchDir,
    round: usize,
    /// The guard-instrumented classes under test, made at the first run.
    guarded: Option<PathBuf>,
    /// When post-processing's time ends ([`Verifier::set_deadline`]).
    deadline: Option<Instant>,
    /// Fresh-JVM runs the last `run` made ([`Verifier::runs_done`]).
    runs_done: usize,
    /// Of those, the runs whose first JVM ran every test ([`Verifier::whole_runs`]).
    whole_runs: usize,
    /// The user's JVM flags (`GenerateConfig::jvm_args`): after ours in each run, before the
    /// containment's; their module options go to javac.
    jvm_args: Vec<String>,
    /// The sandbox of every run (`None`: the default one for `java`).
    sandbox: Option<std::sync::Arc<worker::Sandbox>>,
}

/// One test's outcome in one run, with how the JVM that gave it ended.
struct RunResult {
    class: String,
    method: String,
    outcome: TestOutcome,
    end: JvmEnd,
    /// Set when the test ended its JVM (or outlived its limit) also when run alone.
    alone: bool,
}

impl JvmVerifier {
    /// A verifier for tests of `cut` (binary name) on `classpath` (the user's, without JUnit).
    pub fn new(
        java: Java,
        jars: JUnitJars,
        version: JUnitVersion,
        classpath: &[PathBuf],
        cut: &str,
    ) -> Result<JvmVerifier, EngineError> {
        let scratch = worker::cleanup::scratch_dir("suitesmith-verify").map_err(EngineError::Scratch)?;
        let classpath =
            classpath.iter().map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone())).collect();
        Ok(JvmVerifier {
            java,
            jars,
            version,
            classpath,
            cut: cut.to_string(),
            scratch,
            round: 0,
            guarded: None,
            deadline: None,
            runs_done: 0,
            whole_runs: 0,
            jvm_args: Vec::new(),
            sandbox: None,
        })
    }

    /// The verifier whose test runs enter `sandbox` (the user's `--sandbox`).
    pub fn with_sandbox(mut self, sandbox: std::sync::Arc<worker::Sandbox>) -> JvmVerifier {
        self.sandbox = Some(sandbox);
        self
    }

    /// The verifier with the user's JVM flags (`GenerateConfig::jvm_args`) for its runs and, as
    /// far as javac shares them, its compilations.
    pub fn with_jvm_args(mut self, jvm_args: &[String]) -> JvmVerifier {
        self.jvm_args = jvm_args.to_vec();
        self
    }

    fn classes_dir(&self) -> PathBuf {
        self.scratch.path().join(format!("classes{}", self.round))
    }

    /// A fresh working directory per round: files a test leaves are seen by the later runs of the
    /// round (as on a developer's disk), never by the next round. It is the runs' scratch too: their
    /// temporary and home directories are inside, and the guards allow files only there.
    fn work_dir(&self) -> Result<PathBuf, EngineError> {
        let dir = self.scratch.path().join(format!("work{}", self.round));
        std::fs::create_dir_all(&dir).map_err(EngineError::Scratch)?;
        Ok(dir)
    }

    /// The directory of the guard-instrumented classes, made on first use: the classes the workers
    /// instrument (the CUT and every class of the classpath nested in it, as `JvmProblem` has
    /// them), with the guards alone, and the classpath's other classes that call a redirected
    /// method, with the containment guards (as the workers run them). A class or method the instrumenter cannot
    /// rewrite is written as it was, as the workers run it.
    fn guarded(&mut self) -> Result<PathBuf, EngineError> {
        if let Some(dir) = &self.guarded {
            return Ok(dir.clone());
        }
        // Without the run's database (a verifier used on its own), one of its own.
        let db = programdb::ProgramDb::open(&self.classpath, programdb::DbConfig::STANDARD)?;
        self.guarded_from(&db)
    }

    /// Writes the guarded copy of the classes under test, read from `db`.
    fn guarded_from(&mut self, db: &programdb::ProgramDb) -> Result<PathBuf, EngineError> {
        let classes =
            crate::problem::classes_under_test(db.classpath(), ClassName::from_binary(&self.cut).internal());
        let options = instrument::Options::guards_only();
        // The timeout is the workers' and plays no part here: only the instrumented bytes are used.
        let subject = exec::prepare_in(db, &self.classpath, &classes, &options, protocol::TEST_TIMEOUT_MS)?;
        let dir = self.scratch.path().join("guarded");
        for (name, bytes) in &subject.setup.classes {
            let path = dir.join(ClassName::from_binary(name).class_file_path());
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(EngineError::Scratch)?;
            }
            std::fs::write(&path, bytes).map_err(EngineError::Scratch)?;
        }
        std::fs::create_dir_all(&dir).map_err(EngineError::Scratch)?;
        self.guarded = Some(dir.clone());
        Ok(dir)
    }

    /// The classpath of a run: the guarded classes first (they hide the user's copies), the
    /// compiled tests, the user's classpath.
    fn run_classpath(&mut self) -> Result<Vec<PathBuf>, EngineError> {
        let mut cp = vec![self.guarded()?, self.classes_dir()];
        cp.extend(self.classpath.iter().cloned());
        Ok(cp)
    }

    /// `limit`, cut to the time left before the deadline (but at least [`MIN_RUN_TIMEOUT`]).
    fn timeout(&self, limit: Duration) -> Duration {
        match self.deadline {
            Some(d) => limit.min(d.saturating_duration_since(Instant::now()).max(MIN_RUN_TIMEOUT)),
            None => limit,
        }
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// One verification run of `classes`, whose test methods are `expected`: all in one JVM and,
    /// while a JVM dies before its tests are done, the test it was running (the first unfinished one
    /// in JUnit's order) alone, then the other unfinished tests together. A test that also kills
    /// its JVM alone is the culprit: it is reported (`alone`) and left out of the later runs
    /// (`culprits`); the tests it took down with it get the outcome of their own run. Each round of
    /// this loop settles at least one test, so it ends; past the deadline the unfinished tests are
    /// reported as they are. With the results, whether the first JVM ran every test (a whole run).
    fn run_isolating(
        &self,
        classes: &[String],
        expected: &[(String, String)],
        cp: &[PathBuf],
        options: &RunOptions,
        culprits: &mut BTreeSet<(String, String)>,
    ) -> Result<(Vec<RunResult>, bool), EngineError> {
        let mut pending: Vec<(String, String)> =
            expected.iter().filter(|t| !culprits.contains(*t)).cloned().collect();
        let selector = |(c, m): &(String, String)| format!("{c}#{m}");
        // Whole classes while no test is left out: class-level failures then show as for the user.
        let mut selectors: Vec<String> =
            if culprits.is_empty() { classes.to_vec() } else { pending.iter().map(selector).collect() };
        let mut results = Vec::new();
        // Whether the first JVM ran every test: only then did each test see the state the tests
        // before it left, as in the user's run.
        let mut whole = None;
        while !selectors.is_empty() {
            let report = verify::run_tests(&self.java, &selectors, cp, &self.jars, self.version, options)?;
            let completed = report.end == JvmEnd::Completed;
            whole.get_or_insert(completed);
            let mut unfinished = Vec::new();
            for t in report.tests {
                let key = (t.class, t.method);
                let finished = !matches!(t.outcome, TestOutcome::Aborted | TestOutcome::TimedOut);
                if completed || finished || self.past_deadline() {
                    pending.retain(|p| *p != key);
                    results.push(RunResult {
                        class: key.0,
                        method: key.1,
                        outcome: t.outcome,
                        end: report.end,
                        alone: false,
                    });
                } else {
                    unfinished.push(key);
                }
            }
            if completed || pending.is_empty() || self.past_deadline() {
                break;
            }
            // The JVM died during the first unfinished test, or before JUnit planned the rest.
            let suspect = unfinished.first().unwrap_or(&pending[0]).clone();
            let mut alone_options = options.clone();
            alone_options.timeout = self.timeout(ALONE_TIMEOUT);
            let alone = verify::run_tests(
                &self.java,
                &[selector(&suspect)],
                cp,
                &self.jars,
                self.version,
                &alone_options,
            )?;
            let own = alone.outcome(&suspect.0, &suspect.1).cloned();
            let result = match own {
                Some(outcome) if alone.end == JvmEnd::Completed => RunResult {
                    class: suspect.0.clone(),
                    method: suspect.1.clone(),
                    outcome,
                    end: alone.end,
                    alone: false,
                },
                own => {
                    culprits.insert(suspect.clone());
                    RunResult {
                        class: suspect.0.clone(),
                        method: suspect.1.clone(),
                        outcome: own.unwrap_or(TestOutcome::Aborted),
                        end: alone.end,
                        alone: true,
                    }
                }
            };
            results.push(result);
            pending.retain(|p| *p != suspect);
            selectors = pending.iter().map(selector).collect();
        }
        Ok((results, whole.unwrap_or(true)))
    }
}

impl Verifier for JvmVerifier {
    fn prepare(&mut self, db: &programdb::ProgramDb) -> Result<(), EngineError> {
        if self.guarded.is_none() {
            self.guarded_from(db)?;
        }
        Ok(())
    }

    fn compile(&mut self, files: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
        self.round += 1;
        let src = self.scratch.path().join(format!("src{}", self.round));
        let mut sources = Vec::with_capacity(files.len());
        for f in files {
            let path = src.join(f.relative_path());
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(EngineError::Scratch)?;
            }
            std::fs::write(&path, &f.source).map_err(EngineError::Scratch)?;
            sources.push(path);
        }
        let out = self.classes_dir();
        std::fs::create_dir_all(&out).map_err(EngineError::Scratch)?;
        let mut cp = self.classpath.clone();
        cp.extend(self.jars.compile.iter().cloned());
        let options = verify::javac_module_options(&self.jvm_args);
        let compilation = verify::compile_with(&self.java, &sources, &cp, &out, &options)?;
        let mut errors: Vec<CompileError> = compilation
            .diagnostics
            .iter()
            .filter(|d| d.kind == DiagnosticKind::Error)
            .map(|d| CompileError {
                file: sources.iter().position(|s| same_file(s, &d.file)).unwrap_or(0),
                line: Some(d.line),
                message: d.message.clone(),
            })
            .collect();
        if !compilation.success && errors.is_empty() {
            // javac failed without a diagnostic we could place (e.g. a classpath problem).
            errors.push(CompileError { file: 0, line: None, message: compilation.output.clone() });
        }
        Ok(errors)
    }

    fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
        let classes: Vec<String> = files.iter().map(Rendered::binary_name).collect();
        let expected: Vec<(String, String)> = files
            .iter()
            .flat_map(|f| f.tests.iter().map(move |t| (f.binary_name(), t.method.clone())))
            .collect();
        let cp = self.run_classpath()?;
        let work = self.work_dir()?;
        let mut culprits = BTreeSet::new();
        let mut failures = Vec::new();
        let mut last: Option<Duration> = None;
        self.runs_done = 0;
        self.whole_runs = 0;
        for run in 0..runs {
            if run >= MIN_RUNS
                && let (Some(d), Some(l)) = (self.deadline, last)
                && Instant::now() + l > d
            {
                break;
            }
            let started = Instant::now();
            let mut options = RunOptions::new(self.timeout(RUN_TIMEOUT));
            options.sandbox = self.sandbox.clone();
            options.working_dir = Some(work.clone());
            options.contained = true;
            // The workers' heap: a test that needs more fails here as it would in the search, instead
            // of growing to the JVM's default (a quarter of the machine's memory) in each run.
            options.jvm_args = vec![
                format!("-Xmx{}m", worker::DEFAULT_MAX_HEAP_MB),
                format!("-Duser.timezone={}", TIME_ZONES[run % TIME_ZONES.len()]),
                "-XX:+UnlockExperimentalVMOptions".to_string(),
            ];
            options
                .jvm_args
                .extend(HASH_AND_SCHEDULE[run % HASH_AND_SCHEDULE.len()].iter().map(|a| a.to_string()));
            options.jvm_args.extend(self.jvm_args.iter().cloned());
            if run == JACOCO_RUN {
                // Without Debian's JaCoCo the run goes without the agent (nothing to imitate).
                let exec = self.scratch.path().join("verify-jacoco.exec");
                options.coverage = JacocoJars::debian().and_then(|j| j.agent(&exec)).ok();
            }
            let (results, whole) = self.run_isolating(&classes, &expected, &cp, &options, &mut culprits)?;
            self.whole_runs += usize::from(whole);
            for r in results {
                let (line, message) = match &r.outcome {
                    TestOutcome::Passed => continue,
                    TestOutcome::Skipped { reason } => (None, format!("skipped: {reason}")),
                    TestOutcome::Failed(f) => (f.line, format!("{}: {}", f.exception, f.message)),
                    TestOutcome::TimedOut if r.alone => {
                        (None, "timed out (its JVM outlived its limit, also when run alone)".to_string())
                    }
                    TestOutcome::TimedOut => (None, "timed out".to_string()),
                    TestOutcome::Aborted if r.alone => {
                        (None, format!("the JVM ended during the test, also when run alone ({:?})", r.end))
                    }
                    TestOutcome::Aborted => {
                        (None, format!("the JVM ended before the test did ({:?})", r.end))
                    }
                };
                let file = classes.iter().position(|c| *c == r.class).unwrap_or(0);
                failures.push(TestFailure { file, method: r.method, line, message });
            }
            last = Some(started.elapsed());
            self.runs_done += 1;
        }
        Ok(failures)
    }

    fn coverage(&mut self, files: &[Rendered], cut: &str) -> Result<JacocoFigures, EngineError> {
        self.jacoco(files, cut)
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn runs_done(&self) -> Option<usize> {
        Some(self.runs_done)
    }

    fn whole_runs(&self) -> Option<usize> {
        Some(self.whole_runs)
    }
}

impl JvmVerifier {
    /// Runs the files compiled last once more under the JaCoCo agent, guarded and contained as the
    /// verification runs, and measures the line and branch coverage of `cut` and its nested classes
    /// (summed). JaCoCo analyses the class files that ran: the guarded ones, whose redirections
    /// change calls but no line or branch.
    fn jacoco(&mut self, files: &[Rendered], cut: &str) -> Result<JacocoFigures, EngineError> {
        let jacoco = JacocoJars::debian()?;
        let exec = self.scratch.path().join(format!("jacoco{}.exec", self.round));
        let classes: Vec<String> = files.iter().map(Rendered::binary_name).collect();
        let cp = self.run_classpath()?;
        let mut options = RunOptions::new(RUN_TIMEOUT);
        options.sandbox = self.sandbox.clone();
        options.working_dir = Some(self.work_dir()?);
        options.contained = true;
        options.coverage = Some(jacoco.agent(&exec)?);
        verify::run_tests(&self.java, &classes, &cp, &self.jars, self.version, &options)?;
        // The CUT and its nested classes, as the goal model has them.
        let targets = verify::nested_classes(&self.classpath, cut)?;
        let mut class_files = vec![self.guarded()?];
        class_files.extend(self.classpath.iter().cloned());
        let per_class = verify::jacoco_coverage(&self.java, &jacoco, &[exec], &class_files, &targets)?;
        let mut f = JacocoFigures::default();
        for c in &per_class {
            f.lines.0 += c.lines.0;
            f.lines.1 += c.lines.1;
            f.branches.0 += c.branches.0;
            f.branches.1 += c.branches.1;
        }
        Ok(f)
    }
}

/// Whether two paths name the same file (javac may print them relative or absolute).
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || a.ends_with(b) || b.ends_with(a)
}
