//! What happens to a suite between the search and the JUnit renderer (DESIGN.md §2):
//! [`minimise`] (EvoSuite's `TestSuiteMinimizer`: the shortest test per covered goal, the
//! statements no covered goal needs removed, redundant tests dropped, the covered goals checked by
//! re-execution) and [`assertions`] (EvoSuite's regression assertions from observed values, kept only
//! when two executions agree, as `testcase::assertion::JUnitTest`s), of which
//! [`select_by_mutation`] keeps those that kill mutants (Fraser and Zeller's mutation analysis).
//!
//! The crate knows neither workers nor the goal model: the engine implements [`Runner`], which runs
//! a batch of tests (one worker round trip) and says which goals an execution covers.
//!
//! # Public API
//!
//! - [`Runner`]: `run(&[TestCase]) -> Vec<ExecResult>` and `covered(&ExecResult) -> Vec<u32>`.
//! - [`cut_at_guards`]`(runner, suite)`: each test cut before its first statement a worker's guard
//!   refused (exit, files outside scratch, sockets...), so that no written test does it for real.
//! - [`minimise`]`(runner, suite) -> Result<`[`Minimised`]`, `[`PostError`]`>`.
//! - [`assertions`]`(runner, suite, classpath, config) -> Result<Vec<`[`AssertedTest`]`>, PostError>`
//!   with [`AssertionConfig`] (the cap per test).
//! - [`select_by_mutation`]`(mutant_runner, asserted) -> Result<`[`MutationStats`]`, PostError>`
//!   over a [`MutantRunner`], which runs tests against mutants (mutant schemata in the workers).
//!
//! Both are deterministic: the same suite and the same runner answers give the same output.

mod assert;
mod escape;
mod inspect;
mod minimise;
mod mutation;
mod unstable;

pub use assert::{AssertedTest, AssertionConfig, AssertionStats, as_written, assertions};
pub use escape::{GuardCuts, cut_at_guards, has_call};
pub use inspect::{Inspector, Inspectors};
pub use minimise::{Minimised, minimise, remove_with_dependents};
pub use mutation::{MutantRunner, MutationStats, select_by_mutation};

use exec::ExecResult;
use testcase::TestCase;

/// The boxed error a [`Runner`] reports when its machinery fails.
pub type RunnerError = Box<dyn std::error::Error + Send + Sync>;

/// Executes tests for post-processing; implemented by the engine over its workers and goal model.
pub trait Runner {
    /// Runs `tests` (ideally in one worker round trip) and returns one result per test, in order.
    fn run(&mut self, tests: &[TestCase]) -> Result<Vec<ExecResult>, RunnerError>;

    /// The ids of the goals `result`'s execution covers, sorted and distinct.
    fn covered(&self, result: &ExecResult) -> Vec<u32>;

    /// Whether post-processing's time is up: minimisation then stops shrinking (keeping what it
    /// has checked) and assertion generation stops adding inspectors. Never, by default.
    fn out_of_time(&self) -> bool {
        false
    }
}

/// Why post-processing stopped (never the code under test misbehaving: that is data).
#[derive(Debug, thiserror::Error)]
pub enum PostError {
    /// The runner's machinery failed (no JVM could be started, a worker pool broke).
    #[error("runner: {0}")]
    Runner(#[source] RunnerError),
    /// The runner broke its contract.
    #[error("the runner returned {got} results for {want} tests")]
    ResultCount { want: usize, got: usize },
}

/// Runs a batch through the runner, checking the one-result-per-test contract, and counts it.
pub(crate) fn run_batch(
    runner: &mut dyn Runner,
    tests: &[TestCase],
    round_trips: &mut usize,
    executions: &mut usize,
) -> Result<Vec<ExecResult>, PostError> {
    if tests.is_empty() {
        return Ok(Vec::new());
    }
    let results = checked(tests.len(), runner.run(tests))?;
    *round_trips += 1;
    *executions += tests.len();
    Ok(results)
}

/// A runner's answer for `want` tests, checked against the one-result-per-test contract.
pub(crate) fn checked(
    want: usize,
    results: Result<Vec<ExecResult>, RunnerError>,
) -> Result<Vec<ExecResult>, PostError> {
    let results = results.map_err(PostError::Runner)?;
    if results.len() != want {
        return Err(PostError::ResultCount { want, got: results.len() });
    }
    Ok(results)
}
