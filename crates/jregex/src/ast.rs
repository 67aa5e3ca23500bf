//! The regular-expression tree a Java pattern parses into: character sets, concatenation,
//! alternation, counted repetition and the zero-width anchors that whole-string and containment
//! matching can decide. Flags are already applied (case folding is in the sets, `.` is a set), so
//! the tree means one language and nothing about Java's spelling survives here.

use crate::charset::CharSet;

/// A zero-width assertion the automata keep as a conditional empty step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Look {
    /// At the start of the input: `^` (without `MULTILINE`) and `\A`.
    Start,
    /// At the end of the input: `\z`.
    End,
    /// At the end of the input or before a line terminator that ends it: `$` (without
    /// `MULTILINE`) and `\Z`. With `UNIX_LINES` only `\n` is a line terminator.
    Dollar { unix_lines: bool },
    /// `\b`: a word char on one side and not on the other (word chars: `[A-Za-z0-9_]`).
    WordBoundary,
    /// `\B`: word chars on both sides or on neither.
    NotWordBoundary,
    /// `^` under `MULTILINE`: at the start or after a line terminator (not inside `\r\n`),
    /// but never at the end of the input.
    LineStart { unix_lines: bool },
    /// `$` under `MULTILINE`: at the end or before a line terminator (not inside `\r\n`).
    LineEnd { unix_lines: bool },
}

impl Look {
    /// Whether the anchor depends on the chars around the position, not only on whether there
    /// are any (the DFA then tells states apart by the char before).
    pub fn is_local(self) -> bool {
        matches!(
            self,
            Look::WordBoundary | Look::NotWordBoundary | Look::LineStart { .. } | Look::LineEnd { .. }
        )
    }
}

/// A regular expression over code points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ast {
    /// The empty string.
    Empty,
    /// One code point of the set (an empty set matches nothing).
    Set(CharSet),
    Concat(Vec<Ast>),
    Alt(Vec<Ast>),
    /// `min` to `max` (unbounded when `None`) repetitions. Greedy and reluctant repetition
    /// accept the same strings; `greedy` only orders the choices for leftmost-first match
    /// positions (`split`).
    Repeat {
        ast: Box<Ast>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        /// The offset of a possessive quantifier's atom (a character set; the compiler checks
        /// that possession cannot change the language).
        possessive: Option<usize>,
    },
    /// An anchor, with the offset in the pattern that wrote it (for errors found later).
    Look {
        look: Look,
        offset: usize,
    },
}
