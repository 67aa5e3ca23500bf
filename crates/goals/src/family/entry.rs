//! Method and class entry: `ClassInit` at the start of `<clinit>`, `MethodEnter` (method goals)
//! at instruction 0.

use bytecode::InsnIdx;

use super::{MethodCx, MethodState};
use crate::plan::Builder;
use crate::{Detail, Goal, ProbeKind};

pub(super) fn plan(b: &mut Builder, cx: &MethodCx<'_>, _: &mut MethodState, i: usize) {
    if i != 0 {
        return;
    }
    let (at, line, m) = (InsnIdx::new(0), cx.line_at(InsnIdx::new(0)), Some(cx.method));
    if cx.is_clinit && cx.opts.class_init {
        b.push(ProbeKind::ClassInit, m, at, line, Detail::None);
    }
    if cx.opts.methods {
        let p = b.push(ProbeKind::MethodEnter, m, at, line, Detail::None);
        let (class, method) = (cx.class_id, cx.method);
        b.serve(p, None, || Goal::MethodEntry { class, method });
    }
}
