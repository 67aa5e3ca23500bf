//! UOI and RC weak-mutation goals scored from real worker traces: the mutation
//! fixture (`fixtures/java/mutation/Values.java`) instrumented with every probe, a few calls run
//! in a JVM, and every UOI/RC goal's fitness per test snapshotted. What the snapshot shows, and
//! the asserts check by name: `x + 1`, `x - 1` are infected for any int; `-x` is not for `x == 0`
//! (nor `-0.0` for a double 0); `f + 1`, `f - 1` are not for a float of magnitude 1e20 (they round
//! back to `f`) while `-f` is; RC goals are infected as soon as their constant runs, including
//! those served by an added hit-only probe (the ternary arms of `choose`).

use std::fmt::Write;
use std::path::Path;

use exec::{ExecStatus, JvmExecutor};
use expect_test::expect_file;
use fitness::{GoalModel, goal_fitness, goal_text};
use goals::{Goal, Mutant};
use protocol::{Setup, Statement, Var};
use worker::{Java, Pool, WorkerConfig};

const CLASS: &str = "mutation.Values";

fn call(label: &str, name: &str, descriptor: &str, args: Vec<Statement>) -> (String, Vec<Statement>) {
    let n = args.len();
    let label = label.to_string();
    let mut t = args;
    t.push(Statement::Method {
        class: CLASS.into(),
        name: name.into(),
        descriptor: descriptor.into(),
        is_static: true,
        receiver: None,
        args: (0..n as u16).map(Var).collect(),
    });
    (label, t)
}

#[test]
fn uoi_and_rc_infection_from_real_traces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let classes = root.join("fixtures/classes/mutation");
    let bytes = std::fs::read(classes.join("mutation/Values.class")).expect("Values.class");
    let (plan, out) = instrument::instrument_classes(&[&bytes], &instrument::Options::all());
    let (instrumented, report) = out.into_iter().next().expect("one class").expect("instrumented");
    assert!(report.unchanged.is_empty(), "{:?}", report.unchanged);
    let model =
        GoalModel::build(&plan, &[classfile::ClassFile::parse(&bytes).expect("parse")]).expect("model");

    let mut setup = Setup::empty();
    setup.classpath = vec![classes.canonicalize().expect("dir").display().to_string()];
    setup.classes = vec![(CLASS.into(), instrumented)];
    setup.probe_count = plan.n_probes() as u32;
    setup.class_ids = vec![(0, CLASS.into())];
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let pool =
        Pool::new(WorkerConfig::new(java, worker::runtime_jar().expect("jar"), setup), 1).expect("pool");
    let mut ex = JvmExecutor::new(pool);
    let mut fields =
        vec![Statement::Constructor { class: CLASS.into(), descriptor: "()V".into(), args: vec![] }];
    fields.push(Statement::Method {
        class: CLASS.into(),
        name: "fields".into(),
        descriptor: "()I".into(),
        is_static: false,
        receiver: Some(Var(0)),
        args: vec![],
    });
    let tests: Vec<(String, Vec<Statement>)> = vec![
        call("scaleInt(0)", "scaleInt", "(I)I", vec![Statement::int(0)]),
        call("scaleInt(5)", "scaleInt", "(I)I", vec![Statement::int(5)]),
        call("timesFloat(1e20f)", "timesFloat", "(F)F", vec![Statement::float(1.0e20)]),
        call("half(0.0)", "half", "(D)D", vec![Statement::double(0.0)]),
        call("choose(true)", "choose", "(Z)I", vec![Statement::boolean(true)]),
        call("choose(false)", "choose", "(Z)I", vec![Statement::boolean(false)]),
        call("constants()", "constants", "()J", vec![]),
        ("new Values().fields()".into(), fields),
    ];
    let cases: Vec<Vec<Statement>> = tests.iter().map(|(_, t)| t.clone()).collect();
    let results = ex.execute(&cases).expect("execute");
    for r in &results {
        assert_eq!(r.status, ExecStatus::Normal, "{r:?}");
    }
    let fit: Vec<_> = results.iter().map(|r| goal_fitness(&model, &r.trace)).collect();

    // One line per UOI/RC goal: its text, its source line, and its fitness under each test
    // (0 = killed; `.` = not reached, the reach cost is elided).
    let mut out = String::new();
    for (i, (label, _)) in tests.iter().enumerate() {
        let _ = writeln!(out, "t{i} = {label}");
    }
    let mut uoi_rc = 0;
    for g in model.goal_ids() {
        let Goal::WeakMutation { probe, mutant } = model.goal(g) else { continue };
        if !matches!(mutant, Mutant::InsertUnary(_) | Mutant::ReplaceConstant { .. }) {
            continue;
        }
        uoi_rc += 1;
        let p = plan.probe(*probe);
        let method = plan.method_of(*probe).map_or("?", |m| m.name.as_str());
        let _ = write!(out, "{:<28} {method}:L{}", goal_text(model.goal(g)), p.line.unwrap_or(0));
        for (f, r) in fit.iter().zip(&results) {
            let v = f.of(g);
            let hit = r.trace.is_hit(protocol::ProbeId(probe.0));
            let _ = write!(out, " {}", if !hit { ".".to_string() } else { format!("{v:.2}") });
        }
        out.push('\n');
    }
    assert!(uoi_rc > 0);
    expect_file![Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/mutation.fitness.txt")]
        .assert_eq(&out);

    // The cases the module comment names, by goal text, independently of the snapshot.
    let killed = |t: usize, text_prefix: &str, method: &str| -> Vec<bool> {
        model
            .goal_ids()
            .filter(|&g| goal_text(model.goal(g)).ends_with(text_prefix))
            .filter(|&g| {
                let Goal::WeakMutation { probe, .. } = model.goal(g) else { return false };
                plan.method_of(*probe).is_some_and(|m| m.name == method)
            })
            .map(|g| fit[t].is_covered(g))
            .collect()
    };
    // scaleInt(0): the load of x (0) and of y (0): +1/-1 killed, neg not.
    assert_eq!(killed(0, "uoi+1", "scaleInt"), [true, true]);
    assert_eq!(killed(0, "uoineg", "scaleInt"), [false, false]);
    assert_eq!(killed(1, "uoineg", "scaleInt"), [true, true]);
    // timesFloat(1e20f): f + 1 == f.
    assert_eq!(killed(2, "uoi+1", "timesFloat"), [false]);
    assert_eq!(killed(2, "uoineg", "timesFloat"), [true]);
    // half(0.0): -0.0 == 0.0.
    assert_eq!(killed(3, "uoineg", "half"), [false]);
    assert_eq!(killed(3, "uoi-1", "half"), [true]);
}
