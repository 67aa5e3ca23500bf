//! symbolic: the concolic interpreter of paper 004 (digest Part C). It runs one test case over the
//! program database's bytecode with concrete JVM values, each carrying an optional symbolic shadow
//! (`solver::ExprId`), and records the path condition (one `PcEntry` per conditional jump or switch
//! whose condition is symbolic, plus implicit exception checks, pins and input assumptions) and the
//! branch goals of the probe plan that the run took.
//!
//! Objects are concrete, in a heap of our own; only primitive values, string lengths and characters
//! are symbolic. JDK classes the subjects use most (String, StringBuilder, the boxes, Character,
//! Math, Object, System.arraycopy, Arrays, Objects, Throwable) are Rust models (`models`); any other
//! class is interpreted from its bytecode, up to `SymConfig::max_depth` frames. Whatever cannot be
//! computed (a native method, an unmodelled operation on a modelled object) ends the replay with
//! `Replay::stop`; the path up to there stays valid.
//!
//! Decisions where the contract leaves room:
//! - A run follows the worker (java/runtime `Executor`): the test ends at the first statement
//!   that throws; every class's `<clinit>` runs on first use, and branches taken inside class
//!   initialisers are not `covered` (the worker runs them at set-up, outside any test's trace).
//! - Implicit exception checks (division by zero, array and string bounds, negative sizes, number
//!   formats) with a symbolic operand are `EntryKind::Implicit` entries with `negated_goal: None`:
//!   no branch goal of the plan stands for an exception path. Null checks and casts are never
//!   symbolic (references are concrete).
//! - Concretisations are `EntryKind::Pin` entries (`e == v`, or a restriction a model relies on,
//!   such as "this character is ASCII"); a string input's `0 <= length <= max_string` is an
//!   `EntryKind::Assume` entry. Entries without a goal carry `NO_GOAL`.
//! - Test literals are interned in the worker, so a string input made from a literal is `==` to
//!   every literal of its contents; boxes of the `valueOf` caches keep identity the same way.
//! - javac's constant-push diamonds (`boolean b = x > 10;`) with a symbolic condition are merged
//!   (`merge`): the value at the join is an `ite` of the condition, and the jump's `Branch` entry
//!   is `merged`, negated for its own goals but in no later prefix (`Replay::prefix`).
//! - The interpreter's own bounds are deterministic: `max_steps`, `max_depth`, 4M array
//!   elements and 2M expression nodes per replay.
//!
//! Exploration mode (paper 003, SUSHI; `Concolic::explore`, modules `explore`, `lazy`, `numeric`,
//! `pctext`): one method is run on *lazy* inputs, objects materialised on first access as null, an
//! alias of an earlier input object or a fresh object of each class in scope, with primitive fields
//! as solver variables named by their access paths; its paths are enumerated depth-first by replay
//! of a choice vector, with the solver deciding which sides of symbolic branches are feasible, and
//! each path comes out as a `protocol::PathCondition` (clauses in assumption order) with the branch
//! goals it covered and how it ended. Invariants of the input heap (`invariants`: rules at every
//! resolution, per-class heap scopes, the class's own `repOk`) keep the paths to legal states.
//!
//! Outside exploration it deliberately does not solve anything (`solver` does), choose what to
//! negate (`dse` does) or run a JVM: the interpreter never starts a process and never runs code
//! under test for real.

mod branches;
mod classes;
mod explore;
mod frame;
mod heap;
mod interp;
mod invariants;
mod invoke;
mod lazy;
mod merge;
mod models;
mod numeric;
mod ops;
mod pctext;
mod stmts;
mod strings;
mod value;

use std::fmt;

use solver::{Arena, Assignment, ExprId, VarId};

pub use branches::NO_GOAL;
pub use classes::{Callee, callee};
pub use explore::{Exploration, ExploreConfig, ExploreError, ExploreStats, ExploredPath, PathEnd};
pub use invariants::{Invariants, Pattern, PatternError, Rule, RuleKind};
pub use lazy::{Bound, path_text};
/// The workers' clock base the replays assume (`System.currentTimeMillis` in the classes under test).
pub use models::misc::TIME_BASE_MS;
pub use models::props::{SYSTEM_PROPERTIES, system_property};
pub use pctext::{clause_text, num_text};

