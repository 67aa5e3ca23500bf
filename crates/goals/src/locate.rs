//! Where a goal is: its class, its method, and its class with a source line or method name, as
//! reports name it. Lookups over the plan only; nothing here scores or selects goals.

use crate::{Goal, GoalId, MethodPlan, PlanClassIdx, ProbePlan};

impl ProbePlan {
    /// The class a goal belongs to: its probe's, or the one it names.
    pub fn goal_class_id(&self, g: GoalId) -> PlanClassIdx {
        match self.goal(g) {
            Goal::Branch { probe, .. }
            | Goal::SwitchCase { probe, .. }
            | Goal::Exception { probe }
            | Goal::WeakMutation { probe, .. } => self.probe(*probe).class,
            Goal::Line { class, .. }
            | Goal::MethodEntry { class, .. }
            | Goal::MethodNormalExit { class, .. }
            | Goal::Output { class, .. } => *class,
        }
    }

    /// The internal name of the class a goal belongs to.
    pub fn goal_class(&self, g: GoalId) -> &str {
        self.class(self.goal_class_id(g)).name.as_str()
    }

    /// The method a goal is in: its probe's, or the one it names; `None` for a line goal (a line
    /// is a class's, whatever methods share it) and for a probe outside any method.
    pub fn goal_method(&self, g: GoalId) -> Option<&MethodPlan> {
        match self.goal(g) {
            Goal::Branch { probe, .. }
            | Goal::SwitchCase { probe, .. }
            | Goal::Exception { probe }
            | Goal::WeakMutation { probe, .. } => self.method_of(*probe),
            Goal::Line { .. } => None,
            Goal::MethodEntry { class, method }
            | Goal::MethodNormalExit { class, method }
            | Goal::Output { class, method, .. } => {
                self.class(*class).methods.iter().find(|m| m.index == *method)
            }
        }
    }

    /// Class and source line of a goal's probe (for reports): a line goal's own line, a method
    /// goal's `class.method` without a line (`?` for a method the plan does not list).
    pub fn goal_location(&self, g: GoalId) -> (String, Option<u16>) {
        let probe = match self.goal(g) {
            Goal::Branch { probe, .. }
            | Goal::SwitchCase { probe, .. }
            | Goal::Exception { probe }
            | Goal::WeakMutation { probe, .. } => *probe,
            Goal::Line { class, line } => return (self.class(*class).name.clone(), Some(*line)),
            Goal::MethodEntry { class, .. }
            | Goal::MethodNormalExit { class, .. }
            | Goal::Output { class, .. } => {
                let name = self.goal_method(g).map_or("?", |m| m.name.as_str());
                return (format!("{}.{name}", self.class(*class).name), None);
            }
        };
        let p = self.probe(probe);
        (self.class(p.class).name.clone(), p.line)
    }
}
