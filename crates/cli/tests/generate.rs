//! `suitesmith generate` from outside, as a user runs it: each bad input is one line on stderr,
//! exit 2 and nothing written; on the bundled examples it writes `<out>/example/<Simple>Test.java`,
//! `statistics.csv` and `report.json`, the same bytes for the same seed, and the written tests
//! compile and pass under plain JUnit 4 and 5 runs of our own here (independent of the verifier
//! inside `generate`), with the coverage the report claims on line and branch.

// Tests run the binary, javac and java as a user would.
#![allow(clippy::disallowed_methods)]

mod common;

use common::{stderr_line, suitesmith};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Each bad input (unknown class, empty or missing classpath entry, corrupt jar, no JDK,
/// budget `0s`, unwritable output directory) and a few more: exit 2, one line, nothing written.
#[test]
fn bad_input_is_one_line_exit_2_and_nothing_written() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let out_s = out.display().to_string();
    let corrupt = tmp.path().join("corrupt.jar");
    std::fs::write(&corrupt, b"not a zip").expect("write");
    let corrupt_s = corrupt.display().to_string();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, b"x").expect("write");
    let under_file = file.join("out").display().to_string();
    let args_for = |cp: &str, class: &str, extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = ["generate", "--classpath", cp, "--class", class, "--out", &out_s]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let no_jdk = [("JAVA_HOME", "/nonexistent-jdk"), ("PATH", "/nonexistent-bin")];
    type Case<'a> = (Vec<String>, &'a [(&'a str, &'a str)], &'a str);
    let cases: Vec<Case> = vec![
        (args_for("examples/classes", "example.Nope", &[]), &[], "not on the classpath"),
        (args_for("", "example.Stack", &[]), &[], "the classpath is empty"),
        (args_for("examples/classes::x", "example.Stack", &[]), &[], "empty entry"),
        (args_for("/no/such/dir", "example.Stack", &[]), &[], "does not exist"),
        (args_for(&corrupt_s, "example.Stack", &[]), &[], "cannot read archive"),
        (args_for("examples/classes", "example.Stack", &["--budget", "0s"]), &[], "is zero"),
        (
            args_for("examples/classes", "example.Stack", &["--criteria", "line,nope"]),
            &[],
            "unknown criterion",
        ),
        (args_for("examples/classes", "example.Stack", &[]), &no_jdk, "no Java found"),
        (
            args_for(
                "examples/classes",
                "example.Stack",
                &["--sushi", "on", "--sushi-rule", "expand(**.left)"],
            ),
            &[],
            "--sushi-rule: rule \"expand(**.left)\" must be",
        ),
        (
            args_for("examples/classes", "example.Stack", &["--sushi-rule", "expand_only(left)"]),
            &[],
            "must start with `**`, `this` or `p<k>`",
        ),
        (
            args_for("examples/classes", "example.Stack", &["--sushi-scope", "example.Stack$Node"]),
            &[],
            "--sushi-scope \"example.Stack$Node\" must be CLASS=K",
        ),
        (args_for("examples/classes", "example.Stack", &["--sushi-solver-work", "0"]), &[], "at least 1"),
        (
            args_for("examples/classes", "example.Stack", &["--force"]),
            &[],
            "--force applies to --project runs only",
        ),
        (
            args_for("examples/classes", "example.Stack", &["--complement"]),
            &[],
            "--complement applies to --project runs only",
        ),
        (
            args_for("examples/classes", "example.Stack", &["--check"]),
            &[],
            "--check applies to --project runs only",
        ),
        (
            vec![
                "generate".into(),
                "--classpath".into(),
                "examples/classes".into(),
                "--class".into(),
                "example.Stack".into(),
                "--out".into(),
                under_file.clone(),
            ],
            &[],
            "cannot write to the output directory",
        ),
        (
            vec![
                "generate".into(),
                "--classpath".into(),
                "examples/classes".into(),
                "--prefix".into(),
                "nowhere".into(),
                "--out".into(),
                out_s.clone(),
            ],
            &[],
            "no class of the classpath is in package nowhere",
        ),
    ];
    for (args, env, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let res = suitesmith(&args, env);
        assert_eq!(res.status.code(), Some(2), "{args:?}: {res:?}");
        let line = stderr_line(&res);
        assert!(line.starts_with("suitesmith: error: ") && line.contains(expected), "{args:?}: {line:?}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
        assert!(!file.join("out").exists());
    }
    assert_eq!(std::fs::read_dir(tmp.path()).expect("read").count(), 2, "only the two inputs are left");
}

