//! Fitness of every goal for one execution trace (0 = covered, lower is better), as MOSA/DynaMOSA
//! use it: approach level + normalised branch distance (McMinn 2004; EvoSuite
//! `BranchCoverageTestFitness`; digest 002 §1.2, "per-test fitness used by MOSA/DynaMOSA").
//!
//! For a branch goal whose predicate was evaluated, the fitness is `ν(d)` with `d` the trace's min
//! distance to that side. Otherwise the goal's site was not reached and its fitness is the *reach
//! cost* `R` of the site: `min(1 + F(c))` over the branch goals `c` it is directly control dependent
//! on, and, for a site that runs whenever its method does, 1 when the method was entered (the
//! site is at approach level 0 but was cut off, by an exception) or 2 when it was not (one more
//! level: the call). Unrolled, `R` = approach level + ν(distance of the closest reached control
//! dependency) + 1 per unsatisfied level, computed as a shortest path over the control-dependence
//! graph (Dijkstra; loops make that graph cyclic).
//!
//! Other goals, per site, minimum over sites:
//! - line, exception, method normal exit: 0 if the probe was hit, else `R` (EvoSuite's line fitness
//!   is `1 + ` the branch fitness of its controlling branch: digest Eq. 12);
//! - method entry: 0 if entered, else 1;
//! - switch case: `ν(min |key - case|)` over the keys seen; default: 0 if some key is no case,
//!   else `ν(1)`; not reached: `R`;
//! - output: hit with the category seen: 0; hit without it: 1; not hit: `R + 1`. The protocol's
//!   categories cannot tell a `char`'s class, so `Alphabetic`/`Digit`/`OtherChar` stay uncovered
//!   at 1 when the return is hit (a runtime limitation, FIXME in `output_bits`);
//! - weak mutation: hit: `ν(infection distance)`; not hit: `R + 1` (EvoSuite: execution distance
//!   plus infection distance, the latter 1 when the mutant is not reached). RC mutants are
//!   infected when their probe is hit (their probe only tells that the constant ran, see
//!   `goals::plan`).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use goals::{Detail, Goal, GoalId, Mutant, OutputValue, ProbeId, SwitchCase};
use protocol::Trace;

use crate::infection::{cond_infection, operator_infection, unary_infection};
use crate::model::{GoalModel, Site};
use crate::norm;

/// The fitness a goal gets when no chain of control dependences leads to it (dead code): finite,
/// so sums stay meaningful, and worse than any reachable goal in practice.
pub const UNREACHABLE: f64 = 1.0e6;

/// The fitness of every goal of a model for one trace, indexed by goal id.
#[derive(Debug, Clone, PartialEq)]
pub struct GoalFitness {
    values: Vec<f64>,
}

impl GoalFitness {
    pub fn of(&self, g: GoalId) -> f64 {
        self.values[g.index()]
    }

    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Replaces a goal's value (a `space::Refiner`'s job).
    pub(crate) fn set(&mut self, g: GoalId, v: f64) {
        self.values[g.index()] = v;
    }

    pub fn is_covered(&self, g: GoalId) -> bool {
        self.values[g.index()] == 0.0
    }

    /// The covered goals, in id order.
    pub fn covered(&self) -> impl Iterator<Item = GoalId> + '_ {
        self.values.iter().enumerate().filter(|(_, v)| **v == 0.0).map(|(i, _)| GoalId(i as u32))
    }
}

/// Whether any probe of a method was hit (the method was entered).
pub(crate) fn entered(trace: &Trace, site: &Site) -> bool {
    if let Some(e) = site.method_entry {
        return trace.is_hit(e);
    }
    let r = &site.method_probes;
    let i = trace.hits.partition_point(|h| h.0.0 < r.start);
    trace.hits.get(i).is_some_and(|h| h.0.0 < r.end)
}

