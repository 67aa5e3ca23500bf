//! Assertions chosen by mutation analysis (Fraser and Zeller, "Mutation-driven generation of unit
//! tests and oracles", ISSTA 2010 / TSE 2012; EvoSuite's `MutationAssertionGenerator`): each test,
//! with the assertions [`crate::assertions`] gave it, runs against the mutants of the class under
//! test that its own execution reaches and infects, and keeps the fewest assertions that still kill
//! every mutant its assertions kill, plus the one on the value of its last call.
//!
//! - The mutants are those of the weak-mutation criterion, run through mutant schemata
//!   ([`MutantRunner`], docs/mutation.md); a test runs only against the mutants its own run
//!   infects ([`MutantRunner::candidates`]), as EvoSuite filters by the mutants a test touches.
//! - Each run is of the test as written (its inspector calls included). A mutant whose run ends
//!   otherwise than the original's at one of the test's own statements (another exception, none
//!   where one is expected, a timeout, a guard) fails the test whatever it asserts: it is killed
//!   *by the outcome* and needs no assertion. Otherwise an assertion kills it when its check fails
//!   on the mutant's run (an inspector call that throws fails its assertion); an assertion that
//!   fails on the original's run never counts.
//! - The assertions kept: a greedy set cover of the mutants killed only by assertions (the one
//!   killing most of what is left first, ties to the earliest), starting from the anchor, the
//!   assertion on the value of the last statement (on the message, else the top frame, of the
//!   exception it throws). A test that kills nothing keeps one assertion on its last statement
//!   (its value, else the first after it), or its last assertion.
//!
//! Where this deviates from EvoSuite: EvoSuite's generator also adds assertions that kill mutants
//! (it observes every value and keeps those that differ); here the candidates are exactly the
//! assertions of the `all` strategy (capped at 10 per test), so `mutation` keeps a subset of `all`,
//! and the comparison of the two is one of assertions only. EvoSuite runs every mutant a test
//! touches; here only those the weak-mutation trace infects (with ROR mutants of a reached jump and
//! operators whose operand samples filled up, where the trace cannot tell).
//!
//! Tests not analysed before the deadline ([`MutantRunner::out_of_time`]) keep every assertion.

use std::collections::{BTreeMap, BTreeSet};

use exec::{ExecResult, ExecStatus};
use protocol::{Outcome, Value};
use testcase::assertion::{Check, Expected, Subject};
use testcase::{PrimValue, TestCase};

use crate::assert::{Written, written};
use crate::{AssertedTest, PostError, RunnerError};

/// Tests whose mutant runs are planned together (their reference runs are one batch).
const TESTS_PER_ROUND: usize = 16;
/// Mutant runs per batch; the deadline is checked between batches.
const RUNS_PER_BATCH: usize = 256;
/// JUnit's delta for floats and doubles in the written tests (EvoSuite's 0.01).
const DELTA: f64 = 0.01;

/// Runs tests against mutants of the class under test; implemented by the engine over workers
/// running classes with mutant schemata.
pub trait MutantRunner {
    /// Runs each test with its mutant active (`None`: the original), one result per pair, in
    /// order. Mutant ids are the weak-mutation goal ids of the runner's plan.
    fn run(&mut self, runs: &[(TestCase, Option<u32>)]) -> Result<Vec<ExecResult>, RunnerError>;

    /// The mutants worth running a test against, from its original run: sorted and distinct.
    fn candidates(&self, original: &ExecResult) -> Vec<u32>;

    /// Whether the time for mutation analysis is up. Never, by default.
    fn out_of_time(&self) -> bool {
        false
    }
}

/// What mutation analysis did to a suite.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MutationStats {
    /// Tests whose assertions were chosen by their kills.
    pub tests_analysed: usize,
    /// Tests with assertions left as they were because the deadline came first.
    pub tests_not_analysed: usize,
    /// Distinct mutants some test ran against, those every assertion (or a test's outcome)
    /// killed, and those the kept assertions (or a test's outcome) kill: the last two are equal
    /// (the kept assertions are a cover).
    pub mutants: usize,
    pub killed_before: usize,
    pub killed: usize,
    /// Test runs against a mutant.
    pub runs: usize,
    /// Assertions of the suite before and after.
    pub assertions_before: usize,
    pub assertions_after: usize,
}

/// How a mutant's run compares with the original's.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kill {
    /// The test fails whatever it asserts.
    Outcome,
    /// These assertions (indices) fail; empty: the mutant survives.
    Assertions(Vec<usize>),
}

