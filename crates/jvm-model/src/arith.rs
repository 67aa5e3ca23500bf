//! Java's integer arithmetic and numeric conversions, as the JVM computes them (JVMS §6.5, JLS
//! §15.17-15.20, §5.1.3), for every crate that evaluates Java expressions itself: the infection
//! distances of weak mutants (`fitness`) and the constant folding and evaluation of the symbolic
//! solver (`solver`). Addition, subtraction, multiplication, negation and the bitwise operators
//! are Rust's `wrapping_*`, `&`, `|`, `^` on `i32`/`i64`, which are two's-complement like Java's;
//! what differs from Rust is here:
//!
//! - division and remainder: `MIN / -1 == MIN` and `MIN % -1 == 0` (no overflow trap), and a zero
//!   divisor throws `ArithmeticException`, here `None`;
//! - shifts: the count is an `int` of which only the low 5 (int) or 6 (long) bits count;
//! - float to integer (`f2i`, `d2l`, ...): round toward zero, saturate at the bounds, NaN is 0;
//! - comparisons `lcmp`, `fcmpl`/`fcmpg`, `dcmpl`/`dcmpg`: -1, 0 or 1, NaN giving -1 (`*l`) or 1
//!   (`*g`).

use std::cmp::Ordering;

/// `idiv`: `None` when `b` is 0 (the JVM throws `ArithmeticException`).
pub fn idiv(a: i32, b: i32) -> Option<i32> {
    (b != 0).then(|| a.wrapping_div(b))
}

/// `irem`: `None` when `b` is 0; the sign follows the dividend.
pub fn irem(a: i32, b: i32) -> Option<i32> {
    (b != 0).then(|| a.wrapping_rem(b))
}

/// `ldiv`: `None` when `b` is 0.
pub fn ldiv(a: i64, b: i64) -> Option<i64> {
    (b != 0).then(|| a.wrapping_div(b))
}

/// `lrem`: `None` when `b` is 0.
pub fn lrem(a: i64, b: i64) -> Option<i64> {
    (b != 0).then(|| a.wrapping_rem(b))
}

// The `as u32` casts below reinterpret the count's bits; `wrapping_sh*` then keeps the low 5 (i32)
// or 6 (i64) bits of it, which is exactly the JVM's masking.

/// `ishl`: `a << (n & 31)`.
pub fn ishl(a: i32, n: i32) -> i32 {
    a.wrapping_shl(n as u32)
}

/// `ishr`: `a >> (n & 31)`, sign-filling.
pub fn ishr(a: i32, n: i32) -> i32 {
    a.wrapping_shr(n as u32)
}

/// `iushr`: `a >>> (n & 31)`, zero-filling.
pub fn iushr(a: i32, n: i32) -> i32 {
    (a as u32).wrapping_shr(n as u32) as i32
}

/// `lshl`: `a << (n & 63)`.
pub fn lshl(a: i64, n: i32) -> i64 {
    a.wrapping_shl(n as u32)
}

/// `lshr`: `a >> (n & 63)`, sign-filling.
pub fn lshr(a: i64, n: i32) -> i64 {
    a.wrapping_shr(n as u32)
}

/// `lushr`: `a >>> (n & 63)`, zero-filling.
pub fn lushr(a: i64, n: i32) -> i64 {
    (a as u64).wrapping_shr(n as u32) as i64
}

// Rust's float-to-integer `as` has been saturating, with NaN to 0, since 1.45: JLS §5.1.3 exactly.

/// `f2i` (JLS §5.1.3).
pub fn f2i(x: f32) -> i32 {
    x as i32
}

/// `f2l` (JLS §5.1.3).
pub fn f2l(x: f32) -> i64 {
    x as i64
}

/// `d2i` (JLS §5.1.3).
pub fn d2i(x: f64) -> i32 {
    x as i32
}

/// `d2l` (JLS §5.1.3).
pub fn d2l(x: f64) -> i64 {
    x as i64
}

