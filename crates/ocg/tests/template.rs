//! Template synthesis (`ocg::template`, paper 000 Algorithm 1) on the `ocg` fixture area: for the
//! hard branch of every class under test, the template built from its graph is a valid test of
//! our model that ends with the call of the method under test, and its text is a snapshot
//! (`test_data/templates/<Class>.txt`, refresh with `UPDATE_EXPECT=1 cargo test -p ocg --test
//! template`). Running the templates is `cli`'s test (`tests/ocg.rs`).

mod common;

use ocg::slice::{self, SliceConfig};
use ocg::template::{self, TemplateConfig};
use search::SearchConfig;
use testcase::{ClusterConfig, TestCluster, TestFactory, ValuePool, rng_from_seed};

/// Templates drawn per class for the snapshot: Eq. (1) sampling and slot values differ per draw.
const DRAWS: u64 = 3;

#[test]
fn templates_of_the_hard_branches() {
    let db = common::run_db();
    let config = SearchConfig::evosuite(search::Budget::evaluations(1));
    for class in common::classes_under_test() {
        let binary = format!("ocg.{class}");
        // As a run with `--ocg on` builds it: dependencies followed as deep as the slice (t_dep).
        let cluster_config =
            ClusterConfig { cluster_depth: SliceConfig::paper().depth, ..ClusterConfig::evosuite() };
        let cluster = TestCluster::build_in(&db, &binary, &cluster_config).expect("cluster");
        let pool = ValuePool::new(cluster.constants().clone(), config.factory.dynamic_pool_size);
        let factory = TestFactory::new(&cluster, &pool, &config.factory);
        let mut text = String::new();
        for target in common::hard_branches(&db, &class) {
            let graph = slice::build(&db, target, &SliceConfig::paper());
            for seed in 0..DRAWS {
                let mut rng = rng_from_seed(seed);
                let made =
                    template::synthesize(&db, &graph, &cluster, &factory, &TemplateConfig::paper(), &mut rng);
                text.push_str(&format!("// branch @{} draw {seed}\n", target.insn.0));
                match made {
                    Ok(t) => {
                        testcase::check(&t.test, &cluster)
                            .unwrap_or_else(|e| panic!("{class}: {e:?}\n{}", t.test));
                        text.push_str(&format!("{}", t.test));
                        text.push_str(&format!("// nodes generated: {}\n", t.nodes_generated));
                    }
                    Err(why) => text.push_str(&format!("// no template: {why:?}\n")),
                }
            }
        }
        let path = test_support::workspace_root().join(format!("crates/ocg/test_data/templates/{class}.txt"));
        expect_test::expect_file![path].assert_eq(&text);
    }
}
