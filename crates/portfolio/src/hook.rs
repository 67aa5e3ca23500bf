//! `Portfolio`: one `search::Hook` over the technique hooks that applies the allocation. At each
//! `between` it first credits the goals the archive covers since the last call whose archived test
//! is one an arm injected, then asks the rule, arm by arm in the order given, whether the arm may
//! run; an arm that may is called, its call timed with the search's clock and its work metered,
//! and the tests it returned remembered (by hash) for the next crediting.
//!
//! Closed-gate arms are never called. An arm the rule holds back is simply not called this time:
//! the hooks already treat a `between` as a chance, not a promise (DSE pauses and resumes an
//! application, OCG and local search pick up from the archive as it is).
//!
//! Attribution is by value: a goal is the arm's when the archive's test for it, at the first
//! `between` that sees it covered, equals a test the arm injected. A goal the search covers and an
//! injected test then covers shorter before that call counts for the arm; one an injected test
//! covers and a shorter test of the search replaces before it counts for none. Tests the search
//! derived from an injected one (mutants, crossovers) count for the search.
//!
//! Not here: the rule itself (`allocation`), the gates (`gates`), building the hooks (the engine).

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use search::{Clock, Hook, ProblemError, View};
use testcase::{TestCase, TestRng};

use crate::Arm;
use crate::allocation::{Budget, Measure, PortfolioConfig, may_run, shares};
use crate::gates::Gate;
use crate::ledger::Ledger;
use crate::report::{ArmReport, report};

/// A hook whose deterministic work the portfolio can read. Hooks that count their own work
/// (DSE's evaluation equivalents, `dse::work`) say so; for the others each test they inject is one
/// unit, as the search counts an evaluation.
pub trait Metered<P: ?Sized>: Hook<P> {
    /// The work done so far, cumulative, in evaluation equivalents; `None`: count injected tests.
    fn work(&self) -> Option<u64> {
        None
    }
}

/// A hook with no meter of its own: each injected test is one unit of work.
pub struct Plain<'a, P: ?Sized>(pub &'a mut dyn Hook<P>);

impl<P: ?Sized> Hook<P> for Plain<'_, P> {
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut P,
        rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        self.0.between(view, problem, rng)
    }
}

impl<P: ?Sized> Metered<P> for Plain<'_, P> {}

/// A hook whose work a function reads from it: how the engine meters a hook of a crate below this
/// one without a type of its own (DSE: `WorkFrom::new(&mut dse, |d| dse::work(..))`).
pub struct WorkFrom<'a, H, F> {
    hook: &'a mut H,
    work: F,
}

impl<'a, H, F: Fn(&H) -> u64> WorkFrom<'a, H, F> {
    pub fn new(hook: &'a mut H, work: F) -> WorkFrom<'a, H, F> {
        WorkFrom { hook, work }
    }
}

impl<P: ?Sized, H: Hook<P>, F> Hook<P> for WorkFrom<'_, H, F> {
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut P,
        rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        self.hook.between(view, problem, rng)
    }
}

impl<P: ?Sized, H: Hook<P>, F: Fn(&H) -> u64> Metered<P> for WorkFrom<'_, H, F> {
    fn work(&self) -> Option<u64> {
        Some((self.work)(self.hook))
    }
}

/// One technique hook and its arm.
pub struct PortfolioArm<'h, P: ?Sized> {
    pub arm: Arm,
    pub hook: &'h mut dyn Metered<P>,
}

/// The portfolio over a run's technique hooks. See the module comment.
pub struct Portfolio<'h, P: ?Sized> {
    config: PortfolioConfig,
    measure: Measure,
    lead: f64,
    clock: &'h dyn Clock,
    /// The arms that may be called: hooks whose gate is open, in the order given.
    arms: Vec<PortfolioArm<'h, P>>,
    /// Each arm's last reading of `Metered::work`.
    last_work: Vec<u64>,
    gates: Vec<Gate>,
    ledger: Ledger,
    /// The hash of every test an arm injected, with the first arm that injected it.
    injected: BTreeMap<u64, Arm>,
    /// Goals seen covered at the last `between`.
    seen: Vec<bool>,
}

