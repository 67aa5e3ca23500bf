//! What each instruction does to the operand stack (JVMS §6.5), in the slot form the verifier
//! uses (JVMS §4.10.1.7): a `long` or `double` takes two words. Ordinary instructions pop typed
//! operands and push at most one value; the stack-shuffling instructions (`pop`, `pop2`, `dup*`,
//! `swap`) are word permutations, which is exactly how JVMS defines their forms, so no value
//! categories are needed to simulate them. Sizes that depend on the constant pool (invokes,
//! fields, `ldc`) are read from it; an entry that does not resolve counts as one word, which
//! verified code never needs.

use bytecode::{Insn, Opcode};
use classfile::descriptor::{FieldType, MethodDescriptor};
use classfile::{Constant, ConstantPool};

/// The stack effect of one instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Pops operands of these sizes in words (deepest first), then pushes one value of `push`
    /// words, if any.
    Value { pops: Vec<u8>, push: Option<u8> },
    /// Pops `pop` words and pushes the popped words listed in `push` (indices from the deepest
    /// popped word), bottom first.
    Shuffle { pop: usize, push: &'static [usize] },
}

fn value(pops: &[u8], push: Option<u8>) -> Effect {
    Effect::Value { pops: pops.to_vec(), push }
}

/// Words of a value of the kind letter `i l f d a` at `k` (0..5) in the usual opcode order.
fn kind_size(k: u8) -> u8 {
    if k == 1 || k == 3 { 2 } else { 1 }
}

/// The stack effect of `insn`.
pub(crate) fn effect(insn: &Insn, cp: &ConstantPool) -> Effect {
    let op = insn.op();
    let b = op.0;
    match b {
        0x00 => value(&[], None),
        // aconst_null, iconst_m1..iconst_5, lconst, fconst, dconst, bipush, sipush.
        0x01..=0x08 | 0x0b..=0x0d | 0x10 | 0x11 => value(&[], Some(1)),
        0x09 | 0x0a | 0x0e | 0x0f => value(&[], Some(2)),
        0x12..=0x14 => value(&[], Some(ldc_size(insn, cp))),
        0x15..=0x2d | 0x36..=0x4e => {
            let (kind, store, _) = op.local_access().unwrap_or((bytecode::ValueKind::Int, false, None));
            let size = kind.slots() as u8;
            if store { value(&[size], None) } else { value(&[], Some(size)) }
        }
        // xaload: array, index -> value.
        0x2e..=0x35 => value(&[1, 1], Some(if b == 0x2f || b == 0x31 { 2 } else { 1 })),
        // xastore: array, index, value.
        0x4f..=0x56 => value(&[1, 1, if b == 0x50 || b == 0x52 { 2 } else { 1 }], None),
        0x57 => Effect::Shuffle { pop: 1, push: &[] },
        0x58 => Effect::Shuffle { pop: 2, push: &[] },
        0x59 => Effect::Shuffle { pop: 1, push: &[0, 0] },
        0x5a => Effect::Shuffle { pop: 2, push: &[1, 0, 1] },
        0x5b => Effect::Shuffle { pop: 3, push: &[2, 0, 1, 2] },
        0x5c => Effect::Shuffle { pop: 2, push: &[0, 1, 0, 1] },
        0x5d => Effect::Shuffle { pop: 3, push: &[1, 2, 0, 1, 2] },
        0x5e => Effect::Shuffle { pop: 4, push: &[2, 3, 0, 1, 2, 3] },
        0x5f => Effect::Shuffle { pop: 2, push: &[1, 0] },
        // add, sub, mul, div, rem in the order i l f d.
        0x60..=0x73 => {
            let s = kind_size((b - 0x60) % 4);
            value(&[s, s], Some(s))
        }
        0x74..=0x77 => {
            let s = kind_size(b - 0x74);
            value(&[s], Some(s))
        }
        // Shifts: value, int distance.
        0x78..=0x7d => {
            let s = if b % 2 == 1 { 2 } else { 1 };
            value(&[s, 1], Some(s))
        }
        // and, or, xor in the order i l.
        0x7e..=0x83 => {
            let s = if b % 2 == 1 { 2 } else { 1 };
            value(&[s, s], Some(s))
        }
        0x84 => value(&[], None),
        0x85..=0x93 => conversion(b),
        0x94 | 0x97 | 0x98 => value(&[2, 2], Some(1)),
        0x95 | 0x96 => value(&[1, 1], Some(1)),
        0x99..=0x9e | 0xc6 | 0xc7 => value(&[1], None),
        0x9f..=0xa6 => value(&[1, 1], None),
        0xa7 | 0xc8 | 0xa9 | 0xb1 => value(&[], None),
        0xa8 | 0xc9 => value(&[], Some(1)),
        0xaa | 0xab => value(&[1], None),
        0xac..=0xb0 => value(&[kind_size(b - 0xac)], None),
        0xb2..=0xb5 => field(insn, b, cp),
        0xb6..=0xba => invoke(insn, op, cp),
        0xbb => value(&[], Some(1)),
        // newarray, anewarray, arraylength, checkcast, instanceof.
        0xbc | 0xbd | 0xbe | 0xc0 | 0xc1 => value(&[1], Some(1)),
        0xbf | 0xc2 | 0xc3 => value(&[1], None),
        0xc5 => {
            let dims = match insn {
                Insn::MultiANewArray { dims, .. } => *dims as usize,
                _ => 1,
            };
            Effect::Value { pops: vec![1; dims], push: Some(1) }
        }
        _ => value(&[], None),
    }
}

