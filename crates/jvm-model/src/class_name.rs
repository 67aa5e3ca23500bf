//! A class name and its two spellings (JVMS §4.2.1): the binary name Java source, reflection and
//! the worker protocol use (`java.util.Map$Entry`) and the internal form of class files
//! (`java/util/Map$Entry`). Every change of spelling in the workspace goes through here, so that
//! one type knows which separator each side expects (`crates/tidy/tests/names.rs` checks it).

/// A class name, kept in the internal form (the class file's own spelling, the one most code
/// compares against); `binary()` gives the other.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassName(String);

impl ClassName {
    /// From the internal form (`java/util/Map$Entry`).
    pub fn from_internal(internal: impl Into<String>) -> ClassName {
        ClassName(internal.into())
    }

    /// From a binary name (`java.util.Map$Entry`).
    pub fn from_binary(binary: &str) -> ClassName {
        ClassName(Self::internal_of(binary))
    }

    /// The internal form of a binary name held as a borrowed `&str`, when only the other spelling
    /// is wanted: one allocation, for callers on the interpreter's per-statement path.
    pub fn internal_of(binary: &str) -> String {
        binary.replace('.', "/")
    }

    /// The binary name of an internal form held as a borrowed `&str`: one allocation, where
    /// `from_internal(name.to_string()).binary()` would copy the name first.
    pub fn binary_of(internal: &str) -> String {
        internal.replace('/', ".")
    }

    /// The internal form: `java/util/Map$Entry`.
    pub fn internal(&self) -> &str {
        &self.0
    }

    pub fn into_internal(self) -> String {
        self.0
    }

    /// The binary name: `java.util.Map$Entry`.
    pub fn binary(&self) -> String {
        Self::binary_of(&self.0)
    }

    /// The path of the class file below a classpath root or in a jar: `java/util/Map$Entry.class`.
    pub fn class_file_path(&self) -> String {
        format!("{}.class", self.0)
    }

    /// The name of the outermost class that encloses it (itself when not nested): `java/util/Map`.
    /// Nested classes are named `Outer$Inner` by every Java compiler.
    pub fn outermost(&self) -> ClassName {
        ClassName(self.0.split('$').next().unwrap_or(&self.0).to_string())
    }

    /// The path of the source file that declares it below a source root: `java/util/Map.java`
    /// (nested classes live in their outermost class's file).
    pub fn source_file_path(&self) -> String {
        format!("{}.java", self.outermost().0)
    }

    /// The package in internal form (`java/util`), empty in the unnamed package.
    pub fn package_internal(&self) -> &str {
        self.0.rsplit_once('/').map_or("", |(p, _)| p)
    }

    /// The name without its package: `Map$Entry`.
    pub fn simple_name(&self) -> &str {
        self.0.rsplit_once('/').map_or(&self.0, |(_, s)| s)
    }
}

/// A package name in internal form (`java/util`) from its dotted Java spelling (`java.util`).
pub fn package_internal(package: &str) -> String {
    package.replace('.', "/")
}

#[cfg(test)]
mod tests {
    use super::{ClassName, package_internal};

    #[test]
    fn both_spellings() {
        let n = ClassName::from_binary("java.util.Map$Entry");
        assert_eq!(n.internal(), "java/util/Map$Entry");
        assert_eq!(n.binary(), "java.util.Map$Entry");
        assert_eq!(n, ClassName::from_internal("java/util/Map$Entry"));
        assert_eq!(n.class_file_path(), "java/util/Map$Entry.class");
        assert_eq!(n.source_file_path(), "java/util/Map.java");
        assert_eq!(n.outermost().internal(), "java/util/Map");
        assert_eq!(n.package_internal(), "java/util");
        assert_eq!(n.simple_name(), "Map$Entry");
        assert_eq!(n.into_internal(), "java/util/Map$Entry");
    }

    #[test]
    fn borrowed_spellings() {
        assert_eq!(ClassName::internal_of("java.util.Map$Entry"), "java/util/Map$Entry");
        assert_eq!(ClassName::binary_of("java/util/Map$Entry"), "java.util.Map$Entry");
        assert_eq!(ClassName::internal_of("Foo"), "Foo");
        assert_eq!(ClassName::binary_of("Foo"), "Foo");
        assert_eq!(ClassName::binary_of(""), "");
    }

    #[test]
    fn the_unnamed_package() {
        let n = ClassName::from_binary("Foo");
        assert_eq!((n.internal(), n.package_internal(), n.simple_name()), ("Foo", "", "Foo"));
        assert_eq!(n.source_file_path(), "Foo.java");
        assert_eq!(package_internal("a.b"), "a/b");
        assert_eq!(package_internal(""), "");
    }
}
