//! `generate --shard I/N` and `merge` (docs/scale.md): the four classes of the bounds
//! fixture area run once, and as two shards merged, with the same seed and `--evaluations`, give
//! the same test files byte for byte, the same statistics.csv but for its time column, and the
//! same report.json but for times (DSE's `cost` too), the shard and the list of merged shards. Merging refuses
//! shards of different configurations and a non-empty output directory (exit 2, one line).

mod common;

use std::path::{Path, PathBuf};

use common::{files_under as files, stderr_line, suitesmith};
use serde_json::Value;

fn generate(target: &str, out: &Path, extra: &[&str]) {
    let out_s = out.display().to_string();
    let mut args = vec![
        "generate",
        "--classpath",
        target,
        "--target",
        target,
        "--evaluations",
        "300",
        "--seed",
        "3",
        "--verify-runs",
        "1",
        "--budget",
        "60s",
        "--out",
        &out_s,
    ];
    args.extend_from_slice(extra);
    let res = suitesmith(&args, &[]);
    assert_eq!(res.status.code(), Some(0), "{args:?}: {res:?}");
}

/// report.json without what depends on the clock or on sharding: times, and DSE's wall-time
/// `cost` (query times, instructions per second, share of the search; DSE is on by default).
fn comparable(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| {
                    !(k.ends_with("seconds") || ["shard", "merged_shards", "cost"].contains(&k.as_str()))
                })
                .map(|(k, v)| (k.clone(), comparable(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(comparable).collect()),
        other => other.clone(),
    }
}

/// statistics.csv without its `Total_Time` column.
fn without_time(csv: &[u8]) -> Vec<Vec<String>> {
    let text = String::from_utf8_lossy(csv);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let t = header.iter().position(|h| *h == "Total_Time").expect("Total_Time column");
    text.lines()
        .map(|l| l.split(',').enumerate().filter(|(i, _)| *i != t).map(|(_, f)| f.to_string()).collect())
        .collect()
}

#[test]
fn two_shards_merged_equal_one_run() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let target = test_support::fixture_classes("bounds").display().to_string();
    let single = tmp.path().join("single");
    generate(&target, &single, &[]);
    let shards: Vec<PathBuf> = (1..=2).map(|i| tmp.path().join(format!("s{i}"))).collect();
    for (i, s) in shards.iter().enumerate() {
        generate(&target, s, &["--shard", &format!("{}/2", i + 1)]);
    }
    let merged = tmp.path().join("merged");
    let (m, s1, s2) =
        (merged.display().to_string(), shards[0].display().to_string(), shards[1].display().to_string());
    let res = suitesmith(&["merge", "--out", &m, &s1, &s2], &[]);
    assert_eq!(res.status.code(), Some(0), "{res:?}");

    let (mut one, mut both) = (files(&single), files(&merged));
    let (ones, boths) = (one.remove("statistics.csv"), both.remove("statistics.csv"));
    assert_eq!(without_time(&ones.expect("csv")), without_time(&boths.expect("csv")));
    let json =
        |b: Option<Vec<u8>>| -> Value { serde_json::from_slice(&b.expect("report.json")).expect("parses") };
    let (r1, r2) = (json(one.remove("report.json")), json(both.remove("report.json")));
    assert_eq!(comparable(&r1), comparable(&r2));
    assert_eq!(r2["merged_shards"], serde_json::json!(["1/2", "2/2"]));
    assert_eq!(one.keys().collect::<Vec<_>>(), both.keys().collect::<Vec<_>>());
    assert_eq!(one, both, "the test files differ");
    assert!(one.len() >= 4, "a test file per class: {:?}", one.keys());

    // A non-empty output directory, and shards of another configuration, are refused.
    let res = suitesmith(&["merge", "--out", &m, &s1, &s2], &[]);
    assert_eq!(res.status.code(), Some(2));
    assert!(stderr_line(&res).contains("is not empty"));
    let other = tmp.path().join("other");
    generate(&target, &other, &["--shard", "2/2", "--criteria", "branch"]);
    let o = other.display().to_string();
    let out2 = tmp.path().join("merged2").display().to_string();
    let res = suitesmith(&["merge", "--out", &out2, &s1, &o], &[]);
    assert_eq!(res.status.code(), Some(2));
    assert!(stderr_line(&res).contains("another configuration"), "{}", stderr_line(&res));
    assert!(!Path::new(&out2).exists());
}
