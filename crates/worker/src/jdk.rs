//! Finding the JVM to run workers on: `$JAVA_HOME/bin/java`, else `java` on `PATH` (the `jdk` crate
//! says where, for the test cluster's jmods too), and checking that it is Java 8 or later (the
//! runtime is compiled with `--release 8`). A missing or too old Java is one clear error, reported
//! once, before any worker starts.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::WorkerError;

/// The oldest Java the runtime jar runs on.
pub const MIN_JAVA_MAJOR: u32 = 8;

/// A usable `java` executable and its version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Java {
    pub path: PathBuf,
    /// The quoted version from `java -version`, e.g. `17.0.15` or `1.8.0_392`.
    pub version: String,
    /// The feature release: 8 for `1.8.0_392`, 17 for `17.0.15`.
    pub major: u32,
}

impl Java {
    /// `$JAVA_HOME/bin/java` if `JAVA_HOME` is set, else `java` on `PATH`.
    pub fn discover() -> Result<Java, WorkerError> {
        // Where to look is decided by the `jdk` crate, shared with the test cluster's jmods.
        let path = ::jdk::java_executable().map_err(|tried| WorkerError::JdkNotFound { tried })?;
        Java::at(&path)
    }

    /// The executable's path, looked up on `PATH` when it is a bare name (as `Command` does).
    pub fn resolved_path(&self) -> PathBuf {
        if self.path.components().count() > 1 {
            return self.path.clone();
        }
        std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .map(|dir| dir.join(&self.path))
            .find(|p| p.is_file())
            .unwrap_or_else(|| self.path.clone())
    }

    /// Checks the given `java` executable (a path, or a bare name looked up on `PATH`).
    // This crate is the one place allowed to start processes (STYLE.md rule 2, clippy.toml).
    #[allow(clippy::disallowed_methods)]
    pub fn at(path: &Path) -> Result<Java, WorkerError> {
        let output = Command::new(path).arg("-version").output().map_err(|e| WorkerError::JdkNotFound {
            tried: format!("cannot run `{}` ({e})", path.display()),
        })?;
        // `java -version` prints to stderr; some wrappers use stdout.
        let text =
            format!("{}{}", String::from_utf8_lossy(&output.stderr), String::from_utf8_lossy(&output.stdout));
        let Some((version, major)) = parse_version(&text) else {
            return Err(WorkerError::JdkVersionUnknown {
                path: path.to_path_buf(),
                output: text.lines().next().unwrap_or("").to_string(),
            });
        };
        if major < MIN_JAVA_MAJOR {
            return Err(WorkerError::JdkTooOld { path: path.to_path_buf(), version });
        }
        Ok(Java { path: path.to_path_buf(), version, major })
    }
}

/// Parses the first quoted version of `java -version` output: `openjdk version "17.0.15" 2025-04-15`,
/// `java version "1.8.0_392"`, `openjdk version "21-ea"`.
pub(crate) fn parse_version(text: &str) -> Option<(String, u32)> {
    let line = text.lines().find(|l| l.contains(" version \""))?;
    let start = line.find('"')? + 1;
    let len = line[start..].find('"')?;
    let version = &line[start..start + len];
    Some((version.to_string(), major_of(version)?))
}

/// The feature release of a version string: `1.x` is the pre-9 scheme (JEP 223).
pub(crate) fn major_of(version: &str) -> Option<u32> {
    let mut parts = version.split(|c: char| !c.is_ascii_digit());
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 { parts.next()?.parse().ok() } else { Some(first) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        let v = |s: &str| parse_version(s).map(|(_, m)| m);
        assert_eq!(v("openjdk version \"17.0.15\" 2025-04-15\nOpenJDK Runtime"), Some(17));
        assert_eq!(v("java version \"1.8.0_392\"\n"), Some(8));
        assert_eq!(v("java version \"1.7.0_80\"\n"), Some(7));
        assert_eq!(v("openjdk version \"21-ea\" 2023-09-19"), Some(21));
        assert_eq!(v("Picked up JAVA_TOOL_OPTIONS: -Dx=1\nopenjdk version \"11.0.2\""), Some(11));
        assert_eq!(v("garbage"), None);
        assert_eq!(major_of("25"), Some(25));
    }

    #[test]
    fn missing_java_is_one_clear_error() {
        let err = Java::at(Path::new("/nonexistent/bin/java")).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("no Java found: cannot run `/nonexistent/bin/java`"), "{msg}");
        assert!(msg.contains("set JAVA_HOME"), "{msg}");
    }
}
