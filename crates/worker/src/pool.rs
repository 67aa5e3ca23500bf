//! A pool of N workers. A batch is cut into contiguous chunks, one per worker, run on scoped threads
//! (they wait on pipes, and may apply the caller's pure per-result function as each result arrives:
//! `Pool::execute_scored`), and the results are put back in request order, so the outcome of a
//! batch never depends on which worker ran what (DESIGN.md §3.8).
//!
//! Recovery: a worker that crashed, timed out or ran out of memory is replaced before its next batch.
//! Tests not run because their worker died are retried on the fresh worker; the test that was running
//! when a worker died is retried once, and reported as `Crash` if it kills the replacement too.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use protocol::{Statement, TestRef, TestResult, Trace};

use crate::{TestRun, Worker, WorkerConfig, WorkerError};

/// The result of [`Pool::execute_scored`].
#[derive(Debug)]
pub struct Scored<S> {
    /// One per test, in request order; never `NotRun`.
    pub runs: Vec<TestRun>,
    /// One per test: the score of its `Finished` result, `None` otherwise.
    pub scores: Vec<Option<S>>,
    /// When the workers' part of the batch ended (see [`Pool::execute_scored`]).
    pub workers_done: Instant,
}

/// Counters for diagnostics and benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PoolStats {
    /// Workers started, including the initial ones.
    pub spawned: u64,
    /// Tests executed (results returned).
    pub executed: u64,
    /// Tests that ended as engine-side `Timeout`.
    pub timeouts: u64,
    /// Tests reported as `Crash` (after their retry).
    pub crashes: u64,
}

/// Workers in a row that may fail to start before a batch gives up with an error.
const MAX_SPAWN_FAILURES: u32 = 3;

/// The number of workers to use by default: the machine's cores.
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// The batch a pool runs next, shared with whoever decides it while the pool runs the one before
/// ([`Pool::ahead`]).
pub type Ahead = Arc<Mutex<AheadSlot>>;

/// See [`Ahead`].
#[derive(Debug, Default)]
pub struct AheadSlot {
    /// The tests of the next batch.
    pub batch: Option<Arc<Vec<Vec<Statement>>>>,
    /// The path conditions the workers evaluate in it (`Request::Execute`'s `focus`).
    pub focus: Option<Arc<[u32]>>,
    /// When a worker was first sent its part of it.
    pub first_sent: Option<Instant>,
}

/// N workers sharing one configuration.
pub struct Pool {
    config: WorkerConfig,
    ahead: Ahead,
    slots: Vec<Option<Worker>>,
    stats: PoolStats,
    /// The first worker's `Worker::init_trace` (every worker initialises the same classes in the
    /// same order, so one stands for all).
    init_trace: Trace,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool").field("workers", &self.slots.len()).field("stats", &self.stats).finish()
    }
}

