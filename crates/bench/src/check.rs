//! The written tests measured independently of the engine's own verification, with the library of
//! `worker::verify` (docs/verify.md): every `.java` file under the output directory is compiled with
//! `javac` (a file that does not compile is counted and left out, and the rest compiled again, since
//! javac writes no class at all when any file has an error); the compiled classes run `runs` times,
//! each in a fresh JVM under JUnit, the first run under the JaCoCo agent; a test that passed in some
//! runs only is flaky, one that never passed is failing. Coverage is JaCoCo's on the class under test
//! alone (as the competitions measure it) and on it with its nested classes. With PIT set
//! ([`Checker::pit`]), [`Checker::mutation`] runs PIT on the class with the tests that compiled
//! (`pit`, docs/mutation.md).

use jvm_model::ClassName;
use std::path::{Path, PathBuf};
use std::time::Duration;

use worker::Java;
use worker::verify::{
    JUnitJars, JUnitVersion, JacocoJars, RunOptions, TestOutcome, TestSummary, compile_with, jacoco_coverage,
    javac_module_options, nested_classes, run_tests, summarize,
};

use crate::BenchError;
use crate::pit::{Mutant, Pit, PitTarget};

/// Failing and flaky tests named per row at most: enough to find the cause, not a log.
pub const NOT_PASSING_LISTED: usize = 20;

/// `Class#method: failing|flaky, <exception>: <message> (line N)` of a test that did not always
/// pass, from its first run that did not.
fn not_passing(s: &TestSummary) -> String {
    let kind = if s.is_flaky() { "flaky" } else { "failing" };
    let how = s.outcomes.iter().find(|o| !matches!(o, TestOutcome::Passed | TestOutcome::Skipped { .. }));
    let how = match how {
        Some(TestOutcome::Failed(f)) => format!(
            "{}: {}{}",
            f.exception,
            f.message,
            f.line.map_or(String::new(), |l| format!(" (line {l})"))
        ),
        Some(o) => format!("{o:?}"),
        None => String::new(),
    };
    format!("{}#{}: {kind}, {how}", s.class, s.method)
}

/// What the independent measurement found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    pub test_files: usize,
    pub files_failed_to_compile: usize,
    /// Test methods JUnit planned (in any run).
    pub tests_run: usize,
    /// Passed in some runs and not in others.
    pub tests_flaky: usize,
    /// Never passed.
    pub tests_failing: usize,
    /// The failing and flaky tests, as [`crate::report::Row::not_passing`] lists them.
    pub not_passing: Vec<String>,
    /// Test methods of the `*ViolationTest.java` files: contract violations, failing by design
    /// (docs/contracts.md), so neither compiled, run nor counted as failing here.
    pub violations: usize,
    /// JaCoCo on the class under test: (covered, total).
    pub lines: Option<(u32, u32)>,
    pub branches: Option<(u32, u32)>,
    /// JaCoCo on the class under test and its nested classes: (covered, total).
    pub branches_with_nested: Option<(u32, u32)>,
    /// The test classes that compiled (binary names) and where their classes are, for PIT.
    pub test_classes: Vec<String>,
    pub classes_dir: Option<PathBuf>,
}

/// How to check: the JDK, JUnit and JaCoCo jars, and the number of runs.
#[derive(Debug, Clone)]
pub struct Checker {
    pub java: Java,
    pub jacoco: JacocoJars,
    pub runs: usize,
    /// Wall-clock limit of one JUnit JVM.
    pub timeout: Duration,
    /// Extra JVM flags for the test runs (and PIT's).
    pub jvm_args: Vec<String>,
    /// PIT's mutation analysis of the written tests (`bench --pit`); `None`: not run.
    pub pit: Option<Pit>,
}

impl Checker {
    /// The JDK found as `generate` finds it, the Debian jars, and 3 runs.
    pub fn discover(runs: usize) -> Result<Checker, BenchError> {
        let java = Java::discover().map_err(|e| BenchError::Check(e.to_string()))?;
        let jacoco = JacocoJars::debian().map_err(|e| BenchError::Check(e.to_string()))?;
        Ok(Checker { java, jacoco, runs, timeout: Duration::from_secs(600), jvm_args: Vec::new(), pit: None })
    }

