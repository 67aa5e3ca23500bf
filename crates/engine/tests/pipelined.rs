//! `JvmProblem::evaluate_then` (the search's batches with one in flight, `search::pipelined`):
//! evaluating a chain of batches, each started while the search works on the one before, gives
//! exactly what evaluating them one by one gives: the same fitness vectors, stops, goals found and
//! values for the dynamic pool. Subject: `fixtures/java/context/Calls.java`, whose context goals
//! grow the goal count from batch to batch.

use engine::{DEFAULT_CRITERIA, JvmProblem};
use search::{Evaluation, Problem, SearchConfig};
use testcase::{ClusterConfig, TestCase, TestCluster, TestFactory, ValuePool, rng_from_seed};

const CLASS: &str = "context.Calls";

fn problem(workers: usize) -> JvmProblem {
    let classpath = vec![test_support::fixture_classes("context")];
    let db = test_support::open_db(&classpath);
    JvmProblem::with_db(&db, &classpath, CLASS, &DEFAULT_CRITERIA, workers, 3000, engine::Extras::default())
        .expect("problem")
}

/// Four batches of random tests, some repeated within and across batches (cache hits).
fn batches() -> Vec<Vec<TestCase>> {
    let db = test_support::open_db(&[test_support::fixture_classes("context")]);
    let cluster = TestCluster::build_in(&db, CLASS, &ClusterConfig::evosuite()).expect("cluster");
    let config = SearchConfig::evosuite(search::Budget::evaluations(1));
    let pool = ValuePool::new(cluster.constants().clone(), config.factory.dynamic_pool_size);
    let factory = TestFactory::new(&cluster, &pool, &config.factory);
    let mut rng = rng_from_seed(11);
    let mut out: Vec<Vec<TestCase>> =
        (0..4).map(|_| (0..30).map(|_| factory.random_test(&mut rng)).collect()).collect();
    let again = out[0][..5].to_vec();
    out[1].extend(again);
    let again = out[2][3].clone();
    out[2].push(again);
    out
}

#[test]
fn batches_started_ahead_evaluate_as_batches_run_one_by_one() {
    let batches = batches();
    let (mut alone, mut ahead) = (problem(2), problem(2));
    let (mut pool_alone, mut pool_ahead) = (testcase::DynamicPool::new(50), testcase::DynamicPool::new(50));
    for (i, batch) in batches.iter().enumerate() {
        let one: Vec<Evaluation> = alone.evaluate(batch, &mut pool_alone).expect("evaluate");
        let then = batches.get(i + 1).map(Vec::as_slice);
        let other = ahead.evaluate_then(batch, then, &mut pool_ahead).expect("evaluate_then");
        assert_eq!(alone.n_goals(), ahead.n_goals(), "batch {i}: goals found");
        assert_eq!(one, other, "batch {i}: evaluations");
        assert_eq!(pool_alone, pool_ahead, "batch {i}: dynamic pool");
    }
    assert!(ahead.worker_time() > std::time::Duration::ZERO);
}

/// A batch other than the one started is refused with an error, and the problem goes on.
#[test]
fn asking_for_another_batch_than_the_one_started_is_an_error() {
    let batches = batches();
    let mut p = problem(1);
    let mut dynamic = testcase::DynamicPool::new(50);
    p.evaluate_then(&batches[0], Some(&batches[1]), &mut dynamic).expect("first");
    let err = p.evaluate(&batches[3][..7], &mut dynamic).expect_err("not the batch started");
    assert!(err.to_string().contains("a batch of 35 tests was started"), "{err}");
    let again = p.evaluate(&batches[2], &mut dynamic).expect("the problem goes on");
    assert_eq!(again.len(), batches[2].len());
}
