//! The repair loop of `generate_tests` (DESIGN.md §2): the rendered tests are compiled and run in
//! fresh JVMs by a [`Verifier`] round after round; a test that does not compile is dropped (a
//! renderer bug, logged), an assertion that fails in a run is removed in the first rounds, a test
//! that fails otherwise or later is dropped whole, until a round passes. When the round cap or the
//! post-processing budget ends the rounds, the last round's failing tests go and the rest are run
//! again without them (a confirmation): the tests of a class share static state in one JVM, so a
//! test may have passed only because a dropped one ran before it. A round that passed only in runs
//! whose JVM ended early (the tests after that ran in fresh JVMs) is confirmed too. A test no
//! passing run confirmed is not written. It does not decide the budget (`pipeline` gives it [`Rounds`]) or run anything
//! itself.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use junit::{JUnitTest, RenderConfig, Rendered};

use crate::EngineError;
use crate::pipeline::{
    CompileError, Phase, TestFailure, Verification, Verifier, WriteConfig, test_class_name,
};

/// Rounds that run the tests in which a failing assertion is removed; from the next one on, a test
/// that fails goes whole. A test whose assertions keep failing round after round is flaky.
const ASSERTION_ROUNDS: usize = 2;
/// Rounds that run the tests (compile-only rounds and confirmations aside). Past it, the tests that
/// failed in the last round go and the rest are confirmed (the loop once ran 7 rounds of 5 fresh
/// JVMs on a class whose tests failed anew in every round).
const MAX_RUN_ROUNDS: usize = 4;
/// Confirmations after the last round, each a run of what is left once the failing tests of the run
/// before are gone. The first checks the tests that a test the last round dropped set up state
/// for (a static list it filled or emptied); the second, those that the first's drops set up for
/// (a chain of two: one test fills, one empties, one reads). A suite still failing after that is
/// not settling (its tests fail anew in each run, as `Flaky`'s do in the tests), and each further
/// try costs a compile and a JVM: what is left is not written.
const MAX_CONFIRMATIONS: usize = 2;
/// Fresh-JVM runs of a confirmation. It looks for a test that depends on one dropped before it, which
/// JUnit's fixed order shows in every run; whether a test varies between runs (the clock, identity
/// hashes, the schedule) the rounds' `WriteConfig::verify_runs` runs already checked.
const CONFIRM_RUNS: usize = 1;
/// Rounds in all, compile-only ones included: at most `MAX_RUN_ROUNDS + MAX_CONFIRMATIONS` run
/// the tests, and each compile-only round drops at least one test, so this bounds a pathological
/// suite, never a real one (8 compile-only rounds; javac reports all of a file's errors at once).
const MAX_ROUNDS: usize = 14;

/// Splits the tests into files of at most `per_file` tests and renders them. Returns each file
/// with the indices (into `tests`) of its tests.
fn render_files(
    cut: &str,
    tests: &[JUnitTest],
    per_file: usize,
    render_config: &dyn Fn(String) -> RenderConfig,
) -> Result<Vec<(Rendered, Vec<usize>)>, EngineError> {
    let base = test_class_name(cut);
    let per_file = per_file.max(1);
    let n_files = tests.len().div_ceil(per_file).max(1);
    let mut out = Vec::with_capacity(n_files);
    for f in 0..n_files {
        let range: Vec<usize> = (f * per_file..((f + 1) * per_file).min(tests.len())).collect();
        let name = if f == 0 { base.clone() } else { format!("{base}{}", f + 1) };
        let chunk: Vec<JUnitTest> = range.iter().map(|&i| tests[i].clone()).collect();
        let rendered = junit::render(cut, &chunk, &render_config(name))?;
        out.push((rendered, range));
    }
    Ok(out)
}

/// When the repair loop may start another round that runs the tests, or a confirmation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rounds {
    /// No round runs the tests after this instant (the post-processing budget's share).
    pub(crate) last_start: Option<Instant>,
    /// The end of the post-processing budget: no round or confirmation starts that the last one's
    /// durations say would end past it (a round of 5 fresh JVMs on a large suite takes tens of
    /// seconds).
    pub(crate) end: Option<Instant>,
}

