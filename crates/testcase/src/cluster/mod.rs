//! The test cluster (EvoSuite's `TestCluster`/`TestClusterGenerator`): for a class under test (CUT),
//! the calls a test may make on it, and, transitively to `cluster_depth`, how to obtain a value of
//! every type those calls need: constructors, static factories, methods of cluster classes returning
//! the type, enum constants, arrays, and concrete classes for abstract types (the classpath for user
//! types, `jdk::implementations` for JDK types). Generic type variables are resolved by unifying a
//! generator's return type, viewed as the wanted class (`as_super`), with the wanted type.
//!
//! Everything is ordered (BTreeMap, sorted vectors), so equal inputs give equal clusters. It reads
//! class files only, through the run's program database; creating statements from the cluster is
//! `factory`'s job.
//!
//! The rooms: `model` (the callables, creations, configuration and errors), `walk` with `members`
//! and `hierarchy` (building a cluster), `queries` and `generics` (what the search asks of it), and
//! the optional features, each in its own file behind the one `features::ClusterFeature` seam.
//! This file keeps the `TestCluster` struct and its accessors.

mod code_constants;
mod features;
mod files;
mod generics;
mod hierarchy;
mod jdk;
mod load;
mod members;
mod model;
mod overloads;
mod package;
mod queries;
mod regex_strings;
mod shapes;
mod stubs;
mod walk;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use classfile::access;
use jvm_model::ClassName;
use programdb::ProgramDb;

use crate::pool::ConstantValues;
use crate::types::JType;
use hierarchy::Hierarchy;
use load::ClassTable;
pub(crate) use load::PoolConstants;
pub use model::{
    CallableKind, ClusterConfig, ClusterError, Creation, GenericCallable, Instantiated, Modifiers,
};
use model::{CreationCache, ModifierCache};
use stubs::StubInfo;
pub use stubs::{JDK_STUB_PACKAGE, RUNTIME_EXCEPTION, STUB_SUFFIX, stub_class_name};
use walk::Builder;

/// Whether `binary` (`a.B$C`) is a nested class declared `static` (its own `InnerClasses` entry has
/// `ACC_STATIC`, JVMS §4.7.6): its constructor's first parameter is then an ordinary argument, not
/// the enclosing instance. False when the class cannot be read from the run's program database.
pub fn is_static_nested_in(db: &ProgramDb, binary: &str) -> bool {
    let name = ClassName::from_binary(binary);
    let Some(Ok(cf)) = db.class_id(name.internal()).map(|c| db.class(c)) else { return false };
    load::inner_class_flags(cf, name.internal()).is_some_and(|(flags, _)| flags & access::STATIC != 0)
}

/// The test cluster of one class under test.
#[derive(Debug, Clone)]
pub struct TestCluster {
    cut: String,
    config: ClusterConfig,
    targets: Vec<Arc<GenericCallable>>,
    generators: BTreeMap<String, Vec<Arc<GenericCallable>>>,
    modifiers: BTreeMap<String, Vec<Arc<GenericCallable>>>,
    implementations: BTreeMap<String, Vec<String>>,
    enums: BTreeMap<String, Vec<String>>,
    /// The classes met and their supertypes: assignability, `as_super` and bounds read it.
    hierarchy: Hierarchy,
    /// `creations` per wanted type, computed on first request.
    creations: CreationCache,
    /// `target_type` of each generic target class (the CUT and its member classes).
    target_types: BTreeMap<String, JType>,
    /// `modifiers` per class, computed on first request.
    modifier_cache: ModifierCache,
    constants: ConstantValues,
    problems: BTreeMap<String, String>,
    /// Stubs of the abstract classes and interfaces a test may implement (`ClusterConfig::stubs`).
    stubs: BTreeMap<String, StubInfo>,
}

/// `java.base.jmod` of the JDK in `JAVA_HOME`, or of the `java` found on `PATH` (`jdk::base_jmod`).
pub fn jdk_base_jmod() -> Option<PathBuf> {
    ::jdk::base_jmod()
}

impl TestCluster {
    /// Builds the cluster of `cut` (binary name with dots) over the classes of the run's program
    /// database, whose classpath should contain the JDK (`jdk_base_jmod`) for JDK types to have
    /// generators. The one way in: tests open a database over their fixtures and come here too.
    pub fn build_in(db: &ProgramDb, cut: &str, config: &ClusterConfig) -> Result<TestCluster, ClusterError> {
        Builder::new(ClassTable::new(db), cut, config)?.run()
    }

    /// The class under test.
    pub fn cut(&self) -> &str {
        &self.cut
    }

    pub fn config(&self) -> &ClusterConfig {
        &self.config
    }

    /// The calls on the CUT a test may make: constructors, methods, field reads and writes.
    pub fn targets(&self) -> &[Arc<GenericCallable>] {
        &self.targets
    }

    /// Constant values of the CUT's constant pool.
    pub fn constants(&self) -> &ConstantValues {
        &self.constants
    }

    /// Classes that failed to load, with the reason.
    pub fn problems(&self) -> &BTreeMap<String, String> {
        &self.problems
    }

    /// Concrete classes known for an abstract type (sorted; the JDK table first for JDK types).
    pub fn implementations(&self, class: &str) -> &[String] {
        self.implementations.get(class).map_or(&[], Vec::as_slice)
    }

    /// The constants of an enum of the cluster.
    pub fn enum_constants(&self, class: &str) -> &[String] {
        self.enums.get(class).map_or(&[], Vec::as_slice)
    }

    /// The parameterization chosen for a target class by `target_type`, if it is generic.
    pub fn target_parameterization(&self, class: &str) -> Option<&JType> {
        self.target_types.get(class)
    }

    /// The stub types of the cluster (abstract class or interface -> stub), for the engine,
    /// which generates their classes, and for tests.
    pub fn stub_types(&self) -> impl Iterator<Item = &Arc<crate::statement::StubType>> {
        self.stubs.values().map(|s| &s.stub)
    }
}
