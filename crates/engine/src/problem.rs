//! `JvmProblem`: the search's `Problem` over real JVM workers, and only the orchestration of its
//! batches. The class under test and its nested classes are instrumented with one probe plan
//! (`exec::prepare`), the goal model is built over the same plan, and everything about goals (which
//! are searched, their dense `GoalIdx`s, DynaMOSA's dependences, the context goals found at run
//! time, scoring, coverage accounting) is asked of the goal space (`fitness::GoalSpace`). A batch of
//! tests runs in one round trip through a cached worker pool, one batch in flight.

use jvm_model::ClassName;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use exec::{Cached, ExecError, ExecResult, JvmExecutor, Plan, Scored};
use fitness::{ClassLoading, FlagFitness, GoalIdx, GoalModel, GoalSpace};
use goals::Criterion;
use protocol::{Outcome, Trace};
use search::{Evaluation, Problem, ProblemError};
use testcase::{DynamicPool, TestCase};
use worker::{Java, Pool, WorkerConfig, WorkerError};

use crate::batches::{BatchRun, InFlight, Runner, ScoredRuns, lock};
use crate::feed::feed_pool;
use crate::flag_figures::{FlagFigures, flag_figures, flag_tracing};
use crate::{EngineError, to_protocol};

pub use fitness::{CriterionCoverage, GoalRuns};

/// EvoSuite's default criteria (anchors §1.4): the seven with static goals and context branch.
pub const DEFAULT_CRITERIA: [Criterion; 8] = Criterion::DEFAULT;

/// Results kept by the executor's cache (a few generations of DynaMOSA's population)...
const CACHE_CAPACITY: usize = 4096;
/// ...and the bytes they may hold (`exec::approx_bytes`). Traces are ~8 KiB on gson `JsonReader`
/// and ~16 KiB on lang3 `StringUtils` (the strings its comparisons record), so the bound rarely
/// bites, but a class whose every test records the maximum (32 strings of 1024 chars, 8 operand
/// pairs per probe) would otherwise hold hundreds of MiB here.
const CACHE_BYTES: usize = 64 << 20;

/// The search problem of one class under test, run in JVM workers.
#[derive(Debug)]
pub struct JvmProblem {
    /// Results of tests run before, on the engine's thread: a batch is planned against it (hits,
    /// misses) before its misses go to the workers, and finished with their runs (no executor of
    /// its own, hence `()`).
    cache: Cached,
    /// The worker pool, shared with the runner's thread, which holds the lock while it runs a batch;
    /// `ahead` is where the next batch's misses go for the workers to start early.
    executor: Arc<Mutex<JvmExecutor>>,
    ahead: worker::Ahead,
    /// Every goal of the search, and the context goals registered as batches reveal them.
    space: GoalSpace,
    /// The batch started by `evaluate_then` and not yet collected, and the thread running it
    /// (started with the first such batch).
    in_flight: Option<InFlight>,
    runner: Option<Runner>,
    /// Classes instrumented (internal names): the CUT first, then its nested classes, sorted.
    classes: Vec<String>,
    /// Lines of `exec::Subject::unchanged`: classes or methods left uninstrumented.
    unchanged: Vec<String>,
    /// The other classes of the classpath the workers run with the containment guards
    /// (`exec::Subject::dependencies`).
    dependencies: Vec<String>,
    /// The workers' wall time: per search batch (`evaluate`), from keying and sending the batch
    /// until its last result is read from a worker (the goal fitness the pool threads compute on
    /// the results that came before it overlaps with the workers and is inside; scoring after it
    /// is not); per `execute` call, the whole call. Cache lookups and the pool's encode/decode,
    /// about 1 µs per test, are inside too.
    worker_time: Duration,
    /// Interprocedural flag fitness (paper 001), when it is on and the classes have flags to trace.
    flags: Option<Arc<FlagFitness>>,
    /// SUSHI's exploration and the conditions the workers were set up with (paper 003), until
    /// its hook takes them (`take_sushi`).
    sushi: Option<sushi::Prepared>,
    /// The path conditions the workers evaluate in search batches: SUSHI's goals not solved yet
    /// (`focus_paths`), none until it registers any. A condition that is not a goal, or whose goal
    /// a test solved, would cost an evaluation at every call of its entry method for nothing.
    focus: Arc<[u32]>,
    /// The settled goals (`settle`): by static goal, true when a project's own tests cover it.
    /// Empty when none is.
    settled: Vec<bool>,
    /// With settled goals, DynaMOSA's targets without them: the roots, and per static goal what
    /// covering it releases; a settled goal counts as covered from the start, so what it
    /// releases is a root.
    settled_roots: Vec<GoalIdx>,
    settled_released: Vec<Vec<GoalIdx>>,
}

