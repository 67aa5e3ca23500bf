//! Suite-level views: context-branch goals (CBRANCH), coverage of a set of executions per
//! criterion, and EvoSuite's whole-suite fitness (digest 002 §1.2, the "Implementation detail"
//! column, which is EvoSuite's `*SuiteFitness` classes).

use std::collections::BTreeSet;

use goals::{Criterion, Goal, GoalId, ProbeId};
use protocol::Trace;

use crate::eval::{GoalFitness, entered, goal_fitness, mutant_infection};
use crate::model::GoalModel;
use crate::norm;

/// A context-branch goal (EvoSuite `CBRANCH`, digest §1.2 "DBC"): a branch goal in the calling
/// context of the outermost call into the SUT. `site` is that call-site probe; `None` means the
/// test called the branch's method directly. Created dynamically from the contexts a trace shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContextGoal {
    pub site: Option<ProbeId>,
    /// A `Goal::Branch` of the plan.
    pub goal: GoalId,
}

/// The context goals a trace reveals: both sides of every (context, branch probe) entry, sorted.
/// Branchless methods have no context goal (the trace records no method entry per context).
pub fn context_goals(model: &GoalModel, trace: &Trace) -> Vec<ContextGoal> {
    let mut out = BTreeSet::new();
    for c in &trace.contexts {
        let probe = c.probe;
        if let Some((t, f)) = model.branch_goals_of(probe) {
            let site = c.site;
            out.insert(ContextGoal { site, goal: t });
            out.insert(ContextGoal { site, goal: f });
        }
    }
    out.into_iter().collect()
}

/// Fitness of a context goal for one trace: `ν(distance)` from the trace's entry for that context
/// and branch probe; when the branch was not evaluated in that context, `1 +` its context-free
/// fitness `plain` (EvoSuite gives the maximum there; the `1 +` keeps the gradient towards reaching
/// the branch at all while ranking any in-context evaluation better).
pub fn context_fitness(model: &GoalModel, trace: &Trace, goal: ContextGoal, plain: &GoalFitness) -> f64 {
    let Goal::Branch { probe, taken } = *model.goal(goal.goal) else { return 1.0 + plain.of(goal.goal) };
    match trace.context_branch(goal.site, probe) {
        Some(c) => norm(if taken { c.to_true } else { c.to_false }),
        None => 1.0 + plain.of(goal.goal),
    }
}

/// Goals covered per criterion, over a set of executions.
#[derive(Debug, Clone, PartialEq)]
pub struct Coverage {
    /// `covered[g]`: some trace covers goal `g`.
    pub covered: Vec<bool>,
    /// (criterion, covered, total), for every criterion with goals, in criterion order.
    pub per_criterion: Vec<(Criterion, usize, usize)>,
    /// Context-branch goals covered and seen (the total is dynamic: every context observed).
    pub context_covered: BTreeSet<ContextGoal>,
    pub context_seen: BTreeSet<ContextGoal>,
}

impl Coverage {
    pub fn is_covered(&self, g: GoalId) -> bool {
        self.covered[g.index()]
    }

    /// (covered, total) over all static goals.
    pub fn totals(&self) -> (usize, usize) {
        (self.covered.iter().filter(|c| **c).count(), self.covered.len())
    }

    /// A one-line-per-criterion text, for reports and snapshots.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        for (c, cov, tot) in &self.per_criterion {
            s.push_str(&format!("{c:?}: {cov}/{tot}\n"));
        }
        s.push_str(&format!("ContextBranch: {}/{}\n", self.context_covered.len(), self.context_seen.len()));
        s
    }
}

/// Coverage of a suite: a goal is covered when its fitness is 0 for some trace.
pub fn coverage(model: &GoalModel, traces: &[&Trace]) -> Coverage {
    let mut covered = vec![false; model.n_goals()];
    let mut context_covered = BTreeSet::new();
    let mut context_seen = BTreeSet::new();
    for t in traces {
        let f = goal_fitness(model, t);
        for g in f.covered() {
            covered[g.index()] = true;
        }
        for cg in context_goals(model, t) {
            context_seen.insert(cg);
            if context_fitness(model, t, cg, &f) == 0.0 {
                context_covered.insert(cg);
            }
        }
    }
    let mut per = std::collections::BTreeMap::new();
    for g in model.goal_ids() {
        let e = per.entry(model.goal(g).criterion()).or_insert((0, 0));
        e.1 += 1;
        if covered[g.index()] {
            e.0 += 1;
        }
    }
    let per_criterion = per.into_iter().map(|(c, (a, b))| (c, a, b)).collect();
    Coverage { covered, per_criterion, context_covered, context_seen }
}

/// EvoSuite's whole-suite fitness, per criterion (lower is better, 0 = all covered).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SuiteFitness {
    pub branch: f64,
    pub line: f64,
    pub weak_mutation: f64,
    pub output: f64,
    pub method: f64,
    pub method_no_exception: f64,
    pub exception: f64,
    /// Context branch (EvoSuite `CBranchSuiteFitness`): over the context goals the traces show,
    /// `Σ min_t ν(distance in that context)`; contexts no trace shows are unknown and count nothing.
    pub context_branch: f64,
}

impl SuiteFitness {
    /// The sum over `criteria` (digest §1.4: WS fitness = sum of the criteria's suite fitnesses).
    pub fn total(&self, criteria: &[Criterion]) -> f64 {
        criteria
            .iter()
            .map(|c| match c {
                Criterion::Branch => self.branch,
                Criterion::Line => self.line,
                Criterion::WeakMutation => self.weak_mutation,
                Criterion::Output => self.output,
                Criterion::Method => self.method,
                Criterion::MethodNoException => self.method_no_exception,
                Criterion::Exception => self.exception,
                Criterion::ContextBranch => self.context_branch,
            })
            .sum()
    }
}

