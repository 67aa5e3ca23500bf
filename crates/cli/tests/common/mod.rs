//! What the binary's integration tests share: running `suitesmith` as a user would, and the
//! one-line error of bad input.

use std::collections::BTreeMap;
use std::path::Path;
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

/// Every file under `dir` by its path relative to `dir` (sorted), with its bytes.
#[allow(dead_code)] // each test file compiles this module; not every one reads outputs
pub fn files_under(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("prefix").display().to_string();
                out.insert(rel, std::fs::read(&p).expect("read"));
            }
        }
    }
    out
}

/// The written test files under `dir` (`.java`), sorted by path, as text.
#[allow(dead_code)] // each test file compiles this module; not every one reads outputs
pub fn java_files(dir: &Path) -> Vec<(String, String)> {
    files_under(dir)
        .into_iter()
        .filter(|(p, _)| p.ends_with(".java"))
        .map(|(p, b)| (p, String::from_utf8(b).expect("UTF-8")))
        .collect()
}
