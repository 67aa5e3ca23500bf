//! End to end through a real JVM: `example.Triangle` instrumented with the same plan the model is
//! built from, `classify` run on the scenarios of `test_data/scenarios/triangle.trace`; the real
//! traces must score every goal exactly as the hand-written traces do (which checks the hand
//! traces against the runtime, and the fitness functions against real data), and the suite's
//! coverage is snapshotted.

use std::path::Path;

use exec::{ExecStatus, JvmExecutor};
use expect_test::expect;
use fitness::{GoalModel, coverage, goal_fitness, goal_text};
use protocol::{Setup, Statement, Trace, Var};
use worker::{Java, Pool, WorkerConfig};

fn classify(a: i32, b: i32, c: i32) -> Vec<Statement> {
    vec![
        Statement::int(a),
        Statement::int(b),
        Statement::int(c),
        Statement::Method {
            class: "example.Triangle".into(),
            name: "classify".into(),
            descriptor: "(III)Lexample/Triangle$Kind;".into(),
            is_static: true,
            receiver: None,
            args: vec![Var(0), Var(1), Var(2)],
        },
    ]
}

#[test]
fn triangle_in_a_real_jvm_scores_like_the_hand_written_traces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let classes = root.join("examples/classes");
    let bytes = std::fs::read(classes.join("example/Triangle.class")).expect("Triangle.class");
    // The hand-written traces name probe ids of a plan without the UOI and RC probes of weak
    // mutation (added later; `tests/mutation.rs` scores those from real traces).
    let mut opts = instrument::Options::all();
    opts.plan.values = false;
    opts.plan.constants = false;
    let (plan, out) = instrument::instrument_classes(&[&bytes], &opts);
    let (instrumented, _) = out.into_iter().next().expect("one class").expect("instrumented");
    let model =
        GoalModel::build(&plan, &[classfile::ClassFile::parse(&bytes).expect("parse")]).expect("model");

    let mut setup = Setup::empty();
    setup.classpath = vec![classes.canonicalize().expect("dir").display().to_string()];
    setup.classes = vec![("example.Triangle".into(), instrumented)];
    setup.probe_count = plan.n_probes() as u32;
    setup.class_ids = vec![(0, "example.Triangle".into())];
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let pool =
        Pool::new(WorkerConfig::new(java, worker::runtime_jar().expect("jar"), setup), 1).expect("pool");
    let mut ex = JvmExecutor::new(pool);
    let tests = [classify(0, 1, 1), classify(3, 4, 5), classify(2, 2, 2)];
    let results = ex.execute(&tests).expect("execute");
    for r in &results {
        assert_eq!(r.status, ExecStatus::Normal, "{r:?}");
    }

    // The hand-written traces of the scenario file, scored by the same model.
    let hand = hand_traces(&root.join("crates/fitness/test_data/scenarios/triangle.trace"));
    assert_eq!(hand.len(), results.len());
    for (i, (r, h)) in results.iter().zip(&hand).enumerate() {
        let real = goal_fitness(&model, &r.trace);
        let expected = goal_fitness(&model, h);
        for g in model.goal_ids() {
            assert_eq!(
                real.of(g),
                expected.of(g),
                "test {i}, {g} {}: real trace {:?}",
                goal_text(model.goal(g)),
                r.trace
            );
        }
    }
    // Every test calls `classify` directly and it returns: both top-level method goals.
    for (t, r) in tests.iter().zip(&results) {
        let d = fitness::direct_calls(&model, t, &r.outcomes);
        let names: Vec<String> =
            d.called.iter().chain(&d.returned).map(|g| goal_text(model.goal(*g))).collect();
        assert_eq!(names, ["method-entry c0 m1", "method-normal-exit c0 m1"]);
    }
    let traces: Vec<&Trace> = results.iter().map(|r| &r.trace).collect();
    expect![[r#"
        Line: 7/9
        Branch: 13/22
        WeakMutation: 46/73
        Output: 1/2
        Method: 1/2
        MethodNoException: 1/2
        ContextBranch: 13/22
    "#]]
    .assert_eq(&coverage(&model, &traces).summary());
}

/// A minimal reader of the scenario format (`tests/fitness.rs` has the full one): only the lines
/// the Triangle scenario uses.
fn hand_traces(path: &Path) -> Vec<Trace> {
    let text = std::fs::read_to_string(path).expect("scenario");
    let mut out = vec![Trace::default()];
    let p = |s: &str| protocol::ProbeId(s.trim_start_matches('p').parse().expect("probe"));
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let t = out.last_mut().expect("trace");
        match w.first().copied() {
            Some("---") => out.push(Trace::default()),
            Some("hit") => t.hits.extend(w[1..].iter().map(|h| {
                let (q, n) = h.split_once('*').map_or((*h, 1), |(q, n)| (q, n.parse().expect("n")));
                (p(q), n)
            })),
            Some("branch") => t.branches.push(protocol::Branch {
                probe: p(w[1]),
                to_true: w[2].parse().expect("t"),
                to_false: w[3].parse().expect("f"),
            }),
            Some("operands") => t.operands.push((
                p(w[1]),
                vec![(w[2].parse::<i64>().expect("a") as u64, w[3].parse::<i64>().expect("b") as u64)],
            )),
            Some("return") => t.returns.push((p(w[1]), Trace::RET_NON_NULL)),
            _ => {}
        }
    }
    for t in &mut out {
        t.hits.sort_by_key(|h| h.0);
    }
    out
}
