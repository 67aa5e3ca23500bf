//! Suite minimisation as EvoSuite's `TestSuiteMinimizer` does it (anchors.md §1.5, `minimize=true`):
//! 1. every covered goal is given to the shortest test covering it (ties: the earlier test);
//! 2. each chosen test loses the statements that none of its goals needs: a statement is removed with
//!    the statements that use its variable (transitively), and the smaller test is re-executed to
//!    check that it still covers its goals;
//! 3. tests whose goals the other tests cover are dropped;
//! 4. the minimised suite is executed once more and its covered goals compared with the original's.
//!
//! EvoSuite tries one removal per execution; that would be one worker round trip per statement.
//! Here a round sends, for every test still shrinking, every single-statement removal in one batch,
//! then, in a second batch, the removals that passed alone combined as prefixes (last statement
//! first); the largest passing combination is kept. Rounds repeat until no test shrinks, so the
//! number of round trips grows with the rounds (typically 2–3), not with the statements.
//! When the runner says post-processing's time is up, shrinking stops between rounds.
//! A candidate is accepted only if it covers its goals and nothing outside the original suite's
//! covered goals, so the minimised suite covers exactly the goals the original did.

use std::collections::{BTreeMap, BTreeSet};

use exec::{ExecResult, ExecStatus};
use testcase::{TestCase, VarId};

use crate::{PostError, Runner, run_batch};

/// At most this many shrinking rounds (each one or two round trips); a bound for pathological
/// suites, never reached on real ones (each round removes at least one statement of some test).
const MAX_ROUNDS: usize = 16;

/// Candidates sent per round trip when the runner has a deadline: a round of a large suite is
/// thousands of candidates (okio's `Buffer`: one round took 70 s of a 60 s budget), so the deadline
/// is checked between chunks of this many.
const CHUNK: usize = 512;

/// The first chunk of a call: chunks start this small and double up to [`CHUNK`], so that the
/// deadline is checked after a few candidates when each one is slow. On commons-lang3's
/// `TimedSemaphore` candidates that drop a `release()` block until the test timeout, and a first
/// chunk of 512 ran 59 s past a 5 s search budget (in a whole-jar run). Which chunk a
/// candidate runs in changes no result.
const FIRST_CHUNK: usize = 16;

/// Runs the candidates `cands` yields, in chunks growing from [`FIRST_CHUNK`] to [`CHUNK`], stopping before a chunk once the
/// runner is out of time (the candidates left unrun are not accepted), and returns the owners of the
/// candidates `accept` takes, in order. Candidates are built as the chunks are filled and each
/// chunk's results are dropped once judged: a round of a large suite is thousands of candidates, and
/// holding them all with their traces set the engine's peak memory (Guava's `CharMatcher`: ~55 MB
/// at once).
fn run_accepted<O: Copy>(
    runner: &mut dyn Runner,
    mut cands: impl Iterator<Item = (O, TestCase)>,
    accept: impl Fn(&dyn Runner, O, &ExecResult) -> bool,
    round_trips: &mut usize,
    executions: &mut usize,
) -> Result<Vec<O>, PostError> {
    let mut accepted = Vec::new();
    let mut size = FIRST_CHUNK;
    loop {
        let (owners, chunk): (Vec<O>, Vec<TestCase>) = cands.by_ref().take(size).unzip();
        size = (size * 2).min(CHUNK);
        if chunk.is_empty() || runner.out_of_time() {
            return Ok(accepted);
        }
        let results = run_batch(runner, &chunk, round_trips, executions)?;
        accepted
            .extend(owners.into_iter().zip(&results).filter(|(o, r)| accept(runner, *o, r)).map(|(o, _)| o));
    }
}

/// The result of [`minimise`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minimised {
    /// The minimised tests, in the order of the original tests they came from.
    pub suite: Vec<TestCase>,
    /// Goals the original suite covers (sorted), and those the minimised suite covers on its final
    /// execution.
    pub covered_before: Vec<u32>,
    pub covered_after: Vec<u32>,
    /// Goals covered before but not after, even after re-adding original tests for them (empty
    /// unless the code under test covers goals non-deterministically).
    pub lost: Vec<u32>,
    /// Original tests appended back because their minimised versions did not cover a goal on the
    /// final execution (a flaky goal).
    pub restored: usize,
    pub tests_before: usize,
    pub statements_before: usize,
    pub statements_after: usize,
    /// Batches sent to the runner, and the tests they held.
    pub round_trips: usize,
    pub executions: usize,
}

impl Minimised {
    /// Whether the minimised suite covers exactly the goals the original did.
    pub fn preserved(&self) -> bool {
        self.covered_before == self.covered_after
    }
}

