//! `JvmProblem`: the search's `Problem` over real JVM workers. The class under test and its nested
//! classes are instrumented with one probe plan (`exec::prepare`), the goal model is built over the
//! same plan (`fitness::GoalModel`), the goals of the selected criteria get dense `GoalIdx`s, and a
//! batch of tests runs in one round trip through a cached worker pool; fitness comes from the traces.
//! Context-branch goals (EvoSuite `CBRANCH`) have no static list: each batch's traces reveal calling
//! contexts, whose goals are appended after the static ones (`Problem::n_goals` grows).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, mpsc};
use std::time::{Duration, Instant};

use exec::{Cached, ExecError, ExecResult, JvmExecutor, Plan, Scored};
use fitness::{ContextGoal, GoalFitness, GoalModel, context_goals, goal_fitness, norm};
use goals::{Criterion, GoalId, ProbeId, ProbeKind};
use protocol::{Outcome, Trace};
use search::{Evaluation, GoalIdx, Problem, ProblemError};
use testcase::{DynamicPool, TestCase};
use worker::{Java, Pool, WorkerConfig};

use crate::{EngineError, to_protocol};

/// EvoSuite's default criteria (anchors §1.4): the seven with static goals and context branch.
pub const DEFAULT_CRITERIA: [Criterion; 8] = Criterion::DEFAULT;

/// Results kept by the executor's cache (a few generations of DynaMOSA's population)...
const CACHE_CAPACITY: usize = 4096;
/// ...and the bytes they may hold (`exec::approx_bytes`). Traces are ~8 KiB on gson `JsonReader`
/// and ~16 KiB on lang3 `StringUtils` (the strings its comparisons record), so the bound rarely
/// bites, but a class whose every test records the maximum (32 strings of 1024 chars, 8 operand
/// pairs per probe) would otherwise hold hundreds of MiB here.
const CACHE_BYTES: usize = 64 << 20;

/// Covered and total goals of one criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CriterionCoverage {
    pub criterion: Criterion,
    pub covered: usize,
    pub total: usize,
}

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
    model: Arc<GoalModel>,
    /// `selected[i]`: the model goal of `GoalIdx(i)`, in model id order.
    selected: Arc<Vec<GoalId>>,
    /// The batch started by `evaluate_then` and not yet collected, and the thread running it
    /// (started with the first such batch).
    in_flight: Option<InFlight>,
    runner: Option<Runner>,
    /// The context goals found so far: `GoalIdx(selected.len() + i)` is `contexts.goals[i]`.
    /// `None` when `Criterion::ContextBranch` is not selected.
    contexts: Option<ContextGoals>,
    roots: Vec<GoalIdx>,
    released: Vec<Vec<GoalIdx>>,
    /// Classes instrumented (internal names): the CUT first, then its nested classes, sorted.
    classes: Vec<String>,
    /// Goals of the model no test can cover because the worker's set-up already ran them
    /// (`init_goals`), in model order; left out of the search, counted by `class_init_goals`.
    init_goals: Vec<GoalId>,
    /// Superclass of each instrumented class (internal names), for `class_init_goals`: initialising
    /// a class initialises its superclasses first (JVMS §5.5).
    supers: BTreeMap<String, String>,
    /// Instrumented classes the compiler generated (`ACC_SYNTHETIC`, e.g. javac's `$SwitchMap$`
    /// holders): their goals count in no criterion, as JaCoCo filters them too, since no source line
    /// of the user's is in them and when they load depends on the compiler, not on the tests.
    synthetic: BTreeSet<String>,
    /// For each line of instrumented code (class, line), the other instrumented classes an
    /// instruction on it initialises when it runs (`init_triggers`), for `class_init_goals`.
    triggers: BTreeMap<String, BTreeMap<u16, BTreeSet<String>>>,
    /// Lines of `exec::Subject::unchanged`: classes or methods left uninstrumented.
    unchanged: Vec<String>,
    /// The workers' wall time: per search batch (`evaluate`), from keying and sending the batch
    /// until its last result is read from a worker (the goal fitness the pool threads compute on
    /// the results that came before it overlaps with the workers and is inside; scoring after it
    /// is not); per `execute` call, the whole call. Cache lookups and the pool's encode/decode,
    /// about 1 µs per test, are inside too.
    worker_time: Duration,
}

/// A search batch's runs, each with its goal fitness and selected values when it was scored on
/// arrival (`JvmProblem::evaluate_then`).
type ScoredRuns = Scored<ExecResult, (GoalFitness, Vec<f64>)>;

/// A batch whose misses run on the runner's thread while the search works on the batch before.
#[derive(Debug)]
struct InFlight {
    tests: usize,
    plan: Plan,
    started: Instant,
}

