//! Branch goals: two per conditional jump (or `?cmp*` + `if<cond>` pair), with their ROR mutants,
//! and one per distinct switch target plus the default.

use bytecode::{Insn, InsnIdx};
use rt_abi::cond;

use super::{MethodCx, MethodState};
use crate::plan::{Builder, branch_cond, cmp_kind};
use crate::{Detail, Goal, Mutant, ProbeKind, SwitchCase};

pub(super) fn branches(b: &mut Builder, cx: &MethodCx<'_>, st: &mut MethodState, i: usize) {
    if !cx.opts.branches {
        return;
    }
    let body = cx.body;
    let op = body.insns[i].op();
    let at = InsnIdx::new(i);
    if let Some((kind, nan_greater)) = cmp_kind(op) {
        let next = body.insns.get(i + 1).map(Insn::op);
        let paired = next
            .filter(|o| (0x99..=0x9e).contains(&o.0))
            .filter(|_| !cx.targets.contains(&InsnIdx::new(i + 1)));
        if let Some(next) = paired {
            let (_, c) = branch_cond(next).unwrap_or((kind, cond::EQ));
            let c = if nan_greater { c | cond::NAN_GREATER } else { c };
            branch(b, cx, kind, at, c);
            st.paired_if = Some(i + 1);
        }
    } else if let Some((kind, c)) = branch_cond(op)
        && st.paired_if != Some(i)
    {
        branch(b, cx, kind, at, c);
    }
}

/// A branch probe with its two goals (taken, then fall-through) and its ROR mutants.
fn branch(b: &mut Builder, cx: &MethodCx<'_>, kind: ProbeKind, at: InsnIdx, c: i32) {
    let p = b.push(kind, Some(cx.method), at, cx.line_at(at), Detail::Branch { cond: c });
    b.serve(p, None, || Goal::Branch { probe: p, taken: true });
    b.serve(p, None, || Goal::Branch { probe: p, taken: false });
    let base = c & 7;
    let mutants: Vec<i32> = match kind {
        // References can only be compared for (in)equality: the mutant negates the condition.
        ProbeKind::BranchRef | ProbeKind::BranchNull => vec![base ^ 1],
        _ => (cond::EQ..=cond::LE).filter(|&o| o != base).collect(),
    };
    for o in mutants {
        b.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::ReplaceCond(o) });
    }
}

pub(super) fn switches(b: &mut Builder, cx: &MethodCx<'_>, st: &mut MethodState, i: usize) {
    let insn = &cx.body.insns[i];
    if !cx.opts.switches || !insn.is_switch() {
        return;
    }
    let at = InsnIdx::new(i);
    let pairs = insn.switch_cases();
    let keys: Vec<i32> = pairs.iter().map(|&(k, _)| k).collect();
    // Keys are sorted, so the first key seen for a target is its smallest.
    let target_key: Vec<i32> =
        pairs.iter().map(|&(_, t)| pairs.iter().find(|&&(_, u)| u == t).map_or(0, |&(k, _)| k)).collect();
    let mut goal_keys = target_key.clone();
    goal_keys.sort_unstable();
    goal_keys.dedup();
    let p = b.push(
        ProbeKind::SwitchKey,
        Some(cx.method),
        at,
        cx.line_at(at),
        Detail::Switch { keys, target_key },
    );
    // Each distinct target with its goal (named by its smallest key, first in `pairs`).
    let mut cases = Vec::with_capacity(goal_keys.len() + 1);
    for k in goal_keys {
        let g = b.serve(p, None, || Goal::SwitchCase { probe: p, case: SwitchCase::Key(k) });
        let target = pairs.iter().find(|&&(key, _)| key == k).map_or(at, |&(_, t)| t);
        cases.push((target, g));
    }
    let g = b.serve(p, None, || Goal::SwitchCase { probe: p, case: SwitchCase::Default });
    cases.push((insn.targets().next().unwrap_or(at), g));
    st.jumps.switch.insert(i, cases);
}
