//! Complement mode of `generate --project` on a copy of examples/maven, whose modules have
//! hand-written tests of part of Counter and of Slug: for each case (criteria, budget, seed) a run
//! with complement mode (the default) and one without, at the same budget. With it, every written
//! test covers a goal the hand-written tests do not (report.json's per-test figures), the report
//! says what the written tests add, and JaCoCo's branch coverage of the union (hand-written and
//! written tests run together) is at least that of the run without it. The tests run in the
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
const CASES: &[(&str, &str, &str)] = &[("line,branch", "60", "1"), ("line,branch", "200", "2")];

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

/// JaCoCo's (covered, total) branches of Counter and Slug when the hand-written tests and the
/// written tests below `out` run together, in fresh sandboxed JVMs.
fn union_branches(project: &Path, out: &str, work: &Path) -> (u32, u32) {
    let java = worker::Java::discover().expect("a JDK");
    let jars = JUnitJars::debian(JUnitVersion::Four).expect("JUnit 4");
    let jacoco = JacocoJars::debian().expect("JaCoCo");
    let classes: Vec<PathBuf> = MODULES.iter().map(|m| project.join(m).join("target/classes")).collect();
    let hand: Vec<PathBuf> = MODULES.iter().map(|m| project.join(m).join("target/test-classes")).collect();
    let deps =
        std::fs::read_to_string(project.join("text/target/suitesmith-classpath.txt")).expect("classpath");
    let mut cp: Vec<PathBuf> = classes.iter().chain(&hand).cloned().collect();
    cp.extend(
        deps.trim().split(':').filter(|e| !e.contains("junit") && !e.contains("hamcrest")).map(PathBuf::from),
    );
    let sources: Vec<PathBuf> = common::java_files(&project.join(out))
        .into_iter()
        .map(|(rel, _)| project.join(out).join(rel))
        .collect();
    let written = work.join("written");
    let mut compile_cp = cp.clone();
    compile_cp.extend(jars.compile.iter().cloned());
    let c = verify::compile(&java, &sources, &compile_cp, &written).expect("javac");
    assert!(c.success, "{}", c.output);
    let mut run_cp = vec![written.clone()];
    run_cp.extend(cp);
    let mut tests: Vec<String> =
        vec!["sample.core.CounterLimitTest".into(), "sample.text.SlugExampleTest".into()];
    tests.extend(sources.iter().map(|s| {
        let rel = s.strip_prefix(project.join(out)).expect("below out");
        // `--out` has a directory per module: `core/sample/core/CounterTest.java`.
        let rel: PathBuf = rel.components().skip(1).collect();
        rel.with_extension("").display().to_string().replace('/', ".")
    }));
    let exec = work.join("union.exec");
    let mut options = RunOptions::new(Duration::from_secs(300));
    options.coverage = Some(jacoco.agent(&exec).expect("agent"));
    let report = verify::run_tests(&java, &tests, &run_cp, &jars, JUnitVersion::Four, &options).expect("run");
    assert!(report.all_passed(), "{:?}", report.tests);
    let classes_of: Vec<String> = CLASSES.iter().map(|c| c.to_string()).collect();
    let per_class = verify::jacoco_coverage(&java, &jacoco, &[exec], &classes, &classes_of).expect("report");
    per_class.iter().fold((0, 0), |(c, t), k| (c + k.branches.0, t + k.branches.1))
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
        let a = union_branches(project, &with, &work.path().join(&with));
        let b = union_branches(project, &without, &work.path().join(&without));
        eprintln!("{case:?}: branches of the union with complement mode {a:?}, without {b:?}");
        assert!(a.0 >= b.0 && a.1 == b.1, "{case:?}: with {a:?}, without {b:?}");
    }
}