    /// Checks the tests under `tests_dir` for `class` on `classpath`, working in `work_dir`.
    pub fn check(
        &self,
        tests_dir: &Path,
        class: &str,
        classpath: &[PathBuf],
        junit: JUnitVersion,
        work_dir: &Path,
    ) -> Result<Checked, BenchError> {
        let err = |e: worker::verify::VerifyError| BenchError::Check(e.to_string());
        let io = |what: String| move |e: std::io::Error| BenchError::Io { what, source: e };
        let mut sources = Vec::new();
        java_files(tests_dir, &mut sources).map_err(io(format!("cannot list {}", tests_dir.display())))?;
        sources.sort();
        let (violation_files, sources): (Vec<PathBuf>, Vec<PathBuf>) =
            sources.into_iter().partition(|s| s.to_string_lossy().ends_with("ViolationTest.java"));
        let violations = violation_files
            .iter()
            .map(|f| std::fs::read_to_string(f).map(|t| t.matches("@Test").count()))
            .sum::<Result<usize, _>>()
            .map_err(io("cannot read a violation test file".to_string()))?;
        let mut out = Checked { test_files: sources.len(), violations, ..Checked::default() };
        if sources.is_empty() {
            return Ok(out);
        }
        let jars = JUnitJars::debian(junit).map_err(err)?;
        let classes_dir = work_dir.join("classes");
        let mut cp: Vec<PathBuf> = classpath.to_vec();
        cp.extend(jars.compile.iter().cloned());
        let mut remaining = sources;
        // Tests of classes built against a module's internal packages compile with the module
        // options of the runs' flags (Error Prone's `--add-exports`).
        let javac_options = javac_module_options(&self.jvm_args);
        loop {
            let c = compile_with(&self.java, &remaining, &cp, &classes_dir, &javac_options).map_err(err)?;
            if c.success {
                break;
            }
            let failed: Vec<PathBuf> = c.failed_sources().into_iter().map(Path::to_path_buf).collect();
            let before = remaining.len();
            remaining.retain(|s| !failed.contains(s));
            // An error that names no file of ours fails them all.
            if remaining.len() == before {
                remaining.clear();
            }
            out.files_failed_to_compile += before - remaining.len();
            if remaining.is_empty() {
                return Ok(out);
            }
        }
        let test_classes: Vec<String> = remaining
            .iter()
            .filter_map(|s| s.strip_prefix(tests_dir).ok())
            .map(|rel| ClassName::from_internal(rel.with_extension("").to_string_lossy()).binary())
            .collect();

        out.test_classes.clone_from(&test_classes);
        out.classes_dir = Some(classes_dir.clone());
        let mut run_cp = vec![classes_dir];
        run_cp.extend(classpath.iter().cloned());
        let exec = work_dir.join("jacoco.exec");
        let scratch = work_dir.join("cwd");
        std::fs::create_dir_all(&scratch).map_err(io(format!("cannot create {}", scratch.display())))?;
        let mut reports = Vec::new();
        for i in 0..self.runs.max(1) {
            let mut options = RunOptions::new(self.timeout);
            options.working_dir = Some(scratch.clone());
            options.jvm_args = self.jvm_args.clone();
            if i == 0 {
                options.coverage = Some(self.jacoco.agent(&exec).map_err(err)?);
            }
            reports.push(run_tests(&self.java, &test_classes, &run_cp, &jars, junit, &options).map_err(err)?);
        }
        let summary = summarize(&reports);
        out.tests_run = summary.len();
        out.tests_flaky = summary.iter().filter(|s| s.is_flaky()).count();
        out.tests_failing = summary.iter().filter(|s| !s.always_passed() && !s.is_flaky()).count();
        out.not_passing =
            summary.iter().filter(|s| !s.always_passed()).take(NOT_PASSING_LISTED).map(not_passing).collect();

        // The first run was killed before JaCoCo wrote its file: no coverage to report.
        if !exec.is_file() {
            return Ok(out);
        }
        let mut classes = nested_classes(classpath, class).map_err(err)?;
        if classes.first().map(String::as_str) != Some(class) {
            classes.insert(0, class.to_string());
        }
        let cov = jacoco_coverage(&self.java, &self.jacoco, &[exec], classpath, &classes).map_err(err)?;
        if let Some(top) = cov.first() {
            out.lines = Some(top.lines);
            out.branches = Some(top.branches);
        }
        let sum = cov.iter().fold((0, 0), |(c, t), k| (c + k.branches.0, t + k.branches.1));
        out.branches_with_nested = Some(sum);
        Ok(out)
    }
}

impl Checker {
    /// PIT's mutants of `class` under the tests `checked` compiled, PIT working in `work_dir`;
    /// `None` when PIT is off or no test compiled (no test: nothing to measure, as for JaCoCo).
    pub fn mutation(
        &self,
        checked: &Checked,
        class: &str,
        classpath: &[PathBuf],
        junit: JUnitVersion,
        work_dir: &Path,
    ) -> Result<Option<Vec<Mutant>>, BenchError> {
        let (Some(pit), Some(tests_dir)) = (&self.pit, &checked.classes_dir) else {
            return Ok(None);
        };
        if checked.test_classes.is_empty() {
            return Ok(None);
        }
        let target = PitTarget {
            class,
            test_classes: &checked.test_classes,
            tests_dir,
            classpath,
            junit,
            jvm_args: &self.jvm_args,
        };
        pit.run(&self.java, &target, work_dir).map(Some)
    }
}

/// Every `.java` file under `dir`, recursively.
fn java_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            java_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "java") {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use worker::verify::Failure;

    fn summary(outcomes: Vec<TestOutcome>) -> TestSummary {
        TestSummary { class: "a.BTest".into(), method: "test3".into(), outcomes }
    }

    /// A test that never passed and one that passed once are named with their first failure.
    #[test]
    fn not_passing_names_the_test_and_its_first_failure() {
        let failed = |line| {
            TestOutcome::Failed(Failure {
                exception: "java.lang.AssertionError".into(),
                message: "expected:<1> but was:<2>".into(),
                line,
            })
        };
        assert_eq!(
            not_passing(&summary(vec![failed(Some(41)), failed(None), failed(None)])),
            "a.BTest#test3: failing, java.lang.AssertionError: expected:<1> but was:<2> (line 41)"
        );
        assert_eq!(
            not_passing(&summary(vec![TestOutcome::Passed, TestOutcome::TimedOut, TestOutcome::Passed])),
            "a.BTest#test3: flaky, TimedOut"
        );
    }
}
