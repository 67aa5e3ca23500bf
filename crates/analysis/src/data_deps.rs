//! Data dependence of one method: which instruction produced each operand an instruction pops
//! (operand-stack producer -> consumer edges) and which definitions of a local variable reach
//! each instruction that reads it (reaching definitions). Both come from one forward abstract
//! interpretation over the CFG (the classic iterative data-flow scheme; Aho, Lam, Sethi and
//! Ullman, *Compilers*, §9.2): the abstract stack holds, per word, the set of instructions that
//! may have pushed it; the abstract locals hold, per slot, the set of definitions that may reach.
//! Sets are unioned at merge points, so a value merged from `iconst_1` on one path and `iconst_0`
//! on the other (javac's lowering of `return a < b;`) has both as producers.
//!
//! `dup*`, `swap`, `pop` and `pop2` are transparent: they move words without producing values, so
//! the producer of a duplicated value is the instruction that pushed the original, and they have
//! no operands of their own here. A `long` or `double` is two words (JVMS §4.10.1.7), which makes
//! every shuffle a plain word permutation. Operands are numbered from the deepest, as JVMS names
//! them (`value1`, `value2`; the receiver of an instance call is operand 0). At a handler's entry
//! the stack is the caught exception alone, and the locals are those of any point of the
//! protected blocks (a conservative union). At method entry every slot holds its entry value
//! (`LocalDef::Entry`: a parameter or `this`; verified code never reads another slot first).
//!
//! Code that is unreachable from the entry is not interpreted: its instructions have no
//! operands and no reaching definitions. Analyses of verified code cannot fail; a malformed stack
//! (underflow) yields empty producer sets rather than a panic.

use std::collections::BTreeSet;

use bytecode::{Insn, InsnIdx, MethodBody};
use classfile::ConstantPool;

use crate::cfg::{BlockId, Cfg, EdgeKind};
use crate::stack_effect::{Effect, effect};

/// Who pushed a value onto the operand stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StackDef {
    /// The instruction that produced it (never a `dup*`/`swap`: those are transparent).
    Insn(InsnIdx),
    /// The exception caught by exception-table entry `handler`, on the stack at its entry.
    CaughtException { handler: u32 },
}

/// A definition of a local variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LocalDef {
    /// The value the slot holds at method entry (a parameter or `this`).
    Entry { var: u16 },
    /// An `xstore` or `iinc`.
    Store(InsnIdx),
}

/// One use of a pushed value: operand `operand` of instruction `insn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Use {
    pub insn: InsnIdx,
    pub operand: u16,
}

/// The data dependences of one method body. See the module comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDeps {
    /// Per instruction, per operand (deepest first), the producers, sorted.
    operands: Vec<Vec<Box<[StackDef]>>>,
    /// Per instruction that reads a local (`xload`, `iinc`, `ret`), the definitions reaching it.
    reaching: Vec<Box<[LocalDef]>>,
    /// Per instruction, the uses of the value it pushes, sorted.
    consumers: Vec<Vec<Use>>,
    /// Per instruction that defines a local (`xstore`, `iinc`), the reads it reaches, sorted.
    local_uses: Vec<Vec<InsnIdx>>,
    reachable: Vec<bool>,
}

type Defs<T> = Vec<T>;

/// One word of the abstract operand stack (both words of a `long`/`double` carry its producers).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Word {
    defs: Defs<StackDef>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    stack: Vec<Word>,
    locals: Vec<Defs<LocalDef>>,
}

/// Sorted union of `b` into `a`; true when `a` grew.
fn union_into<T: Ord + Copy>(a: &mut Vec<T>, b: &[T]) -> bool {
    let before = a.len();
    a.extend_from_slice(b);
    a.sort_unstable();
    a.dedup();
    a.len() != before
}

impl State {
    /// Merges `other` into `self`; true when anything grew. Stack heights agree in verified code;
    /// extra words of a taller stack are ignored.
    fn merge(&mut self, other: &State) -> bool {
        let mut changed = false;
        for (w, o) in self.stack.iter_mut().zip(&other.stack) {
            changed |= union_into(&mut w.defs, &o.defs);
        }
        for (l, o) in self.locals.iter_mut().zip(&other.locals) {
            changed |= union_into(l, o);
        }
        changed
    }

    fn pop_words(&mut self, n: usize) -> Vec<Word> {
        let at = self.stack.len().saturating_sub(n);
        let mut res = self.stack.split_off(at);
        while res.len() < n {
            res.insert(0, Word { defs: Vec::new() });
        }
        res
    }
}

/// What the recording pass collects, per instruction.
struct Recorder {
    operands: Vec<Vec<Box<[StackDef]>>>,
    reaching: Vec<Box<[LocalDef]>>,
}

