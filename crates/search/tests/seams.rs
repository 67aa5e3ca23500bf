//! The search's seams on the fake problem of `cluster.Overloads`, for each of the five algorithms:
//! an empty hook (or the configuration's own target policy passed in) changes nothing; a test a
//! hook injects is evaluated one batch later and reaches the archive when it covers a goal nothing
//! else covers; a goal a hook has the problem register becomes a target and is covered; a target
//! policy passed in decides the targets.

mod common;

use common::{FakeProblem, overloads_cluster};
use expect_test::{Expect, expect};
use search::target::{AllGoals, ControlDependence, Goals, Release, Targets};
use search::{
    Algorithm, Budget, Evaluation, Event, GoalIdx, Hook, Problem, ProblemError, Seams, SearchConfig,
    SearchError, SearchResult, SystemClock, TargetPolicy, View,
};
use testcase::pool::DynamicPool;
use testcase::{
    FactoryConfig, PrimValue, Statement, TestCase, TestCluster, TestRng, ValuePool, rng_from_seed,
};

fn config(algorithm: Algorithm, evaluations: u64) -> SearchConfig {
    SearchConfig { algorithm, ..SearchConfig::evosuite(Budget::evaluations(evaluations)) }
}

struct Run<P> {
    result: SearchResult,
    events: Vec<Event>,
    problem: P,
}

/// Runs `config` on `problem` with `seams` (seed `seed`), or through `search::run` when `seams` is
/// `None`.
fn run<P: Problem>(
    cluster: &TestCluster,
    config: &SearchConfig,
    mut problem: P,
    seed: u64,
    seams: Option<Seams<'_, P>>,
) -> Run<P> {
    let mut pool = ValuePool::new(cluster.constants().clone(), FactoryConfig::evosuite().dynamic_pool_size);
    let mut rng = rng_from_seed(seed);
    let mut events = Vec::new();
    let clock = SystemClock::start();
    let mut on_event = |e: &Event| events.push(e.clone());
    let result = match seams {
        None => search::run(&mut problem, cluster, &mut pool, config, &clock, &mut rng, &mut on_event),
        Some(seams) => {
            search::run_with(&mut problem, cluster, &mut pool, config, &clock, &mut rng, &mut on_event, seams)
        }
    }
    .expect("search runs");
    Run { result, events, problem }
}

/// A hook that does nothing.
struct Empty;

impl<P: ?Sized> Hook<P> for Empty {
    fn between(&mut self, _: &View<'_>, _: &mut P, _: &mut TestRng) -> Result<Vec<TestCase>, ProblemError> {
        Ok(Vec::new())
    }
}

/// The same run, seen every way a test can see it.
fn assert_same(a: &Run<FakeProblem>, b: &Run<FakeProblem>, what: &str) {
    assert_eq!(a.result.archive.to_text(), b.result.archive.to_text(), "{what}");
    assert_eq!(a.result.stats.history, b.result.stats.history, "{what}");
    assert_eq!(a.result.stats.evaluations, b.result.stats.evaluations, "{what}");
    assert_eq!(a.result.stats.batches, b.result.stats.batches, "{what}");
    assert_eq!(a.events, b.events, "{what}");
    assert_eq!(a.problem.batches, b.problem.batches, "{what}");
}

/// With an empty hook installed (which turns on the hooks' bookkeeping and calls between every
/// generation), and with the configuration's own policy passed in, every algorithm makes the same
/// batches, draws, events and archive as `search::run`.
#[test]
fn an_empty_hook_changes_nothing() {
    let cluster = overloads_cluster();
    for alg in Algorithm::ALL {
        let c = config(alg, 3_000);
        let plain = run(&cluster, &c, FakeProblem::new(&cluster, true), 42, None);
        let mut empty = Empty;
        let mut also_empty = Empty;
        let seams = Seams { hooks: vec![&mut empty, &mut also_empty], policy: None };
        let hooked = run(&cluster, &c, FakeProblem::new(&cluster, true), 42, Some(seams));
        assert_same(&plain, &hooked, alg.name());
        let policy: Box<dyn TargetPolicy> = if alg == Algorithm::DynaMosa {
            Box::new(ControlDependence::default())
        } else {
            Box::new(AllGoals::default())
        };
        let seams = Seams { hooks: Vec::new(), policy: Some(policy) };
        let explicit = run(&cluster, &c, FakeProblem::new(&cluster, true), 42, Some(seams));
        assert_same(&plain, &explicit, alg.name());
    }
}

