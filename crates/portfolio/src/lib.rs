//! portfolio: the adaptive portfolio of the search's techniques (docs/portfolio.md).
//! Every technique is on by default, and this crate decides per class and during the search how much
//! of the budget each gets, after paper 004's idea that DSE should run where it pays, applied to
//! every technique:
//! - `gates`: one table of cheap static checks over the program database, one row per technique;
//!   a closed gate means the technique costs nothing for that class;
//! - `ledger`: per arm, what it cost (wall time or deterministic work) and what it earned (goals
//!   first covered by tests it injected, discounted per generation);
//! - `allocation`: the online rule that turns the ledger into shares and says whether an arm may
//!   run now (DSE's fixed time share is the case of one arm with a constant share);
//! - `hook`: `Portfolio`, a `search::Hook` over the technique hooks that applies the rule, times
//!   or meters each call and credits earnings from the archive;
//! - `report`: the per-arm summary for report.json.
//!
//! It deliberately does not build the technique hooks or the cluster (the engine does, and maps its
//! `Technique` switches to [`Arm`]s), run tests, or read a wall clock in a run with an evaluation
//! budget (`Measure::Work`: decisions then depend only on deterministic counts).

pub mod allocation;
pub mod gates;
pub mod hook;
pub mod ledger;
pub mod report;

pub use allocation::{Budget, ConfigError, Measure, PortfolioConfig, Shares, may_run, shares, weight};
pub use gates::{GATES, Gate, GateError, GateInput, GateRow, gates, open_arms, render};
pub use hook::{Metered, Plain, Portfolio, PortfolioArm, WorkFrom};
pub use ledger::{Account, Ledger};
pub use report::{ArmReport, Given, report};

/// One technique the portfolio knows, as the engine's `Technique` switch names it. The portfolio
/// sits below the engine (it is built from the hooks of `dse`, `ocg`, `sushi` and `localsearch`,
/// and the engine composes it), so it cannot use the engine's enum; the engine maps each
/// `Technique` to the arm of the same name, one to one (`Arm::name` is the switch's name).
/// Arms that are not search hooks (flags, stubs, files, ...) only have a gate: the portfolio
/// allocates time to hooks alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arm {
    Ocg,
    Flags,
    GoalSelection,
    Sushi,
    Dse,
    LocalSearch,
    Stubs,
    Files,
    PackageGenerators,
    FormatStrings,
    CodeConstants,
}

impl Arm {
    /// Every arm, in the order of the engine's `Technique::ALL`.
    pub const ALL: [Arm; 11] = [
        Arm::Ocg,
        Arm::Flags,
        Arm::GoalSelection,
        Arm::Sushi,
        Arm::Dse,
        Arm::LocalSearch,
        Arm::Stubs,
        Arm::Files,
        Arm::PackageGenerators,
        Arm::FormatStrings,
        Arm::CodeConstants,
    ];

    /// The technique's switch name (`--<name> on`), also its key in report.json.
    pub fn name(self) -> &'static str {
        match self {
            Arm::Ocg => "ocg",
            Arm::Flags => "flags",
            Arm::GoalSelection => "goal-selection",
            Arm::Sushi => "sushi",
            Arm::Dse => "dse",
            Arm::LocalSearch => "local-search",
            Arm::Stubs => "stubs",
            Arm::Files => "files",
            Arm::PackageGenerators => "package-generators",
            Arm::FormatStrings => "format-strings",
            Arm::CodeConstants => "code-constants",
        }
    }

    /// The arm of a switch name: how the engine maps its `Technique`s (`Arm::named(t.name())`).
    pub fn named(name: &str) -> Option<Arm> {
        Arm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Whether the technique joins the search as a hook, so that the portfolio gives it a share
    /// of the budget online; the others change the cluster, the pool or the fitness once, and only
    /// their gate applies.
    pub fn is_hook(self) -> bool {
        matches!(self, Arm::Ocg | Arm::Sushi | Arm::Dse | Arm::LocalSearch)
    }
}

impl std::fmt::Display for Arm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_arm_is_found_by_its_name() {
        for a in Arm::ALL {
            assert_eq!(Arm::named(a.name()), Some(a));
        }
        assert_eq!(Arm::named("nothing"), None);
        let hooks: Vec<&str> = Arm::ALL.into_iter().filter(|a| a.is_hook()).map(Arm::name).collect();
        assert_eq!(hooks, ["ocg", "sushi", "dse", "local-search"]);
    }
}
