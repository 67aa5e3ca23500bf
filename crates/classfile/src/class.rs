//! Parsing and writing whole class files (JVMS §4.1), and convenience accessors on the model.
//! Writing is the exact inverse of parsing: every count, index and attribute byte is kept, so
//! `ClassFile::parse(b)?.to_bytes() == b` for every class file the parser accepts.

use std::borrow::Cow;

use crate::attribute::{parse_attributes, write_attributes};
use crate::reader::{Reader, put_len16, put_u16, put_u32};
use crate::{Attribute, ClassFile, Code, Constant, ConstantPool, Error, Member, mutf8};

const MAGIC: u32 = 0xCAFE_BABE;

impl ClassFile {
    /// Parses a class file. Any major version from 45 (JDK 1.0.2) up is accepted, so class files
    /// newer than this crate still round-trip as long as their structure is the JVMS §4.1 one.
    ///
    /// Besides the layout, it checks what every later accessor relies on: `this_class` names a
    /// `Class` entry with a valid name, `super_class` is 0 or a `Class`, every interface is a
    /// `Class`, and member names and descriptors are `Utf8` entries. Errors found after
    /// `this_class` is read carry the class name (`Error::InClass`).
    pub fn parse(bytes: &[u8]) -> Result<ClassFile, Error> {
        let mut r = Reader::new(bytes, 0);
        let (minor_version, major_version) = read_header(&mut r)?;
        let constant_pool = ConstantPool::parse(&mut r)?;
        let access_flags = r.u16("access_flags")?;
        let this_offset = r.offset();
        let this_class = r.u16("this_class")?;
        let Some(name) = constant_pool.class_name(this_class) else {
            return Err(Error::BadConstantIndex {
                index: this_class,
                expected: "this_class: a Class with a valid name",
                offset: this_offset,
            });
        };
        let rest = |r: &mut Reader<'_>| -> Result<_, Error> {
            let offset = r.offset();
            let super_class = r.u16("super_class")?;
            if super_class != 0 {
                check_class(&constant_pool, super_class, "super_class: 0 or a Class", offset)?;
            }
            let n = r.u16("interfaces_count")? as usize;
            r.take_check(2 * n, "interfaces")?;
            let mut interfaces = Vec::with_capacity(n);
            for _ in 0..n {
                let offset = r.offset();
                let i = r.u16("interface")?;
                check_class(&constant_pool, i, "interface: a Class", offset)?;
                interfaces.push(i);
            }
            let fields = parse_members(r, &constant_pool, "fields_count")?;
            let methods = parse_members(r, &constant_pool, "methods_count")?;
            let attributes = parse_attributes(r)?;
            r.finish("class file")?;
            Ok((super_class, interfaces, fields, methods, attributes))
        };
        let (super_class, interfaces, fields, methods, attributes) =
            rest(&mut r).map_err(|e| e.in_class(name.as_ref()))?;
        Ok(ClassFile {
            minor_version,
            major_version,
            constant_pool,
            access_flags,
            this_class,
            super_class,
            interfaces,
            fields,
            methods,
            attributes,
        })
    }

    /// Reads the constant pool of a class file and nothing after it: for scans that ask only which
    /// classes, members and strings a class refers to (the dependency scan of `exec`), at a fraction
    /// of a full parse and without keeping the class. Checks what `parse` checks up to the pool.
    pub fn read_constant_pool(bytes: &[u8]) -> Result<ConstantPool, Error> {
        let mut r = Reader::new(bytes, 0);
        read_header(&mut r)?;
        ConstantPool::parse(&mut r)
    }

    /// Writes the class file. For a parsed, unmodified `ClassFile` this reproduces the input
    /// byte for byte. Counts are written as `u2`; a model edited to hold more than 65535 members,
    /// interfaces or attributes cannot be represented and must be rejected by whoever builds it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.size_hint());
        put_u32(&mut out, MAGIC);
        put_u16(&mut out, self.minor_version);
        put_u16(&mut out, self.major_version);
        self.constant_pool.write(&mut out);
        put_u16(&mut out, self.access_flags);
        put_u16(&mut out, self.this_class);
        put_u16(&mut out, self.super_class);
        put_len16(&mut out, self.interfaces.len());
        for i in &self.interfaces {
            put_u16(&mut out, *i);
        }
        for members in [&self.fields, &self.methods] {
            put_len16(&mut out, members.len());
            for m in members {
                put_u16(&mut out, m.access_flags);
                put_u16(&mut out, m.name_index);
                put_u16(&mut out, m.descriptor_index);
                write_attributes(&mut out, &m.attributes);
            }
        }
        write_attributes(&mut out, &self.attributes);
        out
    }

    /// A cheap over-estimate of the written size, to allocate once.
    fn size_hint(&self) -> usize {
        let attrs = |a: &[Attribute]| a.iter().map(|a| a.info.len() + 6).sum::<usize>() + 2;
        let cp: usize = self
            .constant_pool
            .iter()
            .map(|(_, c)| match c {
                Constant::Utf8(b) => b.len() + 3,
                _ => 9,
            })
            .sum();
        let members: usize = self.fields.iter().chain(&self.methods).map(|m| 6 + attrs(&m.attributes)).sum();
        32 + cp + 2 * self.interfaces.len() + members + attrs(&self.attributes)
    }

    /// The class's own name in internal form (`java/util/Map$Entry`). `parse` checks that it
    /// resolves; for a hand-edited model whose `this_class` no longer does, this is empty.
    pub fn name(&self) -> Cow<'_, str> {
        self.constant_pool.class_name(self.this_class).unwrap_or(Cow::Borrowed(""))
    }

    /// The superclass's internal name; `None` for `java/lang/Object` and `module-info`
    /// (`super_class` 0).
    pub fn super_name(&self) -> Option<Cow<'_, str>> {
        if self.super_class == 0 {
            return None;
        }
        self.constant_pool.class_name(self.super_class)
    }

    /// The internal names of the direct superinterfaces, in declaration order.
    pub fn interface_names(&self) -> impl Iterator<Item = Cow<'_, str>> {
        self.interfaces.iter().filter_map(|&i| self.constant_pool.class_name(i))
    }

    /// The first class-level attribute called `name` (e.g. `"SourceFile"`).
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        find_attribute(&self.attributes, &self.constant_pool, name)
    }

    /// The field named `name` with descriptor `descriptor`.
    pub fn field(&self, name: &str, descriptor: &str) -> Option<&Member> {
        find_member(&self.fields, &self.constant_pool, name, descriptor)
    }

    /// The method named `name` with descriptor `descriptor`.
    pub fn method(&self, name: &str, descriptor: &str) -> Option<&Member> {
        find_member(&self.methods, &self.constant_pool, name, descriptor)
    }
}