/// An int no test factory makes (the cluster's constants and random ints stay far below it).
const NEEDLE: i32 = 918_273_645;

/// The fake problem and one more goal, the needle: a test holding the literal `NEEDLE`. Flat
/// fitness, so no search finds it.
struct Needle {
    base: FakeProblem,
}

impl Needle {
    fn goal(&self) -> GoalIdx {
        GoalIdx::new(self.base.n_goals())
    }
}

fn holds_needle(t: &TestCase) -> bool {
    t.statements.iter().any(|s| matches!(s, Statement::Primitive(PrimValue::Int(NEEDLE))))
}

impl Problem for Needle {
    fn n_goals(&self) -> usize {
        self.base.n_goals() + 1
    }

    fn roots(&self) -> Vec<GoalIdx> {
        let mut roots = self.base.roots();
        roots.push(self.goal());
        roots
    }

    fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        self.base.released_by(g)
    }

    fn evaluate(
        &mut self,
        tests: &[TestCase],
        dynamic: &mut DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        let mut evals = self.base.evaluate(tests, dynamic)?;
        for (t, e) in tests.iter().zip(&mut evals) {
            e.fitness.push(if holds_needle(t) { 0.0 } else { 1.0 });
        }
        Ok(evals)
    }
}

/// Injects `test` at every call made after `from` iterations or more, and records the iteration
/// of each call.
struct Inject {
    test: TestCase,
    from: u64,
    calls: Vec<u64>,
}

impl Inject {
    /// The iteration of the first call that injected.
    fn first(&self) -> Option<u64> {
        self.calls.iter().copied().find(|&i| i >= self.from)
    }
}

impl<P: ?Sized> Hook<P> for Inject {
    fn between(
        &mut self,
        view: &View<'_>,
        _: &mut P,
        _: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        self.calls.push(view.iteration());
        Ok(if view.iteration() >= self.from { vec![self.test.clone()] } else { Vec::new() })
    }
}

fn needle_test() -> TestCase {
    let mut t = TestCase::new();
    t.push(Statement::Primitive(PrimValue::Int(NEEDLE)));
    t
}

/// Per algorithm: whether the needle is covered without the hook, and with a hook that injects the
/// needle test from iteration 3 on: by which evaluation, and whether the archive keeps the
/// injected test for it.
fn check_needle(expect: Expect) {
    let cluster = overloads_cluster();
    let mut s = String::new();
    for alg in Algorithm::ALL {
        let c = config(alg, 2_000);
        let alone = run(&cluster, &c, Needle { base: FakeProblem::new(&cluster, false) }, 7, None);
        let needle = GoalIdx::new(FakeProblem::new(&cluster, false).n_goals());
        let mut hook = Inject { test: needle_test(), from: 3, calls: Vec::new() };
        let seams = Seams { hooks: vec![&mut hook], policy: None };
        let r = run(&cluster, &c, Needle { base: FakeProblem::new(&cluster, false) }, 7, Some(seams));
        let at = r.events.iter().find_map(|e| match e {
            Event::Covered { goal, evaluations } if *goal == needle => Some(*evaluations),
            _ => None,
        });
        let kept = r.result.archive.test_for(needle) == Some(&needle_test());
        assert!(r.result.stats.evaluations <= 2_000 + 200, "injected tests count against the budget");
        s.push_str(&format!(
            "{:12} alone: {:9} hooked: first injected after iteration {:?}, covered at evaluation {:?}, archived test is the injected one: {kept}\n",
            alg.name(),
            if alone.result.archive.is_covered(needle) { "covered" } else { "uncovered" },
            hook.first(),
            at,
        ));
    }
    expect.assert_eq(&s);
}

