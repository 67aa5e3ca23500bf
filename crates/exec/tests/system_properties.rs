//! Two executions in one worker are independent of the system properties either changes: the
//! worker restores them after every test and says which test changed them (docs/protocol.md, v16).
//! Before, `dse.symbolic.Props` cleared `file.separator` in one test and a later test of the same
//! worker read null, so a run's results depended on the order of its tests and on the number of
//! workers. Subject: `sysprops.Config` (fixtures/java/sysprops), whose methods set, clear, put and
//! replace properties that its other methods read.

use exec::{ExecResult, JvmExecutor};
use protocol::{Outcome, PrimType, Statement, Value, Var};
use worker::{Java, Pool, WorkerConfig};

const CONFIG: &str = "sysprops.Config";

/// A test of one call of a static method of `Config`; `int` is an argument to pass first.
fn call(name: &str, descriptor: &str, int: Option<i32>) -> Vec<Statement> {
    let mut out = Vec::new();
    if let Some(n) = int {
        out.push(Statement::Primitive { ty: PrimType::Int, bits: n as i64 as u64 });
    }
    let args = (0..out.len() as u16).map(Var).collect();
    out.push(Statement::Method {
        class: CONFIG.into(),
        name: name.into(),
        descriptor: descriptor.into(),
        is_static: true,
        receiver: None,
        args,
    });
    out
}

fn enable_debug() -> Vec<Statement> {
    call("enableDebug", "()V", None)
}

fn disable_debug() -> Vec<Statement> {
    call("disableDebug", "()V", None)
}

fn set_level(n: i32) -> Vec<Statement> {
    call("setLevel", "(I)V", Some(n))
}

fn isolate() -> Vec<Statement> {
    call("isolate", "()V", None)
}

fn mode() -> Vec<Statement> {
    call("mode", "()Ljava/lang/String;", None)
}

fn level() -> Vec<Statement> {
    call("level", "()I", None)
}

/// A test of `first`'s statements and then `then`'s (which take no arguments).
fn then(first: Vec<Statement>, then: Vec<Statement>) -> Vec<Statement> {
    let mut out = first;
    out.extend(then);
    out
}

/// A pool of one worker over the instrumented `sysprops.Config`.
fn executor() -> JvmExecutor {
    let cp = [test_support::fixture_classes("sysprops")];
    let db = test_support::open_db(&cp);
    let classes = ["sysprops/Config".to_string()];
    let subject = exec::prepare_in(&db, &cp, &classes, &instrument::Options::all(), 3000).expect("prepare");
    assert!(subject.unchanged.is_empty(), "{:?}", subject.unchanged);
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), subject.setup);
    JvmExecutor::new(Pool::new(config, 1).expect("pool"))
}

/// What the last statement of a run gave.
fn last(r: &ExecResult) -> &Outcome {
    r.outcomes.last().expect("a statement")
}

fn string(s: &str) -> Outcome {
    Outcome::Value(Value::String(s.into()))
}

/// A test that changes properties and one that reads them.
struct Case {
    what: &'static str,
    writer: Vec<Statement>,
    reader: Vec<Statement>,
    /// What the reader gives on its own.
    alone: Outcome,
    /// What the writer followed by the reader gives in one test.
    after: Outcome,
}

fn cases() -> Vec<Case> {
    let int = |n| Outcome::Value(Value::Int(n));
    vec![
        Case {
            what: "System.setProperty",
            writer: enable_debug(),
            reader: mode(),
            alone: string("normal"),
            after: string("debug"),
        },
        Case {
            what: "System.getProperties().put",
            writer: set_level(5),
            reader: level(),
            alone: int(0),
            after: int(3),
        },
        Case {
            what: "System.setProperties",
            writer: isolate(),
            reader: mode(),
            alone: string("normal"),
            after: string("debug"),
        },
    ]
}

#[test]
fn a_test_does_not_see_the_properties_an_earlier_test_changed() {
    let mut ex = executor();
    for Case { what, writer, reader, alone, after } in cases() {
        // In one batch, and in two batches on the same worker.
        let batch =
            ex.execute(&[writer.clone(), reader.clone(), then(writer, reader.clone())]).expect("runs");
        assert_eq!(last(&batch[1]), &alone, "{what}: the reader saw the writer's change");
        assert_eq!(last(&batch[2]), &after, "{what}: within one test the change is seen");
        let flags: Vec<bool> = batch.iter().map(|r| r.properties_changed).collect();
        assert_eq!(flags, [true, false, true], "{what}: which tests changed system properties");
        let again = ex.execute(std::slice::from_ref(&reader)).expect("runs");
        assert_eq!(last(&again[0]), &alone, "{what}: the next batch saw the change");
    }
}

/// Tests that only read the properties, or clear one that is not set, change nothing, and say so.
#[test]
fn tests_that_leave_the_properties_alone_say_so() {
    let mut ex = executor();
    let runs = ex.execute(&[disable_debug(), mode(), level()]).expect("runs");
    assert!(runs.iter().all(|r| !r.properties_changed), "{runs:?}");
    assert_eq!(last(&runs[1]), &string("normal"));
}
