//! The results: one [`Row`] per class × configuration × repetition, written as CSV; the Markdown
//! summary (per configuration mean and median coverage, and the ratio of each mean to the baseline
//! configuration's mean from the same invocation; per class ours beside EvoSuite's published value;
//! per class and configuration against the baseline Â12, the Mann–Whitney p and the significant wins
//! and losses, whose statistics are `stats`'s) with the same comparisons as CSV; and a grouped bar
//! chart as SVG, written by hand.
//!
//! A run whose generation or measurement failed keeps its row with the coverage cells empty; in the
//! summary an empty coverage counts as 0 (a tool that writes no compiling tests covers nothing, as
//! the competitions score it), and the number of such runs is shown.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::pit::MutationScore;
use crate::stats::{self, MannWhitney, Verdict};
pub use crate::stats::{mean, median};
use crate::subjects::Subject;

/// The criteria `generate` knows, in its order; each gets an `ours_<criterion>` column.
pub const CRITERIA: &[&str] =
    &["line", "branch", "exception", "weakmutation", "output", "method", "methodnoexception", "cbranch"];

/// One class × configuration × repetition.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub class: String,
    pub config: String,
    pub seed: u64,
    pub budget_s: f64,
    /// `generate`'s exit code; `None` when it was killed (see `timed_out`) or never ran.
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub wall_seconds: f64,
    pub engine_peak_mib: f64,
    pub workers_peak_mib: f64,
    /// From report.json.
    pub tests: Option<u64>,
    pub statements: Option<u64>,
    /// Assertions of the written tests (report.json `assertions`): what `--assertions` changes.
    pub assertions: Option<u64>,
    pub executions: Option<u64>,
    pub search_seconds: Option<f64>,
    /// Post-processing's parts (report.json `phases_seconds`): minimisation (with the guard cut),
    /// assertions, verification, final coverage.
    pub phases_seconds: Option<[f64; 4]>,
    /// Our coverage per criterion (fraction), for the criteria of [`CRITERIA`] the run had.
    pub ours: BTreeMap<String, f64>,
    /// The independent measurement.
    pub test_files: usize,
    pub files_failed_to_compile: usize,
    pub tests_run: usize,
    pub tests_flaky: usize,
    pub tests_failing: usize,
    pub jacoco_lines: Option<(u32, u32)>,
    pub jacoco_branches: Option<(u32, u32)>,
    pub jacoco_branches_with_nested: Option<(u32, u32)>,
    /// PIT's counts on the class under test and its nested classes (`bench --pit`); `None` when PIT
    /// was off, found no compiled test or failed.
    pub pit: Option<MutationScore>,
    /// What the run or the check of its tests left outside its scratch (`watch`), as paths.
    pub escapes: Vec<String>,
    /// Why a figure is missing (generation or measurement failed), one line.
    pub error: String,
    /// The tests the check saw fail or flake, each `Class#method: how` (the first failure's
    /// exception, message and line); at most [`crate::check::NOT_PASSING_LISTED`]. Rows of a
    /// journal written before the field have none.
    #[serde(default)]
    pub not_passing: Vec<String>,
    /// Contract violations the run wrote (`*ViolationTest.java` test methods, failing by design and
    /// not counted in `tests_failing`); 0 in rows written before the field.
    #[serde(default)]
    pub violations: usize,
    /// The contract violations report.json lists, each `kind class.method: message`, so that a
    /// journal kept in docs/results says which contracts broke, not only how many; empty in rows
    /// written before the field.
    #[serde(default)]
    pub violation_reports: Vec<String>,
    /// DSE's own figures (report.json `dse`); `None` when DSE was off, and in rows written before
    /// the field.
    #[serde(default)]
    pub dse: Option<DseFigures>,
}

/// What DSE did in one run (report.json `dse`): the replays of tests by the concolic interpreter,
/// how many stopped before the test's end and why, and the tests DSE's solutions kept. The stop
/// reasons are what a model of the JDK is missing (docs/dse.md).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DseFigures {
    pub replays: u64,
    pub replays_stopped: u64,
    /// Replays stopped at a `String`, `StringBuilder`, `Pattern` or number-parsing method with no
    /// model (report.json `replays_stopped_at_string_methods`).
    pub replays_stopped_at_string_methods: u64,
    pub tests_kept: u64,
    /// Replays stopped, per reason.
    pub stops: BTreeMap<String, u64>,
}

impl Row {
    pub fn executions_per_second(&self) -> Option<f64> {
        match (self.executions, self.search_seconds) {
            (Some(e), Some(s)) if s > 0.0 => Some(e as f64 / s),
            _ => None,
        }
    }

    pub fn jacoco_line(&self) -> Option<f64> {
        self.jacoco_lines.map(fraction)
    }

    pub fn jacoco_branch(&self) -> Option<f64> {
        self.jacoco_branches.map(fraction)
    }

    pub fn ours_branch(&self) -> Option<f64> {
        self.ours.get("branch").copied()
    }

    /// PIT's mutation score (detected / generated).
    pub fn pit_score(&self) -> Option<f64> {
        self.pit.map(|p| p.score())
    }

    /// Our own weak-mutation coverage (report.json), the figure PIT's stands beside.
    pub fn ours_weak_mutation(&self) -> Option<f64> {
        self.ours.get("weakmutation").copied()
    }
}

/// covered / total; a class with nothing to cover (no branches) counts as fully covered, as JaCoCo
/// and EvoSuite report it.
pub fn fraction((covered, total): (u32, u32)) -> f64 {
    if total == 0 { 1.0 } else { f64::from(covered) / f64::from(total) }
}

