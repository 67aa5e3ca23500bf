//! Path-condition goals (paper 003, SUSHI; docs/sushi.md): goals a technique registers while the
//! search runs, one per path condition the workers evaluate at the entry of each call of its method
//! (protocol v9, `Setup::path_conditions`), scored from a trace's path distances.

use goals::GoalId;
use protocol::Trace;

use crate::norm;

/// A path condition as a goal of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathGoal {
    /// Index of the condition in `Setup::path_conditions` (what `Trace::path_distances` index).
    pub pc: u32,
    /// The branch goals (model ids) of the path it was selected for, sorted: never empty, since a
    /// path is selected only for the branches it traverses.
    pub branches: Vec<GoalId>,
    /// The entry method, `class.name descriptor`, for the goal's text.
    pub entry: String,
}

/// The goal's value for one test: Figure 6's DISTANCE_PC of the test's best call of the entry,
/// normalised (`norm`, so 0 exactly when every clause holds); 1 when the test never called the
/// entry (no call is farther than any call).
pub fn path_fitness(trace: &Trace, pc: u32) -> f64 {
    match trace.path_distance(pc).map(|d| d.total()) {
        // A worker scores an undefined clause 1, never NaN; should one come, it is not a solution.
        Some(t) if t.is_nan() => 1.0,
        Some(t) => norm(t),
        None => 1.0,
    }
}

/// The goal as text: `path-condition pc3 sushi/DList.sample(I)V (2 branches)`.
pub fn path_text(goal: &PathGoal) -> String {
    format!("path-condition pc{} {} ({} branches)", goal.pc, goal.entry, goal.branches.len())
}
