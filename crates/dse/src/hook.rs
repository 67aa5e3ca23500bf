//! The DSE hook (`search::Hook`): the trigger and controller of `control`, and one application of
//! DSE (digest B.2.6 `dse_on_suite`) over the tests that fired the trigger.
//!
//! The solved tests are checked in the real JVM inside the application (`DseTarget::run_tests`),
//! not left to the search's next batch: 004 re-executes each kept test concolically to go on from
//! it within the same application (a parse that must get past several fields in turn), which needs
//! to know at once which tests took their path, and a test that diverges is counted where it was
//! made. The kept tests are then returned to the search, which evaluates them again in its next
//! batch (a hit of the problem's result cache) and adds them to its archive and population.

use std::collections::BTreeSet;

use programdb::ProgramDb;
use search::{Clock, GoalIdx, Hook, ProblemError, View};
use solver::{Outcome, Portfolio, Solver as _};
use symbolic::{Concolic, Replay};
use testcase::{TestCase, TestRng, rng_from_seed};

use crate::candidates::{Candidate, Queue, Worth};
use crate::control::{Controller, Trigger};
use crate::cost::DseCost;
use crate::expand::{expand, symbolic_statements};
use crate::substitute::{no_lone_surrogates, substitute};
use crate::{DseConfig, DseStats, ShareBy};

/// Solved tests sent to the JVM together (one round trip); the next ones are solved after their
/// check, so that a kept test's own candidates compete with the rest of the queue.
const CHECK_BATCH: usize = 6;

/// What DSE needs of the search's problem: the probe plan its goals come from, the search goal of
/// a model goal, and real executions. The engine implements it over its JVM problem.
pub trait DseTarget {
    /// The probe plan of the instrumented classes (the replay's branch goals are its goals).
    fn plan(&self) -> &goals::ProbePlan;
    /// The search's goal for a model goal, when the search has it (its criterion is selected).
    fn search_goal(&self, goal: goals::GoalId) -> Option<GoalIdx>;
    /// Runs tests in the JVM; per test, the fitness of every goal (0: covered).
    fn run_tests(&mut self, tests: &[TestCase]) -> Result<Vec<Vec<f64>>, ProblemError>;
}

/// The hook of one search.
pub struct Dse<'a> {
    db: &'a ProgramDb,
    config: DseConfig,
    trigger: Trigger,
    controller: Controller,
    /// DSE's own draws (the probability P), seeded from the run's seed: the search's generator is
    /// never drawn from, so its sequence does not depend on DSE's decisions.
    rng: TestRng,
    solver: Portfolio,
    /// The solver of explorations, with an eighth of the limits: an exploration is a guess, and a
    /// query Z3 gives up on (floating point, hash codes) costs its whole limit.
    explorer: Portfolio,
    stats: DseStats,
    /// Calls since the trigger last fired (or the stagnation rule last applied DSE).
    quiet: u32,
    /// Queries the solver gave up on (within its limits): not tried again in this search.
    hopeless: BTreeSet<crate::candidates::Key>,
    /// The clock that times the applications for the report (`Dse::timed`), and what it measured.
    /// Nothing DSE decides reads either.
    clock: Option<&'a dyn Clock>,
    cost: DseCost,
    /// The search's evaluations when the current application began (`between`); `None` when
    /// `apply` is called outside a search, which has no share to keep to.
    evaluations: Option<u64>,
    /// How the share is measured (`ShareBy::Time` only with a clock), and when on the clock the
    /// application under way began.
    share_by: ShareBy,
    app_started: Option<std::time::Duration>,
    /// A trigger (or stall) was turned down by the share: an application is owed.
    owed: bool,
    /// The application the share stopped with work left, to go on at the next call within it.
    paused: Option<Application>,
    /// Barren applications in a row (at most `BARREN_MAX_EXPONENT`), and the triggers still to
    /// skip after the last one (`run_app`).
    barren: u32,
    skip: u32,
    /// Where the current call must stop, set by whoever shares the search among techniques
    /// (`limit_next_call`): DSE pauses the application there, as at the end of its own share.
    until: Option<Until>,
}