/// What a replay may spend, in deterministic units only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymConfig {
    /// Bytecode instructions (and model calls) per replay.
    pub max_steps: u64,
    /// Frames on the interpreter's call stack (the test's own call is depth 1).
    pub max_depth: u32,
    /// Characters per symbolic string (variables are made for indices below it).
    pub max_string: u32,
    /// The models of the JDK methods parsers use (docs/dse.md "Models"): `split` and `matches` by
    /// regular expressions, `String.format`, `strip`, and `Math`'s double functions kept
    /// symbolic. Off (an ablation), those calls stop the replay (`split` by one literal
    /// character excepted) and `Math`'s double functions are concretised, as before the models.
    pub parser_models: bool,
}

impl SymConfig {
    /// The limits the DSE hook starts from. Calls recurse on the Rust stack: 128 frames take
    /// about 300 KiB at opt-level 1 (800 ran in a 2 MiB test thread), a few times that unoptimised.
    pub const STANDARD: SymConfig =
        SymConfig { max_steps: 200_000, max_depth: 128, max_string: 32, parser_models: true };
}

/// Where an input comes from in the test (after expansion, each occurrence is its own statement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InputOrigin {
    /// The value of a `Primitive` statement.
    Prim { stmt: usize },
    /// The length of a `String` statement's string.
    StrLen { stmt: usize },
    /// Character `index` of a `String` statement's string (indices at or past the test's length
    /// exist too: they are what a longer string would hold; their hint is 0).
    StrChar { stmt: usize, index: u32 },
}

/// One symbolic input: its solver variable and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    pub var: VarId,
    pub origin: InputOrigin,
}

/// What kind of fact a path entry records (an addition to the contract: the DSE negates only
/// `Branch` and `Switch` entries, and keeps the others as part of every prefix).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    /// A conditional jump (or `?cmp` + `if` pair) with a symbolic condition.
    Branch,
    /// A `tableswitch`/`lookupswitch` with a symbolic key: `PcEntry::cases` lists the others.
    Switch,
    /// An implicit check that may throw (null, array bounds, division by zero, negative size,
    /// cast, string index, number format): `negated_goal` is `None`.
    Implicit,
    /// A concretisation: `e == v` for a symbolic value an operation could not take symbolically
    /// (a symbolic array index, a string length a model needs concrete, ...).
    Pin,
    /// A fact about the inputs themselves (`0 <= length <= max_string` of a string input).
    Assume,
}

/// One fact of the path condition, in execution order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcEntry {
    /// The branch (or switch case) goal the run took here; `NO_GOAL` for entries without one (a
    /// branch of a method outside the probe plan, implicit checks, pins, assumptions).
    pub goal: goals::GoalId,
    /// The goal the other side of a jump would cover; `None` for switches (see `cases`), implicit
    /// checks, pins, assumptions and jumps outside the plan.
    pub negated_goal: Option<goals::GoalId>,
    /// Bool: holds on this run; its negation reaches `negated_goal`.
    pub cond: ExprId,
    pub kind: EntryKind,
    /// For switches: every other target's goal with the condition (Bool) under which the key
    /// reaches it. Empty for every other kind.
    pub cases: Vec<(goals::GoalId, ExprId)>,
    /// Where (internal class name, method name and descriptor, instruction index).
    pub class: String,
    pub method: String,
    pub insn: u32,
    /// A `Branch` entry of a jump whose constant-push diamond was merged (the value at its join is
    /// an `ite` of `cond`, module `merge`): negated like any branch, but left out of every later
    /// query's prefix (`Replay::prefix`), where it would contradict the `ite`'s other side.
    pub merged: bool,
}

/// Why a replay ended before the test's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `SymConfig::max_steps` instructions ran.
    Steps,
    /// A call would exceed `SymConfig::max_depth` frames.
    Depth,
    /// The replay's expressions grew past `interp::MAX_EXPR_NODES` nodes.
    Nodes,
    /// A native method without a model (`class.name descriptor`).
    Native(String),
    /// A class or member the program database does not have.
    Missing(String),
    /// Something the interpreter does not support (an instruction, a model's argument, ...).
    Unsupported(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Steps => f.write_str("step limit"),
            Stop::Depth => f.write_str("depth limit"),
            Stop::Nodes => f.write_str("expression limit"),
            Stop::Native(m) => write!(f, "native method {m}"),
            Stop::Missing(m) => write!(f, "missing {m}"),
            Stop::Unsupported(m) => write!(f, "unsupported {m}"),
        }
    }
}

