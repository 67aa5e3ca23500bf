//! The subsumption table of weak mutants (paper 002 §3.4, third filter): for each operator site
//! whose mutants it lists, the mutants that subsume all the others at that site. Covering them
//! covers every mutant of the site that can be killed at all, so the others are deferred.
//!
//! Derived by exhaustive evaluation (docs/selection.md): over a domain of operand pairs, a mutant's
//! kill set is the pairs on which it is infected (its result, or the jump's outcome, differs from
//! the original's); `m1` subsumes `m2` when `m1` can be killed and every pair that kills `m1` kills
//! `m2`. A site keeps its minimal mutants: those with a non-empty kill set that holds no other
//! mutant's kill set strictly, one per distinct kill set, ordered by kill-set size (the hardest to
//! kill first), ties in plan order. `tests/table.rs` recomputes the table from the product's own
//! infection semantics (`fitness`) and asserts it equals these constants, so they cannot drift.
//!
//! Operator sites not listed (float and double arithmetic) keep all their mutants, as in the
//! authors' artifact. This module only holds data; the filters are in `mutants.rs`.

use goals::BinOp::{self, Add, And, Div, Mul, Or, Rem, Shl, Shr, Sub, Ushr, Xor};
use goals::Mutant;
use goals::ProbeKind::{self, OperandsInt, OperandsLong, OperandsLongShift};
use rt_abi::cond;

/// The subsuming mutants of one binary-operator site (AOR, BOR): an operator `op` on operands of
/// probe kind `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperatorRow {
    pub kind: ProbeKind,
    pub op: BinOp,
    pub keep: &'static [Mutant],
}

/// The subsuming mutants of a numeric conditional jump (ROR) with rt-abi jump condition `cond`
/// (the negation of the source condition, as javac emits it), as replacement conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CondRow {
    pub cond: i32,
    pub keep: &'static [i32],
}

const A: Mutant = Mutant::FirstOperand;
const B: Mutant = Mutant::SecondOperand;

const fn r(op: BinOp) -> Mutant {
    Mutant::ReplaceOp(op)
}

// The kept lists, named by site; int and long share a list where their rows agree.
const INT_ADD: &[Mutant] = &[r(Rem), r(Sub), B, r(Div), r(Mul)];
const LONG_ADD: &[Mutant] = &[r(Sub), r(Rem), B, r(Div), r(Mul)];
const SUB: &[Mutant] = &[r(Rem), r(Add), B, r(Div), r(Mul)];
const MUL: &[Mutant] = &[r(Div), A, B, r(Rem), r(Add), r(Sub)];
const DIV: &[Mutant] = &[r(Mul), r(Rem), r(Add), r(Sub), B];
const INT_REM: &[Mutant] = &[A, r(Div), r(Sub), r(Add), r(Mul)];
const LONG_REM: &[Mutant] = &[A, r(Div), r(Sub), r(Mul), r(Add)];
const SHL: &[Mutant] = &[r(Shr)];
const SHR: &[Mutant] = &[r(Ushr)];
const USHR: &[Mutant] = &[r(Shr)];
const AND: &[Mutant] = &[r(Or)];
const OR: &[Mutant] = &[r(Xor), r(And)];
const XOR: &[Mutant] = &[r(Or)];

/// The subsuming mutants of every int and long operator site (derived; `tests/table.rs`).
pub const OPERATOR_TABLE: &[OperatorRow] = &[
    row(OperandsInt, Add, INT_ADD),
    row(OperandsInt, Sub, SUB),
    row(OperandsInt, Mul, MUL),
    row(OperandsInt, Div, DIV),
    row(OperandsInt, Rem, INT_REM),
    row(OperandsInt, Shl, SHL),
    row(OperandsInt, Shr, SHR),
    row(OperandsInt, Ushr, USHR),
    row(OperandsInt, And, AND),
    row(OperandsInt, Or, OR),
    row(OperandsInt, Xor, XOR),
    row(OperandsLong, Add, LONG_ADD),
    row(OperandsLong, Sub, SUB),
    row(OperandsLong, Mul, MUL),
    row(OperandsLong, Div, DIV),
    row(OperandsLong, Rem, LONG_REM),
    row(OperandsLong, And, AND),
    row(OperandsLong, Or, OR),
    row(OperandsLong, Xor, XOR),
    row(OperandsLongShift, Shl, SHL),
    row(OperandsLongShift, Shr, SHR),
    row(OperandsLongShift, Ushr, USHR),
];

/// The subsuming ROR mutants of every numeric jump condition (derived; `tests/table.rs`). The
/// conditions are sets of sign classes of `left - right` (of the value for a compare with zero, of
/// the `?cmp` result for long, float and double compares), so one row serves every numeric kind.
pub const COND_TABLE: &[CondRow] = &[
    CondRow { cond: cond::EQ, keep: &[cond::GE, cond::LE] },
    CondRow { cond: cond::NE, keep: &[cond::LT, cond::GT] },
    CondRow { cond: cond::LT, keep: &[cond::LE, cond::NE] },
    CondRow { cond: cond::GE, keep: &[cond::GT, cond::EQ] },
    CondRow { cond: cond::GT, keep: &[cond::GE, cond::NE] },
    CondRow { cond: cond::LE, keep: &[cond::LT, cond::EQ] },
];

const fn row(kind: ProbeKind, op: BinOp, keep: &'static [Mutant]) -> OperatorRow {
    OperatorRow { kind, op, keep }
}

/// The subsuming ROR mutants of `ifeq`/`ifne` on a boolean (`crate::booleans`), whose operand is
/// 0 or 1 (derived over that domain; `tests/table.rs`).
pub const BOOL_COND_TABLE: &[CondRow] = &[
    CondRow { cond: cond::EQ, keep: &[cond::LT, cond::GE] },
    CondRow { cond: cond::NE, keep: &[cond::LT, cond::GE] },
];

/// The row of an operator site, if the table lists it.
pub fn operator_row(kind: ProbeKind, op: BinOp) -> Option<&'static OperatorRow> {
    OPERATOR_TABLE.iter().find(|r| r.kind == kind && r.op == op)
}

/// The row of a jump condition (its `NAN_GREATER` bit ignored: it changes which compare result a
/// NaN gives, not the sign classes the conditions are sets of).
pub fn cond_row(c: i32) -> Option<&'static CondRow> {
    COND_TABLE.iter().find(|r| r.cond == c & 7)
}

/// The row of a jump condition on a boolean.
pub fn bool_cond_row(c: i32) -> Option<&'static CondRow> {
    BOOL_COND_TABLE.iter().find(|r| r.cond == c & 7)
}
