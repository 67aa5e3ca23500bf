//! The runner end to end. `real_engine_on_the_fixture_list` runs `bench` on bench/subjects/fixtures.tsv
//! (example.Stack, example.Triangle) with the configurations dynamosa and random at 5 s and checks the
//! CSV rows, the summary's ratio line and the plot. `independent_check_counts_what_the_engine_hides`
//! feeds the runner hand-written "generated" tests (one file that does not compile, a flaky test, a
//! failing test) through a fake generator and checks the counts, without the engine.
//! `pit_columns_are_filled` runs `bench --pit` on example.Triangle and checks PIT's columns.
//! `resume_runs_only_what_an_earlier_invocation_did_not_finish` stops an invocation after its first
//! run (through its journal) and goes on with `resume`, with the fake generator. The per-class
//! comparisons with the baseline (Â12, p; `comparisons.csv`) are checked for their shape here; their
//! figures by the unit tests of `stats` and `report`.
//!
//! Finding `suitesmith`: a test of crate bench cannot name another package's binary
//! (CARGO_BIN_EXE_ covers the own package, artifact dependencies are unstable, and `cli` has no
//! library to depend on). So the test asks cargo itself: `cargo build --profile test -p cli --bin
//! suitesmith --message-format=json`, run with the same cargo and CARGO_TARGET_DIR as the test, and
//! reads the binary's path from the `compiler-artifact` message. Cargo releases its build lock before
//! it runs tests, and when the workspace's tests were built the call is a no-op; the first time it
//! compiles the workspace crates once in the test profile (about a minute). `SUITESMITH_BIN` overrides
//! it (e.g. with the release binary).

// The test runs cargo and the bench binary as a user would.
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::Command;

use bench::{Budget, Checker, Configuration, GenerateRequest, Generator, Measured, Plan, read_subjects};

fn suitesmith_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("SUITESMITH_BIN") {
        return PathBuf::from(p);
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "--profile", "test", "-p", "cli", "--bin", "suitesmith", "--message-format=json"])
        .current_dir(test_support::workspace_root())
        .output()
        .expect("run cargo build");
    assert!(out.status.success(), "cargo build -p cli failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let exe = stdout
        .lines()
        .filter(|l| l.contains("\"compiler-artifact\"") && l.contains("\"name\":\"suitesmith\""))
        .find_map(|l| {
            let json: serde_json::Value = serde_json::from_str(l).ok()?;
            json["executable"].as_str().map(PathBuf::from)
        });
    exe.expect("cargo reported no suitesmith executable")
}

fn cells<'a>(header: &'a str, line: &'a str) -> impl Fn(&str) -> &'a str {
    let names: Vec<&str> = header.split(',').collect();
    let values: Vec<&str> = line.split(',').collect();
    assert_eq!(names.len(), values.len(), "{line}");
    move |name| values[names.iter().position(|n| *n == name).unwrap_or_else(|| panic!("no column {name}"))]
}

