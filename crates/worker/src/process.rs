//! One JVM worker process: spawn with a scratch directory, `Hello`/`Ready` and `Setup`/`SetupDone`
//! handshakes, batches of tests with a wall-clock deadline, and kill on drop.
//!
//! Reading is done by a thread per pipe (stdout frames are decoded there and sent over a channel;
//! stderr goes into a bounded buffer), so the engine thread can wait with a timeout without
//! non-blocking I/O. The deadline is docs/protocol.md's: `timeout_ms + grace` since the last frame.

use std::collections::VecDeque;
use std::io::{BufWriter, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use protocol::{Outcome, Request, Response, Setup, TestRef, TestResult, TestStatus, Trace};

use crate::cleanup::{self, ScratchDir, TrackedChild};
use crate::{Java, WorkerError};

/// How to start workers. Built once by the caller and shared by every worker of a pool.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    pub java: Java,
    /// The runtime jar on disk ([`crate::runtime_jar`]).
    pub runtime_jar: PathBuf,
    /// `Setup` sent after the handshake; its `scratch_dir` is replaced by each worker's own.
    pub setup: Setup,
    /// `-Xmx`, in MiB.
    pub max_heap_mb: u32,
    /// `-Xss` of the JVM's threads, in KiB.
    pub stack_kb: u32,
    /// Added to `setup.timeout_ms` to get the engine's last-resort deadline (docs/protocol.md).
    pub grace_ms: u32,
    /// How long `java` may take to answer `Hello` and `Setup`.
    pub startup_timeout_ms: u32,
    /// Extra JVM flags, placed before `-cp`.
    pub extra_jvm_args: Vec<String>,
    /// How many bytes of the worker's stderr to keep (the last ones) for diagnostics.
    pub stderr_limit: usize,
    /// The operating-system sandbox each worker enters before `exec` (DESIGN.md §10): it may write
    /// only below its own scratch directory.
    pub sandbox: Arc<sandbox::Sandbox>,
}

/// The heap of a worker JVM by default, in MiB.
pub const DEFAULT_MAX_HEAP_MB: u32 = 512;

impl WorkerConfig {
    /// The defaults: 512 MiB heap, 4 MiB stacks, 2 s grace.
    pub fn new(java: Java, runtime_jar: PathBuf, setup: Setup) -> WorkerConfig {
        let sandbox = crate::default_sandbox(&java);
        WorkerConfig {
            sandbox,
            java,
            runtime_jar,
            setup,
            max_heap_mb: DEFAULT_MAX_HEAP_MB,
            stack_kb: 4096,
            grace_ms: 2000,
            startup_timeout_ms: 30_000,
            extra_jvm_args: Vec::new(),
            stderr_limit: 64 * 1024,
        }
    }

    /// The JVM command line (without the executable), with `tmp` as `java.io.tmpdir`.
    pub fn jvm_args(&self, tmp: &Path) -> Vec<String> {
        let mut args = vec![
            format!("-Xmx{}m", self.max_heap_mb),
            format!("-Xss{}k", self.stack_kb),
            // One GC thread on small machines; workers are many, heaps are small (feasibility.md §5).
            "-XX:+UseSerialGC".to_string(),
            // No hsperfdata file in /tmp per worker.
            "-XX:-UsePerfData".to_string(),
            "-Xshare:auto".to_string(),
            "-Dfile.encoding=UTF-8".to_string(),
            // C1 only: tests are short and instrumented code is large, so C2's compile time does not
            // pay back. Measured on four public-set classes at 15 s (2 workers, loaded machine):
            // 1.6-4.8x the evaluations of the default tiered setup, where C2 threads took 45 % of the
            // CPU samples, and equal or higher line and branch coverage on each.
            "-XX:TieredStopAtLevel=1".to_string(),
            // Identity hash codes are a constant (1), not a per-JVM random or address-derived value:
            // a test calling the default `hashCode`/`toString`, or iterating a hash set of objects
            // without `hashCode`, then behaves the same in every worker, which same-seed runs with
            // different worker counts rely on. Hash tables keyed by such objects degrade to one
            // bucket, which the short tests here do not notice.
            "-XX:+UnlockExperimentalVMOptions".to_string(),
            "-XX:hashCode=2".to_string(),
        ];
        args.extend(self.extra_jvm_args.iter().cloned());
        // After the user's flags: of two `-D` settings of one property the JVM keeps the last, so
        // the scratch directory's wins even over a flag the CLI did not refuse.
        args.push(format!("-Djava.io.tmpdir={}", tmp.display()));
        // Every java.nio.file operation of the code under test goes through the runtime's guarded
        // provider, which refuses changes outside the scratch directory (the sandbox's layer 2).
        // (rt_abi::GUARDED_PROVIDER_ARG; this crate does not depend on rt-abi.)
        args.push(
            "-Djava.nio.file.spi.DefaultFileSystemProvider=suitesmith.rt.GuardedFileSystemProvider"
                .to_string(),
        );
        args.push("-cp".to_string());
        args.push(self.runtime_jar.display().to_string());
        args.push("suitesmith.rt.WorkerMain".to_string());
        args
    }
}

