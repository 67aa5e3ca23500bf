//! The one class hierarchy of a run: superclass and superinterfaces of each class, subtype
//! questions, and the known subtypes of a type (what call-graph construction and, next, lazy
//! initialisation ask). Answers come from the database's memoised classes; walking up parses only
//! the classes on the way, while subtype lists parse the whole classpath once.
//!
//! Names are internal names (`java/util/ArrayList`). A type that is named but not on the
//! classpath takes part in questions by name, but its own supertypes are unknown; the one
//! exception is `java/lang/Object`, a supertype of every reference type (JLS §4.10.2). A corrupt
//! hierarchy with a cycle cannot hang a question: every walk keeps a visited set. A class that
//! does not parse has no supertypes.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use classfile::access;

use crate::{ClassId, ProgramDb};

/// The root of the class hierarchy.
pub const OBJECT: &str = "java/lang/Object";

/// What the hierarchy keeps of one class.
#[derive(Debug, Default)]
pub(crate) struct Header {
    super_name: Option<String>,
    superclass: Option<ClassId>,
    interface_names: Vec<String>,
    interfaces: Vec<ClassId>,
    access_flags: u16,
}

/// Direct subtypes (subclasses and implementing or extending types) by supertype name, sorted.
pub(crate) type SubtypeIndex = BTreeMap<String, Vec<ClassId>>;

/// Which classes a subtype question ranges over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Within {
    /// Every class of the classpath, the JDK's modules included.
    Classpath,
    /// The classes of the classpath's entries other than the JDK's `.jmod`s: what a user's
    /// `-cp` holds. Its index parses only those classes, so asking it does not parse the JDK.
    Application,
}

impl ProgramDb {
    fn header(&self, c: ClassId) -> &Header {
        self.classes[c.index()].header.get_or_init(|| {
            let Ok(class) = self.class(c) else { return Header::default() };
            let super_name = class.super_name().map(|s| s.into_owned());
            let interface_names: Vec<String> = class.interface_names().map(|s| s.into_owned()).collect();
            Header {
                superclass: super_name.as_deref().and_then(|s| self.class_id(s)),
                interfaces: interface_names.iter().filter_map(|s| self.class_id(s)).collect(),
                super_name,
                interface_names,
                access_flags: class.access_flags,
            }
        })
    }

    /// The superclass, if the class has one and it is on the classpath.
    pub fn superclass(&self, c: ClassId) -> Option<ClassId> {
        self.header(c).superclass
    }

    /// The superclass's name, whether or not it is on the classpath (`None` for `Object`).
    pub fn super_name(&self, c: ClassId) -> Option<&str> {
        self.header(c).super_name.as_deref()
    }

    /// The direct superinterfaces on the classpath, in declaration order.
    pub fn interfaces(&self, c: ClassId) -> &[ClassId] {
        &self.header(c).interfaces
    }

    /// The direct superinterfaces' names, in declaration order.
    pub fn interface_names(&self, c: ClassId) -> &[String] {
        &self.header(c).interface_names
    }

    /// The class's access flags (0 when it does not parse).
    pub fn access_flags(&self, c: ClassId) -> u16 {
        self.header(c).access_flags
    }

    pub fn is_interface(&self, c: ClassId) -> bool {
        self.access_flags(c) & access::INTERFACE != 0
    }

    /// `name` and all its supertypes, each once, breadth first (superclass before interfaces).
    /// Types not on the classpath end the walk but are listed.
    pub fn supertypes<'a>(&'a self, name: &'a str) -> Vec<&'a str> {
        let mut seen = BTreeSet::new();
        let mut res = Vec::new();
        let mut queue = VecDeque::from([name]);
        while let Some(n) = queue.pop_front() {
            if !seen.insert(n) {
                continue;
            }
            res.push(n);
            if let Some(c) = self.class_id(n) {
                let h = self.header(c);
                queue.extend(h.super_name.as_deref());
                queue.extend(h.interface_names.iter().map(String::as_str));
            }
        }
        res
    }

    /// Whether `sub` is `sup` or a subclass of it through superclass links.
    pub fn is_subclass(&self, sub: &str, sup: &str) -> bool {
        let mut seen = BTreeSet::new();
        let mut cur = Some(sub);
        while let Some(n) = cur {
            if n == sup {
                return true;
            }
            if !seen.insert(n) {
                return false;
            }
            cur = self.class_id(n).and_then(|c| self.super_name(c));
        }
        false
    }

