//! Where the JDK is, decided in one place for the whole workspace: `$JAVA_HOME` when it is set (and
//! not empty), else the installation of the `java` found on `PATH`. `worker` asks for the `java`
//! executable to run workers on ([`java_executable`]); the test cluster asks for `java.base.jmod`
//! ([`base_jmod`]) so that JDK types have generators.
//!
//! Only paths are computed here: nothing is run (checking the version is `worker`'s job, the one
//! crate that starts processes) and nothing is parsed (that is `classfile`). The messages users see
//! stay with the crates that report them.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// `$JAVA_HOME`, when set and not empty.
pub fn java_home_var() -> Option<PathBuf> {
    std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()).map(PathBuf::from)
}

/// The `java` to run: `$JAVA_HOME/bin/java` when `JAVA_HOME` is set (which must exist: `Err` says
/// what was tried), else the bare name `java`, for the operating system to look up on `PATH`.
pub fn java_executable() -> Result<PathBuf, String> {
    match java_home_var() {
        Some(home) => {
            let path = home.join("bin").join("java");
            if path.is_file() {
                Ok(path)
            } else {
                Err(format!("JAVA_HOME is {} but {} does not exist", home.display(), path.display()))
            }
        }
        None => Ok(PathBuf::from("java")),
    }
}

/// The installation directory of the `java` on `PATH` (symbolic links resolved: `/usr/bin/java` ->
/// `/usr/lib/jvm/<jdk>/bin/java` gives `/usr/lib/jvm/<jdk>`).
pub fn home_of_java_on_path() -> Option<PathBuf> {
    let path: OsString = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("java"))
        .find(|j| j.is_file())
        .and_then(|j| std::fs::canonicalize(j).ok())
        .and_then(|j| j.parent()?.parent().map(Path::to_path_buf))
}

/// `jmods/<module>.jmod` of the JDK in `JAVA_HOME`, else of the `java` on `PATH`: the first that
/// exists (a JRE, or a JDK image without jmods, has none).
pub fn jmod(module: &str) -> Option<PathBuf> {
    [java_home_var(), home_of_java_on_path()]
        .into_iter()
        .flatten()
        .map(|home| home.join("jmods").join(format!("{module}.jmod")))
        .find(|p| p.is_file())
}

/// `java.base.jmod` ([`jmod`]).
pub fn base_jmod() -> Option<PathBuf> {
    jmod("java.base")
}
