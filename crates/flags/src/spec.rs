//! From detection to the fitness's static input: the flag methods of a `FlagAnalysis` numbered
//! in order (`MethodKey(i)` is `flag_methods[i]`), each with its required branches per returned
//! value, the control dependences of its jumps and calls (from `programdb`'s control dependence),
//! and its own flag branches; and the objectives of the method under test's flag branches.
//!
//! A decision reached through a switch case is required like a jump's outcome (an extension of the
//! paper, whose fitness is defined on conditional jumps only; `Required::Case`). Decisions reached
//! through an exception handler, and values detection could not follow, have no required branch
//! here: they give no gradient. A jump testing two flag calls keeps the first as its nested flag.

use std::collections::BTreeMap;

use analysis::{ControlDep, EdgeKind};
use bytecode::InsnIdx;
use programdb::{MethodId, ProgramDb};

use crate::detect::{FlagAnalysis, FlagMethod, PathSource};
use crate::fitness::{Dep, FlagBranchSpec, FlagObjective, FlagSpecs, MethodKey, MethodSpec, Required};
use crate::origin::Via;

/// The specs of an analysis and the numbering of its flag methods.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecIndex {
    pub specs: FlagSpecs,
    /// `keys[i]` is the method of `MethodKey(i)`.
    pub keys: Vec<MethodId>,
}

impl SpecIndex {
    /// The key of a flag method of the analysis.
    pub fn key(&self, m: MethodId) -> Option<MethodKey> {
        self.keys.binary_search(&m).ok().map(|i| MethodKey(i as u32))
    }
}

/// The specs of every flag method of `a`.
pub fn specs(db: &ProgramDb, a: &FlagAnalysis) -> SpecIndex {
    let mut methods = BTreeMap::new();
    for (i, f) in a.flag_methods.iter().enumerate() {
        methods.insert(MethodKey(i as u32), method_spec(db, f));
    }
    SpecIndex { specs: FlagSpecs { methods }, keys: a.flag_methods.iter().map(|f| f.method).collect() }
}

/// Per flag branch of the method under test and outcome (`taken`), its objective.
pub fn objectives(a: &FlagAnalysis) -> Vec<(InsnIdx, bool, FlagObjective)> {
    let mut res = Vec::new();
    for b in &a.branches {
        for taken in [true, false] {
            res.push((b.branch, taken, FlagObjective { call: b.call, needs: b.needs(taken) }));
        }
    }
    res
}

fn method_spec(db: &ProgramDb, f: &FlagMethod) -> MethodSpec {
    let mut spec = MethodSpec::default();
    for value in [false, true] {
        let mut req = Vec::new();
        for p in f.paths(value) {
            match &p.source {
                PathSource::Constant { via, .. } => req.extend(via.iter().filter_map(|v| match *v {
                    Via::Entry => Some(Required::Always),
                    Via::Branch { insn, taken } => Some(Required::Branch { insn, taken }),
                    Via::Switch { insn, case } => Some(Required::Case { insn, key: case }),
                    Via::Handler { .. } => None,
                })),
                PathSource::Call { call, needs } => req.push(Required::Call { call: *call, needs: *needs }),
                PathSource::Unknown => {}
            }
        }
        req.sort_unstable();
        req.dedup();
        spec.required[usize::from(value)] = req;
    }
    for b in &f.branches {
        spec.flag_branches
            .entry(b.branch)
            .or_insert(FlagBranchSpec { call: b.call, taken_needs: b.taken_needs });
    }
    spec.deps = control_deps(db, f.method);
    spec.switches = switches(db, f.method);
    spec
}

/// Per switch of `m`, its keys that do not go to the default, sorted.
fn switches(db: &ProgramDb, m: MethodId) -> BTreeMap<InsnIdx, Vec<i32>> {
    let mut res = BTreeMap::new();
    let Some(Ok(body)) = db.body(m) else { return res };
    for (i, insn) in body.insns.iter().enumerate().filter(|(_, insn)| insn.is_switch()) {
        res.insert(InsnIdx::new(i), insn.switch_cases().into_iter().map(|(k, _)| k).collect());
    }
    res
}

/// For every conditional jump, switch and invoke of `m`: the jump outcomes its block depends on.
fn control_deps(db: &ProgramDb, m: MethodId) -> BTreeMap<InsnIdx, Vec<Dep>> {
    let mut res = BTreeMap::new();
    let (Some(Ok(body)), Some(a)) = (db.body(m), db.analysis(m)) else { return res };
    let cfg = &a.cfg;
    for (i, insn) in body.insns.iter().enumerate() {
        let at = InsnIdx::new(i);
        let is_call = insn.op().0 >= 0xb6 && insn.op().0 <= 0xb9;
        if !(insn.is_conditional() || insn.is_switch() || is_call) {
            continue;
        }
        let mut deps: Vec<Dep> = a
            .control_deps
            .deps(cfg.block_of(at).node())
            .iter()
            .filter_map(|d| {
                let ControlDep::Edge(e) = d else { return None };
                let edge = cfg.edge(*e);
                let insn = InsnIdx::new(cfg.block(edge.from).end.index() - 1);
                match edge.kind {
                    EdgeKind::Taken => Some(Dep { insn, taken: true }),
                    EdgeKind::NotTaken => Some(Dep { insn, taken: false }),
                    _ => None,
                }
            })
            .collect();
        deps.sort_unstable();
        deps.dedup();
        res.insert(at, deps);
    }
    res
}