#[test]
fn real_engine_on_the_fixture_list() {
    let suitesmith = suitesmith_binary();
    let tmp = tempfile::tempdir().expect("tempdir");
    let out_dir = tmp.path().join("out");
    let root = test_support::workspace_root();
    let out = Command::new(env!("CARGO_BIN_EXE_bench"))
        .current_dir(&root)
        .args(["--subjects", "bench/subjects/fixtures.tsv"])
        .args(["--config", "dynamosa:algorithm=dynamosa", "--config", "random:algorithm=random"])
        .args(["--baseline", "random", "--budget", "5s", "--seed", "1"])
        .arg("--out")
        .arg(&out_dir)
        .arg("--suitesmith")
        .arg(&suitesmith)
        .output()
        .expect("run bench");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench failed:\n{stderr}");
    let summary = String::from_utf8_lossy(&out.stdout);

    // One row per class × configuration × seed, every run measured, the tests sound.
    let csv = std::fs::read_to_string(out_dir.join("results.csv")).expect("results.csv");
    let mut lines = csv.lines();
    let header = lines.next().expect("header");
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4, "{csv}");
    let mut seen = Vec::new();
    for line in &rows {
        let c = cells(header, line);
        seen.push(format!("{} {}", c("class"), c("config")));
        assert_eq!(c("seed"), "1");
        assert_eq!(c("exit_code"), "0", "{line}\n{stderr}");
        assert_eq!(c("error"), "", "{line}");
        assert_eq!(c("files_failed_to_compile"), "0", "{line}");
        assert_eq!(c("tests_flaky"), "0", "{line}");
        assert_eq!(c("tests_failing"), "0", "{line}");
        assert!(c("test_files").parse::<usize>().expect("test_files") >= 1);
        assert_eq!(c("tests_run"), c("tests"), "every test the report counts ran: {line}");
        // Nothing left in the run's own temporary and working directories (the engine's scratch
        // directories are removed); machine-wide entries may come from other tests running beside.
        let run_dir = out_dir.join("runs");
        let own: Vec<&str> =
            c("escaped").split(';').filter(|e| e.starts_with(&*run_dir.to_string_lossy())).collect();
        assert!(own.is_empty(), "{own:?}");
        let f = |name: &str| c(name).parse::<f64>().unwrap_or_else(|_| panic!("{name} in {line}"));
        // The fixtures are small: any search covers most of them in 5 s.
        assert!(f("jacoco_line") > 0.5 && f("jacoco_branch") > 0.5, "{line}");
        assert!(f("ours_branch") > 0.5, "{line}");
        assert!(f("wall_s") >= 5.0 && f("executions_per_s") > 0.0, "{line}");
        assert!(f("engine_peak_mib") > 1.0 && f("workers_peak_mib") > 1.0, "{line}");
    }
    assert_eq!(
        seen,
        [
            "example.Stack dynamosa",
            "example.Stack random",
            "example.Triangle dynamosa",
            "example.Triangle random"
        ]
    );

    // The summary, on stdout and in summary.md, divides by the baseline measured in the same run.
    assert_eq!(std::fs::read_to_string(out_dir.join("summary.md")).expect("summary.md"), summary);
    let ratio_line = summary
        .lines()
        .find(|l| l.starts_with("Ratio to baseline `random` (mean JaCoCo branch coverage): dynamosa "))
        .unwrap_or_else(|| panic!("no ratio line in\n{summary}"));
    assert!(ratio_line.ends_with(", random 1.00"), "{ratio_line}");
    let dyn_ratio: f64 = ratio_line
        .split("dynamosa ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("{ratio_line}"));
    assert!(dyn_ratio > 0.5 && dyn_ratio < 2.0, "{ratio_line}");
    assert!(summary.contains("| dynamosa | 2 |") && summary.contains("| random | 2 |"), "{summary}");

    // Each class against the baseline: with one seed a side p is 1, so never significant,
    // and the summary says why.
    let comparisons = std::fs::read_to_string(out_dir.join("comparisons.csv")).expect("comparisons.csv");
    let lines: Vec<&str> = comparisons.lines().collect();
    assert_eq!(lines.len(), 3, "{comparisons}");
    for (line, class) in lines[1..].iter().zip(["example.Stack", "example.Triangle"]) {
        assert!(line.starts_with(&format!("dynamosa,random,{class},1,1,")), "{line}");
        assert!(line.ends_with(",1.000000,exact,none"), "{line}");
    }
    assert!(summary.contains("\ndynamosa: 0 wins, 0 losses (p < 0.05), mean "), "{summary}");
    assert!(summary.contains("so no class can reach p < 0.05"), "{summary}");

    let svg = std::fs::read_to_string(out_dir.join("coverage.svg")).expect("coverage.svg");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<rect x=").count(), 4 + 2, "2 classes × 2 configurations, 2 legend boxes");
}

