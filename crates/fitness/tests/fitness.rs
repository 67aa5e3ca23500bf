//! Fitness tests, data-driven: every `test_data/scenarios/*.trace` names fixture classes and holds
//! one or more hand-written traces (docs/protocol.md `Trace`, in a line format described in
//! `parse_traces`); the snapshot next to it (`*.fitness.txt`) is the per-goal fitness table (one
//! column per trace), the context goals, coverage per criterion and the whole-suite fitness.
//! `UPDATE_EXPECT=1` blesses. The model of each subject is snapshotted too (`*.model.txt`).

use std::fmt::Write;
use std::path::{Path, PathBuf};

use expect_test::expect_file;
use fitness::{GoalModel, context_fitness, context_goals, coverage, goal_fitness, goal_text, suite_fitness};
use goals::{Criterion, PlanOptions, ProbePlan};
use protocol::{Branch, ContextBranch, ProbeId, Trace};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn model_of(rel: &[&str]) -> GoalModel {
    let bytes: Vec<Vec<u8>> =
        rel.iter().map(|r| std::fs::read(root().join(r)).unwrap_or_else(|e| panic!("{r}: {e}"))).collect();
    // The hand-written scenario traces name probe ids of a plan without the UOI and RC probes of
    // weak mutation (added later; `tests/mutation.rs` scores those from real traces).
    let mut opts = PlanOptions::all();
    opts.values = false;
    opts.constants = false;
    let mut plan = ProbePlan::new();
    for b in &bytes {
        plan.add_class_bytes(b, &opts).expect("plan");
    }
    let parsed: Vec<classfile::ClassFile> =
        bytes.iter().map(|b| classfile::ClassFile::parse(b).expect("parse")).collect();
    GoalModel::build(&plan, &parsed).expect("model")
}

fn probe(s: &str) -> ProbeId {
    ProbeId(s.trim_start_matches('p').parse().unwrap_or_else(|_| panic!("bad probe {s}")))
}

fn num(s: &str) -> f64 {
    if s == "inf" { f64::INFINITY } else { s.parse().unwrap_or_else(|_| panic!("bad number {s}")) }
}

/// Raw operand bits: `f:1.5` a float (zero-extended bits), `d:1.5` a double, else an integer
/// (sign-extended).
fn operand(s: &str) -> u64 {
    if let Some(f) = s.strip_prefix("f:") {
        f.parse::<f32>().expect("float").to_bits() as u64
    } else if let Some(d) = s.strip_prefix("d:") {
        d.parse::<f64>().expect("double").to_bits()
    } else {
        s.parse::<i64>().expect("integer") as u64
    }
}

