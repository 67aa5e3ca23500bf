//! Test-cluster tests: a snapshot of the cluster dump for each fixture class under test
//! (`fixtures/java/cluster`), and clusters of real library classes that must build and offer calls.
//! Refresh snapshots with `UPDATE_EXPECT=1`.

use std::path::PathBuf;

use classfile::ClassPath;
use expect_test::expect_file;
use testcase::{ClusterConfig, FactoryConfig, TestCluster, TestFactory, ValuePool, check, rng_from_seed};

fn fixture_classpath() -> ClassPath {
    ClassPath::open(&[test_support::java_base_jmod(), test_support::fixture_classes("cluster")])
        .expect("fixture classpath opens")
}

fn check_cluster(cp: &ClassPath, simple: &str) {
    let cluster = TestCluster::build(cp, &format!("cluster.{simple}"), &ClusterConfig::evosuite())
        .expect("cluster builds");
    expect_file![format!("../test_data/cluster/{simple}.txt")].assert_eq(&cluster.dump());
}

#[test]
fn fixture_clusters() {
    let cp = fixture_classpath();
    for simple in ["Overloads", "Generics", "Geometry", "Zoo", "Palette", "Pizza", "Money", "ArrayOps"] {
        check_cluster(&cp, simple);
    }
}

#[test]
fn missing_class_is_an_error() {
    let cp = fixture_classpath();
    let err = TestCluster::build(&cp, "cluster.DoesNotExist", &ClusterConfig::evosuite()).unwrap_err();
    assert_eq!(err.to_string(), "class cluster.DoesNotExist is not on the classpath");
}

#[test]
fn real_library_clusters() {
    let jars = PathBuf::from("/usr/share/java");
    let cases = [
        ("commons-lang3.jar", "org.apache.commons.lang3.StringUtils"),
        ("guava.jar", "com.google.common.base.CharMatcher"),
        ("joda-time.jar", "org.joda.time.Period"),
    ];
    for (jar, class) in cases {
        let cp = ClassPath::open(&[test_support::java_base_jmod(), jars.join(jar)]).expect("classpath opens");
        let cluster = TestCluster::build(&cp, class, &ClusterConfig::evosuite()).expect("cluster builds");
        let (targets, generators, modifiers) = cluster.counts();
        println!(
            "{class}: {targets} targets, {generators} generators, {modifiers} modifiers, {} problems",
            cluster.problems().len()
        );
        assert!(targets > 0, "{class} has no callable members");
        // The factory and mutation work on real clusters too, and keep tests well-typed.
        let config = FactoryConfig::evosuite();
        let pool = ValuePool::new(cluster.constants().clone(), config.dynamic_pool_size);
        let factory = TestFactory::new(&cluster, &pool, &config);
        let mut rng = rng_from_seed(1);
        let mut statements = 0;
        for _ in 0..50 {
            let mut t = factory.random_test(&mut rng);
            factory.mutate(&mut t, &mut rng);
            if let Err(e) = check(&t, &cluster) {
                panic!("{class}: invalid test: {e}\n{t}");
            }
            statements += t.len();
        }
        println!("{class}: 50 random tests, {statements} statements");
        assert!(statements > 50);
    }
}
