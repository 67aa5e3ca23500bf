//! The interpreter and the call graph choose the same callees: over every call site of every
//! method of Debian's Guava 31.1 and commons-lang3 3.12 (with java.base, so that calls naming the
//! JDK resolve), the method `symbolic::callee` selects for each receiver class the call graph
//! considers (the named class and its subtypes that can have instances) are exactly the call
//! graph's targets. `callee` is what the interpreter's `invoke*` selects through, so a DSE or
//! SUSHI run and the flags and OCG analyses cannot disagree on a callee again. The
//! `resolution` fixtures check single answers by hand in `crates/programdb/tests/resolve.rs`;
//! here they are checked through the interpreter's entry point too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use classfile::access;
use programdb::{ClassId, InvokeKind, MethodId, ProgramDb};

/// What a call site's `(kind, owner, name, descriptor)` selects: targets sorted and capped, and
/// whether the cap cut some off (as `CallSite::targets` and `truncated`).
type Selected = (Vec<MethodId>, bool);

/// The callees the interpreter selects for a call, over the receivers the call graph considers.
fn interpreter_callees(db: &ProgramDb, kind: InvokeKind, owner: &str, name: &str, desc: &str) -> Selected {
    if !kind.is_virtual() {
        return (symbolic::callee(db, kind, owner, name, desc, "").method.into_iter().collect(), false);
    }
    let concrete = |c: &ClassId| db.access_flags(*c) & (access::ABSTRACT | access::INTERFACE) == 0;
    let receivers = db.class_id(owner).into_iter().chain(db.subtypes(owner)).filter(concrete);
    let mut all: Vec<MethodId> = receivers
        .filter_map(|r| symbolic::callee(db, kind, owner, name, desc, db.class_name(r)).method)
        .collect();
    all.sort_unstable();
    all.dedup();
    let cap = db.config().max_call_targets;
    let truncated = all.len() > cap;
    all.truncate(cap);
    (all, truncated)
}

/// Compares every call site of every method of the classes of `jars`; returns the number of
/// sites checked and a description of each disagreement.
fn compare(db: &ProgramDb, jars: &[PathBuf]) -> (usize, Vec<String>) {
    let mut memo: BTreeMap<(InvokeKind, String, String, String), Selected> = BTreeMap::new();
    let (mut sites, mut problems) = (0, Vec::new());
    let entries = db.classpath().entries().iter().filter(|e| jars.iter().any(|j| j == e.path()));
    let classes: Vec<ClassId> =
        entries.flat_map(|e| e.class_names()).filter_map(|n| db.class_id(n)).collect();
    for c in classes {
        for m in db.methods(c) {
            for site in db.call_sites(m) {
                let Some(kind) = InvokeKind::of(site.op) else { continue };
                sites += 1;
                let key = (kind, site.owner.clone(), site.name.clone(), site.descriptor.clone());
                let want = memo.entry(key).or_insert_with(|| {
                    interpreter_callees(db, kind, &site.owner, &site.name, &site.descriptor)
                });
                if (&site.targets, site.truncated) != (&want.0, want.1) {
                    problems.push(format!(
                        "{}#{} insn {} {:?} {}.{}{}: call graph {:?}, interpreter {:?}",
                        db.class_name(c),
                        m.index(),
                        site.insn.0,
                        kind,
                        site.owner,
                        site.name,
                        site.descriptor,
                        site.targets,
                        want.0
                    ));
                }
            }
        }
    }
    (sites, problems)
}

fn open(paths: Vec<PathBuf>) -> ProgramDb {
    test_support::open_db(&paths)
}

#[test]
fn guava_and_commons_lang_call_sites_have_the_interpreters_callees() {
    let corpus = test_support::corpus_jars();
    let dir = Path::new("/usr/share/java");
    let jars = [dir.join("guava.jar"), dir.join("commons-lang3.jar")];
    let mut paths: Vec<PathBuf> = jars.to_vec();
    for j in corpus.iter().filter(|j| jars.contains(&j.path)) {
        paths.extend(j.deps.iter().cloned());
    }
    paths.push(test_support::java_base_jmod());
    let db = open(paths);
    let (sites, problems) = compare(&db, &jars);
    assert!(sites > 40_000, "only {sites} call sites: are the jars the expected ones?");
    assert!(
        problems.is_empty(),
        "{} of {sites} call sites disagree:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_resolution_fixtures_call_sites_have_the_interpreters_callees() {
    let fixtures = test_support::fixture_classes("resolution");
    let db = open(vec![fixtures.clone(), test_support::java_base_jmod()]);
    let (sites, problems) = compare(&db, &[fixtures]);
    assert!(sites > 20, "only {sites} call sites");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_interpreter_selects_private_methods_and_array_methods_as_the_jvm_does() {
    let db = open(vec![test_support::fixture_classes("resolution"), test_support::java_base_jmod()]);
    let string = "()Ljava/lang/String;";
    let declared = |owner: &str, name: &str, desc: &str| {
        db.class_id(owner).and_then(|c| db.declared_method(c, name, desc)).expect("declared")
    };
    // A private method is selected whatever the receiver (JVMS §5.4.6 step 1), and the search
    // for a model starts at the named class, not at the receiver's.
    let c = symbolic::callee(
        &db,
        InvokeKind::Virtual,
        "resolution/Privates$Secretive",
        "hidden",
        string,
        "resolution/Privates$Nosy",
    );
    assert_eq!(c.method, Some(declared("resolution/Privates$Secretive", "hidden", string)));
    assert_eq!(c.start, "resolution/Privates$Secretive");
    // An array receiver has Object's methods (JVMS §2.15): `clone` of an `int[]`.
    let c = symbolic::callee(&db, InvokeKind::Virtual, "[I", "clone", "()Ljava/lang/Object;", "[I");
    assert_eq!(c.method, Some(declared("java/lang/Object", "clone", "()Ljava/lang/Object;")));
    assert_eq!(c.start, "java/lang/Object");
    // A conflict of defaults leaves nothing to run.
    let c = symbolic::callee(
        &db,
        InvokeKind::Interface,
        "resolution/Conflicts$Left",
        "side",
        string,
        "resolution/Conflicts$Both",
    );
    assert_eq!(c.method, None);
}
