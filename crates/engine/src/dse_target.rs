//! What DSE (`dse`, paper 004) asks of the search's problem: the probe plan, the search goal of a
//! model goal, and real executions with the fitness of every goal (`dse::DseTarget`).

use search::{GoalIdx, ProblemError};
use testcase::TestCase;

use crate::JvmProblem;

impl dse::DseTarget for JvmProblem {
    fn plan(&self) -> &goals::ProbePlan {
        self.space().model().plan()
    }

    /// The selected static goals are the first search goals, in model id order.
    fn search_goal(&self, goal: goals::GoalId) -> Option<GoalIdx> {
        self.space().selected().binary_search(&goal).ok().map(|i| GoalIdx(i as u32))
    }

    /// The tests run through the result cache in one batch (after the batch in flight, whose
    /// thread holds the workers), each trace scored over every goal known now.
    fn run_tests(&mut self, tests: &[TestCase]) -> Result<Vec<Vec<f64>>, ProblemError> {
        let results = self.execute(tests)?;
        Ok(results.iter().map(|r| self.fitness(&r.trace)).collect())
    }
}
