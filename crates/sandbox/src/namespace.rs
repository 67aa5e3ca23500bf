//! The namespace layer: the child enters a new user and mount namespace, makes every mount
//! read-only (recursively, `mount_setattr`, Linux 5.12+) except bind mounts of its writable
//! directories, and keeps no capability past `exec` (its uid inside is never 0: root outside maps
//! to 65534 inside), so the code under test cannot mount anything back.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::{SandboxError, UNPRIVILEGED, check, check_long};

const MOUNT_ATTR_RDONLY: u64 = 0x1;

#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// Everything the child needs, made in the parent (the child must not allocate).
#[derive(Debug)]
pub(crate) struct Plan {
    writable: Vec<CString>,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    /// Root stays root inside (`contain`'s acceptance runs): the mounts are then locked by a
    /// second, nested user namespace, whose root cannot make them writable again.
    keep_root: bool,
}

impl Plan {
    /// A plan whose process is root inside when it was root outside, with its mounts locked.
    pub(crate) fn keeping_root(writable: &[&Path]) -> Result<Plan, SandboxError> {
        let mut plan = Plan::new(writable)?;
        // SAFETY: getuid/getgid have no preconditions.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        plan.uid_map = format!("{uid} {uid} 1\n").into_bytes();
        plan.gid_map = format!("{gid} {gid} 1\n").into_bytes();
        plan.keep_root = true;
        Ok(plan)
    }

    pub(crate) fn new(writable: &[&Path]) -> Result<Plan, SandboxError> {
        let mut dirs = Vec::new();
        for d in writable {
            let real = std::fs::canonicalize(d)
                .map_err(|source| SandboxError::Path { path: d.to_path_buf(), source })?;
            dirs.push(CString::new(real.as_os_str().as_bytes()).map_err(|e| SandboxError::Path {
                path: d.to_path_buf(),
                source: io::Error::new(io::ErrorKind::InvalidInput, e),
            })?);
        }
        // SAFETY: getuid/getgid have no preconditions.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let inside = |id: u32, unprivileged: u32| if id == 0 { unprivileged } else { id };
        Ok(Plan {
            writable: dirs,
            uid_map: format!("{} {uid} 1\n", inside(uid, UNPRIVILEGED.0)).into_bytes(),
            gid_map: format!("{} {gid} 1\n", inside(gid, UNPRIVILEGED.1)).into_bytes(),
            keep_root: false,
        })
    }

    /// Enters the namespaces and sets up the mounts (system calls only).
    pub(crate) fn enter(&self) -> io::Result<()> {
        // SAFETY: system calls on valid C strings and structs owned by `self`, or static literals.
        unsafe {
            check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS))?;
            write_file(c"/proc/self/setgroups", b"deny")?;
            write_file(c"/proc/self/uid_map", &self.uid_map)?;
            write_file(c"/proc/self/gid_map", &self.gid_map)?;
            // Nothing done here may reach the parent's mounts.
            check(libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
            for dir in &self.writable {
                check(libc::mount(
                    dir.as_ptr(),
                    dir.as_ptr(),
                    std::ptr::null(),
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                ))?;
            }
            set_attr(c"/", MOUNT_ATTR_RDONLY, 0)?;
            for dir in &self.writable {
                set_attr(dir, 0, MOUNT_ATTR_RDONLY)?;
            }
            if self.keep_root {
                // The nested namespace's maps are written through /proc, which must stay writable
                // (writes there reach the kernel's own checks, not the disk).
                set_attr(c"/proc", 0, MOUNT_ATTR_RDONLY)?;
                // Copied into a less privileged mount namespace, read-only mounts are locked so.
                check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS))?;
                write_file(c"/proc/self/setgroups", b"deny")?;
                write_file(c"/proc/self/uid_map", &self.uid_map)?;
                write_file(c"/proc/self/gid_map", &self.gid_map)?;
            }
            check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
        }
        Ok(())
    }
}

/// `mount_setattr(path, AT_RECURSIVE)`: sets and clears mount attributes on the whole tree.
unsafe fn set_attr(path: &std::ffi::CStr, set: u64, clear: u64) -> io::Result<()> {
    let attr = MountAttr { attr_set: set, attr_clr: clear, propagation: 0, userns_fd: 0 };
    // SAFETY: a valid path and a valid mount_attr of the size given.
    check_long(unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            path.as_ptr(),
            libc::AT_RECURSIVE as libc::c_uint,
            &attr as *const MountAttr,
            size_of::<MountAttr>(),
        )
    })?;
    Ok(())
}

/// Writes `bytes` to the file at `path` in one `write` (as /proc's map files require).
unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: a valid path; the descriptor is closed on every path out.
    let fd = check(unsafe { libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC) })?;
    // SAFETY: `bytes` is valid for its length.
    let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
    let err = io::Error::last_os_error();
    // SAFETY: `fd` is ours.
    unsafe { libc::close(fd) };
    if n < 0 {
        return Err(err);
    }
    Ok(())
}

/// Whether a child can set the namespace up here: tried for real in a forked child that does
/// nothing else (unprivileged user namespaces can be switched off, `mount_setattr` can be missing).
pub(crate) fn available() -> Result<(), String> {
    let plan = Plan::new(&[]).map_err(|e| e.to_string())?;
    // SAFETY: the child only makes system calls and `_exit`s; the parent waits for it.
    unsafe {
        let pid = libc::fork();
        if pid < 0 {
            return Err(format!("cannot try a namespace: {}", io::Error::last_os_error()));
        }
        if pid == 0 {
            let code = match plan.enter() {
                Ok(()) => 0,
                Err(e) => e.raw_os_error().unwrap_or(255).clamp(1, 255),
            };
            libc::_exit(code);
        }
        let mut status = 0;
        if libc::waitpid(pid, &mut status, 0) != pid {
            return Err(format!("cannot wait for the namespace trial: {}", io::Error::last_os_error()));
        }
        if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
            Ok(())
        } else {
            let errno = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 0 };
            Err(format!(
                "no user and mount namespace with a read-only root ({})",
                io::Error::from_raw_os_error(errno)
            ))
        }
    }
}
