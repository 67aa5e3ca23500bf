//! An enum's `valueOf` traces the same in a worker's first test as after other tests: the JDK
//! fills an enum's table of constants on first use by calling its `values()`, once per JVM, so
//! without the worker filling it at set-up the first `valueOf` of each JVM traced `values()` and
//! later ones did not, and a seed's run differed between one worker and two (`example.Triangle`,
//! seed 7: the second worker's first test was `Kind.valueOf(null)`).

use exec::{ExecResult, JvmExecutor};
use protocol::{Statement, Var};
use worker::{Java, Pool, WorkerConfig};

const KIND: &str = "example.Triangle$Kind";

fn value_of(name: Option<&str>) -> Vec<Statement> {
    let arg = match name {
        Some(s) => Statement::string(s),
        None => Statement::Null { ty: "java.lang.String".into() },
    };
    vec![
        arg,
        Statement::Method {
            class: KIND.into(),
            name: "valueOf".into(),
            descriptor: "(Ljava/lang/String;)Lexample/Triangle$Kind;".into(),
            is_static: true,
            receiver: None,
            args: vec![Var(0)],
        },
    ]
}

fn values() -> Vec<Statement> {
    vec![Statement::Method {
        class: KIND.into(),
        name: "values".into(),
        descriptor: "()[Lexample/Triangle$Kind;".into(),
        is_static: true,
        receiver: None,
        args: vec![],
    }]
}

/// A pool of one worker over the instrumented `example.Triangle` and its `Kind`.
fn executor() -> JvmExecutor {
    let cp = [test_support::workspace_root().join("examples/classes")];
    let db = test_support::open_db(&cp);
    let classes = ["example/Triangle".to_string(), "example/Triangle$Kind".to_string()];
    let subject = exec::prepare_in(&db, &cp, &classes, &instrument::Options::all(), 3000).expect("prepare");
    assert!(subject.unchanged.is_empty(), "{:?}", subject.unchanged);
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), subject.setup);
    JvmExecutor::new(Pool::new(config, 1).expect("pool"))
}

fn run(ex: &mut JvmExecutor, tests: &[Vec<Statement>]) -> Vec<ExecResult> {
    ex.execute(tests).expect("the worker runs the tests")
}

#[test]
fn value_of_traces_the_same_first_in_a_jvm_and_after_another_value_of() {
    let mut ex = executor();
    let first = run(&mut ex, &[value_of(None)]).remove(0);
    let later = run(&mut ex, &[value_of(Some("SCALENE")), value_of(None)]);
    assert_eq!(first.outcomes, later[1].outcomes);
    assert_eq!(first.trace, later[1].trace, "the first valueOf of a JVM traced something more");
    // The same holds for a name that is a constant, and a test of its own `values()` still traces it.
    let again = run(&mut ex, &[value_of(Some("SCALENE"))]);
    assert_eq!(again[0].trace, later[0].trace);
    let own = run(&mut ex, &[values()]).remove(0);
    assert!(!own.trace.hits.is_empty(), "values() called by a test is traced: {:?}", own.trace);
    let probes = |r: &ExecResult| r.trace.hits.iter().map(|&(p, _)| p).collect::<Vec<_>>();
    assert!(
        probes(&own).iter().all(|p| !probes(&first).contains(p)),
        "valueOf traced a line of values(): {:?} and {:?}",
        first.trace,
        own.trace
    );
}
