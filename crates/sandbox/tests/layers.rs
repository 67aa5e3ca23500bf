//! Each sandbox layer this machine has, on a real child process: the child is this test binary run
//! again (`probe_child`, which acts only when `SANDBOX_PROBE_DIR` names its world), confined by
//! `Confinement::install`, and it tries every way of changing a canary tree outside its writable
//! directory (write, truncate, delete, rename, link, symlink, directory, special file, permissions,
//! times), a write inside it, executing a file it is not allowed to, and a TCP connection to a
//! listener of ours. The parent then checks the canaries byte for byte and what the child saw.
//! A control run with no confinement shows that every attempt would have done damage.

// The test starts its own children (the crate itself never does).
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use sandbox::{Layer, Request, Sandbox};

const PROBE_ENV: &str = "SANDBOX_PROBE_DIR";
const PORT_ENV: &str = "SANDBOX_PROBE_PORT";
/// Starts each line of the probe's own output (the test harness prints around it).
const MARK: &str = "\nprobe: ";

/// The child's side: every attempt, one line each, `name ok` or `name denied <error>`.
#[test]
fn probe_child() {
    let Some(root) = std::env::var_os(PROBE_ENV).map(PathBuf::from) else { return };
    let canary = root.join("canary");
    let scratch = root.join("scratch");
    let mut out = String::new();
    let mut attempt = |name: &str, r: std::io::Result<()>| {
        out.push_str(&match r {
            Ok(()) => format!("{MARK}{name} ok\n"),
            Err(e) => format!("{MARK}{name} denied {e}\n"),
        });
    };
    attempt("write-inside", std::fs::write(scratch.join("made.txt"), "x"));
    attempt("delete-inside", std::fs::remove_file(scratch.join("made.txt")));
    attempt("write", std::fs::write(canary.join("victim.txt"), "overwritten"));
    attempt(
        "append",
        std::fs::OpenOptions::new()
            .append(true)
            .open(canary.join("log.txt"))
            .and_then(|mut f| f.write_all(b"more")),
    );
    attempt(
        "truncate",
        std::fs::OpenOptions::new().write(true).open(canary.join("keep.txt")).and_then(|f| f.set_len(0)),
    );
    attempt("delete", std::fs::remove_file(canary.join("hook.txt")));
    attempt("rename", std::fs::rename(canary.join("log.txt"), canary.join("moved.txt")));
    attempt("rename-out", std::fs::rename(canary.join("keep.txt"), scratch.join("stolen.txt")));
    attempt("create", std::fs::write(canary.join("new.txt"), "x"));
    attempt("mkdir", std::fs::create_dir(canary.join("sub")));
    attempt("rmdir", std::fs::remove_dir(canary.join("dir")));
    attempt("symlink", std::os::unix::fs::symlink("/", canary.join("link")));
    attempt("hardlink", std::fs::hard_link(canary.join("victim.txt"), scratch.join("hard.txt")));
    attempt(
        "chmod",
        std::fs::set_permissions(canary.join("victim.txt"), std::fs::Permissions::from_mode(0o600)),
    );
    attempt(
        "touch",
        std::fs::File::open(canary.join("victim.txt"))
            .and_then(|f| f.set_modified(std::time::SystemTime::UNIX_EPOCH)),
    );
    attempt(
        "exec",
        Command::new("/bin/true")
            .status()
            .and_then(|s| if s.success() { Ok(()) } else { Err(std::io::Error::other(format!("{s}"))) }),
    );
    let port = std::env::var(PORT_ENV).unwrap_or_default();
    attempt("connect", std::net::TcpStream::connect(format!("127.0.0.1:{port}")).map(drop));
    print!("{out}");
}

/// The canary tree as made: file name to its bytes, mode and modification time (the empty
/// directory `dir` too).
fn canaries() -> BTreeMap<String, (Vec<u8>, u32, i64)> {
    let mut all: BTreeMap<String, (Vec<u8>, u32, i64)> = CANARIES
        .iter()
        .map(|n| (n.to_string(), (format!("canary {n}\n").into_bytes(), 0o100666, CANARY_MTIME)))
        .collect();
    all.insert("dir".into(), (Vec::new(), 0o40777, CANARY_MTIME));
    all
}

