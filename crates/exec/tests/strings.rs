//! String comparisons in instrumented code are redirected to guards that compare as the JDK does
//! and report both operands in `Trace::strings` (docs/protocol.md v2), which feed the engine's
//! dynamic value pool: a string `switch` (javac: `hashCode()` then `equals`) on the behaviour
//! fixture shows the case labels it compared against.

use exec::JvmExecutor;
use protocol::{Outcome, Statement, Value, Var};
use worker::{Java, Pool, WorkerConfig};

fn switch_on(s: &str) -> Vec<Statement> {
    vec![
        Statement::String { value: s.into() },
        Statement::Method {
            class: "behaviour.Switches".into(),
            name: "strings".into(),
            descriptor: "(Ljava/lang/String;)I".into(),
            is_static: true,
            receiver: None,
            args: vec![Var(0)],
        },
    ]
}

#[test]
fn string_comparisons_are_reported_and_unchanged() {
    let dir = test_support::fixture_classes("behaviour");
    let classes = vec!["behaviour/Switches".to_string()];
    let cp = [dir];
    let db = test_support::open_db(&cp);
    let subject = exec::prepare_in(&db, &cp, &classes, &instrument::Options::all(), 3000).expect("prepare");
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), subject.setup);
    let mut ex = JvmExecutor::new(Pool::new(config, 1).expect("pool"));
    // "Aa" and "BB" share a hash code: javac compares with "BB" first, then "Aa"; "zeta" matches
    // no bucket and is never compared.
    let tests = vec![switch_on("alpha"), switch_on("Aa"), switch_on("zeta")];
    let rs = ex.execute(&tests).expect("execute");
    let results: Vec<&Outcome> = rs.iter().map(|r| r.outcomes.last().expect("outcome")).collect();
    let int = |v: i32| Outcome::Value(Value::Int(v));
    assert_eq!(results, [&int(1), &int(3), &int(0)]);
    assert_eq!(rs[0].trace.strings, ["alpha"]);
    assert_eq!(rs[1].trace.strings, ["Aa", "BB"]);
    assert!(rs[2].trace.strings.is_empty(), "{:?}", rs[2].trace.strings);
}
