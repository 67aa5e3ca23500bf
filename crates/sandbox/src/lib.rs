//! The operating-system sandbox of every process that runs code under test (DESIGN.md §10, layer 1):
//! writes, removals, renames, truncation, links and device nodes only below the directories the
//! caller names, whoever the user is (root included); execution only of the JDK's own files; no TCP;
//! no signals to processes outside; limits on file size, processes and core dumps.
//!
//! Three layers, the first available one in force ([`Request::Auto`]):
//! 1. **Landlock** (Linux 5.13+): an unprivileged LSM policy the child applies to itself before
//!    `exec`; it holds for root too, and for every process the child starts.
//! 2. **An unprivileged uid** (65534) when the engine is root and Landlock is missing: the child
//!    drops its groups, gid and uid before `exec`; the writable directories are given to that uid.
//! 3. **A user and mount namespace** whose every mount is read-only except bind mounts of the
//!    writable directories, when neither of the above is to be had.
//!
//! The crate never starts a process (that is `worker`'s job). A caller builds a [`Sandbox`] once,
//! asks it for a [`Confinement`] per child ([`Sandbox::prepare`], in the parent: it opens files,
//! builds the Landlock ruleset, formats the namespace's maps), and calls [`Confinement::enter`]
//! between `fork` and `exec` (`CommandExt::pre_exec`): `enter` makes system calls only, with no
//! allocation and no lock, as the child of a multi-threaded parent must.
//!
//! On top of each layer, a seccomp filter refuses the calls that change files' metadata (mode,
//! owner, times, extended attributes: Landlock does not govern them) and administrative calls
//! (mounts, modules, reboot, clocks).
//!
//! What it does not contain: CPU, memory and wall time (the worker's heap flag, deadlines and the
//! probe-hit limit do), reads (code under test may read what the user may), UDP.

// The one crate with `unsafe` (Cargo.toml says why); every block carries its SAFETY comment.
#![allow(unsafe_code)]

mod elf;
mod landlock;
mod limits;
mod namespace;
mod seccomp;

use std::fmt;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::sync::Arc;

pub use limits::Limits;

/// What the user asked for (`--sandbox`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Request {
    /// The first available layer; none, with a warning, when none is.
    #[default]
    Auto,
    /// [`Request::Auto`], but refuse to run with no layer.
    Required,
    /// Exactly this layer, or an error (for tests and for users who want to know).
    Landlock,
    User,
    Namespace,
}

impl Request {
    pub const NAMES: [&'static str; 5] = ["auto", "required", "landlock", "user", "namespace"];

    pub fn name(self) -> &'static str {
        match self {
            Request::Auto => "auto",
            Request::Required => "required",
            Request::Landlock => "landlock",
            Request::User => "user",
            Request::Namespace => "namespace",
        }
    }
}

impl FromStr for Request {
    type Err = String;
    fn from_str(s: &str) -> Result<Request, String> {
        Ok(match s {
            "auto" => Request::Auto,
            "required" => Request::Required,
            "landlock" => Request::Landlock,
            "user" => Request::User,
            "namespace" => Request::Namespace,
            other => {
                return Err(format!(
                    "unknown sandbox `{other}` (expected one of {})",
                    Request::NAMES.join(", ")
                ));
            }
        })
    }
}

/// The layer in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layer {
    /// Landlock with this ABI version (file system from 1, truncation from 3, TCP from 4,
    /// signal and abstract-socket scoping from 6).
    Landlock { abi: u32 },
    /// Children run as this uid and gid.
    User { uid: u32, gid: u32 },
    /// A user and mount namespace with a read-only root.
    Namespace,
    /// Nothing: only the Java chokepoint and the guards contain the code under test.
    None { why: String },
}

impl Layer {
    /// The short name report.json gives.
    pub fn name(&self) -> &'static str {
        match self {
            Layer::Landlock { .. } => "landlock",
            Layer::User { .. } => "user",
            Layer::Namespace => "namespace",
            Layer::None { .. } => "none",
        }
    }

    pub fn contains(&self) -> bool {
        !matches!(self, Layer::None { .. })
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Layer::Landlock { abi } => write!(
                f,
                "Landlock ABI {abi}: writes only below each JVM's scratch directory, execution only of the JDK, no TCP{}",
                if *abi >= 6 { ", no signals outside" } else { "" }
            ),
            Layer::User { uid, gid } => write!(
                f,
                "an unprivileged user ({uid}:{gid}): the JVMs may write only where that user may and in their scratch directories"
            ),
            Layer::Namespace => write!(
                f,
                "a user and mount namespace: every mount read-only but each JVM's scratch directory"
            ),
            Layer::None { why } => write!(
                f,
                "no operating-system sandbox ({why}): only the Java chokepoint and the guards contain the code under test"
            ),
        }
    }
}

