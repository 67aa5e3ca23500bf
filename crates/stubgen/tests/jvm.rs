//! Stubs in a real JVM: compiles the subjects of `tests/java/stubs` with a test double of the
//! runtime (`tests/java/suitesmith/rt/Stubs.java`) and a driver, generates a stub for every
//! abstract class and interface among them, and runs the driver once under `-Xverify:all`. The
//! driver makes each stub through each constructor, calls every method, and prints the results
//! with the calls the runtime recorded; the snapshot holds the specs and that output.
//!
//! The specs are read from the compiled subjects (constructors and abstract methods in class-file
//! order), so a new subject needs only its Java file and a section in the driver.

// Tests start `javac`/`java` themselves; in the engine only the worker crate spawns processes.
#![allow(clippy::disallowed_methods)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use classfile::{ClassFile, access};
use expect_test::expect_file;
use stubgen::StubSpec;

fn java_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/java")
}

/// Every `.java` file under `dir`, sorted, so the compiler sees the same command line each run.
fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut res = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "java") {
                res.push(path);
            }
        }
    }
    res.sort();
    res
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{cmd:?} failed:\n{stderr}\n{}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8(out.stdout).unwrap()
}

/// An owned spec, as the engine would derive it from the class to stub.
struct OwnedSpec {
    name: String,
    super_name: String,
    interfaces: Vec<String>,
    constructors: Vec<String>,
    methods: Vec<(String, String)>,
}

impl OwnedSpec {
    fn spec(&self) -> StubSpec<'_> {
        StubSpec {
            name: &self.name,
            super_name: &self.super_name,
            interfaces: &self.interfaces,
            constructors: &self.constructors,
            methods: &self.methods,
            signature: None,
        }
    }
}

/// The stub of an abstract class or interface: an interface is implemented by a subclass of
/// `Object` with one constructor; an abstract class is extended, mirroring its non-private
/// constructors. Either way its own abstract methods, in class-file order, are the methods.
fn spec_for(class: &ClassFile) -> OwnedSpec {
    let cp = &class.constant_pool;
    let name = class.name().into_owned();
    let interface = class.access_flags & access::INTERFACE != 0;
    let mut constructors = Vec::new();
    let mut methods = Vec::new();
    for m in &class.methods {
        let (n, d) = (m.name(cp).unwrap().into_owned(), m.descriptor(cp).unwrap().into_owned());
        if n == "<init>" && m.access_flags & access::PRIVATE == 0 {
            constructors.push(d);
        } else if m.access_flags & access::ABSTRACT != 0 {
            methods.push((n, d));
        }
    }
    let (super_name, interfaces) = if interface {
        constructors = vec!["()V".to_owned()];
        ("java/lang/Object".to_owned(), vec![name.clone()])
    } else {
        (name.clone(), Vec::new())
    };
    OwnedSpec { name: format!("{name}$SuitesmithStub"), super_name, interfaces, constructors, methods }
}

fn describe(spec: &StubSpec<'_>) -> String {
    let mut out = format!("{} extends {} implements {:?}\n", spec.name, spec.super_name, spec.interfaces);
    for c in spec.constructors {
        writeln!(out, "  <init>{c}").unwrap();
    }
    for (k, (n, d)) in spec.methods.iter().enumerate() {
        writeln!(out, "  {k}: {n}{d}").unwrap();
    }
    out
}

#[test]
fn stubs_verify_and_answer_in_a_jvm() {
    let bin = test_support::java_home().join("bin");
    let dir = tempfile::tempdir().unwrap();
    let classes = dir.path().join("classes");
    run(Command::new(bin.join("javac"))
        .args(["--release", "8", "-Xlint:-options", "-d"])
        .arg(&classes)
        .args(java_files(&java_dir())));

    let mut snapshot = String::new();
    // The package `stubs` itself: `stubs.hidden` holds a class no test outside it may stub.
    let stubs_dir = java_dir().join("stubs");
    let subjects: Vec<PathBuf> =
        java_files(&stubs_dir).into_iter().filter(|f| f.parent() == Some(stubs_dir.as_path())).collect();
    for source in &subjects {
        let stem = source.file_stem().unwrap().to_str().unwrap();
        let bytes = std::fs::read(classes.join("stubs").join(format!("{stem}.class"))).unwrap();
        let class = ClassFile::parse(&bytes).unwrap();
        if class.access_flags & access::ABSTRACT == 0 {
            continue;
        }
        let owned = spec_for(&class);
        let stub = stubgen::generate(&owned.spec()).unwrap();
        // The class parses back as what was asked for.
        let parsed = ClassFile::parse(&stub).unwrap();
        assert_eq!(parsed.name(), owned.name);
        std::fs::write(classes.join(format!("{}.class", owned.name)), stub).unwrap();
        snapshot.push_str(&describe(&owned.spec()));
    }

    // Application classes are verified by default; `-Xverify:all` says so explicitly, so a JVM
    // set up to skip verification cannot let a malformed stub through.
    let output =
        run(Command::new(bin.join("java")).arg("-Xverify:all").arg("-cp").arg(&classes).arg("driver.Main"));
    snapshot.push('\n');
    snapshot.push_str(&output);
    expect_file!["../test_data/jvm.txt"].assert_eq(&snapshot);
}