/// Counters of one replay.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InterpStats {
    /// Instructions (and model operations) with at least one symbolic operand.
    pub symbolic: u64,
    /// Instructions with concrete operands only.
    pub concrete: u64,
    /// Concretisations (pins) added to the path.
    pub pinned: u64,
    /// Statements of the test run (the last one possibly unfinished).
    pub statements: u32,
    /// The stop reason, as `Replay::stop`.
    pub stop: Option<Stop>,
}

/// The outcome of interpreting one test case.
#[derive(Debug)]
pub struct Replay {
    pub arena: Arena,
    pub inputs: Vec<Input>,
    /// The test's own values of every input (of every variable made).
    pub hint: Assignment,
    pub path: Vec<PcEntry>,
    /// Branch and switch goals the interpreted run took, in order (repeats included).
    pub covered: Vec<goals::GoalId>,
    /// Why the run ended early; the path up to it is still valid.
    pub stop: Option<Stop>,
    pub stats: InterpStats,
    /// What each statement run gave, as text (an addition to the contract, for tests and
    /// `analyze`): its value (`42`, `7L`, `"abc"`, `null`, a class name for other objects,
    /// `void`), or `threw <class>`, or `stopped` for the statement the replay stopped in.
    pub outcomes: Vec<String>,
}

impl Replay {
    /// The conditions a query negating entry `i` assumes: those of the entries before it, merged
    /// jumps left out (`PcEntry::merged`).
    pub fn prefix(&self, i: usize) -> Vec<ExprId> {
        self.path[..i].iter().filter(|e| !e.merged).map(|e| e.cond).collect()
    }

    /// The path condition as text, one entry per line (`kind goal/negated at class.method@insn:
    /// condition`), for snapshots and `analyze`.
    pub fn path_text(&self) -> String {
        let mut out = String::new();
        for e in &self.path {
            let neg = e.negated_goal.map_or("-".to_string(), |g| g.to_string());
            let goal = if e.goal == NO_GOAL { "-".to_string() } else { e.goal.to_string() };
            let method = e.method.split('(').next().unwrap_or(&e.method);
            out.push_str(&format!(
                "{:?} {goal}/{neg} {}.{method}@{}{}: {}\n",
                e.kind,
                e.class.rsplit('/').next().unwrap_or(&e.class),
                e.insn,
                if e.merged { " merged" } else { "" },
                self.arena.display(e.cond)
            ));
            for (g, c) in &e.cases {
                out.push_str(&format!("    case {g}: {}\n", self.arena.display(*c)));
            }
        }
        out
    }
}

/// The concolic interpreter over one program database and probe plan.
pub struct Concolic<'a> {
    db: &'a programdb::ProgramDb,
    plan: &'a goals::ProbePlan,
    cfg: SymConfig,
    goals: branches::GoalIndex,
    cache: classes::ClassCache,
}

impl fmt::Debug for Concolic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Concolic").field("cfg", &self.cfg).finish_non_exhaustive()
    }
}

impl<'a> Concolic<'a> {
    pub fn new(db: &'a programdb::ProgramDb, plan: &'a goals::ProbePlan, cfg: SymConfig) -> Self {
        Concolic {
            db,
            plan,
            cfg,
            goals: branches::GoalIndex::default(),
            cache: classes::ClassCache::default(),
        }
    }

    /// Interprets the test statement by statement with every Primitive and String statement of
    /// `symbolic_stmts` made a symbolic input. A statement that throws ends the test there, as the
    /// worker's executor ends it (java/runtime `Executor.runTest`).
    pub fn run(&mut self, test: &testcase::TestCase, symbolic_stmts: &[usize]) -> Replay {
        let mut m = interp::Machine::new(self.db, self.plan, self.cfg, &mut self.goals, &self.cache);
        stmts::run_test(&mut m, test, symbolic_stmts);
        m.finish()
    }
}

/// The expression of a Bool condition that is always true (for callers building prefixes).
pub fn conjunction(arena: &mut Arena, conds: &[ExprId]) -> ExprId {
    let mut acc = arena.konst(solver::Value::Bool(true));
    for &c in conds {
        acc = arena.mk(solver::Op::And2, &[acc, c]);
    }
    acc
}
