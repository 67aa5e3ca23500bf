//! The online allocation: how much of the search each hook arm may take, from what it earned per
//! unit of what it cost (docs/portfolio.md). With `E_i` an arm's discounted earnings and `C_i` its
//! cost so far, in the run's measure:
//!
//! ```text
//! weight_i = (E_i + prior) / (C_i + c0)            E, C discounted by progress (`ledger`)
//! share_i  = clamp(weight_i / Σ_j weight_j, floor, ceiling)
//! arm i may run  iff  it was never called, or  T_i ≤ share_i × max(elapsed − Σ_j T_j, lead)
//! ```
//!
//! with `T_i` the arm's total cost. `prior` and `c0` make a new arm's weight `prior / c0` (it has
//! not paid yet, and nothing says it will not), and keep an arm that earned once early from
//! dividing by almost nothing. An arm that may run is allowed, for that call, what is left of its
//! share (`allowance`): hooks whose one call can be long (a DSE application) stop there and go on
//! at their next call. The floor
//! keeps every open arm trying (a technique may start paying once the search has built the objects
//! it needs); the ceiling keeps one from eating the search. The last line is DSE's time share
//! (`dse::within_time_share`) for every arm: the arm's cost against the search's own progress (the
//! run without the arms), never against less than the lead, so that arms may work at the start.
//! With one arm and a constant share it is exactly DSE's rule.
//!
//! Under an evaluation budget (`Measure::Work`) every number here is a deterministic count: costs
//! in evaluation equivalents, progress in the search's evaluations, so a seed gives the same
//! decisions on every machine. Under a time budget only (`Measure::Time`) they are seconds of the
//! search's clock; such a run stops on the clock anyway.
//!
//! Not here: the ledger's bookkeeping (`ledger`), calling hooks (`hook`).

use std::time::Duration;

use crate::Arm;
use crate::ledger::{Decay, Ledger};

/// The unit a run allocates in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Seconds of the search's clock: runs with a time budget only.
    Time,
    /// Evaluation equivalents: runs with an evaluation budget, which must be byte-identical for a
    /// seed.
    Work,
}

/// The search's budget as the portfolio needs it: the measure follows from it, and the lead is a
/// fraction of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    Time(Duration),
    Evaluations(u64),
}

impl Budget {
    /// The portfolio's view of the search's budget: a time budget alone allocates by time, any
    /// evaluation budget by work (the run must then be byte-identical for a seed), as
    /// `dse::ShareBy` is chosen today. No budget at all allocates by work with no lead.
    pub fn of(budget: &search::Budget) -> Budget {
        match (budget.time, budget.evaluations) {
            (Some(t), None) => Budget::Time(t),
            (_, n) => Budget::Evaluations(n.unwrap_or(0)),
        }
    }

    pub fn measure(self) -> Measure {
        match self {
            Budget::Time(_) => Measure::Time,
            Budget::Evaluations(_) => Measure::Work,
        }
    }

    /// The whole budget in the measure's unit.
    pub fn amount(self) -> f64 {
        match self {
            Budget::Time(t) => t.as_secs_f64(),
            Budget::Evaluations(n) => n as f64,
        }
    }
}

/// The parameters of the rule. No `Default`: `standard` is the product's.
#[derive(Debug, Clone, PartialEq)]
pub struct PortfolioConfig {
    /// Discount of earnings and cost per `period` of progress.
    pub gamma: f64,
    /// The period, as a fraction of the budget (never less than `c0`).
    pub period: f64,
    /// Goals every arm is credited before it earns any.
    pub prior: f64,
    /// Cost every arm is charged before it spends any: seconds (`Measure::Time`) and evaluation
    /// equivalents (`Measure::Work`).
    pub c0_seconds: f64,
    pub c0_work: f64,
    /// Bounds of each arm's share of the search's own progress.
    pub floor: f64,
    pub ceiling: f64,
    /// The lead, as a fraction of the budget: the progress arms are measured against at least.
    pub lead: f64,
}

