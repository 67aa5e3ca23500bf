//! The technique switches of `generate` and `search`, one argument group both flatten: arguments ->
//! `engine::Techniques`. `--techniques standard|none` picks where a run starts (the product's
//! defaults, `Techniques::standard`, or EvoSuite's core, `Techniques::none`); then each technique's
//! `--<name> on|off` (a bare `--<name>` is on) or `--no-<name>` (an ablation) turns that one on or
//! off, and the techniques' `--<name>-*` parameters (`DseArgs`, `OcgArgs`, ...) set what the
//! defaults do not; `--portfolio on|off` picks how the techniques that are on share the run
//! (`engine::Allocation`: the adaptive portfolio or every technique for the whole run). The switches are one table over `engine::Technique`, not one field each, so a
//! technique added to the engine gets its switch, its `--no-` form and its line of `--help` here
//! at once; the default `--help` shows is read from `Techniques::standard`, never restated. A
//! switch given with its `--no-` form, or with a value it does not know, is bad input: one line
//! and exit 2.

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use engine::{Allocation, PortfolioConfig, Technique, Techniques};

use crate::Failure;
use crate::dse_args::DseArgs;
use crate::local_search_args::LocalSearchArgs;
use crate::ocg_args::OcgArgs;
use crate::selection_args::SelectionArgs;
use crate::sushi_args::SushiArgs;

/// A parameter's value that turns something on or off.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Switch {
    On,
    Off,
}

impl Switch {
    /// The switch that says `on`: for a default read from `Techniques::standard`.
    pub(crate) fn of(on: bool) -> Switch {
        if on { Switch::On } else { Switch::Off }
    }

    pub(crate) fn is_on(self) -> bool {
        self == Switch::On
    }
}

/// The techniques of a run as given on the command line. Built by clap (`FromArgMatches`), read
/// by [`TechniqueArgs::config`]. Values are kept as text and checked there, so that a bad one is
/// one line of bad input like every other (clap's own message has several).
#[derive(Debug, Clone)]
pub(crate) struct TechniqueArgs {
    /// `--techniques`: `standard`, or `none` to start from EvoSuite's core.
    base: String,
    /// Each technique's switches as given, in `Technique::ALL`'s order.
    given: Vec<Given>,
    /// `--portfolio`: `on` (the adaptive allocation) or `off` (every technique on for the whole run).
    portfolio: String,
    selection: SelectionArgs,
    dse: DseArgs,
    ocg: OcgArgs,
    local_search: LocalSearchArgs,
    sushi: SushiArgs,
}

/// One technique's switches on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Given {
    technique: Technique,
    /// `--<name>`'s value, when given.
    value: Option<String>,
    /// Whether `--no-<name>` was given.
    no: bool,
}

/// The id and flag of `--techniques`.
const BASE: &str = "techniques";

/// The id and flag of `--portfolio`.
const PORTFOLIO: &str = "portfolio";

/// Whether an allocation is the portfolio's: `--portfolio`'s word for it.
fn portfolio_word(a: &Allocation) -> &'static str {
    match a {
        Allocation::Adaptive(_) => "on",
        Allocation::Fixed => "off",
    }
}

/// The words of a technique's switch for on and off: `on`/`off`, and for goal selection its modes.
fn words(t: Technique) -> (&'static str, &'static str) {
    match t {
        Technique::GoalSelection => ("smart", "all"),
        _ => ("on", "off"),
    }
}

