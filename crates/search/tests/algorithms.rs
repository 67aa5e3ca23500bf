//! The five algorithms on a fake problem over real test cases of `cluster.Overloads`: coverage
//! within a fixed evaluation budget, DynaMOSA's release order, determinism (one seed, one archive),
//! the injected clock, batching, and the errors a bad `Problem` causes.

mod common;

use std::cell::Cell;
use std::time::Duration;

use common::{FakeProblem, Goal, overloads_cluster};
use expect_test::expect;
use search::{
    Algorithm, Budget, Clock, Evaluation, Event, GoalIdx, Problem, ProblemError, SearchConfig, SearchError,
    SearchResult, SystemClock,
};
use testcase::pool::DynamicPool;
use testcase::{FactoryConfig, TestCase, TestCluster, ValuePool, rng_from_seed};

fn config(algorithm: Algorithm, evaluations: u64) -> SearchConfig {
    SearchConfig { algorithm, ..SearchConfig::evosuite(Budget::evaluations(evaluations)) }
}

fn pool_of(cluster: &TestCluster) -> ValuePool {
    ValuePool::new(cluster.constants().clone(), FactoryConfig::evosuite().dynamic_pool_size)
}

struct Run {
    result: SearchResult,
    events: Vec<Event>,
    problem: FakeProblem,
}

fn run(cluster: &TestCluster, config: &SearchConfig, hard: bool, seed: u64, clock: &dyn Clock) -> Run {
    let mut problem = FakeProblem::new(cluster, hard);
    let mut pool = pool_of(cluster);
    let mut rng = rng_from_seed(seed);
    let mut events = Vec::new();
    let result = search::run(&mut problem, cluster, &mut pool, config, clock, &mut rng, &mut |e| {
        events.push(e.clone())
    })
    .expect("search runs");
    Run { result, events, problem }
}

