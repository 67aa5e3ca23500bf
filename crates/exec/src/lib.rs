//! Executing test cases: [`JvmExecutor`] runs batches on a worker [`Pool`], and [`Cached`] is the
//! result cache keyed by the test's canonical bytes that the engine plans each batch against. The
//! search does not execute anything itself (it asks `search::Problem`, which the engine implements),
//! so there is no executor trait and no fake executor here: search tests script a `Problem` instead.
//!
//! Until the test-case model lands (its own issue), a test case is its protocol statement list.
//! What the code under test does is data in [`ExecResult`] (status, outcomes, trace); `Err` is only
//! for the machinery failing (no JVM can be started).

mod cache;
mod dependencies;
mod subject;

use std::time::Instant;

use protocol::{Outcome, Statement, TestStatus, Trace};
use worker::{Pool, TestRun, WorkerError};

pub use cache::{Cached, Plan, approx_bytes};
pub use dependencies::{Dependencies, guard_dependencies};
pub use subject::{Subject, SubjectError, prepare_in};

/// How a test's execution ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExecStatus {
    /// Ran to the end or stopped at a thrown exception (see the outcomes).
    Normal,
    /// A guard refused an escape (exit, halt, exec, file, socket, thread limit).
    Guard,
    /// Abandoned: by the worker past `timeout_ms`, or by the engine killing a silent worker.
    Timeout,
    /// The worker died running this test, twice (see [`worker::Pool`]).
    Crash,
}

/// The result of executing one test case.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecResult {
    pub status: ExecStatus,
    /// One per statement; all `NotExecuted` when the engine had to kill the worker.
    pub outcomes: Vec<Outcome>,
    pub trace: Trace,
    /// The SUT's captured output (first 4096 chars).
    pub stdout: String,
    pub elapsed_us: u32,
    /// Why the worker died (crash) or was killed (timeout); empty otherwise.
    pub detail: String,
    /// The test changed the JVM's system properties (the worker restored them after it): its
    /// written test class must restore them too (docs/protocol.md, v16).
    pub properties_changed: bool,
}

impl ExecResult {
    /// A normal execution with the given outcomes and trace (for fakes and tests).
    pub fn normal(outcomes: Vec<Outcome>, trace: Trace) -> ExecResult {
        ExecResult {
            status: ExecStatus::Normal,
            outcomes,
            trace,
            stdout: String::new(),
            elapsed_us: 0,
            detail: String::new(),
            properties_changed: false,
        }
    }

    /// A result with no outcome and no trace, for engine-side timeouts and crashes.
    pub fn aborted(status: ExecStatus, statements: usize, detail: String) -> ExecResult {
        ExecResult {
            status,
            outcomes: vec![Outcome::NotExecuted; statements],
            trace: Trace::default(),
            stdout: String::new(),
            elapsed_us: 0,
            detail,
            properties_changed: false,
        }
    }

    /// Where the test stopped: the first statement that threw, or that a guard or the timeout cut
    /// short (the rest of the test did not run either way).
    pub fn stopped_at(&self) -> Option<usize> {
        self.outcomes
            .iter()
            .position(|o| matches!(o, Outcome::Threw { .. } | Outcome::Guard { .. } | Outcome::Timeout))
    }

    /// The first statement a guard refused; `Some(0)` when the status says a guard fired but no
    /// statement carries it (it fired outside any statement: nothing of the test can be trusted).
    pub fn first_guard(&self) -> Option<usize> {
        let at = self.outcomes.iter().position(|o| matches!(o, Outcome::Guard { .. }));
        match (at, self.status) {
            (Some(i), _) => Some(i),
            (None, ExecStatus::Guard) => Some(0),
            (None, _) => None,
        }
    }

