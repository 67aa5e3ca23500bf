//! Issue 21's hostile corpus (`fixtures/java/hostile/corpus`, package `hostile.corpus`) through the
//! whole pipeline, as a user runs it: for each class, `suitesmith generate` with its own canary
//! directory, an empty `TMPDIR` and a loopback listener of ours, then the written tests compiled and
//! run in 5 fresh plain JVMs. Each phase must leave the canary files as they were, put nothing in a
//! temporary directory and send nothing to the listener; `generate` must write tests, and they must
//! pass every plain run. A first, unguarded run of the class's hostile call (`hostile.corpus.Proof`)
//! against a second canary directory shows that each check would see the damage, so none is vacuous.
//! For the exiting class, the written suite keeps at least 90 % of what the search covered.
//!
//! The classes find their canaries through the environment (`HOSTILE_CANARY_DIR`, `HOSTILE_PORT`):
//! `generate` passes its environment to the worker and verification JVMs, and so does a user's
//! `java`, while a system property would reach none of them. Every problem of a class is collected
//! and reported together, so one failing run shows everything that went wrong.

// Tests run the binary, javac and java as a user would.
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::suitesmith;

/// The fixtures' classpath, relative to the workspace root where `suitesmith` runs.
const CLASSPATH: &str = "fixtures/classes/hostile";
/// A file of the user's project in the working directory of the written tests' runs.
const PROJECT_FILE: &str = "pom.xml";
/// Evaluations per search: every class here is small, and the whole file must stay within a few
/// minutes on two shared cores. `--budget` caps each search in time as well: the ticker's leaked
/// threads make every worker restart, so its 400 evaluations would take a minute.
const EVALUATIONS: u64 = 400;
const BUDGET_SECONDS: u64 = 30;
/// Fresh plain JVMs the written tests must pass in, as the engine's own verification runs them.
const RUNS: usize = 5;
const JUNIT4: &[&str] = &["/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"];
/// Where a JVM on Linux puts `java.io.tmpdir` when not told otherwise: `/tmp`, whatever `TMPDIR` says.
/// The ticker's files land there unless something points the property elsewhere.
const JAVA_DEFAULT_TMPDIR: &str = "/tmp";
/// How long one plain JVM (a proof run or a run of the written tests) may take before it is killed.
const JVM_LIMIT: Duration = Duration::from_secs(120);

/// The canary files of every class: each class aims at some of them (`victim.txt` is deleted or
/// overwritten, `log.txt` appended to or renamed, `keep.txt` replaced, `hook.txt` deleted at exit).
const CANARIES: &[&str] = &["victim.txt", "keep.txt", "log.txt", "hook.txt"];

/// One class's world: a root directory of its own holding the canary directory, the `TMPDIR` given
/// to `generate` and the output, plus a loopback listener whose port the classes connect to.
struct Sandbox {
    root: tempfile::TempDir,
    /// The canary directory's name; the ticker names its files after it, so files under this prefix
    /// in a temporary directory were left by this sandbox's runs and no one else's.
    token: String,
    canary: PathBuf,
    tmp: PathBuf,
    listener: TcpListener,
}

impl Sandbox {
    fn new() -> Sandbox {
        let root = tempfile::Builder::new().prefix("hostile-").tempdir().expect("tempdir");
        let root_name = root.path().file_name().expect("name").to_string_lossy().into_owned();
        let token = format!("canary-{root_name}");
        let canary = root.path().join(&token);
        let tmp = root.path().join("tmp");
        std::fs::create_dir(&canary).expect("canary dir");
        std::fs::create_dir(&tmp).expect("tmp dir");
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        listener.set_nonblocking(true).expect("nonblocking");
        let sb = Sandbox { root, token, canary, tmp, listener };
        sb.restore();
        sb
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// The environment of every process started for this sandbox.
    fn env(&self) -> Vec<(String, String)> {
        let port = self.listener.local_addr().expect("addr").port();
        vec![
            ("HOSTILE_CANARY_DIR".into(), self.canary.display().to_string()),
            ("HOSTILE_PORT".into(), port.to_string()),
            ("TMPDIR".into(), self.tmp.display().to_string()),
        ]
    }

    fn expected_canaries(&self) -> BTreeMap<String, Vec<u8>> {
        CANARIES
            .iter()
            .map(|n| (n.to_string(), format!("canary {n} of {}\n", self.token).into_bytes()))
            .collect()
    }

    /// The canary directory's files and their bytes.
    fn canaries(&self) -> BTreeMap<String, Vec<u8>> {
        let mut found = BTreeMap::new();
        for e in std::fs::read_dir(&self.canary).expect("read canary dir") {
            let p = e.expect("entry").path();
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            found.insert(
                name,
                std::fs::read(&p).unwrap_or_else(|e| format!("<unreadable: {e}>").into_bytes()),
            );
        }
        found
    }

    /// Puts the canary directory back as `new` made it, so each phase is judged on its own.
    fn restore(&self) {
        for e in std::fs::read_dir(&self.canary).expect("read canary dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                std::fs::remove_dir_all(&p).expect("remove");
            } else {
                std::fs::remove_file(&p).expect("remove");
            }
        }
        for (name, bytes) in self.expected_canaries() {
            std::fs::write(self.canary.join(name), bytes).expect("write canary");
        }
    }