/// Everything that can stop a sandbox from being set up.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("the {requested} sandbox is not available here: {why}")]
    Unavailable { requested: &'static str, why: String },
    #[error("--sandbox required, but no sandbox layer is available here: {why}")]
    NoneAvailable { why: String },
    #[error("cannot prepare the sandbox for {path}: {source}")]
    Path { path: PathBuf, source: io::Error },
    #[error("cannot build the Landlock ruleset: {0}")]
    Ruleset(io::Error),
}

/// One policy for every child of a run: the layer, what may be executed, the limits.
#[derive(Debug, Clone)]
pub struct Sandbox {
    layer: Layer,
    /// Files and directories whose files may be executed (Landlock only): the JDK's home and the
    /// ELF interpreter its launcher names.
    exec: Vec<PathBuf>,
    limits: Limits,
}

/// The uid and gid of the unprivileged user ([`Layer::User`]): `nobody` on Debian and most others.
pub const UNPRIVILEGED: (u32, u32) = (65534, 65534);

impl Sandbox {
    /// The sandbox for JVMs started from `java` (its real path's `../..` is the JDK home, whose
    /// files may be executed), as `request` asks.
    pub fn for_java(request: Request, java: &Path) -> Result<Sandbox, SandboxError> {
        let real =
            std::fs::canonicalize(java).map_err(|source| SandboxError::Path { path: java.into(), source })?;
        let home = real.parent().and_then(Path::parent).unwrap_or(&real).to_path_buf();
        Sandbox::new(request, &[home, real])
    }

    /// The sandbox for children that execute files below `exec` (directories or files); the ELF
    /// interpreter of each executable file named is added.
    pub fn new(request: Request, exec: &[PathBuf]) -> Result<Sandbox, SandboxError> {
        let mut roots = Vec::new();
        for p in exec {
            let real =
                std::fs::canonicalize(p).map_err(|source| SandboxError::Path { path: p.clone(), source })?;
            if let Some(interp) = real.is_file().then(|| elf::interpreter(&real)).flatten()
                && let Ok(i) = std::fs::canonicalize(&interp)
            {
                roots.push(i);
            }
            roots.push(real);
        }
        roots.sort();
        roots.dedup();
        let layer = choose(request)?;
        Ok(Sandbox { layer, exec: roots, limits: Limits::standard() })
    }

    /// The sandbox every process that runs code under test gets unless the user asked for another:
    /// [`Request::Auto`] for `java`'s JDK; no layer (with the reason) only where the JDK's path
    /// cannot even be resolved, which makes the process fail to start anyway.
    pub fn default_for_java(java: &Path) -> Sandbox {
        Sandbox::for_java(Request::Auto, java).unwrap_or_else(|e| Sandbox {
            layer: Layer::None { why: e.to_string() },
            exec: Vec::new(),
            limits: Limits::standard(),
        })
    }

    /// A read-only world for a whole run of the engine as root (the bench's `contain`, for the
    /// sandbox's acceptance runs): a user and mount namespace in which root stays root, every
    /// mount read-only but `writable`, the mounts locked against that root; no seccomp filter, no
    /// limits (the engine inside sets up its own sandbox for the JVMs it starts).
    pub fn read_only_world(writable: &[&Path]) -> Result<Confinement, SandboxError> {
        Ok(Confinement {
            kind: Kind::Namespace(namespace::Plan::keeping_root(writable)?),
            limits: Limits { file_size: u64::MAX, processes: u64::MAX },
            filter: None,
        })
    }

