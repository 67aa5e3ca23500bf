//! The constant pool (JVMS §4.4): every tag up to Java 21, read and written unchanged, with
//! interning of new entries appended at the end (existing indices never move).

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::reader::{Reader, put_u16, put_u32};
use crate::{Error, mutf8};

/// One constant-pool entry. `Utf8` keeps the modified-UTF-8 bytes as they were in the file, so that
/// malformed or unusual encodings round-trip exactly; `ConstantPool::utf8` decodes them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Constant {
    Utf8(Vec<u8>),
    Integer(i32),
    /// The raw IEEE bits, so NaN payloads survive.
    Float(u32),
    Long(i64),
    /// The raw IEEE bits, so NaN payloads survive.
    Double(u64),
    Class {
        name_index: u16,
    },
    String {
        string_index: u16,
    },
    Fieldref {
        class_index: u16,
        name_and_type_index: u16,
    },
    Methodref {
        class_index: u16,
        name_and_type_index: u16,
    },
    InterfaceMethodref {
        class_index: u16,
        name_and_type_index: u16,
    },
    NameAndType {
        name_index: u16,
        descriptor_index: u16,
    },
    MethodHandle {
        reference_kind: u8,
        reference_index: u16,
    },
    MethodType {
        descriptor_index: u16,
    },
    Dynamic {
        bootstrap_method_attr_index: u16,
        name_and_type_index: u16,
    },
    InvokeDynamic {
        bootstrap_method_attr_index: u16,
        name_and_type_index: u16,
    },
    Module {
        name_index: u16,
    },
    Package {
        name_index: u16,
    },
    /// The second slot of a `Long` or `Double`, and slot 0: never written.
    Unusable,
}

/// The constant pool, 1-based as in the format: valid indices are `1..len()`. Slot 0 and the second
/// slot of a `Long`/`Double` hold `Constant::Unusable`, so an index into the file is an index here.
///
/// Strings: `Utf8` entries keep their raw modified-UTF-8 bytes and are decoded on each access into
/// a `Cow<str>`, borrowed whenever the bytes are also plain UTF-8 (nearly always), owned otherwise.
/// No cache is kept, so the pool stays a plain value.
///
/// Interning (`intern_*`) appends at the end and returns the index of an identical existing entry
/// when there is one; existing indices never move.
#[derive(Debug, Clone)]
pub struct ConstantPool {
    entries: Vec<Constant>,
    /// Entry -> first index holding it; built on the first `intern_*` call, then kept up to date.
    index: Option<BTreeMap<Constant, u16>>,
}

impl PartialEq for ConstantPool {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl Eq for ConstantPool {}

impl Default for ConstantPool {
    fn default() -> Self {
        ConstantPool::new()
    }
}

/// Which kind of member reference a `MemberRef` came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemberKind {
    Field,
    Method,
    InterfaceMethod,
}

/// A resolved `Fieldref`, `Methodref` or `InterfaceMethodref`: class in internal form
/// (`java/lang/String`), member name and descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MemberRef<'a> {
    pub kind: MemberKind,
    pub class: Cow<'a, str>,
    pub name: Cow<'a, str>,
    pub descriptor: Cow<'a, str>,
}

/// The largest `constant_pool_count` (a `u2`); valid indices are below it.
const MAX_COUNT: usize = 65535;

impl ConstantPool {
    /// An empty pool (only the unusable slot 0).
    pub fn new() -> ConstantPool {
        ConstantPool { entries: vec![Constant::Unusable], index: None }
    }

    /// `constant_pool_count` as written in the file: one more than the largest valid index.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the pool has no entry besides slot 0.
    pub fn is_empty(&self) -> bool {
        self.entries.len() <= 1
    }

    /// The entry at `index`; `None` for 0, out of range, or the second slot of a `Long`/`Double`.
    pub fn get(&self, index: u16) -> Option<&Constant> {
        match self.entries.get(usize::from(index))? {
            Constant::Unusable => None,
            c => Some(c),
        }
    }

