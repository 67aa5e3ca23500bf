//! What the hostile corpus's test files (`tests/hostile.rs`, `tests/hostile_io.rs`)
//! share: a canary world per class, `suitesmith generate` on one class of
//! `fixtures/java/hostile/corpus`, the written tests compiled and run in fresh plain JVMs, an
//! unguarded proof run, and the checks after each phase (canaries, temporary directories, the
//! test's listener). It is included by `#[path]` from those files only, not from `common/mod.rs`,
//! so the other test files do not compile it.
//!
//! Every process that runs code under test (`generate` with its workers and verification JVMs, the
//! proof JVMs, javac and the JVMs of the written tests) is built by [`confined`]: when this test
//! process is root, as in CI, it runs as the unprivileged uid 65534, so that a hole in the
//! product's containment damages only the canaries of the test's own temporary tree (and fails the
//! test) instead of the machine.
//!
//! The classes find their canaries through the environment (`HOSTILE_CANARY_DIR`, `HOSTILE_PORT`):
//! `generate` passes its environment to the worker and verification JVMs, and so does a user's
//! `java`, while a system property would reach none of them. Every problem of a class is collected
//! and reported together, so one failing run shows everything that went wrong.

// Each test file uses part of what is here.
#![allow(dead_code)]
// Tests run the binary, javac and java as a user would.
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;
use std::io::Write;
use std::net::TcpListener;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime};

/// A file of the user's project in the working directory of the written tests' runs.
pub const PROJECT_FILE: &str = "pom.xml";
/// Evaluations per search: every class here is small, and each file must stay within a few
/// minutes on two shared cores. `--budget` caps each search in time as well: the ticker's leaked
/// threads make every worker restart, so its 400 evaluations would take a minute.
pub const EVALUATIONS: u64 = 400;
pub const BUDGET_SECONDS: u64 = 30;
/// Fresh plain JVMs the written tests must pass in, as the engine's own verification runs them.
pub const RUNS: usize = 5;
pub const JUNIT4: &[&str] = &["/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"];
/// Debian's Guava 31.1, the library of the reported escape; `Purger` deletes through it.
pub const GUAVA: &str = "/usr/share/java/guava.jar";
/// Where a JVM on Linux puts `java.io.tmpdir` when not told otherwise: `/tmp`, whatever `TMPDIR` says.
/// The ticker's files land there unless something points the property elsewhere.
pub const JAVA_DEFAULT_TMPDIR: &str = "/tmp";
/// How long one plain JVM (a proof run or a run of the written tests) may take before it is killed.
pub const JVM_LIMIT: Duration = Duration::from_secs(120);

/// The canary files of every class: each class aims at some of them (`victim.txt` is deleted or
/// overwritten, `log.txt` appended to or renamed, `keep.txt` replaced, `hook.txt` deleted at exit).
pub const CANARIES: &[&str] = &["victim.txt", "keep.txt", "log.txt", "hook.txt"];
/// Every canary's permissions and modification time after [`Sandbox::restore`], so that a change
/// of metadata alone (`Attributer`, `Marker`) shows as damage.
const CANARY_MODE: u32 = 0o644;
const CANARY_MTIME_SECS: u64 = 1_000_000_000;

/// The unprivileged user (and group) the processes of these tests run as when the test runs as
/// root: `nobody` on Debian.
const NOBODY: u32 = 65534;

/// Where the processes of these tests find the binary and the fixture classes, and whether they
/// are confined.
pub struct Staged {
    /// True when this process is root: every process running code under test then runs as
    /// [`NOBODY`].
    pub confine: bool,
    pub suitesmith: PathBuf,
    /// `fixtures/classes/hostile`, or a copy uid 65534 can read.
    pub classes: PathBuf,
}

/// This process's effective uid is 0, read from `/proc/self/status` (its `Uid:` line holds the
/// real, effective, saved and file-system uids).
fn running_as_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").expect("read /proc/self/status");
    let uid = status.lines().find_map(|l| l.strip_prefix("Uid:")).expect("a Uid: line");
    uid.split_whitespace().nth(1) == Some("0")
}

