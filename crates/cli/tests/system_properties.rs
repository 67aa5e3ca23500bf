//! System properties as JVM-wide state (docs/protocol.md v16, crates/junit src/properties.rs): on
//! `sysprops.Config` (fixtures/java/sysprops), whose methods set, clear, put and replace properties
//! that its other methods read, `generate` covers every branch, and the written class restores the
//! properties after each test, so that its tests pass in any order: every ordered pair of them runs
//! in one JVM (`test_data/OrderedPairs.java`) and passes, where the same class without its `@After`
//! fails. The workers restore them after every execution too, so one worker and two write the same
//! tests. Before, `dse.symbolic.Props` cleared `file.separator` in one written test and a later one
//! read null (crates/cli/tests/replay_check.rs caught it).

// Tests run the JDK's tools as a user would.
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::Path;
use std::process::Command;

const CLASS: &str = "sysprops.Config";
const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";

/// Compiles `source`, the written test class at `name` (`sysprops/ConfigTest.java`), with the pair
/// runner into `dir`, and runs every ordered pair of its tests: whether all passed, and the
/// runner's output.
fn run_pairs(dir: &Path, name: &str, source: &str) -> (bool, String) {
    let file = dir.join("src").join(name);
    std::fs::create_dir_all(file.parent().expect("parent")).expect("src");
    std::fs::write(&file, source).expect("write test");
    let fixtures = test_support::fixture_classes("sysprops");
    let cp = format!("{}:{JUNIT4}", fixtures.display());
    let classes = dir.join("classes");
    let driver = test_support::workspace_root().join("crates/cli/test_data/OrderedPairs.java");
    let javac = Command::new(test_support::java_home().join("bin/javac"))
        .args(["-nowarn", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .args(["-cp", &cp])
        .arg(&file)
        .arg(driver)
        .output()
        .expect("run javac");
    assert!(javac.status.success(), "{}", String::from_utf8_lossy(&javac.stderr));
    let ran = Command::new(test_support::java_home().join("bin/java"))
        .arg("-cp")
        .arg(format!("{}:{cp}", classes.display()))
        .arg("OrderedPairs")
        .arg(name.trim_end_matches(".java").replace('/', "."))
        .output()
        .expect("run java");
    let out = format!("{}{}", String::from_utf8_lossy(&ran.stdout), String::from_utf8_lossy(&ran.stderr));
    (ran.status.success() && out.contains("pairs: 0 failures"), out)
}

#[test]
fn written_tests_restore_system_properties_and_pass_in_any_order() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let report = common::generate_fixture("sysprops", CLASS, &out, &common::pinned(&[]));
    assert_eq!(common::uncovered_branches(&report), Vec::<String>::new());
    let c = &report["classes"][0];
    assert_eq!(c["verification"]["verified"], true, "{}", c["verification"]);
    let files = common::java_files(&out);
    assert_eq!(files.len(), 1, "{files:?}");
    let (name, text) = &files[0];
    for t in ["@After\n  public void restoreSystemProperties() {", "assertEquals(\"normal\", "] {
        assert!(text.contains(t), "no {t} in\n{text}");
    }
    let (ok, ran) = run_pairs(&tmp.path().join("with"), name, text);
    assert!(ok, "the written tests depend on their order:\n{ran}\n{text}");
    // Without the restore (the method left, no longer run after each test), some pair fails: the
    // tests do change what the others read.
    let (ok, ran) = run_pairs(&tmp.path().join("without"), name, &text.replace("  @After\n", ""));
    assert!(!ok && ran.contains("FAIL "), "no pair fails without the restore:\n{ran}");
}

/// The same seed writes the same tests with one worker and with two: no execution sees the
/// properties an earlier one on its worker changed.
#[test]
fn one_worker_and_two_write_the_same_tests() {
    let texts = common::written_with_one_and_two_workers("sysprops", CLASS, &common::pinned(&[]));
    assert_eq!(texts[0], texts[1]);
}
