//! Java's regular-expression syntax (`java.util.regex.Pattern`, JDK 9 and later) to [`Ast`]:
//! alternation, groups, inline flags, quantifiers, anchors and atoms. Escapes, predefined and
//! POSIX classes and bracketed classes are in `escape.rs` and `class.rs`. Java's text is parsed
//! here rather than handed to `regex-syntax` because the two dialects differ (`&&` intersections,
//! `\Q..\E`, `\0` octals, `$` before a final line terminator, ASCII-only case folding).

use crate::Flags;
use crate::ast::{Ast, Look};
use crate::charset::CharSet;
use crate::error::RegexError;

/// How deep groups and classes may nest: the tree is walked recursively, so the depth is bounded
/// rather than left to the stack.
const MAX_DEPTH: usize = 250;

/// The parser state: the pattern as chars, the position, and the flags in force (inline flags
/// change them until the end of the enclosing group).
pub(crate) struct Parser {
    pub(crate) chars: Vec<char>,
    pub(crate) pos: usize,
    pub(crate) flags: Flags,
    pub(crate) depth: usize,
}

/// What an escape outside a class stands for.
pub(crate) enum Escaped {
    Set(CharSet),
    Look(Look),
}

/// Parses `pattern` under `flags` (already validated by the caller).
pub(crate) fn parse(pattern: &str, flags: Flags) -> Result<Ast, RegexError> {
    if flags.literal {
        let chars = pattern.chars().map(|c| Ast::Set(literal_set(c as u32, flags))).collect();
        return Ok(Ast::Concat(chars));
    }
    check_flags(flags, 0)?;
    let chars = remove_quoting(pattern.chars().collect());
    let mut p = Parser { chars, pos: 0, flags, depth: 0 };
    let ast = p.alternation()?;
    if p.pos < p.chars.len() {
        // Only an unmatched `)` stops the top-level alternation early.
        return Err(RegexError::syntax(p.pos, "unmatched closing ')'"));
    }
    Ok(ast)
}

/// Java's first pass over a pattern: `\Q...\E` (to the end without `\E`) becomes the same text
/// with every ASCII char that is not a letter or digit escaped, and a digit right after `\Q`
/// written `\x3d` (so no escape before the quote can take it). Parsing the result is Java's
/// reading, quirks included: the pass pairs a backslash with the char after it, so in `\c\Q..`
/// the `\c` takes the backslash of `\Q` once the pass has run. Error offsets after a `\Q` count
/// the rewritten text.
fn remove_quoting(chars: Vec<char>) -> Vec<char> {
    let mut i = 0;
    while i + 1 < chars.len() && !(chars[i] == '\\' && chars[i + 1] == 'Q') {
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    if i + 1 >= chars.len() {
        return chars;
    }
    let mut out = chars[..i].to_vec();
    i += 2;
    let (mut in_quote, mut begin) = (true, true);
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if !c.is_ascii() || c.is_ascii_alphabetic() {
            out.push(c);
        } else if c.is_ascii_digit() {
            if begin {
                out.extend(['\\', 'x', '3']);
            }
            out.push(c);
        } else if c != '\\' {
            if in_quote {
                out.push('\\');
            }
            out.push(c);
        } else if in_quote {
            if chars.get(i) == Some(&'E') {
                i += 1;
                in_quote = false;
            } else {
                out.extend(['\\', '\\']);
            }
        } else if chars.get(i) == Some(&'Q') {
            i += 1;
            in_quote = true;
            begin = true;
            continue;
        } else {
            out.push(c);
            if let Some(&next) = chars.get(i) {
                out.push(next);
                i += 1;
            }
        }
        begin = false;
    }
    out
}

/// Case folding here is US-ASCII only, which is Java's without `UNICODE_CASE`.
fn check_flags(flags: Flags, offset: usize) -> Result<(), RegexError> {
    if flags.case_insensitive && flags.unicode_case {
        return Err(RegexError::unsupported(offset, "UNICODE_CASE with CASE_INSENSITIVE"));
    }
    Ok(())
}

/// The set one literal code point matches under `flags`.
pub(crate) fn literal_set(c: u32, flags: Flags) -> CharSet {
    let set = CharSet::single(c);
    if flags.case_insensitive { set.ascii_case_folded() } else { set }
}

impl Parser {
    /// The next char, after the whitespace and `#` comments that `COMMENTS` mode ignores.
    pub(crate) fn peek(&mut self) -> Option<char> {
        if self.flags.comments {
            self.skip_comments();
        }
        self.chars.get(self.pos).copied()
    }

