//! The search fixtures (`fixtures/java/search`): every subject class there has a `.goals`
//! listing beside it that says, per criterion, how many goals the class has, how many of them some
//! test can cover, and which goals no test can cover, each with its reason. This test runs DynaMOSA
//! on every listed class in real JVM workers and checks the listing against the engine both ways:
//!
//! - (a) the goal totals per criterion are those of the listing (so the listing stays true when the
//!   goal model changes);
//! - (b) every feasible Branch and Line goal is covered: the uncovered Branch/Line goals are exactly
//!   the listed infeasible and unreached ones (the search stops as soon as that holds,
//!   `stop_when_covered`);
//! - (c) for every criterion, covered <= listed feasible, and no goal listed as infeasible or
//!   unreached is covered (a covered "infeasible" goal means the listing is wrong; a covered
//!   "unreached" one means the engine got better and the listing must say so).
//!
//! Listing format (`Foo.goals`, one per `Foo.java`; `#` starts a comment line):
//!
//! ```text
//! # <criterion> <total> <feasible>
//! Line 12 12
//! Branch 8 8
//! WeakMutation 40 37
//!   infeasible: mutant p5 cond->lt (search/Foo:9)  -- equivalent: x is never negative here
//!   unreached: mutant p7 cond->gt (search/Foo:11)  -- killed by x = 1, but the trace of `==` ...
//! ```
//!
//! A criterion line names a criterion as `{:?}` prints it (`Line`, `Branch`, `Exception`,
//! `WeakMutation`, `Output`, `Method`, `MethodNoException`: the criteria with static goals;
//! `ContextBranch` goals are found while tests run, so they are printed, not listed), its total
//! goals and its feasible goals;
//! the indented `infeasible:` lines under it give each infeasible goal's text exactly as
//! `Generation::uncovered` prints it, then ` -- ` and the reason. `total - feasible` must equal the
//! number of `infeasible:` lines. Criteria without goals are not listed.
//!
//! `unreached:` lines (same form) name goals that ARE feasible (counted in `feasible`: a test
//! written by hand covers them) but that the engine is known not to cover, with the reason: a
//! limit of what the trace records (the sign of a non-zero `==` difference, `char` return
//! categories), or an input the search cannot find (a string with the hash code of a string
//! switch label but another text). They are the engine's to-do list, kept honest by the test.
//!
//! The fixtures run one after the other in one test (the JVM pools would compete for the two
//! cores), and every failure is collected and reported at the end, after the per-fixture figures.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use engine::{Criterion, GenerateConfig, GoalFilter, generate};
use search::Budget;

/// One criterion of a listing.
#[derive(Debug, Default)]
struct Listed {
    total: usize,
    feasible: usize,
    infeasible: Vec<String>,
    /// Feasible goals the engine is known not to cover.
    unreached: Vec<String>,
}

/// A parsed `.goals` file: the class and its criteria.
#[derive(Debug)]
struct Listing {
    class: String,
    criteria: BTreeMap<Criterion, Listed>,
}

impl Listing {
    /// The infeasible and the unreached goals of a criterion: those no run should cover.
    fn not_covered(&self, c: Criterion) -> Vec<String> {
        self.criteria
            .get(&c)
            .map_or(Vec::new(), |l| l.infeasible.iter().chain(&l.unreached).cloned().collect())
    }
}

fn criterion_named(name: &str) -> Option<Criterion> {
    Criterion::ALL.into_iter().find(|c| format!("{c:?}") == name)
}

/// Parses one listing; errors name the file and line.
fn parse_listing(path: &Path) -> Result<Listing, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let stem = path.file_stem().and_then(|s| s.to_str()).ok_or("bad file name")?;
    let mut criteria: BTreeMap<Criterion, Listed> = BTreeMap::new();
    let mut current: Option<Criterion> = None;
    for (n, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), n + 1);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let goal_line = [("infeasible:", true), ("unreached:", false)]
            .into_iter()
            .find_map(|(prefix, infeasible)| trimmed.strip_prefix(prefix).map(|rest| (rest, infeasible)));
        if let Some((rest, infeasible)) = goal_line {
            let c = current.ok_or_else(|| format!("{}: goal before any criterion", at()))?;
            let (goal, reason) =
                rest.split_once(" -- ").ok_or_else(|| format!("{}: no ` -- reason` after the goal", at()))?;
            if reason.trim().is_empty() {
                return Err(format!("{}: empty reason", at()));
            }
            let listed = criteria.get_mut(&c).expect("current criterion is listed");
            let list = if infeasible { &mut listed.infeasible } else { &mut listed.unreached };
            list.push(goal.trim().to_string());
            continue;
        }
        let fields: Vec<&str> = trimmed.split_whitespace().collect();
        let [name, total, feasible] = fields[..] else {
            return Err(format!("{}: expected `<criterion> <total> <feasible>`", at()));
        };
        let c = criterion_named(name).ok_or_else(|| format!("{}: unknown criterion {name}", at()))?;
        let total: usize = total.parse().map_err(|_| format!("{}: bad total", at()))?;
        let feasible: usize = feasible.parse().map_err(|_| format!("{}: bad feasible count", at()))?;
        let listed = Listed { total, feasible, infeasible: Vec::new(), unreached: Vec::new() };
        if criteria.insert(c, listed).is_some() {
            return Err(format!("{}: {name} listed twice", at()));
        }
        current = Some(c);
    }
    for (c, l) in &criteria {
        if l.total < l.feasible || l.total - l.feasible != l.infeasible.len() {
            return Err(format!(
                "{}: {c:?} has total {} and feasible {} but {} infeasible goals listed",
                path.display(),
                l.total,
                l.feasible,
                l.infeasible.len()
            ));
        }
    }
    Ok(Listing { class: format!("search.{stem}"), criteria })
}

