//! Field and method descriptors (JVMS §4.3): parsing, printing back, and operand slot sizes.
//! Names inside `L...;` are kept in internal form and are not validated beyond being non-empty
//! and free of the characters `.`, `;`, `[` (JVMS §4.2.1).

use std::fmt;

use crate::Error;

/// A field type: a base type (`B C D F I J S Z`), a class (`Ljava/lang/String;`, kept as
/// `java/lang/String`), or an array of a field type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FieldType {
    Base(char),
    Object(String),
    Array(Box<FieldType>),
}

/// A method descriptor: parameter types and the return type (`None` for `void`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MethodDescriptor {
    pub params: Vec<FieldType>,
    pub ret: Option<FieldType>,
}

/// JVMS §4.4.1: at most 255 array dimensions.
const MAX_DIMENSIONS: usize = 255;

impl FieldType {
    /// Parses a complete field descriptor (`I`, `[Ljava/lang/Object;`).
    pub fn parse(s: &str) -> Result<FieldType, Error> {
        let (t, end) = parse_field_type(s, 0)?;
        if end != s.len() {
            return Err(bad(s, end));
        }
        Ok(t)
    }

    /// The number of local-variable / operand-stack slots a value takes: 2 for `long` and
    /// `double`, 1 otherwise (JVMS §2.6.1).
    pub fn slots(&self) -> u16 {
        match self {
            FieldType::Base('J' | 'D') => 2,
            _ => 1,
        }
    }

    /// True for class and array types.
    pub fn is_reference(&self) -> bool {
        !matches!(self, FieldType::Base(_))
    }
}

impl MethodDescriptor {
    /// Parses a method descriptor (`(I[JLjava/lang/String;)V`).
    pub fn parse(s: &str) -> Result<MethodDescriptor, Error> {
        if !s.starts_with('(') {
            return Err(bad(s, 0));
        }
        let mut pos = 1;
        let mut params = Vec::new();
        loop {
            match s.as_bytes().get(pos) {
                Some(b')') => break,
                Some(_) => {
                    let (t, end) = parse_field_type(s, pos)?;
                    params.push(t);
                    pos = end;
                }
                None => return Err(bad(s, pos)),
            }
        }
        pos += 1;
        let ret = if s.get(pos..) == Some("V") {
            pos += 1;
            None
        } else {
            let (t, end) = parse_field_type(s, pos)?;
            pos = end;
            Some(t)
        };
        if pos != s.len() {
            return Err(bad(s, pos));
        }
        Ok(MethodDescriptor { params, ret })
    }

    /// The slots the parameters take, without `this` (JVMS §2.6.1).
    pub fn param_slots(&self) -> u16 {
        self.params.iter().map(FieldType::slots).sum()
    }

    /// The slots the return value takes: 0 for `void`.
    pub fn ret_slots(&self) -> u16 {
        self.ret.as_ref().map_or(0, FieldType::slots)
    }
}

fn bad(s: &str, offset: usize) -> Error {
    Error::BadDescriptor { descriptor: s.to_owned(), offset }
}

/// Parses one field type starting at byte `pos`; returns it and the position after it. Arrays
/// are counted first and wrapped afterwards, so deep nesting needs no recursion.
fn parse_field_type(s: &str, pos: usize) -> Result<(FieldType, usize), Error> {
    let b = s.as_bytes();
    let mut p = pos;
    while b.get(p) == Some(&b'[') {
        p += 1;
    }
    let dims = p - pos;
    if dims > MAX_DIMENSIONS {
        return Err(bad(s, pos));
    }
    let (mut t, end) = match b.get(p) {
        Some(&c @ (b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z')) => {
            (FieldType::Base(c as char), p + 1)
        }
        Some(b'L') => {
            let start = p + 1;
            let len = b[start..].iter().position(|&c| c == b';').ok_or_else(|| bad(s, p))?;
            let name = &s[start..start + len];
            if name.is_empty() || name.contains(['.', '[']) {
                return Err(bad(s, start));
            }
            (FieldType::Object(name.to_owned()), start + len + 1)
        }
        _ => return Err(bad(s, p)),
    };
    for _ in 0..dims {
        t = FieldType::Array(Box::new(t));
    }
    Ok((t, end))
}

impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Iterative over array dimensions, like the parser.
        let mut t = self;
        while let FieldType::Array(inner) = t {
            f.write_str("[")?;
            t = inner;
        }
        match t {
            FieldType::Base(c) => write!(f, "{c}"),
            FieldType::Object(name) => write!(f, "L{name};"),
            FieldType::Array(_) => Ok(()),
        }
    }
}

impl fmt::Display for MethodDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for p in &self.params {
            write!(f, "{p}")?;
        }
        f.write_str(")")?;
        match &self.ret {
            Some(t) => write!(f, "{t}"),
            None => f.write_str("V"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_slots() {
        for d in
            ["(I[JLjava/lang/String;)V", "()[[D", "(JD)J", "([[[Ljava/util/Map$Entry;Z)Ljava/lang/Object;"]
        {
            let m = MethodDescriptor::parse(d).unwrap();
            assert_eq!(m.to_string(), d);
        }
        let m = MethodDescriptor::parse("(IJDLjava/lang/Object;[J)D").unwrap();
        assert_eq!((m.param_slots(), m.ret_slots()), (7, 2));
        assert_eq!(FieldType::parse("[J").unwrap().slots(), 1);
        assert_eq!(
            FieldType::parse("[Ljava/lang/String;").unwrap(),
            FieldType::Array(Box::new(FieldType::Object("java/lang/String".into())))
        );
    }

    #[test]
    fn rejects_malformed() {
        for d in ["", "(", "(I", "()", "()VV", "(V)V", "(L;)V", "(Ljava/lang/String)V", "()Q", "(La.b;)V"] {
            assert!(MethodDescriptor::parse(d).is_err(), "{d}");
        }
        for d in ["", "V", "II", "L", "[", "Lx;I"] {
            assert!(FieldType::parse(d).is_err(), "{d}");
        }
        assert!(FieldType::parse(&format!("{}I", "[".repeat(256))).is_err());
        assert!(FieldType::parse(&format!("{}I", "[".repeat(255))).is_ok());
    }

    #[test]
    fn never_panics_on_arbitrary_text() {
        let alphabet = ["(", ")", "[", "L", ";", "I", "J", "V", "é", "/", ".", "\u{1F600}", "x"];
        let mut state = 0x1234_5678_u64;
        for _ in 0..20_000 {
            let mut d = String::new();
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let len = (state >> 60) as usize;
            for k in 0..len {
                d.push_str(alphabet[((state >> (4 * k)) % alphabet.len() as u64) as usize]);
            }
            if let Ok(m) = MethodDescriptor::parse(&d) {
                assert_eq!(m.to_string(), d);
            }
            if let Ok(t) = FieldType::parse(&d) {
                assert_eq!(t.to_string(), d);
            }
        }
    }
}