/// The CSV header.
pub fn csv_header() -> String {
    let mut h: Vec<String> = [
        "class",
        "config",
        "seed",
        "budget_s",
        "exit_code",
        "timed_out",
        "wall_s",
        "engine_peak_mib",
        "workers_peak_mib",
        "tests",
        "statements",
        "assertions",
        "executions",
        "search_s",
        "minimise_s",
        "assertions_s",
        "verification_s",
        "coverage_s",
        "executions_per_s",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    h.extend(CRITERIA.iter().map(|c| format!("ours_{c}")));
    h.extend(
        [
            "test_files",
            "files_failed_to_compile",
            "tests_run",
            "tests_flaky",
            "tests_failing",
            "jacoco_line",
            "jacoco_branch",
            "jacoco_lines_covered",
            "jacoco_lines_total",
            "jacoco_branches_covered",
            "jacoco_branches_total",
            "jacoco_branch_with_nested",
            "pit_mutants",
            "pit_killed",
            "pit_survived",
            "pit_no_coverage",
            "pit_timed_out",
            "pit_other",
            "pit_score",
            "escapes",
            "escaped",
            "error",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    h.join(",")
}

/// One CSV line (no newline) in the order of [`csv_header`]; empty cells for missing figures.
pub fn csv_line(r: &Row) -> String {
    fn opt<T: ToString>(v: Option<T>) -> String {
        v.map(|v| v.to_string()).unwrap_or_default()
    }
    let f4 = |v: Option<f64>| v.map(|v| format!("{v:.4}")).unwrap_or_default();
    let mut cells: Vec<String> = vec![
        quote(&r.class),
        quote(&r.config),
        r.seed.to_string(),
        format!("{}", r.budget_s),
        opt(r.exit_code),
        r.timed_out.to_string(),
        format!("{:.2}", r.wall_seconds),
        format!("{:.1}", r.engine_peak_mib),
        format!("{:.1}", r.workers_peak_mib),
        opt(r.tests),
        opt(r.statements),
        opt(r.assertions),
        opt(r.executions),
        r.search_seconds.map(|v| format!("{v:.2}")).unwrap_or_default(),
        r.phases_seconds.map(|p| format!("{:.2}", p[0])).unwrap_or_default(),
        r.phases_seconds.map(|p| format!("{:.2}", p[1])).unwrap_or_default(),
        r.phases_seconds.map(|p| format!("{:.2}", p[2])).unwrap_or_default(),
        r.phases_seconds.map(|p| format!("{:.2}", p[3])).unwrap_or_default(),
        r.executions_per_second().map(|v| format!("{v:.1}")).unwrap_or_default(),
    ];
    cells.extend(CRITERIA.iter().map(|c| f4(r.ours.get(*c).copied())));
    cells.extend([
        r.test_files.to_string(),
        r.files_failed_to_compile.to_string(),
        r.tests_run.to_string(),
        r.tests_flaky.to_string(),
        r.tests_failing.to_string(),
        f4(r.jacoco_line()),
        f4(r.jacoco_branch()),
        opt(r.jacoco_lines.map(|p| p.0)),
        opt(r.jacoco_lines.map(|p| p.1)),
        opt(r.jacoco_branches.map(|p| p.0)),
        opt(r.jacoco_branches.map(|p| p.1)),
        f4(r.jacoco_branches_with_nested.map(fraction)),
        opt(r.pit.map(|p| p.mutants)),
        opt(r.pit.map(|p| p.killed)),
        opt(r.pit.map(|p| p.survived)),
        opt(r.pit.map(|p| p.no_coverage)),
        opt(r.pit.map(|p| p.timed_out)),
        opt(r.pit.map(|p| p.other)),
        f4(r.pit_score()),
        r.escapes.len().to_string(),
        quote(&r.escapes.join(";")),
        quote(&r.error),
    ]);
    cells.join(",")
}

/// RFC 4180 quoting when needed.
fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// `value / baseline`, undefined when the baseline is 0.
pub fn ratio(value: f64, baseline: f64) -> Option<f64> {
    (baseline > 0.0).then(|| value / baseline)
}

/// One configuration's aggregate over all its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigSummary {
    pub config: String,
    pub runs: usize,
    /// Runs with no JaCoCo figure (generation failed, nothing compiled, measurement failed).
    pub runs_without_coverage: usize,
    pub line_mean: f64,
    pub line_median: f64,
    pub branch_mean: f64,
    pub branch_median: f64,
    pub ours_branch_mean: f64,
    pub ours_branch_median: f64,
    pub files_failed_to_compile: usize,
    pub tests_flaky: usize,
    pub tests_failing: usize,
    /// Runs whose `generate` failed inside (exit 1) or was killed; exit 2 (bad input) is not one.
    pub engine_failures: usize,
    /// Paths left outside scratch, over all runs.
    pub escapes: usize,
    pub tests: u64,
    pub executions_per_second_mean: Option<f64>,
    pub wall_mean: f64,
    pub wall_max: f64,
    pub engine_peak_mib_max: f64,
    pub workers_peak_mib_max: f64,
    /// PIT's mutation score (missing counts as 0), and our weak-mutation coverage beside it.
    pub pit_mean: f64,
    pub pit_median: f64,
    pub ours_weak_mutation_mean: f64,
    /// Runs with no PIT figure.
    pub runs_without_pit: usize,
    /// PIT's counts summed over the runs.
    pub pit: MutationScore,
}

/// Aggregates per configuration, in the order of `configs`; missing coverage counts as 0.
pub fn summarize_configs(rows: &[Row], configs: &[String]) -> Vec<ConfigSummary> {
    configs
        .iter()
        .map(|c| {
            let rs: Vec<&Row> = rows.iter().filter(|r| &r.config == c).collect();
            let col = |f: &dyn Fn(&Row) -> Option<f64>| -> Vec<f64> {
                rs.iter().map(|r| f(r).unwrap_or(0.0)).collect()
            };
            let line = col(&Row::jacoco_line);
            let branch = col(&Row::jacoco_branch);
            let ours = col(&Row::ours_branch);
            let pit = col(&Row::pit_score);
            let eps: Vec<f64> = rs.iter().filter_map(|r| r.executions_per_second()).collect();
            let wall: Vec<f64> = rs.iter().map(|r| r.wall_seconds).collect();
            ConfigSummary {
                config: c.clone(),
                runs: rs.len(),
                runs_without_coverage: rs.iter().filter(|r| r.jacoco_branches.is_none()).count(),
                line_mean: mean(&line).unwrap_or(0.0),
                line_median: median(&line).unwrap_or(0.0),
                branch_mean: mean(&branch).unwrap_or(0.0),
                branch_median: median(&branch).unwrap_or(0.0),
                ours_branch_mean: mean(&ours).unwrap_or(0.0),
                ours_branch_median: median(&ours).unwrap_or(0.0),
                files_failed_to_compile: rs.iter().map(|r| r.files_failed_to_compile).sum(),
                tests_flaky: rs.iter().map(|r| r.tests_flaky).sum(),
                tests_failing: rs.iter().map(|r| r.tests_failing).sum(),
                engine_failures: rs.iter().filter(|r| r.timed_out || r.exit_code == Some(1)).count(),
                escapes: rs.iter().map(|r| r.escapes.len()).sum(),
                tests: rs.iter().filter_map(|r| r.tests).sum(),
                executions_per_second_mean: mean(&eps),
                wall_mean: mean(&wall).unwrap_or(0.0),
                wall_max: wall.iter().copied().fold(0.0, f64::max),
                engine_peak_mib_max: rs.iter().map(|r| r.engine_peak_mib).fold(0.0, f64::max),
                workers_peak_mib_max: rs.iter().map(|r| r.workers_peak_mib).fold(0.0, f64::max),
                pit_mean: mean(&pit).unwrap_or(0.0),
                pit_median: median(&pit).unwrap_or(0.0),
                ours_weak_mutation_mean: mean(&col(&Row::ours_weak_mutation)).unwrap_or(0.0),
                runs_without_pit: rs.iter().filter(|r| r.pit.is_none()).count(),
                pit: rs.iter().filter_map(|r| r.pit).fold(MutationScore::default(), add_scores),
            }
        })
        .collect()
}

fn add_scores(a: MutationScore, b: MutationScore) -> MutationScore {
    MutationScore {
        mutants: a.mutants + b.mutants,
        killed: a.killed + b.killed,
        survived: a.survived + b.survived,
        no_coverage: a.no_coverage + b.no_coverage,
        timed_out: a.timed_out + b.timed_out,
        other: a.other + b.other,
        detected: a.detected + b.detected,
    }
}

/// One class: a configuration against the baseline on JaCoCo branch coverage over the seeds (a run
/// without a figure counting as 0, as in the summary).
#[derive(Debug, Clone, PartialEq)]
pub struct ClassComparison {
    pub class: String,
    pub baseline_runs: usize,
    pub runs: usize,
    /// Over the baseline's seeds.
    pub baseline_mean: f64,
    pub baseline_median: f64,
    /// Over the configuration's seeds.
    pub mean: f64,
    pub median: f64,
    /// Vargha–Delaney Â12 of the configuration against the baseline: above 0.5, the configuration
    /// tends to cover more.
    pub a12: f64,
    pub test: MannWhitney,
    pub verdict: Verdict,
}

/// A configuration against the baseline of the invocation, class by class.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub config: String,
    pub baseline: String,
    /// In the order of the subject list; a class with no run on either side is left out.
    pub classes: Vec<ClassComparison>,
    pub wins: usize,
    pub losses: usize,
    /// Over the classes, of each class's mean over seeds (so every class weighs the same whatever
    /// its number of runs).
    pub baseline_mean: f64,
    pub baseline_median: f64,
    pub mean: f64,
    pub median: f64,
}

/// Every configuration but the baseline against the baseline, in the order of `configs`.
pub fn compare(rows: &[Row], configs: &[String], baseline: &str, subjects: &[Subject]) -> Vec<Comparison> {
    configs
        .iter()
        .filter(|c| c.as_str() != baseline)
        .map(|c| {
            let classes: Vec<ClassComparison> = subjects
                .iter()
                .filter_map(|s| {
                    let base = class_values(rows, &s.class, baseline, Row::jacoco_branch);
                    let ours = class_values(rows, &s.class, c, Row::jacoco_branch);
                    let a12 = stats::a12(&ours, &base)?;
                    let test = stats::mann_whitney(&ours, &base)?;
                    Some(ClassComparison {
                        class: s.class.clone(),
                        baseline_runs: base.len(),
                        runs: ours.len(),
                        baseline_mean: mean(&base)?,
                        baseline_median: median(&base)?,
                        mean: mean(&ours)?,
                        median: median(&ours)?,
                        a12,
                        test,
                        verdict: Verdict::of(a12, test.p),
                    })
                })
                .collect();
            let count = |v: Verdict| classes.iter().filter(|k| k.verdict == v).count();
            let base_means: Vec<f64> = classes.iter().map(|k| k.baseline_mean).collect();
            let means: Vec<f64> = classes.iter().map(|k| k.mean).collect();
            Comparison {
                config: c.clone(),
                baseline: baseline.to_string(),
                wins: count(Verdict::Win),
                losses: count(Verdict::Loss),
                baseline_mean: mean(&base_means).unwrap_or(0.0),
                baseline_median: median(&base_means).unwrap_or(0.0),
                mean: mean(&means).unwrap_or(0.0),
                median: median(&means).unwrap_or(0.0),
                classes,
            }
        })
        .collect()
}

impl Comparison {
    /// "3 wins, 1 loss (p < 0.05), mean 84.3 → 88.8, median 85.2 → 92.2" (baseline → configuration, %).
    pub fn summary_line(&self) -> String {
        format!(
            "{} win{}, {} loss{} (p < {}), mean {} → {}, median {} → {}",
            self.wins,
            if self.wins == 1 { "" } else { "s" },
            self.losses,
            if self.losses == 1 { "" } else { "es" },
            stats::ALPHA,
            pct(self.baseline_mean),
            pct(self.mean),
            pct(self.baseline_median),
            pct(self.median)
        )
    }
}

/// `comparisons.csv`: one line per configuration × class against the baseline, full precision.
pub fn comparisons_csv(comparisons: &[Comparison]) -> String {
    let mut out = String::from(
        "config,baseline,class,runs,baseline_runs,baseline_mean,baseline_median,mean,median,a12,u,p,p_method,verdict\n",
    );
    for c in comparisons {
        for k in &c.classes {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{},{:.6},{},{}",
                quote(&c.config),
                quote(&c.baseline),
                quote(&k.class),
                k.runs,
                k.baseline_runs,
                k.baseline_mean,
                k.baseline_median,
                k.mean,
                k.median,
                k.a12,
                k.test.u,
                k.test.p,
                k.test.method.name(),
                // The CSV says "none" where the Markdown has a dash, so a reader can filter on it.
                match k.verdict {
                    Verdict::Neither => "none",
                    v => v.name(),
                }
            );
        }
    }
    out
}

