//! What the `ocg` tests share: the fixture area's program database, its classes under test and
//! the branch each marks `// hard branch`.

#![allow(dead_code)] // each test file compiles this module; not every one uses all of it

use std::path::PathBuf;

use bytecode::InsnIdx;
use ocg::graph::Target;
use ocg::slice;
use programdb::{MethodId, ProgramDb};

/// The `ocg` fixture classes alone.
pub fn fixture_db() -> ProgramDb {
    test_support::open_db(&[test_support::fixture_classes("ocg")])
}

/// The `ocg` fixture classes and `java.base`, as a run opens them (the cluster needs the JDK).
pub fn run_db() -> ProgramDb {
    let paths = [test_support::fixture_classes("ocg"), test_support::java_base_jmod()];
    test_support::open_db(&paths)
}

pub fn java_dir() -> PathBuf {
    test_support::workspace_root().join("fixtures/java/ocg")
}

/// The public classes of the area: one per source file directly in `fixtures/java/ocg`.
pub fn classes_under_test() -> Vec<String> {
    let mut res: Vec<String> = std::fs::read_dir(java_dir())
        .expect("fixtures/java/ocg")
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".java").map(str::to_owned))
        .collect();
    res.sort();
    res
}

pub fn method_name(db: &ProgramDb, m: MethodId) -> String {
    let class = db.class(m.class()).expect("parsed");
    db.member(m).and_then(|mm| mm.name(&class.constant_pool)).map(|n| n.into_owned()).unwrap_or_default()
}

/// The methods of `ocg/<class>` but constructors and initialisers.
pub fn methods(db: &ProgramDb, class: &str) -> Vec<MethodId> {
    let c = db.class_id(&format!("ocg/{class}")).unwrap_or_else(|| panic!("ocg/{class} is compiled"));
    db.methods(c).filter(|&m| !method_name(db, m).starts_with('<')).collect()
}

/// The branches on the source lines marked `// hard branch` in `<class>.java`.
pub fn hard_branches(db: &ProgramDb, class: &str) -> Vec<Target> {
    let source = std::fs::read_to_string(java_dir().join(format!("{class}.java"))).expect("source");
    let lines: Vec<u16> = source
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("// hard branch"))
        .map(|(k, _)| k as u16 + 1)
        .collect();
    let mut res = Vec::new();
    for m in methods(db, class) {
        let Some(Ok(body)) = db.body(m) else { continue };
        let mut table: Vec<(InsnIdx, u16)> = body.lines().map(|e| (e.start, e.line)).collect();
        table.sort();
        for insn in slice::branch_insns(db, m) {
            let line = table.iter().rev().find(|(start, _)| *start <= insn).map(|e| e.1);
            if line.is_some_and(|l| lines.contains(&l)) {
                res.push(Target { method: m, insn });
            }
        }
    }
    res
}