/// Min-heap entry for Dijkstra over `f64` costs.
#[derive(PartialEq)]
struct Entry(f64, u32);
impl Eq for Entry {}
impl Ord for Entry {
    fn cmp(&self, o: &Entry) -> Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Entry) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The probes a trace hit, as a bit set over the plan's probe ids: goal fitness asks "was probe p
/// hit" several times per goal, and for a class with tens of thousands of goals a binary search in
/// `Trace::hits` each time was most of the engine's own time per test.
struct Hits(Vec<u64>);

impl Hits {
    fn new(trace: &Trace, n_probes: usize) -> Hits {
        let mut bits = vec![0u64; n_probes.div_ceil(64)];
        for (p, count) in &trace.hits {
            let i = p.0 as usize;
            if *count > 0 && i < n_probes {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        Hits(bits)
    }

    fn has(&self, p: ProbeId) -> bool {
        let i = p.0 as usize;
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

/// The fitness of every goal of `model` for one trace.
///
/// Incremental over the model's baseline (`GoalModel::baseline`, the fitness for an empty trace):
/// a goal's value depends only on the trace data of the methods its sites are in (control
/// dependences, hence approach levels, stay inside a method: `analysis` computes them per method
/// body), so only the goals with a site in a method the trace touched (a probe hit, a branch or
/// switch evaluated) are recomputed; every other goal keeps its baseline value. A test touches a
/// few methods of a class with thousands of goals, so this is what makes scoring cheap (the
/// engine's overhead). Equal, value for value, to [`goal_fitness_reference`] (property test
/// `tests/incremental.rs` on real traces).
pub fn goal_fitness(model: &GoalModel, trace: &Trace) -> GoalFitness {
    let n = model.n_goals();
    let base = &model.baseline;
    if base.values.len() != n {
        // A model built without its baseline (not through `GoalModel::build`): the full way.
        return goal_fitness_reference(model, trace);
    }
    let touched = model.touched_methods(trace);
    let hits = Hits::new(trace, model.plan().n_probes());
    let mut f = base.branch_costs.clone();
    let mut branch_goals: Vec<u32> =
        touched.iter().flat_map(|&m| model.method_branch_goals[m as usize].iter().copied()).collect();
    branch_goals.sort_unstable();
    branch_goals.dedup();
    for &g in &branch_goals {
        f[g as usize] = f64::INFINITY;
    }
    let mut fixed = vec![false; n];
    branch_costs(model, trace, &hits, &branch_goals, &mut f, &mut fixed);
    let mut goals: Vec<u32> =
        touched.iter().flat_map(|&m| model.method_goals[m as usize].iter().copied()).collect();
    goals.sort_unstable();
    goals.dedup();
    let mut values = base.values.clone();
    for g in goals {
        values[g as usize] = goal_value(model, trace, &hits, &f, g as usize);
    }
    GoalFitness { values }
}

/// The fitness of every goal of `model` for one trace, computed goal by goal over the whole model:
/// the specification [`goal_fitness`] is tested against, and how the model's baseline is made.
pub fn goal_fitness_reference(model: &GoalModel, trace: &Trace) -> GoalFitness {
    let (values, _) = full_fitness(model, trace);
    GoalFitness { values }
}

/// Every goal's value and the reach costs of the branch-like goals (`f` of the module comment).
pub(crate) fn full_fitness(model: &GoalModel, trace: &Trace) -> (Vec<f64>, Vec<f64>) {
    let n = model.n_goals();
    let hits = Hits::new(trace, model.plan().n_probes());
    let mut f = vec![f64::INFINITY; n];
    let mut fixed = vec![false; n];
    let all: Vec<u32> = model
        .goals
        .iter()
        .enumerate()
        .filter(|(_, info)| matches!(info.goal, Goal::Branch { .. } | Goal::SwitchCase { .. }))
        .map(|(gi, _)| gi as u32)
        .collect();
    branch_costs(model, trace, &hits, &all, &mut f, &mut fixed);
    let values = (0..n).map(|gi| goal_value(model, trace, &hits, &f, gi)).collect();
    (values, f)
}

/// Steps 1 and 2 of the module comment over the branch-like goals `goals` (ascending), whose
/// entries of `f` are infinite on entry: the final `f` (approach level + ν(distance)) of each. The
/// result is the least fixed point of `f(h) = min(local(h), 1 + f(dep))`, whatever the order the
/// goals are visited in, so a subset closed under `released_by` (the goals of some methods) gets
/// the values the whole model would.
fn branch_costs(
    model: &GoalModel,
    trace: &Trace,
    hits: &Hits,
    goals: &[u32],
    f: &mut [f64],
    fixed: &mut [bool],
) {
    let plan = model.plan();
    // 1. Branch-like goals whose predicate was evaluated: their fitness is local and final.
    for &g in goals {
        let gi = g as usize;
        match &model.goals[gi].goal {
            Goal::Branch { probe, taken } => {
                if let Some(b) = trace.branch(*probe) {
                    f[gi] = norm(if *taken { b.to_true } else { b.to_false });
                    fixed[gi] = true;
                }
            }
            Goal::SwitchCase { probe, case } => {
                let keys = trace.switch_keys(*probe);
                if !keys.is_empty() {
                    let (cases, targets) = match &plan.probe(*probe).detail {
                        Detail::Switch { keys, target_key } => (keys.as_slice(), target_key.as_slice()),
                        _ => (&[][..], &[][..]),
                    };
                    f[gi] = norm(switch_distance(keys, cases, targets, *case));
                    fixed[gi] = true;
                }
            }
            _ => {}
        }
    }
    // 2. Unevaluated branch-like goals: reach cost, shortest path from the evaluated ones and
    //    from method entries.
    let mut heap = BinaryHeap::new();
    for &g in goals {
        let gi = g as usize;
        if fixed[gi] {
            heap.push(Entry(f[gi], g));
        } else {
            let base =
                model.sites_of(gi).iter().map(|s| entry_cost(hits, trace, s)).fold(f64::INFINITY, f64::min);
            if base.is_finite() {
                f[gi] = base;
                heap.push(Entry(base, g));
            }
        }
    }
    while let Some(Entry(c, gi)) = heap.pop() {
        if c > f[gi as usize] {
            continue;
        }
        for &h in model.released_by(GoalId(gi)) {
            let hi = h.index();
            if fixed[hi] || !matches!(model.goals[hi].goal, Goal::Branch { .. } | Goal::SwitchCase { .. }) {
                continue;
            }
            if 1.0 + c < f[hi] {
                f[hi] = 1.0 + c;
                heap.push(Entry(f[hi], h.0));
            }
        }
    }
}

/// Step 3 of the module comment: goal `gi` from its sites, given the final `f`.
fn goal_value(model: &GoalModel, trace: &Trace, hits: &Hits, f: &[f64], gi: usize) -> f64 {
    let reach = |s: &Site| -> f64 {
        let mut r = entry_cost(hits, trace, s);
        for d in &s.deps {
            r = r.min(1.0 + f[d.index()]);
        }
        r
    };
    let v = match &model.goals[gi].goal {
        Goal::Branch { .. } | Goal::SwitchCase { .. } => f[gi],
        Goal::MethodEntry { .. } => {
            if model.sites_of(gi).iter().any(|s| hits.has(s.probe)) {
                0.0
            } else {
                1.0
            }
        }
        Goal::Line { .. } | Goal::Exception { .. } | Goal::MethodNormalExit { .. } => model
            .sites_of(gi)
            .iter()
            .map(|s| if hits.has(s.probe) { 0.0 } else { reach(s) })
            .fold(f64::INFINITY, f64::min),
        Goal::Output { value, .. } => model
            .sites_of(gi)
            .iter()
            .map(|s| {
                if hits.has(s.probe) {
                    let seen = trace.return_categories(s.probe);
                    if output_bits(*value) & seen != 0 { 0.0 } else { 1.0 }
                } else {
                    reach(s) + 1.0
                }
            })
            .fold(f64::INFINITY, f64::min),
        Goal::WeakMutation { probe, mutant } => model
            .sites_of(gi)
            .iter()
            .map(|s| {
                if hits.has(s.probe) {
                    norm(mutant_infection(model, trace, *probe, *mutant))
                } else {
                    reach(s) + 1.0
                }
            })
            .fold(f64::INFINITY, f64::min),
    };
    if v.is_finite() { v } else { UNREACHABLE }
}

/// The reach cost a site gets from its method entry (see the module comment).
fn entry_cost(hits: &Hits, trace: &Trace, s: &Site) -> f64 {
    let entered = match s.method_entry {
        Some(e) => hits.has(e),
        None => entered(trace, s),
    };
    if !s.entry {
        f64::INFINITY
    } else if entered {
        1.0
    } else {
        2.0
    }
}

/// Raw distance of a switch goal from the keys seen (non-empty): for the target of `Key(k)`,
/// `|seen - case|` minimised over the seen keys and the cases jumping to that target (`targets`
/// gives each case's target key; in `i64`, so no overflow); the default: 0 if some key is not a
/// case, else 1.
pub fn switch_distance(keys: &[i32], cases: &[i32], targets: &[i32], case: SwitchCase) -> f64 {
    match case {
        // The target of `k`: the closest any observed key came to any case key jumping there.
        SwitchCase::Key(k) => cases
            .iter()
            .zip(targets)
            .filter(|&(_, &t)| t == k)
            .flat_map(|(&c, _)| keys.iter().map(move |&s| (s as i64 - c as i64).unsigned_abs()))
            .min()
            .map_or(1.0, |d| d as f64),
        SwitchCase::Default => {
            if keys.iter().any(|k| !cases.contains(k)) {
                0.0
            } else {
                1.0
            }
        }
    }
}

/// The return-category bits (docs/protocol.md `returns`) that show an output value. `boolean`
/// methods return through `ireturn`, so `true` is also the positive bit and `false` the zero bit.
pub fn output_bits(value: OutputValue) -> u32 {
    match value {
        OutputValue::True => Trace::RET_TRUE | Trace::RET_POSITIVE,
        OutputValue::False => Trace::RET_FALSE | Trace::RET_ZERO,
        OutputValue::Negative => Trace::RET_NEGATIVE,
        OutputValue::Zero => Trace::RET_ZERO,
        OutputValue::Positive => Trace::RET_POSITIVE,
        OutputValue::Null => Trace::RET_NULL,
        OutputValue::NonNull => Trace::RET_NON_NULL,
        // FIXME: the runtime records a `char` return as an int's sign; these need categories of
        // their own in the protocol. Until then they are never covered.
        OutputValue::Alphabetic | OutputValue::Digit | OutputValue::OtherChar => 0,
    }
}

/// Raw infection distance of a mutant at a probe that was hit.
pub(crate) fn mutant_infection(model: &GoalModel, trace: &Trace, probe: ProbeId, mutant: Mutant) -> f64 {
    let p = model.plan().probe(probe);
    match (&p.detail, mutant) {
        // The constant ran, so the replaced one pushes a different value (EvoSuite: distance 0).
        (_, Mutant::ReplaceConstant { .. }) => 0.0,
        (_, Mutant::InsertUnary(u)) => unary_infection(p.kind, u, trace.operand_samples(probe)),
        (Detail::Operator { op }, _) => operator_infection(p.kind, *op, mutant, trace.operand_samples(probe)),
        (Detail::Branch { cond }, Mutant::ReplaceCond(r)) => match trace.branch(probe) {
            Some(b) => cond_infection(p.kind, *cond, r, b.to_true, b.to_false),
            None => 1.0,
        },
        _ => 1.0,
    }
}
