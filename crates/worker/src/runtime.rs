//! The runtime jar (`java/runtime`, compiled by `build.rs`) embedded in the binary, and its copy on
//! disk: `$XDG_CACHE_HOME/suitesmith/runtime-<hash>.jar` (else `~/.cache/...`, else the temp dir),
//! written once, atomically (write to a unique temp file, then rename), so concurrent engines never
//! see a half-written jar.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::WorkerError;

/// The runtime jar's bytes.
pub static RUNTIME_JAR: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/runtime.jar"));

/// Content hash of [`RUNTIME_JAR`] (FNV-1a, hex), computed by `build.rs`.
pub const RUNTIME_HASH: &str = env!("SUITESMITH_RUNTIME_HASH");

/// Writes the embedded runtime jar to the cache directory if it is not there yet and returns its path.
pub fn runtime_jar() -> Result<PathBuf, WorkerError> {
    install_cached(&format!("runtime-{RUNTIME_HASH}.jar"), RUNTIME_JAR)
        .map_err(|(dir, e)| WorkerError::RuntimeJar { path: dir, source: e })
}

/// Writes `bytes` as `name` into the first cache directory that takes it (unless a file of that
/// name and size is there already) and returns its path; else the last directory tried and its
/// error. Names carry a content hash, so an existing file of the right size is that content.
pub(crate) fn install_cached(name: &str, bytes: &[u8]) -> Result<PathBuf, (PathBuf, std::io::Error)> {
    let mut last = None;
    for dir in cache_dirs() {
        match install_in(&dir, name, bytes) {
            Ok(path) => return Ok(path),
            Err(e) => last = Some((dir, e)),
        }
    }
    Err(last.unwrap_or_else(|| (std::env::temp_dir(), std::io::Error::other("no cache directory"))))
}

fn cache_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        dirs.push(PathBuf::from(x).join("suitesmith"));
    }
    if let Some(home) = std::env::var_os("HOME").filter(|x| !x.is_empty()) {
        dirs.push(PathBuf::from(home).join(".cache/suitesmith"));
    }
    dirs.push(std::env::temp_dir().join("suitesmith"));
    dirs
}

fn install_in(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let path = dir.join(name);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64) {
        return Ok(path);
    }
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    // Readable by every user: a temporary file is made 0600, and the sandbox's unprivileged uid
    // (the User layer, docs/sandbox.md) must load the jar too. Its bytes are the binary's own.
    tmp.as_file()
        .set_permissions(<std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o644))?;
    tmp.as_file().sync_all()?;
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(path)
}
