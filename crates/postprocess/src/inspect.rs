//! What the assertion generator may call and name, read from the class files: the inspectors of a
//! type (EvoSuite's `InspectorAssertion` with `pure_inspectors=true`: public no-argument instance
//! methods returning a primitive or a `String`, named like getters) and, for expected exceptions,
//! whether a thrown class can be named in a JUnit 4 `catch` (JLS §11.2.3: a checked exception may
//! only be caught where the body can throw it, so those are caught as `java.lang.Exception`).

use jvm_model::ClassName;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

use classfile::access;
use programdb::ProgramDb;
use testcase::{JType, PrimType};

/// A side-effect-free observer method, callable as `var.name()` on a variable of the type it was
/// looked up for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Inspector {
    pub name: String,
    /// JVM descriptor, `()I`.
    pub descriptor: String,
    /// A primitive type or `java.lang.String`.
    pub ret: JType,
}

/// The facts of one class that the lookups need.
#[derive(Debug, Clone)]
struct ClassInfo {
    access: u16,
    super_name: Option<String>,
    interfaces: Vec<String>,
    /// (access flags, name, descriptor) of each method.
    methods: Vec<(u16, String, String)>,
}

/// Inspector and exception lookups over the run's program database (each class parsed once for the
/// whole run), with a cache per class. A class missing from the classpath (or unreadable) simply
/// has no inspectors.
#[derive(Debug)]
pub struct Inspectors<'a> {
    db: &'a ProgramDb,
    classes: BTreeMap<String, Option<ClassInfo>>,
    inspectors: BTreeMap<String, Vec<Inspector>>,
}

/// Name parts that mark values that vary between runs or machines (time, randomness, identity,
/// memory, host names, disk space: `File.getFreeSpace`), or calls that advance a state (`getAndIncrement`, `getNext`).
/// `InetAddress.getHostName`/`getCanonicalHostName` do a reverse DNS lookup: the workers' guards do
/// not see it (the inspector is called from the runtime, not from instrumented code), and in a test
/// it waits seconds for the network and hits the 4 s timeout in some runs and not in others
/// (Guava's `InetAddresses`).
const UNSTABLE_WORDS: [&str; 16] = [
    "time", "date", "millis", "nano", "clock", "now", "random", "uuid", "hash", "identity", "memory",
    "thread", "next", "getand", "hostname", "space",
];

/// Whether a method name is an inspector name (`getX`, `isX`, `hasX`, `size`, `length`, `isEmpty`,
/// `toString`) and not one of [`UNSTABLE_WORDS`].
fn inspector_name(name: &str) -> bool {
    let prefixed = |p: &str| {
        name.strip_prefix(p).and_then(|rest| rest.chars().next()).is_some_and(|c| c.is_ascii_uppercase())
    };
    let shaped = prefixed("get")
        || prefixed("is")
        || prefixed("has")
        || matches!(name, "size" | "length" | "isEmpty" | "toString");
    let lower = name.to_ascii_lowercase();
    shaped && !UNSTABLE_WORDS.iter().any(|w| lower.contains(w))
}

/// The return type of a no-argument descriptor when it is a primitive or `String`.
fn observable_return(descriptor: &str) -> Option<JType> {
    let ret = descriptor.strip_prefix("()")?;
    if ret == "Ljava/lang/String;" {
        return Some(JType::string());
    }
    let mut chars = ret.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    PrimType::from_descriptor_char(c).map(JType::Prim)
}