impl<'h, P: ?Sized> Portfolio<'h, P> {
    /// A portfolio for a run with `budget`, over `arms`, of which those whose gate in `gates` is
    /// closed are dropped (an arm without a row in `gates` counts as open). `clock` is the
    /// search's: it times the calls (and, under a time budget, decides).
    pub fn new(
        config: PortfolioConfig,
        budget: Budget,
        clock: &'h dyn Clock,
        arms: Vec<PortfolioArm<'h, P>>,
        gates: Vec<Gate>,
    ) -> Portfolio<'h, P> {
        let closed = |arm: Arm| gates.iter().any(|g| g.arm == arm && !g.open);
        let arms: Vec<PortfolioArm<'h, P>> = arms.into_iter().filter(|a| !closed(a.arm)).collect();
        let ids: Vec<Arm> = arms.iter().map(|a| a.arm).collect();
        Portfolio {
            lead: config.lead_for(budget),
            measure: budget.measure(),
            ledger: Ledger::new(&ids, config.gamma),
            config,
            clock,
            last_work: vec![0; arms.len()],
            arms,
            gates,
            injected: BTreeMap::new(),
            seen: Vec::new(),
        }
    }

    /// Charges `arm` for work done outside the search (SUSHI's exploration before the workers
    /// start), so that it counts against the arm's share like a call; an arm whose gate is closed
    /// or that is not in the portfolio is not charged.
    pub fn charge(&mut self, arm: Arm, time: std::time::Duration, work: u64) {
        self.ledger.charge(arm, time, work);
    }

    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The per-arm summary for report.json.
    pub fn report(&self) -> Vec<ArmReport> {
        report(&self.gates, &self.ledger, self.measure)
    }

    /// Credits each arm with the goals newly covered by a test it injected.
    fn credit(&mut self, view: &View<'_>) {
        let archive = view.archive();
        self.seen.resize(archive.n_goals(), false);
        let mut earned: BTreeMap<Arm, u64> = BTreeMap::new();
        for g in archive.covered_goals() {
            if std::mem::replace(&mut self.seen[g.index()], true) {
                continue;
            }
            if let Some(arm) = archive.test_for(g).and_then(|t| self.injected.get(&hash(t))) {
                *earned.entry(*arm).or_default() += 1;
            }
        }
        for (arm, goals) in earned {
            self.ledger.credit(arm, goals, view.iteration());
        }
    }

    /// The run's progress in the measure's unit: the clock's seconds, or the search's evaluations
    /// plus the arms' work (so that progress less the arms' cost is the search's evaluations, as
    /// `dse::within_share` counts them). Under an evaluation budget the clock is never read here.
    fn elapsed(&self, view: &View<'_>) -> f64 {
        match self.measure {
            Measure::Time => self.clock.elapsed().as_secs_f64(),
            Measure::Work => view.evaluations() as f64 + self.ledger.spent_all(Measure::Work),
        }
    }
}

fn hash(t: &TestCase) -> u64 {
    // `DefaultHasher::new` has fixed keys: the same test hashes the same in every run.
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

impl<P: ?Sized> Hook<P> for Portfolio<'_, P> {
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut P,
        rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        self.credit(view);
        let ids: Vec<Arm> = self.arms.iter().map(|a| a.arm).collect();
        let shares = shares(&self.config, self.measure, &self.ledger, &ids, view.iteration());
        let mut out = Vec::new();
        for i in 0..self.arms.len() {
            let arm = self.arms[i].arm;
            let spent = self.ledger.spent(arm, self.measure);
            let spent_all = self.ledger.spent_all(self.measure);
            if !may_run(spent, self.elapsed(view), spent_all, self.lead, shares.of(arm)) {
                self.ledger.hold(arm);
                continue;
            }
            let started = self.clock.elapsed();
            let tests = self.arms[i].hook.between(view, problem, rng)?;
            let time = self.clock.elapsed().saturating_sub(started);
            let work = match self.arms[i].hook.work() {
                Some(total) => total.saturating_sub(std::mem::replace(&mut self.last_work[i], total)),
                None => tests.len() as u64,
            };
            self.ledger.charge(arm, time, work);
            for t in &tests {
                self.injected.entry(hash(t)).or_insert(arm);
            }
            out.extend(tests);
        }
        Ok(out)
    }
}
