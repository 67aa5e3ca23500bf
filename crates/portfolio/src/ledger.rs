//! The ledger: per arm, what it cost and what it earned. Cost is kept both as wall time (what a
//! run with a time budget allocates by) and as deterministic work (evaluation equivalents, what a
//! run with an evaluation budget allocates by, so that a seed gives the same run on any machine);
//! the allocation reads the run's one `Measure`, never both. Earnings are goals first covered by a
//! test the arm injected (or that the arm counts as its own: SUSHI's solved path goals).
//!
//! Besides the totals (for the report and the share limit), earnings and cost are kept discounted
//! by the run's progress: each unit counts `gamma^(Δprogress / period)`, Δprogress the progress
//! made since it was booked, as the discounted UCB of switching bandits discounts rewards and pulls
//! alike (Garivier and Moulines, ALT 2011). So an arm's weight is its recent rate, goals per
//! recent cost: an arm that paid early and then stopped paying loses its weight, and one held back
//! for long is weighed again as if fresh (paper 004 adapts its probability P the same way, by
//! what the last applications gave). Discounting by progress rather than by generation keeps the
//! memory a fixed part of the budget: a generation takes 1 ms on one class and a second on
//! another, and per generation an early application's goals were forgotten within a second
//! (CSVFormat at 30 s: DSE held back at its last 402 `between`s).
//!
//! Not here: deciding anything (`allocation`), or finding out which goals an arm earned (`hook`).

use std::time::Duration;

use crate::Arm;
use crate::allocation::Measure;

/// How fast the past fades: by `gamma` per `period` of progress (in the measure's unit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decay {
    pub gamma: f64,
    pub period: f64,
}

impl Decay {
    /// The weight now, at progress `now`, of what was booked at progress `at`.
    fn factor(self, at: f64, now: f64) -> f64 {
        if self.period <= 0.0 {
            return 1.0;
        }
        self.gamma.powf((now - at).max(0.0) / self.period)
    }
}

/// A quantity discounted by progress: its value as of progress `at`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Faded {
    value: f64,
    at: f64,
}

impl Faded {
    fn read(self, decay: Decay, now: f64) -> f64 {
        self.value * decay.factor(self.at, now)
    }

    fn add(&mut self, amount: f64, decay: Decay, now: f64) {
        let at = self.at.max(now);
        *self = Faded { value: self.read(decay, at) + amount, at };
    }
}

/// One arm's account.
#[derive(Debug, Clone, PartialEq)]
pub struct Account {
    pub arm: Arm,
    /// Wall time of its calls, as the search's clock measured them, and of work done for it before
    /// the search (SUSHI's exploration).
    pub time: Duration,
    /// Its deterministic work, in evaluation equivalents, calls and before the search.
    pub work: u64,
    /// Of those, what was done before the search: in the arm's weight and the report, not in its
    /// share of the search (it was paid for out of the budget before the search began).
    pub before: (Duration, u64),
    /// Calls made, and `between` calls at which the rule held it back.
    pub calls: u64,
    pub held: u64,
    /// Goals it earned, not discounted (for the report).
    pub earned: u64,
    /// Earnings and cost in the ledger's measure, discounted by progress.
    recent_earned: Faded,
    recent_cost: Faded,
}

impl Account {
    fn new(arm: Arm) -> Account {
        Account {
            arm,
            time: Duration::ZERO,
            work: 0,
            before: (Duration::ZERO, 0),
            calls: 0,
            held: 0,
            earned: 0,
            recent_earned: Faded::default(),
            recent_cost: Faded::default(),
        }
    }

    /// What its calls spent in `measure`'s unit: seconds or evaluation equivalents.
    pub fn spent(&self, measure: Measure) -> f64 {
        match measure {
            Measure::Time => self.time.saturating_sub(self.before.0).as_secs_f64(),
            Measure::Work => self.work.saturating_sub(self.before.1) as f64,
        }
    }

    /// What it was given in all, its calls and before the search, in `measure`'s unit.
    pub fn given(&self, measure: Measure) -> f64 {
        match measure {
            Measure::Time => self.time.as_secs_f64(),
            Measure::Work => self.work as f64,
        }
    }
}

/// Every arm's account, in the order the arms were given.
#[derive(Debug, Clone, PartialEq)]
pub struct Ledger {
    accounts: Vec<Account>,
    measure: Measure,
    decay: Decay,
}

impl Ledger {
    /// Empty accounts for `arms`, discounting in `measure`'s unit by `decay`.
    pub fn new(arms: &[Arm], measure: Measure, decay: Decay) -> Ledger {
        Ledger { accounts: arms.iter().map(|&a| Account::new(a)).collect(), measure, decay }
    }

    pub fn accounts(&self) -> &[Account] {
        &self.accounts
    }

    pub fn account(&self, arm: Arm) -> Option<&Account> {
        self.accounts.iter().find(|a| a.arm == arm)
    }

    fn account_mut(&mut self, arm: Arm) -> Option<&mut Account> {
        self.accounts.iter_mut().find(|a| a.arm == arm)
    }

    /// One call of `arm` that took `time` and did `work`, ending at progress `now`.
    pub fn charge(&mut self, arm: Arm, time: Duration, work: u64, now: f64) {
        self.book(arm, time, work, now);
        if let Some(a) = self.account_mut(arm) {
            a.calls += 1;
        }
    }