fn generate(out: &Path, junit: &str, seed: &str) -> Output {
    let res = suitesmith(
        &[
            "generate",
            "--classpath",
            "examples/classes",
            "--prefix",
            "example",
            "--evaluations",
            "3000",
            "--budget",
            "120s",
            "--seed",
            seed,
            "--workers",
            "2",
            "--junit",
            junit,
            "--out",
            &out.display().to_string(),
        ],
        &[],
    );
    assert_eq!(res.status.code(), Some(0), "{res:?}");
    res
}

/// The files under `dir`, relative, sorted, with their bytes (timings make report.json differ).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let skip = |p: &str| p.ends_with("report.json") || p.ends_with("statistics.csv");
    common::files_under(dir).into_iter().filter(|(p, _)| !skip(p)).collect()
}

const JUNIT4: &[&str] = &["/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"];
const JUNIT5: &str = "/usr/share/java/junit-platform-console-standalone.jar";

fn javac(out: &Path, sources: &[PathBuf], cp: &str) -> PathBuf {
    let classes = out.join("classes-check");
    let res = Command::new(test_support::java_home().join("bin/javac"))
        .args(["-nowarn", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .args(["-cp", cp])
        .args(sources)
        .output()
        .expect("run javac");
    assert!(res.status.success(), "javac: {}", String::from_utf8_lossy(&res.stderr));
    classes
}

/// Generates for both example classes with JUnit 4 and JUnit 5, twice with the same seed; checks the
/// layout, the reports and the determinism, then compiles and runs the written tests here.
#[test]
fn writes_verified_reproducible_tests_for_the_examples() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, b, c) = (tmp.path().join("a"), tmp.path().join("b"), tmp.path().join("c"));
    let res = generate(&a, "4", "7");
    let stderr = String::from_utf8_lossy(&res.stderr);
    println!("{stderr}");
    generate(&b, "4", "7");
    assert_eq!(files(&a), files(&b), "the same seed writes the same files");
    let listed: Vec<String> = files(&a).into_iter().map(|(p, _)| p).collect();
    assert_eq!(listed, ["example/StackTest.java", "example/TriangleTest.java", "report.html"]);

    // statistics.csv: EvoSuite's columns, one row per class.
    let csv = std::fs::read_to_string(a.join("statistics.csv")).expect("statistics.csv");
    let mut lines = csv.lines();
    let header = lines.next().expect("header");
    assert!(header.starts_with(
        "TARGET_CLASS,criterion,Coverage,Total_Goals,Covered_Goals,LineCoverage,BranchCoverage"
    ));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows[0].starts_with(
        "example.Stack,LINE;BRANCH;EXCEPTION;WEAKMUTATION;OUTPUT;METHOD;METHODNOEXCEPTION;CBRANCH,"
    ));

    // report.json: every class verified, full line and branch coverage on these small classes (the
    // search tests in crates/engine check they are reachable; Triangle's private empty constructor
    // has no line goal, as JaCoCo filters it), assertions present.
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("report.json")).expect("report.json"))
            .expect("json");
    assert_eq!(report["configuration"]["seed"], 7);
    assert_eq!(report["configuration"]["criteria"].as_array().map(Vec::len), Some(8));
    let classes = report["classes"].as_array().expect("classes");
    assert_eq!(classes.len(), 2);
    for cl in classes {
        let name = cl["class"].as_str().unwrap_or_default();
        assert_eq!(cl["verification"]["verified"], true, "{name}");
        for c in ["line", "branch"] {
            let goals = cl["criteria"][c]["goals"].as_u64().unwrap_or(0);
            let covered = cl["criteria"][c]["covered"].as_u64().unwrap_or(0);
            assert!(goals > 0, "{name} {c}");
            assert_eq!(covered, goals, "{name}: {c}");
        }
        assert!(
            cl["tests"].as_u64().unwrap_or(0) > 0 && cl["assertions"].as_u64().unwrap_or(0) > 0,
            "{name}"
        );
        for k in ["statements", "executions", "search_seconds", "generations"] {
            assert!(cl[k].is_number(), "{name}: {k}");
        }
    }

    // The written JUnit 4 tests compile against JUnit and the classpath alone and pass.
    let sources: Vec<PathBuf> = listed.iter().filter(|p| p.ends_with(".java")).map(|p| a.join(p)).collect();
    let examples = test_support::workspace_root().join("examples/classes");
    let cp4 = format!("{}:{}", examples.display(), JUNIT4.join(":"));
    let classes = javac(&a, &sources, &cp4);
    let run = Command::new(test_support::java_home().join("bin/java"))
        .arg("-cp")
        .arg(format!("{}:{cp4}", classes.display()))
        .args(["org.junit.runner.JUnitCore", "example.StackTest", "example.TriangleTest"])
        .output()
        .expect("run JUnit 4");
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success() && text.contains("OK ("), "{text}");

    // JUnit 5 as well.
    generate(&c, "5", "7");
    let sources: Vec<PathBuf> = listed.iter().filter(|p| p.ends_with(".java")).map(|p| c.join(p)).collect();
    let source = std::fs::read_to_string(&sources[0]).expect("read");
    assert!(source.contains("org.junit.jupiter.api.Test"), "{source}");
    let classes = javac(&c, &sources, &format!("{}:{JUNIT5}", examples.display()));
    let run = Command::new(test_support::java_home().join("bin/java"))
        .args(["-jar", JUNIT5, "--disable-banner", "--details=summary", "--fail-if-no-tests", "--class-path"])
        .arg(format!("{}:{}", classes.display(), examples.display()))
        .args(["--select-class=example.StackTest", "--select-class=example.TriangleTest"])
        .output()
        .expect("run JUnit 5");
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success() && text.contains(" 0 tests failed"), "{text}");
}

