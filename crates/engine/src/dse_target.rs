//! What DSE (`dse`, paper 004) asks of the search's problem: the probe plan, the search goal of a
//! model goal, and real executions with the fitness of every goal (`dse::DseTarget`); and
//! `explain_dse`, what `suitesmith analyze --dse` prints.

use jvm_model::ClassName;
use std::path::PathBuf;

use programdb::{DbConfig, ProgramDb};
use search::{GoalIdx, ProblemError, SearchConfig};
use testcase::{ClusterConfig, TestCase, TestCluster, TestFactory, ValuePool, rng_from_seed};

use crate::problem::classes_under_test;
use crate::{DseConfig, EngineError, JvmProblem, cluster_classpath};

/// Random tests `explain_dse` draws, of which it explains the first with a branch to negate.
const EXPLAIN_ATTEMPTS: usize = 20;

/// DSE on one random test of `class` (drawn with `seed` by the search's test factory), as text:
/// the path condition per branch and the solver's answer for each negation (`dse::explain`). The
/// plan is the one a run instruments (the class and its nested classes); no JVM starts.
pub fn explain_dse(
    classpath: &[PathBuf],
    class: &str,
    seed: u64,
    dse: &DseConfig,
) -> Result<String, EngineError> {
    let db = ProgramDb::open(&cluster_classpath(classpath), DbConfig::STANDARD)?;
    let internal = ClassName::from_binary(class).into_internal();
    if !db.classpath().contains(&internal) {
        return Err(EngineError::MissingClass(class.to_string()));
    }
    let ids: Vec<programdb::ClassId> =
        classes_under_test(db.classpath(), &internal).iter().filter_map(|c| db.class_id(c)).collect();
    let (plan, _) = instrument::instrument_classes_in(&db, &ids, &instrument::Options::all());
    let cluster = TestCluster::build_in(&db, class, &ClusterConfig::evosuite())?;
    let config = SearchConfig::evosuite(search::Budget::evaluations(1));
    let pool = ValuePool::new(cluster.constants().clone(), config.factory.dynamic_pool_size);
    let factory = TestFactory::new(&cluster, &pool, &config.factory);
    let mut rng = rng_from_seed(seed);
    let tests: Vec<TestCase> = (0..EXPLAIN_ATTEMPTS).map(|_| factory.random_test(&mut rng)).collect();
    Ok(dse::explain_first(&db, &plan, &tests, dse, seed))
}

impl dse::DseTarget for JvmProblem {
    fn plan(&self) -> &goals::ProbePlan {
        self.space().model().plan()
    }

    fn search_goal(&self, goal: goals::GoalId) -> Option<GoalIdx> {
        self.static_goal(goal)
    }

    /// The tests run through the result cache in one batch (after the batch in flight, whose
    /// thread holds the workers), each trace scored over every goal known now.
    fn run_tests(&mut self, tests: &[TestCase]) -> Result<Vec<Vec<f64>>, ProblemError> {
        let results = self.execute(tests)?;
        Ok(results.iter().map(|r| self.fitness(&r.trace)).collect())
    }
}