    /// Every usable entry with its index, in order.
    pub fn iter(&self) -> impl Iterator<Item = (u16, &Constant)> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, c)| !matches!(c, Constant::Unusable))
            .map(|(i, c)| (i as u16, c))
    }

    /// The raw modified-UTF-8 bytes of the `Utf8` entry at `index`.
    pub fn utf8_bytes(&self, index: u16) -> Option<&[u8]> {
        match self.get(index)? {
            Constant::Utf8(b) => Some(b),
            _ => None,
        }
    }

    /// The decoded `Utf8` entry at `index`; `None` if it is not a `Utf8` entry or not valid
    /// modified UTF-8 (see `mutf8::decode`).
    pub fn utf8(&self, index: u16) -> Option<Cow<'_, str>> {
        mutf8::decode(self.utf8_bytes(index)?)
    }

    /// The name (internal form, e.g. `java/lang/Object` or `[I`) of the `Class` entry at `index`.
    pub fn class_name(&self, index: u16) -> Option<Cow<'_, str>> {
        match self.get(index)? {
            Constant::Class { name_index } => self.utf8(*name_index),
            _ => None,
        }
    }

    /// The `(name, descriptor)` of the `NameAndType` entry at `index`.
    pub fn name_and_type(&self, index: u16) -> Option<(Cow<'_, str>, Cow<'_, str>)> {
        match self.get(index)? {
            Constant::NameAndType { name_index, descriptor_index } => {
                Some((self.utf8(*name_index)?, self.utf8(*descriptor_index)?))
            }
            _ => None,
        }
    }

    /// The `Fieldref`, `Methodref` or `InterfaceMethodref` at `index`, resolved to strings.
    pub fn member_ref(&self, index: u16) -> Option<MemberRef<'_>> {
        let (kind, class_index, nat) = match self.get(index)? {
            Constant::Fieldref { class_index, name_and_type_index } => {
                (MemberKind::Field, *class_index, *name_and_type_index)
            }
            Constant::Methodref { class_index, name_and_type_index } => {
                (MemberKind::Method, *class_index, *name_and_type_index)
            }
            Constant::InterfaceMethodref { class_index, name_and_type_index } => {
                (MemberKind::InterfaceMethod, *class_index, *name_and_type_index)
            }
            _ => return None,
        };
        let class = self.class_name(class_index)?;
        let (name, descriptor) = self.name_and_type(nat)?;
        Some(MemberRef { kind, class, name, descriptor })
    }

    /// Appends `c` without looking for an identical entry (use `intern_*` to share). `Long` and
    /// `Double` take two slots. Fails if the pool would exceed 65535 slots or a `Utf8` entry
    /// 65535 bytes.
    pub fn push(&mut self, c: Constant) -> Result<u16, Error> {
        if matches!(c, Constant::Unusable) {
            return Err(Error::Malformed { what: "push of Constant::Unusable", offset: 0 });
        }
        if let Constant::Utf8(b) = &c
            && b.len() > usize::from(u16::MAX)
        {
            return Err(Error::StringTooLong { len: b.len() });
        }
        let wide = matches!(c, Constant::Long(_) | Constant::Double(_));
        let needed = if wide { 2 } else { 1 };
        if self.entries.is_empty() {
            self.entries.push(Constant::Unusable);
        }
        if self.entries.len() + needed > MAX_COUNT {
            return Err(Error::ConstantPoolFull { what: constant_kind(&c) });
        }
        let idx = self.entries.len() as u16;
        if let Some(map) = &mut self.index {
            map.entry(c.clone()).or_insert(idx);
        }
        self.entries.push(c);
        if wide {
            self.entries.push(Constant::Unusable);
        }
        Ok(idx)
    }

    /// Returns the index of an entry equal to `c`, appending it if there is none.
    pub fn intern(&mut self, c: Constant) -> Result<u16, Error> {
        let map = self.index.get_or_insert_with(|| {
            let mut m = BTreeMap::new();
            for (i, e) in self.entries.iter().enumerate() {
                if !matches!(e, Constant::Unusable) {
                    m.entry(e.clone()).or_insert(i as u16);
                }
            }
            m
        });
        if let Some(&i) = map.get(&c) {
            return Ok(i);
        }
        self.push(c)
    }

    /// Interns a `Utf8` entry holding `s` in modified UTF-8.
    pub fn intern_utf8(&mut self, s: &str) -> Result<u16, Error> {
        self.intern(Constant::Utf8(mutf8::encode(s).into_owned()))
    }

    /// Interns a `Class` entry for the internal name `name` (`java/lang/Object`, `[I`).
    pub fn intern_class(&mut self, name: &str) -> Result<u16, Error> {
        let name_index = self.intern_utf8(name)?;
        self.intern(Constant::Class { name_index })
    }

    /// Interns a `String` constant (the value of an `ldc`).
    pub fn intern_string(&mut self, s: &str) -> Result<u16, Error> {
        let string_index = self.intern_utf8(s)?;
        self.intern(Constant::String { string_index })
    }

    pub fn intern_integer(&mut self, v: i32) -> Result<u16, Error> {
        self.intern(Constant::Integer(v))
    }

    /// Interns a `Float` by its bits (so `-0.0` and NaN payloads are distinct entries).
    pub fn intern_float(&mut self, v: f32) -> Result<u16, Error> {
        self.intern(Constant::Float(v.to_bits()))
    }

    /// Interns a `Long` (two slots).
    pub fn intern_long(&mut self, v: i64) -> Result<u16, Error> {
        self.intern(Constant::Long(v))
    }

    /// Interns a `Double` by its bits (two slots).
    pub fn intern_double(&mut self, v: f64) -> Result<u16, Error> {
        self.intern(Constant::Double(v.to_bits()))
    }

    pub fn intern_name_and_type(&mut self, name: &str, descriptor: &str) -> Result<u16, Error> {
        let name_index = self.intern_utf8(name)?;
        let descriptor_index = self.intern_utf8(descriptor)?;
        self.intern(Constant::NameAndType { name_index, descriptor_index })
    }

    /// Interns a `Methodref` (a method of a class, not an interface).
    pub fn intern_methodref(&mut self, class: &str, name: &str, desc: &str) -> Result<u16, Error> {
        let class_index = self.intern_class(class)?;
        let name_and_type_index = self.intern_name_and_type(name, desc)?;
        self.intern(Constant::Methodref { class_index, name_and_type_index })
    }

    pub fn intern_interface_methodref(&mut self, class: &str, name: &str, desc: &str) -> Result<u16, Error> {
        let class_index = self.intern_class(class)?;
        let name_and_type_index = self.intern_name_and_type(name, desc)?;
        self.intern(Constant::InterfaceMethodref { class_index, name_and_type_index })
    }

    pub fn intern_fieldref(&mut self, class: &str, name: &str, desc: &str) -> Result<u16, Error> {
        let class_index = self.intern_class(class)?;
        let name_and_type_index = self.intern_name_and_type(name, desc)?;
        self.intern(Constant::Fieldref { class_index, name_and_type_index })
    }

    /// Reads `constant_pool_count` and the entries (JVMS §4.4).
    pub(crate) fn parse(r: &mut Reader<'_>) -> Result<ConstantPool, Error> {
        let count = r.u16("constant_pool_count")? as usize;
        // Every entry takes at least 3 bytes: fail early on a corrupt count.
        r.take_check(count.saturating_sub(1) * 3, "constant pool")?;
        let mut entries = Vec::with_capacity(count.max(1));
        entries.push(Constant::Unusable);
        while entries.len() < count {
            let index = entries.len() as u16;
            let offset = r.offset();
            let tag = r.u8("constant tag")?;
            let c = match tag {
                1 => {
                    let n = r.u16("Utf8 length")? as usize;
                    Constant::Utf8(r.take(n, "Utf8 bytes")?.to_vec())
                }
                3 => Constant::Integer(r.u32("Integer")? as i32),
                4 => Constant::Float(r.u32("Float")?),
                5 => Constant::Long(r.u64("Long")? as i64),
                6 => Constant::Double(r.u64("Double")?),
                7 => Constant::Class { name_index: r.u16("Class name_index")? },
                8 => Constant::String { string_index: r.u16("String string_index")? },
                9 | 10 | 11 | 12 | 17 | 18 => {
                    let a = r.u16("constant index")?;
                    let b = r.u16("constant index")?;
                    match tag {
                        9 => Constant::Fieldref { class_index: a, name_and_type_index: b },
                        10 => Constant::Methodref { class_index: a, name_and_type_index: b },
                        11 => Constant::InterfaceMethodref { class_index: a, name_and_type_index: b },
                        12 => Constant::NameAndType { name_index: a, descriptor_index: b },
                        17 => Constant::Dynamic { bootstrap_method_attr_index: a, name_and_type_index: b },
                        _ => {
                            Constant::InvokeDynamic { bootstrap_method_attr_index: a, name_and_type_index: b }
                        }
                    }
                }
                15 => Constant::MethodHandle {
                    reference_kind: r.u8("MethodHandle reference_kind")?,
                    reference_index: r.u16("MethodHandle reference_index")?,
                },
                16 => Constant::MethodType { descriptor_index: r.u16("MethodType descriptor")? },
                19 => Constant::Module { name_index: r.u16("Module name_index")? },
                20 => Constant::Package { name_index: r.u16("Package name_index")? },
                _ => return Err(Error::BadConstantTag { tag, index, offset }),
            };
            let wide = matches!(c, Constant::Long(_) | Constant::Double(_));
            entries.push(c);
            if wide {
                // JVMS §4.4.5: the next index is unusable; a wide entry in the last slot would
                // claim an index the count does not allow.
                if entries.len() >= count {
                    return Err(Error::Malformed { what: "Long/Double in the last constant slot", offset });
                }
                entries.push(Constant::Unusable);
            }
        }
        Ok(ConstantPool { entries, index: None })
    }

    /// Writes `constant_pool_count` and the entries.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        put_u16(out, self.entries.len().max(1) as u16);
        for c in self.entries.iter().skip(1) {
            write_constant(out, c);
        }
    }
}

