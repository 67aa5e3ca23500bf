//! Weak mutation of numeric loads (UOI, see `plan.rs`): a `Value*` probe placed before the next
//! instruction, where the loaded value is on the stack; only when control goes straight on.

use bytecode::InsnIdx;

use super::{MethodCx, MethodState};
use crate::plan::{Builder, load_value_kind};
use crate::{Detail, Goal, Mutant, UnaryOp};

pub(super) fn plan(b: &mut Builder, cx: &MethodCx<'_>, _: &mut MethodState, i: usize) {
    // (Not before a try block's start that JaCoCo probes on the fall-through edge: that edge probe
    // must be the first at its instruction.)
    if cx.values
        && cx.straight_on(i)
        && !(cx.witnesses && cx.flow.needs_fall_through_probe(i + 1))
        && let Some(kind) = load_value_kind(&cx.body.insns[i], cx.cp)
    {
        let next = InsnIdx::new(i + 1);
        let p = b.push(kind, Some(cx.method), next, cx.line_at(next), Detail::None);
        for u in UnaryOp::ALL {
            b.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::InsertUnary(u) });
        }
    }
}
