//! SUSHI's switch and parameters in the run's one configuration value (`--sushi` and its
//! `--sushi-*` parameters; docs/sushi.md).

use symbolic::ExploreConfig;

use crate::SelectConfig;

/// How SUSHI runs in a search. No `Default`: [`SushiConfig::off`] or [`SushiConfig::standard`].
#[derive(Clone, Debug, PartialEq)]
pub struct SushiConfig {
    pub enabled: bool,
    /// The bounds of the symbolic exploration of each public method of the class under test.
    pub explore: ExploreConfig,
    /// Interpreter steps of the whole class's exploration (all methods together): a method that
    /// would start after they ran out is not explored (counted). Work, not time.
    pub max_class_steps: u64,
    /// Paths of the whole class's exploration: each method explores at most what is left of it
    /// (and `explore.max_paths`). Each path costs about one solver call, a fresh Z3 context
    /// (20–60 ms on collections' code: commons-collections4's TreeList, 811 queries in 45 s, 80 %
    /// of it in libz3; a lower `rlimit` halves that but turns a third of the paths `unknown`), so
    /// this bounds the exploration's time too.
    pub max_class_paths: u32,
    /// Z3 resource units of the whole class's exploration: each method may spend an even share of
    /// what is left of it and half of it at most ([`SushiConfig::method_solver_work`], in place of
    /// `explore.max_solver_work`); a method that would start after it ran out is not explored
    /// (counted). Without it, integer-arithmetic classes spent minutes in queries that
    /// each ran to their `rlimit` (commons-math3 `Fraction` 314 s, Guava `IntMath` past the
    /// bench's wall limit; docs/benchmarks.md "SUSHI").
    pub max_class_solver_work: u64,
    /// The integer program's limits (path selection, digest §A.2.1 step 2).
    pub select: SelectConfig,
    /// Path conditions sent to the workers at most: the rounds of selection over the explored
    /// paths, computed before the search (the workers learn the conditions once, at set-up), so
    /// that the loop of §A.2.6 can select again among them while the search runs.
    pub max_conditions: usize,
    /// Tests evaluated after a path goal was registered without a test solving it, after which
    /// it is taken as possibly spurious and its branches go back to selection (§A.2.5–A.2.6; the
    /// paper leaves this budget open).
    pub patience: u64,
    /// Figure 6's ε (`Setup::path_epsilon`).
    pub epsilon: f64,
}

impl SushiConfig {
    /// Z3 resource units one method's exploration may spend at most: half the class's.
    pub fn method_solver_work(&self) -> u64 {
        self.max_class_solver_work.div_ceil(2)
    }

    /// SUSHI off: the run is exactly the one without it.
    pub fn off() -> SushiConfig {
        SushiConfig { enabled: false, ..SushiConfig::standard() }
    }

    /// SUSHI on with our bounds (docs/sushi.md): heaps of up to 16 objects per class, so that
    /// Figure 3's list of 15 entries is within scope; 400 paths per method, 800 paths, 2 M
    /// steps and 40 M Z3 resource units (20 M per method) per class in all; no invariants; 128
    /// conditions; 2,000 evaluations of patience.
    pub fn standard() -> SushiConfig {
        let explore = ExploreConfig {
            max_paths: 400,
            heap_scope: 16,
            max_lazy_inits: 24,
            // No invariants by default: `repOk` pruning (`Invariants::rep_ok`, `--sushi-rep-ok
            // on`) cost PlateStack 7x the exploration time and showed no gain in a first
            // measurement (docs/sushi.md); rules are per class.
            invariants: symbolic::Invariants::none(),
            ..ExploreConfig::standard()
        };
        SushiConfig {
            enabled: true,
            explore,
            max_class_steps: 2_000_000,
            max_class_paths: 800,
            max_class_solver_work: 40_000_000,
            select: SelectConfig::paper(),
            max_conditions: 128,
            patience: 2_000,
            epsilon: 1e-6,
        }
    }
}
