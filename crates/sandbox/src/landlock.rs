//! Landlock through its three system calls (linux/landlock.h): a ruleset that handles every
//! right that changes the file system, execution, TCP, and (ABI 6) signals and abstract sockets;
//! rules that give the writable directories every handled right but execution, and the JDK
//! execution; built in the parent, applied by the child before `exec`.
//!
//! Rights that reading needs (`READ_FILE`, `READ_DIR`) are not handled, so reads stay as the user's.
//! `IOCTL_DEV` is not handled: a device opened for writing needs `WRITE_FILE` first.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::{SandboxError, check, check_long};

// Access rights on files (linux/landlock.h), by the ABI that introduced them.
const EXECUTE: u64 = 1 << 0;
const WRITE_FILE: u64 = 1 << 1;
const REMOVE_DIR: u64 = 1 << 4;
const REMOVE_FILE: u64 = 1 << 5;
const MAKE_CHAR: u64 = 1 << 6;
const MAKE_DIR: u64 = 1 << 7;
const MAKE_REG: u64 = 1 << 8;
const MAKE_SOCK: u64 = 1 << 9;
const MAKE_FIFO: u64 = 1 << 10;
const MAKE_BLOCK: u64 = 1 << 11;
const MAKE_SYM: u64 = 1 << 12;
/// ABI 2: linking or renaming a file into another directory.
const REFER: u64 = 1 << 13;
/// ABI 3: `truncate`, `ftruncate`, `open(O_TRUNC)`.
const TRUNCATE: u64 = 1 << 14;
/// Rights that apply to a file (a rule on a file may hold only these).
const FILE_RIGHTS: u64 = EXECUTE | WRITE_FILE | TRUNCATE;

// ABI 4: TCP.
const NET_BIND_TCP: u64 = 1 << 0;
const NET_CONNECT_TCP: u64 = 1 << 1;
// ABI 6: scopes.
const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0;
const SCOPE_SIGNAL: u64 = 1 << 1;

const CREATE_RULESET_VERSION: u32 = 1 << 0;
const RULE_PATH_BENEATH: libc::c_int = 1;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// The Landlock ABI version of the running kernel, or why there is none.
pub(crate) fn abi() -> Result<u32, String> {
    // SAFETY: the documented version query: null attributes, size 0, the version flag.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<RulesetAttr>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    match check_long(ret) {
        Ok(v) if v >= 1 => Ok(v as u32),
        Ok(v) => Err(format!("Landlock reports ABI {v}")),
        Err(e) if e.raw_os_error() == Some(libc::ENOSYS) => {
            Err("the kernel has no Landlock (Linux 5.13 or later)".into())
        }
        Err(e) if e.raw_os_error() == Some(libc::EOPNOTSUPP) => {
            Err("Landlock is built into the kernel but not enabled (the `lsm=` boot parameter)".into())
        }
        Err(e) => Err(format!("Landlock cannot be queried: {e}")),
    }
}

/// The file-system rights this ABI handles.
fn handled_fs(abi: u32) -> u64 {
    let mut fs = EXECUTE
        | WRITE_FILE
        | REMOVE_DIR
        | REMOVE_FILE
        | MAKE_CHAR
        | MAKE_DIR
        | MAKE_REG
        | MAKE_SOCK
        | MAKE_FIFO
        | MAKE_BLOCK
        | MAKE_SYM;
    if abi >= 2 {
        fs |= REFER;
    }
    if abi >= 3 {
        fs |= TRUNCATE;
    }
    fs
}

/// A ruleset ready to be applied: its file descriptor (close-on-exec, so the JVM never sees it).
#[derive(Debug)]
pub(crate) struct Ruleset {
    fd: OwnedFd,
}

impl Ruleset {
    /// Every handled right below each of `writable` except execution; execution below each of
    /// `exec`; writing to `/dev/null`, which the JDK and many libraries open to discard output.
    pub(crate) fn build(
        abi: u32,
        writable: &[&Path],
        exec: &[std::path::PathBuf],
    ) -> Result<Ruleset, SandboxError> {
        let fs = handled_fs(abi);
        let attr = RulesetAttr {
            handled_access_fs: fs,
            handled_access_net: if abi >= 4 { NET_BIND_TCP | NET_CONNECT_TCP } else { 0 },
            scoped: if abi >= 6 { SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL } else { 0 },
        };
        // Older kernels take the struct as far as they know it; the fields they lack must be 0,
        // which they are below ABI 4 and 6.
        let size = if abi >= 6 {
            size_of::<RulesetAttr>()
        } else if abi >= 4 {
            16
        } else {
            8
        };
        // SAFETY: `attr` is a valid landlock_ruleset_attr of at least `size` bytes.
        let fd = check_long(unsafe {
            libc::syscall(libc::SYS_landlock_create_ruleset, &attr as *const RulesetAttr, size, 0u32)
        })
        .map_err(SandboxError::Ruleset)?;
        // SAFETY: a fresh file descriptor the kernel just returned, owned by nobody else.
        let ruleset = Ruleset { fd: unsafe { OwnedFd::from_raw_fd(fd as i32) } };
        for dir in writable {
            ruleset.allow(dir, fs & !EXECUTE)?;
        }
        for p in exec {
            let rights = if p.is_dir() { EXECUTE } else { EXECUTE & FILE_RIGHTS };
            ruleset.allow(p, rights)?;
        }
        ruleset.allow(Path::new("/dev/null"), (WRITE_FILE | TRUNCATE) & fs)?;
        Ok(ruleset)
    }

    fn allow(&self, path: &Path, rights: u64) -> Result<(), SandboxError> {
        let err = |source: io::Error| SandboxError::Path { path: path.to_path_buf(), source };
        let c = CString::new(path.as_os_str().as_bytes())
            .map_err(|e| err(io::Error::new(io::ErrorKind::InvalidInput, e)))?;
        // SAFETY: `c` is a valid C string; O_PATH opens neither for reading nor writing.
        let fd = check(unsafe { libc::open(c.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) }).map_err(err)?;
        // SAFETY: as above, a fresh descriptor.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let rule = PathBeneathAttr { allowed_access: rights, parent_fd: fd.as_raw_fd() };
        // SAFETY: `rule` is a valid landlock_path_beneath_attr for RULE_PATH_BENEATH.
        check_long(unsafe {
            libc::syscall(
                libc::SYS_landlock_add_rule,
                self.fd.as_raw_fd(),
                RULE_PATH_BENEATH,
                &rule as *const PathBeneathAttr,
                0u32,
            )
        })
        .map_err(err)?;
        Ok(())
    }

    /// Applies the ruleset to the calling thread (in the child: the only thread) and all it
    /// starts. `no_new_privs` is what lets an unprivileged process restrict itself.
    pub(crate) fn restrict_self(&self) -> io::Result<()> {
        // SAFETY: plain system calls on integers.
        unsafe {
            check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
            check_long(libc::syscall(libc::SYS_landlock_restrict_self, self.fd.as_raw_fd(), 0u32))?;
        }
        Ok(())
    }
}
