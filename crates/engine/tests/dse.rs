//! DSE on the dse fixtures (`fixtures/java/dse`; paper 004, docs/dse.md): each subject
//! runs DynaMOSA on Branch goals twice with the same seed and the same evaluation budget, with DSE
//! off and on, in real JVM workers. One assertion per subject:
//!
//! - DSE on covers every feasible branch but the known misses (`KNOWN_MISSES`, with reasons), and
//!   exactly those;
//! - a subject whose source marks a branch `// hard` (it needs an exact value): DSE off does not
//!   cover every feasible branch, unless the search alone finds it at this budget and seed
//!   (`FOUND_WITHOUT_DSE`, checked too).
//!
//! These runs have DSE alone with its own limits, as before the portfolio (`Allocation::Fixed`), so
//! that they measure DSE itself. Another test runs the product's default (every technique, the
//! adaptive portfolio) on the same subjects and budget. A further test runs whole-suite search
//! with the same hook on `Magic`.
//!
//! The figures of every subject are printed first (`cargo test -p engine --test dse -- --nocapture`),
//! then the failures are reported together. The subjects run one after the other (the JVM pools
//! would compete for the two cores).

use std::path::Path;

use engine::{Criterion, DseConfig, GenerateConfig, Generation, generate};
use search::{Algorithm, Budget};

/// Tests the search may execute per run (DSE's own checks in the JVM come on top: docs/dse.md).
const EVALUATIONS: u64 = 3000;

/// Branch goals no test can cover, per subject, with the reason.
const INFEASIBLE: &[(&str, &[&str], &str)] = &[(
    "dse.Narrow",
    &["branch p13 taken (dse/Narrow:10)"],
    "branch p13 taken (line 10, (short)(x >> 4) >= 0 with (char)(x >>> 16) == 'Z'): the short's \
     sign bit is bit 19 of x, which 'Z' = 0x5A sets",
)];

/// Feasible branch goals DSE is known not to cover at this budget and seed, with the reason: the
/// to-do list, kept honest both ways (a goal listed here that gets covered fails the test too).
const KNOWN_MISSES: &[(&str, &[&str], &str)] = &[(
    "dse.DateParse",
    &["branch p83 taken (dse/DateParse:33)"],
    "29 February of a leap year that is not a century (\"2004-02-29\"): DSE reaches 29 February \
     through \"0000-02-29\", whose path took the leap test's y % 100 == 0 side (line 28); the one \
     path to y % 100 != 0 at line 33 flips that branch, which the search covers already, so 004's \
     filter leaves it to explorations, whose budget ends first",
)];

/// Subjects with a `// hard` branch that the search alone covers at this budget and seed (the
/// dynamic value pool or luck), and `Guard`, whose hard part is an exception, not a branch.
const FOUND_WITHOUT_DSE: &[&str] = &["dse.CharCode", "dse.Guard", "dse.Reverse", "dse.Square"];

/// The search with DSE as `dse` alone, as DSE ran before the portfolio (`Allocation::Fixed`: its
/// own limits only), so that these tests measure DSE itself.
fn run(class: &str, algorithm: Algorithm, dse: DseConfig) -> Generation {
    let techniques =
        engine::Techniques { dse, allocation: engine::Allocation::Fixed, ..engine::Techniques::none() };
    run_techniques(class, algorithm, techniques)
}

fn run_techniques(class: &str, algorithm: Algorithm, techniques: engine::Techniques) -> Generation {
    let config = GenerateConfig {
        criteria: vec![Criterion::Branch],
        algorithm,
        workers: 2,
        techniques,
        ..GenerateConfig::standard(
            vec![test_support::fixture_classes("dse")],
            class,
            Budget::evaluations(EVALUATIONS),
            1,
        )
    };
    generate(&config).unwrap_or_else(|e| panic!("{class}: generate failed: {e}"))
}

fn branches(g: &Generation) -> (usize, usize) {
    g.criterion(Criterion::Branch).map_or((0, 0), |c| (c.covered, c.total))
}

/// The subjects: every class of the area, and whether its source marks a hard branch.
fn subjects() -> Vec<(String, bool)> {
    let dir = test_support::workspace_root().join("fixtures/java/dse");
    let mut out: Vec<(String, bool)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .map(|p: std::path::PathBuf| {
            let source = std::fs::read_to_string(&p).expect("source");
            (class_of(&p), source.contains("// hard"))
        })
        .collect();
    out.sort();
    out
}

