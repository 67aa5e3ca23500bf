//! The one error type of the crate: a pattern that is not valid Java, one that uses a construct
//! outside the covered subset (named, with its offset), or one whose automaton would be too large.
//! Offsets count `char`s of the pattern from 0.

/// Why a pattern was not compiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegexError {
    /// The pattern is not valid Java syntax (Java's `Pattern.compile` would throw
    /// `PatternSyntaxException` too).
    #[error("syntax error at offset {offset}: {message}")]
    Syntax { offset: usize, message: String },
    /// Valid Java, but the construct is outside what this crate models; `construct` names it as
    /// Java writes it.
    #[error("unsupported construct {construct} at offset {offset}")]
    Unsupported { offset: usize, construct: String },
    /// The automaton would exceed `limit` states.
    #[error("pattern too large: its automaton exceeds {limit} states")]
    TooLarge { limit: usize },
}

impl RegexError {
    pub(crate) fn syntax(offset: usize, message: impl Into<String>) -> RegexError {
        RegexError::Syntax { offset, message: message.into() }
    }

    pub(crate) fn unsupported(offset: usize, construct: impl Into<String>) -> RegexError {
        RegexError::Unsupported { offset, construct: construct.into() }
    }
}
