//! The parts of SUSHI (paper 003; digest §A.2) that are not the symbolic interpreter: path selection
//! now (`select`, step 2 of the loop in digest §A.2.1: the fewest explored paths that cover every
//! uncovered branch some path can cover); later the path conditions as search goals and the loop of
//! digest §A.2.6 that selects, searches and selects again for the branches still uncovered.
//!
//! Every budget is deterministic (caps on the instance, a branch-and-bound node limit), never time,
//! so the same input gives the same selection on any machine.
//!
//! Not here: symbolic execution with lazy initialisation (`symbolic`), the distance of a path
//! condition (protocol v9's path conditions, evaluated in the worker), the search (`search`).

mod select;

pub use select::{Candidate, GreedyReason, Method, PathId, SelectConfig, Selection, greedy, select};
