//! JVM worker processes: find the JDK, spawn `java ... suitesmith.rt.WorkerMain` with the embedded
//! runtime jar, speak the protocol of `docs/protocol.md` with it, enforce deadlines, kill and restart
//! it when the code under test hangs or crashes it, and spread batches over a [`Pool`].
//!
//! This is the only crate that starts processes (STYLE.md rule 2). It knows nothing about test-case
//! models or search: its input is protocol statements, its output per test is a [`TestRun`].
//! Architecture invariant: no JVM outlives its [`Worker`] value (kill on drop), and whatever the
//! code under test does is data in a [`TestRun`], never an `Err` (STYLE.md rule 8). Every process
//! and scratch directory is registered in [`cleanup`], which a signal handler empties.

pub mod cleanup;
mod jdk;
mod pool;
mod process;
mod runtime;
pub mod tool;
pub mod verify;

use std::path::PathBuf;

pub use jdk::{Java, MIN_JAVA_MAJOR};
pub use pool::{Ahead, AheadSlot, Pool, PoolStats, Scored, default_workers};
pub use process::{DEFAULT_MAX_HEAP_MB, TestRun, Worker, WorkerConfig};
pub use runtime::{RUNTIME_HASH, RUNTIME_JAR, runtime_jar};
pub use sandbox::{Layer as SandboxLayer, Request as SandboxRequest, Sandbox, SandboxError};

/// Everything that can go wrong with the worker machinery itself (never with the code under test).
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error(
        "no Java found: {tried}. suitesmith needs a JDK or JRE {MIN_JAVA_MAJOR} or later; set JAVA_HOME or put `java` on PATH"
    )]
    JdkNotFound { tried: String },
    #[error(
        "{path} is Java {version}, but suitesmith needs Java {MIN_JAVA_MAJOR} or later; set JAVA_HOME to a newer JDK"
    )]
    JdkTooOld { path: PathBuf, version: String },
    #[error("cannot tell the version of {path} from `java -version`: {output}")]
    JdkVersionUnknown { path: PathBuf, output: String },
    #[error("cannot write the runtime jar under {path}: {source}")]
    RuntimeJar { path: PathBuf, source: std::io::Error },
    #[error("cannot create the worker's scratch directory: {0}")]
    Scratch(std::io::Error),
    #[error("cannot start {java}: {source}")]
    Spawn { java: PathBuf, source: std::io::Error },
    #[error("cannot confine the worker: {0}")]
    Sandbox(#[from] SandboxError),
    #[error("worker failed during {stage}: {detail}{}", stderr_suffix(.stderr))]
    Handshake { stage: &'static str, detail: String, stderr: String },
}

/// The sandbox of a JVM run from `java` when the caller names none: [`SandboxRequest::Auto`].
pub fn default_sandbox(java: &Java) -> std::sync::Arc<Sandbox> {
    sandbox_for(SandboxRequest::Auto, java).unwrap_or_else(|_| {
        // Auto fails only where the JDK's path cannot be resolved; that child fails to start anyway.
        std::sync::Arc::new(Sandbox::default_for_java(&java.resolved_path()))
    })
}

/// The sandbox `request` gets for JVMs run from `java`, made once per run and request (it reads
/// the kernel's Landlock version, tries a namespace and counts the user's threads), so the CLI's
/// check and each class's workers share one.
pub fn sandbox_for(request: SandboxRequest, java: &Java) -> Result<std::sync::Arc<Sandbox>, SandboxError> {
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex, PoisonError};
    static MADE: Mutex<BTreeMap<(PathBuf, &'static str), Arc<Sandbox>>> = Mutex::new(BTreeMap::new());
    let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
    let key = (java.path.clone(), request.name());
    if let Some(s) = made.get(&key) {
        return Ok(Arc::clone(s));
    }
    let s = Arc::new(Sandbox::for_java(request, &java.resolved_path())?);
    made.insert(key, Arc::clone(&s));
    Ok(s)
}

fn stderr_suffix(stderr: &str) -> String {
    if stderr.trim().is_empty() { String::new() } else { format!("\nworker stderr:\n{}", stderr.trim_end()) }
}