/// Every `.goals` file of the search fixtures, sorted.
fn listings() -> Vec<PathBuf> {
    let dir = test_support::workspace_root().join("fixtures/java/search");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "goals"))
        .collect();
    out.sort();
    out
}

/// Runs one fixture and returns its failures (empty when the listing holds).
fn check(listing: &Listing) -> Vec<String> {
    let except: Vec<String> =
        [Criterion::Branch, Criterion::Line].into_iter().flat_map(|c| listing.not_covered(c)).collect();
    let config = GenerateConfig {
        workers: 2,
        stop_when_covered: Some(GoalFilter { criteria: vec![Criterion::Branch, Criterion::Line], except }),
        techniques: engine::Techniques::none(),
        ..GenerateConfig::standard(
            vec![test_support::fixture_classes("search")],
            &listing.class,
            Budget::time(Duration::from_secs(20)),
            1,
        )
    };
    let g = match generate(&config) {
        Ok(g) => g,
        Err(e) => return vec![format!("{}: generate failed: {e}", listing.class)],
    };
    let figures: Vec<String> =
        g.coverage.iter().map(|c| format!("{:?} {}/{}", c.criterion, c.covered, c.total)).collect();
    println!(
        "{}: {}; {} evaluations, {:.1} s",
        listing.class,
        figures.join(", "),
        g.evaluations,
        g.elapsed.as_secs_f64()
    );
    let mut failures = Vec::new();
    let fail = |failures: &mut Vec<String>, m: String| failures.push(format!("{}: {m}", listing.class));
    if !g.unchanged.is_empty() {
        fail(&mut failures, format!("left uninstrumented: {:?}", g.unchanged));
    }
    // (a) The totals per criterion are those listed, and no criterion is missing from either side.
    let measured: BTreeMap<Criterion, (usize, usize)> =
        g.coverage.iter().map(|c| (c.criterion, (c.covered, c.total))).collect();
    for c in Criterion::ALL {
        let listed = listing.criteria.get(&c);
        let (covered, total) = measured.get(&c).copied().unwrap_or((0, 0));
        if listed.map_or(0, |l| l.total) != total {
            fail(&mut failures, format!("{c:?} has {total} goals, listed {}", listed.map_or(0, |l| l.total)));
        }
        // (c) No more covered than feasible, and no listed-infeasible goal covered.
        if let Some(l) = listed {
            if covered > l.feasible {
                fail(
                    &mut failures,
                    format!("{c:?} covers {covered} goals, more than the {} listed feasible", l.feasible),
                );
            }
            for (kind, goals) in [("infeasible", &l.infeasible), ("unreached", &l.unreached)] {
                for goal in goals {
                    if !g.uncovered.contains(goal) {
                        fail(&mut failures, format!("listed {kind} but covered (or unknown): {goal}"));
                    }
                }
            }
        }
    }
    // (b) The uncovered Branch and Line goals are exactly the listed infeasible and unreached ones.
    let allowed: Vec<String> =
        [Criterion::Branch, Criterion::Line].into_iter().flat_map(|c| listing.not_covered(c)).collect();
    for u in &g.uncovered {
        let is_branch_or_line = u.starts_with("line ") || u.starts_with("branch ") || u.starts_with("case ");
        let listed = allowed.contains(u);
        if is_branch_or_line && !listed {
            fail(&mut failures, format!("feasible goal not covered: {u}"));
        }
    }
    if !failures.is_empty() {
        println!("  uncovered:\n    {}", g.uncovered.join("\n    "));
    }
    failures
}

#[test]
fn search_fixtures_reach_every_feasible_branch_and_line_and_match_their_listings() {
    let paths = listings();
    assert!(paths.len() >= 22, "expected at least 22 listings, found {}", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        match parse_listing(path) {
            Ok(listing) => failures.extend(check(&listing)),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
