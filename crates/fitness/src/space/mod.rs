//! The goal space of a run: every goal the search works on, under a dense index (`GoalIdx`, the
//! numbers the engine hands the search as `search::GoalIdx`), with its criterion, class, method,
//! location and dependences (DynaMOSA's roots and the goals each goal releases); the context goals
//! found at run time (`contexts`) and the path-condition goals a technique registers (`paths`,
//! SUSHI), in one order of registration after the static goals; the scoring of a trace over the space; coverage accounting
//! (`coverage`) and the goals only class initialisation reaches (`class_init`).
//!
//! Pure: the engine gives it the goal model, the workers' set-up trace, and the traces and
//! outcomes of tests; it starts no process and knows no worker. Which goals guide the search is
//! the search's business (its target policy); this only says what the goals are and how they
//! depend on each other.

mod class_init;
mod contexts;
mod coverage;
mod paths;

use std::collections::BTreeSet;
use std::sync::Arc;

use goals::{Criterion, GoalId, MethodPlan};
use protocol::Trace;

pub use class_init::ClassLoading;
pub use coverage::{CriterionCoverage, GoalRuns};
pub use paths::{PathGoal, path_fitness, path_text};

use crate::eval::{GoalFitness, goal_fitness};
use crate::model::GoalModel;
use crate::suite::ContextGoal;
use contexts::ContextGoals;

jvm_model::entity_index! {
    /// A goal of the search: an index in `0..GoalSpace::n_goals()` (and `search::Problem::n_goals()`),
    /// the selected static goals first (in model id order), then the context goals and path goals in
    /// the order they were found or registered. Defined here, the lowest crate that numbers goals so;
    /// `search` uses it as it is.
    pub struct GoalIdx = "g";
}

/// The goals of one run's search over a goal model (see the module comment).
#[derive(Debug)]
pub struct GoalSpace {
    /// Shared with the threads that score a batch as its results arrive (`Scorer`).
    model: Arc<GoalModel>,
    /// `selected[i]`: the model goal of `GoalIdx(i)`, in model id order.
    selected: Arc<Vec<GoalId>>,
    roots: Vec<GoalIdx>,
    released: Vec<Vec<GoalIdx>>,
    /// The context goals found so far. `None` when `Criterion::ContextBranch` is not selected.
    contexts: Option<ContextGoals>,
    /// The path goals registered so far (`add_path_goals`).
    paths: Vec<PathGoal>,
    /// `GoalIdx(selected.len() + i)` is `extra[i]`: context and path goals in the order they
    /// were found or registered.
    extra: Vec<Extra>,
    /// Goals of the model no test can cover because the worker's set-up already ran them
    /// (`class_init::init_goals`), in model order; left out of the search, counted by
    /// `class_init_goals`.
    init_goals: Vec<GoalId>,
    /// What loading each class under test loads and initialises, for `class_init_goals`.
    loading: ClassLoading,
    /// The techniques' say on goal values (`Refiner`), applied in the order given.
    refiners: Arc<[Arc<dyn Refiner>]>,
}

/// A goal after the static ones: the index of a context goal in `ContextGoals::goals` or of a
/// path goal in `GoalSpace::paths`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Extra {
    Context(u32),
    Path(u32),
}

/// A technique that scores some goals differently from `goal_fitness` (interprocedural flags,
/// docs/flags.md): given a trace and its fitness of every model goal, it replaces the values of
/// the goals it knows better, before the selected goals' values are read, in every algorithm.
/// It must never make an uncovered goal 0 or a covered one non-zero: coverage stays the trace's.
pub trait Refiner: Send + Sync + std::fmt::Debug {
    fn refine(&self, trace: &Trace, all: &mut GoalFitness);
}

/// What scores a trace over the selected static goals away from the space (on the threads that
/// wait for workers): the model and the selected goals, shared, not copied.
#[derive(Debug, Clone)]
pub struct Scorer {
    model: Arc<GoalModel>,
    selected: Arc<Vec<GoalId>>,
    refiners: Arc<[Arc<dyn Refiner>]>,
}

