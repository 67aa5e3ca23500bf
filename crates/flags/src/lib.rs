//! flags: interprocedural flags after paper 001 (Evoif; `shared/papers/001_*`, digest 000-001
//! Part B, docs/flags.md). `detect` finds, in a method, the conditional branches on the result of
//! a call returning `boolean` (the flag branches) and, inside the flag methods, the required
//! return paths and branches, with cascades; `text` prints that; `fitness` recovers a gradient for
//! a flag branch from context-sensitive distances inside the flag methods (Algorithms 1 and 2,
//! Eq. 3) as pure functions over a trace that tests build by hand; `spec` turns detection into
//! the static input of `fitness`.
//!
//! It deliberately does not instrument, run or score anything in a run: wiring the technique into
//! the probe plan, the worker's trace and the goal space is the engine's next step.

pub mod detect;
pub mod fitness;
mod origin;
pub mod spec;
pub mod text;

pub use detect::{
    FlagAnalysis, FlagConfig, FlagMethod, IpfBranch, PathSource, RequiredPath, analyze, flag_method,
    ipf_branches,
};
pub use origin::Via;
