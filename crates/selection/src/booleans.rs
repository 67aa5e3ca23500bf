//! Conditional jumps on boolean values: `ifeq`/`ifne` whose operand is a `boolean` (a call
//! returning `Z`, a `Z` field, a `Z` local, `instanceof`). Their operand is 0 or 1, never negative,
//! so the ROR mutants that subsume the others there are not those of an int compared with zero
//! (`table::BOOL_COND_TABLE`): over ints `ifeq`'s `<=` mutant subsumes `<`, over booleans it can
//! never be killed. EvoSuite knows boolean conditions and gives them only the negation; our plan
//! gives every `if<cond>` all five replacements, so the selection tells the two apart here.
//!
//! The operand is judged by the instruction right before the jump, when no jump lands on the jump
//! (javac's shape for `if (flag)`, `if (list.isEmpty())`, `a && b`); any other shape counts as an
//! int, the conservative side (it keeps the int table's mutants).

use std::collections::BTreeSet;

use bytecode::{CodeAttribute, Insn, InsnIdx, MethodBody, Opcode};
use classfile::ConstantPool;

/// The indices of the `ifeq`/`ifne` instructions of `body` that test a boolean.
pub fn boolean_jumps(body: &MethodBody, cp: &ConstantPool) -> BTreeSet<InsnIdx> {
    let targets: BTreeSet<InsnIdx> = body.insns.iter().flat_map(Insn::targets).collect();
    let mut out = BTreeSet::new();
    for (i, insn) in body.insns.iter().enumerate().skip(1) {
        let at = InsnIdx::new(i);
        if !matches!(insn.op(), Opcode::IFEQ | Opcode::IFNE) || targets.contains(&at) {
            continue;
        }
        if produces_boolean(body, cp, i - 1) {
            out.insert(at);
        }
    }
    out
}

/// Whether instruction `i` pushes a `boolean`.
fn produces_boolean(body: &MethodBody, cp: &ConstantPool, i: usize) -> bool {
    match &body.insns[i] {
        Insn::Invoke { index, .. } | Insn::InvokeInterface { index, .. } => {
            cp.member_ref(*index).is_some_and(|r| r.descriptor.ends_with(")Z"))
        }
        Insn::Field { op, index } if matches!(*op, Opcode::GETFIELD | Opcode::GETSTATIC) => {
            cp.member_ref(*index).is_some_and(|r| r.descriptor == "Z")
        }
        Insn::Type { op, .. } => *op == Opcode::INSTANCEOF,
        Insn::Local { op, var, .. } if is_iload(*op) => local_is_boolean(body, cp, *var, InsnIdx::new(i)),
        _ => false,
    }
}

fn is_iload(op: Opcode) -> bool {
    op == Opcode::ILOAD || (Opcode::ILOAD_0.0..=Opcode::ILOAD_0.0 + 3).contains(&op.0)
}

/// Whether the `LocalVariableTable` (compiled with `-g`) says local `var` is a `boolean` at `at`.
fn local_is_boolean(body: &MethodBody, cp: &ConstantPool, var: u16, at: InsnIdx) -> bool {
    body.attributes.iter().any(|a| match a {
        CodeAttribute::LocalVariableTable { entries, .. } => entries.iter().any(|e| {
            e.slot == var
                && e.start <= at
                && at < e.end
                && cp.utf8(e.descriptor_index).is_some_and(|d| d == "Z")
        }),
        _ => false,
    })
}