/// Chooses each test's assertions by mutation analysis (see the module documentation), in place.
pub fn select_by_mutation(
    runner: &mut dyn MutantRunner,
    tests: &mut [AssertedTest],
) -> Result<MutationStats, PostError> {
    let mut stats = MutationStats {
        assertions_before: tests.iter().map(|t| t.test.assertions.len()).sum(),
        ..MutationStats::default()
    };
    let (mut ran, mut killed, mut killed_before) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let todo: Vec<usize> = (0..tests.len()).filter(|&k| !tests[k].test.assertions.is_empty()).collect();
    for (round, chunk) in todo.chunks(TESTS_PER_ROUND).enumerate() {
        if runner.out_of_time() {
            stats.tests_not_analysed += todo.len() - round * TESTS_PER_ROUND;
            break;
        }
        let written: Vec<Written> = chunk.iter().map(|&k| written(&tests[k].test)).collect();
        let refs = run(runner, &written.iter().map(|w| (w.case.clone(), None)).collect::<Vec<_>>())?;
        let mut pairs: Vec<(usize, u32)> = Vec::new();
        for (j, r) in refs.iter().enumerate() {
            if r.status == ExecStatus::Normal {
                pairs.extend(runner.candidates(r).into_iter().map(|m| (j, m)));
            }
        }
        let Some(results) = run_pairs(runner, &written, &pairs, &mut stats)? else {
            stats.tests_not_analysed += todo.len() - round * TESTS_PER_ROUND;
            break;
        };
        let mut kills: Vec<Vec<(u32, Kill)>> = vec![Vec::new(); chunk.len()];
        for (&(j, m), r) in pairs.iter().zip(&results) {
            ran.insert(m);
            let t = &tests[chunk[j]].test;
            kills[j].push((m, classify(&t.assertions, &written[j], &refs[j], r)));
        }
        for (j, &k) in chunk.iter().enumerate() {
            let t = &mut tests[k].test;
            if refs[j].status != ExecStatus::Normal {
                continue;
            }
            let per_assertion = killers(t.assertions.len(), &kills[j]);
            let keep = cover(&per_assertion, anchor(&t.assertions, t.case.len()));
            let by_outcome = kills[j].iter().filter(|(_, k)| *k == Kill::Outcome).map(|(m, _)| *m);
            killed.extend(by_outcome.clone());
            killed_before.extend(by_outcome.chain(per_assertion.iter().flatten().copied()));
            for &a in &keep {
                killed.extend(per_assertion[a].iter().copied());
            }
            let mut n = 0;
            t.assertions.retain(|_| {
                n += 1;
                keep.binary_search(&(n - 1)).is_ok()
            });
            stats.tests_analysed += 1;
        }
    }
    stats.mutants = ran.len();
    stats.killed = killed.len();
    stats.killed_before = killed_before.len();
    stats.assertions_after = tests.iter().map(|t| t.test.assertions.len()).sum();
    Ok(stats)
}

/// One batch of mutant runs, checked.
fn run(
    runner: &mut dyn MutantRunner,
    runs: &[(TestCase, Option<u32>)],
) -> Result<Vec<ExecResult>, PostError> {
    if runs.is_empty() {
        return Ok(Vec::new());
    }
    crate::checked(runs.len(), runner.run(runs))
}

/// The mutant runs of one round, in batches; `None` when the deadline came before the last.
fn run_pairs(
    runner: &mut dyn MutantRunner,
    written: &[Written],
    pairs: &[(usize, u32)],
    stats: &mut MutationStats,
) -> Result<Option<Vec<ExecResult>>, PostError> {
    let mut results = Vec::with_capacity(pairs.len());
    for (b, batch) in pairs.chunks(RUNS_PER_BATCH).enumerate() {
        if b > 0 && runner.out_of_time() {
            return Ok(None);
        }
        let runs: Vec<(TestCase, Option<u32>)> =
            batch.iter().map(|&(j, m)| (written[j].case.clone(), Some(m))).collect();
        results.extend(run(runner, &runs)?);
        stats.runs += batch.len();
    }
    Ok(Some(results))
}

/// Per assertion, the mutants it alone need kill (those not killed by the outcome), sorted.
fn killers(n: usize, kills: &[(u32, Kill)]) -> Vec<Vec<u32>> {
    let mut out = vec![Vec::new(); n];
    for (m, k) in kills {
        if let Kill::Assertions(by) = k {
            for &a in by {
                out[a].push(*m);
            }
        }
    }
    out
}

/// The assertion on the value of the last statement (`last` statements in the case): an
/// `assertEquals`, `assertNull`, `assertNotNull` or array length on it; when it throws, the check
/// of the exception's message, else of its top frame (EvoSuite's `verifyException`, which it
/// writes whatever the strategy).
fn value_anchor(assertions: &[testcase::assertion::Assertion], last: usize) -> Option<usize> {
    let value = assertions.iter().position(|a| {
        let v = match &a.check {
            Check::Equals { subject: Subject::Var(v), .. }
            | Check::Null(v)
            | Check::NotNull(v)
            | Check::ArrayLength { var: v, .. } => *v,
            _ => return false,
        };
        v.index() + 1 == last
    });
    value
        .or_else(|| assertions.iter().position(|a| matches!(a.check, Check::ThrownMessage(_))))
        .or_else(|| assertions.iter().position(|a| matches!(a.check, Check::ThrownFrom(_))))
}

