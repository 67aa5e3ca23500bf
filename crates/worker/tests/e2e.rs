//! End-to-end tests against real JVMs: handshake, every statement kind through a real worker
//! (the cross-language round trip docs/protocol.md asks for), JDK classes, the hostile fixtures that
//! need no instrumentation (timeout, stack overflow, out of memory, halt/exit, native crash), pool
//! ordering and recovery, the engine-side deadline, and the runtime ABI (tracer and guard methods of
//! `crates/rt-abi` present in the built jar).

use std::path::{Path, PathBuf};
use std::time::Instant;

use protocol::{Outcome, PrimType, Setup, Statement, TestRef, TestStatus, Value, Var};
use worker::{Java, Pool, TestRun, Worker, WorkerConfig};

fn java() -> Java {
    Java::discover().unwrap_or_else(|e| panic!("{e}"))
}

fn hostile_classes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/hostile").canonicalize().unwrap()
}

fn config(timeout_ms: u32) -> WorkerConfig {
    let mut setup = Setup::empty();
    setup.classpath = vec![hostile_classes().display().to_string()];
    setup.timeout_ms = timeout_ms;
    let mut c = WorkerConfig::new(java(), worker::runtime_jar().unwrap(), setup);
    // Small heaps make heap exhaustion quick.
    c.max_heap_mb = 96;
    c
}

fn spawn(c: &WorkerConfig) -> Worker {
    Worker::spawn(c).unwrap_or_else(|e| panic!("{e}"))
}

fn new_object(class: &str) -> Statement {
    Statement::Constructor { class: class.into(), descriptor: "()V".into(), args: vec![] }
}

fn call(class: &str, name: &str, descriptor: &str, receiver: u16, args: &[u16]) -> Statement {
    Statement::Method {
        class: class.into(),
        name: name.into(),
        descriptor: descriptor.into(),
        is_static: false,
        receiver: Some(Var(receiver)),
        args: args.iter().map(|a| Var(*a)).collect(),
    }
}

fn call_static(class: &str, name: &str, descriptor: &str, args: &[u16]) -> Statement {
    Statement::Method {
        class: class.into(),
        name: name.into(),
        descriptor: descriptor.into(),
        is_static: true,
        receiver: None,
        args: args.iter().map(|a| Var(*a)).collect(),
    }
}

/// `hostile.<class>.<name>(int)` on `arg`.
fn hostile_int(class: &str, name: &str, ret: &str, arg: i32) -> Vec<Statement> {
    vec![Statement::int(arg), call_static(&format!("hostile.{class}"), name, &format!("(I){ret}"), &[0])]
}

/// A normal test whose last value is `Integer.valueOf(x).intValue()`: proves a worker still works.
fn echo(x: i32) -> Vec<Statement> {
    vec![
        Statement::int(x),
        call_static("java.lang.Integer", "valueOf", "(I)Ljava/lang/Integer;", &[0]),
        call("java.lang.Integer", "intValue", "()I", 1, &[]),
    ]
}

fn finished(run: &TestRun) -> &protocol::TestResult {
    match run {
        TestRun::Finished(r) => r,
        other => panic!("expected a result, got {other:?}"),
    }
}

fn last_outcome(run: &TestRun) -> &Outcome {
    finished(run).outcomes.iter().rev().find(|o| **o != Outcome::NotExecuted).expect("an executed statement")
}

fn assert_echo(run: &TestRun, x: i32) {
    assert_eq!(last_outcome(run), &Outcome::Value(Value::Int(x)), "{run:?}");
}

fn threw(run: &TestRun) -> (&str, bool) {
    match last_outcome(run) {
        Outcome::Threw { class, from_sut, .. } => (class.as_str(), *from_sut),
        other => panic!("expected Threw, got {other:?}"),
    }
}

