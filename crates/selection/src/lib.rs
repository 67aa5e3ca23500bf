//! Smart goal selection (paper 002, Zhou et al., "Coverage Goal Selector for Combining Multiple
//! Criteria in Search-Based Unit Test Generation"; digest `002-smart-selection.md` §3): of the
//! goals of the combined criteria, which ones guide the search and which are deferred, i.e. not
//! optimised but still scored on every archived test and reported on the final suite.
//!
//! Three steps, each data or an explicit option (`Options`): the criteria are grouped by a
//! "represents" table (`Represents`) and each group's representative keeps all its goals; the
//! represented criteria keep only subsets found by goal subsumption: the last line of long basic
//! blocks (`lines`), the subsuming mutants of the key, non-equal-to-line operators (`mutants`,
//! `table`), nothing for branch and method. Static, once per run, before the search (§3.7).
//!
//! Pure: it reads the probe plan and the basic blocks of the planned classes and returns two
//! lists of goal ids. It does not run, score or wire anything: the search's target policy decides
//! how the split is used. Docs: docs/selection.md.

mod booleans;
mod lines;
mod mutants;
mod represents;
pub mod table;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use goals::{Criterion, Goal, GoalId, InsnIdx, MethodIdx, PlanClassIdx, ProbePlan};

pub use lines::{BlockLines, ClassBlocks, LineRule};
pub use mutants::{Operator, is_subsuming, operator_of};
pub use represents::Represents;

/// What can go wrong: only reading a user's table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    #[error("bad represents table `{text}`: {reason}")]
    Represents { text: String, reason: String },
}

/// The selection's options: every choice the paper or its artifact makes (digest §3.9), explicit.
/// `Default` is the paper's smart selection.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The grouping of criteria; the paper's by default.
    pub represents: Represents,
    /// Blocks shorter than this contribute no line goal (`lineThreshold`, 8).
    pub line_threshold: u16,
    /// How a block's length is measured (the paper's count by default; the artifact's span).
    pub line_rule: LineRule,
    /// Whether the represented criteria keep their line and mutant subsets; `false` is the
    /// paper's SSWS ablation (representatives only).
    pub subsets: bool,
    /// The key mutation operators (first filter).
    pub key_operators: Vec<Operator>,
    /// The equal-to-line operators dropped by the second filter.
    pub equal_to_line: Vec<Operator>,
    /// How many of a site's subsuming mutants to keep, in the table's order: `None` all of them
    /// (the paper); `Some(1)` the artifact's default `smart_combine_random_mutant_minimal_set_size`.
    pub mutants_per_site: Option<usize>,
    /// Criteria whose goals always guide whatever the table says: DynaMOSA's wiring adds branch,
    /// which its control-dependence graph needs (§3.5). Empty by default.
    pub always_guide: Vec<Criterion>,
    /// Whole suite's relative weight of a represented criterion's subset (§3.8, the artifact's
    /// `smart_combine_goal_weight`): each guiding goal of such a criterion weighs
    /// `subset_weight × its criterion's goals / its guiding goals`; `None`: every goal weighs 1.
    pub subset_weight: Option<f64>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            represents: Represents::default(),
            line_threshold: 8,
            line_rule: LineRule::Count,
            subsets: true,
            key_operators: Operator::KEY.to_vec(),
            equal_to_line: Operator::EQUAL_TO_LINE.to_vec(),
            mutants_per_site: None,
            always_guide: Vec::new(),
            subset_weight: Some(0.1),
        }
    }
}

/// The outcome: the configured criteria split into representatives and represented ones, and
/// every static goal of a configured criterion either guiding or deferred, in goal id order.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    pub criteria: Vec<Criterion>,
    pub representatives: Vec<Criterion>,
    pub represented: Vec<Criterion>,
    always_guide: Vec<Criterion>,
    subset_weight: Option<f64>,
    guiding: Vec<GoalId>,
    deferred: Vec<GoalId>,
}

impl Selection {
    pub fn guiding(&self) -> &[GoalId] {
        &self.guiding
    }

    pub fn deferred(&self) -> &[GoalId] {
        &self.deferred
    }

    pub fn is_guiding(&self, g: GoalId) -> bool {
        self.guiding.binary_search(&g).is_ok()
    }

    /// Whether every goal of `c` guides: a representative, or forced by `Options::always_guide`.
    /// This is the answer for goals found at run time (context branches, thrown exceptions),
    /// which the plan does not list.
    pub fn guides_all(&self, c: Criterion) -> bool {
        self.criteria.contains(&c) && (self.representatives.contains(&c) || self.always_guide.contains(&c))
    }

    /// Guiding and deferred static goals per configured criterion, in `criteria` order.
    pub fn counts(&self, plan: &ProbePlan) -> Vec<(Criterion, usize, usize)> {
        let mut n: BTreeMap<Criterion, (usize, usize)> = BTreeMap::new();
        for &g in &self.guiding {
            n.entry(plan.goal(g).criterion()).or_default().0 += 1;
        }
        for &g in &self.deferred {
            n.entry(plan.goal(g).criterion()).or_default().1 += 1;
        }
        self.criteria
            .iter()
            .map(|&c| (c, n.get(&c).map_or(0, |v| v.0), n.get(&c).map_or(0, |v| v.1)))
            .collect()
    }

