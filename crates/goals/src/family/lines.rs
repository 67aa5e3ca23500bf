//! Line goals: a `Line` probe at the first instruction of each line-table entry, all the entries
//! of one source line serving one goal per class.

use bytecode::InsnIdx;

use super::{MethodCx, MethodState};
use crate::plan::Builder;
use crate::{Detail, Goal, ProbeKind};

pub(super) fn plan(b: &mut Builder, cx: &MethodCx<'_>, _: &mut MethodState, i: usize) {
    let at = InsnIdx::new(i);
    if cx.opts.lines
        && let Some(&l) = cx.line_starts.get(&at)
    {
        let p = b.push(ProbeKind::Line, Some(cx.method), at, cx.line_at(at), Detail::None);
        let existing = b.lines.get(&l).copied();
        let class = cx.class_id;
        let g = b.serve(p, existing, || Goal::Line { class, line: l });
        b.lines.insert(l, g);
    }
}