impl DataDeps {
    /// Computes the data dependences of `body` (whose CFG is `cfg`; `cp` is its class's constant
    /// pool, for the sizes of invoke, field and `ldc` values).
    pub fn compute(body: &MethodBody, cfg: &Cfg, cp: &ConstantPool) -> DataDeps {
        let n = body.insns.len();
        let n_blocks = cfg.blocks().len();
        let mut in_states: Vec<Option<State>> = vec![None; n_blocks];
        if n_blocks > 0 {
            let locals = (0..body.max_locals).map(|var| vec![LocalDef::Entry { var }]).collect();
            in_states[0] = Some(State { stack: Vec::new(), locals });
        }
        let mut work: BTreeSet<usize> = BTreeSet::new();
        if n_blocks > 0 {
            work.insert(0);
        }
        while let Some(b) = work.pop_first() {
            let Some(state) = in_states[b].clone() else { continue };
            let (out, exc_locals) = run_block(body, cfg, BlockId(b as u32), state, cp, None);
            for &e in cfg.succ_edges(BlockId(b as u32)) {
                let edge = cfg.edge(e);
                let next = match edge.kind {
                    EdgeKind::Exception { handler } => State {
                        stack: vec![Word { defs: vec![StackDef::CaughtException { handler }] }],
                        locals: exc_locals.clone(),
                    },
                    _ => out.clone(),
                };
                let t = edge.to.index();
                let changed = match &mut in_states[t] {
                    Some(s) => s.merge(&next),
                    slot @ None => {
                        *slot = Some(next);
                        true
                    }
                };
                if changed {
                    work.insert(t);
                }
            }
        }
        let mut rec = Recorder { operands: vec![Vec::new(); n], reaching: vec![Box::default(); n] };
        let mut reachable = vec![false; n];
        for b in cfg.block_ids() {
            let Some(state) = in_states[b.index()].clone() else { continue };
            let block = cfg.block(b);
            reachable[block.start.index()..block.end.index()].iter_mut().for_each(|r| *r = true);
            run_block(body, cfg, b, state, cp, Some(&mut rec));
        }
        DataDeps::finish(rec, reachable)
    }

    /// The same analysis without blocks, instruction by instruction (each instruction its own
    /// node, exceptional edges from every instruction of a protected range carrying the locals
    /// before and after it): the simple reference `compute` is cross-checked against
    /// (STYLE.md rule 7).
    pub fn compute_reference(body: &MethodBody, cp: &ConstantPool) -> DataDeps {
        let n = body.insns.len();
        let mut in_states: Vec<Option<State>> = vec![None; n];
        let mut work: BTreeSet<usize> = BTreeSet::new();
        if n > 0 {
            let locals = (0..body.max_locals).map(|var| vec![LocalDef::Entry { var }]).collect();
            in_states[0] = Some(State { stack: Vec::new(), locals });
            work.insert(0);
        }
        let after_jsr: Vec<usize> =
            (0..n).filter(|&i| body.insns[i].op().is_jsr() && i + 1 < n).map(|i| i + 1).collect();
        while let Some(i) = work.pop_first() {
            let Some(before) = in_states[i].clone() else { continue };
            let mut after = before.clone();
            step(InsnIdx::new(i), &body.insns[i], &mut after, cp, None);
            let mut next: Vec<(usize, State)> = Vec::new();
            let insn = &body.insns[i];
            // A `jsr` continues at the next instruction only through its subroutine's `ret`.
            if insn.falls_through() && !insn.op().is_jsr() && i + 1 < n {
                next.push((i + 1, after.clone()));
            }
            next.extend(insn.targets().filter(|t| t.index() < n).map(|t| (t.index(), after.clone())));
            if insn.op() == bytecode::Opcode::RET {
                next.extend(after_jsr.iter().map(|&r| (r, after.clone())));
            }
            for (k, h) in body.handlers.iter().enumerate() {
                if h.start.index() <= i && i < h.end.index() && h.handler.index() < n {
                    let mut locals = before.locals.clone();
                    for (l, o) in locals.iter_mut().zip(&after.locals) {
                        union_into(l, o);
                    }
                    let stack = vec![Word { defs: vec![StackDef::CaughtException { handler: k as u32 }] }];
                    next.push((h.handler.index(), State { stack, locals }));
                }
            }
            for (t, state) in next {
                let changed = match &mut in_states[t] {
                    Some(s) => s.merge(&state),
                    slot @ None => {
                        *slot = Some(state);
                        true
                    }
                };
                if changed {
                    work.insert(t);
                }
            }
        }
        let mut rec = Recorder { operands: vec![Vec::new(); n], reaching: vec![Box::default(); n] };
        let reachable: Vec<bool> = in_states.iter().map(Option::is_some).collect();
        for (i, state) in in_states.into_iter().enumerate() {
            if let Some(mut state) = state {
                step(InsnIdx::new(i), &body.insns[i], &mut state, cp, Some(&mut rec));
            }
        }
        DataDeps::finish(rec, reachable)
    }

