//! Java regular expressions as automata: a pattern in `java.util.regex.Pattern`'s syntax (the
//! common subset, docs/regex.md) compiled once to a deterministic automaton over code points,
//! then asked whether a string matches as a whole (`String.matches`), whether a substring does
//! (`Matcher.find`), how many single-char edits separate a string from the language (the string
//! branch distance of a `matches` call), and for accepted strings: the nearest to a given one,
//! or the first of a length, or a random one; and where Java's matcher would find matches (`split`), by a Pike VM
//! whose choices are ordered as Java's backtracking tries them. Groups are not reported. Every
//! answer is a pure function of the pattern, the flags and the input.

mod ast;
mod charset;
mod class;
mod dfa;
mod distance;
mod error;
mod escape;
mod nfa;
mod parse;
mod pike;
mod sample;

pub use crate::dfa::DState;
pub use crate::error::RegexError;

/// `Pattern`'s compile flags, as fields. Inline flags (`(?i)`) change them inside the pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    /// `CASE_INSENSITIVE`, `(?i)`: US-ASCII letters match either case.
    pub case_insensitive: bool,
    /// `MULTILINE`, `(?m)`: `^` and `$` also hold around line terminators.
    pub multiline: bool,
    /// `DOTALL`, `(?s)`: `.` matches line terminators too.
    pub dotall: bool,
    /// `UNIX_LINES`, `(?d)`: only `\n` ends a line (for `.` and `$`).
    pub unix_lines: bool,
    /// `COMMENTS`, `(?x)`: whitespace and `#` comments in the pattern are ignored.
    pub comments: bool,
    /// `LITERAL`: the pattern is a literal string.
    pub literal: bool,
    /// `UNICODE_CASE`, `(?u)`: refused together with `CASE_INSENSITIVE` (folding is ASCII only).
    pub unicode_case: bool,
}

impl Flags {
    pub const NONE: Flags = Flags {
        case_insensitive: false,
        multiline: false,
        dotall: false,
        unix_lines: false,
        comments: false,
        literal: false,
        unicode_case: false,
    };

    /// The flags of `Pattern.compile(regex, bits)`; `CANON_EQ` and `UNICODE_CHARACTER_CLASS`
    /// are refused.
    pub fn from_java_bits(bits: i32) -> Result<Flags, RegexError> {
        if bits & 128 != 0 {
            return Err(RegexError::Unsupported { offset: 0, construct: "CANON_EQ".into() });
        }
        if bits & 256 != 0 {
            return Err(RegexError::Unsupported { offset: 0, construct: "UNICODE_CHARACTER_CLASS".into() });
        }
        Ok(Flags {
            unix_lines: bits & 1 != 0,
            case_insensitive: bits & 2 != 0,
            comments: bits & 4 != 0,
            multiline: bits & 8 != 0,
            literal: bits & 16 != 0,
            dotall: bits & 32 != 0,
            unicode_case: bits & 64 != 0,
        })
    }
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct JavaRegex {
    pattern: String,
    flags: Flags,
    nfa: nfa::Nfa,
    dfa: dfa::Dfa,
    edges: distance::Edges,
}

impl JavaRegex {
    /// Parses `pattern` as `Pattern.compile(pattern, flags)` would and builds its automata.
    pub fn parse(pattern: &str, flags: Flags) -> Result<JavaRegex, RegexError> {
        let ast = parse::parse(pattern, flags)?;
        let nfa = nfa::Nfa::build(&ast)?;
        let dfa = dfa::Dfa::build(&nfa)?;
        let edges = distance::edges(&dfa);
        Ok(JavaRegex { pattern: pattern.to_string(), flags, nfa, dfa, edges })
    }

    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    pub fn flags(&self) -> Flags {
        self.flags
    }

    /// The number of states of the deterministic automaton (live states only).
    pub fn state_count(&self) -> usize {
        self.dfa.states.len()
    }

    /// Whether the pattern accepts no string at all.
    pub fn is_empty_language(&self) -> bool {
        self.dfa.states.is_empty()
    }

    /// Whether the whole of `s` matches: `Pattern.matches(pattern, s)`, `s.matches(pattern)`.
    pub fn matches(&self, s: &str) -> bool {
        self.dfa.matches(s)
    }

    /// Whether some substring of `s` matches: `Pattern.compile(pattern).matcher(s).find()`.
    pub fn find(&self, s: &str) -> bool {
        let chars: Vec<char> = s.chars().collect();
        pike::find_at(&self.nfa, &chars, 0).is_some()
    }

