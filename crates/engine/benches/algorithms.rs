//! The search algorithms' benchmark: coverage per search algorithm, side by side, in one run, on the
//! public benchmark set (`shared/benchmarks/public.tsv`), with DynaMOSA's branch coverage divided by
//! random search's as the headline ratio (Panichella et al., TSE 2018, compare DynaMOSA with MOSA and
//! whole suite the same way; Randoop-style random search is our floor), and the engine overhead:
//! the share of the search's wall time spent outside waiting for the JVM workers (goal < 10 %).
//!
//! Runs are CLASS-MAJOR: for one class every algorithm runs back to back, so that a change of the
//! machine's load during the run hits all algorithms alike instead of one of them.
//!
//! Run: `cargo bench -p engine --bench algorithms` (a plain `main`, `harness = false`). Knobs:
//!
//! - `SUITESMITH_BENCH_BUDGET`: search seconds per class and algorithm (default 30; fractions allowed).
//! - `SUITESMITH_BENCH_CLASSES`: comma-separated substrings; a class runs if its name contains one.
//! - `SUITESMITH_BENCH_ALGORITHMS`: comma-separated `random,whole-suite,mosa,dynamosa,mio` (default
//!   all five; `wholesuite` is accepted too, the CLI's spelling).
//! - `SUITESMITH_BENCH_SEED`: the seed of every run (default 1).
//! - `SUITESMITH_BENCH_OUT`: path of a CSV to write, one row per class × algorithm, flushed after
//!   each run so that a partial run leaves usable data.
//! - `SUITESMITH_BENCH_TSV`: the benchmark set (default `../shared/benchmarks/public.tsv` from the
//!   workspace root; columns debian_package, jar, class, area, ...; jars in `/usr/share/java`).
//!
//! Every run uses EvoSuite's default criteria, 2 workers and a 3 s per-test timeout. An `Err` (or a
//! panic) of one run is printed and the benchmark goes on with the next; the means and ratios are
//! taken over the classes on which every selected algorithm produced a result, so that a failure
//! does not bias one algorithm's mean.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use engine::{Criterion, DEFAULT_CRITERIA, GenerateConfig, Generation, generate};
use search::{Algorithm, Budget};

/// The allocator of the `suitesmith` binary (`crates/cli/src/main.rs`), so that the engine's time is
/// measured as users run it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const WORKERS: usize = 2;
const TIMEOUT_MS: u32 = 3000;

/// Short column names for the criteria, in `DEFAULT_CRITERIA` order.
fn short(c: Criterion) -> &'static str {
    match c {
        Criterion::Line => "line",
        Criterion::Branch => "branch",
        Criterion::Exception => "exc",
        Criterion::WeakMutation => "wmut",
        Criterion::Output => "output",
        Criterion::Method => "method",
        Criterion::MethodNoException => "mnoexc",
        Criterion::ContextBranch => "cbranch",
    }
}

/// One row of the benchmark set.
struct Subject {
    jar: String,
    class: String,
}

/// What the benchmark keeps of one successful run.
struct Run {
    /// Coverage in [0, 1] per criterion; `None` when the class has no goal of it.
    coverage: BTreeMap<Criterion, Option<(usize, usize)>>,
    tests: usize,
    evaluations: u64,
    generations: u64,
    /// The search's wall time and the part spent waiting for the workers.
    elapsed: Duration,
    waiting: Duration,
    /// The whole `generate` call: set-up (cluster, instrumentation, JVM start) and final execution too.
    total: Duration,
    unchanged: usize,
}

impl Run {
    fn from(g: &Generation, total: Duration) -> Run {
        let coverage = DEFAULT_CRITERIA
            .iter()
            .map(|&c| (c, g.criterion(c).filter(|x| x.total > 0).map(|x| (x.covered, x.total))))
            .collect();
        Run {
            coverage,
            tests: g.suite.len(),
            evaluations: g.evaluations,
            generations: g.generations,
            elapsed: g.elapsed,
            waiting: waiting_time(g),
            total,
            unchanged: g.unchanged.len(),
        }
    }

    /// Coverage of `c` in percent.
    fn pct(&self, c: Criterion) -> Option<f64> {
        self.coverage.get(&c).copied().flatten().map(|(cov, tot)| 100.0 * cov as f64 / tot as f64)
    }

    /// Share of the search's wall time spent outside waiting for the workers.
    fn overhead(&self) -> f64 {
        let e = self.elapsed.as_secs_f64();
        if e <= 0.0 { 0.0 } else { (1.0 - self.waiting.as_secs_f64() / e).max(0.0) }
    }

