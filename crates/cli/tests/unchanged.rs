//! Behaviour kept across refactors: `generate --evaluations 3000 --seed 1` on every
//! generation fixture area must write the same test files and the same coverage figures as the
//! snapshots under `fixtures/snapshots/generate/<area>/`, which were produced by the commit before
//! the program database and goal space were cut out (16ce2b0). A change that means to alter what
//! is generated re-blesses them with `SUITESMITH_BLESS=1 cargo test -p cli --test unchanged` and says
//! why in its commit. The runs are pinned to the techniques of those snapshots (the core plus DSE,
//! `--portfolio off`), not to the product's default, which the portfolio changed. Each class's report also shows that its run parsed every class once and
//! decoded every method at most once (report.json `program_db`).

// Tests run the binary as a user would.
#![allow(clippy::disallowed_methods)]

mod common;

use common::suitesmith;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The areas whose classes are subjects of generation (the others are parser, instrumenter or
/// hostile-code fixtures with tests of their own), and the classpath each is read from.
const AREAS: &[(&str, &str)] = &[
    ("examples", "examples/classes"),
    ("search", "fixtures/classes/search"),
    ("behaviour", "fixtures/classes/behaviour"),
    ("bounds", "fixtures/classes/bounds"),
    ("cluster", "fixtures/classes/cluster"),
    ("context", "fixtures/classes/context"),
    ("mutation", "fixtures/classes/mutation"),
    ("verify", "fixtures/classes/verify"),
];

/// The figures of report.json that say what was covered and what was written, per class. Times,
/// the log and anything else that depends on the machine are left out.
const FIGURES: &[&str] = &[
    "criteria",
    "uncovered",
    "tests",
    "assertions",
    "statements",
    "executions",
    "generations",
    "minimisation",
    "expected_exceptions",
    "guards",
    "files",
];

#[test]
fn generated_files_and_coverage_match_the_snapshots() {
    let root = test_support::workspace_root();
    let bless = std::env::var_os("SUITESMITH_BLESS").is_some();
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut differences = Vec::new();
    for (area, classpath) in AREAS {
        let out = tmp.path().join(area);
        let out_s = out.display().to_string();
        let run = suitesmith(
            &[
                "generate",
                "--target",
                classpath,
                "--classpath",
                classpath,
                "--evaluations",
                "3000",
                // Only the evaluations end the search: under a load of 12 on two cores the default
                // 60 s stopped `behaviour.Recursion` at 2,013 evaluations (and the post-processing
                // budget, the search budget by default, then cut no phase short either).
                "--budget",
                "900s",
                "--seed",
                "1",
                "--workers",
                "2",
                "--verify-runs",
                "1",
                // The default before the adaptive portfolio, pinned: the core plus DSE, every
                // technique that is on running for the whole search.
                "--techniques",
                "none",
                "--dse",
                "on",
                "--portfolio",
                "off",
                // The assertions of those snapshots: every value observed, capped (mutation
                // selection keeps a subset of them and has its own test, engine/tests/assertions.rs).
                "--assertions",
                "all",
                // These snapshots are the regression tests; violations, in files of their own,
                // have their test (engine/tests/contracts.rs).
                "--contracts",
                "off",
                "--out",
                &out_s,
            ],
            &[],
        );
        assert!(run.status.success(), "{area}: generate failed: {}", String::from_utf8_lossy(&run.stderr));
        let actual = observed(&out);
        let dir = root.join("fixtures/snapshots/generate").join(area);
        if bless {
            let _ = std::fs::remove_dir_all(&dir);
            for (name, text) in &actual {
                let path = dir.join(name);
                std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
                std::fs::write(&path, text).expect("write snapshot");
            }
            continue;
        }
        let expected = read_tree(&dir);
        assert!(!expected.is_empty(), "{area}: no snapshot under {}", dir.display());
        for name in expected.keys().chain(actual.keys()) {
            if expected.get(name) != actual.get(name) {
                differences.push(format!("{area}/{name}"));
                // The first lines that differ, so that a failure in CI says what changed.
                let (e, a) = (
                    expected.get(name).map_or("", String::as_str),
                    actual.get(name).map_or("", String::as_str),
                );
                let lines: Vec<String> = e
                    .lines()
                    .zip(a.lines())
                    .enumerate()
                    .filter(|(_, (x, y))| x != y)
                    .take(6)
                    .map(|(i, (x, y))| format!("  line {}: expected {x:?}, got {y:?}", i + 1))
                    .collect();
                eprintln!(
                    "{area}/{name} differs ({} vs {} lines):\n{}",
                    e.lines().count(),
                    a.lines().count(),
                    lines.join("\n")
                );
            }
        }
    }
    differences.dedup();
    assert!(
        differences.is_empty(),
        "differs from the snapshot (inspect with SUITESMITH_BLESS=1 and git diff): {differences:?}"
    );
}

/// The written test files as they are, and `coverage.json`: the figures of report.json per class.
fn observed(out: &Path) -> BTreeMap<String, String> {
    let mut files: BTreeMap<String, String> =
        read_tree(out).into_iter().filter(|(name, _)| name.ends_with(".java")).collect();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report"))
            .expect("report.json parses");
    let classes = report["classes"].as_array().expect("classes");
    let mut kept = Vec::new();
    for class in classes {
        // The run's program database parsed each class once and decoded each method at
        // most once, through search, minimisation, assertions and verification.
        let db = &class["program_db"];
        assert_eq!(db["parses"], db["classes_parsed"], "{}: a class parsed twice", class["class"]);
        assert_eq!(db["decodes"], db["methods_decoded"], "{}: a method decoded twice", class["class"]);
        assert!(db["parses"].as_u64().is_some_and(|n| n > 0), "{}: no parse counted", class["class"]);
        let mut figures = serde_json::Map::new();
        figures.insert("class".into(), class["class"].clone());
        for key in FIGURES {
            figures.insert((*key).into(), class[*key].clone());
        }
        kept.push(serde_json::Value::Object(figures));
    }
    let mut text = serde_json::to_string_pretty(&kept).expect("json");
    text.push('\n');
    files.insert("coverage.json".into(), text);
    files
}

/// Every file under `dir`, by its `/`-separated path relative to `dir`.
fn read_tree(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).expect("under dir");
                let name =
                    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                files.insert(name, std::fs::read_to_string(&path).expect("read"));
            }
        }
    }
    files
}