#[test]
fn handshake_and_scratch_dir() {
    let c = config(3000);
    let t0 = Instant::now();
    let mut w = spawn(&c);
    let total = t0.elapsed();
    assert!(w.java_version().starts_with(&c.java.major.to_string()), "{} vs {:?}", w.java_version(), c.java);
    assert!(w.startup_time() <= total);
    eprintln!("worker start to Ready: {:?} (with Setup: {total:?})", w.startup_time());
    let scratch = w.scratch_dir().to_path_buf();
    assert!(scratch.is_dir());
    // The SUT's working directory is in the scratch directory (a stand-in for the user's project).
    let t = vec![
        Statement::string("user.dir"),
        call_static("java.lang.System", "getProperty", "(Ljava/lang/String;)Ljava/lang/String;", &[0]),
    ];
    let runs = w.run_batch(&[TestRef { id: 0, statements: &t }]);
    assert_eq!(
        last_outcome(&runs[0]),
        &Outcome::Value(Value::String(scratch.join(worker::cleanup::WORKING_DIR).display().to_string()))
    );
    assert!(!w.needs_restart());
    w.shutdown();
    assert!(!scratch.exists(), "the scratch directory goes with the worker");
}

/// A user's JVM flags come before the worker's own `java.io.tmpdir`, so the scratch directory wins
/// even if the CLI's refusal of such a flag were bypassed (the JVM keeps the last `-D` of a name).
#[test]
fn the_workers_tmpdir_wins_over_a_users_flag() {
    let mut c = config(3000);
    c.extra_jvm_args = vec!["-Djava.io.tmpdir=/somewhere-else".into()];
    let mut w = spawn(&c);
    let scratch = w.scratch_dir().to_path_buf();
    let t = vec![
        Statement::string("java.io.tmpdir"),
        call_static("java.lang.System", "getProperty", "(Ljava/lang/String;)Ljava/lang/String;", &[0]),
    ];
    let runs = w.run_batch(&[TestRef { id: 0, statements: &t }]);
    assert_eq!(
        last_outcome(&runs[0]),
        &Outcome::Value(Value::String(scratch.join("tmp").display().to_string()))
    );
    w.shutdown();
}

/// Every statement kind the tests above do not use (the index of each in a comment).
fn every_other_statement_kind() -> Vec<Statement> {
    vec![
        Statement::Primitive { ty: PrimType::Char, bits: 0xE9 }, // 0
        Statement::Primitive { ty: PrimType::Byte, bits: (-2i64) as u64 }, // 1
        Statement::Primitive { ty: PrimType::Short, bits: 300 }, // 2
        Statement::long(-5),                                     // 3
        Statement::float(1.5),                                   // 4
        Statement::double(-0.25),                                // 5
        Statement::boolean(true),                                // 6
        Statement::EnumConstant { class: "java.util.concurrent.TimeUnit".into(), name: "SECONDS".into() }, // 7
        Statement::FieldGet {
            class: "java.lang.Integer".into(),
            name: "MAX_VALUE".into(),
            descriptor: "I".into(),
            is_static: true,
            receiver: None,
        }, // 8
        Statement::NewArray { component: "I".into(), length: 3 }, // 9
        Statement::int(7),                                        // 10
        Statement::ArrayStore { array: Some(Var(9)), index: 1, value: Some(Var(10)) }, // 11
        Statement::ArrayLoad { array: Some(Var(9)), index: 1 },   // 12
        Statement::Copy { from: Some(Var(12)) },                  // 13
        Statement::string("h\u{e9}\u{1F600}"),                    // 14
        new_object("java.awt.Point"),                             // 15
        Statement::FieldSet {
            class: "java.awt.Point".into(),
            name: "x".into(),
            descriptor: "I".into(),
            is_static: false,
            receiver: Some(Var(15)),
            value: Some(Var(10)),
        }, // 16
        Statement::FieldGet {
            class: "java.awt.Point".into(),
            name: "x".into(),
            descriptor: "I".into(),
            is_static: false,
            receiver: Some(Var(15)),
        }, // 17
        Statement::Null { ty: "java.lang.String".into() },        // 18
        Statement::ArrayLoad { array: Some(Var(9)), index: 5 },   // 19: out of bounds
    ]
}

