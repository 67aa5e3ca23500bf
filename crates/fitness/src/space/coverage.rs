//! Coverage accounting over the goal space: covered and total goals per criterion of a set of
//! traces, the goals left uncovered as text, and the final figures of a written suite, which count
//! lines and branches as JaCoCo does (`ProbePlan::completion_witnesses`) and add the goals only
//! class initialisation reaches (`GoalSpace::class_init_goals`).

use std::collections::{BTreeMap, BTreeSet};

use goals::{Criterion, GoalId, Witness};
use protocol::{Outcome, Trace};

use super::GoalSpace;
use super::contexts::ContextGoals;
use crate::eval::goal_fitness;

/// Covered and total goals of one criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CriterionCoverage {
    pub criterion: Criterion,
    pub covered: usize,
    pub total: usize,
}

/// One selected goal of a finished suite with the runs (indices into the traces given) that
/// complete it, as `final_coverage` counts it: what the HTML report shows per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalRuns {
    pub criterion: Criterion,
    /// The internal name of the goal's class (`a/Outer$Inner`).
    pub class: String,
    pub line: Option<u16>,
    /// The goal as `goal_text` writes it (`branch p7 taken`).
    pub text: String,
    pub runs: Vec<usize>,
}

impl GoalSpace {
    /// Coverage per criterion and the uncovered goals (as text) of a finished suite's runs (each
    /// test's trace and outcomes): the searched goals from the traces (`coverage`, `uncovered`)
    /// plus the goals only class initialisation reaches (`class_init_goals`), so totals are the
    /// whole plan's whatever the set-up trace took out of the search.
    pub fn final_coverage(
        &self,
        criteria: &[Criterion],
        runs: &[(&Trace, &[Outcome])],
    ) -> (Vec<CriterionCoverage>, Vec<String>) {
        let traces: Vec<&Trace> = runs.iter().map(|(t, _)| *t).collect();
        let (covered, contexts, never_completed) = self.completed(&traces);
        let mut coverage = self.tally(&covered, contexts.as_ref());
        let (init, init_uncovered) = self.class_init_goals(criteria, runs);
        for (criterion, covered, total) in init {
            match coverage.iter_mut().find(|c| c.criterion == criterion) {
                Some(c) => {
                    c.covered += covered;
                    c.total += total;
                }
                None => coverage.push(CriterionCoverage { criterion, covered, total }),
            }
        }
        coverage.sort_by_key(|c| c.criterion);
        let mut uncovered = self.uncovered_text(&covered, contexts.as_ref(), &never_completed);
        uncovered.extend(init_uncovered);
        (coverage, uncovered)
    }

    /// The selected goals of `criteria` (context goals aside) with the runs that complete each one;
    /// a goal is covered by the suite exactly when some single run completes it, so the union
    /// of the runs agrees with `final_coverage`'s searched goals.
    pub fn goal_runs(&self, criteria: &[Criterion], traces: &[&Trace]) -> Vec<GoalRuns> {
        let per_run: Vec<Vec<bool>> = traces.iter().map(|t| self.completed(&[*t]).0).collect();
        let plan = self.model.plan();
        let mut out = Vec::new();
        for (i, &g) in self.selected.iter().enumerate() {
            let goal = self.model.goal(g);
            if !criteria.contains(&goal.criterion()) {
                continue;
            }
            let (class, line) = plan.goal_location(g);
            let runs = per_run.iter().enumerate().filter(|(_, c)| c[i]).map(|(r, _)| r).collect();
            let text = crate::goal_text(goal);
            out.push(GoalRuns { criterion: goal.criterion(), class, line, text, runs });
        }
        out
    }

    /// The goals the traces cover as JaCoCo counts lines and branches (`ProbePlan::
    /// completion_witnesses`): a line when an instruction of it ran to its end, a branch when
    /// JaCoCo's probe on that edge ran or the instruction it leads to completed; the search's goals
    /// only ask that the line starts or the jump goes that way. Returns `covered` (as `covered`
    /// gives it, so recounted), the context goals, and the goals reached whose every run threw on
    /// the way (reported apart).
    fn completed(&self, traces: &[&Trace]) -> (Vec<bool>, Option<ContextGoals>, BTreeSet<usize>) {
        let plan = self.model.plan();
        // The goals some witness asks about (`Witness::Covered`), scored with the others.
        let mut asked: Vec<GoalId> = self
            .selected
            .iter()
            .flat_map(|&g| plan.completion_witnesses(g))
            .filter_map(|w| match w {
                Witness::Covered(g) => Some(*g),
                Witness::Hit(_) => None,
            })
            .collect();
        asked.sort_unstable();
        asked.dedup();
        let (mut covered, contexts, asked_covered) = self.covered_and(traces, &asked);
        let hit: BTreeSet<u32> = traces.iter().flat_map(|t| t.hits.iter().map(|(p, _)| p.0)).collect();
        let witnessed = |w: &Witness| match *w {
            Witness::Hit(p) => hit.contains(&p.0),
            Witness::Covered(g) => asked.binary_search(&g).is_ok_and(|i| asked_covered[i]),
        };
        let mut never_completed = BTreeSet::new();
        for (i, &g) in self.selected.iter().enumerate() {
            let witnesses = plan.completion_witnesses(g);
            if witnesses.is_empty() {
                continue;
            }
            let completed = witnesses.iter().any(witnessed);
            if covered[i] && !completed {
                never_completed.insert(i);
            }
            covered[i] = completed;
        }
        (covered, contexts, never_completed)
    }

