//! The `--ocg-*` parameters of object construction templates (paper 000, docs/ocg.md), part of
//! `TechniqueArgs` (whose `--ocg` switch turns them on or off): arguments -> `engine::OcgConfig`.
//! Every default is the standard techniques' (`engine::Techniques::standard`).

use crate::Failure;

/// The templates' parameters in the standard techniques: the defaults below.
fn standard() -> engine::OcgConfig {
    engine::Techniques::standard().ocg
}

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct OcgArgs {
    /// p_app: the probability, per generation, of injecting one template (in [0, 1]).
    #[arg(long, default_value_t = standard().probability)]
    ocg_probability: f64,
    /// t_dep: how deep the backward slice follows calls (≥ 1).
    #[arg(long, default_value_t = standard().slice.depth)]
    ocg_depth: u32,
    /// The longest template made, in statements.
    #[arg(long, default_value_t = standard().template.max_length)]
    ocg_max_length: usize,
}

impl OcgArgs {
    /// `base` (on or off) with these parameters; a probability outside [0, 1], a depth of 0 or a
    /// length of 0 is bad input.
    pub(crate) fn config(&self, base: engine::OcgConfig) -> Result<engine::OcgConfig, Failure> {
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
        let mut c = base;
        c.probability = self.ocg_probability;
        c.slice.depth = self.ocg_depth;
        c.template.max_length = self.ocg_max_length;
        Ok(c)
    }
}