/// The most DSE's next call may spend, in the measure of whoever shares the search among
/// techniques (the portfolio): evaluation equivalents (`Dse::work`) or seconds of the clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CallLimit {
    Work(u64),
    Seconds(f64),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Until {
    Work(u64),
    Clock(std::time::Duration),
}

/// After this many barren applications in a row the skip stops growing: 1,023 triggers.
const BARREN_MAX_EXPONENT: u32 = 10;

impl std::fmt::Debug for Dse<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dse")
            .field("config", &self.config)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// One application's state: the replays its candidates refer to, the queue, and what it covered.
struct Application {
    replays: Vec<(TestCase, Replay)>,
    /// The variables of each replay's path entries, computed once per replay (`entry_vars`).
    entry_vars: Vec<Vec<Vec<solver::VarId>>>,
    /// The tests replayed (their stable hashes): an exploration that makes one again is dropped.
    replayed: BTreeSet<u64>,
    queue: Queue,
    covered: BTreeSet<GoalIdx>,
    queries: u32,
    executed: u32,
    kept: Vec<TestCase>,
    /// Seeds not replayed yet (the share paused the application before them).
    pending: std::collections::VecDeque<TestCase>,
    /// Whether any part of the application kept a test (for P's adaptation, once it ends).
    kept_any: bool,
}

impl<'a> Dse<'a> {
    pub fn new(db: &'a ProgramDb, config: &DseConfig, seed: u64) -> Dse<'a> {
        Dse {
            db,
            config: config.clone(),
            trigger: Trigger::default(),
            controller: Controller::new(config.probability, config.rate),
            rng: rng_from_seed(seed ^ 0xd5e0_0004),
            solver: Portfolio::new(&config.solver, seed),
            explorer: Portfolio::new(
                &solver::SolverLimits {
                    z3_rlimit: config.solver.z3_rlimit / 8,
                    avm_evaluations: config.solver.avm_evaluations / 8,
                },
                seed,
            ),
            stats: DseStats { probability: config.probability, ..DseStats::default() },
            hopeless: BTreeSet::new(),
            quiet: 0,
            clock: None,
            cost: DseCost::default(),
            evaluations: None,
            share_by: ShareBy::Work,
            app_started: None,
            owed: false,
            paused: None,
            barren: 0,
            skip: 0,
            until: None,
        }
    }

    /// A hook that also measures its wall time on `clock` (`DseCost`), for the report and, with
    /// `ShareBy::Time` (a search with a time budget only), for its share of the search.
    pub fn timed(
        db: &'a ProgramDb,
        config: &DseConfig,
        seed: u64,
        clock: &'a dyn Clock,
        share_by: ShareBy,
    ) -> Dse<'a> {
        Dse { clock: Some(clock), share_by, ..Dse::new(db, config, seed) }
    }

    pub fn stats(&self) -> &DseStats {
        &self.stats
    }

    /// The work done so far in evaluation equivalents (`budget::work` over the replays, both
    /// solvers and the checks), current after every call: what an allocation over several
    /// techniques charges DSE with (the engine's `DseArm`, a `portfolio::Metered`).
    /// `DseStats::work` is the same number as of the last share check.
    pub fn work(&self) -> u64 {
        crate::budget::work(&self.stats, &[self.solver.stats(), self.explorer.stats()])
    }

    /// Limits the next call to `limit` more work or time: an application still under way then is
    /// paused, and goes on at a later call. A time limit needs the clock (`Dse::timed`); without
    /// one it is ignored.
    pub fn limit_next_call(&mut self, limit: CallLimit) {
        self.until = match (limit, self.clock) {
            (CallLimit::Work(units), _) => Some(Until::Work(self.work().saturating_add(units))),
            (CallLimit::Seconds(s), Some(clock)) => {
                Some(Until::Clock(clock.elapsed() + std::time::Duration::from_secs_f64(s.max(0.0))))
            }
            (CallLimit::Seconds(_), None) => None,
        };
    }

    /// The wall time measured (all zero without a clock).
    pub fn cost(&self) -> &DseCost {
        &self.cost
    }