    /// Whole suite's weight of each guiding goal of `c` (§3.8): `subset_weight × (guiding +
    /// deferred) / guiding` for a criterion that guides through a subset (a represented one not
    /// forced by `always_guide`), 1 for the others; 1 without `subset_weight`. A subset that is
    /// empty weighs nothing (its criterion does not guide: the artifact's 0 × ∞ is avoided, §3.9
    /// item 4). `counts` is [`Selection::counts`].
    pub fn weight(&self, c: Criterion, counts: &[(Criterion, usize, usize)]) -> f64 {
        let Some(factor) = self.subset_weight else { return 1.0 };
        if self.guides_all(c) || !self.criteria.contains(&c) {
            return 1.0;
        }
        match counts.iter().find(|x| x.0 == c) {
            Some(&(_, g, d)) if g > 0 => factor * (g + d) as f64 / g as f64,
            _ => 1.0,
        }
    }

    /// A text form for snapshots and `analyze`: the split of the criteria, the counts per
    /// criterion, then every guiding and every deferred goal with its source line.
    pub fn dump(&self, plan: &ProbePlan) -> String {
        let names = |cs: &[Criterion]| cs.iter().map(|c| c.name()).collect::<Vec<_>>().join(" ");
        let mut out = String::new();
        let _ = writeln!(out, "representatives: {}", names(&self.representatives));
        let _ = writeln!(out, "represented: {}", names(&self.represented));
        let _ = writeln!(out, "{:<18} {:>8} {:>8}", "criterion", "guiding", "deferred");
        for (c, g, d) in self.counts(plan) {
            let _ = writeln!(out, "{:<18} {g:>8} {d:>8}", c.name());
        }
        for (title, list) in [("guiding", &self.guiding), ("deferred", &self.deferred)] {
            let _ = writeln!(out, "{title}:");
            for &g in list.iter() {
                let line = plan.goal_location(g).1.map_or(String::new(), |l| format!(" @L{l}"));
                let _ = writeln!(out, "  {g} {}{line}", goals::goal_text(plan.goal(g)));
            }
        }
        out
    }
}

/// Splits the static goals of `criteria` in `plan` into guiding and deferred goals (§3.6). `blocks`
/// holds the basic blocks of the planned classes whose lines may be selected.
pub fn select(plan: &ProbePlan, blocks: &[ClassBlocks], criteria: &[Criterion], opts: &Options) -> Selection {
    let (representatives, represented) = opts.represents.split(criteria);
    let lines = if opts.subsets { line_subset(plan, blocks, opts) } else { BTreeSet::new() };
    let booleans: BTreeSet<(PlanClassIdx, MethodIdx, InsnIdx)> =
        blocks.iter().flat_map(|cb| cb.boolean_jumps.iter().map(move |&(m, i)| (cb.class, m, i))).collect();
    let mut guiding = Vec::new();
    let mut deferred = Vec::new();
    for (i, goal) in plan.goals().iter().enumerate() {
        let g = GoalId(i as u32);
        let c = goal.criterion();
        if !criteria.contains(&c) {
            continue;
        }
        let guides = representatives.contains(&c)
            || opts.always_guide.contains(&c)
            || (opts.subsets && in_subset(plan, g, goal, &lines, &booleans, opts));
        if guides { guiding.push(g) } else { deferred.push(g) }
    }
    Selection {
        criteria: criteria.to_vec(),
        representatives,
        represented,
        always_guide: opts.always_guide.clone(),
        subset_weight: opts.subset_weight,
        guiding,
        deferred,
    }
}

/// Whether a goal of a represented criterion is in its criterion's subset: the kept lines, the
/// mutants that pass the three filters; branch, method and any other represented criterion have
/// empty subsets (their goals are subsumed by the representative's, §3.4).
fn in_subset(
    plan: &ProbePlan,
    g: GoalId,
    goal: &Goal,
    lines: &BTreeSet<GoalId>,
    booleans: &BTreeSet<(PlanClassIdx, MethodIdx, InsnIdx)>,
    opts: &Options,
) -> bool {
    match *goal {
        Goal::Line { .. } => lines.contains(&g),
        Goal::WeakMutation { probe, mutant } => {
            let op = operator_of(plan, probe, mutant);
            let p = plan.probe(probe);
            let boolean = p.method.is_some_and(|m| booleans.contains(&(p.class, m, p.insn)));
            opts.key_operators.contains(&op)
                && !opts.equal_to_line.contains(&op)
                && is_subsuming(plan, goal, boolean, opts.mutants_per_site)
        }
        _ => false,
    }
}

/// The line goals kept: the last line of every long block.
fn line_subset(plan: &ProbePlan, blocks: &[ClassBlocks], opts: &Options) -> BTreeSet<GoalId> {
    let by_line: BTreeMap<(PlanClassIdx, u16), GoalId> = plan
        .goals()
        .iter()
        .enumerate()
        .filter_map(|(i, g)| match *g {
            Goal::Line { class, line } => Some(((class, line), GoalId(i as u32))),
            _ => None,
        })
        .collect();
    blocks
        .iter()
        .flat_map(|cb| cb.blocks.iter().map(move |b| (cb.class, b)))
        .filter(|(_, b)| b.is_long(opts.line_rule, opts.line_threshold))
        .filter_map(|(class, b)| by_line.get(&(class, b.last?)).copied())
        .collect()
}