/// Runs `generate --jacoco` on one class and returns its report.json entry, checked to be verified
/// and to give exactly JaCoCo's covered/total counts of lines and branches: report.json counts them as
/// JaCoCo does (an instruction completed, JaCoCo's probe positions), on the written tests with the
/// calls their assertions make.
fn report_matching_jacoco(classpath: &str, class: &str) -> serde_json::Value {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let res = suitesmith(
        &[
            "generate",
            "--classpath",
            classpath,
            "--class",
            class,
            "--evaluations",
            "2000",
            "--budget",
            "120s",
            "--seed",
            "3",
            "--jacoco",
            "--out",
            &out.display().to_string(),
        ],
        &[],
    );
    assert_eq!(res.status.code(), Some(0), "{res:?}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report.json"))
            .expect("json");
    let cl = report["classes"][0].clone();
    assert_eq!(cl["verification"]["verified"], true, "{cl}");
    let n = |v: &serde_json::Value| v.as_u64().unwrap_or(u64::MAX);
    for (ours, jacoco) in [("line", "lines"), ("branch", "branches")] {
        let (covered, total) = (n(&cl["criteria"][ours]["covered"]), n(&cl["criteria"][ours]["goals"]));
        let (j_covered, j_total) = (n(&cl["jacoco"][jacoco]["covered"]), n(&cl["jacoco"][jacoco]["total"]));
        assert_eq!((covered, total), (j_covered, j_total), "{class} {ours}: ours vs JaCoCo\n{cl}");
    }
    cl
}

/// `fixtures/java/lines`: lines that start but never complete (a call on them throws) and jumps
/// whose fall-through side throws; the search's own line goals (EvoSuite's: the line started) are
/// reported "reached, never completed". The private empty constructor has no line goal, as JaCoCo
/// filters it. Two search fixtures add int switches (dense, sparse, with shared cases) and
/// try/catch. (A switch on strings would not do: JaCoCo filters the hashCode switch javac writes.)
#[test]
fn report_counts_lines_and_branches_as_jacoco() {
    let cl = report_matching_jacoco("fixtures/classes/lines", "lines.Completion");
    // 19 lines with code, the constructor's left out; `reject(y)` and `return y` never complete.
    assert_eq!(cl["criteria"]["line"]["goals"].as_u64(), Some(19), "{cl}");
    let uncovered: Vec<&str> =
        cl["uncovered"].as_array().expect("uncovered").iter().filter_map(|u| u.as_str()).collect();
    assert!(
        uncovered.contains(
            &"line c0 L12 (lines/Completion:12) reached, never completed (each run threw on the way)"
        ),
        "{uncovered:#?}"
    );
    assert!(uncovered.contains(&"line c0 L13 (lines/Completion:13)"), "{uncovered:#?}");
    for class in ["search.IntSwitch", "search.Validator"] {
        report_matching_jacoco("fixtures/classes/search", class);
    }
}
