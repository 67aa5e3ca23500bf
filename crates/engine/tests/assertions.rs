//! Assertions chosen by mutation analysis (docs/mutation.md), end to end on
//! `fixtures/java/assertions/Ledger.java`: the same seed and evaluation budget give the same tests
//! with `AssertionStrategy::All` and `Mutation`; with `Mutation` each test keeps a subset of its
//! `All` assertions, far fewer in all, never none when it had some, and they kill every mutant all
//! of them killed; the inspector that observes nothing a mutant changes (`getKind`) is kept only
//! where a test keeps a single assertion because it kills nothing; and the files are the same with
//! one worker and with two.

use engine::{AssertionStrategy, ClassTests, GenerateConfig, JvmVerifier, WriteConfig};
use junit::JUnitTest;
use search::Budget;
use testcase::assertion::{Check, Subject};
use worker::Java;
use worker::verify::{JUnitJars, JUnitVersion};

const LEDGER: &str = "assertions.Ledger";

fn run(strategy: AssertionStrategy, workers: usize) -> ClassTests {
    let classpath = vec![test_support::fixture_classes("assertions")];
    let config = GenerateConfig {
        workers,
        techniques: engine::Techniques::none(),
        ..GenerateConfig::standard(classpath.clone(), LEDGER, Budget::evaluations(3_000), 7)
    };
    let mut write = WriteConfig::new(junit::Style::JUnit4);
    write.assertions = strategy;
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let jars = JUnitJars::debian(JUnitVersion::Four).unwrap_or_else(|e| panic!("{e}"));
    let mut verifier =
        JvmVerifier::new(java, jars, JUnitVersion::Four, &classpath, LEDGER).expect("verifier");
    let t = engine::generate_tests(&config, &write, &mut verifier, &mut |_| {}).expect("generate");
    println!(
        "{} ({}, {workers} workers): {} tests, {} assertions",
        LEDGER,
        strategy.name(),
        t.tests.len(),
        t.assertions()
    );
    for line in &t.log {
        println!("  log: {line}");
    }
    t
}

fn is_inspector(t: &JUnitTest, k: usize, name: &str) -> bool {
    matches!(&t.assertions[k].check, Check::Equals { subject: Subject::Call { method, .. }, .. } if method == name)
}

#[test]
fn mutation_keeps_a_killing_subset_of_the_assertions_and_is_deterministic() {
    let all = run(AssertionStrategy::All, 1);
    let mutation = run(AssertionStrategy::Mutation, 1);
    assert!(all.verification.verified && mutation.verification.verified);
    let cases = |t: &ClassTests| t.tests.iter().map(|t| t.case.clone()).collect::<Vec<_>>();
    assert_eq!(cases(&all), cases(&mutation), "the same tests");
    assert!(all.tests.len() >= 4, "{} tests", all.tests.len());

    let figures = mutation.mutation.clone().expect("mutation figures");
    println!("{figures:?}");
    assert!(figures.mutants > 20, "{figures:?}");
    assert_eq!(figures.unmutated, 0);
    assert!(figures.stats.killed > 0 && figures.stats.mutants > figures.stats.killed / 2, "{figures:?}");
    assert_eq!(figures.stats.killed, figures.stats.killed_before, "the kept assertions kill what all killed");
    assert_eq!(figures.stats.tests_not_analysed, 0);
    assert_eq!(figures.stats.assertions_before, all.assertions(), "mutation chose among all's assertions");
    assert_eq!(figures.stats.assertions_after, mutation.assertions());

    let (before, after) = (all.assertions(), mutation.assertions());
    assert!(after * 10 <= before * 7, "at least 30 % fewer assertions: {after} of {before}");
    for (a, m) in all.tests.iter().zip(&mutation.tests) {
        // A subsequence of the test's `all` assertions.
        let mut rest = a.assertions.iter();
        for x in &m.assertions {
            assert!(rest.any(|y| y == x), "{x:?} is not among {:?}", a.assertions);
        }
        assert_eq!(a.assertions.is_empty(), m.assertions.is_empty(), "{:?}", a.case);
        assert_eq!(a.expected_exception, m.expected_exception);
        for k in 0..m.assertions.len() {
            if is_inspector(m, k, "getKind") {
                assert_eq!(m.assertions.len(), 1, "getKind kills nothing: {:?}", m.assertions);
            }
        }
    }
    let kind = |t: &ClassTests| {
        t.tests
            .iter()
            .map(|x| (0..x.assertions.len()).filter(|&k| is_inspector(x, k, "getKind")).count())
            .sum::<usize>()
    };
    assert!(
        kind(&all) > kind(&mutation),
        "getKind: {} with all, {} with mutation",
        kind(&all),
        kind(&mutation)
    );

    let two = run(AssertionStrategy::Mutation, 2);
    let sources = |t: &ClassTests| t.files.iter().map(|f| f.source.clone()).collect::<Vec<_>>();
    assert_eq!(sources(&mutation), sources(&two), "the same files with one worker and two");
}
