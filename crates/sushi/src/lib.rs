//! The parts of SUSHI (paper 003; digest §A.2) that are not the symbolic interpreter: the
//! exploration of a class's public methods and the path conditions sent to the workers
//! (`prepare`), path selection (`select`, step 2 of the loop in digest §A.2.1: the fewest
//! explored paths that cover every uncovered branch some path can cover), and the loop of digest
//! §A.2.5–A.2.6 in the search (`hook`): path conditions as goals, solved goals checked by
//! re-execution, unsolved ones taken as spurious and their branches selected for again.
//!
//! Every budget is deterministic (caps on the instance, a branch-and-bound node limit, step
//! counts, evaluations), never time, so the same input gives the same selection on any machine.
//!
//! Not here: symbolic execution with lazy initialisation (`symbolic`), the distance of a path
//! condition (protocol v9's path conditions, evaluated in the worker), the search (`search`).

mod config;
mod hook;
mod prepare;
mod select;

pub use config::SushiConfig;
pub use hook::{SushiHook, SushiStats, SushiTarget};
pub use prepare::{ExploreFigures, PathCandidate, Prepared, prepare};
pub use select::{Candidate, GreedyReason, Method, PathId, SelectConfig, Selection, greedy, select};
