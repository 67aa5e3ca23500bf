//! The repair loop against scripted verifiers: which tests and assertions survive which
//! failures, and which are confirmed after the last round, without a JVM.

use junit::Style;

use super::*;
use crate::pipeline::JacocoFigures;
use crate::pipeline::tests::test_of;

/// [`super::verify`] with its inputs spelled out, stage reports ignored.
fn verify(
    cut: &str,
    tests: Vec<JUnitTest>,
    write: &WriteConfig,
    render_config: &dyn Fn(String) -> RenderConfig,
    verifier: &mut dyn Verifier,
    rounds: &Rounds,
    log: &mut Vec<String>,
) -> Result<(Vec<JUnitTest>, Vec<Rendered>, Verification), EngineError> {
    let cx = Verify { cut, write, render_config, verifier, rounds, on_stage: &mut |_| {}, log };
    super::verify(cx, tests)
}

/// Fails to compile any file holding `= {uncompilable};`, fails every run at the line of an
/// assertion on a value in `failing`, and without a line for a test holding `= {crashing};`.
struct Scripted {
    uncompilable: i32,
    failing: i32,
    crashing: i32,
    calls: Vec<&'static str>,
}

fn lines_with(f: &Rendered, needle: &str) -> Vec<u32> {
    f.source.lines().enumerate().filter(|(_, l)| l.contains(needle)).map(|(i, _)| i as u32 + 1).collect()
}

impl Verifier for Scripted {
    fn compile(&mut self, files: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
        self.calls.push("compile");
        let mut out = Vec::new();
        for (i, f) in files.iter().enumerate() {
            for line in lines_with(f, &format!("= {};", self.uncompilable)) {
                out.push(CompileError { file: i, line: Some(line), message: "scripted".into() });
            }
        }
        Ok(out)
    }

    fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
        self.calls.push("run");
        assert_eq!(runs, 5);
        let mut out = Vec::new();
        for (i, f) in files.iter().enumerate() {
            for t in &f.tests {
                let inside = |l: &u32| t.first_line <= *l && *l <= t.last_line;
                for line in
                    lines_with(f, &format!("assertEquals({},", self.failing)).iter().filter(|l| inside(l))
                {
                    out.push(TestFailure {
                        file: i,
                        method: t.method.clone(),
                        line: Some(*line),
                        message: "x".into(),
                    });
                }
                if lines_with(f, &format!("= {};", self.crashing)).iter().any(inside) {
                    out.push(TestFailure {
                        file: i,
                        method: t.method.clone(),
                        line: None,
                        message: "y".into(),
                    });
                }
            }
        }
        Ok(out)
    }

    fn coverage(&mut self, _: &[Rendered], _: &str) -> Result<JacocoFigures, EngineError> {
        Ok(JacocoFigures::default())
    }
}

const NO_LIMIT: Rounds = Rounds { last_start: None, end: None };

/// The render configuration of the tests here: JUnit 4, seed 1, the class name given.
fn junit4_named(name: String) -> RenderConfig {
    let mut rc = RenderConfig::new(Style::JUnit4, 1);
    rc.class_name = Some(name);
    rc
}

fn run_loop(
    tests: Vec<JUnitTest>,
    v: &mut Scripted,
) -> (Vec<JUnitTest>, Vec<Rendered>, Verification, Vec<String>) {
    let write = WriteConfig::new(Style::JUnit4);
    let config = junit4_named;
    let mut log = Vec::new();
    let (t, f, ver) = verify("p.Cut", tests, &write, &config, v, &NO_LIMIT, &mut log).expect("verifies");
    (t, f, ver, log)
}

#[test]
fn uncompilable_tests_go_failing_assertions_go_crashing_tests_go() {
    let mut v = Scripted { uncompilable: 13, failing: 7, crashing: 9, calls: Vec::new() };
    let (tests, files, ver, log) = run_loop(vec![test_of(1), test_of(7), test_of(13), test_of(9)], &mut v);
    let values: Vec<(usize, usize)> = tests.iter().map(|t| (t.case.len(), t.assertions.len())).collect();
    assert_eq!(values, [(1, 1), (1, 0)], "1 keeps its assertion, 7 loses it, 13 and 9 are dropped");
    assert_eq!(
        ver,
        Verification {
            rounds: 3,
            uncompilable_tests: 1,
            failing_assertions: 1,
            failing_tests: 1,
            verified: true,
            stopped_by_budget: false,
            short_rounds: 0,
            confirmations: 0,
            unconfirmed_tests: 0,
        }
    );
    assert_eq!(v.calls, ["compile", "compile", "run", "compile", "run"]);
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].class_name, "CutTest");
    assert!(log.iter().any(|l| l.contains("renderer bug")), "{log:?}");
}

