//! `suitesmith analyze --goal-selection` from outside: smart selection's split of a
//! fixture class as the `selection` crate's snapshot has it, and a bad "represents" table as bad
//! input (exit 2, one line); `generate --goal-selection smart`: byte-identical files with 1 and 2
//! workers, the split in report.json, and bad values of the switch and its options as bad input.

// Tests run the binary as a user would; only the worker crate spawns processes in the engine.
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::Path;

use common::{stderr_line, suitesmith};

/// `TokenBucket` (digest 002 §8.3) under the default table: a header naming the class and the
/// table, then exactly `crates/selection/test_data/TokenBucket.sel.txt`.
#[test]
fn analyze_goal_selection_prints_the_split() {
    let args = ["analyze", "--classpath", "fixtures/classes/selection", "--class", "selection.TokenBucket"];
    let res = suitesmith(&[&args[..], &["--goal-selection"]].concat(), &[]);
    assert_eq!(res.status.code(), Some(0), "{res:?}");
    let stdout = String::from_utf8_lossy(&res.stdout);
    let snapshot = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../selection/test_data/TokenBucket.sel.txt"),
    )
    .expect("selection snapshot");
    let header =
        "class selection/TokenBucket, represents cbranch>branch,line,weakmutation;methodnoexception>method\n";
    assert_eq!(stdout, format!("{header}{snapshot}"));
}

#[test]
fn a_bad_represents_table_is_bad_input() {
    let res = suitesmith(
        &[
            "analyze",
            "--classpath",
            "fixtures/classes/selection",
            "--class",
            "selection.TokenBucket",
            "--goal-selection",
            "--represents",
            "cbranch>brnch",
        ],
        &[],
    );
    assert_eq!(res.status.code(), Some(2), "{res:?}");
    assert!(stderr_line(&res).contains("unknown criterion `brnch`"), "{res:?}");
}

/// `generate --goal-selection smart` on `TokenBucket` with `--evaluations` and a seed.
fn generate_smart(out: &Path, workers: &str) -> std::process::Output {
    let out_s = out.display().to_string();
    let mut args = vec![
        "generate",
        "--classpath",
        "fixtures/classes/selection",
        "--class",
        "selection.TokenBucket",
        "--evaluations",
        "1000",
        "--budget",
        "120s",
        "--seed",
        "3",
        "--workers",
        workers,
    ];
    // A configuration of its own, not the product's default: the techniques as before the
    // portfolio, with smart selection.
    args.extend(common::pinned(&["--goal-selection", "smart", "--out", &out_s]));
    suitesmith(&args, &[])
}

/// Determinism under smart selection: the same seed writes byte-identical test files with one and
/// with two workers; report.json lists the options and the guiding and deferred goals per
/// criterion (`TokenBucket`'s snapshot: 22 of 106 mutants guide, no line, every branch deferred).
#[test]
fn generate_with_smart_selection_is_deterministic_and_reports_the_split() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    for (dir, workers) in [(&one, "1"), (&two, "2")] {
        let res = generate_smart(dir, workers);
        assert_eq!(res.status.code(), Some(0), "{res:?}");
    }
    let files = |d: &Path| {
        let mut f = common::files_under(d);
        f.retain(|p, _| p.ends_with(".java"));
        f
    };
    let (a, b) = (files(&one), files(&two));
    assert_eq!(a.keys().collect::<Vec<_>>(), ["selection/TokenBucketTest.java"]);
    assert!(a == b, "1 and 2 workers wrote different tests");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(one.join("report.json")).expect("report.json"))
            .expect("json");
    assert_eq!(report["configuration"]["goal_selection"]["mode"], "smart");
    assert_eq!(report["configuration"]["goal_selection"]["line_threshold"], 8);
    let split = &report["classes"][0]["goal_selection"];
    assert_eq!(split["weakmutation"], serde_json::json!({ "guiding": 22, "deferred": 84 }), "{split}");
    assert_eq!(split["line"], serde_json::json!({ "guiding": 0, "deferred": 20 }), "{split}");
    // DynaMOSA (the default algorithm): every branch goal guides (§3.8).
    assert_eq!(split["branch"]["deferred"], 0, "{split}");
    let criteria = &report["classes"][0]["criteria"];
    assert!(criteria["weakmutation"]["covered"].as_u64().unwrap_or(0) > 22, "deferred mutants are reported");
}

/// Bad values of the switch and its options: one line, exit 2.
#[test]
fn bad_goal_selection_values_are_bad_input() {
    let base = ["generate", "--classpath", "fixtures/classes/selection", "--class", "selection.TokenBucket"];
    let cases: &[(&[&str], &str)] = &[
        (&["--goal-selection", "some"], "--goal-selection \"some\": expected smart or all"),
        (&["--goal-selection", "smart", "--line-threshold", "0"], "--line-threshold \"0\""),
        (&["--goal-selection", "smart", "--line-rule", "lines"], "expected count or span"),
        (&["--goal-selection", "smart", "--mutants-per-site", "x"], "expected all or a number"),
        (&["--goal-selection", "smart", "--subset-weight", "0"], "expected none or a weight > 0"),
        (&["--goal-selection", "smart", "--represents", "cbranch>brnch"], "unknown criterion `brnch`"),
        // Smart selection is the default: its options are bad input only with `all`.
        (
            &["--goal-selection", "all", "--line-threshold", "5"],
            "--line-threshold needs --goal-selection smart",
        ),
    ];
    for (extra, expected) in cases {
        let tmp = tempfile::tempdir().expect("tempdir");
        let out = tmp.path().join("out");
        let out_s = out.display().to_string();
        let args = [&base[..], extra, &["--out", &out_s]].concat();
        let res = suitesmith(&args, &[]);
        assert_eq!(res.status.code(), Some(2), "{extra:?}: {res:?}");
        let line = stderr_line(&res);
        assert!(line.contains(expected), "{extra:?}: {line:?}");
        assert!(!out.exists(), "{extra:?} wrote {}", out.display());
    }
}