impl Rounds {
    /// Whether another round that runs the tests may start, the last one having taken `compile`
    /// to compile and `run` to run them, `one_run` for each of its fresh JVMs: the next round
    /// compiles and runs, and if it fails as the last, what is left is compiled and confirmed by one
    /// run (javac on a few hundred tests takes seconds).
    fn another(&self, compile: Duration, run: Duration, one_run: Duration) -> bool {
        let now = Instant::now();
        self.last_start.is_none_or(|d| now < d)
            && self.end.is_none_or(|e| now + compile * 2 + run + one_run <= e)
    }

    /// Whether a confirmation that takes `took` (a compile and a run as long as the last ones) ends
    /// before the budget's end. It may start past `last_start`: it belongs to the last round, which
    /// started before it, as the compile check that once ended the loop did.
    fn confirmation(&self, took: Duration) -> bool {
        self.end.is_none_or(|e| Instant::now() + took <= e)
    }
}

/// What the repair loop ([`verify`]) works with besides the tests.
pub(crate) struct Verify<'a> {
    /// The class under test (binary name), for the log.
    pub(crate) cut: &'a str,
    pub(crate) write: &'a WriteConfig,
    /// The render configuration for a test class of the given simple name.
    pub(crate) render_config: &'a dyn Fn(String) -> RenderConfig,
    pub(crate) verifier: &'a mut dyn Verifier,
    pub(crate) rounds: &'a Rounds,
    pub(crate) on_stage: &'a mut dyn FnMut(Phase),
    pub(crate) log: &'a mut Vec<String>,
}