    fn evals_per_sec(&self) -> f64 {
        self.evaluations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Time the search spent inside the executor waiting for the worker pool (`Generation::worker_time`).
fn waiting_time(g: &Generation) -> Duration {
    g.worker_time
}

/// The name used for the waiting time in the output, so the figures say what they measured.
const WAITING_NAME: &str = "worker_time";

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).ok().filter(|s| !s.trim().is_empty()).unwrap_or_else(|| default.to_string())
}

fn fail(msg: String) -> ! {
    eprintln!("algorithms bench: {msg}");
    std::process::exit(2)
}

fn parse_algorithms(list: &str) -> Vec<Algorithm> {
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let key = name.to_ascii_lowercase().replace(['-', '_'], "");
        match Algorithm::ALL.iter().find(|a| a.name().replace('-', "") == key) {
            Some(&a) if !out.contains(&a) => out.push(a),
            Some(_) => {}
            None => fail(format!(
                "unknown algorithm {name:?} in SUITESMITH_BENCH_ALGORITHMS (known: {})",
                Algorithm::ALL.map(|a| a.name()).join(", ")
            )),
        }
    }
    // Keep `Algorithm::ALL`'s order whatever the list's, so columns line up between runs.
    out.sort_by_key(|a| Algorithm::ALL.iter().position(|b| b == a));
    out
}

fn read_subjects(tsv: &Path) -> Vec<Subject> {
    let text = std::fs::read_to_string(tsv).unwrap_or_else(|e| fail(format!("{}: {e}", tsv.display())));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| fail(format!("{}: no column {name}", tsv.display())))
    };
    let (jar, class) = (col("jar"), col("class"));
    lines
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some(Subject { jar: f.get(jar)?.trim().to_string(), class: f.get(class)?.trim().to_string() })
        })
        .collect()
}

/// The jar and the jars it needs to link (test-support's corpus list names guava's), if present.
/// The run of one subject with one algorithm: EvoSuite's criteria, no technique switched on.
fn run_config(s: &Subject, alg: Algorithm, budget_s: f64, seed: u64) -> GenerateConfig {
    GenerateConfig {
        algorithm: alg,
        workers: WORKERS,
        timeout_ms: TIMEOUT_MS,
        techniques: engine::Techniques::none(),
        ..GenerateConfig::standard(
            classpath(&s.jar),
            &s.class,
            Budget::time(Duration::from_secs_f64(budget_s)),
            seed,
        )
    }
}

fn classpath(jar: &str) -> Vec<PathBuf> {
    let path = Path::new("/usr/share/java").join(jar);
    let deps = std::panic::catch_unwind(test_support::corpus_jars)
        .ok()
        .and_then(|jars| jars.into_iter().find(|j| j.path == path))
        .map(|j| j.deps)
        .unwrap_or_default();
    let mut cp = vec![path];
    cp.extend(deps);
    cp
}

