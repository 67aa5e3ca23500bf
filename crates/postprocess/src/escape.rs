//! Tests are never written with a statement the workers' guards refused: exit,
//! halt, exec, a file outside the scratch directory, a socket, the thread limit. In a worker such a
//! statement got `false` or a `GuardException`; in the user's `mvn test` it would act for real
//! (delete the file, end the JVM). The search may keep such tests as stepping stones; here, before
//! minimisation, each one is cut before its first guarded statement, or dropped when nothing that
//! calls the code under test is left.
//!
//! A guard can also fire from a thread an earlier statement started (a never-ending writer): the
//! worker marks whatever statement was running then. So the cut tests are executed again and cut
//! again, up to [`MAX_PASSES`] times; a test still guarded after that goes whole.

use protocol::Outcome;
use testcase::{Statement, TestCase};

use crate::{PostError, Runner, run_batch};

/// Passes of execute-and-cut; each one shortens every test it touches, so two suffice unless a
/// test's own threads fire guards at varying points.
const MAX_PASSES: usize = 3;

/// What [`cut_at_guards`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuardCuts {
    /// Tests shortened before a guarded statement (and kept).
    pub tests_cut: usize,
    /// Tests dropped: nothing calling the code under test was left, or guards kept firing.
    pub tests_dropped: usize,
    /// Statements removed in all.
    pub statements_removed: usize,
    /// What the guards refused (`Outcome::Guard`'s text), distinct, in order of first appearance.
    pub refused: Vec<String>,
}

impl GuardCuts {
    /// Whether any test was touched.
    pub fn any(&self) -> bool {
        self.tests_cut + self.tests_dropped > 0
    }
}

/// Whether `test` calls anything (a constructor, a method, a field access): a test of literals
/// alone tests nothing and is not written.
pub fn has_call(test: &TestCase) -> bool {
    test.statements.iter().any(|s| {
        matches!(
            s,
            Statement::Constructor { .. }
                | Statement::Method { .. }
                | Statement::FieldGet { .. }
                | Statement::FieldSet { .. }
        )
    })
}

/// Cuts every test of `suite` before its first guarded statement (see the module documentation).
/// The order of the kept tests is the suite's.
pub fn cut_at_guards(
    runner: &mut dyn Runner,
    suite: Vec<TestCase>,
) -> Result<(Vec<TestCase>, GuardCuts), PostError> {
    let (mut round_trips, mut executions) = (0, 0);
    let mut cuts = GuardCuts::default();
    let mut tests: Vec<Option<TestCase>> = suite.into_iter().map(Some).collect();
    let mut touched = vec![false; tests.len()];
    // Which tests to (re-)execute: all at first, then the ones cut in the pass before.
    let mut todo: Vec<usize> = (0..tests.len()).collect();
    for pass in 0..=MAX_PASSES {
        if todo.is_empty() {
            break;
        }
        let batch: Vec<TestCase> = todo.iter().filter_map(|&i| tests[i].clone()).collect();
        let results = run_batch(runner, &batch, &mut round_trips, &mut executions)?;
        let mut next = Vec::new();
        for (&i, r) in todo.iter().zip(&results) {
            let Some(g) = r.first_guard() else { continue };
            for o in &r.outcomes {
                if let Outcome::Guard { what } = o
                    && !cuts.refused.contains(what)
                {
                    cuts.refused.push(what.clone());
                }
            }
            let Some(test) = tests[i].take() else { continue };
            touched[i] = true;
            cuts.statements_removed += test.len() - g.min(test.len());
            let mut cut = test;
            cut.statements.truncate(g);
            // The last pass only checks: a test still guarded there goes.
            if pass < MAX_PASSES && has_call(&cut) {
                tests[i] = Some(cut);
                next.push(i);
            } else {
                cuts.statements_removed += cut.len();
            }
        }
        todo = next;
    }
    for (t, was) in tests.iter().zip(&touched) {
        match (t, was) {
            (Some(_), true) => cuts.tests_cut += 1,
            (None, true) => cuts.tests_dropped += 1,
            _ => {}
        }
    }
    Ok((tests.into_iter().flatten().collect(), cuts))
}