/// The techniques a problem is built with, because they change what the workers are set up with.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extras<'a> {
    /// Interprocedural flag fitness (paper 001, `flag_tracing`).
    pub flags: bool,
    /// The string distance (docs/strings.md): the workers record the string tests whose result a
    /// branch tests (`protocol::Setup::string_compares`) and `fitness::StringFitness` grades them.
    pub string_distance: bool,
    /// SUSHI (paper 003): the class is explored and the path conditions go in the set-up.
    pub sushi: Option<&'a sushi::SushiConfig>,
    /// The user's JVM flags for the workers (`GenerateConfig::jvm_args`), after the workers' own.
    pub jvm_args: &'a [String],
    /// The sandbox the workers enter (`GenerateConfig::sandbox`).
    pub sandbox: worker::SandboxRequest,
}

/// The classes a run instruments for `internal` (the CUT's internal name): the CUT, then every
/// class of the classpath nested in it, sorted. The workers and the verification runs guard the same.
pub(crate) fn classes_under_test(cp: &classfile::ClassPath, internal: &str) -> Vec<String> {
    let prefix = format!("{internal}$");
    let nested: BTreeSet<&str> = cp.class_names().filter(|n| n.starts_with(&prefix)).collect();
    std::iter::once(internal.to_string()).chain(nested.into_iter().map(str::to_owned)).collect()
}

impl JvmProblem {
    /// Prepares `cut` (binary name with dots) and its nested classes `Cut$...`, starts `workers` JVMs
    /// and restricts the goals to `criteria`, reading the classes from the run's program database,
    /// whose classpath starts with `classpath` (the workers'), with the techniques of `extras`.
    pub fn with_db(
        db: &programdb::ProgramDb,
        classpath: &[PathBuf],
        cut: &str,
        criteria: &[Criterion],
        workers: usize,
        timeout_ms: u32,
        extras: Extras<'_>,
    ) -> Result<JvmProblem, EngineError> {
        let cp = db.classpath();
        let internal = ClassName::from_binary(cut).into_internal();
        if !cp.contains(&internal) {
            return Err(EngineError::MissingClass(cut.to_string()));
        }
        let classes = classes_under_test(cp, &internal);

        let mut options = instrument::Options::all();
        let flag_family = if extras.flags { flag_tracing(db, &classes, &mut options) } else { None };
        let mut subject = exec::prepare_in(db, classpath, &classes, &options, timeout_ms)?;
        subject.setup.string_compares = extras.string_distance;
        // SUSHI explores over the plan the workers run, before they start: they learn the path
        // conditions once, in the set-up (docs/protocol.md, "Path conditions").
        let prepared = extras.sushi.filter(|c| c.enabled).map(|c| {
            let p = sushi::prepare(db, &subject.plan, &internal, c);
            subject.setup.path_conditions = p.sent.iter().map(|s| s.condition.clone()).collect();
            subject.setup.path_epsilon = c.epsilon;
            p
        });
        // The model and the class loading are read from the original class files in the database
        // (a class the plan refused is not in the plan).
        if let Some(c) = subject
            .plan
            .classes()
            .iter()
            .find(|c| db.class_id(&c.name).and_then(|id| db.class(id).ok()).is_none())
        {
            return Err(EngineError::MissingClass(c.name.clone()));
        }
        let loading = ClassLoading::read(db, &internal, &subject.plan);
        let model = GoalModel::build_in(db, &subject.plan)?;

        let java = Java::discover()?;
        let sandbox = worker::sandbox_for(extras.sandbox, &java).map_err(WorkerError::from)?;
        let mut config = WorkerConfig::new(java, worker::runtime_jar()?, subject.setup);
        config.sandbox = sandbox;
        config.extra_jvm_args = extras.jvm_args.to_vec();
        let pool = Pool::new(config, workers.max(1))?;
        let space = GoalSpace::new(model, criteria, loading, pool.init_trace());
        let flags = flag_family.map(|f| Arc::new(FlagFitness::new(f, &subject.plan)));
        let space = match &flags {
            Some(f) => space.with_refiner(Arc::clone(f) as Arc<dyn fitness::Refiner>),
            None => space,
        };
        let space = if extras.string_distance {
            space.with_refiner(Arc::new(fitness::StringFitness::new(&subject.plan)))
        } else {
            space
        };
        let ahead = pool.ahead();
        Ok(JvmProblem {
            cache: Cached::bounded(CACHE_CAPACITY, CACHE_BYTES),
            executor: Arc::new(Mutex::new(JvmExecutor::new(pool))),
            ahead,
            space,
            in_flight: None,
            runner: None,
            focus: Arc::from(Vec::new()),
            classes,
            unchanged: subject.unchanged,
            dependencies: subject.dependencies,
            worker_time: Duration::ZERO,
            flags,
            sushi: prepared,
            settled: Vec::new(),
            settled_roots: Vec::new(),
            settled_released: Vec::new(),
        })
    }

