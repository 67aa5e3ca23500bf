//! portfolio: the adaptive portfolio of the search's techniques (docs/portfolio.md).
//! Every technique is on by default, and this crate decides per class and during the search how much
//! of the budget each gets, after paper 004's idea that DSE should run where it pays, applied to
//! every technique:
//! - `gates`: one table of cheap static checks over the program database, one row per technique;
//!   a closed gate means the technique costs nothing for that class;
//! - `ledger`: per arm, what it cost (wall time or deterministic work) and what it earned (goals
//!   first covered by tests it injected), in all and discounted by the run's progress;
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

pub use allocation::{
    Allowance, Budget, ConfigError, Measure, PortfolioConfig, Shares, allowance, may_run, shares, weight,
};
pub use gates::{GATES, Gate, GateError, GateInput, GateRow, gates, open_arms, render};
pub use hook::{Metered, Plain, Portfolio, PortfolioArm};
pub use ledger::{Account, Decay, Ledger};
pub use report::{ArmReport, Given, report};

/// One technique a run may add to EvoSuite's core; the engine re-exports it as `Technique`, the
/// CLI's switches (`Arm::name` is the switch's name).
/// Arms that are not search hooks (flags, stubs, files, ...) only have a gate: the portfolio
/// allocates time to hooks alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arm {
    /// Object construction templates (paper 000, docs/ocg.md).
    Ocg,
    /// Interprocedural flag fitness (paper 001, docs/flags.md).
    Flags,
    /// Smart goal selection (paper 002, docs/selection.md); off is "all goals guide".
    GoalSelection,
    /// Path conditions over heap inputs as goals (paper 003, docs/sushi.md).
    Sushi,
    /// Dynamic symbolic execution between generations (paper 004, docs/dse.md).
    Dse,
    /// The AVM's exponential moves on numbers (docs/localsearch.md).
    LocalSearch,
    /// Stubs of abstract classes and interfaces (docs/stubs.md).
    Stubs,
    /// Files and paths in the test's temporary folder (docs/files.md).
    Files,
    /// Generators from the packages of the class and of the types it needs (docs/generators.md).
    PackageGenerators,
    /// Strings in the formats the class checks, in the static pool (docs/generators.md).
    FormatStrings,
    /// The numbers the class's methods push, in the static pool.
    CodeConstants,
    /// Graded distances on string and regex tests in the fitness (docs/strings.md).
    StringDistance,
    /// Strings the class's regular expressions accept, in the static pool (docs/generators.md).
    RegexStrings,
}

impl Arm {
    /// Every arm, papers first, in the order the CLI's help lists them.
    pub const ALL: [Arm; 13] = [
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
        Arm::StringDistance,
        Arm::RegexStrings,
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
            Arm::StringDistance => "string-distance",
            Arm::RegexStrings => "regex-strings",
        }
    }

    /// The arm of a switch name (`--<name>`).
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