impl<'a> Inspectors<'a> {
    pub fn new(db: &'a ProgramDb) -> Inspectors<'a> {
        Inspectors { db, classes: BTreeMap::new(), inspectors: BTreeMap::new() }
    }

    fn info(&mut self, internal: &str) -> Option<ClassInfo> {
        if let Some(i) = self.classes.get(internal) {
            return i.clone();
        }
        let info = self.db.class_id(internal).and_then(|id| self.db.class(id).ok()).map(|cf| {
            let cp = &cf.constant_pool;
            ClassInfo {
                access: cf.access_flags,
                super_name: cf.super_name().map(|s| s.into_owned()),
                interfaces: cf.interface_names().map(|s| s.into_owned()).collect(),
                methods: cf
                    .methods
                    .iter()
                    .filter_map(|m| {
                        Some((m.access_flags, m.name(cp)?.into_owned(), m.descriptor(cp)?.into_owned()))
                    })
                    .collect(),
            }
        });
        self.classes.insert(internal.to_string(), info.clone());
        info
    }

    /// The inspectors of class `class` (binary name, `java.util.ArrayList`), sorted by name: the
    /// public no-argument instance methods it declares or inherits (superclasses first searched,
    /// then superinterfaces, breadth first) that return a primitive or a `String` and are named
    /// as [`inspector_name`] allows. `toString` counts only when a class other than `Object`
    /// declares it (`Object.toString` prints an identity hash code). `hashCode` never counts.
    pub fn of(&mut self, class: &str) -> &[Inspector] {
        if !self.inspectors.contains_key(class) {
            let found = self.lookup(class);
            self.inspectors.insert(class.to_string(), found);
        }
        self.inspectors.get(class).map_or(&[], Vec::as_slice)
    }

    fn lookup(&mut self, class: &str) -> Vec<Inspector> {
        let mut seen_classes = BTreeSet::new();
        let mut seen_methods: BTreeMap<(String, String), Option<Inspector>> = BTreeMap::new();
        let mut queue = VecDeque::from([ClassName::from_binary(class).into_internal()]);
        // Superclasses before interfaces: a class's own method overrides an interface's.
        let mut interfaces = VecDeque::new();
        while let Some(name) = queue.pop_front().or_else(|| interfaces.pop_front()) {
            if !seen_classes.insert(name.clone()) {
                continue;
            }
            let Some(info) = self.info(&name) else { continue };
            let is_interface = info.access & access::INTERFACE != 0;
            for (flags, m, desc) in &info.methods {
                let key = (m.clone(), desc.clone());
                if seen_methods.contains_key(&key) {
                    continue;
                }
                let usable = flags & access::PUBLIC != 0
                    && flags & (access::STATIC | access::SYNTHETIC | access::VOLATILE_OR_BRIDGE) == 0
                    && inspector_name(m)
                    && !(m == "toString" && (is_interface || name == "java/lang/Object"));
                let ins = observable_return(desc).filter(|_| usable).map(|ret| Inspector {
                    name: m.clone(),
                    descriptor: desc.clone(),
                    ret,
                });
                seen_methods.insert(key, ins);
            }
            if let Some(s) = &info.super_name {
                queue.push_back(s.clone());
            }
            interfaces.extend(info.interfaces.iter().cloned());
        }
        let mut out: Vec<Inspector> = seen_methods.into_values().flatten().collect();
        // A class literal is known by its name; `Class`'s other twenty getters
        // (`getModifiers`, `isArray`, `getPackageName`, ...) only restate what the literal in the
        // test already says, and would be ten assertions under every literal.
        if class == "java.lang.Class" {
            out.retain(|i| i.name == "getName");
        }
        out.sort();
        out
    }

    /// Whether `hashCode()` on an object of class `class` (binary name) is the identity hash, which
    /// differs between JVMs: neither the class nor a superclass below `Object` declares a concrete
    /// `hashCode()`, or `Enum`'s (final, and the identity hash) is the one inherited. A class that
    /// cannot be read counts as not.
    pub fn identity_hash_code(&self, class: &str) -> bool {
        self.inherits(class, "hashCode", "()I", &["java/lang/Object", "java/lang/Enum"])
    }

    /// Whether `toString()` on an object of class `class` (binary name) is `Object`'s,
    /// `Class@identityHash`, which differs between JVMs (`Enum`'s is its name, stable). A class
    /// that cannot be read counts as not.
    pub fn identity_to_string(&self, class: &str) -> bool {
        self.inherits(class, "toString", "()Ljava/lang/String;", &["java/lang/Object"])
    }

    /// Whether an instance of `class` runs the `name descriptor` of a class in `roots` (internal
    /// names): the program database's virtual dispatch, so no class on the way up overrides it.
    fn inherits(&self, class: &str, name: &str, descriptor: &str, roots: &[&str]) -> bool {
        let Some(c) = self.db.class_id(&ClassName::from_binary(class).into_internal()) else { return false };
        self.db.dispatch(c, name, descriptor).is_some_and(|m| roots.contains(&self.db.class_name(m.class())))
    }

    /// The class to name in `assertThrows` for an exception of class `thrown` (binary name) thrown
    /// by a test in package `package`: the class itself or its nearest superclass that the test can
    /// name (public, or in that package, and not nested); `java.lang.Throwable` when the hierarchy
    /// cannot be read. Checked or not alike: the lambda `assertThrows` takes may throw anything.
    pub fn catchable(&mut self, thrown: &str, package: &str) -> String {
        let mut cur = Some(ClassName::from_binary(thrown).into_internal());
        let mut depth = 0;
        while let Some(c) = cur {
            let binary = ClassName::from_internal(&c).binary();
            let own_package = binary.rsplit_once('.').map_or("", |(p, _)| p);
            let info = self.info(&c);
            let accessible =
                info.as_ref().is_some_and(|i| i.access & access::PUBLIC != 0 || own_package == package)
                    && !binary.contains('$');
            if accessible {
                return binary;
            }
            depth += 1;
            if depth > 64 {
                break;
            }
            cur = info.and_then(|i| i.super_name);
        }
        "java.lang.Throwable".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["getX", "isEmpty", "hasNext2", "size", "length", "toString", "isValid", "getName"] {
            assert_eq!(inspector_name(ok), ok != "hasNext2", "{ok}");
        }
        for no in [
            "get",
            "getter",
            "hashCode",
            "getTime",
            "getAndIncrement",
            "currentTimeMillis",
            "pop",
            "getCanonicalHostName",
        ] {
            assert!(!inspector_name(no), "{no}");
        }
        assert_eq!(observable_return("()I"), Some(JType::Prim(PrimType::Int)));
        assert_eq!(observable_return("()Ljava/lang/String;"), Some(JType::string()));
        assert_eq!(observable_return("()V"), None);
        assert_eq!(observable_return("(I)I"), None);
        assert_eq!(observable_return("()Ljava/lang/Object;"), None);
    }
}