/// A parameter out of its range.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ConfigError {
    #[error("gamma must be in (0, 1], not {0}")]
    Gamma(f64),
    #[error("the discount period must be a fraction of the budget in (0, 1], not {0}")]
    Period(f64),
    #[error("prior and c0 must be positive (prior {prior}, c0 {c0_seconds} s, {c0_work} evaluations)")]
    Priors { prior: f64, c0_seconds: f64, c0_work: f64 },
    #[error("need 0 <= floor <= ceiling <= 1, not floor {floor} and ceiling {ceiling}")]
    Bounds { floor: f64, ceiling: f64 },
    #[error("the lead must be a fraction of the budget in [0, 1], not {0}")]
    Lead(f64),
}

impl PortfolioConfig {
    /// The product's parameters (docs/portfolio.md, "Parameters"): earnings and cost halve every
    /// tenth of the budget; one goal and one second (500 evaluation equivalents, a JVM evaluation
    /// being about 2 ms: `dse::budget`) of prior, so a fresh arm weighs one goal per second; a
    /// floor of 5 % and a ceiling of 40 % of the search's own progress; a lead of a quarter of
    /// the budget, as DSE's time share has.
    pub fn standard() -> PortfolioConfig {
        PortfolioConfig {
            gamma: 0.5,
            period: 0.1,
            prior: 1.0,
            c0_seconds: 1.0,
            c0_work: 500.0,
            floor: 0.05,
            ceiling: 0.4,
            lead: 0.25,
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(self.gamma > 0.0 && self.gamma <= 1.0) {
            return Err(ConfigError::Gamma(self.gamma));
        }
        if !(self.period > 0.0 && self.period <= 1.0) {
            return Err(ConfigError::Period(self.period));
        }
        if !(self.prior > 0.0 && self.c0_seconds > 0.0 && self.c0_work > 0.0) {
            let (prior, c0_seconds, c0_work) = (self.prior, self.c0_seconds, self.c0_work);
            return Err(ConfigError::Priors { prior, c0_seconds, c0_work });
        }
        if !(0.0 <= self.floor && self.floor <= self.ceiling && self.ceiling <= 1.0) {
            return Err(ConfigError::Bounds { floor: self.floor, ceiling: self.ceiling });
        }
        if !(0.0..=1.0).contains(&self.lead) {
            return Err(ConfigError::Lead(self.lead));
        }
        Ok(())
    }

    /// `c0` in `measure`'s unit.
    pub fn c0(&self, measure: Measure) -> f64 {
        match measure {
            Measure::Time => self.c0_seconds,
            Measure::Work => self.c0_work,
        }
    }

    /// The lead of a run with `budget`, in its measure's unit.
    pub fn lead_for(&self, budget: Budget) -> f64 {
        self.lead * budget.amount()
    }

    /// The discount of a run with `budget`: `gamma` per `period` of the budget, and never per less
    /// than `c0` (a run without a budget has an amount of 0).
    pub fn decay_for(&self, budget: Budget) -> Decay {
        Decay { gamma: self.gamma, period: (self.period * budget.amount()).max(self.c0(budget.measure())) }
    }
}

/// An arm's weight: earnings plus the prior per cost plus `c0`.
pub fn weight(earned: f64, cost: f64, prior: f64, c0: f64) -> f64 {
    (earned + prior) / (cost + c0)
}

/// Each arm's share, in the order asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Shares(pub Vec<(Arm, f64)>);

impl Shares {
    pub fn of(&self, arm: Arm) -> f64 {
        self.0.iter().find(|(a, _)| *a == arm).map_or(0.0, |(_, s)| *s)
    }
}

/// The shares of `arms` (the open hook arms) from the ledger as of progress `now`.
pub fn shares(config: &PortfolioConfig, ledger: &Ledger, arms: &[Arm], now: f64) -> Shares {
    let c0 = config.c0(ledger.measure());
    let weights: Vec<f64> = arms
        .iter()
        .map(|&a| {
            let (earned, cost) = ledger.recent(a, now);
            weight(earned, cost, config.prior, c0)
        })
        .collect();
    let total: f64 = weights.iter().sum();
    Shares(
        arms.iter()
            .zip(&weights)
            .map(|(&a, &w)| (a, (w / total).clamp(config.floor, config.ceiling)))
            .collect(),
    )
}

/// Whether an arm that spent `spent` may run now, with `share`, when the run has progressed
/// `elapsed` and every arm together spent `spent_all` (all in one measure's unit).
pub fn may_run(spent: f64, elapsed: f64, spent_all: f64, lead: f64, share: f64) -> bool {
    spent <= limit(elapsed, spent_all, lead, share)
}

/// What an arm may have spent in all now: `share` of the search's own progress, or of the lead.
fn limit(elapsed: f64, spent_all: f64, lead: f64, share: f64) -> f64 {
    share * (elapsed - spent_all).max(lead).max(0.0)
}

/// What one call of an arm may spend (in the measure's unit): what is left of its share now. An
/// arm's first call, which runs whatever it spent before the search, may spend at least the floor
/// of the lead. While a call runs the search's own progress stands still (the clock and the arm's
/// cost advance together), so the limit does not move during the call.
pub fn allowance(
    config: &PortfolioConfig,
    first_call: bool,
    (spent, elapsed, spent_all): (f64, f64, f64),
    lead: f64,
    share: f64,
) -> f64 {
    let left = (limit(elapsed, spent_all, lead, share) - spent).max(0.0);
    if first_call { left.max(config.floor * lead) } else { left }
}

/// The most one call of a hook may spend, in the run's measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Allowance {
    /// Seconds of the search's clock.
    Seconds(f64),
    /// Evaluation equivalents of the hook's own meter.
    Work(u64),
}

