//! Tests of arguments -> configuration, through the parser the binary uses (`Cli`) and the
//! commands' own `configure`: with no switch `generate` and `search` run exactly the product's
//! defaults (`GenerateConfig::standard`); `--techniques none`, each `--<technique>` and each
//! `--no-<technique>` map to the techniques they name; contradictions and unknown values are one
//! line of bad input.
//! Each case is a row of data. What the binary prints and its exit codes are tested from outside
//! (`tests/cli.rs`).

use clap::Parser;
use engine::{Allocation, GenerateConfig, Technique, Techniques};

use crate::{Cli, Command, Failure};

/// The configuration `suitesmith <argv>` runs (`generate` or `search`), or its one line of bad
/// input; a parse error is clap's message.
fn configure(argv: &[String]) -> Result<GenerateConfig, String> {
    let cli = Cli::try_parse_from(std::iter::once("suitesmith".to_string()).chain(argv.iter().cloned()))
        .map_err(|e| e.to_string())?;
    let res = match &cli.command {
        Command::Generate(args) => crate::generate::configure(args),
        Command::Search(args) => crate::search::configure(args),
        other => panic!("no configuration for {other:?}"),
    };
    res.map_err(|f| match f {
        Failure::BadInput(line) => line,
        Failure::Internal(e) => format!("internal error: {e:#}"),
        Failure::Changed(line) => line,
    })
}

/// The techniques of `generate --classpath CP --class C <switches>`.
fn techniques(switches: &[String]) -> Result<Techniques, String> {
    let mut argv: Vec<String> =
        ["generate", "--classpath", "cp", "--class", "a.B"].map(String::from).to_vec();
    argv.extend_from_slice(switches);
    configure(&argv).map(|c| c.techniques)
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The words of a technique's switch for on and off.
fn words(t: Technique) -> (&'static str, &'static str) {
    if t == Technique::GoalSelection { ("smart", "all") } else { ("on", "off") }
}

#[test]
fn no_switch_is_the_product_default() {
    let budget = search::Budget::time(engine::DEFAULT_BUDGET);
    let generate = configure(&strings(&["generate", "--classpath", "cp", "--class", "a.B"]));
    // `generate` sets the classpath and each class itself, after reading them.
    assert_eq!(generate, Ok(GenerateConfig::standard(Vec::new(), "", budget, 0)));
    let search = configure(&strings(&["search", "--classpath", "x:y.jar", "--class", "a.B"]));
    let classpath = vec!["x".into(), "y.jar".into()];
    assert_eq!(search, Ok(GenerateConfig::standard(classpath, "a.B", budget, 0)));
}

#[test]
fn switches_map_to_techniques() {
    let standard = Techniques::standard();
    let none = Techniques::none();
    assert!(Technique::ALL.into_iter().all(|t| !none.is_on(t)), "{none:?}");
    let mut cases: Vec<(Vec<String>, Techniques)> = vec![
        (strings(&[]), standard.clone()),
        (strings(&["--techniques", "standard"]), standard.clone()),
        (strings(&["--techniques", "none"]), none.clone()),
        // The core plus DSE, DSE with the standard parameters (the default before the portfolio).
        (strings(&["--techniques", "none", "--dse", "on"]), none.clone().with(Technique::Dse, true)),
        (
            strings(&["--techniques", "none", "--ocg", "--dse-queries", "3"]),
            Techniques { dse: engine::DseConfig { max_queries: 3, ..none.dse.clone() }, ..none.clone() }
                .with(Technique::Ocg, true),
        ),
    ];
    let adaptive = Allocation::Adaptive(engine::PortfolioConfig::standard());
    cases.extend([
        // `--portfolio` picks the allocation whatever the techniques: `on` keeps the standard's
        // parameters, `off` is every technique on for the whole run.
        (strings(&["--portfolio", "on"]), Techniques { allocation: adaptive.clone(), ..standard.clone() }),
        (strings(&["--portfolio", "off"]), Techniques { allocation: Allocation::Fixed, ..standard.clone() }),
        (
            strings(&["--techniques", "none", "--dse", "on", "--portfolio", "off"]),
            Techniques { allocation: Allocation::Fixed, ..none.clone().with(Technique::Dse, true) },
        ),
        (
            strings(&["--techniques", "none", "--portfolio", "on"]),
            Techniques { allocation: adaptive, ..none.clone() },
        ),
    ]);
    for t in Technique::ALL {
        let (on, off) = words(t);
        let name = t.name();
        let row = |argv: Vec<String>, expected: Techniques| (argv, expected);
        cases.extend([
            row(vec![format!("--no-{name}")], standard.clone().with(t, false)),
            row(vec![format!("--{name}")], standard.clone().with(t, true)),
            row(vec![format!("--{name}"), on.into()], standard.clone().with(t, true)),
            row(vec![format!("--{name}={off}")], standard.clone().with(t, false)),
            row(strings(&["--techniques", "none", &format!("--{name}"), on]), none.clone().with(t, true)),
            row(strings(&["--techniques", "none", &format!("--no-{name}")]), none.clone()),
        ]);
    }
    for (switches, expected) in cases {
        assert_eq!(techniques(&switches), Ok(expected), "{switches:?}");
    }
}

#[test]
fn contradictions_and_bad_values_are_one_line_of_bad_input() {
    let mut cases: Vec<(Vec<String>, String)> = vec![
        (
            strings(&["--no-goal-selection", "--line-threshold", "4"]),
            "--line-threshold needs --goal-selection smart".into(),
        ),
        (
            strings(&["--techniques", "none", "--mutants-per-site", "1"]),
            "--mutants-per-site needs --goal-selection smart".into(),
        ),
    ];
    cases.push((strings(&["--techniques", "all"]), "--techniques \"all\": expected standard or none".into()));
    cases.push((strings(&["--portfolio", "maybe"]), "--portfolio \"maybe\": expected on or off".into()));
    for t in Technique::ALL {
        let (on, off) = words(t);
        let name = t.name();
        cases.push((vec![format!("--{name}=maybe")], format!("--{name} \"maybe\": expected {on} or {off}")));
        let line = format!("--{name} and --no-{name} contradict each other: give one of them");
        for switch in
            [vec![format!("--{name}")], vec![format!("--{name}"), on.into()], vec![format!("--{name}={off}")]]
        {
            let mut argv = switch;
            argv.push(format!("--no-{name}"));
            cases.push((argv, line.clone()));
        }
    }
    for (switches, expected) in cases {
        assert_eq!(techniques(&switches), Err(expected), "{switches:?}");
    }
}
