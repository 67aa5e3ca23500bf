//! `suitesmith search`: runs the search on one class in JVM workers and prints the tests it found (as
//! compact Java-like text) and the coverage they reach, recomputed by executing them again. Writing
//! JUnit files is the `generate` command's job; this shows what the search produces.

use jvm_model::ClassName;
use std::path::PathBuf;
use std::time::Duration;

use crate::{Failure, open_classpath};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Classpath (jars and directories, `:`-separated) holding the class and its dependencies.
    #[arg(long)]
    classpath: String,
    /// The class under test, e.g. `com.example.Stack`.
    #[arg(long)]
    class: String,
    /// Stop after this many test executions (reproducible with `--seed`).
    #[arg(long, conflicts_with = "budget")]
    evaluations: Option<u64>,
    /// Stop after this much wall time, e.g. `90s` (without it and --evaluations: EvoSuite's
    /// budget, as `generate`'s; results then depend on the machine).
    #[arg(long)]
    budget: Option<String>,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// JVM workers evaluating tests in parallel; results do not depend on it.
    #[arg(long)]
    workers: Option<usize>,
    /// The search algorithm.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::of(product().algorithm))]
    algorithm: AlgorithmArg,
    #[command(flatten)]
    techniques: crate::technique_args::TechniqueArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AlgorithmArg {
    Dynamosa,
    Mosa,
    Wholesuite,
    Mio,
    Random,
}

/// The product's defaults for a run (`engine::GenerateConfig::standard`), from which the defaults
/// of `generate`'s and `search`'s options are read.
pub(crate) fn product() -> engine::GenerateConfig {
    engine::GenerateConfig::standard(Vec::new(), "", search::Budget::time(engine::DEFAULT_BUDGET), 0)
}

impl AlgorithmArg {
    pub(crate) fn of(a: search::Algorithm) -> AlgorithmArg {
        match a {
            search::Algorithm::DynaMosa => AlgorithmArg::Dynamosa,
            search::Algorithm::Mosa => AlgorithmArg::Mosa,
            search::Algorithm::WholeSuite => AlgorithmArg::Wholesuite,
            search::Algorithm::Mio => AlgorithmArg::Mio,
            search::Algorithm::Random => AlgorithmArg::Random,
        }
    }

    pub(crate) fn algorithm(self) -> search::Algorithm {
        match self {
            AlgorithmArg::Dynamosa => search::Algorithm::DynaMosa,
            AlgorithmArg::Mosa => search::Algorithm::Mosa,
            AlgorithmArg::Wholesuite => search::Algorithm::WholeSuite,
            AlgorithmArg::Mio => search::Algorithm::Mio,
            AlgorithmArg::Random => search::Algorithm::Random,
        }
    }
}

/// The run's configuration: what no argument sets is the product's (`GenerateConfig::standard`).
pub(crate) fn configure(args: &Args) -> Result<engine::GenerateConfig, Failure> {
    let budget = match (args.evaluations, &args.budget) {
        (Some(0), _) => return Err(Failure::BadInput("--evaluations must be positive".into())),
        (Some(n), _) => search::Budget::evaluations(n),
        (None, Some(b)) => search::Budget::time(parse_duration(b)?),
        (None, None) => search::Budget::time(engine::DEFAULT_BUDGET),
    };
    let techniques = args.techniques.config()?;
    let classpath = args.classpath.split(':').map(PathBuf::from).collect();
    let standard = engine::GenerateConfig::standard(classpath, &args.class, budget, args.seed);
    Ok(engine::GenerateConfig {
        algorithm: args.algorithm.algorithm(),
        workers: args.workers.unwrap_or(standard.workers).max(1),
        techniques,
        ..standard
    })
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let config = configure(args)?;
    // Reject a bad classpath or an unknown class with one line before starting any JVM.
    let cp = open_classpath(&args.classpath)?;
    if !cp.contains(ClassName::from_binary(&args.class).internal()) {
        return Err(Failure::BadInput(format!("class {} is not on the classpath", args.class)));
    }
    let generation = engine::generate(&config).map_err(|e| Failure::Internal(e.into()))?;
    print!("{}", generation.suite_text);
    let secs = generation.elapsed.as_secs_f64();
    println!(
        "\n// {} tests; {} evaluations in {} generations, {:.1} s; {:.1} s in the workers, {:.1} s scoring, {:.1} s \
         generating",
        generation.suite.len(),
        generation.evaluations,
        generation.generations,
        secs,
        generation.worker_time.as_secs_f64(),
        // The workers run the next batch while the engine scores this one, so their time may
        // exceed the time spent in `evaluate` calls.
        generation.evaluation_time.saturating_sub(generation.worker_time).as_secs_f64(),
        secs - generation.evaluation_time.as_secs_f64(),
    );
    for c in &generation.coverage {
        println!("// {:?}: {}/{}", c.criterion, c.covered, c.total);
    }
    for u in &generation.uncovered {
        println!("// uncovered: {u}");
    }
    if let Some(d) = &generation.dse {
        let figures: Vec<String> = d.counters().iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!("// dse: {}", figures.join(", "));
    }
    Ok(())
}

/// `60s`, `2m`, `500ms`, or a bare number of seconds; zero is bad input.
pub(crate) fn parse_duration(s: &str) -> Result<Duration, Failure> {
    let bad = || Failure::BadInput(format!("bad budget {s:?}: expected e.g. 60s, 2m or 500ms"));
    let (num, unit) = s.find(|c: char| !c.is_ascii_digit()).map_or((s, ""), |i| s.split_at(i));
    let n: u64 = num.parse().map_err(|_| bad())?;
    let d = match unit {
        "" | "s" => Duration::from_secs(n),
        "ms" => Duration::from_millis(n),
        "m" => Duration::from_secs(n * 60),
        _ => return Err(bad()),
    };
    if d.is_zero() {
        return Err(Failure::BadInput(format!("the budget {s:?} is zero")));
    }
    Ok(d)
}
