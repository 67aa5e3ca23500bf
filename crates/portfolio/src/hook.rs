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
use crate::allocation::{Allowance, Budget, Measure, PortfolioConfig, allowance, may_run, shares};
use crate::gates::Gate;
use crate::ledger::Ledger;
use crate::report::{ArmReport, report};

/// A hook as the portfolio sees it: what it did besides the tests it injects, and the limit of its
/// next call. Every method has a default, for hooks that meter nothing of their own.
pub trait Metered<P: ?Sized>: Hook<P> {
    /// The work done so far, cumulative, in evaluation equivalents (DSE's, `dse::Dse::work`);
    /// `None`: each injected test is one unit, as the search counts an evaluation.
    fn work(&self) -> Option<u64> {
        None
    }

    /// Goals the hook earned by its own account so far, cumulative, besides those covered by tests
    /// it injected: a hook that adds goals rather than tests (SUSHI's path goals, solved and
    /// checked) would otherwise never earn.
    fn earned(&self) -> u64 {
        0
    }

    /// The most its next call may spend; a hook whose calls are short ignores it, a hook whose
    /// one call can be long (a DSE application) stops there and goes on at its next call.
    fn allow(&mut self, _allowance: Allowance) {}
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
    /// Each arm's last reading of `Metered::work` and `Metered::earned`.
    last_work: Vec<u64>,
    last_earned: Vec<u64>,
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
            ledger: Ledger::new(&ids, budget.measure(), config.decay_for(budget)),
            config,
            clock,
            last_work: vec![0; arms.len()],
            last_earned: vec![0; arms.len()],
            arms,
            gates,
            injected: BTreeMap::new(),
            seen: Vec::new(),
        }
    }

    /// Charges `arm` for work done before the search (SUSHI's exploration before the workers
    /// start): it weighs in the arm's rate and is reported, but does not hold its calls back
    /// (`Ledger::charge_before`); an arm whose gate is closed or that is not in the portfolio is
    /// not charged.
    pub fn charge(&mut self, arm: Arm, time: std::time::Duration, work: u64) {
        self.ledger.charge_before(arm, time, work);
    }

    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The per-arm summary for report.json.
    pub fn report(&self) -> Vec<ArmReport> {
        report(&self.gates, &self.ledger)
    }

    /// Credits each arm with the goals newly covered by a test it injected, and with those it
    /// counts as its own (`Metered::earned`).
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
        for (i, a) in self.arms.iter().enumerate() {
            let total = a.hook.earned();
            let new = total.saturating_sub(std::mem::replace(&mut self.last_earned[i], total));
            if new > 0 {
                *earned.entry(a.arm).or_default() += new;
            }
        }
        let now = self.elapsed(view);
        for (arm, goals) in earned {
            self.ledger.credit(arm, goals, now);
        }
    }

    /// The run's progress in the measure's unit: the clock's seconds, or the search's evaluations
    /// plus the arms' work (so that progress less the arms' cost is the search's evaluations, as
    /// `dse::within_share` counts them). Under an evaluation budget the clock is never read here.
    fn elapsed(&self, view: &View<'_>) -> f64 {
        match self.measure {
            Measure::Time => self.clock.elapsed().as_secs_f64(),
            Measure::Work => view.evaluations() as f64 + self.ledger.spent_all(),
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
        let shares = shares(&self.config, &self.ledger, &ids, self.elapsed(view));
        let mut out = Vec::new();
        for i in 0..self.arms.len() {
            let arm = self.arms[i].arm;
            let first_call = self.ledger.account(arm).is_none_or(|a| a.calls == 0);
            let state = (self.ledger.spent(arm), self.elapsed(view), self.ledger.spent_all());
            let share = shares.of(arm);
            if !first_call && !may_run(state.0, state.1, state.2, self.lead, share) {
                self.ledger.hold(arm);
                continue;
            }
            let allowed = allowance(&self.config, first_call, state, self.lead, share);
            self.arms[i].hook.allow(Allowance::new(self.measure, allowed));
            let started = self.clock.elapsed();
            let tests = self.arms[i].hook.between(view, problem, rng)?;
            let time = self.clock.elapsed().saturating_sub(started);
            let work = match self.arms[i].hook.work() {
                Some(total) => total.saturating_sub(std::mem::replace(&mut self.last_work[i], total)),
                None => tests.len() as u64,
            };
            let now = self.elapsed(view);
            self.ledger.charge(arm, time, work, now);
            for t in &tests {
                self.injected.entry(hash(t)).or_insert(arm);
            }
            out.extend(tests);
        }
        Ok(out)
    }
}