    fn skip_comments(&mut self) {
        while let Some(&c) = self.chars.get(self.pos) {
            if c.is_whitespace() {
                self.pos += 1;
            } else if c == '#' {
                while self.chars.get(self.pos).is_some_and(|&c| c != '\n') {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// The next char (comments skipped), consumed.
    pub(crate) fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    pub(crate) fn enter(&mut self) -> Result<(), RegexError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(RegexError::unsupported(self.pos, format!("nesting deeper than {MAX_DEPTH}")));
        }
        Ok(())
    }

    /// `a|b|...` up to an unmatched `)` or the end.
    fn alternation(&mut self) -> Result<Ast, RegexError> {
        let mut alts = vec![self.concatenation()?];
        while self.peek() == Some('|') {
            self.pos += 1;
            alts.push(self.concatenation()?);
        }
        Ok(if alts.len() == 1 { alts.pop().unwrap_or(Ast::Empty) } else { Ast::Alt(alts) })
    }

    /// Quantified atoms up to `|`, `)` or the end.
    fn concatenation(&mut self) -> Result<Ast, RegexError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let start = self.pos;
            let Some(atom) = self.atom()? else { continue };
            items.push(self.quantified(atom, start)?);
        }
        Ok(match items.len() {
            0 => Ast::Empty,
            1 => items.pop().unwrap_or(Ast::Empty),
            _ => Ast::Concat(items),
        })
    }

    /// One atom; `None` for what matches nothing and takes no quantifier (an inline flag group).
    fn atom(&mut self) -> Result<Option<Ast>, RegexError> {
        let offset = self.pos;
        let Some(c) = self.next() else { return Ok(Some(Ast::Empty)) };
        let ast = match c {
            '(' => return self.group(offset),
            '[' => Ast::Set(self.class(offset)?),
            '.' => Ast::Set(self.dot()),
            '^' => self.anchor(offset, Look::Start, Look::LineStart { unix_lines: self.flags.unix_lines }),
            '$' => self.anchor(
                offset,
                Look::Dollar { unix_lines: self.flags.unix_lines },
                Look::LineEnd { unix_lines: self.flags.unix_lines },
            ),
            '\\' => match self.escape(offset)? {
                Escaped::Set(set) => Ast::Set(set),
                Escaped::Look(look) => Ast::Look { look, offset },
            },
            '*' | '+' | '?' => {
                return Err(RegexError::syntax(offset, format!("dangling meta character '{c}'")));
            }
            '{' => {
                // Java reads a counted quantifier with nothing before it (at the start, after a
                // group's `(`, `|` or another quantifier) as repeating the empty string; the
                // caller parses it as a quantifier of this empty atom.
                self.pos = offset;
                Ast::Empty
            }
            c => Ast::Set(literal_set(c as u32, self.flags)),
        };
        Ok(Some(ast))
    }

    /// `^` and `$`: their `MULTILINE` meaning when that flag is on.
    fn anchor(&self, offset: usize, plain: Look, multiline: Look) -> Ast {
        Ast::Look { look: if self.flags.multiline { multiline } else { plain }, offset }
    }

    /// `.`: every code point but the line terminators, unless `DOTALL`; with `UNIX_LINES` only
    /// `\n` ends a line.
    fn dot(&self) -> CharSet {
        if self.flags.dotall {
            CharSet::all()
        } else if self.flags.unix_lines {
            CharSet::single('\n' as u32).negate()
        } else {
            CharSet::of_chars("\n\r\u{85}\u{2028}\u{2029}").negate()
        }
    }

    /// After `(`: a group of some kind, or an inline flag setting (`None`).
    fn group(&mut self, offset: usize) -> Result<Option<Ast>, RegexError> {
        self.enter()?;
        let saved = self.flags;
        if self.chars.get(self.pos) == Some(&'?') {
            self.pos += 1;
            match self.chars.get(self.pos).copied() {
                Some(':') => self.pos += 1,
                Some('<') if self.chars.get(self.pos + 1).is_some_and(|c| c.is_ascii_alphabetic()) => {
                    self.group_name(offset)?;
                }
                Some('=') => return Err(RegexError::unsupported(offset, "lookahead (?=")),
                Some('!') => return Err(RegexError::unsupported(offset, "negative lookahead (?!")),
                Some('<') => return Err(RegexError::unsupported(offset, "lookbehind (?<")),
                Some('>') => return Err(RegexError::unsupported(offset, "atomic group (?>")),
                _ => {
                    if self.inline_flags(offset)? {
                        // `(?i)`: the flags stay for the rest of the enclosing group.
                        self.depth -= 1;
                        return Ok(None);
                    }
                }
            }
        }
        let ast = self.alternation()?;
        if self.next() != Some(')') {
            return Err(RegexError::syntax(offset, "unclosed group"));
        }
        self.flags = saved;
        self.depth -= 1;
        Ok(Some(ast))
    }