/// p to three places, and tiny ones as a bound.
fn p_text(p: f64) -> String {
    if p < 0.001 { "<0.001".into() } else { format!("{p:.3}") }
}

/// Per configuration against the baseline: a table of classes with Â12, p and the verdict, and the
/// line counting wins and losses; a note first when the seeds are too few for significance.
fn comparison_section(md: &mut String, comparisons: &[Comparison], ctx: &SummaryContext<'_>) {
    if comparisons.is_empty() {
        // The baseline alone: nothing to compare.
        return;
    }
    let seeds: Vec<String> = ctx.seeds.iter().map(u64::to_string).collect();
    let _ = writeln!(
        md,
        "\n## Against the baseline `{}`: Â12 and Mann–Whitney U per class\n\n\
         JaCoCo branch coverage of each class over seeds {} (a run without a figure counts as 0). Â12 \
         (Vargha–Delaney): the probability that a run of the configuration covers more of the class than a \
         run of the baseline, ties counting half; 0.5 is no difference. p: two-sided Mann–Whitney U test \
         over the seeds (exact up to {} runs of the two together, with ties; beyond, the normal \
         approximation). Verdict: **win** when p < {} and Â12 > {}, **loss** when p < {} and Â12 < {}, \
         otherwise —. Mean and median per class over its seeds; in the summary line over the classes, of \
         the class means (baseline → configuration), in %.",
        ctx.baseline,
        seeds.join(","),
        stats::EXACT_MAX_N,
        stats::ALPHA,
        stats::A12_WIN,
        stats::ALPHA,
        stats::A12_LOSS,
    );
    let k = ctx.seeds.len();
    // A decision that rests on significance uses at least five seeds.
    if k < 5 {
        let smallest = stats::smallest_exact_p(k, k);
        let _ = writeln!(
            md,
            "\n**Note: {k} seed{} per configuration.** The exact test's smallest two-sided p is then {} (every \
             run of one side above every run of the other){}; a decision that rests on significance needs at \
             least 5 seeds (smallest p {}).",
            if k == 1 { "" } else { "s" },
            p_text(smallest),
            if smallest >= stats::ALPHA {
                format!(", so no class can reach p < {}", stats::ALPHA)
            } else {
                String::new()
            },
            p_text(stats::smallest_exact_p(5, 5)),
        );
    }
    for c in comparisons {
        let _ = writeln!(
            md,
            "\n### {} against {}\n\n{}: {}\n\n\
             | class | {b} mean | {b} median | {c} mean | {c} median | Â12 | p | verdict |\n\
             |---|---|---|---|---|---|---|---|",
            c.config,
            c.baseline,
            c.config,
            c.summary_line(),
            b = c.baseline,
            c = c.config,
        );
        for k in &c.classes {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {:.2} | {} | {} |",
                k.class,
                pct(k.baseline_mean),
                pct(k.baseline_median),
                pct(k.mean),
                pct(k.median),
                k.a12,
                p_text(k.test.p),
                k.verdict.name()
            );
        }
    }
}

