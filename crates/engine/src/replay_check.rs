//! The interpreter's fidelity on the written tests
//! (`WriteConfig::replay_check`, `generate --replay-check`): every test as written is replayed by
//! the concolic interpreter (`symbolic::Concolic`, every primitive and string statement a symbolic
//! input, the DSE's interpreter limits) and compared with the run the real JVM workers made of the
//! same test for the final coverage: the branch and switch goals each covered, and each
//! statement's outcome (a value or the class of the exception it threw).
//!
//! A replay that stopped early (a native method, the step or depth limit, something unsupported)
//! can only be checked up to where it stopped: it diverges when it covered a goal the JVM did not,
//! or when a statement it finished ended differently. A full replay diverges when its goal set
//! differs at all. Tests the JVM did not run to a result (a timeout, a crash) are not compared.
//!
//! Reporting only: nothing here changes a test, and the wall time is measured for the report.
//! It deliberately does not run anything in a JVM: the caller passes the results it already has.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use exec::{ExecResult, ExecStatus};
use goals::{Goal, GoalId, ProbePlan};
use programdb::ProgramDb;
use protocol::{Outcome, Value};
use symbolic::{Concolic, Replay, Stop, SymConfig};
use testcase::TestCase;

/// Diverging tests described in the report (the count is always complete).
const EXAMPLES: usize = 5;
/// Differing goals named per described test.
const GOALS_PER_EXAMPLE: usize = 4;
/// The interpreter recurses on the Rust stack (`symbolic::SymConfig::max_depth` frames, several
/// hundred KiB each in an unoptimised build): the replays run on a thread of their own with room.
const REPLAY_STACK: usize = 512 << 20;

/// What replaying the written tests of one class showed (report.json `replay_check`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReplayCheck {
    /// Tests replayed.
    pub tests: usize,
    /// Replays that reached the test's end.
    pub replayed_fully: usize,
    /// Replays that stopped early, by kind of reason (`native`, `step_limit`, `depth_limit`, `expression_limit`,
    /// `missing`, `unsupported`, `panic`), and by the reason as text.
    pub stopped: BTreeMap<String, usize>,
    pub stop_reasons: BTreeMap<String, usize>,
    /// Tests the JVM gave no result for (timeout, crash): not compared.
    pub not_compared: usize,
    /// Instructions (and model operations) the replays ran with a symbolic operand, with concrete
    /// operands only, and the concretisations (pins) they made.
    pub instructions_symbolic: u64,
    pub instructions_concrete: u64,
    pub pins: u64,
    /// Branch and switch goals the JVM covered, summed over the tests compared.
    pub goals_compared: usize,
    /// Tests whose covered goals differ (see the module's rule for stopped replays), and tests
    /// with a statement that ended differently (a value against an exception, another exception,
    /// another primitive or string value).
    pub goal_divergences: usize,
    pub outcome_divergences: usize,
    /// Tests with either divergence.
    pub divergences: usize,
    /// The first few diverging tests, as text: the test's index, the goals only the JVM and only
    /// the interpreter covered, the first differing statement.
    pub examples: Vec<String>,
    /// Wall time of the replays (reporting only).
    pub elapsed: Duration,
}

impl ReplayCheck {
    /// Instructions the replays ran per second of wall time.
    pub fn instructions_per_second(&self) -> f64 {
        let n = (self.instructions_symbolic + self.instructions_concrete) as f64;
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 { n / s } else { 0.0 }
    }
}

/// `replay_check` over a run's problem, with the DSE's interpreter limits of its configuration.
pub(crate) fn of(
    problem: &crate::JvmProblem,
    db: &ProgramDb,
    config: &crate::GenerateConfig,
    tests: &[TestCase],
    results: &[ExecResult],
) -> ReplayCheck {
    replay_check(db, problem.space().model(), config.techniques.dse.sym(), tests, results)
}

/// Replays `tests` and compares each with its JVM result (`results[i]` is `tests[i]`'s).
pub fn replay_check(
    db: &ProgramDb,
    model: &fitness::GoalModel,
    sym: SymConfig,
    tests: &[TestCase],
    results: &[ExecResult],
) -> ReplayCheck {
    let started = Instant::now();
    let replays = replay_all(db, model.plan(), sym, tests);
    let mut check = ReplayCheck { tests: tests.len(), ..ReplayCheck::default() };
    for (i, ((test, res), replay)) in tests.iter().zip(results).zip(&replays).enumerate() {
        let replay = match replay {
            Ok(r) => r,
            Err(message) => {
                *check.stopped.entry("panic".to_string()).or_default() += 1;
                *check.stop_reasons.entry(format!("interpreter panic: {message}")).or_default() += 1;
                continue;
            }
        };
        count(&mut check, replay);
        if res.status != ExecStatus::Normal {
            check.not_compared += 1;
            continue;
        }
        compare(&mut check, model, i, test, replay, res);
    }
    check.elapsed = started.elapsed();
    check
}

