//! Names in the generated source: how each class is written (simple name with an import, or fully
//! qualified when its simple name is taken), which imports that needs, and the variable names derived
//! from types (EvoSuite's `stack0`, `intArray1`). Type rendering lives here too, since every type
//! written goes through the import table.

use std::collections::{BTreeMap, BTreeSet};

use testcase::{JType, TypeArg};

use crate::literal::ascii_ident;

/// A binary class name split as Java source names it: its package, top-level class and nested path
/// (`a.b.Outer$In` is `a.b`, `Outer`, `[In]`); the spellings of the name itself are
/// `jvm_model::ClassName`'s. A `$` is taken as nesting unless it would leave an empty part
/// (`$Proxy1`, `A$$B`), in which case it belongs to the identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SourceName {
    pub package: String,
    pub top: String,
    pub nested: Vec<String>,
}

impl SourceName {
    pub fn parse(binary: &str) -> SourceName {
        let (package, simple) = match binary.rfind('.') {
            Some(i) => (&binary[..i], &binary[i + 1..]),
            None => ("", binary),
        };
        let parts: Vec<&str> = simple.split('$').collect();
        let (top, nested) = if parts.len() > 1 && parts.iter().all(|p| !p.is_empty()) {
            (parts[0].to_string(), parts[1..].iter().map(|p| p.to_string()).collect())
        } else {
            (simple.to_string(), Vec::new())
        };
        SourceName { package: package.to_string(), top, nested }
    }

    /// The binary name of the top-level class (the unit of imports).
    pub fn top_binary(&self) -> String {
        if self.package.is_empty() { self.top.clone() } else { format!("{}.{}", self.package, self.top) }
    }
}

/// How each top-level class is written, decided once per test class, and which of them were used.
#[derive(Debug)]
pub(crate) struct Names {
    package: String,
    /// Top-level classes written by their simple name.
    simple: BTreeSet<String>,
    /// Top-level classes written so far (their imports are the ones needed).
    used: BTreeSet<String>,
}

/// Priority of a class for keeping its simple name: lower wins.
fn rank(top: &str, cut_top: &str, package: &str, junit: &BTreeSet<String>) -> u8 {
    let cn = SourceName::parse(top);
    if top == cut_top {
        0
    } else if junit.contains(top) {
        4
    } else if cn.package == package {
        1
    } else if cn.package == "java.lang" {
        2
    } else {
        3
    }
}

impl Names {
    /// Decides simple or qualified names for every top-level class of `mentioned` (binary names,
    /// nested ones included). `junit` are JUnit's annotation classes, which yield to user classes
    /// of the same simple name.
    pub fn new(package: &str, cut: &str, mentioned: &BTreeSet<String>, junit: &BTreeSet<String>) -> Names {
        let cut_top = SourceName::parse(cut).top_binary();
        let mut by_simple: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let tops: BTreeSet<String> =
            mentioned.iter().chain(junit).map(|c| SourceName::parse(c).top_binary()).collect();
        for t in tops {
            by_simple.entry(SourceName::parse(&t).top).or_default().push(t);
        }
        let mut simple = BTreeSet::new();
        for (_, mut group) in by_simple {
            group.sort_by_key(|t| (rank(t, &cut_top, package, junit), t.clone()));
            if let Some(first) = group.first() {
                simple.insert(first.clone());
            }
        }
        Names { package: package.to_string(), simple, used: BTreeSet::new() }
    }

    /// The source name of a class (binary name): `Outer.Inner` or `a.b.Outer.Inner`.
    pub fn class(&mut self, binary: &str) -> String {
        let cn = SourceName::parse(binary);
        let top = cn.top_binary();
        let mut out = if self.simple.contains(&top) {
            self.used.insert(top);
            ascii_ident(&cn.top)
        } else {
            ascii_ident(&top)
        };
        for n in &cn.nested {
            out.push('.');
            out.push_str(&ascii_ident(n));
        }
        out
    }