/// The thread that runs started batches, one at a time, for the problem's whole life: a thread
/// per batch would start its allocator's heap afresh each time (fresh pages, page faults), which
/// was a tenth of the engine's time on classes with fast tests.
///
/// Dropping it ends the thread and waits for it: the thread holds a handle on the pool, and the
/// pool must go (its JVMs killed, their scratch directories removed) when the problem goes, not
/// whenever a detached thread gets round to it; `main` returning first left every worker's
/// scratch directory behind.
#[derive(Debug)]
struct Runner {
    /// `None` only while dropping: closing it ends the thread's loop.
    jobs: Option<mpsc::Sender<Job>>,
    done: mpsc::Receiver<Result<ScoredRuns, ExecError>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Runner {
    fn drop(&mut self) {
        // The thread finishes the batch it is running (if any) and sees no more jobs.
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A batch for the runner: its misses, and the width to reserve in each value vector.
type Job = (Arc<Vec<Vec<protocol::Statement>>>, usize);

impl Runner {
    /// Starts the thread; it runs each batch it is sent with `run` and ends when the problem goes.
    fn spawn(run: BatchRun) -> std::io::Result<Runner> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, done) = mpsc::channel();
        let thread = std::thread::Builder::new().name("suitesmith-batches".into()).spawn(move || {
            for (misses, width) in inbox {
                let r = BatchRun { width, ..run.clone() }.run(&misses);
                if outbox.send(r).is_err() {
                    break;
                }
            }
        })?;
        Ok(Runner { jobs: Some(jobs), done, thread: Some(thread) })
    }
}

/// What runs a batch's misses and scores them away from the problem: the pool (locked for the
/// batch), the model and the selected goals, and the width to reserve in each value vector.
#[derive(Clone)]
struct BatchRun {
    executor: Arc<Mutex<JvmExecutor>>,
    model: Arc<GoalModel>,
    selected: Arc<Vec<GoalId>>,
    width: usize,
}

impl BatchRun {
    /// Runs `misses`; each test's model-goal fitness (`goal_fitness`, a pure function of its
    /// trace) and its selected goals' values are computed as its result arrives, on the thread that
    /// waits for its worker, while the workers run the rest of the batch (DESIGN.md §3.8: whatever
    /// runs where, the values are the same and are consumed in batch order).
    fn run(&self, misses: &[Vec<protocol::Statement>]) -> Result<ScoredRuns, ExecError> {
        if misses.is_empty() {
            return Ok(Scored { results: Vec::new(), scores: Vec::new(), workers_done: None });
        }
        let (model, selected, width) = (&*self.model, &*self.selected, self.width);
        let score = |t: &Trace| {
            let all = goal_fitness(model, t);
            let values = selected_fitness(selected, &all, width);
            (all, values)
        };
        lock(&self.executor).execute_scored(misses, &score)
    }
}

/// The classes a run instruments for `internal` (the CUT's internal name): the CUT, then every
/// class of the classpath nested in it, sorted. The workers and the verification runs guard the same.
pub(crate) fn classes_under_test(cp: &classfile::ClassPath, internal: &str) -> Vec<String> {
    let prefix = format!("{internal}$");
    let nested: BTreeSet<&str> = cp.class_names().filter(|n| n.starts_with(&prefix)).collect();
    std::iter::once(internal.to_string()).chain(nested.into_iter().map(str::to_owned)).collect()
}

/// The pool, whether or not a batch thread panicked holding it (the pool replaces a worker that
/// is in doubt before its next batch).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl JvmProblem {
    /// Prepares `cut` (binary name with dots) and its nested classes `Cut$...` found on `classpath`,
    /// starts `workers` JVMs and restricts the goals to `criteria`.
    pub fn new(
        classpath: &[PathBuf],
        cut: &str,
        criteria: &[Criterion],
        workers: usize,
        timeout_ms: u32,
    ) -> Result<JvmProblem, EngineError> {
        let db = programdb::ProgramDb::open(classpath, programdb::DbConfig::STANDARD)?;
        JvmProblem::with_db(&db, classpath, cut, criteria, workers, timeout_ms)
    }

