//! Exception goals: `Caught` at each handler entry (before the instruction's own probes) and
//! `Thrown` before each `athrow` (after them).

use bytecode::{InsnIdx, Opcode};

use super::{MethodCx, MethodState};
use crate::plan::Builder;
use crate::{Detail, Goal, ProbeKind};

pub(super) fn caught(b: &mut Builder, cx: &MethodCx<'_>, _: &mut MethodState, i: usize) {
    let at = InsnIdx::new(i);
    if cx.opts.exceptions
        && let Some(&ct) = cx.handlers.get(&at)
    {
        let catch_type = if ct == 0 { None } else { cx.cp.class_name(ct).map(|c| c.into_owned()) };
        let p = b.push(ProbeKind::Caught, Some(cx.method), at, cx.line_at(at), Detail::Caught { catch_type });
        b.serve(p, None, || Goal::Exception { probe: p });
    }
}

pub(super) fn thrown(b: &mut Builder, cx: &MethodCx<'_>, _: &mut MethodState, i: usize) {
    if cx.opts.exceptions && cx.body.insns[i].op() == Opcode::ATHROW {
        let at = InsnIdx::new(i);
        let p = b.push(ProbeKind::Thrown, Some(cx.method), at, cx.line_at(at), Detail::None);
        b.serve(p, None, || Goal::Exception { probe: p });
    }
}