/// `--pit`: the runner with a tiny budget on one fixture class; every PIT column
/// of the row is filled, the counts add up, the summary has PIT's columns and section, and PIT's
/// report is in the run's own directory. Needs PIT's jars: scripts/fetch-tools.sh.
#[test]
fn pit_columns_are_filled() {
    let suitesmith = suitesmith_binary();
    let tmp = tempfile::tempdir().expect("tempdir");
    let out_dir = tmp.path().join("out");
    let out = Command::new(env!("CARGO_BIN_EXE_bench"))
        .current_dir(test_support::workspace_root())
        .args(["--subjects", "bench/subjects/fixtures.tsv", "--only", "Triangle", "--pit", "--runs", "1"])
        .args(["--config", "dynamosa:algorithm=dynamosa", "--budget", "2s", "--seed", "1"])
        .arg("--out")
        .arg(&out_dir)
        .arg("--suitesmith")
        .arg(&suitesmith)
        .output()
        .expect("run bench");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench failed:\n{stderr}");
    let csv = std::fs::read_to_string(out_dir.join("results.csv")).expect("results.csv");
    let mut lines = csv.lines();
    let header = lines.next().expect("header");
    let line = lines.next().expect("one row");
    let c = cells(header, line);
    assert_eq!(c("error"), "", "{line}");
    let n = |name: &str| c(name).parse::<u32>().unwrap_or_else(|_| panic!("{name} in {line}"));
    let mutants = n("pit_mutants");
    assert!(mutants > 10 && n("pit_killed") > 0, "{line}");
    assert_eq!(
        n("pit_killed") + n("pit_survived") + n("pit_no_coverage") + n("pit_timed_out") + n("pit_other"),
        mutants,
        "{line}"
    );
    let score: f64 = c("pit_score").parse().expect("pit_score");
    assert!(score > 0.0 && score <= 1.0, "{line}");
    // Our own weak-mutation figure stays beside it.
    assert!(c("ours_weakmutation").parse::<f64>().is_ok(), "{line}");
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("| PIT score mean | PIT ratio |"), "{summary}");
    assert!(summary.contains("## Mutation: PIT's score of the written tests"), "{summary}");
    assert!(summary.contains("| example.Triangle | "), "{summary}");
    let report = out_dir.join("runs/dynamosa/example.Triangle/seed-1/check/pit/report/mutations.xml");
    assert!(report.is_file(), "{}", report.display());
    assert!(stderr.contains(", PIT "), "{stderr}");
}

/// A generator that writes fixed files instead of searching.
struct Canned;

const GOOD: &str = r#"package example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class StackTest {
  @Test
  public void pushPop() {
    Stack s = new Stack(2);
    s.push(7);
    assertEquals(7, s.pop());
  }

  // Passes in the first run only: the working directory is shared by the runs, as on a developer's disk.
  @Test
  public void flaky() throws Exception {
    assertTrue(new java.io.File("marker").createNewFile());
  }

  @Test
  public void failing() {
    assertEquals(1, new Stack(3).pop());
  }
}
"#;

const BROKEN: &str = "package example;\n\npublic class StackTest2 {\n  int x = \"no\";\n}\n";

impl Generator for Canned {
    fn generate(&self, request: &GenerateRequest<'_>) -> Result<Measured, bench::BenchError> {
        let dir = request.out_dir.join("example");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("StackTest.java"), GOOD).expect("write");
        std::fs::write(dir.join("StackTest2.java"), BROKEN).expect("write");
        let report = r#"{"configuration":{"junit":4},"classes":[{"class":"example.Stack","tests":4,"statements":8,
            "executions":500,"search_seconds":1.0,"criteria":{"branch":{"coverage":0.25}}}]}"#;
        std::fs::write(request.out_dir.join("report.json"), report).expect("write");
        Ok(Measured {
            exit_code: Some(0),
            timed_out: false,
            wall: std::time::Duration::from_secs(1),
            engine_peak_kib: 1024,
            workers_peak_kib: 0,
        })
    }
}

/// example.Stack alone from the fixture list, seed 0, 1 s, the first configuration the baseline,
/// into `tmp/out`.
fn stack_plan(tmp: &Path, configs: &[&str]) -> Plan {
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/subjects/fixtures.tsv");
    let mut subjects = read_subjects(&list).expect("fixtures.tsv");
    subjects.retain(|s| s.class == "example.Stack");
    let configs: Vec<Configuration> =
        configs.iter().map(|c| Configuration::parse(c).expect("config")).collect();
    Plan {
        subjects_name: "canned".into(),
        subjects,
        baseline: configs[0].name.clone(),
        configs,
        budget: Budget::parse("1s").expect("budget"),
        seeds: vec![0],
        out: tmp.join("out"),
        resume: false,
    }
}

