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

use goals::{BinOp, Mutant, ProbeKind};
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

/// The subsuming mutants of every int and long operator site (derived; `tests/table.rs`).
pub const OPERATOR_TABLE: &[OperatorRow] = &[
    row(
        ProbeKind::OperandsInt,
        BinOp::Add,
        &[
            Mutant::ReplaceOp(BinOp::Rem),
            Mutant::ReplaceOp(BinOp::Sub),
            Mutant::SecondOperand,
            Mutant::ReplaceOp(BinOp::Div),
            Mutant::ReplaceOp(BinOp::Mul),
        ],
    ),
    row(
        ProbeKind::OperandsInt,
        BinOp::Sub,
        &[
            Mutant::ReplaceOp(BinOp::Rem),
            Mutant::ReplaceOp(BinOp::Add),
            Mutant::SecondOperand,
            Mutant::ReplaceOp(BinOp::Div),
            Mutant::ReplaceOp(BinOp::Mul),
        ],
    ),
    row(
        ProbeKind::OperandsInt,
        BinOp::Mul,
        &[
            Mutant::ReplaceOp(BinOp::Div),
            Mutant::FirstOperand,
            Mutant::SecondOperand,
            Mutant::ReplaceOp(BinOp::Rem),
            Mutant::ReplaceOp(BinOp::Add),
            Mutant::ReplaceOp(BinOp::Sub),
        ],
    ),
    row(
        ProbeKind::OperandsInt,
        BinOp::Div,
        &[
            Mutant::ReplaceOp(BinOp::Mul),
            Mutant::ReplaceOp(BinOp::Rem),
            Mutant::ReplaceOp(BinOp::Add),
            Mutant::ReplaceOp(BinOp::Sub),
            Mutant::SecondOperand,
        ],
    ),
    row(
        ProbeKind::OperandsInt,
        BinOp::Rem,
        &[
            Mutant::FirstOperand,
            Mutant::ReplaceOp(BinOp::Div),
            Mutant::ReplaceOp(BinOp::Sub),
            Mutant::ReplaceOp(BinOp::Add),
            Mutant::ReplaceOp(BinOp::Mul),
        ],
    ),
    row(ProbeKind::OperandsInt, BinOp::Shl, &[Mutant::ReplaceOp(BinOp::Shr)]),
    row(ProbeKind::OperandsInt, BinOp::Shr, &[Mutant::ReplaceOp(BinOp::Ushr)]),
    row(ProbeKind::OperandsInt, BinOp::Ushr, &[Mutant::ReplaceOp(BinOp::Shr)]),
    row(ProbeKind::OperandsInt, BinOp::And, &[Mutant::ReplaceOp(BinOp::Or)]),
    row(ProbeKind::OperandsInt, BinOp::Or, &[Mutant::ReplaceOp(BinOp::Xor), Mutant::ReplaceOp(BinOp::And)]),
    row(ProbeKind::OperandsInt, BinOp::Xor, &[Mutant::ReplaceOp(BinOp::Or)]),
    row(
        ProbeKind::OperandsLong,
        BinOp::Add,
        &[
            Mutant::ReplaceOp(BinOp::Sub),
            Mutant::ReplaceOp(BinOp::Rem),
            Mutant::SecondOperand,
            Mutant::ReplaceOp(BinOp::Div),
            Mutant::ReplaceOp(BinOp::Mul),
        ],
    ),
    row(
        ProbeKind::OperandsLong,
        BinOp::Sub,
        &[
            Mutant::ReplaceOp(BinOp::Rem),
            Mutant::ReplaceOp(BinOp::Add),
            Mutant::SecondOperand,
            Mutant::ReplaceOp(BinOp::Div),
            Mutant::ReplaceOp(BinOp::Mul),
        ],
    ),
    row(
        ProbeKind::OperandsLong,
        BinOp::Mul,
        &[
            Mutant::ReplaceOp(BinOp::Div),
            Mutant::FirstOperand,
            Mutant::SecondOperand,
            Mutant::ReplaceOp(BinOp::Rem),
            Mutant::ReplaceOp(BinOp::Add),
            Mutant::ReplaceOp(BinOp::Sub),
        ],
    ),
    row(
        ProbeKind::OperandsLong,
        BinOp::Div,
        &[
            Mutant::ReplaceOp(BinOp::Mul),
            Mutant::ReplaceOp(BinOp::Rem),
            Mutant::ReplaceOp(BinOp::Add),
            Mutant::ReplaceOp(BinOp::Sub),
            Mutant::SecondOperand,
        ],
    ),
    row(
        ProbeKind::OperandsLong,
        BinOp::Rem,
        &[
            Mutant::FirstOperand,
            Mutant::ReplaceOp(BinOp::Div),
            Mutant::ReplaceOp(BinOp::Sub),
            Mutant::ReplaceOp(BinOp::Mul),
            Mutant::ReplaceOp(BinOp::Add),
        ],
    ),
    row(ProbeKind::OperandsLong, BinOp::And, &[Mutant::ReplaceOp(BinOp::Or)]),
    row(ProbeKind::OperandsLong, BinOp::Or, &[Mutant::ReplaceOp(BinOp::Xor), Mutant::ReplaceOp(BinOp::And)]),
    row(ProbeKind::OperandsLong, BinOp::Xor, &[Mutant::ReplaceOp(BinOp::Or)]),
    row(ProbeKind::OperandsLongShift, BinOp::Shl, &[Mutant::ReplaceOp(BinOp::Shr)]),
    row(ProbeKind::OperandsLongShift, BinOp::Shr, &[Mutant::ReplaceOp(BinOp::Ushr)]),
    row(ProbeKind::OperandsLongShift, BinOp::Ushr, &[Mutant::ReplaceOp(BinOp::Shr)]),
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
