//! The operations of the constraint language, their typing and their concrete semantics (`apply`),
//! which are exactly the JVM's (JLS §15, JVMS §6.5): the interpreter calls `apply` when every
//! operand is concrete and `Arena::eval` calls it on every node, so the two can never disagree.

use std::fmt;

use jvm_model::arith;

use crate::value::{Sort, Value, mask, sext};

/// Operations, with EXACT Java/JVM semantics (JLS §15, JVMS §6.5).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Op {
    // Bit vectors (both operands the same width).
    Add,
    Sub,
    Mul,
    /// Truncating; MIN / -1 = MIN. A zero divisor never reaches here (the interpreter branches on
    /// it first); `apply` returns 0 for it, and so does the Z3 encoding.
    SDiv,
    /// Sign of the dividend, like Java; x % 0 is 0 here (see `SDiv`).
    SRem,
    Neg,
    And,
    Or,
    Xor,
    /// Shift count masked by width-1, as Java does.
    Shl,
    AShr,
    LShr,
    /// Sign-extend to the given width.
    SignExt(u8),
    /// Zero-extend to the given width.
    ZeroExt(u8),
    /// The low bits, to the given width.
    Extract(u8),
    // Comparisons -> Bool. `Eq`/`Ne` take any sort; on floats they compare values as SMT-LIB's `=`
    // does (every NaN equals every NaN, -0.0 differs from 0.0): Java's `==` on floats is `FEq`.
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    /// Unsigned <, for bounds checks 0<=i<n in one test.
    Ult,
    // Floats (F32 or F64, round-to-nearest-even; Java 17 is strict IEEE).
    FAdd,
    FSub,
    FMul,
    FDiv,
    /// Java's % on doubles = fmod, truncating.
    FRem,
    FNeg,
    /// The square root, correctly rounded to nearest (`Math.sqrt`, IEEE's squareRoot).
    FSqrt,
    /// The largest integral value not above (`Math.floor`; -0.0, NaN and infinities kept).
    FFloor,
    /// The smallest integral value not below (`Math.ceil`; -0.5 gives -0.0, as in Java).
    FCeil,
    FLt,
    FLe,
    FGt,
    FGe,
    /// IEEE: NaN != NaN, -0.0 == 0.0.
    FEq,
    IsNaN,
    /// Signed bit-vector to F32/F64, rounding to nearest (i2f, i2d, l2f, l2d).
    IntToFp(Sort),
    /// F32/F64 to a signed bit-vector of the width, truncating; saturates, NaN -> 0 (f2i, d2l...).
    FpToInt(u8),
    /// F32 <-> F64 (f2d exact, d2f rounding to nearest).
    FpToFp(Sort),
    /// Java's three-way compares, result Bv(32) in {-1,0,1}: lcmp (signed bit-vectors), fcmpl/dcmpl
    /// (NaN -> -1), fcmpg/dcmpg (NaN -> 1).
    Cmp,
    FCmpL,
    FCmpG,
    // Boolean.
    Not,
    /// Bool and.
    And2,
    Or2,
    Implies,
    /// ite(cond: Bool, then, else) over any sort.
    Ite,
    /// Bool -> Bv(32) 0/1 (JVM boolean value).
    BoolToBv,
    /// Bv -> Bool: bv != 0.
    BvToBool,
}

/// An operation applied to arguments of the wrong number or sorts (a bug of the caller).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortError {
    pub op: Op,
    pub args: Vec<Sort>,
}