/// The binary and the fixture classes, staged once per test process. As root they are copied to
/// `<temp dir>/suitesmith-hostile-<pid>` (world-readable): the checkout may live where uid 65534
/// cannot read, such as under `/root`. Copies left by test processes that are gone are removed
/// here, as a static is never dropped.
pub fn staged() -> &'static Staged {
    static STAGED: OnceLock<Staged> = OnceLock::new();
    STAGED.get_or_init(|| {
        let binary = PathBuf::from(env!("CARGO_BIN_EXE_suitesmith"));
        let classes = test_support::fixture_classes("hostile");
        if !running_as_root() {
            return Staged { confine: false, suitesmith: binary, classes };
        }
        let base = std::env::temp_dir();
        for e in std::fs::read_dir(&base).expect("read the temp dir").flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = name.strip_prefix("suitesmith-hostile-").and_then(|p| p.parse::<u32>().ok());
            if pid.is_some_and(|p| p != std::process::id() && !Path::new(&format!("/proc/{p}")).exists()) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
        let dir = base.join(format!("suitesmith-hostile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).expect("staging dir");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let suitesmith = dir.join("suitesmith");
        std::fs::copy(&binary, &suitesmith).expect("copy the binary");
        std::fs::set_permissions(&suitesmith, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let staged_classes = dir.join("classes");
        copy_tree(&classes, &staged_classes);
        let java = test_support::java_home().join("bin/java");
        for p in [&suitesmith, &staged_classes, &java]
            .into_iter()
            .cloned()
            .chain(JUNIT4.iter().chain([&GUAVA]).map(PathBuf::from))
        {
            assert!(
                others_may_read(&p),
                "{} must be readable by uid {NOBODY}, which runs the hostile tests' processes as root",
                p.display()
            );
        }
        Staged { confine: true, suitesmith, classes: staged_classes }
    })
}

/// Copies the directory `from` to `to` (made), files world-readable.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    for e in std::fs::read_dir(from).expect("read fixtures").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().expect("type").is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copy a fixture");
            std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        }
    }
}

/// Whether any user may read `p` (a file, or list a directory) and reach it from `/`.
fn others_may_read(p: &Path) -> bool {
    let Ok(p) = p.canonicalize() else { return false };
    let readable = std::fs::metadata(&p).is_ok_and(|m| m.mode() & 0o004 != 0);
    readable && p.ancestors().skip(1).all(|a| std::fs::metadata(a).is_ok_and(|m| m.mode() & 0o001 != 0))
}

/// Gives `root` and everything under it to [`NOBODY`], without following symbolic links (the code
/// under test may have left some, and root must not change the owner of what they point at).
fn hand_over(root: &Path) {
    let Ok(meta) = std::fs::symlink_metadata(root) else { return };
    std::os::unix::fs::lchown(root, Some(NOBODY), Some(NOBODY)).expect("chown to nobody");
    if meta.is_dir() {
        for e in std::fs::read_dir(root).expect("read_dir").flatten() {
            hand_over(&e.path());
        }
    }
}

/// A command for `program` with every process it starts confined to what the test allows: the
/// one place that starts a process running code under test, or a tool over what that code wrote.
///
/// Why: CI runs these tests as root, and the previous version of this product deleted a machine's
/// `/etc` through a hole in its guards. A hole must fail a test, not damage the CI machine. So as
/// root the command runs under `setpriv` (util-linux) as uid and gid 65534 with no supplementary
/// groups and no new privileges, after `root` (the test's own temporary tree: canaries, `TMPDIR`,
/// output, working directories) is given to that uid: the canaries stay writable, so a hole still
/// deletes them and the test fails, while the rest of the machine is not writable by it. `HOME`
/// is `root` as well (the runtime jar's cache goes there, not into root's home). When the test is
/// not root, the command runs directly with the same environment: the user's own rights are then
/// all a hole can reach.
pub fn confined(program: &Path, root: &Path) -> Command {
    let staged = staged();
    let mut cmd = if staged.confine {
        hand_over(root);
        let mut c = Command::new("setpriv");
        c.args([
            format!("--reuid={NOBODY}"),
            format!("--regid={NOBODY}"),
            "--clear-groups".into(),
            "--no-new-privs".into(),
            "--".into(),
        ])
        .arg(program);
        c
    } else {
        Command::new(program)
    };
    cmd.env("HOME", root).env_remove("XDG_CACHE_HOME").current_dir(root);
    cmd
}

/// One class's world: a root directory of its own holding the canary directory, the `TMPDIR` given
/// to `generate` and the output, plus a loopback listener whose port the classes connect to.
pub struct Sandbox {
    pub root: tempfile::TempDir,
    /// The canary directory's name; the ticker names its files after it, so files under this prefix
    /// in a temporary directory were left by this sandbox's runs and no one else's.
    pub token: String,
    pub canary: PathBuf,
    pub tmp: PathBuf,
    listener: TcpListener,
}