#[test]
fn an_injected_test_reaches_the_archive() {
    check_needle(expect![[r#"
        random       alone: uncovered hooked: first injected after iteration Some(3), covered at evaluation Some(251), archived test is the injected one: true
        whole-suite  alone: uncovered hooked: first injected after iteration Some(3), covered at evaluation Some(381), archived test is the injected one: true
        mosa         alone: uncovered hooked: first injected after iteration Some(3), covered at evaluation Some(267), archived test is the injected one: true
        dynamosa     alone: uncovered hooked: first injected after iteration Some(3), covered at evaluation Some(267), archived test is the injected one: true
        mio          alone: uncovered hooked: first injected after iteration Some(3), covered at evaluation Some(126), archived test is the injected one: true
    "#]]);
}

/// The lag: random search's batches are 50 tests; the test injected at the first call (before any
/// batch) rides in the first batch, and the one injected after batch k absorbed in batch k+2 (the
/// second batch was made before any hook could see a result).
#[test]
fn injected_tests_wait_one_batch() {
    let cluster = overloads_cluster();
    let c = SearchConfig { stop_zero: false, ..config(Algorithm::Random, 500) };
    let mut hook = Inject { test: needle_test(), from: 0, calls: Vec::new() };
    let seams = Seams { hooks: vec![&mut hook], policy: None };
    let r = run(&cluster, &c, Needle { base: FakeProblem::new(&cluster, false) }, 3, Some(seams));
    expect![[r#"
        batches [51, 50, 51, 51, 51, 51, 51, 51, 51, 51]
        hook calls after iterations [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    "#]]
    .assert_eq(&format!(
        "batches {:?}\nhook calls after iterations {:?}\n",
        r.problem.base.batches, hook.calls
    ));
}

/// Goals a hook registers: calling a method of the CUT by name at least twice (0.5 for once).
struct Registry {
    base: FakeProblem,
    extra: Vec<String>,
}

impl Registry {
    /// The problem's own, typed registration: the new goal's index.
    fn register(&mut self, name: &str) -> GoalIdx {
        self.extra.push(name.to_owned());
        GoalIdx::new(self.base.n_goals() + self.extra.len() - 1)
    }
}

impl Problem for Registry {
    fn n_goals(&self) -> usize {
        self.base.n_goals() + self.extra.len()
    }

    fn roots(&self) -> Vec<GoalIdx> {
        self.base.roots()
    }

    fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        self.base.released_by(g)
    }

    fn evaluate(
        &mut self,
        tests: &[TestCase],
        dynamic: &mut DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        let mut evals = self.base.evaluate(tests, dynamic)?;
        for (t, e) in tests.iter().zip(&mut evals) {
            for name in &self.extra {
                let calls = t
                    .statements
                    .iter()
                    .filter(|s| matches!(s, Statement::Method { method, .. } if method.name == *name))
                    .count();
                e.fitness.push(match calls {
                    0 => 1.0,
                    1 => 0.5,
                    _ => 0.0,
                });
            }
        }
        Ok(evals)
    }
}

/// Registers one goal with the problem at its call after `at` iterations.
struct Register {
    at: u64,
    goal: Option<(GoalIdx, u64)>,
}

impl Hook<Registry> for Register {
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut Registry,
        _: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        if self.goal.is_none() && view.iteration() >= self.at {
            self.goal = Some((problem.register("max"), view.iteration()));
        }
        Ok(Vec::new())
    }
}

/// Per algorithm: the goal a hook registers after iteration 3, the target count of the iterations
/// around it, whether DynaMOSA released it, and when it was covered.
fn check_registered(expect: Expect) {
    let cluster = overloads_cluster();
    let mut s = String::new();
    for alg in Algorithm::ALL {
        let c = SearchConfig { stop_zero: false, ..config(alg, 3_000) };
        let mut hook = Register { at: 3, goal: None };
        let seams = Seams { hooks: vec![&mut hook], policy: None };
        let problem = Registry { base: FakeProblem::new(&cluster, false), extra: Vec::new() };
        let mut r = run(&cluster, &c, problem, 11, Some(seams));
        let (goal, at) = hook.goal.expect("registered");
        let targets: Vec<usize> = r
            .events
            .iter()
            .filter_map(|e| if let Event::Iteration { targets, .. } = e { Some(*targets) } else { None })
            .collect();
        let released = r.events.contains(&Event::Released { goal, by: None });
        let covered = r.events.iter().find_map(|e| match e {
            Event::Covered { goal: g, evaluations } if *g == goal => Some(*evaluations),
            _ => None,
        });
        assert!(r.result.archive.is_covered(goal), "{}", alg.name());
        assert_eq!(r.result.stats.n_goals, goal.index() + 1);
        let t = r.result.archive.test_for(goal).expect("covered");
        assert_eq!(
            r.problem.evaluate(std::slice::from_ref(t), &mut DynamicPool::new(1)).expect("runs")[0].fitness
                [goal.index()],
            0.0
        );
        s.push_str(&format!(
            "{:12} {goal} registered after iteration {at}; targets at iterations {}..{}: {:?}; released: {released}; covered at evaluation {:?}\n",
            alg.name(),
            at,
            at + 2,
            &targets[at as usize - 1..at as usize + 2],
            covered,
        ));
    }
    expect.assert_eq(&s);
}

#[test]
fn a_registered_goal_is_targeted_and_covered() {
    check_registered(expect![[r#"
        random       g13 registered after iteration 3; targets at iterations 3..5: [13, 14, 14]; released: false; covered at evaluation Some(221)
        whole-suite  g13 registered after iteration 3; targets at iterations 3..5: [13, 14, 14]; released: false; covered at evaluation Some(342)
        mosa         g13 registered after iteration 3; targets at iterations 3..5: [13, 14, 14]; released: false; covered at evaluation Some(163)
        dynamosa     g13 registered after iteration 3; targets at iterations 3..5: [13, 14, 14]; released: true; covered at evaluation Some(171)
        mio          g13 registered after iteration 3; targets at iterations 3..5: [13, 14, 14]; released: false; covered at evaluation Some(76)
    "#]]);
}

/// A policy of the kind smart selection is (a subset of the goals as guides), written outside the
/// crate: every even goal is a target, the odd ones only archived.
#[derive(Default)]
struct EvenGoals {
    targets: Targets,
}

impl EvenGoals {
    fn even(&mut self, new: std::ops::Range<usize>) -> Result<(), SearchError> {
        self.targets.grow(new.end);
        for g in new.filter(|g| g % 2 == 0) {
            self.targets.add(GoalIdx::new(g))?;
        }
        Ok(())
    }
}

impl TargetPolicy for EvenGoals {
    fn targets(&self) -> &Targets {
        &self.targets
    }

    fn start(&mut self, goals: Goals<'_>, _: &mut Vec<Release>) -> Result<(), SearchError> {
        self.even(0..goals.n_goals())
    }

    fn grown(
        &mut self,
        new: std::ops::Range<usize>,
        _: Goals<'_>,
        _: &mut Vec<Release>,
    ) -> Result<(), SearchError> {
        self.even(new)
    }

    fn covered(&mut self, _: GoalIdx, _: Goals<'_>, _: &mut Vec<Release>) -> Result<(), SearchError> {
        Ok(())
    }
}

/// A policy passed in replaces the configuration's for every algorithm: the iterations report its
/// targets, and the archive still takes every goal a test covers.
#[test]
fn a_policy_passed_in_decides_the_targets() {
    let cluster = overloads_cluster();
    for alg in Algorithm::ALL {
        let c = config(alg, 1_000);
        let seams = Seams { hooks: Vec::new(), policy: Some(Box::new(EvenGoals::default())) };
        let r = run(&cluster, &c, FakeProblem::new(&cluster, true), 5, Some(seams));
        let n = r.problem.n_goals();
        for e in &r.events {
            match e {
                Event::Iteration { targets, .. } => assert_eq!(*targets, n.div_ceil(2), "{}", alg.name()),
                Event::Released { .. } => panic!("{}: this policy reports no release", alg.name()),
                Event::Covered { .. } => {}
            }
        }
        assert!(r.result.archive.covered_goals().iter().any(|g| g.index() % 2 == 1), "{}", alg.name());
    }
}
