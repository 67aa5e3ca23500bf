//! Z3 first, the AVM when Z3 gives up (digest C.6: "AVM fallback ... for constraints where Z3
//! returns unknown"), with the counters the DSE reports.
//!
//! One exception to the order, measured on Z3 4.8.12 (crates/solver/tests/oracles.rs): a query with
//! float or double terms goes to the AVM first and to Z3 only when the AVM gives up. Z3's FP theory
//! bit-blasts every multiplier: Magic.floats (`x*3.0+1.5 == 42.0 ∧ y*y == 2.25 ∧ y < 0`) needs
//! 35 million resource units (8 to 17 s) where the AVM needs 65 evaluations (well under a
//! millisecond), and a Z3 attempt at the default limit costs about half a second for nothing. Z3
//! still answers what the AVM cannot (and proves Unsat).

use crate::{Arena, Assignment, Avm, ExprId, Outcome, Solver, SolverLimits, Z3Solver};

/// Counters of one back end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BackendStats {
    pub calls: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
}

impl BackendStats {
    fn count(&mut self, res: &Outcome) {
        self.calls += 1;
        match res {
            Outcome::Sat(_) => self.sat += 1,
            Outcome::Unsat => self.unsat += 1,
            Outcome::Unknown => self.unknown += 1,
        }
    }
}

/// Counters: calls, sat, unsat, unknown, per back end, and the deterministic effort spent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    pub z3: BackendStats,
    pub avm: BackendStats,
    /// Z3 resource units (`rlimit count`) over all queries.
    pub z3_rlimit: u64,
    /// AVM objective evaluations over all queries.
    pub avm_evaluations: u64,
    /// Z3 Sat answers whose model failed the check by `Arena::eval` (counted in `z3.unknown`).
    pub z3_model_mismatches: u64,
    /// Queries Z3 refused for their floating-point operations (`smt::MAX_FLOAT_OPS`; counted in
    /// `z3.unknown`).
    pub z3_float_refusals: u64,
}

impl SolverStats {
    /// Adds `other`'s counters to these (one DSE application's to the run's).
    pub fn add(&mut self, other: &SolverStats) {
        for (a, b) in [(&mut self.z3, &other.z3), (&mut self.avm, &other.avm)] {
            a.calls += b.calls;
            a.sat += b.sat;
            a.unsat += b.unsat;
            a.unknown += b.unknown;
        }
        self.z3_rlimit += other.z3_rlimit;
        self.avm_evaluations += other.avm_evaluations;
        self.z3_model_mismatches += other.z3_model_mismatches;
        self.z3_float_refusals += other.z3_float_refusals;
    }
}

/// Z3 first, AVM when Z3 says Unknown; every Sat model is checked by `Arena::eval` before it is
/// returned (a model that does not satisfy the constraints is Unknown).
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
        if arena.has_float(constraints) {
            let res = self.run_avm(arena, constraints, hint);
            if res != Outcome::Unknown {
                return res;
            }
            return self.run_z3(arena, constraints, hint);
        }
        match self.run_z3(arena, constraints, hint) {
            Outcome::Unknown => self.run_avm(arena, constraints, hint),
            res => res,
        }
    }

    fn name(&self) -> &'static str {
        "portfolio"
    }
}

impl Portfolio {
    fn run_z3(&mut self, arena: &Arena, constraints: &[ExprId], hint: &Assignment) -> Outcome {
        let res = self.z3.solve(arena, constraints, hint);
        self.stats.z3.count(&res);
        self.stats.z3_rlimit = self.z3.rlimit_spent();
        self.stats.z3_model_mismatches = self.z3.model_mismatches();
        self.stats.z3_float_refusals = self.z3.float_refusals();
        res
    }

    /// The AVM checks its own answers: it reports Sat only when every constraint evaluates true.
    fn run_avm(&mut self, arena: &Arena, constraints: &[ExprId], hint: &Assignment) -> Outcome {
        let res = self.avm.solve(arena, constraints, hint);
        self.stats.avm.count(&res);
        self.stats.avm_evaluations = self.avm.evaluations();
        res
    }
}
