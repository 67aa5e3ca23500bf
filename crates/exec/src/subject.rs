//! The classes under test made ready for the workers: planned together (so probe ids are unique),
//! instrumented with every probe kind, the guards and the static reset, and packed into the `Setup`
//! a worker loads them from, with the guarded copies of the other classes of the user's classpath
//! that call a redirected method (`dependencies.rs`). This is where the instrumenter meets the
//! workers.
//!
//! A class that cannot be instrumented at all is sent as it was and reported: the worker then runs it
//! without probes or guards, which the caller sees in `Subject::reports`.

use jvm_model::ClassName;
use std::path::PathBuf;

use goals::ProbePlan;
use programdb::{ClassId, ProgramDb};
use protocol::Setup;

/// Instrumented classes with their plan, and the `Setup` that loads them.
#[derive(Debug)]
pub struct Subject {
    pub plan: ProbePlan,
    pub setup: Setup,
    /// One line per class or method left uninstrumented, with the reason.
    pub unchanged: Vec<String>,
    /// The other classes of the classpath sent with the containment guards alone (binary names,
    /// sorted): defined by the worker when first loaded, after the classes under test.
    pub dependencies: Vec<String>,
    /// Classes the dependency scan read (0 without guards).
    pub scanned: usize,
    /// With `instrument::Options::schemata`: the keys of the mutant schemata sites emitted in all
    /// classes, sorted (`instrument::active_mutant`); one line per method whose schemata were left
    /// out, with the reason.
    pub mutant_sites: Vec<u32>,
    pub unmutated: Vec<String>,
}

/// Why the classes under test could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum SubjectError {
    #[error("cannot read the classpath: {0}")]
    ClassPath(#[from] classfile::Error),
    #[error("class {0} is not on the classpath")]
    MissingClass(String),
}

/// Plans and instruments `classes` (internal names, in the order given), read from the run's
/// program database `db`, and builds a `Setup` whose classpath is `classpath` (the worker's, which
/// `db`'s classpath starts with, possibly followed by the JDK's `java.base`) and whose defined
/// classes are the instrumented ones (the JDK's `java.base`). With guards (`opts.guards`),
/// every other class of the user's classpath that calls a redirected method is sent too, with the
/// containment guards alone ([`crate::guard_dependencies`]), so that nothing the classes under
/// test call escapes or reads the clock unguarded.
pub fn prepare_in(
    db: &ProgramDb,
    classpath: &[PathBuf],
    classes: &[String],
    opts: &instrument::Options,
    timeout_ms: u32,
) -> Result<Subject, SubjectError> {
    let ids: Vec<ClassId> = classes
        .iter()
        .map(|name| db.class_id(name).ok_or_else(|| SubjectError::MissingClass(name.clone())))
        .collect::<Result<_, _>>()?;
    let (plan, results) = instrument::instrument_classes_in(db, &ids, opts);
    let mut unchanged = Vec::new();
    let (mut mutant_sites, mut unmutated) = (Vec::new(), Vec::new());
    let mut defined = Vec::with_capacity(classes.len());
    for (name, result) in classes.iter().zip(results) {
        let out = match result {
            Ok((out, report)) => {
                for u in report.unchanged {
                    unchanged.push(format!("method {name}.{}: {}", u.method, u.reason));
                }
                mutant_sites.extend(report.mutant_sites);
                unmutated
                    .extend(report.unmutated.into_iter().map(|(m, r)| format!("method {name}.{m}: {r}")));
                out
            }
            Err(e) => {
                unchanged.push(format!("class {name}: {e}"));
                // The original bytes, as they are: read again, not parsed.
                db.classpath().class_bytes(name)?.ok_or_else(|| SubjectError::MissingClass(name.clone()))?
            }
        };
        defined.push((ClassName::from_internal(name.as_str()).binary(), out));
    }
    let (dependencies, scanned) = if opts.guards.is_some() {
        let deps = crate::guard_dependencies(db.classpath(), classes)?;
        unchanged.extend(deps.unchanged);
        let names = deps.classes.iter().map(|(n, _)| n.clone()).collect();
        defined.extend(deps.classes);
        (names, deps.scanned)
    } else {
        (Vec::new(), 0)
    };
    let class_ids = plan
        .classes()
        .iter()
        .enumerate()
        .map(|(i, c)| (i as u32, ClassName::from_internal(c.name.as_str()).binary()))
        .collect();
    let setup = Setup {
        // Absolute: the worker runs in its own scratch directory, where a relative entry would name
        // nothing.
        classpath: classpath
            .iter()
            .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()).display().to_string())
            .collect(),
        classes: defined,
        probe_count: plan.n_probes() as u32,
        class_ids,
        timeout_ms,
        ..Setup::empty()
    };
    mutant_sites.sort_unstable();
    Ok(Subject { plan, setup, unchanged, dependencies, scanned, mutant_sites, unmutated })
}