/// `test` without the statements in `remove` and every statement that uses (transitively) a
/// variable of a removed statement, with the remaining uses renumbered. Indices out of range are
/// ignored. The result is well-typed when `test` is: nothing left refers to a removed variable.
pub fn remove_with_dependents(test: &TestCase, remove: &[usize]) -> TestCase {
    let mut gone = vec![false; test.len()];
    for &i in remove {
        if let Some(g) = gone.get_mut(i) {
            *g = true;
        }
    }
    for i in 0..test.len() {
        if !gone[i] && test.statements[i].uses().iter().any(|v| gone.get(v.index()).copied().unwrap_or(true))
        {
            gone[i] = true;
        }
    }
    let mut new_index = vec![0u32; test.len()];
    let mut out = TestCase::new();
    for (i, st) in test.statements.iter().enumerate() {
        if gone[i] {
            continue;
        }
        let mut st = st.clone();
        for v in st.uses_mut() {
            *v = VarId(new_index[v.index()]);
        }
        new_index[i] = out.push(st).0;
    }
    out
}

/// Whether a candidate's execution keeps what its test must cover and stays inside `allowed`.
fn acceptable(runner: &dyn Runner, r: &ExecResult, need: &BTreeSet<u32>, allowed: &BTreeSet<u32>) -> bool {
    // A guard firing means the candidate would escape in the user's run (`cut_at_guards` took such
    // statements out of the suite; removing a statement must not bring one back).
    if r.status != ExecStatus::Normal {
        return false;
    }
    let cov = runner.covered(r);
    need.iter().all(|g| cov.binary_search(g).is_ok()) && cov.iter().all(|g| allowed.contains(g))
}

/// One test being shrunk: its current form and the goals it must keep covering.
struct Shrinking {
    current: TestCase,
    need: BTreeSet<u32>,
    active: bool,
}

/// Minimises `suite` (see the module documentation). The runner's machinery failing is the only
/// error; the code under test misbehaving only makes candidates fail.
pub fn minimise(runner: &mut dyn Runner, suite: Vec<TestCase>) -> Result<Minimised, PostError> {
    let (mut round_trips, mut executions) = (0, 0);
    let tests_before = suite.len();
    let statements_before = suite.iter().map(TestCase::len).sum();
    let results = run_batch(runner, &suite, &mut round_trips, &mut executions)?;
    let covered: Vec<Vec<u32>> = results.iter().map(|r| runner.covered(r)).collect();
    let before: BTreeSet<u32> = covered.iter().flatten().copied().collect();

    // 1. The shortest covering test of each goal (the earliest among equals).
    let mut shortest: BTreeMap<u32, usize> = BTreeMap::new();
    for (t, cov) in covered.iter().enumerate() {
        for &g in cov {
            let e = shortest.entry(g).or_insert(t);
            if suite[t].len() < suite[*e].len() {
                *e = t;
            }
        }
    }
    let mut chosen: BTreeMap<usize, BTreeSet<u32>> = BTreeMap::new();
    for (&g, &t) in &shortest {
        chosen.entry(t).or_default().insert(g);
    }
    let mut work: Vec<Shrinking> = chosen
        .into_iter()
        .map(|(origin, need)| Shrinking { current: suite[origin].clone(), need, active: true })
        .collect();

    // 2. Statement removal, batched across tests; out of time, the tests stay as shrunk so far
    // (every accepted candidate was checked).
    for _ in 0..MAX_ROUNDS {
        if runner.out_of_time() {
            break;
        }
        if !shrink_round(runner, &mut work, &before, &mut round_trips, &mut executions)? {
            break;
        }
    }

    // 3 and 4. Execute the minimised tests, drop the redundant ones, compare the goals.
    let minimised: Vec<TestCase> = work.iter().map(|w| w.current.clone()).collect();
    let results = run_batch(runner, &minimised, &mut round_trips, &mut executions)?;
    let mut cov: Vec<Vec<u32>> = results.iter().map(|r| runner.covered(r)).collect();
    let mut keep = vec![true; minimised.len()];
    drop_redundant(&minimised, &cov, &mut keep);
    let mut suite_out: Vec<TestCase> =
        minimised.iter().zip(&keep).filter(|(_, k)| **k).map(|(t, _)| t.clone()).collect();
    cov = cov.into_iter().zip(&keep).filter(|(_, k)| **k).map(|(c, _)| c).collect();
    let mut after: BTreeSet<u32> = cov.iter().flatten().copied().collect();

    // A goal the minimised suite lost (flaky code) brings its original shortest test back.
    let mut restored = 0;
    let lost_now: Vec<u32> = before.difference(&after).copied().collect();
    if !lost_now.is_empty() {
        let origins: BTreeSet<usize> = lost_now.iter().filter_map(|g| shortest.get(g).copied()).collect();
        let back: Vec<TestCase> = origins.iter().map(|&t| suite[t].clone()).collect();
        let results = run_batch(runner, &back, &mut round_trips, &mut executions)?;
        for (t, r) in back.into_iter().zip(&results) {
            after.extend(runner.covered(r));
            suite_out.push(t);
            restored += 1;
        }
    }
    let lost = before.difference(&after).copied().collect();
    let statements_after = suite_out.iter().map(TestCase::len).sum();
    Ok(Minimised {
        suite: suite_out,
        covered_before: before.into_iter().collect(),
        covered_after: after.into_iter().collect(),
        lost,
        restored,
        tests_before,
        statements_before,
        statements_after,
        round_trips,
        executions,
    })
}

