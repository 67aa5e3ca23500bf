//! The `--sushi` switch and its `--sushi-*` parameters (paper 003, docs/sushi.md), shared by
//! `generate` and `search`: arguments -> `engine::SushiConfig`. Off by default until a benchmark
//! ablation shows a gain (DESIGN.md §3.11).

use crate::Failure;
use crate::dse_args::Switch;

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct SushiArgs {
    /// SUSHI (paper 003): the public methods are explored symbolically with lazy inputs, and the
    /// conditions of a minimal set of paths become goals whose distance is computed on the heap
    /// a test builds.
    #[arg(long, value_enum, default_value = "off")]
    sushi: Switch,
    /// Paths explored per public method at most.
    #[arg(long, default_value_t = 400)]
    sushi_paths: u32,
    /// Fresh objects of one class per explored path (the heap scope).
    #[arg(long, default_value_t = 16)]
    sushi_heap: u32,
    /// Path conditions sent to the workers at most (rounds of selection).
    #[arg(long, default_value_t = 128)]
    sushi_conditions: usize,
    /// Evaluations a path goal may stay unsolved before it counts as spurious.
    #[arg(long, default_value_t = 2_000)]
    sushi_patience: u64,
    /// Prune explored paths whose input state the class's own `repOk()` cannot accept (§A.2.7).
    #[arg(long, value_enum, default_value = "off")]
    sushi_rep_ok: Switch,
}

impl SushiArgs {
    /// The configuration; a bound of 0 is bad input.
    pub(crate) fn config(&self) -> Result<engine::SushiConfig, Failure> {
        for (name, v) in [
            ("--sushi-paths", u64::from(self.sushi_paths)),
            ("--sushi-heap", u64::from(self.sushi_heap)),
            ("--sushi-conditions", self.sushi_conditions as u64),
            ("--sushi-patience", self.sushi_patience),
        ] {
            if v == 0 {
                return Err(Failure::BadInput(format!("{name} must be at least 1")));
            }
        }
        let mut c = engine::SushiConfig::standard();
        c.enabled = self.sushi == Switch::On;
        c.explore.max_paths = self.sushi_paths;
        c.explore.heap_scope = self.sushi_heap;
        c.max_conditions = self.sushi_conditions;
        c.patience = self.sushi_patience;
        if self.sushi_rep_ok == Switch::On {
            c.explore.invariants = symbolic::Invariants::rep_ok();
        }
        Ok(c)
    }
}
