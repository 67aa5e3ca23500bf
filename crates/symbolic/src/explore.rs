//! Symbolic exploration of one method with lazy initialisation (paper 003, SUSHI; digest 003-004
//! §A.2.1 step 1, §A.2.2, §A.2.8, §C.4): depth-first, by replay of a choice vector.
//!
//! Each replay runs the entry method from scratch on lazy input objects (`lazy`): every reference
//! resolution takes the alternative the choice vector names (past its end, the first: null), and
//! every primitive input its hint (0 unless a solver model gave it a value). A replay's forks are
//! its reference resolutions and its symbolic branches (conditional jumps, switches and implicit
//! checks whose condition depends on an input). After a replay, the forks past the one that made
//! the replay are the children, the deepest first: a reference fork's next alternatives, and for a
//! symbolic branch the other side, whose values come from solving the path's prefix with the
//! negated condition (Z3 with its deterministic `rlimit`, then the AVM, as `solver::Portfolio`
//! does). `unsat` prunes the side; `unknown` keeps it as a path of its own (`PathEnd::Unknown`)
//! whose condition is the prefix and the negated condition, without running it (we have no values
//! to run it with): the search decides it, as §A.2.2 says for nonlinear conditions.
//!
//! Deviations, besides those of `lazy`: a replay whose prefix goes another way than its parent's
//! (a float model, a pin) is kept as it ran; a loop is unrolled up to `max_unroll` forks at one
//! instruction, and a loop with no fork in it is bounded by the steps alone; paths ended by a
//! bound are kept, labelled (`PathEnd`), and the selection may drop them (§A.2.2 suggests
//! discarding them).
//!
//! Invariants (§A.2.7, `invariants`): the rules act inside each resolution. `repOk` is used after
//! the fact, per path, because our replays keep no partial heap to run it on after each expansion
//! (JBSE's and §A.2.7's way): when the entry is an instance method of a class with a
//! `public boolean repOk()`, each path's input state is checked by exploring `repOk` on the same
//! receiver with the path's reference decisions fixed (`Preset`: a `this`-rooted access path the
//! path resolved keeps its null, fresh object or alias; an object `repOk` reaches first by a path
//! the entry never took may turn out to be one of the entry's fresh objects, so those stay
//! possible), the path's numeric conditions assumed at every solver query, and the entry's values
//! as the first replay's. Fields the path never read are free and resolve lazily as usual. The
//! path is dropped when that exploration ends without a path returning true and without anything
//! that leaves the answer open (a bound, the heap scope, `unknown`, its own path budget); it
//! stops at the first path returning true or the first open end. Conservative in three more
//! ways: pins are not assumed, aliases of parameters' objects are not fixed, and a path ended by
//! a bound is checked on the prefix it has. Checks are cached by the condition's text.

use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use goals::GoalId;
use jvm_model::ClassName;
use protocol::{AccessPath, Clause, PathCondition, Root};
use solver::{Arena, Assignment, ExprId, Op, Outcome, Portfolio, Solver, SolverLimits, Value};

use crate::interp::{Abrupt, Machine, Res};
use crate::invariants::{Invariants, Preset};
use crate::invoke::CallKind;
use crate::lazy::{Bound, Caches, LazyState, Limits, Logged, prim_of};
use crate::numeric::{self, Vars};
use crate::value::{Slot, split_descriptor};
use crate::{Concolic, EntryKind, PcEntry, Stop, SymConfig};