    /// `new` reading the classes from the run's program database, whose classpath starts with
    /// `classpath` (the workers').
    pub fn with_db(
        db: &programdb::ProgramDb,
        classpath: &[PathBuf],
        cut: &str,
        criteria: &[Criterion],
        workers: usize,
        timeout_ms: u32,
    ) -> Result<JvmProblem, EngineError> {
        let cp = db.classpath();
        let internal = cut.replace('.', "/");
        if !cp.contains(&internal) {
            return Err(EngineError::MissingClass(cut.to_string()));
        }
        let classes = classes_under_test(cp, &internal);

        let subject = exec::prepare_in(db, classpath, &classes, &instrument::Options::all(), timeout_ms)?;
        // The model is built from the original class files, in plan order (a class the plan refused
        // is not in it), each parsed once here.
        let mut originals = Vec::with_capacity(subject.plan.classes().len());
        for c in subject.plan.classes() {
            let file = db.class_id(&c.name).and_then(|id| db.class(id).ok());
            originals.push(file.ok_or_else(|| EngineError::MissingClass(c.name.clone()))?);
        }
        let mut supers = BTreeMap::new();
        let mut synthetic = BTreeSet::new();
        let mut triggers = BTreeMap::new();
        let planned: BTreeSet<&str> = subject.plan.classes().iter().map(|c| c.name.as_str()).collect();
        for (c, file) in subject.plan.classes().iter().zip(&originals) {
            init_triggers(&c.name, file, &planned, &mut triggers);
            if let Some(sup) = file.super_name() {
                supers.insert(c.name.clone(), sup.into_owned());
            }
            if file.access_flags & classfile::access::SYNTHETIC != 0 {
                synthetic.insert(c.name.clone());
            }
        }
        let model = GoalModel::build_in(db, &subject.plan)?;

        let java = Java::discover()?;
        let config = WorkerConfig::new(java, worker::runtime_jar()?, subject.setup);
        let pool = Pool::new(config, workers.max(1))?;
        let init_goals = init_goals(&model, pool.init_trace());
        let ahead = pool.ahead();
        let executor = Arc::new(Mutex::new(JvmExecutor::new(pool)));
        let (selected, roots, released) = select_goals(&model, criteria, &init_goals);
        let contexts = criteria.contains(&Criterion::ContextBranch).then(ContextGoals::default);
        Ok(JvmProblem {
            cache: Cached::bounded(CACHE_CAPACITY, CACHE_BYTES),
            executor,
            ahead,
            model: Arc::new(model),
            selected: Arc::new(selected),
            in_flight: None,
            runner: None,
            contexts,
            roots,
            released,
            classes,
            init_goals,
            supers,
            synthetic,
            triggers,
            unchanged: subject.unchanged,
            worker_time: Duration::ZERO,
        })
    }

    pub fn model(&self) -> &GoalModel {
        &self.model
    }

    /// The model goal behind a search goal (for a context goal, its branch goal).
    pub fn goal_id(&self, g: GoalIdx) -> GoalId {
        match self.context_goal(g) {
            Some(cg) => cg.goal,
            None => self.selected[g.index()],
        }
    }

    /// The context goal behind a search goal, when it is one.
    pub fn context_goal(&self, g: GoalIdx) -> Option<ContextGoal> {
        let i = g.index().checked_sub(self.selected.len())?;
        self.contexts.as_ref()?.goals.get(i).copied()
    }

    /// The instrumented classes (internal names), CUT first.
    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    /// Classes or methods left uninstrumented, with the reason.
    pub fn unchanged(&self) -> &[String] {
        &self.unchanged
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
            model: Arc::clone(&self.model),
            selected: Arc::clone(&self.selected),
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
        jobs.send((misses, width)).map_err(|_| "the thread running batches is gone")?;
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
    pub fn goals(&self) -> impl Iterator<Item = GoalIdx> + '_ {
        (0..self.n_goals() as u32).map(GoalIdx)
    }

    /// The criterion of a goal.
    pub fn criterion(&self, g: GoalIdx) -> Criterion {
        match self.context_goal(g) {
            Some(_) => Criterion::ContextBranch,
            None => self.model.goal(self.goal_id(g)).criterion(),
        }
    }

    /// A goal as text with its class and line or method (`line c0 L7 (example/Triangle:7)`), as
    /// `uncovered` lists them; a context goal names its context first (`context_text`).
    pub fn goal_text(&self, g: GoalIdx) -> String {
        match self.context_goal(g) {
            Some(cg) => self.context_text(cg),
            None => self.static_text(self.goal_id(g)),
        }
    }

    fn static_text(&self, g: GoalId) -> String {
        let goal = self.model.goal(g);
        match goal_location(self.model.plan(), goal) {
            Some((class, Some(line))) => format!("{} ({class}:{line})", fitness::goal_text(goal)),
            Some((class, None)) => format!("{} ({class})", fitness::goal_text(goal)),
            None => fitness::goal_text(goal),
        }
    }

    /// `context-branch <context> <branch text>`: the context is `direct` (the test called the
    /// branch's method) or the outermost call site in the SUT as `p7@class:line`
    /// (`context-branch p18@context/Calls:20 branch p7 taken (context/Calls:12)`).
    fn context_text(&self, cg: ContextGoal) -> String {
        let plan = self.model.plan();
        let site = match cg.site {
            None => "direct".to_string(),
            Some(p) if p.index() < plan.n_probes() => {
                let probe = plan.probe(p);
                let class = &plan.class(probe.class).name;
                match probe.line {
                    Some(line) => format!("{p}@{class}:{line}"),
                    None => format!("{p}@{class}"),
                }
            }
            Some(p) => p.to_string(),
        };
        format!("context-branch {site} {}", self.static_text(cg.goal))
    }

