//! `--flags on` from outside (paper 001, docs/flags.md): the same seed gives byte-
//! identical test files with 1 and 2 workers, report.json counts the flag branches found and
//! covered, and on a class with nothing to trace the run is the run without flags (no probe is
//! planned, so the same tests are executed and written).

// Tests run the binary as a user would.
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::Path;

/// `generate` with `--flags` as given and DSE off: DSE (on by default) solves the flag methods'
/// exact values too, and these tests are about flag fitness alone.
fn generate(out: &Path, class: &str, workers: &str, flags: &str) -> serde_json::Value {
    // A configuration of its own, not the product's default: the techniques as before the
    // portfolio.
    let extra = common::pinned(&["--verify-runs", "1", "--flags", flags, "--dse", "off"]);
    common::generate_with("flags", class, out, ["1500", "3", workers], &extra);
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report")).expect("json")
}

#[test]
fn flag_runs_are_reproducible_with_one_and_two_workers() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for class in ["flags.Gate", "flags.ChecksumScanner", "flags.TwoSites"] {
        let one = tmp.path().join(format!("{class}-1"));
        let two = tmp.path().join(format!("{class}-2"));
        let r1 = generate(&one, class, "1", "on");
        let r2 = generate(&two, class, "2", "on");
        let (f1, f2) = (common::java_files(&one), common::java_files(&two));
        assert!(!f1.is_empty(), "{class}: no test file written");
        assert_eq!(f1, f2, "{class}: the files differ between 1 and 2 workers");
        let (c1, c2) = (&r1["classes"][0], &r2["classes"][0]);
        println!("{class}: flags {}, executions {}", c1["flags"], c1["executions"]);
        assert_eq!(c1["flags"], c2["flags"], "{class}");
        assert_eq!(c1["executions"], c2["executions"], "{class}");
        assert_eq!(r1["configuration"]["flags"], serde_json::Value::Bool(true));
        let found = c1["flags"]["branches"].as_u64().unwrap_or(0);
        let covered = c1["flags"]["covered"].as_u64().unwrap_or(u64::MAX);
        assert!(found >= 2 && covered <= found, "{class}: {}", c1["flags"]);
    }
}

/// Gate (F4) has one flag branch, `if (ok)` in `open` (two outcomes, two goals), and two flag
/// methods to trace (`authorized`, which forwards `return matchesPin(..)` without a jump of its
/// own, and `matchesPin`). With every default criterion, seed 3 and 1,500 evaluations, the hard
/// outcome stays uncovered (the DynaMOSA run of `crates/engine/tests/flags.rs`, branch goals
/// only, covers it by 3,000): the report says which.
#[test]
fn report_counts_flag_branches_found_and_covered() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let r = generate(&tmp.path().join("gate"), "flags.Gate", "2", "on");
    let f = &r["classes"][0]["flags"];
    let want = serde_json::json!({
        "methods": 2,
        "branches": 2,
        "covered": 1,
        "uncovered": ["branch p11 not-taken (flags/Gate:9)"],
    });
    assert_eq!(f, &want, "{r}");
    let r = generate(&tmp.path().join("gate-off"), "flags.Gate", "2", "off");
    assert_eq!(r["classes"][0]["flags"], serde_json::Value::Null);
    assert_eq!(r["configuration"]["flags"], serde_json::Value::Bool(false));
}

/// `NotFlags` has no flag branch whose flag method can be traced (an `int` method, a flag through
/// a field, a JDK flag method, `f() & g()`): with `--flags on` nothing is planned, so the run
/// executes and writes exactly what the run without flags does, and reports no flags.
#[test]
fn a_class_without_flags_runs_as_without_flags() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let on = tmp.path().join("on");
    let off = tmp.path().join("off");
    let r_on = generate(&on, "flags.NotFlags", "2", "on");
    let r_off = generate(&off, "flags.NotFlags", "2", "off");
    assert_eq!(common::java_files(&on), common::java_files(&off));
    let (c_on, c_off) = (&r_on["classes"][0], &r_off["classes"][0]);
    assert_eq!(c_on["executions"], c_off["executions"]);
    assert_eq!(c_on["criteria"], c_off["criteria"]);
    assert_eq!(c_on["flags"], serde_json::Value::Null, "{r_on}");
}
