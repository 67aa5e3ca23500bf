//! A probe family built only through the extension point (docs/probes.md): the value each
//! `boolean` method returns, with the call depth, at every `ireturn` — the raw material of the
//! interprocedural flag fitness of paper 001 (digest 000-001, Part B: which flag methods returned
//! which value, in which calling depth). Not planned by `generate`; tests plan it by naming
//! [`FLAG_RETURNS`] in `PlanOptions::extensions`.

use goals::{InsnIdx, MethodIdx, MethodView, ProbeFamily, ProbeId, RecordProbe, RecordShape};
use protocol::Trace;

use crate::extension::{FamilyDecoder, FamilyProbes};

/// The family: one `Record(Int)` probe before each `ireturn` of a method returning `boolean`,
/// tagged with the method's index.
#[derive(Clone, Copy, Debug)]
pub struct FlagReturns;

/// The family as `PlanOptions::extensions` takes it.
pub const FLAG_RETURNS: &FlagReturns = &FlagReturns;

/// One distinct (value, depth) a flag method returned at one of its `ireturn`s.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct FlagReturn {
    pub probe: ProbeId,
    pub method: MethodIdx,
    pub value: bool,
    /// Frames of instrumented methods below the returning one (0: called by the test directly).
    pub depth: u32,
}

impl ProbeFamily for FlagReturns {
    fn name(&self) -> &'static str {
        "flag-returns"
    }

    fn plan(&self, method: &MethodView<'_>, at: InsnIdx, out: &mut Vec<RecordProbe>) {
        if method.return_type() == "Z" && method.body.insns[at.index()].op() == bytecode::Opcode::IRETURN {
            out.push(RecordProbe { shape: RecordShape::Int, tag: u32::from(method.method.0) });
        }
    }
}

impl FamilyDecoder for FlagReturns {
    type Output = Vec<FlagReturn>;

    /// Every record of the trace, in probe order then first-seen order.
    fn decode(&self, probes: &FamilyProbes, trace: &Trace) -> Vec<FlagReturn> {
        let mut out = Vec::new();
        for (p, records) in probes.records(trace) {
            for r in records {
                // The tag is the method's index (`plan`), which fits a u16 by construction.
                let method = MethodIdx(p.tag as u16);
                out.push(FlagReturn { probe: p.id, method, value: r.a != 0, depth: r.depth });
            }
        }
        out
    }
}
