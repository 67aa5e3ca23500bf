//! Helpers shared by the integration tests and the benchmark: the real-world corpus
//! (the jars and `java.base.jmod` listed in `test-support`) and the bytecode fixture classes.

// Not every test target uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use classfile::ClassFile;

/// The JDK home (one definition for every test: `test_support::java_home`).
pub fn java_home() -> PathBuf {
    test_support::java_home()
}

/// Every corpus container: the jars of `test_support::corpus_jars`, then java.base.jmod.
pub fn paths() -> Vec<PathBuf> {
    let mut res: Vec<PathBuf> = test_support::corpus_jars().into_iter().map(|j| j.path).collect();
    res.push(test_support::java_base_jmod());
    res
}

/// Every class file of the corpus as (container/name, bytes).
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut res = Vec::new();
    for p in paths() {
        let entry = classfile::ClassPathEntry::open(&p)
            .unwrap_or_else(|e| panic!("corpus entry {}: {e}", p.display()));
        let container = p.file_name().unwrap().to_string_lossy().into_owned();
        for f in entry.class_files() {
            let (name, bytes) = f.unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            res.push((format!("{container}/{name}"), bytes));
        }
    }
    res
}

/// The directory of the compiled bytecode fixtures (`fixtures/classes/bytecode`).
pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/bytecode")
}

/// A compiled fixture class, e.g. `fixture("Switches")`.
pub fn fixture(name: &str) -> ClassFile {
    let path = fixture_dir().join("bytecode").join(format!("{name}.class"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ClassFile::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