impl Pool {
    /// Starts `workers` workers (at least one), in parallel.
    pub fn new(config: WorkerConfig, workers: usize) -> Result<Pool, WorkerError> {
        let n = workers.max(1);
        let started: Vec<Result<Worker, WorkerError>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..n).map(|_| s.spawn(|| Worker::spawn(&config))).collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(WorkerError::Handshake {
                            stage: "spawn",
                            detail: "spawning thread panicked".into(),
                            stderr: String::new(),
                        })
                    })
                })
                .collect()
        });
        let mut slots = Vec::with_capacity(n);
        for w in started {
            slots.push(Some(w?));
        }
        let init_trace =
            slots.first().and_then(Option::as_ref).map(|w| w.init_trace().clone()).unwrap_or_default();
        Ok(Pool {
            config,
            ahead: Ahead::default(),
            slots,
            stats: PoolStats { spawned: n as u64, ..PoolStats::default() },
            init_trace,
        })
    }

    /// Where to put the batch the pool will be asked to run next, while it runs the current one:
    /// each worker is sent its part of it (split as `execute_scored` splits) as soon as it has
    /// returned a result of the current batch, and starts it when done with the current one, so
    /// that it does not wait for the caller to deal with the current batch's results. The caller
    /// must clear it once the current batch has returned, and must then ask for exactly that
    /// batch (a worker sent something else is replaced, which costs a JVM start).
    pub fn ahead(&self) -> Ahead {
        Arc::clone(&self.ahead)
    }

    pub fn workers(&self) -> usize {
        self.slots.len()
    }

    pub fn stats(&self) -> PoolStats {
        self.stats
    }

    /// What the class initialisers executed when the first worker started ([`Worker::init_trace`]).
    pub fn init_trace(&self) -> &Trace {
        &self.init_trace
    }

    pub fn config(&self) -> &WorkerConfig {
        &self.config
    }

    /// Runs every test and returns one [`TestRun`] per test, in request order; never `NotRun`.
    /// `Err` only when workers cannot be started any more (the JDK went away, say).
    pub fn execute(&mut self, tests: &[&[Statement]]) -> Result<Vec<TestRun>, WorkerError> {
        Ok(self.execute_scored(tests, None, &|_| ())?.runs)
    }

    /// [`Pool::execute`], applying `score` to each `Finished` result as soon as it arrives, on the
    /// thread that waits for that worker, while the workers run the rest of the batch: the
    /// caller's per-result work overlaps with execution instead of following the whole batch.
    /// `score` must be a pure function of the result (it runs on several threads, in no fixed
    /// order); the scores come back in request order beside the runs, `None` for a test that did
    /// not finish normally. `workers_done` is when the workers' part of the batch ended: when the
    /// last worker reported its chunk done (`BatchDone`, read after the static reset that follows
    /// its last test, however long scoring the results before it took), or the end of the batch
    /// if a test ended in a crash or a timeout.
    ///
    /// `focus`: the path conditions the workers evaluate (`Request::Execute`; `None`: every one).
    pub fn execute_scored<S: Send>(
        &mut self,
        tests: &[&[Statement]],
        focus: Option<&[u32]>,
        score: &(dyn Fn(&TestResult) -> S + Sync),
    ) -> Result<Scored<S>, WorkerError> {
        if tests.is_empty() {
            return Ok(Scored { runs: Vec::new(), scores: Vec::new(), workers_done: Instant::now() });
        }
        let n_slots = self.slots.len();
        let chunk = chunk_len(n_slots, tests.len());
        let (config, ahead) = (&self.config, &self.ahead);
        type Output<S> = Result<(Vec<TestRun>, Vec<Option<S>>, Instant, u64), WorkerError>;
        let run = |slot: &mut Option<Worker>, part: &[&[Statement]], j: usize| -> Output<S> {
            // This slot's part of the batch after this one, encoded, once it is known.
            let next = || -> Option<Vec<u8>> {
                let mut guard = ahead.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let batch = guard.batch.as_ref()?;
                let part = batch.chunks(chunk_len(n_slots, batch.len())).nth(j)?;
                let refs: Vec<TestRef<'_>> =
                    part.iter().enumerate().map(|(i, t)| TestRef { id: i as u32, statements: t }).collect();
                let mut out = Vec::new();
                protocol::encode_execute(&refs, guard.focus.as_deref(), &mut out);
                guard.first_sent.get_or_insert_with(Instant::now);
                Some(out)
            };
            let mut scores: Vec<Option<S>> = (0..part.len()).map(|_| None).collect();
            let mut last = None;
            let mut on_finished = |i: usize, r: &TestResult, at: Instant| {
                last = Some(at);
                scores[i] = Some(score(r));
            };
            let (runs, spawned) = run_chunk(slot, config, part, focus, &mut on_finished, &next)?;
            // The chunk ended when its worker reported the batch done (after the static reset that
            // follows its last test), or, without that report, when its last result arrived
            // (results come in order, retries included); a chunk that ended in a crash or a
            // timeout, now.
            let end = match (runs.last(), last) {
                (Some(TestRun::Finished(_)), Some(at)) => {
                    slot.as_ref().and_then(Worker::batch_done).unwrap_or(at)
                }
                _ => Instant::now(),
            };
            Ok((runs, scores, end, spawned))
        };
        let outputs: Vec<Output<S>> = if chunk >= tests.len() {
            vec![run(&mut self.slots[0], tests, 0)]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = self
                    .slots
                    .iter_mut()
                    .zip(tests.chunks(chunk))
                    .enumerate()
                    .map(|(j, (slot, part))| s.spawn(move || run(slot, part, j)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            Err(WorkerError::Handshake {
                                stage: "execute",
                                detail: "pool thread panicked".into(),
                                stderr: String::new(),
                            })
                        })
                    })
                    .collect()
            })
        };
        let mut runs = Vec::with_capacity(tests.len());
        let mut scores = Vec::with_capacity(tests.len());
        let mut workers_done: Option<Instant> = None;
        let mut first_err = None;
        for out in outputs {
            match out {
                Ok((part, part_scores, last, spawned)) => {
                    self.stats.spawned += spawned;
                    runs.extend(part);
                    scores.extend(part_scores);
                    workers_done = workers_done.max(Some(last));
                }
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        if let Some(e) = first_err {
            return Err(e);
        }
        for r in &runs {
            match r {
                TestRun::Timeout => self.stats.timeouts += 1,
                TestRun::Crash { .. } => self.stats.crashes += 1,
                TestRun::Finished(_) | TestRun::NotRun => {}
            }
        }
        self.stats.executed += runs.len() as u64;
        Ok(Scored { runs, scores, workers_done: workers_done.unwrap_or_else(Instant::now) })
    }

    /// Shuts every worker down politely.
    pub fn shutdown(mut self) {
        for w in self.slots.iter_mut().filter_map(Option::take) {
            w.shutdown();
        }
    }
}

