//! The ledger: per arm, what it cost and what it earned. Cost is kept both as wall time (what a
//! run with a time budget allocates by) and as deterministic work (evaluation equivalents, what a
//! run with an evaluation budget allocates by, so that a seed gives the same run on any machine);
//! the allocation reads one of the two (`Measure`), never both. Earnings are goals first covered
//! by a test the arm injected, discounted by `gamma` per generation, so that an arm that paid early
//! and then stopped paying loses its weight (paper 004 adapts its probability P the same way, by
//! what the last applications gave).
//!
//! Not here: deciding anything (`allocation`), or finding out which goals an arm earned (`hook`).

use std::time::Duration;

use crate::Arm;
use crate::allocation::Measure;

/// One arm's account.
#[derive(Debug, Clone, PartialEq)]
pub struct Account {
    pub arm: Arm,
    /// Wall time of its calls, as the search's clock measured them.
    pub time: Duration,
    /// Its deterministic work, in evaluation equivalents.
    pub work: u64,
    /// Calls made, and `between` calls at which the rule held it back.
    pub calls: u64,
    pub held: u64,
    /// Goals first covered by a test it injected, not discounted (for the report).
    pub earned: u64,
    /// The discounted earnings as of generation `at`.
    discounted: f64,
    at: u64,
}

impl Account {
    fn new(arm: Arm) -> Account {
        Account { arm, time: Duration::ZERO, work: 0, calls: 0, held: 0, earned: 0, discounted: 0.0, at: 0 }
    }

    /// The discounted earnings as of `generation`: each goal earned at generation k counts
    /// `gamma^(generation - k)`. A generation before the last credit reads as that credit's.
    pub fn discounted(&self, generation: u64, gamma: f64) -> f64 {
        self.discounted * decay(gamma, generation.saturating_sub(self.at))
    }

    /// What it spent in `measure`'s unit: seconds or evaluation equivalents.
    pub fn spent(&self, measure: Measure) -> f64 {
        match measure {
            Measure::Time => self.time.as_secs_f64(),
            Measure::Work => self.work as f64,
        }
    }
}

fn decay(gamma: f64, generations: u64) -> f64 {
    gamma.powi(i32::try_from(generations).unwrap_or(i32::MAX))
}

/// Every arm's account, in the order the arms were given.
#[derive(Debug, Clone, PartialEq)]
pub struct Ledger {
    accounts: Vec<Account>,
    gamma: f64,
}

impl Ledger {
    /// Empty accounts for `arms`; earnings discounted by `gamma` per generation.
    pub fn new(arms: &[Arm], gamma: f64) -> Ledger {
        Ledger { accounts: arms.iter().map(|&a| Account::new(a)).collect(), gamma }
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

    /// One call of `arm` that took `time` and did `work`.
    pub fn charge(&mut self, arm: Arm, time: Duration, work: u64) {
        if let Some(a) = self.account_mut(arm) {
            a.time += time;
            a.work += work;
            a.calls += 1;
        }
    }

    /// One `between` at which the rule held `arm` back.
    pub fn hold(&mut self, arm: Arm) {
        if let Some(a) = self.account_mut(arm) {
            a.held += 1;
        }
    }

    /// `goals` first covered at `generation` by tests `arm` injected.
    pub fn credit(&mut self, arm: Arm, goals: u64, generation: u64) {
        let gamma = self.gamma;
        if let Some(a) = self.account_mut(arm) {
            a.discounted = a.discounted(generation, gamma) + goals as f64;
            a.at = a.at.max(generation);
            a.earned += goals;
        }
    }

    /// `arm`'s discounted earnings as of `generation` (0 for an arm not in the ledger).
    pub fn discounted(&self, arm: Arm, generation: u64) -> f64 {
        self.account(arm).map_or(0.0, |a| a.discounted(generation, self.gamma))
    }

    /// What `arm` spent in `measure`'s unit.
    pub fn spent(&self, arm: Arm, measure: Measure) -> f64 {
        self.account(arm).map_or(0.0, |a| a.spent(measure))
    }

    /// What every arm spent together.
    pub fn spent_all(&self, measure: Measure) -> f64 {
        self.accounts.iter().map(|a| a.spent(measure)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earnings_decay_by_gamma_per_generation() {
        let mut l = Ledger::new(&[Arm::Dse, Arm::Ocg], 0.9);
        l.credit(Arm::Dse, 10, 2);
        // Three generations later: 10 * 0.9^3 = 7.29.
        assert!((l.discounted(Arm::Dse, 5) - 7.29).abs() < 1e-12);
        // A credit at generation 5 adds to the decayed value: 7.29 + 1, then one more generation.
        l.credit(Arm::Dse, 1, 5);
        assert!((l.discounted(Arm::Dse, 6) - 8.29 * 0.9).abs() < 1e-12);
        assert_eq!(l.account(Arm::Dse).map(|a| a.earned), Some(11));
        assert_eq!(l.discounted(Arm::Ocg, 6), 0.0);
        assert_eq!(l.discounted(Arm::Sushi, 6), 0.0);
    }

    #[test]
    fn costs_are_kept_in_both_units_and_read_in_one() {
        let mut l = Ledger::new(&[Arm::Dse, Arm::LocalSearch], 0.9);
        l.charge(Arm::Dse, Duration::from_millis(1_500), 40);
        l.charge(Arm::Dse, Duration::from_millis(500), 2);
        l.charge(Arm::LocalSearch, Duration::from_millis(250), 12);
        l.hold(Arm::LocalSearch);
        assert_eq!(l.spent(Arm::Dse, Measure::Time), 2.0);
        assert_eq!(l.spent(Arm::Dse, Measure::Work), 42.0);
        assert_eq!(l.spent_all(Measure::Time), 2.25);
        assert_eq!(l.spent_all(Measure::Work), 54.0);
        let ls = l.account(Arm::LocalSearch).cloned();
        assert_eq!(ls.map(|a| (a.calls, a.held)), Some((1, 1)));
    }
}
