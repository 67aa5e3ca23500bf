//! Sorts and concrete values of the constraint language: bit-vectors hold their bits zero-extended
//! in a `u64`, floats their raw IEEE bits, so NaN payloads and -0.0 survive every round trip.

use std::fmt;

/// Sorts. Java int = Bv(32), long = Bv(64), char = Bv(16) (unsigned), short = Bv(16), byte = Bv(8)
/// (only used by explicit narrowing; the JVM computes in int), boolean = Bool when it is a
/// condition, Bv(32) 0/1 when it is a JVM int value. Float = F32, double = F64.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Sort {
    Bool,
    Bv(u8),
    F32,
    F64,
}

/// A concrete value of a sort. Bv holds the bits zero-extended in a u64 (width from the sort);
/// floats hold raw IEEE bits (so NaN payloads and -0.0 are exact).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Value {
    Bool(bool),
    Bv { width: u8, bits: u64 },
    F32(u32),
    F64(u64),
}

/// The bits of a `width`-bit vector.
pub(crate) fn mask(width: u8) -> u64 {
    if width >= 64 { u64::MAX } else { (1u64 << width) - 1 }
}

/// `bits` of a `width`-bit vector read as a two's complement number.
pub(crate) fn sext(bits: u64, width: u8) -> i64 {
    if width >= 64 {
        bits as i64
    } else {
        let shift = 64 - u32::from(width);
        ((bits << shift) as i64) >> shift
    }
}

impl Value {
    pub fn i32(v: i32) -> Value {
        Value::Bv { width: 32, bits: u64::from(v as u32) }
    }
    pub fn i64(v: i64) -> Value {
        Value::Bv { width: 64, bits: v as u64 }
    }
    pub fn char(c: u16) -> Value {
        Value::Bv { width: 16, bits: u64::from(c) }
    }
    /// A bit-vector of `width` bits holding the low bits of `v`.
    pub fn bv(width: u8, v: i64) -> Value {
        Value::Bv { width, bits: v as u64 & mask(width) }
    }
    pub fn f32(v: f32) -> Value {
        Value::F32(v.to_bits())
    }
    pub fn f64(v: f64) -> Value {
        Value::F64(v.to_bits())
    }
    /// The default value of a sort: false, 0, +0.0 (what a JVM field starts with).
    pub fn default_of(sort: Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(false),
            Sort::Bv(width) => Value::Bv { width, bits: 0 },
            Sort::F32 => Value::F32(0),
            Sort::F64 => Value::F64(0),
        }
    }
    /// The signed number a bit-vector holds, sign-extended from its width (a Bv(16) char above
    /// 0x7fff reads negative: use `as_u64` for unsigned reading); a Bool is 0 or 1; a float
    /// converts as Java's `(long)` cast does.
    pub fn as_i64(&self) -> i64 {
        match *self {
            Value::Bool(b) => i64::from(b),
            Value::Bv { width, bits } => sext(bits, width),
            Value::F32(bits) => f32::from_bits(bits) as i64,
            Value::F64(bits) => f64::from_bits(bits) as i64,
        }
    }
    /// `as_i64` truncated to 32 bits (Java's `(int)` of a long).
    pub fn as_i32(&self) -> i32 {
        self.as_i64() as i32
    }
    /// The raw bits: a bit-vector's zero-extended, a float's IEEE pattern, a Bool's 0 or 1.
    pub fn as_u64(&self) -> u64 {
        match *self {
            Value::Bool(b) => u64::from(b),
            Value::Bv { bits, .. } | Value::F64(bits) => bits,
            Value::F32(bits) => u64::from(bits),
        }
    }
    /// A double (a float widened exactly; a bit-vector converted from its signed value).
    pub fn as_f64(&self) -> f64 {
        match *self {
            Value::F64(bits) => f64::from_bits(bits),
            Value::F32(bits) => f64::from(f32::from_bits(bits)),
            _ => self.as_i64() as f64,
        }
    }
    /// A float (a double rounded to nearest; a bit-vector converted from its signed value).
    pub fn as_f32(&self) -> f32 {
        match *self {
            Value::F32(bits) => f32::from_bits(bits),
            Value::F64(bits) => f64::from_bits(bits) as f32,
            _ => self.as_i64() as f32,
        }
    }
    /// A Bool's value; a bit-vector is true when non-zero.
    pub fn as_bool(&self) -> bool {
        match *self {
            Value::Bool(b) => b,
            other => other.as_u64() != 0,
        }
    }
    pub fn sort(&self) -> Sort {
        match *self {
            Value::Bool(_) => Sort::Bool,
            Value::Bv { width, .. } => Sort::Bv(width),
            Value::F32(_) => Sort::F32,
            Value::F64(_) => Sort::F64,
        }
    }
    /// Whether this is a float or double NaN (of any payload).
    pub fn is_nan(&self) -> bool {
        match *self {
            Value::F32(bits) => f32::from_bits(bits).is_nan(),
            Value::F64(bits) => f64::from_bits(bits).is_nan(),
            _ => false,
        }
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("bool"),
            Sort::Bv(w) => write!(f, "bv{w}"),
            Sort::F32 => f.write_str("float"),
            Sort::F64 => f.write_str("double"),
        }
    }
}

/// Java-like literals: `5`, `5L`, `(char)65`, `(bv8)-1`, `1.5f`, `1.5`, `NaN`, `true`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Bv { width: 32, bits } => write!(f, "{}", bits as u32 as i32),
            Value::Bv { width: 64, bits } => write!(f, "{}L", bits as i64),
            Value::Bv { width: 16, bits } => write!(f, "(char){bits}"),
            Value::Bv { width, bits } => write!(f, "(bv{width}){}", sext(bits, width)),
            Value::F32(bits) => write!(f, "{:?}f", f32::from_bits(bits)),
            Value::F64(bits) => write!(f, "{:?}", f64::from_bits(bits)),
        }
    }
}
