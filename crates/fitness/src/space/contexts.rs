//! The registry of context goals (EvoSuite `CBRANCH`) found at run time: how a trace's calling
//! contexts become new goals, with dense indices in the order they were found, and their fitness
//! for one trace. Not here: which goals guide the search.

use std::collections::BTreeMap;

use protocol::Trace;

use crate::eval::GoalFitness;
use crate::model::GoalModel;
use crate::norm;
use crate::suite::{ContextGoal, context_goals};

/// The context goals found so far, with dense indices in the order they were found: what the
/// search targets for `Criterion::ContextBranch`. EvoSuite enumerates a branch's contexts from the
/// static call graph (digest 002 §1.2); here a context exists once a trace shows the branch's
/// method evaluating a branch in it (the worker records distances per outermost call site in the
/// SUT), so no unreachable context is ever created, and the goal list is a pure function of the
/// traces seen, in order.
#[derive(Debug, Clone, Default)]
pub(super) struct ContextGoals {
    pub(super) goals: Vec<ContextGoal>,
    /// Position of each goal in `goals`, for the per-trace lookups of `fitness_into`.
    index: BTreeMap<ContextGoal, u32>,
}

impl ContextGoals {
    pub(super) fn len(&self) -> usize {
        self.goals.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.goals.is_empty()
    }

    /// Appends the goals `trace` reveals that are new, in `context_goals` (sorted) order; returns
    /// how many were added. Fed the traces of a batch in batch order, the indices depend on the
    /// tests alone, not on which worker ran them.
    pub(super) fn discover(&mut self, model: &GoalModel, trace: &Trace) -> usize {
        let before = self.goals.len();
        for cg in context_goals(model, trace) {
            if let std::collections::btree_map::Entry::Vacant(e) = self.index.entry(cg) {
                e.insert(self.goals.len() as u32);
                self.goals.push(cg);
            }
        }
        self.goals.len() - before
    }

    /// Appends the fitness of every goal for one trace, in index order: goal by goal the value of
    /// `fitness::context_fitness` (`ν(distance)` in the goal's context, else `1 +` the branch's
    /// context-free fitness `plain`), computed in O(goals + trace contexts × log goals) instead of
    /// one search of the trace per goal, since a test sees few of the contexts found.
    pub(super) fn fitness_into(
        &self,
        model: &GoalModel,
        trace: &Trace,
        plain: &GoalFitness,
        out: &mut Vec<f64>,
    ) {
        let base = out.len();
        out.extend(self.goals.iter().map(|cg| 1.0 + plain.of(cg.goal)));
        for c in &trace.contexts {
            let Some((t, f)) = model.branch_goals_of(c.probe) else { continue };
            let site = c.site;
            if let Some(&i) = self.index.get(&ContextGoal { site, goal: t }) {
                out[base + i as usize] = norm(c.to_true);
            }
            if let Some(&i) = self.index.get(&ContextGoal { site, goal: f }) {
                out[base + i as usize] = norm(c.to_false);
            }
        }
    }
}
