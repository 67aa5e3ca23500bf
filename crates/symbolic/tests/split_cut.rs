//! The symbolic cut of `split` by a one-char separator, and `strip` and `Integer.parseInt` on
//! the pieces, checked against the JVM on the `parsers.Settings` fixture (`key=value;...`, the
//! key stripped and compared with "port", the value parsed): every branch entry of a replay
//! whose other side the replay did not cover is negated and solved, and each solved test must
//! cover that side in a real worker. A piece's length moving with the cut is what gets the key
//! (a piece of four chars where the test's had two) and the port (four digits where it had two).
//! A value holding a non-ASCII character that is no digit parses (and throws) without stopping.

mod common;

use std::collections::BTreeSet;

use exec::JvmExecutor;
use goals::{GoalId, PlanOptions, ProbePlan};
use protocol::{Outcome, Value};
use solver::{Outcome as Answer, Portfolio, Solver, SolverLimits};
use symbolic::{Concolic, SymConfig};
use worker::{Java, Pool, WorkerConfig};

#[test]
fn solved_cuts_take_the_other_side_in_the_jvm() {
    let dir = test_support::fixture_classes("parsers");
    let db = test_support::open_db(&[dir.clone(), test_support::java_base_jmod()]);
    let classes: Vec<String> =
        db.class_ids().map(|c| db.class_name(c).to_string()).filter(|n| n.starts_with("parsers/")).collect();
    let mut plan = ProbePlan::new();
    for c in db.class_ids().filter(|&c| db.class_name(c).starts_with("parsers/")) {
        plan.add_class_in(&db, c, &PlanOptions::all()).expect("fixture class plans");
    }
    let subject =
        exec::prepare_in(&db, std::slice::from_ref(&dir), &classes, &instrument::Options::all(), 5000)
            .expect("prepare");
    let model = fitness::GoalModel::build_in(&db, &subject.plan).expect("goal model");
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), subject.setup.clone());
    let mut ex = JvmExecutor::new(Pool::new(config, 1).expect("pool"));
    let mut concolic = Concolic::new(&db, &subject.plan, SymConfig::STANDARD);
    let mut solver = Portfolio::new(&SolverLimits::default(), 1);
    let (mut solved, mut failures, mut results) = (Vec::new(), Vec::new(), BTreeSet::new());
    for seed in ["ab=cd", "port=12", " x =7", "a;b=1", "Port=\u{e9}1"] {
        let (test, sym) = common::test_of(&format!("parsers.Settings.read(Ljava/lang/String;)I *\"{seed}\""));
        let mut r = concolic.run(&test, &sym);
        assert!(r.stop.is_none(), "{seed:?}: the replay stopped: {:?}", r.stop);
        for (_, goal, constraints) in common::branch_negations(&mut r) {
            if let Answer::Sat(m) = solver.solve(&r.arena, &constraints, &r.hint) {
                solved.push((seed, goal, common::substitute(&test, &r, &m)));
            }
        }
    }
    // A value longer than a number's digits with a non-digit among them: the implicit entries of
    // parseInt's loop (`i < length`, the digit checks) are negated as explorations are; one ends
    // the string before the non-digit, so that the value parses (a positive port, 2).
    let long = "port=1x345678901";
    let (test, sym) = common::test_of(&format!("parsers.Settings.read(Ljava/lang/String;)I *\"{long}\""));
    let mut r = concolic.run(&test, &sym);
    let mut explored = Vec::new();
    for i in (0..r.path.len()).filter(|&i| r.path[i].kind == symbolic::EntryKind::Implicit) {
        let mut constraints = r.prefix(i);
        constraints.push(r.arena.mk(solver::Op::Not, &[r.path[i].cond]));
        if let Answer::Sat(m) = solver.solve(&r.arena, &constraints, &r.hint) {
            explored.push(common::substitute(&test, &r, &m));
        }
    }
    let wires: Vec<_> = explored.iter().map(common::wire).collect();
    let number = |t: &testcase::TestCase| {
        t.statements.iter().any(|s| {
            matches!(s, testcase::Statement::String(s) if s.split_once('=').is_some_and(|(_, v)| {
                let v = v.trim();
                !v.is_empty() && v.len() < 10 && v.bytes().all(|b| b.is_ascii_digit())
            }))
        })
    };
    let outcomes = ex.execute(&wires).expect("execute");
    let parsed = explored
        .iter()
        .zip(&outcomes)
        .any(|(t, res)| number(t) && matches!(res.outcomes.last(), Some(Outcome::Value(_))));
    assert!(
        parsed,
        "no exploration of {long:?} parsed: {:?}",
        explored.iter().map(|t| t.to_text()).collect::<Vec<_>>()
    );
    let wires: Vec<_> = solved.iter().map(|(_, _, t)| common::wire(t)).collect();
    for ((seed, goal, t), res) in solved.iter().zip(ex.execute(&wires).expect("execute")) {
        let covered: BTreeSet<GoalId> = fitness::goal_fitness(&model, &res.trace).covered().collect();
        if let Some(Outcome::Value(Value::Int(v))) = res.outcomes.last() {
            results.insert(*v);
        }
        if !covered.contains(goal) {
            failures.push(format!("{seed:?}: {} does not cover {goal:?} in the JVM", t.to_text()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The key: "port" where the test's key had two chars (the cut moved), and the port 8080.
    let key = |t: &testcase::TestCase| {
        t.statements.iter().any(|s| {
            matches!(s, testcase::Statement::String(s)
                if s.split_once('=').is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case("port")))
        })
    };
    assert!(
        solved.iter().any(|(seed, _, t)| *seed == "ab=cd" && key(t)),
        "no key solved from \"ab=cd\": {:?}",
        solved.iter().map(|(s, _, t)| format!("{s}: {}", t.to_text())).collect::<Vec<_>>()
    );
    assert!(results.contains(&1), "no solved test read port 8080: {results:?} from {} tests", solved.len());
}