#[test]
fn jdk_classes_and_every_statement_kind() {
    let mut w = spawn(&config(3000));
    let list = "java.util.ArrayList";
    // ArrayList: new, add, add, size, get — five statements.
    let array_list = vec![
        new_object(list),
        Statement::string("a"),
        call(list, "add", "(Ljava/lang/Object;)Z", 0, &[1]),
        call(list, "size", "()I", 0, &[]),
        Statement::Method {
            class: list.into(),
            name: "isEmpty".into(),
            descriptor: "()Z".into(),
            is_static: false,
            receiver: Some(Var(0)),
            args: vec![],
        },
    ];
    // Integer.parseInt with bad input: a SUT exception, and the rest is not executed.
    let parse = vec![
        Statement::string("12x"),
        call_static("java.lang.Integer", "parseInt", "(Ljava/lang/String;)I", &[0]),
        Statement::int(1),
    ];
    // A call on null: the call site fails, not the SUT.
    let null_receiver = vec![Statement::Null { ty: list.into() }, call(list, "size", "()I", 0, &[])];
    let kinds = every_other_statement_kind();
    let tests = [&array_list, &parse, &null_receiver, &kinds];
    let refs: Vec<TestRef<'_>> =
        tests.iter().enumerate().map(|(i, t)| TestRef { id: i as u32 + 10, statements: t }).collect();
    let runs = w.run_batch(&refs);
    assert_eq!(runs.len(), 4);

    let r = finished(&runs[0]);
    assert_eq!(r.test_id, 10);
    assert_eq!(r.status, TestStatus::Normal);
    assert_eq!(
        r.outcomes,
        vec![
            Outcome::Value(Value::Object { class: list.into() }),
            Outcome::Value(Value::String("a".into())),
            Outcome::Value(Value::Bool(true)),
            Outcome::Value(Value::Int(1)),
            Outcome::Value(Value::Bool(false)),
        ]
    );

    let r = finished(&runs[1]);
    assert_eq!(r.outcomes.len(), 3);
    match &r.outcomes[1] {
        Outcome::Threw { class, message, from_sut, .. } => {
            assert_eq!(class, "java.lang.NumberFormatException");
            assert!(message.contains("12x"), "{message}");
            assert!(*from_sut);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(r.outcomes[2], Outcome::NotExecuted);

    let (class, from_sut) = threw(&runs[2]);
    assert_eq!(class, "java.lang.NullPointerException");
    assert!(!from_sut, "a null receiver is the call site's fault");

    let r = finished(&runs[3]);
    let o = &r.outcomes;
    assert_eq!(o[0], Outcome::Value(Value::Char(0xE9)));
    assert_eq!(o[1], Outcome::Value(Value::Byte(-2)));
    assert_eq!(o[2], Outcome::Value(Value::Short(300)));
    assert_eq!(o[3], Outcome::Value(Value::Long(-5)));
    assert_eq!(o[4], Outcome::Value(Value::Float(1.5f32.to_bits())));
    assert_eq!(o[5], Outcome::Value(Value::Double((-0.25f64).to_bits())));
    assert_eq!(o[6], Outcome::Value(Value::Bool(true)));
    assert_eq!(
        o[7],
        Outcome::Value(Value::Enum { class: "java.util.concurrent.TimeUnit".into(), name: "SECONDS".into() })
    );
    assert_eq!(o[8], Outcome::Value(Value::Int(i32::MAX)));
    assert_eq!(o[9], Outcome::Value(Value::Array { class: "[I".into(), length: 3 }));
    assert_eq!(o[12], Outcome::Value(Value::Int(7)));
    assert_eq!(o[13], Outcome::Value(Value::Int(7)));
    assert_eq!(o[14], Outcome::Value(Value::String("h\u{e9}\u{1F600}".into())));
    assert_eq!(o[17], Outcome::Value(Value::Int(7)));
    assert_eq!(o[18], Outcome::Value(Value::Null));
    assert!(
        matches!(&o[19], Outcome::Threw { class, .. } if class == "java.lang.ArrayIndexOutOfBoundsException")
    );
    assert!(!w.needs_restart());
}

#[test]
fn infinite_loop_times_out_and_the_worker_is_replaced() {
    let mut pool = Pool::new(config(500), 1).unwrap();
    let looping = hostile_int("Loop", "loopOn42", "I", 42);
    let t0 = Instant::now();
    let runs = pool.execute(&[&echo(1), &looping, &echo(2)]).unwrap();
    eprintln!("batch with a 500 ms timeout took {:?}", t0.elapsed());
    assert_echo(&runs[0], 1);
    let r = finished(&runs[1]);
    assert_eq!(r.status, TestStatus::Timeout);
    assert_eq!(r.outcomes[1], Outcome::Timeout);
    assert_echo(&runs[2], 2);
    // The worker exits after a timed-out test; the next batch gets a fresh one.
    let runs = pool.execute(&[&echo(3)]).unwrap();
    assert_echo(&runs[0], 3);
    assert_eq!(pool.stats().spawned, 2, "{:?}", pool.stats());
}

#[test]
fn deep_recursion_is_an_outcome_and_the_worker_continues() {
    let mut w = spawn(&config(3000));
    let pid = w.pid();
    let t = hostile_int("Recursion", "depth", "I", 0);
    let ok = hostile_int("Recursion", "bounded", "I", 1000);
    let runs = w.run_batch(&[TestRef { id: 0, statements: &t }, TestRef { id: 1, statements: &ok }]);
    assert_eq!(threw(&runs[0]), ("java.lang.StackOverflowError", true));
    assert_echo(&runs[1], 1000);
    assert!(!w.needs_restart());
    assert_eq!(w.pid(), pid);
}

#[test]
fn huge_allocations_are_outcomes_then_the_worker_is_replaced() {
    let mut pool = Pool::new(config(10_000), 1).unwrap();
    let huge = hostile_int("Allocation", "hugeArray", "I", i32::MAX);
    let exhaust = vec![call_static("hostile.Allocation", "exhaustHeap", "()I", &[])];
    let runs = pool.execute(&[&huge, &exhaust, &echo(5)]).unwrap();
    assert_eq!(threw(&runs[0]).0, "java.lang.OutOfMemoryError");
    assert_eq!(threw(&runs[1]).0, "java.lang.OutOfMemoryError");
    assert_echo(&runs[2], 5);
    let runs = pool.execute(&[&echo(6)]).unwrap();
    assert_echo(&runs[0], 6);
    assert_eq!(pool.stats().spawned, 2, "replaced after an OutOfMemoryError");
}

#[test]
fn halt_exit_and_native_crash_kill_only_the_worker() {
    let mut pool = Pool::new(config(3000), 1).unwrap();
    let halt = hostile_int("Halt", "halt", "V", 7);
    let exit = hostile_int("Exit", "exitIfPositive", "I", 3);
    let no_exit = hostile_int("Exit", "exitIfPositive", "I", -3);
    let native = vec![call_static("hostile.NativeCrash", "crash", "()V", &[])];
    let runs = pool.execute(&[&echo(1), &halt, &echo(2), &exit, &no_exit, &native, &echo(3)]).unwrap();
    assert_echo(&runs[0], 1);
    assert!(
        matches!(&runs[1], TestRun::Crash { detail } if detail.contains("exit status: 7")),
        "{:?}",
        runs[1]
    );
    assert_echo(&runs[2], 2);
    assert!(
        matches!(&runs[3], TestRun::Crash { detail } if detail.contains("exit status: 3")),
        "{:?}",
        runs[3]
    );
    assert_echo(&runs[4], -3);
    assert!(matches!(&runs[5], TestRun::Crash { .. }), "{:?}", runs[5]);
    assert_echo(&runs[6], 3);
    let s = pool.stats();
    assert_eq!(s.crashes, 3);
    // Each crash is retried once on a fresh worker: 1 + 3 × 2 workers.
    assert_eq!(s.spawned, 7, "{s:?}");
}

#[test]
fn pool_results_come_back_in_request_order() {
    let mut pool = Pool::new(config(3000), 2).unwrap();
    let tests: Vec<Vec<Statement>> = (0..41).map(echo).collect();
    let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
    let mut previous = None;
    for _ in 0..2 {
        let mut runs = pool.execute(&refs).unwrap();
        assert_eq!(runs.len(), 41);
        for (i, r) in runs.iter_mut().enumerate() {
            assert_echo(r, i as i32);
            if let TestRun::Finished(r) = r {
                r.elapsed_us = 0; // The only field that may differ between runs.
            }
        }
        if let Some(previous) = previous.replace(runs.clone()) {
            assert_eq!(previous, runs, "the same batch twice gives identical outcomes and traces");
        }
    }
    assert_eq!(pool.stats().executed, 82);
    assert_eq!(pool.stats().spawned, 2);
}

/// A stand-in for `java` that answers the handshake, then never answers again (or dies): the
/// engine's own deadline and crash handling, independent of the runtime's cooperation.
#[allow(clippy::disallowed_methods)] // a test helper may start `install`; the engine's processes go through `worker`.
fn fake_java(dir: &Path, then: &str) -> Java {
    // Ready: len 19 (octal 23) = kind + u16 version (the protocol's) + str "17" (4 + 4) + i64 pid; SetupDone:
    // len 53 (octal 65) = kind + u32 classes + an empty trace (twelve u32 counts).
    let empty_trace = "\\000".repeat(48);
    let version = format!("\\{:03o}", protocol::VERSION);
    let script = format!(
        "#!/bin/sh\nhead -c 7 >/dev/null\nprintf '\\000\\000\\000\\023\\200\\000{version}\\000\\000\\000\\002\\000\\061\\000\\067\\000\\000\\000\\000\\000\\000\\000\\001'\nprintf '\\000\\000\\000\\065\\201\\000\\000\\000\\000{empty_trace}'\n{then}\n"
    );
    // The executable is written by a child process, never through a file descriptor of ours: a
    // sibling test forking at that moment would inherit a writable descriptor on it and our own
    // spawn would then fail with ETXTBSY ("Text file busy").
    let source = dir.join("java.sh");
    std::fs::write(&source, script).unwrap();
    let path = dir.join("java");
    let status =
        std::process::Command::new("install").args(["-m", "755"]).arg(&source).arg(&path).status().unwrap();
    assert!(status.success(), "install the fake java");
    Java { path, version: "17".into(), major: 17 }
}

/// The sandbox of a fake `java`: a shell script may run the system's tools (`head`, `sleep`), which
/// the default sandbox, made for a JDK, refuses to execute.
fn shell_sandbox(script: &Path) -> std::sync::Arc<worker::Sandbox> {
    let exec = [script, Path::new("/bin/sh"), Path::new("/usr/bin"), Path::new("/bin")].map(PathBuf::from);
    std::sync::Arc::new(worker::Sandbox::new(worker::SandboxRequest::Auto, &exec).expect("sandbox"))
}

#[test]
fn engine_deadline_kills_a_silent_worker() {
    let dir = tempfile::tempdir().unwrap();
    let mut setup = Setup::empty();
    setup.timeout_ms = 100;
    let mut c = WorkerConfig::new(fake_java(dir.path(), "exec sleep 30"), PathBuf::from("unused.jar"), setup);
    c.grace_ms = 200;
    c.sandbox = shell_sandbox(&c.java.path);
    let mut w = spawn(&c);
    let t = echo(1);
    let t0 = Instant::now();
    let runs = w.run_batch(&[TestRef { id: 0, statements: &t }, TestRef { id: 1, statements: &t }]);
    let waited = t0.elapsed();
    assert_eq!(runs, vec![TestRun::Timeout, TestRun::NotRun]);
    assert!(waited.as_millis() >= 300 && waited.as_millis() < 5000, "{waited:?}");
    assert!(w.needs_restart());
}

#[test]
fn a_worker_that_keeps_dying_is_reported_not_looped_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = WorkerConfig::new(
        fake_java(dir.path(), "sleep 0.3; exit 9"),
        PathBuf::from("unused.jar"),
        Setup::empty(),
    );
    c.sandbox = shell_sandbox(&c.java.path);
    let mut pool = Pool::new(c, 1).unwrap();
    let t = echo(1);
    let runs = pool.execute(&[&t, &t]).unwrap();
    assert!(runs.iter().all(|r| matches!(r, TestRun::Crash { .. })), "{runs:?}");
}

#[test]
fn missing_jdk_is_one_clear_error() {
    let err = Java::at(Path::new("/nonexistent/java")).unwrap_err().to_string();
    assert!(err.contains("no Java found") && err.contains("JAVA_HOME"), "{err}");
}

/// The ABI of `crates/rt-abi`: every tracer method, every guard and the stubs' answer method exist
/// in the built runtime as `public static` methods of public classes with exactly those descriptors.
#[test]
fn runtime_jar_implements_the_rt_abi() {
    use classfile::{ClassFile, access};
    use rt_abi::{
        GUARDS_CLASS, ProbeKind, REDIRECTS, RedirectAction, STUB_ANSWER_METHOD, STUBS_CLASS, TRACER_CLASS,
    };
    let mut jar = zip::ZipArchive::new(std::io::Cursor::new(worker::RUNTIME_JAR)).unwrap();
    let mut class = |name: &str| -> ClassFile {
        let mut f = jar.by_name(&format!("{name}.class")).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut bytes).unwrap();
        let cf = ClassFile::parse(&bytes).unwrap();
        assert!(cf.access_flags & access::PUBLIC != 0, "{name} is public");
        assert_eq!(cf.major_version, 52, "{name} compiled with --release 8");
        cf
    };
    let check = |cf: &ClassFile, owner: &str, name: &str, descriptor: &str| {
        let m =
            cf.method(name, descriptor).unwrap_or_else(|| panic!("{owner}.{name}{descriptor} is missing"));
        let flags = access::PUBLIC | access::STATIC;
        assert_eq!(m.access_flags & flags, flags, "{owner}.{name}{descriptor} is public static");
    };
    let tracer = class(TRACER_CLASS);
    for kind in ProbeKind::ALL {
        let (name, descriptor) = kind.method();
        check(&tracer, TRACER_CLASS, name, descriptor);
    }
    let guards = class(GUARDS_CLASS);
    for r in REDIRECTS {
        let (name, descriptor) = match r.action {
            RedirectAction::ReplaceWith { name, descriptor }
            | RedirectAction::CheckLastArgBefore { name, descriptor }
            | RedirectAction::CheckArgUnderTopBefore { name, descriptor }
            | RedirectAction::PushArgAndRetarget { name, descriptor, .. } => (name, descriptor),
            RedirectAction::DenyBefore { name } => (name, "()V"),
        };
        check(&guards, GUARDS_CLASS, name, descriptor);
    }
    let (name, descriptor) = STUB_ANSWER_METHOD;
    check(&class(STUBS_CLASS), STUBS_CLASS, name, descriptor);
    let mutants = class(rt_abi::mutants::MUTANTS_CLASS);
    for schema in rt_abi::mutants::Schema::ALL {
        let (name, descriptor) = schema.method();
        check(&mutants, rt_abi::mutants::MUTANTS_CLASS, name, descriptor);
    }
}

