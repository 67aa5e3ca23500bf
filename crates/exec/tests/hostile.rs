//! The hostile fixtures, instrumented by the class-file instrumenter and run through a real worker
//! pool: the engine survives each one, the outcome is classified, the next test on the same pool runs
//! normally, no file outside the scratch directory changes, and running the same tests again gives
//! identical outcomes and traces (static reset and deterministic time and randomness).

use exec::{ExecResult, ExecStatus, JvmExecutor};
use protocol::{Outcome, PrimType, Statement, Value, Var};
use worker::{Java, Pool, WorkerConfig};

/// Every class of the hostile fixtures, instrumented with all probes, guards and the static reset.
fn executor(workers: usize) -> JvmExecutor {
    executor_with_timeout(workers, 1500)
}

/// As `executor`, with a per-test timeout in milliseconds.
fn executor_with_timeout(workers: usize, timeout_ms: u32) -> JvmExecutor {
    let dir = test_support::fixture_classes("hostile");
    let entry = classfile::ClassPathEntry::open(&dir).expect("fixtures/classes/hostile");
    let names: Vec<String> = entry.class_names().map(str::to_owned).collect();
    let cp = [dir];
    let db = test_support::open_db(&cp);
    let subject =
        exec::prepare_in(&db, &cp, &names, &instrument::Options::all(), timeout_ms).expect("prepare");
    assert!(subject.unchanged.is_empty(), "left uninstrumented: {:?}", subject.unchanged);
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), subject.setup);
    JvmExecutor::new(Pool::new(config, workers).expect("pool"))
}

/// `class.method(args)` with args given as statements; the call is the last statement.
fn call(class: &str, method: &str, descriptor: &str, args: Vec<Statement>) -> Vec<Statement> {
    let n = args.len();
    let mut t = args;
    t.push(Statement::Method {
        class: format!("hostile.{class}"),
        name: method.into(),
        descriptor: descriptor.into(),
        is_static: true,
        receiver: None,
        args: (0..n).map(|i| Var(i as u16)).collect(),
    });
    t
}

fn int(v: i32) -> Statement {
    Statement::Primitive { ty: PrimType::Int, bits: v as i64 as u64 }
}

fn last(r: &ExecResult) -> &Outcome {
    r.outcomes.last().expect("a statement")
}

fn threw(r: &ExecResult) -> &str {
    match last(r) {
        Outcome::Threw { class, .. } => class,
        other => panic!("expected an exception, got {other:?} ({r:?})"),
    }
}

fn ok_int(v: i32) -> Outcome {
    Outcome::Value(Value::Int(v))
}

