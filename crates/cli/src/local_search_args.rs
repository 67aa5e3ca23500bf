//! The `--local-search-*` parameters (docs/localsearch.md), part of `TechniqueArgs` (whose
//! `--local-search` switch turns local search on or off): arguments ->
//! `engine::LocalSearchConfig`. Every default is the standard techniques'
//! (`engine::Techniques::standard`).

use crate::Failure;
use crate::technique_args::Switch;

/// Local search's parameters in the standard techniques: the defaults below.
fn standard() -> engine::LocalSearchConfig {
    engine::Techniques::standard().local_search
}

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct LocalSearchArgs {
    /// Moves per direction in a round: steps up to 2^(N-1) (1..=62).
    #[arg(long, default_value_t = standard().exponents)]
    local_search_exponents: u32,
    /// The most tests local search adds, as a share of the search's evaluations (in (0, 1]).
    #[arg(long, default_value_t = standard().share)]
    local_search_share: f64,
    /// Call rounds once a goal's plain rounds missed every number: a call the best test passes a
    /// number to is made once more right after itself, with the number moved (docs/localsearch.md
    /// "Call rounds").
    #[arg(long, value_enum, default_value_t = Switch::of(standard().calls))]
    local_search_calls: Switch,
    /// String rounds: the strings of the best test are moved too, one position a round (the char
    /// deleted, replaced, or one inserted before it; docs/localsearch.md "Strings").
    #[arg(long, value_enum, default_value_t = Switch::of(standard().strings))]
    local_search_strings: Switch,
}

impl LocalSearchArgs {
    /// `base` (on or off) with these parameters; exponents outside 1..=62 or a share outside
    /// (0, 1] is bad input.
    pub(crate) fn config(
        &self,
        base: engine::LocalSearchConfig,
    ) -> Result<engine::LocalSearchConfig, Failure> {
        if !(1..=62).contains(&self.local_search_exponents) {
            return Err(Failure::BadInput(format!(
                "--local-search-exponents must be in 1..=62, not {}",
                self.local_search_exponents
            )));
        }
        if !(self.local_search_share > 0.0 && self.local_search_share <= 1.0) {
            return Err(Failure::BadInput(format!(
                "--local-search-share must be in (0, 1], not {}",
                self.local_search_share
            )));
        }
        let mut c = base;
        c.exponents = self.local_search_exponents;
        c.share = self.local_search_share;
        c.calls = self.local_search_calls.is_on();
        c.strings = self.local_search_strings.is_on();
        Ok(c)
    }
}
