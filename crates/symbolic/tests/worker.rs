//! The interpreter against the JVM: every test of `common::CASES` runs in a real worker on the
//! instrumented `dse` classes and in the interpreter over the same probe plan; the branch and
//! switch goals the worker's trace covers (fitness 0, as the search scores it) must be exactly the
//! goals the interpreter's run took, and the outcomes of the last statements must agree.

mod common;

use std::collections::BTreeSet;

use exec::JvmExecutor;
use goals::{Goal, GoalId};
use protocol::{Outcome, Value};
use symbolic::{Concolic, SymConfig};
use testcase::TestCase;
use worker::{Java, Pool, WorkerConfig};

/// The outcome as `Replay::outcomes` writes it.
pub fn text(o: &Outcome) -> String {
    match o {
        Outcome::Value(Value::Int(v)) => v.to_string(),
        Outcome::Value(Value::Long(v)) => format!("{v}L"),
        Outcome::Value(Value::Bool(b)) => i32::from(*b).to_string(),
        Outcome::Value(Value::String(s)) => format!("{s:?}"),
        Outcome::Threw { class, .. } => format!("threw {class}"),
        other => format!("{other:?}"),
    }
}

#[test]
fn covered_goals_equal_the_jvms() {
    let dse = test_support::fixture_classes("dse");
    let db = common::db();
    let classes: Vec<String> =
        db.class_ids().map(|c| db.class_name(c).to_string()).filter(|n| n.starts_with("dse/")).collect();
    let subject =
        exec::prepare_in(&db, std::slice::from_ref(&dse), &classes, &instrument::Options::all(), 5000)
            .expect("prepare");
    let model = fitness::GoalModel::build_in(&db, &subject.plan).expect("goal model");
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), subject.setup.clone());
    let mut ex = JvmExecutor::new(Pool::new(config, 1).expect("pool"));
    let tests: Vec<(TestCase, Vec<usize>)> = common::CASES.iter().map(|(s, _)| common::test_of(s)).collect();
    let results =
        ex.execute(&tests.iter().map(|(t, _)| common::wire(t)).collect::<Vec<_>>()).expect("execute");
    let branch = |g: &GoalId| matches!(subject.plan.goal(*g), Goal::Branch { .. } | Goal::SwitchCase { .. });
    let mut concolic = Concolic::new(&db, &subject.plan, SymConfig::STANDARD);
    let mut divergences = Vec::new();
    let mut goals_compared = 0;
    for (((t, sym), res), (spec, _)) in tests.iter().zip(&results).zip(common::CASES) {
        let jvm: BTreeSet<GoalId> =
            fitness::goal_fitness(&model, &res.trace).covered().filter(|g| branch(g)).collect();
        let r = concolic.run(t, sym);
        let ours: BTreeSet<GoalId> = r.covered.iter().copied().collect();
        goals_compared += jvm.len();
        let (jo, oo) = (
            res.outcomes.last().map(text).unwrap_or_default(),
            r.outcomes.last().cloned().unwrap_or_default(),
        );
        if jvm != ours || jo != oo {
            divergences.push(format!(
                "{spec}: jvm {jo} {:?}, interpreter {oo} {:?}",
                jvm.difference(&ours).collect::<Vec<_>>(),
                ours.difference(&jvm).collect::<Vec<_>>()
            ));
        }
    }
    eprintln!("{} tests, {goals_compared} covered branch goals compared", tests.len());
    assert!(divergences.is_empty(), "{} divergences:\n{}", divergences.len(), divergences.join("\n"));
    assert!(goals_compared > 100, "only {goals_compared} goals compared");
}

/// The clock the interpreter gives the classes under test is the workers' (`Setup` default).
#[test]
fn the_clock_base_is_the_workers() {
    assert_eq!(symbolic::TIME_BASE_MS, protocol::Setup::empty().time_base_ms);
}
