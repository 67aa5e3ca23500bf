//! The product's defaults, stated once: which techniques a run uses on top of EvoSuite's core,
//! with which parameters (`Techniques::standard`), and the core alone (`Techniques::none`, every
//! technique off). The CLI's `generate` and `search`, the tests and the benchmarks start from these
//! two values; changing what a user gets by default is a change of `standard` and nothing else
//! (DESIGN.md §3.11). `Technique` names each switch, so that the CLI's switches, their `--no-`
//! forms and their help are one table over it rather than one field each.
//!
//! Not here: the parameters' meanings (each technique's crate documents its own config), and how a
//! run uses them (`search_class_in`).

use crate::{DseConfig, GoalSelection, LocalSearchConfig, OcgConfig, SushiConfig};

pub use portfolio::PortfolioConfig;

/// One technique a run may add to EvoSuite's core, as the CLI names its switch (`--ocg on`,
/// `--no-ocg`): the portfolio's arm of the same name, one enum for both (the portfolio sits below
/// the engine and allocates over these).
pub use portfolio::Arm as Technique;

/// How a run divides its budget among the techniques that are on (docs/portfolio.md).
#[derive(Debug, Clone, PartialEq)]
pub enum Allocation {
    /// The adaptive portfolio with these parameters: per class, a technique whose gate is closed
    /// is off (`Techniques::gated`); the technique hooks run under one `portfolio::Portfolio`,
    /// which gives each a share of the search by what it earned per unit of cost, so DSE's own
    /// share limit is off (one accounting for all); SUSHI's exploration is charged to its arm,
    /// and under a time budget the search's time is the budget less the exploration's.
    Adaptive(PortfolioConfig),
    /// Every technique that is on runs on every class for the whole search, each hook called at
    /// every `between` within its own limits (DSE's share): the run as it was before the
    /// portfolio, `--portfolio off`.
    Fixed,
}

/// The techniques of one run and their parameters: a part of `GenerateConfig`. No `Default`:
/// [`Techniques::standard`] is the product's, [`Techniques::none`] EvoSuite's core. A technique
/// that is off leaves the run exactly as it is without it; its parameters are kept, so that turning
/// it on again gives the standard parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Techniques {
    /// Object construction templates between generations (paper 000, docs/ocg.md).
    pub ocg: OcgConfig,
    /// Interprocedural flag fitness (paper 001, docs/flags.md): flag branches of the classes
    /// under test score the aggregate of the distances inside their flag methods.
    pub flags: bool,
    /// Which goals guide the search: all, or smart selection's (paper 002, docs/selection.md).
    pub goal_selection: GoalSelection,
    /// SUSHI: path conditions over heap inputs as goals (paper 003, docs/sushi.md).
    pub sushi: SushiConfig,
    /// Dynamic symbolic execution between generations (paper 004, docs/dse.md).
    pub dse: DseConfig,
    /// The AVM's exponential moves on the numbers of a goal's best test between generations
    /// (docs/localsearch.md).
    pub local_search: LocalSearchConfig,
    /// Stubs of abstract classes and interfaces as test values (docs/stubs.md): anonymous
    /// implementations whose methods return values the search chooses.
    pub stubs: bool,
    /// Files and paths in the test's temporary folder as test values (docs/files.md).
    pub files: bool,
    /// Generators from the CUT's package and the needed types' packages (docs/generators.md): a
    /// type nothing in the cluster makes is made by other classes' methods returning it.
    pub package_generators: bool,
    /// Strings in the formats whose separators the class compares with, in the static pool
    /// (docs/generators.md).
    pub format_strings: bool,
    /// The static pool also holds the numbers the CUT's methods push (`bipush`, `sipush`, ...),
    /// as EvoSuite's does (`ClusterConfig::code_constants`).
    pub code_constants: bool,
    /// Graded distances on the string and regex tests of the classes under test (`equals`,
    /// `startsWith`, `matches`, ...: edit distance, the regex automaton's distance), where a flat
    /// 0/1 would give the branch after the test no gradient (docs/strings.md).
    pub string_distance: bool,
    /// Strings the class's regular expressions accept (the patterns it passes to `matches`,
    /// `split`, `replaceAll`, `Pattern.compile`), in the static pool (docs/generators.md).
    pub regex_strings: bool,
    /// How the techniques that are on share the run (`--portfolio on|off`). It is not a technique:
    /// `with` and `none` leave it as it is.
    pub allocation: Allocation,
}