    /// Whether DSE is still within its share of the search (`DseConfig::share`); updates the
    /// reported work.
    fn affordable(&mut self) -> bool {
        self.stats.work = crate::budget::work(&self.stats, &[self.solver.stats(), self.explorer.stats()]);
        match self.until {
            Some(Until::Work(u)) if self.stats.work > u => return false,
            Some(Until::Clock(t)) if self.now() > t => return false,
            _ => {}
        }
        let Some(n) = self.evaluations else { return true };
        match (self.share_by, self.clock) {
            (ShareBy::Time { lead }, Some(clock)) => {
                let now = clock.elapsed();
                let current = self.app_started.map_or(std::time::Duration::ZERO, |t| now.saturating_sub(t));
                crate::budget::within_time_share(
                    self.cost.application_time + current,
                    now,
                    lead,
                    self.config.time_share,
                )
            }
            _ => crate::budget::within_share(self.stats.work, n, self.config.share),
        }
    }

    /// The clock's reading, for the report's times; zero without a clock.
    fn now(&self) -> std::time::Duration {
        self.clock.map_or(std::time::Duration::ZERO, |c| c.elapsed())
    }

    /// One application on `seeds` (digest B.2.6 `dse_on_suite`): the tests kept. Outside a search
    /// (no share) it always runs to its end.
    pub fn apply<P: DseTarget + ?Sized>(
        &mut self,
        covered: &dyn Fn(GoalIdx) -> bool,
        problem: &mut P,
        seeds: &[TestCase],
    ) -> Result<Vec<TestCase>, ProblemError> {
        let app = Application {
            replays: Vec::new(),
            entry_vars: Vec::new(),
            replayed: BTreeSet::new(),
            queue: Queue::with_hopeless(std::mem::take(&mut self.hopeless)),
            covered: BTreeSet::new(),
            queries: 0,
            executed: 0,
            kept: Vec::new(),
            pending: seeds.iter().cloned().collect(),
            kept_any: false,
        };
        self.run_app(app, covered, problem)
    }

    /// Runs an application until its own budgets end it, or until the share stops it with work
    /// left (seeds, candidates within its budgets): then it is paused (`paused`), to go on at the
    /// next call within the share rather than start again. The tests kept by this part.
    fn run_app<P: DseTarget + ?Sized>(
        &mut self,
        mut app: Application,
        covered: &dyn Fn(GoalIdx) -> bool,
        problem: &mut P,
    ) -> Result<Vec<TestCase>, ProblemError> {
        while !app.pending.is_empty() && self.affordable() {
            if let Some(s) = app.pending.pop_front() {
                self.replay_into(&mut app, problem, expand(&s), covered);
            }
        }
        loop {
            let batch = self.solve_some(&mut app, problem, covered);
            if batch.is_empty() {
                break;
            }
            self.check(&mut app, problem, batch, covered)?;
        }
        let kept = std::mem::take(&mut app.kept);
        app.kept_any |= !kept.is_empty();
        let work_left = !app.pending.is_empty()
            || (!app.queue.is_empty()
                && app.queries < self.config.max_queries
                && app.executed < self.config.max_tests);
        if work_left && !self.affordable() {
            self.paused = Some(app);
        } else {
            // A barren application (its replays queued no query: they stopped before a symbolic
            // branch, at a native or unmodelled method) makes DSE skip the next 2^n - 1 triggers
            // after n barren ones in a row, so that it costs the search little on a class it
            // cannot reason about (StringUtils at 60 s: 394 replays, all stopped, no query, 20 %
            // of the search). Ours; 004's R adapts P on kept tests only.
            if app.queue.queued_total == 0 {
                self.barren = (self.barren + 1).min(BARREN_MAX_EXPONENT);
                self.skip = (1u32 << self.barren) - 1;
            } else {
                self.barren = 0;
            }
            self.stats.successes += u64::from(app.kept_any);
            self.controller.record(app.kept_any);
            self.stats.probability = self.controller.probability();
            self.hopeless = std::mem::take(&mut app.queue.hopeless);
        }
        Ok(kept)
    }

