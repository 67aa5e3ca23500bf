//! Running compiled test classes in a fresh JVM with `suitesmith.tools.RunTests` and turning its
//! records into a [`TestRunReport`]; repeating that to find flaky tests ([`summarize`]).
//!
//! The report lists the tests of the `plan` records in JUnit's order. A test that has a `start` but no
//! result when the JVM ends is `TimedOut` if we killed it at the deadline and `Aborted` otherwise
//! (`System.exit`, a crash); so are the planned tests that never started.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::records::{line_number, parse};
use super::{
    Failure, JUnitJars, JUnitVersion, JvmEnd, RunOptions, TestOutcome, TestResult, TestRunReport,
    TestSummary, VerifyError, process,
};
use crate::{Java, runtime_jar};

/// Packages the JaCoCo agent leaves alone: JUnit, its dependencies and our runner are not under test,
/// and instrumenting them only slows the JVM's start.
const JACOCO_EXCLUDES: &str = "org.junit.*:junit.*:org.hamcrest.*:org.opentest4j.*:org.apiguardian.*:suitesmith.tools.*:suitesmith.rt.*";

/// Runs the test classes `classes` (binary names) in one fresh JVM with JUnit's own runner; an entry
/// `Class#method` runs only that method of the class.
/// `classpath` holds the compiled tests and the user's classpath; `jars.run` and the runtime jar
/// (for the runner) are appended.
pub fn run_tests(
    java: &Java,
    classes: &[String],
    classpath: &[PathBuf],
    jars: &JUnitJars,
    version: JUnitVersion,
    options: &RunOptions,
) -> Result<TestRunReport, VerifyError> {
    let runtime = runtime_jar()?;
    let mut cp: Vec<PathBuf> = classpath.to_vec();
    cp.extend(jars.run.iter().cloned());
    cp.push(runtime);

    let mut jvm: Vec<String> = vec![
        // Startup dominates these short runs: C1 only, one GC thread, the CDS archive.
        "-XX:TieredStopAtLevel=1".into(),
        "-XX:+UseSerialGC".into(),
        "-Xshare:auto".into(),
        "-XX:-UsePerfData".into(),
        "-Djava.awt.headless=true".into(),
        "-Dfile.encoding=UTF-8".into(),
    ];
    if let Some(agent) = &options.coverage {
        let exec = process::absolute(&agent.exec_file)?;
        if exec.to_string_lossy().contains([',', '=']) {
            return Err(VerifyError::BadPath {
                path: exec,
                reason: "JaCoCo agent options cannot hold ',' or '='",
            });
        }
        let jar = process::absolute(&agent.agent_jar)?;
        jvm.push(format!(
            "-javaagent:{}=destfile={},excludes={JACOCO_EXCLUDES}",
            jar.display(),
            exec.display()
        ));
    }
    jvm.extend(options.jvm_args.iter().cloned());

    let scratch;
    let dir: &Path = match &options.working_dir {
        Some(dir) => dir,
        None => {
            scratch = crate::cleanup::scratch_dir("suitesmith-junit-")
                .map_err(|e| VerifyError::io("cannot create a working directory", e))?;
            scratch.path()
        }
    };
    let (contained, cwd) = if options.contained {
        containment(dir)?
    } else {
        // Not contained by the guards, still by the sandbox: temporary files (JUnit's
        // `TemporaryFolder` among them) go below the one directory the JVM may write.
        let tmp = dir.join("tmp");
        std::fs::create_dir_all(&tmp)
            .map_err(|e| VerifyError::io(format!("cannot create {}", tmp.display()), e))?;
        (vec![format!("-Djava.io.tmpdir={}", process::absolute(&tmp)?.display())], dir.to_path_buf())
    };
    jvm.extend(contained);
    let mut writable = vec![process::absolute(dir)?];
    if let Some(agent) = &options.coverage {
        // JaCoCo writes its exec file at exit, from inside the JVM.
        if let Some(parent) = process::absolute(&agent.exec_file)?.parent() {
            writable.push(parent.to_path_buf());
        }
    }
    let sandbox = options.sandbox.clone().unwrap_or_else(|| crate::default_sandbox(java));
    let confinement = sandbox
        .prepare(&writable.iter().map(PathBuf::as_path).collect::<Vec<_>>())
        .map_err(crate::WorkerError::from)?;
    let argdir = crate::cleanup::scratch_dir("suitesmith-junit-")
        .map_err(|e| VerifyError::io("cannot create a temporary directory", e))?;
    let mut rest = vec!["-cp".to_string(), process::classpath(&cp)?, "suitesmith.tools.RunTests".into()];
    rest.push(version.arg().into());
    rest.extend(classes.iter().cloned());
    // Java 9+ reads @argfiles, which keeps long classpaths off the kernel's argument limit.
    if java.major >= 9 {
        let file = process::argfile(argdir.path(), "java.args", &rest)?;
        jvm.push(format!("@{}", file.display()));
    } else {
        jvm.extend(rest);
    }

    let done = process::run(&java.path, &jvm, &cwd, options.timeout, Some(confinement))?;
    let end_if_unfinished = match done.status {
        None => JvmEnd::TimedOut,
        Some(s) => JvmEnd::Exited { code: s.code() },
    };
    let mut report = Assembler::default();
    for line in &done.stdout {
        report.record(&parse(line));
    }
    if !report.ready || report.fatal.is_some() {
        let detail = match report.fatal {
            Some(f) => f,
            None => format!("the JUnit runner did not start ({})", process::status_text(done.status)),
        };
        return Err(VerifyError::Tool { tool: "suitesmith.tools.RunTests", detail, stderr: done.stderr });
    }
    let end = if report.done { JvmEnd::Completed } else { end_if_unfinished };
    Ok(TestRunReport { tests: report.finish(end), end, stderr: done.stderr, elapsed: done.elapsed })
}

