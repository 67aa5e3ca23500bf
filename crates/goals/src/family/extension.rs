//! The extension point of the planner (docs/probes.md): probe families defined outside this crate
//! plan generic `Record` probes (rt-abi `ProbeKind::Record`), which the instrumenter emits from
//! their operand shape, the runtime records without knowing the family, and the family's decoder
//! reads back from the trace's `records` section by the family name in `Detail::Record`.
//!
//! Extension probes come after every built-in probe at their instruction and serve no goals, so
//! a plan without extensions is exactly the plan of the built-in families (and a plan with them
//! has the same built-in goals, ids aside): nothing built in ever uses them as witnesses.

use std::borrow::Cow;
use std::fmt;

use bytecode::{InsnIdx, MethodBody};
use classfile::ClassFile;
use rt_abi::RecordShape;

use super::{MethodCx, MethodState};
use crate::plan::Builder;
use crate::{Detail, MethodIdx, PlanClassIdx, ProbeKind};

/// A probe family planned through the extension point: it looks at each instruction of each
/// method with code and says which extension probes go before it.
pub trait ProbeFamily: Sync {
    /// The family's name, kept in each of its probes (`Detail::Record::family`) so that its
    /// decoder finds them; unique among the families of one plan.
    fn name(&self) -> &'static str;

    /// Appends to `out`, in order, the probes to insert before instruction `at` of `method`.
    fn plan(&self, method: &MethodView<'_>, at: InsnIdx, out: &mut Vec<RecordProbe>);
}

/// One extension probe a family asks for: the operands it copies from the top of the stack before
/// the instruction, and a value of the family's own (kept in `Detail::Record::tag`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RecordProbe {
    pub shape: RecordShape,
    pub tag: u32,
}

/// What a family may read about the method being planned.
pub struct MethodView<'a> {
    pub class: &'a ClassFile,
    pub class_id: PlanClassIdx,
    pub method: MethodIdx,
    pub descriptor: &'a str,
    pub body: &'a MethodBody,
    pub is_clinit: bool,
}

impl MethodView<'_> {
    /// The method's name (`None` if its constant is broken, which `add_class` already refuses).
    pub fn name(&self) -> Option<Cow<'_, str>> {
        self.class.methods.get(self.method.0 as usize)?.name(&self.class.constant_pool)
    }

    /// The return type of the descriptor (a field descriptor, or `V`).
    pub fn return_type(&self) -> &str {
        self.descriptor.rsplit_once(')').map_or("V", |(_, r)| r)
    }
}

/// The extension families to plan, in order (`PlanOptions::extensions`). Static, so that the
/// options stay `Copy`; none in `generate`.
#[derive(Clone, Copy)]
pub struct Extensions(pub &'static [&'static dyn ProbeFamily]);

impl Extensions {
    pub const NONE: Extensions = Extensions(&[]);

    fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().map(|f| f.name())
    }
}

impl PartialEq for Extensions {
    fn eq(&self, other: &Extensions) -> bool {
        self.names().eq(other.names())
    }
}

impl Eq for Extensions {}

impl fmt::Debug for Extensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

/// The step of the extension families: each family in order, its probes in the order it gives.
pub(super) fn plan(b: &mut Builder, cx: &MethodCx<'_>, _: &mut MethodState, i: usize) {
    let families = cx.opts.extensions.0;
    if families.is_empty() {
        return;
    }
    let view = MethodView {
        class: cx.class,
        class_id: cx.class_id,
        method: cx.method,
        descriptor: cx.descriptor,
        body: cx.body,
        is_clinit: cx.is_clinit,
    };
    let at = InsnIdx::new(i);
    let mut out = Vec::new();
    for family in families {
        out.clear();
        family.plan(&view, at, &mut out);
        for r in &out {
            let detail = Detail::Record { family: family.name(), tag: r.tag };
            b.push(ProbeKind::Record(r.shape), Some(cx.method), at, cx.line_at(at), detail);
        }
    }
}