    /// Whether the test can be written as it ran: it ended normally and, if it stopped early, a
    /// statement threw. A guarded statement is cut from the written test (postprocess), and a test
    /// that timed out or crashed its worker fails verification, so what such a test reached is lost.
    pub fn writable_whole(&self) -> bool {
        self.status == ExecStatus::Normal
            && self.stopped_at().is_none_or(|i| matches!(self.outcomes[i], Outcome::Threw { .. }))
    }

    /// Whether running the same test again must give the same result, so that it may be cached:
    /// timeouts and crashes depend on the machine's load and are never cached.
    pub fn is_deterministic(&self) -> bool {
        matches!(self.status, ExecStatus::Normal | ExecStatus::Guard)
    }

    fn from_run(run: TestRun, statements: usize) -> ExecResult {
        match run {
            TestRun::Finished(r) => ExecResult {
                status: match r.status {
                    TestStatus::Normal => ExecStatus::Normal,
                    TestStatus::Timeout => ExecStatus::Timeout,
                    TestStatus::Guard => ExecStatus::Guard,
                },
                outcomes: r.outcomes,
                trace: r.trace,
                stdout: r.stdout,
                elapsed_us: r.elapsed_us,
                detail: String::new(),
                properties_changed: r.properties_changed,
            },
            TestRun::Timeout => ExecResult::aborted(
                ExecStatus::Timeout,
                statements,
                "killed: no reply within the deadline".into(),
            ),
            TestRun::Crash { detail } => ExecResult::aborted(ExecStatus::Crash, statements, detail),
            // The pool never returns NotRun; if it did, the test is lost, which is a crash to us.
            TestRun::NotRun => ExecResult::aborted(ExecStatus::Crash, statements, "not run".into()),
        }
    }
}

/// The machinery failed (never the code under test).
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error(transparent)]
    Worker(#[from] WorkerError),
}

/// The real executor: a pool of JVM workers.
#[derive(Debug)]
pub struct JvmExecutor {
    pool: Pool,
}

impl JvmExecutor {
    pub fn new(pool: Pool) -> JvmExecutor {
        JvmExecutor { pool }
    }

    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    pub fn into_pool(self) -> Pool {
        self.pool
    }
}

impl JvmExecutor {
    /// Runs the tests as one batch and returns exactly one result per test, in order.
    pub fn execute(&mut self, tests: &[Vec<Statement>]) -> Result<Vec<ExecResult>, ExecError> {
        let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
        let runs = self.pool.execute(&refs)?;
        Ok(runs.into_iter().zip(tests).map(|(run, t)| ExecResult::from_run(run, t.len())).collect())
    }

    /// [`JvmExecutor::execute`] through [`Pool::execute_scored`]: `score` sees each finished test's
    /// trace as it arrives, while the workers run the rest of the batch. It must be a pure
    /// function of the trace (it runs on the pool's threads, in no fixed order). `focus`: the path
    /// conditions the workers evaluate (`protocol::Request::Execute`; `None`: every one).
    pub fn execute_scored<S: Send>(
        &mut self,
        tests: &[Vec<Statement>],
        focus: Option<&[u32]>,
        score: &(dyn Fn(&Trace) -> S + Sync),
    ) -> Result<Scored<ExecResult, S>, ExecError> {
        let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
        let out = self.pool.execute_scored(&refs, focus, &|r: &protocol::TestResult| score(&r.trace))?;
        let results =
            out.runs.into_iter().zip(tests).map(|(run, t)| ExecResult::from_run(run, t.len())).collect();
        Ok(Scored { results, scores: out.scores, workers_done: Some(out.workers_done) })
    }
}

/// Results of a batch with a score per result that was computed while the workers ran
/// ([`JvmExecutor::execute_scored`], [`Cached::finish`]).
#[derive(Debug)]
pub struct Scored<R, S> {
    /// One per test, in order.
    pub results: Vec<R>,
    /// One per test: `None` for a test not scored on arrival (not finished normally, a cache hit).
    pub scores: Vec<Option<S>>,
    /// When the workers' part of the batch ended; `None` when nothing ran.
    pub workers_done: Option<Instant>,
}
