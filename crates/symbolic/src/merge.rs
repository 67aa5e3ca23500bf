//! Path merging at javac's constant-push diamonds. `boolean b = x > 10;` and `int k = c ? 29 : 31;`
//! compile to a conditional jump whose two arms each push one int constant and meet:
//!
//! ```text
//! i:   if_icmple T      (any conditional jump)
//! i+1: iconst_1         (the fall-through arm: one constant, then goto the join)
//! i+2: goto J
//! T:   iconst_0         (the taken arm: one constant, falling into the join)
//! J:   istore_2         (J = T + 1)
//! ```
//!
//! When the jump's condition `c` (of the jump being taken) is symbolic, the value at the join is
//! `ite(c, taken constant, fall-through constant)` (`BoolToBv(c)` or `BoolToBv(!c)` for the 1/0
//! pairs, so that a later `ifeq` states `c` itself) instead of the constant of the arm the run
//! took. This is state merging at a side-effect-free diamond, the construction of
//! symbolic-execution state merging (Kuznetsov, Kinder, Bucur, Candea, "Efficient state merging in
//! symbolic execution", PLDI 2012: the two states after the arms differ only in one stack value,
//! which becomes an `ite` of the branch condition, and the merged state's path condition is the
//! disjunction of the two, here `c ∨ ¬c`, so the jump's condition leaves it).
//!
//! Where it deviates: it is concolic, not a merge of two explored states. The run still follows
//! its concrete arm (every instruction runs, the concrete values are the same as without merging);
//! only the shadow of the value at the join changes. The jump is still recorded as a `Branch` entry
//! with its goals, so DSE can negate it to reach its own arms, but with `PcEntry::merged` set: the
//! entry is a target only, and no later query carries it in its prefix (`Replay::prefix`), since
//! the later path depends on it only through the `ite`, which states both sides. Only the pure shape
//! above is merged (arms of exactly `iconst_*`/`bipush`/`sipush`, and a `goto` in the first,
//! checked on the decoded instructions); anything else in an arm (a load, a call, a second jump)
//! leaves the jump as it was. Exploration mode (`Concolic::explore`) does not merge: its clauses
//! have no `ite`, and it forks on every recorded entry.

use bytecode::{Insn, Opcode};
use solver::{ExprId, Op, Value};

use crate::interp::{Frame, Machine};
use crate::value::{C, Slot};

/// A merge pending in a frame: at instruction `join`, with `depth` values on the operand stack,
/// the top value (the arm's constant, `concrete`) gets the shadow `value`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Merge {
    pub join: usize,
    pub depth: usize,
    pub concrete: i32,
    pub value: ExprId,
}

/// The int constant an instruction pushes, if it is `iconst_m1`..`iconst_5`, `bipush` or `sipush`.
fn int_push(insn: &Insn) -> Option<i32> {
    match insn {
        Insn::Simple(op) if (0x02..=0x08).contains(&op.0) => Some(i32::from(op.0) - 3),
        Insn::Push { op, value } if *op == Opcode::BIPUSH || *op == Opcode::SIPUSH => Some(i32::from(*value)),
        _ => None,
    }
}

/// The diamond of the conditional jump at `at` to `target`, if it has the shape of the module's
/// doc: (the taken arm's constant, the fall-through arm's constant, the join).
pub(crate) fn diamond(insns: &[Insn], at: usize, target: usize) -> Option<(i32, i32, usize)> {
    let fall = int_push(insns.get(at + 1)?)?;
    let Insn::Branch { op, target: join } = insns.get(at + 2)? else { return None };
    let join = join.index();
    if !op.is_goto() || target <= at + 2 || join != target + 1 {
        return None;
    }
    let taken = int_push(insns.get(target)?)?;
    Some((taken, fall, join))
}

impl<'a> Machine<'a, '_> {
    /// Sets up the merge of the jump at `f.pc` to `target` when it is a diamond whose condition
    /// `sym` (of the jump being taken) is symbolic; whether it did (the jump's entry is then
    /// `merged`). The operands are already popped.
    pub(crate) fn merge_diamond(
        &mut self,
        f: &mut Frame<'a>,
        target: usize,
        taken: bool,
        sym: ExprId,
    ) -> bool {
        if self.lazy.is_some() || self.arena.as_const(sym).is_some() {
            return false;
        }
        let Some((k_taken, k_fall)) = diamond(&f.body.insns, f.pc, target).map(|(t, e, _)| (t, e)) else {
            return false;
        };
        let value = match (k_taken, k_fall) {
            (1, 0) | (0, 1) => {
                let b = if k_taken == 1 { sym } else { self.arena.mk(Op::Not, &[sym]) };
                let v = self.arena.mk(Op::BoolToBv, &[b]);
                self.bools.insert(v, b);
                v
            }
            _ => {
                let (t, e) = (self.arena.konst(Value::i32(k_taken)), self.arena.konst(Value::i32(k_fall)));
                self.arena.mk(Op::Ite, &[sym, t, e])
            }
        };
        let join = target + 1;
        let concrete = if taken { k_taken } else { k_fall };
        f.merge = Some(Merge { join, depth: f.stack.len() + 1, concrete, value });
        true
    }
}

impl Frame<'_> {
    /// At the join of a pending merge, gives the arm's value its merged shadow (see the module's
    /// doc); called before each instruction.
    pub(crate) fn join_merge(&mut self) {
        let Some(m) = self.merge else { return };
        if self.pc != m.join {
            return;
        }
        self.merge = None;
        if self.stack.len() == m.depth
            && let Some(top) = self.stack.last_mut()
            && top.c == C::I(m.concrete)
            && top.s.is_none()
        {
            *top = Slot { c: top.c, s: Some(m.value) };
        }
    }
}
