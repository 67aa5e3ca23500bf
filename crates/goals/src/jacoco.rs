//! JaCoCo's view of a method's control flow, so that reported line and branch coverage can be
//! counted as JaCoCo counts them (`ProbePlan::completion_witnesses`).
//!
//! JaCoCo (0.8, "Control flow analysis for Java methods"; its `LabelFlowAnalyzer`,
//! `MethodProbesAdapter` and `InstructionsBuilder`) puts a probe before every return and `athrow`,
//! on every jump, switch edge and `goto` whose target is a multi-target instruction (reached by two
//! or more ways: jumps, distinct switches, try-block starts, handlers, the method entry, falling
//! through), and on the fall-through edge into an instruction that is reached by falling through and
//! is either multi-target or starts a line-table entry holding a call. An instruction is covered when
//! a probe that ran is at it or after it along the links no probe cuts: falling through into an
//! instruction without such an edge probe, and a jump or switch edge without a probe (its target has
//! that one way in). A line is covered when one of its instructions is; a branch of a jump when the
//! jump's edge probe ran, or, without one, when the instruction it leads to is covered.
//!
//! Here each JaCoCo probe becomes a condition on our traces ([`Witness`]): a probe of ours that runs
//! exactly when JaCoCo's would, or a branch goal of ours covered (a jump taken, a switch gone to a
//! target).

use std::collections::{BTreeMap, BTreeSet};

use bytecode::{Insn, InsnIdx, MethodBody, Opcode};

use crate::{GoalId, ProbeId, Witness};

/// The label facts of one method, per instruction index.
pub(crate) struct Flow {
    /// Ways in counted by JaCoCo's `LabelInfo.setTarget`: one per jump, per distinct switch, per
    /// try-catch entry starting here, per handler entry, and the method entry.
    marks: Vec<u32>,
    /// Reached by falling through from the instruction before.
    successor: Vec<bool>,
    /// JaCoCo puts a probe on the fall-through edge into this instruction.
    edge_probe: Vec<bool>,
}

impl Flow {
    /// `call_lines`: the first instruction of every line-table entry whose instructions include a
    /// call (`invoke*`), where JaCoCo's `markMethodInvocationLine` marks the line's label.
    pub(crate) fn new(body: &MethodBody, call_lines: &BTreeSet<InsnIdx>) -> Flow {
        let n = body.insns.len();
        let mut marks = vec![0u32; n + 1];
        if n > 0 {
            marks[0] += 1;
        }
        for insn in &body.insns {
            let distinct: BTreeSet<InsnIdx> = insn.targets().collect();
            for t in distinct {
                if let Some(m) = marks.get_mut(t.index()) {
                    *m += 1;
                }
            }
        }
        for h in &body.handlers {
            for at in [h.start, h.handler] {
                if let Some(m) = marks.get_mut(at.index()) {
                    *m += 1;
                }
            }
        }
        // Instruction 0 and the end are reached by no fall-through.
        let mut successor: Vec<bool> =
            std::iter::once(false).chain(body.insns.iter().map(Insn::falls_through)).collect();
        successor[n] = false;
        let edge_probe = (0..=n)
            .map(|i| successor[i] && (marks[i] + 1 >= 2 || call_lines.contains(&InsnIdx::new(i))))
            .collect();
        Flow { marks, successor, edge_probe }
    }

    /// Reached by two or more ways.
    pub(crate) fn multi(&self, i: usize) -> bool {
        self.marks.get(i).copied().unwrap_or(0) + u32::from(self.successor.get(i).copied().unwrap_or(false))
            >= 2
    }

    /// A fall-through edge probe into `i` that must not run when a jump arrives: a `FallThrough`
    /// probe of ours.
    pub(crate) fn needs_fall_through_probe(&self, i: usize) -> bool {
        self.edge_probe.get(i).copied().unwrap_or(false) && self.marks[i] > 0
    }

    /// Whether JaCoCo has a probe that runs whenever instruction `i` runs (before a return or
    /// `athrow`, before a `goto` to a multi-target instruction, or on the fall-through edge into
    /// an instruction nothing jumps to), which a probe of ours at `i` stands for.
    pub(crate) fn needs_probe_at(&self, i: usize, insn: &Insn) -> bool {
        let op = insn.op();
        op.is_return()
            || op == Opcode::ATHROW
            || (op.is_goto() && insn.targets().any(|t| self.multi(t.index())))
            || (self.edge_probe.get(i).copied().unwrap_or(false) && self.marks[i] == 0)
    }
}

