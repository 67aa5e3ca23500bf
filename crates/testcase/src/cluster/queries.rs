//! What the search asks the cluster: the callable of a name, the modifiers of a class, every way
//! to obtain a value of a wanted type (`creations`, memoised per type), and the dump snapshot tests
//! read. Instantiating generic callables is `generics`' part.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::Arc;

use super::{CallableKind, Creation, GenericCallable, Modifiers, TestCluster, features};
use crate::statement::CLASS;
use crate::types::{JType, SubtypeOracle, TypeArg};

impl TestCluster {
    /// The callable of `kind` named `name` with JVM `descriptor` that a test can call on an object of class
    /// `class` (binary name): one of the target classes' members (the CUT and its member
    /// classes), or a modifier of another class (see `modifiers`). `None` when the cluster has none
    /// (private, not collected). Object construction templates (crate `ocg`) look methods up here.
    pub fn callable(
        &self,
        class: &str,
        kind: CallableKind,
        name: &str,
        descriptor: &str,
    ) -> Option<Arc<GenericCallable>> {
        let matches =
            |g: &&Arc<GenericCallable>| g.kind == kind && g.name == name && g.descriptor == descriptor;
        if let Some(g) = self.targets.iter().filter(matches).find(|g| self.is_subclass(class, &g.class)) {
            return Some(g.clone());
        }
        self.modifiers(class).iter().find(matches).cloned()
    }

    /// Instance methods (and field writes) that change an object of class `class` or its
    /// superclasses, for inserting calls on existing variables (memoised per class; a poisoned
    /// lock only costs the memo).
    pub fn modifiers(&self, class: &str) -> Modifiers {
        if let Some(ms) = self.modifier_cache.0.lock().ok().and_then(|m| m.get(class).cloned()) {
            return ms;
        }
        let mut res = Vec::new();
        for (c, ms) in &self.modifiers {
            if self.is_subclass(class, c) {
                res.extend(ms.iter().cloned());
            }
        }
        let res = Arc::new(res);
        if let Ok(mut m) = self.modifier_cache.0.lock() {
            m.insert(class.to_string(), res.clone());
        }
        res
    }

    /// Every way to obtain a value assignable to `want`, in a fixed order: constants for
    /// primitive-like types, enum constants, arrays, then generators of the wanted class and of
    /// its concrete implementations, instantiated so that their result matches `want`. The answer
    /// depends on the cluster and `want` alone; it is computed once per type (test creation asks
    /// for the same few types over and over, and instantiating generic generators is costly).
    pub fn creations(&self, want: &JType) -> Arc<Vec<Creation>> {
        let mut cache = self.creations.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(c) = cache.get(want) {
            return c.clone();
        }
        let c = Arc::new(self.compute_creations(want));
        cache.insert(want.clone(), c.clone());
        c
    }

    pub(super) fn compute_creations(&self, want: &JType) -> Vec<Creation> {
        let mut res = Vec::new();
        match want {
            JType::Prim(_) => {
                res.push(Creation::Constant(want.clone()));
                return res;
            }
            JType::Array(_) => {
                res.push(Creation::Array(want.clone()));
                return res;
            }
            JType::Var(_) => return self.compute_creations(&JType::object()),
            JType::Class { name, args } => {
                if want.is_primitive_like() {
                    res.push(Creation::Constant(want.clone()));
                    return res;
                }
                if name == CLASS {
                    res.extend(self.class_literals(args).into_iter().map(Creation::ClassLiteral));
                    return res;
                }
                if let Some(cs) = self.enums.get(name) {
                    res.push(Creation::Enum { class: name.clone(), constants: cs.clone() });
                    return res;
                }
                for f in features::enabled(&self.config) {
                    f.leading_creations(self, want, name, &mut res);
                }
                let mut classes = vec![name.clone()];
                for i in self.implementations(name) {
                    if !classes.contains(i) {
                        classes.push(i.clone());
                    }
                }
                for c in &classes {
                    let cty = JType::class(c);
                    if c != name && cty.is_primitive_like() {
                        res.push(Creation::Constant(cty));
                        continue;
                    }
                    if c != name
                        && let Some(cs) = self.enums.get(c)
                    {
                        res.push(Creation::Enum { class: c.clone(), constants: cs.clone() });
                        continue;
                    }
                    if c != name && c == CLASS {
                        // A class literal as a `java.lang.reflect.Type` (types as values).
                        res.extend(self.class_literals(&[]).into_iter().map(Creation::ClassLiteral));
                        continue;
                    }
                    for g in self.generators.get(c).into_iter().flatten() {
                        if let Some(inst) = self.instantiate_for(g, want, name) {
                            res.push(Creation::Call(inst));
                        }
                    }
                }
                for f in features::enabled(&self.config) {
                    f.trailing_creations(self, want, name, &mut res);
                }
            }
        }
        res
    }

