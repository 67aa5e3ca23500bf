//! The classes of the user's classpath other than those under test get the containment
//! guards when they call a redirected method. `sandbox.Stamper` reads the clock and deletes files
//! through `sandbox.Ledger`, a package-private helper outside its nest: in the workers the deletion
//! is refused (the canary stays), the clock is the workers' deterministic one, and the helper links
//! with its package-mate although it is defined from the bytes the engine sent.

use exec::{ExecResult, ExecStatus, JvmExecutor};
use protocol::{Outcome, PrimType, Statement, Value, Var};
use worker::{Java, Pool, WorkerConfig};

fn executor(subject: exec::Subject) -> JvmExecutor {
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), subject.setup);
    JvmExecutor::new(Pool::new(config, 1).expect("pool"))
}

fn prepare() -> exec::Subject {
    let dir = test_support::fixture_classes("sandbox");
    let cp = [dir];
    let db = test_support::open_db(&cp);
    exec::prepare_in(&db, &cp, &["sandbox/Stamper".to_string()], &instrument::Options::all(), 3000)
        .expect("prepare")
}

/// `new Stamper(path).method(n)`: the call is the last statement.
fn on_stamper(path: &str, method: &str, descriptor: &str, n: Statement) -> Vec<Statement> {
    vec![
        Statement::string(path),
        Statement::Constructor {
            class: "sandbox.Stamper".into(),
            descriptor: "(Ljava/lang/String;)V".into(),
            args: vec![Var(0)],
        },
        n,
        Statement::Method {
            class: "sandbox.Stamper".into(),
            name: method.into(),
            descriptor: descriptor.into(),
            is_static: false,
            receiver: Some(Var(1)),
            args: vec![Var(2)],
        },
    ]
}

fn int(v: i32) -> Statement {
    Statement::Primitive { ty: PrimType::Int, bits: v as i64 as u64 }
}

fn long(v: i64) -> Statement {
    Statement::Primitive { ty: PrimType::Long, bits: v as u64 }
}

fn last(r: &ExecResult) -> &Outcome {
    r.outcomes.last().expect("a statement")
}

#[test]
fn the_helpers_of_the_class_under_test_are_guarded() {
    let subject = prepare();
    // Every other class of the area calls a redirected method; the class under test is not among
    // them (it is instrumented in full).
    assert_eq!(
        subject.dependencies,
        ["sandbox.Exits", "sandbox.Janitor", "sandbox.Ledger", "sandbox.Quitter", "sandbox.Varying"]
    );
    assert_eq!(subject.scanned, 5, "every class of the area but the one under test");
    assert!(subject.unchanged.is_empty(), "{:?}", subject.unchanged);
    assert_eq!(subject.setup.class_ids, [(0, "sandbox.Stamper".to_string())], "the helpers get no class id");
}

#[test]
fn a_deletion_through_a_helper_is_refused_in_the_workers() {
    let canary_dir = tempfile::tempdir().expect("tempdir");
    let canary = canary_dir.path().join("canary.txt");
    std::fs::write(&canary, "canary").expect("write canary");
    let canary_s = canary.display().to_string();
    let mut ex = executor(prepare());
    let tests = vec![
        on_stamper(&canary_s, "discard", "(I)Z", int(5)),
        on_stamper(&canary_s, "discard", "(I)Z", int(1)),
        on_stamper(&canary_s, "stamp", "(I)J", int(5)),
        on_stamper(&canary_s, "stamp", "(I)J", int(5)),
        on_stamper(&canary_s, "matches", "(J)I", long(0)),
    ];
    let rs = ex.execute(&tests).expect("execute");
    assert_eq!(rs[0].status, ExecStatus::Guard, "{:?}", rs[0]);
    match last(&rs[0]) {
        Outcome::Guard { what } => assert!(what.starts_with("File.delete("), "{what}"),
        other => panic!("expected the guard, got {other:?}"),
    }
    assert_eq!(std::fs::read_to_string(&canary).expect("the canary survives"), "canary");
    assert_eq!(rs[1].status, ExecStatus::Normal, "{:?}", rs[1]);
    assert_eq!(last(&rs[1]), &Outcome::Value(Value::Bool(false)));
    // The helper's clock is the workers': the same value in every test (it restarts per test), and
    // not the real time's milliseconds.
    assert_eq!(rs[2].status, ExecStatus::Normal, "{:?}", rs[2]);
    assert_eq!(last(&rs[2]), last(&rs[3]), "the clock restarts in each test");
    let base = protocol::Setup::empty().time_base_ms;
    match last(&rs[2]) {
        Outcome::Value(Value::Long(v)) => assert!((base % 1000..base % 1000 + 10).contains(v), "{v}"),
        other => panic!("expected a long, got {other:?}"),
    }
    assert_eq!(last(&rs[4]), &Outcome::Value(Value::Int(0)), "0 is before the workers' clock");
}

#[test]
fn the_test_frameworks_are_not_guarded() {
    // JUnit 4's runner exits (`JUnitCore.main`) and starts threads (timeouts): on a user's
    // classpath it would be selected, and a guarded copy would shadow the verification's runner.
    let junit = std::path::PathBuf::from("/usr/share/java/junit4.jar");
    let cp =
        classfile::ClassPath::open(&[test_support::fixture_classes("sandbox"), junit]).expect("classpath");
    let deps = exec::guard_dependencies(&cp, &["sandbox/Stamper".to_string()]).expect("scan");
    let names: Vec<&str> = deps.classes.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["sandbox.Exits", "sandbox.Janitor", "sandbox.Ledger", "sandbox.Quitter", "sandbox.Varying"]
    );
    assert_eq!(deps.scanned, 5, "JUnit's classes are not even read");
}