/// The repair loop: render, compile, run `write.verify_runs` times; drop what did not compile,
/// remove failing assertions in the first `ASSERTION_ROUNDS` rounds that run the tests and drop
/// every other failing test whole, until a round passes. After `MAX_RUN_ROUNDS` such rounds, or
/// once `rounds` says no other fits the budget, the tests that failed the last round go whole and
/// the rest are confirmed: compiled and run `CONFIRM_RUNS` time without them, the failing ones
/// dropped, until a confirmation passes. When `MAX_CONFIRMATIONS` failed or the budget leaves no
/// time for another after the first, the tests left are not written (counted in `Verification::unconfirmed_tests`):
/// they passed only with tests since dropped, and may fail without them. Each round's drops are
/// logged.
pub(crate) fn verify(
    cx: Verify<'_>,
    mut tests: Vec<JUnitTest>,
) -> Result<(Vec<JUnitTest>, Vec<Rendered>, Verification), EngineError> {
    let Verify { cut, write, render_config, verifier, rounds, on_stage, log } = cx;
    let mut v = Verification::default();
    let mut run_rounds = 0;
    // Set once the last round's failing tests are gone: every later run is a confirmation.
    let mut confirming = false;
    // The last compile's and the last fresh-JVM run's durations: what a confirmation will take.
    let (mut compile_took, mut one_run) = (Duration::ZERO, Duration::ZERO);
    loop {
        if confirming && !tests.is_empty() && !may_confirm(cut, &mut v, rounds, compile_took + one_run, log) {
            v.unconfirmed_tests += tests.len();
            log.push(format!(
                "{cut}: verification: the {} tests left are not written: each passed its last run only \
                 with tests since dropped, or in fresh JVMs after one ended early",
                tests.len()
            ));
            return Ok((Vec::new(), Vec::new(), v));
        }
        v.rounds += 1;
        on_stage(Phase::Verifying { round: v.rounds });
        if v.rounds > MAX_ROUNDS && !tests.is_empty() {
            // Unreachable on real suites (see MAX_ROUNDS); give up on every test rather than
            // write one that was not verified.
            log.push(format!("{cut}: verification did not settle after {MAX_ROUNDS} rounds; no tests kept"));
            v.failing_tests += tests.len();
            tests.clear();
        }
        let files = render_files(cut, &tests, write.tests_per_file, render_config)?;
        let rendered: Vec<Rendered> = files.iter().map(|(r, _)| r.clone()).collect();
        let compile_started = Instant::now();
        let errors = verifier.compile(&rendered)?;
        compile_took = compile_started.elapsed();
        if !errors.is_empty() {
            let drop = uncompilable(cut, &files, &errors, log);
            if drop.is_empty() {
                // Not even an empty test class compiles: the classpath or the JDK is at fault.
                return Err(EngineError::Uncompilable(errors[0].message.clone()));
            }
            v.uncompilable_tests += drop.len();
            tests = keep_except(tests, &drop);
            continue;
        }
        if tests.is_empty() {
            // The empty class compiled (so the classpath and JDK are sound), but a test class
            // without a test method is not written: JUnit 4 fails it ("No runnable methods").
            v.verified = write.verify_runs > 0 && !confirming;
            return Ok((tests, Vec::new(), v));
        }
        if write.verify_runs == 0 {
            return Ok((tests, rendered, v));
        }
        let runs = if confirming { CONFIRM_RUNS } else { write.verify_runs };
        run_rounds += usize::from(!confirming);
        let run_started = Instant::now();
        let failures = verifier.run(&rendered, runs)?;
        let run_took = run_started.elapsed();
        let done = verifier.runs_done().unwrap_or(runs);
        if done < runs {
            v.short_rounds += 1;
            log.push(format!(
                "{cut}: verification round {}: the tests ran {done} of {runs} times (the post-processing budget)",
                v.rounds
            ));
        }
        one_run = run_took / done.max(1) as u32;
        if failures.is_empty() && !kept_whole(cut, &*verifier, done, v.rounds, log) {
            confirming = true;
            continue;
        }
        if failures.is_empty() {
            v.verified = true;
            if confirming {
                log.push(format!(
                    "{cut}: verification round {}: the {} tests left passed without the tests dropped",
                    v.rounds,
                    tests.len()
                ));
            }
            return Ok((tests, rendered, v));
        }
        if confirming {
            let (drop, _, why) = failing(&files, &failures, false);
            v.failing_tests += drop.len();
            log.push(format!(
                "{cut}: verification round {} (confirmation {}): {} tests dropped, which fail without \
                 the tests dropped before them",
                v.rounds,
                v.confirmations,
                drop.len()
            ));
            log.extend(why.into_iter().map(|w| format!("  {w}")));
            tests = keep_except(tests, &drop);
            continue;
        }
        let out_of_time = !rounds.another(compile_took, run_took, one_run);
        // The last round: whatever failed goes whole, since no round will check a repaired test.
        let last = run_rounds >= MAX_RUN_ROUNDS || out_of_time;
        let how = match (last, run_rounds <= ASSERTION_ROUNDS) {
            (true, _) => Repair::Last { budget: out_of_time },
            (false, true) => Repair::Assertions,
            (false, false) => Repair::Tests,
        };
        tests = repair(cut, &mut v, tests, &files, &failures, how, log);
        if last {
            confirming = true;
            v.stopped_by_budget = out_of_time;
        }
    }
}

/// Whether a passing round ran its tests in one JVM at least once (`done` runs made). Otherwise
/// every run lost its JVM before the end (under load, its time limit at the budget's end) and the
/// tests after that ran in fresh JVMs: a test among them passed without the state the tests before
/// it leave, which the user's run has (a plain run of Hoarder's tests then failed 5 times of 5).
/// Passing is not enough then; one JVM must run them all as written (logged).
fn kept_whole(cut: &str, verifier: &dyn Verifier, done: usize, round: usize, log: &mut Vec<String>) -> bool {
    let whole = verifier.whole_runs().unwrap_or(done) > 0;
    if !whole {
        log.push(format!(
            "{cut}: verification round {round}: the tests passed, but no run kept them in one JVM: \
             they are confirmed by one that does"
        ));
    }
    whole
}