#[cfg(test)]
mod tests {
    //! Against a scripted runner: a guard at a statement cuts the test there; a test left with
    //! literals goes; a guard that moves (a thread's) is cut again; the kept order is the suite's.

    use std::sync::Arc;

    use exec::{ExecResult, ExecStatus};
    use protocol::{Trace, Value};
    use testcase::{JType, MethodRef, PrimType, PrimValue, VarId};

    use super::*;
    use crate::RunnerError;

    /// Statement `Method` whose int argument is negative "hits a guard"; with `-99` the guard
    /// fires one statement later than the call (a thread's guard landing on the next statement).
    struct Scripted {
        batches: usize,
    }

    fn arg_of(t: &TestCase, i: usize) -> Option<i32> {
        match &t.statements[i] {
            Statement::Method { args, .. } => match t.statements[args[0].index()] {
                Statement::Primitive(PrimValue::Int(v)) => Some(v),
                _ => None,
            },
            _ => None,
        }
    }

    impl Runner for Scripted {
        fn run(&mut self, tests: &[TestCase]) -> Result<Vec<ExecResult>, RunnerError> {
            self.batches += 1;
            Ok(tests
                .iter()
                .map(|t| {
                    let mut outcomes = vec![Outcome::Value(Value::Void); t.len()];
                    let mut status = ExecStatus::Normal;
                    for i in 0..t.len() {
                        let Some(v) = arg_of(t, i) else { continue };
                        let at = if v == -99 { i + 1 } else { i };
                        if v < 0 && at < t.len() {
                            outcomes[at] = Outcome::Guard { what: format!("exit {v}") };
                            for o in &mut outcomes[at + 1..] {
                                *o = Outcome::NotExecuted;
                            }
                            status = ExecStatus::Guard;
                            break;
                        }
                    }
                    let mut r = ExecResult::normal(outcomes, Trace::default());
                    r.status = status;
                    r
                })
                .collect())
        }

        fn covered(&self, _: &ExecResult) -> Vec<u32> {
            Vec::new()
        }
    }

    fn call(t: &mut TestCase, v: i32) {
        let arg = t.push(Statement::Primitive(PrimValue::Int(v)));
        let m = MethodRef {
            class: "p.Cut".into(),
            name: "run".into(),
            descriptor: "(I)V".into(),
            is_static: true,
            owner: JType::Class { name: "p.Cut".into(), args: Vec::new() },
            params: vec![JType::Prim(PrimType::Int)],
            ret: None,
        };
        t.push(Statement::Method { method: Arc::new(m), receiver: None, args: vec![VarId(arg.0)] });
    }

    fn test_of(values: &[i32]) -> TestCase {
        let mut t = TestCase::new();
        for &v in values {
            call(&mut t, v);
        }
        t
    }

    #[test]
    fn guarded_statements_are_cut_and_empty_tests_go() {
        let suite = vec![test_of(&[1, 2]), test_of(&[3, -1, 4]), test_of(&[-2, 5]), test_of(&[6, 7, -99, 8])];
        let mut r = Scripted { batches: 0 };
        let (kept, cuts) = cut_at_guards(&mut r, suite).expect("runs");
        // Test 0 is untouched; test 1 is cut at the call of -1 (statement 3), keeping the call of 3
        // and the literal -1 before it.
        assert_eq!(kept.len(), 3);
        assert_eq!(kept[0], test_of(&[1, 2]));
        assert_eq!(kept[1].len(), 3);
        assert_eq!(arg_of(&kept[1], 1), Some(3));
        // Test 3: the guard of the -99 call lands on the literal after it (statement 6); cut there,
        // the test is executed again and no longer fires.
        assert_eq!(kept[2].len(), 6);
        assert_eq!(cuts.tests_cut, 2);
        assert_eq!(cuts.tests_dropped, 1, "the test of -2 has only a literal left");
        assert_eq!(cuts.refused, ["exit -1", "exit -2", "exit -99"]);
        assert!(r.batches >= 2);
        assert!(has_call(&kept[0]));
        assert!(!has_call(&{
            let mut t = TestCase::new();
            t.push(Statement::Primitive(PrimValue::Int(1)));
            t
        }));
    }
}
