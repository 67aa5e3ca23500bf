//! The one error type of the crate. Every variant says what failed and, for bytes, at which offset;
//! `Error::InClass` wraps an error with the class it happened in once that name is known.

use std::path::PathBuf;

/// Everything that can go wrong reading or writing class files and their containers.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input ended before `what` (of `needed` bytes) could be read at `offset`.
    #[error("truncated input: {what} needs {needed} byte(s) at offset {offset}")]
    Truncated { what: &'static str, offset: usize, needed: usize },
    /// The first four bytes are not 0xCAFEBABE (JVMS §4.1).
    #[error("bad magic {magic:#010x} at offset 0")]
    BadMagic { magic: u32 },
    /// A major version below 45 (JDK 1.0.2) is not a class file we know.
    #[error("unsupported class-file version {major}.{minor}")]
    UnsupportedVersion { major: u16, minor: u16 },
    /// An unknown constant-pool tag (JVMS Table 4.4-B).
    #[error("unknown constant-pool tag {tag} for entry #{index} at offset {offset}")]
    BadConstantTag { tag: u8, index: u16, offset: usize },
    /// A structure is internally inconsistent (e.g. an attribute whose declared length disagrees
    /// with its content).
    #[error("malformed {what} at offset {offset}")]
    Malformed { what: &'static str, offset: usize },
    /// Bytes were left after the end of a structure that must be consumed completely.
    #[error("{count} trailing byte(s) after {what} at offset {offset}")]
    TrailingBytes { what: &'static str, offset: usize, count: usize },
    /// A constant-pool index that is zero, out of range, or names the wrong kind of entry.
    #[error("bad constant-pool index #{index} at offset {offset}: expected {expected}")]
    BadConstantIndex { index: u16, expected: &'static str, offset: usize },
    /// Interning would push the constant pool past 65535 entries (JVMS §4.1 `constant_pool_count`).
    #[error("constant pool full: cannot add {what} (limit 65535 entries)")]
    ConstantPoolFull { what: &'static str },
    /// A string whose modified-UTF-8 form exceeds the 65535 bytes a `CONSTANT_Utf8` can hold
    /// (JVMS §4.4.7).
    #[error("string too long for a Utf8 constant: {len} bytes of modified UTF-8 (limit 65535)")]
    StringTooLong { len: usize },
    /// A field or method descriptor that does not follow JVMS §4.3.
    #[error("bad descriptor {descriptor:?} at character {offset}")]
    BadDescriptor { descriptor: String, offset: usize },
    /// Wraps an error with the name of the class (internal form) it happened in.
    #[error("in class {class}: {source}")]
    InClass { class: String, source: Box<Error> },
    /// A file or directory could not be read.
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    /// A jar or jmod that is not a readable zip archive.
    #[error("cannot read archive {path}: {source}")]
    Zip { path: PathBuf, source: zip::result::ZipError },
    /// A classpath entry that exists but is neither a directory, a jar/zip nor a jmod.
    #[error("not a class container (directory, .jar, .zip or .jmod): {path}")]
    NotAContainer { path: PathBuf },
}

impl Error {
    /// Attaches the class name (internal form) to an error, unless it already has one.
    pub fn in_class(self, class: impl Into<String>) -> Error {
        match self {
            Error::InClass { .. } => self,
            other => Error::InClass { class: class.into(), source: Box::new(other) },
        }
    }

    /// The class this error happened in, when known.
    pub fn class(&self) -> Option<&str> {
        match self {
            Error::InClass { class, .. } => Some(class),
            _ => None,
        }
    }

    /// The byte offset in the class file where the error was found, when it is about bytes.
    pub fn offset(&self) -> Option<usize> {
        match self {
            Error::Truncated { offset, .. }
            | Error::BadConstantTag { offset, .. }
            | Error::Malformed { offset, .. }
            | Error::TrailingBytes { offset, .. }
            | Error::BadConstantIndex { offset, .. } => Some(*offset),
            Error::BadMagic { .. } => Some(0),
            Error::InClass { source, .. } => source.offset(),
            _ => None,
        }
    }
}
