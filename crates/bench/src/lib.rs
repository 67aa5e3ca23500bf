//! The benchmark runner (DESIGN.md §5): `suitesmith generate` on every class of a subject
//! list under several named configurations and seeds, each run measured (wall time, peak memory of
//! the engine and its workers), its written tests checked independently of the engine's own
//! verification (javac, fresh-JVM JUnit re-runs, JaCoCo), and the results written as one CSV row per
//! class × configuration × seed, a Markdown summary with ratios to a baseline configuration and
//! EvoSuite's published coverage, per class the Vargha–Delaney Â12 and Mann–Whitney p of each
//! configuration against the baseline over the seeds (also as CSV), and an SVG bar chart. With `--pit`, PIT's mutation score of the
//! written tests too (docs/mutation.md). How to run it: docs/benchmarks.md.
//!
//! It runs the engine as a user does, through its command line ([`Generator`]); it links no engine
//! crate, so it measures the binary a user gets.

pub mod check;
pub mod config;
mod findings;
mod journal;
pub mod measure;
pub mod pit;
pub mod report;
mod run;
pub mod stats;
pub mod subjects;
pub mod watch;

use std::path::PathBuf;

pub use check::{Checked, Checker};
pub use config::{Budget, Configuration};
pub use measure::Measured;
pub use pit::{MutationScore, Pit, PitJars};
pub use report::{Comparison, Row};
pub use run::{GenerateRequest, Generator, Outcome, Plan, Suitesmith, run};
pub use subjects::{Reference, Subject, read_subjects};

/// What can stop a benchmark (a failing generation or test is a result, not an error).
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("{what}: {source}")]
    Io { what: String, source: std::io::Error },
    #[error("cannot start {program}: {source}")]
    Spawn { program: PathBuf, source: std::io::Error },
    #[error("{path}: {detail}")]
    Subjects { path: PathBuf, detail: String },
    #[error("{0}")]
    BadInput(String),
    #[error("checking the written tests: {0}")]
    Check(String),
    #[error("PIT's jars are not in {dir}: run {script} (docs/mutation.md)")]
    ToolsMissing { dir: PathBuf, script: &'static str },
    #[error("mutation analysis: {0}")]
    Pit(String),
}
