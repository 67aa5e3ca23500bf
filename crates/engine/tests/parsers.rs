//! The parser models of the concolic interpreter (docs/dse.md "Models"; `symbolic::SymConfig::
//! parser_models`) on the parser-like fixtures (`fixtures/java/parsers`): each subject runs
//! DynaMOSA on Branch goals with DSE alone (`Allocation::Fixed`, as `tests/dse.rs` measures DSE),
//! at a fixed evaluation budget, for three seeds, with the models and without them (the only
//! difference between the two runs). Per subject and seed:
//!
//! - with the models, every branch is covered but the known misses (`KNOWN_MISSES`, with the
//!   reason), and exactly those;
//! - without them, each line the source marks `// hard` keeps a branch uncovered (the named
//!   branches: each needs a model, which the class's comment names), and the run covers nothing
//!   the models' run does not.
//!
//! The same subjects under the product's default configuration (every branch but the listed
//! misses, and without the parser models, the string distances and the regex strings a branch left
//! on every `// hard` line); and, the search alone, with and without the regex strings in the
//! pool, and with and without the string rounds of local search (docs/dse.md, "The parsers
//! fixtures under the product's default" and after).
//!
//! The figures of every run are printed first (`cargo test -p engine --test parsers --
//! --nocapture`), then the failures are reported together.

use engine::{Criterion, DseConfig, GenerateConfig, Generation, generate};
use search::{Algorithm, Budget};

/// Tests the search may execute per run (DSE's own checks in the JVM come on top).
const EVALUATIONS: u64 = 5000;

const SEEDS: [u64; 3] = [1, 2, 3];

/// Feasible branch goals the runs with the models do not cover at this budget, per subject and
/// the seeds they are missed at, with the reason: the to-do list, kept honest both ways (a listed
/// goal that gets covered fails the test too).
const KNOWN_MISSES: &[(&str, &[u64], &[&str], &str)] = &[(
    "parsers.IsoDate",
    &[2],
    &["branch p57 taken (parsers/IsoDate:25)"],
    "a valid date without a time (`withTime` false at `withTime && ...`): `withTime` is \
     javac's `s.length() > 10 ? 1 : 0`, merged (docs/dse.md \"Constant-push diamonds\"), so \
     this jump states `len > 10` and its other side is a query in every replay that reaches it; \
     but those replays have a time, and their `split(\"[-T:]\")` into five pieces pins \
     `14 < len`, so the query is unsat (traced on \"2024-02-29T23:59\"); a test without a time \
     that passes the date checks comes only from explorations (the merged jump's own negation \
     gives a date-only string, \"4228-28-82\", that fails them), and at this seed DSE's three \
     applications (144 queries, 13 tests confirmed) make none",
)];

/// The goals `list` (`KNOWN_MISSES`, `PRODUCT_KNOWN_MISSES`) names for `class` at `seed`, sorted.
fn misses(list: &[(&str, &[u64], &[&str], &str)], class: &str, seed: u64) -> Vec<String> {
    let mut out: Vec<String> = list
        .iter()
        .filter(|(c, seeds, _, _)| *c == class && seeds.contains(&seed))
        .flat_map(|(_, _, goals, _)| goals.iter().map(|g| g.to_string()))
        .collect();
    out.sort();
    out
}

fn run(class: &str, seed: u64, parser_models: bool) -> Generation {
    let dse = DseConfig { parser_models, ..DseConfig::paper() };
    let techniques =
        engine::Techniques { dse, allocation: engine::Allocation::Fixed, ..engine::Techniques::none() };
    run_branch(class, seed, techniques, EVALUATIONS)
}

/// DynaMOSA on the Branch goals of `class` with `techniques`, 2 workers, `evaluations` tests.
fn run_branch(class: &str, seed: u64, techniques: engine::Techniques, evaluations: u64) -> Generation {
    let config = GenerateConfig {
        criteria: vec![Criterion::Branch],
        algorithm: Algorithm::DynaMosa,
        workers: 2,
        techniques,
        ..GenerateConfig::standard(
            vec![test_support::fixture_classes("parsers")],
            class,
            Budget::evaluations(evaluations),
            seed,
        )
    };
    generate(&config).unwrap_or_else(|e| panic!("{class}: generate failed: {e}"))
}