    /// The first match of the pattern in `s` as Java's `Matcher.find` reports it (leftmost, and
    /// among matches starting there the one Java's backtracking prefers), as char offsets
    /// `(start, end)`.
    pub fn find_span(&self, s: &str) -> Option<(usize, usize)> {
        let chars: Vec<char> = s.chars().collect();
        pike::find_at(&self.nfa, &chars, 0)
    }

    /// `s.split(pattern)`: Java's `String.split` with limit 0.
    pub fn split(&self, s: &str) -> Vec<String> {
        pike::split(&self.nfa, s)
    }

    /// The pieces of `Pattern.split(s, limit)` (and `String.split(regex, limit)`) as char ranges
    /// `(start, end)` of `s`, in order.
    pub fn split_spans(&self, s: &str, limit: i32) -> Vec<(usize, usize)> {
        let chars: Vec<char> = s.chars().collect();
        pike::split_spans(&self.nfa, &chars, limit)
    }

    /// The code points this pattern cannot tell from `c`, as sorted disjoint ranges: those that
    /// every character set of the pattern holds exactly when it holds `c`, and that anchors see
    /// as the same kind of char (word char, `\n`, `\r`, other line terminator, other). Putting one
    /// of them in place of `c` anywhere in an input changes no answer of `matches`, `find`,
    /// `find_span` or `split`: the automata read chars only through those sets and kinds.
    pub fn indistinguishable(&self, c: char) -> Vec<(u32, u32)> {
        nfa::indistinguishable(&self.nfa, c)
    }

    /// Whether the pattern has an anchor (`^ $ \A \z \Z \b \B`, in any mode): without one, a
    /// match depends on the chars it reads alone, never on where the input ends.
    pub fn has_anchors(&self) -> bool {
        nfa::has_anchors(&self.nfa)
    }

    /// The code points of the pattern's language when it is exactly the strings of one code point
    /// of a set and the pattern has no anchor (`=`, `[-T:]`, `a|b`), as sorted disjoint ranges;
    /// `None` for every other pattern. Every match of such a pattern is then one char of the set
    /// and every char of the set is a match, so `split` cuts at each of them and nowhere else
    /// (the DSE's split model moves a cut on that ground).
    pub fn single_char_class(&self) -> Option<Vec<(u32, u32)>> {
        let states = &self.dfa.states;
        let start = states.first()?;
        if self.has_anchors() || start.accept || start.trans.is_empty() {
            return None;
        }
        let mut out: Vec<(u32, u32)> = Vec::new();
        for &(lo, hi, to) in &start.trans {
            if !states[to].accept || !states[to].trans.is_empty() {
                return None;
            }
            match out.last_mut() {
                Some(last) if last.1 + 1 == lo => last.1 = hi,
                _ => out.push((lo, hi)),
            }
        }
        Some(out)
    }

    /// The code points no character set of the pattern holds, as sorted disjoint ranges: no match
    /// reads one, so chars of these never take part in a match.
    pub fn unread(&self) -> Vec<(u32, u32)> {
        nfa::unread(&self.nfa)
    }

    /// The deterministic automaton's states, the start first: for each, its transitions as
    /// `(lo, hi, target)` code-point ranges (sorted, disjoint; a char no range holds is
    /// rejected) and whether it accepts. Empty when the pattern accepts nothing. Anchors are
    /// already decided in it, so `matches` is a walk of these transitions.
    pub fn dfa_states(&self) -> &[DState] {
        &self.dfa.states
    }

    /// The least number of single-code-point insertions, deletions and replacements that turn
    /// `s` into a string the pattern accepts (0 exactly when `matches`); `u32::MAX` when the
    /// pattern accepts nothing.
    pub fn distance(&self, s: &str) -> u32 {
        distance::distance(&self.dfa, &self.edges, s).unwrap_or(u32::MAX)
    }

    /// An accepted string at [`JavaRegex::distance`] from `s`: `s` repaired with the fewest
    /// edits (`None` when the pattern accepts nothing).
    pub fn nearest(&self, s: &str) -> Option<String> {
        distance::nearest(&self.dfa, &self.edges, s)
    }

    /// The shortest accepted string whose length in code points is in `min_len..=max_len`,
    /// the same every time (letters before digits before other chars).
    pub fn example(&self, min_len: usize, max_len: usize) -> Option<String> {
        distance::example(&self.dfa, &self.edges, min_len, max_len)
    }

    /// A random accepted string drawn with `seed` (the same seed, the same string), at most
    /// `max_len` code points long unless no accepted string is that short; its chars are printable
    /// ASCII where the pattern allows (`None` when the pattern accepts nothing).
    pub fn sample(&self, seed: u64, max_len: usize) -> Option<String> {
        sample::sample(&self.dfa.states, seed, max_len)
    }
}
