//! Java class files: bytes <-> model with a byte-exact round trip, and the containers classes come in
//! (jars, directories, jmods, classpaths). It knows the format only; meaning is for `analysis`.

mod constant_pool;
mod model;

pub use constant_pool::Constant;
pub use model::{Attribute, ClassFile, Member, access};

/// The constant pool, 1-based as in the format; slot 0 and the second slot of wide entries hold
/// `Constant::Unusable`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantPool {
    entries: Vec<Constant>,
}
