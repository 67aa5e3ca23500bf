//! Bracketed character classes as JDK 9 and later read them: single chars, escapes and ranges,
//! predefined classes, nested classes (a union), `&&` intersections (looser than union) and a
//! leading `^` that negates the whole class, nested parts included. Case folding applies to the
//! literal chars and ranges, never to the predefined classes.

use crate::charset::CharSet;
use crate::error::RegexError;
use crate::parse::{Parser, literal_set};

impl Parser {
    /// After the `[` at `offset`, through the matching `]`.
    pub(crate) fn class(&mut self, offset: usize) -> Result<CharSet, RegexError> {
        self.enter()?;
        let negated = self.peek() == Some('^');
        if negated {
            self.pos += 1;
        }
        let mut operands: Vec<CharSet> = Vec::new();
        let mut current = CharSet::empty();
        let mut first = true;
        loop {
            let at = self.pos;
            let Some(c) = self.peek() else {
                return Err(RegexError::syntax(offset, "unclosed character class"));
            };
            match c {
                // A `]` right after `[` or `[^` is a literal, not the end.
                ']' if !first => {
                    self.pos += 1;
                    break;
                }
                '[' => {
                    self.pos += 1;
                    current = current.union(&self.class(at)?);
                }
                '&' if self.chars.get(self.pos + 1) == Some(&'&') => {
                    self.pos += 2;
                    operands.push(std::mem::take(&mut current));
                }
                '\\' if self.chars.get(self.pos + 1).is_some_and(|&c| is_set_escape(c)) => {
                    self.pos += 1;
                    current = current.union(&self.escape_set(at)?);
                }
                _ => {
                    let lo = self.class_char(at)?;
                    current = current.union(&self.range_from(lo, at)?);
                }
            }
            first = false;
        }
        let res = operands.into_iter().fold(current, |acc, op| op.intersect(&acc));
        self.depth -= 1;
        Ok(if negated { res.negate() } else { res })
    }

    /// One code point in a class: a plain char or a character escape, consumed.
    fn class_char(&mut self, at: usize) -> Result<u32, RegexError> {
        match self.next() {
            Some('\\') => {
                let c = self.chars.get(self.pos).copied();
                self.pos += 1;
                let c = c.ok_or_else(|| RegexError::syntax(at, "unexpected end after '\\'"))?;
                self.char_escape(c, at)
            }
            Some(c) => Ok(c as u32),
            None => Err(RegexError::syntax(at, "unclosed character class")),
        }
    }

    /// The set of `lo` alone or of the range `lo-hi` if a `-` and an endpoint follow.
    fn range_from(&mut self, lo: u32, at: usize) -> Result<CharSet, RegexError> {
        let dash = self.chars.get(self.pos) == Some(&'-');
        let endpoint = self.chars.get(self.pos + 1).is_some_and(|&c| c != ']' && c != '[');
        if !(dash && endpoint) {
            return Ok(literal_set(lo, self.flags));
        }
        self.pos += 1;
        let hi = self.class_char(at)?;
        if hi < lo {
            return Err(RegexError::syntax(at, "illegal character range"));
        }
        let set = CharSet::range(lo, hi);
        Ok(if self.flags.case_insensitive { set.ascii_case_folded() } else { set })
    }
}

/// Whether `\c` stands for a class rather than one code point.
fn is_set_escape(c: char) -> bool {
    matches!(c, 'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'h' | 'H' | 'v' | 'V' | 'p' | 'P')
}
