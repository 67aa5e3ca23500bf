//! A class the class under test calls gets the guards too. `sandbox.Stamper` reads the
//! clock through `sandbox.Ledger` (package-private, outside its nest), and the clock's values reach
//! the search (a compared operand goes to the value pool, return values to the outputs): before
//! Ledger was guarded, two runs with one seed wrote different tests. Now the workers' clock is the
//! guards' deterministic one, and the same seed writes the same files, byte for byte.

// Tests run the binary as a user would.
#![allow(clippy::disallowed_methods)]

mod common;

use common::suitesmith;

use std::path::Path;

/// Runs `generate` on `sandbox.Stamper` into `out` and returns its report's entry for the class.
fn generate(out: &Path) -> serde_json::Value {
    let out_s = out.display().to_string();
    let run = suitesmith(
        &[
            "generate",
            "--classpath",
            "fixtures/classes/sandbox",
            "--class",
            "sandbox.Stamper",
            "--evaluations",
            "1000",
            "--seed",
            "1",
            "--workers",
            "2",
            "--verify-runs",
            "1",
            "--out",
            &out_s,
        ],
        &[],
    );
    assert!(run.status.success(), "generate failed: {}", String::from_utf8_lossy(&run.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report.json"))
            .expect("json");
    report["classes"][0].clone()
}

#[test]
fn a_clock_read_through_a_helper_does_not_change_the_tests() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let first = generate(&a);
    let second = generate(&b);
    let test_file =
        |dir: &Path| std::fs::read(dir.join("sandbox/StamperTest.java")).expect("StamperTest.java");
    assert_eq!(
        String::from_utf8(test_file(&a)).expect("utf-8"),
        String::from_utf8(test_file(&b)).expect("utf-8"),
        "the same seed writes the same tests"
    );
    for key in ["criteria", "tests", "statements", "assertions", "guards"] {
        assert_eq!(first[key], second[key], "{key}");
    }
    // Every other class of the area calls a redirected method: Ledger, and the other fixtures.
    assert_eq!(first["guards"]["dependency_classes"], 5, "{first:#}");
    // The search saw the workers' clock (1,500,000,000,000 ms and a tick per read), never the
    // real one: every time-sized literal of the tests (a compared operand from the pool) is near it.
    let text = String::from_utf8(test_file(&a)).expect("utf-8");
    let times: Vec<&str> = text.split(|c: char| !c.is_ascii_digit()).filter(|n| n.len() >= 12).collect();
    assert!(times.iter().all(|n| n.starts_with("150000000")), "{times:?} in\n{text}");
}