/// The test names of the snapshots (docs/tests.md): unique in each class, at most 60 characters,
/// and descriptive, not `testNN`, for at least 95 % of the tests of every area taken together.
/// Names given a number to tell look-alike tests apart (`testPushAndSumAbove1`) still describe
/// their test and count as descriptive; their share is printed.
#[test]
fn snapshot_test_names_are_unique_and_descriptive() {
    let root = test_support::workspace_root().join("fixtures/snapshots/generate");
    let (mut tests, mut numbered, mut suffixed) = (0usize, 0usize, 0usize);
    for (area, _) in AREAS {
        for (file, text) in read_tree(&root.join(area)) {
            if !file.ends_with(".java") {
                continue;
            }
            let names: Vec<&str> = text
                .lines()
                .filter_map(|l| l.trim().strip_prefix("public void ")?.split('(').next())
                .collect();
            let distinct: std::collections::BTreeSet<&str> = names.iter().copied().collect();
            assert_eq!(distinct.len(), names.len(), "{area}/{file}: a name repeats: {names:?}");
            for n in &names {
                assert!(n.len() <= 60 && n.starts_with("test"), "{area}/{file}: {n}");
                let digits = n.chars().rev().take_while(char::is_ascii_digit).count();
                // `testCountDownWith16`, `testLoadWithMinus3`: an argument, not a number.
                let stem = &n[..n.len() - digits];
                let argument = ["With", "And", "Minus"].iter().any(|w| stem.ends_with(w));
                numbered += usize::from(digits > 0 && digits + 4 == n.len());
                suffixed += usize::from(digits > 0 && digits + 4 < n.len() && !argument);
            }
            tests += names.len();
        }
    }
    println!("{tests} tests: {numbered} numbered, {suffixed} descriptive with a number to tell them apart");
    assert!(tests > 100, "the snapshots hold {tests} tests");
    assert!(numbered * 20 <= tests, "{numbered} of {tests} names are numbered");
}
