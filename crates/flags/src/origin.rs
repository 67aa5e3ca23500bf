//! Where a boolean value comes from, inside one method (digest 000-001 §B2.4): the data
//! dependence of `analysis` followed back through the operand stack (`dup*`/`swap` are already
//! transparent there), through locals (reaching definitions of `istore`), and through negation,
//! both `x ^ true` (`iconst_1; ixor`) and javac's branchy lowering of `!f()` and of `c ? true :
//! false` (`if<c> L; iconst_1; goto E; L: iconst_0; E:`), to the calls returning `boolean` and the
//! constants `iconst_0`/`iconst_1` that produce it. It also finds the *last branches* before an
//! instruction: the conditional edges from which it is reached without crossing another one (the
//! required branches of paper 001 §3).
//!
//! Values read from fields, arrays or parameters are not followed (they are `Leaf::Other`): a
//! flag stored in a field and read back is outside the paper's def-use detection too.

use std::collections::BTreeSet;

use analysis::{Cfg, DataDeps, EdgeKind, LocalDef, StackDef};
use bytecode::{Insn, InsnIdx, MethodBody, Opcode};
use programdb::{MethodId, ProgramDb};

/// The facts about one method that resolution reads.
pub(crate) struct MethodCtx<'a> {
    pub db: &'a ProgramDb,
    pub method: MethodId,
    pub body: &'a MethodBody,
    pub cfg: &'a Cfg,
    pub data: &'a DataDeps,
    /// Per block, the edges entering it (by index in `cfg.edges()`), in edge order.
    pred_edges: Vec<Vec<usize>>,
}

/// What produced a value, once stack moves, locals and `ixor` negation are seen through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Leaf {
    /// The result of the call at `call` (returning `boolean`), negated or not.
    Call { call: InsnIdx, negated: bool },
    /// The constant `value` (after negation), pushed at `producer`.
    Const { value: bool, producer: InsnIdx },
    /// Anything else (a field, a parameter, arithmetic, a non-boolean call).
    Other,
}

/// A flag call a value comes from, with its polarity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Source {
    pub call: InsnIdx,
    pub negated: bool,
}

/// How control reaches an instruction from the last decision before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Via {
    /// From the method's entry, without a decision.
    Entry,
    /// Along one outcome of the conditional jump at `insn`.
    Branch { insn: InsnIdx, taken: bool },
    /// Along a case (`Some(key)`) or the default (`None`) of the switch at `insn`.
    Switch { insn: InsnIdx, case: Option<i32> },
    /// Into the handler of exception-table entry `handler`.
    Handler { handler: u32 },
}

/// Nesting limit of branchy-negation patterns inside one method (javac nests one per `!`).
const MAX_NESTING: u32 = 8;

