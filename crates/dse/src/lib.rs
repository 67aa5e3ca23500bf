//! Paper 004's hybrid (Galeotti, Fraser, Arcuri, ISSRE 2013; digest B.2): dynamic symbolic
//! execution applied adaptively inside the search. Between generations, when the search shows that
//! primitive values matter (`control`), the best tests of the goals that triggered are expanded
//! (`expand`), replayed by the concolic interpreter (`symbolic`), their path conditions negated at
//! the branches whose other side the search misses (`candidates`), the queries solved
//! (`solver::Portfolio`), the models put back into the tests (`substitute`), and the new tests run
//! in the real JVM (`DseTarget::run_tests`): a test is kept only when it covers a goal the search
//! had not covered, and it counts as confirmed only when it covers the goal it was solved for
//! (otherwise a divergence between the interpreter and the JVM). The kept tests go back to the
//! search through the hook (`search::Hook`), which injects them into its next batch.
//!
//! Every budget is in deterministic units (queries, tests, interpreter steps, Z3's `rlimit`, AVM
//! evaluations), never time, so a seed gives the same run on any machine (docs/dse.md). The one
//! exception is DSE's share of a run whose budget is time only (`ShareBy::Time`): such a run
//! stops on the clock anyway.
//!
//! Not here: the interpreter (`symbolic`), the solvers (`solver`), the JVM (`engine` implements
//! `DseTarget` over its problem).

mod budget;
mod candidates;
mod control;
mod cost;
mod expand;
mod explain;
mod hook;
mod substitute;

use std::collections::BTreeMap;

pub use budget::{
    AVM_PER_EVALUATION, INSTRUCTIONS_PER_EVALUATION, RLIMIT_PER_EVALUATION, ShareBy, within_share,
    within_time_share, work,
};
pub use candidates::{Candidate, Queue, Worth};
pub use control::{Controller, Trigger, values_only_change};
pub use cost::{DseCost, QueryTimes};
pub use expand::{default_value, expand, symbolic_statements};
pub use explain::{explain, explain_first};
pub use hook::{CallLimit, Dse, DseTarget};
pub use substitute::{no_lone_surrogates, substitute, to_prim};

/// DSE's part of the one configuration value. No `Default`: [`DseConfig::off`] and
/// [`DseConfig::paper`] are the two starting points.
#[derive(Debug, Clone, PartialEq)]
pub struct DseConfig {
    pub enabled: bool,
    /// P, the probability of applying DSE when the trigger fires (004: 1.0 best).
    pub probability: f64,
    /// R, P's adaptation rate (1: no adaptation, 004's best).
    pub rate: f64,
    /// Solver queries per application (004 gives each application 30 s; we count queries).
    pub max_queries: u32,
    /// Solved tests run in the JVM per application.
    pub max_tests: u32,
    /// Tests replayed per application: the best tests of the uncovered targets, those whose goal
    /// fired the trigger first.
    pub max_seeds: u32,
    /// Interpreter limits per replay.
    pub max_steps: u64,
    pub max_depth: u32,
    pub max_string: u32,
    /// The interpreter's models of the JDK methods parsers use (`symbolic::SymConfig`; off only
    /// for their ablation).
    pub parser_models: bool,
    /// Solver limits per query.
    pub solver: solver::SolverLimits,
    /// Negate only branches whose other side the search has not covered (004: on).
    pub filter: bool,
    /// Keep every solved test, not only those covering a new goal (004: off).
    pub keep_all: bool,
    /// Calls between generations without a trigger after which DSE is applied anyway to the
    /// uncovered targets' best tests (our stagnation rule; 0: never, as in 004).
    pub stall: u32,
    /// The most work DSE may do, in evaluation equivalents (`budget`), as a share of the search's
    /// evaluations so far: with 0.5 DSE stays within about a third of the search. 0: no limit, as
    /// in 004 (ours: 004 bounds each application by time only).
    pub share: f64,
    /// Under a time budget only (`ShareBy::Time`), the most wall time DSE may take, as a share of
    /// the search's own wall time: with 0.25 DSE takes at most a fifth of the run. 0: no limit.
    /// Used instead of `share`, which counts work at fixed rates that fit few classes (ours).
    pub time_share: f64,
}

impl DseConfig {
    /// 004's best configuration (digest B.2.5: filter on, keep all off, P = 1, R = 1) with budgets
    /// in deterministic units, switched on (our stagnation rule off).
    pub fn paper() -> DseConfig {
        let sym = symbolic::SymConfig::STANDARD;
        DseConfig {
            enabled: true,
            probability: 1.0,
            rate: 1.0,
            max_queries: 48,
            max_tests: 24,
            max_seeds: 8,
            max_steps: sym.max_steps,
            max_depth: sym.max_depth,
            max_string: sym.max_string,
            parser_models: sym.parser_models,
            // Three times the solver's default rlimit: Magic.linear's full query (the equality,
            // a - b == 77777 and 5a < c < 5a + 10 over 32-bit ints) is unknown to Z3 4.8.12 at
            // 2 million units and solved at 6. Explorations get an eighth (`hook::Dse::new`).
            solver: solver::SolverLimits { z3_rlimit: 6_000_000, ..solver::SolverLimits::default() },
            filter: true,
            keep_all: false,
            stall: 0,
            share: 0.0,
            time_share: 0.0,
        }
    }

    /// 004's configuration, switched off.
    pub fn off() -> DseConfig {
        DseConfig { enabled: false, ..DseConfig::paper() }
    }

    /// The interpreter's limits.
    pub fn sym(&self) -> symbolic::SymConfig {
        symbolic::SymConfig {
            max_steps: self.max_steps,
            max_depth: self.max_depth,
            max_string: self.max_string,
            parser_models: self.parser_models,
        }
    }
}

