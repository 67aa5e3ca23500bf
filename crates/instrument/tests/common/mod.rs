//! Shared helpers of the instrument tests: compile the test runtime (tracer, guards) and the
//! VerifyAll harness with javac once per test process, instrument a container of classes into a
//! directory, and run VerifyAll or a program under `-Xverify:all`.

// Tests start `java`/`javac` themselves; in the engine only the worker crate spawns processes.
#![allow(clippy::disallowed_methods)]
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use goals::ProbePlan;
use instrument::{Options, Report};

/// The JVM flags every run uses: verify every class, including those of the application loader.
pub const VERIFY_FLAGS: &[&str] =
    &["-Xverify:all", "-XX:+UnlockDiagnosticVMOptions", "-XX:+BytecodeVerificationLocal"];

pub fn workspace_root() -> PathBuf {
    test_support::workspace_root()
}

fn java_bin(tool: &str) -> PathBuf {
    test_support::java_home().join("bin").join(tool)
}

/// A directory with the compiled test tracer and guards (`suitesmith/rt/*.class`),
/// `VerifyAll.class` and the `ResetCheck` driver; built once per test process and kept for its lifetime.
pub fn runtime_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch_dir("rt");
        let root = workspace_root();
        let rt = root.join("crates/instrument/test_data/rt/suitesmith/rt");
        let out = Command::new(java_bin("javac"))
            .args(["--release", "17", "-encoding", "UTF-8", "-d"])
            .arg(&dir)
            .arg(rt.join("Tracer.java"))
            .arg(rt.join("Guards.java"))
            // The real schemata class: self-contained, and what `Options::schemata` calls.
            .arg(root.join("java/runtime/src/suitesmith/rt/Mutants.java"))
            .arg(root.join("java/verify/VerifyAll.java"))
            .arg(root.join("crates/instrument/test_data/driver/ResetCheck.java"))
            .output()
            .expect("run javac");
        assert!(out.status.success(), "javac failed: {}", String::from_utf8_lossy(&out.stderr));
        dir
    })
}

/// A directory of this test binary under cargo's `CARGO_TARGET_TMPDIR`, emptied first: kept
/// between runs for inspection, never shared between test binaries (each has its own crate name).
pub fn scratch_dir(what: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{what}", env!("CARGO_CRATE_NAME")));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear scratch dir");
    }
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Plans and instruments every class of a directory or jar (one plan, classes in name order) into
/// `out` (as `<internal name>.class`). `module-info`, `package-info` and `META-INF/**` are skipped,
/// as a class loader never loads them as classes.
pub fn instrument_container(container: &Path, out: &Path, opts: &Options) -> (ProbePlan, Vec<Report>) {
    let entry = classfile::ClassPathEntry::open(container).expect("open container");
    let classes: Vec<(String, Vec<u8>)> = entry
        .class_files()
        .map(|r| r.expect("read class"))
        .filter(|(n, _)| !n.starts_with("META-INF/") && !n.rsplit('/').next().unwrap_or(n).contains('-'))
        .collect();
    let inputs: Vec<&[u8]> = classes.iter().map(|(_, b)| b.as_slice()).collect();
    let (plan, results) = instrument::instrument_classes(&inputs, opts);
    let mut reports = Vec::new();
    for ((name, _), res) in classes.iter().zip(results) {
        let (bytes, report) = res.unwrap_or_else(|e| panic!("instrument {name}: {e}"));
        let path = out.join(format!("{name}.class"));
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, bytes).expect("write class");
        reports.push(report);
    }
    (plan, reports)
}

/// The result of one VerifyAll run.
#[derive(Debug)]
pub struct Verified {
    pub summary: String,
    pub classes: usize,
    pub ok: usize,
    /// The lines of classes that did not link.
    pub failures: Vec<String>,
}

/// Runs VerifyAll on `target` with `deps` and the test runtime on the loader's path.
pub fn verify_all(target: &Path, deps: &[PathBuf]) -> Verified {
    let out = Command::new(java_bin("java"))
        .args(VERIFY_FLAGS)
        .arg("-cp")
        .arg(runtime_dir())
        .arg("VerifyAll")
        .arg("-quiet")
        .arg(target)
        .args(deps)
        .arg(runtime_dir())
        .output()
        .expect("run java");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let summary = stdout.lines().find(|l| l.starts_with("SUMMARY")).unwrap_or_else(|| {
        panic!("VerifyAll printed no summary: {stdout}\n{}", String::from_utf8_lossy(&out.stderr))
    });
    let field = |k: &str| -> usize {
        summary
            .split_whitespace()
            .find_map(|w| w.strip_prefix(k))
            .and_then(|v| v.parse().ok())
            .expect("summary field")
    };
    Verified {
        summary: summary.to_string(),
        classes: field("classes="),
        ok: field("ok="),
        failures: stdout.lines().filter(|l| !l.starts_with("SUMMARY")).map(str::to_string).collect(),
    }
}

/// Runs `java <VERIFY_FLAGS> -cp <cp> [-Dsuitesmith.trace=...] main`.
pub fn run_java(cp: &[&Path], main: &str, trace: Option<&Path>) -> Output {
    let cp = std::env::join_paths(cp).expect("classpath");
    let mut cmd = Command::new(java_bin("java"));
    cmd.args(VERIFY_FLAGS).arg("-cp").arg(cp);
    if let Some(t) = trace {
        cmd.arg(format!("-Dsuitesmith.trace={}", t.display()));
    }
    cmd.arg(main).output().expect("run java")
}
