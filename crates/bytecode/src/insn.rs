//! Decoded instructions (JVMS §6.5) with branch targets as instruction indices, not byte offsets.
//! Each `Insn` keeps the encoding choice of the original (`iload_0` vs `iload 0` vs
//! `wide iload 0`, `ldc` vs `ldc_w`, `goto` vs `goto_w`) so that an unchanged method encodes
//! back byte-identically; the constructors below pick the shortest form for new code.

use std::fmt;

use crate::opcode::{Opcode, ValueKind};

/// The position of an instruction in `MethodBody::insns`. `InsnIdx(insns.len())` is a valid
/// *end* position (exclusive ends of handler ranges and local-variable scopes).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct InsnIdx(pub u32);

impl InsnIdx {
    /// The index as a `usize`, for indexing `insns`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Builds an index from a `usize` position (positions fit `u32`: code is at most 65535 bytes).
    pub fn new(i: usize) -> InsnIdx {
        InsnIdx(i as u32)
    }
}

impl fmt::Debug for InsnIdx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}", self.0)
    }
}

impl fmt::Display for InsnIdx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One instruction. Variants group opcodes by operand format; `op` says which opcode.
/// Constant-pool operands are raw `u16` indices into the class's constant pool.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub enum Insn {
    /// Any opcode without operand bytes (`nop`, `iconst_<i>`, `iaload`, `dup`, `iadd`, `lcmp`,
    /// `ireturn`, `arraylength`, `athrow`, `monitorenter`, ...). The `xload_<n>`/`xstore_<n>`
    /// forms are `Local`, not `Simple`.
    Simple(Opcode),
    /// `bipush` (value in `i8` range) or `sipush`.
    Push { op: Opcode, value: i16 },
    /// `ldc`, `ldc_w` or `ldc2_w`. An `ldc` whose index exceeds 255 is encoded as `ldc_w`.
    Ldc { op: Opcode, index: u16 },
    /// `xload`/`xstore` in any of its three forms, and `ret`. `op` is the opcode as written:
    /// `iload_2` gives `op: ILOAD_2, var: 2`; `wide iload 2` gives `op: ILOAD, var: 2, wide: true`.
    /// A general form with `var > 255` is encoded with `wide`.
    Local { op: Opcode, var: u16, wide: bool },
    /// `iinc` (JVMS §6.5.iinc); encoded with `wide` when asked or when the operands need it.
    Iinc { var: u16, delta: i16, wide: bool },
    /// `if<cond>`, `if_icmp<cond>`, `if_acmp<cond>`, `ifnull`, `ifnonnull`, `goto`, `goto_w`,
    /// `jsr`, `jsr_w`.
    Branch { op: Opcode, target: InsnIdx },
    /// `tableswitch`: `targets[k]` is taken for key `low + k`; `high = low + targets.len() - 1`.
    TableSwitch { default: InsnIdx, low: i32, targets: Vec<InsnIdx> },
    /// `lookupswitch`, pairs in file order (sorted by key in valid code).
    LookupSwitch { default: InsnIdx, pairs: Vec<(i32, InsnIdx)> },
    /// `getstatic`, `putstatic`, `getfield`, `putfield`.
    Field { op: Opcode, index: u16 },
    /// `invokevirtual`, `invokespecial`, `invokestatic`.
    Invoke { op: Opcode, index: u16 },
    /// `invokeinterface` with its historical argument-slot count byte (the fourth byte is 0).
    InvokeInterface { index: u16, count: u8 },
    /// `invokedynamic` (the two trailing bytes are 0).
    InvokeDynamic { index: u16 },
    /// `new`, `anewarray`, `checkcast`, `instanceof`.
    Type { op: Opcode, index: u16 },
    /// `newarray` with its primitive array type code (JVMS table 6.5.newarray-A).
    NewArray { atype: u8 },
    /// `multianewarray`.
    MultiANewArray { index: u16, dims: u8 },
}

impl Insn {
    /// The opcode (for `wide` forms: the modified opcode, never `wide` itself).
    pub fn op(&self) -> Opcode {
        match self {
            Insn::Simple(op)
            | Insn::Push { op, .. }
            | Insn::Ldc { op, .. }
            | Insn::Local { op, .. }
            | Insn::Branch { op, .. }
            | Insn::Field { op, .. }
            | Insn::Invoke { op, .. }
            | Insn::Type { op, .. } => *op,
            Insn::Iinc { .. } => Opcode::IINC,
            Insn::TableSwitch { .. } => Opcode::TABLESWITCH,
            Insn::LookupSwitch { .. } => Opcode::LOOKUPSWITCH,
            Insn::InvokeInterface { .. } => Opcode::INVOKEINTERFACE,
            Insn::InvokeDynamic { .. } => Opcode::INVOKEDYNAMIC,
            Insn::NewArray { .. } => Opcode::NEWARRAY,
            Insn::MultiANewArray { .. } => Opcode::MULTIANEWARRAY,
        }
    }

