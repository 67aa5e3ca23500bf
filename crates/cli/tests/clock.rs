//! Values that depend on the real clock: `fixtures/java/clock`'s `Today.now()` reads the day of
//! the month, which the workers' fixed clock makes the 14th. The assertions on it fail when the
//! written tests run on another day, and so do those on every value computed from it (`isLate()`,
//! `next()`, `compareTo`). Verification removes them all in the round where the first one fails
//! (`JUnitTest::dependent_assertions`); removed one per round, a test with three of them outlasted
//! the assertion rounds and was dropped whole (ThreeTen-Extra's `DayOfMonth`: 10 of 29 tests). No
//! test is dropped (before, on the 30th: 7 of 11 tests dropped, 7 of 8 branch goals left), and the
//! written tests pass 5 of 5 plain JVM runs.

mod common;

const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";

#[test]
fn assertions_on_values_depending_on_the_clock_go_together_and_tests_stay() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let report = common::generate_fixture("clock", "clock.Today", &out, &[]);
    let c = &report["classes"][0];
    assert_eq!(c["verification"]["verified"], true, "{}", c["verification"]);
    assert_eq!(c["verification"]["failing_tests_dropped"], 0, "{}", c["log"]);
    let files = common::java_files(&out);
    assert_eq!(files.len(), 1);
    let (name, text) = &files[0];
    assert!(text.contains("Today.now()"), "no call of now() kept:\n{text}");
    let fixtures = test_support::workspace_root().join("fixtures/classes/clock");
    let cp = format!("{}:{JUNIT4}", fixtures.display());
    common::compile_and_run_junit4(&out, name, &cp, tmp.path(), 5, "clock.Today");
}
