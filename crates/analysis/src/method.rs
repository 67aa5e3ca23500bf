//! The per-method analysis pipeline in one place (STYLE.md rule 6): CFG, dominators,
//! post-dominators, control dependences, branch goals and the goals each block depends on, each a pure function of what came
//! before. Callers that need only one analysis call its `compute` directly.

use bytecode::MethodBody;

use crate::branch_goals::{BranchGoal, GoalDeps, branch_goals, goal_deps};
use crate::cfg::Cfg;
use crate::control_deps::ControlDeps;
use crate::dominators::DomTree;
use crate::post_dominators::PostDomTree;

/// Every analysis of one method body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodAnalysis {
    pub cfg: Cfg,
    pub dominators: DomTree,
    pub post_dominators: PostDomTree,
    /// Control dependences between blocks (nodes are `BlockId`s, edges the CFG's edges).
    pub control_deps: ControlDeps,
    pub branch_goals: Vec<BranchGoal>,
    /// Per block (by `BlockId`), the branch goals it is control dependent on.
    pub goal_deps: Vec<GoalDeps>,
}

impl MethodAnalysis {
    pub fn compute(body: &MethodBody) -> MethodAnalysis {
        let cfg = Cfg::compute(body);
        let dominators = DomTree::compute(cfg.graph());
        let post_dominators = PostDomTree::compute(cfg.graph());
        let control_deps = ControlDeps::compute(cfg.graph(), &post_dominators);
        let branch_goals = branch_goals(body, &cfg);
        let goal_deps = goal_deps(&cfg, &control_deps, &branch_goals);
        MethodAnalysis { cfg, dominators, post_dominators, control_deps, branch_goals, goal_deps }
    }
}