fn three_way(o: Ordering) -> i32 {
    match o {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

/// `lcmp`: -1, 0 or 1.
pub fn lcmp(a: i64, b: i64) -> i32 {
    three_way(a.cmp(&b))
}

/// `dcmpl`: -1, 0 or 1; -1 when either is NaN. `fcmpl` is the same on the floats widened (widening
/// keeps order and NaN).
pub fn dcmpl(a: f64, b: f64) -> i32 {
    a.partial_cmp(&b).map_or(-1, three_way)
}

/// `dcmpg`: -1, 0 or 1; 1 when either is NaN.
pub fn dcmpg(a: f64, b: f64) -> i32 {
    a.partial_cmp(&b).map_or(1, three_way)
}

/// `fcmpl`.
pub fn fcmpl(a: f32, b: f32) -> i32 {
    dcmpl(f64::from(a), f64::from(b))
}

/// `fcmpg`.
pub fn fcmpg(a: f32, b: f32) -> i32 {
    dcmpg(f64::from(a), f64::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_minus_one_and_zero() {
        assert_eq!(idiv(i32::MIN, -1), Some(i32::MIN));
        assert_eq!(irem(i32::MIN, -1), Some(0));
        assert_eq!(ldiv(i64::MIN, -1), Some(i64::MIN));
        assert_eq!(lrem(i64::MIN, -1), Some(0));
        assert_eq!(idiv(7, 0), None);
        assert_eq!(irem(0, 0), None);
        assert_eq!(ldiv(7, 0), None);
        assert_eq!(lrem(i64::MIN, 0), None);
    }

    #[test]
    fn division_rounds_toward_zero_and_remainder_follows_the_dividend() {
        assert_eq!(idiv(-7, 2), Some(-3));
        assert_eq!(irem(-7, 2), Some(-1));
        assert_eq!(irem(7, -2), Some(1));
        assert_eq!(ldiv(-7, 2), Some(-3));
        assert_eq!(lrem(-7, 2), Some(-1));
    }

    #[test]
    fn shift_counts_are_masked() {
        assert_eq!(ishl(1, 32), 1);
        assert_eq!(ishl(1, 33), 2);
        assert_eq!(ishl(1, -1), i32::MIN);
        assert_eq!(ishr(-8, 33), -4);
        assert_eq!(iushr(-1, 28), 15);
        assert_eq!(iushr(-1, 60), 15);
        assert_eq!(lshl(1, 64), 1);
        assert_eq!(lshl(1, 65), 2);
        assert_eq!(lshl(1, -1), i64::MIN);
        assert_eq!(lshr(-8, 65), -4);
        assert_eq!(lushr(-1, 60), 15);
        assert_eq!(lushr(-1, 124), 15);
    }

    #[test]
    fn float_to_integer_saturates_and_maps_nan_to_zero() {
        assert_eq!(f2i(f32::NAN), 0);
        assert_eq!(d2l(f64::NAN), 0);
        assert_eq!(f2i(3e9), i32::MAX);
        assert_eq!(d2i(-3e9), i32::MIN);
        assert_eq!(f2l(f32::INFINITY), i64::MAX);
        assert_eq!(d2l(f64::NEG_INFINITY), i64::MIN);
        assert_eq!(d2i(-2.9), -2);
        assert_eq!(f2i(2.9), 2);
        assert_eq!(d2i(-0.0), 0);
    }

    #[test]
    fn comparisons_and_nan() {
        assert_eq!(lcmp(i64::MIN, i64::MAX), -1);
        assert_eq!(lcmp(5, 5), 0);
        assert_eq!(dcmpl(f64::NAN, 1.0), -1);
        assert_eq!(dcmpg(f64::NAN, 1.0), 1);
        assert_eq!(fcmpl(1.0, f32::NAN), -1);
        assert_eq!(fcmpg(2.0, 1.0), 1);
        assert_eq!(dcmpl(-0.0, 0.0), 0);
    }
}
