//! The class hierarchy the walk records, behind one small interface (`Hierarchy::collect`, `get`,
//! `contains`, `is_subclass`): each met class's type parameters and generic supertypes (`Hier`),
//! their transitive closure for subtype questions, and the index of user classes below an abstract
//! type (`SubclassIndex`) that finds implementations. The queries see the hierarchy only through
//! this interface, so that reading it from the program database instead is an edit of this file.

use std::collections::{BTreeMap, BTreeSet};

use super::load::ClassTable;
use super::walk::Builder;
use super::{TestCluster, jdk};
use crate::types::{JType, OBJECT, SubtypeOracle, TypeParam};

/// The class hierarchy entry of a loaded class: what assignability and `as_super` need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Hier {
    pub(super) type_params: Vec<TypeParam>,
    /// Generic superclass then superinterfaces (`AbstractList<E>`, `List<E>`, ...).
    pub(super) supers: Vec<JType>,
}

/// The hierarchy of every class the walk met and of their supertypes.
#[derive(Debug, Clone)]
pub(super) struct Hierarchy {
    classes: BTreeMap<String, Hier>,
    /// `ancestors(&classes)`, for `is_subclass`.
    ancestors: BTreeMap<String, Vec<String>>,
}

impl Hierarchy {
    /// The hierarchy of the classes `met` plus the supertypes of each, read through `table`, so
    /// that assignability sees them.
    pub(super) fn collect(table: &mut ClassTable<'_>, met: BTreeSet<String>) -> Hierarchy {
        let mut classes = BTreeMap::new();
        let mut work: Vec<String> = met.into_iter().collect();
        while let Some(n) = work.pop() {
            if classes.contains_key(&n) {
                continue;
            }
            let Some(info) = table.get(&n) else { continue };
            let mut supers = vec![info.sig.superclass.clone()];
            if info.super_name.is_none() {
                supers.clear();
            }
            supers.extend(info.sig.interfaces.iter().cloned());
            for s in &supers {
                if let Some(c) = s.class_name() {
                    work.push(c.to_string());
                }
            }
            classes.insert(n, Hier { type_params: info.sig.type_params.clone(), supers });
        }
        let ancestors = ancestors(&classes);
        Hierarchy { classes, ancestors }
    }

    /// The entry of class `name`, if the walk met it or one of its subclasses.
    pub(super) fn get(&self, name: &str) -> Option<&Hier> {
        self.classes.get(name)
    }

    pub(super) fn contains(&self, name: &str) -> bool {
        self.classes.contains_key(name)
    }

    /// Whether `sub` is `sup` or below it (every class is below Object).
    pub(super) fn is_subclass(&self, sub: &str, sup: &str) -> bool {
        sub == sup
            || sup == OBJECT
            || self.ancestors.get(sub).is_some_and(|a| a.binary_search_by(|x| x.as_str().cmp(sup)).is_ok())
    }
}

impl SubtypeOracle for TestCluster {
    fn is_subclass(&self, sub: &str, sup: &str) -> bool {
        self.hierarchy.is_subclass(sub, sup)
    }
}

/// Every class's proper supertypes (superclasses and interfaces, transitively), sorted: test
/// creation asks "is A a subtype of B" for every candidate generator, so it is precomputed once
/// instead of walking the hierarchy (with allocations) on each question.
fn ancestors(hierarchy: &BTreeMap<String, Hier>) -> BTreeMap<String, Vec<String>> {
    hierarchy
        .keys()
        .map(|start| {
            // An explicit worklist over the loaded hierarchy (STYLE.md rule 7).
            let mut seen = BTreeSet::new();
            let mut work = vec![start.as_str()];
            while let Some(c) = work.pop() {
                if let Some(h) = hierarchy.get(c) {
                    for s in h.supers.iter().filter_map(|s| s.class_name()) {
                        if seen.insert(s.to_string()) {
                            work.push(s);
                        }
                    }
                }
            }
            seen.remove(start);
            (start.clone(), seen.into_iter().collect())
        })
        .collect()
}

/// Direct subclasses/implementations of each user class or interface, and the concrete accessible
/// user classes.
pub(super) type SubclassIndex = (BTreeMap<String, BTreeSet<String>>, BTreeSet<String>);

impl Builder<'_> {
    /// Concrete, accessible user classes below `sup` on the classpath (outside the JDK). Built
    /// once by reading every user class's header.
    pub(super) fn user_implementations(&mut self, sup: &str) -> Vec<String> {
        if self.subclass_index.is_none() {
            // User classes only: JDK modules are covered by `jdk::implementations`.
            let names: Vec<String> = self
                .table
                .classpath()
                .entries()
                .iter()
                .filter(|e| e.path().extension().is_none_or(|x| x != "jmod"))
                .flat_map(|e| e.class_names())
                .map(|n| n.replace('/', "."))
                .filter(|n| !jdk::is_jdk(n) && n != "module-info")
                .collect::<BTreeSet<String>>()
                .into_iter()
                .collect();
            // Edges from every class (abstract ones included, so that chains through abstract
            // classes and sub-interfaces are followed); concrete accessible classes marked.
            let mut index: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            let mut concrete = BTreeSet::new();
            for n in names {
                let Some(info) = self.table.get(&n) else { continue };
                if !info.is_abstract() && self.class_accessible(&info) {
                    concrete.insert(n.clone());
                }
                for s in info.super_name.iter().chain(&info.interfaces) {
                    index.entry(s.clone()).or_default().insert(n.clone());
                }
            }
            self.subclass_index = Some((index, concrete));
        }
        let Some((index, concrete)) = &self.subclass_index else { return Vec::new() };
        let mut res = BTreeSet::new();
        let mut work = vec![sup.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(s) = work.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            for c in index.get(&s).into_iter().flatten() {
                if concrete.contains(c) {
                    res.insert(c.clone());
                }
                work.push(c.clone());
            }
        }
        res.into_iter().collect()
    }
}
