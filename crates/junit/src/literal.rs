//! Java literals for every primitive type and for strings (JLS §3.10), written in pure ASCII: other
//! characters become `\uXXXX` escapes of their UTF-16 units. The line terminators are written as `\n`
//! and `\r`, never `\u000a`/`\u000d`, because unicode escapes are translated before lexing (JLS §3.3)
//! and would end the literal; `"`, `'` and `\` likewise get their escape sequences (JLS §3.10.7).

use std::fmt::Write as _;

use testcase::PrimValue;

/// A primitive value as a Java expression of exactly its type: `3L`, `(byte)-1`, `(short)7`,
/// `Integer.MIN_VALUE`, `1.5F`, `Float.NaN`, `Double.POSITIVE_INFINITY`, `'\''`.
pub fn prim_literal(v: PrimValue) -> String {
    match v {
        PrimValue::Boolean(b) => b.to_string(),
        PrimValue::Byte(b) => format!("(byte){b}"),
        PrimValue::Short(s) => format!("(short){s}"),
        PrimValue::Char(c) => char_literal(c),
        // `-2147483648` compiles only as the operand of unary minus (JLS §3.10.1); EvoSuite and
        // readers prefer the constant's name anyway.
        PrimValue::Int(i32::MIN) => "Integer.MIN_VALUE".to_string(),
        PrimValue::Int(i) => i.to_string(),
        PrimValue::Long(i64::MIN) => "Long.MIN_VALUE".to_string(),
        PrimValue::Long(l) => format!("{l}L"),
        PrimValue::Float(bits) => {
            let f = f32::from_bits(bits);
            if f.is_nan() {
                "Float.NaN".to_string()
            } else if f.is_infinite() {
                if f > 0.0 { "Float.POSITIVE_INFINITY" } else { "Float.NEGATIVE_INFINITY" }.to_string()
            } else {
                // Rust's shortest round-trip form (`1.5`, `1e-45`, `-0.0`) is a valid Java decimal
                // floating-point literal that rounds (round to nearest, JLS §3.10.2) to the same bits.
                format!("{f:?}F")
            }
        }
        PrimValue::Double(bits) => {
            let d = f64::from_bits(bits);
            if d.is_nan() {
                "Double.NaN".to_string()
            } else if d.is_infinite() {
                if d > 0.0 { "Double.POSITIVE_INFINITY" } else { "Double.NEGATIVE_INFINITY" }.to_string()
            } else {
                // Debug output always has a `.` or an exponent, so it is a double literal.
                format!("{d:?}")
            }
        }
    }
}

/// A `char` literal of one UTF-16 unit.
pub fn char_literal(c: u16) -> String {
    let mut out = String::from("'");
    escape_unit(&mut out, c, '\'');
    out.push('\'');
    out
}

/// A string literal; characters outside printable ASCII become escapes of their UTF-16 units.
pub fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for unit in s.encode_utf16() {
        escape_unit(&mut out, unit, '"');
    }
    out.push('"');
    out
}

fn escape_unit(out: &mut String, unit: u16, quote: char) {
    match unit {
        0x5c => out.push_str("\\\\"),
        0x0a => out.push_str("\\n"),
        0x0d => out.push_str("\\r"),
        0x09 => out.push_str("\\t"),
        0x08 => out.push_str("\\b"),
        0x0c => out.push_str("\\f"),
        u if u == quote as u16 => {
            out.push('\\');
            out.push(quote);
        }
        0x20..=0x7e => out.push(unit as u8 as char),
        // Writing to a String cannot fail.
        _ => {
            let _ = write!(out, "\\u{unit:04x}");
        }
    }
}

/// A Java identifier in ASCII: non-ASCII characters as `\uXXXX` escapes (allowed in identifiers,
/// JLS §3.3); ASCII passes unchanged.
pub(crate) fn ascii_ident(s: &str) -> String {
    if s.is_ascii() {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for unit in s.encode_utf16() {
        if unit < 0x80 {
            out.push(unit as u8 as char);
        } else {
            let _ = write!(out, "\\u{unit:04x}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        let cases: Vec<(PrimValue, &str)> = vec![
            (PrimValue::Int(i32::MIN), "Integer.MIN_VALUE"),
            (PrimValue::Int(i32::MAX), "2147483647"),
            (PrimValue::Long(i64::MIN), "Long.MIN_VALUE"),
            (PrimValue::Long(-1), "-1L"),
            (PrimValue::Byte(-128), "(byte)-128"),
            (PrimValue::Short(7), "(short)7"),
            (PrimValue::float(f32::NAN), "Float.NaN"),
            (PrimValue::float(f32::NEG_INFINITY), "Float.NEGATIVE_INFINITY"),
            (PrimValue::float(-0.0), "-0.0F"),
            (PrimValue::float(f32::from_bits(1)), "1e-45F"),
            (PrimValue::double(f64::INFINITY), "Double.POSITIVE_INFINITY"),
            (PrimValue::double(0.1), "0.1"),
            (PrimValue::double(1e300), "1e300"),
            (PrimValue::Char(b'\'' as u16), r"'\''"),
            (PrimValue::Char(b'\\' as u16), r"'\\'"),
            (PrimValue::Char(b'"' as u16), "'\"'"),
            (PrimValue::Char(0xe9), r"'\u00e9'"),
            (PrimValue::Char(0x0a), r"'\n'"),
            (PrimValue::Char(0), r"'\u0000'"),
        ];
        for (v, want) in cases {
            assert_eq!(prim_literal(v), want, "{v:?}");
        }
        assert_eq!(string_literal("a\"b'\\\n\u{20ac}\u{1F600}"), r#""a\"b'\\\n\u20ac\ud83d\ude00""#);
        assert_eq!(ascii_ident("caf\u{e9}"), r"caf\u00e9");
    }
}
