//! The numbers the CUT's methods push (`bipush`, `sipush`, `iconst`, ...) in the static pool
//! beside its constant pool's, as EvoSuite's static pool has them (`--code-constants`,
//! `load::code_constants`). Off by default: its ablation lost on the public set
//! (docs/benchmarks.md).

use super::ClusterConfig;
use super::features::ClusterFeature;
use super::load::{CutPool, PoolConstants};

/// `ClusterConfig::code_constants`.
pub(super) struct CodeConstants;

impl ClusterFeature for CodeConstants {
    fn enabled(&self, config: &ClusterConfig) -> bool {
        config.code_constants
    }

    fn extend_pool(&self, cut: &CutPool<'_, '_>, pool: &mut PoolConstants) {
        // The full pool holds the constant pool's values too, in the order they had.
        *pool = cut.full().clone();
    }
}