const CANARIES: [&str; 4] = ["victim.txt", "log.txt", "keep.txt", "hook.txt"];
/// The canaries' modification time, set when they are made, so a `touch` shows.
const CANARY_MTIME: i64 = 1_000_000_000;

/// This test binary, copied once where any user may run it (the checkout may be where the User
/// layer's uid cannot read). Once, before any test spawns: a copy still open for writing in one
/// thread while another forks would make `exec` fail with "text file busy".
fn probe_exe() -> &'static Path {
    static EXE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    EXE.get_or_init(|| {
        let dir = tempfile::Builder::new().prefix("sandbox-probe-").tempdir().expect("tempdir").keep();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let exe = dir.join("probe");
        std::fs::copy(std::env::current_exe().expect("current exe"), &exe).expect("copy the test binary");
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        exe
    })
}

/// A world readable and writable by anyone (the User layer's uid must reach it): the test binary's
/// copy, a canary tree with one empty directory, and a scratch directory.
struct World {
    root: tempfile::TempDir,
    exe: PathBuf,
}

impl World {
    fn new() -> World {
        let root = tempfile::Builder::new().prefix("sandbox-layers-").tempdir().expect("tempdir");
        std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let exe = probe_exe().to_path_buf();
        let canary = root.path().join("canary");
        std::fs::create_dir_all(canary.join("dir")).expect("canary dir");
        for n in CANARIES {
            std::fs::write(canary.join(n), format!("canary {n}\n")).expect("canary");
        }
        for (n, (_, mode, mtime)) in canaries() {
            let p = canary.join(n);
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode & 0o777)).expect("chmod");
            let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(mtime as u64);
            std::fs::File::open(&p).and_then(|f| f.set_modified(when)).expect("mtime");
        }
        std::fs::set_permissions(&canary, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        std::fs::create_dir(root.path().join("scratch")).expect("scratch");
        World { root, exe }
    }

    fn path(&self, p: &str) -> PathBuf {
        self.root.path().join(p)
    }

    fn found(&self) -> BTreeMap<String, (Vec<u8>, u32, i64)> {
        use std::os::unix::fs::MetadataExt;
        let mut found = BTreeMap::new();
        for e in std::fs::read_dir(self.path("canary")).expect("read canary") {
            let p = e.expect("entry").path();
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            let meta = std::fs::symlink_metadata(&p).expect("metadata");
            found.insert(name, (std::fs::read(&p).unwrap_or_default(), meta.mode(), meta.mtime()));
        }
        found
    }

    /// Runs the probe confined by `sandbox` (or not at all), returns its lines by attempt.
    fn probe(&self, sandbox: Option<&Sandbox>) -> BTreeMap<String, String> {
        let listener = TcpListener::bind("127.0.0.1:0").expect("listener");
        let mut cmd = Command::new(&self.exe);
        cmd.args(["--exact", "probe_child", "--nocapture", "--test-threads=1"])
            .env(PROBE_ENV, self.root.path())
            .env(PORT_ENV, listener.local_addr().expect("addr").port().to_string())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        if let Some(sb) = sandbox {
            let scratch = self.path("scratch");
            Arc::new(sb.prepare(&[&scratch]).expect("prepare")).install(&mut cmd);
        }
        let mut child = cmd.spawn().expect("spawn the probe");
        let mut text = String::new();
        child.stdout.take().expect("stdout").read_to_string(&mut text).expect("read");
        let status = child.wait().expect("wait");
        assert!(status.success(), "the probe failed: {status}\n{text}");
        text.lines()
            .filter_map(|l| {
                let (name, rest) = l.strip_prefix(MARK.trim_start())?.split_once(' ')?;
                Some((name.to_string(), rest.to_string()))
            })
            .collect()
    }
}

