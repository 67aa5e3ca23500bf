//! Infection distances of weak mutants (EvoSuite's `MutationTestFitness`; digest 002 §1.3), from
//! what the trace records: operand samples of binary operators, branch distances of conditions.
//!
//! UOI mutants (a unary operator inserted after a numeric load) are decided from the value
//! samples of their `Value*` probe; RC mutants (a replaced constant) are infected once reached,
//! as in EvoSuite, so they need no function here.
//!
//! A distance is raw (not normalised): 0 means the mutant is infected (the mutated instruction
//! produces a different value or outcome than the original on some recorded execution).
//! Arithmetic follows the JVM (JVMS §6.5 `iadd` .. `lxor`): two's-complement wrapping, shift
//! counts masked to 5 (int) or 6 (long) bits, `idiv`/`irem` by zero throw `ArithmeticException`
//! (a mutant that throws where the original does not, or the other way round, is infected:
//! EvoSuite's AOR rule), `MIN / -1 = MIN`, float `%` is C's `fmod` (JVMS `frem`), float division by
//! zero gives an infinity or NaN and does not throw.

use goals::{BinOp, Mutant, ProbeKind, UnaryOp};
use jvm_model::arith;
use rt_abi::cond;

/// A value computed by a JVM binary operator, or the exception it throws.
#[derive(Debug, Clone, Copy)]
enum JValue {
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    Throws,
}

impl PartialEq for JValue {
    /// Equality of results as a program could observe it: floating values compare with `==`,
    /// except that two NaNs are the same result.
    fn eq(&self, other: &JValue) -> bool {
        use JValue::*;
        match (*self, *other) {
            (Int(a), Int(b)) => a == b,
            (Long(a), Long(b)) => a == b,
            (Float(a), Float(b)) => a == b || (a.is_nan() && b.is_nan()),
            (Double(a), Double(b)) => a == b || (a.is_nan() && b.is_nan()),
            (Throws, Throws) => true,
            _ => false,
        }
    }
}

fn int_op(op: BinOp, a: i32, b: i32) -> JValue {
    JValue::Int(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => return arith::idiv(a, b).map_or(JValue::Throws, JValue::Int),
        BinOp::Rem => return arith::irem(a, b).map_or(JValue::Throws, JValue::Int),
        BinOp::Shl => arith::ishl(a, b),
        BinOp::Shr => arith::ishr(a, b),
        BinOp::Ushr => arith::iushr(a, b),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
    })
}

/// `b`: the second operand; for a shift the count, an int (JVMS `lshl`) sign-extended.
fn long_op(op: BinOp, a: i64, b: i64) -> JValue {
    let n = b as i32;
    JValue::Long(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => return arith::ldiv(a, b).map_or(JValue::Throws, JValue::Long),
        BinOp::Rem => return arith::lrem(a, b).map_or(JValue::Throws, JValue::Long),
        BinOp::Shl => arith::lshl(a, n),
        BinOp::Shr => arith::lshr(a, n),
        BinOp::Ushr => arith::lushr(a, n),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
    })
}

fn float_op(op: BinOp, a: f64, b: f64) -> Option<f64> {
    Some(match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        BinOp::Rem => a % b,
        _ => return None,
    })
}

/// The result of `op` on one operand sample of a probe of `kind` (raw bits as the protocol sends
/// them: ints sign-extended, floats zero-extended raw bits), and the two operands as results.
fn eval(kind: ProbeKind, op: BinOp, sample: (u64, u64)) -> Option<(JValue, JValue, JValue)> {
    let (x, y) = sample;
    Some(match kind {
        ProbeKind::OperandsInt => {
            let (a, b) = (x as i32, y as i32);
            (int_op(op, a, b), JValue::Int(a), JValue::Int(b))
        }
        ProbeKind::OperandsLong => {
            let (a, b) = (x as i64, y as i64);
            (long_op(op, a, b), JValue::Long(a), JValue::Long(b))
        }
        ProbeKind::OperandsLongShift => {
            let (a, b) = (x as i64, y as i32);
            (long_op(op, a, b as i64), JValue::Long(a), JValue::Int(b))
        }
        ProbeKind::OperandsFloat => {
            let (a, b) = (f32::from_bits(x as u32), f32::from_bits(y as u32));
            // f32 arithmetic through f64 and back is exact for + - * / (double rounding is
            // innocuous for these, Figueroa 1995) and for fmod.
            let r = float_op(op, a as f64, b as f64)? as f32;
            (JValue::Float(r), JValue::Float(a), JValue::Float(b))
        }
        ProbeKind::OperandsDouble => {
            let (a, b) = (f64::from_bits(x), f64::from_bits(y));
            (JValue::Double(float_op(op, a, b)?), JValue::Double(a), JValue::Double(b))
        }
        _ => return None,
    })
}

