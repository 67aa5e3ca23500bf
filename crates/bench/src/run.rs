//! The benchmark loop: for each class, seed and configuration (configurations innermost, so a partial
//! run still compares them on the same classes), generate into a fresh directory, read report.json,
//! check the written tests, and append the row to the CSV at once (a long run that is stopped keeps
//! what it measured). At the end the Markdown summary and the SVG are written. Each finished run
//! also goes to `rows.jsonl` (`journal`), from which `--resume` continues a stopped invocation.
//!
//! Layout of the output directory: `results.csv`, `rows.jsonl`, `summary.md`, `comparisons.csv` (per
//! class, each configuration against the baseline: Â12, p, verdict), `coverage.svg`, and per run
//! `runs/<config>/<class>/seed-<n>/` with `tests/` (what `generate` wrote), `engine.stdout`,
//! `engine.stderr` and `check/` (the compiled tests, the JaCoCo exec file, the tests' working
//! directory), with `check/pit/` when PIT runs (its report in `report/`, its logs, the working,
//! temporary and home directories of its JVMs).

// The benchmark starts `suitesmith` as a user would (tooling outside the engine, whose own processes
// are started only by crate worker).
#![allow(clippy::disallowed_methods)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use worker::verify::JUnitVersion;

use crate::BenchError;
use crate::check::Checker;
use crate::config::{Budget, Configuration};
use crate::journal::Journal;
use crate::measure::{Measured, run_measured};
use crate::pit::MutationScore;
use crate::report::{self, CRITERIA, DseFigures, Row, SummaryContext};
use crate::subjects::Subject;
use crate::watch::{RUN_TMP, Watched};

/// Everything one benchmark invocation does.
#[derive(Debug, Clone)]
pub struct Plan {
    /// For the summary's heading, e.g. `public`.
    pub subjects_name: String,
    pub subjects: Vec<Subject>,
    pub configs: Vec<Configuration>,
    /// The configuration the ratios divide by; one of `configs`.
    pub baseline: String,
    pub budget: Budget,
    /// One repetition per seed.
    pub seeds: Vec<u64>,
    pub out: PathBuf,
    /// Reuse the runs an earlier invocation into `out` finished (`journal`), run only the others.
    pub resume: bool,
}

/// One generation to run.
#[derive(Debug, Clone, Copy)]
pub struct GenerateRequest<'a> {
    pub subject: &'a Subject,
    pub config: &'a Configuration,
    pub budget: &'a Budget,
    pub seed: u64,
    /// Where the tests, statistics.csv and report.json go (`generate --out`).
    pub out_dir: &'a Path,
    /// Where the engine's stdout and stderr go; also its working directory.
    pub log_dir: &'a Path,
}

/// Something that writes tests for a class the way `suitesmith generate` does.
pub trait Generator {
    fn generate(&self, request: &GenerateRequest<'_>) -> Result<Measured, BenchError>;
}

/// The real engine: the `suitesmith` binary at `path`.
#[derive(Debug, Clone)]
pub struct Suitesmith {
    pub path: PathBuf,
}

impl Suitesmith {
    /// The arguments of one `generate` run.
    pub fn args(request: &GenerateRequest<'_>) -> Result<Vec<String>, BenchError> {
        let cp: Vec<String> =
            request.subject.classpath.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let out = std::path::absolute(request.out_dir).map_err(|e| BenchError::Io {
            what: format!("cannot resolve {}", request.out_dir.display()),
            source: e,
        })?;
        let mut args: Vec<String> = vec![
            "generate".into(),
            "--classpath".into(),
            cp.join(":"),
            "--class".into(),
            request.subject.class.clone(),
            "--budget".into(),
            request.budget.text.clone(),
            "--seed".into(),
            request.seed.to_string(),
            "--out".into(),
            out.to_string_lossy().into_owned(),
        ];
        args.extend(request.config.args());
        Ok(args)
    }
}

impl Generator for Suitesmith {
    fn generate(&self, request: &GenerateRequest<'_>) -> Result<Measured, BenchError> {
        let args = Suitesmith::args(request)?;
        // The search budget, then minimisation, assertions and the engine's own verification; a run
        // far past that is stuck.
        let timeout = request.budget.duration * 4 + Duration::from_secs(900);
        let budget = request.config.get("budget").and_then(|b| Budget::parse(b).ok());
        let timeout =
            timeout.max(budget.map(|b| b.duration * 4 + Duration::from_secs(900)).unwrap_or_default());
        // The engine's scratch directories (its workers', its verification's) go in a directory of
        // the run's own, which `run_one` checks is left empty.
        // Absolute: the engine runs in `log_dir`, where a relative path (from a relative `--out`)
        // would name another directory.
        let tmp = request.log_dir.join(RUN_TMP);
        std::fs::create_dir_all(&tmp)
            .map_err(|e| BenchError::Io { what: format!("cannot create {}", tmp.display()), source: e })?;
        let tmp = std::path::absolute(&tmp)
            .map_err(|e| BenchError::Io { what: format!("cannot resolve {}", tmp.display()), source: e })?;
        let path = request.config.binary().map_or(self.path.as_path(), Path::new);
        run_measured(
            path,
            &args,
            request.log_dir,
            &[("TMPDIR", tmp.as_path())],
            &request.log_dir.join("engine.stdout"),
            &request.log_dir.join("engine.stderr"),
            timeout,
        )
    }
}

/// Where an invocation's results are.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub rows: Vec<Row>,
    pub csv: PathBuf,
    pub summary_path: PathBuf,
    /// Per class × configuration against the baseline (`report::comparisons_csv`).
    pub comparisons_path: PathBuf,
    pub svg_path: PathBuf,
    /// The Markdown summary's text.
    pub summary: String,
}

