//! The class hierarchy over a set of class files: superclass and superinterfaces of each class,
//! subclass/subtype queries, and all known subtypes of a type. Names are internal names
//! (`java/util/ArrayList`). Resolution follows the classpath rule (JVMS §5.3.1 for the boot
//! loader, `URLClassLoader` for the rest): the first definition of a name wins and later ones are
//! ignored. Every result that lists names is sorted, so nothing depends on insertion order.
//!
//! Types that are referenced but not defined (the JDK's classes, when the JDK is not on the
//! classpath) take part in queries by name, but their own supertypes are unknown: with only guava
//! on the classpath, `ImmutableList` is a subclass of `java/util/AbstractCollection` (named in
//! guava's class files) but not known to implement `java/util/Collection` through it. The one
//! exception is `java/lang/Object`, a supertype of every reference type (JLS §4.10.2). A corrupt
//! hierarchy with a cycle cannot hang a query: every walk keeps a visited set.

use std::collections::{BTreeMap, BTreeSet};

use classfile::{ClassFile, ClassPath, access};

/// What the hierarchy knows about one class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInfo {
    pub name: String,
    /// `None` for `java/lang/Object` and `module-info`.
    pub super_name: Option<String>,
    /// Direct superinterfaces in declaration order.
    pub interfaces: Vec<String>,
    pub access_flags: u16,
}

impl ClassInfo {
    pub fn from_class(class: &ClassFile) -> ClassInfo {
        ClassInfo {
            name: class.name().into_owned(),
            super_name: class.super_name().map(|s| s.into_owned()),
            interfaces: class.interface_names().map(|s| s.into_owned()).collect(),
            access_flags: class.access_flags,
        }
    }

    pub fn is_interface(&self) -> bool {
        self.access_flags & access::INTERFACE != 0
    }
}

/// The hierarchy of the classes it was built from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassHierarchy {
    classes: BTreeMap<String, ClassInfo>,
    /// Direct subtypes (subclasses and implementing/extending types), sorted.
    direct_subtypes: BTreeMap<String, Vec<String>>,
}

impl ClassHierarchy {
    /// Builds the hierarchy from classes in classpath order (the first definition of a name wins).
    pub fn from_classes<'a>(classes: impl IntoIterator<Item = &'a ClassFile>) -> ClassHierarchy {
        ClassHierarchy::from_infos(classes.into_iter().map(ClassInfo::from_class))
    }

    /// Builds the hierarchy from class summaries in classpath order (first definition wins).
    pub fn from_infos(infos: impl IntoIterator<Item = ClassInfo>) -> ClassHierarchy {
        let mut classes = BTreeMap::new();
        for info in infos {
            classes.entry(info.name.clone()).or_insert(info);
        }
        let mut subs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for info in classes.values() {
            for sup in info.super_name.iter().chain(&info.interfaces) {
                subs.entry(sup.clone()).or_default().insert(info.name.clone());
            }
        }
        let direct_subtypes = subs.into_iter().map(|(k, v)| (k, v.into_iter().collect())).collect();
        ClassHierarchy { classes, direct_subtypes }
    }

    /// Reads every class of `cp` (each name resolved to its first entry, as the JVM would). Classes
    /// that cannot be read or parsed are left out and returned as errors next to the hierarchy,
    /// so one corrupt class does not hide the others.
    pub fn from_classpath(cp: &ClassPath) -> (ClassHierarchy, Vec<classfile::Error>) {
        let mut infos = Vec::new();
        let mut errors = Vec::new();
        for name in cp.class_names() {
            match cp.class_bytes(name) {
                Ok(Some(bytes)) => match ClassFile::parse(&bytes) {
                    Ok(class) => infos.push(ClassInfo::from_class(&class)),
                    Err(e) => errors.push(e.in_class(name)),
                },
                Ok(None) => {}
                Err(e) => errors.push(e),
            }
        }
        (ClassHierarchy::from_infos(infos), errors)
    }

    /// The number of classes defined.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// Every defined class, sorted by name.
    pub fn classes(&self) -> impl Iterator<Item = &ClassInfo> {
        self.classes.values()
    }

    pub fn get(&self, name: &str) -> Option<&ClassInfo> {
        self.classes.get(name)
    }

    /// The superclass of a defined class.
    pub fn superclass(&self, name: &str) -> Option<&str> {
        self.classes.get(name)?.super_name.as_deref()
    }

    /// The direct superinterfaces of a defined class (empty if unknown).
    pub fn interfaces(&self, name: &str) -> &[String] {
        self.classes.get(name).map_or(&[], |c| c.interfaces.as_slice())
    }

    /// Whether `sub` is `sup` or a subclass of it through superclass links (only through known
    /// classes: see the module comment).
    pub fn is_subclass(&self, sub: &str, sup: &str) -> bool {
        let mut seen = BTreeSet::new();
        let mut cur = Some(sub);
        while let Some(c) = cur {
            if c == sup {
                return true;
            }
            if !seen.insert(c) {
                return false;
            }
            cur = self.superclass(c);
        }
        false
    }

    /// Whether `sub` is `sup` or a subtype of it through superclasses and superinterfaces; every
    /// type is a subtype of `java/lang/Object`.
    pub fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        sup == "java/lang/Object" || self.supertypes_including(sub).contains(&sup)
    }

    /// `name` and all its supertypes, each once, in breadth-first order (superclass before
    /// interfaces). Unknown types end the walk but are listed.
    pub fn supertypes_including<'a>(&'a self, name: &'a str) -> Vec<&'a str> {
        let mut seen = BTreeSet::new();
        let mut res = Vec::new();
        let mut queue = std::collections::VecDeque::from([name]);
        while let Some(c) = queue.pop_front() {
            if !seen.insert(c) {
                continue;
            }
            res.push(c);
            if let Some(info) = self.classes.get(c) {
                queue.extend(info.super_name.as_deref());
                queue.extend(info.interfaces.iter().map(String::as_str));
            }
        }
        res
    }

    /// The known direct subtypes of `name`, sorted.
    pub fn direct_subtypes(&self, name: &str) -> &[String] {
        self.direct_subtypes.get(name).map_or(&[], |v| v.as_slice())
    }

    /// All known subtypes of `name` (transitively; not `name` itself), sorted.
    pub fn subtypes(&self, name: &str) -> Vec<&str> {
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut stack: Vec<&str> = self.direct_subtypes(name).iter().map(String::as_str).collect();
        while let Some(c) = stack.pop() {
            if c != name && seen.insert(c) {
                stack.extend(self.direct_subtypes(c).iter().map(String::as_str));
            }
        }
        seen.into_iter().collect()
    }
}