/// One entry of the canary directory as the checks compare it.
#[derive(PartialEq, Eq)]
enum Entry {
    File {
        bytes: Vec<u8>,
        mode: u32,
        mtime: i64,
    },
    /// A symbolic link and its target; never followed.
    Link(PathBuf),
    Dir,
    Other,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        // Staged first: it checks that uid 65534 can reach the temporary directory.
        let _ = staged();
        let root = tempfile::Builder::new().prefix("hostile-").tempdir().expect("tempdir");
        let root_name = root.path().file_name().expect("name").to_string_lossy().into_owned();
        let token = format!("canary-{root_name}");
        let canary = root.path().join(&token);
        let tmp = root.path().join("tmp");
        std::fs::create_dir(&tmp).expect("tmp dir");
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        listener.set_nonblocking(true).expect("nonblocking");
        let sb = Sandbox { root, token, canary, tmp, listener };
        sb.restore();
        let parent = sb.root.path().parent().expect("parent");
        assert!(
            !staged().confine || others_may_read(parent),
            "{} must be reachable by uid {NOBODY}, which runs the hostile tests' processes as root \
             (point TMPDIR at /tmp)",
            parent.display()
        );
        sb
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// The environment of every process started for this sandbox.
    pub fn env(&self) -> Vec<(String, String)> {
        let port = self.listener.local_addr().expect("addr").port();
        vec![
            ("HOSTILE_CANARY_DIR".into(), self.canary.display().to_string()),
            ("HOSTILE_PORT".into(), port.to_string()),
            ("TMPDIR".into(), self.tmp.display().to_string()),
        ]
    }

    fn expected_canaries(&self) -> BTreeMap<String, Entry> {
        CANARIES
            .iter()
            .map(|n| {
                let bytes = format!("canary {n} of {}\n", self.token).into_bytes();
                (n.to_string(), Entry::File { bytes, mode: CANARY_MODE, mtime: CANARY_MTIME_SECS as i64 })
            })
            .collect()
    }

    /// The canary directory's entries; `None` when the directory itself is gone. Links are not
    /// followed and only regular files are read (a FIFO left there would block a read).
    fn canaries(&self) -> Option<BTreeMap<String, Entry>> {
        let mut found = BTreeMap::new();
        for e in std::fs::read_dir(&self.canary).ok()? {
            let p = e.expect("entry").path();
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            let meta = std::fs::symlink_metadata(&p).expect("lstat");
            let entry = if meta.file_type().is_symlink() {
                Entry::Link(std::fs::read_link(&p).unwrap_or_default())
            } else if meta.is_dir() {
                Entry::Dir
            } else if meta.is_file() {
                Entry::File {
                    bytes: std::fs::read(&p).unwrap_or_else(|e| format!("<unreadable: {e}>").into_bytes()),
                    mode: meta.mode() & 0o7777,
                    mtime: meta.mtime(),
                }
            } else {
                Entry::Other
            };
            found.insert(name, entry);
        }
        Some(found)
    }

    /// Puts the canary directory back as `new` made it (bytes, mode, modification time), so each
    /// phase is judged on its own. Links are removed, never followed.
    pub fn restore(&self) {
        std::fs::create_dir_all(&self.canary).expect("canary dir");
        std::fs::set_permissions(&self.canary, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        for e in std::fs::read_dir(&self.canary).expect("read canary dir") {
            let p = e.expect("entry").path();
            if std::fs::symlink_metadata(&p).expect("lstat").is_dir() {
                std::fs::remove_dir_all(&p).expect("remove");
            } else {
                std::fs::remove_file(&p).expect("remove");
            }
        }
        let mtime = SystemTime::UNIX_EPOCH + Duration::from_secs(CANARY_MTIME_SECS);
        for (name, entry) in self.expected_canaries() {
            let Entry::File { bytes, mode, .. } = entry else { unreachable!("canaries are files") };
            let p = self.canary.join(name);
            std::fs::write(&p, bytes).expect("write canary");
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).expect("chmod canary");
            std::fs::File::options().write(true).open(&p).and_then(|f| f.set_modified(mtime)).expect("mtime");
        }
    }