#[test]
fn independent_check_counts_what_the_engine_hides() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = stack_plan(tmp.path(), &["canned"]);
    let checker = Checker::discover(3).expect("JDK, JUnit and JaCoCo");
    let mut progress = Vec::new();
    let outcome = bench::run(&plan, &Canned, &checker, &mut |l| progress.push(l.to_string())).expect("run");
    assert_eq!(progress.len(), 1);
    let row = &outcome.rows[0];
    assert_eq!(row.error, "");
    assert_eq!((row.test_files, row.files_failed_to_compile), (2, 1));
    assert_eq!((row.tests_run, row.tests_flaky, row.tests_failing), (3, 1, 1));
    assert_eq!(row.executions_per_second(), Some(500.0));
    assert_eq!(row.ours_branch(), Some(0.25));
    // The first run (under JaCoCo) ran push and pop past their checks and pop's empty check.
    let (covered, total) = row.jacoco_branches.expect("branches");
    assert!(covered > 0 && covered < total, "{covered}/{total}");
    assert!(outcome.summary.contains("| canned | 1 |"), "{}", outcome.summary);
    assert!(
        outcome.summary.contains("Ratio to baseline `canned` (mean JaCoCo branch coverage): canned 1.00")
    );
    // The baseline alone: nothing to compare, comparisons.csv is its header.
    let comparisons = std::fs::read_to_string(&outcome.comparisons_path).expect("comparisons.csv");
    assert_eq!(comparisons.lines().count(), 1, "{comparisons}");
    assert!(!outcome.summary.contains("Â12"), "{}", outcome.summary);
}

/// `Canned`, counting the generations it was asked for.
struct Counting(std::cell::Cell<usize>);

impl Generator for Counting {
    fn generate(&self, request: &GenerateRequest<'_>) -> Result<Measured, bench::BenchError> {
        self.0.set(self.0.get() + 1);
        Canned.generate(request)
    }
}

/// `--resume`: an invocation stopped after its first run (its journal has one line) goes on in a
/// second invocation that runs only the second; the second's results.csv and summary cover both
/// runs, the reused row as the first invocation measured it. The same name with other options is
/// refused (exit 2's `BadInput`), and without `--resume` everything runs again.
#[test]
fn resume_runs_only_what_an_earlier_invocation_did_not_finish() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut plan = stack_plan(tmp.path(), &["a:algorithm=random", "b:algorithm=mosa"]);
    let checker = Checker::discover(1).expect("JDK, JUnit and JaCoCo");
    let first = Counting(std::cell::Cell::new(0));
    let full = bench::run(&plan, &first, &checker, &mut |_| {}).expect("run");
    assert_eq!(first.0.get(), 2);

    // Stop after the first run: keep the journal's first line only.
    let journal = plan.out.join("rows.jsonl");
    let text = std::fs::read_to_string(&journal).expect("rows.jsonl");
    assert_eq!(text.lines().count(), 2, "{text}");
    std::fs::write(&journal, format!("{}\n", text.lines().next().expect("line"))).expect("write");

    plan.resume = true;
    let second = Counting(std::cell::Cell::new(0));
    let mut progress = Vec::new();
    let resumed =
        bench::run(&plan, &second, &checker, &mut |l| progress.push(l.to_string())).expect("resume");
    assert_eq!(second.0.get(), 1, "only configuration b ran again");
    assert!(progress[0].ends_with("a seed 0: finished by an earlier invocation (--resume)"), "{progress:?}");
    assert_eq!(resumed.rows.len(), 2);
    assert_eq!(resumed.rows[0], full.rows[0], "the reused row is the one measured first");
    assert_eq!(resumed.rows[1].config, "b");
    let csv = std::fs::read_to_string(&resumed.csv).expect("results.csv");
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(
        resumed.summary.contains("| a | 1 |") && resumed.summary.contains("| b | 1 |"),
        "{}",
        resumed.summary
    );
    assert_eq!(std::fs::read_to_string(&journal).expect("rows.jsonl").lines().count(), 2);

    // A configuration of the same name with other options does not reuse the run.
    plan.configs[0] = Configuration::parse("a:algorithm=dynamosa").expect("config");
    let err =
        bench::run(&plan, &Counting(std::cell::Cell::new(0)), &checker, &mut |_| {}).expect_err("mixed");
    assert!(matches!(err, bench::BenchError::BadInput(_)), "{err}");
    assert!(err.to_string().contains("made with other options"), "{err}");
    assert_eq!(std::fs::read_to_string(&resumed.csv).expect("results.csv"), csv, "left as it was");

    // Without --resume the journal starts again and every run is made.
    plan.resume = false;
    let again = Counting(std::cell::Cell::new(0));
    bench::run(&plan, &again, &checker, &mut |_| {}).expect("run");
    assert_eq!(again.0.get(), 2);
}