/// Raw infection distance of an operator mutant (AOR, BOR and EvoSuite's operand-replacement AOR
/// variants) over a probe's operand samples: 0 if on some sample the mutant's result differs from
/// the original's, else 1 (EvoSuite's binary AOR/BOR distance; the graded `>>`→`>>>` variant is
/// not used, every shift mutant is binary). No samples: 1.
pub fn operator_infection(kind: ProbeKind, op: BinOp, mutant: Mutant, samples: &[(u64, u64)]) -> f64 {
    for &s in samples {
        let Some((orig, a, b)) = eval(kind, op, s) else { continue };
        let mutated = match mutant {
            Mutant::ReplaceOp(r) => match eval(kind, r, s) {
                Some((m, _, _)) => m,
                None => continue,
            },
            Mutant::FirstOperand => a,
            Mutant::SecondOperand => b,
            Mutant::ReplaceCond(_) | Mutant::InsertUnary(_) | Mutant::ReplaceConstant { .. } => continue,
        };
        if mutated != orig {
            return 0.0;
        }
    }
    1.0
}

/// Raw infection distance of a UOI mutant over the value samples of a `Value*` probe (raw bits as
/// the protocol sends them; the second element of a sample is unused): 0 if on some sample the
/// value with the unary operator applied differs from the value, else 1. The JVM's arithmetic
/// decides (JVMS §6.5 `iadd`, `ineg`, `fadd`, `fneg`): `x + 1` and `x - 1` always differ for ints
/// and longs (wrapping), but not for floats of magnitude ≥ 2^24 (2^53 for doubles), infinities
/// or NaN; `-x` equals `x` for 0, for `MIN_VALUE` (wrapping), for ±0.0 (`==`) and for NaN.
/// EvoSuite gives UOI a constant distance 0 once reached; the samples make it exact. No samples
/// (or a probe of another kind): 1.
pub fn unary_infection(kind: ProbeKind, op: UnaryOp, samples: &[(u64, u64)]) -> f64 {
    let infected = |&(x, _): &(u64, u64)| -> bool {
        match kind {
            ProbeKind::ValueInt => {
                let v = x as i32;
                let m = match op {
                    UnaryOp::Inc => v.wrapping_add(1),
                    UnaryOp::Dec => v.wrapping_sub(1),
                    UnaryOp::Neg => v.wrapping_neg(),
                };
                JValue::Int(m) != JValue::Int(v)
            }
            ProbeKind::ValueLong => {
                let v = x as i64;
                let m = match op {
                    UnaryOp::Inc => v.wrapping_add(1),
                    UnaryOp::Dec => v.wrapping_sub(1),
                    UnaryOp::Neg => v.wrapping_neg(),
                };
                JValue::Long(m) != JValue::Long(v)
            }
            ProbeKind::ValueFloat => {
                let v = f32::from_bits(x as u32);
                let m = match op {
                    UnaryOp::Inc => v + 1.0,
                    UnaryOp::Dec => v - 1.0,
                    UnaryOp::Neg => -v,
                };
                JValue::Float(m) != JValue::Float(v)
            }
            ProbeKind::ValueDouble => {
                let v = f64::from_bits(x);
                let m = match op {
                    UnaryOp::Inc => v + 1.0,
                    UnaryOp::Dec => v - 1.0,
                    UnaryOp::Neg => -v,
                };
                JValue::Double(m) != JValue::Double(v)
            }
            _ => false,
        }
    };
    if samples.iter().any(infected) { 0.0 } else { 1.0 }
}

/// Sign classes of `v = left - right` (or of the value against 0): negative, zero, positive.
const N: u8 = 1;
const Z: u8 = 2;
const P: u8 = 4;

