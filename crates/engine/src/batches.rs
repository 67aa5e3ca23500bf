//! The thread that runs a `JvmProblem`'s search batches while the search works on the batch before
//! (one batch in flight), and how a batch is run and scored on it: kept apart from the problem,
//! which only decides what to start and when to collect.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, mpsc};
use std::time::Instant;

use exec::{ExecError, ExecResult, JvmExecutor, Plan, Scored};
use fitness::{GoalFitness, Scorer};
use protocol::Trace;

/// A search batch's runs, each with its goal fitness and selected values when it was scored on
/// arrival (`JvmProblem::evaluate_then`).
pub(crate) type ScoredRuns = Scored<ExecResult, (GoalFitness, Vec<f64>)>;

/// A batch whose misses run on the runner's thread while the search works on the batch before.
#[derive(Debug)]
pub(crate) struct InFlight {
    pub(crate) tests: usize,
    pub(crate) plan: Plan,
    pub(crate) started: Instant,
}

/// The thread that runs started batches, one at a time, for the problem's whole life: a thread
/// per batch would start its allocator's heap afresh each time (fresh pages, page faults), which
/// was a tenth of the engine's time on classes with fast tests.
///
/// Dropping it ends the thread and waits for it: the thread holds a handle on the pool, and the
/// pool must go (its JVMs killed, their scratch directories removed) when the problem goes, not
/// whenever a detached thread gets round to it; `main` returning first left every worker's
/// scratch directory behind.
#[derive(Debug)]
pub(crate) struct Runner {
    /// `None` only while dropping: closing it ends the thread's loop.
    pub(crate) jobs: Option<mpsc::Sender<Job>>,
    pub(crate) done: mpsc::Receiver<Result<ScoredRuns, ExecError>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Runner {
    fn drop(&mut self) {
        // The thread finishes the batch it is running (if any) and sees no more jobs.
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A batch for the runner: its misses, the path conditions the workers evaluate in it (fixed when
/// the batch is started, so that what a batch measures does not depend on when the thread runs
/// it), and the width to reserve in each value vector.
pub(crate) type Job = (Arc<Vec<Vec<protocol::Statement>>>, Arc<[u32]>, usize);

impl Runner {
    /// Starts the thread; it runs each batch it is sent with `run` and ends when the problem goes.
    pub(crate) fn spawn(run: BatchRun) -> std::io::Result<Runner> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, done) = mpsc::channel();
        let thread = std::thread::Builder::new().name("suitesmith-batches".into()).spawn(move || {
            for (misses, focus, width) in inbox {
                let r = BatchRun { width, ..run.clone() }.run(&misses, &focus);
                if outbox.send(r).is_err() {
                    break;
                }
            }
        })?;
        Ok(Runner { jobs: Some(jobs), done, thread: Some(thread) })
    }
}

/// What runs a batch's misses and scores them away from the problem: the pool (locked for the
/// batch), the goal space's scorer, and the width to reserve in each value vector.
#[derive(Clone)]
pub(crate) struct BatchRun {
    pub(crate) executor: Arc<Mutex<JvmExecutor>>,
    pub(crate) scorer: Scorer,
    pub(crate) width: usize,
}

impl BatchRun {
    /// Runs `misses`; each test's model-goal fitness (`goal_fitness`, a pure function of its
    /// trace) and its selected goals' values are computed as its result arrives, on the thread that
    /// waits for its worker, while the workers run the rest of the batch (DESIGN.md §3.8: whatever
    /// runs where, the values are the same and are consumed in batch order).
    /// `focus`: the path conditions the workers evaluate (`protocol::Request::Execute`).
    pub(crate) fn run(
        &self,
        misses: &[Vec<protocol::Statement>],
        focus: &[u32],
    ) -> Result<ScoredRuns, ExecError> {
        if misses.is_empty() {
            return Ok(Scored { results: Vec::new(), scores: Vec::new(), workers_done: None });
        }
        let (scorer, width) = (&self.scorer, self.width);
        let score = |t: &Trace| scorer.score(t, width);
        lock(&self.executor).execute_scored(misses, Some(focus), &score)
    }
}

/// The pool, whether or not a batch thread panicked holding it (the pool replaces a worker that
/// is in doubt before its next batch).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