#[test]
fn a_class_left_without_tests_gets_no_file() {
    let mut v = Scripted { uncompilable: 13, failing: 7, crashing: 9, calls: Vec::new() };
    let (tests, files, ver, _) = run_loop(vec![test_of(13)], &mut v);
    assert!(tests.is_empty());
    assert!(files.is_empty(), "{files:?}");
    assert_eq!(v.calls, ["compile", "compile"], "the empty class is still compiled once");
    assert_eq!(ver.uncompilable_tests, 1);
}

#[test]
fn a_failing_assertion_that_stays_drops_its_test_after_the_assertion_rounds() {
    // The assertion on 7 is re-added every time: the loop must end by dropping the test.
    struct Stubborn(Scripted);
    impl Verifier for Stubborn {
        fn compile(&mut self, f: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
            self.0.compile(f)
        }
        fn run(&mut self, f: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
            let mut out = self.0.run(f, runs)?;
            // Every test of value 7 fails at its first body line, which is no assertion.
            for (i, file) in f.iter().enumerate() {
                for t in &file.tests {
                    if file.source.lines().nth(t.first_line as usize - 1).is_some_and(|l| l.contains("= 7;"))
                    {
                        out.push(TestFailure {
                            file: i,
                            method: t.method.clone(),
                            line: Some(t.first_line),
                            message: "z".into(),
                        });
                    }
                }
            }
            Ok(out)
        }
        fn coverage(&mut self, f: &[Rendered], c: &str) -> Result<JacocoFigures, EngineError> {
            self.0.coverage(f, c)
        }
    }
    let mut v = Stubborn(Scripted { uncompilable: -1, failing: 7, crashing: -1, calls: Vec::new() });
    let write = WriteConfig::new(Style::JUnit4);
    let config = junit4_named;
    let (tests, _, ver) =
        verify("Cut", vec![test_of(7), test_of(2)], &write, &config, &mut v, &NO_LIMIT, &mut Vec::new())
            .expect("verifies");
    assert_eq!(tests.len(), 1);
    assert_eq!(ver.failing_tests, 1);
    assert!(ver.verified);
}

#[test]
fn tests_per_file_splits_into_numbered_classes() {
    let mut v = Scripted { uncompilable: -1, failing: -1, crashing: -1, calls: Vec::new() };
    let mut write = WriteConfig::new(Style::JUnit5);
    write.tests_per_file = 2;
    let config = |name: String| {
        let mut rc = RenderConfig::new(Style::JUnit5, 1);
        rc.class_name = Some(name);
        rc
    };
    let tests: Vec<JUnitTest> = (0..5).map(test_of).collect();
    let (_, files, _) =
        verify("a.b.C$D", tests, &write, &config, &mut v, &NO_LIMIT, &mut Vec::new()).expect("verifies");
    let names: Vec<String> = files.iter().map(Rendered::binary_name).collect();
    assert_eq!(names, ["a.b.C_DTest", "a.b.C_DTest2", "a.b.C_DTest3"]);
    assert_eq!(files.iter().map(|f| f.tests.len()).collect::<Vec<_>>(), [2, 2, 1]);
}

/// Fails, in run k (from 1; a round's runs count as one), the assertion of the test holding the
/// value k: a suite whose tests fail anew in every round, as flaky ones do. Records the fresh-JVM
/// runs asked of each run.
struct Flaky {
    runs: usize,
    compiles: usize,
    asked: Vec<usize>,
}

impl Flaky {
    fn new() -> Flaky {
        Flaky { runs: 0, compiles: 0, asked: Vec::new() }
    }
}

/// [`Flaky`] whose rounds each made only two of the runs asked (the deadline came first).
struct Short(Flaky);

impl Verifier for Short {
    fn compile(&mut self, f: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
        self.0.compile(f)
    }

    fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
        self.0.run(files, runs)
    }

    fn coverage(&mut self, f: &[Rendered], cut: &str) -> Result<JacocoFigures, EngineError> {
        self.0.coverage(f, cut)
    }

    fn runs_done(&self) -> Option<usize> {
        Some(2)
    }
}

impl Verifier for Flaky {
    fn compile(&mut self, _: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
        self.compiles += 1;
        Ok(Vec::new())
    }

    fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
        self.runs += 1;
        self.asked.push(runs);
        let mut s = Scripted { uncompilable: -1, failing: self.runs as i32, crashing: -1, calls: Vec::new() };
        s.run(files, 5)
    }

    fn coverage(&mut self, _: &[Rendered], _: &str) -> Result<JacocoFigures, EngineError> {
        Ok(JacocoFigures::default())
    }
}

/// The loop over tests holding 1 to `n`, in JUnit 4, with `verifier` and `rounds`: the tests kept,
/// the files written, the figures and the log.
fn numbered(
    n: i32,
    verifier: &mut dyn Verifier,
    rounds: &Rounds,
) -> (Vec<JUnitTest>, Vec<Rendered>, Verification, Vec<String>) {
    let write = WriteConfig::new(Style::JUnit4);
    let tests: Vec<JUnitTest> = (1..=n).map(test_of).collect();
    let mut log = Vec::new();
    let (kept, files, ver) =
        verify("Cut", tests, &write, &junit4_named, verifier, rounds, &mut log).expect("verifies");
    (kept, files, ver, log)
}

/// The rounds stop at their cap; each confirmation after it fails another test, and past
/// `MAX_CONFIRMATIONS` nothing that passed only with dropped tests is written.
#[test]
fn the_repair_loop_stops_after_its_run_rounds_and_writes_nothing_unconfirmed() {
    let mut v = Flaky::new();
    let (kept, files, ver, log) = numbered(8, &mut v, &NO_LIMIT);
    // Rounds 1 and 2 remove the assertions of 1 and 2; rounds 3 and 4 drop 3 and 4 whole; the two
    // confirmations drop 5 and 6; 1, 2, 7 and 8 passed no run without a test dropped since.
    assert_eq!(v.asked, [5, 5, 5, 5, 1, 1], "no round runs the tests past the cap");
    assert_eq!(v.compiles, MAX_RUN_ROUNDS + MAX_CONFIRMATIONS, "each confirmation compiles what it runs");
    assert!(kept.is_empty() && files.is_empty(), "{log:?}");
    assert_eq!(
        (ver.failing_assertions, ver.failing_tests, ver.confirmations, ver.unconfirmed_tests, ver.verified),
        (2, 4, 2, 4, false)
    );
    assert!(!ver.stopped_by_budget);
    assert!(
        log.iter().any(|l| l.contains("verification round 4") && l.contains("the last round")),
        "{log:?}"
    );
    assert!(log.iter().any(|l| l.contains("assertion removed")), "{log:?}");
    assert!(log.iter().any(|l| l.contains("(confirmation 2): 1 tests dropped")), "{log:?}");
    assert!(log.iter().any(|l| l.contains("no confirmation (2 confirmations")), "{log:?}");
    assert!(log.iter().any(|l| l.contains("the 4 tests left are not written")), "{log:?}");
}

#[test]
fn out_of_time_the_failing_tests_go_and_the_rest_are_confirmed_past_the_rounds_share() {
    // The rounds' share is used, the budget is not: the confirmations still run.
    let mut v = Flaky::new();
    let past = Rounds { last_start: Some(Instant::now()), end: None };
    let (kept, _, ver, log) = numbered(3, &mut v, &past);
    assert_eq!(v.asked, [5, 1, 1], "one round, two confirmations");
    assert!(kept.is_empty(), "every run fails another test: {log:?}");
    assert!(ver.stopped_by_budget && !ver.verified);
    assert_eq!((ver.failing_tests, ver.confirmations), (3, 2));
    assert!(log.iter().any(|l| l.contains("budget is used")), "{log:?}");
}

