//! ocg: object construction graphs after paper 000 (EvoObj; `shared/papers/000_*`, digest 000-001
//! Part A, docs/ocg.md). `graph` is the data structure of §A2.1 (nodes are instructions in a
//! calling context, edges carry the role a value plays); `slice` builds it for one branch by the
//! interprocedural backward slice of §A2.2 and distils it; `access` chooses the methods that set
//! or get a non-public field by Eq. (1); `template` turns a graph into a test of our model
//! (Algorithm 1, §A2.4); `hook` is the search seam of §A2.5 that injects templates.

pub mod access;
pub mod graph;
pub mod hook;
pub mod slice;
pub mod template;

pub use graph::{Edge, Input, Node, NodeId, NodeKind, Ocg, Role, Site, Target};
pub use hook::{OcgConfig, OcgHook, OcgStats, OcgTarget};