impl Scorer {
    /// The trace's fitness for every model goal (`goal_fitness`), and the selected goals' values in
    /// `GoalIdx` order, in a vector with room for `width` values (the context goals come after
    /// them, appended by `GoalSpace::fitness_with` in batch order).
    pub fn score(&self, trace: &Trace, width: usize) -> (GoalFitness, Vec<f64>) {
        score(&self.model, &self.selected, &self.refiners, trace, width)
    }
}

fn score(
    model: &GoalModel,
    selected: &[GoalId],
    refiners: &[Arc<dyn Refiner>],
    trace: &Trace,
    width: usize,
) -> (GoalFitness, Vec<f64>) {
    let mut all = goal_fitness(model, trace);
    for r in refiners {
        r.refine(trace, &mut all);
    }
    let values = selected_fitness(selected, &all, width);
    (all, values)
}

/// The values of the `selected` goals in `all`, in `GoalIdx` order, in a vector with room for
/// `capacity` values (the context goals come after them).
fn selected_fitness(selected: &[GoalId], all: &GoalFitness, capacity: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(capacity.max(selected.len()));
    out.extend(selected.iter().map(|&g| all.of(g)));
    out
}

impl GoalSpace {
    /// The space of `model`'s goals of `criteria`, less those the workers' set-up covers
    /// (`init_trace`, the trace of initialising every class under test); `loading` says what the
    /// classes load when a test loads them, for the coverage of the goals left out.
    pub fn new(
        model: GoalModel,
        criteria: &[Criterion],
        loading: ClassLoading,
        init_trace: &Trace,
    ) -> GoalSpace {
        let init_goals = class_init::init_goals(&model, init_trace);
        let (selected, roots, released) = select_goals(&model, criteria, &init_goals);
        GoalSpace {
            model: Arc::new(model),
            selected: Arc::new(selected),
            roots,
            released,
            contexts: criteria.contains(&Criterion::ContextBranch).then(ContextGoals::default),
            paths: Vec::new(),
            extra: Vec::new(),
            init_goals,
            loading,
            refiners: Arc::from(Vec::new()),
        }
    }

    /// The space with `refiner` scoring its goals too, after the refiners it has (see `Refiner`;
    /// each technique's refiner scores goals of its own kind).
    pub fn with_refiner(self, refiner: Arc<dyn Refiner>) -> GoalSpace {
        let refiners: Vec<Arc<dyn Refiner>> = self.refiners.iter().cloned().chain([refiner]).collect();
        GoalSpace { refiners: Arc::from(refiners), ..self }
    }

    pub fn model(&self) -> &GoalModel {
        &self.model
    }

    /// Number of goals: the selected static ones, the context goals found so far and the path goals
    /// registered.
    pub fn n_goals(&self) -> usize {
        self.selected.len() + self.extra.len()
    }

    /// The goals, in order: the selected static ones, then the context and path goals.
    pub fn goals(&self) -> impl Iterator<Item = GoalIdx> + use<> {
        (0..self.n_goals() as u32).map(GoalIdx)
    }

    /// The model goals of the static goals, in `GoalIdx` order.
    pub fn selected(&self) -> &[GoalId] {
        &self.selected
    }

    /// The goals left out of the search because the workers' set-up covers them, in model order.
    pub fn init_goals(&self) -> &[GoalId] {
        &self.init_goals
    }

    /// DynaMOSA's initial targets: the selected goals no selected goal controls.
    pub fn roots(&self) -> &[GoalIdx] {
        &self.roots
    }

