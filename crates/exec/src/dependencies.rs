//! The other classes of the user's classpath that need the guards: a class that the
//! class under test calls, directly or not, may exit, delete files, open sockets or read the clock
//! as well as the class under test itself, and it runs in the same workers and in the same
//! verification JVMs. Every class of the user's classpath entries (not the JDK's jmods) whose
//! constant pool refers to a method of `rt_abi::GuardSet::Containment` is rewritten with those
//! redirects alone: no probes, no static reset, no string-comparison recording.
//!
//! The scan reads each class's constant pool on its own (`ClassFile::read_constant_pool`), not
//! through the run's program database: the database keeps what it parses for the whole run, and
//! the scan looks at every class of the classpath once, to keep a few. The classes it keeps are
//! parsed and decoded once more, standalone, by the instrumenter. It does not follow calls (which
//! would need the whole call graph and still miss reflection): any class the run may load counts.

use jvm_model::ClassName;
use std::collections::BTreeSet;

use classfile::{ClassFile, ClassPath};

/// Packages of the test frameworks the verification runs drive (JUnit 4 and 5 with what they
/// bring): a user's classpath may hold them, and a guarded copy would shadow the runner's own
/// classes (its timeout threads counted against the tests' limit), so they stay as they are.
const TEST_FRAMEWORKS: &[&str] =
    &["junit/", "org/junit/", "org/hamcrest/", "org/opentest4j/", "org/apiguardian/"];

/// The guard-instrumented copies of the user's classes that call a redirected method.
#[derive(Debug, Default)]
pub struct Dependencies {
    /// (binary name, bytes), sorted by name; each has at least one redirected call.
    pub classes: Vec<(String, Vec<u8>)>,
    /// One line per class, method or classpath entry left without guards, with the reason.
    pub unchanged: Vec<String>,
    /// Classes whose constant pool was read.
    pub scanned: usize,
}

/// Scans the classpath entries of `cp` that are not jmods (the user's, with the jars their
/// manifests name) in lookup order, skipping the classes in `skip` (internal names: the classes
/// under test, instrumented in full), classes a previous entry shadows, the packages the worker
/// takes from the JDK (`rt_abi::PARENT_FIRST_PACKAGES`), the test frameworks' packages
/// ([`TEST_FRAMEWORKS`]), signed or sealed jars and classes with multi-release variants, and returns
/// the containment-guarded copy of every class that calls a redirected method.
pub fn guard_dependencies(cp: &ClassPath, skip: &[String]) -> Result<Dependencies, classfile::Error> {
    let skip: BTreeSet<&str> = skip.iter().map(String::as_str).collect();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut out = Dependencies::default();
    for entry in cp.entries().iter().filter(|e| !e.is_jmod()) {
        if entry.is_signed_or_sealed() {
            // Its classes still shadow those of later entries.
            let before = seen.len();
            seen.extend(entry.class_names().map(str::to_owned));
            if seen.len() > before {
                out.unchanged.push(format!(
                    "classpath entry {}: signed or sealed, its classes run without guards",
                    entry.path().display()
                ));
            }
            continue;
        }
        for class in entry.classes() {
            let (name, bytes) = class?;
            if !seen.insert(name.clone())
                || skip.contains(name.as_str())
                || rt_abi::PARENT_FIRST_PACKAGES.iter().chain(TEST_FRAMEWORKS).any(|p| name.starts_with(p))
            {
                continue;
            }
            out.scanned += 1;
            // A class whose pool does not read cannot be loaded either: nothing to guard.
            let Ok(pool) = ClassFile::read_constant_pool(&bytes) else { continue };
            if !instrument::refers_to_redirects(&pool, rt_abi::GuardSet::Containment) {
                continue;
            }
            if entry.is_versioned(&name) {
                // The JVM may load a variant of it, which a copy of the base class would replace.
                out.unchanged
                    .push(format!("dependency class {name}: multi-release variants, runs without guards"));
                continue;
            }
            match instrument::instrument_standalone(&bytes, &instrument::Options::containment()) {
                Ok((guarded, _, report)) => {
                    for u in &report.unchanged {
                        out.unchanged.push(format!("dependency method {name}.{}: {}", u.method, u.reason));
                    }
                    // Referred to only through a method handle or by a call the table does not
                    // redirect: the class is as it was.
                    if report.redirects > 0 {
                        out.classes.push((ClassName::from_internal(name.as_str()).binary(), guarded));
                    }
                }
                Err(e) => out.unchanged.push(format!("dependency class {name}: {e}")),
            }
        }
    }
    out.classes.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}
