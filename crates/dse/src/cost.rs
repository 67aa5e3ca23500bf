//! What DSE costs in wall time, so that its speed can be judged: the time of the applications, of
//! the replays (with the instructions they ran), of the solver per query and of the JVM checks.
//! The times come from the search's clock (`search::Clock`, given to `Dse::timed`) and are written
//! into report.json. Nothing DSE decides reads them, except the application time in a search with
//! a time budget only (`ShareBy::Time`), which holds DSE to its share of such a run; every other
//! budget is in deterministic units (docs/dse.md).

use std::collections::BTreeMap;
use std::time::Duration;

/// The wall time DSE spent, by part (all zero when the hook was made without a clock).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DseCost {
    /// Applications timed, and their wall time in all (replays, solving, checks and the rest).
    pub applications: u64,
    pub application_time: Duration,
    /// Concolic replays: their wall time and the instructions (and model operations) they ran.
    pub replay_time: Duration,
    pub replay_instructions: u64,
    /// Solver wall time per query, by the back ends that answered it (`z3`, `avm`, `avm+z3`: the
    /// portfolio's order for a query with floating point, `z3+avm`: Z3 gave up and the AVM ran).
    pub queries: BTreeMap<&'static str, Vec<Duration>>,
    /// The solved tests' runs in the JVM (`DseTarget::run_tests`).
    pub check_time: Duration,
}

/// The median, 95th percentile and maximum of a set of query times (nearest rank), and their count.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct QueryTimes {
    pub count: usize,
    pub total: Duration,
    pub median: Duration,
    pub p95: Duration,
    pub max: Duration,
}

impl QueryTimes {
    pub fn of(times: &[Duration]) -> QueryTimes {
        let mut v = times.to_vec();
        v.sort();
        let rank = |q: f64| -> Duration {
            if v.is_empty() {
                return Duration::ZERO;
            }
            // Nearest rank: the smallest value with at least q of the values at or below it.
            let k = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
            v[k - 1]
        };
        QueryTimes {
            count: v.len(),
            total: v.iter().sum(),
            median: rank(0.5),
            p95: rank(0.95),
            max: v.last().copied().unwrap_or_default(),
        }
    }
}

impl DseCost {
    /// Every query's time, whichever back end answered.
    pub fn all_queries(&self) -> QueryTimes {
        let all: Vec<Duration> = self.queries.values().flatten().copied().collect();
        QueryTimes::of(&all)
    }

    /// Per back-end combination, in name order.
    pub fn by_backend(&self) -> Vec<(&'static str, QueryTimes)> {
        self.queries.iter().map(|(k, v)| (*k, QueryTimes::of(v))).collect()
    }

    /// Replay instructions per second of replay wall time.
    pub fn replay_instructions_per_second(&self) -> f64 {
        let s = self.replay_time.as_secs_f64();
        if s > 0.0 { self.replay_instructions as f64 / s } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let ms = |v: &[u64]| v.iter().map(|&x| Duration::from_millis(x)).collect::<Vec<_>>();
        let q = QueryTimes::of(&ms(&[5, 1, 4, 2, 3, 100, 6, 7, 8, 9]));
        assert_eq!((q.count, q.median, q.p95, q.max), (10, ms(&[5])[0], ms(&[100])[0], ms(&[100])[0]));
        assert_eq!(q.total, Duration::from_millis(145));
        let one = QueryTimes::of(&ms(&[3]));
        assert_eq!((one.median, one.p95, one.max), (ms(&[3])[0], ms(&[3])[0], ms(&[3])[0]));
        assert_eq!(QueryTimes::of(&[]), QueryTimes::default());
    }
}