    /// The selected goals covering `g` releases (its control-dependent goals, through unselected
    /// ones); none for a context goal.
    pub fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        self.released.get(g.index()).map_or(&[], Vec::as_slice)
    }

    /// The model goal behind a goal (for a context goal, its branch goal; for a path goal, the
    /// first branch goal of its path).
    pub fn goal_id(&self, g: GoalIdx) -> GoalId {
        match self.extra(g) {
            // Neither default is reached: a context index exists only with contexts, and a path
            // goal is registered with its branches (`PathGoal::branches` is never empty).
            Some(Extra::Context(_)) => self.context_goal(g).map_or(GoalId(0), |cg| cg.goal),
            Some(Extra::Path(p)) => self.paths[p as usize].branches.first().copied().unwrap_or(GoalId(0)),
            None => self.selected[g.index()],
        }
    }

    fn extra(&self, g: GoalIdx) -> Option<Extra> {
        let i = g.index().checked_sub(self.selected.len())?;
        self.extra.get(i).copied()
    }

    /// The context goal behind a goal, when it is one.
    pub fn context_goal(&self, g: GoalIdx) -> Option<ContextGoal> {
        match self.extra(g)? {
            Extra::Context(i) => self.contexts.as_ref()?.goals.get(i as usize).copied(),
            Extra::Path(_) => None,
        }
    }

    /// The path goal behind a goal, when it is one.
    pub fn path_goal(&self, g: GoalIdx) -> Option<&PathGoal> {
        match self.extra(g)? {
            Extra::Path(i) => self.paths.get(i as usize),
            Extra::Context(_) => None,
        }
    }

    /// Registers path goals after the goals known now, in order; their search goals. Their values
    /// come from the traces' path distances (`path_fitness`), whichever batch the traces are of:
    /// the workers evaluate every condition of the set-up at every call.
    pub fn add_path_goals(&mut self, goals: Vec<PathGoal>) -> Vec<GoalIdx> {
        let mut out = Vec::with_capacity(goals.len());
        for goal in goals {
            out.push(GoalIdx::new(self.n_goals()));
            self.extra.push(Extra::Path(self.paths.len() as u32));
            self.paths.push(goal);
        }
        out
    }

    /// The criterion of a goal; a path goal's is `Branch`, the criterion it serves (it is not
    /// counted in any criterion's coverage: those count the model's goals).
    pub fn criterion(&self, g: GoalIdx) -> Criterion {
        match self.extra(g) {
            Some(Extra::Context(_)) => Criterion::ContextBranch,
            Some(Extra::Path(_)) => Criterion::Branch,
            None => self.model.goal(self.goal_id(g)).criterion(),
        }
    }

    /// The internal name of a goal's class.
    pub fn class(&self, g: GoalIdx) -> &str {
        self.model.plan().goal_class(self.goal_id(g))
    }

    /// The method a goal is in (`ProbePlan::goal_method`).
    pub fn method(&self, g: GoalIdx) -> Option<&MethodPlan> {
        self.model.plan().goal_method(self.goal_id(g))
    }

    /// A goal's class with its source line or method (`ProbePlan::goal_location`).
    pub fn location(&self, g: GoalIdx) -> (String, Option<u16>) {
        self.model.plan().goal_location(self.goal_id(g))
    }

    /// A goal as text with its class and line or method (`line c0 L7 (example/Triangle:7)`), as
    /// `uncovered` lists them; a context goal names its context first (`context_text`).
    pub fn text(&self, g: GoalIdx) -> String {
        if let Some(p) = self.path_goal(g) {
            return path_text(p);
        }
        match self.context_goal(g) {
            Some(cg) => self.context_text(cg),
            None => self.static_text(self.goal_id(g)),
        }
    }

    /// A model goal as text with its class and line or method (as `text` gives a static goal).
    pub fn model_goal_text(&self, g: GoalId) -> String {
        self.static_text(g)
    }

    fn static_text(&self, g: GoalId) -> String {
        let goal = self.model.goal(g);
        match self.model.plan().goal_location(g) {
            (class, Some(line)) => format!("{} ({class}:{line})", crate::goal_text(goal)),
            (class, None) => format!("{} ({class})", crate::goal_text(goal)),
        }
    }

    /// `context-branch <context> <branch text>`: the context is `direct` (the test called the
    /// branch's method) or the outermost call site in the SUT as `p7@class:line`
    /// (`context-branch p18@context/Calls:20 branch p7 taken (context/Calls:12)`).
    fn context_text(&self, cg: ContextGoal) -> String {
        let plan = self.model.plan();
        let site = match cg.site {
            None => "direct".to_string(),
            Some(p) if p.index() < plan.n_probes() => {
                let probe = plan.probe(p);
                let class = &plan.class(probe.class).name;
                match probe.line {
                    Some(line) => format!("{p}@{class}:{line}"),
                    None => format!("{p}@{class}"),
                }
            }
            Some(p) => p.to_string(),
        };
        format!("context-branch {site} {}", self.static_text(cg.goal))
    }

    /// What scores a batch's traces away from the space (see `Scorer`).
    pub fn scorer(&self) -> Scorer {
        Scorer {
            model: Arc::clone(&self.model),
            selected: Arc::clone(&self.selected),
            refiners: Arc::clone(&self.refiners),
        }
    }

    /// `Scorer::score` here.
    pub fn score(&self, trace: &Trace, width: usize) -> (GoalFitness, Vec<f64>) {
        score(&self.model, &self.selected, &self.refiners, trace, width)
    }

    /// Registers the context goals `trace` reveals that are new, after those found before (see
    /// `ContextGoals::discover`); returns how many were added. Fed a batch's traces in batch order,
    /// the indices depend on the tests alone, not on which worker ran them.
    pub fn discover(&mut self, trace: &Trace) -> usize {
        let Some(contexts) = &mut self.contexts else { return 0 };
        let before = contexts.len() as u32;
        let added = contexts.discover(&self.model, trace);
        self.extra.extend((before..before + added as u32).map(Extra::Context));
        added
    }

    /// The fitness of every goal for one trace, indexed by `GoalIdx` (`n_goals()` values).
    pub fn fitness(&self, trace: &Trace) -> Vec<f64> {
        let (all, values) = self.score(trace, self.n_goals());
        self.fitness_with(&all, values, trace)
    }

    /// [`GoalSpace::fitness`] given a trace's score (`Scorer::score`): appends the context and path
    /// goals' values (which depend on the goals found so far, so come in batch order) to `values`.
    pub fn fitness_with(&self, all: &GoalFitness, mut values: Vec<f64>, trace: &Trace) -> Vec<f64> {
        if self.paths.is_empty() {
            // Only context goals after the static ones: written in place, as before path goals.
            if let Some(contexts) = &self.contexts {
                contexts.fitness_into(&self.model, trace, all, &mut values);
            }
            return values;
        }
        let mut context_values = Vec::new();
        if let Some(contexts) = &self.contexts {
            contexts.fitness_into(&self.model, trace, all, &mut context_values);
        }
        values.extend(self.extra.iter().map(|e| match *e {
            Extra::Context(i) => context_values[i as usize],
            Extra::Path(i) => path_fitness(trace, self.paths[i as usize].pc),
        }));
        values
    }
}

