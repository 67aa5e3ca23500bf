//! The portfolio as a search hook, over fake technique hooks on a fake problem: goals are needles
//! (a test holding one int literal no factory makes), so that only injected tests cover them and
//! every credit is known in advance. Search's own seam tests drive hooks the same way.

use std::cell::Cell;
use std::time::Duration;

use expect_test::{Expect, expect};
use portfolio::{Allowance, Arm, Budget, Gate, Metered, Plain, Portfolio, PortfolioArm, PortfolioConfig};
use search::{Clock, Evaluation, GoalIdx, Hook, Problem, ProblemError, Seams, SearchConfig, View};
use testcase::pool::DynamicPool;
use testcase::{
    ClusterConfig, PrimValue, Statement, TestCase, TestCluster, TestRng, ValuePool, rng_from_seed,
};

/// Far from every constant of `cluster.Overloads` and from the factory's random ints.
const NEEDLE: i32 = 700_000_000;
const N_NEEDLES: usize = 12;

fn cluster() -> TestCluster {
    let db = test_support::fixture_db("cluster");
    TestCluster::build_in(&db, "cluster.Overloads", &ClusterConfig::evosuite()).expect("cluster builds")
}

/// A clock the problem and the hooks advance.
#[derive(Default)]
struct FakeClock(Cell<Duration>);

impl FakeClock {
    fn advance(&self, d: Duration) {
        self.0.set(self.0.get() + d);
    }
}

impl Clock for FakeClock {
    fn elapsed(&self) -> Duration {
        self.0.get()
    }
}

/// Goal k < `N_NEEDLES`: some statement is the literal `NEEDLE + k`; one more goal no test covers,
/// so that every run uses its whole budget (the search derives the needles next to a given one by
/// mutation). Each evaluation takes 1 ms of the clock.
struct Needles<'c> {
    clock: &'c FakeClock,
}

impl Problem for Needles<'_> {
    fn n_goals(&self) -> usize {
        N_NEEDLES + 1
    }

    fn roots(&self) -> Vec<GoalIdx> {
        (0..=N_NEEDLES).map(GoalIdx::new).collect()
    }

    fn released_by(&self, _: GoalIdx) -> &[GoalIdx] {
        &[]
    }

    fn evaluate(&mut self, tests: &[TestCase], _: &mut DynamicPool) -> Result<Vec<Evaluation>, ProblemError> {
        self.clock.advance(Duration::from_millis(tests.len() as u64));
        Ok(tests
            .iter()
            .map(|t| Evaluation {
                fitness: (0..N_NEEDLES)
                    .map(|k| if holds(t, NEEDLE + k as i32) { 0.0 } else { 1.0 })
                    .chain([1.0])
                    .collect(),
                exception_at: None,
            })
            .collect())
    }
}

fn holds(t: &TestCase, x: i32) -> bool {
    t.statements.iter().any(|s| matches!(s, Statement::Primitive(PrimValue::Int(v)) if *v == x))
}

fn literal(x: i32) -> TestCase {
    let mut t = TestCase::new();
    t.push(Statement::Primitive(PrimValue::Int(x)));
    t
}

/// The giver's needles: the search may find the last two by mutating a given one.
const GIVEN: usize = N_NEEDLES - 2;

/// Injects the next needle at each call until it has given `GIVEN`, taking `cost` of the clock
/// per call.
struct Giver<'c> {
    next: usize,
    calls: u64,
    cost: Duration,
    clock: &'c FakeClock,
}

impl<P: ?Sized> Hook<P> for Giver<'_> {
    fn between(&mut self, _: &View<'_>, _: &mut P, _: &mut TestRng) -> Result<Vec<TestCase>, ProblemError> {
        self.calls += 1;
        self.clock.advance(self.cost);
        if self.next >= GIVEN {
            return Ok(Vec::new());
        }
        self.next += 1;
        Ok(vec![literal(NEEDLE + self.next as i32 - 1)])
    }
}

/// Injects a test that covers nothing, taking `cost` of the clock per call; metered at 50 units of
/// work per call.
struct Waster<'c> {
    calls: u64,
    cost: Duration,
    clock: &'c FakeClock,
}

