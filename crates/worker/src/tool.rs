//! Running a build tool (Maven, for `suitesmith generate --project`) to completion under a deadline:
//! the one door through which the cli starts a process that is not a JVM of ours, so that process
//! ownership stays in this crate (STYLE.md rule 2) and the tool is killed on SIGINT like any worker.

use std::path::Path;
use std::time::Duration;

use crate::verify::VerifyError;

/// What a finished build-tool run left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// True when it exited with status 0.
    pub success: bool,
    /// `None` when it was killed at the deadline or by a signal.
    pub code: Option<i32>,
    pub stdout: Vec<String>,
    /// The tail of stderr.
    pub stderr: String,
}

/// Runs `program args` in `cwd` with stdin closed; killed when it outlives `timeout`.
pub fn run_tool(
    program: &Path,
    args: &[String],
    cwd: &Path,
    timeout: Duration,
) -> Result<ToolOutput, VerifyError> {
    // The user's own build: not code under test, and it writes where the project says.
    let f = crate::verify::process::run(program, args, cwd, timeout, None)?;
    Ok(ToolOutput {
        success: f.status.is_some_and(|s| s.success()),
        code: f.status.and_then(|s| s.code()),
        stdout: f.stdout,
        stderr: f.stderr,
    })
}
