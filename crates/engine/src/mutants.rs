//! The mutation runs of post-processing (docs/mutation.md): a worker pool of its own over the
//! classes under test instrumented with mutant schemata (`instrument::Options::schemata`, the same
//! probe plan as the search's, so a mutant is its weak-mutation goal), implementing
//! `postprocess::MutantRunner` for `postprocess::select_by_mutation`. The search never runs
//! schemata: the pool is started after it and shut down when the assertions are chosen.

use std::collections::BTreeMap;
use std::time::Instant;

use exec::{ExecResult, JvmExecutor};
use fitness::GoalModel;
use goals::{Goal, GoalId, Mutant, ProbeKind};
use postprocess::{MutantRunner, RunnerError};
use protocol::{ActiveMutant, Statement as Wire};
use testcase::{PrimValue, Statement, TestCase};
use worker::{Java, Pool, WorkerConfig, WorkerError};

use crate::{EngineError, GenerateConfig, to_protocol};

/// Operand samples the runtime keeps per probe and test (`Tracer`, docs/protocol.md): a probe with
/// this many may have seen values its samples miss.
const SAMPLES_PER_PROBE: usize = 8;

/// Workers running the classes under test with mutant schemata.
pub(crate) struct MutationPool {
    executor: JvmExecutor,
    model: GoalModel,
    /// Every mutant whose site was emitted: its goal id and what activates it.
    mutants: BTreeMap<u32, ActiveMutant>,
    /// Methods left without schemata (reported).
    pub(crate) unmutated: Vec<String>,
    pub(crate) deadline: Option<Instant>,
}

impl MutationPool {
    /// Instruments `classes` (internal names, the search's) with schemata and starts
    /// `config.workers` workers over them, as the search's are started.
    pub(crate) fn start(
        db: &programdb::ProgramDb,
        config: &GenerateConfig,
        classes: &[String],
    ) -> Result<MutationPool, EngineError> {
        let mut options = instrument::Options::all();
        options.schemata = true;
        let subject = exec::prepare_in(db, &config.classpath, classes, &options, config.timeout_ms)?;
        let model = GoalModel::build_in(db, &subject.plan)?;
        let mutants = (0..subject.plan.goals().len() as u32)
            .filter_map(|g| {
                let m = instrument::active_mutant(&subject.plan, GoalId(g))?;
                subject.mutant_sites.binary_search(&m.site).is_ok().then_some((g, m))
            })
            .collect();
        let java = Java::discover()?;
        let sandbox = worker::sandbox_for(config.sandbox, &java).map_err(WorkerError::from)?;
        let mut wc = WorkerConfig::new(java, worker::runtime_jar()?, subject.setup);
        wc.sandbox = sandbox;
        wc.extra_jvm_args = config.jvm_args.clone();
        let pool = Pool::new(wc, config.workers.max(1))?;
        Ok(MutationPool {
            executor: JvmExecutor::new(pool),
            model,
            mutants,
            unmutated: subject.unmutated,
            deadline: None,
        })
    }

    /// Mutants the pool can run.
    pub(crate) fn n_mutants(&self) -> usize {
        self.mutants.len()
    }
}

/// The wire statements of `test` with `mutant` active from its start: the test behind one unused
/// statement (so its variables move by one, as `TestCase::insert` moves them), which becomes the
/// protocol's `Mutant` statement.
fn mutated(test: &TestCase, mutant: ActiveMutant) -> Vec<Wire> {
    let mut t = test.clone();
    t.insert(0, Statement::Primitive(PrimValue::Int(0)));
    let mut wire = to_protocol(&t);
    wire[0] = Wire::Mutant(mutant);
    wire
}

impl MutantRunner for MutationPool {
    fn run(&mut self, runs: &[(TestCase, Option<u32>)]) -> Result<Vec<ExecResult>, RunnerError> {
        let mut wire = Vec::with_capacity(runs.len());
        for (test, m) in runs {
            wire.push(match m.and_then(|m| self.mutants.get(&m)) {
                Some(&active) => mutated(test, active),
                None => to_protocol(test),
            });
        }
        let mut results = self.executor.execute(&wire)?;
        for (r, (_, m)) in results.iter_mut().zip(runs) {
            if m.is_some_and(|m| self.mutants.contains_key(&m)) && !r.outcomes.is_empty() {
                r.outcomes.remove(0);
            }
        }
        Ok(results)
    }

    /// The mutants the run infects (weak-mutation distance 0), the ROR mutants of every jump it
    /// reached (the trace keeps only each side's closest distance, so a condition that went both
    /// ways may differ from its mutant unseen) and the operator and UOI mutants of a probe whose
    /// operand samples filled up (the values past them are not recorded).
    fn candidates(&self, original: &ExecResult) -> Vec<u32> {
        let trace = &original.trace;
        let f = fitness::goal_fitness(&self.model, trace);
        let plan = self.model.plan();
        self.mutants
            .keys()
            .copied()
            .filter(|&g| {
                let Goal::WeakMutation { probe, mutant } = plan.goal(GoalId(g)) else { return false };
                if f.of(GoalId(g)) == 0.0 {
                    return true;
                }
                if !trace.is_hit(*probe) {
                    return false;
                }
                let kind = plan.probe(*probe).kind;
                match mutant {
                    Mutant::ReplaceCond(_) => true,
                    Mutant::ReplaceConstant { .. } => false,
                    _ => {
                        !matches!(kind, ProbeKind::Line)
                            && trace.operand_samples(*probe).len() >= SAMPLES_PER_PROBE
                    }
                }
            })
            .collect()
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// How the assertions of the written tests are chosen (`WriteConfig::assertions`, `--assertions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssertionStrategy {
    /// Every assertion the observed values give, at most 10 per test (EvoSuite's `ALL`).
    All,
    /// Of those, the fewest that kill the mutants each test's assertions kill, and the value of its
    /// last call (EvoSuite's `MUTATION`; `postprocess::select_by_mutation`).
    Mutation,
}

impl AssertionStrategy {
    /// The strategy's name on the command line and in report.json.
    pub fn name(self) -> &'static str {
        match self {
            AssertionStrategy::All => "all",
            AssertionStrategy::Mutation => "mutation",
        }
    }
}

/// What mutation analysis did for one class (report.json `mutation`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MutationFigures {
    /// Mutants the schemata pool could run (weak-mutation goals whose site was emitted).
    pub mutants: usize,
    /// Methods left without schemata (too large with them).
    pub unmutated: usize,
    pub stats: postprocess::MutationStats,
}

/// Chooses the assertions of `tests` by mutation analysis over a schemata pool of their own,
/// until `deadline` (the tests not reached keep all theirs); what the deadline cut short is logged.
pub(crate) fn mutation_phase(
    db: &programdb::ProgramDb,
    config: &GenerateConfig,
    classes: &[String],
    tests: &mut [postprocess::AssertedTest],
    deadline: Option<Instant>,
    log: &mut Vec<String>,
) -> Result<MutationFigures, EngineError> {
    let mut pool = MutationPool::start(db, config, classes)?;
    pool.deadline = deadline;
    let stats = postprocess::select_by_mutation(&mut pool, tests).map_err(EngineError::Post)?;
    if stats.tests_not_analysed > 0 {
        log.push(format!(
            "post-processing budget: {} tests kept all their assertions (no time for mutation analysis)",
            stats.tests_not_analysed
        ));
    }
    for m in &pool.unmutated {
        log.push(format!("mutant schemata left out of {m}"));
    }
    Ok(MutationFigures { mutants: pool.n_mutants(), unmutated: pool.unmutated.len(), stats })
}
