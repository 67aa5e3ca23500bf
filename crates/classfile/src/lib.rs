//! Java class files: bytes <-> model with a byte-exact round trip, and the containers classes come in
//! (jars, directories, jmods, classpaths). It knows the format only; meaning is for `analysis`.
//!
//! - `ClassFile::parse` / `ClassFile::to_bytes`: the whole file (JVMS §4.1); attributes stay raw.
//! - `ConstantPool`: lookups that resolve to strings (`utf8`, `class_name`, `member_ref`) and
//!   append-only interning for the instrumenter; `mutf8` for the string encoding (JVMS §4.4.7).
//! - `Code`: the typed view of the `Code` attribute (JVMS §4.7.3); instructions are `bytecode`'s.
//! - `descriptor`: field and method descriptors (JVMS §4.3).
//! - `classpath`: directories, jars, jmods and `Class-Path` manifests.
//!
//! **Architecture Invariant:** for every input `b` that `ClassFile::parse` accepts,
//! `ClassFile::parse(b)?.to_bytes() == b`; a rejected input is an `Err`, never a panic. The
//! round-trip tests hold this over every class of the real-world corpus, and the corruption tests
//! over tens of thousands of truncated and damaged variants.

mod attribute;
mod class;
pub mod classpath;
mod code;
mod constant_pool;
pub mod descriptor;
mod error;
mod model;
pub mod mutf8;
mod reader;

pub use classpath::{ClassPath, ClassPathEntry};
pub use code::{Code, ExceptionEntry};
pub use constant_pool::{Constant, ConstantPool, MemberKind, MemberRef};
pub use error::Error;
pub use model::{Attribute, ClassFile, Member, access};
