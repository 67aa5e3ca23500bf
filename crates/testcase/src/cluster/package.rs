//! Generators from the whole package (`--package-generators`): a type the
//! cluster needs but cannot make (no accessible constructor, no implementation with one, no
//! stub) is made by the methods of other classes of the CUT's package, or of the type's own
//! package, that return it or a subtype of it: a public factory in another class
//! (`Channels.loopback(int) -> Channel` behind a package-private implementation,
//! `MoreExecutors.newDirectExecutorService() -> ListeningExecutorService` for an
//! `ExecutorService`), or an instance method of a class that can be made (`Registry.issue`). The
//! type's own public constants are read too (`FileChannel.MapMode.READ_ONLY`).
//!
//! EvoSuite finds such generators by scanning the whole classpath for methods returning each
//! needed type (`TestClusterGenerator`'s "generators from the inheritance tree"); scanning only
//! the two packages keeps the cluster small, and a class's package is where its factories
//! usually are. A found generator of a subtype `R` of the needed type `T` makes `R` one of
//! `T`'s implementations, so that `creations(T)` offers it like any other implementation.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use classfile::access;
use jvm_model::{ClassName, package_internal};

use super::features::ClusterFeature;
use super::load::{ClassInfo, package_of};
use super::walk::Builder;
use super::{CallableKind, ClusterConfig, GenericCallable, features, jdk};
use crate::statement::CLASS;
use crate::types::JType;
use crate::types::OBJECT;

/// Generators found in packages per needed type, at most, the simplest first (`Candidate`'s
/// order). A needed type rarely has more than a few real factories, and every generator added
/// dilutes the creation choices of the type.
const PER_TYPE: usize = 6;

/// Rounds of "find the generators of what cannot be made, then walk what they need"; a round's
/// generators may take a type that in turn needs one.
const ROUNDS: usize = 2;

/// `ClusterConfig::package_generators`.
pub(super) struct PackageGenerators;

impl ClusterFeature for PackageGenerators {
    fn enabled(&self, config: &ClusterConfig) -> bool {
        config.package_generators
    }

    /// A JDK type a nested class of the CUT that a test cannot name implements (ThreeTen-Extra's
    /// `PackedFields` exposes private enums only as `TemporalField`s) is the way in to that
    /// class's code.
    fn opens_jdk_class(&self, b: &Builder<'_>, name: &str) -> bool {
        b.nested_jdk_supertypes.contains(name)
    }

    fn after_walk(&self, b: &mut Builder<'_>) {
        for _ in 0..ROUNDS {
            if b.package_generators() == 0 {
                break;
            }
            b.walk();
        }
    }
}

/// A method returning a needed type, ordered so that the simplest come first for each type:
/// those whose parameters the cluster can already make (`newDirectExecutorService()` before
/// `listeningDecorator(ExecutorService)`, which only wraps an executor service it is given and
/// would need one first), then fewer parameters, static before instance methods, then names.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    needed: String,
    /// Parameters of a class the cluster cannot make yet, or of the needed class itself.
    unmade: usize,
    params: usize,
    instance: bool,
    class: String,
    name: String,
    descriptor: String,
}

