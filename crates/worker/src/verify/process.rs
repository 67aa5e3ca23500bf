//! Running one short-lived helper process (javac, a test JVM, the JaCoCo report) to completion under a
//! wall-clock deadline: stdout is read line by line and stderr's tail is kept by one thread each, the
//! caller's thread polls the child, and the child is killed at the deadline or when its handle drops.
//! Pipes are read by threads so that a chatty child never blocks on a full pipe.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::VerifyError;

/// How much of stderr is kept (the last bytes).
const STDERR_LIMIT: usize = 64 * 1024;
/// How much of stdout is kept: records are short, so past this only a test writing to the file
/// descriptor itself (System.out is redirected) produces more; the rest is read and dropped.
const STDOUT_LIMIT: usize = 64 * 1024 * 1024;
/// How long to keep reading a pipe after the child ended: a grandchild that inherited it could hold
/// it open forever, and its output does not matter then.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// What a finished (or killed) process left.
#[derive(Debug)]
pub(crate) struct Finished {
    pub stdout: Vec<String>,
    pub stderr: String,
    /// `None` when it was killed at the deadline.
    pub status: Option<ExitStatus>,
    pub elapsed: Duration,
}

/// Runs `program args` in `cwd` with stdin closed, and waits at most `timeout`; a child that runs
/// code under test enters `confinement` before `exec`.
// This crate is the one place allowed to start processes (STYLE.md rule 2, clippy.toml).
#[allow(clippy::disallowed_methods)]
pub(crate) fn run(
    program: &Path,
    args: &[String],
    cwd: &Path,
    timeout: Duration,
    confinement: Option<sandbox::Confinement>,
) -> Result<Finished, VerifyError> {
    let start = Instant::now();
    let mut command = Command::new(program);
    command.args(args).current_dir(cwd).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(c) = confinement {
        std::sync::Arc::new(c).install(&mut command);
    }
    let (child, pipes) = crate::cleanup::spawn(&mut command)
        .map_err(|source| VerifyError::Spawn { program: program.to_path_buf(), source })?;
    let (stdout, stderr) = (pipes.stdout, pipes.stderr);
    // A `TrackedChild` is killed when dropped, whatever path this function leaves by, and is
    // registered for a signal handler (`crate::cleanup`).

    let (line_tx, line_rx) = mpsc::channel::<String>();
    if let Some(out) = stdout {
        std::thread::spawn(move || {
            let mut reader = BufReader::new(out);
            let mut buf = Vec::new();
            let mut kept = 0usize;
            // Lines are split on '\n' and decoded leniently: a test could write anything.
            while reader.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                kept += buf.len();
                if kept <= STDOUT_LIMIT {
                    let line = String::from_utf8_lossy(&buf);
                    if line_tx.send(line.trim_end_matches(['\n', '\r']).to_string()).is_err() {
                        break;
                    }
                }
                buf.clear();
            }
        });
    }
    let (err_tx, err_rx) = mpsc::channel::<Vec<u8>>();
    if let Some(mut err) = stderr {
        std::thread::spawn(move || {
            let mut tail = Vec::new();
            let mut chunk = [0u8; 8192];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                tail.extend_from_slice(&chunk[..n]);
                if tail.len() > 2 * STDERR_LIMIT {
                    tail.drain(..tail.len() - STDERR_LIMIT);
                }
            }
            let _ = err_tx.send(tail);
        });
    }

    let deadline = start + timeout;
    let mut lines = Vec::new();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(e) => return Err(VerifyError::io(format!("cannot wait for {}", program.display()), e)),
        }
        let now = Instant::now();
        if now >= deadline {
            child.kill_and_reap();
            break None;
        }
        // Reading lines doubles as the poll interval: it returns as soon as output arrives.
        match line_rx.recv_timeout((deadline - now).min(Duration::from_millis(10))) {
            Ok(line) => lines.push(line),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let drain_end = Instant::now() + DRAIN_GRACE;
    drain(&line_rx, drain_end, &mut lines);
    let mut tail =
        err_rx.recv_timeout(drain_end.saturating_duration_since(Instant::now())).unwrap_or_default();
    if tail.len() > STDERR_LIMIT {
        tail.drain(..tail.len() - STDERR_LIMIT);
    }
    Ok(Finished {
        stdout: lines,
        stderr: String::from_utf8_lossy(&tail).into_owned(),
        status,
        elapsed: start.elapsed(),
    })
}

fn drain(rx: &Receiver<String>, until: Instant, lines: &mut Vec<String>) {
    loop {
        match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok(line) => lines.push(line),
            Err(_) => return,
        }
    }
}

/// Writes an @argfile (javac's and, since 9, java's launcher syntax): each argument in double quotes,
/// with `\` and `"` escaped, one per line.
pub(crate) fn argfile(dir: &Path, name: &str, args: &[String]) -> Result<PathBuf, VerifyError> {
    let mut text = String::new();
    for a in args {
        text.push('"');
        for c in a.chars() {
            if c == '\\' || c == '"' {
                text.push('\\');
            }
            text.push(c);
        }
        text.push_str("\"\n");
    }
    let path = dir.join(name);
    std::fs::write(&path, text)
        .map_err(|e| VerifyError::io(format!("cannot write {}", path.display()), e))?;
    Ok(path)
}

/// `paths` joined with the platform's separator, absolute (the child runs in another directory).
pub(crate) fn classpath(paths: &[PathBuf]) -> Result<String, VerifyError> {
    let mut abs = Vec::with_capacity(paths.len());
    for p in paths {
        abs.push(absolute(p)?);
    }
    match std::env::join_paths(&abs) {
        Ok(s) => Ok(s.to_string_lossy().into_owned()),
        Err(_) => {
            let bad = abs.iter().find(|p| std::env::join_paths([p]).is_err()).cloned().unwrap_or_default();
            Err(VerifyError::BadPath { path: bad, reason: "it contains the path separator" })
        }
    }
}

pub(crate) fn absolute(p: &Path) -> Result<PathBuf, VerifyError> {
    std::path::absolute(p).map_err(|e| VerifyError::io(format!("cannot make {} absolute", p.display()), e))
}

/// The exit status for error messages.
pub(crate) fn status_text(status: Option<ExitStatus>) -> String {
    match status {
        Some(s) => s.to_string(),
        None => "killed at the deadline".to_string(),
    }
}