/// The budget's end has come: the first confirmation runs all the same (as the first round does),
/// and fails a test; there is no time for a second, and the test left, which passed only with the
/// dropped ones, is not written.
#[test]
fn with_no_time_for_a_second_confirmation_the_tests_left_are_not_written() {
    let mut v = Flaky::new();
    let now = Instant::now();
    let (kept, files, ver, log) = numbered(3, &mut v, &Rounds { last_start: Some(now), end: Some(now) });
    assert_eq!((v.asked.as_slice(), v.compiles), (&[5, 1][..], 2), "nothing more past the budget");
    assert!(kept.is_empty() && files.is_empty());
    assert_eq!((ver.failing_tests, ver.unconfirmed_tests, ver.confirmations), (2, 1, 1));
    assert!(ver.stopped_by_budget && !ver.verified);
    assert!(log.iter().any(|l| l.contains("no confirmation") && l.contains("no time")), "{log:?}");
    assert!(log.iter().any(|l| l.contains("the 1 tests left are not written")), "{log:?}");
}

/// [`Flaky`] whose compiles each take the given time (javac on a large suite).
struct SlowCompile(Flaky, Duration);

impl Verifier for SlowCompile {
    fn compile(&mut self, f: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
        std::thread::sleep(self.1);
        self.0.compile(f)
    }

    fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
        self.0.run(files, runs)
    }

    fn coverage(&mut self, f: &[Rendered], cut: &str) -> Result<JacocoFigures, EngineError> {
        self.0.coverage(f, cut)
    }
}

/// A round that fails needs a compile after it: with 1 s left after a round whose compile
/// took 0.4 s (and whose run took next to nothing), another round (0.4 s) and the compile
/// after it (0.4 s) might fit, but not with the compile of a round as slow as this one's to
/// spare; no round starts, the failing test goes whole. (Whether a confirmation then fits
/// depends on the machine's speed; `Flaky` fails it if it runs.)
#[test]
fn no_round_starts_when_its_compile_and_the_one_after_it_would_end_past_the_budget() {
    let compile = Duration::from_millis(400);
    let mut v = SlowCompile(Flaky::new(), compile);
    let write = WriteConfig::new(Style::JUnit4);
    let rounds =
        Rounds { last_start: None, end: Some(Instant::now() + compile + Duration::from_millis(600)) };
    let tests: Vec<JUnitTest> = (1..=3).map(test_of).collect();
    let mut log = Vec::new();
    let (kept, _, ver) =
        verify("Cut", tests, &write, &junit4_named, &mut v, &rounds, &mut log).expect("verifies");
    assert_eq!(v.0.asked[0], 5, "{log:?}");
    assert!(v.0.asked[1..].iter().all(|&n| n == CONFIRM_RUNS), "only confirmations after: {log:?}");
    assert!(kept.is_empty() && ver.stopped_by_budget, "{log:?}");
}

#[test]
fn a_round_cut_short_by_the_deadline_is_counted_and_logged() {
    let mut v = Short(Flaky::new());
    let past = Rounds { last_start: Some(Instant::now()), end: None };
    let (_, _, ver, log) = numbered(3, &mut v, &past);
    assert_eq!((v.0.asked[0], ver.short_rounds), (5, 1));
    assert!(log.iter().any(|l| l.contains("round 1: the tests ran 2 of 5 times")), "{log:?}");
    // A verifier that ran every run asked for (the default) counts none.
    let (_, _, ver, _) = numbered(3, &mut Flaky::new(), &past);
    assert_eq!(ver.short_rounds, 0);
}

/// A class with a static hoard, as the hostile corpus's `Hoarder`: the tests of a run share it in
/// one JVM, in file order. A test holding 1 adds to it and asserts it then holds 1 (`keep(5)`),
/// one holding 2 empties it and asserts it held nothing (`release()`), one holding 3 asserts it
/// is empty (`keep(0)`); each asserts only while it keeps its assertion.
struct Hoard {
    asked: Vec<usize>,
}

/// [`Hoard`] whose first `split` calls of `run` lose their JVM after the first test in every run,
/// as a run cut at its time limit does: the tests after it run in a fresh JVM, on an empty hoard.
struct SplitHoard {
    asked: Vec<usize>,
    split: usize,
    last_split: bool,
}

impl Verifier for SplitHoard {
    fn compile(&mut self, _: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
        Ok(Vec::new())
    }

    fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
        self.asked.push(runs);
        self.last_split = self.asked.len() <= self.split;
        if !self.last_split {
            return Ok((0..runs).flat_map(|_| Hoard::run_once(files)).collect());
        }
        // Each test in a JVM of its own (one file of one test each is what the split leaves).
        let mut out = Vec::new();
        for _ in 0..runs {
            for (i, f) in files.iter().enumerate() {
                for t in &f.tests {
                    let mut alone = f.clone();
                    alone.tests = vec![t.clone()];
                    out.extend(Hoard::run_once(&[alone]).into_iter().map(|x| TestFailure { file: i, ..x }));
                }
            }
        }
        Ok(out)
    }

    fn coverage(&mut self, _: &[Rendered], _: &str) -> Result<JacocoFigures, EngineError> {
        Ok(JacocoFigures::default())
    }

    fn whole_runs(&self) -> Option<usize> {
        Some(if self.last_split { 0 } else { *self.asked.last().unwrap_or(&0) })
    }
}

impl Hoard {
    /// The failures of one run of `files` in one JVM.
    fn run_once(files: &[Rendered]) -> Vec<TestFailure> {
        let mut hoard = 0;
        let mut out = Vec::new();
        for (i, f) in files.iter().enumerate() {
            for t in &f.tests {
                let inside = |l: &u32| t.first_line <= *l && *l <= t.last_line;
                let holds = |v: i32| lines_with(f, &format!("= {v};")).iter().any(inside);
                let (seen, expected) = if holds(1) {
                    hoard += 1;
                    (hoard, 1)
                } else if holds(2) {
                    (std::mem::take(&mut hoard), 0)
                } else {
                    (hoard, 0)
                };
                let assertion = lines_with(f, "assertEquals(").into_iter().find(|l| inside(l));
                if let Some(line) = assertion.filter(|_| seen != expected) {
                    let message = format!("expected:<{expected}> but was:<{seen}>");
                    out.push(TestFailure { file: i, method: t.method.clone(), line: Some(line), message });
                }
            }
        }
        out
    }
}

impl Verifier for Hoard {
    fn compile(&mut self, _: &[Rendered]) -> Result<Vec<CompileError>, EngineError> {
        Ok(Vec::new())
    }

    fn run(&mut self, files: &[Rendered], runs: usize) -> Result<Vec<TestFailure>, EngineError> {
        self.asked.push(runs);
        Ok((0..runs).flat_map(|_| Hoard::run_once(files)).collect())
    }

    fn coverage(&mut self, _: &[Rendered], _: &str) -> Result<JacocoFigures, EngineError> {
        Ok(JacocoFigures::default())
    }
}

/// The CI failure of `hostile.rs::hoarder_filling_the_heap_passes` (two written tests asserted 0
/// and got 1 in a plain run): the budget ends the rounds after one in which `release()` failed (a
/// test before it filled the hoard). It goes whole, and `keep(0)`, which passed only because
/// `release()` emptied the hoard before it, fails the plain run. Before the confirmations it was
/// written (`verified: false`); now the confirmation drops it and the rest pass a run as written.
#[test]
fn a_test_that_passed_only_after_a_dropped_one_is_not_written() {
    let mut v = Hoard { asked: Vec::new() };
    let write = WriteConfig::new(Style::JUnit4);
    let past = Rounds { last_start: Some(Instant::now()), end: None };
    // keep(5), release(), keep(0), keep(0).
    let tests: Vec<JUnitTest> = [1, 2, 3, 3].into_iter().map(test_of).collect();
    let mut log = Vec::new();
    let (kept, files, ver) =
        verify("Cut", tests, &write, &junit4_named, &mut v, &past, &mut log).expect("verifies");
    assert_eq!(Hoard::run_once(&files), [], "a written test fails a plain run; log: {log:?}");
    assert_eq!(v.asked, [5, 1, 1], "{log:?}");
    assert_eq!(kept.len(), 1, "keep(5) alone: {log:?}");
    assert_eq!((ver.failing_tests, ver.confirmations, ver.unconfirmed_tests), (3, 2, 0));
    assert!(ver.verified && ver.stopped_by_budget, "{ver:?}");
    assert!(log.iter().any(|l| l.contains("(confirmation 1): 2 tests dropped")), "{log:?}");
}