/// The bounds of an exploration, all deterministic (DESIGN.md §3.8; digest §A.2.8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploreConfig {
    /// Paths per entry method (replays plus `unknown` paths).
    pub max_paths: u32,
    /// Reference resolutions per path.
    pub max_lazy_inits: u32,
    /// Fresh objects of one class per path (the heap scope).
    pub heap_scope: u32,
    /// Forks (resolutions and symbolic branches) per path.
    pub max_branch_depth: u32,
    /// Forks at one instruction per path: how often a loop may be unrolled over symbolic
    /// conditions or new lazy objects (a loop over concrete values is bounded by the steps alone).
    pub max_unroll: u32,
    /// The interpreter's limits per replay (`max_steps` is the step budget of one path).
    pub sym: SymConfig,
    /// The solver's limits per query.
    pub solver: SolverLimits,
    /// Z3 resource units (`rlimit count`) of the whole exploration, its `repOk` checks included:
    /// no query starts once they are spent (the exploration stops there, `solver_work_exhausted`).
    /// Deterministic, unlike a time limit, and what bounds the cost: on integer-arithmetic code
    /// the time goes into queries that run to their `rlimit` (about 0.3 ms per 1,000 units on
    /// the reference machine, commons-math3 `Fraction`: 4,961 queries, 596 s). Each query also
    /// counts `QUERY_UNITS`, its fixed cost, so that many cheap queries are bounded too.
    pub max_solver_work: u64,
    /// Package prefixes (internal names, `sushi/`) whose classes fresh objects may have; empty:
    /// the entry class's package.
    pub scope: Vec<String>,
    /// Rules, per-class heap scopes and `repOk` pruning (§A.2.7, `invariants`); `none()` changes
    /// nothing.
    pub invariants: Invariants,
}

impl ExploreConfig {
    /// Bounds for a first use: small heaps, as §A.2.8's "minimum bounds that give the highest
    /// coverage" are found per subject.
    pub fn standard() -> ExploreConfig {
        ExploreConfig {
            max_paths: 200,
            max_lazy_inits: 24,
            heap_scope: 4,
            max_branch_depth: 64,
            max_unroll: 16,
            sym: SymConfig { max_steps: 20_000, ..SymConfig::STANDARD },
            solver: SolverLimits::default(),
            max_solver_work: 20_000_000,
            scope: Vec::new(),
            invariants: Invariants::none(),
        }
    }
}

/// How an explored path ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathEnd {
    /// The entry method returned; the value as `Replay::outcomes` shows it (`1`, `void`, `null`).
    Return(String),
    /// An exception left the entry method (binary class name).
    Exception(String),
    /// The interpreter stopped (its step or depth budget, an unsupported operation).
    Stop(Stop),
    /// A bound of the exploration.
    Bound(Bound),
    /// Not run: the solver answered `unknown` for this side of a branch; the condition is the
    /// prefix and the negated branch, the branches those of the prefix and the negated goal.
    Unknown,
}

impl fmt::Display for PathEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathEnd::Return(v) => write!(f, "returns {v}"),
            PathEnd::Exception(c) => write!(f, "throws {c}"),
            PathEnd::Stop(s) => write!(f, "stopped: {s}"),
            PathEnd::Bound(b) => write!(f, "bound: {b:?}"),
            PathEnd::Unknown => f.write_str("solver unknown (not run)"),
        }
    }
}

/// One explored path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploredPath {
    /// The clauses in assumption order, for the worker's distance (protocol v9).
    pub condition: PathCondition,
    /// The branch goals the path took, sorted, without repeats.
    pub covered: Vec<GoalId>,
    pub end: PathEnd,
    /// Conditions of the path left out of `condition` for having no clause form (`numeric`).
    pub dropped: u32,
}