    /// Replays `test` (expanded) and queues its candidates.
    fn replay_into<P: DseTarget + ?Sized>(
        &mut self,
        app: &mut Application,
        problem: &P,
        test: TestCase,
        covered: &dyn Fn(GoalIdx) -> bool,
    ) {
        if !app.replayed.insert(test.stable_hash()) {
            return;
        }
        let t0 = self.now();
        let mut replay =
            Concolic::new(self.db, problem.plan(), self.config.sym()).run(&test, &symbolic_statements(&test));
        self.cost.replay_time += self.now().saturating_sub(t0);
        self.cost.replay_instructions += replay.stats.symbolic + replay.stats.concrete;
        self.stats.replays += 1;
        self.stats.replays_stopped += u64::from(replay.stop.is_some());
        if let Some(stop) = &replay.stop {
            *self.stats.stops.entry(crate::stop_cause(stop)).or_default() += 1;
        }
        self.stats.instructions_symbolic += replay.stats.symbolic;
        self.stats.instructions_concrete += replay.stats.concrete;
        self.stats.pins += replay.stats.pinned;
        let filter = self.config.filter;
        let mine = &app.covered;
        let worth = |g: GoalIdx| match filter && (covered(g) || mine.contains(&g)) {
            true => Worth::Explore,
            false => Worth::Target,
        };
        let (before, dups) = (app.queue.queued_total, app.queue.duplicates);
        app.queue.add_replay(app.replays.len(), &mut replay, &|g| problem.search_goal(g), &worth);
        self.stats.candidates += app.queue.queued_total - before;
        self.stats.duplicates += app.queue.duplicates - dups;
        app.entry_vars.push(crate::candidates::entry_vars(&replay));
        app.replays.push((test, replay));
    }

    /// Solves candidates, smallest first, until `CHECK_BATCH` tests are made or a budget is spent:
    /// each test with the goal it was solved for. An exploration's test is replayed at once, and
    /// joins the batch when its replay covers a goal no test covered (for that goal).
    fn solve_some<P: DseTarget + ?Sized>(
        &mut self,
        app: &mut Application,
        problem: &P,
        covered: &dyn Fn(GoalIdx) -> bool,
    ) -> Vec<(TestCase, GoalIdx)> {
        let mut batch: Vec<(TestCase, GoalIdx)> = Vec::new();
        while batch.len() < CHECK_BATCH
            && app.queries < self.config.max_queries
            && app.executed + (batch.len() as u32) < self.config.max_tests
            && self.affordable()
        {
            let Some(c) = app.queue.pop() else { break };
            let goal = match (c.explore, c.goal) {
                (false, Some(g)) => Some(g),
                _ => None,
            };
            if let Some(g) = goal
                && self.config.filter
                && (covered(g) || app.covered.contains(&g))
            {
                self.stats.skipped_covered += 1;
                continue;
            }
            app.queries += 1;
            match (self.solve(app, &c), goal) {
                (Some(t), None) => {
                    self.stats.explorations += 1;
                    let before = app.replays.len();
                    self.replay_into(app, problem, t.clone(), covered);
                    // An exploration that took a goal no test covers yet is checked in the JVM
                    // like a solved test, for that goal (kept when it confirms), rather than
                    // left for a later query to find again.
                    let taken = app.replays.get(before).and_then(|(_, r)| {
                        r.covered.iter().filter_map(|&g| problem.search_goal(g)).find(|&g| {
                            !covered(g) && !app.covered.contains(&g) && !batch.iter().any(|(_, b)| *b == g)
                        })
                    });
                    if let Some(g) = taken {
                        batch.push((t, g));
                    }
                }
                (Some(t), Some(g)) if !batch.iter().any(|(b, _)| *b == t) => batch.push((t, g)),
                _ => {}
            }
        }
        batch
    }

