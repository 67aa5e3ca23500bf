//! The classpath walk that builds a cluster: breadth-first from the CUT and its member classes over
//! the classes their callables need, to `cluster_depth`, collecting targets, generators,
//! modifiers, implementations of abstract types and enum constants, then the hierarchy of every
//! class met.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use classfile::access;
use jvm_model::ClassName;

use super::generics::{FALLBACK_ENUM, enum_bounded};
use super::hierarchy::Hierarchy;
use super::load::{ClassInfo, ClassTable, CutPool};
use super::model::{CreationCache, ModifierCache};
use super::stubs::StubInfo;
use super::{CallableKind, ClusterConfig, ClusterError, GenericCallable, TestCluster, features, jdk};
use crate::pool::ConstantValues;
use crate::types::{JType, OBJECT};

/// The state of one cluster construction (a breadth-first walk over needed classes).
pub(super) struct Builder<'a> {
    pub(super) table: ClassTable<'a>,
    pub(super) cut: Arc<ClassInfo>,
    pub(super) config: ClusterConfig,
    /// Class -> smallest depth at which it was processed.
    pub(super) done: BTreeMap<String, u32>,
    pub(super) queue: VecDeque<(String, u32)>,
    pub(super) targets: Vec<Arc<GenericCallable>>,
    pub(super) generators: BTreeMap<String, BTreeSet<Arc<GenericCallable>>>,
    pub(super) modifiers: BTreeMap<String, BTreeSet<Arc<GenericCallable>>>,
    pub(super) implementations: BTreeMap<String, Vec<String>>,
    pub(super) enums: BTreeMap<String, Vec<String>>,
    /// Static methods of non-JDK dependency classes that do not return their own class.
    pub(super) statics: Vec<Arc<GenericCallable>>,
    pub(super) constants: ConstantValues,
    /// The CUT's accessible member classes, whose members are targets too.
    pub(super) nested: BTreeSet<String>,
    /// The JDK interfaces the CUT's named nested classes that a test cannot name implement
    /// (`ClusterConfig::package_generators`): their methods are the only way in
    /// to those classes' code, so they are offered whole, not only the container-filling ones of
    /// other JDK types.
    pub(super) nested_jdk_supertypes: BTreeSet<String>,
    pub(super) stubs: BTreeMap<String, StubInfo>,
}