/// Classes sent as bytes in `Setup` (how instrumented classes travel) are loaded and win over the
/// classpath.
#[test]
fn classes_sent_in_setup_are_loaded() {
    let bytes = std::fs::read(hostile_classes().join("hostile/Recursion.class")).unwrap();
    let mut c = config(3000);
    c.setup.classpath.clear();
    c.setup.classes = vec![("hostile.Recursion".into(), bytes)];
    let mut w = spawn(&c);
    let t = hostile_int("Recursion", "bounded", "I", 3);
    let runs = w.run_batch(&[TestRef { id: 0, statements: &t }]);
    assert_echo(&runs[0], 3);
    // A class neither sent nor on the classpath is the call site's failure, not a crash.
    let missing = hostile_int("Loop", "loopOn42", "I", 1);
    let runs = w.run_batch(&[TestRef { id: 1, statements: &missing }]);
    assert!(matches!(last_outcome(&runs[0]), Outcome::Threw { from_sut: false, .. }), "{runs:?}");
}

/// `execute_scored` gives the runs `execute` gives, and each normally finished test's score, once,
/// computed from its own result, on two workers and across a crash that retries the rest of a chunk
/// on a fresh worker; the crashed test gets no score.
#[test]
fn scored_execution_scores_each_finished_result_once() {
    let mut pool = Pool::new(config(3000), 2).unwrap();
    let exit = hostile_int("Exit", "exitIfPositive", "I", 3);
    let mut tests: Vec<Vec<Statement>> = (0..9).map(echo).collect();
    tests.insert(4, exit);
    let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let score = |r: &protocol::TestResult| {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        r.outcomes.last().cloned()
    };
    let started = Instant::now();
    let out = pool.execute_scored(&refs, None, &score).unwrap();
    assert!(out.workers_done >= started && out.workers_done <= Instant::now());
    assert_eq!(out.runs.len(), 10);
    assert!(matches!(&out.runs[4], TestRun::Crash { .. }), "{:?}", out.runs[4]);
    assert_eq!(out.scores[4], None);
    for (i, (run, s)) in out.runs.iter().zip(&out.scores).enumerate().filter(|(i, _)| *i != 4) {
        assert_eq!(s.as_ref().and_then(Option::as_ref), Some(last_outcome(run)), "test {i}");
    }
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 9, "one score per finished test");
}