/// What became of one test sent to a worker.
// Almost every run is `Finished`; boxing it would add an allocation per test for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum TestRun {
    /// The worker reported a result (including its own `Timeout` and `Guard` statuses).
    Finished(TestResult),
    /// The worker sent nothing within the deadline and was killed while running this test.
    Timeout,
    /// The worker died (or broke the protocol) while running this test.
    Crash { detail: String },
    /// Not started because the worker died earlier in the batch; [`crate::Pool`] retries these and
    /// never returns them.
    NotRun,
}

#[allow(clippy::large_enum_variant)] // As for `Response`, which it wraps.
enum Event {
    /// A decoded frame and when the reader decoded it (a result's arrival, whatever the caller
    /// was busy with meanwhile).
    Frame(Response, Instant),
    /// Undecodable output or a read error; the worker is unusable.
    Broken(String),
    Eof,
}

/// The last `limit` bytes a worker wrote to stderr.
#[derive(Debug)]
struct StderrLog {
    bytes: VecDeque<u8>,
    limit: usize,
}

/// A running JVM worker. Dropping it kills the process, waits for it to end, then removes its
/// scratch directory (`child` is declared before `scratch`, and fields drop in order).
pub struct Worker {
    child: TrackedChild,
    stdin: BufWriter<ChildStdin>,
    events: Receiver<Event>,
    stderr: Arc<Mutex<StderrLog>>,
    scratch: ScratchDir,
    java_version: String,
    pid: u32,
    deadline: Duration,
    startup: Duration,
    /// Set once the process is known to be gone or about to go (crash, timeout, OOM).
    retiring: bool,
    /// When the last batch's `BatchDone` was read: the end of the worker's part of it, the static
    /// reset after its last test included.
    batch_done: Option<Instant>,
    /// The request sent ahead of its turn (`run_batch_with`'s `ahead`), which the worker runs after
    /// the batch before it; empty when none is.
    sent_ahead: Vec<u8>,
    out: Vec<u8>,
    /// What the class initialisers executed at setup (`SetupDone`, protocol v3).
    init_trace: Trace,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker").field("pid", &self.pid).field("scratch", &self.scratch.path()).finish()
    }
}

