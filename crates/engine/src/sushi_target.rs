//! What SUSHI (`sushi`, paper 003) asks of the search's problem: the search goal of a branch goal,
//! path goals registered in the goal space, and real executions with the fitness of every goal
//! (`sushi::SushiTarget`).

use fitness::PathGoal;
use search::{GoalIdx, ProblemError};
use testcase::TestCase;

use crate::JvmProblem;

impl sushi::SushiTarget for JvmProblem {
    fn branch_goal(&self, goal: goals::GoalId) -> Option<GoalIdx> {
        self.static_goal(goal)
    }

    fn register_paths(&mut self, goals: Vec<PathGoal>) -> Vec<GoalIdx> {
        self.add_path_goals(goals)
    }

    fn focus_paths(&mut self, pcs: &[u32]) {
        JvmProblem::focus_paths(self, pcs);
    }

    /// The tests run through the result cache in one batch, each trace scored over every goal.
    fn run_tests(&mut self, tests: &[TestCase]) -> Result<Vec<Vec<f64>>, ProblemError> {
        let results = self.execute(tests)?;
        Ok(results.iter().map(|r| self.fitness(&r.trace)).collect())
    }
}