    /// A type as written in declarations and casts: generic arguments kept, unresolved type
    /// variables as `Object` (their erasure when unbounded; the cluster closes bounded ones).
    pub fn ty(&mut self, t: &JType) -> String {
        match t {
            JType::Prim(p) => p.name().to_string(),
            JType::Var(_) => self.class(testcase::types::OBJECT),
            JType::Array(c) => format!("{}[]", self.ty(c)),
            JType::Class { name, args } => {
                let mut out = self.class(name);
                if !args.is_empty() {
                    out.push('<');
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        match a {
                            TypeArg::Any => out.push('?'),
                            TypeArg::Exact(t) => out.push_str(&self.ty(t)),
                            TypeArg::Extends(t) => {
                                out.push_str("? extends ");
                                out.push_str(&self.ty(t));
                            }
                            TypeArg::Super(t) => {
                                out.push_str("? super ");
                                out.push_str(&self.ty(t));
                            }
                        }
                    }
                    out.push('>');
                }
                out
            }
        }
    }

    /// The `import` lines needed by the classes written so far: not `java.lang`, not this package,
    /// not classes written fully qualified; sorted.
    pub fn imports(&self) -> Vec<String> {
        self.used
            .iter()
            .filter(|t| {
                let cn = SourceName::parse(t);
                !cn.package.is_empty() && cn.package != "java.lang" && cn.package != self.package
            })
            .map(|t| ascii_ident(t))
            .collect()
    }
}

/// Per-name counters for variable names (EvoSuite's `VariableNameCollector`).
#[derive(Debug, Default)]
pub(crate) struct VarNames {
    next: BTreeMap<String, u32>,
}

impl VarNames {
    /// A fresh variable name for a value of type `t`.
    pub fn fresh(&mut self, t: &JType) -> String {
        let base = base_name(t);
        let n = self.next.entry(base.clone()).or_insert(0);
        let res = format!("{base}{n}");
        *n += 1;
        res
    }
}

/// `int`, `string`, `outer_Inner`, `intArray` (every dimension alike, as EvoSuite), `object` for a
/// type variable. The counter suffix makes every name distinct from Java keywords.
fn base_name(t: &JType) -> String {
    match t {
        JType::Prim(p) => p.name().to_string(),
        JType::Var(_) => "object".to_string(),
        JType::Array(_) => {
            let mut c = t;
            while let JType::Array(inner) = c {
                c = inner;
            }
            format!("{}Array", base_name(c))
        }
        JType::Class { name, .. } => {
            let cn = SourceName::parse(name);
            let mut s = cn.top.clone();
            for n in &cn.nested {
                s.push('_');
                s.push_str(n);
            }
            let s: String = s.chars().filter(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
            let mut chars = s.chars();
            let res = match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect::<String>(),
                None => "object".to_string(),
            };
            ascii_ident(&res)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_names_and_variables() {
        let mentioned: BTreeSet<String> = [
            "java.util.Date",
            "a.b.Date",
            "a.b.Outer$Inner",
            "java.lang.String",
            "x.Test",
            "java.lang.reflect.Method",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let junit: BTreeSet<String> = ["org.junit.Test".to_string()].into();
        let mut n = Names::new("a.b", "a.b.Outer", &mentioned, &junit);
        assert_eq!(n.class("a.b.Date"), "Date");
        assert_eq!(n.class("java.util.Date"), "java.util.Date");
        assert_eq!(n.class("a.b.Outer$Inner"), "Outer.Inner");
        assert_eq!(n.class("org.junit.Test"), "org.junit.Test");
        assert_eq!(n.class("x.Test"), "Test");
        assert_eq!(n.class("java.lang.reflect.Method"), "Method");
        assert_eq!(n.imports(), vec!["java.lang.reflect.Method".to_string(), "x.Test".to_string()]);
        let mut v = VarNames::default();
        assert_eq!(v.fresh(&JType::class("a.b.Outer$Inner")), "outer_Inner0");
        assert_eq!(
            v.fresh(&JType::array_of(JType::array_of(JType::Prim(testcase::PrimType::Int)))),
            "intArray0"
        );
        assert_eq!(v.fresh(&JType::class("a.b.Outer$Inner")), "outer_Inner1");
        assert_eq!(v.fresh(&JType::class("$Proxy1")), "$Proxy10");
    }
}