/// Parses a scenario: `classes <path>...` once, then traces separated by `---` lines, each with
/// `# comment`, `hit p1 p2*3 ...`, `branch p to_true to_false`, `switch p key...`,
/// `operands p a b`, `return p category...`, `exception p class`, `context site|- p t f`.
fn parse(text: &str) -> (Vec<String>, Vec<(String, Trace)>) {
    let mut classes = Vec::new();
    let mut traces = vec![(String::new(), Trace::default())];
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let (name, t) = traces.last_mut().expect("a trace");
        match w[0] {
            "classes" => classes.extend(w[1..].iter().map(|s| s.to_string())),
            "---" => traces.push((String::new(), Trace::default())),
            "#" => *name = line[1..].trim().to_string(),
            "hit" => {
                for h in &w[1..] {
                    let (p, n) = h.split_once('*').map_or((*h, 1), |(p, n)| (p, n.parse().expect("count")));
                    t.hits.push((probe(p), n));
                }
            }
            "branch" => {
                t.branches.push(Branch { probe: probe(w[1]), to_true: num(w[2]), to_false: num(w[3]) })
            }
            "switch" => {
                t.switches.push((probe(w[1]), w[2..].iter().map(|k| k.parse().expect("key")).collect()))
            }
            "operands" => {
                let p = probe(w[1]);
                let s = (operand(w[2]), operand(w[3]));
                match t.operands.iter_mut().find(|e| e.0 == p) {
                    Some(e) => e.1.push(s),
                    None => t.operands.push((p, vec![s])),
                }
            }
            "return" => {
                let bits = w[2..]
                    .iter()
                    .map(|c| match *c {
                        "negative" => Trace::RET_NEGATIVE,
                        "zero" => Trace::RET_ZERO,
                        "positive" => Trace::RET_POSITIVE,
                        "nan" => Trace::RET_NAN,
                        "null" => Trace::RET_NULL,
                        "non-null" => Trace::RET_NON_NULL,
                        "true" => Trace::RET_TRUE,
                        "false" => Trace::RET_FALSE,
                        "empty" => Trace::RET_EMPTY,
                        "non-empty" => Trace::RET_NON_EMPTY,
                        other => panic!("bad category {other}"),
                    })
                    .fold(0, |a, b| a | b);
                t.returns.push((probe(w[1]), bits));
            }
            "exception" => t.exceptions.push((probe(w[1]), w[2].to_string())),
            "context" => {
                let site = if w[1] == "-" { None } else { Some(probe(w[1])) };
                t.contexts.push(ContextBranch {
                    site,
                    probe: probe(w[2]),
                    to_true: num(w[3]),
                    to_false: num(w[4]),
                });
            }
            other => panic!("bad scenario line: {other}"),
        }
    }
    for (_, t) in &mut traces {
        t.hits.sort_by_key(|h| h.0);
        t.branches.sort_by_key(|b| b.probe);
        t.switches.sort_by_key(|s| s.0);
        t.operands.sort_by_key(|s| s.0);
        t.returns.sort_by_key(|s| s.0);
        t.exceptions.sort_by_key(|s| s.0);
        t.contexts.sort_by_key(|c| (c.site.map_or(u32::MAX, |s| s.0), c.probe));
    }
    (classes, traces)
}

