//! Context branch (EvoSuite `CBRANCH`, digest 002 §1.2) in the engine's search: goals found per
//! calling context while tests run, appended after the static goals, scored from the worker's
//! per-context branch distances. Subject: `fixtures/java/context/Calls.java`, whose `check(int)`
//! has one branch (`ifge` at line 12: jump taken when `x >= 0`) and is called by the test directly,
//! from `a(y)` with `y - 10` (both sides feasible) and from `b(y)` with `y & 1023` (never negative).

use std::path::PathBuf;

use engine::{
    Criterion, CriterionCoverage, DEFAULT_CRITERIA, GenerateConfig, Generation, JvmProblem, generate,
};
use search::{Budget, SearchConfig, SystemClock};
use testcase::{ClusterConfig, TestCluster, ValuePool, rng_from_seed};

const CLASS: &str = "context.Calls";

fn classpath() -> Vec<PathBuf> {
    vec![test_support::fixture_classes("context")]
}

fn config(evaluations: u64, seed: u64, workers: usize) -> GenerateConfig {
    GenerateConfig {
        workers,
        techniques: engine::Techniques::none(),
        ..GenerateConfig::standard(classpath(), CLASS, Budget::evaluations(evaluations), seed)
    }
}

fn run(c: &GenerateConfig) -> Generation {
    let g = generate(c).unwrap_or_else(|e| panic!("{}: {e}", c.class));
    println!(
        "{} (seed {}, {} workers): {} evaluations, {:.1} s, worker time {:.1} s\n{}uncovered:\n  {}",
        c.class,
        c.seed,
        c.workers,
        g.evaluations,
        g.elapsed.as_secs_f64(),
        g.worker_time.as_secs_f64(),
        g.coverage_summary(),
        g.uncovered.join("\n  ")
    );
    assert!(g.unchanged.is_empty(), "left uninstrumented: {:?}", g.unchanged);
    g
}

/// `check`'s branch in its three contexts, both sides each: six goals. The call site in `b` never
/// takes the negative side (`not-taken`: `ifge` falls through when `x < 0`), the other five are
/// covered; the static branch goals are all covered.
const INFEASIBLE: &str = "context-branch p29@context/Calls:36 branch p7 not-taken (context/Calls:12)";

/// The search itself, as `generate` runs it, keeping the problem to read the goals it found.
#[test]
fn context_goals_are_found_while_searching_and_the_infeasible_one_stays_uncovered() {
    let db = test_support::open_db(&classpath());
    let cluster = TestCluster::build_in(&db, CLASS, &ClusterConfig::evosuite()).expect("cluster");
    let config = SearchConfig::evosuite(Budget::evaluations(2_000));
    let mut pool = ValuePool::new(cluster.constants().clone(), config.factory.dynamic_pool_size);
    let cp = classpath();
    let db = test_support::open_db(&cp);
    let mut problem =
        JvmProblem::with_db(&db, &cp, CLASS, &DEFAULT_CRITERIA, 2, 3000, engine::Extras::default())
            .expect("problem");
    let statics = problem.goals().count();
    assert!(problem.goals().all(|g| problem.criterion(g) != Criterion::ContextBranch));
    let clock = SystemClock::start();
    let mut rng = rng_from_seed(3);
    let result = search::run(&mut problem, &cluster, &mut pool, &config, &clock, &mut rng, &mut |_| {})
        .expect("search");

    // Found goals come after the static ones, and are the context goals only.
    let found: Vec<String> = problem
        .goals()
        .filter(|&g| problem.criterion(g) == Criterion::ContextBranch)
        .map(|g| problem.goal_text(g))
        .collect();
    assert!(problem.goals().skip(statics).all(|g| problem.criterion(g) == Criterion::ContextBranch));
    let mut sorted = found.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "context-branch direct branch p7 not-taken (context/Calls:12)",
            "context-branch direct branch p7 taken (context/Calls:12)",
            "context-branch p18@context/Calls:20 branch p7 not-taken (context/Calls:12)",
            "context-branch p18@context/Calls:20 branch p7 taken (context/Calls:12)",
            INFEASIBLE,
            "context-branch p29@context/Calls:36 branch p7 taken (context/Calls:12)",
        ]
    );
    assert_eq!(result.stats.n_goals, statics + 6);

    // The archive's suite, executed again, covers all but the infeasible context.
    let suite = result.suite();
    let results = problem.execute(&suite).expect("execute");
    let traces: Vec<&protocol::Trace> = results.iter().map(|r| &r.trace).collect();
    let context_uncovered: Vec<String> =
        problem.uncovered(&traces).into_iter().filter(|u| u.starts_with("context-branch")).collect();
    assert_eq!(context_uncovered, [INFEASIBLE]);
    let row = problem.coverage(&traces).into_iter().find(|c| c.criterion == Criterion::ContextBranch);
    assert_eq!(row, Some(CriterionCoverage { criterion: Criterion::ContextBranch, covered: 5, total: 6 }));
}

/// Through `generate`: the coverage has a ContextBranch row (last, in criterion order), the
/// infeasible context is reported uncovered, and every static branch is covered.
#[test]
fn generation_reports_a_context_branch_row() {
    let g = run(&config(2_000, 1, 2));
    let last = g.coverage.last().copied();
    assert_eq!(last, Some(CriterionCoverage { criterion: Criterion::ContextBranch, covered: 5, total: 6 }));
    let branch = g.criterion(Criterion::Branch).expect("branch goals");
    assert_eq!(branch.covered, branch.total);
    assert!(g.uncovered.iter().any(|u| u == INFEASIBLE), "{:?}", g.uncovered);
    assert_eq!(g.uncovered.iter().filter(|u| u.starts_with("context-branch")).count(), 1);
}

/// Context goals are appended in batch order whatever worker ran a test: one and two workers give
/// the same suite on a class whose methods call each other. (`Calls` fixes its `hashCode`: with
/// Object's identity hash this fails with the static criteria alone, see the fixture.)
#[test]
fn same_seed_same_suite_with_one_and_two_workers_across_calls() {
    let one = run(&config(600, 11, 1));
    let two = run(&config(600, 11, 2));
    assert!(!one.suite.is_empty());
    assert_eq!(one.suite_text, two.suite_text);
    assert_eq!(one.coverage, two.coverage);
    assert_eq!(one.uncovered, two.uncovered);
}

/// Without `ContextBranch` among the criteria, no goal is found at run time.
#[test]
fn no_context_goals_unless_selected() {
    let mut c = config(300, 1, 1);
    c.criteria = Criterion::ALL.to_vec();
    let g = run(&c);
    assert!(g.criterion(Criterion::ContextBranch).is_none());
    assert!(g.uncovered.iter().all(|u| !u.starts_with("context-branch")));
}