#[test]
fn fake_problem_goals() {
    let cluster = overloads_cluster();
    let p = FakeProblem::new(&cluster, true);
    expect![[r#"
        g0 Calls { class: "cluster.Overloads", name: "<init>", descriptor: "()V" } releases []
        g1 Calls { class: "cluster.Overloads", name: "<init>", descriptor: "(I)V" } releases [g15]
        g2 Calls { class: "cluster.Overloads", name: "add", descriptor: "(II)I" } releases [g13]
        g3 Calls { class: "cluster.Overloads", name: "add", descriptor: "(JJ)J" } releases []
        g4 Calls { class: "cluster.Overloads", name: "add", descriptor: "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;" } releases []
        g5 Calls { class: "cluster.Overloads", name: "add", descriptor: "(D)D" } releases []
        g6 Calls { class: "cluster.Overloads", name: "max", descriptor: "([I)I" } releases []
        g7 Calls { class: "cluster.Overloads", name: "packagePrivate", descriptor: "(C)I" } releases []
        g8 Calls { class: "cluster.Overloads", name: "isProtected", descriptor: "(BS)Z" } releases []
        g9 Calls { class: "cluster.Overloads", name: "toString", descriptor: "()Ljava/lang/String;" } releases []
        g10 Calls { class: "cluster.Overloads", name: "GREETING", descriptor: "Ljava/lang/String;" } releases []
        g11 Calls { class: "cluster.Overloads", name: "count", descriptor: "I" } releases []
        g12 Throws releases []
        g13 AddFirst42 releases [g14]
        g14 AddBoth releases []
        g15 BigStart releases []
    "#]]
    .assert_eq(&p.describe());
    assert_eq!(p.roots().len(), 13);
}

/// Every algorithm covers the easy problem (calls of every member, an exception) well within
/// 5,000 evaluations.
#[test]
fn every_algorithm_covers_the_easy_problem() {
    let cluster = overloads_cluster();
    for alg in Algorithm::ALL {
        let r = run(&cluster, &config(alg, 5_000), false, 1, &SystemClock::start());
        let s = &r.result.stats;
        println!("{:12} covered {}/{} after {} evaluations", alg.name(), s.covered, s.n_goals, s.evaluations);
        assert_eq!(
            s.covered,
            s.n_goals,
            "{} did not cover everything:\n{}",
            alg.name(),
            r.result.archive.to_text()
        );
        assert!(r.result.archive.all_covered());
        // Stopped on full coverage, not on the budget.
        assert!(s.evaluations < 5_000, "{}", alg.name());
    }
}

/// The argument goals need search pressure (distances |a − 42|, |b + 1000|, 1501 − start): the
/// evolutionary algorithms and MIO cover everything within 40,000 evaluations.
#[test]
fn evolutionary_algorithms_cover_the_hard_problem() {
    let cluster = overloads_cluster();
    for alg in [Algorithm::WholeSuite, Algorithm::Mosa, Algorithm::DynaMosa, Algorithm::Mio] {
        let r = run(&cluster, &config(alg, 40_000), true, 2, &SystemClock::start());
        let s = &r.result.stats;
        println!(
            "{:12} covered {}/{} after {} evaluations, {} iterations",
            alg.name(),
            s.covered,
            s.n_goals,
            s.evaluations,
            s.iterations
        );
        assert_eq!(
            s.covered,
            s.n_goals,
            "{} did not cover everything:\n{}",
            alg.name(),
            r.result.archive.to_text()
        );
        // The archive's suite covers every goal: each test is the archived one of some goal.
        let suite = r.result.suite();
        for g in 0..s.n_goals {
            let t = r.result.archive.test_for(GoalIdx::new(g)).expect("covered");
            assert!(suite.contains(t));
            assert_eq!(common::evaluate_one(&r.problem.goals, t).fitness[g], 0.0);
        }
    }
}

/// DynaMOSA targets the roots first and releases a goal only after a goal it depends on is covered.
#[test]
fn dynamosa_releases_goals_after_their_parent() {
    let cluster = overloads_cluster();
    let r = run(&cluster, &config(Algorithm::DynaMosa, 40_000), true, 3, &SystemClock::start());
    let idx = |g: Goal| GoalIdx::new(r.problem.goals.iter().position(|x| *x == g).expect("goal exists"));
    let mut covered = Vec::new();
    let mut released = Vec::new();
    for e in &r.events {
        match e {
            Event::Covered { goal, .. } => covered.push(*goal),
            Event::Released { goal, by: None } => {
                assert!(covered.is_empty(), "roots are released before anything is evaluated");
                released.push(*goal);
            }
            Event::Released { goal, by: Some(parent) } => {
                assert!(covered.contains(parent), "{goal} released by {parent} before {parent} was covered");
                assert!(r.problem.released_by(*parent).contains(goal));
                released.push(*goal);
            }
            Event::Iteration { .. } => {}
        }
    }
    assert_eq!(released.len(), r.problem.goals.len(), "every goal was released in the end");
    let pos = |list: &[GoalIdx], g: GoalIdx| list.iter().position(|x| *x == g).expect("present");
    let (first, both) = (idx(Goal::AddFirst42), idx(Goal::AddBoth));
    // The chain add(II) -> a == 42 -> b == -1000: each released after its parent is covered.
    let call_add = idx(Goal::Calls {
        class: "cluster.Overloads".into(),
        name: "add".into(),
        descriptor: "(II)I".into(),
    });
    assert!(pos(&covered, call_add) < pos(&covered, first));
    assert!(pos(&released, first) > 12 && pos(&released, both) > pos(&released, first));
    assert!(pos(&covered, first) < pos(&covered, both));
    // Targets grow: the Iteration events' target counts never decrease.
    let targets: Vec<usize> = r
        .events
        .iter()
        .filter_map(|e| if let Event::Iteration { targets, .. } = e { Some(*targets) } else { None })
        .collect();
    assert!(targets.windows(2).all(|w| w[0] <= w[1]), "{targets:?}");
    // The first generation's count is the roots plus what it released.
    let first_iter =
        r.events.iter().position(|e| matches!(e, Event::Iteration { .. })).expect("an iteration");
    let early = r.events[..first_iter].iter().filter(|e| matches!(e, Event::Released { .. })).count();
    assert_eq!(targets[0], early);
    assert!(early >= r.problem.roots().len());
}

/// One seed gives the same archive (printed tests) and the same statistics, for every algorithm;
/// other seeds give other archives.
#[test]
fn same_seed_same_archive() {
    let cluster = overloads_cluster();
    let mut differs = 0;
    for alg in Algorithm::ALL {
        let c = config(alg, 3_000);
        let a = run(&cluster, &c, true, 42, &SystemClock::start());
        let b = run(&cluster, &c, true, 42, &SystemClock::start());
        assert_eq!(a.result.archive.to_text(), b.result.archive.to_text(), "{}", alg.name());
        assert_eq!(a.result.stats.history, b.result.stats.history, "{}", alg.name());
        assert_eq!(a.events, b.events, "{}", alg.name());
        assert_eq!(a.problem.batches, b.problem.batches, "{}", alg.name());
        let other = run(&cluster, &c, true, 43, &SystemClock::start());
        if other.result.archive.to_text() != a.result.archive.to_text() {
            differs += 1;
        }
    }
    assert_eq!(differs, Algorithm::ALL.len());
}

/// A clock the test controls: every reading advances it by a millisecond.
struct TickClock(Cell<u64>);

impl Clock for TickClock {
    fn elapsed(&self) -> Duration {
        let t = self.0.get();
        self.0.set(t + 1);
        Duration::from_millis(t)
    }
}

/// A time budget measured by an injected clock stops the run deterministically.
#[test]
fn time_budget_uses_the_injected_clock() {
    let cluster = overloads_cluster();
    for alg in Algorithm::ALL {
        let c = SearchConfig {
            algorithm: alg,
            stop_zero: false,
            ..SearchConfig::evosuite(Budget::time(Duration::from_millis(100)))
        };
        let a = run(&cluster, &c, true, 5, &TickClock(Cell::new(0)));
        let b = run(&cluster, &c, true, 5, &TickClock(Cell::new(0)));
        assert_eq!(a.result.stats.evaluations, b.result.stats.evaluations, "{}", alg.name());
        assert_eq!(a.result.archive.to_text(), b.result.archive.to_text(), "{}", alg.name());
        assert!(a.result.stats.elapsed >= Duration::from_millis(100));
        assert!(a.result.stats.iterations >= 1);
    }
}

/// A generation is one batch: MOSA's first batch is the initial population, then at most
/// population + 5 offspring per generation; whole suite evaluates all new tests of a generation at once.
#[test]
fn generations_are_evaluated_in_batches() {
    let cluster = overloads_cluster();
    let r = run(&cluster, &config(Algorithm::Mosa, 2_000), true, 6, &SystemClock::start());
    assert_eq!(r.problem.batches[0], 50);
    assert!(r.problem.batches[1..].iter().all(|&n| n <= 55), "{:?}", r.problem.batches);
    assert_eq!(r.result.stats.batches as usize, r.problem.batches.len());
    assert_eq!(r.result.stats.iterations as usize, r.problem.batches.len());
    let r = run(&cluster, &config(Algorithm::WholeSuite, 2_000), true, 6, &SystemClock::start());
    assert!(r.problem.batches[0] >= 50, "50 suites of 1 to 10 tests");
    assert_eq!(r.result.stats.iterations as usize, r.problem.batches.len());
    assert_eq!(r.result.stats.evaluations, r.problem.batches.iter().sum::<usize>() as u64);
}

/// A problem that misbehaves in a chosen way.
struct Broken {
    how: u8,
}

impl Problem for Broken {
    fn n_goals(&self) -> usize {
        2
    }

    fn roots(&self) -> Vec<GoalIdx> {
        vec![GoalIdx::new(if self.how == 3 { 7 } else { 0 })]
    }

    fn released_by(&self, _: GoalIdx) -> &[GoalIdx] {
        &[]
    }

    fn evaluate(&mut self, tests: &[TestCase], _: &mut DynamicPool) -> Result<Vec<Evaluation>, ProblemError> {
        let ok = || Evaluation { fitness: vec![1.0, 0.5], exception_at: None };
        match self.how {
            0 => Ok(tests.iter().skip(1).map(|_| ok()).collect()),
            1 => Ok(tests
                .iter()
                .map(|_| Evaluation { fitness: vec![1.0, f64::NAN], exception_at: None })
                .collect()),
            2 => Ok(tests.iter().map(|_| Evaluation { fitness: vec![1.0], exception_at: None }).collect()),
            _ => Err("the workers are gone".into()),
        }
    }
}

#[test]
fn a_broken_problem_is_an_error() {
    let cluster = overloads_cluster();
    let mut messages = String::new();
    for (how, alg) in [
        (0, Algorithm::Mosa),
        (1, Algorithm::Mio),
        (2, Algorithm::Random),
        (3, Algorithm::DynaMosa),
        (4, Algorithm::WholeSuite),
    ] {
        let mut pool = pool_of(&cluster);
        let c = config(alg, 100);
        let res = search::run(
            &mut Broken { how },
            &cluster,
            &mut pool,
            &c,
            &SystemClock::start(),
            &mut rng_from_seed(1),
            &mut |_| {},
        );
        let e = res.expect_err("an error");
        messages.push_str(&format!("{e}\n"));
    }
    let mut pool = pool_of(&cluster);
    let c = SearchConfig::evosuite(Budget { time: None, evaluations: None });
    let e = search::run(
        &mut Broken { how: 0 },
        &cluster,
        &mut pool,
        &c,
        &SystemClock::start(),
        &mut rng_from_seed(1),
        &mut |_| {},
    );
    assert!(matches!(e, Err(SearchError::NoBudget)));
    expect![[r#"
        the problem returned 49 evaluations for a batch of 50 tests
        evaluation 0 of a batch has fitness NaN for goal g1: not finite and non-negative
        evaluation 0 of a batch has 1 fitness values, expected 2 (one per goal)
        the problem's control dependence names goal g7, but it has only 2 goals
        evaluating a batch of 266 tests failed: the workers are gone
    "#]]
    .assert_eq(&messages);
}

/// Side by side on the hard problem with one budget: the guided algorithms cover everything, random
/// search misses argument goals that need a distance to follow.
#[test]
fn guided_search_beats_random_on_the_hard_problem() {
    let cluster = overloads_cluster();
    let mut covered = Vec::new();
    for alg in Algorithm::ALL {
        let mut total = 0;
        for seed in 0..3 {
            total += run(&cluster, &config(alg, 6_000), true, 100 + seed, &SystemClock::start())
                .result
                .stats
                .covered;
        }
        println!("{:12} covered {total}/48 goals over 3 seeds at 6,000 evaluations", alg.name());
        covered.push((alg, total));
    }
    for (alg, n) in &covered {
        if *alg == Algorithm::Random {
            assert!(*n < 48, "random search has no gradient towards b == -1000: {covered:?}");
        } else {
            assert_eq!(*n, 48, "{covered:?}");
        }
    }
}

/// Goals discovered while running, like EvoSuite's exception goals: one per method that threw.
struct Growing {
    base: FakeProblem,
    discovered: Vec<String>,
}

impl Problem for Growing {
    fn n_goals(&self) -> usize {
        self.base.n_goals() + self.discovered.len()
    }

    fn roots(&self) -> Vec<GoalIdx> {
        self.base.roots()
    }

    fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        if g.index() < self.base.n_goals() { self.base.released_by(g) } else { &[] }
    }

    fn evaluate(
        &mut self,
        tests: &[TestCase],
        dynamic: &mut DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        let mut evals = self.base.evaluate(tests, dynamic)?;
        let thrower = |t: &TestCase, e: &Evaluation| match e.exception_at.map(|i| &t.statements[i]) {
            Some(testcase::Statement::Method { method, .. }) => {
                Some(format!("{}{}", method.name, method.descriptor))
            }
            _ => None,
        };
        for (t, e) in tests.iter().zip(&evals) {
            if let Some(k) = thrower(t, e)
                && !self.discovered.contains(&k)
            {
                self.discovered.push(k);
            }
        }
        for (t, e) in tests.iter().zip(&mut evals) {
            let k = thrower(t, e);
            e.fitness.extend(self.discovered.iter().map(|d| if Some(d) == k.as_ref() { 0.0 } else { 1.0 }));
        }
        Ok(evals)
    }
}

#[test]
fn goals_discovered_during_the_search() {
    let cluster = overloads_cluster();
    for alg in Algorithm::ALL {
        let c = SearchConfig { stop_zero: false, ..config(alg, 2_000) };
        let go = || {
            let mut p = Growing { base: FakeProblem::new(&cluster, false), discovered: Vec::new() };
            let mut pool = pool_of(&cluster);
            let mut events = Vec::new();
            let r = search::run(
                &mut p,
                &cluster,
                &mut pool,
                &c,
                &SystemClock::start(),
                &mut rng_from_seed(8),
                &mut |e| events.push(e.clone()),
            )
            .expect("search runs");
            (r, p.discovered, events)
        };
        let (r, discovered, events) = go();
        let base = FakeProblem::new(&cluster, false).n_goals();
        println!("{:12} discovered {:?}", alg.name(), discovered);
        assert!(!discovered.is_empty(), "{}", alg.name());
        assert_eq!(r.stats.n_goals, base + discovered.len());
        assert!(r.archive.all_covered(), "a discovered goal is covered by the test that found it");
        if alg == Algorithm::DynaMosa {
            let late = events
                .iter()
                .filter(|e| matches!(e, Event::Released { goal, by: None } if goal.index() >= base));
            assert_eq!(late.count(), discovered.len());
        }
        assert_eq!(go().0.archive.to_text(), r.archive.to_text(), "{}", alg.name());
    }
}

/// The easy problem with one goal that no test ever covers, as the engine's complement mode
/// reports a goal the project's own tests cover.
struct WithSettled {
    inner: FakeProblem,
    goal: GoalIdx,
}

impl Problem for WithSettled {
    fn n_goals(&self) -> usize {
        self.inner.n_goals()
    }
    fn roots(&self) -> Vec<GoalIdx> {
        self.inner.roots()
    }
    fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        self.inner.released_by(g)
    }
    fn evaluate(
        &mut self,
        tests: &[TestCase],
        dynamic: &mut DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        let mut out = self.inner.evaluate(tests, dynamic)?;
        for e in &mut out {
            e.fitness[self.goal.index()] = 1.0;
        }
        Ok(out)
    }
}

/// A settled goal counts as covered for `stop_zero`: the search stops once it has covered the
/// others, where without it the budget runs out.
#[test]
fn settled_goals_count_as_covered_for_stopping() {
    let cluster = overloads_cluster();
    let goal = GoalIdx::new(0);
    for (settled, stops_early) in [(vec![goal], true), (Vec::new(), false)] {
        let mut problem = WithSettled { inner: FakeProblem::new(&cluster, false), goal };
        let mut config = config(Algorithm::DynaMosa, 5_000);
        config.settled = settled;
        let mut pool = pool_of(&cluster);
        let mut rng = rng_from_seed(1);
        let clock = SystemClock::start();
        let r = search::run(&mut problem, &cluster, &mut pool, &config, &clock, &mut rng, &mut |_| {})
            .expect("search runs");
        assert_eq!(r.stats.covered + 1, r.stats.n_goals, "every goal but the settled one");
        assert_eq!(r.stats.evaluations < 5_000, stops_early, "{} evaluations", r.stats.evaluations);
    }
}
