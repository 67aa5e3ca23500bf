//! The `--ocg` switch and its `--ocg-*` parameters (paper 000, docs/ocg.md), shared by `generate`
//! and `search`: arguments -> `engine::OcgConfig`. Off by default until a benchmark ablation
//! shows a gain (DESIGN.md §3.11).

use crate::Failure;
use crate::dse_args::Switch;

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct OcgArgs {
    /// Object construction templates (paper 000, EvoObj): after a generation, a test that builds
    /// the objects an uncovered branch reads (setters chosen by Eq. (1)) joins the search.
    #[arg(long, value_enum, default_value = "off")]
    ocg: Switch,
    /// p_app: the probability, per generation, of injecting one template (in [0, 1]).
    #[arg(long, default_value_t = 0.3)]
    ocg_probability: f64,
    /// t_dep: how deep the backward slice follows calls (≥ 1).
    #[arg(long, default_value_t = 5)]
    ocg_depth: u32,
    /// The longest template made, in statements.
    #[arg(long, default_value_t = 200)]
    ocg_max_length: usize,
}

impl OcgArgs {
    /// The configuration; a probability outside [0, 1], a depth of 0 or a length of 0 is bad input.
    pub(crate) fn config(&self) -> Result<engine::OcgConfig, Failure> {
        if !(0.0..=1.0).contains(&self.ocg_probability) {
            return Err(Failure::BadInput(format!(
                "--ocg-probability must be in [0, 1], not {}",
                self.ocg_probability
            )));
        }
        if self.ocg_depth == 0 {
            return Err(Failure::BadInput("--ocg-depth must be at least 1".to_string()));
        }
        if self.ocg_max_length == 0 {
            return Err(Failure::BadInput("--ocg-max-length must be at least 1".to_string()));
        }
        let mut c = engine::OcgConfig::off();
        c.enabled = self.ocg == Switch::On;
        c.probability = self.ocg_probability;
        c.slice.depth = self.ocg_depth;
        c.template.max_length = self.ocg_max_length;
        Ok(c)
    }
}
