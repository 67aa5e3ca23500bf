//! Smart goal selection's target policy (paper 002, Zhou et al.; digest `002-smart-selection.md`
//! §3.7–3.8): only the *guiding* goals are ever targets; the *deferred* ones are scored on every
//! test and archived like any goal (the archive takes every goal a test covers, whatever the
//! policy), but no algorithm optimises them. [`Guiding`] filters the targets of another policy:
//! - over [`AllGoals`](crate::target::AllGoals) (whole suite, MOSA, MIO, random): the guiding
//!   goals from the start (MOSA's "one objective per selected goal");
//! - over [`ControlDependence`](crate::target::ControlDependence) (DynaMOSA): the inner policy
//!   releases along the whole control-dependence graph, deferred goals included, so that covering
//!   a deferred goal still releases what depends on it; only the guiding goals it releases are
//!   enrolled (§3.7: "only goals in G_SS are ever enrolled"). The caller makes the branch goals
//!   guiding for DynaMOSA (§3.8), so the graph's inner nodes are all enrolled.
//!
//! Whole suite also reads [`TargetPolicy::weights`]: §3.8's relative weights of the line and
//! mutant subsets (w = 0.1 × all goals of the criterion / its guiding goals), which this policy
//! carries for the caller.
//!
//! Not here: which goals guide (crate `selection`, mapped to `GoalIdx` by the engine).

use std::ops::Range;

use crate::target::{Goals, Release, TargetPolicy, Targets};
use crate::{GoalIdx, SearchError};

/// The targets of `inner` that guide: `guides[i]` for `GoalIdx(i)`, `later` for the goals the
/// problem adds while searching (context goals, goals a hook registered), which have no entry.
pub struct Guiding<'a> {
    inner: Box<dyn TargetPolicy + 'a>,
    guides: Vec<bool>,
    later: bool,
    weights: Option<Vec<f64>>,
    targets: Targets,
    /// The inner policy's releases of the current call, before filtering.
    scratch: Vec<Release>,
}

impl<'a> Guiding<'a> {
    /// `inner`'s targets restricted to the guiding goals. `weights`, per goal (a goal beyond it
    /// weighs 1), is what whole suite multiplies each goal's term by; `None`: every goal weighs 1.
    pub fn new(
        inner: Box<dyn TargetPolicy + 'a>,
        guides: Vec<bool>,
        later: bool,
        weights: Option<Vec<f64>>,
    ) -> Guiding<'a> {
        Guiding { inner, guides, later, weights, targets: Targets::new(), scratch: Vec::new() }
    }

    /// Whether `g` guides the search.
    pub fn guides(&self, g: GoalIdx) -> bool {
        self.guides.get(g.index()).copied().unwrap_or(self.later)
    }

    /// Makes `g` a target when the inner policy has it as one and it guides; whether it became one.
    fn enrol(&mut self, g: GoalIdx) -> Result<bool, SearchError> {
        if self.inner.targets().is_target(g) && self.guides(g) { self.targets.add(g) } else { Ok(false) }
    }

    /// Enrols the goals of `range` (no report: the inner policy reported none for them) and
    /// passes on the reported releases of guiding goals, in order.
    fn absorb(&mut self, range: Range<usize>, released: &mut Vec<Release>) -> Result<(), SearchError> {
        self.targets.grow(self.inner.targets().n_goals());
        for g in range {
            self.enrol(GoalIdx::new(g))?;
        }
        let scratch = std::mem::take(&mut self.scratch);
        for r in &scratch {
            self.enrol(r.goal)?;
            if self.guides(r.goal) {
                released.push(*r);
            }
        }
        self.scratch = scratch;
        self.scratch.clear();
        Ok(())
    }
}

impl TargetPolicy for Guiding<'_> {
    fn targets(&self) -> &Targets {
        &self.targets
    }

    fn start(&mut self, goals: Goals<'_>, released: &mut Vec<Release>) -> Result<(), SearchError> {
        self.inner.start(goals, &mut self.scratch)?;
        self.absorb(0..goals.n_goals(), released)
    }

    fn grown(
        &mut self,
        new: Range<usize>,
        goals: Goals<'_>,
        released: &mut Vec<Release>,
    ) -> Result<(), SearchError> {
        self.inner.grown(new.clone(), goals, &mut self.scratch)?;
        self.absorb(new, released)
    }

    fn covered(
        &mut self,
        g: GoalIdx,
        goals: Goals<'_>,
        released: &mut Vec<Release>,
    ) -> Result<(), SearchError> {
        self.inner.covered(g, goals, &mut self.scratch)?;
        self.absorb(0..0, released)
    }

    fn weights(&self) -> Option<&[f64]> {
        self.weights.as_deref()
    }
}