/// Counters of one exploration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExploreStats {
    pub replays: u64,
    /// Interpreter steps of all replays.
    pub steps: u64,
    /// Queries to the solver, and their answers.
    pub solver_calls: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Of `unsat`: sides whose condition's negation the prefix states already (no solver call).
    pub repeated: u64,
    /// Conditions left out of path conditions, over all paths.
    pub dropped: u64,
    /// Paths by how they ended: `return`, `exception`, `stop`, `bound`, `unknown`.
    pub ends: BTreeMap<String, u64>,
    /// Replays whose choice vector named an alternative they did not have (their prefix went
    /// another way than their parent's); they took the first alternative there.
    pub diverged: u64,
    /// Whether `max_paths` or `max_solver_work` cut the exploration short.
    pub truncated: bool,
    /// Z3 resource units spent (`QUERY_UNITS` per query included), `repOk` checks included, and
    /// whether `max_solver_work` ran out.
    pub solver_work: u64,
    pub solver_work_exhausted: bool,
    /// Alternatives of resolutions that the invariants' rules removed, each a subtree not explored
    /// (counted where the exploration first reached the resolution).
    pub rule_pruned_alternatives: u64,
    /// Replays dropped because a resolution had no alternative within the rules.
    pub rule_pruned_paths: u64,
    /// Paths dropped because no path of `repOk` returns true on their input state.
    pub rep_ok_pruned: u64,
    /// `repOk` checks that hit a bound or an `unknown` before finding a true path: kept.
    pub rep_ok_inconclusive: u64,
    /// `repOk` checks run (repeated conditions are answered from a cache) and their replays.
    pub rep_ok_checks: u64,
    pub rep_ok_replays: u64,
}

/// The paths of one entry method, in the order the depth-first exploration found them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration {
    pub paths: Vec<ExploredPath>,
    pub stats: ExploreStats,
}

/// Why an exploration could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExploreError {
    /// The program database has no such method (class internal name, name, descriptor).
    NoMethod(String),
}

impl fmt::Display for ExploreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExploreError::NoMethod(m) => write!(f, "no method {m} to explore"),
        }
    }
}

impl std::error::Error for ExploreError {}

/// The entry method: internal class name, name, descriptor, static or not.
#[derive(Clone, Debug)]
struct Entry {
    class: String,
    name: String,
    desc: String,
    is_static: bool,
}

/// What a finished replay leaves for its children.
#[derive(Debug)]
struct Run {
    arena: Arena,
    path: Vec<PcEntry>,
    log: Vec<Logged>,
    vars: Vars,
    /// Every input's value in the run, by variable name.
    hints: BTreeMap<String, Value>,
    hint: Assignment,
    covered: Vec<GoalId>,
}

/// A child of the depth-first exploration, not yet run.
enum Pending {
    /// A replay with this choice vector and these values; forks before `bound` are its parent's.
    Replay { choices: Vec<usize>, hints: BTreeMap<String, Value>, bound: usize },
    /// The other side of the symbolic branch at log position `pos` of `run` (or, for a switch, the
    /// case `case`): solved when its turn comes.
    Flip { run: Rc<Run>, pos: usize, case: Option<usize> },
}

impl Concolic<'_> {
    /// Explores `class.name descriptor` (internal class name) depth-first with lazy inputs. The
    /// interpreter's limits are `cfg.sym`'s (not those given to `Concolic::new`); the goal index and
    /// class caches are shared with `run`.
    pub fn explore(
        &mut self,
        class: &str,
        name: &str,
        descriptor: &str,
        cfg: &ExploreConfig,
    ) -> Result<Exploration, ExploreError> {
        let what = format!("{class}.{name}{descriptor}");
        let m =
            self.db.resolve_method(class, name, descriptor).ok_or(ExploreError::NoMethod(what.clone()))?;
        let flags = self.db.member(m).map(|mm| mm.access_flags).ok_or(ExploreError::NoMethod(what))?;
        let entry = Entry {
            class: class.to_string(),
            name: name.to_string(),
            desc: descriptor.to_string(),
            is_static: flags & classfile::access::STATIC != 0,
        };
        let scope = if cfg.scope.is_empty() {
            vec![class.rfind('/').map_or(String::new(), |i| class[..=i].to_string())]
        } else {
            cfg.scope.clone()
        };
        let rep_ok = if cfg.invariants.rep_ok && !entry.is_static && !(name == "repOk" && descriptor == "()Z")
        {
            self.rep_ok_of(class)
        } else {
            None
        };
        let mut dfs = Dfs::new(entry, cfg, scope, cfg.max_paths);
        dfs.rep_ok = rep_ok;
        dfs.run(self, BTreeMap::new());
        dfs.out.stats.solver_work = dfs.work();
        Ok(dfs.out)
    }

    /// The class's `public boolean repOk()` (declared or inherited), as an entry to explore.
    fn rep_ok_of(&self, class: &str) -> Option<Entry> {
        let m = self.db.resolve_method(class, "repOk", "()Z")?;
        let flags = self.db.member(m)?.access_flags;
        let public = flags & classfile::access::PUBLIC != 0 && flags & classfile::access::STATIC == 0;
        public.then(|| Entry {
            class: class.to_string(),
            name: "repOk".into(),
            desc: "()Z".into(),
            is_static: false,
        })
    }
}