    /// The test a candidate's model makes, if the solver finds one that changes the test.
    fn solve(&mut self, app: &mut Application, c: &Candidate) -> Option<TestCase> {
        let hopeless = &mut app.queue.hopeless;
        let (test, replay) = &mut app.replays[c.replay];
        let mut constraints = c.constraints_with(replay, &app.entry_vars[c.replay]);
        no_lone_surrogates(replay, &mut constraints);
        self.stats.solver_calls += 1;
        let t0 = self.clock.map_or(std::time::Duration::ZERO, |c| c.elapsed());
        let solver = if c.explore { &mut self.explorer } else { &mut self.solver };
        let before = *solver.stats();
        let outcome = solver.solve(&replay.arena, &constraints, &replay.hint);
        if let Some(clock) = self.clock {
            let after = solver.stats();
            let backends = backends(&before, after, replay.arena.has_float(&constraints));
            self.cost.queries.entry(backends).or_default().push(clock.elapsed().saturating_sub(t0));
        }
        match outcome {
            Outcome::Sat(model) => {
                self.stats.sat += 1;
                let t = substitute(test, &replay.inputs, &model, &replay.hint, self.config.max_string);
                if t == *test {
                    self.stats.unchanged += 1;
                    return None;
                }
                Some(t)
            }
            Outcome::Unsat => {
                self.stats.unsat += 1;
                None
            }
            Outcome::Unknown => {
                self.stats.unknown += 1;
                hopeless.insert(c.key);
                None
            }
        }
    }

    /// Runs a batch of solved tests in the JVM, counts confirmations and divergences, keeps the
    /// tests that cover a goal not covered before (all, with `keep_all`) and queues the
    /// candidates of those that improved.
    fn check<P: DseTarget + ?Sized>(
        &mut self,
        app: &mut Application,
        problem: &mut P,
        batch: Vec<(TestCase, GoalIdx)>,
        covered: &dyn Fn(GoalIdx) -> bool,
    ) -> Result<(), ProblemError> {
        let tests: Vec<TestCase> = batch.iter().map(|(t, _)| t.clone()).collect();
        let t0 = self.now();
        let fitness = problem.run_tests(&tests)?;
        self.cost.check_time += self.now().saturating_sub(t0);
        app.executed += tests.len() as u32;
        self.stats.executions += tests.len() as u64;
        for ((test, goal), fit) in batch.into_iter().zip(fitness) {
            let covers = |g: GoalIdx| fit.get(g.index()).is_some_and(|&f| f == 0.0);
            if covers(goal) {
                self.stats.confirmed += 1;
            } else {
                self.stats.divergences += 1;
            }
            let new: Vec<GoalIdx> = (0..fit.len())
                .map(GoalIdx::new)
                .filter(|&g| covers(g) && !covered(g) && !app.covered.contains(&g))
                .collect();
            if new.is_empty() && !self.config.keep_all {
                continue;
            }
            self.stats.tests_kept += 1;
            self.stats.goals_covered_first += new.len() as u64;
            let improved = !new.is_empty();
            app.covered.extend(new);
            app.kept.push(test.clone());
            if improved {
                self.replay_into(app, problem, test, covered);
            }
        }
        Ok(())
    }
}

/// The back ends that answered a query, from the portfolio's counters before and after it, in
/// the order they ran (`solver::Portfolio`: the AVM first for a query with floating point).
fn backends(before: &solver::SolverStats, after: &solver::SolverStats, float: bool) -> &'static str {
    let z3 = after.z3.calls > before.z3.calls;
    let avm = after.avm.calls > before.avm.calls;
    match (z3, avm, float) {
        (true, true, true) => "avm+z3",
        (true, true, false) => "z3+avm",
        (true, false, _) => "z3",
        (false, true, _) => "avm",
        (false, false, _) => "none",
    }
}

/// What the trigger looks at, per target goal in goal order: an uncovered goal's best fitness and
/// test, a covered goal's 0 and the archive's test for it (covering a goal is its last
/// improvement: the trigger fires when values flipped its condition).
fn observed<'v>(view: &'v View<'_>) -> impl Iterator<Item = (GoalIdx, Option<(f64, &'v TestCase)>)> + 'v {
    let archive = view.archive();
    (0..view.n_goals()).map(GoalIdx::new).filter(|&g| view.is_target(g)).map(move |g| {
        let best = match archive.test_for(g) {
            Some(t) => Some((0.0, t)),
            None => view.best(g),
        };
        (g, best)
    })
}

