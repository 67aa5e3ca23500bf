//! Control dependence after Ferrante, Ottenstein and Warren, "The Program Dependence Graph and Its
//! Use in Optimization" (TOPLAS 9(3), 1987), §3.1: for each edge `a -> b` where `b` does not
//! post-dominate `a`, the nodes on the post-dominator tree path from `b` up to, but not including,
//! `ipdom(a)` are control dependent on that edge. (`ipdom(a)` always post-dominates `b`, so the walk
//! ends; when `b` post-dominates `a`, `b == ipdom(a)` and the walk is empty.)
//!
//! The paper adds a START node with edges to the entry and to EXIT; nodes dependent on START's edge
//! to the entry execute whenever the method does. We report those as [`ControlDep::Entry`]: the
//! nodes on the post-dominator tree path from the entry up to the virtual exit. Nodes that are
//! unreachable from the entry get dependences from their edges like any other node but never
//! `Entry`. Virtual exit edges (see `post_dominators`) are not edges of the graph, so nothing
//! depends on them.

use crate::graph::{EdgeId, Graph, NodeId};
use crate::post_dominators::PostDomTree;

/// What a node is control dependent on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ControlDep {
    /// The node runs whenever the method runs (the paper's START -> entry edge).
    Entry,
    /// The node runs depending on whether this edge is taken.
    Edge(EdgeId),
}

/// The control dependences of every node of a graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlDeps {
    /// Sorted and deduplicated per node.
    deps: Vec<Vec<ControlDep>>,
    /// For each edge, the nodes dependent on it, in walk order (from the target upwards).
    dependents: Vec<Vec<NodeId>>,
}

impl ControlDeps {
    /// Control dependences of `g` given its post-dominator tree.
    pub fn compute(g: &Graph, pdom: &PostDomTree) -> ControlDeps {
        let n = g.n_nodes();
        let mut deps: Vec<Vec<ControlDep>> = vec![Vec::new(); n];
        let mut dependents = vec![Vec::new(); g.n_edges()];
        for a in g.nodes() {
            let stop = pdom.ipdom(a);
            for &e in g.succ_edges(a) {
                let (_, b) = g.edge(e);
                let mut runner = Some(b);
                while let Some(r) = runner {
                    if Some(r) == stop || r == pdom.exit() {
                        break;
                    }
                    deps[r.index()].push(ControlDep::Edge(e));
                    dependents[e.index()].push(r);
                    runner = pdom.ipdom(r);
                }
            }
        }
        if g.entry().index() < n {
            let mut runner = Some(g.entry());
            while let Some(r) = runner {
                if r == pdom.exit() {
                    break;
                }
                deps[r.index()].push(ControlDep::Entry);
                runner = pdom.ipdom(r);
            }
        }
        for d in &mut deps {
            d.sort();
            d.dedup();
        }
        ControlDeps { deps, dependents }
    }

    /// What `n` is control dependent on (sorted: `Entry` first, then edges by id).
    pub fn deps(&self, n: NodeId) -> &[ControlDep] {
        &self.deps[n.index()]
    }

    /// The nodes control dependent on edge `e`.
    pub fn dependents(&self, e: EdgeId) -> &[NodeId] {
        &self.dependents[e.index()]
    }
}