    /// `<name>` of a named group (letters then letters or digits, as Java requires).
    fn group_name(&mut self, offset: usize) -> Result<(), RegexError> {
        self.pos += 1;
        while let Some(&c) = self.chars.get(self.pos) {
            self.pos += 1;
            if c == '>' {
                return Ok(());
            }
            if !c.is_ascii_alphanumeric() {
                return Err(RegexError::syntax(offset, "named group name must be letters and digits"));
            }
        }
        Err(RegexError::syntax(offset, "unclosed group name"))
    }

    /// Flags after `(?`: `idmsuxU`, optionally `-` and more, then `)` (returns true: a setting)
    /// or `:` (returns false: a group with those flags follows).
    fn inline_flags(&mut self, offset: usize) -> Result<bool, RegexError> {
        let mut on = true;
        while let Some(&c) = self.chars.get(self.pos) {
            self.pos += 1;
            match c {
                '-' => on = false,
                ')' | ':' => {
                    check_flags(self.flags, offset)?;
                    return Ok(c == ')');
                }
                'i' => self.flags.case_insensitive = on,
                's' => self.flags.dotall = on,
                'd' => self.flags.unix_lines = on,
                'x' => self.flags.comments = on,
                'm' => self.flags.multiline = on,
                'u' => self.flags.unicode_case = on,
                'U' if on => {
                    return Err(RegexError::unsupported(self.pos - 1, "(?U) UNICODE_CHARACTER_CLASS"));
                }
                'U' => {}
                _ => return Err(RegexError::syntax(self.pos - 1, format!("unknown inline flag '{c}'"))),
            }
        }
        Err(RegexError::syntax(offset, "unclosed group"))
    }

    /// The quantifiers after an atom that started at `start`.
    fn quantified(&mut self, atom: Ast, start: usize) -> Result<Ast, RegexError> {
        let offset = self.pos;
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.pos += 1;
                self.bounds(offset)?
            }
            _ => return Ok(atom),
        };
        // Past `*`, `+`, `?` or the `}` of a counted closure.
        self.pos += 1;
        let mut greedy = true;
        let mut possessive = None;
        // `peek`: under `COMMENTS` Java skips whitespace before the `?` or `+` too.
        match self.peek() {
            // A reluctant quantifier accepts the same strings as the greedy one; it only
            // prefers shorter matches.
            Some('?') => {
                self.pos += 1;
                greedy = false;
            }
            Some('+') => {
                // A possessive quantifier never gives back what it took, so `a*+a` accepts
                // nothing. On one character set it means the greedy language exactly when what
                // follows cannot start with that set, which the compiler checks; on a group
                // it is an atomic group, refused.
                if !matches!(atom, Ast::Set(_)) {
                    return Err(RegexError::unsupported(start, "possessive quantifier on a group"));
                }
                self.pos += 1;
                possessive = Some(start);
            }
            _ => {}
        }
        Ok(Ast::Repeat { ast: Box::new(atom), min, max, greedy, possessive })
    }

    /// `{n}`, `{n,}` or `{n,m}` after the `{`, with the `}` consumed.
    fn bounds(&mut self, offset: usize) -> Result<(u32, Option<u32>), RegexError> {
        let min = self.number().ok_or_else(|| RegexError::syntax(offset, "illegal repetition"))?;
        let max = if self.chars.get(self.pos) == Some(&',') {
            self.pos += 1;
            if self.chars.get(self.pos) == Some(&'}') {
                None
            } else {
                Some(self.number().unwrap_or(u32::MAX))
            }
        } else {
            Some(min)
        };
        if self.chars.get(self.pos) != Some(&'}') {
            return Err(RegexError::syntax(offset, "unclosed counted closure"));
        }
        if max.is_some_and(|m| m < min) {
            return Err(RegexError::syntax(offset, "illegal repetition range"));
        }
        // The caller steps over the `}`.
        Ok((min, max))
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.chars.get(self.pos).is_some_and(char::is_ascii_digit) {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        text.parse().ok()
    }
}