/// Runs the plan. `progress` receives one line per finished run.
pub fn run(
    plan: &Plan,
    generator: &dyn Generator,
    checker: &Checker,
    progress: &mut dyn FnMut(&str),
) -> Result<Outcome, BenchError> {
    if plan.configs.is_empty() {
        return Err(BenchError::BadInput("no configuration given (--config NAME:key=value...)".into()));
    }
    if !plan.configs.iter().any(|c| c.name == plan.baseline) {
        return Err(BenchError::BadInput(format!(
            "the baseline {} is not one of the configurations",
            plan.baseline
        )));
    }
    for (i, c) in plan.configs.iter().enumerate() {
        if plan.configs[..i].iter().any(|d| d.name == c.name) {
            return Err(BenchError::BadInput(format!("configuration {} is given twice", c.name)));
        }
    }
    if plan.seeds.is_empty() {
        return Err(BenchError::BadInput("no seed".into()));
    }
    let io = |what: String| move |e: std::io::Error| BenchError::Io { what, source: e };
    std::fs::create_dir_all(&plan.out).map_err(io(format!("cannot create {}", plan.out.display())))?;
    // The journal first: a resumed run that does not fit this plan stops here, before results.csv
    // of the earlier invocation is rewritten.
    let mut journal = Journal::open(&plan.out, plan.resume)?;
    let mut earlier = Vec::new();
    for subject in &plan.subjects {
        for &seed in &plan.seeds {
            for config in &plan.configs {
                earlier.push(journal.finished(&subject.class, config, seed, budget_s(plan, config))?);
            }
        }
    }
    let mut earlier = earlier.into_iter();
    let csv_path = plan.out.join("results.csv");
    let mut csv =
        std::fs::File::create(&csv_path).map_err(io(format!("cannot create {}", csv_path.display())))?;
    writeln!(csv, "{}", report::csv_header()).map_err(io(format!("cannot write {}", csv_path.display())))?;

    let total = plan.subjects.len() * plan.seeds.len() * plan.configs.len();
    let mut rows = Vec::new();
    for subject in &plan.subjects {
        for &seed in &plan.seeds {
            for config in &plan.configs {
                let (row, what) = match earlier.next().flatten() {
                    Some(row) => (row, "finished by an earlier invocation (--resume)".to_string()),
                    None => {
                        let dir = plan
                            .out
                            .join("runs")
                            .join(&config.name)
                            .join(&subject.class)
                            .join(format!("seed-{seed}"));
                        if dir.exists() {
                            std::fs::remove_dir_all(&dir)
                                .map_err(io(format!("cannot clear {}", dir.display())))?;
                        }
                        std::fs::create_dir_all(&dir)
                            .map_err(io(format!("cannot create {}", dir.display())))?;
                        let row = run_one(plan, subject, config, seed, &dir, generator, checker)?;
                        journal.append(config, &row)?;
                        let what = format!(
                            "exit {}, {:.1} s, JaCoCo line {} branch {}, ours branch {}{}{}",
                            row.exit_code.map(|c| c.to_string()).unwrap_or_else(|| "killed".into()),
                            row.wall_seconds,
                            pct(row.jacoco_line()),
                            pct(row.jacoco_branch()),
                            pct(row.ours_branch()),
                            if checker.pit.is_some() {
                                format!(", PIT {}", pct(row.pit_score()))
                            } else {
                                String::new()
                            },
                            if row.error.is_empty() { String::new() } else { format!(" ({})", row.error) },
                        );
                        (row, what)
                    }
                };
                writeln!(csv, "{}", report::csv_line(&row))
                    .and_then(|()| csv.flush())
                    .map_err(io(format!("cannot write {}", csv_path.display())))?;
                progress(&format!(
                    "[{}/{total}] {} {} seed {}: {what}",
                    rows.len() + 1,
                    subject.class,
                    config.name,
                    seed
                ));
                rows.push(row);
            }
        }
    }

    let configs: Vec<String> = plan.configs.iter().map(|c| c.name.clone()).collect();
    let ctx = SummaryContext {
        subjects_name: &plan.subjects_name,
        budget_s: plan.budget.seconds(),
        seeds: &plan.seeds,
        baseline: &plan.baseline,
        flaky_runs: checker.runs,
        pit: checker.pit.is_some(),
    };
    let summary = report::markdown(&rows, &configs, &plan.subjects, &ctx);
    let summary_path = plan.out.join("summary.md");
    std::fs::write(&summary_path, &summary)
        .map_err(io(format!("cannot write {}", summary_path.display())))?;
    let comparisons_path = plan.out.join("comparisons.csv");
    let comparisons = report::compare(&rows, &configs, &plan.baseline, &plan.subjects);
    std::fs::write(&comparisons_path, report::comparisons_csv(&comparisons))
        .map_err(io(format!("cannot write {}", comparisons_path.display())))?;
    let svg_path = plan.out.join("coverage.svg");
    std::fs::write(&svg_path, report::svg(&rows, &configs, &plan.subjects, plan.budget.seconds()))
        .map_err(io(format!("cannot write {}", svg_path.display())))?;
    Ok(Outcome { rows, csv: csv_path, summary_path, comparisons_path, svg_path, summary })
}

fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{:.1} %", v * 100.0)).unwrap_or_else(|| "–".into())
}

/// The search budget of `config`'s runs, seconds: its own `budget=`, else the plan's.
fn budget_s(plan: &Plan, config: &Configuration) -> f64 {
    config
        .get("budget")
        .and_then(|b| Budget::parse(b).ok())
        .unwrap_or_else(|| plan.budget.clone())
        .duration
        .as_secs_f64()
}

/// One class × configuration × seed.
fn run_one(
    plan: &Plan,
    subject: &Subject,
    config: &Configuration,
    seed: u64,
    dir: &Path,
    generator: &dyn Generator,
    checker: &Checker,
) -> Result<Row, BenchError> {
    let tests_dir = dir.join("tests");
    let request =
        GenerateRequest { subject, config, budget: &plan.budget, seed, out_dir: &tests_dir, log_dir: dir };
    let watched = Watched::before();
    let measured = generator.generate(&request)?;
    let mut row = Row {
        class: subject.class.clone(),
        config: config.name.clone(),
        seed,
        budget_s: budget_s(plan, config),
        exit_code: measured.exit_code,
        timed_out: measured.timed_out,
        wall_seconds: measured.wall.as_secs_f64(),
        engine_peak_mib: measured.engine_peak_kib as f64 / 1024.0,
        workers_peak_mib: measured.workers_peak_kib as f64 / 1024.0,
        ..Row::default()
    };
    if measured.timed_out {
        row.error = "generate was killed at its timeout".into();
    } else if measured.exit_code != Some(0) {
        let stderr = std::fs::read_to_string(dir.join("engine.stderr")).unwrap_or_default();
        row.error =
            format!("generate failed: {}", stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or(""));
    }
    let junit = match read_report(&tests_dir.join("report.json"), &subject.class, &mut row) {
        Ok(j) => j,
        Err(e) => {
            if row.error.is_empty() {
                row.error = e;
            }
            JUnitVersion::Four
        }
    };
    match checker.check(&tests_dir, &subject.class, &subject.classpath, junit, &dir.join("check")) {
        Ok(c) => {
            match checker.mutation(
                &c,
                &subject.class,
                &subject.classpath,
                junit,
                &dir.join("check").join("pit"),
            ) {
                Ok(m) => row.pit = m.as_deref().map(MutationScore::of),
                Err(e) => {
                    if row.error.is_empty() {
                        row.error = e.to_string();
                    }
                }
            }
            row.test_files = c.test_files;
            row.files_failed_to_compile = c.files_failed_to_compile;
            row.tests_run = c.tests_run;
            row.tests_flaky = c.tests_flaky;
            row.tests_failing = c.tests_failing;
            row.violations = c.violations;
            row.not_passing.clone_from(&c.not_passing);
            row.jacoco_lines = c.lines;
            row.jacoco_branches = c.branches;
            row.jacoco_branches_with_nested = c.branches_with_nested;
        }
        Err(e) => {
            if row.error.is_empty() {
                row.error = e.to_string();
            }
        }
    }
    // After the engine and the check of its tests: whatever either left outside its scratch.
    row.escapes = watched.escapes(dir);
    Ok(row)
}