/// The sign classes on which a jump with rt-abi condition `c` is taken.
fn cond_set(c: i32) -> u8 {
    match c & 7 {
        cond::EQ => Z,
        cond::NE => N | P,
        cond::LT => N,
        cond::GE => Z | P,
        cond::GT => P,
        _ => N | Z, // LE
    }
}

/// Raw infection distance of a ROR mutant that replaces the jump condition `original` (rt-abi,
/// possibly with `NAN_GREATER`) by `replacement`, from the probe's min branch distances.
///
/// The trace keeps only the minimum distance to each side, not operand values, so the value
/// `v = a - b` is reconstructed per side (docs/protocol.md gives the runtime's formulas): when only
/// one side was ever taken, the other side's distance is `|v|` (+1 when that side's set holds 0,
/// e.g. `GE` taken) for the evaluation closest to the boundary, which is the one that matters for
/// every ROR difference set (a union of sign classes). Infected iff some observed sign class lies
/// in the set where the two conditions differ; the distance otherwise is EvoSuite's graded one:
/// `|v|` to reach 0, `|v| + 1` to cross it, 1 to leave 0 (e.g. `<`→`<=`: `|v|`; `<`→`>`: 1 iff
/// `v == 0`).
///
/// Approximations (documented limits of the trace): when both sides were taken the magnitudes are
/// lost, and for `==`/`!=` the sign of a non-zero difference is never recorded; a side whose
/// observed class is then uncertain counts as not infected at distance 1. Reference compares
/// (`BranchRef`, `BranchNull`) have only the negation as mutant, infected whenever reached
/// (EvoSuite: constant 0).
pub fn cond_infection(kind: ProbeKind, original: i32, replacement: i32, to_true: f64, to_false: f64) -> f64 {
    if matches!(kind, ProbeKind::BranchRef | ProbeKind::BranchNull) {
        return if cond_set(original) != cond_set(replacement) { 0.0 } else { 1.0 };
    }
    let taken = cond_set(original);
    let diff = taken ^ cond_set(replacement);
    if diff == 0 {
        return 1.0;
    }
    let seen_taken = to_true == 0.0;
    let seen_not = to_false == 0.0;
    let mut best = f64::INFINITY;
    for (seen, set, other_seen, recorded) in
        [(seen_taken, taken, seen_not, to_false), (seen_not, 7 & !taken, seen_taken, to_true)]
    {
        if !seen {
            continue;
        }
        // The magnitude of the evaluation closest to the boundary, when this side was the only one.
        let m = if other_seen {
            None
        } else if set == Z {
            Some(0.0)
        } else if set & Z != 0 {
            Some((recorded - 1.0).max(0.0))
        } else {
            Some(recorded)
        };
        best = best.min(side_distance(set, diff, m));
        if best == 0.0 {
            return 0.0;
        }
    }
    if best.is_finite() { best } else { 1.0 }
}

/// Distance to infection from one observed side (`set` of sign classes, `m` the magnitude of its
/// evaluation closest to 0 when known).
fn side_distance(set: u8, diff: u8, m: Option<f64>) -> f64 {
    if set & diff == 0 {
        // Every evaluation on this side behaves the same under the mutant.
        return match m {
            Some(m) => class_distance(class_of(set, m), diff, m),
            None => 1.0,
        };
    }
    if set & !diff == 0 {
        return 0.0;
    }
    // Partly in the difference set: which class was observed decides.
    match (m, set & Z != 0) {
        (Some(m), true) => {
            let c = class_of(set, m);
            if c & diff != 0 { 0.0 } else { class_distance(c, diff, m) }
        }
        // `{N, P}` (sign unknown) or magnitudes lost.
        _ => 1.0,
    }
}

/// The class of the boundary-closest evaluation of a side: 0 if `m == 0` and the side holds 0,
/// else the side's non-zero class (for `{N, P}` both, unknown sign).
fn class_of(set: u8, m: f64) -> u8 {
    if set & Z != 0 && m == 0.0 { Z } else { set & !Z }
}

fn class_distance(c: u8, diff: u8, m: f64) -> f64 {
    if c == Z {
        1.0
    } else if diff & Z != 0 {
        m
    } else {
        m + 1.0
    }
}