    /// Whether `sub` is `sup` or a subtype of it through superclasses and superinterfaces; every
    /// type is a subtype of `java/lang/Object`.
    pub fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        sup == OBJECT || self.supertypes(sub).contains(&sup)
    }

    /// The direct subtypes of `name` on the classpath, sorted. The first such question parses
    /// every class of the classpath.
    pub fn direct_subtypes(&self, name: &str) -> &[ClassId] {
        self.direct_subtypes_within(name, Within::Classpath)
    }

    /// The direct subtypes of `name` among the classes `within` ranges over, sorted. The first
    /// question of each range parses every class in it.
    pub fn direct_subtypes_within(&self, name: &str, within: Within) -> &[ClassId] {
        let index = match within {
            Within::Classpath => self.subtypes.get_or_init(|| self.subtype_index_of(self.class_ids())),
            Within::Application => self.application_subtypes.get_or_init(|| {
                let ids: BTreeSet<ClassId> = (self.classpath.entries().iter())
                    .filter(|e| !e.is_jmod())
                    .flat_map(|e| e.class_names())
                    .filter_map(|n| self.class_id(n))
                    .collect();
                self.subtype_index_of(ids.into_iter())
            }),
        };
        index.get(name).map_or(&[], Vec::as_slice)
    }

    /// All subtypes of `name` on the classpath (transitively, not `name` itself), sorted.
    pub fn subtypes(&self, name: &str) -> Vec<ClassId> {
        let own = self.class_id(name);
        let mut seen = BTreeSet::new();
        let mut stack: Vec<ClassId> = self.direct_subtypes(name).to_vec();
        while let Some(c) = stack.pop() {
            if Some(c) != own && seen.insert(c) {
                stack.extend_from_slice(self.direct_subtypes(self.class_name(c)));
            }
        }
        seen.into_iter().collect()
    }

    /// The subtype index over `classes`, which come in id order so that each list is sorted.
    fn subtype_index_of(&self, classes: impl Iterator<Item = ClassId>) -> SubtypeIndex {
        let mut index: SubtypeIndex = BTreeMap::new();
        for c in classes {
            let h = self.header(c);
            for sup in h.super_name.iter().chain(&h.interface_names) {
                let list = index.entry(sup.clone()).or_default();
                if list.last() != Some(&c) {
                    list.push(c);
                }
            }
        }
        index
    }
}

/// The generic supertypes of a class: its `Signature` attribute's `ClassSignature` (JVMS
/// §4.7.9.1) cut into its parts, each kept as signature text for the caller's own parser (the
/// test cluster's `types::parse_class_sig` parts: `parse_field_type` reads each supertype, and
/// the type parameters are the `<...>` prefix). A class without a `Signature` attribute, or with
/// one that does not split, gets its erased supertypes (`Ljava/util/AbstractList;`) and
/// `generic: false`, so `supers` always lists every direct supertype.
///
/// To read a class's generic supertypes: `db.generic_supertypes(c).supers()` yields the
/// superclass's `ClassTypeSignature` (`Ljava/util/AbstractList<TE;>;`) and then each
/// superinterface's, in declaration order; type variables in them refer to `type_params`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenericSupertypes {
    /// The `TypeParameters` part with its angle brackets (`<E:Ljava/lang/Object;>`), or empty.
    pub type_params: Box<str>,
    /// The superclass's `ClassTypeSignature`; `None` only for `java/lang/Object` (an interface's
    /// is `Ljava/lang/Object;`, as its class file says).
    pub superclass: Option<Box<str>>,
    /// The direct superinterfaces' `ClassTypeSignature`s, in declaration order.
    pub interfaces: Box<[Box<str>]>,
    /// Whether the parts come from a `Signature` attribute (else they are the erased names).
    pub generic: bool,
}

impl GenericSupertypes {
    /// The superclass's signature, then the superinterfaces'.
    pub fn supers(&self) -> impl Iterator<Item = &str> {
        self.superclass.iter().chain(self.interfaces.iter()).map(|s| &**s)
    }
}

/// Splits a `ClassSignature` into type parameters, superclass and superinterfaces: the parts
/// are delimited by the `;` that closes each `ClassTypeSignature` outside angle brackets.
fn split_class_signature(sig: &str) -> Option<GenericSupertypes> {
    let b = sig.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'<') {
        i = close_angle(b, 0)?;
    }
    let type_params = &sig[..i];
    let mut parts = Vec::new();
    while i < b.len() {
        if b[i] != b'L' {
            return None;
        }
        let start = i;
        let mut depth = 0usize;
        loop {
            match b.get(i)? {
                b'<' => depth += 1,
                b'>' => depth = depth.checked_sub(1)?,
                b';' if depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        i += 1;
        parts.push(Box::from(&sig[start..i]));
    }
    let mut parts = parts.into_iter();
    let superclass = Some(parts.next()?);
    Some(GenericSupertypes {
        type_params: type_params.into(),
        superclass,
        interfaces: parts.collect(),
        generic: true,
    })
}

/// The index just past the `>` matching the `<` at `open`.
fn close_angle(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'<' => depth += 1,
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

impl ProgramDb {
    /// The class's `Signature` attribute text, if it has one.
    pub fn class_signature(&self, c: ClassId) -> Option<std::borrow::Cow<'_, str>> {
        let class = self.class(c).ok()?;
        let attr = class.attribute("Signature")?;
        let index = u16::from_be_bytes([*attr.info.first()?, *attr.info.get(1)?]);
        class.constant_pool.utf8(index)
    }

    /// The generic supertypes of a class (see `GenericSupertypes`), computed on the first
    /// request. A class that does not parse has none.
    pub fn generic_supertypes(&self, c: ClassId) -> &GenericSupertypes {
        self.classes[c.index()].generic.get_or_init(|| {
            if let Some(g) = self.class_signature(c).as_deref().and_then(split_class_signature) {
                return g;
            }
            let h = self.header(c);
            GenericSupertypes {
                type_params: Box::default(),
                superclass: h.super_name.as_deref().map(|s| format!("L{s};").into()),
                interfaces: h.interface_names.iter().map(|s| format!("L{s};").into()).collect(),
                generic: false,
            }
        })
    }
}
