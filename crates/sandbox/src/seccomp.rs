//! A seccomp filter that every confined child installs on top of its layer: it refuses (`EPERM`)
//! the system calls that change a file's metadata (mode, owner, times, extended attributes), which
//! Landlock does not govern, and the administrative calls no test has any business making (mounts,
//! modules, reboot, clocks, swap, host names). Java reaches none of them but through native code
//! (JNI, or the foreign-function API of Java 22+); the Java chokepoint refuses the metadata changes
//! it sees first. Refusing by system call and not by path also refuses them inside scratch, which
//! costs a test little (a `chmod` on its own file fails and the statement is cut as a refusal).

use std::io;

use crate::check;

// Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
/// `BPF_LD | BPF_W | BPF_ABS` (the first two are 0).
const BPF_LD_W_ABS: u16 = 0x20;
const BPF_JMP_JEQ_K: u16 = 0x05 | 0x10;
const BPF_JMP_JGE_K: u16 = 0x05 | 0x30;
const BPF_RET_K: u16 = 0x06;
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
/// `offsetof(struct seccomp_data, nr)` and `arch`.
const OFFSET_NR: u32 = 0;
const OFFSET_ARCH: u32 = 4;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;
/// x86_64's x32 calls carry this bit; refused wholesale so they cannot be used to go around the list.
#[cfg(target_arch = "x86_64")]
const X32_BIT: Option<u32> = Some(0x4000_0000);
#[cfg(not(target_arch = "x86_64"))]
const X32_BIT: Option<u32> = None;

/// Calls numbered alike on every architecture since they were added (Linux 6.6 and 6.13).
const SYS_FCHMODAT2: libc::c_long = 452;
const SYS_SETXATTRAT: libc::c_long = 463;
const SYS_REMOVEXATTRAT: libc::c_long = 466;

/// The refused calls of this architecture.
fn refused() -> Vec<libc::c_long> {
    let mut calls = vec![
        libc::SYS_fchmod,
        libc::SYS_fchmodat,
        SYS_FCHMODAT2,
        libc::SYS_fchown,
        libc::SYS_fchownat,
        libc::SYS_utimensat,
        libc::SYS_setxattr,
        libc::SYS_lsetxattr,
        libc::SYS_fsetxattr,
        libc::SYS_removexattr,
        libc::SYS_lremovexattr,
        libc::SYS_fremovexattr,
        SYS_SETXATTRAT,
        SYS_REMOVEXATTRAT,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_reboot,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_sethostname,
        libc::SYS_setdomainname,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        libc::SYS_acct,
        libc::SYS_quotactl,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([
        libc::SYS_chmod,
        libc::SYS_chown,
        libc::SYS_lchown,
        libc::SYS_utime,
        libc::SYS_utimes,
        libc::SYS_futimesat,
    ]);
    calls.sort_unstable();
    calls.dedup();
    calls
}

fn stmt(code: u16, k: u32) -> libc::sock_filter {
    libc::sock_filter { code, jt: 0, jf: 0, k }
}

fn jump(code: u16, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

/// The filter program, built in the parent.
#[derive(Debug)]
pub(crate) struct Filter {
    program: Vec<libc::sock_filter>,
}

// `sock_filter` is plain data; the struct is only read after it is built.
unsafe impl Send for Filter {}
unsafe impl Sync for Filter {}

impl Filter {
    pub(crate) fn new() -> Filter {
        let calls = refused();
        let n = calls.len();
        let deny = RET_ERRNO | libc::EPERM as u32;
        let mut p = vec![
            stmt(BPF_LD_W_ABS, OFFSET_ARCH),
            // Another architecture's calls (a 32-bit entry) are refused: their numbers differ.
            jump(BPF_JMP_JEQ_K, AUDIT_ARCH, 1, 0),
            stmt(BPF_RET_K, deny),
            stmt(BPF_LD_W_ABS, OFFSET_NR),
        ];
        if let Some(bit) = X32_BIT {
            // Past the list and the allow: straight to the refusal.
            p.push(jump(BPF_JMP_JGE_K, bit, (n + 1) as u8, 0));
        }
        for (i, nr) in calls.iter().enumerate() {
            p.push(jump(BPF_JMP_JEQ_K, *nr as u32, (n - i) as u8, 0));
        }
        p.push(stmt(BPF_RET_K, RET_ALLOW));
        p.push(stmt(BPF_RET_K, deny));
        Filter { program: p }
    }

    /// Installs the filter on the calling thread and its future children; needs `no_new_privs`
    /// (set by every layer before).
    pub(crate) fn install(&self) -> io::Result<()> {
        let prog =
            libc::sock_fprog { len: self.program.len() as u16, filter: self.program.as_ptr().cast_mut() };
        // SAFETY: `prog` points at a valid program that outlives the call (the kernel copies it).
        check(unsafe {
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER as libc::c_ulong,
                &prog as *const libc::sock_fprog,
            )
        })?;
        Ok(())
    }
}