/// What a test keeps even when it kills nothing: the value of its last call, else the first
/// assertion after its last statement, else its last assertion (`None` without assertions).
fn anchor(assertions: &[testcase::assertion::Assertion], len: usize) -> Anchor {
    if let Some(a) = value_anchor(assertions, len) {
        return Anchor::Always(a);
    }
    let fallback = assertions.iter().position(|a| a.after + 1 >= len).or(assertions.len().checked_sub(1));
    match fallback {
        Some(a) => Anchor::IfNothingKilled(a),
        None => Anchor::None,
    }
}

/// The assertion a test keeps besides those that kill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// Kept always (the value of the call the test exists for).
    Always(usize),
    /// Kept when no assertion kills anything.
    IfNothingKilled(usize),
    None,
}

/// The assertions kept (ascending): `anchor`, then greedily the one that kills most of the
/// mutants not yet killed (ties to the earliest), until every mutant some assertion kills is.
pub(crate) fn cover(kills: &[Vec<u32>], anchor: Anchor) -> Vec<usize> {
    let mut keep: BTreeSet<usize> = BTreeSet::new();
    let mut done: BTreeSet<u32> = BTreeSet::new();
    if let Anchor::Always(a) = anchor {
        keep.insert(a);
        done.extend(kills[a].iter().copied());
    }
    let all: BTreeSet<u32> = kills.iter().flatten().copied().collect();
    while done.len() < all.len() {
        let (best, gain) = kills
            .iter()
            .enumerate()
            .map(|(a, k)| (a, k.iter().filter(|m| !done.contains(m)).count()))
            .fold((0, 0), |b, x| if x.1 > b.1 { x } else { b });
        if gain == 0 {
            break;
        }
        keep.insert(best);
        done.extend(kills[best].iter().copied());
    }
    if keep.is_empty()
        && let Anchor::IfNothingKilled(a) = anchor
    {
        keep.insert(a);
    }
    keep.into_iter().collect()
}

/// How the mutant's run `m` of a written test compares with the original's run `r`.
fn classify(
    assertions: &[testcase::assertion::Assertion],
    w: &Written,
    r: &ExecResult,
    m: &ExecResult,
) -> Kill {
    if m.status != ExecStatus::Normal {
        return Kill::Outcome;
    }
    let own: BTreeSet<usize> = w.statements.iter().copied().collect();
    let mut by_position: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (a, &q) in w.observed.iter().enumerate() {
        by_position.entry(q).or_default().push(a);
    }
    let mut out = Vec::new();
    for q in 0..w.case.len() {
        let (Some(ro), Some(mo)) = (r.outcomes.get(q), m.outcomes.get(q)) else { break };
        let mut stop = false;
        if own.contains(&q) {
            match (ro, mo) {
                (Outcome::Value(_), Outcome::Value(_)) => {}
                (Outcome::Threw { class: a, .. }, Outcome::Threw { class: b, .. }) if a == b => stop = true,
                (Outcome::NotExecuted, _) => break,
                _ => return Kill::Outcome,
            }
        } else if !matches!(mo, Outcome::Value(_)) {
            // An inspector call threw: its assertions fail, and the rest of the test does not run.
            stop = true;
        }
        for &a in by_position.get(&q).into_iter().flatten() {
            if !fails(&assertions[a].check, ro) && fails(&assertions[a].check, mo) {
                out.push(a);
            }
        }
        if stop {
            break;
        }
    }
    out.sort_unstable();
    Kill::Assertions(out)
}

/// Whether `check` fails on outcome `o` of the value it observes.
fn fails(check: &Check, o: &Outcome) -> bool {
    let v = match o {
        Outcome::Value(v) => v,
        // An exception's checks look at the exception.
        Outcome::Threw { message, top_frame, .. } => {
            return match check {
                Check::ThrownMessage(m) => m != message,
                Check::ThrownFrom(c) => c != top_frame,
                _ => true,
            };
        }
        _ => return true,
    };
    match check {
        Check::Equals { value, .. } => !equal(value, v),
        Check::Null(_) => *v != Value::Null,
        Check::NotNull(_) => *v == Value::Null,
        Check::ArrayLength { length, .. } => {
            !matches!(v, Value::Array { length: n, .. } if *n as i64 == i64::from(*length))
        }
        Check::ObjectsEqual { equal, .. } => *v != Value::Bool(*equal),
        // Identity and array contents are not observed by a summary; such an assertion never
        // counts as killing.
        // Contracts are written in violation tests only, which mutation analysis never sees.
        Check::ArrayEquals { .. } | Check::Same(..) | Check::NotSame(..) | Check::Contract { .. } => false,
        Check::ThrownMessage(_) | Check::ThrownFrom(_) => true,
    }
}