/// The goals a table (`INFEASIBLE`, `KNOWN_MISSES`, `DEFAULT_MISSES`) lists for `class`.
fn listed(table: &[(&str, &[&str], &str)], class: &str) -> Vec<String> {
    table
        .iter()
        .find(|(c, _, _)| *c == class)
        .map_or(Vec::new(), |(_, goals, _)| goals.iter().map(|g| g.to_string()).collect())
}

fn class_of(p: &Path) -> String {
    format!("dse.{}", p.file_stem().and_then(|s| s.to_str()).expect("file name"))
}

#[test]
fn dse_covers_the_exact_value_branches_the_search_alone_misses() {
    let mut failures = Vec::new();
    for (class, hard) in subjects() {
        let listed = |table| listed(table, &class);
        let infeasible_goals = listed(INFEASIBLE);
        let infeasible = infeasible_goals.len();
        let off = run(&class, Algorithm::DynaMosa, DseConfig::off());
        let on = run(&class, Algorithm::DynaMosa, DseConfig::paper());
        let ((off_cov, total), (on_cov, _)) = (branches(&off), branches(&on));
        let d = on.dse.clone().unwrap_or_default();
        println!(
            "{class}: branches off {off_cov}/{total}, on {on_cov}/{total} (feasible {}); dse: {} applications, \
             {} solver calls ({} sat, {} unsat, {} unknown), {} executions, {} confirmed, {} divergences, {} kept, \
             {} goals first",
            total - infeasible,
            d.applications,
            d.solver_calls,
            d.sat,
            d.unsat,
            d.unknown,
            d.executions,
            d.confirmed,
            d.divergences,
            d.tests_kept,
            d.goals_covered_first
        );
        let known = listed(KNOWN_MISSES);
        let mut expected: Vec<String> = infeasible_goals.iter().chain(&known).cloned().collect();
        let mut uncovered = on.uncovered.clone();
        expected.sort();
        uncovered.sort();
        if on_cov + known.len() != total - infeasible || uncovered != expected {
            failures.push(format!(
                "{class}: DSE on covers {on_cov} of {} feasible branches; uncovered {:?}, known misses {known:?}",
                total - infeasible,
                on.uncovered
            ));
        }
        let found_alone = FOUND_WITHOUT_DSE.contains(&class.as_str());
        if hard && !found_alone && off_cov >= total - infeasible {
            failures.push(format!(
                "{class}: DSE off covers every feasible branch ({off_cov}): the subject is not hard"
            ));
        }
        if found_alone && off_cov < total - infeasible {
            failures
                .push(format!("{class}: listed as found without DSE, but DSE off covers {off_cov}/{total}"));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Feasible branch goals the product's default does not cover at this budget and seed, with the
/// reason.
const DEFAULT_MISSES: &[(&str, &[&str], &str)] = &[
    (
        "dse.Email",
        &["branch p40 not-taken (dse/Email:24)"],
        "the user part's first character (line 24) behind a domain of exactly 11 characters ending in \
         \".org\": not investigated yet. Measured at this seed: the default misses it with DSE applied \
         many times; the same techniques with `Allocation::Fixed` cover it, and so does DSE alone under \
         the portfolio. Before the string distance joined the default, the default also missed p38 \
         not-taken and p40 taken of that line",
    ),
    (
        "dse.Keyword",
        &[
            "branch p17 not-taken (dse/Keyword:12)",
            "branch p20 not-taken (dse/Keyword:12)",
            "branch p20 taken (dse/Keyword:12)",
            "case p15 105858401 (dse/Keyword:12)",
            "case p24 0 (dse/Keyword:12)",
            "case p24 1 (dse/Keyword:12)",
        ],
        "the switch on a string's hashCode: its first query alone costs 1,501 evaluation equivalents (a \
         6-million-unit Z3 query at 4,000 units per evaluation), and DSE's ceiling of 0.4 of 3,000 \
         evaluations allows 1,200 in all. The default before the per-call allowance covered it with one \
         application of 10,362 evaluation equivalents (52 s of a 3,000-evaluation run), the runaway the \
         ceiling is there to prevent; DSE alone with `--portfolio off` and its share of 0.5 also stops \
         after that query (8 of 14)",
    ),
    (
        "dse.DateParse",
        &["branch p57 not-taken (dse/DateParse:28)", "branch p83 not-taken (dse/DateParse:33)"],
        "a year divisible by 100 but not by 400, and 29 February of it: DSE's 48 queries of its first \
         application (40 sat) do not reach them at this seed, paced over 45 calls; all techniques with \
         `--portfolio off` miss them too (one application), and at 6,000 evaluations the default's two \
         applications still do. The default before the allowance found them with two front-loaded \
         applications (894 evaluation equivalents in 2 calls)",
    ),
];

/// The product's default (`Techniques::standard`: every technique on under the adaptive portfolio,
/// DSE among them with its share of the search by what it earns) covers every feasible branch of
/// every subject at the same budget and seed, but the listed misses, and exactly those.
#[test]
fn the_default_configuration_covers_the_dse_fixtures() {
    let mut failures = Vec::new();
    for (class, _) in subjects() {
        let listed = |table| listed(table, &class);
        let g = run_techniques(&class, Algorithm::DynaMosa, engine::Techniques::standard());
        let (covered, total) = branches(&g);
        let dse = g.portfolio.iter().flatten().find(|a| a.technique == "dse");
        println!("{class}: default {covered}/{total}; dse {dse:?}");
        let mut expected: Vec<String> =
            listed(INFEASIBLE).into_iter().chain(listed(DEFAULT_MISSES)).collect();
        let mut uncovered = g.uncovered.clone();
        expected.sort();
        uncovered.sort();
        if uncovered != expected {
            failures
                .push(format!("{class}: the default leaves {uncovered:?} uncovered, expected {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// The same hook serves the other algorithms: whole-suite search (004's own) on `Magic`.
#[test]
fn dse_works_with_whole_suite_search() {
    let off = branches(&run("dse.Magic", Algorithm::WholeSuite, DseConfig::off()));
    let on = branches(&run("dse.Magic", Algorithm::WholeSuite, DseConfig::paper()));
    println!("dse.Magic, whole suite: branches off {}/{}, on {}/{}", off.0, off.1, on.0, on.1);
    assert!(on.0 == on.1 && off.0 < off.1, "whole suite on Magic: off {off:?}, on {on:?}");
}

/// The share (`--dse-share`, ours): on `Keyword` (string-switch hash codes over a substring) DSE
/// without a share does several times the search's evaluations in work; with a share of 0.1
/// triggers are turned down and the work stays near a tenth of them (past it by at most what one
/// application does between two checks: a query at Z3's full limit is 1,500).
#[test]
fn the_share_holds_dse_to_a_part_of_the_search() {
    let free = run("dse.Keyword", Algorithm::DynaMosa, DseConfig::paper()).dse.unwrap_or_default();
    let held = DseConfig { share: 0.1, ..DseConfig::paper() };
    let held = run("dse.Keyword", Algorithm::DynaMosa, held).dse.unwrap_or_default();
    println!(
        "dse.Keyword: work {} without a share, {} with 0.1 ({} triggers over it)",
        free.work, held.work, held.over_share
    );
    assert_eq!(free.over_share, 0);
    assert!(held.over_share > 0, "{held:?}");
    assert!(held.work < free.work, "with the share {held:?}, without {free:?}");
    assert!(held.work <= EVALUATIONS / 10 + 2_000, "{held:?}");
}

/// The share defers work rather than dropping it (ours, docs/dse.md "Budgets"): a trigger it
/// turns down is owed an application, and an application it stops with work left is paused and
/// goes on from there at the next call within the share. On `DateParse`, whose solved tests from
/// one application make the goals the next one solves, a share of 0.25 defers applications and
/// still covers what the search alone does not (the month and day checks behind the parse).
#[test]
fn the_share_defers_applications_and_resumes_them() {
    let off = branches(&run("dse.DateParse", Algorithm::DynaMosa, DseConfig::off()));
    let held = run("dse.DateParse", Algorithm::DynaMosa, DseConfig { share: 0.25, ..DseConfig::paper() });
    let on = branches(&held);
    let d = held.dse.unwrap_or_default();
    println!(
        "dse.DateParse at a share of 0.25: branches {}/{} (off {}/{}), {} applications, {} over the share, {} deferred, work {}",
        on.0, on.1, off.0, off.1, d.applications, d.over_share, d.deferred, d.work
    );
    assert!(d.deferred > 0, "{d:?}");
    assert!(d.work <= EVALUATIONS / 4 + 2_000, "{d:?}");
    assert!(on.0 >= off.0 + 20, "off {off:?}, on {on:?}");
}
