//! What object construction graphs (`ocg`, paper 000) ask of the search's problem: the jump
//! instruction a branch goal is an outcome of (`ocg::OcgTarget`).

use bytecode::InsnIdx;
use programdb::{MethodId, ProgramDb};
use search::GoalIdx;

use crate::JvmProblem;

impl JvmProblem {
    /// The method (in `db`) and instruction of a branch goal's jump: a `Goal::Branch` of the
    /// probe plan (a switch's cases are left out: the paper targets conditional branches).
    pub(crate) fn branch_site(&self, db: &ProgramDb, goal: GoalIdx) -> Option<(MethodId, InsnIdx)> {
        let space = self.space();
        let g = goal;
        // A context goal's branch is its static goal's; a path goal (SUSHI) is no branch.
        if space.context_goal(g).is_some() || space.path_goal(g).is_some() {
            return None;
        }
        let plan = space.model().plan();
        let goals::Goal::Branch { probe, .. } = plan.goal(space.goal_id(g)) else { return None };
        let p = plan.probe(*probe);
        let method = plan.class(p.class).methods.iter().find(|m| Some(m.index) == p.method)?;
        let class = db.class_id(&plan.class(p.class).name)?;
        let cf = db.class(class).ok()?;
        let m = db.methods(class).find(|&m| {
            db.member(m).is_some_and(|mm| {
                mm.name(&cf.constant_pool).is_some_and(|n| n == method.name)
                    && mm.descriptor(&cf.constant_pool).is_some_and(|d| d == method.descriptor)
            })
        })?;
        Some((m, p.insn))
    }
}

impl ocg::OcgTarget for JvmProblem {
    fn branch_of(&self, db: &ProgramDb, goal: GoalIdx) -> Option<(MethodId, InsnIdx)> {
        self.branch_site(db, goal)
    }
}
