//! The Alternating Variable Method (Korel; paper 004's solver, digest B.2.3).

use crate::{Arena, Assignment, ExprId, Outcome, Solver, SolverLimits};

/// The AVM solver.
#[derive(Debug)]
pub struct Avm {
    limits: SolverLimits,
    seed: u64,
}

impl Avm {
    pub fn new(limits: &SolverLimits, seed: u64) -> Avm {
        Avm { limits: *limits, seed }
    }
}

impl Solver for Avm {
    fn solve(&mut self, _arena: &Arena, _constraints: &[ExprId], _hint: &Assignment) -> Outcome {
        let _ = (self.limits, self.seed);
        Outcome::Unknown
    }
    fn name(&self) -> &'static str {
        "avm"
    }
}
