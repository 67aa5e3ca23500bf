//! `generate --local-search on` (docs/localsearch.md): the AVM's exponential moves on the numbers
//! of an uncovered goal's best test. On `constants.Thresholds`, whose first branch needs
//! `5_000 <= v <= 5_010` (far from the random range, and the numbers are pushed, so the static
//! pool does not hold them by default), every branch is covered within 3,000 evaluations with local
//! search and the band is not without it; report.json gives its parameters and counts; the files
//! are the same bytes with one worker and two. DSE (on by default) solves the band too, so both
//! runs leave it off: the test is about local search alone. Call rounds: the same bytes with one
//! worker and two on `sushi.IntTree`.

mod common;

#[test]
fn local_search_reaches_a_band_far_from_the_random_range() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let on = common::generate_fixture(
        "constants",
        "constants.Thresholds",
        &tmp.path().join("on"),
        &common::pinned(&["--local-search", "on", "--dse", "off"]),
    );
    assert_eq!(common::uncovered_branches(&on), Vec::<String>::new());
    assert_eq!(
        on["configuration"]["local_search"],
        serde_json::json!({ "exponents": 16, "share": 0.2, "calls": false, "strings": false })
    );
    let l = &on["classes"][0]["local_search"];
    let count = |k: &str| l[k].as_u64().unwrap_or(0);
    assert!(count("rounds") > 0 && count("improved") > 0 && count("covered") > 0, "{l}");
    // Each round moves one number by ±2^k for k < 16: at most 32 tests.
    assert!(count("tests") <= 32 * count("rounds"), "{l}");
    // At most a fifth of the evaluations.
    let executions = on["classes"][0]["executions"].as_u64().unwrap_or(0);
    assert!(count("tests") * 5 <= executions, "{l}, {executions} executions");
    assert_eq!(on["classes"][0]["verification"]["verified"], true, "{}", on["classes"][0]["verification"]);

    let off = common::generate_fixture(
        "constants",
        "constants.Thresholds",
        &tmp.path().join("off"),
        &common::pinned(&["--dse", "off"]),
    );
    assert_eq!(off["configuration"]["local_search"], false);
    assert!(off["classes"][0]["local_search"].is_null());
    assert_eq!(common::uncovered_branches(&off), ["branch p9 not-taken (constants/Thresholds:10)"]);
}

#[test]
fn same_files_with_one_and_two_workers() {
    let [one, two] = common::written_with_one_and_two_workers(
        "constants",
        "constants.Thresholds",
        &common::pinned(&["--local-search", "on", "--dse", "off"]),
    );
    assert!(!one.is_empty());
    assert_eq!(one, two);
}

/// Call rounds (`--local-search-calls on`, docs/localsearch.md) on `sushi.IntTree`, whose
/// perfect-tree branch is flat without SUSHI: its goals' plain rounds miss, call rounds follow,
/// and the files are the same bytes with one worker and two.
#[test]
fn call_rounds_give_the_same_files_with_one_and_two_workers() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let extra = ["--local-search", "on", "--local-search-calls", "on", "--dse", "off"];
    let [one, two] = ["1", "2"].map(|workers| {
        let out = tmp.path().join(workers);
        common::generate_with(
            "sushi",
            "sushi.IntTree",
            &out,
            ["3000", "7", workers],
            &common::pinned(&extra),
        );
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report"))
                .expect("json");
        let l = &report["classes"][0]["local_search"];
        (common::java_files(&out), l["call_rounds"].as_u64().unwrap_or(0), l.to_string())
    });
    assert!(one.1 > 0, "no call rounds: {}", one.2);
    assert!(!one.0.is_empty());
    assert_eq!(one.0, two.0);
    assert_eq!(one.1, two.1);
}