/// Every replay, on a thread with a large stack; a replay that panics is its panic's message.
fn replay_all(
    db: &ProgramDb,
    plan: &ProbePlan,
    sym: SymConfig,
    tests: &[TestCase],
) -> Vec<Result<Replay, String>> {
    let work = || {
        let mut concolic = Concolic::new(db, plan, sym);
        let mut out = Vec::with_capacity(tests.len());
        for t in tests {
            let symbolic = dse::symbolic_statements(t);
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| concolic.run(t, &symbolic)));
            out.push(r.map_err(|e| panic_text(e.as_ref())));
            if out.last().is_some_and(Result::is_err) {
                // The interpreter's caches may be half-filled: start afresh.
                concolic = Concolic::new(db, plan, sym);
            }
        }
        out
    };
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new().stack_size(REPLAY_STACK).spawn_scoped(s, work);
        match handle {
            Ok(h) => h.join().unwrap_or_else(|e| {
                let text = panic_text(e.as_ref());
                tests.iter().map(|_| Err(text.clone())).collect()
            }),
            // No thread to be had: replay here, on the caller's stack.
            Err(_) => work(),
        }
    })
}

fn panic_text(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
}

/// The replay's counters and stop reason.
fn count(check: &mut ReplayCheck, replay: &Replay) {
    check.instructions_symbolic += replay.stats.symbolic;
    check.instructions_concrete += replay.stats.concrete;
    check.pins += replay.stats.pinned;
    match &replay.stop {
        None => check.replayed_fully += 1,
        Some(stop) => {
            *check.stopped.entry(stop_kind(stop).to_string()).or_default() += 1;
            *check.stop_reasons.entry(stop.to_string()).or_default() += 1;
        }
    }
}

/// The kind of a stop reason, as report.json names it.
pub fn stop_kind(stop: &Stop) -> &'static str {
    match stop {
        Stop::Steps => "step_limit",
        Stop::Depth => "depth_limit",
        Stop::Nodes => "expression_limit",
        Stop::Native(_) => "native",
        Stop::Missing(_) => "missing",
        Stop::Unsupported(_) => "unsupported",
    }
}

/// Compares one replay with the JVM's run of the same test.
fn compare(
    check: &mut ReplayCheck,
    model: &fitness::GoalModel,
    index: usize,
    test: &TestCase,
    replay: &Replay,
    res: &ExecResult,
) {
    let plan = model.plan();
    let branch = |g: &GoalId| matches!(plan.goal(*g), Goal::Branch { .. } | Goal::SwitchCase { .. });
    let jvm: BTreeSet<GoalId> = fitness::goal_fitness(model, &res.trace).covered().filter(branch).collect();
    let ours: BTreeSet<GoalId> = replay.covered.iter().copied().collect();
    check.goals_compared += jvm.len();
    let only_ours: Vec<GoalId> = ours.difference(&jvm).copied().collect();
    let only_jvm: Vec<GoalId> = jvm.difference(&ours).copied().collect();
    let goals_differ = !only_ours.is_empty() || (replay.stop.is_none() && !only_jvm.is_empty());
    let outcome = first_outcome_difference(test, replay, &res.outcomes);
    check.goal_divergences += usize::from(goals_differ);
    check.outcome_divergences += usize::from(outcome.is_some());
    if !(goals_differ || outcome.is_some()) {
        return;
    }
    check.divergences += 1;
    if check.examples.len() >= EXAMPLES {
        return;
    }
    let names = |gs: &[GoalId]| -> String {
        let mut v: Vec<String> = gs.iter().take(GOALS_PER_EXAMPLE).map(|&g| goal_text(plan, g)).collect();
        if gs.len() > GOALS_PER_EXAMPLE {
            v.push(format!("and {} more", gs.len() - GOALS_PER_EXAMPLE));
        }
        v.join("; ")
    };
    let stop = replay.stop.as_ref().map_or(String::new(), |s| format!(" (replay stopped: {s})"));
    let mut text = format!("test {index}{stop}");
    if goals_differ {
        text.push_str(&format!(
            ": only the JVM covered [{}], only the interpreter covered [{}]",
            names(&only_jvm),
            names(&only_ours)
        ));
    }
    if let Some(o) = outcome {
        text.push_str(&format!("; {o}"));
    }
    check.examples.push(text);
}

/// A goal with its class and line (`branch p7 taken (dse/Magic:12)`), as `uncovered` lists them.
fn goal_text(plan: &ProbePlan, g: GoalId) -> String {
    match plan.goal_location(g) {
        (class, Some(line)) => format!("{} ({class}:{line})", goals::goal_text(plan.goal(g))),
        (class, None) => format!("{} ({class})", goals::goal_text(plan.goal(g))),
    }
}

