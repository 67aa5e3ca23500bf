//! Helpers shared by the integration tests and the benchmark: the real-world corpus of issue 2
//! (Debian jars and the JDK's `java.base.jmod`) and the bytecode fixture classes.

// Not every test target uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use classfile::ClassFile;

/// The corpus jars named in the bytecode brief (Debian's unversioned symlinks).
pub const JARS: &[&str] = &[
    "commons-lang3",
    "commons-io",
    "commons-codec",
    "guava",
    "jsoup",
    "commons-collections4",
    "okio",
    "commons-math3",
    "gson",
    "commons-csv",
    "commons-cli",
    "jackson-core",
    "joda-time",
    "commons-text",
    "jgrapht-core",
    "xz",
];

/// The JDK home: `$JAVA_HOME` if set, else the JDK that the `java` on `PATH` belongs to.
pub fn java_home() -> PathBuf {
    if let Some(h) = std::env::var_os("JAVA_HOME") {
        return PathBuf::from(h);
    }
    let path = std::env::var_os("PATH").expect("PATH is set");
    let java =
        std::env::split_paths(&path).map(|d| d.join("java")).find(|p| p.exists()).expect("java on PATH");
    let real = std::fs::canonicalize(java).expect("canonical java path");
    real.parent().and_then(|bin| bin.parent()).expect("java in <home>/bin").to_path_buf()
}

/// Every corpus container: the jars, then java.base.jmod.
pub fn paths() -> Vec<PathBuf> {
    let mut res: Vec<PathBuf> =
        JARS.iter().map(|j| PathBuf::from(format!("/usr/share/java/{j}.jar"))).collect();
    res.push(java_home().join("jmods/java.base.jmod"));
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
