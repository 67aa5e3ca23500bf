//! `JvmVerifier`: the [`Verifier`] of `generate_tests` over `worker::verify` (the only crate that
//! starts processes): the rendered files are written to a scratch directory, compiled with the
//! JDK's `javac` against JUnit and the user's classpath alone, and run with JUnit's own runner, each
//! run in a fresh JVM.

use std::path::{Path, PathBuf};
use std::time::Duration;

use junit::Rendered;
use worker::Java;
use worker::verify::{self, DiagnosticKind, JUnitJars, JUnitVersion, JacocoJars, RunOptions, TestOutcome};

use crate::EngineError;
use crate::pipeline::{CompileError, JacocoFigures, TestFailure, Verifier};

/// Wall-clock limit of one JUnit run: generous, since every test already has its own timeout.
const RUN_TIMEOUT: Duration = Duration::from_secs(300);

/// The default time zone of each verification run. The tests run wherever the user runs them, and
/// the clock of JDK code (`new Date()`, `LocalTime.now()`) is the real one: an assertion on the hour,
/// minute or date of "now", or on anything that depends on the zone, fails in one of these runs and
/// is removed. Offsets +0, +14, -11, +5:45 and +12:45 differ in the hour, the date and the minute.
const TIME_ZONES: [&str; 5] =
    ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu", "Pacific/Chatham"];

/// Compiles and runs test classes in a scratch directory that lives as long as the value.
#[derive(Debug)]
pub struct JvmVerifier {
    java: Java,
    jars: JUnitJars,
    version: JUnitVersion,
    classpath: Vec<PathBuf>,
    scratch: tempfile::TempDir,
    round: usize,
}

impl JvmVerifier {
    /// A verifier for tests of classes on `classpath` (the user's, without JUnit).
    pub fn new(
        java: Java,
        jars: JUnitJars,
        version: JUnitVersion,
        classpath: &[PathBuf],
    ) -> Result<JvmVerifier, EngineError> {
        let scratch =
            tempfile::Builder::new().prefix("suitesmith-verify").tempdir().map_err(EngineError::Scratch)?;
        let classpath =
            classpath.iter().map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone())).collect();
        Ok(JvmVerifier { java, jars, version, classpath, scratch, round: 0 })
    }

    fn classes_dir(&self) -> PathBuf {
        self.scratch.path().join(format!("classes{}", self.round))
    }

    /// A fresh working directory per round: files a test leaves are seen by the later runs of the
    /// round (as on a developer's disk), never by the next round.
    fn work_dir(&self) -> Result<PathBuf, EngineError> {
        let dir = self.scratch.path().join(format!("work{}", self.round));
        std::fs::create_dir_all(&dir).map_err(EngineError::Scratch)?;
        Ok(dir)
    }
}

impl Verifier for JvmVerifier {
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
        let compilation = verify::compile(&self.java, &sources, &cp, &out)?;
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
        let mut cp = vec![self.classes_dir()];
        cp.extend(self.classpath.iter().cloned());
        let mut options = RunOptions::new(RUN_TIMEOUT);
        options.working_dir = Some(self.work_dir()?);
        let mut reports = Vec::with_capacity(runs);
        for run in 0..runs {
            // The workers' heap: a test that needs more fails here as it would in the search, instead
            // of growing to the JVM's default (a quarter of the machine's memory) in each run.
            options.jvm_args = vec![
                format!("-Xmx{}m", worker::DEFAULT_MAX_HEAP_MB),
                format!("-Duser.timezone={}", TIME_ZONES[run % TIME_ZONES.len()]),
            ];
            reports.push(verify::run_tests(&self.java, &classes, &cp, &self.jars, self.version, &options)?);
        }
        let mut failures = Vec::new();
        for report in &reports {
            for t in &report.tests {
                let (line, message) = match &t.outcome {
                    TestOutcome::Passed => continue,
                    TestOutcome::Skipped { reason } => (None, format!("skipped: {reason}")),
                    TestOutcome::Failed(f) => (f.line, format!("{}: {}", f.exception, f.message)),
                    TestOutcome::TimedOut => (None, "timed out".to_string()),
                    TestOutcome::Aborted => {
                        (None, format!("the JVM ended before the test did ({:?})", report.end))
                    }
                };
                let file = classes.iter().position(|c| *c == t.class).unwrap_or(0);
                failures.push(TestFailure { file, method: t.method.clone(), line, message });
            }
        }
        Ok(failures)
    }

    fn coverage(&mut self, files: &[Rendered], cut: &str) -> Result<JacocoFigures, EngineError> {
        self.jacoco(files, cut)
    }
}

impl JvmVerifier {
    /// Runs the files compiled last once more under the JaCoCo agent and measures the line and
    /// branch coverage of `cut` and its nested classes (summed), from the user's class files.
    fn jacoco(&mut self, files: &[Rendered], cut: &str) -> Result<JacocoFigures, EngineError> {
        let jacoco = JacocoJars::debian()?;
        let exec = self.scratch.path().join(format!("jacoco{}.exec", self.round));
        let classes: Vec<String> = files.iter().map(Rendered::binary_name).collect();
        let mut cp = vec![self.classes_dir()];
        cp.extend(self.classpath.iter().cloned());
        let mut options = RunOptions::new(RUN_TIMEOUT);
        options.working_dir = Some(self.work_dir()?);
        options.coverage = Some(jacoco.agent(&exec)?);
        verify::run_tests(&self.java, &classes, &cp, &self.jars, self.version, &options)?;
        // The CUT and its nested classes, as the goal model has them.
        let targets = verify::nested_classes(&self.classpath, cut)?;
        let per_class = verify::jacoco_coverage(&self.java, &jacoco, &[exec], &self.classpath, &targets)?;
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