/// Whether a value passes `assertEquals(expected, value)` as the written test checks it.
fn equal(expected: &Expected, v: &Value) -> bool {
    let close = |a: f64, b: f64| (a.is_nan() && b.is_nan()) || (a - b).abs() <= DELTA;
    match (expected, v) {
        (Expected::String(s), Value::String(t)) => s == t,
        (Expected::Prim(p), v) => match (p, v) {
            (PrimValue::Boolean(a), Value::Bool(b)) => a == b,
            (PrimValue::Byte(a), Value::Byte(b)) => i32::from(*a) == *b,
            (PrimValue::Short(a), Value::Short(b)) => i32::from(*a) == *b,
            (PrimValue::Char(a), Value::Char(b)) => i32::from(*a) == *b,
            (PrimValue::Int(a), Value::Int(b)) => a == b,
            (PrimValue::Long(a), Value::Long(b)) => a == b,
            (PrimValue::Float(a), Value::Float(b)) => {
                close(f64::from(f32::from_bits(*a)), f64::from(f32::from_bits(*b)))
            }
            (PrimValue::Double(a), Value::Double(b)) => close(f64::from_bits(*a), f64::from_bits(*b)),
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cover_is_the_fewest_killers_greedily_with_ties_to_the_earliest() {
        // a0 kills {1}, a1 kills {1, 2}, a2 kills {3}, a3 kills {2, 3}, a4 kills nothing.
        let kills = vec![vec![1], vec![1, 2], vec![3], vec![2, 3], vec![]];
        // a1 and a3 tie on 2 new mutants: a1 first; then a2 and a3 tie on {3}: a2.
        assert_eq!(cover(&kills, Anchor::None), vec![1, 2]);
        // The anchor counts first: a3 kills {2, 3}, then a0 (tied with a1 on {1}) finishes.
        assert_eq!(cover(&kills, Anchor::Always(3)), vec![0, 3]);
        // An anchor that kills nothing is still kept.
        assert_eq!(cover(&kills, Anchor::Always(4)), vec![1, 2, 4]);
        // Kept only when nothing is killed.
        assert_eq!(cover(&kills, Anchor::IfNothingKilled(4)), vec![1, 2]);
        let none = vec![vec![], vec![]];
        assert_eq!(cover(&none, Anchor::IfNothingKilled(1)), vec![1]);
        assert_eq!(cover(&none, Anchor::None), Vec::<usize>::new());
    }

    #[test]
    fn the_cover_kills_all_that_the_assertions_kill() {
        // Every mutant killed by some assertion is killed by the kept ones, on a family of
        // overlapping sets.
        for n in 1..9u32 {
            let kills: Vec<Vec<u32>> =
                (0..n).map(|a| (0..n * 2).filter(|m| (m + a) % (a + 2) == 0).collect()).collect();
            let all: BTreeSet<u32> = kills.iter().flatten().copied().collect();
            let keep = cover(&kills, Anchor::None);
            let got: BTreeSet<u32> = keep.iter().flat_map(|&a| kills[a].iter().copied()).collect();
            assert_eq!(got, all, "{kills:?} {keep:?}");
            assert!(keep.len() <= kills.iter().filter(|k| !k.is_empty()).count());
        }
    }

    #[test]
    fn assertions_fail_as_junit_checks_them() {
        let int = |x| Check::Equals {
            subject: Subject::Var(testcase::VarId(0)),
            value: Expected::Prim(PrimValue::Int(x)),
        };
        assert!(!fails(&int(3), &Outcome::Value(Value::Int(3))));
        assert!(fails(&int(3), &Outcome::Value(Value::Int(4))));
        assert!(fails(&int(3), &Outcome::NotExecuted));
        let dbl = Check::Equals {
            subject: Subject::Var(testcase::VarId(0)),
            value: Expected::Prim(PrimValue::Double(1.0f64.to_bits())),
        };
        // JUnit's delta: 1.005 passes, 1.02 fails.
        assert!(!fails(&dbl, &Outcome::Value(Value::Double(1.005f64.to_bits()))));
        assert!(fails(&dbl, &Outcome::Value(Value::Double(1.02f64.to_bits()))));
        assert!(fails(&Check::NotNull(testcase::VarId(0)), &Outcome::Value(Value::Null)));
        assert!(!fails(&Check::Null(testcase::VarId(0)), &Outcome::Value(Value::Null)));
    }
}
