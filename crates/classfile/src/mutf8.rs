//! Modified UTF-8 (JVMS §4.4.7), the encoding of `CONSTANT_Utf8` entries: like UTF-8, except that
//! U+0000 is written as the two bytes `C0 80` and characters above U+FFFF as a UTF-16 surrogate pair,
//! each surrogate encoded as a 3-byte sequence (6 bytes in all).
//!
//! Both directions borrow when they can: most names and strings are ASCII or plain UTF-8 without
//! NUL or supplementary characters, and then the two encodings coincide.

use std::borrow::Cow;

/// Decodes modified UTF-8. Returns `None` for bytes that are not valid modified UTF-8 or that
/// encode a lone surrogate (a Rust `str` cannot hold one).
///
/// Leniency, deliberately: a raw `00` byte and standard 4-byte UTF-8 sequences (both forbidden by
/// the JVMS) are accepted as the characters they would mean in UTF-8.
pub fn decode(bytes: &[u8]) -> Option<Cow<'_, str>> {
    // `from_utf8` rejects `C0 80` (overlong) and encoded surrogates, so whenever it succeeds the
    // bytes mean the same thing in both encodings.
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Some(Cow::Borrowed(s));
    }
    decode_slow(bytes).map(Cow::Owned)
}

fn decode_slow(bytes: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b0 = bytes[i];
        if b0 < 0x80 {
            out.push(b0 as char);
            i += 1;
            continue;
        }
        let cont = |k: usize| -> Option<u32> {
            let b = *bytes.get(i + k)?;
            if b & 0xC0 == 0x80 { Some(u32::from(b & 0x3F)) } else { None }
        };
        if b0 & 0xE0 == 0xC0 {
            let c = (u32::from(b0 & 0x1F) << 6) | cont(1)?;
            // Overlong forms are invalid except `C0 80` for U+0000.
            if c < 0x80 && c != 0 {
                return None;
            }
            out.push(char::from_u32(c)?);
            i += 2;
        } else if b0 & 0xF0 == 0xE0 {
            let c = (u32::from(b0 & 0x0F) << 12) | (cont(1)? << 6) | cont(2)?;
            if c < 0x800 {
                return None;
            }
            if (0xD800..0xDC00).contains(&c) {
                // A high surrogate must be followed by a 3-byte low surrogate.
                let b3 = *bytes.get(i + 3)?;
                if b3 & 0xF0 != 0xE0 {
                    return None;
                }
                let lo = (u32::from(b3 & 0x0F) << 12) | (cont(4)? << 6) | cont(5)?;
                if !(0xDC00..0xE000).contains(&lo) {
                    return None;
                }
                let cp = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                out.push(char::from_u32(cp)?);
                i += 6;
            } else {
                // A lone low surrogate yields `None` here.
                out.push(char::from_u32(c)?);
                i += 3;
            }
        } else if b0 & 0xF8 == 0xF0 {
            // Standard 4-byte UTF-8 (see the leniency note on `decode`).
            let c = (u32::from(b0 & 0x07) << 18) | (cont(1)? << 12) | (cont(2)? << 6) | cont(3)?;
            if c < 0x10000 {
                return None;
            }
            out.push(char::from_u32(c)?);
            i += 4;
        } else {
            return None;
        }
    }
    Some(out)
}

/// Encodes a string as modified UTF-8, borrowing its bytes when they are already correct.
pub fn encode(s: &str) -> Cow<'_, [u8]> {
    // Bytes >= F0 start 4-byte sequences (supplementary characters).
    if s.bytes().all(|b| b != 0 && b < 0xF0) {
        return Cow::Borrowed(s.as_bytes());
    }
    let mut out = Vec::with_capacity(s.len() + 8);
    for c in s.chars() {
        let c = c as u32;
        if c == 0 {
            out.extend_from_slice(&[0xC0, 0x80]);
        } else if c < 0x80 {
            out.push(c as u8);
        } else if c < 0x800 {
            out.push(0xC0 | (c >> 6) as u8);
            out.push(0x80 | (c & 0x3F) as u8);
        } else if c < 0x10000 {
            push3(&mut out, c);
        } else {
            let v = c - 0x10000;
            push3(&mut out, 0xD800 + (v >> 10));
            push3(&mut out, 0xDC00 + (v & 0x3FF));
        }
    }
    Cow::Owned(out)
}

fn push3(out: &mut Vec<u8>, c: u32) {
    out.push(0xE0 | (c >> 12) as u8);
    out.push(0x80 | ((c >> 6) & 0x3F) as u8);
    out.push(0x80 | (c & 0x3F) as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_and_supplementary() {
        let s = "a\0b\u{1F600}é€";
        let enc = encode(s);
        assert_eq!(
            &enc[..],
            &[b'a', 0xC0, 0x80, b'b', 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, 0xC3, 0xA9, 0xE2, 0x82, 0xAC]
        );
        assert_eq!(decode(&enc).as_deref(), Some(s));
        assert!(matches!(encode("plain/Ascii"), Cow::Borrowed(_)));
        assert!(matches!(decode(b"plain"), Some(Cow::Borrowed(_))));
    }

    #[test]
    fn invalid_inputs() {
        // A lone high surrogate, a lone low surrogate, a truncated sequence, an overlong 'A'.
        for bad in [&[0xED, 0xA0, 0x80][..], &[0xED, 0xB0, 0x80], &[0xE2, 0x82], &[0xC1, 0x81], &[0xFF]] {
            assert_eq!(decode(bad), None, "{bad:x?}");
        }
    }
}
