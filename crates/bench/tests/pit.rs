//! PIT on the fixture `pit.Calc` (fixtures/java/pit/Calc.java) with the hand-written suites of
//! `test_data/pit/`: a JUnit 4 suite (`CalcTest`) and a JUnit 5 one (`CalcJupiterTest`), compiled and
//! run through the runner's own check, then PIT through [`Checker::mutation`]. Calc.java's comments
//! list every mutant of PIT's default mutators and the suites' comments say which they kill, which
//! survive (an equivalent boundary mutant, a call whose result is never checked), which time out and
//! which no test reaches; the counts below are those, derived by hand. The same runs' reports were
//! captured as `test_data/pit/*.mutations.xml` and are snapshot-tested by the parser, and a real run
//! must reproduce them mutant for mutant.
//!
//! Needs PIT's jars in the tools cache: `scripts/fetch-tools.sh` (docs/mutation.md).

use std::path::{Path, PathBuf};
use std::time::Duration;

use bench::pit::{Mutant, parse_mutations_xml};
use bench::{Checker, MutationScore, Pit, PitJars};
use expect_test::expect_file;
use worker::verify::JUnitVersion;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/pit").join(name)
}

fn fixture_classes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/pit")
}

/// One line per mutant: where, which operator, PIT's verdict.
fn render(mutants: &[Mutant]) -> String {
    mutants
        .iter()
        .map(|m| {
            format!(
                "{}.{}:{} {} {:?}{}\n",
                m.class,
                m.method,
                m.line,
                m.mutator,
                m.status,
                if m.detected { " detected" } else { "" }
            )
        })
        .collect()
}

fn captured(suite: &str) -> Vec<Mutant> {
    let text = std::fs::read_to_string(data(&format!("{suite}.mutations.xml"))).expect("captured report");
    parse_mutations_xml(&text).expect("parse")
}

/// The JUnit 4 suite's expected counts: max 3 killed + 1 survived (the equivalent `>` for `>=`), add 2
/// survived (never checked), countdown 4 killed + 1 timed out (`n + 1` loops 2^63 times), neverCalled
/// 2 and Acc 2 without coverage. Detected = killed + timed out.
const FOUR: MutationScore = MutationScore {
    mutants: 15,
    killed: 7,
    survived: 3,
    no_coverage: 4,
    timed_out: 1,
    other: 0,
    detected: 8,
};

/// The JUnit 5 suite's: max 2 killed, 1 survived, 1 not reached (the second return); Acc 2 killed;
/// add 2, countdown 5 and neverCalled 2 without coverage.
const FIVE: MutationScore = MutationScore {
    mutants: 15,
    killed: 4,
    survived: 1,
    no_coverage: 10,
    timed_out: 0,
    other: 0,
    detected: 4,
};

#[test]
fn captured_reports_parse() {
    let four = captured("CalcTest");
    expect_file!["../test_data/pit/CalcTest.mutants.txt"].assert_eq(&render(&four));
    assert_eq!(MutationScore::of(&four), FOUR);
    assert_eq!(MutationScore::of(&four).score(), 8.0 / 15.0);
    let five = captured("CalcJupiterTest");
    expect_file!["../test_data/pit/CalcJupiterTest.mutants.txt"].assert_eq(&render(&five));
    assert_eq!(MutationScore::of(&five), FIVE);
}

/// Compiles `suite` with the runner's check (as a written test under `tests/pit/`) and runs PIT on
/// `pit.Calc` with it.
fn measure(suite: &str, junit: JUnitVersion) -> Vec<Mutant> {
    let tmp = tempfile::tempdir().expect("tempdir");
    let tests_dir = tmp.path().join("tests");
    std::fs::create_dir_all(tests_dir.join("pit")).expect("mkdir");
    let file = format!("{suite}.java");
    std::fs::copy(data(&file), tests_dir.join("pit").join(&file)).expect("copy");
    let mut checker = Checker::discover(1).expect("JDK, JUnit and JaCoCo");
    let jars = PitJars::in_cache(&PitJars::default_cache()).unwrap_or_else(|e| panic!("{e}"));
    checker.pit = Some(Pit { jars, timeout: Duration::from_secs(600), threads: 1 });
    let classpath = [fixture_classes()];
    let work = tmp.path().join("check");
    let checked = checker.check(&tests_dir, "pit.Calc", &classpath, junit, &work).expect("check");
    assert_eq!((checked.tests_failing, checked.test_classes.clone()), (0, vec![format!("pit.{suite}")]));
    let mutants = checker
        .mutation(&checked, "pit.Calc", &classpath, junit, &work.join("pit"))
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("PIT ran");
    // PIT worked in its directory alone: no report elsewhere, its temporary directory emptied.
    assert!(work.join("pit/report/mutations.xml").is_file());
    assert_eq!(std::fs::read_dir(work.join("pit/tmp")).expect("tmp").count(), 0);
    mutants
}

#[test]
fn junit4_suite_kills_what_it_checks() {
    let mutants = measure("CalcTest", JUnitVersion::Four);
    assert_eq!(MutationScore::of(&mutants), FOUR, "{}", render(&mutants));
    assert_eq!(render(&mutants), render(&captured("CalcTest")));
}

#[test]
fn junit5_suite_kills_what_it_checks() {
    let mutants = measure("CalcJupiterTest", JUnitVersion::Five);
    assert_eq!(MutationScore::of(&mutants), FIVE, "{}", render(&mutants));
    assert_eq!(render(&mutants), render(&captured("CalcJupiterTest")));
}
