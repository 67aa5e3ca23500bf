//! The one error type of the crate: a spec that would give a malformed class file, or code that
//! `bytecode` refused to encode. Every variant names the stub class, and the member when there is
//! one, so the engine can report which type it could not stub without re-deriving it.

/// Why a [`crate::StubSpec`] cannot become a class file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StubError {
    /// A class or method name the JVM would reject (JVMS §4.2): empty, or containing a character
    /// not allowed there.
    #[error("stub {class}: {what} {name:?} is not a valid JVM name")]
    BadName { class: String, what: &'static str, name: String },
    /// A constructor or method descriptor that does not follow JVMS §4.3.
    #[error("stub {class}: {member}: {source}")]
    BadDescriptor { class: String, member: String, source: classfile::Error },
    /// A constructor descriptor whose return type is not `V`.
    #[error("stub {class}: constructor descriptor {descriptor:?} does not return void")]
    ConstructorNotVoid { class: String, descriptor: String },
    /// A method whose parameters, with `this` (and, for a constructor, the answers array), would
    /// take more than the 255 slots a method descriptor allows (JVMS §4.3.3).
    #[error("stub {class}: {member}{descriptor} needs {slots} parameter slots, more than 255")]
    TooManyParameterSlots { class: String, member: String, descriptor: String, slots: u32 },
    /// The same constructor or method listed twice: the class would have two identical members.
    #[error("stub {class}: {member}{descriptor} is listed twice")]
    Duplicate { class: String, member: String, descriptor: String },
    /// More interfaces, or more methods and constructors, than the `u2` counts of a class file hold.
    #[error("stub {class}: {count} {what}, more than a class file holds (65535)")]
    TooMany { class: String, what: &'static str, count: usize },
    /// The constant pool would overflow (more than 65535 entries) or a string would not fit a
    /// `Utf8` constant.
    #[error("stub {class}: constant pool overflow: {source}")]
    ConstantPool { class: String, source: classfile::Error },
    /// `bytecode` could not encode the body of a constructor or method. Stub bodies are short and
    /// straight-line, so this means a bug here rather than a bad spec; it is an error all the same
    /// so that the caller reports the stub instead of the process aborting.
    #[error("stub {class}: {member}{descriptor}: cannot encode its code: {source}")]
    Encode { class: String, member: String, descriptor: String, source: bytecode::EncodeError },
}