/// The system properties that keep a run's tests inside `dir` ([`RunOptions::contained`]), and the
/// working directory to run in. The working, temporary and home directories all point into `dir`,
/// so a test that writes a relative path, a temporary file or a dot-file in `~` acts there, and the
/// guards' scratch (verification mode) is `dir` itself. The working and home directories stand for
/// the user's project and `~`, which the guards refuse to write in, as in the workers
/// ([`cleanup::WORKING_DIR`](crate::cleanup::WORKING_DIR)).
fn containment(dir: &Path) -> Result<(Vec<String>, PathBuf), VerifyError> {
    let dir = process::absolute(dir)?;
    let cwd = dir.join(crate::cleanup::WORKING_DIR);
    let tmp = dir.join("tmp");
    let home = dir.join("home");
    for d in [&cwd, &tmp, &home] {
        std::fs::create_dir_all(d)
            .map_err(|e| VerifyError::io(format!("cannot create {}", d.display()), e))?;
    }
    let args = vec![
        format!("-Duser.dir={}", cwd.display()),
        format!("-Djava.io.tmpdir={}", tmp.display()),
        format!("-Duser.home={}", home.display()),
        format!("-Dsuitesmith.verify.scratch={}", dir.display()),
        // java.nio.file goes through the runtime's guarded provider, as in the workers
        // (rt_abi::GUARDED_PROVIDER_ARG): a test changing something outside `dir` is refused.
        "-Djava.nio.file.spi.DefaultFileSystemProvider=suitesmith.rt.GuardedFileSystemProvider".to_string(),
    ];
    Ok((args, cwd))
}

/// [`run_tests`] `runs` times, each in a fresh JVM, in order. With a shared
/// [`RunOptions::working_dir`], files the tests leave are seen by later runs, as on a developer's disk.
pub fn run_repeatedly(
    java: &Java,
    classes: &[String],
    classpath: &[PathBuf],
    jars: &JUnitJars,
    version: JUnitVersion,
    options: &RunOptions,
    runs: usize,
) -> Result<Vec<TestRunReport>, VerifyError> {
    (0..runs).map(|_| run_tests(java, classes, classpath, jars, version, options)).collect()
}

/// The outcomes of each test method over `reports`, in the order the tests first appear.
pub fn summarize(reports: &[TestRunReport]) -> Vec<TestSummary> {
    let mut order: Vec<TestSummary> = Vec::new();
    let mut index: BTreeMap<(String, String), usize> = BTreeMap::new();
    for r in reports {
        for t in &r.tests {
            let key = (t.class.clone(), t.method.clone());
            let i = *index.entry(key).or_insert_with(|| {
                order.push(TestSummary {
                    class: t.class.clone(),
                    method: t.method.clone(),
                    outcomes: Vec::new(),
                });
                order.len() - 1
            });
            order[i].outcomes.push(t.outcome.clone());
        }
    }
    order
}

/// Builds the per-test outcomes from the records as they come.
#[derive(Default)]
struct Assembler {
    ready: bool,
    done: bool,
    fatal: Option<String>,
    tests: Vec<(String, String, Option<TestOutcome>)>,
    /// Planned tests by name; several when JUnit runs a name more than once (parameterised tests).
    by_name: BTreeMap<(String, String), Vec<usize>>,
}

impl Assembler {
    fn record(&mut self, f: &[String]) {
        let field = |i: usize| f.get(i).map(String::as_str).unwrap_or("");
        match field(0) {
            "ready" => self.ready = true,
            "done" => self.done = true,
            "fatal" => self.fatal = Some(field(1).to_string()),
            "plan" if f.len() >= 3 => {
                self.plan(field(1), field(2));
            }
            "pass" if f.len() >= 3 => self.result(field(1), field(2), TestOutcome::Passed),
            "skip" if f.len() >= 3 => {
                self.result(field(1), field(2), TestOutcome::Skipped { reason: field(3).to_string() })
            }
            "timeout" if f.len() >= 3 => self.result(field(1), field(2), TestOutcome::TimedOut),
            "fail" if f.len() >= 6 => {
                let failure = Failure {
                    exception: field(3).to_string(),
                    message: field(4).to_string(),
                    line: line_number(field(5)),
                };
                self.result(field(1), field(2), TestOutcome::Failed(failure));
            }
            // `start` needs no bookkeeping: an unfinished test is one without a result.
            _ => {}
        }
    }

    fn plan(&mut self, class: &str, method: &str) -> usize {
        self.tests.push((class.to_string(), method.to_string(), None));
        let i = self.tests.len() - 1;
        self.by_name.entry((class.to_string(), method.to_string())).or_default().push(i);
        i
    }

    fn result(&mut self, class: &str, method: &str, outcome: TestOutcome) {
        let slot = self
            .by_name
            .get(&(class.to_string(), method.to_string()))
            .and_then(|ix| ix.iter().copied().find(|&i| self.tests[i].2.is_none()));
        // A result for a test JUnit did not plan (a dynamic test) gets its own entry.
        let i = match slot {
            Some(i) => i,
            None => self.plan(class, method),
        };
        self.tests[i].2 = Some(outcome);
    }

    fn finish(self, end: JvmEnd) -> Vec<TestResult> {
        let unfinished = if end == JvmEnd::TimedOut { TestOutcome::TimedOut } else { TestOutcome::Aborted };
        self.tests
            .into_iter()
            .map(|(class, method, outcome)| TestResult {
                class,
                method,
                outcome: outcome.unwrap_or_else(|| unfinished.clone()),
            })
            .collect()
    }
}
