//! The search's own cost per generation (batch) with a trivial `Problem` whose evaluation is
//! nearly free: test creation, mutation, crossover, archive updates, sorting and selection on
//! `cluster.Overloads` with 200 goals. This is the engine-side cost that the target "< 10 % of wall
//! time outside waiting for workers" compares with the workers' time per batch.
//!
//! Run: `cargo bench -p search --bench overhead`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use programdb::{DbConfig, ProgramDb};
use search::{Algorithm, Budget, Evaluation, GoalIdx, Problem, ProblemError, SearchConfig, SystemClock};
use testcase::pool::DynamicPool;
use testcase::{ClusterConfig, FactoryConfig, TestCase, TestCluster, ValuePool, rng_from_seed};

const GOALS: usize = 200;
const GENERATIONS: u64 = 20;

/// Fitness values derived from the test's hash: cheap, deterministic, rarely 0 (covered), so that
/// the search keeps going for the whole budget.
struct Trivial {
    children: Vec<Vec<GoalIdx>>,
}

impl Trivial {
    fn new() -> Trivial {
        // A binary tree of goals for DynaMOSA: goal g releases 2g+1 and 2g+2.
        let children = (0..GOALS)
            .map(|g| [2 * g + 1, 2 * g + 2].into_iter().filter(|c| *c < GOALS).map(GoalIdx::new).collect())
            .collect();
        Trivial { children }
    }
}

impl Problem for Trivial {
    fn n_goals(&self) -> usize {
        GOALS
    }

    fn roots(&self) -> Vec<GoalIdx> {
        vec![GoalIdx::new(0)]
    }

    fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        &self.children[g.index()]
    }

    fn evaluate(&mut self, tests: &[TestCase], _: &mut DynamicPool) -> Result<Vec<Evaluation>, ProblemError> {
        Ok(tests
            .iter()
            .map(|t| {
                let h = t.stable_hash();
                let fitness = (0..GOALS as u64)
                    .map(|g| {
                        let x = (h ^ g.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                            .wrapping_mul(0xff51_afd7_ed55_8ccd)
                            >> 40;
                        if x % 997 == 0 { 0.0 } else { (x % 1000) as f64 / 1000.0 + 0.001 }
                    })
                    .collect();
                Evaluation { fitness, exception_at: None }
            })
            .collect())
    }
}

fn overhead(c: &mut Criterion) {
    let db = ProgramDb::open(
        &[test_support::java_base_jmod(), test_support::fixture_classes("cluster")],
        DbConfig::STANDARD,
    )
    .expect("fixture classpath opens");
    let cluster =
        TestCluster::build_in(&db, "cluster.Overloads", &ClusterConfig::evosuite()).expect("cluster builds");
    let mut group = c.benchmark_group("search_per_generation");
    group.sample_size(10);
    for alg in Algorithm::ALL {
        // About GENERATIONS batches of ~population tests (whole suite's initial batch is 50 suites
        // of 1-10 tests, so it gets fewer). Throughput counts the run's actual iterations, so the
        // reported elements/s are generations/s.
        let budget = Budget::evaluations(50 * GENERATIONS);
        let config = SearchConfig { algorithm: alg, stop_zero: false, ..SearchConfig::evosuite(budget) };
        let once = |cluster: &TestCluster| {
            let mut pool =
                ValuePool::new(cluster.constants().clone(), FactoryConfig::evosuite().dynamic_pool_size);
            let mut rng = rng_from_seed(1);
            search::run(
                &mut Trivial::new(),
                cluster,
                &mut pool,
                &config,
                &SystemClock::start(),
                &mut rng,
                &mut |_| {},
            )
            .expect("runs")
        };
        let stats = once(&cluster).stats;
        println!(
            "{}: {} iterations, {} evaluations per run",
            alg.name(),
            stats.iterations,
            stats.evaluations
        );
        group.throughput(Throughput::Elements(stats.iterations));
        group.bench_function(alg.name(), |b| b.iter(|| black_box(once(&cluster).stats.iterations)));
    }
    group.finish();
}

criterion_group!(benches, overhead);
criterion_main!(benches);