    /// Takes `goals` (static goals the project's own tests cover, `crate::complement`) out of the
    /// search: never a target of DynaMOSA, never covered in an evaluation (so never kept by the
    /// archive, and never a reason for minimisation to keep a test); the goals they control are
    /// targets from the start.
    pub(crate) fn settle(&mut self, goals: &BTreeSet<GoalIdx>) {
        if goals.is_empty() {
            return;
        }
        let n = self.space.selected().len();
        self.settled = (0..n).map(|i| goals.contains(&GoalIdx::new(i))).collect();
        let released: Vec<&[GoalIdx]> = (0..n).map(|i| self.space.released_by(GoalIdx::new(i))).collect();
        (self.settled_roots, self.settled_released) =
            crate::complement::targets_without(self.space.roots(), &released, goals);
    }

    /// Whether the project's own tests cover `g` (`settle`).
    pub fn is_settled(&self, g: GoalIdx) -> bool {
        self.settled.get(g.index()).copied().unwrap_or(false)
    }

    /// SUSHI's exploration, once (`None` when it is off or was taken).
    pub(crate) fn take_sushi(&mut self) -> Option<sushi::Prepared> {
        self.sushi.take()
    }

    /// The path conditions (indices in the set-up) that search batches started from now on evaluate.
    pub(crate) fn focus_paths(&mut self, pcs: &[u32]) {
        self.focus = Arc::from(pcs);
    }

    /// Registers SUSHI's path goals in the goal space (`GoalSpace::add_path_goals`).
    pub(crate) fn add_path_goals(&mut self, goals: Vec<fitness::PathGoal>) -> Vec<GoalIdx> {
        self.space.add_path_goals(goals)
    }

    /// The search goal of a selected static model goal (they are the first search goals, in
    /// model id order); `None` for a goal not searched. What DSE and SUSHI ask.
    pub(crate) fn static_goal(&self, goal: goals::GoalId) -> Option<GoalIdx> {
        self.space.selected().binary_search(&goal).ok().map(GoalIdx::new)
    }

    /// Whether a goal is a path-condition goal (SUSHI): a means to the branches, not coverage.
    pub fn is_path_goal(&self, g: GoalIdx) -> bool {
        self.space.path_goal(g).is_some()
    }

    /// The goal space: every goal of the search, with its
    /// criterion, class, location and dependences, and coverage accounting.
    pub fn space(&self) -> &GoalSpace {
        &self.space
    }

    /// The instrumented classes (internal names), CUT first.
    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    /// Classes or methods left uninstrumented, with the reason.
    pub fn unchanged(&self) -> &[String] {
        &self.unchanged
    }

    /// The other classes of the classpath (binary names) guarded in the workers: those that call
    /// a redirected method.
    pub fn dependencies(&self) -> &[String] {
        &self.dependencies
    }

    /// (cache hits, misses) of the executor so far.
    pub fn cache_counts(&self) -> (u64, u64) {
        self.cache.counts()
    }

    /// Executes tests in one batch (through the cache), in order.
    pub fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecResult>, EngineError> {
        let wire: Vec<Vec<protocol::Statement>> = tests.iter().map(to_protocol).collect();
        let start = Instant::now();
        let plan = self.cache.plan(&wire);
        let misses = plan.take_misses(wire);
        let ran = if misses.is_empty() {
            Scored { results: Vec::new(), scores: Vec::<Option<()>>::new(), workers_done: None }
        } else {
            let results = lock(&self.executor).execute(&misses);
            self.worker_time += start.elapsed();
            Scored { results: results?, scores: Vec::new(), workers_done: None }
        };
        Ok(self.cache.finish(plan, ran).results.into_iter().map(Arc::unwrap_or_clone).collect())
    }

