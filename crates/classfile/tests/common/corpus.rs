//! The real-world corpus, shared by the round-trip tests and the benchmark: Debian jars
//! from /usr/share/java and the JDK's own modules (listed once, in `test-support`).

// Not every test target uses every helper.
#![allow(dead_code)]

use std::path::PathBuf;

/// Every corpus container: the jars of `test_support::corpus_jars`, then the JDK modules of
/// `test_support::jdk_jmods`.
pub fn paths() -> Vec<PathBuf> {
    let mut res: Vec<PathBuf> = test_support::corpus_jars().into_iter().map(|j| j.path).collect();
    res.extend(test_support::jdk_jmods());
    res
}

/// Every class file of the corpus, as (container, name, bytes), loaded into memory.
pub fn load() -> Vec<(String, String, Vec<u8>)> {
    let mut res = Vec::new();
    for p in paths() {
        let entry = classfile::ClassPathEntry::open(&p)
            .unwrap_or_else(|e| panic!("corpus entry {}: {e}", p.display()));
        let container = p.file_name().unwrap().to_string_lossy().into_owned();
        for f in entry.class_files() {
            let (name, bytes) = f.unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            res.push((container.clone(), name, bytes));
        }
    }
    res
}