/// The first statement the replay finished whose outcome differs from the JVM's, as text.
fn first_outcome_difference(test: &TestCase, replay: &Replay, jvm: &[Outcome]) -> Option<String> {
    let text = test.to_string();
    for (i, ours) in replay.outcomes.iter().enumerate() {
        if ours == "stopped" {
            return None;
        }
        let theirs = jvm.get(i)?;
        if matches!(theirs, Outcome::NotExecuted | Outcome::Timeout | Outcome::Guard { .. }) {
            return None;
        }
        if !same_outcome(ours, theirs) {
            return Some(format!(
                "statement {i} ({}): JVM {}, interpreter {ours}",
                text.lines().nth(i).unwrap_or("?").trim(),
                jvm_text(theirs)
            ));
        }
    }
    None
}

/// The box classes, which the interpreter's outcomes name and the worker's give the value of.
const BOXES: &[&str] = &[
    "java.lang.Boolean",
    "java.lang.Byte",
    "java.lang.Character",
    "java.lang.Short",
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Float",
    "java.lang.Double",
];

/// Whether the interpreter's outcome text (`symbolic::Replay::outcomes`) says what the JVM's
/// outcome says: the same exception class, or a value; for integral, boolean, string and null
/// values the same value (floating-point values and objects are compared by kind only: their
/// texts are made differently on each side).
fn same_outcome(ours: &str, theirs: &Outcome) -> bool {
    match theirs {
        Outcome::Threw { class, .. } => ours.strip_prefix("threw ") == Some(class.as_str()),
        Outcome::Value(v) => {
            if ours.starts_with("threw ") {
                return false;
            }
            // The worker reports a box's value (`Bool(true)` for a `Boolean`), the interpreter its
            // class: by kind only.
            if BOXES.contains(&ours) {
                return true;
            }
            match v {
                Value::Int(x) | Value::Byte(x) | Value::Short(x) | Value::Char(x) => ours == x.to_string(),
                Value::Long(x) => ours == format!("{x}L"),
                Value::Bool(b) => ours == i32::from(*b).to_string(),
                Value::String(s) => ours == format!("{s:?}"),
                Value::Null => ours == "null",
                _ => true,
            }
        }
        _ => true,
    }
}

fn jvm_text(o: &Outcome) -> String {
    match o {
        Outcome::Threw { class, .. } => format!("threw {class}"),
        Outcome::Value(v) => format!("{v:?}"),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threw(class: &str) -> Outcome {
        Outcome::Threw {
            class: class.into(),
            message: String::new(),
            from_sut: true,
            thrown_in: String::new(),
            top_frame: String::new(),
        }
    }

    #[test]
    fn outcomes_agree_on_exceptions_and_exact_values() {
        assert!(same_outcome("threw java.lang.ArithmeticException", &threw("java.lang.ArithmeticException")));
        assert!(!same_outcome("threw java.lang.RuntimeException", &threw("java.lang.ArithmeticException")));
        assert!(!same_outcome("42", &threw("java.lang.ArithmeticException")));
        assert!(!same_outcome("threw java.lang.Error", &Outcome::Value(Value::Int(1))));
        assert!(same_outcome("42", &Outcome::Value(Value::Int(42))));
        assert!(!same_outcome("41", &Outcome::Value(Value::Int(42))));
        assert!(same_outcome("7L", &Outcome::Value(Value::Long(7))));
        assert!(same_outcome("1", &Outcome::Value(Value::Bool(true))));
        assert!(same_outcome("\"a\\\"b\"", &Outcome::Value(Value::String("a\"b".into()))));
        assert!(same_outcome("null", &Outcome::Value(Value::Null)));
        // Floating-point values and objects: by kind only.
        assert!(same_outcome("1.5F", &Outcome::Value(Value::Float(0))));
        assert!(same_outcome("p.C", &Outcome::Value(Value::Object { class: "p.D".into() })));
        // A box: the worker gives its value, the interpreter its class.
        assert!(same_outcome("java.lang.Boolean", &Outcome::Value(Value::Bool(true))));
        assert!(same_outcome("java.lang.Long", &Outcome::Value(Value::Long(1))));
    }

    #[test]
    fn stop_kinds_are_named_for_the_report() {
        let kinds: Vec<&str> = [
            Stop::Steps,
            Stop::Depth,
            Stop::Nodes,
            Stop::Native("x".into()),
            Stop::Missing("y".into()),
            Stop::Unsupported("z".into()),
        ]
        .iter()
        .map(stop_kind)
        .collect();
        assert_eq!(
            kinds,
            ["step_limit", "depth_limit", "expression_limit", "native", "missing", "unsupported"]
        );
    }
}