/// The probes and jump facts of one method that the witnesses are made of.
pub(crate) struct MethodProbes {
    /// A probe running on every arrival at the instruction (not a `FallThrough` one).
    pub(crate) at: BTreeMap<usize, ProbeId>,
    /// The `FallThrough` probe at the instruction.
    pub(crate) fall_through: BTreeMap<usize, ProbeId>,
    /// The branch goals of a conditional jump: (taken, fall-through).
    pub(crate) branch: BTreeMap<usize, (GoalId, GoalId)>,
    /// The branch goal of each distinct target of a switch.
    pub(crate) switch: BTreeMap<usize, Vec<(InsnIdx, GoalId)>>,
}

/// Per instruction, the witnesses that it completed: JaCoCo covers it exactly when one holds.
pub(crate) fn instruction_witnesses(
    flow: &Flow,
    body: &MethodBody,
    probes: &MethodProbes,
) -> Vec<Vec<Witness>> {
    let n = body.insns.len();
    let hit_at = |i: usize| probes.at.get(&i).map(|&p| Witness::Hit(p));
    // The edge probe into `i`, when JaCoCo has one.
    let edge_into = |i: usize| -> Option<Witness> {
        if !flow.edge_probe.get(i).copied().unwrap_or(false) {
            return None;
        }
        if flow.marks[i] > 0 { probes.fall_through.get(&i).map(|&p| Witness::Hit(p)) } else { hit_at(i) }
    };
    // Own witnesses and linked successors (the instructions whose coverage covers this one).
    let mut own: Vec<Vec<Witness>> = vec![Vec::new(); n];
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, insn) in body.insns.iter().enumerate() {
        let op = insn.op();
        if op.is_return() || op == Opcode::ATHROW {
            own[i].extend(hit_at(i));
        }
        if let Insn::Branch { target, .. } = insn {
            let t = target.index();
            if flow.multi(t) {
                let w = if op.is_goto() {
                    hit_at(i)
                } else {
                    probes.branch.get(&i).map(|&(taken, _)| Witness::Covered(taken))
                };
                own[i].extend(w.or_else(|| hit_at(i)));
            } else if t < n {
                next[i].push(t);
            }
        }
        if insn.is_switch() {
            let cases = probes.switch.get(&i);
            let distinct: BTreeSet<InsnIdx> = insn.targets().collect();
            for t in distinct {
                if flow.multi(t.index()) {
                    let w = cases
                        .and_then(|cs| cs.iter().find(|(at, _)| *at == t))
                        .map(|&(_, g)| Witness::Covered(g));
                    own[i].extend(w.or_else(|| hit_at(i)));
                } else if t.index() < n {
                    next[i].push(t.index());
                }
            }
        }
        if insn.falls_through() && i + 1 < n {
            match edge_into(i + 1) {
                Some(w) => own[i].push(w),
                None if !flow.edge_probe[i + 1] => next[i].push(i + 1),
                None => {}
            }
        }
    }
    // Each instruction has at most one way in without a probe, so the links form a forest: a
    // post-order walk gathers every subtree once (a guard stops the cycles of unreachable code).
    let mut out: Vec<Option<Vec<Witness>>> = vec![None; n];
    let mut on_stack = vec![false; n];
    for root in 0..n {
        let mut stack = vec![(root, false)];
        while let Some((i, children_done)) = stack.pop() {
            if out[i].is_some() {
                continue;
            }
            if children_done {
                let mut w: BTreeSet<Witness> = own[i].iter().copied().collect();
                for &c in &next[i] {
                    w.extend(out[c].iter().flatten().copied());
                }
                out[i] = Some(w.into_iter().collect());
                on_stack[i] = false;
                continue;
            }
            on_stack[i] = true;
            stack.push((i, true));
            for &c in &next[i] {
                if out[c].is_none() && !on_stack[c] {
                    stack.push((c, false));
                }
            }
        }
    }
    out.into_iter().map(Option::unwrap_or_default).collect()
}

/// The witnesses of a branch: the fall-through edge into `to` (`fall`), or a jump or switch edge to
/// `to`, is covered when JaCoCo's probe on it ran (`probe_on_edge` stands for a jump's or switch's)
/// or, without one, when `to` is covered.
pub(crate) fn edge_witnesses(
    flow: &Flow,
    insns: &[Vec<Witness>],
    probes: &MethodProbes,
    fall: bool,
    to: usize,
    probe_on_edge: Option<Witness>,
) -> Vec<Witness> {
    if fall && flow.edge_probe.get(to).copied().unwrap_or(false) {
        let p = if flow.marks[to] > 0 { probes.fall_through.get(&to) } else { probes.at.get(&to) };
        return p.map(|&p| vec![Witness::Hit(p)]).unwrap_or_default();
    }
    if !fall && flow.multi(to) {
        return probe_on_edge.into_iter().collect();
    }
    insns.get(to).cloned().unwrap_or_default()
}
