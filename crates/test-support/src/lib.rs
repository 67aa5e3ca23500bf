//! Dev-dependency only: locates the things tests read — the fixture classes, the real-world corpus of
//! Debian-packaged jars, the JDK's `java.base.jmod` — so that every test names them the same way,
//! and is the one door through which tests open a program database over them (`open_db`,
//! `fixture_db`), as a run does. It deliberately runs nothing: spawning processes is `worker`'s job
//! (tests spawn `java` themselves).
//!
//! It sits above `programdb` in the layering; every crate may still dev-depend on it (the crates
//! below `programdb` use only its locators). Cargo builds such a cycle because a crate's
//! integration tests are crates of their own, linked against the same library.

use std::path::{Path, PathBuf};

use programdb::{DbConfig, ProgramDb};

/// The program database over `paths`, as a run opens it (`DbConfig::STANDARD`). A classpath that
/// does not open is a set-up error of the test, so this panics naming it.
pub fn open_db(paths: &[PathBuf]) -> ProgramDb {
    ProgramDb::open(paths, DbConfig::STANDARD)
        .unwrap_or_else(|e| panic!("the classpath {paths:?} does not open: {e}"))
}

/// The database of one fixture area's classes with `java.base` after them: what a run opens for a
/// user's classpath (the test cluster and the interpreter need the JDK's classes).
pub fn fixture_db(area: &str) -> ProgramDb {
    open_db(&[fixture_classes(area), java_base_jmod()])
}

/// The workspace root (the directory holding the root `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/test-support is two levels deep")
        .to_path_buf()
}

/// `fixtures/classes/<area>`: the committed compiler output of `fixtures/java/<area>`.
pub fn fixture_classes(area: &str) -> PathBuf {
    workspace_root().join("fixtures").join("classes").join(area)
}

/// One jar of the corpus, with the jars it needs on the classpath to link (Debian's `Class-Path`
/// manifests name some of these; listing them here keeps tests independent of manifests).
#[derive(Debug, Clone)]
pub struct CorpusJar {
    pub path: PathBuf,
    pub deps: Vec<PathBuf>,
}

/// The jars of the real-world corpus: the public benchmark set plus commons-text, jgrapht and xz.
/// Installed by `scripts/test.sh`; a missing jar is a set-up error, so this panics with the package name.
pub fn corpus_jars() -> Vec<CorpusJar> {
    const JARS: &[(&str, &str, &[&str])] = &[
        ("commons-lang3.jar", "libcommons-lang3-java", &[]),
        ("commons-io.jar", "libcommons-io-java", &[]),
        ("commons-codec.jar", "libcommons-codec-java", &[]),
        (
            "guava.jar",
            "libguava-java",
            &[
                "error_prone_annotations.jar",
                "jsr305.jar",
                "failureaccess.jar",
                "j2objc-annotations.jar",
                "checker-qual.jar",
            ],
        ),
        ("jsoup.jar", "libjsoup-java", &[]),
        ("commons-collections4.jar", "libcommons-collections4-java", &[]),
        ("okio.jar", "libokio-java", &[]),
        ("commons-math3.jar", "libcommons-math3-java", &[]),
        ("gson.jar", "libgoogle-gson-java", &[]),
        ("commons-csv.jar", "libcommons-csv-java", &[]),
        ("commons-cli.jar", "libcommons-cli-java", &[]),
        ("core.jar", "libzxing-core-java", &[]),
        ("jackson-core.jar", "libjackson2-core-java", &[]),
        ("joda-time.jar", "libjoda-time-java", &[]),
        ("commons-text.jar", "libcommons-text-java", &["commons-lang3.jar"]),
        ("jgrapht-core.jar", "libjgrapht-java", &["jheaps.jar"]),
        ("xz.jar", "libxz-java", &[]),
    ];
    let dir = Path::new("/usr/share/java");
    JARS.iter()
        .map(|(jar, package, deps)| {
            let path = dir.join(jar);
            assert!(
                path.exists(),
                "{} is missing: run scripts/test.sh (apt-get install {package})",
                path.display()
            );
            let deps = deps.iter().map(|d| dir.join(d)).filter(|p| p.exists()).collect();
            CorpusJar { path, deps }
        })
        .collect()
}

/// The JDK running the tests: `JAVA_HOME`, else the directory above `bin/javac` on `PATH`.
pub fn java_home() -> PathBuf {
    if let Some(home) = std::env::var_os("JAVA_HOME") {
        return PathBuf::from(home);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let javac = dir.join("javac");
        if let Some(home) =
            std::fs::canonicalize(&javac).ok().as_deref().and_then(Path::parent).and_then(Path::parent)
        {
            return home.to_path_buf();
        }
    }
    panic!("no JDK found: set JAVA_HOME or put javac on PATH")
}

/// The JDK's `java.base.jmod` (a zip after a 4-byte header).
pub fn java_base_jmod() -> PathBuf {
    jdk_jmod("java.base")
}

/// The JDK modules of the round-trip corpus: `java.base`, `java.xml` and `java.desktop` (with the
/// jars, about 20k classes, as in shared/reference/feasibility.md §1.1).
pub fn jdk_jmods() -> Vec<PathBuf> {
    ["java.base", "java.xml", "java.desktop"].iter().map(|m| jdk_jmod(m)).collect()
}

fn jdk_jmod(module: &str) -> PathBuf {
    let jmod = java_home().join("jmods").join(format!("{module}.jmod"));
    assert!(jmod.exists(), "{} is missing (a full JDK with jmods is needed)", jmod.display());
    jmod
}
