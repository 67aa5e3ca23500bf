//! The constant pool (JVMS §4.4): every tag up to Java 21, read and written unchanged, with
//! interning of new entries appended at the end (existing indices never move).

/// One constant-pool entry. `Utf8` keeps the modified-UTF-8 bytes as they were in the file, so that
/// malformed or unusual encodings round-trip exactly; `ConstantPool::utf8` decodes them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Constant {
    Utf8(Vec<u8>),
    Integer(i32),
    /// The raw IEEE bits, so NaN payloads survive.
    Float(u32),
    Long(i64),
    /// The raw IEEE bits, so NaN payloads survive.
    Double(u64),
    Class { name_index: u16 },
    String { string_index: u16 },
    Fieldref { class_index: u16, name_and_type_index: u16 },
    Methodref { class_index: u16, name_and_type_index: u16 },
    InterfaceMethodref { class_index: u16, name_and_type_index: u16 },
    NameAndType { name_index: u16, descriptor_index: u16 },
    MethodHandle { reference_kind: u8, reference_index: u16 },
    MethodType { descriptor_index: u16 },
    Dynamic { bootstrap_method_attr_index: u16, name_and_type_index: u16 },
    InvokeDynamic { bootstrap_method_attr_index: u16, name_and_type_index: u16 },
    Module { name_index: u16 },
    Package { name_index: u16 },
    /// The second slot of a `Long` or `Double`, and slot 0: never written.
    Unusable,
}
