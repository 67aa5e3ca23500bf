//! Smart goal selection wired into a run (paper 002, digest §3.7–3.8;
//! docs/selection.md): the selection of crate `selection` over the run's probe plan, mapped to the
//! search's goals as the target policy `search::guiding::Guiding` over the configuration's own
//! (all goals, or DynaMOSA's release along control dependences), with whole suite's subset
//! weights. With `GoalSelection::All` nothing here runs.
//!
//! Not here: the selection itself (`selection`), the policy (`search::guiding`), scoring and
//! coverage (every goal is still scored, archived and reported, `fitness::GoalSpace`).

use goals::Criterion;
use programdb::ProgramDb;
use search::guiding::Guiding;
use search::{Algorithm, SearchConfig, TargetPolicy};

use crate::{GenerateConfig, JvmProblem};

/// Which goals guide the search (`--goal-selection`).
#[derive(Debug, Clone, PartialEq)]
pub enum GoalSelection {
    /// Every goal of the criteria guides: the search as it was before smart selection.
    All,
    /// Smart selection with these options. Under DynaMOSA the branch goals are added to
    /// `always_guide` (its control-dependence graph is over them, §3.8).
    Smart(selection::Options),
}

/// Guiding and deferred static goals per criterion, in the criteria's order (report.json).
pub type SelectionCounts = Vec<(Criterion, usize, usize)>;

/// The selection of a run: `None` for `GoalSelection::All`.
pub(crate) fn select(
    db: &ProgramDb,
    problem: &JvmProblem,
    goal_selection: &GoalSelection,
    criteria: &[Criterion],
    algorithm: Algorithm,
) -> Option<selection::Selection> {
    let GoalSelection::Smart(opts) = goal_selection else { return None };
    let mut opts = opts.clone();
    if algorithm == Algorithm::DynaMosa && !opts.always_guide.contains(&Criterion::Branch) {
        opts.always_guide.push(Criterion::Branch);
    }
    let plan = problem.space().model().plan();
    let blocks: Vec<selection::ClassBlocks> = plan
        .classes()
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let file = db.class(db.class_id(&c.name)?).ok()?;
            Some(selection::ClassBlocks::of_class(goals::PlanClassIdx(i as u32), file))
        })
        .collect();
    Some(selection::select(plan, &blocks, criteria, &opts))
}

/// The counts report.json lists, for `GoalSelection::Smart`.
pub(crate) fn counts(
    db: &ProgramDb,
    problem: &JvmProblem,
    config: &GenerateConfig,
) -> Option<SelectionCounts> {
    let sel = select(db, problem, &config.techniques.goal_selection, &config.criteria, config.algorithm)?;
    Some(sel.counts(problem.space().model().plan()))
}

/// The target policy of a run with smart selection (`None`: the configuration's own): the search's
/// static goals guide as the selection says, the context goals found at run time as their
/// criterion does (`Selection::guides_all`); whole suite weighs them (`Selection::weight`).
pub(crate) fn policy(
    db: &ProgramDb,
    problem: &JvmProblem,
    goal_selection: &GoalSelection,
    criteria: &[Criterion],
    config: &SearchConfig,
) -> Option<Box<dyn TargetPolicy>> {
    let sel = select(db, problem, goal_selection, criteria, config.algorithm)?;
    let space = problem.space();
    let counts = sel.counts(space.model().plan());
    let mut guides = Vec::with_capacity(space.selected().len());
    let mut weights = Vec::with_capacity(space.selected().len());
    for &g in space.selected() {
        let c = space.model().goal(g).criterion();
        guides.push(sel.is_guiding(g) || sel.guides_all(c));
        weights.push(sel.weight(c, &counts));
    }
    let later = sel.guides_all(Criterion::ContextBranch);
    Some(Box::new(Guiding::new(search::target_policy(config), guides, later, Some(weights))))
}
