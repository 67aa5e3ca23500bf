//! Java's backslash escapes: control and numeric character escapes (`\t \n \r \f \a \e \cX \0oo
//! \xhh \x{h..h} \uhhhh`), predefined classes (`\d \D \s \S \w \W \h \H \v \V`), POSIX and
//! `java.lang.Character` classes by name (`\p{Lower}`, `\P{Alpha}`, ASCII ranges only) and the
//! anchors `\A \z \Z \b \B`. What needs Unicode tables or more context (`\R`,
//! `\X`, scripts, blocks, categories, back references) is refused by name.

use crate::ast::Look;
use crate::charset::CharSet;
use crate::error::RegexError;
use crate::parse::{Escaped, Parser, literal_set};

/// `[ \t\n\x0B\f\r]`: Java's `\s` without `UNICODE_CHARACTER_CLASS`.
const SPACE: &str = " \t\n\u{B}\u{C}\r";

impl Parser {
    /// After a `\` outside a class (at `offset`).
    pub(crate) fn escape(&mut self, offset: usize) -> Result<Escaped, RegexError> {
        let Some(&c) = self.chars.get(self.pos) else {
            return Err(RegexError::syntax(offset, "unexpected end after '\\'"));
        };
        match c {
            'A' => self.step(Escaped::Look(Look::Start)),
            'z' => self.step(Escaped::Look(Look::End)),
            'Z' => self.step(Escaped::Look(Look::Dollar { unix_lines: self.flags.unix_lines })),
            'b' => self.step(Escaped::Look(Look::WordBoundary)),
            'B' => self.step(Escaped::Look(Look::NotWordBoundary)),
            _ => Ok(Escaped::Set(self.escape_set(offset)?)),
        }
    }

    fn step(&mut self, e: Escaped) -> Result<Escaped, RegexError> {
        self.pos += 1;
        Ok(e)
    }

    /// After a `\` (at `offset`), in or out of a class: an escape that stands for a set of code
    /// points (one code point for the character escapes, with case folding applied).
    pub(crate) fn escape_set(&mut self, offset: usize) -> Result<CharSet, RegexError> {
        let Some(c) = self.chars.get(self.pos).copied() else {
            return Err(RegexError::syntax(offset, "unexpected end after '\\'"));
        };
        self.pos += 1;
        let set = match c {
            'd' => digits(),
            'D' => digits().negate(),
            's' => CharSet::of_chars(SPACE),
            'S' => CharSet::of_chars(SPACE).negate(),
            'w' => word(),
            'W' => word().negate(),
            'h' => horizontal(),
            'H' => horizontal().negate(),
            'v' => vertical(),
            'V' => vertical().negate(),
            'p' | 'P' => {
                let set = self.property(offset)?;
                if c == 'P' { set.negate() } else { set }
            }
            'b' | 'B' => return Err(RegexError::unsupported(offset, format!("\\{c} inside a class"))),
            'G' => return Err(RegexError::unsupported(offset, "\\G")),
            'R' => return Err(RegexError::unsupported(offset, "linebreak matcher \\R")),
            'X' => return Err(RegexError::unsupported(offset, "grapheme cluster \\X")),
            'N' => return Err(RegexError::unsupported(offset, "named character \\N{...}")),
            'k' => return Err(RegexError::unsupported(offset, "named back reference \\k")),
            '1'..='9' => return Err(RegexError::unsupported(offset, format!("back reference \\{c}"))),
            _ => {
                let cp = self.char_escape(c, offset)?;
                return Ok(literal_set(cp, self.flags));
            }
        };
        Ok(set)
    }

    /// The code point of a character escape whose letter `c` was just consumed.
    pub(crate) fn char_escape(&mut self, c: char, offset: usize) -> Result<u32, RegexError> {
        Ok(match c {
            't' => 9,
            'n' => 10,
            'r' => 13,
            'f' => 12,
            'a' => 7,
            'e' => 27,
            'c' => {
                let x = self.chars.get(self.pos).copied();
                self.pos += 1;
                x.ok_or_else(|| RegexError::syntax(offset, "illegal control escape"))? as u32 ^ 64
            }
            '0' => self.octal(offset)?,
            'x' => self.hex_escape(offset)?,
            'u' => self.unicode_escape(offset)?,
            c if c.is_ascii_alphanumeric() => {
                return Err(RegexError::syntax(offset, format!("illegal/unsupported escape \\{c}")));
            }
            // Any other escaped char is itself: `\.`, `\\`, `\[`, `\-`, `\ `.
            c => c as u32,
        })
    }

    /// `\0n`, `\0nn` or `\0mnn` (m at most 3) after the `0`.
    fn octal(&mut self, offset: usize) -> Result<u32, RegexError> {
        let digit = |p: &Parser, i: usize| p.chars.get(p.pos + i).and_then(|c| c.to_digit(8));
        let Some(first) = digit(self, 0) else {
            return Err(RegexError::syntax(offset, "illegal octal escape sequence"));
        };
        let mut value = first;
        let mut n = 1;
        while n < 3 {
            let Some(d) = digit(self, n) else { break };
            // A third digit only when the value stays a byte (`\0377` at most).
            if n == 2 && first > 3 {
                break;
            }
            value = value * 8 + d;
            n += 1;
        }
        self.pos += n;
        Ok(value)
    }

