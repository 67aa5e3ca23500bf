//! Complement mode (docs/maven.md): the goals a project's own tests already cover, as JaCoCo saw
//! them run, are settled before the search: never its targets, never kept for by minimisation,
//! and counted apart in the report, which says what the written tests add over the project's.
//! A line goal is settled when an instruction of its line ran, a branch or switch-case goal when
//! every branch JaCoCo counts on its line ran (JaCoCo does not say which side of a half-covered
//! line ran), and a method-entry goal when an instruction of its method ran. Other goals
//! (exceptions, outputs, mutants, context branches) are searched as always: JaCoCo cannot tell
//! them. It deliberately does not run anything: the caller measured the project's tests.

use std::collections::{BTreeMap, BTreeSet};

use fitness::GoalIdx;
use goals::{Criterion, Goal};

use crate::JacocoFigures;
use crate::problem::JvmProblem;

/// What a project's own tests covered of one class, as JaCoCo counts it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CoveredBefore {
    /// Lines of which an instruction ran.
    pub lines: BTreeSet<u16>,
    /// Lines with branches, every one of which ran.
    pub branch_lines: BTreeSet<u16>,
    /// Methods (name then descriptor, `count()I`) of which an instruction ran.
    pub methods: BTreeSet<String>,
    /// JaCoCo's line and branch figures of the class.
    pub jacoco: JacocoFigures,
}

/// What a project's own tests covered, per class (internal name, `a/B$C`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExistingSuite {
    pub classes: BTreeMap<String, CoveredBefore>,
}

/// What the written tests of a class add over the project's own (report.json `complement`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Complement {
    /// JaCoCo's figures of the project's own tests on the class and its nested classes.
    pub existing_jacoco: JacocoFigures,
    /// Per criterion of the run, over the search's static goals.
    pub criteria: Vec<ComplementCoverage>,
    /// Per written test, in order, the goals it covers that the project's tests do not.
    pub added_per_test: Vec<usize>,
}

/// One criterion's goals: covered by the project's tests, by the written tests, by either.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComplementCoverage {
    pub criterion: Criterion,
    pub existing: usize,
    pub written: usize,
    pub union: usize,
    pub total: usize,
}

/// The static goals of `problem` that `existing` covers.
pub(crate) fn settled_goals(problem: &JvmProblem, existing: &ExistingSuite) -> BTreeSet<GoalIdx> {
    let space = problem.space();
    let plan = space.model().plan();
    let mut out = BTreeSet::new();
    for (k, &id) in space.selected().iter().enumerate() {
        let Some(before) = existing.classes.get(plan.goal_class(id)) else { continue };
        let settled = match plan.goal(id) {
            Goal::Line { line, .. } => before.lines.contains(line),
            Goal::Branch { probe, .. } | Goal::SwitchCase { probe, .. } => {
                plan.probe(*probe).line.is_some_and(|l| before.branch_lines.contains(&l))
            }
            Goal::MethodEntry { .. } => plan
                .goal_method(id)
                .is_some_and(|m| before.methods.contains(&format!("{}{}", m.name, m.descriptor))),
            _ => false,
        };
        if settled {
            out.insert(GoalIdx::new(k));
        }
    }
    out
}

/// DynaMOSA's targets without the `settled` goals: the roots, then per goal what covering it
/// releases (`released`, indexed by goal). A settled goal counts as covered from the start, so
/// what it releases is a root; no settled goal is a root or released.
pub(crate) fn targets_without(
    roots: &[GoalIdx],
    released: &[&[GoalIdx]],
    settled: &BTreeSet<GoalIdx>,
) -> (Vec<GoalIdx>, Vec<Vec<GoalIdx>>) {
    let keep = |g: &&GoalIdx| !settled.contains(*g);
    let released: Vec<Vec<GoalIdx>> =
        released.iter().map(|r| r.iter().filter(keep).copied().collect()).collect();
    let mut out: BTreeSet<GoalIdx> = roots.iter().filter(keep).copied().collect();
    for g in settled {
        out.extend(released.get(g.index()).into_iter().flatten().copied());
    }
    (out.into_iter().collect(), released)
}

/// The report of a class whose search had `existing` settled, from the written tests' traces.
pub(crate) fn complement(
    problem: &JvmProblem,
    existing: &ExistingSuite,
    criteria: &[Criterion],
    traces: &[&protocol::Trace],
) -> Complement {
    let mut existing_jacoco = JacocoFigures::default();
    for c in problem.classes() {
        if let Some(b) = existing.classes.get(c) {
            existing_jacoco.lines.0 += b.jacoco.lines.0;
            existing_jacoco.lines.1 += b.jacoco.lines.1;
            existing_jacoco.branches.0 += b.jacoco.branches.0;
            existing_jacoco.branches.1 += b.jacoco.branches.1;
        }
    }
    let n_static = problem.space().selected().len();
    let mut written = vec![false; problem.space().n_goals()];
    let mut added_per_test = Vec::with_capacity(traces.len());
    for t in traces {
        let f = problem.fitness(t);
        let mut added = 0;
        for (i, v) in f.iter().enumerate() {
            let g = GoalIdx::new(i);
            if *v != 0.0 || problem.is_path_goal(g) {
                continue;
            }
            if let Some(w) = written.get_mut(i) {
                *w = true;
            }
            added += usize::from(!problem.is_settled(g));
        }
        added_per_test.push(added);
    }
    let criteria = criteria
        .iter()
        .map(|&criterion| {
            let mut c = ComplementCoverage { criterion, existing: 0, written: 0, union: 0, total: 0 };
            for i in (0..n_static).filter(|&i| problem.criterion(GoalIdx::new(i)) == criterion) {
                let (e, w) = (problem.is_settled(GoalIdx::new(i)), written[i]);
                c.total += 1;
                c.existing += usize::from(e);
                c.written += usize::from(w);
                c.union += usize::from(e || w);
            }
            c
        })
        .collect();
    Complement { existing_jacoco, criteria, added_per_test }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_settled_goal_releases_is_a_root_and_no_settled_goal_is_a_target() {
        let g = GoalIdx::new;
        // g0 releases g1 and g2, g1 releases g3; g4 is a root of its own.
        let lists = [vec![g(1), g(2)], vec![g(3)], vec![], vec![], vec![]];
        let released: Vec<&[GoalIdx]> = lists.iter().map(Vec::as_slice).collect();
        let settled: BTreeSet<GoalIdx> = [g(0), g(2)].into_iter().collect();
        let (roots, after) = targets_without(&[g(0), g(4)], &released, &settled);
        assert_eq!(roots, [g(1), g(4)]);
        assert_eq!(after, [vec![g(1)], vec![g(3)], vec![], vec![], vec![]]);
        let (roots, _) = targets_without(&[g(0), g(4)], &released, &BTreeSet::new());
        assert_eq!(roots, [g(0), g(4)]);
    }
}
