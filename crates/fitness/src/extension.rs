//! The decoding side of the trace extension point (docs/probes.md): a probe family planned through
//! `goals::ProbeFamily` finds its probes in a plan by its name and reads their `records` from a
//! trace, with nothing in the runtime or the protocol knowing the family.

use goals::{Detail, ProbeFamily, ProbeId, ProbePlan};
use protocol::{Record, Trace};

/// The decoder registered with an extension family: the family's planner (`ProbeFamily`) and,
/// on the same type, what its records mean (per-goal distances, per-probe facts, ...).
pub trait FamilyDecoder: ProbeFamily {
    type Output;

    /// Reads one trace; `probes` are this family's probes of the plan the trace was made with.
    fn decode(&self, probes: &FamilyProbes, trace: &Trace) -> Self::Output;
}

/// One probe of a family, with the family's tag (`goals::RecordProbe::tag`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FamilyProbe {
    pub id: ProbeId,
    pub tag: u32,
}

/// The probes a family planned, in id order; built once per plan, used for every trace.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FamilyProbes {
    family: &'static str,
    probes: Vec<FamilyProbe>,
}

impl FamilyProbes {
    /// The probes of the family named `family` in `plan`.
    pub fn of(plan: &ProbePlan, family: &str) -> FamilyProbes {
        let mut name = None;
        let probes = plan
            .probes()
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p.detail {
                Detail::Record { family: f, tag } if f == family => {
                    name = Some(f);
                    Some(FamilyProbe { id: ProbeId(i as u32), tag })
                }
                _ => None,
            })
            .collect();
        FamilyProbes { family: name.unwrap_or(""), probes }
    }

    pub fn family(&self) -> &'static str {
        self.family
    }

    pub fn probes(&self) -> &[FamilyProbe] {
        &self.probes
    }

    /// Each probe of the family with the records the trace holds for it (empty if it never ran).
    pub fn records<'a, 't: 'a>(
        &'a self,
        trace: &'t Trace,
    ) -> impl Iterator<Item = (FamilyProbe, &'t [Record])> + 'a {
        self.probes.iter().map(move |&p| (p, trace.records_at(p.id)))
    }
}

/// Decodes `trace` with `decoder`, finding its probes in `plan` (for one-off reads; keep a
/// `FamilyProbes` to decode many traces).
pub fn decode<D: FamilyDecoder>(decoder: &D, plan: &ProbePlan, trace: &Trace) -> D::Output {
    decoder.decode(&FamilyProbes::of(plan, decoder.name()), trace)
}