/// The help of a technique's switch: what it adds to a run.
fn help(t: Technique) -> &'static str {
    match t {
        Technique::Ocg => {
            "Object construction templates (paper 000, EvoObj; docs/ocg.md): after a generation, a test \
             that builds the objects an uncovered branch reads (setters chosen by Eq. (1)) joins the search"
        }
        Technique::Flags => {
            "Interprocedural flag fitness (paper 001, docs/flags.md): branches on boolean methods score \
             the distances inside those methods"
        }
        Technique::GoalSelection => {
            "Which goals guide the search: `all` of the criteria's, or `smart` selection's (paper 002, \
             docs/selection.md: the representatives' goals, the last lines of long blocks, the subsuming \
             mutants; the others are still scored, archived and reported)"
        }
        Technique::Sushi => {
            "SUSHI (paper 003, docs/sushi.md): the public methods are explored symbolically with lazy \
             inputs, and the conditions of a minimal set of paths become goals whose distance is \
             computed on the heap a test builds"
        }
        Technique::Dse => {
            "Dynamic symbolic execution between generations (paper 004, docs/dse.md): solved tests for \
             branches that need exact values"
        }
        Technique::LocalSearch => {
            "Local search between generations (docs/localsearch.md): the alternating variable method's \
             exponential moves (±1, ±2, ±4, ...) on one number of an uncovered goal's best test, all in \
             one batch"
        }
        Technique::Stubs => {
            "Stubs (docs/stubs.md): abstract classes and interfaces become anonymous classes in the \
             tests, whose methods return values the search chooses (a `Ticker` that reads 5 then 9, a \
             `Callable` returning \"x\", an `Executor` that runs its task at once)"
        }
        Technique::Files => {
            "Files (docs/files.md): a `File` or `Path` parameter can get a file, a directory or a \
             missing name in the test's temporary folder, with contents the search chooses; the written \
             tests make them in JUnit 4's `TemporaryFolder` / JUnit 5's `@TempDir`"
        }
        Technique::PackageGenerators => {
            "Generators from the package (docs/generators.md): a type the test cannot make otherwise (no \
             accessible constructor, no implementation with one) is made by the methods of other classes \
             of the class's package or of the type's own package that return it (a public factory of a \
             package-private implementation, `newDirectExecutorService()`)"
        }
        Technique::FormatStrings => {
            "Format strings (docs/generators.md): the static pool also holds dotted quads, ISO dates and \
             times, URLs, e-mail addresses, ... when the class compares characters with their separators \
             (`charAt(i) == '-'`), so that its parsers get well-formed input"
        }
        Technique::CodeConstants => {
            "Code constants: the static value pool also holds the numbers the class's methods push \
             (`bipush 58`, `sipush 5000`, `iconst_3`, ...), not only its constant pool's, as EvoSuite's \
             does"
        }
        Technique::RegexStrings => {
            "Regex strings (docs/generators.md): the static pool also holds strings the class's regular \
             expressions accept (the constant patterns it passes to `matches`, `split`, `replaceAll`, \
             `Pattern.compile`): the shortest and a few random ones, so that a `matches` gate is passed"
        }
        Technique::StringDistance => {
            "String distance (docs/strings.md): the branch after `equals`, `equalsIgnoreCase`, \
             `startsWith`, `endsWith`, `contains`, `regionMatches` or a regex `matches` scores how many \
             edits the operand is from passing (edit distance, the pattern automaton's distance) rather \
             than a flat 0 or 1"
        }
    }
}

/// The id and flag of a technique's ablation switch.
fn no_name(t: Technique) -> String {
    format!("no-{}", t.name())
}

impl TechniqueArgs {
    /// The run's techniques: the base of `--techniques`, each switch given, then the parameters.
    /// A switch given with its `--no-` form, or a bad parameter, is bad input.
    pub(crate) fn config(&self) -> Result<Techniques, Failure> {
        let bad = |s: String| Failure::BadInput(s);
        let mut t = match self.base.as_str() {
            "standard" => Techniques::standard(),
            "none" => Techniques::none(),
            other => return Err(bad(format!("--{BASE} {other:?}: expected standard or none"))),
        };
        for g in &self.given {
            let name = g.technique.name();
            let (on, off) = words(g.technique);
            let value = match g.value.as_deref() {
                None => None,
                Some(v) if v == on => Some(true),
                Some(v) if v == off => Some(false),
                Some(v) => return Err(bad(format!("--{name} {v:?}: expected {on} or {off}"))),
            };
            t = match (value, g.no) {
                (Some(_), true) => {
                    return Err(bad(format!(
                        "--{name} and --no-{name} contradict each other: give one of them"
                    )));
                }
                (Some(on), false) => t.with(g.technique, on),
                (None, true) => t.with(g.technique, false),
                (None, false) => t,
            };
        }
        t.allocation = match (self.portfolio.as_str(), t.allocation) {
            ("on", a @ Allocation::Adaptive(_)) => a,
            ("on", Allocation::Fixed) => Allocation::Adaptive(PortfolioConfig::standard()),
            ("off", _) => Allocation::Fixed,
            (other, _) => return Err(bad(format!("--{PORTFOLIO} {other:?}: expected on or off"))),
        };
        t.goal_selection = self.selection.config(t.goal_selection)?;
        t.dse = self.dse.config(t.dse)?;
        t.ocg = self.ocg.config(t.ocg)?;
        t.local_search = self.local_search.config(t.local_search)?;
        t.sushi = self.sushi.config(t.sushi)?;
        Ok(t)
    }
}