impl fmt::Display for SortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} does not apply to (", self.op)?;
        for (i, s) in self.args.iter().enumerate() {
            write!(f, "{}{s}", if i == 0 { "" } else { ", " })?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for SortError {}

fn is_float(s: Sort) -> bool {
    matches!(s, Sort::F32 | Sort::F64)
}

impl Op {
    /// The sort of `op(args)`, or why it is ill-sorted.
    pub fn result_sort(self, args: &[Sort]) -> Result<Sort, SortError> {
        let bad = || SortError { op: self, args: args.to_vec() };
        let res = match (self, args) {
            (
                Op::Add
                | Op::Sub
                | Op::Mul
                | Op::SDiv
                | Op::SRem
                | Op::And
                | Op::Or
                | Op::Xor
                | Op::Shl
                | Op::AShr
                | Op::LShr,
                &[Sort::Bv(a), Sort::Bv(b)],
            ) if a == b => Sort::Bv(a),
            (Op::Neg, &[Sort::Bv(a)]) => Sort::Bv(a),
            (Op::SignExt(to) | Op::ZeroExt(to), &[Sort::Bv(a)]) if a <= to && to <= 64 => Sort::Bv(to),
            (Op::Extract(to), &[Sort::Bv(a)]) if 1 <= to && to <= a => Sort::Bv(to),
            (Op::Eq | Op::Ne, &[a, b]) if a == b => Sort::Bool,
            (Op::Slt | Op::Sle | Op::Sgt | Op::Sge | Op::Ult, &[Sort::Bv(a), Sort::Bv(b)]) if a == b => {
                Sort::Bool
            }
            (Op::FAdd | Op::FSub | Op::FMul | Op::FDiv | Op::FRem, &[a, b]) if a == b && is_float(a) => a,
            (Op::FNeg | Op::FSqrt | Op::FFloor | Op::FCeil, &[a]) if is_float(a) => a,
            (Op::FLt | Op::FLe | Op::FGt | Op::FGe | Op::FEq, &[a, b]) if a == b && is_float(a) => Sort::Bool,
            (Op::IsNaN, &[a]) if is_float(a) => Sort::Bool,
            (Op::IntToFp(to), &[Sort::Bv(_)]) if is_float(to) => to,
            (Op::FpToInt(w), &[a]) if is_float(a) && (1..=64).contains(&w) => Sort::Bv(w),
            (Op::FpToFp(to), &[a]) if is_float(a) && is_float(to) => to,
            (Op::Cmp, &[Sort::Bv(a), Sort::Bv(b)]) if a == b => Sort::Bv(32),
            (Op::FCmpL | Op::FCmpG, &[a, b]) if a == b && is_float(a) => Sort::Bv(32),
            (Op::Not, &[Sort::Bool]) => Sort::Bool,
            (Op::And2 | Op::Or2 | Op::Implies, &[Sort::Bool, Sort::Bool]) => Sort::Bool,
            (Op::Ite, &[Sort::Bool, a, b]) if a == b => a,
            (Op::BoolToBv, &[Sort::Bool]) => Sort::Bv(32),
            (Op::BvToBool, &[Sort::Bv(_)]) => Sort::Bool,
            _ => return Err(bad()),
        };
        Ok(res)
    }

    /// Whether `op(a, b) == op(b, a)` for every a, b (used to put arguments in one order).
    pub(crate) fn is_commutative(self) -> bool {
        matches!(
            self,
            Op::Add | Op::Mul | Op::And | Op::Or | Op::Xor | Op::Eq | Op::Ne | Op::And2 | Op::Or2 | Op::FEq
        )
    }
}

/// The bits and width of a bit-vector value.
fn bv(v: Value) -> (u64, u8) {
    match v {
        Value::Bv { width, bits } => (bits, width),
        Value::Bool(b) => (u64::from(b), 1),
        Value::F32(bits) => (u64::from(bits), 32),
        Value::F64(bits) => (bits, 64),
    }
}

fn mk_bv(width: u8, bits: u64) -> Value {
    Value::Bv { width, bits: bits & mask(width) }
}

/// A bit-vector operation on two operands of one width, on their zero-extended bits.
fn bv2(args: &[Value], f: impl Fn(u64, u64, u8) -> u64) -> Value {
    let ((a, w), (b, _)) = (bv(args[0]), bv(args[1]));
    mk_bv(w, f(a, b, w))
}

/// A float operation done in the operands' own precision.
fn fbin(args: &[Value], f32op: impl Fn(f32, f32) -> f32, f64op: impl Fn(f64, f64) -> f64) -> Value {
    match (args[0], args[1]) {
        (Value::F32(a), Value::F32(b)) => Value::f32(f32op(f32::from_bits(a), f32::from_bits(b))),
        (a, b) => Value::f64(f64op(a.as_f64(), b.as_f64())),
    }
}

/// A unary float function, in the operand's own precision.
fn fun(a: Value, f32op: impl Fn(f32) -> f32, f64op: impl Fn(f64) -> f64) -> Value {
    match a {
        Value::F32(a) => Value::f32(f32op(f32::from_bits(a))),
        a => Value::f64(f64op(a.as_f64())),
    }
}

/// A float comparison; widening a float to a double keeps order and NaN, so one comparison serves.
fn fcmp(args: &[Value], f: impl Fn(f64, f64) -> bool) -> Value {
    Value::Bool(f(args[0].as_f64(), args[1].as_f64()))
}

/// Signed division and remainder as Java does them; a zero divisor gives 0 (see `Op::SDiv`). Done on
/// the operands sign-extended to 64 bits and cut back to `w` (by `mk_bv`), which is the `w`-bit
/// operation: `MIN / -1` of `w` bits is `2^(w-1)` in 64 bits, whose low `w` bits are `MIN` again.
fn sdiv_srem(a: u64, b: u64, w: u8, rem: bool) -> u64 {
    let (a, b) = (sext(a, w), sext(b, w));
    let q = if rem { arith::lrem(a, b) } else { arith::ldiv(a, b) };
    q.unwrap_or(0) as u64
}

fn shift(a: u64, b: u64, w: u8, op: Op) -> u64 {
    // The JVM's shifts are on ints and longs; the count is the low bits of the operand either way.
    let n = b as i32;
    match (w, op) {
        (32, Op::Shl) => arith::ishl(a as i32, n) as u32 as u64,
        (32, Op::AShr) => arith::ishr(a as i32, n) as u32 as u64,
        (32, _) => arith::iushr(a as i32, n) as u32 as u64,
        (64, Op::Shl) => arith::lshl(a as i64, n) as u64,
        (64, Op::AShr) => arith::lshr(a as i64, n) as u64,
        (64, _) => arith::lushr(a as i64, n) as u64,
        // Other widths, which no JVM instruction shifts: the same rule with the count masked by w-1.
        _ => {
            let n = ((b & u64::from(w - 1)) % u64::from(w)) as u32;
            match op {
                Op::Shl => a << n,
                Op::AShr => (sext(a, w) >> n) as u64,
                _ => (a & mask(w)) >> n,
            }
        }
    }
}

/// d2i, d2l, f2i, f2l (a float widened to a double converts the same); for other widths the same
/// rule: truncate, saturate, NaN -> 0.
fn fp_to_int(x: f64, w: u8) -> Value {
    let v = match w {
        32 => i64::from(arith::d2i(x)),
        64 => arith::d2l(x),
        _ => {
            let lim = 1i64 << (w - 1);
            (x as i64).clamp(-lim, lim - 1)
        }
    };
    mk_bv(w, v as u64)
}

/// `op(args)` with the JVM's semantics. The arguments must be well sorted (`Op::result_sort`).
pub fn apply(op: Op, args: &[Value]) -> Value {
    match op {
        Op::Add => bv2(args, |a, b, _| a.wrapping_add(b)),
        Op::Sub => bv2(args, |a, b, _| a.wrapping_sub(b)),
        Op::Mul => bv2(args, |a, b, _| a.wrapping_mul(b)),
        Op::SDiv => bv2(args, |a, b, w| sdiv_srem(a, b, w, false)),
        Op::SRem => bv2(args, |a, b, w| sdiv_srem(a, b, w, true)),
        Op::Neg => {
            let (a, w) = bv(args[0]);
            mk_bv(w, a.wrapping_neg())
        }
        Op::And => bv2(args, |a, b, _| a & b),
        Op::Or => bv2(args, |a, b, _| a | b),
        Op::Xor => bv2(args, |a, b, _| a ^ b),
        Op::Shl | Op::AShr | Op::LShr => bv2(args, |a, b, w| shift(a, b, w, op)),
        Op::SignExt(to) => {
            let (a, w) = bv(args[0]);
            mk_bv(to, sext(a, w) as u64)
        }
        Op::ZeroExt(to) => mk_bv(to, bv(args[0]).0),
        Op::Extract(to) => mk_bv(to, bv(args[0]).0),
        Op::Eq => Value::Bool(smt_equal(args[0], args[1])),
        Op::Ne => Value::Bool(!smt_equal(args[0], args[1])),
        Op::Slt => Value::Bool(args[0].as_i64() < args[1].as_i64()),
        Op::Sle => Value::Bool(args[0].as_i64() <= args[1].as_i64()),
        Op::Sgt => Value::Bool(args[0].as_i64() > args[1].as_i64()),
        Op::Sge => Value::Bool(args[0].as_i64() >= args[1].as_i64()),
        Op::Ult => Value::Bool(args[0].as_u64() < args[1].as_u64()),
        Op::FAdd => fbin(args, |a, b| a + b, |a, b| a + b),
        Op::FSub => fbin(args, |a, b| a - b, |a, b| a - b),
        Op::FMul => fbin(args, |a, b| a * b, |a, b| a * b),
        Op::FDiv => fbin(args, |a, b| a / b, |a, b| a / b),
        // Rust's % on floats is C's fmod, which is Java's % (JLS §15.17.3).
        Op::FRem => fbin(args, |a, b| a % b, |a, b| a % b),
        Op::FNeg => match args[0] {
            Value::F32(a) => Value::F32(a ^ (1 << 31)),
            other => Value::F64(other.as_u64() ^ (1 << 63)),
        },
        Op::FSqrt => fun(args[0], f32::sqrt, f64::sqrt),
        Op::FFloor => fun(args[0], f32::floor, f64::floor),
        Op::FCeil => fun(args[0], f32::ceil, f64::ceil),
        Op::FLt => fcmp(args, |a, b| a < b),
        Op::FLe => fcmp(args, |a, b| a <= b),
        Op::FGt => fcmp(args, |a, b| a > b),
        Op::FGe => fcmp(args, |a, b| a >= b),
        Op::FEq => fcmp(args, |a, b| a == b),
        Op::IsNaN => Value::Bool(args[0].is_nan()),
        Op::IntToFp(to) => {
            let i = args[0].as_i64();
            if to == Sort::F32 { Value::f32(i as f32) } else { Value::f64(i as f64) }
        }
        Op::FpToInt(w) => fp_to_int(args[0].as_f64(), w),
        Op::FpToFp(to) => {
            if to == Sort::F32 {
                Value::f32(args[0].as_f32())
            } else {
                Value::f64(args[0].as_f64())
            }
        }
        Op::Cmp => Value::i32(arith::lcmp(args[0].as_i64(), args[1].as_i64())),
        // A float widened to a double keeps its order and NaN: `dcmp*` serves `fcmp*` too.
        Op::FCmpL => Value::i32(arith::dcmpl(args[0].as_f64(), args[1].as_f64())),
        Op::FCmpG => Value::i32(arith::dcmpg(args[0].as_f64(), args[1].as_f64())),
        Op::Not => Value::Bool(!args[0].as_bool()),
        Op::And2 => Value::Bool(args[0].as_bool() && args[1].as_bool()),
        Op::Or2 => Value::Bool(args[0].as_bool() || args[1].as_bool()),
        Op::Implies => Value::Bool(!args[0].as_bool() || args[1].as_bool()),
        Op::Ite => {
            if args[0].as_bool() {
                args[1]
            } else {
                args[2]
            }
        }
        Op::BoolToBv => Value::i32(i32::from(args[0].as_bool())),
        Op::BvToBool => Value::Bool(args[0].as_u64() != 0),
    }
}

/// SMT-LIB's `=`: identical values, where every NaN is the same value.
fn smt_equal(a: Value, b: Value) -> bool {
    (a.is_nan() && b.is_nan()) || a == b
}
