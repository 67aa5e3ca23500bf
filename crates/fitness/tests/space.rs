//! The goal space (`fitness::GoalSpace`) on fixture classes, with hand-made traces and no JVM: the
//! goals selected with their criterion, method, text and releases, the goals the set-up covers,
//! context goals registered as traces reveal them, and the coverage of the goals only class
//! initialisation reaches. `UPDATE_EXPECT=1` blesses the snapshots.

use std::fmt::Write;
use std::path::Path;

use classfile::ClassFile;
use expect_test::{expect, expect_file};
use fitness::{ClassLoading, GoalIdx, GoalModel, GoalSpace};
use goals::{Criterion, PlanOptions, ProbeKind, ProbePlan};
use protocol::{ContextBranch, Outcome, ProbeId, Trace, Value};

/// The space of the fixture classes `names` (under fixtures/classes, CUT first) over `criteria`,
/// with `init` as the workers' set-up trace.
fn space_of(names: &[&str], criteria: &[Criterion], init: &Trace) -> GoalSpace {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes");
    let files: Vec<ClassFile> = names
        .iter()
        .map(|n| {
            let bytes = std::fs::read(root.join(format!("{n}.class"))).unwrap_or_else(|e| panic!("{n}: {e}"));
            ClassFile::parse(&bytes).expect("parses")
        })
        .collect();
    let mut plan = ProbePlan::new();
    for f in &files {
        plan.add_class(f, &PlanOptions::all()).expect("plan");
    }
    let cut = names[0].split_once('/').map_or(names[0], |(_, rest)| rest);
    let area = names[0].split_once('/').map_or(names[0], |(area, _)| area);
    let db = test_support::open_db(&[root.join(area)]);
    let loading = ClassLoading::read(&db, cut, &plan);
    let model = GoalModel::build(&plan, &files).expect("model");
    GoalSpace::new(model, criteria, loading, init)
}

/// One line per goal (index, method, text, the goals it releases), the roots, and the goals left
/// to class initialisation.
fn dump(space: &GoalSpace) -> String {
    let mut out = String::new();
    let roots: Vec<String> = space.roots().iter().map(GoalIdx::to_string).collect();
    let _ = writeln!(out, "roots: {}", roots.join(" "));
    for g in space.goals() {
        let method = space.method(g).map_or("-", |m| m.name.as_str());
        let released: Vec<String> = space.released_by(g).iter().map(GoalIdx::to_string).collect();
        let _ = writeln!(out, "{g} [{method}] {} -> [{}]", space.text(g), released.join(" "));
    }
    for &g in space.init_goals() {
        let _ = writeln!(out, "init: {}", fitness::goal_text(space.model().goal(g)));
    }
    out
}

/// An enum's constants are made in `<clinit>`: their line goals, and the switch map javac
/// generates (`Direction$1`, all `<clinit>`), are left to class initialisation; the rest is
/// searched, each goal under the branches that control it.
#[test]
fn goals_of_an_enum() {
    let space = space_of(
        &["search/search/Direction", "search/search/Direction$1"],
        &[Criterion::Line, Criterion::Branch, Criterion::Method],
        &Trace::default(),
    );
    assert_eq!(space.n_goals(), space.selected().len(), "no context goals without the criterion");
    let g0 = GoalIdx::new(0);
    assert_eq!(space.class(g0), "search/Direction");
    assert_eq!(space.location(g0), ("search/Direction.values".to_string(), None));
    expect_file!["../test_data/space/Direction.space.txt"].assert_eq(&dump(&space));
}

/// The probe of `kind` in `method` (the first in id order).
fn probe_in(space: &GoalSpace, method: &str, kind: ProbeKind) -> ProbeId {
    let plan = space.model().plan();
    let i = (0..plan.n_probes() as u32)
        .find(|&p| {
            plan.probe(ProbeId(p)).kind == kind
                && plan.method_of(ProbeId(p)).is_some_and(|m| m.name == method)
        })
        .unwrap_or_else(|| panic!("no {kind:?} probe in {method}"));
    ProbeId(i)
}

fn context(site: Option<ProbeId>, probe: ProbeId, to_true: f64, to_false: f64) -> Trace {
    Trace { contexts: vec![ContextBranch { site, probe, to_true, to_false }], ..Trace::default() }
}

/// The space of `context/Calls` over Branch and ContextBranch: the space, its static goal count,
/// `check`'s branch probe and `a`'s call site.
fn calls() -> (GoalSpace, usize, ProbeId, ProbeId) {
    let space = space_of(
        &["context/context/Calls"],
        &[Criterion::Branch, Criterion::ContextBranch],
        &Trace::default(),
    );
    let statics = space.n_goals();
    let branch = probe_in(&space, "check", ProbeKind::BranchZero);
    let from_a = probe_in(&space, "a", ProbeKind::CallSite);
    (space, statics, branch, from_a)
}

