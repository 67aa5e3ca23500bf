//! What the binary's integration tests share: running `suitesmith` as a user would, and the
//! one-line error of bad input.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// Runs the binary in the workspace root with `args` and extra environment variables.
#[allow(clippy::disallowed_methods)] // tests run the binary as a user would
pub fn suitesmith(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_suitesmith"));
    c.args(args).current_dir(test_support::workspace_root());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run suitesmith")
}

/// stderr, checked to be exactly one line.
#[allow(dead_code)] // each test file compiles this module; not every one checks stderr
pub fn stderr_line(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "expected one line on stderr, got {err:?}");
    err
}

/// Every file under `dir` by its path relative to `dir` (sorted), with its bytes.
#[allow(dead_code)] // each test file compiles this module; not every one reads outputs
pub fn files_under(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("prefix").display().to_string();
                out.insert(rel, std::fs::read(&p).expect("read"));
            }
        }
    }
    out
}

/// A copy of `src` (without build output) in a fresh temporary directory: a project the tests may
/// build and change.
#[allow(dead_code)] // each test file compiles this module; not every one copies a project
pub fn copy_of(src: &Path) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (rel, bytes) in files_under(src) {
        if rel.split('/').any(|c| c == "target") {
            continue;
        }
        let to = tmp.path().join(&rel);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::write(to, bytes).expect("write");
    }
    tmp
}

/// Runs Maven offline in `dir` with `args`; it must succeed.
#[allow(clippy::disallowed_methods)] // the test runs Maven as a user would
#[allow(dead_code)] // each test file compiles this module; not every one runs Maven
pub fn mvn(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new("mvn")
        .args(["-B", "-o", "-Dstyle.color=never"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("mvn is needed: apt-get install maven, then bash scripts/fetch-maven.sh");
    assert!(
        out.status.success(),
        "mvn {args:?} failed in {}:\n{}\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The written regression test files under `dir` (`.java`), sorted by path, as text: without the
/// `<Class>ViolationTest.java` files of contract violations (docs/contracts.md), which fail by
/// design and which the tests of other techniques neither count nor run.
#[allow(dead_code)] // each test file compiles this module; not every one reads outputs
pub fn java_files(dir: &Path) -> Vec<(String, String)> {
    files_under(dir)
        .into_iter()
        .filter(|(p, _)| p.ends_with(".java") && !p.ends_with("ViolationTest.java"))
        .map(|(p, b)| (p, String::from_utf8(b).expect("UTF-8")))
        .collect()
}

/// Compiles the written test file `name` (relative to `out`) with javac against `cp` (the
/// subject's classes and JUnit 4 alone) and runs it `runs` times in fresh JVMs with JUnitCore,
/// each run from `cwd`; every run must pass.
#[allow(clippy::disallowed_methods)] // tests run the JDK's tools as a user would
#[allow(dead_code)] // each test file compiles this module; not every one runs written tests
pub fn compile_and_run_junit4(out: &Path, name: &str, cp: &str, cwd: &Path, runs: u32, what: &str) {
    compile_and_run_junit4_with(out, name, cp, cwd, runs, what, &[]);
}

/// [`compile_and_run_junit4`] with extra JVM options for the runs (`-Djava.io.tmpdir=..`).
#[allow(clippy::disallowed_methods)] // tests run the JDK's tools as a user would
#[allow(dead_code)] // each test file compiles this module; not every one runs written tests
pub fn compile_and_run_junit4_with(
    out: &Path,
    name: &str,
    cp: &str,
    cwd: &Path,
    runs: u32,
    what: &str,
    jvm: &[&str],
) {
    let classes = out.join("test-classes");
    let javac = Command::new(test_support::java_home().join("bin/javac"))
        .args(["-nowarn", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .args(["-cp", cp])
        .arg(out.join(name))
        .output()
        .expect("run javac");
    assert!(javac.status.success(), "{what}: {}", String::from_utf8_lossy(&javac.stderr));
    let test_class = name.trim_end_matches(".java").replace('/', ".");
    for run in 1..=runs {
        let ran = Command::new(test_support::java_home().join("bin/java"))
            .args(jvm)
            .arg("-cp")
            .arg(format!("{}:{cp}", classes.display()))
            .args(["org.junit.runner.JUnitCore", &test_class])
            .current_dir(cwd)
            .output()
            .expect("run java");
        let stdout = String::from_utf8_lossy(&ran.stdout);
        assert!(ran.status.success() && stdout.contains("\nOK ("), "{what}, run {run}: {stdout}");
    }
}

/// `generate` of one class of the fixture area `area` with 3,000 evaluations, seed 1 and two
/// workers, plus `extra` options, into `out`; its report.json.
#[allow(dead_code)] // each test file compiles this module; not every one generates fixtures
pub fn generate_fixture(area: &str, class: &str, out: &Path, extra: &[&str]) -> serde_json::Value {
    generate_with(area, class, out, ["3000", "1", "2"], extra);
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report")).expect("json")
}

/// `generate` of one fixture class into `out` with `[evaluations, seed, workers]` and `extra`
/// options; it must succeed.
#[allow(dead_code)] // each test file compiles this module; not every one generates fixtures
pub fn generate_with(
    area: &str,
    class: &str,
    out: &Path,
    [evaluations, seed, workers]: [&str; 3],
    extra: &[&str],
) {
    let classpath = format!("fixtures/classes/{area}");
    let out_arg = out.display().to_string();
    let mut args =
        vec!["generate", "--classpath", &classpath, "--class", class, "--evaluations", evaluations];
    args.extend_from_slice(&["--seed", seed, "--workers", workers, "--out", &out_arg]);
    args.extend_from_slice(extra);
    let run = suitesmith(&args, &[]);
    assert!(run.status.success(), "{class}: {}", String::from_utf8_lossy(&run.stderr));
}

/// The branch goals the first class of a report left uncovered.
#[allow(dead_code)] // each test file compiles this module; not every one reads reports
pub fn uncovered_branches(report: &serde_json::Value) -> Vec<String> {
    report["classes"][0]["uncovered"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str())
        .filter(|u| u.starts_with("branch "))
        .map(str::to_string)
        .collect()
}

/// The test files `generate` writes for one fixture class with 1,500 evaluations and seed 7,
/// plus `extra` options, with one worker and with two (which must be the same bytes).
#[allow(dead_code)] // each test file compiles this module; not every one checks determinism
pub fn written_with_one_and_two_workers(
    area: &str,
    class: &str,
    extra: &[&str],
) -> [Vec<(String, String)>; 2] {
    let tmp = tempfile::tempdir().expect("tempdir");
    ["1", "2"].map(|workers| {
        let out = tmp.path().join(workers);
        generate_with(area, class, &out, ["1500", "7", workers], extra);
        java_files(&out)
    })
}

/// `extra` after the switches of the default before the adaptive portfolio (the core plus DSE,
/// every technique that is on running for the whole search): for tests that compare one technique
/// on and off against the run as it was, a configuration of their own rather than the product's
/// default, which now has every technique on. A `--dse` in `extra` replaces DSE's switch.
#[allow(dead_code)] // each test file compiles this module; not every one pins the techniques
pub fn pinned<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--techniques", "none", "--portfolio", "off"];
    if !extra.contains(&"--dse") {
        args.extend(["--dse", "on"]);
    }
    args.extend_from_slice(extra);
    args
}
