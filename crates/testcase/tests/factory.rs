//! Random test factory and mutation tests over the `cluster` fixtures: determinism (one seed, the
//! same tests as text), and the validity property (every created, mutated or crossed-over test
//! passes `testcase::check`). A snapshot shows what generated tests look like.

use expect_test::expect_file;
use testcase::{
    ClusterConfig, FactoryConfig, TestCase, TestCluster, TestFactory, ValuePool, check, remove_statement,
    rng_from_seed,
};

const SUBJECTS: [&str; 8] =
    ["Overloads", "Generics", "Geometry", "Zoo", "Palette", "Pizza", "Money", "ArrayOps"];

fn clusters() -> Vec<TestCluster> {
    let db =
        test_support::open_db(&[test_support::java_base_jmod(), test_support::fixture_classes("cluster")]);
    SUBJECTS
        .iter()
        .map(|s| {
            TestCluster::build_in(&db, &format!("cluster.{s}"), &ClusterConfig::evosuite())
                .expect("cluster builds")
        })
        .collect()
}

fn pool_of(cluster: &TestCluster, config: &FactoryConfig) -> ValuePool {
    ValuePool::new(cluster.constants().clone(), config.dynamic_pool_size)
}

/// 100 random tests per subject from one seed, as text.
fn generate_all(clusters: &[TestCluster], seed: u64) -> String {
    let config = FactoryConfig::evosuite();
    let mut rng = rng_from_seed(seed);
    let mut out = String::new();
    for cluster in clusters {
        let pool = pool_of(cluster, &config);
        let factory = TestFactory::new(cluster, &pool, &config);
        for i in 0..100 {
            let t = factory.random_test(&mut rng);
            out.push_str(&format!("// {} #{i}\n{t}", cluster.cut()));
        }
    }
    out
}

#[test]
fn same_seed_same_tests() {
    let clusters = clusters();
    let a = generate_all(&clusters, 42);
    let b = generate_all(&clusters, 42);
    assert_eq!(a, b);
    let c = generate_all(&clusters, 43);
    assert_ne!(a, c, "a different seed should give different tests");
}

#[test]
fn generated_tests_snapshot() {
    let clusters = clusters();
    let config = FactoryConfig { chromosome_length: 8, ..FactoryConfig::evosuite() };
    let mut rng = rng_from_seed(7);
    let mut out = String::new();
    for cluster in &clusters {
        let pool = pool_of(cluster, &config);
        let factory = TestFactory::new(cluster, &pool, &config);
        for i in 0..2 {
            let t = factory.random_test(&mut rng);
            out.push_str(&format!("// {} #{i}\n{t}\n", cluster.cut()));
        }
    }
    expect_file!["../test_data/generated.txt"].assert_eq(&out);
}

fn assert_valid(cluster: &TestCluster, t: &TestCase, what: &str, iteration: usize) {
    if let Err(e) = check(t, cluster) {
        panic!("{what} produced an invalid test (iteration {iteration}, {}): {e}\n{t}", cluster.cut());
    }
}

#[test]
fn every_created_or_mutated_test_is_valid() {
    let clusters = clusters();
    let config = FactoryConfig::evosuite();
    let mut rng = rng_from_seed(2024);
    let mut population: Vec<Vec<TestCase>> = vec![Vec::new(); clusters.len()];
    let (mut statements, mut mutated, mut crossed) = (0usize, 0usize, 0usize);
    for it in 0..1000 {
        let k = it % clusters.len();
        let cluster = &clusters[k];
        let pool = pool_of(cluster, &config);
        let factory = TestFactory::new(cluster, &pool, &config);
        let mut t = factory.random_test(&mut rng);
        assert_valid(cluster, &t, "random_test", it);
        statements += t.len();
        for _ in 0..3 {
            if factory.mutate(&mut t, &mut rng) {
                mutated += 1;
            }
            assert_valid(cluster, &t, "mutate", it);
        }
        if let Some(other) = population[k].last() {
            let (a, b) = factory.crossover(&t, other, &mut rng);
            assert_valid(cluster, &a, "crossover", it);
            assert_valid(cluster, &b, "crossover", it);
            crossed += 1;
        }
        if !t.is_empty() {
            let mut d = t.clone();
            remove_statement(&mut d, it % t.len(), cluster);
            assert_valid(cluster, &d, "remove_statement", it);
        }
        population[k].push(t);
    }
    println!("1000 tests, {statements} statements, {mutated} changed by mutation, {crossed} crossovers");
    assert!(statements > 1000);
    assert!(mutated > 500);
}