impl<'a> MethodCtx<'a> {
    /// The context of `m`; `None` when it has no decodable code.
    pub fn new(db: &'a ProgramDb, m: MethodId) -> Option<MethodCtx<'a>> {
        let body = db.body(m)?.ok()?;
        let cfg = db.cfg(m)?;
        let data = db.data_deps(m)?;
        let mut pred_edges = vec![Vec::new(); cfg.blocks().len()];
        for (k, e) in cfg.edges().iter().enumerate() {
            pred_edges[e.to.index()].push(k);
        }
        Some(MethodCtx { db, method: m, body, cfg, data, pred_edges })
    }

    fn insn(&self, i: InsnIdx) -> &Insn {
        &self.body.insns[i.index()]
    }

    /// Whether the invoke at `i` returns `boolean`.
    pub fn is_flag_call(&self, i: InsnIdx) -> bool {
        self.db.callees(self.method, i).is_some_and(|s| s.descriptor.ends_with(")Z"))
    }

    /// The leaves a value produced by `defs` comes from, sorted.
    pub fn leaves(&self, defs: &[StackDef]) -> Vec<Leaf> {
        let mut seen = BTreeSet::new();
        let mut res = BTreeSet::new();
        let mut work: Vec<(StackDef, bool)> = defs.iter().map(|&d| (d, false)).collect();
        while let Some((def, neg)) = work.pop() {
            if !seen.insert((def, neg)) {
                continue;
            }
            let StackDef::Insn(p) = def else {
                res.insert(Leaf::Other);
                continue;
            };
            let insn = self.insn(p);
            let op = insn.op();
            match insn {
                Insn::Invoke { .. } | Insn::InvokeInterface { .. } if self.is_flag_call(p) => {
                    res.insert(Leaf::Call { call: p, negated: neg });
                }
                Insn::Simple(Opcode::ICONST_0 | Opcode::ICONST_1) => {
                    res.insert(Leaf::Const { value: (op == Opcode::ICONST_1) ^ neg, producer: p });
                }
                Insn::Local { .. }
                    if matches!(op.local_access(), Some((bytecode::ValueKind::Int, false, _))) =>
                {
                    for d in self.data.reaching_defs(p) {
                        match d {
                            LocalDef::Store(s) if self.insn(*s).op() != Opcode::IINC => {
                                work.extend(self.data.producers(*s, 0).iter().map(|&x| (x, neg)));
                            }
                            _ => {
                                res.insert(Leaf::Other);
                            }
                        }
                    }
                }
                Insn::Simple(Opcode::IXOR) => match self.xor_operand(p) {
                    Some(k) => work.extend(self.data.producers(p, k).iter().map(|&x| (x, !neg))),
                    None => {
                        res.insert(Leaf::Other);
                    }
                },
                _ => {
                    res.insert(Leaf::Other);
                }
            }
        }
        res.into_iter().collect()
    }

    /// For `x ^ 1` (either order), the operand that is not the constant 1.
    fn xor_operand(&self, at: InsnIdx) -> Option<usize> {
        let is_one = |k: usize| {
            let defs = self.data.producers(at, k);
            !defs.is_empty() && defs.iter().all(|d| self.int_constant(*d) == Some(1))
        };
        if is_one(1) {
            Some(0)
        } else if is_one(0) {
            Some(1)
        } else {
            None
        }
    }

    /// The value of an `int` constant push (`iconst_*`, `bipush`, `sipush`).
    pub fn int_constant(&self, def: StackDef) -> Option<i32> {
        let StackDef::Insn(p) = def else { return None };
        match self.insn(p) {
            Insn::Simple(op) if (Opcode::ICONST_M1.0..=Opcode::ICONST_5.0).contains(&op.0) => {
                Some(i32::from(op.0) - i32::from(Opcode::ICONST_0.0))
            }
            Insn::Push { value, .. } => Some(i32::from(*value)),
            _ => None,
        }
    }

    /// The same constant for all of `defs`, if they are all one `int` constant.
    fn constant_of(&self, defs: &[StackDef]) -> Option<i32> {
        let first = self.int_constant(*defs.first()?)?;
        defs.iter().all(|d| self.int_constant(*d) == Some(first)).then_some(first)
    }

    /// The flag calls a value comes from, and whether it may also come from elsewhere. Constants
    /// selected by one conditional jump on a flag (javac's `!f()`) resolve to that flag.
    fn sources_nested(&self, defs: &[StackDef], nesting: u32) -> (Vec<Source>, bool) {
        let leaves = self.leaves(defs);
        let mut res = BTreeSet::new();
        let mut mixed = false;
        let consts: Vec<(bool, InsnIdx)> = leaves
            .iter()
            .filter_map(|l| match *l {
                Leaf::Const { value, producer } => Some((value, producer)),
                _ => None,
            })
            .collect();
        for l in &leaves {
            match *l {
                Leaf::Call { call, negated } => {
                    res.insert(Source { call, negated });
                }
                Leaf::Other => mixed = true,
                Leaf::Const { .. } => {}
            }
        }
        if !consts.is_empty() {
            match self.selected_by_flag(&consts, nesting) {
                Some((srcs, m)) => {
                    res.extend(srcs);
                    mixed |= m;
                }
                None => mixed = true,
            }
        }
        (res.into_iter().collect(), mixed)
    }

    /// Constants each reached from one outcome of a single conditional jump, with different values
    /// on the two outcomes: the value is then that jump's flag, possibly negated.
    fn selected_by_flag(&self, consts: &[(bool, InsnIdx)], nesting: u32) -> Option<(Vec<Source>, bool)> {
        if nesting >= MAX_NESTING {
            return None;
        }
        let mut jump = None;
        let mut on_taken = None;
        let mut sides = [false; 2];
        for &(value, producer) in consts {
            let [Via::Branch { insn, taken }] = self.last_branches(producer)[..] else { return None };
            if jump.is_some_and(|j| j != insn) {
                return None;
            }
            jump = Some(insn);
            sides[usize::from(taken)] = true;
            let v = if taken { Some(value) } else { Some(!value) };
            if on_taken.is_some_and(|t| Some(t) != v) {
                return None;
            }
            on_taken = v;
        }
        if sides != [true, true] {
            return None;
        }
        let (jump, on_taken) = (jump?, on_taken?);
        let (flags, mixed) = self.branch_flags_nested(jump, nesting + 1);
        let srcs = flags
            .into_iter()
            .map(|(s, taken_needs)| Source { call: s.call, negated: on_taken != taken_needs })
            .collect();
        Some((srcs, mixed))
    }

    /// The flag sources of the conditional jump at `at`, each with the flag value (the call's
    /// result) under which the jump is taken; and whether its operand may also come from
    /// elsewhere. Empty for jumps whose outcome does not depend on a flag.
    pub fn branch_flags(&self, at: InsnIdx) -> (Vec<(Source, bool)>, bool) {
        self.branch_flags_nested(at, 0)
    }

    fn branch_flags_nested(&self, at: InsnIdx, nesting: u32) -> (Vec<(Source, bool)>, bool) {
        let op = self.insn(at).op();
        let (operand, cond): (usize, Box<dyn Fn(i32) -> bool>) = match op.0 {
            0x99..=0x9e => (0, Box::new(move |v| int_cond(op, v, 0))),
            0x9f..=0xa4 => {
                if let Some(c) = self.constant_of(self.data.producers(at, 1)) {
                    (0, Box::new(move |v| int_cond(op, v, c)))
                } else if let Some(c) = self.constant_of(self.data.producers(at, 0)) {
                    (1, Box::new(move |v| int_cond(op, c, v)))
                } else {
                    return (Vec::new(), false);
                }
            }
            _ => return (Vec::new(), false),
        };
        let (srcs, mixed) = self.sources_nested(self.data.producers(at, operand), nesting);
        let res = srcs
            .into_iter()
            .filter_map(|s| {
                let taken = |flag: bool| cond(i32::from(flag ^ s.negated));
                (taken(true) != taken(false)).then(|| (s, taken(true)))
            })
            .collect();
        (res, mixed)
    }

    /// The last decisions before `at`: walking back from its block over unconditional edges, the
    /// conditional, switch and exceptional edges met first (and `Entry` when the entry is reached
    /// without one). Sorted.
    pub fn last_branches(&self, at: InsnIdx) -> Vec<Via> {
        let start = self.cfg.block_of(at);
        let mut seen = BTreeSet::from([start]);
        let mut work = vec![start];
        let mut res = BTreeSet::new();
        while let Some(b) = work.pop() {
            if b.index() == 0 {
                res.insert(Via::Entry);
            }
            for &k in &self.pred_edges[b.index()] {
                let e = self.cfg.edges()[k];
                let last = InsnIdx::new(self.cfg.block(e.from).end.index() - 1);
                if !self.data.is_reachable(last) {
                    continue;
                }
                let via = match e.kind {
                    EdgeKind::Taken => Via::Branch { insn: last, taken: true },
                    EdgeKind::NotTaken => Via::Branch { insn: last, taken: false },
                    EdgeKind::Case(key) => Via::Switch { insn: last, case: Some(key) },
                    EdgeKind::Default => Via::Switch { insn: last, case: None },
                    EdgeKind::Exception { handler } => Via::Handler { handler },
                    EdgeKind::Fallthrough | EdgeKind::Jump | EdgeKind::Jsr | EdgeKind::Ret => {
                        if seen.insert(e.from) {
                            work.push(e.from);
                        }
                        continue;
                    }
                };
                res.insert(via);
            }
        }
        res.into_iter().collect()
    }
}

/// The condition of `if<cond>` / `if_icmp<cond>` on `a` and `b` (for `if<cond>`, `b` is 0).
fn int_cond(op: Opcode, a: i32, b: i32) -> bool {
    match op.0 {
        0x99 | 0x9f => a == b,
        0x9a | 0xa0 => a != b,
        0x9b | 0xa1 => a < b,
        0x9c | 0xa2 => a >= b,
        0x9d | 0xa3 => a > b,
        _ => a <= b,
    }
}