    /// Per criterion of `criteria`, the goals left out of the search because the worker's set-up
    /// runs them (`init_goals`), as (criterion, covered, total). The written tests trigger those
    /// initialisers themselves for every class they load, so a goal counts covered when its class
    /// is loaded by the suite whose executions are `results`: the class under test, a class one of
    /// them hits a probe of or holds an instance of (an object or enum value a statement gave), a
    /// class an executed line initialises (`triggers`: `new`, static field or static method of
    /// it), and the superclasses of these. A nested class no test loads is never initialised by the tests:
    /// its goals count uncovered, as JaCoCo sees them, and are listed (as `uncovered` lists goals)
    /// in the second value.
    pub fn class_init_goals(
        &self,
        criteria: &[Criterion],
        results: &[ExecResult],
    ) -> (Vec<(Criterion, usize, usize)>, Vec<String>) {
        let plan = self.model.plan();
        let mut hit: BTreeSet<u32> = BTreeSet::new();
        let mut loaded: BTreeSet<String> = BTreeSet::new();
        loaded.insert(self.classes[0].clone());
        for r in results {
            hit.extend(r.trace.hits.iter().map(|(p, _)| p.0).filter(|&p| (p as usize) < plan.n_probes()));
            for o in &r.outcomes {
                if let Outcome::Value(
                    protocol::Value::Object { class } | protocol::Value::Enum { class, .. },
                ) = o
                {
                    loaded.insert(class.replace('.', "/"));
                }
            }
        }
        // Each probe hit at least once, once: its class, and what its line initialises.
        for p in hit {
            let probe = plan.probe(ProbeId(p));
            let class = &plan.class(probe.class).name;
            if let Some(t) = probe.line.and_then(|l| self.triggers.get(class)?.get(&l)) {
                loaded.extend(t.iter().cloned());
            }
            loaded.insert(class.clone());
        }
        // A loaded class has loaded its superclasses, and ran its initialiser: what the lines
        // initialisation ran (the line goals of `init_goals`) initialise is loaded too (an
        // anonymous class a static field holds).
        let mut init_lines: BTreeMap<&str, Vec<u16>> = BTreeMap::new();
        for &g in &self.init_goals {
            if let goals::Goal::Line { class, line } = self.model.goal(g) {
                init_lines.entry(plan.class(*class).name.as_str()).or_default().push(*line);
            }
        }
        let mut work: Vec<String> = loaded.iter().cloned().collect();
        while let Some(c) = work.pop() {
            let mut next: Vec<&String> = self.supers.get(&c).into_iter().collect();
            if let (Some(lines), Some(by_line)) = (init_lines.get(c.as_str()), self.triggers.get(&c)) {
                next.extend(lines.iter().filter_map(|l| by_line.get(l)).flatten());
            }
            for n in next {
                if loaded.insert(n.clone()) {
                    work.push(n.clone());
                }
            }
        }
        let mut per: BTreeMap<Criterion, (usize, usize)> = BTreeMap::new();
        let mut uncovered = Vec::new();
        for &g in &self.init_goals {
            let goal = self.model.goal(g);
            let class = goal_class(plan, goal);
            if !criteria.contains(&goal.criterion()) || self.synthetic.contains(class) {
                continue;
            }
            let e = per.entry(goal.criterion()).or_default();
            e.1 += 1;
            if loaded.contains(class) {
                e.0 += 1;
            } else {
                uncovered.push(self.static_text(g));
            }
        }
        (per.into_iter().map(|(c, (covered, total))| (c, covered, total)).collect(), uncovered)
    }

    /// Coverage per criterion and the uncovered goals (as text) of a finished suite's results: the
    /// searched goals from the traces (`coverage`, `uncovered`) plus the goals only class
    /// initialisation reaches (`class_init_goals`), so totals are the whole plan's whatever the
    /// set-up trace took out of the search.
    pub fn final_coverage(
        &self,
        criteria: &[Criterion],
        results: &[ExecResult],
    ) -> (Vec<CriterionCoverage>, Vec<String>) {
        let traces: Vec<&Trace> = results.iter().map(|r| &r.trace).collect();
        let plan = self.model.plan();
        // The goals some witness asks about (`Witness::Covered`), scored with the others.
        let mut asked: Vec<GoalId> = self
            .selected
            .iter()
            .flat_map(|&g| plan.completion_witnesses(g))
            .filter_map(|w| match w {
                goals::Witness::Covered(g) => Some(*g),
                goals::Witness::Hit(_) => None,
            })
            .collect();
        asked.sort_unstable();
        asked.dedup();
        let (mut covered, contexts, asked_covered) = self.covered_and(&traces, &asked);
        let hit: BTreeSet<u32> = traces.iter().flat_map(|t| t.hits.iter().map(|(p, _)| p.0)).collect();
        let witnessed = |w: &goals::Witness| match *w {
            goals::Witness::Hit(p) => hit.contains(&p.0),
            goals::Witness::Covered(g) => asked.binary_search(&g).is_ok_and(|i| asked_covered[i]),
        };
        // Lines and branches count as JaCoCo counts them (`ProbePlan::completion_witnesses`): a line
        // when an instruction of it ran to its end, a branch when JaCoCo's probe on that edge ran
        // or the instruction it leads to completed; the search's goals only ask that the line
        // starts or the jump goes that way. Goals reached whose every run threw on the way are
        // reported apart.
        let mut never_completed = BTreeSet::new();
        for (i, &g) in self.selected.iter().enumerate() {
            let witnesses = plan.completion_witnesses(g);
            if witnesses.is_empty() {
                continue;
            }
            let completed = witnesses.iter().any(witnessed);
            if covered[i] && !completed {
                never_completed.insert(i);
            }
            covered[i] = completed;
        }
        let mut coverage = self.tally(&covered, contexts.as_ref());
        let (init, init_uncovered) = self.class_init_goals(criteria, results);
        for (criterion, covered, total) in init {
            match coverage.iter_mut().find(|c| c.criterion == criterion) {
                Some(c) => {
                    c.covered += covered;
                    c.total += total;
                }
                None => coverage.push(CriterionCoverage { criterion, covered, total }),
            }
        }
        coverage.sort_by_key(|c| c.criterion);
        let mut uncovered = self.uncovered_text(&covered, contexts.as_ref(), &never_completed);
        uncovered.extend(init_uncovered);
        (coverage, uncovered)
    }