/// The batch after the current one, put in `Pool::ahead`, is sent to each worker with the current
/// batch still running; asked for next, it is not sent again and its results are its own, also
/// after a worker died in the batch before (what was sent to it ahead is lost with it). A worker
/// sent a batch that is then not asked for is replaced, and the batch asked for runs normally.
#[test]
fn a_batch_sent_ahead_runs_once_and_a_stale_one_costs_the_worker() {
    let mut pool = Pool::new(config(3000), 2).unwrap();
    let ahead = pool.ahead();
    let batch = |from: i32, n: i32| -> Vec<Vec<Statement>> { (from..from + n).map(echo).collect() };
    let run = |pool: &mut Pool, tests: &[Vec<Statement>], next: Option<&Vec<Vec<Statement>>>| {
        *ahead.lock().unwrap() = worker::AheadSlot {
            batch: next.map(|n| std::sync::Arc::new(n.clone())),
            focus: None,
            first_sent: None,
        };
        let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
        let runs = pool.execute(&refs).unwrap();
        let slot = std::mem::take(&mut *ahead.lock().unwrap());
        (runs, slot.first_sent)
    };
    // A batch whose first worker dies on its fourth test; the next one was sent ahead.
    let mut a = batch(0, 20);
    a[3] = hostile_int("Exit", "exitIfPositive", "I", 3);
    let b = batch(100, 15);
    let (runs, sent) = run(&mut pool, &a, Some(&b));
    assert!(sent.is_some(), "the next batch was sent ahead");
    assert!(matches!(&runs[3], TestRun::Crash { .. }), "{:?}", runs[3]);
    for (i, r) in runs.iter().enumerate().filter(|(i, _)| *i != 3) {
        assert_echo(r, i as i32);
    }
    let spawned = pool.stats().spawned;
    let c = batch(200, 12);
    let (runs, sent) = run(&mut pool, &b, Some(&c));
    assert!(sent.is_some());
    for (i, r) in runs.iter().enumerate() {
        assert_echo(r, 100 + i as i32);
    }
    assert_eq!(pool.stats().spawned, spawned, "a batch sent ahead and then asked for costs no worker");
    // `c` was sent ahead, but `d` is asked for: both workers are replaced, `d` runs.
    let d = batch(300, 10);
    let (runs, sent) = run(&mut pool, &d, None);
    assert_eq!(sent, None);
    for (i, r) in runs.iter().enumerate() {
        assert_echo(r, 300 + i as i32);
    }
    assert_eq!(pool.stats().spawned, spawned + 2);
    // The same tests sent ahead with another focus (v12) are another request: replaced too.
    let e = batch(400, 10);
    *ahead.lock().unwrap() = worker::AheadSlot {
        batch: Some(std::sync::Arc::new(e.clone())),
        focus: Some(std::sync::Arc::from(Vec::new())),
        first_sent: None,
    };
    let refs: Vec<&[Statement]> = d.iter().map(Vec::as_slice).collect();
    pool.execute(&refs).unwrap();
    assert!(std::mem::take(&mut *ahead.lock().unwrap()).first_sent.is_some());
    let refs: Vec<&[Statement]> = e.iter().map(Vec::as_slice).collect();
    for (i, r) in pool.execute(&refs).unwrap().iter().enumerate() {
        assert_echo(r, 400 + i as i32);
    }
    assert_eq!(pool.stats().spawned, spawned + 4);
}
