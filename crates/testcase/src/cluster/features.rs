//! The cluster's optional features behind one seam. Each is a `ClusterFeature` in its own file,
//! switched on by its `ClusterConfig` field; `FEATURES` lists them, and the walk, the static pool,
//! the package generators' test of what the cluster can make and the creations ask every enabled
//! feature at fixed points, knowing none by name. A new feature is one file implementing the hooks
//! it needs and one line in `FEATURES`.
//!
//! The hooks are the points at which the features act: before the walk on the CUT's static pool
//! (code constants, format strings, regex strings), on each walked class (stubs), after the walk (package
//! generators, which walk again what they add), and at query time on the creations of a wanted
//! type (scratch files before the generators, stubs after them). Each does nothing by default. A
//! feature that keeps what it found (the stubs) keeps it in a field of the builder and the cluster:
//! the engine reads the stubs through `TestCluster::stub_types`.
//!
//! What is not optional stays out of this seam: the JDK tables (`jdk`) and the overload rules
//! (`overloads`) are consulted by member collection on every class, whatever the configuration.

use std::sync::Arc;

use super::code_constants::CodeConstants;
use super::files::ScratchFiles;
use super::load::{ClassInfo, CutPool, PoolConstants};
use super::package::PackageGenerators;
use super::regex_strings::RegexStrings;
use super::shapes::FormatStrings;
use super::stubs::Stubs;
use super::walk::Builder;
use super::{ClusterConfig, Creation, TestCluster};
use crate::types::JType;

/// An optional contribution to the cluster. The hooks run in `FEATURES` order among the enabled
/// features; that order is visible where two features touch the same thing (the code constants
/// replace the static pool before the format strings extend it).
pub(super) trait ClusterFeature: Sync {
    /// Whether `config` switches the feature on.
    fn enabled(&self, config: &ClusterConfig) -> bool;

    /// Before the walk: changes the CUT's static pool, which starts as its constant pool's values.
    fn extend_pool(&self, _cut: &CutPool<'_, '_>, _pool: &mut PoolConstants) {}

    /// During the walk, on class `info` (walked at `depth`), after its implementations are
    /// recorded and before its members are collected.
    fn visit_class(&self, _b: &mut Builder<'_>, _info: &Arc<ClassInfo>, _is_jdk: bool, _depth: u32) {}

    /// During the walk: whether JDK class `name` offers all its members, not only the
    /// container-filling ones other JDK classes offer.
    fn opens_jdk_class(&self, _b: &Builder<'_>, _name: &str) -> bool {
        false
    }

    /// After the walk: adds to the cluster, walking again (`Builder::walk`) what the additions need.
    fn after_walk(&self, _b: &mut Builder<'_>) {}

    /// Whether the feature gives the cluster a value of class `name` by itself (the package
    /// generators look for a way to make only what nothing makes).
    fn makes(&self, _b: &Builder<'_>, _name: &str) -> bool {
        false
    }

    /// The creations of `want` (of class `name`) offered before its generators.
    fn leading_creations(&self, _c: &TestCluster, _want: &JType, _name: &str, _out: &mut Vec<Creation>) {}

    /// The creations of `want` (of class `name`) offered after its generators and implementations'.
    fn trailing_creations(&self, _c: &TestCluster, _want: &JType, _name: &str, _out: &mut Vec<Creation>) {}

    /// The feature's section of the cluster dump (after the enums), if it has one.
    fn dump(&self, _c: &TestCluster, _out: &mut String) {}
}

/// Every feature, in the order the hooks run.
const FEATURES: [&dyn ClusterFeature; 6] =
    [&CodeConstants, &FormatStrings, &RegexStrings, &Stubs, &ScratchFiles, &PackageGenerators];

/// The features `config` switches on, in `FEATURES` order.
pub(super) fn enabled(config: &ClusterConfig) -> impl Iterator<Item = &'static dyn ClusterFeature> + '_ {
    FEATURES.into_iter().filter(move |f| f.enabled(config))
}
