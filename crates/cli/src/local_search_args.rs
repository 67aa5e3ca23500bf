//! The `--local-search` switch and its `--local-search-*` parameters (docs/localsearch.md), shared
//! by `generate` and `search`: arguments -> `engine::LocalSearchConfig`. Off by default until a
//! benchmark ablation shows a gain (DESIGN.md §3.11).

use crate::Failure;
use crate::dse_args::Switch;

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct LocalSearchArgs {
    /// Local search between generations: the alternating variable method's exponential moves
    /// (±1, ±2, ±4, ...) on one number of an uncovered goal's best test, all in one batch.
    #[arg(long, value_enum, default_value = "off")]
    local_search: Switch,
    /// Moves per direction in a round: steps up to 2^(N-1) (1..=62).
    #[arg(long, default_value_t = 16)]
    local_search_exponents: u32,
    /// The most tests local search adds, as a share of the search's evaluations (in (0, 1]).
    #[arg(long, default_value_t = 0.2)]
    local_search_share: f64,
    /// Call rounds once a goal's plain rounds missed every number: a call the best test passes a
    /// number to is made once more right after itself, with the number moved (docs/localsearch.md
    /// "Call rounds"). Off until a benchmark ablation shows a gain.
    #[arg(long, value_enum, default_value = "off")]
    local_search_calls: Switch,
}

impl LocalSearchArgs {
    /// The configuration; exponents outside 1..=62 or a share outside (0, 1] is bad input.
    pub(crate) fn config(&self) -> Result<engine::LocalSearchConfig, Failure> {
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
        let mut c = engine::LocalSearchConfig::off();
        c.enabled = self.local_search == Switch::On;
        c.exponents = self.local_search_exponents;
        c.share = self.local_search_share;
        c.calls = self.local_search_calls == Switch::On;
        Ok(c)
    }
}
