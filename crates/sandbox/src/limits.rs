//! Resource limits every confined child sets on itself: the largest file it may write, how many
//! processes its user may have, no core dumps. CPU, memory and wall time are the worker's (heap
//! flag, deadlines), not these.

use std::io;

use crate::check;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// `RLIMIT_FSIZE`, bytes: a test filling the scratch disk gets `EFBIG` (the JVM ignores the
    /// `SIGXFSZ`) instead of filling the user's disk.
    pub file_size: u64,
    /// `RLIMIT_NPROC`: threads and processes of the user, so a fork or thread bomb stops. The kernel
    /// counts every process of the real uid and does not apply it to root (the guards' thread limit
    /// and the User layer's own uid do there).
    pub processes: u64,
}

impl Limits {
    /// 1 GiB files; the user's present threads plus 4,096.
    pub fn standard() -> Limits {
        Limits { file_size: 1 << 30, processes: threads_of_user().saturating_add(4096) }
    }

    /// Sets the limits on the calling process, never above a hard limit already in force.
    pub(crate) fn apply(&self) -> io::Result<()> {
        set(libc::RLIMIT_FSIZE, self.file_size)?;
        set(libc::RLIMIT_NPROC, self.processes)?;
        set(libc::RLIMIT_CORE, 0)?;
        Ok(())
    }
}

fn set(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
    let mut old = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `old` is a valid rlimit to fill in.
    check(unsafe { libc::getrlimit(resource, &mut old) })?;
    let value = value.min(old.rlim_max);
    if value >= old.rlim_cur && resource != libc::RLIMIT_CORE {
        return Ok(());
    }
    let new = libc::rlimit { rlim_cur: value, rlim_max: old.rlim_max };
    // SAFETY: `new` is a valid rlimit.
    check(unsafe { libc::setrlimit(resource, &new) })?;
    Ok(())
}

/// How many threads the current real uid has now (`/proc/*/status`), 0 when it cannot be told.
fn threads_of_user() -> u64 {
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() }.to_string();
    let Ok(dir) = std::fs::read_dir("/proc") else { return 0 };
    let mut total = 0u64;
    for entry in dir.flatten() {
        if !entry.file_name().to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else { continue };
        let field = |name: &str| status.lines().find_map(|l| l.strip_prefix(name)).map(str::trim);
        if field("Uid:").and_then(|u| u.split_whitespace().next()) == Some(uid.as_str()) {
            total += field("Threads:").and_then(|t| t.parse().ok()).unwrap_or(1);
        }
    }
    total
}
