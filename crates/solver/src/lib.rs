//! The constraint language of symbolic execution and its solvers (paper 004, digest B.2.3 and C.6).
//!
//! Expressions live in a hash-consed DAG (`Arena`) over four sorts (bit-vectors of any width up to 64,
//! IEEE `float` and `double`, booleans) with the exact semantics of the JVM's operations (`apply`,
//! `Arena::eval`). Two solvers answer conjunctions of boolean expressions: the Alternating Variable
//! Method (`Avm`, search-based, no dependency) and Z3 (`Z3Solver`, bit-vector and floating-point
//! theories through the system libz3); `Portfolio` asks Z3 first and the AVM when Z3 gives up (the AVM
//! first for queries over floats, where Z3's FP theory is slow). Every limit is deterministic (Z3's
//! `rlimit`, AVM objective evaluations), never a wall clock.
//!
//! This crate knows nothing about bytecode, tests or strings: the symbolic interpreter builds the
//! expressions (strings as a length and one 16-bit variable per character).

mod arena;
mod avm;
mod display;
mod op;
mod portfolio;
mod smt;
mod value;

use std::collections::BTreeMap;

pub use crate::arena::Arena;
pub use crate::avm::Avm;
pub use crate::op::{Op, SortError, apply};
pub use crate::portfolio::{BackendStats, Portfolio, SolverStats};
pub use crate::smt::{MAX_FLOAT_OPS, Z3Solver, to_smtlib};
pub use crate::value::{Sort, Value};

/// A solver variable (a symbolic input): index into `Arena`'s variable table.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct VarId(pub u32);

/// A node of the expression DAG: index into `Arena`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ExprId(pub u32);

/// Values of variables; a variable not in it evaluates to its default (0, false, +0.0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment(pub BTreeMap<VarId, Value>);

impl Assignment {
    /// The value of `var`, or the default of `sort` when it has none.
    pub fn get(&self, var: VarId, sort: Sort) -> Value {
        self.0.get(&var).copied().unwrap_or_else(|| Value::default_of(sort))
    }
}

/// What a solver says about a conjunction of constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Values of every variable occurring in the constraints that make them all true.
    Sat(Assignment),
    /// No values can make them all true (only Z3 proves this).
    Unsat,
    /// The solver gave up within its limits, or cannot handle the query.
    Unknown,
}

/// Deterministic limits only (no wall clock anywhere in a result that feeds the search).
///
/// The default is sized for about twenty queries per DSE application. Measured on Z3 4.8.12
/// (crates/solver/tests/oracles.rs prints them; Z3's `rlimit count` per query): Magic.linear's three
/// coupled linear constraints over ints need 513 thousand units (about 0.2 s), `x*x == 1522756`
/// 115 thousand, the CasNumber-style check-digit query over 8 characters 45 thousand, an
/// unsatisfiable `x*2 == 7` under a hundred; Magic.floats (`x*3.0+1.5 == 42.0 ∧ y*y == 2.25 ∧
/// y < 0` over doubles) needs 35 million (8 to 17 s), so float queries are the AVM's (65
/// evaluations for that one) and `Portfolio` asks the AVM first for them. One million units give
/// the bit-vector queries of that size twice what they need while a hopeless query costs at most
/// about 0.4 s; 20 000 AVM evaluations are a few milliseconds on constraints of a few hundred nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverLimits {
    /// Z3's resource limit per query (`rlimit`). 0 turns Z3 off (Z3 itself would read it as no
    /// limit, which would make results depend on time).
    pub z3_rlimit: u64,
    /// Objective evaluations per AVM query (restarts included).
    pub avm_evaluations: u64,
}

impl Default for SolverLimits {
    fn default() -> SolverLimits {
        SolverLimits { z3_rlimit: 1_000_000, avm_evaluations: 20_000 }
    }
}

/// A decision procedure (or a search) for conjunctions of boolean expressions.
pub trait Solver {
    /// Find values for the variables making every constraint (Bool exprs) true. `hint` holds the
    /// current concrete values of all variables (AVM starts from it; Z3 ignores it); a Sat
    /// assignment gives every variable that occurs in `constraints`.
    fn solve(&mut self, arena: &Arena, constraints: &[ExprId], hint: &Assignment) -> Outcome;
    /// A short name for reports.
    fn name(&self) -> &'static str;
}

/// Whether `model` makes every constraint true under `Arena::eval` (the check every Sat answer
/// passes before it leaves this crate).
pub fn satisfies(arena: &Arena, constraints: &[ExprId], model: &Assignment) -> bool {
    constraints.iter().all(|&c| arena.eval(c, model) == Value::Bool(true))
}
