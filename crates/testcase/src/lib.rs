//! The test model of suitesmith and everything that creates and changes tests without running them:
//! statements with variables as statement indices (`statement`), the assertions written after them
//! (`assertion`, shared by `postprocess` and `junit`), Java types with generics and
//! assignability (`types`), typing checks and graceful deletion (`validity`), the test cluster read
//! from class files (`cluster`), value pools (`pool`), and EvoSuite's random test factory, mutation
//! and crossover (`factory`, `mutation`). Execution and serialisation for workers live elsewhere
//! (`exec`, `protocol`).

pub mod assertion;
pub mod cluster;
pub mod factory;
pub mod mutation;
pub mod pool;
pub mod statement;
pub mod types;
pub mod validity;

pub use cluster::{ClusterConfig, ClusterError, TestCluster};
pub use factory::{FactoryConfig, TestFactory};
pub use pool::{ConstantValues, DynamicPool, ValuePool};
pub use statement::{
    ConstructorRef, FieldRef, Lineage, MethodRef, PrimValue, ScratchFile, ScratchKind, Statement, StubMethod,
    StubRef, StubType, TestCase, VarId,
};
pub use types::{JType, PrimType, SubtypeOracle, TypeArg};
pub use validity::{InvalidTest, check, remove_statement};

/// The one random number generator of the search, passed as `&mut` (STYLE.md rule 4).
pub type TestRng = rand_pcg::Pcg64Mcg;

/// A generator seeded from a number, for tests and `--seed`.
pub fn rng_from_seed(seed: u64) -> TestRng {
    <TestRng as rand::SeedableRng>::seed_from_u64(seed)
}