    /// What runs a search batch, with room for `n_goals()` and a few context goals more.
    fn batch_run(&self) -> BatchRun {
        BatchRun {
            executor: Arc::clone(&self.executor),
            scorer: self.space.scorer(),
            width: self.n_goals() + 64,
        }
    }

    /// Starts the misses of a planned batch of `tests` tests on the runner's thread.
    fn start(
        &mut self,
        tests: usize,
        plan: Plan,
        misses: Arc<Vec<Vec<protocol::Statement>>>,
    ) -> Result<InFlight, ProblemError> {
        if self.runner.is_none() {
            self.runner = Some(Runner::spawn(self.batch_run())?);
        }
        let width = self.n_goals() + 64;
        let started = Instant::now();
        let runner = self.runner.as_ref().ok_or("no thread to run batches")?;
        let jobs = runner.jobs.as_ref().ok_or("the thread running batches is gone")?;
        jobs.send((misses, Arc::clone(&self.focus), width))
            .map_err(|_| "the thread running batches is gone")?;
        Ok(InFlight { tests, plan, started })
    }

    /// The runs of the batch the runner's thread was last sent.
    fn collect(&mut self) -> Result<Result<ScoredRuns, ExecError>, ProblemError> {
        let runner = self.runner.as_ref().ok_or("no batch was started")?;
        runner.done.recv().map_err(|_| "the thread running batches panicked".into())
    }

    /// The workers' wall time so far (see the field); the rest of a search's wall time is the
    /// engine's own work: test generation, the fitness not overlapped, archive and selection.
    pub fn worker_time(&self) -> Duration {
        self.worker_time
    }

    /// The goals, in `GoalIdx` order: the selected static ones, then the context goals found so far.
    pub fn goals(&self) -> impl Iterator<Item = GoalIdx> + use<> {
        self.space.goals()
    }

    /// The criterion of a goal.
    pub fn criterion(&self, g: GoalIdx) -> Criterion {
        self.space.criterion(g)
    }

    /// A goal as text with its class and line or method (`GoalSpace::text`), as `uncovered` lists them.
    pub fn goal_text(&self, g: GoalIdx) -> String {
        self.space.text(g)
    }

    /// Coverage per criterion and the uncovered goals (as text) of a finished suite's results
    /// (`GoalSpace::final_coverage`).
    pub fn final_coverage(
        &self,
        criteria: &[Criterion],
        results: &[ExecResult],
    ) -> (Vec<CriterionCoverage>, Vec<String>) {
        let runs: Vec<(&Trace, &[Outcome])> =
            results.iter().map(|r| (&r.trace, r.outcomes.as_slice())).collect();
        self.space.final_coverage(criteria, &runs)
    }

    /// The selected goals of `criteria` with the results (by index) that cover each
    /// (`GoalSpace::goal_runs`): the HTML report's lines and the tests that cover them.
    pub fn goal_runs(&self, criteria: &[Criterion], results: &[ExecResult]) -> Vec<GoalRuns> {
        let traces: Vec<&Trace> = results.iter().map(|r| &r.trace).collect();
        self.space.goal_runs(criteria, &traces)
    }

    /// The fitness of every goal for one trace, indexed by `GoalIdx` (`n_goals()` values).
    pub fn fitness(&self, trace: &Trace) -> Vec<f64> {
        self.space.fitness(trace)
    }

    /// Covered/total goals per criterion over the given traces (`GoalSpace::coverage`).
    pub fn coverage(&self, traces: &[&Trace]) -> Vec<CriterionCoverage> {
        self.space.coverage(traces)
    }

    /// What flag fitness found and what `results` cover of it (`flag_figures`).
    pub fn flag_figures(&self, results: &[ExecResult]) -> Option<FlagFigures> {
        flag_figures(self.flags.as_deref(), &self.space, results)
    }

    /// The goals no trace covers, as text, in goal order (`GoalSpace::uncovered`).
    pub fn uncovered(&self, traces: &[&Trace]) -> Vec<String> {
        self.space.uncovered(traces)
    }
}

impl Problem for JvmProblem {
    fn n_goals(&self) -> usize {
        self.space.n_goals()
    }

    fn roots(&self) -> Vec<GoalIdx> {
        if self.settled.is_empty() { self.space.roots().to_vec() } else { self.settled_roots.clone() }
    }

    fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        match self.settled_released.get(g.index()) {
            Some(released) => released,
            None => self.space.released_by(g),
        }
    }

    fn evaluate(
        &mut self,
        tests: &[TestCase],
        dynamic: &mut DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        self.evaluate_then(tests, None, dynamic)
    }

    /// `tests` run (or, started by the previous call, finish) with their goal fitness computed as
    /// each result arrives (`BatchRun::run`). `then` is planned against the cache before waiting
    /// and its misses put in the pool's `ahead`, so that each worker is sent its part as soon as it
    /// has returned a result of `tests` and goes on with it without waiting for the engine. Once
    /// `tests` are in, `then` is collected on a thread of its own, and the results of `tests` are
    /// processed meanwhile: the cache, context goals, the dynamic pool, the scoring left over
    /// (cache hits, repeats, tests that did not finish normally). A test of `then` equal to one of
    /// `tests` is a miss (the cache does not have it yet) and runs again, with the same result.
    fn evaluate_then(
        &mut self,
        tests: &[TestCase],
        then: Option<&[TestCase]>,
        dynamic: &mut DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        let next = match then.filter(|t| !t.is_empty()) {
            Some(t) => {
                let wire: Vec<Vec<protocol::Statement>> = t.iter().map(to_protocol).collect();
                let plan = self.cache.plan(&wire);
                let misses = Arc::new(plan.take_misses(wire));
                *lock(&self.ahead) = worker::AheadSlot {
                    batch: (!misses.is_empty()).then(|| Arc::clone(&misses)),
                    focus: Some(Arc::clone(&self.focus)),
                    first_sent: None,
                };
                Some((t.len(), plan, misses))
            }
            None => None,
        };
        let (ran, plan, started) = match self.in_flight.take() {
            Some(f) if f.tests == tests.len() => (self.collect()?, f.plan, f.started),
            Some(f) => {
                let _ = self.collect();
                *lock(&self.ahead) = worker::AheadSlot::default();
                return Err(format!(
                    "a batch of {} tests was started, but a batch of {} was asked for",
                    f.tests,
                    tests.len()
                )
                .into());
            }
            None => {
                let wire: Vec<Vec<protocol::Statement>> = tests.iter().map(to_protocol).collect();
                let plan = self.cache.plan(&wire);
                let misses = plan.take_misses(wire);
                let started = Instant::now();
                (self.batch_run().run(&misses, &self.focus), plan, started)
            }
        };
        let first_sent = std::mem::take(&mut *lock(&self.ahead)).first_sent;
        let ran = ran?;
        if let Some(done) = ran.workers_done {
            self.worker_time += done.saturating_duration_since(started);
        }
        if let Some((n, plan, misses)) = next {
            let mut f = self.start(n, plan, misses)?;
            // Workers sent their part early started it when done with this batch, not later.
            if let (Some(sent), Some(done)) = (first_sent, ran.workers_done) {
                f.started = f.started.min(sent.max(done));
            }
            self.in_flight = Some(f);
        }
        let scored = self.cache.finish(plan, ran);
        let results = scored.results;
        // New context goals first, in batch order, so that every evaluation of the batch has the
        // grown goal count (search::Problem's contract) and the indices do not depend on workers.
        for r in &results {
            self.space.discover(&r.trace);
        }
        let mut out = Vec::with_capacity(results.len());
        for (r, all) in results.iter().zip(scored.scores) {
            feed_pool(self.space.model().plan(), &r.trace, dynamic);
            let exception_at = r.stopped_at();
            // Cache hits, repeats and tests that did not finish normally are scored here.
            let (all, values) = all.unwrap_or_else(|| self.space.score(&r.trace, self.space.n_goals()));
            let mut fitness = self.space.fitness_with(&all, values, &r.trace);
            if !r.writable_whole() {
                covers_nothing(&mut fitness);
            }
            for (f, _) in fitness.iter_mut().zip(&self.settled).filter(|(_, s)| **s) {
                *f = f.max(1.0);
            }
            out.push(Evaluation { fitness, exception_at });
        }
        Ok(out)
    }
}

/// The fitness a goal gets from a test that reached it but cannot be written whole: a hair above
/// covered, so the test still ranks first for the goal (a stepping stone a mutation can shorten)
/// while the archive does not take it as the goal's covering test. Below any distance a real
/// comparison gives (`norm(1) = 0.5`; doubles reach about `1e-300` only when almost equal).
const UNWRITABLE: f64 = 1e-9;

/// Moves every covered goal of an unwritable test to [`UNWRITABLE`].
fn covers_nothing(fitness: &mut [f64]) {
    for f in fitness.iter_mut().filter(|f| **f == 0.0) {
        *f = UNWRITABLE;
    }
}
