//! The `bench` command: arguments -> [`bench::Plan`] -> [`bench::run`]; prints one line per run on
//! stderr and the Markdown summary on stdout. Exit 0 when every run was measured (whatever the
//! coverage), 2 on bad input (PIT's jars missing with `--pit` too), 1 when the benchmark itself
//! failed. Usage: docs/benchmarks.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::time::Duration;

use bench::{BenchError, Budget, Checker, Configuration, Pit, PitJars, Plan, Suitesmith};
use clap::Parser;

/// Runs `suitesmith generate` over a subject list under named configurations and measures the written
/// tests independently (javac, JUnit re-runs, JaCoCo).
#[derive(Debug, Parser)]
#[command(name = "bench")]
struct Args {
    /// The subject list (bench/subjects/*.tsv).
    #[arg(long)]
    subjects: PathBuf,
    /// NAME:key=value:... ; each key=value is passed to `generate` as --key value (repeat for more
    /// configurations), e.g. `dynamosa:algorithm=dynamosa`.
    #[arg(long = "config", required = true)]
    configs: Vec<String>,
    /// The configuration the ratios divide by (default: the first).
    #[arg(long)]
    baseline: Option<String>,
    /// Search budget per class, as `generate` takes it.
    #[arg(long, default_value = "60s")]
    budget: String,
    /// The first seed; repetition i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Repetitions (seeds) per class and configuration.
    #[arg(long, default_value_t = 1)]
    repetitions: u64,
    /// Fresh-JVM runs of the written tests (the first under JaCoCo); flaky = passed in some only.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Only the classes whose name contains one of these (repeatable).
    #[arg(long)]
    only: Vec<String>,
    /// Extra JVM flag for the test runs (repeatable), e.g. -Duser.timezone=UTC.
    #[arg(long = "jvm-arg", allow_hyphen_values = true)]
    jvm_args: Vec<String>,
    /// Output directory (default: target/bench/<list>-<budget>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also measure the written tests with PIT (mutation score per class; docs/mutation.md). Needs
    /// the jars that scripts/fetch-tools.sh puts in the tools cache.
    #[arg(long)]
    pit: bool,
    /// With --pit: the wall-clock limit of one class's PIT run, seconds (PIT's own timeout factor
    /// judges each mutant; this only stops a PIT that runs away).
    #[arg(long, default_value_t = 3600)]
    pit_timeout: u64,
    /// With --pit: PIT's worker threads per class (the score does not depend on it; PIT runs
    /// after the class's generation and check, so it never competes with a timed search).
    #[arg(long, default_value_t = 1)]
    pit_threads: usize,
    /// The tools cache holding PIT's jars (default: $SUITESMITH_TOOLS, else
    /// ~/.cache/suitesmith/tools, as scripts/fetch-tools.sh fills it).
    #[arg(long)]
    tools: Option<PathBuf>,
    /// The suitesmith binary (default: the one next to this binary, i.e. `cargo build --release -p cli`).
    #[arg(long)]
    suitesmith: Option<PathBuf>,
    /// Go on with an earlier invocation into the same --out that stopped part-way: the runs it
    /// finished (its rows.jsonl) are kept, not run again, if their configuration's options and
    /// budget are the same; results.csv and the summary cover every run of this plan.
    #[arg(long)]
    resume: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match main_inner(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench: {e}");
            ExitCode::from(
                if matches!(
                    e,
                    BenchError::BadInput(_) | BenchError::Subjects { .. } | BenchError::ToolsMissing { .. }
                ) {
                    2
                } else {
                    1
                },
            )
        }
    }
}

fn main_inner(args: Args) -> Result<(), BenchError> {
    let budget = Budget::parse(&args.budget).map_err(BenchError::BadInput)?;
    let configs: Vec<Configuration> = args
        .configs
        .iter()
        .map(|c| Configuration::parse(c))
        .collect::<Result<_, _>>()
        .map_err(BenchError::BadInput)?;
    let baseline = args.baseline.clone().unwrap_or_else(|| configs[0].name.clone());
    let mut subjects = bench::read_subjects(&args.subjects)?;
    if !args.only.is_empty() {
        subjects.retain(|s| args.only.iter().any(|o| s.class.contains(o.as_str())));
        if subjects.is_empty() {
            return Err(BenchError::BadInput("--only matches no class of the list".into()));
        }
    }
    let subjects_name = args
        .subjects
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "subjects".into());
    let out = args.out.clone().unwrap_or_else(|| {
        Path::new("target").join("bench").join(format!("{subjects_name}-{}s", budget.seconds()))
    });
    let suitesmith = match args.suitesmith {
        Some(p) => p,
        None => std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(|d| d.join("suitesmith")))
            .unwrap_or_else(|| PathBuf::from("suitesmith")),
    };
    if !suitesmith.is_file() {
        return Err(BenchError::BadInput(format!(
            "{} does not exist: build it with `cargo build --release -p cli` or pass --suitesmith PATH",
            suitesmith.display()
        )));
    }
    let mut checker = Checker::discover(args.runs)?;
    checker.jvm_args = args.jvm_args;
    if args.pit {
        let cache = args.tools.unwrap_or_else(PitJars::default_cache);
        let timeout = Duration::from_secs(args.pit_timeout);
        checker.pit = Some(Pit { jars: PitJars::in_cache(&cache)?, timeout, threads: args.pit_threads });
    }
    let plan = Plan {
        subjects_name,
        subjects,
        configs,
        baseline,
        budget,
        seeds: (0..args.repetitions.max(1)).map(|i| args.seed + i).collect(),
        out,
        resume: args.resume,
    };
    let outcome =
        bench::run(&plan, &Suitesmith { path: suitesmith }, &checker, &mut |line| eprintln!("{line}"))?;
    print!("{}", outcome.summary);
    eprintln!(
        "wrote {}, {}, {} and {}",
        outcome.csv.display(),
        outcome.summary_path.display(),
        outcome.comparisons_path.display(),
        outcome.svg_path.display()
    );
    Ok(())
}
