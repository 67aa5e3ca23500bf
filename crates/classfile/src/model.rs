//! The in-memory model of a class file (JVMS §4), kept close to the bytes so that writing it back
//! reproduces the input exactly. Attributes are raw bytes; typed views of the attributes the engine
//! needs (`Code`, in `code.rs`) are parsed on demand by their owners.

/// A parsed class file. Indices into the constant pool are kept as the raw `u16` of the format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassFile {
    pub minor_version: u16,
    pub major_version: u16,
    pub constant_pool: crate::ConstantPool,
    pub access_flags: u16,
    pub this_class: u16,
    pub super_class: u16,
    pub interfaces: Vec<u16>,
    pub fields: Vec<Member>,
    pub methods: Vec<Member>,
    pub attributes: Vec<Attribute>,
}

/// A field or a method: both have the same shape in the format (JVMS §4.5, §4.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub access_flags: u16,
    pub name_index: u16,
    pub descriptor_index: u16,
    pub attributes: Vec<Attribute>,
}

/// Any attribute, as raw bytes after its 6-byte header. Owners of a format parse `info` themselves
/// (e.g. `Code::parse`), so an attribute nobody understands survives untouched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    pub name_index: u16,
    pub info: Vec<u8>,
}

/// Access flags (JVMS tables 4.1-B, 4.5-A, 4.6-A).
pub mod access {
    pub const PUBLIC: u16 = 0x0001;
    pub const PRIVATE: u16 = 0x0002;
    pub const PROTECTED: u16 = 0x0004;
    pub const STATIC: u16 = 0x0008;
    pub const FINAL: u16 = 0x0010;
    pub const SUPER_OR_SYNCHRONIZED: u16 = 0x0020;
    pub const VOLATILE_OR_BRIDGE: u16 = 0x0040;
    pub const TRANSIENT_OR_VARARGS: u16 = 0x0080;
    pub const NATIVE: u16 = 0x0100;
    pub const INTERFACE: u16 = 0x0200;
    pub const ABSTRACT: u16 = 0x0400;
    pub const STRICT: u16 = 0x0800;
    pub const SYNTHETIC: u16 = 0x1000;
    pub const ANNOTATION: u16 = 0x2000;
    pub const ENUM: u16 = 0x4000;
    pub const MODULE: u16 = 0x8000;
}
