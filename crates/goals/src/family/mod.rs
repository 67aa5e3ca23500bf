//! The probe families of the planner (docs/probes.md): each family is a step that plans the probes
//! and goals of one kind at one instruction, and `STEPS` runs them in the fixed order that gives
//! every probe and goal its id (the order of probes at one instruction, `plan.rs`).
//!
//! Built-in families are steps of this table; families added from outside (techniques, tests) are
//! [`ProbeFamily`] values named in `PlanOptions::extensions`, planned by the `extension` step with
//! generic `Record` probes that need no code in the instrumenter, the runtime or the protocol.

mod calls;
mod constants;
mod entry;
mod exceptions;
mod extension;
mod jumps;
mod lines;
mod operands;
mod returns;
mod values;
mod witness;

use std::collections::{BTreeMap, BTreeSet};

use bytecode::{Insn, InsnIdx, MethodBody};
use classfile::{ClassFile, ConstantPool};

pub use extension::{Extensions, MethodView, ProbeFamily, RecordProbe};
pub(crate) use witness::completion_witnesses;

use crate::plan::{Builder, PlanOptions};
use crate::{Constant, GoalId, MethodIdx, PlanClassIdx, jacoco};

/// What every family may read about the method being planned; built once per method.
pub(crate) struct MethodCx<'a> {
    pub(crate) class: &'a ClassFile,
    pub(crate) class_id: PlanClassIdx,
    pub(crate) cp: &'a ConstantPool,
    pub(crate) method: MethodIdx,
    pub(crate) descriptor: &'a str,
    /// The return type of `descriptor` (a field descriptor, or `V`).
    pub(crate) ret: &'a str,
    pub(crate) body: &'a MethodBody,
    pub(crate) is_clinit: bool,
    pub(crate) opts: &'a PlanOptions,
    /// The first line-table entry starting at each instruction.
    pub(crate) line_starts: BTreeMap<InsnIdx, u16>,
    /// Jump targets and handler entries: a `?cmp*` is paired with the `if` after it only when
    /// nothing else can reach that `if`.
    pub(crate) targets: BTreeSet<InsnIdx>,
    /// The catch type of the first handler entered at each instruction (0 for catch-all).
    pub(crate) handlers: BTreeMap<InsnIdx, u16>,
    /// The first probe id of this method.
    pub(crate) method_start: usize,
    /// UOI and RC are planned (not in `<clinit>`, docs in `values`/`constants`).
    pub(crate) values: bool,
    pub(crate) constants: bool,
    /// The completion witnesses of line and branch goals are wanted (`witness`).
    pub(crate) witnesses: bool,
    pub(crate) flow: jacoco::Flow,
}

impl MethodCx<'_> {
    /// The line of an instruction: the entry with the greatest start at or before it.
    pub(crate) fn line_at(&self, i: InsnIdx) -> Option<u16> {
        self.line_starts.range(..=i).next_back().map(|(_, l)| *l)
    }

    /// Control goes from `i` straight on to `i + 1` only (it falls through and nothing else jumps
    /// to `i + 1`).
    pub(crate) fn straight_on(&self, i: usize) -> bool {
        let insn = &self.body.insns[i];
        i + 1 < self.body.insns.len() && insn.falls_through() && !self.targets.contains(&InsnIdx::new(i + 1))
    }
}

/// What families carry from one instruction of the method to the next.
pub(crate) struct MethodState {
    /// The method's normal-exit goal, once its first `MethodExit` probe is planned.
    pub(crate) exit_goal: Option<GoalId>,
    /// The method's output goals, once its first return-value probe is planned.
    pub(crate) output_goals: Option<Vec<GoalId>>,
    /// The `if` whose `?cmp*` before it carries its branch probe.
    pub(crate) paired_if: Option<usize>,
    /// RC constants of the current straight run still waiting for a probe that tells they ran.
    pub(crate) pending_rc: Vec<(InsnIdx, Constant)>,
    /// JaCoCo's probe positions found so far (`witness`).
    pub(crate) jumps: jacoco::MethodProbes,
}

/// A family's planner for one instruction index of the method.
pub(crate) type Step = fn(&mut Builder, &MethodCx<'_>, &mut MethodState, usize);

/// Every family, in the order their probes take at one instruction. The order is part of the
/// plan's ids (Architecture Invariant, docs/architecture.md): append new built-in steps only
/// where their probes belong, and never reorder.
pub(crate) const STEPS: &[Step] = &[
    witness::fall_through,
    entry::plan,
    lines::plan,
    exceptions::caught,
    calls::plan,
    jumps::branches,
    jumps::switches,
    operands::plan,
    exceptions::thrown,
    returns::plan,
    witness::probe_at,
    witness::branch_edges,
    constants::plan,
    extension::plan,
    values::plan,
];

impl<'a> MethodCx<'a> {
    pub(crate) fn new(
        b: &Builder,
        class: &'a ClassFile,
        method: MethodIdx,
        descriptor: &'a str,
        body: &'a MethodBody,
        is_clinit: bool,
        opts: &'a PlanOptions,
    ) -> MethodCx<'a> {
        let mut line_starts: BTreeMap<InsnIdx, u16> = BTreeMap::new();
        for e in body.lines() {
            line_starts.entry(e.start).or_insert(e.line);
        }
        let mut targets: BTreeSet<InsnIdx> = BTreeSet::new();
        for insn in &body.insns {
            targets.extend(insn.targets());
        }
        let mut handlers: BTreeMap<InsnIdx, u16> = BTreeMap::new();
        for h in &body.handlers {
            targets.insert(h.handler);
            handlers.entry(h.handler).or_insert(h.catch_type);
        }
        // JaCoCo marks a line-table entry holding a call, so that the lines before a call that
        // throws still count.
        let mut call_lines: BTreeSet<InsnIdx> = BTreeSet::new();
        for (i, insn) in body.insns.iter().enumerate() {
            if matches!(insn, Insn::Invoke { .. } | Insn::InvokeInterface { .. } | Insn::InvokeDynamic { .. })
                && let Some((&start, _)) = line_starts.range(..=InsnIdx::new(i)).next_back()
            {
                call_lines.insert(start);
            }
        }
        let flow = jacoco::Flow::new(body, &call_lines);
        MethodCx {
            class,
            class_id: b.class,
            cp: &class.constant_pool,
            method,
            descriptor,
            ret: descriptor.rsplit_once(')').map_or("V", |(_, r)| r),
            body,
            is_clinit,
            opts,
            line_starts,
            targets,
            handlers,
            method_start: b.plan.probes.len(),
            // `<clinit>` runs once per JVM, before any test (docs/protocol.md, v1): its loads and
            // constants (often large tables) would only give goals that no test can tell apart.
            values: opts.values && !is_clinit,
            constants: opts.constants && !is_clinit,
            witnesses: opts.lines || opts.branches || opts.switches,
            flow,
        }
    }
}

impl MethodState {
    pub(crate) fn new() -> MethodState {
        MethodState {
            exit_goal: None,
            output_goals: None,
            paired_if: None,
            pending_rc: Vec::new(),
            jumps: jacoco::MethodProbes {
                at: BTreeMap::new(),
                fall_through: BTreeMap::new(),
                branch: BTreeMap::new(),
                switch: BTreeMap::new(),
            },
        }
    }
}