impl Allowance {
    pub fn new(measure: Measure, amount: f64) -> Allowance {
        match measure {
            Measure::Time => Allowance::Seconds(amount),
            Measure::Work => Allowance::Work(amount.ceil() as u64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    fn ledger(arms: &[Arm], budget: Budget) -> Ledger {
        Ledger::new(arms, budget.measure(), PortfolioConfig::standard().decay_for(budget))
    }

    const TWO_MINUTES: Budget = Budget::Time(Duration::from_secs(120));

    /// Three arms 50 s into a run with a 120 s budget (lead 30 s), everything booked at 50 s. DSE
    /// earned 4 in 3 s: (4 + 1) / (3 + 1) = 1.25. OCG earned nothing in 9 s: 1 / 10 = 0.1. Local
    /// search earned 1 in a call of no measurable time: (1 + 1) / (0 + 1) = 2. Σ = 3.35; raw
    /// shares 0.3731, 0.0299, 0.5970; clamped 0.3731, 0.05 (floor), 0.4 (ceiling).
    #[test]
    fn worked_example_by_time() {
        let c = PortfolioConfig::standard();
        let mut l = ledger(&[Arm::Dse, Arm::Ocg, Arm::LocalSearch], TWO_MINUTES);
        l.charge(Arm::Dse, Duration::from_secs(3), 0, 50.0);
        l.credit(Arm::Dse, 4, 50.0);
        l.charge(Arm::Ocg, Duration::from_secs(9), 0, 50.0);
        l.charge(Arm::LocalSearch, Duration::ZERO, 0, 50.0);
        l.credit(Arm::LocalSearch, 1, 50.0);
        let s = shares(&c, &l, &[Arm::Dse, Arm::Ocg, Arm::LocalSearch], 50.0);
        assert!(close(s.of(Arm::Dse), 1.25 / 3.35), "{s:?}");
        assert!(close(s.of(Arm::Ocg), 0.05), "{s:?}");
        assert!(close(s.of(Arm::LocalSearch), 0.4), "{s:?}");
        // At 50 s, the arms spent 12 s: the search's own progress is 38 s, past the lead.
        let lead = c.lead_for(TWO_MINUTES);
        assert_eq!(lead, 30.0);
        // DSE: 3 <= 0.3731 * 38 = 14.2. OCG: 9 > 0.05 * 38 = 1.9. Local search: 0 <= 15.2.
        assert!(may_run(3.0, 50.0, 12.0, lead, s.of(Arm::Dse)));
        assert!(!may_run(9.0, 50.0, 12.0, lead, s.of(Arm::Ocg)));
        assert!(may_run(0.0, 50.0, 12.0, lead, s.of(Arm::LocalSearch)));
        // DSE's next call may take what is left of its share: 14.18 - 3 = 11.18 s.
        let left = allowance(&c, false, (3.0, 50.0, 12.0), lead, s.of(Arm::Dse));
        assert!(close(left, 38.0 * 1.25 / 3.35 - 3.0), "{left}");
        // Early on the lead counts: at 10 s (own 4 s) OCG's floor allows 0.05 * 30 = 1.5 s.
        assert!(may_run(1.5, 10.0, 6.0, lead, 0.05));
        assert!(!may_run(1.6, 10.0, 6.0, lead, 0.05));
        // OCG would run again once the search's own progress reached 9 / 0.05 = 180 s.
        assert!(!may_run(9.0, 191.0, 12.0, lead, 0.05));
        assert!(may_run(9.0, 193.0, 12.0, lead, 0.05));
        // A first call may take the floor of the lead even when the arm's share is used up.
        assert_eq!(allowance(&c, true, (4.0, 5.0, 4.0), lead, 0.05), 1.5);
        assert_eq!(allowance(&c, false, (4.0, 5.0, 4.0), lead, 0.05), 0.0);
    }

    /// One period later (a tenth of the 120 s budget, 12 s) earnings and cost count half: DSE
    /// (2 + 1) / (1.5 + 1) = 1.2, OCG 1 / (4.5 + 1) = 0.1818; Σ 1.3818: DSE 0.868 -> 0.4, OCG
    /// 0.1316. Ten periods later both weigh about as much as a fresh arm.
    #[test]
    fn earnings_and_cost_fade_by_progress() {
        let c = PortfolioConfig::standard();
        let mut l = ledger(&[Arm::Dse, Arm::Ocg], TWO_MINUTES);
        l.charge(Arm::Dse, Duration::from_secs(3), 0, 50.0);
        l.credit(Arm::Dse, 4, 50.0);
        l.charge(Arm::Ocg, Duration::from_secs(9), 0, 50.0);
        let s = shares(&c, &l, &[Arm::Dse, Arm::Ocg], 62.0);
        assert!(close(s.of(Arm::Dse), 0.4));
        assert!(close(s.of(Arm::Ocg), (1.0 / 5.5) / (1.2 + 1.0 / 5.5)), "{s:?}");
        let s = shares(&c, &l, &[Arm::Dse, Arm::Ocg], 170.0);
        assert_eq!(s, Shares(vec![(Arm::Dse, 0.4), (Arm::Ocg, 0.4)]));
        let w = |a| {
            let (e, cost) = l.recent(a, 170.0);
            weight(e, cost, c.prior, c.c0_seconds)
        };
        assert!((w(Arm::Dse) - 1.0).abs() < 0.01 && (w(Arm::Ocg) - 1.0).abs() < 0.01);
    }

    /// Under an evaluation budget: DSE earned 3 for 1,500 evaluation equivalents,
    /// (3 + 1) / (1500 + 500) = 0.002; SUSHI has not run, 1 / 500 = 0.002. Equal weights, half
    /// each, both at the ceiling. After 2,000 evaluations (lead: a quarter of 4,000 = 1,000),
    /// DSE may spend 0.4 * 2,000 = 800 and has spent 1,500; SUSHI has spent none.
    #[test]
    fn worked_example_by_work() {
        let c = PortfolioConfig::standard();
        let budget = Budget::Evaluations(4_000);
        // A tenth of 4,000 is less than c0: the period is 500 evaluation equivalents.
        assert_eq!(c.decay_for(budget).period, 500.0);
        let mut l = ledger(&[Arm::Dse, Arm::Sushi], budget);
        l.charge(Arm::Dse, Duration::from_secs(7), 1_500, 3_500.0);
        l.credit(Arm::Dse, 3, 3_500.0);
        let s = shares(&c, &l, &[Arm::Dse, Arm::Sushi], 3_500.0);
        assert_eq!(s, Shares(vec![(Arm::Dse, 0.4), (Arm::Sushi, 0.4)]));
        let lead = c.lead_for(budget);
        assert_eq!(lead, 1_000.0);
        // Work mode's progress is the search's evaluations plus the arms' work.
        let spent_all = l.spent_all();
        assert!(!may_run(1_500.0, 2_000.0 + spent_all, spent_all, lead, 0.4));
        assert!(may_run(0.0, 2_000.0 + spent_all, spent_all, lead, 0.4));
        assert_eq!(Allowance::new(Measure::Work, 800.2), Allowance::Work(801));
        // Wall time is in the ledger but no part of the decision: the same numbers with 0 s.
        let mut l2 = ledger(&[Arm::Dse, Arm::Sushi], budget);
        l2.charge(Arm::Dse, Duration::ZERO, 1_500, 3_500.0);
        l2.credit(Arm::Dse, 3, 3_500.0);
        assert_eq!(shares(&c, &l2, &[Arm::Dse, Arm::Sushi], 3_500.0), s);
    }

    /// DSE's time share is the case of one arm with the constant share 0.25: the numbers of
    /// `dse::budget`'s own test give the same answers.
    #[test]
    fn one_arm_with_a_constant_share_is_dses_time_share() {
        let lead = 15.0;
        let dse = |spent: f64, elapsed: f64| may_run(spent, elapsed, spent, lead, 0.25);
        assert!(dse(10.0, 50.0));
        assert!(!dse(11.0, 50.0));
        assert!(dse(3.75, 4.0));
        assert!(!dse(3.751, 4.0));
        assert!(!may_run(0.001, 0.0, 0.001, 0.0, 0.25));
    }

    #[test]
    fn a_time_budget_alone_allocates_by_time_any_evaluation_budget_by_work() {
        let t = Duration::from_secs(60);
        assert_eq!(Budget::of(&search::Budget::time(t)), Budget::Time(t));
        assert_eq!(Budget::of(&search::Budget::evaluations(900)), Budget::Evaluations(900));
        let both = search::Budget { time: Some(t), evaluations: Some(900) };
        assert_eq!(Budget::of(&both).measure(), Measure::Work);
        let none = search::Budget { time: None, evaluations: None };
        let c = PortfolioConfig::standard();
        assert_eq!(c.lead_for(Budget::of(&none)), 0.0);
        assert_eq!(c.decay_for(Budget::of(&none)).period, 500.0);
        assert_eq!(c.decay_for(Budget::of(&search::Budget::time(t))).period, 6.0);
    }

    #[test]
    fn one_arm_alone_gets_the_ceiling_and_the_standard_config_is_valid() {
        let c = PortfolioConfig::standard();
        assert_eq!(c.validate(), Ok(()));
        let l = ledger(&[Arm::Dse], TWO_MINUTES);
        assert_eq!(shares(&c, &l, &[Arm::Dse], 0.0).of(Arm::Dse), 0.4);
        let bad = PortfolioConfig { floor: 0.5, ceiling: 0.4, ..PortfolioConfig::standard() };
        assert_eq!(bad.validate(), Err(ConfigError::Bounds { floor: 0.5, ceiling: 0.4 }));
        let bad = PortfolioConfig { gamma: 0.0, ..PortfolioConfig::standard() };
        assert_eq!(bad.validate(), Err(ConfigError::Gamma(0.0)));
        let bad = PortfolioConfig { period: 0.0, ..PortfolioConfig::standard() };
        assert_eq!(bad.validate(), Err(ConfigError::Period(0.0)));
    }
}