fn write_constant(out: &mut Vec<u8>, c: &Constant) {
    let pair = |out: &mut Vec<u8>, tag: u8, a: u16, b: u16| {
        out.push(tag);
        put_u16(out, a);
        put_u16(out, b);
    };
    let one = |out: &mut Vec<u8>, tag: u8, a: u16| {
        out.push(tag);
        put_u16(out, a);
    };
    match c {
        Constant::Utf8(b) => {
            out.push(1);
            put_u16(out, b.len() as u16);
            out.extend_from_slice(b);
        }
        Constant::Integer(v) => {
            out.push(3);
            put_u32(out, *v as u32);
        }
        Constant::Float(v) => {
            out.push(4);
            put_u32(out, *v);
        }
        Constant::Long(v) => {
            out.push(5);
            out.extend_from_slice(&v.to_be_bytes());
        }
        Constant::Double(v) => {
            out.push(6);
            out.extend_from_slice(&v.to_be_bytes());
        }
        Constant::Class { name_index } => one(out, 7, *name_index),
        Constant::String { string_index } => one(out, 8, *string_index),
        Constant::Fieldref { class_index, name_and_type_index } => {
            pair(out, 9, *class_index, *name_and_type_index)
        }
        Constant::Methodref { class_index, name_and_type_index } => {
            pair(out, 10, *class_index, *name_and_type_index)
        }
        Constant::InterfaceMethodref { class_index, name_and_type_index } => {
            pair(out, 11, *class_index, *name_and_type_index)
        }
        Constant::NameAndType { name_index, descriptor_index } => {
            pair(out, 12, *name_index, *descriptor_index)
        }
        Constant::MethodHandle { reference_kind, reference_index } => {
            out.push(15);
            out.push(*reference_kind);
            put_u16(out, *reference_index);
        }
        Constant::MethodType { descriptor_index } => one(out, 16, *descriptor_index),
        Constant::Dynamic { bootstrap_method_attr_index, name_and_type_index } => {
            pair(out, 17, *bootstrap_method_attr_index, *name_and_type_index)
        }
        Constant::InvokeDynamic { bootstrap_method_attr_index, name_and_type_index } => {
            pair(out, 18, *bootstrap_method_attr_index, *name_and_type_index)
        }
        Constant::Module { name_index } => one(out, 19, *name_index),
        Constant::Package { name_index } => one(out, 20, *name_index),
        // Slot 0 and the second slot of wide entries are not in the file.
        Constant::Unusable => {}
    }
}

/// A short name of the entry kind, for error messages.
fn constant_kind(c: &Constant) -> &'static str {
    match c {
        Constant::Utf8(_) => "Utf8",
        Constant::Integer(_) => "Integer",
        Constant::Float(_) => "Float",
        Constant::Long(_) => "Long",
        Constant::Double(_) => "Double",
        Constant::Class { .. } => "Class",
        Constant::String { .. } => "String",
        Constant::Fieldref { .. } => "Fieldref",
        Constant::Methodref { .. } => "Methodref",
        Constant::InterfaceMethodref { .. } => "InterfaceMethodref",
        Constant::NameAndType { .. } => "NameAndType",
        Constant::MethodHandle { .. } => "MethodHandle",
        Constant::MethodType { .. } => "MethodType",
        Constant::Dynamic { .. } => "Dynamic",
        Constant::InvokeDynamic { .. } => "InvokeDynamic",
        Constant::Module { .. } => "Module",
        Constant::Package { .. } => "Package",
        Constant::Unusable => "Unusable",
    }
}
