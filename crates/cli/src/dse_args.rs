//! The `--dse` switch and its `--dse-*` parameters (paper 004, docs/dse.md), shared by `generate`
//! and `search`: arguments -> `engine::DseConfig`. On by default since the 60 s ablation of the
//! public set and the dse fixtures showed a gain (DESIGN.md §3.11, docs/benchmarks.md).

use crate::Failure;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Switch {
    On,
    Off,
}

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct DseArgs {
    /// Dynamic symbolic execution between generations (paper 004): solved tests for branches that
    /// need exact values. On by default (docs/benchmarks.md, "Ablation at 60 s with the time share").
    #[arg(long, value_enum, default_value = "on")]
    dse: Switch,
    /// P: the probability of applying DSE when its trigger fires (in (0, 1]).
    #[arg(long, default_value_t = 1.0)]
    dse_probability: f64,
    /// R: P becomes P/R after an application that kept no test, P×R after one that did (≥ 1; 1:
    /// no adaptation).
    #[arg(long, default_value_t = 1.0)]
    dse_rate: f64,
    /// Solver queries per application.
    #[arg(long)]
    dse_queries: Option<u32>,
    /// Solved tests run in the JVM per application.
    #[arg(long)]
    dse_tests: Option<u32>,
    /// Tests replayed concolically per application.
    #[arg(long)]
    dse_seeds: Option<u32>,
    /// Interpreter instructions per replay.
    #[arg(long)]
    dse_steps: Option<u64>,
    /// Z3's resource limit per query (rlimit units, deterministic).
    #[arg(long)]
    dse_z3_rlimit: Option<u64>,
    /// AVM objective evaluations per query.
    #[arg(long)]
    dse_avm_evaluations: Option<u64>,
    /// Negate only branches whose other side the search has not covered (004's filter).
    #[arg(long, value_enum, default_value = "on")]
    dse_filter: Switch,
    /// Keep every solved test, not only those covering a new goal.
    #[arg(long)]
    dse_keep_all: bool,
    /// Generations without a trigger after which DSE runs anyway (0: never, as in paper 004).
    #[arg(long)]
    dse_stall: Option<u32>,
    /// The most work DSE may do, as a share of the search's evaluations (its replays, solver units
    /// and checks in evaluation equivalents; 0: no limit, as in paper 004).
    #[arg(long, default_value_t = 0.5)]
    dse_share: f64,
    /// With a time budget only: the most wall time DSE may take, as a share of the search's own
    /// (0.25: at most a fifth of the run; 0: no limit). Replaces --dse-share in such runs.
    #[arg(long, default_value_t = 0.25)]
    dse_time_share: f64,
}

impl DseArgs {
    /// The configuration; a probability outside (0, 1] or a rate below 1 is bad input.
    pub(crate) fn config(&self) -> Result<engine::DseConfig, Failure> {
        if !(self.dse_probability > 0.0 && self.dse_probability <= 1.0) {
            return Err(Failure::BadInput(format!(
                "--dse-probability {} is not in (0, 1]",
                self.dse_probability
            )));
        }
        if !(self.dse_share >= 0.0 && self.dse_share.is_finite()) {
            return Err(Failure::BadInput(format!("--dse-share {} is not a share ≥ 0", self.dse_share)));
        }
        if !(self.dse_time_share >= 0.0 && self.dse_time_share.is_finite()) {
            return Err(Failure::BadInput(format!(
                "--dse-time-share {} is not a share ≥ 0",
                self.dse_time_share
            )));
        }
        if !(self.dse_rate >= 1.0 && self.dse_rate.is_finite()) {
            return Err(Failure::BadInput(format!("--dse-rate {} is below 1", self.dse_rate)));
        }
        let mut c = engine::DseConfig::paper();
        c.enabled = self.dse == Switch::On;
        c.probability = self.dse_probability;
        c.rate = self.dse_rate;
        c.max_queries = self.dse_queries.unwrap_or(c.max_queries);
        c.max_tests = self.dse_tests.unwrap_or(c.max_tests);
        c.max_seeds = self.dse_seeds.unwrap_or(c.max_seeds);
        c.max_steps = self.dse_steps.unwrap_or(c.max_steps);
        c.solver.z3_rlimit = self.dse_z3_rlimit.unwrap_or(c.solver.z3_rlimit);
        c.solver.avm_evaluations = self.dse_avm_evaluations.unwrap_or(c.solver.avm_evaluations);
        c.filter = self.dse_filter == Switch::On;
        c.keep_all = self.dse_keep_all;
        c.stall = self.dse_stall.unwrap_or(c.stall);
        c.share = self.dse_share;
        c.time_share = self.dse_time_share;
        Ok(c)
    }
}
