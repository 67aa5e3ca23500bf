//! fitness: pure functions from execution traces to goal fitness and coverage (DESIGN.md §4).
//! [`GoalModel`] attaches every goal of a `goals::ProbePlan` to the branch goals it is
//! control dependent on (for approach levels and DynaMOSA's goal release); [`goal_fitness`] scores
//! every goal for one trace; [`direct_calls`] decides EvoSuite's top-level method criteria from a
//! test's statements; [`coverage`] and [`suite_fitness`] score a suite; [`context_goals`]
//! creates the dynamic context-branch goals; [`StringFitness`] grades the branches that test a string
//! comparison's result (docs/strings.md). No I/O, no processes: callers pass
//! `exec::ExecResult::trace` (a timed-out or crashed execution has an empty trace, so it scores as
//! covering nothing).

mod direct;
mod eval;
mod extension;
mod flag_contexts;
mod infection;
mod model;
mod space;
mod strings;
mod suite;

pub use direct::{DirectCalls, direct_calls};
pub use eval::{
    GoalFitness, UNREACHABLE, goal_fitness, goal_fitness_reference, output_bits, switch_distance,
};
pub use extension::{FamilyDecoder, FamilyProbe, FamilyProbes, decode};
pub use flag_contexts::{FLAG_CONTEXTS, FlagContexts, FlagFitness};
pub use goals::goal_text;
pub use infection::{cond_infection, operator_infection, unary_infection};
pub use model::{BranchlessMethod, GoalInfo, GoalModel, ModelError, Site};
pub use space::{
    ClassLoading, CriterionCoverage, GoalIdx, GoalRuns, GoalSpace, PathGoal, Refiner, Scorer, path_fitness,
    path_text,
};
pub use strings::{
    RegexCache, StringFitness, contains_distance, edit_distance, fold_case, prefix_distance, suffix_distance,
    test_distances, uncontains_distance,
};
pub use suite::{
    ContextGoal, Coverage, SuiteFitness, context_fitness, context_goals, coverage, suite_fitness,
};

/// EvoSuite's normalisation of a distance to [0, 1): `ν(x) = x / (x + 1)` (Arcuri, "It really
/// does matter how you normalize the branch distance", 2013; digest 002 §0). `ν(∞) = 1`.
pub fn norm(x: f64) -> f64 {
    if x.is_infinite() {
        1.0
    } else if x.is_nan() || x <= 0.0 {
        0.0
    } else {
        x / (x + 1.0)
    }
}