/// One class's cells of a per-class table, one per configuration: the class's mean of `main` with
/// its mean of `beside` in parentheses ("–" when either is missing).
fn pair_cells(
    md: &mut String,
    rows: &[Row],
    class: &str,
    configs: &[String],
    main: fn(&Row) -> Option<f64>,
    beside: fn(&Row) -> Option<f64>,
) {
    for c in configs {
        match (class_mean(rows, class, c, main), class_mean(rows, class, c, beside)) {
            (Some(a), Some(b)) => {
                let _ = write!(md, " {} ({}) |", pct(a), pct(b));
            }
            _ => md.push_str(" – |"),
        }
    }
}

/// The mean over repetitions of a figure of one class × configuration (missing counts as 0).
fn class_mean(rows: &[Row], class: &str, config: &str, f: impl Fn(&Row) -> Option<f64>) -> Option<f64> {
    mean(&class_values(rows, class, config, f))
}

/// A figure of one class × configuration, one value per repetition in the rows' order (missing
/// counts as 0).
fn class_values(rows: &[Row], class: &str, config: &str, f: impl Fn(&Row) -> Option<f64>) -> Vec<f64> {
    rows.iter().filter(|r| r.class == class && r.config == config).map(|r| f(r).unwrap_or(0.0)).collect()
}

fn pct(v: f64) -> String {
    format!("{:.1}", v * 100.0)
}

fn ratio_text(v: f64, base: f64) -> String {
    ratio(v, base).map(|r| format!("{r:.2}")).unwrap_or_else(|| "n/a".into())
}

/// What the summary is about (for its heading).
#[derive(Debug, Clone)]
pub struct SummaryContext<'a> {
    pub subjects_name: &'a str,
    pub budget_s: u64,
    pub seeds: &'a [u64],
    pub baseline: &'a str,
    pub flaky_runs: usize,
    /// PIT ran (`bench --pit`): the summary gets its columns and its per-class table.
    pub pit: bool,
}

/// The Markdown summary.
pub fn markdown(rows: &[Row], configs: &[String], subjects: &[Subject], ctx: &SummaryContext<'_>) -> String {
    let sums = summarize_configs(rows, configs);
    let base = sums.iter().find(|s| s.config == ctx.baseline);
    let mut md = String::new();
    let seeds: Vec<String> = ctx.seeds.iter().map(u64::to_string).collect();
    let _ = writeln!(
        md,
        "# Benchmark: {} ({} classes), budget {} s, seeds {}, baseline `{}`\n",
        ctx.subjects_name,
        subjects.len(),
        ctx.budget_s,
        seeds.join(","),
        ctx.baseline
    );
    let _ = writeln!(
        md,
        "Coverage in %. JaCoCo: the written tests compiled and run by the benchmark (first of {} fresh-JVM \
         runs), on the class under test alone. Ours: the engine's own branch coverage from report.json. \
         Ratios: this configuration's mean over the baseline's mean, same invocation. A run without a \
         figure counts as 0.\n",
        ctx.flaky_runs
    );
    md.push_str(
        "| configuration | runs | JaCoCo line mean | line median | JaCoCo branch mean | branch median | ours branch mean | ours median | line ratio | branch ratio | ours branch ratio | files not compiling | flaky tests | failing tests | engine failures | escapes | tests | executions/s | wall s (mean) | wall s (max) | engine MiB (max) | workers MiB (max) |",
    );
    if ctx.pit {
        md.push_str(" PIT score mean | PIT ratio |");
    }
    md.push_str(
        "\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    if ctx.pit {
        md.push_str("---|---|");
    }
    md.push('\n');
    for s in &sums {
        config_row(&mut md, s, base, ctx.pit);
    }
    md.push('\n');
    let ratios: Vec<String> = sums
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                s.config,
                base.map(|b| ratio_text(s.branch_mean, b.branch_mean)).unwrap_or("n/a".into())
            )
        })
        .collect();
    let _ = writeln!(
        md,
        "Ratio to baseline `{}` (mean JaCoCo branch coverage): {}\n",
        ctx.baseline,
        ratios.join(", ")
    );

    let comparisons = compare(rows, configs, ctx.baseline, subjects);
    if !comparisons.is_empty() {
        let counts: Vec<String> =
            comparisons.iter().map(|c| format!("{} {}/{}", c.config, c.wins, c.losses)).collect();
        let _ = writeln!(
            md,
            "Significant wins/losses against `{}` per class (p < {}, Â12 > {} / < {}; see below): {}\n",
            ctx.baseline,
            stats::ALPHA,
            stats::A12_WIN,
            stats::A12_LOSS,
            counts.join(", ")
        );
    }

    per_class(&mut md, rows, configs, subjects, ctx);
    comparison_section(&mut md, &comparisons, ctx);
    if ctx.pit {
        mutation_section(&mut md, rows, configs, subjects, &sums, base);
    }
    not_passing_section(&mut md, rows);
    crate::findings::dse_section(&mut md, rows, configs);
    crate::findings::violations_section(&mut md, rows);
    md
}