/// Runs the probe under `request` and checks that nothing outside scratch changed.
fn contained_under(request: Request) -> Layer {
    let world = World::new();
    let sandbox = Sandbox::new(request, std::slice::from_ref(&world.exe)).expect("sandbox");
    let seen = world.probe(Some(&sandbox));
    assert_eq!(seen.get("write-inside").map(String::as_str), Some("ok"), "{seen:#?}");
    assert_eq!(seen.get("delete-inside").map(String::as_str), Some("ok"), "{seen:#?}");
    let mut escaped = Vec::new();
    for name in [
        "write",
        "append",
        "truncate",
        "delete",
        "rename",
        "rename-out",
        "create",
        "mkdir",
        "rmdir",
        "symlink",
        "hardlink",
        "chmod",
        "touch",
    ] {
        if !seen.get(name).is_some_and(|r| r.starts_with("denied")) {
            escaped.push(format!("{name}: {:?}", seen.get(name)));
        }
    }
    if !matches!(sandbox.layer(), Layer::User { .. }) {
        // Under the User layer the canaries, made writable for anyone, are the user's to change
        // by their mode; the point there is the rest of the machine, which the uid cannot touch.
        assert!(escaped.is_empty(), "{request:?} let through {escaped:#?}");
        assert_eq!(world.found(), canaries(), "{request:?}: the canary tree changed");
    }
    if let Layer::Landlock { abi } = sandbox.layer() {
        assert!(seen["exec"].starts_with("denied"), "Landlock lets /bin/true run: {seen:#?}");
        if *abi >= 4 {
            assert!(seen["connect"].starts_with("denied"), "Landlock ABI {abi} lets TCP through: {seen:#?}");
        }
    }
    sandbox.layer().clone()
}

#[test]
fn without_a_sandbox_every_attempt_does_damage() {
    let world = World::new();
    let seen = world.probe(None);
    let denied: Vec<_> = seen.iter().filter(|(_, r)| r.starts_with("denied")).collect();
    assert!(denied.is_empty(), "the control run was denied something: {denied:#?}");
    assert_ne!(world.found(), canaries());
}

#[test]
fn landlock_contains_writes_execution_and_tcp() {
    match Sandbox::new(Request::Landlock, &[]) {
        Ok(_) => assert!(matches!(contained_under(Request::Landlock), Layer::Landlock { .. })),
        // Only where the kernel has none; the project's machines report ABI 7.
        Err(e) => assert!(e.to_string().contains("Landlock"), "{e}"),
    }
}

#[test]
fn a_read_only_namespace_contains_writes() {
    match Sandbox::new(Request::Namespace, &[]) {
        Ok(_) => assert_eq!(contained_under(Request::Namespace), Layer::Namespace),
        Err(e) => assert!(e.to_string().contains("namespace"), "{e}"),
    }
}

#[test]
fn as_root_the_user_layer_runs_the_child_as_nobody() {
    // SAFETY-free check of the effective uid through /proc.
    let status = std::fs::read_to_string("/proc/self/status").expect("status");
    let root = status.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"));
    match Sandbox::new(Request::User, &[]) {
        Ok(_) => {
            assert!(root);
            let world = World::new();
            // A file only root may change: under the User layer the child must not.
            let owned = world.path("root-only.txt");
            std::fs::write(&owned, "root's").expect("write");
            std::fs::set_permissions(&owned, std::fs::Permissions::from_mode(0o644)).expect("chmod");
            let sandbox = Sandbox::new(Request::User, std::slice::from_ref(&world.exe)).expect("sandbox");
            let seen = world.probe(Some(&sandbox));
            assert_eq!(seen.get("write-inside").map(String::as_str), Some("ok"), "{seen:#?}");
            assert_eq!(std::fs::read_to_string(&owned).expect("read"), "root's");
            let scratch_owner =
                std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(world.path("scratch")).expect("meta"));
            assert_eq!(
                scratch_owner,
                sandbox::UNPRIVILEGED.0,
                "the scratch directory is given to the unprivileged user"
            );
        }
        Err(e) => assert!(!root && e.to_string().contains("root"), "{e}"),
    }
}

#[test]
fn required_refuses_nothing_where_a_layer_exists_and_auto_prefers_landlock() {
    let auto = Sandbox::new(Request::Auto, &[]).expect("auto never fails");
    if Sandbox::new(Request::Landlock, &[]).is_ok() {
        assert!(matches!(auto.layer(), Layer::Landlock { .. }));
    }
    match Sandbox::new(Request::Required, &[]) {
        Ok(s) => assert!(s.layer().contains()),
        Err(e) => assert!(!auto.layer().contains(), "{e}"),
    }
    assert!("bogus".parse::<Request>().is_err());
    let _ = Path::new("/");
}