/// Whether a confirmation may run, counted in `v` when it may: fewer than `MAX_CONFIRMATIONS` made
/// and, past the first, one taking `took` fits the budget. The first always runs, as the first round
/// does: without it nothing verified could be written once a round has dropped tests, and it costs
/// a compile and one fresh JVM (which `JvmVerifier` cuts to 10 s past the budget's end). When none
/// may, why is logged (the caller drops the tests left).
fn may_confirm(
    cut: &str,
    v: &mut Verification,
    rounds: &Rounds,
    took: Duration,
    log: &mut Vec<String>,
) -> bool {
    let why = if v.confirmations >= MAX_CONFIRMATIONS {
        format!("{MAX_CONFIRMATIONS} confirmations made, none passed in one JVM; no more are made")
    } else if v.confirmations > 0 && !rounds.confirmation(took) {
        v.stopped_by_budget = true;
        "the post-processing budget leaves no time for one".to_string()
    } else {
        v.confirmations += 1;
        return true;
    };
    log.push(format!("{cut}: verification: no confirmation ({why})"));
    false
}

/// What a failed round that ran the tests does with its failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Repair {
    /// One of the first `ASSERTION_ROUNDS`: a failing assertion is removed, a test failing
    /// elsewhere dropped.
    Assertions,
    /// A failing test is dropped; another round follows.
    Tests,
    /// The last round (`budget`: the post-processing budget made it so): a failing test is dropped
    /// and the rest are confirmed.
    Last { budget: bool },
}

/// A failed round's repair: the tests left, the figures in `v`, the drops logged.
fn repair(
    cut: &str,
    v: &mut Verification,
    mut tests: Vec<JUnitTest>,
    files: &[(Rendered, Vec<usize>)],
    failures: &[TestFailure],
    how: Repair,
    log: &mut Vec<String>,
) -> Vec<JUnitTest> {
    let (drop_tests, failed_assertions, why) = failing(files, failures, how == Repair::Assertions);
    let failed = failed_assertions.iter().filter(|(t, _)| !drop_tests.contains(t)).count();
    let drop_assertions = with_dependents(&tests, &failed_assertions);
    let removed = drop_assertions.iter().filter(|(t, _)| !drop_tests.contains(t)).count();
    v.failing_assertions += removed;
    v.failing_tests += drop_tests.len();
    log.push(format!(
        "{cut}: verification round {}: {removed} assertions removed ({failed} failed, \
         the others observe values depending on theirs), {} tests dropped{}",
        v.rounds,
        drop_tests.len(),
        match how {
            Repair::Last { budget: true } => {
                "; the post-processing budget is used: the rest are run once more without them"
            }
            Repair::Last { budget: false } => "; the last round: the rest are run once more without them",
            Repair::Assertions | Repair::Tests => "",
        }
    ));
    log.extend(why.into_iter().map(|w| format!("  {w}")));
    remove_assertions(&mut tests, &drop_assertions);
    keep_except(tests, &drop_tests)
}

/// The tests (indices into the suite) a round's compile errors point at, each error logged: the
/// test whose lines hold the error, or every test of the file for an error outside them.
fn uncompilable(
    cut: &str,
    files: &[(Rendered, Vec<usize>)],
    errors: &[CompileError],
    log: &mut Vec<String>,
) -> BTreeSet<usize> {
    let mut drop = BTreeSet::new();
    for e in errors {
        let (file, indices) = &files[e.file];
        let hit = e.line.and_then(|l| file.tests.iter().position(|t| t.first_line <= l && l <= t.last_line));
        // The offending line itself: the dropped test is written nowhere else.
        let code = e.line.and_then(|l| file.source.lines().nth(l.saturating_sub(1) as usize)).map(str::trim);
        log.push(format!(
            "{cut}: renderer bug: {}:{}: {}{}",
            file.relative_path(),
            e.line.map_or("?".to_string(), |l| l.to_string()),
            e.message,
            code.map_or(String::new(), |c| format!(" [in `{c}`]"))
        ));
        match hit {
            Some(t) => drop.insert(indices[t]),
            // An error outside any test method: nothing in this file can be kept.
            None => {
                drop.extend(indices.iter().copied());
                true
            }
        };
    }
    drop
}