impl Worker {
    /// Starts a JVM, waits for `Ready`, sends the setup and waits for `SetupDone`.
    // This crate is the one place allowed to start processes (STYLE.md rule 2, clippy.toml).
    #[allow(clippy::disallowed_methods)]
    pub fn spawn(config: &WorkerConfig) -> Result<Worker, WorkerError> {
        let t0 = Instant::now();
        let scratch = cleanup::scratch_dir("suitesmith-worker-").map_err(WorkerError::Scratch)?;
        // `java.io.tmpdir` in the scratch directory: a temporary file a test makes (Guards allow them
        // there only) is removed with it. Java does not read `TMPDIR`; left alone, it would be /tmp.
        let tmp = scratch.path().join("tmp");
        std::fs::create_dir_all(&tmp).map_err(WorkerError::Scratch)?;
        let cwd = scratch.path().join(cleanup::WORKING_DIR);
        std::fs::create_dir_all(&cwd).map_err(WorkerError::Scratch)?;
        let mut command = Command::new(&config.java.path);
        command
            .args(config.jvm_args(&tmp))
            .current_dir(&cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A process group of its own: a terminal's Ctrl-C (SIGINT to the foreground group) is
            // for the engine, whose handler then kills the workers; a worker killed by it first
            // would look like a crash and be restarted.
            .process_group(0);
        Arc::new(config.sandbox.prepare(&[scratch.path()])?).install(&mut command);
        let (child, pipes) = cleanup::spawn(&mut command)
            .map_err(|source| WorkerError::Spawn { java: config.java.path.clone(), source })?;
        let pid = child.id();
        let (Some(stdin), Some(stdout), Some(stderr)) = (pipes.stdin, pipes.stdout, pipes.stderr) else {
            // Dropping `child` kills it.
            return Err(WorkerError::Handshake {
                stage: "spawn",
                detail: "child pipes missing".into(),
                stderr: String::new(),
            });
        };
        let (tx, events) = mpsc::channel();
        let log = Arc::new(Mutex::new(StderrLog { bytes: VecDeque::new(), limit: config.stderr_limit }));
        let log2 = Arc::clone(&log);
        let readers = std::thread::Builder::new()
            .name(format!("worker-{pid}-stdout"))
            .spawn(move || read_frames(stdout, tx))
            .and_then(|_| {
                std::thread::Builder::new()
                    .name(format!("worker-{pid}-stderr"))
                    .spawn(move || read_stderr(stderr, &log2))
            });
        if let Err(source) = readers {
            // Dropping `child` kills it.
            return Err(WorkerError::Spawn { java: config.java.path.clone(), source });
        }
        let deadline = Duration::from_millis(u64::from(config.setup.timeout_ms) + u64::from(config.grace_ms));
        let mut w = Worker {
            child,
            stdin: BufWriter::with_capacity(64 * 1024, stdin),
            events,
            stderr: log,
            scratch,
            java_version: String::new(),
            pid,
            deadline,
            startup: Duration::ZERO,
            retiring: false,
            batch_done: None,
            sent_ahead: Vec::new(),
            out: Vec::new(),
            init_trace: Trace::default(),
        };
        let startup_timeout = Duration::from_millis(u64::from(config.startup_timeout_ms));

        w.send(&Request::Hello { version: protocol::VERSION }).map_err(|e| w.handshake_error("hello", e))?;
        match w.wait_event(startup_timeout) {
            Some(Event::Frame(Response::Ready { version, java_version, .. }, _)) => {
                protocol::check_version(version).map_err(|e| w.handshake_error("hello", e.to_string()))?;
                w.java_version = java_version;
            }
            other => return Err(w.unexpected("hello", other)),
        }
        w.startup = t0.elapsed();

        let mut setup = config.setup.clone();
        setup.scratch_dir = w.scratch.path().display().to_string();
        w.send(&Request::Setup(setup)).map_err(|e| w.handshake_error("setup", e))?;
        match w.wait_event(startup_timeout) {
            Some(Event::Frame(Response::SetupDone { init_trace, .. }, _)) => {
                w.init_trace = init_trace;
                Ok(w)
            }
            other => Err(w.unexpected("setup", other)),
        }
    }

    /// Runs a batch: one [`TestRun`] per test, in order. The caller decides what to retry.
    pub fn run_batch(&mut self, tests: &[TestRef<'_>]) -> Vec<TestRun> {
        self.run_batch_with(tests, None, &mut |_, _, _| {}, &|| None)
    }

    /// [`Worker::run_batch`], calling `on_finished(position, result, arrival)` for each `Finished`
    /// result (`arrival`: when it was read from the worker), before taking the next one: the worker goes on running the batch meanwhile, so
    /// whatever the caller does with a result overlaps with the next tests' execution. A
    /// `Finished` run is final (a crash or timeout ends the batch), so no result is seen twice.
    ///
    /// `ahead` may give, once a result has arrived, the encoded request of the batch the caller
    /// runs next: it is sent at once, so the worker starts it as soon as this one is done instead
    /// of idling until the caller has dealt with this batch's results. The next call whose request
    /// is that one does not send it again; a call with another request first replaces the worker
    /// (what it would run first is not what is asked).
    ///
    /// `focus`: the path conditions the worker evaluates in this batch (`Request::Execute`).
    pub fn run_batch_with(
        &mut self,
        tests: &[TestRef<'_>],
        focus: Option<&[u32]>,
        on_finished: &mut dyn FnMut(usize, &TestResult, Instant),
        ahead: &dyn Fn() -> Option<Vec<u8>>,
    ) -> Vec<TestRun> {
        let mut runs = Vec::with_capacity(tests.len());
        self.batch_done = None;
        if tests.is_empty() {
            return runs;
        }
        if self.retiring {
            runs.resize(tests.len(), TestRun::NotRun);
            return runs;
        }
        self.out.clear();
        protocol::encode_execute(tests, focus, &mut self.out);
        let sent = std::mem::take(&mut self.sent_ahead);
        if !sent.is_empty() && sent != self.out {
            self.kill();
            runs.resize(tests.len(), TestRun::NotRun);
            return runs;
        }
        if sent.is_empty() && self.stdin.write_all(&self.out).and_then(|()| self.stdin.flush()).is_err() {
            // The worker was gone before it saw the batch: no test is to blame.
            self.kill();
            runs.resize(tests.len(), TestRun::NotRun);
            return runs;
        }
        while runs.len() < tests.len() {
            let expected = tests[runs.len()].id;
            match self.wait_event(self.deadline) {
                Some(Event::Frame(Response::TestResult(r), at)) if r.test_id == expected => {
                    if r.status == TestStatus::Timeout || threw_out_of_memory(&r) {
                        // The worker exits after a timed-out test (docs/protocol.md "Lifecycle"); after
                        // an OutOfMemoryError its heap is not to be trusted. Replace it either way.
                        self.retiring = true;
                    }
                    on_finished(runs.len(), &r, at);
                    runs.push(TestRun::Finished(r));
                    if self.sent_ahead.is_empty() && !self.retiring {
                        self.send_ahead(ahead);
                    }
                }
                Some(Event::Frame(Response::BatchDone { tests: n }, _)) if n as usize == runs.len() => {
                    // A batch cut short after a timed-out test: the worker exits; the tests it did
                    // not reach are for a fresh worker.
                    self.retiring = true;
                    break;
                }
                None => {
                    self.kill();
                    runs.push(TestRun::Timeout);
                    break;
                }
                other => {
                    let detail = self.describe_death(other, expected);
                    runs.push(TestRun::Crash { detail });
                    break;
                }
            }
        }
        if runs.len() < tests.len() {
            runs.resize(tests.len(), TestRun::NotRun);
            return runs;
        }
        match self.wait_event(self.deadline) {
            Some(Event::Frame(Response::BatchDone { tests: n }, at)) if n as usize == tests.len() => {
                self.batch_done = Some(at);
            }
            other => {
                // Every test has its result; a missing or wrong BatchDone only retires the worker
                // (describe_death kills it).
                let _ = self.describe_death(other, u32::MAX);
            }
        }
        runs
    }

    /// Sends the request `ahead` gives, if any, to be run after the current batch.
    fn send_ahead(&mut self, ahead: &dyn Fn() -> Option<Vec<u8>>) {
        let Some(request) = ahead() else { return };
        if self.stdin.write_all(&request).and_then(|()| self.stdin.flush()).is_ok() {
            self.sent_ahead = request;
        } else {
            // The worker is going; the batch after will find it gone and start another.
            self.retiring = true;
        }
    }

    /// When the last batch ended on the worker (its `BatchDone` was read); `None` if it did not end
    /// normally.
    pub fn batch_done(&self) -> Option<Instant> {
        self.batch_done
    }

    /// Whether this worker must be replaced before the next batch (it crashed, timed out, hit an
    /// `OutOfMemoryError`, or exited).
    pub fn needs_restart(&mut self) -> bool {
        self.retiring || !matches!(self.child.try_wait(), Ok(None))
    }

    /// The trace of the class initialisers the worker ran at setup, before any test: code no test
    /// trace can show, since every class is initialised once per JVM.
    pub fn init_trace(&self) -> &Trace {
        &self.init_trace
    }

    pub fn java_version(&self) -> &str {
        &self.java_version
    }

    pub fn pid(&self) -> u32 {
        self.pid
    }

    pub fn scratch_dir(&self) -> &Path {
        self.scratch.path()
    }

    /// From spawn to `Ready`.
    pub fn startup_time(&self) -> Duration {
        self.startup
    }

    /// The last bytes the worker wrote to stderr.
    pub fn stderr_tail(&self) -> String {
        let log = self.stderr.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (a, b) = log.bytes.as_slices();
        let mut v = a.to_vec();
        v.extend_from_slice(b);
        String::from_utf8_lossy(&v).into_owned()
    }

    /// Sends `Shutdown` and waits (briefly) for the worker to exit; kills it otherwise.
    pub fn shutdown(mut self) {
        if !self.retiring && self.send(&Request::Shutdown).is_ok() {
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if matches!(self.child.try_wait(), Ok(Some(_))) {
                    self.retiring = true;
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Drop kills.
    }

    fn send(&mut self, req: &Request) -> Result<(), String> {
        self.out.clear();
        protocol::encode_request(req, &mut self.out);
        self.stdin.write_all(&self.out).and_then(|()| self.stdin.flush()).map_err(|e| e.to_string())
    }

    /// The next event, or `None` if nothing came within `timeout`.
    fn wait_event(&mut self, timeout: Duration) -> Option<Event> {
        match self.events.recv_timeout(timeout) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Event::Eof),
        }
    }

    fn kill(&mut self) {
        self.retiring = true;
        self.child.kill_and_reap();
    }

    /// Kills the worker and explains why it is unusable: its exit status, what it sent, its stderr.
    fn describe_death(&mut self, event: Option<Event>, test_id: u32) -> String {
        let what = match event {
            Some(Event::Eof) => "the worker exited".to_string(),
            Some(Event::Broken(e)) => format!("unreadable worker output: {e}"),
            Some(Event::Frame(Response::Error { message }, _)) => {
                format!("the worker reported an error: {message}")
            }
            Some(Event::Frame(other, _)) => format!("unexpected {} frame", frame_name(&other)),
            None => "no reply within the deadline".to_string(),
        };
        // Give a dying JVM a moment to exit so its status and last words are available.
        let until = Instant::now() + Duration::from_millis(200);
        let mut status = None;
        while Instant::now() < until {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.kill();
        let status = status.map_or_else(|| "killed".to_string(), |s| s.to_string());
        let test = if test_id == u32::MAX { String::new() } else { format!(" while running test {test_id}") };
        let mut detail = format!("{what}{test} ({status})");
        let tail = self.stderr_tail();
        if !tail.trim().is_empty() {
            detail.push_str("; stderr: ");
            detail.push_str(tail.trim_end());
        }
        detail
    }

    fn handshake_error(&mut self, stage: &'static str, detail: impl Into<String>) -> WorkerError {
        self.kill();
        // The stderr reader may still be draining the dead process's last words.
        std::thread::sleep(Duration::from_millis(20));
        WorkerError::Handshake { stage, detail: detail.into(), stderr: self.stderr_tail() }
    }

    fn unexpected(&mut self, stage: &'static str, event: Option<Event>) -> WorkerError {
        let detail = match event {
            Some(Event::Eof) => "the worker exited".to_string(),
            Some(Event::Broken(e)) => format!("unreadable output: {e}"),
            Some(Event::Frame(Response::Error { message }, _)) => format!("the worker reported: {message}"),
            Some(Event::Frame(other, _)) => format!("unexpected {} frame", frame_name(&other)),
            None => "no reply in time".to_string(),
        };
        self.handshake_error(stage, detail)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // No orphan JVMs (EvoSuite issue #121): kill and reap before the scratch directory goes
        // (a JVM's threads may still be writing in it until it is reaped). The reader threads end
        // at EOF.
        self.child.kill_and_reap();
    }
}

fn threw_out_of_memory(r: &TestResult) -> bool {
    r.outcomes
        .iter()
        .any(|o| matches!(o, Outcome::Threw { class, .. } if class == "java.lang.OutOfMemoryError"))
}

fn frame_name(r: &Response) -> &'static str {
    match r {
        Response::Ready { .. } => "Ready",
        Response::SetupDone { .. } => "SetupDone",
        Response::TestResult(_) => "TestResult",
        Response::BatchDone { .. } => "BatchDone",
        Response::Error { .. } => "Error",
    }
}

fn read_frames(stdout: impl Read, tx: mpsc::Sender<Event>) {
    let mut r = std::io::BufReader::with_capacity(64 * 1024, stdout);
    let mut buf = Vec::new();
    loop {
        let event = match protocol::read_frame(&mut r, &mut buf) {
            Ok(true) => match protocol::decode_response(&buf) {
                Ok(resp) => Event::Frame(resp, Instant::now()),
                Err(e) => Event::Broken(e.to_string()),
            },
            Ok(false) => Event::Eof,
            Err(e) => Event::Broken(e.to_string()),
        };
        let last = !matches!(event, Event::Frame(..));
        if tx.send(event).is_err() || last {
            return;
        }
    }
}

fn read_stderr(mut stderr: impl Read, log: &Mutex<StderrLog>) {
    let mut chunk = [0u8; 4096];
    loop {
        match stderr.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let mut log = log.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                log.bytes.extend(&chunk[..n]);
                let excess = log.bytes.len().saturating_sub(log.limit);
                log.bytes.drain(..excess);
            }
        }
    }
}