impl Techniques {
    /// What a user gets with no switch: every technique on, with its documented parameters (the
    /// papers' or ours, as each config states: `OcgConfig::off`'s, `SushiConfig::standard`,
    /// `LocalSearchConfig::off`'s, smart selection's `selection::Options::default`, DSE's below),
    /// under the adaptive portfolio (`PortfolioConfig::standard`). The portfolio spends the budget
    /// per class (docs/portfolio.md): a technique whose static gate is closed for the class costs
    /// nothing, and the technique hooks get shares of the search by the goals they earn per unit of
    /// cost, so a technique that does not pay on a class is held to the floor there rather than
    /// switched off for every class by an ablation's average (DESIGN.md §3.11).
    pub fn standard() -> Techniques {
        Techniques {
            ocg: OcgConfig { enabled: true, ..OcgConfig::off() },
            flags: true,
            goal_selection: GoalSelection::Smart(selection::Options::default()),
            sushi: SushiConfig::standard(),
            // The shares keep DSE from eating the search under `Allocation::Fixed` (docs/dse.md
            // "Budgets: deterministic units"): a third of the evaluations under an evaluation
            // budget, a fifth of the wall time under a time one. The portfolio turns them off.
            dse: DseConfig { share: 0.5, time_share: 0.25, ..DseConfig::paper() },
            local_search: LocalSearchConfig { enabled: true, ..LocalSearchConfig::off() },
            stubs: true,
            files: true,
            package_generators: true,
            format_strings: true,
            code_constants: true,
            string_distance: true,
            regex_strings: true,
            allocation: Allocation::Adaptive(PortfolioConfig::standard()),
        }
    }

    /// EvoSuite's core: [`Techniques::standard`] with every technique off (the baseline of an
    /// ablation).
    pub fn none() -> Techniques {
        Technique::ALL.into_iter().fold(Techniques::standard(), |t, x| t.with(x, false))
    }

    /// Whether technique `t` is on.
    pub fn is_on(&self, t: Technique) -> bool {
        match t {
            Technique::Ocg => self.ocg.enabled,
            Technique::Flags => self.flags,
            Technique::GoalSelection => matches!(self.goal_selection, GoalSelection::Smart(_)),
            Technique::Sushi => self.sushi.enabled,
            Technique::Dse => self.dse.enabled,
            Technique::LocalSearch => self.local_search.enabled,
            Technique::Stubs => self.stubs,
            Technique::Files => self.files,
            Technique::PackageGenerators => self.package_generators,
            Technique::FormatStrings => self.format_strings,
            Technique::CodeConstants => self.code_constants,
            Technique::StringDistance => self.string_distance,
            Technique::RegexStrings => self.regex_strings,
        }
    }

    /// These techniques with `t` turned on or off, its parameters kept. Smart goal selection
    /// turned on gets the paper's options (`selection::Options::default`) unless it was on.
    pub fn with(mut self, t: Technique, on: bool) -> Techniques {
        match t {
            Technique::Ocg => self.ocg.enabled = on,
            Technique::Flags => self.flags = on,
            Technique::GoalSelection => {
                self.goal_selection = match (self.goal_selection, on) {
                    (GoalSelection::Smart(o), true) => GoalSelection::Smart(o),
                    (_, true) => GoalSelection::Smart(selection::Options::default()),
                    (_, false) => GoalSelection::All,
                }
            }
            Technique::Sushi => self.sushi.enabled = on,
            Technique::Dse => self.dse.enabled = on,
            Technique::LocalSearch => self.local_search.enabled = on,
            Technique::Stubs => self.stubs = on,
            Technique::Files => self.files = on,
            Technique::PackageGenerators => self.package_generators = on,
            Technique::FormatStrings => self.format_strings = on,
            Technique::CodeConstants => self.code_constants = on,
            Technique::StringDistance => self.string_distance = on,
            Technique::RegexStrings => self.regex_strings = on,
        }
        self
    }

    /// These techniques with every technique whose gate in `gates` is closed turned off for the
    /// class the gates were computed for (docs/portfolio.md, "The gates"). Gates only turn
    /// techniques off: one that is off stays off whatever its gate says, and a technique without
    /// a row in `gates` is kept as it is.
    pub fn gated(&self, gates: &[portfolio::Gate]) -> Techniques {
        gates.iter().filter(|g| !g.open).fold(self.clone(), |t, g| t.with(g.arm, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(arm: Technique, open: bool) -> portfolio::Gate {
        portfolio::Gate { arm, open, reason: String::new() }
    }

    /// A closed gate turns its technique off, an open one never turns one on, and the parameters
    /// of the techniques kept are untouched.
    #[test]
    fn closed_gates_turn_techniques_off_and_open_ones_never_on() {
        let t = Techniques::none().with(Technique::Dse, true).with(Technique::Flags, true);
        let gates = [
            gate(Technique::Dse, false),
            gate(Technique::Flags, true),
            gate(Technique::Ocg, true),
            gate(Technique::Stubs, false),
        ];
        let g = t.gated(&gates);
        let on: Vec<Technique> = Technique::ALL.into_iter().filter(|&x| g.is_on(x)).collect();
        assert_eq!(on, [Technique::Flags]);
        assert_eq!(g.dse, DseConfig { enabled: false, ..t.dse.clone() });
        assert_eq!(t.gated(&[]), t);
    }
}
