//! Where JUnit and JaCoCo come from: the jars of Debian's `junit4`, `libhamcrest-java`, `junit5` and
//! `libjacoco-java` packages in `/usr/share/java` (or the same file names in another directory), and
//! the JaCoCo agent, which Debian ships only *inside* `org.jacoco.agent.jar` (reference/feasibility.md
//! §6) and which is therefore extracted once into the cache directory.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::VerifyError;

/// Debian's directory of Java libraries.
pub const DEBIAN_JAVA_DIR: &str = "/usr/share/java";

/// The JUnit generation of a suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JUnitVersion {
    Four,
    Five,
}

impl JUnitVersion {
    fn number(self) -> u8 {
        match self {
            JUnitVersion::Four => 4,
            JUnitVersion::Five => 5,
        }
    }

    /// The argument of `suitesmith.tools.RunTests`.
    pub(crate) fn arg(self) -> &'static str {
        match self {
            JUnitVersion::Four => "4",
            JUnitVersion::Five => "5",
        }
    }
}

/// The jars a JUnit suite needs: `compile` on javac's classpath, `run` (a superset) on the JVM's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JUnitJars {
    pub compile: Vec<PathBuf>,
    pub run: Vec<PathBuf>,
}

const JUNIT4: &[&str] = &["junit4.jar", "hamcrest-core.jar"];
const JUNIT5_COMPILE: &[&str] =
    &["junit-jupiter-api.jar", "apiguardian-api.jar", "opentest4j.jar", "junit-platform-commons.jar"];
const JUNIT5_RUN: &[&str] =
    &["junit-jupiter-engine.jar", "junit-platform-engine.jar", "junit-platform-launcher.jar"];

impl JUnitJars {
    /// The jars of Debian's packages in `/usr/share/java`.
    pub fn debian(version: JUnitVersion) -> Result<JUnitJars, VerifyError> {
        JUnitJars::in_dir(Path::new(DEBIAN_JAVA_DIR), version)
    }

    /// The jars under Debian's file names in `dir`; a missing one is [`VerifyError::JUnitMissing`].
    pub fn in_dir(dir: &Path, version: JUnitVersion) -> Result<JUnitJars, VerifyError> {
        let (compile, extra, packages): (&[&str], &[&str], _) = match version {
            JUnitVersion::Four => (JUNIT4, &[], "junit4 libhamcrest-java"),
            JUnitVersion::Five => (JUNIT5_COMPILE, JUNIT5_RUN, "junit5"),
        };
        let find = |names: &[&str]| -> Result<Vec<PathBuf>, VerifyError> {
            names
                .iter()
                .map(|n| {
                    let jar = dir.join(n);
                    if jar.is_file() {
                        Ok(jar)
                    } else {
                        Err(VerifyError::JUnitMissing { jar, version: version.number(), packages })
                    }
                })
                .collect()
        };
        let compile = find(compile)?;
        let mut run = compile.clone();
        run.extend(find(extra)?);
        Ok(JUnitJars { compile, run })
    }
}

/// JaCoCo 0.8.x: the agent bundle (`org.jacoco.agent.jar`, which contains `jacocoagent.jar`) and the
/// jars `org.jacoco.core` needs to analyse class files (it uses ASM).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JacocoJars {
    pub agent_bundle: PathBuf,
    pub core: Vec<PathBuf>,
}

const JACOCO_CORE: &[&str] = &["org.jacoco.core.jar", "asm.jar", "asm-commons.jar", "asm-tree.jar"];

impl JacocoJars {
    /// The jars of Debian's `libjacoco-java` (and its `libasm-java` dependency) in `/usr/share/java`.
    pub fn debian() -> Result<JacocoJars, VerifyError> {
        JacocoJars::in_dir(Path::new(DEBIAN_JAVA_DIR))
    }

    /// The jars under Debian's file names in `dir`; a missing one is [`VerifyError::JacocoMissing`].
    pub fn in_dir(dir: &Path) -> Result<JacocoJars, VerifyError> {
        let find = |n: &str| {
            let jar = dir.join(n);
            if jar.is_file() { Ok(jar) } else { Err(VerifyError::JacocoMissing { jar }) }
        };
        Ok(JacocoJars {
            agent_bundle: find("org.jacoco.agent.jar")?,
            core: JACOCO_CORE.iter().map(|n| find(n)).collect::<Result<_, _>>()?,
        })
    }

    /// The agent, extracted into the cache directory if needed, set to write `exec_file`.
    pub fn agent(&self, exec_file: &Path) -> Result<CoverageAgent, VerifyError> {
        Ok(CoverageAgent { agent_jar: self.agent_jar()?, exec_file: exec_file.to_path_buf() })
    }

    /// `jacocoagent.jar` on disk: `<cache>/jacocoagent-<hash>.jar`, written once, atomically.
    pub fn agent_jar(&self) -> Result<PathBuf, VerifyError> {
        let bytes = read_entry(&self.agent_bundle, "jacocoagent.jar")?.ok_or_else(|| VerifyError::Jar {
            path: self.agent_bundle.clone(),
            detail: "no jacocoagent.jar inside".into(),
        })?;
        let name = format!("jacocoagent-{:016x}.jar", fnv1a(&bytes));
        crate::runtime::install_cached(&name, &bytes).map_err(|(dir, e)| {
            VerifyError::io(format!("cannot write the JaCoCo agent under {}", dir.display()), e)
        })
    }
}

/// The JaCoCo agent for one run: `-javaagent:<agent_jar>=destfile=<exec_file>` (appending).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoverageAgent {
    pub agent_jar: PathBuf,
    pub exec_file: PathBuf,
}

/// The bytes of entry `name` of a jar; `None` if it has no such entry.
pub(crate) fn read_entry(jar: &Path, name: &str) -> Result<Option<Vec<u8>>, VerifyError> {
    let bad = |detail: String| VerifyError::Jar { path: jar.to_path_buf(), detail };
    let file = std::fs::File::open(jar).map_err(|e| bad(e.to_string()))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| bad(e.to_string()))?;
    let mut entry = match zip.by_name(name) {
        Ok(entry) => entry,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => return Err(bad(e.to_string())),
    };
    let mut bytes = Vec::new();
    entry.read_to_end(&mut bytes).map_err(|e| bad(format!("{name}: {e}")))?;
    Ok(Some(bytes))
}

/// FNV-1a, 64 bits, as build.rs names the runtime jar.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
