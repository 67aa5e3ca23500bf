//! DSE on the dse fixtures (`fixtures/java/dse`, issue 15; paper 004, docs/dse.md): each subject
//! runs DynaMOSA on Branch goals twice with the same seed and the same evaluation budget, with DSE
//! off and on, in real JVM workers. One assertion per subject:
//!
//! - a subject whose source marks a branch `// hard` (it needs an exact value): DSE on covers every
//!   feasible branch, and DSE off does not;
//! - the others (helpers, and `Same`, whose `same(x, x)` the search finds alone): DSE on covers
//!   every feasible branch.
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
const INFEASIBLE: &[(&str, usize, &str)] = &[];

fn run(class: &str, dse: DseConfig) -> Generation {
    let config = GenerateConfig {
        classpath: vec![test_support::fixture_classes("dse")],
        class: class.to_string(),
        criteria: vec![Criterion::Branch],
        algorithm: Algorithm::DynaMosa,
        budget: Budget::evaluations(EVALUATIONS),
        seed: 1,
        workers: 2,
        timeout_ms: 3000,
        stop_when_covered: None,
        dse,
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

fn class_of(p: &Path) -> String {
    format!("dse.{}", p.file_stem().and_then(|s| s.to_str()).expect("file name"))
}

#[test]
fn dse_covers_the_exact_value_branches_the_search_alone_misses() {
    let mut failures = Vec::new();
    for (class, hard) in subjects() {
        let infeasible = INFEASIBLE.iter().find(|(c, _, _)| *c == class).map_or(0, |(_, n, _)| *n);
        let off = run(&class, DseConfig::off());
        let on = run(&class, DseConfig::paper());
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
        if on_cov != total - infeasible {
            failures.push(format!(
                "{class}: DSE on covers {on_cov} of {} feasible branches: {:?}",
                total - infeasible,
                on.uncovered
            ));
        }
        if hard && off_cov >= total - infeasible {
            failures.push(format!(
                "{class}: DSE off covers every feasible branch ({off_cov}): the subject is not hard"
            ));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