/// Pushes the children of a run's forks at or after `bound`, the deepest last (popped first).
fn children(run: &Rc<Run>, bound: usize, stack: &mut Vec<Pending>) {
    let mut choices: Vec<usize> = Vec::new();
    for (pos, item) in run.log.iter().enumerate() {
        match item {
            Logged::Ref { alts, chosen, .. } => {
                if pos >= bound {
                    // Alternatives in reverse so that the next one is popped first.
                    for alt in ((*chosen as usize + 1)..(*alts as usize)).rev() {
                        let mut c = choices.clone();
                        c.push(alt);
                        stack.push(Pending::Replay { choices: c, hints: run.hints.clone(), bound: pos + 1 });
                    }
                }
                choices.push(*chosen as usize);
            }
            Logged::Entry { index, .. } if pos >= bound => {
                let e = &run.path[*index];
                match e.kind {
                    EntryKind::Branch | EntryKind::Implicit => {
                        stack.push(Pending::Flip { run: run.clone(), pos, case: None });
                    }
                    EntryKind::Switch => {
                        for k in (0..e.cases.len()).rev() {
                            stack.push(Pending::Flip { run: run.clone(), pos, case: Some(k) });
                        }
                    }
                    EntryKind::Pin | EntryKind::Assume => {}
                }
            }
            Logged::Entry { .. } => {}
        }
    }
}

/// The resource units a query counts beyond its own `rlimit` count: its fixed cost (a Z3 context
/// made and its assertions sent, about 10 ms on the reference machine, or 30,000 units at 0.35 ms
/// per 1,000). Without it, an exploration of many cheap queries ran unbounded in time: with
/// symbolic strings, `DurationFormatUtils` made 1,237 queries in 28 s (docs/sushi.md).
pub const QUERY_UNITS: u64 = 30_000;

struct Dfs<'c> {
    entry: Entry,
    cfg: &'c ExploreConfig,
    max_paths: u32,
    /// Z3 resource units this exploration may spend (`ExploreConfig::max_solver_work`, for a
    /// `repOk` check what its entry exploration has left), and what its checks spent.
    max_work: u64,
    checks_work: u64,
    scope: Vec<String>,
    caches: Caches,
    solver: Portfolio,
    out: Exploration,
    invariants: Rc<Invariants>,
    /// The `repOk` each path is checked against (§A.2.7), when the invariants ask for it.
    rep_ok: Option<Entry>,
    /// Verdicts of `repOk` checks by the text of the checked condition: true to drop the path.
    verdicts: BTreeMap<String, bool>,
    /// Set when this exploration is itself a `repOk` check.
    check: Option<Check>,
}

/// The state of an exploration of `repOk` that checks one entry path.
struct Check {
    preset: Rc<Preset>,
    /// The entry path's conditions (no pins), assumed at every solver query.
    arena: Arena,
    assume: Vec<ExprId>,
    found_true: bool,
    inconclusive: bool,
}