/// The tests the check saw fail or flake, per run (none: no section): what "0 flaky, 0 failing"
/// would have to explain.
fn not_passing_section(md: &mut String, rows: &[Row]) {
    let listed: Vec<&Row> = rows.iter().filter(|r| !r.not_passing.is_empty()).collect();
    if listed.is_empty() {
        return;
    }
    md.push_str("\n## Tests that did not pass in every run of the check\n\n");
    for r in listed {
        let _ = writeln!(md, "- {} `{}` seed {}:", r.class, r.config, r.seed);
        for t in &r.not_passing {
            let _ = writeln!(md, "  - {t}");
        }
    }
}

/// PIT's figures (`bench --pit`): per configuration the summed counts, the mean score with its ratio
/// to the baseline and our weak-mutation coverage beside it; per class each configuration's score.
fn mutation_section(
    md: &mut String,
    rows: &[Row],
    configs: &[String],
    subjects: &[Subject],
    sums: &[ConfigSummary],
    base: Option<&ConfigSummary>,
) {
    md.push_str(
        "\n## Mutation: PIT's score of the written tests, our weak-mutation coverage beside it\n\n\
         PIT (docs/mutation.md): default mutators on the class under test and its nested classes, run by the \
         benchmark on the tests that compiled; score = detected (killed, timed out, memory or run error, non-viable) / \
         generated, a run without a figure counting as 0. Ours: the engine's weak-mutation coverage \
         (report.json), which counts infected mutants, not killed ones.\n\n\
         | configuration | runs without PIT | mutants | killed | survived | no coverage | timed out | other | PIT score mean | median | PIT ratio | ours weak-mutation mean |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for s in sums {
        let p = &s.pit;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            s.config,
            s.runs_without_pit,
            p.mutants,
            p.killed,
            p.survived,
            p.no_coverage,
            p.timed_out,
            p.other,
            pct(s.pit_mean),
            pct(s.pit_median),
            base.map(|b| ratio_text(s.pit_mean, b.pit_mean)).unwrap_or_else(|| "n/a".into()),
            pct(s.ours_weak_mutation_mean),
        );
    }
    md.push_str("\n### Per class: PIT mutation score (ours weak-mutation in parentheses)\n\n| class |");
    for c in configs {
        let _ = write!(md, " {c} |");
    }
    md.push_str("\n|---|");
    md.push_str(&"---|".repeat(configs.len()));
    md.push('\n');
    for s in subjects {
        let _ = write!(md, "| {} |", s.class);
        pair_cells(md, rows, &s.class, configs, Row::pit_score, Row::ours_weak_mutation);
        md.push('\n');
    }
}

/// One configuration's row of the summary table, with its ratios to the baseline `base`.
fn config_row(md: &mut String, s: &ConfigSummary, base: Option<&ConfigSummary>, pit: bool) {
    let (lr, br, or) = match base {
        Some(b) => (
            ratio_text(s.line_mean, b.line_mean),
            ratio_text(s.branch_mean, b.branch_mean),
            ratio_text(s.ours_branch_mean, b.ours_branch_mean),
        ),
        None => ("n/a".into(), "n/a".into(), "n/a".into()),
    };
    let runs = if s.runs_without_coverage > 0 {
        format!("{} ({} without coverage)", s.runs, s.runs_without_coverage)
    } else {
        s.runs.to_string()
    };
    let _ = writeln!(
        md,
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.0} | {:.0} |{}",
        s.config,
        runs,
        pct(s.line_mean),
        pct(s.line_median),
        pct(s.branch_mean),
        pct(s.branch_median),
        pct(s.ours_branch_mean),
        pct(s.ours_branch_median),
        lr,
        br,
        or,
        s.files_failed_to_compile,
        s.tests_flaky,
        s.tests_failing,
        s.engine_failures,
        s.escapes,
        s.tests,
        s.executions_per_second_mean.map(|v| format!("{v:.0}")).unwrap_or_else(|| "n/a".into()),
        s.wall_mean,
        s.wall_max,
        s.engine_peak_mib_max,
        s.workers_peak_mib_max,
        if pit {
            format!(
                " {} | {} |",
                pct(s.pit_mean),
                base.map(|b| ratio_text(s.pit_mean, b.pit_mean)).unwrap_or_else(|| "n/a".into())
            )
        } else {
            String::new()
        },
    );
}