fn simple_name(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

fn fmt_pct(p: Option<f64>) -> String {
    p.map_or_else(|| "-".to_string(), |p| format!("{p:.1}"))
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

fn median(xs: &[f64]) -> Option<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// The CSV output, written row by row.
struct Csv(Option<std::fs::File>);

impl Csv {
    fn open(path: Option<String>) -> Csv {
        let Some(path) = path else { return Csv(None) };
        let path = PathBuf::from(path);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        let mut f = std::fs::File::create(&path).unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
        let mut header = String::from("class,algorithm,seed,budget_s,status");
        for c in DEFAULT_CRITERIA {
            let s = short(c);
            let _ = write!(header, ",{s}_covered,{s}_total,{s}_pct");
        }
        header.push_str(&format!(
            ",tests,evaluations,generations,evaluations_per_s,search_s,{WAITING_NAME}_s,overhead,total_s,unchanged,error\n"
        ));
        let _ = f.write_all(header.as_bytes());
        Csv(Some(f))
    }

    fn row(&mut self, class: &str, alg: Algorithm, seed: u64, budget: f64, run: &Result<Run, String>) {
        let Some(f) = self.0.as_mut() else { return };
        let mut line = format!("{class},{},{seed},{budget}", alg.name());
        match run {
            Ok(r) => {
                line.push_str(",ok");
                for c in DEFAULT_CRITERIA {
                    match r.coverage.get(&c).copied().flatten() {
                        Some((cov, tot)) => {
                            let _ = write!(line, ",{cov},{tot},{:.2}", 100.0 * cov as f64 / tot as f64);
                        }
                        None => line.push_str(",0,0,"),
                    }
                }
                let _ = write!(
                    line,
                    ",{},{},{},{:.1},{:.3},{:.3},{:.4},{:.3},{},",
                    r.tests,
                    r.evaluations,
                    r.generations,
                    r.evals_per_sec(),
                    r.elapsed.as_secs_f64(),
                    r.waiting.as_secs_f64(),
                    r.overhead(),
                    r.total.as_secs_f64(),
                    r.unchanged
                );
            }
            Err(e) => {
                line.push_str(",error");
                line.push_str(&",,,".repeat(DEFAULT_CRITERIA.len()));
                // CSV-quote the message: it may hold commas.
                let _ = write!(line, ",,,,,,,,,,\"{}\"", e.replace('"', "'").replace('\n', " "));
            }
        }
        line.push('\n');
        let _ = f.write_all(line.as_bytes());
        let _ = f.flush();
    }
}

fn run_one(config: &GenerateConfig) -> Result<Run, String> {
    let start = Instant::now();
    // A panic inside the engine is a bug, but one class's bug must not end the whole benchmark.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| generate(config)));
    let total = start.elapsed();
    match result {
        Ok(Ok(g)) => Ok(Run::from(&g, total)),
        Ok(Err(e)) => Err(format!("error after {:.1} s: {e}", total.as_secs_f64())),
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "non-string panic".into());
            Err(format!("panic after {:.1} s: {msg}", total.as_secs_f64()))
        }
    }
}

fn main() {
    let budget_s: f64 = env_or("SUITESMITH_BENCH_BUDGET", "30")
        .trim()
        .parse()
        .ok()
        .filter(|b: &f64| b.is_finite() && *b > 0.0)
        .unwrap_or_else(|| fail("SUITESMITH_BENCH_BUDGET must be a positive number of seconds".into()));
    let seed: u64 = env_or("SUITESMITH_BENCH_SEED", "1")
        .trim()
        .parse()
        .unwrap_or_else(|_| fail("SUITESMITH_BENCH_SEED must be an unsigned integer".into()));
    let filters: Vec<String> = env_or("SUITESMITH_BENCH_CLASSES", "")
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let algorithms =
        parse_algorithms(&env_or("SUITESMITH_BENCH_ALGORITHMS", &Algorithm::ALL.map(|a| a.name()).join(",")));
    if algorithms.is_empty() {
        fail("SUITESMITH_BENCH_ALGORITHMS selects no algorithm".into());
    }
    let default_tsv = test_support::workspace_root().join("../shared/benchmarks/public.tsv");
    let tsv = PathBuf::from(env_or("SUITESMITH_BENCH_TSV", &default_tsv.to_string_lossy()));
    let subjects: Vec<Subject> = read_subjects(&tsv)
        .into_iter()
        .filter(|s| filters.is_empty() || filters.iter().any(|f| s.class.contains(f.as_str())))
        .collect();
    if subjects.is_empty() {
        fail(format!("no class of {} matches SUITESMITH_BENCH_CLASSES={filters:?}", tsv.display()));
    }
    let mut csv = Csv::open(std::env::var("SUITESMITH_BENCH_OUT").ok().filter(|s| !s.is_empty()));

    let criteria_cols = DEFAULT_CRITERIA.map(short).join("/");
    println!(
        "suitesmith algorithms bench: {} classes x {} algorithms ({}), {budget_s} s each, seed {seed}, {WORKERS} workers, \
         criteria {criteria_cols}",
        subjects.len(),
        algorithms.len(),
        algorithms.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ")
    );
    println!(
        "estimated time: {:.0} min (search budget only)",
        subjects.len() as f64 * algorithms.len() as f64 * budget_s / 60.0
    );
    println!("overhead = 1 - {WAITING_NAME} / search wall time\n");
    let bench_start = Instant::now();

    // results[class index][algorithm index]
    let mut results: Vec<Vec<Result<Run, String>>> = Vec::new();
    for (ci, s) in subjects.iter().enumerate() {
        println!("[{}/{}] {} ({})", ci + 1, subjects.len(), s.class, s.jar);
        let mut row = Vec::new();
        for &alg in &algorithms {
            let config = run_config(s, alg, budget_s, seed);
            let run = run_one(&config);
            match &run {
                Ok(r) => {
                    let covs: Vec<String> = DEFAULT_CRITERIA
                        .iter()
                        .map(|&c| format!("{} {:>5}", short(c), fmt_pct(r.pct(c))))
                        .collect();
                    println!(
                        "  {:<11} {} | {:>7} evals {:>6.0}/s {:>5} gens {:>4} tests | search {:>5.1} s, total {:>5.1} s, \
                         overhead {:>5.1} %{}",
                        alg.name(),
                        covs.join("  "),
                        r.evaluations,
                        r.evals_per_sec(),
                        r.generations,
                        r.tests,
                        r.elapsed.as_secs_f64(),
                        r.total.as_secs_f64(),
                        100.0 * r.overhead(),
                        if r.unchanged > 0 {
                            format!(", {} left uninstrumented", r.unchanged)
                        } else {
                            String::new()
                        }
                    );
                }
                Err(e) => println!("  {:<11} FAILED: {e}", alg.name()),
            }
            csv.row(&s.class, alg, seed, budget_s, &run);
            row.push(run);
        }
        let cells: Vec<String> = algorithms
            .iter()
            .zip(&row)
            .map(|(a, r)| match r {
                Ok(r) => format!(
                    "{} {}/{}",
                    a.name(),
                    fmt_pct(r.pct(Criterion::Line)),
                    fmt_pct(r.pct(Criterion::Branch))
                ),
                Err(_) => format!("{} FAILED", a.name()),
            })
            .collect();
        println!("  line/branch %: {}\n", cells.join(" | "));
        results.push(row);
    }

    summary(&subjects, &algorithms, &results, bench_start.elapsed());
}

