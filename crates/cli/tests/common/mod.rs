//! What the binary's integration tests share: running `suitesmith` as a user would, and the
//! one-line error of bad input.

use std::process::{Command, Output};

/// Runs the binary in the workspace root with `args` and extra environment variables.
#[allow(clippy::disallowed_methods)] // tests run the binary as a user would
pub fn suitesmith(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_suitesmith"));
    c.args(args).current_dir(test_support::workspace_root());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run suitesmith")
}

/// stderr, checked to be exactly one line.
#[allow(dead_code)] // each test file compiles this module; not every one checks stderr
pub fn stderr_line(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "expected one line on stderr, got {err:?}");
    err
}