/// Fills the row's engine figures from report.json; returns the JUnit version the tests are for.
fn read_report(path: &Path, class: &str, row: &mut Row) -> Result<JUnitVersion, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("no report.json: {e}"))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("bad report.json: {e}"))?;
    let junit = match json["configuration"]["junit"].as_u64() {
        Some(5) => JUnitVersion::Five,
        _ => JUnitVersion::Four,
    };
    let Some(entry) = json["classes"].as_array().and_then(|a| a.iter().find(|c| c["class"] == class)) else {
        return Err(format!("report.json has no entry for {class}"));
    };
    row.tests = entry["tests"].as_u64();
    row.statements = entry["statements"].as_u64();
    row.assertions = entry["assertions"].as_u64();
    row.executions = entry["executions"].as_u64();
    row.search_seconds = entry["search_seconds"].as_f64();
    let phase = |k: &str| entry["phases_seconds"][k].as_f64();
    if let (Some(m), Some(a), Some(v), Some(c)) =
        (phase("minimisation"), phase("assertions"), phase("verification"), phase("coverage"))
    {
        row.phases_seconds = Some([m, a, v, c]);
    }
    for c in CRITERIA {
        if let Some(v) = entry["criteria"][c]["coverage"].as_f64() {
            row.ours.insert((*c).to_string(), v);
        }
    }
    row.violation_reports =
        entry["violations"].as_array().map(|vs| vs.iter().map(violation_line).collect()).unwrap_or_default();
    row.dse = dse_figures(&entry["dse"]);
    Ok(junit)
}

/// One violation of report.json as `kind class.method: message`.
fn violation_line(v: &serde_json::Value) -> String {
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    format!("{} {}.{}: {}", s("kind"), s("class"), s("method"), s("message"))
}

/// DSE's figures from report.json's `dse` object; `None` when it is null (DSE off).
fn dse_figures(d: &serde_json::Value) -> Option<DseFigures> {
    let n = |k: &str| d[k].as_u64().unwrap_or(0);
    let stops = d["stops"].as_object()?.iter().map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0))).collect();
    Some(DseFigures {
        replays: n("replays"),
        replays_stopped: n("replays_stopped"),
        replays_stopped_at_string_methods: n("replays_stopped_at_string_methods"),
        tests_kept: n("tests_kept"),
        stops,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subjects::parse_subjects;

    #[test]
    fn generate_arguments() {
        let subjects =
            parse_subjects("class\tclasspath\na.B\t/x/a.jar:/x/b.jar\n", Path::new("/")).expect("subjects");
        let config = Configuration::parse("rnd:algorithm=random:workers=1").expect("config");
        let budget = Budget::parse("5s").expect("budget");
        let req = GenerateRequest {
            subject: &subjects[0],
            config: &config,
            budget: &budget,
            seed: 4,
            out_dir: Path::new("/o/tests"),
            log_dir: Path::new("/o"),
        };
        assert_eq!(
            Suitesmith::args(&req).expect("args").join(" "),
            "generate --classpath /x/a.jar:/x/b.jar --class a.B --budget 5s --seed 4 --out /o/tests \
             --algorithm random --workers 1"
        );
    }

    #[test]
    fn report_json_fills_the_row() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let path = tmp.path().join("report.json");
        std::fs::write(
            &path,
            r#"{"configuration":{"junit":5},"classes":[{"class":"a.B","tests":3,"statements":9,
                "executions":100,"search_seconds":4.0,"criteria":{"branch":{"coverage":0.5},"line":{"coverage":1.0}},
                "dse":{"replays":7,"replays_stopped":3,"replays_stopped_at_string_methods":1,"tests_kept":2,
                       "stops":{"unsupported a stub":2,"java/lang/String.matches":1}},
                "violations":[{"kind":"equals_symmetric","class":"a.B","method":"equals",
                               "message":"x.equals(y) but not y.equals(x)","test":"a.BViolationTest.t"}]}]}"#,
        )
        .expect("write");
        let mut row = Row::default();
        assert_eq!(read_report(&path, "a.B", &mut row), Ok(JUnitVersion::Five));
        assert_eq!(row.tests, Some(3));
        assert_eq!(row.executions_per_second(), Some(25.0));
        assert_eq!(row.ours_branch(), Some(0.5));
        assert_eq!(row.ours.get("line"), Some(&1.0));
        assert_eq!(row.ours.get("output"), None);
        let dse = row.dse.as_ref().expect("dse figures");
        assert_eq!(
            (dse.replays, dse.replays_stopped, dse.replays_stopped_at_string_methods, dse.tests_kept),
            (7, 3, 1, 2)
        );
        assert_eq!(dse.stops.get("unsupported a stub"), Some(&2));
        assert_eq!(row.violation_reports, ["equals_symmetric a.B.equals: x.equals(y) but not y.equals(x)"]);
        assert_eq!(read_report(&path, "a.C", &mut row), Err("report.json has no entry for a.C".into()));
    }
}