/// One round of statement removal over the active tests (step 2): each single removal, then the
/// first j passing removals together; each test takes the largest combination that passed.
/// `false` when nothing is left to try.
fn shrink_round(
    runner: &mut dyn Runner,
    work: &mut [Shrinking],
    before: &BTreeSet<u32>,
    round_trips: &mut usize,
    executions: &mut usize,
) -> Result<bool, PostError> {
    let singles = work.iter().enumerate().filter(|(_, w)| w.active).flat_map(|(k, w)| {
        (0..w.current.len()).rev().map(move |i| ((k, i), remove_with_dependents(&w.current, &[i])))
    });
    let mut any = false;
    let singles = singles.filter(|(_, cand)| !cand.is_empty()).inspect(|_| any = true);
    let need: Vec<&BTreeSet<u32>> = work.iter().map(|w| &w.need).collect();
    let ok =
        |runner: &dyn Runner, (k, _): (usize, usize), r: &ExecResult| acceptable(runner, r, need[k], before);
    let accepted = run_accepted(runner, singles, ok, round_trips, executions)?;
    if !any {
        return Ok(false);
    }
    // Per test: the statements whose removal alone passed, last first.
    let mut passed: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (k, i) in accepted {
        passed.entry(k).or_default().push(i);
    }
    for (k, w) in work.iter_mut().enumerate() {
        if w.active && !passed.contains_key(&k) {
            w.active = false;
        }
    }
    if passed.is_empty() {
        return Ok(false);
    }
    // Combinations: the first j passing removals together, for j >= 2.
    let mut combos = Vec::new();
    for (&k, singles) in &passed {
        let mut seen: Vec<TestCase> = Vec::new();
        for j in 2..=singles.len() {
            let cand = remove_with_dependents(&work[k].current, &singles[..j]);
            if !cand.is_empty() && !seen.contains(&cand) {
                seen.push(cand.clone());
                combos.push(((k, j), cand));
            }
        }
    }
    let need: Vec<&BTreeSet<u32>> = work.iter().map(|w| &w.need).collect();
    let ok =
        |runner: &dyn Runner, (k, _): (usize, usize), r: &ExecResult| acceptable(runner, r, need[k], before);
    let accepted = run_accepted(runner, combos.into_iter(), ok, round_trips, executions)?;
    let mut best: BTreeMap<usize, usize> = BTreeMap::new();
    for (k, j) in accepted {
        if best.get(&k).is_none_or(|bj| j > *bj) {
            best.insert(k, j);
        }
    }
    for (k, singles) in passed {
        // Without a passing combination, the last statement's removal (removals last first).
        let j = best.get(&k).copied().unwrap_or(1);
        work[k].current = remove_with_dependents(&work[k].current, &singles[..j]);
    }
    Ok(true)
}

/// Marks as not kept each test whose goals the other kept tests cover, trying the longest tests
/// first (the later among equals), so that short tests survive.
fn drop_redundant(tests: &[TestCase], cov: &[Vec<u32>], keep: &mut [bool]) {
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for c in cov {
        for &g in c {
            *count.entry(g).or_default() += 1;
        }
    }
    let mut order: Vec<usize> = (0..tests.len()).collect();
    order.sort_by(|&a, &b| tests[b].len().cmp(&tests[a].len()).then(b.cmp(&a)));
    for t in order {
        if cov[t].iter().all(|g| count.get(g).copied().unwrap_or(0) > 1) {
            keep[t] = false;
            for g in &cov[t] {
                if let Some(c) = count.get_mut(g) {
                    *c -= 1;
                }
            }
        }
    }
}
