//! Weak mutation of binary operators (AOR, BOR): the operands of `iadd` .. `lxor`, with one goal
//! per replacement operator and, for arithmetic, per operand standing for the operation.

use bytecode::InsnIdx;

use super::{MethodCx, MethodState};
use crate::plan::{Builder, binop_of};
use crate::{Detail, Goal, Mutant};

pub(super) fn plan(b: &mut Builder, cx: &MethodCx<'_>, _: &mut MethodState, i: usize) {
    if cx.opts.operands
        && let Some((bin, kind)) = binop_of(cx.body.insns[i].op())
    {
        let at = InsnIdx::new(i);
        let p = b.push(kind, Some(cx.method), at, cx.line_at(at), Detail::Operator { op: bin });
        for &r in bin.replacements() {
            b.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::ReplaceOp(r) });
        }
        if bin.is_arithmetic() {
            b.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::FirstOperand });
            b.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::SecondOperand });
        }
    }
}