    fn hex_digits(&mut self, n: usize, offset: usize) -> Result<u32, RegexError> {
        let text: String = self.chars.iter().skip(self.pos).take(n).collect();
        if text.chars().count() != n || !text.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(RegexError::syntax(offset, "illegal hexadecimal escape sequence"));
        }
        self.pos += n;
        u32::from_str_radix(&text, 16).map_err(|_| RegexError::syntax(offset, "illegal hexadecimal escape"))
    }

    /// `\xhh` or `\x{h...h}` after the `x`.
    fn hex_escape(&mut self, offset: usize) -> Result<u32, RegexError> {
        if self.chars.get(self.pos) != Some(&'{') {
            return self.hex_digits(2, offset);
        }
        let close = self.chars[self.pos..].iter().position(|&c| c == '}');
        let Some(len) = close.filter(|&l| l > 1) else {
            return Err(RegexError::syntax(offset, "unclosed hexadecimal escape sequence"));
        };
        self.pos += 1;
        let value = self.hex_digits(len - 1, offset)?;
        self.pos += 1;
        if value > crate::charset::MAX_CODE_POINT {
            return Err(RegexError::syntax(offset, "hexadecimal codepoint is too big"));
        }
        Ok(value)
    }

    /// `\uhhhh` after the `u`; a high surrogate followed by `\u` and a low surrogate is one
    /// supplementary code point, as in Java.
    fn unicode_escape(&mut self, offset: usize) -> Result<u32, RegexError> {
        let hi = self.hex_digits(4, offset)?;
        let pair_follows =
            self.chars.get(self.pos) == Some(&'\\') && self.chars.get(self.pos + 1) == Some(&'u');
        if (0xD800..0xDC00).contains(&hi) && pair_follows {
            let save = self.pos;
            self.pos += 2;
            if let Ok(lo) = self.hex_digits(4, offset)
                && (0xDC00..0xE000).contains(&lo)
            {
                return Ok(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
            }
            self.pos = save;
        }
        Ok(hi)
    }

    /// `{Name}` (or a one-letter name) after `\p` or `\P`: the POSIX classes and the ASCII-exact
    /// `java.lang.Character` ones; anything that needs Unicode tables is refused.
    fn property(&mut self, offset: usize) -> Result<CharSet, RegexError> {
        let name: String = if self.chars.get(self.pos) == Some(&'{') {
            let Some(len) = self.chars[self.pos..].iter().position(|&c| c == '}') else {
                return Err(RegexError::syntax(offset, "unclosed character family"));
            };
            let name = self.chars[self.pos + 1..self.pos + len].iter().collect();
            self.pos += len + 1;
            name
        } else {
            let Some(&c) = self.chars.get(self.pos) else {
                return Err(RegexError::syntax(offset, "illegal character family"));
            };
            self.pos += 1;
            c.to_string()
        };
        let set =
            posix_class(&name).ok_or_else(|| RegexError::unsupported(offset, format!("\\p{{{name}}}")))?;
        // Java folds `\p{Lower}` and `\p{Upper}` (and only those of these) under
        // CASE_INSENSITIVE, so both match every ASCII letter.
        if self.flags.case_insensitive && matches!(name.as_str(), "Lower" | "Upper") {
            return Ok(set.ascii_case_folded());
        }
        Ok(set)
    }
}

fn digits() -> CharSet {
    CharSet::range('0' as u32, '9' as u32)
}

fn word() -> CharSet {
    CharSet::from_ranges(vec![
        ('a' as u32, 'z' as u32),
        ('A' as u32, 'Z' as u32),
        ('0' as u32, '9' as u32),
        (95, 95),
    ])
}

/// `\h`: `[ \t\xA0\u1680\u180e\u2000-\u200a\u202f\u205f\u3000]`.
fn horizontal() -> CharSet {
    CharSet::of_chars(" \t\u{A0}\u{1680}\u{180E}\u{202F}\u{205F}\u{3000}")
        .union(&CharSet::range(0x2000, 0x200A))
}

/// `\v`: `[\n\x0B\f\r\x85\u2028\u2029]`.
fn vertical() -> CharSet {
    CharSet::of_chars("\n\u{B}\u{C}\r\u{85}\u{2028}\u{2029}")
}

/// The US-ASCII POSIX classes of `Pattern`'s documentation, by name.
fn posix_class(name: &str) -> Option<CharSet> {
    let r = |lo: char, hi: char| (lo as u32, hi as u32);
    let lower = vec![r('a', 'z')];
    let upper = vec![r('A', 'Z')];
    let digit = vec![r('0', '9')];
    let punct = vec![r('!', '/'), r(':', '@'), r('[', '`'), r('{', '~')];
    let ranges = match name {
        "Lower" => lower,
        "Upper" => upper,
        "ASCII" => vec![(0, 0x7F)],
        "Alpha" => [lower, upper].concat(),
        "Digit" => digit,
        "Alnum" => [lower, upper, digit].concat(),
        "Punct" => punct,
        "Graph" => [lower, upper, digit, punct].concat(),
        "Print" => [lower, upper, digit, punct, vec![(32, 32)]].concat(),
        "Blank" => vec![(32, 32), (9, 9)],
        "Cntrl" => vec![(0, 0x1F), (0x7F, 0x7F)],
        "XDigit" => [digit, vec![r('a', 'f'), r('A', 'F')]].concat(),
        "Space" => return Some(CharSet::of_chars(SPACE)),
        "all" => return Some(CharSet::all()),
        _ => return None,
    };
    Some(CharSet::from_ranges(ranges))
}
