//! JVM facts that many floors of the workspace share, each defined once here at the bottom: the
//! eight primitive types (`PrimType`), Java's integer and conversion arithmetic (`arith`), the two
//! spellings of a class name (`ClassName`), and the typed-index pattern (`idx`) the dense tables
//! above use. No dependencies, no I/O.

pub mod arith;
mod class_name;
pub mod idx;
mod prim;

pub use class_name::{ClassName, package_internal};
pub use prim::PrimType;
