//! The weak-mutation subset (paper 002 §3.4), three filters in order: keep the key operators
//! (Offutt's, as far as we implement them: BOR, UOI, AOR, ROR), drop the "equal-to-line" ones
//! (whose infection distance is 0 as soon as the mutant is reached, so that killing it is covering
//! its line), and keep at each operator site only the subsuming mutants of the table
//! (`crate::table`).

use goals::{Detail, Goal, Mutant, ProbeKind, ProbePlan};

use crate::table::{bool_cond_row, cond_row, operator_row};

/// A mutation operator, as the selection's options name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operator {
    /// Arithmetic operator replaced, or the operation replaced by an operand.
    Aor,
    /// Bitwise or shift operator replaced.
    Bor,
    /// A numeric jump's condition replaced.
    Ror,
    /// A reference jump's (`if_acmp*`, `ifnull`, `ifnonnull`) condition negated: infected whenever
    /// reached (`fitness::cond_infection`), like EvoSuite's, whose artifact drops these opcodes.
    RorRef,
    /// A unary operator inserted after a numeric load.
    Uoi,
    /// A constant replaced: infected once reached.
    Rc,
}

impl Operator {
    /// The paper's key operators (Table II) that we implement; `RorRef` is ROR on references.
    pub const KEY: [Operator; 5] =
        [Operator::Bor, Operator::Uoi, Operator::Aor, Operator::Ror, Operator::RorRef];
    /// The operators whose infection distance is 0 once reached (EvoSuite's UOI and RC; reference
    /// compares). Our UOI distance is exact (`fitness::unary_infection`: `-x` is not infected at
    /// 0), but differs from reaching only at 0, `MIN_VALUE` and float edge values, so it stays here
    /// as in the paper.
    pub const EQUAL_TO_LINE: [Operator; 3] = [Operator::Uoi, Operator::RorRef, Operator::Rc];
}

/// The operator of a mutant planned at `probe`'s site.
pub fn operator_of(plan: &ProbePlan, probe: goals::ProbeId, mutant: Mutant) -> Operator {
    let p = plan.probe(probe);
    match mutant {
        Mutant::ReplaceOp(_) => match p.detail {
            Detail::Operator { op } if !op.is_arithmetic() => Operator::Bor,
            _ => Operator::Aor,
        },
        Mutant::FirstOperand | Mutant::SecondOperand => Operator::Aor,
        Mutant::ReplaceCond(_) if matches!(p.kind, ProbeKind::BranchRef | ProbeKind::BranchNull) => {
            Operator::RorRef
        }
        Mutant::ReplaceCond(_) => Operator::Ror,
        Mutant::InsertUnary(_) => Operator::Uoi,
        Mutant::ReplaceConstant { .. } => Operator::Rc,
    }
}

/// Whether a mutant is among the first `size` (all when `None`) subsuming mutants of its site in
/// the table; a site the table does not list keeps all its mutants. `boolean`: the site is a jump
/// on a boolean (`crate::booleans`), whose rows are those of `BOOL_COND_TABLE`.
pub fn is_subsuming(plan: &ProbePlan, goal: &Goal, boolean: bool, size: Option<usize>) -> bool {
    let Goal::WeakMutation { probe, mutant } = *goal else { return false };
    let p = plan.probe(probe);
    let row = |c| if boolean { bool_cond_row(c) } else { cond_row(c) };
    let rank = match (mutant, &p.detail) {
        (Mutant::ReplaceCond(c), Detail::Branch { cond }) => match row(*cond) {
            Some(row) if !matches!(p.kind, ProbeKind::BranchRef | ProbeKind::BranchNull) => {
                row.keep.iter().position(|&k| k == c)
            }
            _ => return true,
        },
        (Mutant::ReplaceOp(_) | Mutant::FirstOperand | Mutant::SecondOperand, Detail::Operator { op }) => {
            match operator_row(p.kind, *op) {
                Some(row) => row.keep.iter().position(|&k| k == mutant),
                None => return true,
            }
        }
        _ => return true,
    };
    rank.is_some_and(|r| size.is_none_or(|s| r < s))
}
