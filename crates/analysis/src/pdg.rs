//! The program dependence graph of one method (Ferrante, Ottenstein and Warren, "The Program
//! Dependence Graph and Its Use in Optimization", TOPLAS 9(3), 1987) at instruction granularity:
//! data edges from `data_deps` (operand producers, reaching definitions of locals) and control
//! edges from `control_deps` (an instruction depends on the edges its block depends on; the
//! branching instruction of such an edge is the last of the edge's source block). It adds no
//! analysis of its own beyond the backward slice, a worklist over both kinds of edges, which the
//! interprocedural analyses (object construction graphs, flags) start from.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use bytecode::{InsnIdx, MethodBody};

use crate::cfg::Cfg;
use crate::control_deps::{ControlDep, ControlDeps};
use crate::data_deps::{DataDeps, LocalDef, StackDef};

/// One data dependence of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DataDep {
    /// Operand `operand` (deepest first) may have been pushed by `def`.
    Operand { operand: u16, def: StackDef },
    /// The local the instruction reads may hold the value of `def`.
    Local { def: LocalDef },
}

/// The program dependence graph of one method body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pdg {
    data: Vec<Vec<DataDep>>,
    /// Per instruction, the control dependences of its block.
    control: Vec<Vec<ControlDep>>,
    /// Per instruction, the branching instructions it is control dependent on, sorted.
    control_insns: Vec<Vec<InsnIdx>>,
}

impl Pdg {
    /// Joins the data dependences and the control dependences of `body` (with its `cfg`).
    pub fn compute(body: &MethodBody, cfg: &Cfg, control: &ControlDeps, data: &DataDeps) -> Pdg {
        let n = body.insns.len();
        let mut res = Pdg {
            data: vec![Vec::new(); n],
            control: vec![Vec::new(); n],
            control_insns: vec![Vec::new(); n],
        };
        for i in 0..n {
            let at = InsnIdx::new(i);
            let deps = &mut res.data[i];
            for (k, defs) in data.operands(at).iter().enumerate() {
                deps.extend(defs.iter().map(|&def| DataDep::Operand { operand: k as u16, def }));
            }
            deps.extend(data.reaching_defs(at).iter().map(|&def| DataDep::Local { def }));
        }
        for b in cfg.block_ids() {
            let block = cfg.block(b);
            let deps = control.deps(b.node()).to_vec();
            let mut insns: Vec<InsnIdx> = deps
                .iter()
                .filter_map(|d| match d {
                    ControlDep::Edge(e) => Some(InsnIdx::new(cfg.block(cfg.edge(*e).from).end.index() - 1)),
                    ControlDep::Entry => None,
                })
                .collect();
            insns.sort_unstable();
            insns.dedup();
            for i in block.start.index()..block.end.index() {
                res.control[i] = deps.clone();
                res.control_insns[i] = insns.clone();
            }
        }
        res
    }

    /// The data dependences of `i`: operands by operand, then the definitions of the local it reads.
    pub fn data_deps(&self, i: InsnIdx) -> &[DataDep] {
        &self.data[i.index()]
    }

    /// The control dependences of `i` (those of its block).
    pub fn control_deps(&self, i: InsnIdx) -> &[ControlDep] {
        &self.control[i.index()]
    }

    /// The conditional jumps and switches `i` is control dependent on.
    pub fn control_insns(&self, i: InsnIdx) -> &[InsnIdx] {
        &self.control_insns[i.index()]
    }

    /// Every instruction `from` depends on, transitively, through data and control edges, and
    /// `from` itself; sorted. An explicit worklist (STYLE.md rule 7).
    pub fn backward_slice(&self, from: InsnIdx) -> Vec<InsnIdx> {
        let mut seen = BTreeSet::from([from]);
        let mut work = vec![from];
        while let Some(i) = work.pop() {
            let data = self.data[i.index()].iter().filter_map(|d| match d {
                DataDep::Operand { def: StackDef::Insn(p), .. }
                | DataDep::Local { def: LocalDef::Store(p) } => Some(*p),
                _ => None,
            });
            for p in data.chain(self.control_insns[i.index()].iter().copied()) {
                if seen.insert(p) {
                    work.push(p);
                }
            }
        }
        seen.into_iter().collect()
    }
}

/// A text form of the PDG for snapshot tests: per reachable instruction, its producers per
/// operand, the local definitions it reads and the branches it is control dependent on.
pub fn render(header: &str, body: &MethodBody, data: &DataDeps, pdg: &Pdg) -> String {
    let mut out = format!("{header}\n");
    let width = body.insns.len().saturating_sub(1).to_string().len();
    for (i, insn) in body.insns.iter().enumerate() {
        let at = InsnIdx::new(i);
        if !data.is_reachable(at) {
            let _ = writeln!(out, "  {i:>width$}: {} (unreachable)", crate::text::insn_text(insn));
            continue;
        }
        let mut line = format!("  {i:>width$}: {}", crate::text::insn_text(insn));
        let ops: Vec<String> = data.operands(at).iter().map(|defs| defs_text(defs)).collect();
        if !ops.is_empty() {
            let _ = write!(line, "  ops [{}]", ops.join(" | "));
        }
        let locals = data.reaching_defs(at);
        if !locals.is_empty() {
            let l: Vec<String> = locals.iter().map(local_text).collect();
            let _ = write!(line, "  local [{}]", l.join(", "));
        }
        let ctrl = pdg.control_insns(at);
        if !ctrl.is_empty() {
            let c: Vec<String> = ctrl.iter().map(ToString::to_string).collect();
            let _ = write!(line, "  ctrl [{}]", c.join(", "));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn defs_text(defs: &[StackDef]) -> String {
    let d: Vec<String> = defs
        .iter()
        .map(|d| match d {
            StackDef::Insn(i) => i.to_string(),
            StackDef::CaughtException { handler } => format!("caught h{handler}"),
        })
        .collect();
    d.join(",")
}

fn local_text(d: &LocalDef) -> String {
    match d {
        LocalDef::Entry { var } => format!("entry {var}"),
        LocalDef::Store(i) => i.to_string(),
    }
}
