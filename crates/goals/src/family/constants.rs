//! Weak mutation of numeric constants (RC, see `plan.rs`): the goals of a constant are served by
//! the first probe at or after it on its straight run, or by a hit-only `Line` probe at the run's
//! last instruction when there is none.

use bytecode::InsnIdx;

use super::{MethodCx, MethodState};
use crate::plan::{Builder, constant_of, constant_replacements};
use crate::{Detail, Goal, Mutant, ProbeKind};

pub(super) fn plan(b: &mut Builder, cx: &MethodCx<'_>, st: &mut MethodState, i: usize) {
    let at = InsnIdx::new(i);
    if cx.constants
        && let Some(c) = constant_of(&cx.body.insns[i], cx.cp)
    {
        st.pending_rc.push((at, c));
    }
    if st.pending_rc.is_empty() {
        return;
    }
    let server = match b.probe_at(cx.method_start, at) {
        Some(p) => Some(p),
        None if !cx.straight_on(i) => {
            Some(b.push(ProbeKind::Line, Some(cx.method), at, cx.line_at(at), Detail::None))
        }
        None => None,
    };
    if let Some(p) = server {
        for (c_at, c) in std::mem::take(&mut st.pending_rc) {
            for by in constant_replacements(c) {
                let mutant = Mutant::ReplaceConstant { at: c_at, by };
                b.serve(p, None, || Goal::WeakMutation { probe: p, mutant });
            }
        }
    }
}
