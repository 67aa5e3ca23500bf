//! Every search algorithm (`search::Algorithm::ALL`) on every search fixture
//! (`fixtures/java/search`, the classes with a `.goals` listing), in real JVM workers, with a small
//! evaluation budget so that each run is deterministic for its seed whatever the machine's speed.
//! Each algorithm must call every method that can be called (the `Method` goals the listing counts
//! as feasible) and reach a stated share of the feasible line goals of each fixture; and the same
//! seed must give the same suite and coverage with one worker and with two.
//!
//! The listing format is described in `fixtures.rs`; only its `Method` and `Line` lines
//! (`<criterion> <total> <feasible>`) are read here.

use std::path::PathBuf;

use engine::{Criterion, GenerateConfig, Generation, generate};
use search::{Algorithm, Budget};

/// Test executions per run: small enough for 5 algorithms x all fixtures to stay within the time
/// a test file may take, large enough for every algorithm to call every method.
const EVALUATIONS: u64 = 250;

/// The share of the feasible line goals every algorithm must cover on every fixture within
/// `EVALUATIONS`. Measured with 400 evaluations (seed 1): the lowest is random search on
/// `IntSwitch` (7 of 16: its switch cases want exact keys), most fixtures reach 100 %; every
/// algorithm reached every feasible Method goal everywhere.
const MIN_LINE_SHARE: f64 = 0.4;

/// (class, feasible Method goals, feasible Line goals) of every listing, sorted by class.
fn fixtures() -> Vec<(String, usize, usize)> {
    let dir = test_support::workspace_root().join("fixtures/java/search");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "goals"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let feasible = |name: &str| -> usize {
                text.lines()
                    .find_map(|l| {
                        let f: Vec<&str> = l.split_whitespace().collect();
                        (f.len() == 3 && f[0] == name).then(|| f[2].parse().expect("feasible count"))
                    })
                    .unwrap_or(0)
            };
            let stem = p.file_stem().and_then(|s| s.to_str()).expect("file name");
            (format!("search.{stem}"), feasible("Method"), feasible("Line"))
        })
        .collect()
}

fn config(class: &str, algorithm: Algorithm, evaluations: u64, seed: u64, workers: usize) -> GenerateConfig {
    GenerateConfig {
        algorithm,
        workers,
        techniques: engine::Techniques::none(),
        ..GenerateConfig::standard(
            vec![test_support::fixture_classes("search")],
            class,
            Budget::evaluations(evaluations),
            seed,
        )
    }
}

fn run(c: &GenerateConfig) -> Generation {
    generate(c).unwrap_or_else(|e| panic!("{} with {}: {e}", c.class, c.algorithm.name()))
}

fn covered(g: &Generation, c: Criterion) -> usize {
    g.criterion(c).map_or(0, |x| x.covered)
}

/// Runs one algorithm on one fixture; returns its failures, after printing its figures.
fn check_fixture(algorithm: Algorithm, class: &str, methods: usize, lines: usize) -> Vec<String> {
    let g = run(&config(class, algorithm, EVALUATIONS, 1, 1));
    let (m, l) = (covered(&g, Criterion::Method), covered(&g, Criterion::Line));
    println!(
        "{} {class}: Method {m}/{methods}, Line {l}/{lines} feasible, {} evaluations, {:.1} s",
        algorithm.name(),
        g.evaluations,
        g.elapsed.as_secs_f64()
    );
    let mut failures = Vec::new();
    if m < methods {
        failures.push(format!("{class}: {m} of {methods} feasible Method goals"));
    }
    if (l as f64) < MIN_LINE_SHARE * lines as f64 {
        failures.push(format!("{class}: {l} of {lines} feasible Line goals, below {MIN_LINE_SHARE}"));
    }
    failures
}

/// Runs one algorithm on every fixture, `PARALLEL` fixtures at a time (each run is its own JVM
/// pool with one worker, and most of a run's wall time is JVM start-up, so overlapping runs saves
/// time; an evaluation budget keeps each run's result independent of the load), and asserts that
/// no fixture failed.
fn check_algorithm(algorithm: Algorithm) {
    const PARALLEL: usize = 2;
    let fixtures = fixtures();
    assert!(fixtures.len() >= 22, "expected at least 22 listings, found {}", fixtures.len());
    let mut failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..PARALLEL)
            .map(|k| {
                let mine: Vec<&(String, usize, usize)> = fixtures.iter().skip(k).step_by(PARALLEL).collect();
                s.spawn(move || -> Vec<String> {
                    mine.into_iter().flat_map(|(c, m, l)| check_fixture(algorithm, c, *m, *l)).collect()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("fixture thread")).collect()
    });
    failures.sort();
    assert!(
        failures.is_empty(),
        "{}: {} failures:\n{}",
        algorithm.name(),
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn random_calls_every_method_of_every_fixture() {
    check_algorithm(Algorithm::Random);
}

#[test]
fn whole_suite_calls_every_method_of_every_fixture() {
    check_algorithm(Algorithm::WholeSuite);
}

#[test]
fn mosa_calls_every_method_of_every_fixture() {
    check_algorithm(Algorithm::Mosa);
}

#[test]
fn dynamosa_calls_every_method_of_every_fixture() {
    check_algorithm(Algorithm::DynaMosa);
}

#[test]
fn mio_calls_every_method_of_every_fixture() {
    check_algorithm(Algorithm::Mio);
}

#[test]
fn every_algorithm_lists_a_test() {
    // `Algorithm::ALL` is what the tests above cover, one each: a new algorithm needs a test here.
    assert_eq!(
        Algorithm::ALL,
        [Algorithm::Random, Algorithm::WholeSuite, Algorithm::Mosa, Algorithm::DynaMosa, Algorithm::Mio]
    );
}

/// Same seed, one worker and two workers: the same suite, the same coverage, for every algorithm
/// on two fixtures with object parameters.
///
/// FIXME: the two fixtures override `equals`, `hashCode` and `toString`, because a test that calls
/// `Object.hashCode` (or the default `toString`) on the class under test observes an identity hash
/// code, which depends on the worker JVM's history: with `search.Bank` (no overrides) DynaMOSA and
/// MOSA gave different suites with 1 and 2 workers. The engine should make identity hash codes
/// deterministic (or keep them out of what a test observes); then any fixture will do here.
#[test]
fn same_seed_same_suite_with_one_and_two_workers_for_every_algorithm() {
    // One thread per fixture (see `check_algorithm` for why runs may overlap).
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = ["search.Fraction", "search.Book"]
            .into_iter()
            .map(|class| {
                s.spawn(move || {
                    Algorithm::ALL.into_iter().flat_map(|a| same_suite(a, class)).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("fixture thread")).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The failures of one algorithm on one fixture: an empty suite, or a difference between 1 and 2
/// workers.
fn same_suite(algorithm: Algorithm, class: &str) -> Vec<String> {
    let one = run(&config(class, algorithm, 150, 5, 1));
    let two = run(&config(class, algorithm, 150, 5, 2));
    let mut failures = Vec::new();
    if one.suite.is_empty() {
        failures.push(format!("{} {class}: empty suite", algorithm.name()));
    }
    if one.suite_text != two.suite_text || one.coverage != two.coverage {
        failures.push(format!(
            "{} {class}: 1 worker and 2 workers differ:\n{}{}\n--- vs ---\n{}{}",
            algorithm.name(),
            one.coverage_summary(),
            one.suite_text,
            two.coverage_summary(),
            two.suite_text
        ));
    }
    failures
}