/// Whole-suite fitness of a set of executions (digest 002 §1.2, EvoSuite column):
/// - branch (`BranchCoverageSuiteFitness`): per predicate, with `n` its evaluations summed over
///   the suite: `n == 0`: +2; `n == 1`: +1 (one side is taken, the other counts 1 so that a
///   single evaluation cannot oscillate, digest Eq. 7 "executed at least twice"); `n >= 2`:
///   `ν(min_t d_true) + ν(min_t d_false)`; plus +1 for every branchless method never called
///   (EvoSuite counts methods whose only goal is the root branch; methods with predicates are
///   charged through them). Switches, which EvoSuite lowers to if-chains, count per case goal
///   the same way: not evaluated 1 each; evaluated once: 1 for every case not taken; else
///   `ν(min distance)`.
/// - line: `ν(|L| - |covered L|)` (Eq. 11; the branch-guidance term of Eq. 13 is left out, as
///   EvoSuite does when BRANCH is among the criteria, digest §3.8).
/// - weak mutation: `#mutants not touched + Σ_touched ν(min infection distance)`.
/// - output, method, method-no-exception, exception: the number of uncovered goals (binary
///   per-goal fitness summed; EvoSuite uses 0 for exceptions when the archive is on, which is
///   the caller's choice: leave `Exception` out of `criteria`).
pub fn suite_fitness(model: &GoalModel, traces: &[&Trace]) -> SuiteFitness {
    let plan = model.plan();
    let mut res = SuiteFitness::default();
    // Branches.
    for &(probe, _, _) in &model.predicates {
        let n: u64 = traces.iter().map(|t| t.hit_count(probe) as u64).sum();
        res.branch += match n {
            0 => 2.0,
            1 => 1.0,
            _ => {
                let (mut dt, mut df) = (f64::INFINITY, f64::INFINITY);
                for t in traces {
                    if let Some(b) = t.branch(probe) {
                        dt = dt.min(b.to_true);
                        df = df.min(b.to_false);
                    }
                }
                norm(dt) + norm(df)
            }
        };
    }
    for (probe, cases) in &model.switches {
        let n: u64 = traces.iter().map(|t| t.hit_count(*probe) as u64).sum();
        let keys_of = |t: &Trace| t.switch_keys(*probe).to_vec();
        let (case_keys, targets) = match &plan.probe(*probe).detail {
            goals::Detail::Switch { keys, target_key } => (keys.clone(), target_key.clone()),
            _ => (Vec::new(), Vec::new()),
        };
        for &g in cases {
            let Goal::SwitchCase { case, .. } = *model.goal(g) else { continue };
            let d = traces
                .iter()
                .filter(|t| !t.switch_keys(*probe).is_empty())
                .map(|t| crate::eval::switch_distance(&keys_of(t), &case_keys, &targets, case))
                .fold(f64::INFINITY, f64::min);
            res.branch += match n {
                0 => 1.0,
                1 => {
                    if d == 0.0 {
                        0.0
                    } else {
                        1.0
                    }
                }
                _ => norm(d),
            };
        }
    }
    for m in &model.branchless {
        let site = crate::model::Site {
            probe: ProbeId(m.method_probes.start),
            deps: Vec::new(),
            entry: true,
            method_probes: m.method_probes.clone(),
            method_entry: m.method_entry,
        };
        if !traces.iter().any(|t| entered(t, &site)) {
            res.branch += 1.0;
        }
    }
    // Other criteria from per-test fitness.
    let fits: Vec<GoalFitness> = traces.iter().map(|t| goal_fitness(model, t)).collect();
    let covered = |g: GoalId| fits.iter().any(|f| f.is_covered(g));
    let (mut lines, mut lines_covered) = (0usize, 0usize);
    for g in model.goal_ids() {
        match model.goal(g) {
            Goal::Line { .. } => {
                lines += 1;
                if covered(g) {
                    lines_covered += 1;
                }
            }
            Goal::WeakMutation { probe, mutant } => {
                let touched: Vec<&&Trace> = traces.iter().filter(|t| t.is_hit(*probe)).collect();
                if touched.is_empty() {
                    res.weak_mutation += 1.0;
                } else {
                    let d = touched
                        .iter()
                        .map(|t| mutant_infection(model, t, *probe, *mutant))
                        .fold(f64::INFINITY, f64::min);
                    res.weak_mutation += norm(d);
                }
            }
            Goal::Output { .. } if !covered(g) => res.output += 1.0,
            Goal::MethodEntry { .. } if !covered(g) => res.method += 1.0,
            Goal::MethodNormalExit { .. } if !covered(g) => res.method_no_exception += 1.0,
            Goal::Exception { .. } if !covered(g) => res.exception += 1.0,
            _ => {}
        }
    }
    res.line = norm((lines - lines_covered) as f64);
    // Context branches: the best in-context fitness of each goal some trace shows (such a trace
    // gives it a value below 1, so the minimum is always an in-context one).
    let seen: BTreeSet<ContextGoal> = traces.iter().flat_map(|t| context_goals(model, t)).collect();
    let best = seen.iter().map(|&cg| {
        traces.iter().zip(&fits).map(|(t, f)| context_fitness(model, t, cg, f)).fold(f64::INFINITY, f64::min)
    });
    res.context_branch = best.sum();
    res
}