    /// The goals the traces cover (`GoalIdx` order), over the goals known now plus the context
    /// goals these traces reveal (appended, as the search's batches would), with those context
    /// goals.
    fn covered(&self, traces: &[&Trace]) -> (Vec<bool>, Option<ContextGoals>) {
        let (covered, contexts, _) = self.covered_and(traces, &[]);
        (covered, contexts)
    }

    /// `covered`, and whether the traces cover each goal of `also` (any goals of the model).
    fn covered_and(
        &self,
        traces: &[&Trace],
        also: &[GoalId],
    ) -> (Vec<bool>, Option<ContextGoals>, Vec<bool>) {
        let mut also_covered = vec![false; also.len()];
        let mut contexts = self.contexts.clone();
        if let Some(c) = &mut contexts {
            for t in traces {
                c.discover(&self.model, t);
            }
        }
        let mut covered = vec![false; self.selected.len() + contexts.as_ref().map_or(0, ContextGoals::len)];
        let mut row = Vec::with_capacity(covered.len());
        for t in traces {
            let all = goal_fitness(&self.model, t);
            row.clear();
            row.extend(self.selected.iter().map(|&g| all.of(g)));
            if let Some(c) = &contexts {
                c.fitness_into(&self.model, t, &all, &mut row);
            }
            for (c, f) in covered.iter_mut().zip(&row) {
                *c |= *f == 0.0;
            }
            for (c, &g) in also_covered.iter_mut().zip(also) {
                *c |= all.of(g) == 0.0;
            }
        }
        (covered, contexts, also_covered)
    }

    /// Covered/total goals per criterion over the given traces, in criterion order (only criteria
    /// with goals). Context branch counts the context goals found so far plus those the traces
    /// reveal: its total grows with what the tests reach, as EvoSuite's exception goals do.
    pub fn coverage(&self, traces: &[&Trace]) -> Vec<CriterionCoverage> {
        let (covered, contexts) = self.covered(traces);
        self.tally(&covered, contexts.as_ref())
    }

    /// Covered/total per criterion of a vector made by `covered`.
    fn tally(&self, covered: &[bool], contexts: Option<&ContextGoals>) -> Vec<CriterionCoverage> {
        let mut per: BTreeMap<Criterion, (usize, usize)> = BTreeMap::new();
        for (i, &g) in self.selected.iter().enumerate() {
            let e = per.entry(self.model.goal(g).criterion()).or_default();
            e.1 += 1;
            e.0 += usize::from(covered[i]);
        }
        if contexts.is_some_and(|c| !c.is_empty()) {
            let ctx = &covered[self.selected.len()..];
            per.insert(Criterion::ContextBranch, (ctx.iter().filter(|c| **c).count(), ctx.len()));
        }
        per.into_iter()
            .map(|(criterion, (covered, total))| CriterionCoverage { criterion, covered, total })
            .collect()
    }

    /// The goals no trace covers, as text (`text`), in goal order (context goals the traces reveal
    /// included, as in `coverage`).
    pub fn uncovered(&self, traces: &[&Trace]) -> Vec<String> {
        let (covered, contexts) = self.covered(traces);
        self.uncovered_text(&covered, contexts.as_ref(), &BTreeSet::new())
    }

    /// The text of every goal `covered` leaves out; those in `never_completed` (reached, but never
    /// completed as `completion_witnesses` asks) say so.
    fn uncovered_text(
        &self,
        covered: &[bool],
        contexts: Option<&ContextGoals>,
        never_completed: &BTreeSet<usize>,
    ) -> Vec<String> {
        let n = self.selected.len();
        covered
            .iter()
            .enumerate()
            .filter(|(_, c)| !**c)
            .map(|(i, _)| match i.checked_sub(n).and_then(|j| contexts?.goals.get(j)) {
                Some(&cg) => self.context_text(cg),
                None if never_completed.contains(&i) => {
                    format!(
                        "{} reached, never completed (each run threw on the way)",
                        self.static_text(self.selected[i])
                    )
                }
                None => self.static_text(self.selected[i]),
            })
            .collect()
    }
}