    /// Every explicit control-transfer target, in operand order (for switches: default first).
    /// The fall-through successor is not included; see `falls_through`.
    pub fn targets(&self) -> Targets<'_> {
        match self {
            Insn::Branch { target, .. } => Targets { first: Some(*target), table: &[], pairs: &[] },
            Insn::TableSwitch { default, targets, .. } => {
                Targets { first: Some(*default), table: targets, pairs: &[] }
            }
            Insn::LookupSwitch { default, pairs, .. } => Targets { first: Some(*default), table: &[], pairs },
            _ => Targets { first: None, table: &[], pairs: &[] },
        }
    }

    /// Applies `f` to every target in place (relocation, decoding byte offsets to indices).
    pub fn map_targets(&mut self, mut f: impl FnMut(InsnIdx) -> InsnIdx) {
        match self {
            Insn::Branch { target, .. } => *target = f(*target),
            Insn::TableSwitch { default, targets, .. } => {
                *default = f(*default);
                for t in targets {
                    *t = f(*t);
                }
            }
            Insn::LookupSwitch { default, pairs, .. } => {
                *default = f(*default);
                for (_, t) in pairs {
                    *t = f(*t);
                }
            }
            _ => {}
        }
    }

    /// Jumps, conditional jumps, `jsr` and switches: anything with a target.
    pub fn is_branch(&self) -> bool {
        matches!(self, Insn::Branch { .. } | Insn::TableSwitch { .. } | Insn::LookupSwitch { .. })
    }

    /// Conditional jumps (two successors: target and fall-through).
    pub fn is_conditional(&self) -> bool {
        self.op().is_conditional_branch()
    }

    /// `tableswitch` or `lookupswitch`.
    pub fn is_switch(&self) -> bool {
        matches!(self, Insn::TableSwitch { .. } | Insn::LookupSwitch { .. })
    }

    /// A switch's cases: its (key, target) pairs whose target is not the default (keys javac fills
    /// in for the gaps of a `tableswitch` go to the default and are not cases), sorted by key, one
    /// per key (the first in file order). Empty for anything but a switch.
    pub fn switch_cases(&self) -> Vec<(i32, InsnIdx)> {
        let mut pairs: Vec<(i32, InsnIdx)> = match self {
            // Keys by offset from `low` (a range `low..` would overflow past `i32::MAX`).
            Insn::TableSwitch { default, low, targets } => targets
                .iter()
                .enumerate()
                .filter(|(_, t)| *t != default)
                .map(|(k, t)| (low.wrapping_add(k as i32), *t))
                .collect(),
            Insn::LookupSwitch { default, pairs } => {
                pairs.iter().filter(|(_, t)| t != default).copied().collect()
            }
            _ => Vec::new(),
        };
        pairs.sort_by_key(|&(k, _)| k);
        pairs.dedup_by_key(|&mut (k, _)| k);
        pairs
    }

    /// `ireturn` .. `return`.
    pub fn is_return(&self) -> bool {
        self.op().is_return()
    }

    /// `athrow`.
    pub fn is_throw(&self) -> bool {
        self.op() == Opcode::ATHROW
    }

    /// Whether control can continue with the next instruction. False after `goto`, switches,
    /// returns, `athrow` and `ret`. `jsr` counts as falling through: like a call, the subroutine's
    /// `ret` comes back to the next instruction (JVMS §4.10.2.5), and a CFG that ignored that
    /// edge would lose the code after it.
    pub fn falls_through(&self) -> bool {
        let op = self.op();
        !(op.is_goto() || self.is_switch() || op.is_return() || op == Opcode::ATHROW || op == Opcode::RET)
    }

    /// The local-variable slot read or written by `xload`, `xstore`, `iinc` or `ret`.
    pub fn local_var(&self) -> Option<u16> {
        match self {
            Insn::Local { var, .. } | Insn::Iinc { var, .. } => Some(*var),
            _ => None,
        }
    }

    // ----- Constructors for new code (shortest encodings). -----

    /// An instruction without operands, e.g. `Insn::simple(Opcode::DUP)`.
    pub fn simple(op: Opcode) -> Insn {
        Insn::Simple(op)
    }

    /// `invokestatic #index` (a `Methodref` or, from version 52, an `InterfaceMethodref`).
    pub fn invokestatic(index: u16) -> Insn {
        Insn::Invoke { op: Opcode::INVOKESTATIC, index }
    }

    /// Pushes an `int` constant with `iconst_<i>`, `bipush` or `sipush`; `None` when the value
    /// needs the constant pool (use `Insn::ldc` with an interned `Integer`).
    pub fn push_int(value: i32) -> Option<Insn> {
        match value {
            -1..=5 => Some(Insn::Simple(Opcode((Opcode::ICONST_0.0 as i32 + value) as u8))),
            -128..=127 => Some(Insn::Push { op: Opcode::BIPUSH, value: value as i16 }),
            -32768..=32767 => Some(Insn::Push { op: Opcode::SIPUSH, value: value as i16 }),
            _ => None,
        }
    }

    /// `ldc` or `ldc_w` of a one-slot constant, whichever the index needs.
    pub fn ldc(index: u16) -> Insn {
        let op = if index <= 255 { Opcode::LDC } else { Opcode::LDC_W };
        Insn::Ldc { op, index }
    }

    /// `xload` of a local in its shortest form.
    pub fn load(kind: ValueKind, var: u16) -> Insn {
        match u8::try_from(var).ok().and_then(|n| Opcode::load_n(kind, n)) {
            Some(op) => Insn::Local { op, var, wide: false },
            None => Insn::Local { op: Opcode::load(kind), var, wide: var > 255 },
        }
    }

    /// `xstore` to a local in its shortest form.
    pub fn store(kind: ValueKind, var: u16) -> Insn {
        match u8::try_from(var).ok().and_then(|n| Opcode::store_n(kind, n)) {
            Some(op) => Insn::Local { op, var, wide: false },
            None => Insn::Local { op: Opcode::store(kind), var, wide: var > 255 },
        }
    }
}

