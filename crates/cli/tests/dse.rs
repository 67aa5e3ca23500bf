//! `--dse on` from outside (paper 004, docs/dse.md): the same seed gives byte-identical test files
//! with 1 and 2 workers (DSE's budgets are counted in queries, tests, steps and solver units, never
//! time, and its checks run through the same deterministic worker results), report.json carries
//! the DSE counters, and `analyze --dse` explains a random test.

// Tests run the binary as a user would.
#![allow(clippy::disallowed_methods)]

mod common;

use common::suitesmith;

use std::path::Path;

fn generate_with_dse(out: &Path, class: &str, workers: &str) -> serde_json::Value {
    // A configuration of its own, not the product's default: the techniques as before the
    // portfolio.
    let extra = common::pinned(&["--verify-runs", "1", "--dse", "on"]);
    common::generate_with("dse", class, out, ["1500", "3", workers], &extra);
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report")).expect("json")
}

#[test]
fn dse_runs_are_reproducible_with_one_and_two_workers() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for class in ["dse.Magic", "dse.CasNumber"] {
        let one = tmp.path().join(format!("{class}-1"));
        let two = tmp.path().join(format!("{class}-2"));
        let r1 = generate_with_dse(&one, class, "1");
        let r2 = generate_with_dse(&two, class, "2");
        let (f1, f2) = (common::java_files(&one), common::java_files(&two));
        assert!(!f1.is_empty(), "{class}: no test file written");
        assert_eq!(f1, f2, "{class}: the files differ between 1 and 2 workers");
        // The counters must agree; the wall times (`cost`, reporting only) differ from run to run.
        let without_cost = |r: &serde_json::Value| {
            let mut d = r["classes"][0]["dse"].clone();
            d.as_object_mut().map(|m| m.remove("cost"));
            d
        };
        let (d1, d2) = (&without_cost(&r1), &without_cost(&r2));
        println!("{class}: dse {d1}");
        assert!(d1["applications"].as_u64().is_some(), "{class}: report.json has no dse counters: {r1}");
        let cost = &r1["classes"][0]["dse"]["cost"];
        assert!(cost["share_of_search"].as_f64().is_some(), "{class}: no dse cost: {r1}");
        assert!(cost["solver"]["median_ms"].as_f64().is_some(), "{class}: no solver times: {cost}");
        assert_eq!(d1, d2, "{class}: DSE did different work with 1 and 2 workers");
        assert_eq!(r1["configuration"]["dse"]["enabled"], serde_json::Value::Bool(true));
    }
}

#[test]
fn analyze_dse_prints_the_path_condition_and_the_solver_answers() {
    let run = suitesmith(
        &["analyze", "--classpath", "fixtures/classes/dse", "--class", "dse.Magic", "--dse", "--seed", "1"],
        &[],
    );
    assert!(run.status.success(), "analyze failed: {}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8_lossy(&run.stdout);
    println!("{text}");
    assert!(text.contains("== replay:"), "no replay in:\n{text}");
    assert!(text.contains("negate for"), "no negation in:\n{text}");
}