    pub fn layer(&self) -> &Layer {
        &self.layer
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The confinement of one child that may write below `writable` (directories; created by the
    /// caller) and nowhere else. For [`Layer::User`] the directories are given to that user.
    pub fn prepare(&self, writable: &[&Path]) -> Result<Confinement, SandboxError> {
        let limits = self.limits.clone();
        let kind = match &self.layer {
            Layer::Landlock { abi } => Kind::Landlock(landlock::Ruleset::build(*abi, writable, &self.exec)?),
            Layer::User { uid, gid } => {
                for dir in writable {
                    give_to(dir, *uid, *gid)
                        .map_err(|source| SandboxError::Path { path: dir.to_path_buf(), source })?;
                }
                Kind::User { uid: *uid, gid: *gid }
            }
            Layer::Namespace => Kind::Namespace(namespace::Plan::new(writable)?),
            Layer::None { .. } => Kind::None,
        };
        Ok(Confinement { kind, limits, filter: Some(seccomp::Filter::new()) })
    }
}

/// What one child does to itself before `exec`.
#[derive(Debug)]
pub struct Confinement {
    kind: Kind,
    limits: Limits,
    /// On top of every layer: metadata and administrative calls refused (`seccomp.rs`).
    filter: Option<seccomp::Filter>,
}

#[derive(Debug)]
enum Kind {
    Landlock(landlock::Ruleset),
    User { uid: u32, gid: u32 },
    Namespace(namespace::Plan),
    None,
}

impl Confinement {
    /// Has the child of `cmd` enter this confinement between `fork` and `exec`; the command keeps
    /// it (and the ruleset's descriptor, close-on-exec) alive until it is dropped.
    pub fn install(self: Arc<Self>, cmd: &mut Command) {
        // SAFETY: `enter` is safe between fork and exec: system calls only, no allocation, no lock.
        unsafe {
            cmd.pre_exec(move || self.enter());
        }
    }

    /// Confines the calling process. Call it in the child between `fork` and `exec`: it makes
    /// system calls only (no allocation, no lock), so it is safe there. On error the child must not
    /// `exec` (`pre_exec` returning the error does that).
    pub fn enter(&self) -> io::Result<()> {
        self.limits.apply()?;
        match &self.kind {
            Kind::Landlock(ruleset) => ruleset.restrict_self()?,
            Kind::User { uid, gid } => drop_to(*uid, *gid)?,
            Kind::Namespace(plan) => plan.enter()?,
            Kind::None => {}
        }
        // SAFETY: a plain system call on integers.
        check(unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) })?;
        match &self.filter {
            Some(f) => f.install(),
            None => Ok(()),
        }
    }
}

/// The layer `request` gets here.
fn choose(request: Request) -> Result<Layer, SandboxError> {
    let landlock = landlock::abi();
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let unavailable = |requested: &'static str, why: String| SandboxError::Unavailable { requested, why };
    match request {
        Request::Landlock => {
            landlock.map(|abi| Layer::Landlock { abi }).map_err(|e| unavailable("landlock", e))
        }
        Request::User if root => Ok(Layer::User { uid: UNPRIVILEGED.0, gid: UNPRIVILEGED.1 }),
        Request::User => Err(unavailable(
            "user",
            "suitesmith is not running as root, so it cannot change the JVMs' user".into(),
        )),
        Request::Namespace => {
            namespace::available().map(|()| Layer::Namespace).map_err(|e| unavailable("namespace", e))
        }
        Request::Auto | Request::Required => {
            let why = match landlock {
                Ok(abi) => return Ok(Layer::Landlock { abi }),
                Err(e) => e,
            };
            if root {
                return Ok(Layer::User { uid: UNPRIVILEGED.0, gid: UNPRIVILEGED.1 });
            }
            let why = match namespace::available() {
                Ok(()) => return Ok(Layer::Namespace),
                Err(ns) => format!("{why}; {ns}"),
            };
            if request == Request::Required {
                Err(SandboxError::NoneAvailable { why })
            } else {
                Ok(Layer::None { why })
            }
        }
    }
}

/// Gives `dir` and everything below it to `uid`:`gid` (the directories are fresh and small).
fn give_to(dir: &Path, uid: u32, gid: u32) -> io::Result<()> {
    std::os::unix::fs::lchown(dir, Some(uid), Some(gid))?;
    if dir.is_dir() && !dir.is_symlink() {
        for entry in std::fs::read_dir(dir)? {
            give_to(&entry?.path(), uid, gid)?;
        }
    }
    Ok(())
}

/// Drops supplementary groups, then the gid, then the uid (in that order: after `setuid` the
/// process may no longer change its groups).
fn drop_to(uid: u32, gid: u32) -> io::Result<()> {
    // SAFETY: plain system calls on integers; no memory is passed but a null list of length 0.
    unsafe {
        check(libc::setgroups(0, std::ptr::null()))?;
        check(libc::setresgid(gid, gid, gid))?;
        check(libc::setresuid(uid, uid, uid))?;
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
    }
    Ok(())
}

/// A `-1` return as the thread's `errno`.
fn check(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret == -1 { Err(io::Error::last_os_error()) } else { Ok(ret) }
}

/// [`check`] for `syscall`'s `long`.
fn check_long(ret: libc::c_long) -> io::Result<libc::c_long> {
    if ret == -1 { Err(io::Error::last_os_error()) } else { Ok(ret) }
}