    /// What happened to the canaries, one line per file deleted, changed or added; empty if nothing.
    fn canary_damage(&self) -> Vec<String> {
        let (want, got) = (self.expected_canaries(), self.canaries());
        let mut out = Vec::new();
        for (name, bytes) in &want {
            match got.get(name) {
                None => out.push(format!("canary {name} deleted")),
                Some(b) if b != bytes => {
                    out.push(format!("canary {name} changed to {:?}", String::from_utf8_lossy(b)))
                }
                Some(_) => {}
            }
        }
        out.extend(
            got.keys().filter(|n| !want.contains_key(*n)).map(|n| format!("file {n} added to the canaries")),
        );
        out
    }

    /// Entries of a directory, by name.
    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = match std::fs::read_dir(dir) {
            Ok(rd) => {
                rd.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect()
            }
            Err(_) => Vec::new(),
        };
        v.sort();
        v
    }

    /// Files this sandbox's runs left in a temporary directory (named after the token), removed
    /// after being counted so that each phase is judged on its own.
    fn leaks_in(&self, dir: &Path) -> Vec<String> {
        let leaks: Vec<String> =
            Self::entries(dir).into_iter().filter(|n| n.starts_with(&self.token)).collect();
        for n in &leaks {
            let _ = std::fs::remove_file(dir.join(n));
        }
        leaks
    }

    /// Connections that reached the listener since the last call.
    fn connections(&self) -> usize {
        let mut n = 0;
        while self.listener.accept().is_ok() {
            n += 1;
        }
        n
    }

    /// Every check that holds after any phase (canaries, Java's default temporary directory, the
    /// listener), as problems prefixed with `phase`; the canaries are restored afterwards.
    fn escapes(&self, phase: &str) -> Vec<String> {
        let mut out: Vec<String> =
            self.canary_damage().into_iter().map(|d| format!("{phase}: {d}")).collect();
        self.restore();
        let leaks = self.leaks_in(Path::new(JAVA_DEFAULT_TMPDIR));
        if !leaks.is_empty() {
            out.push(format!("{phase}: left in {JAVA_DEFAULT_TMPDIR}: {leaks:?}"));
        }
        let n = self.connections();
        if n > 0 {
            out.push(format!("{phase}: {n} connection(s) reached the test's listener"));
        }
        out
    }
}

/// How a plain JVM ended: its status (`None`: killed at [`JVM_LIMIT`]), stdout and stderr.
struct Ran {
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
}

/// Runs `cmd` with `input` on stdin (closed after it), its output in files (no pipe to fill), and
/// kills it at [`JVM_LIMIT`].
fn run_limited(mut cmd: Command, input: &[u8], scratch: &Path) -> Ran {
    let (out_path, err_path) = (scratch.join("stdout.txt"), scratch.join("stderr.txt"));
    cmd.stdin(Stdio::piped())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"));
    let mut child = cmd.spawn().expect("start java");
    if let Some(mut stdin) = child.stdin.take() {
        // A JVM that exits first closes the pipe; that is not our failure.
        let _ = stdin.write_all(input);
    }
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break Some(s);
        }
        if start.elapsed() > JVM_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    Ran { status, stdout: read(&out_path), stderr: read(&err_path) }
}