/// What DSE did in one search (report.json `dse`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DseStats {
    /// Calls between generations in which the trigger fired, and in which the stagnation rule
    /// applied DSE without it.
    pub triggers: u64,
    pub stalls: u64,
    /// Triggers turned down by the probability P.
    pub declined: u64,
    /// Applications (triggers admitted), and those that kept a test.
    pub applications: u64,
    pub successes: u64,
    /// Concolic replays, and those the interpreter ended early (`symbolic::Replay::stop`).
    pub replays: u64,
    pub replays_stopped: u64,
    /// Instructions the replays ran with a symbolic operand, with concrete ones only, and pins.
    pub instructions_symbolic: u64,
    pub instructions_concrete: u64,
    pub pins: u64,
    /// Queries queued, dropped as duplicates, skipped because their goal was covered meanwhile.
    pub candidates: u64,
    pub duplicates: u64,
    pub skipped_covered: u64,
    /// Solver calls and their answers.
    pub solver_calls: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Sat models that changed nothing in the test (the query was satisfied by its own values).
    pub unchanged: u64,
    /// Explorations solved: tests replayed for the paths behind a covered branch, never run.
    pub explorations: u64,
    /// Solved tests run in the JVM; those covering the goal they were solved for; those that did
    /// not (the interpreter's path and the JVM's differ, or the substitution lost a value).
    pub executions: u64,
    pub confirmed: u64,
    pub divergences: u64,
    /// Tests handed to the search, and the goals they covered before the search had.
    pub tests_kept: u64,
    pub goals_covered_first: u64,
    /// Triggers turned down because DSE had used its share of the search (`DseConfig::share`),
    /// applications made later for them, when DSE was within its share again, and its work so
    /// far in evaluation equivalents (`budget::work`).
    pub over_share: u64,
    pub deferred: u64,
    /// Triggers skipped after barren applications (whose replays queued no query; `hook`).
    pub barren_skips: u64,
    pub work: u64,
    /// P after the last application.
    pub probability: f64,
    /// The replays the interpreter ended early, by cause (`stop_cause`): the unmodelled or native
    /// method (`java/lang/String.matches`), or the limit or refusal, so the stops a missing model
    /// causes can be counted before and after it is added.
    pub stops: BTreeMap<String, u64>,
}

/// Stops longer than this are cut: the cause is a key of report.json, not a message.
const CAUSE_LEN: usize = 80;

/// The cause of a replay's stop, as `DseStats::stops` counts it: for a native or unmodelled call,
/// its method in internal names (`java/lang/String.split`, without the descriptor, since the
/// overloads stop for the same reason); otherwise the stop's text, cut to 80 chars.
pub fn stop_cause(stop: &symbolic::Stop) -> String {
    let text = stop.to_string();
    let method = text.split_whitespace().find_map(|w| {
        let (path, _) = w.split_once('(')?;
        (path.contains('/') && path.contains('.')).then(|| path.to_string())
    });
    method.unwrap_or_else(|| text.chars().take(CAUSE_LEN).collect())
}

/// The prefix of the causes of stops at a method of `String` (`DseStats::string_stops`).
const STRING_METHOD: &str = "java/lang/String.";

/// The figures as (name, value) pairs, in a fixed order (report.json, `search` output).
impl DseStats {
    pub fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("triggers", self.triggers),
            ("stalls", self.stalls),
            ("declined", self.declined),
            ("applications", self.applications),
            ("successes", self.successes),
            ("replays", self.replays),
            ("replays_stopped", self.replays_stopped),
            ("instructions_symbolic", self.instructions_symbolic),
            ("instructions_concrete", self.instructions_concrete),
            ("pins", self.pins),
            ("candidates", self.candidates),
            ("duplicates", self.duplicates),
            ("skipped_covered", self.skipped_covered),
            ("solver_calls", self.solver_calls),
            ("sat", self.sat),
            ("unsat", self.unsat),
            ("unknown", self.unknown),
            ("unchanged", self.unchanged),
            ("explorations", self.explorations),
            ("executions", self.executions),
            ("confirmed", self.confirmed),
            ("divergences", self.divergences),
            ("tests_kept", self.tests_kept),
            ("goals_covered_first", self.goals_covered_first),
            ("over_share", self.over_share),
            ("deferred", self.deferred),
            ("barren_skips", self.barren_skips),
            ("work", self.work),
            ("replays_stopped_at_string_methods", self.string_stops()),
        ]
    }

    /// The replays stopped at a method of `String` the interpreter has no model for (or whose
    /// model is switched off).
    pub fn string_stops(&self) -> u64 {
        self.stops.iter().filter(|(k, _)| k.starts_with(STRING_METHOD)).map(|(_, v)| v).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symbolic::Stop;

    /// A call's stop is counted under its method, whatever its descriptor; other stops under
    /// their text.
    #[test]
    fn stops_are_counted_by_their_method() {
        let causes: Vec<String> = [
            Stop::Unsupported(
                "java/lang/String.matches(Ljava/lang/String;)Z without the parser models".into(),
            ),
            Stop::Native("java/lang/System.getProperty(Ljava/lang/String;)Ljava/lang/String;".into()),
            Stop::Unsupported("a stub".into()),
            Stop::Steps,
        ]
        .iter()
        .map(stop_cause)
        .collect();
        assert_eq!(
            causes,
            ["java/lang/String.matches", "java/lang/System.getProperty", "unsupported a stub", "step limit"]
        );
        let mut stats = DseStats::default();
        for c in &causes {
            *stats.stops.entry(c.clone()).or_default() += 1;
        }
        assert_eq!(stats.string_stops(), 1);
    }
}
