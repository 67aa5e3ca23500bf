//! The one configuration value of a search (STYLE.md rule 3): the algorithm, the budget and every
//! parameter, with EvoSuite 1.2.0's defaults from `SearchConfig::evosuite` (anchors.md §1.4,
//! digest 002 §2.2). No `Default`: the defaults are a named choice.

use std::time::Duration;

use testcase::FactoryConfig;

use crate::GoalIdx;

/// The search algorithm (EvoSuite's `Properties.Algorithm` names in the docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algorithm {
    /// Feedback-directed random search (Randoop, Pacheco et al. ICSE 2007).
    Random,
    /// Whole test suite generation with a monotonic GA (Fraser & Arcuri, TSE 2013; `MONOTONIC_GA`).
    WholeSuite,
    /// Many-objective sorting algorithm (Panichella, Kifetew & Tonella, ICST 2015).
    Mosa,
    /// MOSA with targets released along the control dependence graph (Panichella et al., TSE 2018).
    /// EvoSuite 1.1+'s default.
    DynaMosa,
    /// Many Independent Objective algorithm (Arcuri, SSBSE 2017 / IST 2018).
    Mio,
}

impl Algorithm {
    pub const ALL: [Algorithm; 5] =
        [Algorithm::Random, Algorithm::WholeSuite, Algorithm::Mosa, Algorithm::DynaMosa, Algorithm::Mio];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Random => "random",
            Algorithm::WholeSuite => "whole-suite",
            Algorithm::Mosa => "mosa",
            Algorithm::DynaMosa => "dynamosa",
            Algorithm::Mio => "mio",
        }
    }
}

/// When to stop, besides full coverage: whichever limit is reached first. A limit is checked
/// between batches, so a run may overshoot by one batch (at most a generation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Wall time as measured by the run's `Clock` (`search_budget`, EvoSuite: 60 s).
    pub time: Option<Duration>,
    /// Number of test evaluations (EvoSuite's `MAXTESTS`-like stopping condition).
    pub evaluations: Option<u64>,
}

impl Budget {
    pub fn time(d: Duration) -> Budget {
        Budget { time: Some(d), evaluations: None }
    }

    pub fn evaluations(n: u64) -> Budget {
        Budget { time: None, evaluations: Some(n) }
    }

    /// The fraction of the budget used, in `[0, 1]`, the largest over the limits set (MIO's
    /// parameter schedule depends on it). With no limit it is 0.
    pub fn progress(&self, elapsed: Duration, evaluations: u64) -> f64 {
        let mut p: f64 = 0.0;
        if let Some(t) = self.time {
            p = p.max(if t.is_zero() { 1.0 } else { elapsed.as_secs_f64() / t.as_secs_f64() });
        }
        if let Some(n) = self.evaluations {
            p = p.max(if n == 0 { 1.0 } else { evaluations as f64 / n as f64 });
        }
        p.min(1.0)
    }

    pub fn exhausted(&self, elapsed: Duration, evaluations: u64) -> bool {
        self.time.is_some_and(|t| elapsed >= t) || self.evaluations.is_some_and(|n| evaluations >= n)
    }
}

/// MIO's parameters (Arcuri 2018, §"MIO"; EvoSuite's property names).
#[derive(Debug, Clone, PartialEq)]
pub struct MioConfig {
    /// Tests kept per uncovered target at the start (`number_of_tests_per_target`, n = 10); falls
    /// linearly to 1 at `exploitation_starts_at`.
    pub tests_per_target: usize,
    /// Probability of sampling a random test rather than one from the archive at the start
    /// (`p_random_test_or_from_archive`, P_r = 0.5); falls linearly to 0 at
    /// `exploitation_starts_at`.
    pub p_random: f64,
    /// The fraction of the budget after which the search is focused (`exploitation_starts_at_percent`,
    /// F = 0.5).
    pub exploitation_starts_at: f64,
    /// Mutations of one sampled test without improvement before sampling anew
    /// (`max_num_mutations_before_giving_up`, 10).
    pub max_mutations_before_giving_up: u32,
}

/// Everything a search run needs to know besides the problem, the cluster and the RNG.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchConfig {
    pub algorithm: Algorithm,
    pub budget: Budget,
    /// Stop as soon as every goal is covered (`stop_zero`).
    pub stop_zero: bool,
    /// Stop as soon as every one of these goals is covered, even if others are not (not an
    /// EvoSuite option: tests and benchmarks use it to time how long a set of goals takes, e.g. the
    /// feasible branches of a fixture). Goals beyond `Problem::n_goals()` never count as covered.
    pub stop_goals: Option<Vec<GoalIdx>>,
    /// Goals covered before the search began (by a project's own tests, in the engine's complement
    /// mode), which the problem never reports as covered: `stop_zero` counts them as covered, so
    /// that the search stops once it has covered the rest. Empty for plain runs.
    pub settled: Vec<GoalIdx>,
    /// Population size (`population`, 50): tests for MOSA/DynaMOSA, suites for whole suite, the
    /// batch size of random search and MIO.
    pub population: usize,
    /// Crossover probability (`crossover_rate`, 0.75); single-point relative crossover.
    pub crossover_rate: f64,
    /// Suites copied unchanged into the next generation (`elite`, 1; whole suite).
    pub elite: usize,
    /// Bias of rank selection (`rank_bias`, 1.7; whole suite).
    pub rank_bias: f64,
    /// Tournament size of MOSA's rank/crowding tournament (`tournament_size`, 10).
    pub tournament_size: usize,
    /// Whole suite: probability base for adding tests to a suite when mutating it (the k-th added
    /// with `p^k`); MOSA: the fraction of the population added each generation as new random or
    /// archive-derived tests (`p_test_insertion`, 0.1).
    pub p_test_insertion: f64,
    /// Tests per initial suite, drawn uniformly (`min_initial_tests`/`max_initial_tests`, 1/10).
    pub min_initial_tests: usize,
    pub max_initial_tests: usize,
    /// Maximum tests per suite (`max_size`, 100).
    pub max_suite_size: usize,
    /// Random search: probability of starting a new test instead of extending a pooled one.
    pub p_new_test: f64,
    pub mio: MioConfig,
    /// Test creation and mutation (`chromosome_length` = 40, statement mutation rate 1/length,
    /// delete/change/insert 1/3 each, …).
    pub factory: FactoryConfig,
}

impl SearchConfig {
    /// EvoSuite 1.2.0's defaults with DynaMOSA, stopping on `budget` or full coverage.
    pub fn evosuite(budget: Budget) -> SearchConfig {
        SearchConfig {
            algorithm: Algorithm::DynaMosa,
            budget,
            stop_zero: true,
            stop_goals: None,
            settled: Vec::new(),
            population: 50,
            crossover_rate: 0.75,
            elite: 1,
            rank_bias: 1.7,
            tournament_size: 10,
            p_test_insertion: 0.1,
            min_initial_tests: 1,
            max_initial_tests: 10,
            max_suite_size: 100,
            // Not an EvoSuite parameter: Randoop always extends, but a pool must start somewhere and
            // fresh short tests keep it diverse.
            p_new_test: 0.1,
            mio: MioConfig {
                tests_per_target: 10,
                p_random: 0.5,
                exploitation_starts_at: 0.5,
                max_mutations_before_giving_up: 10,
            },
            factory: FactoryConfig::evosuite(),
        }
    }
}