/// The subjects: every class of the area, with the lines its source marks `// hard` (a branch
/// that needs one of the models; the source's comment names the witness).
fn subjects() -> Vec<(String, Vec<usize>)> {
    let dir = test_support::workspace_root().join("fixtures/java/parsers");
    let mut out: Vec<(String, Vec<usize>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .map(|p| {
            let source = std::fs::read_to_string(&p).expect("source");
            let hard = source.lines().enumerate().filter(|(_, l)| l.contains("// hard")).map(|(i, _)| i + 1);
            (
                format!("parsers.{}", p.file_stem().and_then(|s| s.to_str()).expect("file name")),
                hard.collect(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn parser_models_cover_the_branches_the_interpreter_stopped_at() {
    let mut failures = Vec::new();
    for (class, hard) in subjects() {
        if hard.is_empty() {
            failures.push(format!("{class}: no branch is marked hard"));
        }
        let file = format!("(parsers/{}:", class.trim_start_matches("parsers."));
        let on_line = |goals: &[String], line: usize| {
            goals.iter().filter(|g| g.ends_with(&format!("{file}{line})"))).count()
        };
        for seed in SEEDS {
            let on = run(&class, seed, true);
            let off = run(&class, seed, false);
            let cov =
                |g: &Generation| g.criterion(Criterion::Branch).map_or((0, 0), |c| (c.covered, c.total));
            let ((on_cov, total), (off_cov, _)) = (cov(&on), cov(&off));
            let d = on.dse.clone().unwrap_or_default();
            println!(
                "{class} seed {seed}: branches with the models {on_cov}/{total}, without {off_cov}/{total}; \
                 uncovered with {:?}, without {:?}; with: {} applications, {} solver calls, {} confirmed, \
                 {} divergences",
                on.uncovered, off.uncovered, d.applications, d.solver_calls, d.confirmed, d.divergences
            );
            let known = misses(KNOWN_MISSES, &class, seed);
            let mut uncovered = on.uncovered.clone();
            uncovered.sort();
            if uncovered != known || on_cov + known.len() != total {
                failures.push(format!(
                    "{class} seed {seed}: with the models uncovered {uncovered:?}, known misses {known:?}"
                ));
            }
            let reached: Vec<&usize> = hard.iter().filter(|&&l| on_line(&off.uncovered, l) == 0).collect();
            if !reached.is_empty() {
                failures.push(format!(
                    "{class} seed {seed}: without the models every branch of lines {reached:?}"
                ));
            }
            let only_without: Vec<&String> =
                on.uncovered.iter().filter(|g| !off.uncovered.contains(g)).collect();
            if !only_without.is_empty() {
                failures
                    .push(format!("{class} seed {seed}: only without the models covered {only_without:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Tests the product's default run may execute per class in `product_default_...`.
const PRODUCT_EVALUATIONS: u64 = 5000;

/// Branch goals the product's default leaves uncovered at `PRODUCT_EVALUATIONS`, as
/// `KNOWN_MISSES` (FIXME: none should be left).
const PRODUCT_KNOWN_MISSES: &[(&str, &[u64], &[&str], &str)] = &[
    (
        "parsers.IsoDate",
        &[1, 2, 3],
        &["branch p57 taken (parsers/IsoDate:25)"],
        "a valid date without a time (as in `KNOWN_MISSES`): DSE's one application (13 or 14 \
         queries, 7 or 8 tests kept) is paused by the share and the portfolio holds DSE back \
         after it (93 to 95 times: its work, over 2,000 evaluation equivalents, is already the \
         ceiling's 40 % of the search's own 5,000); the search's best test for the goal has a \
         time and a valid date, a plateau (`withTime` gives no gradient, and deleting the time \
         one character at a time fails `matches`)",
    ),
    (
        "parsers.Settings",
        &[1],
        &["branch p33 not-taken (parsers/Settings:21)", "branch p39 not-taken (parsers/Settings:24)"],
        "port 8080 (and a positive port) behind the key: DSE's one application spends its 48 \
         queries with the key found (1 test kept) and the portfolio holds DSE back after it (58 \
         times)",
    ),
];

/// Lines marked `// hard` that the ablated run of `product_default_...` covers all the same, per
/// subject and seed, with the reason (FIXME: none should be reached).
const ABLATION_REACHED: &[(&str, u64, usize, &str)] = &[(
    "parsers.Labels",
    1,
    19,
    "`format(\"%02x%02x\", hi, lo).equals(\"cafe\")` covered without the models and the distances at \
     seed 1: not investigated (the bytes 0xca, 0xfe are in no pool)",
)];

/// The product's default configuration (`GenerateConfig::standard`: every criterion, every
/// technique under the adaptive portfolio) on `class`, at `PRODUCT_EVALUATIONS`; with `ablate`,
/// what the parsers need switched off, and nothing else: the parser models, the string distances
/// and the regex strings.
fn run_product(class: &str, seed: u64, ablate: bool) -> Generation {
    let standard = GenerateConfig::standard(
        vec![test_support::fixture_classes("parsers")],
        class,
        Budget::evaluations(PRODUCT_EVALUATIONS),
        seed,
    );
    let mut techniques = standard.techniques.clone();
    if ablate {
        techniques.dse.parser_models = false;
        techniques.string_distance = false;
        techniques.regex_strings = false;
    }
    let config = GenerateConfig { workers: 2, techniques, ..standard };
    generate(&config).unwrap_or_else(|e| panic!("{class}: generate failed: {e}"))
}

/// The product's default at a fixed budget covers every branch of every parsers fixture at every
/// seed but `PRODUCT_KNOWN_MISSES`; with the parser models, the string distances and the regex strings switched off, a branch
/// of every line the source marks `// hard` stays uncovered.
#[test]
fn product_default_covers_every_branch_and_not_without_the_models_and_distances() {
    let mut failures = Vec::new();
    for (class, hard) in subjects() {
        let file = format!("(parsers/{}:", class.trim_start_matches("parsers."));
        for seed in SEEDS {
            let on = run_product(&class, seed, false);
            let off = run_product(&class, seed, true);
            let branches = |g: &Generation| -> Vec<String> {
                g.uncovered.iter().filter(|u| u.starts_with("branch ")).cloned().collect()
            };
            let cov =
                |g: &Generation| g.criterion(Criterion::Branch).map_or((0, 0), |c| (c.covered, c.total));
            let ((on_cov, total), (off_cov, _)) = (cov(&on), cov(&off));
            let d = on.dse.clone().unwrap_or_default();
            println!(
                "product {class} seed {seed}: branches {on_cov}/{total}, ablated {off_cov}/{total}; \
                 uncovered {:?}, ablated {:?}; DSE: {} applications, {} solver calls, {} kept, stops {:?}; \
                 local search {:?}; portfolio {:?}",
                branches(&on),
                branches(&off),
                d.applications,
                d.solver_calls,
                d.tests_kept,
                d.stops,
                on.local_search,
                on.portfolio,
            );
            let known = misses(PRODUCT_KNOWN_MISSES, &class, seed);
            let mut uncovered = branches(&on);
            uncovered.sort();
            if uncovered != known || on_cov + known.len() != total {
                failures.push(format!(
                    "{class} seed {seed}: product default uncovered {uncovered:?}, known misses {known:?}"
                ));
            }
            let off_uncovered = branches(&off);
            let excused =
                |l: usize| ABLATION_REACHED.iter().any(|&(c, s, x, _)| c == class && s == seed && x == l);
            let reached: Vec<&usize> = hard
                .iter()
                .filter(|&&l| {
                    // Reached and not excused, or excused and not reached.
                    off_uncovered.iter().any(|g| g.ends_with(&format!("{file}{l})"))) == excused(l)
                })
                .collect();
            if !reached.is_empty() {
                failures.push(format!("{class} seed {seed}: ablated, every branch of lines {reached:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Tests the search may execute per run in `regex_strings_...`.
const SEARCH_EVALUATIONS: u64 = 2000;

/// The search alone (DynaMOSA on Branch goals, DSE and every other technique off but the string
/// distance) on `class`, with or without the strings the class's regular expressions accept in the
/// static pool (`Techniques::regex_strings`).
fn run_search(class: &str, seed: u64, regex_strings: bool) -> Generation {
    let techniques = engine::Techniques {
        regex_strings,
        string_distance: true,
        allocation: engine::Allocation::Fixed,
        ..engine::Techniques::none()
    };
    run_branch(class, seed, techniques, SEARCH_EVALUATIONS)
}

/// The classes whose methods open with a `matches` gate: with the strings their patterns accept
/// in the pool, the search alone covers more branches at every seed than without them.
#[test]
fn regex_strings_get_the_search_past_matches_gates() {
    let mut failures = Vec::new();
    for class in ["parsers.Cidr", "parsers.CommandLine", "parsers.IsoDate", "parsers.Version"] {
        for seed in SEEDS {
            let cov =
                |g: &Generation| g.criterion(Criterion::Branch).map_or((0, 0), |c| (c.covered, c.total));
            let ((with, total), (without, _)) =
                (cov(&run_search(class, seed, true)), cov(&run_search(class, seed, false)));
            println!(
                "search {class} seed {seed}: branches with the regex strings {with}/{total}, without {without}/{total}"
            );
            if with <= without {
                failures
                    .push(format!("{class} seed {seed}: {with} with the regex strings, {without} without"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// The search alone as in `run_search` (regex strings on), with local search on numbers, and on
/// strings too when `strings`.
fn run_string_local_search(class: &str, seed: u64, strings: bool) -> Generation {
    let local_search =
        engine::LocalSearchConfig { enabled: true, strings, ..engine::LocalSearchConfig::off() };
    let techniques = engine::Techniques {
        regex_strings: true,
        string_distance: true,
        local_search,
        allocation: engine::Allocation::Fixed,
        ..engine::Techniques::none()
    };
    run_branch(class, seed, techniques, PRODUCT_EVALUATIONS)
}

/// String local search (docs/localsearch.md "Strings") on the subjects whose hard branches need a
/// string edited where a `matches` gate or a split already passes: more branches with them at
/// every seed.
#[test]
fn string_local_search_edits_the_strings_of_the_best_tests() {
    let mut failures = Vec::new();
    for class in ["parsers.IsoDate", "parsers.Settings", "parsers.Version"] {
        for seed in SEEDS {
            let cov = |g: &Generation| g.criterion(Criterion::Branch).map_or(0, |c| c.covered);
            let (on, off) =
                (run_string_local_search(class, seed, true), run_string_local_search(class, seed, false));
            println!(
                "local search {class} seed {seed}: branches with string rounds {}, without {}; {:?}",
                cov(&on),
                cov(&off),
                on.local_search
            );
            if cov(&on) <= cov(&off) {
                failures.push(format!(
                    "{class} seed {seed}: {} with string rounds, {} without",
                    cov(&on),
                    cov(&off)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
