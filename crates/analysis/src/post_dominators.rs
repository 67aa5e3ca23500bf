//! Post-dominators: dominators of the reverse graph, rooted at a virtual exit node (id `n`, one past
//! the last real node) that every exit joins. An exit is a node without successors (in a CFG: a
//! block ending in a return or an uncaught `athrow`).
//!
//! Nodes that cannot reach any exit (an infinite loop, or code that only leads into one) would have
//! no post-dominators. We make the graph total the way most compilers do: we add *virtual* edges to
//! the exit, as few as we can. Candidates are visited in reverse of the forward reverse-postorder
//! (nodes unreachable from the entry come last in that order, by index), and a node that still
//! cannot reach the exit gets a virtual edge; everything that reaches it is then marked as reaching
//! the exit. The last node of a loop in reverse postorder has only retreating successors, so the
//! virtual edge leaves the loop's latch: `while (true) { body }` then behaves like a `do { body }
//! while (c)` whose condition sits at the latch. The virtual edges are reported
//! ([`PostDomTree::virtual_exits`]) and are not CFG edges: nothing is control dependent on them.

use crate::dominators::DomTree;
use crate::graph::{Graph, NodeId};

/// The post-dominator tree of a graph with its virtual exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostDomTree {
    tree: DomTree,
    exit: NodeId,
    virtual_exits: Vec<NodeId>,
}

impl PostDomTree {
    /// Post-dominators by the Cooper–Harvey–Kennedy algorithm on the reverse graph.
    pub fn compute(g: &Graph) -> PostDomTree {
        let (rev, virtual_exits) = reverse_with_exit(g);
        PostDomTree { tree: DomTree::compute(&rev), exit: rev.entry(), virtual_exits }
    }

    /// Post-dominators by the reference set-based algorithm (for cross-checking only).
    pub fn compute_reference(g: &Graph) -> PostDomTree {
        let (rev, virtual_exits) = reverse_with_exit(g);
        PostDomTree { tree: DomTree::compute_reference(&rev), exit: rev.entry(), virtual_exits }
    }

    /// The virtual exit node: `NodeId(n)` for a graph of `n` nodes.
    pub fn exit(&self) -> NodeId {
        self.exit
    }

    /// The immediate post-dominator of `n` (possibly the virtual exit); `None` only for the exit.
    pub fn ipdom(&self, n: NodeId) -> Option<NodeId> {
        self.tree.idom(n)
    }

    /// Whether `a` post-dominates `b` (reflexive).
    pub fn post_dominates(&self, a: NodeId, b: NodeId) -> bool {
        self.tree.dominates(a, b)
    }

    /// The tree itself, over `n + 1` nodes with the virtual exit as root.
    pub fn tree(&self) -> &DomTree {
        &self.tree
    }

    /// The nodes given a virtual edge to the exit because they could not reach one, in the order
    /// they were chosen.
    pub fn virtual_exits(&self) -> &[NodeId] {
        &self.virtual_exits
    }
}

/// The reverse of `g` plus the virtual exit (node `n`, the new entry), with an edge from the exit to
/// every real exit and to every node chosen for a virtual exit edge (see the module comment).
fn reverse_with_exit(g: &Graph) -> (Graph, Vec<NodeId>) {
    let n = g.n_nodes();
    let exit = NodeId(n as u32);
    let mut rev = Graph::new(n + 1, exit);
    let mut reaches_exit = vec![false; n];
    let mut worklist = Vec::new();
    for x in g.nodes() {
        if g.succ_edges(x).is_empty() {
            rev.add_edge(exit, x);
            reaches_exit[x.index()] = true;
            worklist.push(x);
        }
    }
    mark_reaching(g, &mut reaches_exit, &mut worklist);
    let mut order = g.reverse_postorder();
    let mut in_order = vec![false; n];
    for &x in &order {
        in_order[x.index()] = true;
    }
    order.extend(g.nodes().filter(|x| !in_order[x.index()]));
    let mut virtual_exits = Vec::new();
    for &x in order.iter().rev() {
        if !reaches_exit[x.index()] {
            rev.add_edge(exit, x);
            virtual_exits.push(x);
            reaches_exit[x.index()] = true;
            worklist.push(x);
            mark_reaching(g, &mut reaches_exit, &mut worklist);
        }
    }
    for x in g.nodes() {
        for y in g.succs(x) {
            rev.add_edge(y, x);
        }
    }
    (rev, virtual_exits)
}

/// Marks every node that reaches a node of `worklist` (a backward walk over predecessors).
fn mark_reaching(g: &Graph, reaches: &mut [bool], worklist: &mut Vec<NodeId>) {
    while let Some(x) = worklist.pop() {
        for &p in g.preds(x) {
            if !reaches[p.index()] {
                reaches[p.index()] = true;
                worklist.push(p);
            }
        }
    }
}