    /// What happened to the canaries, one line per file deleted, changed or added; empty if nothing.
    pub fn canary_damage(&self) -> Vec<String> {
        let want = self.expected_canaries();
        let Some(got) = self.canaries() else { return vec!["canary directory deleted".into()] };
        let mut out = Vec::new();
        for (name, want) in &want {
            let (Entry::File { bytes, mode, mtime }, Some(got)) = (want, got.get(name)) else {
                out.push(format!("canary {name} deleted"));
                continue;
            };
            match got {
                Entry::File { bytes: b, mode: m, mtime: t } => {
                    if b != bytes {
                        out.push(format!("canary {name} changed to {:?}", String::from_utf8_lossy(b)));
                    }
                    if m != mode {
                        out.push(format!("canary {name}'s mode changed to {m:o}"));
                    }
                    if t != mtime {
                        out.push(format!("canary {name}'s modification time changed to {t}"));
                    }
                }
                Entry::Link(to) => out.push(format!("canary {name} replaced by a link to {}", to.display())),
                Entry::Dir | Entry::Other => out.push(format!("canary {name} replaced by a non-file")),
            }
        }
        out.extend(got.iter().filter(|(n, _)| !want.contains_key(*n)).map(|(n, e)| match e {
            Entry::Link(to) => format!("file {n} added to the canaries (a link to {})", to.display()),
            Entry::Dir => format!("file {n} added to the canaries (a directory)"),
            _ => format!("file {n} added to the canaries"),
        }));
        out
    }

