//! The `--dse-*` parameters of dynamic symbolic execution (paper 004, docs/dse.md), part of
//! `TechniqueArgs` (whose `--dse` switch turns it on or off): arguments -> `engine::DseConfig`.
//! Every default is the standard techniques' (`engine::Techniques::standard`).

use crate::Failure;
use crate::technique_args::Switch;

/// DSE's parameters in the standard techniques: the defaults below.
fn standard() -> engine::DseConfig {
    engine::Techniques::standard().dse
}

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct DseArgs {
    /// P: the probability of applying DSE when its trigger fires (in (0, 1]).
    #[arg(long, default_value_t = standard().probability)]
    dse_probability: f64,
    /// R: P becomes P/R after an application that kept no test, P×R after one that did (≥ 1; 1:
    /// no adaptation).
    #[arg(long, default_value_t = standard().rate)]
    dse_rate: f64,
    /// Solver queries per application.
    #[arg(long, default_value_t = standard().max_queries)]
    dse_queries: u32,
    /// Solved tests run in the JVM per application.
    #[arg(long, default_value_t = standard().max_tests)]
    dse_tests: u32,
    /// Tests replayed concolically per application.
    #[arg(long, default_value_t = standard().max_seeds)]
    dse_seeds: u32,
    /// Interpreter instructions per replay.
    #[arg(long, default_value_t = standard().max_steps)]
    dse_steps: u64,
    /// Z3's resource limit per query (rlimit units, deterministic).
    #[arg(long, default_value_t = standard().solver.z3_rlimit)]
    dse_z3_rlimit: u64,
    /// AVM objective evaluations per query.
    #[arg(long, default_value_t = standard().solver.avm_evaluations)]
    dse_avm_evaluations: u64,
    /// Negate only branches whose other side the search has not covered (004's filter).
    #[arg(long, value_enum, default_value_t = Switch::of(standard().filter))]
    dse_filter: Switch,
    /// The interpreter's models of the JDK methods parsers use (split and matches by regular
    /// expressions, String.format, strip, Math over doubles); off for their ablation.
    #[arg(long, value_enum, default_value_t = Switch::of(standard().parser_models))]
    dse_parser_models: Switch,
    /// Keep every solved test, not only those covering a new goal.
    #[arg(long)]
    dse_keep_all: bool,
    /// Generations without a trigger after which DSE runs anyway (0: never, as in paper 004).
    #[arg(long, default_value_t = standard().stall)]
    dse_stall: u32,
    /// The most work DSE may do, as a share of the search's evaluations (its replays, solver units
    /// and checks in evaluation equivalents; 0: no limit, as in paper 004).
    #[arg(long, default_value_t = standard().share)]
    dse_share: f64,
    /// With a time budget only: the most wall time DSE may take, as a share of the search's own
    /// (0.25: at most a fifth of the run; 0: no limit). Replaces --dse-share in such runs.
    #[arg(long, default_value_t = standard().time_share)]
    dse_time_share: f64,
}

impl DseArgs {
    /// `base` (on or off) with these parameters; a probability outside (0, 1] or a rate below 1 is
    /// bad input.
    pub(crate) fn config(&self, base: engine::DseConfig) -> Result<engine::DseConfig, Failure> {
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
        let mut c = base;
        c.probability = self.dse_probability;
        c.rate = self.dse_rate;
        c.max_queries = self.dse_queries;
        c.max_tests = self.dse_tests;
        c.max_seeds = self.dse_seeds;
        c.max_steps = self.dse_steps;
        c.solver.z3_rlimit = self.dse_z3_rlimit;
        c.solver.avm_evaluations = self.dse_avm_evaluations;
        c.filter = self.dse_filter.is_on();
        c.parser_models = self.dse_parser_models.is_on();
        // A flag can only add: the standard's `keep_all` stays when it is not given.
        c.keep_all |= self.dse_keep_all;
        c.stall = self.dse_stall;
        c.share = self.dse_share;
        c.time_share = self.dse_time_share;
        Ok(c)
    }
}