impl<P: DseTarget> Hook<P> for Dse<'_> {
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut P,
        _rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        let targets = view.uncovered_targets();
        let fired = self.trigger.observe(observed(view));
        let owed = self.owed || self.paused.is_some();
        let retry = fired.is_empty() && owed;
        if fired.is_empty() {
            // Our stagnation rule (docs/dse.md; 0 turns it off, as in 004): after `stall` calls
            // without a trigger, the uncovered targets' best tests get an application anyway.
            self.quiet += 1;
            let stalled = self.config.stall != 0 && self.quiet >= self.config.stall;
            if targets.is_empty() || !(stalled || owed) {
                return Ok(Vec::new());
            }
            self.stats.stalls += u64::from(stalled);
        } else {
            self.stats.triggers += 1;
        }
        self.quiet = 0;
        self.evaluations = Some(view.evaluations());
        if !self.affordable() {
            // The share defers an application, it does not cancel it: a trigger it turns down is
            // owed an application at the first call within the share (on the uncovered targets'
            // best tests then), and an application it stops is paused and goes on from where it
            // stopped (`run_app`). Without this, the triggers of a class whose goals all get their
            // first values in the first generations (the dse fixtures' exact values: no gradient
            // fires them later) met a share measured against a search of a fraction of a second,
            // and DSE never ran again (the time share's first 60 s run: DateParse 25 %); and
            // applications started anew at each call repeated their first queries.
            self.stats.over_share += u64::from(!retry);
            self.owed = self.paused.is_none();
            return Ok(Vec::new());
        }
        self.owed = false;
        self.stats.deferred += u64::from(retry);
        let archive = view.archive();
        if let Some(mut app) = self.paused.take() {
            // The tests that fired meanwhile join the paused application's seeds.
            for (_, t) in fired {
                if app.pending.len() < self.config.max_seeds as usize {
                    app.pending.push_back(t);
                }
            }
            return self.timed_part(|dse| dse.run_app(app, &|g| archive.is_covered(g), problem));
        }
        if self.skip > 0 {
            self.skip -= 1;
            self.stats.barren_skips += 1;
            return Ok(Vec::new());
        }
        if !self.controller.admit(&mut self.rng) {
            self.stats.declined += 1;
            return Ok(Vec::new());
        }
        // The suite DSE works on, DynaMOSA's counterpart of 004's best individual: the best tests
        // of the uncovered targets, those that fired first, then the others in goal order
        // (distinct tests, at most `max_seeds`). A goal on a plateau (its best cannot get closer
        // by mutation: `a - b == 77777` behind an exact `3a - 7b + c == 1000003`) never fires
        // itself; it is reached when any goal fires, as 004 reaches it in the best suite.
        let mut seeds: Vec<TestCase> = Vec::new();
        let mut hashes: BTreeSet<u64> = BTreeSet::new();
        let others = targets.iter().filter_map(|&g| view.best(g).map(|(_, t)| t.clone()));
        for t in fired.into_iter().map(|(_, t)| t).chain(others) {
            if seeds.len() >= self.config.max_seeds as usize {
                break;
            }
            if hashes.insert(t.stable_hash()) {
                seeds.push(t);
            }
        }
        self.stats.applications += 1;
        self.timed_part(|dse| dse.apply(&|g| archive.is_covered(g), problem, &seeds))
    }
}

impl Dse<'_> {
    /// Runs (a part of) an application, timing it on the clock for the report and the time share.
    fn timed_part(
        &mut self,
        part: impl FnOnce(&mut Self) -> Result<Vec<TestCase>, ProblemError>,
    ) -> Result<Vec<TestCase>, ProblemError> {
        let t0 = self.now();
        self.app_started = self.clock.map(|_| t0);
        let kept = part(self);
        self.app_started = None;
        self.cost.applications += u64::from(self.clock.is_some());
        self.cost.application_time += self.now().saturating_sub(t0);
        kept
    }
}