impl<'a> Builder<'a> {
    pub(super) fn new(
        mut table: ClassTable<'a>,
        cut: &str,
        config: &ClusterConfig,
    ) -> Result<Builder<'a>, ClusterError> {
        let cf = table.parse(cut)?;
        let pool = {
            let cut_pool = CutPool::new(&table, cut, &cf);
            let mut pool = cut_pool.constant_pool();
            for f in features::enabled(config) {
                f.extend_pool(&cut_pool, &mut pool);
            }
            pool
        };
        let constants = ConstantValues::from_pool(&pool);
        let info = table.get(cut).ok_or_else(|| ClusterError::ClassNotFound(cut.to_string()))?;
        if info.is_local || info.access & access::PRIVATE != 0 {
            return Err(ClusterError::NotTestable(cut.to_string()));
        }
        Ok(Builder {
            table,
            cut: info,
            config: config.clone(),
            done: BTreeMap::new(),
            queue: VecDeque::new(),
            targets: Vec::new(),
            generators: BTreeMap::new(),
            modifiers: BTreeMap::new(),
            implementations: BTreeMap::new(),
            enums: BTreeMap::new(),
            statics: Vec::new(),
            constants,
            nested: BTreeSet::new(),
            nested_jdk_supertypes: BTreeSet::new(),
            stubs: BTreeMap::new(),
        })
    }

    pub(super) fn enqueue_type(&mut self, t: &JType, depth: u32) {
        if depth > self.config.cluster_depth {
            return;
        }
        let mut names = Vec::new();
        t.mentioned_classes(&mut names);
        for n in names {
            if self.done.get(&n).is_none_or(|&d| d > depth) {
                self.queue.push_back((n, depth));
            }
        }
    }

    pub(super) fn enqueue_callable(&mut self, g: &GenericCallable, depth: u32) {
        let tys: Vec<JType> = g
            .params
            .iter()
            .chain(g.ret.iter())
            .chain(g.type_params.iter().flat_map(|p| p.bounds.first()))
            .chain(g.class_params.iter().flat_map(|p| p.bounds.first()))
            .cloned()
            .collect();
        for t in tys {
            self.enqueue_type(&t, depth);
        }
        // A variable bounded by `Enum` may be bound to `FALLBACK_ENUM`, whose constants are then
        // needed (`binding_candidates`).
        if g.type_params.iter().chain(&g.class_params).any(enum_bounded) {
            self.enqueue_type(&JType::class(FALLBACK_ENUM), depth);
        }
    }

    pub(super) fn add_generator(&mut self, g: Arc<GenericCallable>) {
        if let Some(name) = g.ret.as_ref().and_then(|r| r.class_name()) {
            self.generators.entry(name.to_string()).or_default().insert(g);
        }
    }

    pub(super) fn process(&mut self, name: String, depth: u32) {
        if self.done.get(&name).is_some_and(|&d| d <= depth) {
            return;
        }
        self.done.insert(name.clone(), depth);
        let ty = JType::class(&name);
        if ty.is_primitive_like() {
            return;
        }
        let Some(info) = self.table.get(&name) else { return };
        if !self.class_and_outers_accessible(&info) {
            return;
        }
        let is_jdk = jdk::is_jdk(&name);
        if info.is_enum() {
            self.enums.insert(name.clone(), info.enum_constants());
        }
        // Concrete implementations for abstract types (and Object).
        // A concrete JDK class with an entry in the table (`Throwable`) gets its subclasses too.
        if info.is_abstract() || name == OBJECT || (is_jdk && !jdk::implementations(&name).is_empty()) {
            let impls: Vec<String> = if is_jdk {
                jdk::implementations(&name).iter().map(|s| s.to_string()).collect()
            } else {
                self.user_implementations(&name)
            };
            let impls: Vec<String> = impls.into_iter().filter(|i| i != &name || name == OBJECT).collect();
            for i in impls.iter().map(String::as_str).chain(jdk::factory_classes(&name).iter().copied()) {
                self.queue.push_back((i.to_string(), depth));
            }
            if !impls.is_empty() {
                // Extended, not replaced: a class walked again at a smaller depth keeps the
                // implementations `package_generators` gave it.
                let known = self.implementations.entry(name.clone()).or_default();
                for i in impls {
                    if !known.contains(&i) {
                        known.push(i);
                    }
                }
            }
        }
        // The features that add to a class's share (its stub) act before its members are
        // collected, as the stubs always have.
        for f in features::enabled(&self.config).collect::<Vec<_>>() {
            f.visit_class(self, &info, is_jdk, depth);
        }
        let is_cut = name == self.cut.name;
        // The CUT's accessible member classes are tested with it (EvoSuite's target classes
        // include them; their goals are the CUT's goals too, since they are instrumented with it).
        let is_target = is_cut || self.nested.contains(&name);
        // A JDK type a nested class of the CUT implements (ThreeTen-Extra's `PackedFields`
        // exposes private enums only as `TemporalField`s) is the way in to that class's code.
        let jdk_only =
            is_jdk && !is_target && !features::enabled(&self.config).any(|f| f.opens_jdk_class(self, &name));
        let members = self.members(&info, is_cut, jdk_only);
        for g in members {
            let g = Arc::new(g);
            if is_target {
                self.targets.push(g.clone());
            }
            let produces_self = g.kind == CallableKind::Constructor
                || (g.is_static
                    && g.kind == CallableKind::Method
                    && g.ret.as_ref().is_some_and(|r| r.class_name() == Some(name.as_str())));
            if produces_self {
                self.add_generator(g.clone());
                self.enqueue_callable(&g, depth + 1);
            } else if !g.is_static && !is_jdk_object_method(&g) {
                if !is_cut {
                    self.modifiers.entry(name.clone()).or_default().insert(g.clone());
                }
                self.enqueue_callable(&g, depth + 1);
            } else if is_target {
                self.enqueue_callable(&g, depth + 1);
            } else if g.is_static
                && g.kind == CallableKind::Method
                && (!is_jdk || jdk::jdk_factories(&name).contains(&g.name.as_str()))
            {
                // A static factory of another type (`Shapes.circle(double) -> Shape`,
                // `TemporalQueries.precision()`): a generator of its result if that type is needed.
                self.statics.push(g);
            }
        }
    }

    /// Processes the queue, then adds the methods of cluster classes returning a class as
    /// generators of it ("other cluster classes' methods returning the type", EvoSuite's
    /// `TestCluster.generators`).
    pub(super) fn walk(&mut self) {
        while let Some((n, d)) = self.queue.pop_front() {
            self.process(n, d);
        }
        let mut returning: Vec<Arc<GenericCallable>> = self.targets.clone();
        for ms in self.modifiers.values() {
            returning.extend(ms.iter().cloned());
        }
        returning.extend(self.statics.iter().cloned());
        for g in returning {
            let Some(r) = g.ret.as_ref().and_then(|r| r.class_name()) else { continue };
            if JType::class(r).is_primitive_like() || !self.done.contains_key(r) || r == OBJECT {
                continue;
            }
            self.add_generator(g);
        }
    }

    /// Adds the JDK interfaces `info` implements, with their superinterfaces, to
    /// `nested_jdk_supertypes`.
    pub(super) fn add_jdk_interfaces(&mut self, info: &ClassInfo) {
        let (interfaces, _) = self.interface_closure(info.interfaces.clone());
        for c in interfaces {
            if jdk::is_jdk(&c.name) {
                self.nested_jdk_supertypes.insert(c.name.clone());
            }
        }
    }

    pub(super) fn run(mut self) -> Result<TestCluster, ClusterError> {
        let cut = self.cut.name.clone();
        self.queue.push_back((cut.clone(), 0));
        // Accessible member classes of the CUT (`Cut$Inner`, also nested deeper; local and
        // anonymous classes are filtered by `process`'s accessibility check), in name order.
        let prefix = format!("{}$", ClassName::from_binary(&cut).internal());
        let nested: Vec<String> = self
            .table
            .classpath()
            .class_names()
            .filter(|n| n.starts_with(&prefix))
            .map(ClassName::binary_of)
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        for n in nested {
            let Some(info) = self.table.get(&n) else { continue };
            if self.class_and_outers_accessible(&info) && !info.is_local {
                self.nested.insert(n.clone());
                self.queue.push_back((n, 0));
            } else if !info.is_local {
                self.add_jdk_interfaces(&info);
            }
        }
        self.walk();
        for f in features::enabled(&self.config).collect::<Vec<_>>() {
            f.after_walk(&mut self);
        }
        // The hierarchy of every loaded class plus the supertypes of every mentioned class, so
        // that assignability sees them.
        let mut mentioned: BTreeSet<String> = self.done.keys().cloned().collect();
        for c in ["java.lang.Integer", "java.lang.String", "java.lang.Long", "java.lang.Double"] {
            mentioned.insert(c.to_string());
        }
        let hierarchy = Hierarchy::collect(&mut self.table, mentioned);
        let sorted = |m: BTreeMap<String, BTreeSet<Arc<GenericCallable>>>| -> BTreeMap<String, Vec<Arc<GenericCallable>>> {
            m.into_iter().map(|(k, v)| (k, v.into_iter().collect())).collect()
        };
        let mut problems = self.table.problems.clone();
        // Classes the walk never needed are not problems of this cluster.
        problems.retain(|k, _| self.done.contains_key(k));
        let target_classes: BTreeSet<String> =
            self.targets.iter().filter_map(|g| g.receiver.class_name().map(str::to_string)).collect();
        let mut cluster = TestCluster {
            cut: self.cut.name.clone(),
            config: self.config.clone(),
            targets: self.targets,
            generators: sorted(self.generators),
            modifiers: sorted(self.modifiers),
            implementations: self.implementations,
            enums: self.enums,
            creations: CreationCache::default(),
            modifier_cache: ModifierCache::default(),
            hierarchy,
            constants: self.constants,
            problems,
            target_types: BTreeMap::new(),
            stubs: self.stubs,
        };
        for c in target_classes {
            if let Some(t) = cluster.target_type(&c) {
                cluster.target_types.insert(c, t);
            }
        }
        Ok(cluster)
    }
}

pub(super) fn is_jdk_object_method(g: &GenericCallable) -> bool {
    g.class == OBJECT
}
