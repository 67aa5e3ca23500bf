//! The real-world corpus of issue 2, shared by the round-trip tests and the benchmark: Debian jars
//! from /usr/share/java and the JDK's own `java.base.jmod`.

// Not every test target uses every helper.
#![allow(dead_code)]

use std::path::PathBuf;

/// The corpus jars (Debian's unversioned symlinks; `core` is ZXing).
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
    "core",
    "jackson-core",
    "joda-time",
    "commons-text",
    "jgrapht-core",
    "xz",
];

/// The JDK home: `$JAVA_HOME` if set, else the JDK that the `javac` on `PATH` belongs to.
pub fn java_home() -> PathBuf {
    if let Some(h) = std::env::var_os("JAVA_HOME") {
        return PathBuf::from(h);
    }
    let path = std::env::var_os("PATH").expect("PATH is set");
    let javac = std::env::split_paths(&path)
        .map(|d| d.join("javac"))
        .find(|p| p.exists())
        .expect("javac on PATH (the JDK is always present)");
    let real = std::fs::canonicalize(javac).expect("canonical javac path");
    real.parent().and_then(|bin| bin.parent()).expect("javac in <home>/bin").to_path_buf()
}

/// Every corpus container, jars first, then java.base.jmod.
pub fn paths() -> Vec<PathBuf> {
    let mut res: Vec<PathBuf> =
        JARS.iter().map(|j| PathBuf::from(format!("/usr/share/java/{j}.jar"))).collect();
    res.push(java_home().join("jmods/java.base.jmod"));
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