    /// Work done for `arm` before the search (progress 0), which is not a call: it weighs in the
    /// arm's rate (goals per cost) but not in its share of the search, which the search's budget
    /// already paid for (SUSHI's exploration shortens a time budget); holding the arm's cheap calls
    /// back would not get it back, and would leave its goals unchecked.
    pub fn charge_before(&mut self, arm: Arm, time: Duration, work: u64) {
        self.book(arm, time, work, 0.0);
        if let Some(a) = self.account_mut(arm) {
            a.before = (a.before.0 + time, a.before.1 + work);
        }
    }

    fn book(&mut self, arm: Arm, time: Duration, work: u64, now: f64) {
        let (measure, decay) = (self.measure, self.decay);
        if let Some(a) = self.account_mut(arm) {
            a.time += time;
            a.work += work;
            let cost = match measure {
                Measure::Time => time.as_secs_f64(),
                Measure::Work => work as f64,
            };
            a.recent_cost.add(cost, decay, now);
        }
    }

    /// One `between` at which the rule held `arm` back.
    pub fn hold(&mut self, arm: Arm) {
        if let Some(a) = self.account_mut(arm) {
            a.held += 1;
        }
    }

    /// `goals` earned by `arm`, seen at progress `now`.
    pub fn credit(&mut self, arm: Arm, goals: u64, now: f64) {
        let decay = self.decay;
        if let Some(a) = self.account_mut(arm) {
            a.recent_earned.add(goals as f64, decay, now);
            a.earned += goals;
        }
    }

    /// `arm`'s discounted earnings and cost as of progress `now` (0 for an arm not in the ledger).
    pub fn recent(&self, arm: Arm, now: f64) -> (f64, f64) {
        self.account(arm).map_or((0.0, 0.0), |a| {
            (a.recent_earned.read(self.decay, now), a.recent_cost.read(self.decay, now))
        })
    }

    /// What `arm`'s calls spent, in the ledger's measure.
    pub fn spent(&self, arm: Arm) -> f64 {
        self.account(arm).map_or(0.0, |a| a.spent(self.measure))
    }

    /// What every arm's calls spent together.
    pub fn spent_all(&self) -> f64 {
        self.accounts.iter().map(|a| a.spent(self.measure)).sum()
    }

    pub fn measure(&self) -> Measure {
        self.measure
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// Halving every 3 units of progress: 10 goals at 2 are worth 5 at 5 and 2.5 at 8; one more at
    /// 8 makes 3.5, worth 1.75 at 11. Cost fades the same way.
    #[test]
    fn earnings_and_cost_halve_every_period() {
        let mut l = Ledger::new(&[Arm::Dse, Arm::Ocg], Measure::Time, Decay { gamma: 0.5, period: 3.0 });
        l.credit(Arm::Dse, 10, 2.0);
        assert!(close(l.recent(Arm::Dse, 5.0).0, 5.0));
        assert!(close(l.recent(Arm::Dse, 8.0).0, 2.5));
        l.credit(Arm::Dse, 1, 8.0);
        assert!(close(l.recent(Arm::Dse, 11.0).0, 1.75));
        // Reading before the last booking reads the booked value.
        assert!(close(l.recent(Arm::Dse, 1.0).0, 3.5));
        assert_eq!(l.account(Arm::Dse).map(|a| a.earned), Some(11));
        l.charge(Arm::Ocg, Duration::from_secs(4), 9, 1.0);
        assert!(close(l.recent(Arm::Ocg, 4.0).1, 2.0));
        assert_eq!(l.recent(Arm::Sushi, 6.0), (0.0, 0.0));
    }

    #[test]
    fn costs_are_kept_in_both_units_and_read_in_the_ledgers() {
        let decay = Decay { gamma: 0.5, period: 100.0 };
        let mut l = Ledger::new(&[Arm::Dse, Arm::LocalSearch], Measure::Work, decay);
        l.charge_before(Arm::LocalSearch, Duration::from_millis(250), 6);
        l.charge(Arm::Dse, Duration::from_millis(1_500), 40, 10.0);
        l.charge(Arm::Dse, Duration::from_millis(500), 2, 10.0);
        l.charge(Arm::LocalSearch, Duration::from_millis(250), 12, 10.0);
        l.hold(Arm::LocalSearch);
        assert_eq!(l.spent(Arm::Dse), 42.0);
        // The work before the search is in the arm's rate and its total, not in its share.
        assert_eq!(l.spent_all(), 54.0);
        assert_eq!(l.account(Arm::LocalSearch).map(|a| a.given(Measure::Work)), Some(18.0));
        assert!(close(l.recent(Arm::Dse, 10.0).1, 42.0));
        // Work before the search was booked at progress 0: it had faded by 10 when the call came.
        assert!(close(l.recent(Arm::LocalSearch, 10.0).1, 12.0 + 6.0 * 0.5f64.powf(0.1)));
        let ls = l.account(Arm::LocalSearch).cloned();
        assert_eq!(ls.map(|a| (a.calls, a.held, a.time)), Some((1, 1, Duration::from_millis(500))));
    }
}