    /// The class literals a `Class<args>` may be (a type passed as a value; EvoSuite's
    /// `ClassPrimitiveStatement`): the argument itself when it is exact, a bound and its concrete
    /// implementations for `? extends B`, a bound and `Object` for `? super B`; for `Class<?>`, a
    /// raw `Class`, an unresolved variable or `? extends Object`, the CUT and a few JDK classes of
    /// every kind (a final value class, a boxed primitive, an interface, an array) and the eight
    /// primitive classes.
    pub(super) fn class_literals(&self, args: &[TypeArg]) -> Vec<JType> {
        let named = |t: &JType| matches!(t, JType::Class { .. } | JType::Array(_) | JType::Prim(_));
        let mut res: Vec<JType> = match args.first() {
            Some(TypeArg::Exact(t)) if named(t) => vec![t.erasure()],
            Some(TypeArg::Extends(t)) if named(t) && *t != JType::object() => {
                let mut v = vec![t.erasure()];
                if let Some(n) = t.class_name() {
                    v.extend(self.implementations(n).iter().map(|i| JType::class(i)));
                }
                v
            }
            Some(TypeArg::Super(t)) if named(t) => vec![t.erasure(), JType::object()],
            _ => {
                let mut v = vec![
                    JType::class(&self.cut),
                    JType::object(),
                    JType::string(),
                    JType::class("java.lang.Integer"),
                    JType::Prim(crate::types::PrimType::Int),
                    JType::class("java.lang.Comparable"),
                    JType::array_of(JType::Prim(crate::types::PrimType::Int)),
                ];
                // The other primitive classes, which code taking any class tells apart
                // (Guava's `Defaults.defaultValue`, `Primitives.wrap`, lang3's `ClassUtils`).
                v.extend(crate::types::PrimType::ALL.iter().map(|p| JType::Prim(*p)));
                v
            }
        };
        let mut seen = BTreeSet::new();
        res.retain(|t| seen.insert(t.clone()));
        res
    }

    /// The cluster as text, for snapshot tests and debugging.
    pub fn dump(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "cluster of {} (cluster_depth {})", self.cut, self.config.cluster_depth);
        let _ = writeln!(s, "targets ({}):", self.targets.len());
        for t in &self.targets {
            let _ = writeln!(s, "  {}", t.describe());
        }
        if !self.target_types.is_empty() {
            let _ = writeln!(s, "tested as:");
            for t in self.target_types.values() {
                let _ = writeln!(s, "  {t}");
            }
        }
        let _ = writeln!(s, "generators:");
        for (c, gs) in &self.generators {
            let _ = writeln!(s, "  {c}:");
            for g in gs {
                let _ = writeln!(s, "    {}", g.describe());
            }
        }
        let _ = writeln!(s, "modifiers:");
        for (c, ms) in &self.modifiers {
            let _ = writeln!(s, "  {c}:");
            for m in ms {
                let _ = writeln!(s, "    {}", m.describe());
            }
        }
        let _ = writeln!(s, "implementations:");
        for (c, is) in &self.implementations {
            let _ = writeln!(s, "  {c} -> {}", is.join(", "));
        }
        let _ = writeln!(s, "enums:");
        for (c, cs) in &self.enums {
            let _ = writeln!(s, "  {c}: {}", cs.join(", "));
        }
        for f in features::enabled(&self.config) {
            f.dump(self, &mut s);
        }
        let _ = writeln!(s, "constants: {}", self.constants.summary());
        if !self.problems.is_empty() {
            let _ = writeln!(s, "problems:");
            for (c, p) in &self.problems {
                let _ = writeln!(s, "  {c}: {p}");
            }
        }
        s
    }

    /// Counts for reports: (targets, generator callables, modifier callables).
    pub fn counts(&self) -> (usize, usize, usize) {
        (
            self.targets.len(),
            self.generators.values().map(Vec::len).sum(),
            self.modifiers.values().map(Vec::len).sum(),
        )
    }
}