#[test]
fn escapes_are_guarded_and_the_pool_survives() {
    let mut ex = executor(1);
    let scratch_file = "inside-scratch.txt";
    let canary_dir = tempfile::tempdir().expect("tempdir");
    let canary = canary_dir.path().join("canary.txt");
    std::fs::write(&canary, "canary").expect("write canary");
    let canary_s = canary.display().to_string();
    let fresh = canary_dir.path().join("fresh.txt").display().to_string();
    // An unused loopback port: bind one, note it, close it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port() as i32;

    let tests: Vec<Vec<Statement>> = vec![
        call("Exit", "exitIfPositive", "(I)I", vec![int(3)]),
        call("Exit", "exitIfPositive", "(I)I", vec![int(0)]),
        call("Exit", "exitSwallowed", "(I)Ljava/lang/String;", vec![int(4)]),
        call("Halt", "halt", "(I)V", vec![int(5)]),
        call("Files", "delete", "(Ljava/lang/String;)Z", vec![Statement::string(&canary_s)]),
        call(
            "Files",
            "write",
            "(Ljava/lang/String;Ljava/lang/String;)I",
            vec![Statement::string(&canary_s), Statement::string("overwritten")],
        ),
        call("Files", "deleteNio", "(Ljava/lang/String;)V", vec![Statement::string(&canary_s)]),
        call("Files", "create", "(Ljava/lang/String;)Z", vec![Statement::string(&fresh)]),
        call(
            "Files",
            "writeTemp",
            "(Ljava/lang/String;Ljava/lang/String;)I",
            vec![Statement::string(scratch_file), Statement::string("fine")],
        ),
        call("Net", "connect", "(I)Ljava/lang/String;", vec![int(port)]),
        call("Net", "connectDirect", "(I)Ljava/lang/String;", vec![int(port)]),
        call("Stdin", "readByte", "()I", vec![]),
        call("Threads", "bomb", "(I)I", vec![int(1000)]),
        call("Recursion", "depth", "(I)I", vec![int(0)]),
        call("Recursion", "bounded", "(I)I", vec![int(10)]),
        // A relative name is refused even though a worker's working directory is its scratch
        // directory: in a written test it would be the user's project.
        call(
            "Files",
            "write",
            "(Ljava/lang/String;Ljava/lang/String;)I",
            vec![Statement::string(scratch_file), Statement::string("fine")],
        ),
    ];
    let rs = ex.execute(&tests).expect("execute");
    let status: Vec<ExecStatus> = rs.iter().map(|r| r.status).collect();
    use ExecStatus::{Guard, Normal};
    assert_eq!(
        status,
        [
            Guard, Normal, Guard, Guard, Guard, Guard, Guard, Guard, Guard, Guard, Guard, Normal, Guard,
            Normal, Normal, Guard
        ],
        "{rs:#?}"
    );
    // The statement during which a guard refused reports it, even when the SUT caught the error or
    // ignored a `false` (docs/protocol.md, Changes).
    let guarded = |i: usize, what: &str| match last(&rs[i]) {
        Outcome::Guard { what: w } => {
            assert!(w.starts_with(what), "test {i}: guard {w:?}, expected {what:?}")
        }
        other => panic!("test {i}: expected a guard, got {other:?}"),
    };
    guarded(0, "System.exit(3)");
    assert_eq!(last(&rs[1]), &ok_int(0));
    guarded(2, "Runtime.exit(4)");
    guarded(3, "Runtime.halt(5)");
    guarded(4, "File.delete(");
    guarded(5, "write ");
    guarded(6, "Files.delete(");
    guarded(7, "File.createNewFile(");
    // Writing inside the scratch directory is allowed (no `write` refusal), but a file kept in
    // `java.io.tmpdir` after the statement is refused as litter: for the user it would stay in /tmp.
    guarded(8, "a file left in java.io.tmpdir");
    guarded(9, "Socket.connect(");
    guarded(10, "socket");
    assert_eq!(last(&rs[11]), &ok_int(-1), "System.in is empty");
    guarded(12, "Thread.start");
    assert_eq!(threw(&rs[13]), "java.lang.StackOverflowError");
    assert_eq!(last(&rs[14]), &ok_int(10));
    guarded(15, "write ");
    // Nothing outside the scratch directory changed.
    assert_eq!(std::fs::read_to_string(&canary).unwrap(), "canary");
    assert!(!std::path::Path::new(&fresh).exists());
}

#[test]
fn runaway_tests_are_contained_and_the_next_test_runs() {
    // Filling the heap takes a while on a loaded machine: a timeout that leaves room for it.
    let mut ex = executor_with_timeout(1, 6000);
    let tests: Vec<Vec<Statement>> = vec![
        call("Loop", "block", "()I", vec![]),
        call("Loop", "loopOn42", "(I)I", vec![int(1)]),
        call("Allocation", "exhaustHeap", "()I", vec![]),
        call("Recursion", "bounded", "(I)I", vec![int(3)]),
        call("NativeCrash", "crash", "()V", vec![]),
        call("Recursion", "bounded", "(I)I", vec![int(4)]),
        call("Threads", "neverEnding", "()I", vec![]),
        call("Recursion", "bounded", "(I)I", vec![int(5)]),
    ];
    let rs = ex.execute(&tests).expect("execute");
    assert_eq!(rs[0].status, ExecStatus::Timeout, "{:?}", rs[0]);
    assert_eq!(last(&rs[1]), &ok_int(1));
    assert_eq!(threw(&rs[2]), "java.lang.OutOfMemoryError");
    assert_eq!(last(&rs[3]), &ok_int(3));
    assert_eq!(rs[4].status, ExecStatus::Crash, "{:?}", rs[4]);
    assert_eq!(last(&rs[5]), &ok_int(4));
    assert_eq!(last(&rs[6]), &ok_int(1), "the thread was started; the test itself returned");
    assert_eq!(last(&rs[7]), &ok_int(5));
}

/// A runaway loop in instrumented code is stopped by the per-test probe-hit limit (a guard, at the
/// same point on every run), also when the SUT catches the guard's error inside the loop; the worker
/// is kept and the next test runs in it. The timeout is long so that only the limit can stop them
/// (on a quiet machine it takes about 0.1-0.3 s; the time is printed).
#[test]
fn runaway_loops_hit_the_probe_limit() {
    let mut ex = executor_with_timeout(1, 60_000);
    let tests: Vec<Vec<Statement>> = vec![
        call("Loop", "loopOn42", "(I)I", vec![int(42)]),
        call("Loop", "loopOn42", "(I)I", vec![int(1)]),
        call("Loop", "loopCatching", "(I)I", vec![int(42)]),
    ];
    let rs = ex.execute(&tests).expect("execute");
    for i in [0, 2] {
        assert_eq!(rs[i].status, ExecStatus::Guard, "{:?}", rs[i]);
        match last(&rs[i]) {
            Outcome::Guard { what } => assert!(what.contains("probe hits"), "{what}"),
            other => panic!("expected a guard, got {other:?}"),
        }
        println!("test {i}: stopped after {} µs", rs[i].elapsed_us);
    }
    assert_eq!(last(&rs[1]), &ok_int(1));
}