impl<'c> Dfs<'c> {
    fn new(entry: Entry, cfg: &'c ExploreConfig, scope: Vec<String>, max_paths: u32) -> Dfs<'c> {
        Dfs {
            entry,
            cfg,
            max_paths,
            max_work: cfg.max_solver_work,
            checks_work: 0,
            scope,
            caches: Caches::default(),
            solver: Portfolio::new(&cfg.solver, 1),
            out: Exploration { paths: Vec::new(), stats: ExploreStats::default() },
            invariants: Rc::new(cfg.invariants.clone()),
            rep_ok: None,
            verdicts: BTreeMap::new(),
            check: None,
        }
    }

    /// The depth-first loop, from one replay with no choices and these input values; a `repOk`
    /// check stops at its first path that returns true or leaves the answer open.
    fn run(&mut self, c: &mut Concolic<'_>, hints: BTreeMap<String, Value>) {
        let mut stack = vec![Pending::Replay { choices: Vec::new(), hints, bound: 0 }];
        while let Some(p) = stack.pop() {
            // A check keeps the path once a path returns true or the answer is open (a bound, an
            // `unknown`): either way more paths of `repOk` would not change the verdict.
            if self.check.as_ref().is_some_and(|k| k.found_true || k.inconclusive) {
                break;
            }
            if self.out.paths.len() >= self.max_paths as usize {
                self.out.stats.truncated = true;
                break;
            }
            if self.work() >= self.max_work {
                self.out.stats.truncated = true;
                self.out.stats.solver_work_exhausted = true;
                break;
            }
            let (choices, hints, bound) = match p {
                Pending::Replay { choices, hints, bound } => (choices, hints, bound),
                Pending::Flip { run, pos, case } => match self.flip(&run, pos, case) {
                    Some(next) => next,
                    None => continue,
                },
            };
            let run = Rc::new(self.replay(c, choices, hints));
            children(&run, bound, &mut stack);
        }
    }

    /// Z3 resource units spent so far, `repOk` checks included.
    fn work(&self) -> u64 {
        let stats = self.solver.stats();
        stats.z3_rlimit + QUERY_UNITS * stats.z3.calls + self.checks_work
    }

    /// Solves the other side of the fork at `pos` of `run`: the replay to make, or `None` when the
    /// side is infeasible (or unknown, which becomes a path of its own).
    fn flip(
        &mut self,
        run: &Run,
        pos: usize,
        case: Option<usize>,
    ) -> Option<(Vec<usize>, BTreeMap<String, Value>, usize)> {
        let Logged::Entry { index, covered } = run.log[pos] else { return None };
        let e = &run.path[index];
        let mut arena = run.arena.clone();
        let mut constraints: Vec<_> = run.path[..index].iter().map(|p| p.cond).collect();
        let (other, goal) = match case {
            Some(k) => (e.cases[k].1, Some(e.cases[k].0)),
            None => (arena.mk(Op::Not, &[e.cond]), e.negated_goal),
        };
        // A condition the prefix already states (a loop's test on the same input, a cycle of
        // aliases walked again, a switch on the same key) cannot go another way: no query needed.
        if constraints.contains(&e.cond) {
            self.out.stats.unsat += 1;
            self.out.stats.repeated += 1;
            return None;
        }
        constraints.push(other);
        // A `repOk` check solves under the entry path's conditions: its values must be the entry's.
        if let Some(k) = &self.check {
            let mut memo = BTreeMap::new();
            for &e in &k.assume {
                if let Some(x) = copy_expr(&k.arena, e, &mut arena, &mut memo) {
                    constraints.push(x);
                }
            }
        }
        self.out.stats.solver_calls += 1;
        match self.solver.solve(&arena, &constraints, &run.hint) {
            Outcome::Sat(model) => {
                self.out.stats.sat += 1;
                let mut hints = run.hints.clone();
                for (v, val) in model.0 {
                    if let Some((_, name)) = arena.vars().get(v.0 as usize) {
                        hints.insert(name.clone(), val);
                    }
                }
                let choices = ref_choices(&run.log[..pos]);
                Some((choices, hints, pos + 1))
            }
            Outcome::Unsat => {
                self.out.stats.unsat += 1;
                None
            }
            Outcome::Unknown => {
                self.out.stats.unknown += 1;
                if let Some(k) = self.check.as_mut() {
                    k.inconclusive = true;
                }
                // The branch covered the side it took just before its entry was recorded
                // (`ops::branch`, `ops::switch`): that goal is not this path's.
                let mut end = covered;
                if e.goal != crate::NO_GOAL && end > 0 && run.covered[end - 1] == e.goal {
                    end -= 1;
                }
                let mut cov = run.covered[..end].to_vec();
                cov.extend(goal.filter(|g| *g != crate::NO_GOAL));
                let (mut clauses, dropped) = self.clauses(&arena, &run.path, &run.vars, &run.log[..pos]);
                match numeric::clauses(&arena, &run.vars, other, false) {
                    Some(c) => clauses.extend(c),
                    None => self.out.stats.dropped += 1,
                }
                self.push(clauses, cov, PathEnd::Unknown, dropped);
                None
            }
        }
    }

    /// Runs the entry method once with this choice vector and these input values.
    fn replay(&mut self, c: &mut Concolic<'_>, choices: Vec<usize>, hints: BTreeMap<String, Value>) -> Run {
        let limits = Limits {
            max_lazy_inits: self.cfg.max_lazy_inits,
            heap_scope: self.cfg.heap_scope,
            max_branch_depth: self.cfg.max_branch_depth,
            max_unroll: self.cfg.max_unroll,
        };
        let caches = std::mem::take(&mut self.caches);
        let mut st = LazyState::new(choices, hints, limits, self.scope.clone(), caches);
        st.invariants = self.invariants.clone();
        st.preset = self.check.as_ref().map(|k| k.preset.clone());
        let mut m = Machine::new(c.db, c.plan, self.cfg.sym, &mut c.goals, &c.cache);
        m.lazy = Some(Box::new(st));
        let r = enter(&mut m, &self.entry);
        let mut end = match r {
            Ok(v) => PathEnd::Return(v.map_or("void".to_string(), |v| m.summary(v))),
            Err(Abrupt::Throw(e)) => PathEnd::Exception(ClassName::binary_of(&m.heap.class_of(e))),
            Err(Abrupt::Stop(s)) => PathEnd::Stop(s),
        };
        self.out.stats.replays += 1;
        self.out.stats.steps += m.steps;
        // The state is there (set above); an empty one stands in otherwise.
        let st = m.lazy.take().map_or_else(
            || LazyState::new(Vec::new(), BTreeMap::new(), limits, Vec::new(), Caches::default()),
            |b| *b,
        );
        let replay = m.finish();
        self.caches = (st.fresh_classes, st.assignable);
        self.out.stats.diverged += u64::from(st.diverged);
        if let Some(b) = st.bound {
            end = PathEnd::Bound(b);
        }
        let mut hints = BTreeMap::new();
        for (v, val) in &replay.hint.0 {
            if let Some((_, name)) = replay.arena.vars().get(v.0 as usize) {
                hints.insert(name.clone(), *val);
            }
        }
        let (clauses, dropped) = self.clauses(&replay.arena, &replay.path, &st.vars, &st.log);
        self.out.stats.rule_pruned_alternatives += st.rule_pruned;
        if st.pruned {
            self.out.stats.rule_pruned_paths += 1;
        } else if let Some(k) = self.check.as_mut() {
            // A `repOk` check only needs to know whether some path returns true; a bound on the
            // way (the heap scope included) leaves the answer open.
            match &end {
                PathEnd::Return(v) if v == "1" => k.found_true = true,
                PathEnd::Stop(_) | PathEnd::Bound(_) | PathEnd::Unknown => k.inconclusive = true,
                PathEnd::Return(_) | PathEnd::Exception(_) => {}
            }
            k.inconclusive |= st.scope_cut;
            self.push(clauses, replay.covered.clone(), end, dropped);
        } else if self.violates_rep_ok(c, &replay, &hints, &clauses) {
            self.out.stats.rep_ok_pruned += 1;
        } else {
            self.push(clauses, replay.covered.clone(), end, dropped);
        }
        Run {
            arena: replay.arena,
            path: replay.path,
            log: st.log,
            vars: st.vars,
            hints,
            hint: replay.hint,
            covered: replay.covered,
        }
    }

    /// Whether no path of `repOk` returns true on the input state of this entry path: `repOk` is
    /// explored on the same receiver with the path's reference decisions fixed and its numeric
    /// conditions assumed; any bound or `unknown` on the way keeps the path (conservative).
    fn violates_rep_ok(
        &mut self,
        c: &mut Concolic<'_>,
        replay: &crate::Replay,
        hints: &BTreeMap<String, Value>,
        clauses: &[Clause],
    ) -> bool {
        let Some(rep_ok) = self.rep_ok.clone() else { return false };
        let assume: Vec<ExprId> =
            replay.path.iter().filter(|e| e.kind != EntryKind::Pin).map(|e| e.cond).collect();
        // The clauses and the conditions assumed (some have no clause form) name the check: the
        // conditions as SMT-LIB text (linear in the DAG, never cut, unlike `display`, which stops
        // at 4,000 characters and could give two conditions one verdict) with the names of the
        // variables its `vK` stand for.
        let mut key: Vec<String> = clauses.iter().map(crate::clause_text).collect();
        key.push(solver::to_smtlib(&replay.arena, &assume));
        key.extend(replay.arena.vars().iter().map(|(_, name)| name.clone()));
        let key = key.join("\n");
        if let Some(v) = self.verdicts.get(&key) {
            return *v;
        }
        let budget = self.cfg.invariants.rep_ok_paths;
        let mut sub = Dfs::new(rep_ok, self.cfg, self.scope.clone(), budget);
        // What the entry's exploration has left; a check that runs out of it is open (kept).
        sub.max_work = self.max_work.saturating_sub(self.work());
        sub.invariants = self.invariants.clone();
        sub.caches = std::mem::take(&mut self.caches);
        sub.check = Some(Check {
            preset: Rc::new(Preset::of(clauses)),
            arena: replay.arena.clone(),
            assume,
            found_true: false,
            inconclusive: false,
        });
        sub.run(c, hints.clone());
        self.caches = std::mem::take(&mut sub.caches);
        self.out.stats.rep_ok_checks += 1;
        self.out.stats.rep_ok_replays += sub.out.stats.replays;
        self.checks_work += sub.work();
        let k = sub.check.as_ref().map_or((true, true), |k| (k.found_true, k.inconclusive));
        let open = !k.0 && (k.1 || sub.out.stats.truncated);
        if open {
            self.out.stats.rep_ok_inconclusive += 1;
        }
        let violates = !k.0 && !open;
        self.verdicts.insert(key, violates);
        violates
    }

    /// The clauses of a log, and how many conditions had no clause form.
    fn clauses(
        &mut self,
        arena: &Arena,
        path: &[PcEntry],
        vars: &Vars,
        log: &[Logged],
    ) -> (Vec<Clause>, u32) {
        let mut out = Vec::new();
        let mut dropped = 0;
        for item in log {
            match item {
                Logged::Ref { clause, .. } => out.push(clause.clone()),
                Logged::Entry { index, .. } => {
                    match numeric::clauses(arena, vars, path[*index].cond, false) {
                        // A numeric clause stated before adds nothing to the conjunction (a loop's
                        // test on the same inputs); Figure 6 would only count it twice.
                        Some(c) => out.extend(c.into_iter().filter(|c| !out.contains(c)).collect::<Vec<_>>()),
                        None => dropped += 1,
                    }
                }
            }
        }
        self.out.stats.dropped += u64::from(dropped);
        (out, dropped)
    }

    fn push(&mut self, clauses: Vec<Clause>, mut covered: Vec<GoalId>, end: PathEnd, dropped: u32) {
        covered.sort();
        covered.dedup();
        let key = match &end {
            PathEnd::Return(_) => "return",
            PathEnd::Exception(_) => "exception",
            PathEnd::Stop(_) => "stop",
            PathEnd::Bound(_) => "bound",
            PathEnd::Unknown => "unknown",
        };
        *self.out.stats.ends.entry(key.to_string()).or_insert(0) += 1;
        let condition = PathCondition {
            class: ClassName::binary_of(&self.entry.class),
            name: self.entry.name.clone(),
            descriptor: self.entry.desc.clone(),
            clauses,
        };
        self.out.paths.push(ExploredPath { condition, covered, end, dropped });
    }
}

/// The choice vector of a log prefix.
fn ref_choices(log: &[Logged]) -> Vec<usize> {
    log.iter()
        .filter_map(|l| match l {
            Logged::Ref { chosen, .. } => Some(*chosen as usize),
            Logged::Entry { .. } => None,
        })
        .collect()
}

/// Resolves the receiver and the parameters (in order) and calls the entry method.
fn enter(m: &mut Machine<'_, '_>, e: &Entry) -> Res<Option<Slot>> {
    let mut args = Vec::new();
    if !e.is_static {
        // `this` is never null (§A.2.2): its alternatives are the fresh ones alone.
        let this = AccessPath { root: Root::This, steps: Vec::new() };
        match m.resolve_receiver(this, &e.class)? {
            Some(o) => args.push(Slot::obj(o)),
            None => {
                return Err(Abrupt::Stop(Stop::Unsupported(format!("no concrete class for {}", e.class))));
            }
        }
    }
    let (params, _) = split_descriptor(&e.desc);
    for (k, p) in params.iter().enumerate() {
        let path = AccessPath { root: Root::Param(k as u16), steps: Vec::new() };
        let v = match prim_of(p) {
            Some((ty, sort)) => m.symbolic_input(path, ty, sort),
            None => {
                let ty = p.strip_prefix('L').map_or(*p, |d| d.trim_end_matches(';'));
                m.resolve_ref(path, ty)?.map_or(Slot::null(), Slot::obj)
            }
        };
        args.push(v);
    }
    let kind = if e.is_static { CallKind::Static } else { CallKind::Virtual };
    m.call(kind, &e.class, &e.name, &e.desc, args)
}

/// `e` of `src` rebuilt in `dst`, variables matched by name and sort (a variable `dst` does not
/// have is made); `None` when an operation does not rebuild (the assumption is then left out,
/// which only weakens the check).
fn copy_expr(src: &Arena, e: ExprId, dst: &mut Arena, memo: &mut BTreeMap<ExprId, ExprId>) -> Option<ExprId> {
    if let Some(x) = memo.get(&e) {
        return Some(*x);
    }
    let x = if let Some(v) = src.as_const(e) {
        dst.konst(v)
    } else if let Some(v) = src.as_var(e) {
        let (sort, name) = src.vars().get(v.0 as usize)?.clone();
        match dst.vars().iter().position(|(s, n)| *s == sort && *n == name) {
            Some(k) => dst.var_expr(solver::VarId(k as u32)),
            None => dst.var(sort, &name).1,
        }
    } else {
        let (op, args) = src.as_app(e)?;
        let args = args.to_vec();
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            out.push(copy_expr(src, a, dst, memo)?);
        }
        dst.try_mk(op, &out).ok()?
    };
    memo.insert(e, x);
    Some(x)
}