/// Per class: each configuration's JaCoCo branch coverage (mean over seeds), ours, and EvoSuite's.
fn per_class(
    md: &mut String,
    rows: &[Row],
    configs: &[String],
    subjects: &[Subject],
    ctx: &SummaryContext<'_>,
) {
    let with_evosuite = subjects.iter().any(|s| s.evosuite_mean_at(ctx.budget_s).is_some());
    md.push_str("## Per class: JaCoCo branch coverage (ours from report.json in parentheses)\n\n| class |");
    for c in configs {
        let _ = write!(md, " {c} |");
    }
    if with_evosuite {
        let _ = write!(md, " EvoSuite published @{} s |", ctx.budget_s);
    }
    md.push_str("\n|---|");
    for _ in configs {
        md.push_str("---|");
    }
    if with_evosuite {
        md.push_str("---|");
    }
    md.push('\n');
    for s in subjects {
        let _ = write!(md, "| {} |", s.class);
        pair_cells(md, rows, &s.class, configs, Row::jacoco_branch, Row::ours_branch);
        if with_evosuite {
            let refs: Vec<String> = s
                .evosuite_at(ctx.budget_s)
                .iter()
                .map(|(r, v)| format!("{v:.1} ({} {})", r.edition, r.benchmark).replace(" ()", ""))
                .collect();
            let _ = write!(md, " {} |", if refs.is_empty() { "–".to_string() } else { refs.join("; ") });
        }
        md.push('\n');
    }
    if with_evosuite {
        let with: Vec<&Subject> =
            subjects.iter().filter(|s| s.evosuite_mean_at(ctx.budget_s).is_some()).collect();
        let evo: Vec<f64> = with.iter().filter_map(|s| s.evosuite_mean_at(ctx.budget_s)).collect();
        let _ = write!(
            md,
            "\nOn the {} classes with a published EvoSuite value at {} s (the mean over editions where a class has several): \
             EvoSuite {:.1} %",
            with.len(),
            ctx.budget_s,
            mean(&evo).unwrap_or(0.0)
        );
        for c in configs {
            let ours: Vec<f64> = with
                .iter()
                .map(|s| class_mean(rows, &s.class, c, Row::jacoco_branch).unwrap_or(0.0))
                .collect();
            let m = mean(&ours).unwrap_or(0.0);
            let _ =
                write!(md, ", {c} {} % (ratio {})", pct(m), ratio_text(m * 100.0, mean(&evo).unwrap_or(0.0)));
        }
        md.push_str(
            ".\nEvoSuite's numbers were measured by the SBST/SBFT competitions on another machine and on other \
             versions of the libraries (Guava 28.2/29.0/26.0 against Debian's 31.1 here): reference points, not \
             measurements of this run.\n",
        );
    }
}

