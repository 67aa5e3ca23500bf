//! The class hierarchy as the cluster reads it, behind one small interface (`Hierarchy::collect`,
//! `get`, `contains`, `is_subclass`). The program database owns the hierarchy
//! (`programdb::hierarchy`); kept here is only what is the cluster's own: which classes the walk
//! admitted (those it met, and their supertypes), each one's type parameters and generic
//! supertypes parsed into `JType`s once (`Hier`), and the sorted proper supertypes of each for
//! subtype questions. The user classes below an abstract type (its implementations) come from the
//! database's subtype index over the application's classes.

use std::collections::{BTreeMap, BTreeSet};

use jvm_model::ClassName;
use programdb::{ClassId, ProgramDb, Within};

use super::load::ClassTable;
use super::walk::Builder;
use super::{TestCluster, jdk};
use crate::types::{JType, OBJECT, SubtypeOracle, TypeParam, parse_field_type, parse_type_params};

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
    /// The proper supertypes of each class of `classes`, sorted, for `is_subclass`.
    ancestors: BTreeMap<String, Vec<String>>,
}

impl Hierarchy {
    /// The hierarchy of the classes `met` plus the supertypes of each, read from the program
    /// database behind `table`, so that assignability sees them.
    pub(super) fn collect(table: &mut ClassTable<'_>, met: BTreeSet<String>) -> Hierarchy {
        let db = table.db();
        let mut classes = BTreeMap::new();
        let mut work: Vec<String> = met.into_iter().collect();
        while let Some(n) = work.pop() {
            if classes.contains_key(&n) {
                continue;
            }
            let Some(c) = admitted(table, &n) else { continue };
            let hier = generic_hier(db, c);
            for s in &hier.supers {
                if let Some(c) = s.class_name() {
                    work.push(c.to_string());
                }
            }
            classes.insert(n, hier);
        }
        let ancestors = classes.keys().map(|n| (n.clone(), ancestors(db, n))).collect();
        Hierarchy { classes, ancestors }
    }

    /// The entry of class `name`, if the walk met it or one of its subclasses.
    pub(super) fn get(&self, name: &str) -> Option<&Hier> {
        self.classes.get(name)
    }

    pub(super) fn contains(&self, name: &str) -> bool {
        self.classes.contains_key(name)
    }

    /// Whether `sub` is `sup` or below it (every class is below Object). Only admitted classes
    /// have supertypes here: a class the walk never met is below nothing else, as before the
    /// database owned the hierarchy, even where the database knows more.
    pub(super) fn is_subclass(&self, sub: &str, sup: &str) -> bool {
        sub == sup
            || sup == OBJECT
            || self.ancestors.get(sub).is_some_and(|a| a.binary_search_by(|x| x.as_str().cmp(sup)).is_ok())
    }
}

/// The database's id of class `name` (binary name) if the cluster admits it: it is on the
/// classpath and parses, which is when `ClassTable::get` has a summary of it. One that is not is
/// asked of the table all the same, which records why, as it did when the hierarchy was built
/// from the table's summaries (the cluster reports it only if the walk needed the class).
fn admitted(table: &mut ClassTable<'_>, name: &str) -> Option<ClassId> {
    let db = table.db();
    let c = db.class_id(ClassName::from_binary(name).internal()).filter(|&c| db.class(c).is_ok());
    if c.is_none() {
        table.get(name);
    }
    c
}

/// The type parameters and generic supertypes of class `c`, parsed from the database's cut of
/// its `Signature` attribute. As `load::summarize` reads a class's signature, one that does not
/// parse whole, or that lists another number of interfaces than the class file, gives way to the
/// erased supertypes; a class without a superclass (`Object`) lists only its interfaces.
fn generic_hier(db: &ProgramDb, c: ClassId) -> Hier {
    let g = db.generic_supertypes(c);
    let interface_names = db.interface_names(c);
    let parsed = || -> Option<Hier> {
        if !g.generic || g.interfaces.len() != interface_names.len() {
            return None;
        }
        let type_params = parse_type_params(&g.type_params).ok()?;
        let mut supers: Vec<JType> = g.supers().map(|s| parse_field_type(s).ok()).collect::<Option<_>>()?;
        if db.super_name(c).is_none() && !supers.is_empty() {
            supers.remove(0);
        }
        Some(Hier { type_params, supers })
    };
    parsed().unwrap_or_else(|| Hier {
        type_params: Vec::new(),
        supers: db
            .super_name(c)
            .into_iter()
            .chain(interface_names.iter().map(String::as_str))
            .map(|s| JType::class(&ClassName::binary_of(s)))
            .collect(),
    })
}

/// Class `name`'s proper supertypes (superclasses and interfaces, transitively; binary names),
/// sorted: test creation asks "is A a subtype of B" for every candidate generator, so it is
/// precomputed once instead of walking the hierarchy (with allocations) on each question. The
/// database lists them breadth first; `is_subclass` binary-searches, so they are sorted here.
fn ancestors(db: &ProgramDb, name: &str) -> Vec<String> {
    let name = ClassName::from_binary(name);
    let mut res: Vec<String> = db
        .supertypes(name.internal())
        .into_iter()
        .filter(|s| *s != name.internal())
        .map(ClassName::binary_of)
        .collect();
    res.sort();
    res
}

impl SubtypeOracle for TestCluster {
    fn is_subclass(&self, sub: &str, sup: &str) -> bool {
        self.hierarchy.is_subclass(sub, sup)
    }
}

impl Builder<'_> {
    /// Concrete, accessible user classes below `sup` on the classpath (outside the JDK), sorted:
    /// the database's direct subtypes among the application's classes, followed through user
    /// classes only (abstract ones included, so that chains through abstract classes and
    /// sub-interfaces are followed). JDK types are `jdk::implementations`' part.
    pub(super) fn user_implementations(&mut self, sup: &str) -> Vec<String> {
        let db = self.table.db();
        let mut below = BTreeSet::new();
        let mut work = vec![ClassName::internal_of(sup)];
        let mut seen = BTreeSet::new();
        while let Some(s) = work.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            for &c in db.direct_subtypes_within(&s, Within::Application) {
                let n = ClassName::binary_of(db.class_name(c));
                if !jdk::is_jdk(&n) && n != "module-info" {
                    work.push(db.class_name(c).to_string());
                    below.insert(n);
                }
            }
        }
        // Only the classes below `sup` are summarised, to ask whether a test can make one.
        let mut res = Vec::new();
        for n in below {
            let Some(info) = self.table.get(&n) else { continue };
            if !info.is_abstract() && self.class_accessible(&info) {
                res.push(n);
            }
        }
        res
    }
}