    /// The fitness of every goal for one trace, indexed by `GoalIdx` (`n_goals()` values).
    pub fn fitness(&self, trace: &Trace) -> Vec<f64> {
        self.fitness_from(&goal_fitness(&self.model, trace), trace)
    }

    /// [`JvmProblem::fitness`] given the trace's model-goal fitness `all` (`goal_fitness`).
    fn fitness_from(&self, all: &GoalFitness, trace: &Trace) -> Vec<f64> {
        self.fitness_with(all, selected_fitness(&self.selected, all, self.n_goals()), trace)
    }

    /// [`JvmProblem::fitness_from`] given the selected goals' values (`selected_fitness`): appends
    /// the context goals' (which depend on the goals found so far, so come in batch order).
    fn fitness_with(&self, all: &GoalFitness, mut out: Vec<f64>, trace: &Trace) -> Vec<f64> {
        if let Some(contexts) = &self.contexts {
            contexts.fitness_into(&self.model, trace, all, &mut out);
        }
        out
    }

    /// The goals the traces cover (`GoalIdx` order), over the goals known now plus the context
    /// goals these traces reveal (appended, as `evaluate` would), with those context goals.
    fn covered(&self, traces: &[&Trace]) -> (Vec<bool>, Option<ContextGoals>) {
        let (covered, contexts, _) = self.covered_and(traces, &[]);
        (covered, contexts)
    }

    /// `covered`, and whether the traces cover each goal of `also` (any goals of the model).
    fn covered_and(
        &self,
        traces: &[&Trace],
        also: &[GoalId],
    ) -> (Vec<bool>, Option<ContextGoals>, Vec<bool>) {
        let mut also_covered = vec![false; also.len()];
        let mut contexts = self.contexts.clone();
        if let Some(c) = &mut contexts {
            for t in traces {
                c.discover(&self.model, t);
            }
        }
        let mut covered = vec![false; self.selected.len() + contexts.as_ref().map_or(0, ContextGoals::len)];
        let mut row = Vec::with_capacity(covered.len());
        for t in traces {
            let all = goal_fitness(&self.model, t);
            row.clear();
            row.extend(self.selected.iter().map(|&g| all.of(g)));
            if let Some(c) = &contexts {
                c.fitness_into(&self.model, t, &all, &mut row);
            }
            for (c, f) in covered.iter_mut().zip(&row) {
                *c |= *f == 0.0;
            }
            for (c, &g) in also_covered.iter_mut().zip(also) {
                *c |= all.of(g) == 0.0;
            }
        }
        (covered, contexts, also_covered)
    }

    /// Covered/total goals per criterion over the given traces, in criterion order (only criteria
    /// with goals). Context branch counts the context goals found so far plus those the traces
    /// reveal: its total grows with what the tests reach, as EvoSuite's exception goals do.
    pub fn coverage(&self, traces: &[&Trace]) -> Vec<CriterionCoverage> {
        let (covered, contexts) = self.covered(traces);
        self.tally(&covered, contexts.as_ref())
    }

    /// Covered/total per criterion of a vector made by `covered`.
    fn tally(&self, covered: &[bool], contexts: Option<&ContextGoals>) -> Vec<CriterionCoverage> {
        let mut per: BTreeMap<Criterion, (usize, usize)> = BTreeMap::new();
        for (i, &g) in self.selected.iter().enumerate() {
            let e = per.entry(self.model.goal(g).criterion()).or_default();
            e.1 += 1;
            e.0 += usize::from(covered[i]);
        }
        if contexts.is_some_and(|c| !c.is_empty()) {
            let ctx = &covered[self.selected.len()..];
            per.insert(Criterion::ContextBranch, (ctx.iter().filter(|c| **c).count(), ctx.len()));
        }
        per.into_iter()
            .map(|(criterion, (covered, total))| CriterionCoverage { criterion, covered, total })
            .collect()
    }

