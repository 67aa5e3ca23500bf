//! `suitesmith generate` leaves nothing in the temporary directory, whether it ends
//! normally or is stopped by SIGTERM or SIGINT (then: exit 128 + the signal, one line on stderr,
//! nothing written, no JVM of its left running). Each run gets a fresh, empty `TMPDIR` of its own,
//! and the processes of a run are told apart by it: every child inherits the variable.

// Tests run the binary, and `kill`, as a user would.
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A fresh `TMPDIR` and a cache directory for the runtime jar (which otherwise falls back to
/// `$TMPDIR/suitesmith` on a machine without `HOME`), side by side in a directory of the test's own.
struct Sandbox {
    _root: tempfile::TempDir,
    tmp: PathBuf,
    cache: PathBuf,
    out: PathBuf,
}

impl Sandbox {
    fn new() -> Sandbox {
        let root = tempfile::tempdir().expect("tempdir");
        let tmp = root.path().join("tmp");
        let cache = root.path().join("cache");
        std::fs::create_dir(&tmp).expect("mkdir tmp");
        std::fs::create_dir(&cache).expect("mkdir cache");
        let out = root.path().join("out");
        Sandbox { _root: root, tmp, cache, out }
    }

    fn command(&self, budget: &str, extra: &[&str]) -> Command {
        let classes = test_support::fixture_classes("search");
        let mut c = Command::new(env!("CARGO_BIN_EXE_suitesmith"));
        c.args(["generate", "--classpath"])
            .arg(&classes)
            .args(["--class", "search.Calculator", "--budget", budget, "--seed", "1", "--workers", "2"])
            .arg("--out")
            .arg(&self.out)
            .args(extra)
            .env("TMPDIR", &self.tmp)
            .env("XDG_CACHE_HOME", &self.cache)
            .current_dir(test_support::workspace_root());
        c
    }

    /// What is left in `TMPDIR`.
    fn leftovers(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.tmp)
            .expect("read TMPDIR")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// The processes (pid and command line) whose environment has this `TMPDIR`: the run's JVMs and
    /// helpers, and the binary itself while it runs.
    fn processes(&self) -> Vec<String> {
        let needle = format!("TMPDIR={}", self.tmp.display()).into_bytes();
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let pid = entry.file_name().to_string_lossy().into_owned();
            if !pid.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let Ok(env) = std::fs::read(entry.path().join("environ")) else { continue };
            if env.split(|b| *b == 0).any(|var| var == needle.as_slice()) {
                let cmd = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                found.push(format!("{pid}: {}", String::from_utf8_lossy(&cmd).replace('\0', " ")));
            }
        }
        found
    }
}

#[test]
fn a_normal_run_leaves_the_temporary_directory_empty() {
    let sb = Sandbox::new();
    let res =
        sb.command("30s", &["--evaluations", "400", "--verify-runs", "1"]).output().expect("run suitesmith");
    assert!(res.status.success(), "{}", String::from_utf8_lossy(&res.stderr));
    assert!(sb.out.join("search/CalculatorTest.java").exists(), "no test file written");
    assert_eq!(sb.leftovers(), Vec::<String>::new(), "left in TMPDIR");
    assert_eq!(sb.processes(), Vec::<String>::new(), "still running");
}

/// Starts a long run, waits until `ready` holds (polling stderr and `TMPDIR`), sends `signal`, and
/// returns the exit status and stderr.
fn interrupt(
    sb: &Sandbox,
    extra: &[&str],
    signal: &str,
    ready: impl Fn(&str, &[String]) -> bool,
) -> (ExitStatus, String) {
    let err_path = sb.tmp.with_file_name("stderr.txt");
    let err_file = std::fs::File::create(&err_path).expect("stderr file");
    let mut child: Child =
        sb.command("60s", extra).stdout(Stdio::null()).stderr(err_file).spawn().expect("start suitesmith");
    let stderr = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    let start = Instant::now();
    while !ready(&stderr(&err_path), &sb.leftovers()) {
        assert!(child.try_wait().expect("try_wait").is_none(), "ended early: {}", stderr(&err_path));
        assert!(start.elapsed() < Duration::from_secs(120), "never ready: {}", stderr(&err_path));
        std::thread::sleep(Duration::from_millis(100));
    }
    // Let the phase get going (its JVMs started).
    std::thread::sleep(Duration::from_millis(300));
    let kill = Command::new("kill").args([signal, &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("try_wait") {
            break s;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("still running 30 s after {signal}: {}", stderr(&err_path));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, stderr(&err_path))
}

/// What a run stopped by `signal` must show: exit `code`, one line besides the progress saying so,
/// no output directory, no process left and nothing left in its `TMPDIR`.
fn assert_stopped(sb: &Sandbox, status: ExitStatus, err: &str, code: i32, signal: &str) {
    assert_eq!(status.code(), Some(code), "{err}");
    let last: Vec<&str> = err.lines().filter(|l| !l.starts_with('[')).collect();
    assert_eq!(last.len(), 1, "one line besides the progress: {err}");
    assert!(last[0].starts_with(&format!("suitesmith: stopped by {signal}")), "{err}");
    assert!(!sb.out.exists(), "wrote {}", sb.out.display());
    assert_eq!(sb.processes(), Vec::<String>::new(), "still running");
    assert_eq!(sb.leftovers(), Vec::<String>::new(), "left in TMPDIR");
}

/// Stopped mid-search: every worker JVM killed, their scratch directories (and the verifier's)
/// removed, no output directory, exit 143 and one line saying so.
#[test]
fn sigterm_during_the_search_kills_the_workers_and_removes_everything() {
    let sb = Sandbox::new();
    let (status, err) = interrupt(&sb, &[], "-TERM", |err, left| {
        err.contains("searching") && left.iter().filter(|n| n.starts_with("suitesmith-worker-")).count() == 2
    });
    assert_stopped(&sb, status, &err, 143, "SIGTERM");
}

/// Stopped while the written tests are compiled and run (javac and JUnit JVMs, the verifier's
/// scratch directory): the same, with SIGINT's 130.
#[test]
fn sigint_during_verification_kills_its_jvms_and_removes_everything() {
    let sb = Sandbox::new();
    // Five runs in fresh JVMs after a short search: seconds of verification to stop.
    let (status, err) = interrupt(&sb, &["--evaluations", "300", "--verify-runs", "5"], "-INT", |err, _| {
        err.contains("compiling and running the tests")
    });
    assert_stopped(&sb, status, &err, 130, "SIGINT");
}
