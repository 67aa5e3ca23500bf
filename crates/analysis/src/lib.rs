//! analysis: pure analyses of one method or class (DESIGN.md §4). Generic graph algorithms
//! (`graph`, `dominators`, `post_dominators`, `control_deps`) work on a small typed graph; the
//! bytecode-facing analyses (`cfg`, `branch_goals`, `method`) build that graph from a method
//! body; `data_deps` (operand producers, reaching definitions) and `pdg` (data + control
//! dependence) are the per-method data dependence that interprocedural analyses build on.
//! Nothing here rewrites code; the class hierarchy, which needs a whole classpath, is
//! `programdb`'s.

pub mod branch_goals;
pub mod cfg;
pub mod control_deps;
pub mod data_deps;
pub mod dominators;
pub mod graph;
pub mod method;
pub mod pdg;
pub mod post_dominators;
mod stack_effect;
pub mod text;

pub use branch_goals::{BranchGoal, GoalDeps, Outcome, branch_goals, goal_deps};
pub use cfg::{Block, BlockId, Cfg, CfgEdge, EdgeKind};
pub use control_deps::{ControlDep, ControlDeps};
pub use data_deps::{DataDeps, LocalDef, StackDef, Use};
pub use dominators::DomTree;
pub use graph::{EdgeId, Graph, NodeId};
pub use method::MethodAnalysis;
pub use pdg::{DataDep, Pdg};
pub use post_dominators::PostDomTree;
