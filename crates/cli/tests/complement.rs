//! Complement mode of `generate --project` on a copy of examples/maven, whose modules have
//! hand-written tests of part of Counter and of Slug: for each case (criteria, budget, seed) a run
//! with complement mode (the default) and one without, at the same budget. With it, every written
//! test covers a goal the hand-written tests do not, by report.json's per-test figures and by
//! JaCoCo (the test run alone adds instructions or branches to the hand-written tests' coverage),
//! the report says what the written tests add, and JaCoCo's branch coverage of the union
//! (hand-written and written tests run together) is at least that of the run without it. The tests run in the
//! sandbox through `worker::verify`, never by `mvn test`. Needs `mvn` and a local repository
//! filled by scripts/fetch-maven.sh.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{copy_of, suitesmith};
use serde_json::Value;
use worker::verify::{self, JUnitJars, JUnitVersion, JacocoJars, RunOptions};

/// (criteria, evaluations, seed): small budgets, so that the search does not cover everything
/// either way.
const CASES: &[(&str, &str, &str)] =
    &[("line,branch", "20", "1"), ("line,branch", "60", "3"), ("line,branch", "200", "2")];

const MODULES: [&str; 2] = ["core", "text"];
const CLASSES: [&str; 2] = ["sample.core.Counter", "sample.text.Slug"];

/// One `generate --project` run into `out`; the report.json of each module.
fn generate(project: &Path, out: &str, case: (&str, &str, &str), extra: &[&str]) -> Vec<Value> {
    let (criteria, evaluations, seed) = case;
    let dir = project.display().to_string();
    let out = project.join(out).display().to_string();
    let mut args = vec!["generate", "--project", &dir, "--out", &out, "--criteria", criteria];
    args.extend(["--evaluations", evaluations, "--seed", seed, "--verify-runs", "1"]);
    args.extend(extra);
    let res = suitesmith(&args, &[]);
    let err = String::from_utf8_lossy(&res.stderr);
    assert!(res.status.success(), "{args:?}\n{err}");
    if extra.is_empty() {
        assert!(err.contains("module core: the project's own tests cover "), "{err}");
        assert!(err.contains("over the project's own tests: line "), "{err}");
    }
    MODULES
        .iter()
        .map(|m| {
            let p = project.join(m).join("target/suitesmith/report.json");
            serde_json::from_str(&std::fs::read_to_string(&p).expect("report.json")).expect("JSON")
        })
        .collect()
}

/// Runs tests of examples/maven in fresh sandboxed JVMs under JaCoCo: the hand-written ones (from
/// Maven's `target/test-classes`) and the written ones below `out` (compiled here).
struct Runs {
    java: worker::Java,
    jars: JUnitJars,
    jacoco: JacocoJars,
    /// The modules' compiled classes, whose coverage is measured.
    classes: Vec<PathBuf>,
    classpath: Vec<PathBuf>,
    /// The written tests: each `Class#method`.
    written: Vec<String>,
    work: PathBuf,
}

impl Runs {
    fn new(project: &Path, out: &str, work: &Path) -> Runs {
        let java = worker::Java::discover().expect("a JDK");
        let jars = JUnitJars::debian(JUnitVersion::Four).expect("JUnit 4");
        let jacoco = JacocoJars::debian().expect("JaCoCo");
        let classes: Vec<PathBuf> = MODULES.iter().map(|m| project.join(m).join("target/classes")).collect();
        let hand = MODULES.iter().map(|m| project.join(m).join("target/test-classes"));
        let deps = std::fs::read_to_string(project.join("text/target/suitesmith-classpath.txt")).expect("cp");
        let mut cp: Vec<PathBuf> = classes.iter().cloned().chain(hand).collect();
        let junit = |e: &&str| e.contains("junit") || e.contains("hamcrest");
        cp.extend(deps.trim().split(':').filter(|e| !junit(e)).map(PathBuf::from));
        let out = project.join(out);
        let files = common::java_files(&out);
        let sources: Vec<PathBuf> = files.iter().map(|(rel, _)| out.join(rel)).collect();
        let compiled = work.join("written");
        let mut compile_cp = cp.clone();
        compile_cp.extend(jars.compile.iter().cloned());
        let c = verify::compile(&java, &sources, &compile_cp, &compiled).expect("javac");
        assert!(c.success, "{}", c.output);
        let mut written = Vec::new();
        for (rel, text) in &files {
            // `--out` has a directory per module: `core/sample/core/CounterTest.java`.
            let rel: PathBuf = Path::new(rel).components().skip(1).collect();
            let class = rel.with_extension("").display().to_string().replace('/', ".");
            for line in text.lines().filter_map(|l| l.trim().strip_prefix("public void ")) {
                written.push(format!("{class}#{}", line.split('(').next().unwrap_or_default()));
            }
        }
        let classpath = std::iter::once(compiled).chain(cp).collect();
        Runs { java, jars, jacoco, classes, classpath, written, work: work.to_path_buf() }
    }

