//! DSE's work in the search's unit, for the share limit (`DseConfig::share`): what replays, solver
//! queries and JVM checks cost, counted in deterministic units and converted to evaluation
//! equivalents, so that DSE can be held to a fixed share of the search without reading a clock.
//!
//! Paper 004 has no such limit: it gives each application 30 s and lets the adaptive P decide how
//! often. On classes where DSE finds nothing (hash codes, parsers it cannot model) that let it take
//! most of the search's time (docs/dse.md "Cost": 27–88 % on the fixtures, more on commons-math's
//! Fraction), and the search lost coverage there. The rates below turn the counters into
//! evaluations of the search at the speeds measured on this machine's release build (a JVM
//! evaluation ≈ 2 ms of wall time with 2 workers; the interpreter ≈ 2 million instructions a second;
//! Z3 ≈ 2 million resource units a second on our queries; an AVM objective evaluation ≈ 10 µs on a
//! few hundred nodes). They are estimates: a machine that is faster at one than the other shifts
//! the real share, never the result of a seed.

use std::time::Duration;

use crate::DseStats;

/// Interpreter instructions (symbolic and concrete) per evaluation equivalent.
pub const INSTRUCTIONS_PER_EVALUATION: u64 = 4_000;
/// Z3 resource units per evaluation equivalent.
pub const RLIMIT_PER_EVALUATION: u64 = 4_000;
/// AVM objective evaluations per evaluation equivalent.
pub const AVM_PER_EVALUATION: u64 = 200;

/// DSE's work so far in evaluation equivalents: its replays, the solvers' units (`solvers`: the
/// counters of every portfolio it used) and its JVM checks (one each, as the search counts them).
pub fn work(stats: &DseStats, solvers: &[&solver::SolverStats]) -> u64 {
    let instructions = stats.instructions_symbolic + stats.instructions_concrete;
    let rlimit: u64 = solvers.iter().map(|s| s.z3_rlimit).sum();
    let avm: u64 = solvers.iter().map(|s| s.avm_evaluations).sum();
    instructions / INSTRUCTIONS_PER_EVALUATION
        + rlimit / RLIMIT_PER_EVALUATION
        + avm / AVM_PER_EVALUATION
        + stats.executions
}

/// Whether DSE may go on after `evaluations` of the search: its work is at most `share` times
/// that (a share of 0 is no limit, as in paper 004).
pub fn within_share(work: u64, evaluations: u64, share: f64) -> bool {
    share <= 0.0 || (work as f64) <= share * evaluations as f64
}

/// How DSE's share of the search is measured (`Dse::timed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShareBy {
    /// In evaluation equivalents against the search's evaluations (`DseConfig::share`): what a
    /// run with an evaluation budget uses, so that a seed gives the same run on any machine.
    Work,
    /// In wall time against the search's own wall time, but never against less than `lead`
    /// (`DseConfig::time_share`, `within_time_share`): what a run with a time budget only uses.
    /// Such a run stops on the clock anyway, so reading it here changes nothing about its
    /// determinism; the work units cannot stand in for it, because a search evaluation takes
    /// 40 µs on one class and 30 ms on another (the public set at 60 s, docs/dse.md "Budgets"),
    /// and a Z3 query's fixed cost (a context, parsing) is in no count.
    Time { lead: Duration },
}

/// Whether DSE may go on, measured by time: its wall time `dse` so far is at most `share` times
/// the search's own, that is the run's `elapsed` time without DSE's, or times `lead` while the
/// search's own is shorter (0 is no limit). With 0.25 DSE takes at most a fifth of a run longer
/// than `lead`. The lead is what lets DSE work at the start: the triggers of exact-value goals fire
/// when the goals get their first values, in the first generations, and against the fraction of a
/// second the search has run by then every application is over the share (the first 60 s run
/// without it: DateParse 25 % with DSE as without, three queries in all).
pub fn within_time_share(dse: Duration, elapsed: Duration, lead: Duration, share: f64) -> bool {
    share <= 0.0 || dse.as_secs_f64() <= share * elapsed.saturating_sub(dse).max(lead).as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_share_compares_dse_with_the_rest_of_the_run() {
        let s = Duration::from_secs;
        let lead = s(15);
        // 10 s of DSE in 50 s: 10 <= 0.25 * 40.
        assert!(within_time_share(s(10), s(50), lead, 0.25));
        // 11 s in 50 s: 11 > 0.25 * 39.
        assert!(!within_time_share(s(11), s(50), lead, 0.25));
        // Early on, the lead: 3.75 s of DSE may come before the search has run 15 s of its own.
        assert!(within_time_share(Duration::from_millis(3_750), s(4), lead, 0.25));
        assert!(!within_time_share(Duration::from_millis(3_751), s(4), lead, 0.25));
        assert!(!within_time_share(Duration::from_millis(1), Duration::ZERO, Duration::ZERO, 0.25));
        assert!(within_time_share(s(100), s(100), lead, 0.0));
    }

    #[test]
    fn work_adds_every_part_in_evaluation_equivalents() {
        let stats = DseStats {
            instructions_symbolic: 3_000,
            instructions_concrete: 5_000,
            executions: 7,
            ..DseStats::default()
        };
        let a = solver::SolverStats { z3_rlimit: 40_000, avm_evaluations: 1_000, ..Default::default() };
        let b = solver::SolverStats { z3_rlimit: 8_000, avm_evaluations: 0, ..Default::default() };
        // 8,000 / 4,000 + 48,000 / 4,000 + 1,000 / 200 + 7
        assert_eq!(work(&stats, &[&a, &b]), 2 + 12 + 5 + 7);
    }

    #[test]
    fn the_share_bounds_work_by_the_search_evaluations_and_zero_is_no_limit() {
        assert!(within_share(50, 100, 0.5));
        assert!(!within_share(51, 100, 0.5));
        assert!(!within_share(1, 0, 0.5));
        assert!(within_share(1_000_000, 0, 0.0));
    }
}
