//! SUSHI in the search (issue 16; paper 003, docs/sushi.md) on the sushi fixtures
//! (`fixtures/java/sushi`), in real JVM workers, DynaMOSA on Branch goals:
//!
//! - the loop's bookkeeping: conditions are sent, goals selected, and every selected goal ends in
//!   exactly one state (solved, unsound, spurious, covered otherwise, open); a solved goal's test
//!   was re-executed and covers its path's branches (`solved` counts only those);
//! - determinism: the same seed and evaluation budget give the same suite with 1 and 2 workers;
//! - SUSHI off is the run without it: no `sushi` figures;
//! - the difference (digest A.7's `Sample`, Figure 1 of 003 with N = 15): within 10,000
//!   evaluations, SUSHI covers both branches after `list.remove(15)`, which need a list of at least
//!   15 entries; the search without it covers neither (a null check gives no gradient towards
//!   "15 entries"; the path conditions' `fresh` clauses count the entries built);
//! - with heap invariants (§A.2.7: a heap's children are never shared and a child's parent is
//!   the node it hangs from), every feasible branch of `LinkedHeap` is covered within 10,000
//!   evaluations, `levels()`'s "exactly 15 keys" included; without SUSHI its branches for 15 keys
//!   and more are not (null checks give no gradient towards fifteen inserts).

use engine::{Criterion, GenerateConfig, Generation, SushiConfig, generate};
use search::{Algorithm, Budget};

fn run(class: &str, evaluations: u64, workers: usize, sushi: SushiConfig) -> Generation {
    let config = GenerateConfig {
        classpath: vec![test_support::fixture_classes("sushi")],
        class: class.to_string(),
        criteria: vec![Criterion::Branch],
        algorithm: Algorithm::DynaMosa,
        goal_selection: engine::GoalSelection::All,
        budget: Budget::evaluations(evaluations),
        seed: 1,
        workers,
        timeout_ms: 3000,
        stop_when_covered: None,
        dse: engine::DseConfig::off(),
        flags: false,
        stubs: false,
        files: false,
        ocg: engine::OcgConfig::off(),
        sushi,
    };
    generate(&config).unwrap_or_else(|e| panic!("{class}: generate failed: {e}"))
}

/// A small exploration for the bookkeeping and determinism tests (the test profile is slow).
fn small() -> SushiConfig {
    let mut c = SushiConfig::standard();
    c.explore.max_paths = 60;
    c.max_class_paths = 300;
    c.patience = 300;
    c
}

#[test]
fn every_selected_goal_ends_in_one_state() {
    let g = run("sushi.BlockPool", 1500, 1, small());
    let s = g.sushi.as_ref().expect("SUSHI on reports its figures");
    eprintln!("BlockPool: {s:?}");
    assert!(s.explore.methods > 0 && s.explore.paths > 0, "{s:?}");
    assert!(s.sent > 0 && s.selected > 0, "{s:?}");
    assert!(s.selected <= s.sent, "{s:?}");
    assert_eq!(s.solved + s.unsound + s.spurious + s.covered_otherwise + s.open, s.selected, "{s:?}");
    assert!(s.solved > 0, "BlockPool's paths are easy to build: {s:?}");
    let off = run("sushi.BlockPool", 200, 1, SushiConfig::off());
    assert!(off.sushi.is_none());
}

#[test]
fn same_seed_same_suite_with_one_and_two_workers() {
    let one = run("sushi.RingBuffer", 800, 1, small());
    let two = run("sushi.RingBuffer", 800, 2, small());
    assert!(one.sushi.as_ref().is_some_and(|s| s.selected > 0));
    assert_eq!(one.suite_text, two.suite_text);
    assert_eq!(
        one.sushi.map(|s| (s.selected, s.solved, s.spurious)),
        two.sushi.map(|s| (s.selected, s.solved, s.spurious))
    );
}

#[test]
fn sample_needs_sushi_for_its_list_of_fifteen() {
    let on = run("sushi.Sample", 10_000, 1, SushiConfig::standard());
    let off = run("sushi.Sample", 10_000, 1, SushiConfig::off());
    let branches = |g: &Generation| g.criterion(Criterion::Branch).map(|c| (c.covered, c.total));
    eprintln!("Sample: on {:?} {:?}; off {:?}", branches(&on), on.sushi, branches(&off));
    assert_eq!(branches(&on), Some((2, 2)), "with SUSHI: {:?}", on.uncovered);
    assert_eq!(branches(&off), Some((0, 2)), "without SUSHI: {:?}", off.uncovered);
}

#[test]
fn linked_heap_needs_sushi_and_tree_rules_for_fifteen_keys() {
    let rule = |r: &str| symbolic::Rule::parse(r).unwrap_or_else(|e| panic!("{e}"));
    let mut on = small();
    on.patience = 2_000;
    for r in [
        "expand_only(**.left)",
        "expand_only(**.right)",
        "alias_only(**.left.parent, **)",
        "alias_only(**.right.parent, **)",
        "null_only(this.root.parent)",
    ] {
        on.explore.invariants.rules.push(rule(r));
    }
    let with = run("sushi.LinkedHeap", 10_000, 1, on);
    let without = run("sushi.LinkedHeap", 10_000, 1, SushiConfig::off());
    // `levels()` below line 131: `rr.right.right == null` (line 134: seven to fourteen keys or
    // more) and `root.left.left.left.left != null` (line 137: sixteen or more, or exactly 15).
    let deep = |g: &Generation| {
        g.uncovered
            .iter()
            .filter(|u| u.contains("(sushi/LinkedHeap:134)") || u.contains("(sushi/LinkedHeap:137)"))
            .count()
    };
    eprintln!("LinkedHeap: with {:?} {:?}; without {:?}", with.uncovered, with.sushi, without.uncovered);
    assert_eq!(deep(&with), 0, "with SUSHI: {:?}", with.uncovered);
    assert!(deep(&without) >= 2, "without SUSHI: {:?}", without.uncovered);
    // Every branch left is one of `repOk`'s `return false` checks (from line 145 on), which no
    // call sequence reaches.
    let line = |u: &String| u.rsplit(':').next().and_then(|l| l.trim_end_matches(')').parse::<u32>().ok());
    assert!(with.uncovered.iter().all(|u| line(u).is_some_and(|l| l >= 145)), "{:?}", with.uncovered);
    assert!(with.sushi.as_ref().is_some_and(|s| s.solved > 0 && s.unsound == 0), "{:?}", with.sushi);
}