/// Per failing test of a round: the test to drop, or (when `repair` and the failing line is an
/// assertion) that assertion as (test, assertion); with a line of the log for each.
fn failing(
    files: &[(Rendered, Vec<usize>)],
    failures: &[TestFailure],
    repair: bool,
) -> (BTreeSet<usize>, BTreeSet<(usize, usize)>, Vec<String>) {
    let mut drop_tests = BTreeSet::new();
    let mut drop_assertions: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut why = Vec::new();
    // A round runs the tests several times: a test failing in each run is one line of the log.
    let mut logged: BTreeSet<(usize, &str, Option<u32>)> = BTreeSet::new();
    for f in failures {
        if !logged.insert((f.file, f.method.as_str(), f.line)) {
            continue;
        }
        let (file, indices) = &files[f.file];
        let Some(t) = file.tests.iter().position(|t| t.method == f.method) else {
            // A class-level failure (the test class could not be set up): no test of the file
            // can be trusted.
            why.push(format!("{} as a whole ({}): {}", file.class_name, f.method, short(&f.message)));
            drop_tests.extend(indices.iter().copied());
            continue;
        };
        let lines = &file.tests[t];
        let assertion = f.line.and_then(|l| lines.assertions.iter().find(|(_, al)| *al == l));
        let at = f.line.map_or(String::new(), |l| format!(" line {l}"));
        match assertion {
            Some(&(a, _)) if repair => {
                why.push(format!(
                    "{}.{}{at}: assertion removed: {}",
                    file.class_name,
                    f.method,
                    short(&f.message)
                ));
                drop_assertions.insert((indices[t], a));
            }
            _ => {
                why.push(format!(
                    "{}.{}{at}: test dropped: {}",
                    file.class_name,
                    f.method,
                    short(&f.message)
                ));
                drop_tests.insert(indices[t]);
            }
        }
    }
    (drop_tests, drop_assertions, why)
}

/// The (test, assertion) pairs of `failed` with, in each test, the assertions that observe values
/// depending on what a failed one observed (`JUnitTest::dependent_assertions`). A value that
/// differs between runs (the code under test read the real clock) fails one assertion per run
/// of JUnit, which stops a test at its first failure: removed one by one, a test asserting three
/// values that depend on it outlasted the assertion rounds and was dropped whole (ThreeTen-Extra's
/// `DayOfMonth.now()`: 10 of 29 tests at 5,000 evaluations).
fn with_dependents(tests: &[JUnitTest], failed: &BTreeSet<(usize, usize)>) -> BTreeSet<(usize, usize)> {
    let mut by_test: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &(t, a) in failed {
        by_test.entry(t).or_default().push(a);
    }
    let mut out = BTreeSet::new();
    for (t, unstable) in by_test {
        for a in tests[t].dependent_assertions(&unstable) {
            out.insert((t, a));
        }
    }
    out
}

/// Removes the (test, assertion) pairs of `drop` from the tests.
fn remove_assertions(tests: &mut [JUnitTest], drop: &BTreeSet<(usize, usize)>) {
    for (t, test) in tests.iter_mut().enumerate() {
        let remove: Vec<usize> = drop.range((t, 0)..=(t, usize::MAX)).map(|&(_, a)| a).collect();
        if !remove.is_empty() {
            test.assertions = test
                .assertions
                .drain(..)
                .enumerate()
                .filter(|(a, _)| !remove.contains(a))
                .map(|(_, x)| x)
                .collect();
        }
    }
}

/// A failure message for the log: its first line, at most 200 characters.
fn short(message: &str) -> String {
    let line = message.lines().next().unwrap_or("");
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

fn keep_except(tests: Vec<JUnitTest>, drop: &BTreeSet<usize>) -> Vec<JUnitTest> {
    tests.into_iter().enumerate().filter(|(i, _)| !drop.contains(i)).map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests;