    /// The goals no trace covers, as text (`goal_text`), in goal order (context goals the traces
    /// reveal included, as in `coverage`).
    pub fn uncovered(&self, traces: &[&Trace]) -> Vec<String> {
        let (covered, contexts) = self.covered(traces);
        self.uncovered_text(&covered, contexts.as_ref(), &BTreeSet::new())
    }

    /// The text of every goal `covered` leaves out; those in `never_completed` (reached, but never
    /// completed as `completion_witnesses` asks) say so.
    fn uncovered_text(
        &self,
        covered: &[bool],
        contexts: Option<&ContextGoals>,
        never_completed: &BTreeSet<usize>,
    ) -> Vec<String> {
        let n = self.selected.len();
        covered
            .iter()
            .enumerate()
            .filter(|(_, c)| !**c)
            .map(|(i, _)| match i.checked_sub(n).and_then(|j| contexts?.goals.get(j)) {
                Some(&cg) => self.context_text(cg),
                None if never_completed.contains(&i) => {
                    format!(
                        "{} reached, never completed (each run threw on the way)",
                        self.static_text(self.selected[i])
                    )
                }
                None => self.static_text(self.selected[i]),
            })
            .collect()
    }

    /// Feeds the dynamic pool with the int and long values the code compared or computed with
    /// (operand samples and switch keys) and the strings it compared, in trace order, as EvoSuite's
    /// dynamic constant pool does with the values seen in comparisons.
    fn feed_pool(&self, trace: &Trace, pool: &mut DynamicPool) {
        let plan = self.model.plan();
        for (probe, samples) in &trace.operands {
            if probe.0 as usize >= plan.n_probes() {
                continue;
            }
            let kind = plan.probe(ProbeId(probe.0)).kind;
            for &(a, b) in samples {
                match kind {
                    ProbeKind::BranchInt | ProbeKind::OperandsInt => {
                        pool.add_int(a as i64 as i32);
                        pool.add_int(b as i64 as i32);
                    }
                    ProbeKind::BranchZero => pool.add_int(a as i64 as i32),
                    ProbeKind::CmpLong | ProbeKind::OperandsLong => {
                        pool.add_long(a as i64);
                        pool.add_long(b as i64);
                    }
                    ProbeKind::OperandsLongShift => {
                        pool.add_long(a as i64);
                        pool.add_int(b as i64 as i32);
                    }
                    // `Value*` samples (UOI) are every loaded number, not values compared against:
                    // they would flood the pool with loop counters.
                    _ => {}
                }
            }
        }
        for (_, keys) in &trace.switches {
            for &k in keys {
                pool.add_int(k);
            }
        }
        // Operands of the SUT's string comparisons (protocol v2), as EvoSuite's `StringHelper`
        // feeds its dynamic constant pool, each with a hash twin (`testcase::pool::hash_twin`).
        for s in &trace.strings {
            pool.add_string(s);
            if let Some(twin) = testcase::pool::hash_twin(s) {
                pool.add_string(&twin);
            }
        }
    }
}

/// The context goals found so far, with dense indices in the order they were found: what the
/// search targets for `Criterion::ContextBranch`. EvoSuite enumerates a branch's contexts from the
/// static call graph (digest 002 §1.2); here a context exists once a trace shows the branch's
/// method evaluating a branch in it (the worker records distances per outermost call site in the
/// SUT), so no unreachable context is ever created, and the goal list is a pure function of the
/// traces seen, in order.
#[derive(Debug, Clone, Default)]
struct ContextGoals {
    goals: Vec<ContextGoal>,
    /// Position of each goal in `goals`, for the per-trace lookups of `fitness_into`.
    index: BTreeMap<ContextGoal, u32>,
}

impl ContextGoals {
    fn len(&self) -> usize {
        self.goals.len()
    }

    fn is_empty(&self) -> bool {
        self.goals.is_empty()
    }

    /// Appends the goals `trace` reveals that are new, in `context_goals` (sorted) order; returns
    /// how many were added. Fed the traces of a batch in batch order, the indices depend on the
    /// tests alone, not on which worker ran them.
    fn discover(&mut self, model: &GoalModel, trace: &Trace) -> usize {
        let before = self.goals.len();
        for cg in context_goals(model, trace) {
            if let std::collections::btree_map::Entry::Vacant(e) = self.index.entry(cg) {
                e.insert(self.goals.len() as u32);
                self.goals.push(cg);
            }
        }
        self.goals.len() - before
    }

    /// Appends the fitness of every goal for one trace, in index order: goal by goal the value of
    /// `fitness::context_fitness` (`ν(distance)` in the goal's context, else `1 +` the branch's
    /// context-free fitness `plain`), computed in O(goals + trace contexts × log goals) instead of
    /// one search of the trace per goal, since a test sees few of the contexts found.
    fn fitness_into(&self, model: &GoalModel, trace: &Trace, plain: &GoalFitness, out: &mut Vec<f64>) {
        let base = out.len();
        out.extend(self.goals.iter().map(|cg| 1.0 + plain.of(cg.goal)));
        for c in &trace.contexts {
            let Some((t, f)) = model.branch_goals_of(ProbeId(c.probe.0)) else { continue };
            let site = c.site.map(|s| ProbeId(s.0));
            if let Some(&i) = self.index.get(&ContextGoal { site, goal: t }) {
                out[base + i as usize] = norm(c.to_true);
            }
            if let Some(&i) = self.index.get(&ContextGoal { site, goal: f }) {
                out[base + i as usize] = norm(c.to_false);
            }
        }
    }
}