/// A grouped bar chart: per class, one bar per configuration (JaCoCo branch coverage, mean over
/// seeds), and EvoSuite's published value as a black tick where there is one.
pub fn svg(rows: &[Row], configs: &[String], subjects: &[Subject], budget_s: u64) -> String {
    const COLORS: &[&str] =
        &["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"];
    let (bar, gap, left, top, plot_h, bottom) = (14.0, 18.0, 50.0, 40.0, 300.0, 170.0);
    let group = bar * configs.len().max(1) as f64 + gap;
    let width = left + group * subjects.len().max(1) as f64 + 20.0;
    let height = top + plot_h + bottom;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="20" font-size="13">JaCoCo branch coverage per class, budget {budget_s} s (black tick: EvoSuite published)</text>"#
    );
    for i in 0..=4 {
        let y = top + plot_h - plot_h * f64::from(i) / 4.0;
        let _ = writeln!(
            s,
            r##"<line x1="{left}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}%</text>"##,
            width - 20.0,
            left - 4.0,
            y + 4.0,
            i * 25
        );
    }
    for (k, sub) in subjects.iter().enumerate() {
        let x0 = left + gap / 2.0 + group * k as f64;
        for (j, c) in configs.iter().enumerate() {
            let v = class_mean(rows, &sub.class, c, Row::jacoco_branch).unwrap_or(0.0);
            let h = plot_h * v.clamp(0.0, 1.0);
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{bar}" height="{h:.1}" fill="{}"><title>{} {}: {} %</title></rect>"#,
                x0 + bar * j as f64,
                top + plot_h - h,
                COLORS[j % COLORS.len()],
                escape(&sub.class),
                escape(c),
                pct(v)
            );
        }
        if let Some(e) = sub.evosuite_mean_at(budget_s) {
            let y = top + plot_h - plot_h * (e / 100.0).clamp(0.0, 1.0);
            let _ = writeln!(
                s,
                r#"<line x1="{:.1}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="black" stroke-width="2"><title>EvoSuite {e:.1} %</title></line>"#,
                x0 - 2.0,
                x0 + bar * configs.len() as f64 + 2.0
            );
        }
        let lx = x0 + bar * configs.len() as f64 / 2.0;
        let ly = top + plot_h + 8.0;
        let _ = writeln!(
            s,
            r#"<text x="{lx:.1}" y="{ly:.1}" transform="rotate(60 {lx:.1} {ly:.1})">{}</text>"#,
            escape(sub.simple_name())
        );
    }
    for (j, c) in configs.iter().enumerate() {
        let x = left + 120.0 * j as f64;
        let y = height - 14.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x:.1}" y="{:.1}" width="10" height="10" fill="{}"/><text x="{:.1}" y="{y:.1}">{}</text>"#,
            y - 9.0,
            COLORS[j % COLORS.len()],
            x + 14.0,
            escape(c)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use expect_test::expect;

    use super::*;
    use crate::subjects::parse_subjects;

    fn row(class: &str, config: &str, seed: u64, branches: Option<(u32, u32)>, ours: f64) -> Row {
        Row {
            class: class.into(),
            config: config.into(),
            seed,
            jacoco_lines: branches,
            jacoco_branches: branches,
            ours: [("branch".to_string(), ours)].into_iter().collect(),
            executions: Some(1000),
            search_seconds: Some(2.0),
            ..Row::default()
        }
    }

    #[test]
    fn mean_median_ratio() {
        assert_eq!(mean(&[]), None);
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(ratio(0.75, 0.5), Some(1.5));
        assert_eq!(ratio(0.6, 0.0), None);
        assert_eq!(fraction((3, 4)), 0.75);
        assert_eq!(fraction((0, 0)), 1.0);
    }

    #[test]
    fn per_configuration_summary_counts_missing_as_zero() {
        let rows = vec![
            row("a.A", "dyn", 0, Some((12, 16)), 0.875),
            row("a.B", "dyn", 0, Some((4, 16)), 0.5),
            row("a.A", "rnd", 0, Some((4, 16)), 0.5),
            row("a.B", "rnd", 0, None, 0.0),
        ];
        let s = summarize_configs(&rows, &["dyn".into(), "rnd".into()]);
        assert_eq!(s[0].branch_mean, 0.5);
        assert_eq!(s[0].branch_median, 0.5);
        assert_eq!(s[0].ours_branch_mean, 0.6875);
        assert_eq!(s[1].branch_mean, 0.125);
        assert_eq!(s[1].runs_without_coverage, 1);
        assert_eq!(s[0].executions_per_second_mean, Some(500.0));
        assert_eq!(ratio(s[0].branch_mean, s[1].branch_mean), Some(4.0));
    }

    #[test]
    fn csv_has_one_cell_per_column() {
        let mut r = row("a.A", "dyn", 7, Some((1, 4)), 0.25);
        r.error = "javac: \"x\", y".into();
        let line = csv_line(&r);
        assert!(line.starts_with("a.A,dyn,7,"), "{line}");
        assert!(line.ends_with(",\"javac: \"\"x\"\", y\""), "{line}");
        let unquoted = line.replace("\"javac: \"\"x\"\", y\"", "E");
        assert_eq!(unquoted.split(',').count(), csv_header().split(',').count());
        assert!(line.contains(",0.2500,0.2500,1,4,1,4,,"), "{line}");
    }

    #[test]
    fn markdown_and_svg() {
        let text = "class\tclasspath\tedition\tbenchmark\tevosuite_branch\na.A\tx.jar\t2021\tG-1\t60=50\na.B\tx.jar\t\t\t\n";
        let subjects = parse_subjects(text, Path::new("/")).expect("subjects");
        let rows = vec![
            row("a.A", "dyn", 0, Some((8, 10)), 0.9),
            row("a.B", "dyn", 0, Some((4, 10)), 0.5),
            row("a.A", "rnd", 0, Some((4, 10)), 0.5),
            row("a.B", "rnd", 0, Some((2, 10)), 0.2),
        ];
        let configs = ["dyn".to_string(), "rnd".to_string()];
        let ctx = SummaryContext {
            subjects_name: "t",
            budget_s: 60,
            seeds: &[0],
            baseline: "rnd",
            flaky_runs: 3,
            pit: false,
        };
        let md = markdown(&rows, &configs, &subjects, &ctx);
        assert!(
            md.contains("Ratio to baseline `rnd` (mean JaCoCo branch coverage): dyn 2.00, rnd 1.00"),
            "{md}"
        );
        assert!(md.contains("| a.A | 80.0 (90.0) | 40.0 (50.0) | 50.0 (2021 G-1) |"), "{md}");
        assert!(md.contains("| a.B | 40.0 (50.0) | 20.0 (20.0) | – |"), "{md}");
        assert!(md.contains("EvoSuite 50.0 %, dyn 80.0 % (ratio 1.60), rnd 40.0 % (ratio 0.80)"), "{md}");
        assert!(!md.contains("PIT"), "PIT's columns only with --pit: {md}");
        assert!(!md.contains("did not pass"), "no section when every test passed: {md}");
        let mut failing = rows.clone();
        failing[1].not_passing = vec!["a.BTest#test3: failing, java.lang.AssertionError: x (line 9)".into()];
        let md2 = markdown(&failing, &configs, &subjects, &ctx);
        assert!(
            md2.contains(
                "- a.B `dyn` seed 0:\n  - a.BTest#test3: failing, java.lang.AssertionError: x (line 9)\n"
            ),
            "{md2}"
        );
        let svg = svg(&rows, &configs, &subjects, 60);
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<rect x=").count(), 4 + 2, "4 bars and 2 legend boxes");
        assert!(svg.contains("EvoSuite 50.0 %"));
    }

    #[test]
    fn pit_columns_and_section() {
        let text = "class\tclasspath\na.A\tx.jar\na.B\tx.jar\n";
        let subjects = parse_subjects(text, Path::new("/")).expect("subjects");
        let score = |killed, survived, no_coverage, timed_out| MutationScore {
            mutants: killed + survived + no_coverage + timed_out,
            killed,
            survived,
            no_coverage,
            timed_out,
            other: 0,
            detected: killed + timed_out,
        };
        let mut rows = vec![
            row("a.A", "dyn", 0, Some((8, 10)), 0.9),
            row("a.B", "dyn", 0, Some((4, 10)), 0.5),
            row("a.A", "rnd", 0, Some((4, 10)), 0.5),
            row("a.B", "rnd", 0, Some((2, 10)), 0.2),
        ];
        rows[0].pit = Some(score(6, 2, 1, 1));
        rows[1].pit = Some(score(1, 1, 2, 0));
        rows[2].pit = Some(score(3, 5, 2, 0));
        rows[0].ours.insert("weakmutation".into(), 0.8);
        rows[2].ours.insert("weakmutation".into(), 0.4);
        // a.B under rnd: PIT failed or found no test; it counts as 0.
        let line = csv_line(&rows[0]);
        assert!(line.contains(",10,6,2,1,1,0,0.7000,"), "{line}");
        assert!(csv_line(&rows[3]).contains(",,,,,,,,"), "empty PIT cells when there is no figure");
        let configs = ["dyn".to_string(), "rnd".to_string()];
        let ctx = SummaryContext {
            subjects_name: "t",
            budget_s: 60,
            seeds: &[0],
            baseline: "rnd",
            flaky_runs: 3,
            pit: true,
        };
        let md = markdown(&rows, &configs, &subjects, &ctx);
        // Mean PIT score: dyn (0.7 + 0.25) / 2, rnd (0.3 + 0) / 2; the ratio divides by the baseline.
        assert!(md.contains("| 47.5 | 3.17 |\n| rnd |"), "{md}");
        assert!(md.contains("| 15.0 | 1.00 |\n\n"), "{md}");
        assert!(
            md.contains("| dyn | 0 | 14 | 7 | 3 | 3 | 1 | 0 | 47.5 | 47.5 | 3.17 | 40.0 |"),
            "counts summed, weak mutation beside: {md}"
        );
        assert!(md.contains("| rnd | 1 | 10 | 3 | 5 | 2 | 0 | 0 | 15.0 | 15.0 | 1.00 | 20.0 |"), "{md}");
        assert!(md.contains("| a.A | 70.0 (80.0) | 30.0 (40.0) |"), "{md}");
        assert!(md.contains("| a.B | 25.0 (0.0) | 0.0 (0.0) |"), "{md}");
    }

    /// Rows of `config` on `class`, one per seed from 1, with these branches covered of 10 (`None`:
    /// the run has no figure).
    fn seeds(class: &str, config: &str, covered: &[Option<u32>]) -> Vec<Row> {
        covered.iter().zip(1..).map(|(c, seed)| row(class, config, seed, c.map(|c| (c, 10)), 0.0)).collect()
    }

    /// Hand-computed: a.A complete separation in the configuration's favour (Â12 1, exact p 2/252),
    /// a.B the same against it with one run missing (counted as 0), a.C every run equal (Â12 0.5,
    /// p 1). Class means new 0.9, 0.2, 0.5 (mean 0.533, median 0.5); old 0.58, 0.68, 0.5 (mean
    /// 0.587, median 0.58).
    #[test]
    fn comparison_against_the_baseline_five_seeds() {
        let text = "class\tclasspath\na.A\tx.jar\na.B\tx.jar\na.C\tx.jar\n";
        let subjects = parse_subjects(text, Path::new("/")).expect("subjects");
        let rows: Vec<Row> = [
            seeds("a.A", "new", &[Some(9), Some(9), Some(8), Some(9), Some(10)]),
            seeds("a.A", "old", &[Some(5), Some(6), Some(7), Some(6), Some(5)]),
            seeds("a.B", "new", &[Some(2), Some(3), Some(2), None, Some(3)]),
            seeds("a.B", "old", &[Some(6), Some(7), Some(6), Some(7), Some(8)]),
            seeds("a.C", "new", &[Some(5); 5]),
            seeds("a.C", "old", &[Some(5); 5]),
        ]
        .concat();
        let configs = ["new".to_string(), "old".to_string()];
        let comparisons = compare(&rows, &configs, "old", &subjects);
        assert_eq!(comparisons.len(), 1, "the baseline is not compared with itself");
        let c = &comparisons[0];
        assert_eq!((c.wins, c.losses), (1, 1));
        let verdicts: Vec<(f64, Verdict)> = c.classes.iter().map(|k| (k.a12, k.verdict)).collect();
        assert_eq!(verdicts, [(1.0, Verdict::Win), (0.0, Verdict::Loss), (0.5, Verdict::Neither)]);
        assert!((c.classes[0].test.p - 2.0 / 252.0).abs() < 1e-15);
        assert_eq!(c.classes[2].test.p, 1.0);
        assert_eq!(c.summary_line(), "1 win, 1 loss (p < 0.05), mean 58.7 → 53.3, median 58.0 → 50.0");

        let ctx = SummaryContext {
            subjects_name: "t",
            budget_s: 30,
            seeds: &[1, 2, 3, 4, 5],
            baseline: "old",
            flaky_runs: 3,
            pit: false,
        };
        let md = markdown(&rows, &configs, &subjects, &ctx);
        assert!(
            md.contains(
                "Significant wins/losses against `old` per class (p < 0.05, Â12 > 0.64 / < 0.36; see below): \
                 new 1/1\n"
            ),
            "{md}"
        );
        let section = &md[md.find("\n## Against").expect("the comparison section")..];
        expect![[r#"

            ## Against the baseline `old`: Â12 and Mann–Whitney U per class

            JaCoCo branch coverage of each class over seeds 1,2,3,4,5 (a run without a figure counts as 0). Â12 (Vargha–Delaney): the probability that a run of the configuration covers more of the class than a run of the baseline, ties counting half; 0.5 is no difference. p: two-sided Mann–Whitney U test over the seeds (exact up to 50 runs of the two together, with ties; beyond, the normal approximation). Verdict: **win** when p < 0.05 and Â12 > 0.64, **loss** when p < 0.05 and Â12 < 0.36, otherwise —. Mean and median per class over its seeds; in the summary line over the classes, of the class means (baseline → configuration), in %.

            ### new against old

            new: 1 win, 1 loss (p < 0.05), mean 58.7 → 53.3, median 58.0 → 50.0

            | class | old mean | old median | new mean | new median | Â12 | p | verdict |
            |---|---|---|---|---|---|---|---|
            | a.A | 58.0 | 60.0 | 90.0 | 90.0 | 1.00 | 0.008 | win |
            | a.B | 68.0 | 70.0 | 20.0 | 20.0 | 0.00 | 0.008 | loss |
            | a.C | 50.0 | 50.0 | 50.0 | 50.0 | 0.50 | 1.000 | — |
        "#]]
        .assert_eq(section);
        expect![[r#"
            config,baseline,class,runs,baseline_runs,baseline_mean,baseline_median,mean,median,a12,u,p,p_method,verdict
            new,old,a.A,5,5,0.5800,0.6000,0.9000,0.9000,1.0000,25,0.007937,exact,win
            new,old,a.B,5,5,0.6800,0.7000,0.2000,0.2000,0.0000,0,0.007937,exact,loss
            new,old,a.C,5,5,0.5000,0.5000,0.5000,0.5000,0.5000,12.5,1.000000,exact,none
        "#]]
        .assert_eq(&comparisons_csv(&comparisons));
    }

    /// Three seeds: the note says no class can be significant, and none is even when every run of
    /// one side beats every run of the other (p = 0.1).
    #[test]
    fn three_seeds_cannot_be_significant() {
        let text = "class\tclasspath\na.A\tx.jar\n";
        let subjects = parse_subjects(text, Path::new("/")).expect("subjects");
        let rows: Vec<Row> = [
            seeds("a.A", "base", &[Some(1), Some(2), Some(3)]),
            seeds("a.A", "new", &[Some(7), Some(8), Some(9)]),
        ]
        .concat();
        let configs = ["base".to_string(), "new".to_string()];
        let ctx = SummaryContext {
            subjects_name: "t",
            budget_s: 30,
            seeds: &[1, 2, 3],
            baseline: "base",
            flaky_runs: 3,
            pit: false,
        };
        let md = markdown(&rows, &configs, &subjects, &ctx);
        assert!(
            md.contains(
                "**Note: 3 seeds per configuration.** The exact test's smallest two-sided p is then 0.100 \
                 (every run of one side above every run of the other), so no class can reach p < 0.05; a \
                 decision that rests on significance needs at least 5 seeds (smallest p 0.008)."
            ),
            "{md}"
        );
        assert!(md.contains("| a.A | 20.0 | 20.0 | 80.0 | 80.0 | 1.00 | 0.100 | — |"), "{md}");
        assert!(md.contains("new: 0 wins, 0 losses (p < 0.05), mean 20.0 → 80.0"), "{md}");
        // The baseline alone: no section, no counts.
        let md = markdown(&rows, &configs[..1], &subjects, &ctx);
        assert!(!md.contains("Â12"), "{md}");
    }
}