/// Iterator over the targets of one instruction (see `Insn::targets`).
#[derive(Clone, Debug)]
pub struct Targets<'a> {
    first: Option<InsnIdx>,
    table: &'a [InsnIdx],
    pairs: &'a [(i32, InsnIdx)],
}

impl Iterator for Targets<'_> {
    type Item = InsnIdx;

    fn next(&mut self) -> Option<InsnIdx> {
        if let Some(t) = self.first.take() {
            return Some(t);
        }
        if let Some((t, rest)) = self.table.split_first() {
            self.table = rest;
            return Some(*t);
        }
        if let Some(((_, t), rest)) = self.pairs.split_first() {
            self.pairs = rest;
            return Some(*t);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_pick_short_forms() {
        assert_eq!(Insn::push_int(-1), Some(Insn::Simple(Opcode::ICONST_M1)));
        assert_eq!(Insn::push_int(5), Some(Insn::Simple(Opcode::ICONST_5)));
        assert_eq!(Insn::push_int(6), Some(Insn::Push { op: Opcode::BIPUSH, value: 6 }));
        assert_eq!(Insn::push_int(-129), Some(Insn::Push { op: Opcode::SIPUSH, value: -129 }));
        assert_eq!(Insn::push_int(40000), None);
        assert_eq!(Insn::load(ValueKind::Int, 3), Insn::Local { op: Opcode::ILOAD_3, var: 3, wide: false });
        assert_eq!(Insn::load(ValueKind::Long, 4), Insn::Local { op: Opcode::LLOAD, var: 4, wide: false });
        assert_eq!(
            Insn::store(ValueKind::Reference, 300),
            Insn::Local { op: Opcode::ASTORE, var: 300, wide: true }
        );
        assert_eq!(Insn::ldc(256).op(), Opcode::LDC_W);
    }

    #[test]
    fn switch_cases_drop_the_default_and_sort_by_key() {
        let t = |i| InsnIdx::new(i);
        let table = Insn::TableSwitch { default: t(9), low: i32::MAX - 2, targets: vec![t(4), t(9), t(6)] };
        assert_eq!(table.switch_cases(), vec![(i32::MAX - 2, t(4)), (i32::MAX, t(6))]);
        let lookup = Insn::LookupSwitch { default: t(9), pairs: vec![(117, t(3)), (97, t(3)), (5, t(9))] };
        assert_eq!(lookup.switch_cases(), vec![(97, t(3)), (117, t(3))]);
        assert!(Insn::Simple(Opcode::NOP).switch_cases().is_empty());
    }

    #[test]
    fn targets_and_flow() {
        let sw = Insn::LookupSwitch { default: InsnIdx(9), pairs: vec![(1, InsnIdx(3)), (7, InsnIdx(5))] };
        assert_eq!(sw.targets().collect::<Vec<_>>(), vec![InsnIdx(9), InsnIdx(3), InsnIdx(5)]);
        assert!(!sw.falls_through());
        let jsr = Insn::Branch { op: Opcode::JSR, target: InsnIdx(1) };
        assert!(jsr.falls_through() && jsr.is_branch() && !jsr.is_conditional());
        assert!(!Insn::Simple(Opcode::ATHROW).falls_through());
        assert!(Insn::Simple(Opcode::ARETURN).is_return());
    }
}
