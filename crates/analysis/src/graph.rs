//! A small directed graph with typed node and edge indices, the input of the generic algorithms in
//! `dominators`, `post_dominators` and `control_deps`. It knows nothing about bytecode: the CFG
//! (`cfg.rs`) builds one with the same edge order as its labelled edge list, so an `EdgeId` here is
//! the index of the corresponding CFG edge.

/// A node of a [`Graph`]: an index in `0..n_nodes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An edge of a [`Graph`], numbered in the order of [`Graph::add_edge`] calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EdgeId(pub u32);

impl EdgeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A directed multigraph with one entry node. Parallel edges and self loops are allowed (a switch
/// whose cases share a target has one edge per case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    entry: NodeId,
    edges: Vec<(NodeId, NodeId)>,
    succ_edges: Vec<Vec<EdgeId>>,
    preds: Vec<Vec<NodeId>>,
}

impl Graph {
    /// A graph of `n_nodes` nodes and no edges. `entry` must be below `n_nodes` (or the graph must
    /// be empty, in which case the algorithms return empty results).
    pub fn new(n_nodes: usize, entry: NodeId) -> Graph {
        Graph {
            entry,
            edges: Vec::new(),
            succ_edges: vec![Vec::new(); n_nodes],
            preds: vec![Vec::new(); n_nodes],
        }
    }

    /// Builds a graph from successor lists; edges are numbered node by node, in list order.
    pub fn from_succs(succs: &[Vec<NodeId>], entry: NodeId) -> Graph {
        let mut g = Graph::new(succs.len(), entry);
        for (from, list) in succs.iter().enumerate() {
            for &to in list {
                g.add_edge(NodeId(from as u32), to);
            }
        }
        g
    }

    /// Adds the edge `from -> to` and returns its id. Both ends must be nodes of the graph.
    pub fn add_edge(&mut self, from: NodeId, to: NodeId) -> EdgeId {
        let id = EdgeId(self.edges.len() as u32);
        self.edges.push((from, to));
        self.succ_edges[from.index()].push(id);
        self.preds[to.index()].push(from);
        id
    }

    pub fn n_nodes(&self) -> usize {
        self.succ_edges.len()
    }

    pub fn n_edges(&self) -> usize {
        self.edges.len()
    }

    pub fn entry(&self) -> NodeId {
        self.entry
    }

    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.n_nodes() as u32).map(NodeId)
    }

    /// `(from, to)` of an edge.
    pub fn edge(&self, e: EdgeId) -> (NodeId, NodeId) {
        self.edges[e.index()]
    }

    /// The outgoing edges of `n`, in insertion order.
    pub fn succ_edges(&self, n: NodeId) -> &[EdgeId] {
        &self.succ_edges[n.index()]
    }

    /// The successors of `n` (with repetitions for parallel edges), in edge order.
    pub fn succs(&self, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.succ_edges[n.index()].iter().map(|&e| self.edges[e.index()].1)
    }

    /// The predecessors of `n` (with repetitions for parallel edges).
    pub fn preds(&self, n: NodeId) -> &[NodeId] {
        &self.preds[n.index()]
    }

    /// Nodes reachable from the entry in reverse postorder of a depth-first search that visits
    /// successors in edge order. Uses an explicit stack (STYLE.md rule 7), so deep graphs cannot
    /// overflow the call stack.
    pub fn reverse_postorder(&self) -> Vec<NodeId> {
        reverse_postorder_generic(self.n_nodes(), self.entry, |n| self.succs(n).collect())
    }
}

/// Iterative DFS over nodes `0..n`, returning the reverse postorder of the nodes reachable from
/// `root`. Each stack frame is a node and the position of the next successor to visit.
fn reverse_postorder_generic(n: usize, root: NodeId, succs: impl Fn(NodeId) -> Vec<NodeId>) -> Vec<NodeId> {
    if root.index() >= n {
        return Vec::new();
    }
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = Vec::new();
    visited[root.index()] = true;
    stack.push((root, succs(root), 0));
    while let Some((node, list, pos)) = stack.last_mut() {
        if *pos < list.len() {
            let next = list[*pos];
            *pos += 1;
            if !visited[next.index()] {
                visited[next.index()] = true;
                let s = succs(next);
                stack.push((next, s, 0));
            }
        } else {
            post.push(*node);
            stack.pop();
        }
    }
    post.reverse();
    post
}