    /// The inverse maps of what the recording pass collected.
    fn finish(rec: Recorder, reachable: Vec<bool>) -> DataDeps {
        let n = reachable.len();
        let mut consumers = vec![Vec::new(); n];
        let mut local_uses = vec![Vec::new(); n];
        for (i, ops) in rec.operands.iter().enumerate() {
            for (k, defs) in ops.iter().enumerate() {
                for d in defs.iter() {
                    if let StackDef::Insn(p) = d {
                        consumers[p.index()].push(Use { insn: InsnIdx::new(i), operand: k as u16 });
                    }
                }
            }
        }
        for (i, defs) in rec.reaching.iter().enumerate() {
            for d in defs.iter() {
                if let LocalDef::Store(s) = d {
                    local_uses[s.index()].push(InsnIdx::new(i));
                }
            }
        }
        DataDeps { operands: rec.operands, reaching: rec.reaching, consumers, local_uses, reachable }
    }

    /// The producers of each operand of `i`, deepest operand first. Empty for instructions
    /// without operands, for `dup*`/`swap`/`pop*` and for unreachable code.
    pub fn operands(&self, i: InsnIdx) -> &[Box<[StackDef]>] {
        &self.operands[i.index()]
    }

    /// The producers of operand `k` (deepest first) of `i`; empty when `i` has no such operand.
    pub fn producers(&self, i: InsnIdx, k: usize) -> &[StackDef] {
        self.operands[i.index()].get(k).map_or(&[], |d| d)
    }

    /// The definitions of its local that reach `i`, when `i` reads one (`xload`, `iinc`, `ret`).
    pub fn reaching_defs(&self, i: InsnIdx) -> &[LocalDef] {
        &self.reaching[i.index()]
    }

    /// The uses of the value `i` pushes (through any `dup*`/`swap`).
    pub fn consumers(&self, i: InsnIdx) -> &[Use] {
        &self.consumers[i.index()]
    }

    /// The reads of a local that the definition at `i` (`xstore`, `iinc`) reaches.
    pub fn local_uses(&self, i: InsnIdx) -> &[InsnIdx] {
        &self.local_uses[i.index()]
    }

    /// Whether `i` is reachable from the method's entry (by normal or exceptional edges).
    pub fn is_reachable(&self, i: InsnIdx) -> bool {
        self.reachable[i.index()]
    }
}

/// Interprets block `b` from `state`. Returns the state at its end and the union of the locals at
/// every point of it (what a handler of the block may see). With a recorder, records operands and
/// reaching definitions.
fn run_block(
    body: &MethodBody,
    cfg: &Cfg,
    b: BlockId,
    mut state: State,
    cp: &ConstantPool,
    mut rec: Option<&mut Recorder>,
) -> (State, Vec<Defs<LocalDef>>) {
    let block = cfg.block(b);
    let mut exc_locals = state.locals.clone();
    for i in block.start.index()..block.end.index() {
        let at = InsnIdx::new(i);
        step(at, &body.insns[i], &mut state, cp, rec.as_deref_mut());
        for (l, o) in exc_locals.iter_mut().zip(&state.locals) {
            union_into(l, o);
        }
    }
    (state, exc_locals)
}

/// One instruction's effect on the abstract state.
fn step(at: InsnIdx, insn: &Insn, state: &mut State, cp: &ConstantPool, mut rec: Option<&mut Recorder>) {
    let mut reads_local = None;
    match effect(insn, cp) {
        Effect::Shuffle { pop, push } => {
            let words = state.pop_words(pop);
            state.stack.extend(push.iter().map(|&k| words[k].clone()));
        }
        Effect::Value { pops, push } => {
            let total: usize = pops.iter().map(|&s| s as usize).sum();
            let words = state.pop_words(total);
            let mut operands = Vec::with_capacity(pops.len());
            let mut w = 0;
            for &size in &pops {
                operands.push(words[w].defs.clone().into_boxed_slice());
                w += size as usize;
            }
            if let Some(size) = push {
                let defs = vec![StackDef::Insn(at)];
                for _ in 0..size {
                    state.stack.push(Word { defs: defs.clone() });
                }
            }
            if let Some(r) = rec.as_deref_mut() {
                r.operands[at.index()] = operands;
            }
            reads_local = local_effect(insn, at, state);
        }
    }
    if let (Some(defs), Some(r)) = (reads_local, rec) {
        r.reaching[at.index()] = defs.into_boxed_slice();
    }
}

/// Applies the local-variable part of `insn` (a store defines its slot; a `long`/`double` store
/// also clobbers the next one). Returns the definitions read, for loads, `iinc` and `ret`.
fn local_effect(insn: &Insn, at: InsnIdx, state: &mut State) -> Option<Defs<LocalDef>> {
    let var = insn.local_var()? as usize;
    let op = insn.op();
    let read = || state.locals.get(var).cloned().unwrap_or_default();
    if op == bytecode::Opcode::IINC {
        let defs = read();
        if let Some(slot) = state.locals.get_mut(var) {
            *slot = vec![LocalDef::Store(at)];
        }
        return Some(defs);
    }
    if op == bytecode::Opcode::RET {
        return Some(read());
    }
    let (kind, store, _) = op.local_access()?;
    if !store {
        return Some(read());
    }
    if let Some(slot) = state.locals.get_mut(var) {
        *slot = vec![LocalDef::Store(at)];
    }
    if kind.slots() == 2
        && let Some(slot) = state.locals.get_mut(var + 1)
    {
        slot.clear();
    }
    None
}
