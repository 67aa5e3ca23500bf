//! Concrete JVM values with their optional symbolic shadows, and the conversions between the
//! interpreter's values and the solver's `Value`s. Objects are concrete heap indices; only
//! primitives carry shadows (a string's length and characters live in the heap object).

use solver::{ExprId, Value};

/// An object of the interpreter's heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct ObjId(pub u32);

/// A concrete JVM value; floats as raw IEEE bits (NaN payloads and -0.0 are exact). `Top` fills
/// unset locals and the second slot of a long or double.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum C {
    I(i32),
    J(i64),
    F(u32),
    D(u64),
    R(Option<ObjId>),
    Top,
}

/// A value on the stack, in a local, a field or an array element: the concrete value and, when it
/// depends on an input, its shadow expression (of the sort `C::sort` gives).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub c: C,
    pub s: Option<ExprId>,
}

impl Slot {
    pub fn conc(c: C) -> Slot {
        Slot { c, s: None }
    }

    pub fn int(v: i32) -> Slot {
        Slot::conc(C::I(v))
    }

    pub fn long(v: i64) -> Slot {
        Slot::conc(C::J(v))
    }

    pub fn null() -> Slot {
        Slot::conc(C::R(None))
    }

    pub fn obj(o: ObjId) -> Slot {
        Slot::conc(C::R(Some(o)))
    }

    pub const TOP: Slot = Slot { c: C::Top, s: None };

    /// Whether the value takes two slots (long, double): `dup2` and friends ask.
    pub fn wide(&self) -> bool {
        matches!(self.c, C::J(_) | C::D(_))
    }

    pub fn as_int(&self) -> i32 {
        match self.c {
            C::I(v) => v,
            C::J(v) => v as i32,
            _ => 0,
        }
    }

    pub fn as_long(&self) -> i64 {
        match self.c {
            C::J(v) => v,
            C::I(v) => i64::from(v),
            _ => 0,
        }
    }

    pub fn as_ref(&self) -> Option<ObjId> {
        match self.c {
            C::R(r) => r,
            _ => None,
        }
    }
}

impl C {
    /// The solver value of a primitive.
    pub fn value(self) -> Option<Value> {
        match self {
            C::I(v) => Some(Value::i32(v)),
            C::J(v) => Some(Value::i64(v)),
            C::F(b) => Some(Value::F32(b)),
            C::D(b) => Some(Value::F64(b)),
            C::R(_) | C::Top => None,
        }
    }

    /// Back from a solver value: bit vectors of 32 bits and less are ints, 64 longs; a Bool is the
    /// JVM int 0/1.
    pub fn from_value(v: Value) -> C {
        match v {
            Value::Bool(b) => C::I(i32::from(b)),
            Value::Bv { width: 64, bits } => C::J(bits as i64),
            Value::Bv { width, bits } => {
                // Sign-extend from the width: narrower vectors only come from explicit narrowing,
                // whose JVM value the caller widens with its own extension.
                let shift = 64 - u32::from(width.max(1));
                C::I(((bits << shift) as i64 >> shift) as i32)
            }
            Value::F32(b) => C::F(b),
            Value::F64(b) => C::D(b),
        }
    }
}

/// The default value of a field or array element of this descriptor (JVMS §2.3, §2.4).
pub(crate) fn default_of(desc: &str) -> Slot {
    Slot::conc(match desc.as_bytes().first() {
        Some(b'J') => C::J(0),
        Some(b'F') => C::F(0),
        Some(b'D') => C::D(0),
        Some(b'L' | b'[') => C::R(None),
        _ => C::I(0),
    })
}

/// The parameter descriptors of a method descriptor, and its return descriptor.
pub(crate) fn split_descriptor(desc: &str) -> (Vec<&str>, &str) {
    let mut params = Vec::new();
    let b = desc.as_bytes();
    let mut i = 1;
    while i < b.len() && b[i] != b')' {
        let start = i;
        while b[i] == b'[' {
            i += 1;
        }
        if b[i] == b'L' {
            while i < b.len() && b[i] != b';' {
                i += 1;
            }
        }
        i += 1;
        params.push(&desc[start..i.min(desc.len())]);
    }
    let ret = desc.get(i + 1..).unwrap_or("V");
    (params, ret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_split() {
        assert_eq!(
            split_descriptor("(I[JLjava/lang/String;D)V"),
            (vec!["I", "[J", "Ljava/lang/String;", "D"], "V")
        );
        assert_eq!(split_descriptor("()[[I"), (vec![], "[[I"));
    }
}
