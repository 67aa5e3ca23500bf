//! The target policy: which goals guide the search. Every goal is scored and archived whatever the
//! policy says; the policy only decides which goals are *targets*, the objectives that MOSA ranks
//! on, whose populations MIO keeps and that whole suite sums. Two policies are built in, chosen by
//! `target_policy` from `SearchConfig::algorithm` exactly as before the trait existed:
//! - [`AllGoals`]: every goal from the start, and every goal the problem adds (random, whole
//!   suite, MOSA, MIO);
//! - [`ControlDependence`]: DynaMOSA's release along control dependences (Panichella, Kifetew &
//!   Tonella, TSE 2018): the problem's roots first, then, when a goal is covered, the goals
//!   `Problem::released_by` it; a goal the problem adds is released at once.
//!
//! Smart goal selection, which keeps a subset of the goals as guides (digest 002 §3.6–3.8), is
//! `guiding::Guiding`, passed in through `Seams::policy`; whole suite reads its goal weights
//! (`TargetPolicy::weights`).
//!
//! Not here: which goals exist (the `Problem`) and which are covered (the `Archive`).

use std::ops::Range;

use crate::{Archive, GoalIdx, Problem, SearchConfig, SearchError};

/// A set of target goals over the goals known so far (`0..n_goals()`), with its size kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Targets {
    is: Vec<bool>,
    n: usize,
}

impl Targets {
    /// No goals.
    pub fn new() -> Targets {
        Targets::default()
    }

    /// The goals known (targets or not).
    pub fn n_goals(&self) -> usize {
        self.is.len()
    }

    /// The goals that are targets.
    pub fn n_targets(&self) -> usize {
        self.n
    }

    /// Whether `g` is a target (false for a goal not known).
    pub fn is_target(&self, g: GoalIdx) -> bool {
        self.is.get(g.index()).copied().unwrap_or(false)
    }

    /// Makes room for goals up to `n_goals`, none of them a target (never shrinks).
    pub fn grow(&mut self, n_goals: usize) {
        if n_goals > self.is.len() {
            self.is.resize(n_goals, false);
        }
    }

    /// Makes `g` a target; `Ok(false)` if it was one already, an error if it is not known.
    pub fn add(&mut self, g: GoalIdx) -> Result<bool, SearchError> {
        let n_goals = self.is.len();
        match self.is.get_mut(g.index()) {
            None => Err(SearchError::BadGoal { goal: g, n_goals }),
            Some(true) => Ok(false),
            Some(t) => {
                *t = true;
                self.n += 1;
                Ok(true)
            }
        }
    }

    /// Makes `g` no longer a target; whether it was one.
    pub fn remove(&mut self, g: GoalIdx) -> bool {
        match self.is.get_mut(g.index()) {
            Some(t) if *t => {
                *t = false;
                self.n -= 1;
                true
            }
            _ => false,
        }
    }
}

/// What a policy may read: the problem's goals and their control dependences, and the archive.
#[derive(Clone, Copy)]
pub struct Goals<'a> {
    pub(crate) problem: &'a dyn Problem,
    pub(crate) archive: &'a Archive,
}

impl<'a> Goals<'a> {
    /// The goals known now (`Problem::n_goals`).
    pub fn n_goals(&self) -> usize {
        self.problem.n_goals()
    }

    /// `Problem::roots`: the goals without control dependence.
    pub fn roots(&self) -> Vec<GoalIdx> {
        self.problem.roots()
    }

    /// `Problem::released_by`: the goals control dependent on `g`.
    pub fn released_by(&self, g: GoalIdx) -> &'a [GoalIdx] {
        self.problem.released_by(g)
    }

    pub fn is_covered(&self, g: GoalIdx) -> bool {
        self.archive.is_covered(g)
    }

    pub fn archive(&self) -> &'a Archive {
        self.archive
    }
}

/// A goal that became a target and the covered goal that released it (`None`: from the start, or
/// a goal added while searching). The search reports each as `Event::Released`, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    pub goal: GoalIdx,
    pub by: Option<GoalIdx>,
}