/// DynaMOSA's branch coverage over random search's: the ratio of the means and the per-class ratios.
fn headline(algorithms: &[Algorithm], results: &[Vec<Result<Run, String>>], complete: &[usize]) {
    let di = algorithms.iter().position(|&a| a == Algorithm::DynaMosa);
    let ri = algorithms.iter().position(|&a| a == Algorithm::Random);
    match (di, ri) {
        (Some(di), Some(ri)) => {
            let mean_of = |ai: usize| {
                let xs: Vec<f64> = complete
                    .iter()
                    .filter_map(|&ci| results[ci][ai].as_ref().ok()?.pct(Criterion::Branch))
                    .collect();
                mean(&xs)
            };
            let (d, r) = (mean_of(di), mean_of(ri));
            match (d, r) {
                (Some(d), Some(r)) if r > 0.0 => {
                    println!("mean branch coverage: dynamosa {d:.1} % / random {r:.1} % = ratio {:.3}", d / r)
                }
                _ => println!(
                    "mean branch coverage ratio dynamosa/random: n/a (no branch coverage to compare)"
                ),
            }
            let mut ratios = Vec::new();
            let mut undefined = 0;
            for &ci in complete {
                let pd = results[ci][di].as_ref().ok().and_then(|x| x.pct(Criterion::Branch));
                let pr = results[ci][ri].as_ref().ok().and_then(|x| x.pct(Criterion::Branch));
                match (pd, pr) {
                    (Some(pd), Some(pr)) if pr > 0.0 => ratios.push(pd / pr),
                    _ => undefined += 1,
                }
            }
            println!(
                "per-class branch ratio dynamosa/random: median {}, min {}, max {} over {} classes{}",
                median(&ratios).map_or("n/a".into(), |m| format!("{m:.3}")),
                ratios.iter().copied().reduce(f64::min).map_or("n/a".into(), |m| format!("{m:.3}")),
                ratios.iter().copied().reduce(f64::max).map_or("n/a".into(), |m| format!("{m:.3}")),
                ratios.len(),
                if undefined > 0 {
                    format!(" ({undefined} without a ratio: random 0 % or no branches)")
                } else {
                    String::new()
                }
            );
        }
        _ => println!("ratio dynamosa/random: n/a (both algorithms must be selected)"),
    }
}