/// Context goals exist once a trace shows a branch evaluated in a context: both sides, appended in
/// the order the traces reveal them, each once; their fitness comes after the static goals'.
#[test]
fn context_goals_are_registered_as_traces_reveal_them() {
    let (mut space, statics, branch, from_a) = calls();
    let direct = context(None, branch, 0.0, 3.0);
    let in_a = context(Some(from_a), branch, 2.0, 0.0);

    assert_eq!(space.discover(&direct), 2);
    assert_eq!(space.discover(&direct), 0, "a context is registered once");
    assert_eq!(space.discover(&in_a), 2);
    assert_eq!(space.n_goals(), statics + 4);
    let found: Vec<String> =
        space.goals().skip(statics).map(|g| format!("{:?} {}", space.criterion(g), space.text(g))).collect();
    expect![[r#"
        ContextBranch context-branch direct branch p7 taken (context/Calls:12)
        ContextBranch context-branch direct branch p7 not-taken (context/Calls:12)
        ContextBranch context-branch p18@context/Calls:20 branch p7 taken (context/Calls:12)
        ContextBranch context-branch p18@context/Calls:20 branch p7 not-taken (context/Calls:12)"#]]
    .assert_eq(&found.join("\n"));

    let values = space.fitness(&in_a);
    assert_eq!(values.len(), space.n_goals());
    expect!["[3.0, 3.0, 0.6666666666666666, 0.0]"].assert_eq(&format!("{:?}", &values[statics..]));
    let coverage: Vec<String> = space
        .coverage(&[&in_a])
        .iter()
        .map(|c| format!("{:?} {}/{}", c.criterion, c.covered, c.total))
        .collect();
    expect![[r#"
        Branch 0/2, ContextBranch 1/4"#]]
    .assert_eq(&coverage.join(", "));
}

/// Path goals (SUSHI) and context goals share the positions after the static goals, in the order
/// they were registered or found; a path goal's value is its condition's distance from the trace
/// (`norm` of the best call's total; 1 when the entry was not called), and it is no criterion's
/// coverage.
#[test]
fn path_goals_interleave_with_context_goals() {
    let (mut space, statics, branch, from_a) = calls();
    let b0 = space.goal_id(GoalIdx::new(0));
    assert_eq!(space.discover(&context(None, branch, 0.0, 3.0)), 2);
    let path = |pc: u32| fitness::PathGoal { pc, branches: vec![b0], entry: "context/Calls.a()V".into() };
    let added = space.add_path_goals(vec![path(1), path(0)]);
    assert_eq!(added, vec![GoalIdx::new(statics + 2), GoalIdx::new(statics + 3)]);
    let mut trace = context(Some(from_a), branch, 2.0, 0.0);
    assert_eq!(space.discover(&trace), 2, "context goals found after the path goals come after them");
    trace.path_distances = vec![protocol::PathDistance { pc: 1, clauses: vec![0.5, 0.5] }];
    let texts: Vec<String> =
        space.goals().skip(statics).map(|g| format!("{:?} {}", space.criterion(g), space.text(g))).collect();
    expect![[r#"
        ContextBranch context-branch direct branch p7 taken (context/Calls:12)
        ContextBranch context-branch direct branch p7 not-taken (context/Calls:12)
        Branch path-condition pc1 context/Calls.a()V (1 branches)
        Branch path-condition pc0 context/Calls.a()V (1 branches)
        ContextBranch context-branch p18@context/Calls:20 branch p7 taken (context/Calls:12)
        ContextBranch context-branch p18@context/Calls:20 branch p7 not-taken (context/Calls:12)"#]]
    .assert_eq(&texts.join("\n"));
    assert!(space.path_goal(GoalIdx::new(statics + 2)).is_some_and(|p| p.pc == 1));
    assert!(space.context_goal(GoalIdx::new(statics + 2)).is_none());
    assert!(space.path_goal(GoalIdx::new(statics + 4)).is_none());
    let values = space.fitness(&trace);
    assert_eq!(values.len(), space.n_goals());
    // pc1: distance 1.0 -> 0.5; pc0: not evaluated -> 1.
    expect!["[3.0, 3.0, 0.5, 1.0, 0.6666666666666666, 0.0]"].assert_eq(&format!("{:?}", &values[statics..]));
    let coverage: Vec<String> = space
        .coverage(&[&trace])
        .iter()
        .map(|c| format!("{:?} {}/{}", c.criterion, c.covered, c.total))
        .collect();
    expect!["Branch 0/2, ContextBranch 1/4"].assert_eq(&coverage.join(", "));
}

/// A goal left to class initialisation counts covered when the suite loads its class: the class
/// under test always, another class when a test hits a probe of it or gets an instance of it.
#[test]
fn class_init_goals_count_when_the_suite_loads_their_class() {
    let space =
        space_of(&["search/search/Alarm", "search/search/Direction"], &[Criterion::Line], &Trace::default());
    let figures = |runs: &[(&Trace, &[Outcome])]| {
        let (per, uncovered) = space.class_init_goals(&[Criterion::Line], runs);
        format!("{per:?} uncovered: {uncovered:?}")
    };
    let none = Trace::default();
    let enum_value = [Outcome::Value(Value::Enum { class: "search.Direction".into(), name: "EAST".into() })];
    expect![[r#"[(Line, 0, 1)] uncovered: ["line c1 L5 (search/Direction:5)"]"#]]
        .assert_eq(&figures(&[(&none, &[])]));
    expect!["[(Line, 1, 1)] uncovered: []"].assert_eq(&figures(&[(&none, &enum_value)]));
    let (coverage, _) = space.final_coverage(&[Criterion::Line], &[(&none, &enum_value)]);
    let line = coverage.iter().find(|c| c.criterion == Criterion::Line).expect("line figures");
    assert_eq!(
        (line.covered, line.total),
        (1, space.selected().len() + 1),
        "no trace: only the class-init goal"
    );
}
