//! JaCoCo's probe positions (`jacoco::Flow`) and the completion witnesses of line, branch and
//! switch goals (`ProbePlan::completion_witnesses`), which give the reported figures as JaCoCo
//! counts them (docs/architecture.md).

use std::collections::{BTreeMap, BTreeSet};

use bytecode::{Insn, InsnIdx};

use super::{MethodCx, MethodState};
use crate::plan::Builder;
use crate::{Detail, GoalId, ProbeKind, Witness, jacoco};

/// JaCoCo's probe on the fall-through edge into a jump target: ours must come first at its
/// instruction, so that the instrumenter can move the jumps past it.
pub(super) fn fall_through(b: &mut Builder, cx: &MethodCx<'_>, st: &mut MethodState, i: usize) {
    if cx.witnesses && cx.flow.needs_fall_through_probe(i) {
        let at = InsnIdx::new(i);
        let p = b.push(ProbeKind::Line, Some(cx.method), at, cx.line_at(at), Detail::FallThrough);
        st.jumps.fall_through.insert(i, p);
    }
}

/// JaCoCo has a probe that runs whenever this instruction does (a return, `athrow`, `goto` into a
/// multi-target instruction, or the first of a line with a call that nothing jumps to): any probe
/// of ours here stands for it, else a hit-only `Line` probe is added.
pub(super) fn probe_at(b: &mut Builder, cx: &MethodCx<'_>, st: &mut MethodState, i: usize) {
    if cx.witnesses && cx.flow.needs_probe_at(i, &cx.body.insns[i]) {
        let at = InsnIdx::new(i);
        let p = b
            .probe_at(cx.method_start, at)
            .unwrap_or_else(|| b.push(ProbeKind::Line, Some(cx.method), at, cx.line_at(at), Detail::None));
        st.jumps.at.insert(i, p);
    }
}

/// The branch goals of a conditional jump, for the witnesses of its two edges.
pub(super) fn branch_edges(b: &mut Builder, cx: &MethodCx<'_>, st: &mut MethodState, i: usize) {
    let insn = &cx.body.insns[i];
    if cx.witnesses && matches!(insn, Insn::Branch { .. }) && insn.falls_through() {
        // A paired `if` has no probe of its own: its compare's records the jump.
        let pos = if st.paired_if == Some(i) { InsnIdx::new(i - 1) } else { InsnIdx::new(i) };
        if let Some(p) = b.probe_at_with(cx.method_start, pos, |d| matches!(d, Detail::Branch { .. })) {
            // `branch` serves the taken goal, then the fall-through one.
            if let [taken, fall, ..] = b.plan.probes[p.index()].goals[..] {
                st.jumps.branch.insert(i, (taken, fall));
            }
        }
    }
}

/// Records the witnesses of this method's line goals (each instruction's, on its line) and of its
/// branch and switch goals (`ProbePlan::completion_witnesses`), once every instruction is planned.
pub(crate) fn completion_witnesses(b: &mut Builder, cx: &MethodCx<'_>, st: &MethodState) {
    if !cx.witnesses {
        return;
    }
    let (body, flow, jumps) = (cx.body, &cx.flow, &st.jumps);
    let per_insn = jacoco::instruction_witnesses(flow, body, jumps);
    let mut found: BTreeMap<GoalId, BTreeSet<Witness>> = BTreeMap::new();
    if cx.opts.lines {
        for (i, w) in per_insn.iter().enumerate() {
            if let Some(&g) = cx.line_at(InsnIdx::new(i)).and_then(|l| b.lines.get(&l)) {
                found.entry(g).or_default().extend(w.iter().copied());
            }
        }
    }
    let edge = |fall: bool, to: usize, on_edge: Option<Witness>| {
        jacoco::edge_witnesses(flow, &per_insn, jumps, fall, to, on_edge)
    };
    for (&i, &(taken, fall)) in &jumps.branch {
        let Some(target) = body.insns[i].targets().next() else { continue };
        found.entry(taken).or_default().extend(edge(false, target.index(), Some(Witness::Covered(taken))));
        found.entry(fall).or_default().extend(edge(true, i + 1, None));
    }
    for cases in jumps.switch.values() {
        for &(t, g) in cases {
            found.entry(g).or_default().extend(edge(false, t.index(), Some(Witness::Covered(g))));
        }
    }
    for (g, w) in found {
        let all = b.plan.completion_witnesses.entry(g).or_default();
        all.extend(w);
        all.sort_unstable();
        all.dedup();
    }
}
