//! Java class files: bytes <-> model with a byte-exact round trip, and the containers classes come in
//! (jars, directories, jmods, classpaths). It knows the format only; meaning is for `analysis`.

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