impl FromArgMatches for TechniqueArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let on_command_line = |id: &str| m.value_source(id) == Some(ValueSource::CommandLine);
        let given = Technique::ALL
            .into_iter()
            .map(|t| Given {
                technique: t,
                value: if on_command_line(t.name()) { m.get_one::<String>(t.name()).cloned() } else { None },
                no: m.get_flag(&no_name(t)),
            })
            .collect();
        Ok(TechniqueArgs {
            base: m.get_one::<String>(BASE).cloned().unwrap_or_default(),
            given,
            portfolio: m.get_one::<String>(PORTFOLIO).cloned().unwrap_or_default(),
            selection: SelectionArgs::from_arg_matches(m)?,
            dse: DseArgs::from_arg_matches(m)?,
            ocg: OcgArgs::from_arg_matches(m)?,
            local_search: LocalSearchArgs::from_arg_matches(m)?,
            sushi: SushiArgs::from_arg_matches(m)?,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = TechniqueArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for TechniqueArgs {
    fn augment_args(cmd: Command) -> Command {
        let standard = Techniques::standard();
        let heading = cmd.get_next_help_heading().map(str::to_owned);
        let mut cmd = cmd.next_help_heading("Techniques").arg(
            Arg::new(BASE).long(BASE).value_name("standard|none").default_value("standard").help(
                "Where the switches below start: `standard`, the product's defaults (each switch's \
                     default), or `none`, EvoSuite's core with every technique off; each switch given \
                     then turns its technique on or off (`--techniques none --dse on`: the core plus DSE)",
            ),
        );
        cmd = cmd.arg(
            Arg::new(PORTFOLIO)
                .long(PORTFOLIO)
                .value_name("on|off")
                .default_value(portfolio_word(&standard.allocation))
                .help(
                    "How the techniques that are on share the run (docs/portfolio.md): `on`, the adaptive \
                     portfolio (per class the techniques whose static gate is closed are off, and the \
                     others get shares of the search by the goals they earn per unit of cost); `off`, \
                     every technique on runs on every class for the whole search, within its own limits",
                ),
        );
        for t in Technique::ALL {
            let (on, off) = words(t);
            let default = if standard.is_on(t) { on } else { off };
            cmd = cmd
                .arg(
                    Arg::new(t.name())
                        .long(t.name())
                        .value_name(format!("{on}|{off}"))
                        .num_args(0..=1)
                        .default_missing_value(on)
                        .default_value(default)
                        .help(help(t)),
                )
                .arg(
                    Arg::new(no_name(t))
                        .long(no_name(t))
                        .action(ArgAction::SetTrue)
                        .help(format!("The same as --{} {off}: an ablation", t.name())),
                );
        }
        let cmd = cmd.next_help_heading("Technique parameters");
        let cmd = SelectionArgs::augment_args(cmd);
        let cmd = DseArgs::augment_args(cmd);
        let cmd = OcgArgs::augment_args(cmd);
        let cmd = LocalSearchArgs::augment_args(cmd);
        let cmd = SushiArgs::augment_args(cmd);
        // The heading of the arguments after this group is the one before it.
        match heading {
            Some(h) => cmd.next_help_heading(h),
            None => cmd.next_help_heading(clap::builder::Resettable::Reset),
        }
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        TechniqueArgs::augment_args(cmd)
    }
}