    /// Runs `tests` (classes or `Class#method`) in one JVM, which must pass them; its exec file.
    fn run(&self, tests: &[String], name: &str) -> PathBuf {
        let exec = self.work.join(format!("{name}.exec"));
        let mut options = RunOptions::new(Duration::from_secs(300));
        options.coverage = Some(self.jacoco.agent(&exec).expect("agent"));
        let report =
            verify::run_tests(&self.java, tests, &self.classpath, &self.jars, JUnitVersion::Four, &options)
                .expect("run");
        assert!(report.all_passed(), "{:?}", report.tests);
        exec
    }

    /// JaCoCo's (covered instructions, covered branches, branches) of Counter and Slug over `execs`
    /// together.
    fn coverage(&self, execs: &[PathBuf]) -> (u32, u32, u32) {
        let names: Vec<String> = CLASSES.iter().map(|c| c.to_string()).collect();
        let per_class =
            verify::jacoco_coverage(&self.java, &self.jacoco, execs, &self.classes, &names).expect("report");
        per_class
            .iter()
            .fold((0, 0, 0), |(i, b, t), k| (i + k.instructions.0, b + k.branches.0, t + k.branches.1))
    }
}

/// The hand-written tests of examples/maven.
fn hand_written() -> Vec<String> {
    vec!["sample.core.CounterLimitTest".into(), "sample.text.SlugExampleTest".into()]
}

/// The per-test and per-criterion figures of one module's report with complement mode.
fn check_complement(report: &Value) {
    for class in report["classes"].as_array().expect("classes") {
        let c = &class["complement"];
        assert!(c.is_object(), "complement figures: {class}");
        let added = c["added_per_test"].as_array().expect("per test");
        assert_eq!(added.len() as u64, class["tests"].as_u64().expect("tests"), "{c}");
        // No written test covers only goals the hand-written tests cover.
        assert!(added.iter().all(|a| a.as_u64() > Some(0)), "{}: {c}", class["class"]);
        for k in ["line", "branch"] {
            let f = &c["criteria"][k];
            let n = |x: &str| f[x].as_u64().expect(x);
            assert!(n("existing") > 0, "the hand-written tests cover some {k} goals: {c}");
            assert!(n("union") >= n("existing").max(n("written")) && n("union") <= n("total"), "{c}");
        }
    }
}

#[test]
fn complement_mode_adds_to_the_hand_written_tests() {
    let tmp = copy_of(&test_support::workspace_root().join("examples/maven"));
    let project = tmp.path();
    let work = tempfile::tempdir().expect("tempdir");
    for (i, &case) in CASES.iter().enumerate() {
        let with = format!("with{i}");
        let without = format!("without{i}");
        for report in generate(project, &with, case, &[]) {
            check_complement(&report);
        }
        for report in generate(project, &without, case, &["--no-complement"]) {
            let classes = report["classes"].as_array().expect("classes");
            assert!(classes.iter().all(|c| c["complement"].is_null()), "{report}");
        }
        let runs = Runs::new(project, &with, &work.path().join(&with));
        let hand = runs.run(&hand_written(), "hand");
        let before = runs.coverage(std::slice::from_ref(&hand));
        // Per test, measured apart from our goal model: run alone, each written test adds
        // instructions or branches to what the hand-written tests cover.
        let idle = idle_tests(&runs, &runs.written, &hand, before);
        // The check can fail: a test that repeats the hand-written ones adds nothing.
        assert_eq!(idle_tests(&runs, &hand_written()[..1], &hand, before), &hand_written()[..1]);
        assert!(idle.is_empty(), "{case:?}: {idle:?} add nothing to the hand-written tests' {before:?}");
        let mut all = hand_written();
        all.extend(runs.written.iter().cloned());
        let a = runs.coverage(&[runs.run(&all, "union")]);
        let other = Runs::new(project, &without, &work.path().join(&without));
        let mut all = hand_written();
        all.extend(other.written.iter().cloned());
        let b = other.coverage(&[other.run(&all, "union")]);
        eprintln!(
            "{case:?}: {} written tests; branches of the hand-written tests {}/{}, of the union with \
             complement mode {}/{}, without ({} written tests) {}/{}",
            runs.written.len(),
            before.1,
            before.2,
            a.1,
            a.2,
            other.written.len(),
            b.1,
            b.2
        );
        assert!(a.1 >= b.1 && a.2 == b.2, "{case:?}: with {a:?}, without {b:?}");
    }
}

/// The `tests` that, run alone, add no instruction or branch to the coverage `before` of the
/// hand-written tests (`hand`, their exec file).
fn idle_tests(runs: &Runs, tests: &[String], hand: &Path, before: (u32, u32, u32)) -> Vec<String> {
    let mut idle = Vec::new();
    for t in tests {
        let alone = runs.run(std::slice::from_ref(t), &format!("alone-{}", t.replace(['#', '.'], "-")));
        let both = runs.coverage(&[hand.to_path_buf(), alone]);
        if both.0 <= before.0 && both.1 <= before.1 {
            idle.push(t.clone());
        }
    }
    idle
}