/// The values of the `selected` goals in `all`, in `GoalIdx` order, in a vector with room for
/// `capacity` values (the context goals come after them).
fn selected_fitness(selected: &[GoalId], all: &GoalFitness, capacity: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(capacity.max(selected.len()));
    out.extend(selected.iter().map(|&g| all.of(g)));
    out
}

/// Class and source line of a goal's probe, when it has one (for reports).
fn goal_location(plan: &goals::ProbePlan, goal: &goals::Goal) -> Option<(String, Option<u16>)> {
    use goals::Goal;
    let probe = match goal {
        Goal::Branch { probe, .. }
        | Goal::SwitchCase { probe, .. }
        | Goal::Exception { probe }
        | Goal::WeakMutation { probe, .. } => *probe,
        Goal::Line { class, line } => return Some((plan.class(*class).name.clone(), Some(*line))),
        Goal::MethodEntry { class, method }
        | Goal::MethodNormalExit { class, method }
        | Goal::Output { class, method, .. } => {
            let c = plan.class(*class);
            let name = c.methods.iter().find(|m| m.index == *method).map_or("?", |m| m.name.as_str());
            return Some((format!("{}.{name}", c.name), None));
        }
    };
    let p = plan.probe(probe);
    Some((plan.class(p.class).name.clone(), p.line))
}

/// Adds to `out`, for each source line of `class`'s methods, the classes of `planned` (other than
/// `class`) that an instruction on that line initialises when it runs: the class of a `new`, of a
/// `getstatic`/`putstatic`, of an `invokestatic` (JVMS §5.5). A method that does not decode (the goal
/// model has decoded every instrumented one) adds nothing.
fn init_triggers(
    class: &str,
    file: &classfile::ClassFile,
    planned: &BTreeSet<&str>,
    out: &mut BTreeMap<String, BTreeMap<u16, BTreeSet<String>>>,
) {
    use bytecode::{Insn, Opcode};
    let cp = &file.constant_pool;
    for m in &file.methods {
        let Some(Ok(code)) = m.code(cp) else { continue };
        let Ok(body) = bytecode::decode(&code, cp) else { continue };
        let mut lines: Vec<(usize, u16)> = body.lines().map(|e| (e.start.index(), e.line)).collect();
        lines.sort_unstable();
        for (i, insn) in body.insns.iter().enumerate() {
            let target = match insn {
                Insn::Type { op, index } if *op == Opcode::NEW => cp.class_name(*index),
                Insn::Field { op, index } if *op == Opcode::GETSTATIC || *op == Opcode::PUTSTATIC => {
                    cp.member_ref(*index).map(|r| r.class)
                }
                Insn::Invoke { op, index } if *op == Opcode::INVOKESTATIC => {
                    cp.member_ref(*index).map(|r| r.class)
                }
                _ => None,
            };
            let Some(target) = target.filter(|t| t != class && planned.contains(t.as_ref())) else {
                continue;
            };
            let Some(&(_, line)) = lines.iter().rev().find(|&&(start, _)| start <= i) else { continue };
            out.entry(class.to_string()).or_default().entry(line).or_default().insert(target.into_owned());
        }
    }
}

/// The class (internal name) a goal belongs to.
fn goal_class<'p>(plan: &'p goals::ProbePlan, goal: &goals::Goal) -> &'p str {
    use goals::Goal;
    let class = match goal {
        Goal::Branch { probe, .. }
        | Goal::SwitchCase { probe, .. }
        | Goal::Exception { probe }
        | Goal::WeakMutation { probe, .. } => plan.probe(*probe).class,
        Goal::Line { class, .. }
        | Goal::MethodEntry { class, .. }
        | Goal::MethodNormalExit { class, .. }
        | Goal::Output { class, .. } => *class,
    };
    plan.class(class).name.as_str()
}

/// Whether every probe of a goal sits in a static initialiser (or outside any method). The worker
/// initialises every instrumented class at setup, before any test, so that each test starts from the
/// state the static reset re-creates (`java/runtime/.../WorkerMain.initialiseAll`): no test trace
/// ever shows `<clinit>` code, and such goals are out of the search's reach.
fn only_in_class_init(plan: &goals::ProbePlan, g: GoalId) -> bool {
    let probes = plan.probes_of_goal(g);
    !probes.is_empty() && probes.iter().all(|&p| plan.method_of(p).is_none_or(|m| m.name == "<clinit>"))
}

