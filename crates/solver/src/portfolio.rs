//! Z3 first, the AVM when Z3 gives up.

use crate::{Arena, Assignment, Avm, ExprId, Outcome, Solver, SolverLimits, Z3Solver};

/// Counters of one back end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BackendStats {
    pub calls: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
}

/// Counters: calls, sat, unsat, unknown, per back end, and z3 rlimit used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    pub z3: BackendStats,
    pub avm: BackendStats,
    pub z3_rlimit: u64,
    pub avm_evaluations: u64,
}

/// Z3 first, AVM when Z3 says Unknown.
#[derive(Debug)]
pub struct Portfolio {
    z3: Z3Solver,
    avm: Avm,
    stats: SolverStats,
}

impl Portfolio {
    pub fn new(limits: &SolverLimits, seed: u64) -> Portfolio {
        Portfolio { z3: Z3Solver::new(limits), avm: Avm::new(limits, seed), stats: SolverStats::default() }
    }
    pub fn stats(&self) -> &SolverStats {
        &self.stats
    }
}

impl Solver for Portfolio {
    fn solve(&mut self, arena: &Arena, constraints: &[ExprId], hint: &Assignment) -> Outcome {
        match self.z3.solve(arena, constraints, hint) {
            Outcome::Unknown => self.avm.solve(arena, constraints, hint),
            other => other,
        }
    }
    fn name(&self) -> &'static str {
        "portfolio"
    }
}