impl Member {
    /// The member's name; `None` only if the model was edited to point elsewhere.
    pub fn name<'a>(&self, cp: &'a ConstantPool) -> Option<Cow<'a, str>> {
        cp.utf8(self.name_index)
    }

    /// The member's descriptor (`(I)V`, `Ljava/lang/String;`).
    pub fn descriptor<'a>(&self, cp: &'a ConstantPool) -> Option<Cow<'a, str>> {
        cp.utf8(self.descriptor_index)
    }

    /// The first attribute of this member called `name` (e.g. `"Code"`).
    pub fn attribute<'a>(&'a self, cp: &ConstantPool, name: &str) -> Option<&'a Attribute> {
        find_attribute(&self.attributes, cp, name)
    }

    /// The parsed `Code` attribute of a method; `None` for abstract and native methods.
    pub fn code(&self, cp: &ConstantPool) -> Option<Result<Code, Error>> {
        self.attribute(cp, "Code").map(|a| Code::parse(&a.info))
    }

    /// The internal names of the classes in a method's `throws` clause (its `Exceptions`
    /// attribute, JVMS §4.7.5), in order; empty without one. A malformed attribute lists the
    /// entries it holds whole.
    pub fn exceptions<'a>(&self, cp: &'a ConstantPool) -> Vec<Cow<'a, str>> {
        let Some(attr) = self.attribute(cp, "Exceptions") else { return Vec::new() };
        let info = &attr.info;
        let n = info.get(..2).map_or(0, |b| u16::from_be_bytes([b[0], b[1]]) as usize);
        (0..n)
            .filter_map(|i| {
                let b = info.get(2 + 2 * i..4 + 2 * i)?;
                cp.class_name(u16::from_be_bytes([b[0], b[1]]))
            })
            .collect()
    }
}

fn find_attribute<'a>(attrs: &'a [Attribute], cp: &ConstantPool, name: &str) -> Option<&'a Attribute> {
    let want = mutf8::encode(name);
    attrs.iter().find(|a| cp.utf8_bytes(a.name_index) == Some(&want[..]))
}

fn find_member<'a>(
    members: &'a [Member],
    cp: &ConstantPool,
    name: &str,
    descriptor: &str,
) -> Option<&'a Member> {
    let (n, d) = (mutf8::encode(name), mutf8::encode(descriptor));
    members.iter().find(|m| {
        cp.utf8_bytes(m.name_index) == Some(&n[..]) && cp.utf8_bytes(m.descriptor_index) == Some(&d[..])
    })
}

fn check_class(cp: &ConstantPool, index: u16, expected: &'static str, offset: usize) -> Result<(), Error> {
    match cp.get(index) {
        Some(Constant::Class { .. }) => Ok(()),
        _ => Err(Error::BadConstantIndex { index, expected, offset }),
    }
}

fn parse_members(r: &mut Reader<'_>, cp: &ConstantPool, what: &'static str) -> Result<Vec<Member>, Error> {
    let n = r.u16(what)? as usize;
    // A member takes at least 8 bytes.
    r.take_check(8 * n, what)?;
    let mut res = Vec::with_capacity(n);
    for _ in 0..n {
        let offset = r.offset();
        let access_flags = r.u16("member access_flags")?;
        let name_index = r.u16("member name_index")?;
        let descriptor_index = r.u16("member descriptor_index")?;
        for index in [name_index, descriptor_index] {
            if cp.utf8_bytes(index).is_none() {
                return Err(Error::BadConstantIndex {
                    index,
                    expected: "member name or descriptor: a Utf8",
                    offset: offset + 2,
                });
            }
        }
        let attributes = parse_attributes(r)?;
        res.push(Member { access_flags, name_index, descriptor_index, attributes });
    }
    Ok(res)
}

/// The magic number and the version (minor, major), checked: what `parse` and
/// `read_constant_pool` both read before the constant pool.
fn read_header(r: &mut Reader<'_>) -> Result<(u16, u16), Error> {
    let magic = r.u32("magic")?;
    if magic != MAGIC {
        return Err(Error::BadMagic { magic });
    }
    let minor = r.u16("minor_version")?;
    let major = r.u16("major_version")?;
    if major < 45 {
        return Err(Error::UnsupportedVersion { major, minor });
    }
    Ok((minor, major))
}