/// The goals a test can never cover because the worker runs them at set-up, before any test
/// (`java/runtime/.../WorkerMain.initialiseAll`), in model order:
/// - every goal whose probes all sit in a static initialiser (`only_in_class_init`);
/// - the line and branch goals `init_trace` covers: code that runs while the classes initialise, as
///   a singleton's private constructor or a helper filling a static table. Such code runs again
///   under static reset, but reset is untraced, and the JVM initialises a class once. Only line and
///   branch goals count: they are what the written tests execute and JaCoCo measures when they load
///   the class, whereas method, output and mutation goals are about calls a test makes.
fn init_goals(model: &GoalModel, init_trace: &Trace) -> Vec<GoalId> {
    let at_init = goal_fitness(model, init_trace);
    model
        .goal_ids()
        .filter(|&g| {
            only_in_class_init(model.plan(), g)
                || (matches!(model.goal(g).criterion(), Criterion::Line | Criterion::Branch)
                    && at_init.of(g) == 0.0)
        })
        .collect()
}

/// The goals of `criteria` (minus `init_goals`), their DynaMOSA roots and release lists. Control dependences in the model
/// point at branch goals; when those are not selected, releases pass through them to the selected
/// goals they control (so restricting criteria never strands a goal), and a root that is not
/// selected hands its role to the selected goals it releases.
fn select_goals(
    model: &GoalModel,
    criteria: &[Criterion],
    init_goals: &[GoalId],
) -> (Vec<GoalId>, Vec<GoalIdx>, Vec<Vec<GoalIdx>>) {
    let mut dense: Vec<Option<GoalIdx>> = vec![None; model.n_goals()];
    let mut selected = Vec::new();
    for g in model.goal_ids() {
        if criteria.contains(&model.goal(g).criterion()) && init_goals.binary_search(&g).is_err() {
            dense[g.index()] = Some(GoalIdx(selected.len() as u32));
            selected.push(g);
        }
    }
    // Selected goals reached from `start` through unselected goals only (iterative, cycle-safe).
    let closure = |start: &[GoalId]| -> Vec<GoalIdx> {
        let mut out = BTreeSet::new();
        let mut seen = vec![false; model.n_goals()];
        let mut stack: Vec<GoalId> = start.iter().rev().copied().collect();
        while let Some(h) = stack.pop() {
            if std::mem::replace(&mut seen[h.index()], true) {
                continue;
            }
            match dense[h.index()] {
                Some(i) => {
                    out.insert(i);
                }
                None => stack.extend(model.released_by(h).iter().rev().copied()),
            }
        }
        out.into_iter().collect()
    };
    let roots = closure(model.roots());
    let released = selected.iter().map(|&g| closure(model.released_by(g))).collect();
    (selected, roots, released)
}

impl Problem for JvmProblem {
    fn n_goals(&self) -> usize {
        self.selected.len() + self.contexts.as_ref().map_or(0, ContextGoals::len)
    }

    fn roots(&self) -> Vec<GoalIdx> {
        self.roots.clone()
    }

    fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        self.released.get(g.index()).map_or(&[], Vec::as_slice)
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
                (self.batch_run().run(&misses), plan, started)
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
        if let Some(contexts) = &mut self.contexts {
            for r in &results {
                contexts.discover(&self.model, &r.trace);
            }
        }
        let mut out = Vec::with_capacity(results.len());
        for (r, all) in results.iter().zip(scored.scores) {
            self.feed_pool(&r.trace, dynamic);
            // Where the test stopped: the first statement that threw, or that a guard or the
            // timeout cut short (the rest of the test did not run either way).
            let exception_at = r
                .outcomes
                .iter()
                .position(|o| matches!(o, Outcome::Threw { .. } | Outcome::Guard { .. } | Outcome::Timeout));
            // Cache hits, repeats and tests that did not finish normally are scored here.
            let (all, values) = all.unwrap_or_else(|| {
                let all = goal_fitness(&self.model, &r.trace);
                let values = selected_fitness(&self.selected, &all, self.n_goals());
                (all, values)
            });
            out.push(Evaluation { fitness: self.fitness_with(&all, values, &r.trace), exception_at });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class_file(name: &str) -> classfile::ClassFile {
        let path = test_support::fixture_classes("search").join(format!("{name}.class"));
        classfile::ClassFile::parse(&std::fs::read(path).expect("fixture class")).expect("parses")
    }

    /// A switch on an enum reads javac's switch map (`getstatic Alarm$1.$SwitchMap$...`) on the
    /// `switch` line: running that line initialises `Alarm$1`, and `Level` (not planned here)
    /// and `Alarm` itself are never triggers.
    #[test]
    fn switch_map_is_initialised_by_the_switch_line() {
        let planned: BTreeSet<&str> = ["search/Alarm", "search/Alarm$1"].into_iter().collect();
        let mut out = BTreeMap::new();
        init_triggers("search/Alarm", &class_file("search/Alarm"), &planned, &mut out);
        let want: BTreeSet<String> = ["search/Alarm$1".to_string()].into_iter().collect();
        assert_eq!(out, BTreeMap::from([("search/Alarm".to_string(), BTreeMap::from([(12, want)]))]));
    }
}
