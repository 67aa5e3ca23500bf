//! What a run touched outside its scratch: the runner gives `generate` a temporary
//! directory of the run's own (`TMPDIR`) and a working directory of its own, and compares, before and
//! after the run and the check of its tests, the top-level entries of the machine's temporary
//! directory and of the user's home. Anything new there, anything left in the run's temporary
//! directory, and anything in the working directory but the runner's own files is an escape.
//!
//! The machine-wide directories are shared with every other process: a benchmark that checks them
//! must run alone (a build beside it creates `/tmp/rustc*` entries that would be counted).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The entries of the run's directory that the runner itself makes.
const RUNNER_FILES: [&str; 5] = ["engine.stdout", "engine.stderr", "tests", "check", RUN_TMP];

/// The run's own temporary directory (`TMPDIR` of `generate`), inside the run's directory.
pub const RUN_TMP: &str = "tmp";

/// The top-level entries of the shared directories before a run.
#[derive(Debug, Clone)]
pub struct Watched {
    dirs: Vec<(PathBuf, BTreeSet<String>)>,
}

fn entries(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default()
}

impl Watched {
    /// Lists the machine's temporary directory and the user's home (where they exist).
    pub fn before() -> Watched {
        let mut dirs = vec![std::env::temp_dir()];
        if let Some(home) = std::env::var_os("HOME").map(PathBuf::from).filter(|h| h.is_dir()) {
            dirs.push(home);
        }
        dirs.dedup();
        Watched { dirs: dirs.into_iter().map(|d| (d.clone(), entries(&d))).collect() }
    }

    /// The escapes of the run whose directory is `run_dir`, as paths, sorted.
    pub fn escapes(&self, run_dir: &Path) -> Vec<String> {
        let mut out = BTreeSet::new();
        for (dir, before) in &self.dirs {
            for e in entries(dir).difference(before) {
                out.insert(dir.join(e).display().to_string());
            }
        }
        for e in entries(&run_dir.join(RUN_TMP)) {
            out.insert(run_dir.join(RUN_TMP).join(e).display().to_string());
        }
        for e in entries(run_dir) {
            if !RUNNER_FILES.contains(&e.as_str()) {
                out.insert(run_dir.join(e).display().to_string());
            }
        }
        out.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_entries_leftovers_and_strangers_are_escapes() {
        let run = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(run.path().join(RUN_TMP)).expect("tmp");
        std::fs::write(run.path().join("engine.stderr"), "").expect("write");
        let w = Watched::before();
        // Other tests of this process make temporary directories meanwhile: only the run's own
        // directories are certain to be clean.
        assert!(w.escapes(run.path()).iter().all(|e| !e.starts_with(&*run.path().to_string_lossy())));
        std::fs::write(run.path().join(RUN_TMP).join("suitesmith-worker-x"), "").expect("write");
        std::fs::write(run.path().join("canary.txt"), "").expect("write");
        // A new entry in the machine's temporary directory (the run directory itself, made after
        // the snapshot, is one).
        let outside = tempfile::tempdir().expect("tempdir");
        let found = w.escapes(run.path());
        assert!(found.len() >= 3, "{found:?}");
        assert!(found.iter().any(|f| f.ends_with("suitesmith-worker-x")));
        assert!(found.iter().any(|f| f.ends_with("canary.txt")));
        assert!(found.iter().any(|f| Path::new(f) == outside.path()));
    }
}
