//! Returns: the return-value probe (output goals, one set per method) and `MethodExit` (the
//! method's normal-exit goal), before each `*return`.

use bytecode::InsnIdx;

use super::{MethodCx, MethodState};
use crate::plan::{Builder, return_probe};
use crate::{Detail, Goal, GoalId, OutputValue, ProbeKind};

/// The output goals of a method returning the type `ret` (a field descriptor, or `V`).
fn output_values(ret: &str) -> &'static [OutputValue] {
    use OutputValue::*;
    match ret.as_bytes().first() {
        Some(b'Z') => &[True, False],
        Some(b'C') => &[Alphabetic, Digit, OtherChar],
        Some(b'B' | b'S' | b'I' | b'J' | b'F' | b'D') => &[Negative, Zero, Positive],
        Some(b'L' | b'[') => &[Null, NonNull],
        _ => &[],
    }
}

pub(super) fn plan(b: &mut Builder, cx: &MethodCx<'_>, st: &mut MethodState, i: usize) {
    let op = cx.body.insns[i].op();
    if !op.is_return() {
        return;
    }
    let (at, m) = (InsnIdx::new(i), Some(cx.method));
    let (class, method) = (cx.class_id, cx.method);
    if cx.opts.returns
        && let Some(kind) = return_probe(op)
    {
        let p = b.push(kind, m, at, cx.line_at(at), Detail::None);
        let values = output_values(cx.ret);
        let existing = st.output_goals.take();
        let mut goals: Vec<GoalId> = Vec::with_capacity(values.len());
        for (k, &value) in values.iter().enumerate() {
            let g = existing.as_ref().map(|e| e[k]);
            goals.push(b.serve(p, g, || Goal::Output { class, method, value }));
        }
        st.output_goals = Some(goals);
    }
    if cx.opts.methods {
        let p = b.push(ProbeKind::MethodExit, m, at, cx.line_at(at), Detail::None);
        st.exit_goal = Some(b.serve(p, st.exit_goal, || Goal::MethodNormalExit { class, method }));
    }
}
