//! One definition each: the types below name one thing the whole workspace shares, so each is
//! defined once (at the lowest crate that needs it) and re-exported or imported everywhere else. A
//! second `struct`/`enum`/`type` of the same name in another crate is how two copies drift apart
//! and get bridged by hand-written converters.

mod common;

/// The shared types, each with the file that defines it.
const SHARED: &[(&str, &str)] = &[
    ("PrimType", "crates/jvm-model/src/prim.rs"),
    ("ClassName", "crates/jvm-model/src/class_name.rs"),
    ("ClassId", "crates/programdb/src/lib.rs"),
    ("PlanClassIdx", "crates/goals/src/lib.rs"),
    ("GoalId", "crates/goals/src/lib.rs"),
    ("ProbeId", "crates/rt-abi/src/lib.rs"),
    ("MethodIdx", "crates/goals/src/lib.rs"),
    ("GoalIdx", "crates/fitness/src/space/mod.rs"),
];

/// The files of product sources that define a type named `name` (`struct`, `enum`, `type` alias
/// or union), in path order.
fn definitions(name: &str) -> Vec<String> {
    common::product_sources()
        .into_iter()
        .filter(|(_, src)| src.lines().any(|l| defines(l, name)))
        .map(|(f, _)| f)
        .collect()
}

fn defines(line: &str, name: &str) -> bool {
    let words: Vec<&str> =
        line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    let code = line.trim_start();
    !code.starts_with("//")
        && words.windows(2).any(|w| matches!(w[0], "struct" | "enum" | "type" | "union") && w[1] == name)
}

#[test]
fn shared_types_are_defined_once() {
    let mut problems = Vec::new();
    for &(name, home) in SHARED {
        let found = definitions(name);
        if found != [home] {
            problems.push(format!("{name}: defined in {found:?}, expected only in {home}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_matcher_reads_definitions_not_uses() {
    assert!(defines("pub struct ClassId(pub u32);", "ClassId"));
    assert!(defines("pub(crate) enum PrimType {", "PrimType"));
    assert!(defines("pub type PrimType = jvm_model::PrimType;", "PrimType"));
    assert!(!defines("pub use jvm_model::PrimType;", "PrimType"));
    assert!(!defines("/// a struct ClassId", "ClassId"));
    assert!(!defines("pub struct ClassIdx(u32);", "ClassId"));
}
