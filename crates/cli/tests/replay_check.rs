//! `generate --replay-check` (the interpreter's fidelity): every test written for
//! the `dse` and `search` fixture areas, replayed by the concolic interpreter, covers exactly the
//! branch and switch goals the JVM's run of it covered and ends each statement as the JVM did (0
//! divergences), and the report says how the replays went.

// Tests run the binary as a user would.
#![allow(clippy::disallowed_methods)]

mod common;

use common::suitesmith;

/// Runs `generate --replay-check` on every class of a fixture area; the report.
fn generate_checked(area: &str, out: &std::path::Path) -> serde_json::Value {
    let classpath = format!("fixtures/classes/{area}");
    let out_s = out.display().to_string();
    let run = suitesmith(
        &[
            "generate",
            "--target",
            &classpath,
            "--classpath",
            &classpath,
            "--evaluations",
            "500",
            "--seed",
            "1",
            "--verify-runs",
            "1",
            "--replay-check",
            "--out",
            &out_s,
        ],
        &[],
    );
    assert!(run.status.success(), "{area}: generate failed: {}", String::from_utf8_lossy(&run.stderr));
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report")).expect("json")
}

#[test]
fn replays_of_the_written_tests_follow_the_jvm_on_the_fixtures() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for area in ["dse", "search"] {
        let report = generate_checked(area, &tmp.path().join(area));
        let classes = report["classes"].as_array().expect("classes");
        let (mut tests, mut full, mut goals) = (0, 0, 0);
        let mut divergences = Vec::new();
        for c in classes {
            let r = &c["replay_check"];
            let n =
                |k: &str| r[k].as_u64().unwrap_or_else(|| panic!("{}: no replay_check.{k}: {r}", c["class"]));
            assert_eq!(
                n("tests"),
                c["tests"].as_u64().expect("tests"),
                "{}: every written test is replayed",
                c["class"]
            );
            tests += n("tests");
            full += n("replayed_fully");
            goals += n("goals_compared");
            assert!(r["instructions_per_second"].as_f64().is_some(), "{r}");
            if n("divergences") > 0 {
                divergences.push(format!("{}: {}", c["class"], r["examples"]));
            }
        }
        println!(
            "{area}: {} classes, {tests} tests, {full} replayed fully, {goals} branch goals compared",
            classes.len()
        );
        assert!(divergences.is_empty(), "{area}: divergences:\n{}", divergences.join("\n"));
        assert!(full * 10 >= tests * 9, "{area}: only {full} of {tests} replays reached the test's end");
        assert!(goals > 200, "{area}: only {goals} covered branch goals compared");
    }
}

#[test]
fn without_the_switch_there_is_no_replay_check() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let out_s = out.display().to_string();
    let run = suitesmith(
        &[
            "generate",
            "--class",
            "dse.Magic",
            "--classpath",
            "fixtures/classes/dse",
            "--evaluations",
            "200",
            "--seed",
            "1",
            "--verify-runs",
            "1",
            "--out",
            &out_s,
        ],
        &[],
    );
    assert!(run.status.success(), "generate failed: {}", String::from_utf8_lossy(&run.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report"))
            .expect("json");
    assert_eq!(report["classes"][0]["replay_check"], serde_json::Value::Null);
}