/// `i2l` .. `i2s`: (operand words, result words).
fn conversion(b: u8) -> Effect {
    let (from, to) = match b {
        0x85 => (1, 2),
        0x86 => (1, 1),
        0x87 => (1, 2),
        0x88 | 0x89 => (2, 1),
        0x8a => (2, 2),
        0x8b => (1, 1),
        0x8c | 0x8d => (1, 2),
        0x8e => (2, 1),
        0x8f => (2, 2),
        0x90 => (2, 1),
        _ => (1, 1),
    };
    value(&[from], Some(to))
}

fn ldc_size(insn: &Insn, cp: &ConstantPool) -> u8 {
    match insn {
        Insn::Ldc { index, .. } => match cp.get(*index) {
            Some(Constant::Long(_) | Constant::Double(_)) => 2,
            Some(Constant::Dynamic { name_and_type_index, .. }) => cp
                .name_and_type(*name_and_type_index)
                .and_then(|(_, d)| FieldType::parse(&d).ok())
                .map_or(1, |t| t.slots() as u8),
            _ => 1,
        },
        _ => 1,
    }
}

fn field(insn: &Insn, b: u8, cp: &ConstantPool) -> Effect {
    let size = match insn {
        Insn::Field { index, .. } => cp
            .member_ref(*index)
            .and_then(|r| FieldType::parse(&r.descriptor).ok())
            .map_or(1, |t| t.slots() as u8),
        _ => 1,
    };
    match b {
        0xb2 => value(&[], Some(size)),
        0xb3 => value(&[size], None),
        0xb4 => value(&[1], Some(size)),
        _ => value(&[1, size], None),
    }
}

fn invoke(insn: &Insn, op: Opcode, cp: &ConstantPool) -> Effect {
    let descriptor = match insn {
        Insn::Invoke { index, .. } | Insn::InvokeInterface { index, .. } => {
            cp.member_ref(*index).map(|r| r.descriptor.into_owned())
        }
        Insn::InvokeDynamic { index } => match cp.get(*index) {
            Some(Constant::InvokeDynamic { name_and_type_index, .. }) => {
                cp.name_and_type(*name_and_type_index).map(|(_, d)| d.into_owned())
            }
            _ => None,
        },
        _ => None,
    };
    let Some(d) = descriptor.and_then(|d| MethodDescriptor::parse(&d).ok()) else {
        return value(&[], None);
    };
    let mut pops = Vec::with_capacity(d.params.len() + 1);
    if op != Opcode::INVOKESTATIC && op != Opcode::INVOKEDYNAMIC {
        pops.push(1);
    }
    pops.extend(d.params.iter().map(|t| t.slots() as u8));
    Effect::Value { pops, push: d.ret.as_ref().map(|t| t.slots() as u8) }
}