fn java() -> Command {
    Command::new(test_support::java_home().join("bin/java"))
}

/// The proof: `class`'s hostile call run once without any guard in a plain JVM against a second
/// sandbox (`java.io.tmpdir` pointed into it, so nothing lands in `/tmp`), with "hello" on stdin.
fn proof(class: &str, jvm_args: &[&str]) -> (Sandbox, Ran) {
    let sb = Sandbox::new();
    let mut cmd = java();
    cmd.arg(format!("-Djava.io.tmpdir={}", sb.tmp.display()))
        .args(jvm_args)
        .arg("-cp")
        .arg(test_support::workspace_root().join(CLASSPATH))
        .args(["hostile.corpus.Proof", class])
        .current_dir(sb.root.path())
        .envs(sb.env());
    let ran = run_limited(cmd, b"hello\n", sb.root.path());
    (sb, ran)
}

/// What `generate` wrote for one class, from report.json.
struct Written {
    /// The class's entry in report.json.
    report: serde_json::Value,
    /// The written test files, relative to the output directory.
    files: Vec<String>,
}

/// Runs `generate` on `hostile.corpus.<class>` in `sb` and checks what may not happen during it.
fn generate(sb: &Sandbox, class: &str, problems: &mut Vec<String>) -> Option<Written> {
    let out = sb.path("out");
    let env = sb.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let evaluations = EVALUATIONS.to_string();
    let res = suitesmith(
        &[
            "generate",
            "--classpath",
            CLASSPATH,
            "--class",
            &format!("hostile.corpus.{class}"),
            "--evaluations",
            &evaluations,
            "--budget",
            &format!("{BUDGET_SECONDS}s"),
            "--seed",
            "1",
            "--workers",
            "1",
            "--out",
            &out.display().to_string(),
        ],
        &env,
    );
    problems.extend(sb.escapes("generate"));
    let left = Sandbox::entries(&sb.tmp);
    if !left.is_empty() {
        problems.push(format!("generate: left in its TMPDIR: {left:?}"));
    }
    if res.status.code() != Some(0) {
        let stderr = String::from_utf8_lossy(&res.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect();
        problems.push(format!("generate: {} (stderr ends: {})", res.status, tail.join(" | ")));
        return None;
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report.json"))
            .expect("json");
    let report = report["classes"][0].clone();
    let files: Vec<String> = report["files"]
        .as_array()
        .map(|a| a.iter().filter_map(|f| f.as_str().map(str::to_owned)).collect())
        .unwrap_or_default();
    if report["tests"].as_u64().unwrap_or(0) == 0 || files.is_empty() {
        problems.push(format!(
            "generate: no test written (verification: {}; log: {})",
            report["verification"], report["log"]
        ));
    }
    Some(Written { report, files })
}

/// Compiles the written tests and runs them in [`RUNS`] fresh plain JVMs (JUnitCore, the workers'
/// heap, stdin closed, each in a new working directory), checking each run passes and escapes nothing.
/// Stdin is closed as under a build tool in CI and in the engine's own verification: with a stdin
/// left open (a terminal, an IDE) `Prompt.ask(true, ..)` would wait for a line until JUnit's timeout,
/// which no guard of the workers prevents today.
fn run_written(sb: &Sandbox, written: &Written, problems: &mut Vec<String>) {
    if written.files.is_empty() {
        return;
    }
    let out = sb.path("out");
    let fixtures = test_support::workspace_root().join(CLASSPATH);
    let cp = format!("{}:{}", fixtures.display(), JUNIT4.join(":"));
    let classes = sb.path("test-classes");
    let javac = Command::new(test_support::java_home().join("bin/javac"))
        .args(["-nowarn", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .args(["-cp", &cp])
        .args(written.files.iter().map(|f| out.join(f)))
        .output()
        .expect("run javac");
    if !javac.status.success() {
        problems.push(format!("javac: {}", String::from_utf8_lossy(&javac.stderr)));
        return;
    }
    let names: Vec<String> =
        written.files.iter().map(|f| f.trim_end_matches(".java").replace('/', ".")).collect();
    for run in 1..=RUNS {
        let cwd = sb.path(&format!("run-{run}"));
        std::fs::create_dir(&cwd).expect("run dir");
        // The user's project file a relative name would reach (`Sweeper`).
        std::fs::write(cwd.join(PROJECT_FILE), "<project/>").expect("project file");
        let mut cmd = java();
        cmd.args(["-Xmx512m", "-cp"])
            .arg(format!("{}:{cp}", classes.display()))
            .arg("org.junit.runner.JUnitCore")
            .args(&names)
            .current_dir(&cwd)
            .envs(sb.env());
        // The JVM's output goes beside the working directory, which must hold only the project file.
        let out = sb.path(&format!("run-{run}-out"));
        std::fs::create_dir(&out).expect("run output dir");
        let ran = run_limited(cmd, b"", &out);
        let passed = ran.status.is_some_and(|s| s.success()) && ran.stdout.contains("\nOK (");
        if !passed {
            // JUnitCore lists each failure as "N) name(class)" followed by the exception.
            let failures: Vec<&str> = ran
                .stdout
                .lines()
                .skip_while(|l| !l.starts_with("There w"))
                .filter(|l| !l.starts_with('\t') && !l.trim().is_empty())
                .take(12)
                .collect();
            problems.push(format!(
                "written tests, plain run {run}: status {:?}; {}{}",
                ran.status.map(|s| s.code()),
                failures.join(" | "),
                if failures.is_empty() {
                    ran.stderr.lines().last().unwrap_or("").to_string()
                } else {
                    String::new()
                }
            ));
        }
        if std::fs::read(cwd.join(PROJECT_FILE)).ok().as_deref() != Some(&b"<project/>"[..]) {
            problems.push(format!(
                "written tests, plain run {run}: {PROJECT_FILE} in the working directory changed"
            ));
        }
        let added: Vec<String> = std::fs::read_dir(&cwd)
            .expect("run dir")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|n| n != PROJECT_FILE)
            .collect();
        if !added.is_empty() {
            problems
                .push(format!("written tests, plain run {run}: added to the working directory: {added:?}"));
        }
        problems.extend(sb.escapes(&format!("written tests, plain run {run}")));
    }
}

/// The whole check of one class: `generate`, then the written tests in plain JVMs.
fn check(class: &str) -> (Sandbox, Option<Written>, Vec<String>) {
    let sb = Sandbox::new();
    let mut problems = Vec::new();
    let start = Instant::now();
    let written = generate(&sb, class, &mut problems);
    let generated = start.elapsed();
    if let Some(w) = &written {
        run_written(&sb, w, &mut problems);
    }
    // Shown with --nocapture: where the file's time goes.
    println!(
        "hostile.corpus.{class}: generate {:.1} s, written tests {:.1} s",
        generated.as_secs_f64(),
        (start.elapsed() - generated).as_secs_f64()
    );
    (sb, written, problems)
}

fn assert_no_problems(class: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "hostile.corpus.{class}: {} problem(s):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

/// The proof of a class whose damage is to the canary files: the unguarded call did `expected`.
fn assert_proof_damages(class: &str, expected: &[&str]) {
    let (sb, ran) = proof(class, &[]);
    let damage = sb.canary_damage();
    for e in expected {
        assert!(
            damage.iter().any(|d| d.contains(e)),
            "proof: {class} unguarded did not do {e:?}: {damage:?}\n{}\n{}",
            ran.stdout,
            ran.stderr
        );
    }
}

#[test]
fn janitor_deletes_no_canary() {
    assert_proof_damages("Janitor", &["canary victim.txt deleted"]);
    let (_sb, _, problems) = check("Janitor");
    assert_no_problems("Janitor", &problems);
}

/// A delete by a relative name, and one by the name made absolute from the working directory:
/// unguarded they remove the `pom.xml` of the working directory; the written tests, run where a
/// `pom.xml` is, leave it (the guards refuse relative names and the workers' working directory, so
/// the tests are cut before the calls).
#[test]
fn sweeper_deletes_no_project_file_by_a_relative_name() {
    let sb = Sandbox::new();
    std::fs::write(sb.root.path().join(PROJECT_FILE), "<project/>").expect("project file");
    let mut cmd = java();
    cmd.arg("-cp")
        .arg(test_support::workspace_root().join(CLASSPATH))
        .args(["hostile.corpus.Proof", "Sweeper"])
        .current_dir(sb.root.path());
    let ran = run_limited(cmd, b"", sb.root.path());
    // `tidy` deleted it by its relative name, `purge` (after the proof put it back) by the absolute
    // name the working directory gives it.
    assert_eq!(ran.stdout.trim(), "true true", "proof: {}", ran.stderr);
    assert!(!sb.root.path().join(PROJECT_FILE).exists(), "proof: the unguarded calls left {PROJECT_FILE}");
    let (_sb, _, problems) = check("Sweeper");
    assert_no_problems("Sweeper", &problems);
}

#[test]
fn scribbler_writes_renames_and_creates_nothing() {
    assert_proof_damages(
        "Scribbler",
        &[
            "canary victim.txt changed",
            "canary keep.txt changed",
            "canary log.txt deleted",
            "file log.txt.1 added",
            "file intruder-1.txt added",
        ],
    );
    let (_sb, _, problems) = check("Scribbler");
    assert_no_problems("Scribbler", &problems);
}

/// Temporary files through the JDK's factories (`File.createTempFile`, `Files.createTempFile`,
/// `Files.createTempDirectory`): unguarded, `keep` leaves a file in `java.io.tmpdir` and `intrude`
/// a directory among the canaries; through `generate` and the written tests, nothing is left in
/// the temporary directories and the canaries are intact (the workers' `java.io.tmpdir` is in their
/// scratch directory, the guards keep temporary files there, and verification drops a test that
/// leaves a file behind). The workers already refuse `keep(3)`'s statement, which leaves its file
/// in `java.io.tmpdir` (issue 20), so verification finds no test to drop (before, the search's tests
/// with `keep` went whole at verification). Since 2026-11-30 a test a guard refused covers nothing
/// in the search either (docs/architecture.md), so the search does not report `keep`'s `n > 2`
/// side covered and no such test reaches the cut (before, the archive kept one and it was cut).
#[test]
fn litterer_leaves_no_temporary_file() {
    let (sb, ran) = proof("Litterer", &[]);
    let damage = sb.canary_damage();
    assert!(
        damage.iter().any(|d| d.contains("intruder")),
        "proof: {damage:?}\n{}\n{}",
        ran.stdout,
        ran.stderr
    );
    assert!(!sb.leaks_in(&sb.tmp).is_empty(), "proof: keep left a file in java.io.tmpdir\n{}", ran.stdout);
    let (_sb, written, problems) = check("Litterer");
    assert_no_problems("Litterer", &problems);
    let report = &written.expect("Litterer: tests written").report;
    let refused = report["guards"]["refused"].to_string();
    assert_eq!(refused, "[]", "the search kept a test a guard refused");
    let uncovered = report["uncovered"].to_string();
    assert!(uncovered.contains("(hostile/corpus/Litterer:17)"), "keep's n > 2 reported covered: {uncovered}");
    assert_eq!(
        report["verification"]["failing_tests_dropped"].as_u64(),
        Some(0),
        "verification: {}; log: {}",
        report["verification"],
        report["log"]
    );
}

/// The exiting class keeps its tests: besides the common checks, the written suite covers at least
/// 90 % of the line and branch goals the search covered, minus the exiting statements. The search's
/// figures come from the engine's own search (`engine::generate`, same seed, evaluations and
/// criteria as `generate`), scored by the same final coverage as report.json: a line counts when it
/// completes, a branch when its target block does, so the `System.exit` line and the blocks calling
/// `usage` count for neither. What the search covers only through an exiting test, and a test cut
/// before the exit cannot keep: the line in `usage` before the exit (the message to stderr), and 7
/// branches whose every path ends in `usage`: `command == null` and `command.isEmpty()` taken, the
/// default edge of the `hashCode` switch javac writes for the switch on strings (an unknown command),
/// and the four `equals` checks failing after a matching hash code (the index stays -1: the default).
#[test]
fn quitter_exits_no_jvm_and_keeps_its_tests() {
    let (_proof_sb, ran) = proof("Quitter", &[]);
    assert_eq!(
        ran.status.and_then(|s| s.code()),
        Some(64),
        "proof: Quitter exits with EX_USAGE\n{}",
        ran.stderr
    );

    let (_sb, written, mut problems) = check("Quitter");
    let config = engine::GenerateConfig {
        classpath: vec![test_support::fixture_classes("hostile")],
        class: "hostile.corpus.Quitter".into(),
        criteria: engine::DEFAULT_CRITERIA.to_vec(),
        algorithm: search::Algorithm::DynaMosa,
        goal_selection: engine::GoalSelection::All,
        budget: search::Budget {
            time: Some(Duration::from_secs(BUDGET_SECONDS)),
            evaluations: Some(EVALUATIONS),
        },
        seed: 1,
        workers: 1,
        timeout_ms: 3000,
        stop_when_covered: None,
        dse: engine::DseConfig::off(),
        flags: false,
        stubs: false,
        files: false,
        package_generators: false,
        format_strings: false,
        ocg: engine::OcgConfig::off(),
        sushi: engine::SushiConfig::off(),
        local_search: engine::LocalSearchConfig::off(),
        jvm_args: Vec::new(),
        code_constants: false,
    };
    // Runs in this process, so its workers' scratch directories go to this process's temporary
    // directory, which is not checked here (`generate`'s is, above).
    let searched = engine::generate(&config).expect("search");
    const EXITING: [(engine::Criterion, usize); 2] =
        [(engine::Criterion::Line, 1), (engine::Criterion::Branch, 7)];
    for (criterion, exiting) in EXITING {
        let by_search = searched.criterion(criterion).map_or(0, |c| c.covered);
        let kept = written
            .as_ref()
            .and_then(|w| w.report["criteria"][criterion.name()]["covered"].as_u64())
            .unwrap_or(0) as usize;
        let needed = (by_search.saturating_sub(exiting) * 9).div_ceil(10);
        if kept < needed {
            problems.push(format!(
                "{}: the written tests cover {kept} goals, the search {by_search} ({exiting} only by exiting): \
                 fewer than 90 % kept",
                criterion.name()
            ));
        }
    }
    assert_no_problems("Quitter", &problems);
}

#[test]
fn ticker_thread_leaves_nothing_in_tmp() {
    let (sb, ran) = proof("Ticker", &[]);
    let leaks = sb.leaks_in(&sb.tmp);
    assert!(!leaks.is_empty(), "proof: the ticker wrote into java.io.tmpdir\n{}\n{}", ran.stdout, ran.stderr);
    let (_sb, _, problems) = check("Ticker");
    assert_no_problems("Ticker", &problems);
}

#[test]
fn prompt_reading_stdin_passes() {
    let (_sb, ran) = proof("Prompt", &[]);
    assert_eq!(ran.stdout.trim(), "hello", "proof: Prompt reads System.in\n{}", ran.stderr);
    let (_sb, _, problems) = check("Prompt");
    assert_no_problems("Prompt", &problems);
}

#[test]
fn caller_connects_nowhere() {
    let (sb, ran) = proof("Caller", &[]);
    assert_eq!(sb.connections(), 1, "proof: Caller reaches the listener\n{}\n{}", ran.stdout, ran.stderr);
    let (_sb, _, problems) = check("Caller");
    assert_no_problems("Caller", &problems);
}

#[test]
fn spawner_starts_no_process() {
    assert_proof_damages("Spawner", &["file spawned-1.txt added"]);
    let (_sb, _, problems) = check("Spawner");
    assert_no_problems("Spawner", &problems);
}

#[test]
fn tinkerer_global_state_does_not_break_the_tests() {
    let (sb, ran) = proof("Tinkerer", &[]);
    let expected = format!("{} true 3,50 GMT+05:00", sb.canary.display());
    assert_eq!(ran.stdout.trim(), expected, "proof: Tinkerer changes JVM-wide state\n{}", ran.stderr);
    let (_sb, _, problems) = check("Tinkerer");
    assert_no_problems("Tinkerer", &problems);
}

#[test]
fn hooker_shutdown_hooks_delete_no_canary() {
    assert_proof_damages("Hooker", &["canary hook.txt deleted"]);
    let (_sb, _, problems) = check("Hooker");
    assert_no_problems("Hooker", &problems);
}

#[test]
fn hoarder_filling_the_heap_passes() {
    let (_sb, ran) = proof("Hoarder", &["-Xmx32m"]);
    assert!(
        ran.stdout.starts_with("OutOfMemoryError after"),
        "proof: Hoarder fills the heap\n{}",
        ran.stderr
    );
    let (_sb, _, problems) = check("Hoarder");
    assert_no_problems("Hoarder", &problems);
}
