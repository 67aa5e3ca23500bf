//! `suitesmith analyze --dse`: what DSE sees of one test, as text. The test is expanded and
//! replayed; then, per entry of its path condition, the branch, the condition and, for each
//! negation DSE could make (a jump's other side, a switch's other cases), the solver's answer to the
//! query the hook would send (sliced as `Candidate::constraints` slices it) and the values a model
//! changes in the test. Nothing runs in a JVM, so nothing is checked here.

use std::fmt::Write as _;

use solver::{Outcome, Portfolio, Solver as _};
use symbolic::{Concolic, EntryKind, InputOrigin};
use testcase::TestCase;

use crate::DseConfig;
use crate::candidates::Candidate;
use crate::expand::{expand, symbolic_statements};
use crate::substitute::{no_lone_surrogates, substitute};

/// The report for the first of `tests` whose path condition has a branch DSE could negate (the
/// first test when none has).
pub fn explain_first(
    db: &programdb::ProgramDb,
    plan: &goals::ProbePlan,
    tests: &[TestCase],
    config: &DseConfig,
    seed: u64,
) -> String {
    let negatable = |t: &TestCase| {
        let e = expand(t);
        let replay = Concolic::new(db, plan, config.sym()).run(&e, &symbolic_statements(&e));
        replay.path.iter().any(|p| match p.kind {
            EntryKind::Branch => p.negated_goal.is_some(),
            EntryKind::Switch => !p.cases.is_empty(),
            _ => false,
        })
    };
    match tests.iter().position(negatable).or(if tests.is_empty() { None } else { Some(0) }) {
        Some(i) => format!(
            "== random test {} of {}\n{}",
            i + 1,
            tests.len(),
            explain(db, plan, &tests[i], config, seed)
        ),
        None => "no test to explain\n".to_string(),
    }
}

/// The report for `test` over `plan`'s goals (see the module's doc).
pub fn explain(
    db: &programdb::ProgramDb,
    plan: &goals::ProbePlan,
    test: &TestCase,
    config: &DseConfig,
    seed: u64,
) -> String {
    let mut out = String::new();
    let expanded = expand(test);
    let _ = writeln!(out, "== test\n{test}");
    if expanded != *test {
        let _ = writeln!(out, "== expanded\n{expanded}");
    }
    let mut replay = Concolic::new(db, plan, config.sym()).run(&expanded, &symbolic_statements(&expanded));
    let _ = writeln!(
        out,
        "== replay: {} inputs, {} path entries, {} instructions symbolic, {} concrete, {} pinned{}",
        replay.inputs.len(),
        replay.path.len(),
        replay.stats.symbolic,
        replay.stats.concrete,
        replay.stats.pinned,
        replay.stop.as_ref().map_or(String::new(), |s| format!(", stopped: {s}"))
    );
    // The solver's variables by the input they are, where their names do not say it already.
    let names: Vec<String> = replay
        .inputs
        .iter()
        .filter_map(|input| {
            let name = replay.arena.vars().get(input.var.0 as usize).map_or("?", |(_, n)| n.as_str());
            let origin = match input.origin {
                InputOrigin::Prim { stmt } => format!("v{stmt}"),
                InputOrigin::StrLen { stmt } => format!("v{stmt}.length()"),
                InputOrigin::StrChar { stmt, index } => format!("v{stmt}.charAt({index})"),
            };
            (name != origin).then(|| format!("{name} = {origin}"))
        })
        .collect();
    if !names.is_empty() {
        let _ = writeln!(out, "inputs: {}", names.join(", "));
    }
    let mut solver = Portfolio::new(&config.solver, seed);
    for i in 0..replay.path.len() {
        let e = &replay.path[i];
        let goal = if e.goal == symbolic::NO_GOAL { "-".to_string() } else { e.goal.to_string() };
        let _ = writeln!(
            out,
            "#{i} {:?} {}.{}@{} took {goal}: {}",
            e.kind,
            e.class,
            e.method,
            e.insn,
            replay.arena.display(e.cond)
        );
        let c = e.cond;
        let negations: Vec<(String, solver::ExprId)> = match e.kind {
            EntryKind::Branch => match e.negated_goal {
                Some(g) => vec![(format!("for {g}"), replay.arena.mk(solver::Op::Not, &[c]))],
                None => Vec::new(),
            },
            EntryKind::Switch => e.cases.iter().map(|(g, x)| (format!("for {g}"), *x)).collect(),
            EntryKind::Implicit => vec![("(explore)".to_string(), replay.arena.mk(solver::Op::Not, &[c]))],
            _ => Vec::new(),
        };
        for (g, negated) in negations {
            let c = Candidate { replay: 0, prefix: i, negated, goal: None, explore: false, key: (None, 0) };
            let mut constraints = c.constraints(&replay);
            no_lone_surrogates(&mut replay, &mut constraints);
            let answer = match solver.solve(&replay.arena, &constraints, &replay.hint) {
                Outcome::Sat(model) => {
                    let t = substitute(&expanded, &replay.inputs, &model, &replay.hint, config.max_string);
                    let values: Vec<String> = t
                        .statements
                        .iter()
                        .zip(&expanded.statements)
                        .enumerate()
                        .filter(|(_, (a, b))| a != b)
                        .map(|(k, (a, _))| format!("v{k} = {}", statement_value(a)))
                        .collect();
                    format!(
                        "sat ({} constraints): {}",
                        constraints.len(),
                        if values.is_empty() { "no value changes".into() } else { values.join(", ") }
                    )
                }
                Outcome::Unsat => "unsat".to_string(),
                Outcome::Unknown => "unknown".to_string(),
            };
            let _ = writeln!(out, "    negate {g}: {answer}");
        }
    }
    out
}

/// A value statement's value as Java text.
fn statement_value(s: &testcase::Statement) -> String {
    match s {
        testcase::Statement::Primitive(v) => v.to_string(),
        testcase::Statement::String(v) => format!("{v:?}"),
        other => format!("{other:?}"),
    }
}
