//! Running the engine as a measured child process: wall time, and peak resident memory of the engine
//! and of its descendants (the JVM workers, and the javac/JUnit JVMs of its own verification), read by
//! polling Linux's `/proc` every 200 ms. `VmHWM` is the kernel's high-water mark of a process's
//! resident set (proc(5)), so the engine's figure is exact up to the last poll. The workers' figure is
//! the largest sum, over one poll, of the high-water marks of the descendants alive at that poll: an
//! upper bound of their concurrent peak that never adds a replaced worker to its replacement.
//! Elsewhere than Linux both figures are 0.

// The benchmark is tooling outside the engine: it starts `suitesmith` (and `kill` on a timeout) as a
// user would; the engine's own processes are still started only by crate worker.
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::BenchError;

const POLL: Duration = Duration::from_millis(200);

/// What one measured process did.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// `None` when a signal ended it (also when we killed it at the timeout).
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub wall: Duration,
    /// Peak resident set of the process itself, KiB.
    pub engine_peak_kib: u64,
    /// Peak of the summed resident sets of its descendants, KiB (see the module comment).
    pub workers_peak_kib: u64,
}

/// Runs `program args` in `cwd` with `env` added to the environment, stdout and stderr to the given
/// files, killed (with every descendant seen) after `timeout`.
pub fn run_measured(
    program: &Path,
    args: &[String],
    cwd: &Path,
    env: &[(&str, &Path)],
    stdout: &Path,
    stderr: &Path,
    timeout: Duration,
) -> Result<Measured, BenchError> {
    let file = |p: &Path| {
        File::create(p)
            .map_err(|e| BenchError::Io { what: format!("cannot create {}", p.display()), source: e })
    };
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(file(stdout)?)
        .stderr(file(stderr)?)
        .spawn()
        .map_err(|e| BenchError::Spawn { program: program.to_path_buf(), source: e })?;
    let pid = child.id();
    let mut engine_peak = 0;
    let mut workers_peak = 0;
    // Every descendant seen, with its start time: a descendant orphaned before the timeout is still
    // killed, and a pid the system has since given to an unrelated process is not.
    let mut seen: BTreeMap<u32, u64> = BTreeMap::new();
    let mut timed_out = false;
    let status = loop {
        // Sample before reaping: once waited for, the process's /proc entry is gone.
        if let Some(kib) = read_status(pid).as_deref().and_then(vm_hwm_kib) {
            engine_peak = engine_peak.max(kib);
        }
        let descendants = descendants_of(pid);
        let sum: u64 =
            descendants.iter().filter_map(|p| read_status(*p).as_deref().and_then(vm_hwm_kib)).sum();
        workers_peak = workers_peak.max(sum);
        seen.extend(descendants.into_iter().filter_map(|p| Some((p, start_time(p)?))));
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(e) => {
                return Err(BenchError::Io {
                    what: format!("cannot wait for {}", program.display()),
                    source: e,
                });
            }
        }
        if start.elapsed() > timeout {
            timed_out = true;
            // The engine first: killed after its children, it could see them die and exit with a
            // code of its own before its own kill arrives. Its orphans are still in `seen`.
            let _ = child.kill();
            kill_all(&seen);
            break child.wait().ok();
        }
        std::thread::sleep(POLL);
    };
    Ok(Measured {
        exit_code: status.and_then(|s| s.code()),
        timed_out,
        wall: start.elapsed(),
        engine_peak_kib: engine_peak,
        workers_peak_kib: workers_peak,
    })
}

/// SIGKILL to the descendants we saw; those already gone are ignored.
/// Kills the processes of `seen` that are still the processes seen (same start time).
fn kill_all(seen: &BTreeMap<u32, u64>) {
    let pids: Vec<u32> = seen.iter().filter(|&(&p, &t)| start_time(p) == Some(t)).map(|(&p, _)| p).collect();
    if pids.is_empty() {
        return;
    }
    let _ = Command::new("kill")
        .arg("-KILL")
        .args(pids.iter().map(u32::to_string))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

fn read_status(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/status")).ok()
}

/// Every live descendant of `root` (children, their children, ...), from one scan of `/proc`.
pub fn descendants_of(root: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let stat: PathBuf = entry.path().join("stat");
        if let Some(ppid) = std::fs::read_to_string(stat).ok().as_deref().and_then(parent_pid) {
            children.entry(ppid).or_default().push(pid);
        }
    }
    let mut out = Vec::new();
    let mut work = vec![root];
    while let Some(p) = work.pop() {
        for c in children.get(&p).into_iter().flatten() {
            out.push(*c);
            work.push(*c);
        }
    }
    out.sort_unstable();
    out
}

/// The start time of a live process (clock ticks after boot, field 22 of `/proc/PID/stat`).
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat_field(&stat, 22)
}

/// The parent pid from the text of `/proc/PID/stat` (`pid (comm) state ppid ...`; the command name
/// may hold spaces and parentheses, so fields are counted after the last `)`).
pub fn parent_pid(stat: &str) -> Option<u32> {
    stat_field(stat, 4)
}

/// Field `n` (1-based, as proc(5) numbers them; `n` ≥ 3) of the text of `/proc/PID/stat`.
fn stat_field<T: std::str::FromStr>(stat: &str, n: usize) -> Option<T> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(n.checked_sub(3)?)?.parse().ok()
}

/// `VmHWM` in KiB from the text of `/proc/PID/status` (absent for kernel threads and zombies).
pub fn vm_hwm_kib(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line["VmHWM:".len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_fields() {
        assert_eq!(parent_pid("1234 (java) S 77 1234 1 0"), Some(77));
        // Our own start time is in the past and stays the same.
        let me = std::process::id();
        assert!(start_time(me).is_some());
        assert_eq!(start_time(me), start_time(me));
        assert_eq!(parent_pid("9 (a) b) (c) R 5 9 9"), Some(5));
        assert_eq!(parent_pid("garbage"), None);
        let status = "Name:\tjava\nVmPeak:\t 9000 kB\nVmHWM:\t   51234 kB\nVmRSS:\t 100 kB\n";
        assert_eq!(vm_hwm_kib(status), Some(51234));
        assert_eq!(vm_hwm_kib("Name:\tkthreadd\n"), None);
    }

    /// A shell that starts a child which allocates: both peaks are seen, the exit code is kept, and
    /// a process past its timeout is killed with its children.
    #[test]
    fn measures_a_process_tree() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let (out, err) = (tmp.path().join("out"), tmp.path().join("err"));
        let sh = Path::new("/bin/sh");
        let script = "sleep 0.7 & x=$(head -c 20000000 /dev/zero | tr '\\0' a); wait; exit $CODE";
        let code = tmp.path().join("3");
        let env = [("CODE", Path::new("3"))];
        let m = run_measured(
            sh,
            &["-c".into(), script.into()],
            tmp.path(),
            &env,
            &out,
            &err,
            Duration::from_secs(30),
        )
        .expect("run");
        assert!(!code.exists());
        assert_eq!(m.exit_code, Some(3), "the environment reaches the program");
        assert!(!m.timed_out);
        assert!(m.engine_peak_kib > 1000, "{m:?}");
        assert!(m.workers_peak_kib > 0, "{m:?}");
        let m = run_measured(
            sh,
            &["-c".into(), "sleep 30".into()],
            tmp.path(),
            &[],
            &out,
            &err,
            Duration::from_millis(500),
        )
        .expect("run");
        assert!(m.timed_out);
        assert_eq!(m.exit_code, None);
        assert!(m.wall < Duration::from_secs(10), "{m:?}");
    }
}