/// With time for every round, `release()` loses its failing assertion in the first round and keeps
/// emptying the hoard: the second round passes, nothing needs confirming.
#[test]
fn order_dependent_tests_settle_in_the_rounds_when_there_is_time() {
    let mut v = Hoard { asked: Vec::new() };
    let write = WriteConfig::new(Style::JUnit4);
    let tests: Vec<JUnitTest> = [1, 2, 3, 3].into_iter().map(test_of).collect();
    let mut log = Vec::new();
    let (kept, files, ver) =
        verify("Cut", tests, &write, &junit4_named, &mut v, &NO_LIMIT, &mut log).expect("verifies");
    assert_eq!(Hoard::run_once(&files), []);
    assert_eq!((v.asked.as_slice(), kept.len(), ver.failing_assertions), (&[5, 5][..], 4, 1));
    assert!(ver.verified && ver.confirmations == 0);
}

/// Past the budget's end the first confirmation still runs: `release()` went in the round, and
/// `keep(5)` passes without it, so it is written.
#[test]
fn the_first_confirmation_runs_past_the_budget() {
    let mut v = Hoard { asked: Vec::new() };
    let write = WriteConfig::new(Style::JUnit4);
    let now = Instant::now();
    let gone = Rounds { last_start: Some(now), end: Some(now) };
    let tests: Vec<JUnitTest> = [1, 2].into_iter().map(test_of).collect();
    let mut log = Vec::new();
    let (kept, files, ver) =
        verify("Cut", tests, &write, &junit4_named, &mut v, &gone, &mut log).expect("verifies");
    assert_eq!((v.asked.as_slice(), kept.len(), files.len()), (&[5, 1][..], 1, 1), "{log:?}");
    assert!(ver.verified && ver.stopped_by_budget && ver.confirmations == 1, "{ver:?}");
}

/// The loaded CI run of `hostile.rs::hoarder_filling_the_heap_passes`: verification passed, and a
/// plain run of the written tests failed in 5 runs of 5 (`release()` expected 1 and got 2). Every
/// verification run had lost its JVM at its time limit, and the tests after it ran in fresh JVMs,
/// where the hoard was empty. Now a round that passed only so is confirmed by a run in one JVM,
/// which drops the second `keep(5)` (it holds 2 after the first), and a second that passes.
#[test]
fn a_round_passed_only_in_split_runs_is_confirmed_in_one_jvm() {
    let mut v = SplitHoard { asked: Vec::new(), split: 1, last_split: false };
    let write = WriteConfig::new(Style::JUnit4);
    let tests: Vec<JUnitTest> = [1, 1].into_iter().map(test_of).collect();
    let mut log = Vec::new();
    let (kept, files, ver) =
        verify("Cut", tests, &write, &junit4_named, &mut v, &NO_LIMIT, &mut log).expect("verifies");
    assert_eq!(Hoard::run_once(&files), [], "a written test fails a plain run; log: {log:?}");
    assert_eq!((v.asked.as_slice(), kept.len()), (&[5, 1, 1][..], 1), "{log:?}");
    assert_eq!((ver.failing_tests, ver.confirmations, ver.unconfirmed_tests), (1, 2, 0), "{ver:?}");
    assert!(ver.verified, "{ver:?}");
    assert!(log.iter().any(|l| l.contains("no run kept them in one JVM")), "{log:?}");
}

/// When the confirmations split as well, nothing confirms the tests, and none is written.
#[test]
fn tests_never_run_in_one_jvm_are_not_written() {
    let mut v = SplitHoard { asked: Vec::new(), split: usize::MAX, last_split: false };
    let write = WriteConfig::new(Style::JUnit4);
    let tests: Vec<JUnitTest> = [1, 3].into_iter().map(test_of).collect();
    let mut log = Vec::new();
    let (kept, files, ver) =
        verify("Cut", tests, &write, &junit4_named, &mut v, &NO_LIMIT, &mut log).expect("verifies");
    assert_eq!((v.asked.as_slice(), kept.len(), files.len()), (&[5, 1, 1][..], 0, 0), "{log:?}");
    assert_eq!((ver.confirmations, ver.unconfirmed_tests), (2, 2), "{ver:?}");
    assert!(!ver.verified, "{ver:?}");
}