impl Builder<'_> {
    /// Whether the cluster as built so far has a way to make a value of class `name`.
    fn makeable(&self, name: &str) -> bool {
        let t = JType::class(name);
        let own = |c: &str| {
            JType::class(c).is_primitive_like()
                || self.enums.contains_key(c)
                || self.generators.get(c).is_some_and(|g| !g.is_empty())
        };
        t.is_primitive_like()
            || name == CLASS
            || features::enabled(&self.config).any(|f| f.makes(self, name))
            || own(name)
            || self.implementations.get(name).into_iter().flatten().any(|i| own(i))
    }

    /// The classes the cluster's callables take (in their parameters, type arguments included)
    /// and the receivers of the instance targets, that the cluster cannot make, with the depth
    /// at which each was walked.
    fn unmakeable(&mut self) -> BTreeMap<String, u32> {
        let mut wanted = Vec::new();
        let callables = self
            .targets
            .iter()
            .chain(self.generators.values().flatten())
            .chain(self.modifiers.values().flatten());
        for g in callables {
            for p in &g.params {
                p.mentioned_classes(&mut wanted);
            }
        }
        for g in self.targets.iter().filter(|g| g.needs_receiver()) {
            g.receiver.mentioned_classes(&mut wanted);
        }
        let candidates: Vec<(String, u32)> = wanted
            .into_iter()
            .filter(|n| n != OBJECT && !self.makeable(n))
            .filter_map(|n| self.done.get(&n).map(|&d| (n, d)))
            .collect();
        // A class the test cannot name is walked (`done`) but needs no value: no callable the
        // test can write takes it.
        candidates.into_iter().filter(|(n, _)| self.nameable(n)).collect()
    }

    /// Every proper and improper supertype of class `name` that the table can read.
    fn supertypes(
        &mut self,
        name: &str,
        memo: &mut BTreeMap<String, Arc<BTreeSet<String>>>,
    ) -> Arc<BTreeSet<String>> {
        if let Some(s) = memo.get(name) {
            return s.clone();
        }
        // A cycle cannot occur in valid class files; the placeholder ends one anyway.
        memo.insert(name.to_string(), Arc::new(BTreeSet::new()));
        let mut res = BTreeSet::from([name.to_string()]);
        if let Some(info) = self.table.get(name) {
            for s in info.super_name.iter().chain(&info.interfaces) {
                res.extend(self.supertypes(s, memo).iter().cloned());
            }
        }
        let res = Arc::new(res);
        memo.insert(name.to_string(), res.clone());
        res
    }

    /// Finds the package generators of the types the cluster cannot make (`unmakeable`), adds
    /// them and queues what they need; the number of generators added.
    pub(super) fn package_generators(&mut self) -> usize {
        let needed = self.unmakeable();
        if needed.is_empty() {
            return 0;
        }
        let mut packages = BTreeSet::from([package_internal(self.cut_package())]);
        for n in needed.keys().filter(|n| !jdk::is_jdk(n)) {
            packages.insert(package_internal(package_of(n)));
        }
        let classes: BTreeSet<String> = self
            .table
            .classpath()
            .class_names()
            .filter(|n| packages.contains(n.rsplit_once('/').map_or("", |(p, _)| p)))
            .filter(|n| !n.ends_with("module-info") && !n.ends_with("package-info"))
            .map(ClassName::binary_of)
            .collect();
        let mut found: BTreeSet<Candidate> = BTreeSet::new();
        let mut memo = BTreeMap::new();
        for c in classes {
            let Some(info) = self.table.get(&c) else { continue };
            if !self.class_and_outers_accessible(&info) {
                continue;
            }
            for m in &info.methods {
                let is_static = m.access & access::STATIC != 0;
                if m.name.starts_with('<')
                    || !self.member_accessible(m.access, &info)
                    || (!is_static && info.is_abstract())
                {
                    continue;
                }
                let Some(r) = m.sig.ret.as_ref().and_then(|r| r.class_name()) else { continue };
                // The test declares the value with the method's return type: a package-private
                // `Loopback` of another package would not compile.
                if r == OBJECT || JType::class(r).is_primitive_like() || !self.nameable(r) {
                    continue;
                }
                let supers = self.supertypes(r, &mut memo);
                for t in needed.keys().filter(|t| supers.contains(*t)) {
                    let unmade = m
                        .sig
                        .params
                        .iter()
                        .filter(|p| p.class_name().is_some_and(|n| n == t || !self.makeable(n)))
                        .count();
                    found.insert(Candidate {
                        needed: t.clone(),
                        unmade,
                        params: m.sig.params.len(),
                        instance: !is_static,
                        class: c.clone(),
                        name: m.name.clone(),
                        descriptor: m.descriptor.clone(),
                    });
                }
            }
        }
        // The type's own constants: a class whose instances are its public static final fields
        // (`FileChannel.MapMode.READ_ONLY`: a private constructor, as an enum has) is made by
        // reading one. The classes above are only those of the two packages, and a JDK type's
        // package is not read: its own fields are looked at here.
        for t in needed.keys() {
            let Some(info) = self.table.get(t) else { continue };
            for f in &info.fields {
                let constant = access::STATIC | access::FINAL;
                if f.access & constant != constant
                    || !self.member_accessible(f.access, &info)
                    || f.ty.class_name() != Some(t.as_str())
                {
                    continue;
                }
                found.insert(Candidate {
                    needed: t.clone(),
                    unmade: 0,
                    params: 0,
                    instance: false,
                    class: t.clone(),
                    name: f.name.clone(),
                    descriptor: f.descriptor.clone(),
                });
            }
        }
        let mut per_type: BTreeMap<String, usize> = BTreeMap::new();
        let mut added = 0;
        for Candidate { needed: t, class, name, descriptor, .. } in found {
            let n = per_type.entry(t.clone()).or_default();
            if *n >= PER_TYPE {
                continue;
            }
            let Some(g) = self.package_generator(&class, &name, &descriptor) else { continue };
            let Some(r) = g.ret.as_ref().and_then(|r| r.class_name()).map(str::to_string) else { continue };
            *n += 1;
            let depth = needed[&t];
            if r != t {
                let impls = self.implementations.entry(t.clone()).or_default();
                if !impls.contains(&r) {
                    impls.push(r.clone());
                }
            }
            if !g.is_static {
                self.enqueue_type(&g.receiver, depth + 1);
            }
            self.enqueue_type(&JType::class(&r), depth);
            self.enqueue_callable(&g, depth + 1);
            if self.generators.entry(r).or_default().insert(g) {
                added += 1;
            }
        }
        added
    }

    /// Method (or static field) `name` `descriptor` of `class` as a callable (`members` makes it,
    /// with the class's and the method's type variables).
    fn package_generator(
        &mut self,
        class: &str,
        name: &str,
        descriptor: &str,
    ) -> Option<Arc<GenericCallable>> {
        let info: Arc<ClassInfo> = self.table.get(class)?;
        self.members(&info, false, false)
            .into_iter()
            .find(|g| {
                matches!(g.kind, CallableKind::Method | CallableKind::FieldGet)
                    && g.name == name
                    && g.descriptor == descriptor
            })
            .map(Arc::new)
    }
}