fn fmt(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

fn check_scenario(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/scenarios");
    let text = std::fs::read_to_string(dir.join(format!("{name}.trace"))).expect("scenario");
    let (classes, traces) = parse(&text);
    let class_refs: Vec<&str> = classes.iter().map(String::as_str).collect();
    let model = model_of(&class_refs);
    let fits: Vec<_> = traces.iter().map(|(_, t)| goal_fitness(&model, t)).collect();
    let mut out = String::new();
    for (i, (n, _)) in traces.iter().enumerate() {
        let _ = writeln!(out, "t{i}: {n}");
    }
    for g in model.goal_ids() {
        let cols: Vec<String> = fits.iter().map(|f| fmt(f.of(g))).collect();
        let _ = writeln!(out, "{g} {}: {}", goal_text(model.goal(g)), cols.join(" | "));
    }
    for (i, (_, t)) in traces.iter().enumerate() {
        for cg in context_goals(&model, t) {
            let site = cg.site.map_or("-".to_string(), |s| s.to_string());
            let v = context_fitness(&model, t, cg, &fits[i]);
            let _ = writeln!(out, "t{i} context {site} {}: {}", goal_text(model.goal(cg.goal)), fmt(v));
        }
    }
    let refs: Vec<&Trace> = traces.iter().map(|(_, t)| t).collect();
    out.push_str("coverage:\n");
    out.push_str(&coverage(&model, &refs).summary());
    let s = suite_fitness(&model, &refs);
    let all = Criterion::ALL;
    let _ = writeln!(
        out,
        "suite fitness: branch {} line {} weak-mutation {} output {} method {} method-no-exception {} exception {} total {}",
        fmt(s.branch),
        fmt(s.line),
        fmt(s.weak_mutation),
        fmt(s.output),
        fmt(s.method),
        fmt(s.method_no_exception),
        fmt(s.exception),
        fmt(s.total(&all)),
    );
    expect_file![dir.join(format!("{name}.fitness.txt"))].assert_eq(&out);
}

fn check_model(class: &str, snapshot: &str) {
    let m = model_of(&[class]);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(snapshot);
    expect_file![path].assert_eq(&m.dump());
}

#[test]
fn model_of_triangle() {
    check_model("examples/classes/example/Triangle.class", "Triangle.model.txt");
}

#[test]
fn model_of_nested_ifs() {
    check_model("fixtures/classes/analysis/analysis/NestedIfs.class", "NestedIfs.model.txt");
}

#[test]
fn model_of_loops() {
    check_model("fixtures/classes/analysis/analysis/Loops.class", "Loops.model.txt");
}

#[test]
fn model_of_switches() {
    check_model("fixtures/classes/analysis/analysis/Switches.class", "Switches.model.txt");
}

#[test]
fn scenario_triangle() {
    check_scenario("triangle");
}

#[test]
fn scenario_nested_ifs() {
    check_scenario("nested_ifs");
}

#[test]
fn scenario_switches() {
    check_scenario("switches");
}

#[test]
fn scenario_loops() {
    check_scenario("loops");
}

/// TMC/NTMC from statements and outcomes: a normal return covers both goals, an exception from
/// inside the method only the entry, a call that never entered (null receiver) neither, and
/// nothing after the first exception counts.
#[test]
fn direct_calls_of_triangle() {
    use fitness::direct_calls;
    use protocol::{Outcome, Statement, Value, Var};
    let m = model_of(&["examples/classes/example/Triangle.class"]);
    let classify = Statement::Method {
        class: "example.Triangle".into(),
        name: "classify".into(),
        descriptor: "(III)Lexample/Triangle$Kind;".into(),
        is_static: true,
        receiver: None,
        args: vec![Var(0), Var(0), Var(0)],
    };
    let ctor =
        Statement::Constructor { class: "example.Triangle".into(), descriptor: "()V".into(), args: vec![] };
    let threw = |from_sut| Outcome::Threw {
        class: "java.lang.RuntimeException".into(),
        message: String::new(),
        from_sut,
        thrown_in: String::new(),
        top_frame: String::new(),
    };
    let ok = Outcome::Value(Value::Int(1));
    let cases: Vec<(&str, Vec<Statement>, Vec<Outcome>)> = vec![
        ("returns", vec![Statement::int(1), classify.clone()], vec![ok.clone(), ok.clone()]),
        ("throws inside", vec![Statement::int(1), classify.clone()], vec![ok.clone(), threw(true)]),
        ("call failed", vec![Statement::int(1), classify.clone()], vec![ok.clone(), threw(false)]),
        (
            "after an exception",
            vec![Statement::int(1), ctor.clone(), classify.clone()],
            vec![ok.clone(), threw(true), ok.clone()],
        ),
        (
            "constructor then method",
            vec![ctor, Statement::int(1), classify],
            vec![ok.clone(), ok.clone(), ok],
        ),
    ];
    let mut out = String::new();
    for (name, st, oc) in cases {
        let d = direct_calls(&m, &st, &oc);
        let called: Vec<String> = d.called.iter().map(|g| goal_text(m.goal(*g))).collect();
        let returned: Vec<String> = d.returned.iter().map(|g| goal_text(m.goal(*g))).collect();
        let _ = writeln!(out, "{name}: called [{}] returned [{}]", called.join(", "), returned.join(", "));
    }
    expect_test::expect![[r#"
        returns: called [method-entry c0 m1] returned [method-normal-exit c0 m1]
        throws inside: called [method-entry c0 m1] returned []
        call failed: called [] returned []
        after an exception: called [method-entry c0 m0] returned []
        constructor then method: called [method-entry c0 m0, method-entry c0 m1] returned [method-normal-exit c0 m0, method-normal-exit c0 m1]
    "#]].assert_eq(&out);
}