/// Decides which goals guide the search. The search calls `start` once before anything is
/// evaluated, `grown` whenever the problem's goal count grew (context goals, goals a hook had the
/// problem register; before the archive learns of the batch that showed them), and `covered` for
/// each goal covered for the first time, in the order of the batch and after the archive has
/// recorded the whole test that covered it. A policy pushes the goals it makes targets and that it
/// wants reported onto `released`; it may also drop targets (nothing is reported then).
pub trait TargetPolicy {
    /// The current targets, over every goal known.
    fn targets(&self) -> &Targets;
    /// The initial targets, for the goals `goals` knows (none covered).
    fn start(&mut self, goals: Goals<'_>, released: &mut Vec<Release>) -> Result<(), SearchError>;
    /// Goals `new` were added (uncovered); `targets()` must then span `goals.n_goals()`.
    fn grown(
        &mut self,
        new: Range<usize>,
        goals: Goals<'_>,
        released: &mut Vec<Release>,
    ) -> Result<(), SearchError>;
    /// Goal `g` was covered for the first time.
    fn covered(
        &mut self,
        g: GoalIdx,
        goals: Goals<'_>,
        released: &mut Vec<Release>,
    ) -> Result<(), SearchError>;
    /// Per goal, the weight of its term in whole suite's fitness (a goal beyond the slice weighs
    /// 1); `None`, the default: every goal weighs 1. Smart selection's weights (`guiding`).
    fn weights(&self) -> Option<&[f64]> {
        None
    }
}

/// The policy `config` asks for: DynaMOSA's release along control dependences for
/// `Algorithm::DynaMosa`, every goal otherwise.
pub fn target_policy(config: &SearchConfig) -> Box<dyn TargetPolicy> {
    match config.algorithm {
        crate::Algorithm::DynaMosa => Box::new(ControlDependence::default()),
        _ => Box::new(AllGoals::default()),
    }
}

/// Every goal is a target, from the start or as soon as it is added; nothing is reported.
#[derive(Debug, Clone, Default)]
pub struct AllGoals {
    targets: Targets,
}

impl AllGoals {
    fn all(&mut self, new: Range<usize>) -> Result<(), SearchError> {
        self.targets.grow(new.end);
        for g in new {
            self.targets.add(GoalIdx::new(g))?;
        }
        Ok(())
    }
}

impl TargetPolicy for AllGoals {
    fn targets(&self) -> &Targets {
        &self.targets
    }

    fn start(&mut self, goals: Goals<'_>, _: &mut Vec<Release>) -> Result<(), SearchError> {
        self.all(0..goals.n_goals())
    }

    fn grown(&mut self, new: Range<usize>, _: Goals<'_>, _: &mut Vec<Release>) -> Result<(), SearchError> {
        self.all(new)
    }

    fn covered(&mut self, _: GoalIdx, _: Goals<'_>, _: &mut Vec<Release>) -> Result<(), SearchError> {
        Ok(())
    }
}

/// DynaMOSA's targets: the roots, then the goals released by covered goals (and, through a goal
/// released after it was covered, its own dependents at once); goals added while searching are
/// released with `by: None`. Every release is reported.
#[derive(Debug, Clone, Default)]
pub struct ControlDependence {
    targets: Targets,
}

impl ControlDependence {
    /// Makes `g` a target, and, if it is already covered, its dependents too (worklist; STYLE.md
    /// rule 7).
    fn release(
        &mut self,
        g: GoalIdx,
        by: Option<GoalIdx>,
        goals: Goals<'_>,
        released: &mut Vec<Release>,
    ) -> Result<(), SearchError> {
        let mut work = vec![(g, by)];
        while let Some((g, by)) = work.pop() {
            if !self.targets.add(g)? {
                continue;
            }
            released.push(Release { goal: g, by });
            if goals.is_covered(g) {
                for c in goals.released_by(g).iter().rev() {
                    work.push((*c, Some(g)));
                }
            }
        }
        Ok(())
    }
}

impl TargetPolicy for ControlDependence {
    fn targets(&self) -> &Targets {
        &self.targets
    }

    fn start(&mut self, goals: Goals<'_>, released: &mut Vec<Release>) -> Result<(), SearchError> {
        let n = goals.n_goals();
        self.targets.grow(n);
        // Validate the whole control dependence up front: a bad index is an error, not a panic.
        for g in (0..n).map(GoalIdx::new) {
            for c in goals.released_by(g) {
                if c.index() >= n {
                    return Err(SearchError::BadGoal { goal: *c, n_goals: n });
                }
            }
        }
        for r in goals.roots() {
            self.release(r, None, goals, released)?;
        }
        Ok(())
    }

    fn grown(
        &mut self,
        new: Range<usize>,
        goals: Goals<'_>,
        released: &mut Vec<Release>,
    ) -> Result<(), SearchError> {
        self.targets.grow(new.end);
        for g in new {
            self.release(GoalIdx::new(g), None, goals, released)?;
        }
        Ok(())
    }

    fn covered(
        &mut self,
        g: GoalIdx,
        goals: Goals<'_>,
        released: &mut Vec<Release>,
    ) -> Result<(), SearchError> {
        for &c in goals.released_by(g) {
            self.release(c, Some(g), goals, released)?;
        }
        Ok(())
    }
}
