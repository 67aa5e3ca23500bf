//! A method that cannot be rewritten is left exactly as it was and reported with its reason, while
//! the rest of its class is instrumented and the class still verifies (DESIGN.md §3.2, "never
//! half-rewritten"). The subject is generated: a method of ~50 KB that probes push past 64 KB.

// Tests start `java`/`javac` themselves; in the engine only the worker crate spawns processes.
#![allow(clippy::disallowed_methods)]

mod common;

use std::fmt::Write;
use std::process::Command;

use classfile::ClassFile;
use instrument::Options;

fn code_of(class: &ClassFile, name: &str) -> Vec<u8> {
    let cp = &class.constant_pool;
    let m = class.methods.iter().find(|m| m.name(cp).as_deref() == Some(name)).expect("method");
    m.attribute(cp, "Code").expect("code").info.clone()
}

#[test]
fn a_method_too_large_to_instrument_is_left_unchanged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut src = String::from(
        "package big;\npublic class Big {\n  static int small(int a) { return a > 0 ? a : -a; }\n",
    );
    src.push_str("  static int huge(int x) {\n");
    for i in 0..7000 {
        let _ = writeln!(src, "    x = x * 31 + {};", i % 100);
    }
    src.push_str("    return x;\n  }\n}\n");
    let src_path = dir.path().join("Big.java");
    std::fs::write(&src_path, src).expect("write source");
    let classes = dir.path().join("classes");
    let javac = test_support::java_home().join("bin/javac");
    let out = Command::new(javac)
        .args(["--release", "17", "-d"])
        .arg(&classes)
        .arg(&src_path)
        .output()
        .expect("javac");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let rewritten = dir.path().join("rewritten");
    let (plan, reports) = common::instrument_container(&classes, &rewritten, &Options::all());
    assert_eq!(reports.len(), 1);
    // The report names the planned probes that were not emitted (the engine drops their goals).
    let u = &reports[0].unchanged[0];
    assert!(u.probes.len() > 7000);
    assert!(u.probes.clone().all(|p| plan.method_of(goals::ProbeId(p)).is_some_and(|m| m.index == u.index)));
    let unchanged: Vec<String> =
        reports[0].unchanged.iter().map(|u| format!("{}: {}", u.method, u.reason)).collect();
    expect_test::expect![[r#"
        [
            "huge(I)I: code would be 244501 bytes, more than 65535",
        ]
    "#]]
    .assert_debug_eq(&unchanged);

    let before =
        ClassFile::parse(&std::fs::read(classes.join("big/Big.class")).expect("read")).expect("parse");
    let after =
        ClassFile::parse(&std::fs::read(rewritten.join("big/Big.class")).expect("read")).expect("parse");
    assert_eq!(code_of(&before, "huge"), code_of(&after, "huge"), "the large method was changed");
    assert_ne!(code_of(&before, "small"), code_of(&after, "small"), "the small method was not instrumented");
    let v = common::verify_all(&rewritten, &[]);
    assert!(v.failures.is_empty() && v.ok == 1, "{}: {:?}", v.summary, v.failures);
}