/// Time, randomness and static state, each test twice in one batch, then the batch again on a fresh
/// pool of two workers: everything but timing must be identical.
#[test]
fn static_state_is_reset_and_time_and_randomness_are_deterministic() {
    let once: Vec<Vec<Statement>> = vec![
        call("StaticState", "next", "()I", vec![]),
        call("StaticState", "historySize", "()I", vec![]),
        call("TimeAndRandom", "millis", "()J", vec![]),
        call("TimeAndRandom", "nanos", "()J", vec![]),
        call("TimeAndRandom", "mathRandom", "()D", vec![]),
        call("TimeAndRandom", "newRandom", "()I", vec![]),
        call("TimeAndRandom", "uuid", "()Ljava/lang/String;", vec![]),
        call("TimeAndRandom", "now", "()Ljava/lang/String;", vec![]),
        call("TimeAndRandom", "evenSecond", "()Ljava/lang/String;", vec![]),
        call("TimeAndRandom", "identityHash", "()Ljava/lang/String;", vec![]),
    ];
    let tests: Vec<Vec<Statement>> = once.iter().chain(once.iter()).cloned().collect();
    let rs = executor(1).execute(&tests).expect("execute");
    for r in &rs {
        assert_eq!(r.status, ExecStatus::Normal, "{r:?}");
    }
    assert_eq!(last(&rs[0]), &ok_int(1));
    assert_eq!(last(&rs[1]), &ok_int(0), "the history was reset with the counter");
    let n = once.len();
    let strip = |r: &ExecResult| (r.outcomes.clone(), r.trace.clone(), r.stdout.clone());
    for i in 0..n {
        assert_eq!(strip(&rs[i]), strip(&rs[i + n]), "test {i} differs on its second run");
    }
    let again = executor(2).execute(&tests).expect("execute");
    for (i, (a, b)) in rs.iter().zip(&again).enumerate() {
        assert_eq!(strip(a), strip(b), "test {i} differs on a fresh pool");
    }
    // The traces are real: the static state's method was entered and its lines were hit.
    assert!(!rs[0].trace.hits.is_empty());
}

/// A class whose `<clinit>` throws: the worker initialises classes at set-up (docs/protocol.md), so the
/// class is erroneous before any test and every test sees the JVM's `NoClassDefFoundError`, the same
/// every time (a JVM rule no reset can undo).
#[test]
fn throwing_class_initializer_is_an_outcome() {
    let rs = executor(1)
        .execute(&[call("BadInit", "value", "()I", vec![]), call("BadInit", "value", "()I", vec![])])
        .expect("execute");
    assert_eq!(threw(&rs[0]), "java.lang.NoClassDefFoundError");
    assert_eq!((&rs[0].outcomes, &rs[0].trace), (&rs[1].outcomes, &rs[1].trace));
}

/// A file a statement leaves in `java.io.tmpdir` is refused at that statement, not at the test's
/// last one, though the worker lists the directory only after statements during which a guard let
/// a file operation through (and after the last): the test is cut there, and the next test finds
/// the directory empty.
#[test]
fn litter_is_refused_at_the_statement_that_left_it() {
    let mut ex = executor(1);
    let write_then_count = {
        let mut t = call(
            "Files",
            "writeTemp",
            "(Ljava/lang/String;Ljava/lang/String;)I",
            vec![Statement::string("left.txt"), Statement::string("kept")],
        );
        t.extend(call("Recursion", "bounded", "(I)I", vec![int(10)]).into_iter().map(|s| match s {
            Statement::Method { class, name, descriptor, is_static, receiver, .. } => {
                Statement::Method { class, name, descriptor, is_static, receiver, args: vec![Var(3)] }
            }
            other => other,
        }));
        t
    };
    let tests = vec![write_then_count, call("Recursion", "bounded", "(I)I", vec![int(10)])];
    let rs = ex.execute(&tests).expect("execute");
    assert_eq!(rs[0].status, ExecStatus::Guard, "{rs:#?}");
    assert!(
        rs[0].outcomes[3..].iter().all(|o| *o == Outcome::NotExecuted),
        "cut at the writing call: {rs:#?}"
    );
    assert!(
        matches!(&rs[0].outcomes[2], Outcome::Guard { what } if what.starts_with("a file left in java.io.tmpdir")),
        "{rs:#?}"
    );
    assert_eq!(rs[1].status, ExecStatus::Normal, "{rs:#?}");
    assert_eq!(last(&rs[1]), &ok_int(10));
}