    /// Entries of a directory, by name.
    pub fn entries(dir: &Path) -> Vec<String> {
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
    pub fn leaks_in(&self, dir: &Path) -> Vec<String> {
        let leaks: Vec<String> =
            Self::entries(dir).into_iter().filter(|n| n.starts_with(&self.token)).collect();
        for n in &leaks {
            let _ = std::fs::remove_file(dir.join(n));
        }
        leaks
    }

    /// Connections that reached the listener since the last call.
    pub fn connections(&self) -> usize {
        let mut n = 0;
        while self.listener.accept().is_ok() {
            n += 1;
        }
        n
    }

    /// Every check that holds after any phase (canaries, Java's default temporary directory, the
    /// listener), as problems prefixed with `phase`; the canaries are restored afterwards.
    pub fn escapes(&self, phase: &str) -> Vec<String> {
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
pub struct Ran {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `cmd` with `input` on stdin (closed after it), its output in files in `scratch` (no pipe to
/// fill), and kills it at [`JVM_LIMIT`]. `setpriv` execs the program, so the kill reaches the JVM.
pub fn run_limited(mut cmd: Command, input: &[u8], scratch: &Path) -> Ran {
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

/// A plain `java` for `sb`, confined, in `sb`'s root with its environment.
pub fn java(sb: &Sandbox) -> Command {
    let mut cmd = confined(&test_support::java_home().join("bin/java"), sb.root.path());
    cmd.envs(sb.env());
    cmd
}

/// The classpath of the fixture classes plus `jars`.
fn classpath(jars: &[&str]) -> String {
    std::iter::once(staged().classes.display().to_string())
        .chain(jars.iter().map(|j| j.to_string()))
        .collect::<Vec<_>>()
        .join(":")
}

/// The proof: `what`'s hostile call (`Proof`'s argument: a class, or `Class.method`) run once
/// without any guard in a plain JVM against a second sandbox (`java.io.tmpdir` pointed into it, so
/// nothing lands in `/tmp`), with "hello" on stdin. Guava is on its classpath for `Purger`.
pub fn proof(what: &str, jvm_args: &[&str]) -> (Sandbox, Ran) {
    let sb = Sandbox::new();
    let mut cmd = java(&sb);
    cmd.arg(format!("-Djava.io.tmpdir={}", sb.tmp.display()))
        .args(jvm_args)
        .arg("-cp")
        .arg(classpath(&[GUAVA]))
        .args(["hostile.corpus.Proof", what]);
    let ran = run_limited(cmd, b"hello\n", sb.root.path());
    (sb, ran)
}

/// What `generate` wrote for one class, from report.json.
pub struct Written {
    /// The class's entry in report.json.
    pub report: serde_json::Value,
    /// The written test files, relative to the output directory.
    pub files: Vec<String>,
    /// Jars the class needs besides the fixtures, for the written tests' runs too.
    pub jars: Vec<String>,
}

/// `suitesmith generate` on `hostile.corpus.<class>` in `sb`, confined, with `jars` on the
/// classpath after the fixtures.
fn run_generate(sb: &Sandbox, class: &str, jars: &[&str]) -> Output {
    let mut cmd = confined(&staged().suitesmith, sb.root.path());
    cmd.args(["generate", "--classpath", &classpath(jars)])
        .args(["--class", &format!("hostile.corpus.{class}")])
        .args(["--evaluations", &EVALUATIONS.to_string()])
        .args(["--budget", &format!("{BUDGET_SECONDS}s")])
        .args(["--seed", "1", "--workers", "1", "--out"])
        .arg(sb.path("out"))
        .envs(sb.env());
    cmd.output().expect("run suitesmith")
}

/// Runs `generate` on `hostile.corpus.<class>` in `sb` and checks what may not happen during it.
pub fn generate(sb: &Sandbox, class: &str, jars: &[&str], problems: &mut Vec<String>) -> Option<Written> {
    let out = sb.path("out");
    let res = run_generate(sb, class, jars);
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
    Some(Written { report, files, jars: jars.iter().map(|j| j.to_string()).collect() })
}

/// Compiles the written tests and runs them in [`RUNS`] fresh plain JVMs (JUnitCore, the workers'
/// heap, stdin closed, each in a new working directory), checking each run passes and escapes nothing.
/// Stdin is closed as under a build tool in CI and in the engine's own verification: with a stdin
/// left open (a terminal, an IDE) `Prompt.ask(true, ..)` would wait for a line until JUnit's timeout,
/// which no guard of the workers prevents today.
pub fn run_written(sb: &Sandbox, written: &Written, problems: &mut Vec<String>) {
    if written.files.is_empty() {
        return;
    }
    let out = sb.path("out");
    let jars: Vec<&str> = JUNIT4.iter().copied().chain(written.jars.iter().map(String::as_str)).collect();
    let cp = classpath(&jars);
    let classes = sb.path("test-classes");
    let mut javac = confined(&test_support::java_home().join("bin/javac"), sb.root.path());
    javac
        .args(["-nowarn", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .args(["-cp", &cp])
        .args(written.files.iter().map(|f| out.join(f)));
    let javac = javac.output().expect("run javac");
    if !javac.status.success() {
        problems.push(format!("javac: {}", String::from_utf8_lossy(&javac.stderr)));
        return;
    }
    let names: Vec<String> =
        written.files.iter().map(|f| f.trim_end_matches(".java").replace('/', ".")).collect();
    let failed_before = problems.len();
    for run in 1..=RUNS {
        let cwd = sb.path(&format!("run-{run}"));
        std::fs::create_dir(&cwd).expect("run dir");
        // The user's project file a relative name would reach (`Sweeper`).
        std::fs::write(cwd.join(PROJECT_FILE), "<project/>").expect("project file");
        let mut cmd = java(sb);
        cmd.args(["-Xmx512m", "-cp"])
            .arg(format!("{}:{cp}", classes.display()))
            .arg("org.junit.runner.JUnitCore")
            .args(&names)
            .current_dir(&cwd);
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
    if problems.len() > failed_before {
        // What verification did with the suite that then failed for the user: how many rounds,
        // whether the post-processing budget cut them, which tests and assertions went.
        problems.push(format!(
            "the engine's verification: {}; its log: {}",
            written.report["verification"], written.report["log"]
        ));
    }
}

/// The whole check of one class: `generate`, then the written tests in plain JVMs.
pub fn check(class: &str) -> (Sandbox, Option<Written>, Vec<String>) {
    check_with(class, &[])
}

/// [`check`] with `jars` on the classpath of `generate` and of the written tests.
pub fn check_with(class: &str, jars: &[&str]) -> (Sandbox, Option<Written>, Vec<String>) {
    let sb = Sandbox::new();
    let mut problems = Vec::new();
    let start = Instant::now();
    let written = generate(&sb, class, jars, &mut problems);
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

pub fn assert_no_problems(class: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "hostile.corpus.{class}: {} problem(s):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

/// The proof of `what` (a class or `Class.method`) whose damage is to the canary files: the
/// unguarded call did each of `expected`.
pub fn assert_proof_damages(what: &str, expected: &[&str]) {
    let (sb, ran) = proof(what, &[]);
    let damage = sb.canary_damage();
    for e in expected {
        assert!(
            damage.iter().any(|d| d.contains(e)),
            "proof: {what} unguarded did not do {e:?}: {damage:?}\n{}\n{}",
            ran.stdout,
            ran.stderr
        );
    }
}

/// The common test of a class that damages canaries: its proof does each of `damage`, then
/// `generate` and the written tests leave everything intact.
pub fn assert_contained(class: &str, damage: &[&str]) {
    assert_proof_damages(class, damage);
    let (_sb, _, problems) = check(class);
    assert_no_problems(class, &problems);
}