/// The goals of `criteria` (minus `init_goals`), their DynaMOSA roots and release lists. Control
/// dependences in the model point at branch goals; when those are not selected, releases pass
/// through them to the selected goals they control (so restricting criteria never strands a goal),
/// and a root that is not selected hands its role to the selected goals it releases.
fn select_goals(
    model: &GoalModel,
    criteria: &[Criterion],
    init_goals: &[GoalId],
) -> (Vec<GoalId>, Vec<GoalIdx>, Vec<Vec<GoalIdx>>) {
    let mut dense: Vec<Option<GoalIdx>> = vec![None; model.n_goals()];
    let mut selected = Vec::new();
    for g in model.goal_ids() {
        if criteria.contains(&model.goal(g).criterion()) && init_goals.binary_search(&g).is_err() {
            dense[g.index()] = Some(GoalIdx::new(selected.len()));
            selected.push(g);
        }
    }
    // Selected goals reached from `start` through unselected goals only (iterative, cycle-safe).
    let closure = |start: &[GoalId]| -> Vec<GoalIdx> {
        let mut out = BTreeSet::new();
        let mut seen = vec![false; model.n_goals()];
        let mut stack: Vec<GoalId> = start.iter().rev().copied().collect();
        while let Some(h) = stack.pop() {
            if std::mem::replace(&mut seen[h.index()], true) {
                continue;
            }
            match dense[h.index()] {
                Some(i) => {
                    out.insert(i);
                }
                None => stack.extend(model.released_by(h).iter().rev().copied()),
            }
        }
        out.into_iter().collect()
    };
    let roots = closure(model.roots());
    let released = selected.iter().map(|&g| closure(model.released_by(g))).collect();
    (selected, roots, released)
}
