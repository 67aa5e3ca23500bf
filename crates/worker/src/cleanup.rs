//! The process-wide registry of what a run must not leave behind: every child process this crate
//! starts ([`spawn`]) and every scratch directory it makes ([`scratch_dir`]).
//!
//! Normally each goes with its owner: a [`TrackedChild`] kills and reaps its process when dropped,
//! a [`ScratchDir`] removes its tree when dropped, and a `Worker` holds its child before its
//! directory, so the JVM is gone before its directory is removed. Owners never drop when the
//! process is stopped by a signal, so the binary's handler calls [`terminate`]: it kills and reaps
//! every live child, removes every live directory and refuses anything started after it. All of it
//! runs under the registry's one lock, which creation and removal take too, so a directory or a
//! child made while the handler runs is either in its lists or refused (and a directory is never
//! half removed when the process exits).

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

#[derive(Debug)]
struct Registry {
    next: u64,
    children: BTreeMap<u64, Arc<Mutex<Child>>>,
    dirs: BTreeMap<u64, PathBuf>,
}

static REGISTRY: Mutex<Registry> =
    Mutex::new(Registry { next: 0, children: BTreeMap::new(), dirs: BTreeMap::new() });

/// Set (under the lock) by [`terminate`]; read without it, so that a thread asking whether to go on
/// never waits for a handler that holds the lock until the process exits.
static TERMINATING: AtomicBool = AtomicBool::new(false);

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

fn lock(child: &Mutex<Child>) -> MutexGuard<'_, Child> {
    child.lock().unwrap_or_else(PoisonError::into_inner)
}

fn refused() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "suitesmith is terminating")
}

/// Whether [`terminate`] has been called: the run is being stopped, nothing more is to be started
/// or written.
pub fn terminating() -> bool {
    TERMINATING.load(Ordering::SeqCst)
}

/// A child process started by [`spawn`]; killed and reaped when dropped.
#[derive(Debug)]
pub struct TrackedChild {
    key: u64,
    pid: u32,
    child: Arc<Mutex<Child>>,
}

/// The pipes [`spawn`] took from the child (those the command asked to be piped).
#[derive(Debug)]
pub struct Pipes {
    pub stdin: Option<ChildStdin>,
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
}

/// Starts `cmd` and registers the child; refused once [`terminate`] has run.
pub fn spawn(cmd: &mut Command) -> io::Result<(TrackedChild, Pipes)> {
    let mut reg = registry();
    if terminating() {
        return Err(refused());
    }
    let mut child = cmd.spawn()?;
    let pipes = Pipes { stdin: child.stdin.take(), stdout: child.stdout.take(), stderr: child.stderr.take() };
    let (key, pid) = (reg.next, child.id());
    reg.next += 1;
    let child = Arc::new(Mutex::new(child));
    reg.children.insert(key, Arc::clone(&child));
    Ok((TrackedChild { key, pid, child }, pipes))
}

impl TrackedChild {
    pub fn id(&self) -> u32 {
        self.pid
    }

    /// `Child::kill`: `Ok` too when the child has already been reaped.
    pub fn kill(&self) -> io::Result<()> {
        lock(&self.child).kill()
    }

    /// `Child::wait`. Call it only on a child that is ending (killed, or told to exit): the child is
    /// locked meanwhile, and [`terminate`] needs it.
    pub fn wait(&self) -> io::Result<ExitStatus> {
        lock(&self.child).wait()
    }

    pub fn try_wait(&self) -> io::Result<Option<ExitStatus>> {
        lock(&self.child).try_wait()
    }

    /// Kills the child and waits for it to end, so it no longer writes anywhere.
    pub fn kill_and_reap(&self) {
        let mut c = lock(&self.child);
        let _ = c.kill();
        let _ = c.wait();
    }
}

impl Drop for TrackedChild {
    fn drop(&mut self) {
        // No orphan processes (EvoSuite issue #121); the child's lock is released before the
        // registry's is taken ([`terminate`] takes them the other way round).
        self.kill_and_reap();
        registry().children.remove(&self.key);
    }
}

/// The working directory of a worker or a contained verification JVM, below its scratch directory.
/// It stands for the user's project: the guards refuse writes in it (`Guards.userDirsBelow`), so a
/// relative name made absolute there is refused in the workers, in verification and so never
/// written, as a relative name is.
pub const WORKING_DIR: &str = "cwd";

/// A fresh directory `$TMPDIR/<prefix>XXXXXX`, removed with everything in it when dropped.
#[derive(Debug)]
pub struct ScratchDir {
    key: u64,
    path: PathBuf,
}

/// Creates and registers a [`ScratchDir`]; refused once [`terminate`] has run.
pub fn scratch_dir(prefix: &str) -> io::Result<ScratchDir> {
    let mut reg = registry();
    if terminating() {
        return Err(refused());
    }
    // `keep`: removal is the registry's (under its lock), not `TempDir`'s.
    let path = tempfile::Builder::new().prefix(prefix).tempdir()?.keep();
    let key = reg.next;
    reg.next += 1;
    reg.dirs.insert(key, path.clone());
    Ok(ScratchDir { key, path })
}

impl ScratchDir {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let mut reg = registry();
        reg.dirs.remove(&self.key);
        remove_tree(&self.path);
    }
}

/// Removes `path` and everything in it. The code under test may have left directories without
/// write permission in its scratch directory (their entries cannot be unlinked then): those are
/// made writable and the removal is tried again.
fn remove_tree(path: &Path) {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            make_writable(path);
            let _ = std::fs::remove_dir_all(path);
        }
        _ => {}
    }
}

fn make_writable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::symlink_metadata(dir) else { return };
    if !meta.is_dir() {
        return;
    }
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(meta.permissions().mode() | 0o700));
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        make_writable(&entry.path());
    }
}

/// What [`terminate`] returns: the registry, locked.
#[derive(Debug)]
pub struct Terminated {
    _registry: MutexGuard<'static, Registry>,
}

/// Stops everything: from now on [`spawn`] and [`scratch_dir`] refuse, every live child is killed and
/// reaped, and every live scratch directory removed. For a signal handler about to exit the
/// process: keep the returned value until `std::process::exit`, so that no thread creates, removes
/// or writes (see [`unless_terminating`]) anything in between; such a thread waits for the exit.
pub fn terminate() -> Terminated {
    let mut reg = registry();
    TERMINATING.store(true, Ordering::SeqCst);
    for child in reg.children.values() {
        let mut c = lock(child);
        let _ = c.kill();
        let _ = c.wait();
    }
    for dir in reg.dirs.values() {
        remove_tree(dir);
    }
    reg.children.clear();
    reg.dirs.clear();
    Terminated { _registry: reg }
}

/// Runs `f` (writing a run's output, say) unless [`terminate`] has been called; while `f` runs,
/// `terminate` waits. So output is written whole or not at all. `f` runs under the registry's lock:
/// it must not start a child or make or drop a [`ScratchDir`].
pub fn unless_terminating<T>(f: impl FnOnce() -> T) -> Option<T> {
    let _reg = registry();
    if terminating() { None } else { Some(f()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory the code under test made read-only, with a file in it, still goes.
    #[test]
    fn a_scratch_dir_with_a_read_only_subdirectory_is_removed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch_dir("suitesmith-cleanup-test-").expect("scratch");
        let path = dir.path().to_path_buf();
        let sub = path.join("ro");
        std::fs::create_dir(&sub).expect("mkdir");
        std::fs::write(sub.join("f"), b"x").expect("write");
        std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o500)).expect("chmod");
        drop(dir);
        assert!(!path.exists(), "{} is still there", path.display());
    }
}
