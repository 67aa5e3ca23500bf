//! Call sites: a `CallSite` probe before each `invoke*` (not `invokedynamic`), the calling context
//! of context-branch goals.

use bytecode::{Insn, InsnIdx};

use super::{MethodCx, MethodState};
use crate::plan::Builder;
use crate::{Detail, ProbeKind};

pub(super) fn plan(b: &mut Builder, cx: &MethodCx<'_>, _: &mut MethodState, i: usize) {
    match &cx.body.insns[i] {
        Insn::Invoke { index, .. } | Insn::InvokeInterface { index, .. } if cx.opts.call_sites => {
            let callee = cx
                .cp
                .member_ref(*index)
                .map_or_else(|| format!("#{index}"), |r| format!("{}.{}{}", r.class, r.name, r.descriptor));
            let at = InsnIdx::new(i);
            b.push(ProbeKind::CallSite, Some(cx.method), at, cx.line_at(at), Detail::Call { callee });
        }
        _ => {}
    }
}