impl<P: ?Sized> Hook<P> for Waster<'_> {
    fn between(&mut self, _: &View<'_>, _: &mut P, _: &mut TestRng) -> Result<Vec<TestCase>, ProblemError> {
        self.calls += 1;
        self.clock.advance(self.cost);
        Ok(vec![literal(7)])
    }
}

impl<P: ?Sized> Metered<P> for Waster<'_> {
    fn work(&self) -> Option<u64> {
        Some(50 * self.calls)
    }
}

/// Counts its calls; its gate is closed, so it must never be called.
struct Never {
    calls: u64,
}

impl<P: ?Sized> Hook<P> for Never {
    fn between(&mut self, _: &View<'_>, _: &mut P, _: &mut TestRng) -> Result<Vec<TestCase>, ProblemError> {
        self.calls += 1;
        Ok(Vec::new())
    }
}

struct Outcome {
    report: String,
    json: String,
    covered: usize,
    calls: (u64, u64, u64),
}

/// What a search with the portfolio over `arms` left: the ledger as text, report.json's lines,
/// the goals covered.
fn drive<'h>(
    clock: &'h FakeClock,
    budget: search::Budget,
    seed: u64,
    arms: Vec<PortfolioArm<'h, Needles<'h>>>,
    gates: Vec<Gate>,
    before: Option<(Arm, Duration)>,
) -> (String, String, usize) {
    let cluster = cluster();
    let config = SearchConfig::evosuite(budget);
    let mut pool = ValuePool::new(cluster.constants().clone(), config.factory.dynamic_pool_size);
    let mut portfolio =
        Portfolio::new(PortfolioConfig::standard(), Budget::of(&config.budget), clock, arms, gates);
    if let Some((arm, time)) = before {
        clock.advance(time);
        portfolio.charge(arm, time, 0);
    }
    let mut problem = Needles { clock };
    let mut rng = rng_from_seed(seed);
    let result = {
        let seams = Seams { hooks: vec![&mut portfolio as &mut dyn Hook<Needles<'h>>], policy: None };
        search::run_with(&mut problem, &cluster, &mut pool, &config, clock, &mut rng, &mut |_| {}, seams)
            .expect("search runs")
    };
    let mut report = String::new();
    for a in portfolio.ledger().accounts() {
        report.push_str(&format!(
            "{:12} calls {:3} held {:3} work {:5} time {:>7.3}s earned {:2}\n",
            a.arm.name(),
            a.calls,
            a.held,
            a.work,
            a.time.as_secs_f64(),
            a.earned
        ));
    }
    let json = serde_json::to_string(&portfolio.report()).expect("serialises");
    (report, json, result.archive.n_covered())
}

/// One search with the portfolio over a giver (as OCG), a waster (as DSE) and a closed arm (as
/// SUSHI), on `budget`; the hooks take `give` and `waste` of the clock per call.
fn run(budget: search::Budget, seed: u64, give: Duration, waste: Duration) -> Outcome {
    let clock = FakeClock::default();
    let mut giver = Giver { next: 0, calls: 0, cost: give, clock: &clock };
    let mut waster = Waster { calls: 0, cost: waste, clock: &clock };
    let mut never = Never { calls: 0 };
    let mut plain_giver = Plain(&mut giver);
    let mut plain_never = Plain(&mut never);

    let gates = vec![
        Gate { arm: Arm::Ocg, open: true, reason: "a parameter with fields".into() },
        Gate { arm: Arm::Sushi, open: false, reason: "no heap input".into() },
    ];
    let arms = vec![
        PortfolioArm { arm: Arm::Ocg, hook: &mut plain_giver as &mut dyn Metered<Needles<'_>> },
        PortfolioArm { arm: Arm::Dse, hook: &mut waster },
        PortfolioArm { arm: Arm::Sushi, hook: &mut plain_never },
    ];
    let (report, json, covered) = drive(&clock, budget, seed, arms, gates, None);
    Outcome { report, json, covered, calls: (giver.calls, waster.calls, never.calls) }
}

fn check(o: &Outcome, expect: Expect) {
    expect.assert_eq(&format!("{}covered {}\ncalls {:?}\n", o.report, o.covered, o.calls));
}

/// Under an evaluation budget: the giver earns every needle it injects (one per call, credited a
/// batch later), the waster is held back once its 50 units a call pass its share of the search's
/// evaluations (of at least the lead, 1,000) and then runs at its share, which grows as the
/// giver's earnings fade once it has nothing left to give; the closed arm is never called; and
/// wall time changes nothing.
#[test]
fn by_work_the_earner_runs_the_waster_is_held_and_the_closed_arm_never_runs() {
    let budget = search::Budget::evaluations(4_000);
    let a = run(budget, 3, Duration::ZERO, Duration::ZERO);
    check(
        &a,
        expect![[r#"
            ocg          calls  74 held   0 work    10 time   0.000s earned 10
            dse          calls  32 held  42 work  1600 time   0.000s earned  0
            covered 12
            calls (74, 32, 0)
        "#]],
    );
    assert_eq!(a.calls.2, 0, "a closed gate's hook is never called");
    let b = run(budget, 3, Duration::from_millis(5), Duration::from_millis(70));
    assert_eq!(a.json, b.json, "wall time decides nothing under an evaluation budget");
}

/// Under a time budget: the waster takes 200 ms of the clock per call and earns nothing, so it
/// is held to its floor-to-ceiling share of the search's own time (with a lead of a quarter of
/// the budget); the giver, cheap and earning, runs at every call.
#[test]
fn by_time_the_costly_arm_stays_within_its_share() {
    let budget = search::Budget::time(Duration::from_secs(20));
    let o = run(budget, 5, Duration::from_millis(1), Duration::from_millis(200));
    check(
        &o,
        expect![[r#"
            ocg          calls 270 held   0 work    10 time   0.270s earned 10
            dse          calls  27 held 243 work  1350 time   5.400s earned  0
            covered 11
            calls (270, 27, 0)
        "#]],
    );
    let config = PortfolioConfig::standard();
    let lead = config.lead * 20.0;
    let waste = o.calls.1 as f64 * 0.2;
    // At most the ceiling of the lead or of the search's own time, plus the one call that
    // crossed it.
    let own = 20.0_f64;
    assert!(waste <= config.ceiling * own.max(lead) + 0.2, "{waste}");
    assert!(o.json.contains(r#""technique":"dse""#));
}

/// Two arms inject the same needles: each goal is credited once, to the arm that injected the
/// test first (the first in the portfolio's order at the same `between`), and the other earns
/// nothing for the same tests.
#[test]
fn a_test_two_arms_inject_is_credited_to_the_first() {
    let clock = FakeClock::default();
    let mut first = Giver { next: 0, calls: 0, cost: Duration::ZERO, clock: &clock };
    let mut second = Giver { next: 0, calls: 0, cost: Duration::ZERO, clock: &clock };
    let mut a = Plain(&mut first);
    let mut b = Plain(&mut second);
    let arms = vec![
        PortfolioArm { arm: Arm::LocalSearch, hook: &mut a as &mut dyn Metered<Needles<'_>> },
        PortfolioArm { arm: Arm::Ocg, hook: &mut b },
    ];
    let (report, _, covered) = drive(&clock, search::Budget::evaluations(1_500), 11, arms, Vec::new(), None);
    expect![[r#"
        local-search calls  27 held   0 work    10 time   0.000s earned  9
        ocg          calls  27 held   0 work    10 time   0.000s earned  0
        covered 10
    "#]]
    .assert_eq(&format!("{report}covered {covered}\n"));
}

/// Work before the search is reported and weighs in the arm's rate, but does not hold its calls
/// back: SUSHI charged 4 s of exploration in a 20 s run (lead 5 s, its share alone 0.4: 2 s) is
/// never held, and earns every needle it gives. (Held until the search's own time reached
/// 4 / 0.4 = 10 s, as the first wiring did, it registered its first goal and then waited 184
/// generations while the search found the needles next to it by mutation: it earned 1.)
#[test]
fn work_before_the_search_is_reported_but_does_not_hold_the_arm() {
    let clock = FakeClock::default();
    let mut giver = Giver { next: 0, calls: 0, cost: Duration::ZERO, clock: &clock };
    let mut plain = Plain(&mut giver);
    let arms = vec![PortfolioArm { arm: Arm::Sushi, hook: &mut plain as &mut dyn Metered<Needles<'_>> }];
    let before = Some((Arm::Sushi, Duration::from_secs(4)));
    let (report, _, _) =
        drive(&clock, search::Budget::time(Duration::from_secs(20)), 2, arms, Vec::new(), before);
    expect![[r#"
        sushi        calls 301 held   0 work    10 time   4.000s earned 10
    "#]]
    .assert_eq(&report);
}

/// Digs through a job of 5,000 units of work, as far as each call's allowance goes (an
/// application of DSE is such a job); remembers the most one call did.
struct Digger {
    left: u64,
    work: u64,
    allowed: Option<u64>,
    most: u64,
}

impl<P: ?Sized> Hook<P> for Digger {
    fn between(&mut self, _: &View<'_>, _: &mut P, _: &mut TestRng) -> Result<Vec<TestCase>, ProblemError> {
        // In steps of 10 units, the last of which may pass the allowance.
        let want = self.allowed.take().map_or(self.left, |a| a.div_ceil(10) * 10).min(self.left);
        self.left -= want;
        self.work += want;
        self.most = self.most.max(want);
        Ok(Vec::new())
    }
}

impl<P: ?Sized> Metered<P> for Digger {
    fn work(&self) -> Option<u64> {
        Some(self.work)
    }

    fn allow(&mut self, allowance: Allowance) {
        if let Allowance::Work(units) = allowance {
            self.allowed = Some(units);
        }
    }
}

/// A long call stops at its allowance: alone in a run of 4,000 evaluations (lead 1,000, ceiling
/// 0.4) the digger's first call may do 400 units, not its whole job of 5,000, and in all it stays
/// within 0.4 of the search's evaluations plus one step.
#[test]
fn a_long_call_stops_at_its_allowance() {
    let clock = FakeClock::default();
    let mut digger = Digger { left: 5_000, work: 0, allowed: None, most: 0 };
    let arms = vec![PortfolioArm { arm: Arm::Dse, hook: &mut digger as &mut dyn Metered<Needles<'_>> }];
    let (report, _, _) = drive(&clock, search::Budget::evaluations(4_000), 4, arms, Vec::new(), None);
    expect![[r#"
        dse          calls  74 held   0 work  1590 time   0.000s earned  0
    "#]]
    .assert_eq(&report);
    assert_eq!(digger.most, 400);
    assert!(digger.work <= 1_600 + 10, "{}", digger.work);
}

/// Adds no tests but counts the goals it made the search cover: one per call, three in all (as
/// SUSHI counts the path goals solved).
struct Claimer {
    calls: u64,
}

impl<P: ?Sized> Hook<P> for Claimer {
    fn between(&mut self, _: &View<'_>, _: &mut P, _: &mut TestRng) -> Result<Vec<TestCase>, ProblemError> {
        self.calls += 1;
        Ok(Vec::new())
    }
}

impl<P: ?Sized> Metered<P> for Claimer {
    fn earned(&self) -> u64 {
        self.calls.min(3)
    }
}

/// What a hook counts as its own is credited to it, beside goals covered by tests it injected.
#[test]
fn a_hook_earns_the_goals_it_counts() {
    let clock = FakeClock::default();
    let mut claimer = Claimer { calls: 0 };
    let arms = vec![PortfolioArm { arm: Arm::Sushi, hook: &mut claimer as &mut dyn Metered<Needles<'_>> }];
    let (report, json, _) = drive(&clock, search::Budget::evaluations(1_000), 4, arms, Vec::new(), None);
    assert!(report.contains("earned  3"), "{report}");
    assert!(json.contains(r#""earned_goals":3"#), "{json}");
}