/// How many tests of a batch of `len` each of `slots` workers gets (the last may get fewer): as
/// evenly as possible, one chunk per worker.
fn chunk_len(slots: usize, len: usize) -> usize {
    len.div_ceil(slots.min(len).max(1)).max(1)
}

/// Runs `tests` on one slot, replacing its worker as needed; returns the runs and the number of
/// workers started. `on_finished(i, result, arrival)` sees each `Finished` result of `tests[i]`
/// as it arrives (once: such a result is final).
fn run_chunk(
    slot: &mut Option<Worker>,
    config: &WorkerConfig,
    tests: &[&[Statement]],
    focus: Option<&[u32]>,
    on_finished: &mut dyn FnMut(usize, &TestResult, Instant),
    ahead: &dyn Fn() -> Option<Vec<u8>>,
) -> Result<(Vec<TestRun>, u64), WorkerError> {
    let mut results: Vec<Option<TestRun>> = vec![None; tests.len()];
    let mut crashed_once = vec![false; tests.len()];
    let mut spawned = 0u64;
    let mut spawn_failures = 0u32;
    let mut stalls = 0u32;
    let mut next = 0;
    while next < tests.len() {
        if slot.as_mut().is_none_or(Worker::needs_restart) {
            *slot = None; // Drop kills the old one.
            match Worker::spawn(config) {
                Ok(w) => {
                    *slot = Some(w);
                    spawned += 1;
                }
                Err(e) => {
                    spawn_failures += 1;
                    if spawn_failures >= MAX_SPAWN_FAILURES {
                        return Err(e);
                    }
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
            }
        }
        let Some(worker) = slot.as_mut() else { continue };
        // Test ids are positions in the chunk: unique, and they map results back without a table.
        let refs: Vec<TestRef<'_>> =
            (next..tests.len()).map(|i| TestRef { id: i as u32, statements: tests[i] }).collect();
        let runs = worker.run_batch_with(&refs, focus, &mut |k, r, at| on_finished(next + k, r, at), ahead);
        let before = (next, crashed_once.iter().filter(|c| **c).count());
        for (k, run) in runs.into_iter().enumerate() {
            let i = next + k;
            match run {
                TestRun::NotRun => break,
                TestRun::Crash { .. } if !crashed_once[i] => {
                    crashed_once[i] = true;
                    break;
                }
                other => results[i] = Some(other),
            }
        }
        next = results.iter().position(Option::is_none).unwrap_or(tests.len());
        // A worker that dies before reading a batch blames no test; if that keeps happening, blame
        // the first pending test rather than loop forever.
        if (next, crashed_once.iter().filter(|c| **c).count()) == before {
            stalls += 1;
            if stalls >= MAX_SPAWN_FAILURES {
                results[next] =
                    Some(TestRun::Crash { detail: "workers keep dying before running this test".into() });
                stalls = 0;
            }
        } else {
            stalls = 0;
        }
    }
    Ok((results.into_iter().map(|r| r.unwrap_or(TestRun::NotRun)).collect(), spawned))
}