fn summary(
    subjects: &[Subject],
    algorithms: &[Algorithm],
    results: &[Vec<Result<Run, String>>],
    wall: Duration,
) {
    let w = 14;
    println!("==== summary: line % / branch % per class ====");
    let mut head = format!("{:<28}", "class");
    for a in algorithms {
        let _ = write!(head, " {:>w$}", a.name());
    }
    println!("{head}");
    for (s, row) in subjects.iter().zip(results) {
        let mut line = format!("{:<28}", simple_name(&s.class));
        for r in row {
            let cell = match r {
                Ok(r) => format!("{}/{}", fmt_pct(r.pct(Criterion::Line)), fmt_pct(r.pct(Criterion::Branch))),
                Err(_) => "FAILED".to_string(),
            };
            let _ = write!(line, " {cell:>w$}");
        }
        println!("{line}");
    }

    // Means over the classes where every selected algorithm produced a result.
    let complete: Vec<usize> = (0..results.len()).filter(|&i| results[i].iter().all(Result::is_ok)).collect();
    let failed = results.len() - complete.len();
    println!(
        "\n==== mean coverage % over the {} classes where every algorithm ran{} ====",
        complete.len(),
        if failed > 0 { format!(" ({failed} classes left out: a run failed)") } else { String::new() }
    );
    let mut head = format!("{:<28}", "criterion");
    for a in algorithms {
        let _ = write!(head, " {:>w$}", a.name());
    }
    println!("{head}");
    let mean_of = |ai: usize, c: Criterion| -> Option<f64> {
        let xs: Vec<f64> = complete.iter().filter_map(|&ci| results[ci][ai].as_ref().ok()?.pct(c)).collect();
        mean(&xs)
    };
    for c in DEFAULT_CRITERIA {
        let mut line = format!("{:<28}", short(c));
        for ai in 0..algorithms.len() {
            let _ = write!(line, " {:>w$}", fmt_pct(mean_of(ai, c)));
        }
        println!("{line}");
    }

    // Throughput and overhead over every successful run of the algorithm.
    let ok_runs = |ai: usize| results.iter().filter_map(move |row| row[ai].as_ref().ok());
    let mut line = format!("{:<28}", "evaluations/s");
    for ai in 0..algorithms.len() {
        let evals: u64 = ok_runs(ai).map(|r| r.evaluations).sum();
        let secs: f64 = ok_runs(ai).map(|r| r.elapsed.as_secs_f64()).sum();
        let _ = write!(line, " {:>w$.0}", evals as f64 / secs.max(1e-9));
    }
    println!("{line}");
    let mut line = format!("{:<28}", "suite size (tests)");
    let tests_of = |ai: usize| -> Vec<f64> {
        complete.iter().filter_map(|&ci| results[ci][ai].as_ref().ok()).map(|r| r.tests as f64).collect()
    };
    for ai in 0..algorithms.len() {
        let _ = write!(line, " {:>w$.1}", mean(&tests_of(ai)).unwrap_or(0.0));
    }
    println!("{line}");
    for (label, pick) in [("overhead % mean", false), ("overhead % max", true)] {
        let mut line = format!("{label:<28}");
        for ai in 0..algorithms.len() {
            let xs: Vec<f64> = ok_runs(ai).map(|r| 100.0 * r.overhead()).collect();
            let v = if pick { xs.iter().copied().reduce(f64::max) } else { mean(&xs) };
            let _ = write!(line, " {:>w$}", fmt_pct(v));
        }
        println!("{line}");
    }

    // Headline: DynaMOSA's branch coverage over random search's.
    println!("\n==== headline ====");
    headline(algorithms, results, &complete);
    let all: Vec<f64> = results
        .iter()
        .flat_map(|row| row.iter().filter_map(|r| r.as_ref().ok()).map(|r| 100.0 * r.overhead()))
        .collect();
    let worst = results
        .iter()
        .zip(subjects)
        .flat_map(|(row, s)| {
            row.iter().zip(algorithms).filter_map(move |(r, a)| Some((r.as_ref().ok()?, s, a)))
        })
        .max_by(|x, y| x.0.overhead().total_cmp(&y.0.overhead()));
    println!(
        "engine overhead (1 - {WAITING_NAME}/search wall time, goal < 10 %): mean {} %, max {} %{} over {} runs",
        fmt_pct(mean(&all)),
        fmt_pct(all.iter().copied().reduce(f64::max)),
        worst.map_or(String::new(), |(_, s, a)| format!(" ({} {})", simple_name(&s.class), a.name())),
        all.len()
    );
    let failures: Vec<String> = results
        .iter()
        .zip(subjects)
        .flat_map(|(row, s)| {
            row.iter().zip(algorithms).filter_map(move |(r, a)| {
                r.as_ref().err().map(|e| format!("{} {}: {e}", simple_name(&s.class), a.name()))
            })
        })
        .collect();
    if !failures.is_empty() {
        println!("failed runs ({}):\n  {}", failures.len(), failures.join("\n  "));
    }
    println!("bench wall time: {:.1} min", wall.as_secs_f64() / 60.0);
}
