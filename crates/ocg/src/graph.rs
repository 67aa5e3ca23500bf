//! The object construction graph of one branch (paper 000 §A2.1, digest 000-001 §A2.1): what the
//! slicer (`slice`) builds and the template synthesiser (`template`) reads.
//!
//! A node is an instruction in a calling context: the same instruction reached through two call
//! sites of the method under test is two nodes (`player_1()` and `player_2()` of the paper), so a
//! node's identity is its [`Site`]. A node is also a variable: the value the instruction produces.
//! Edges go the way information flows, from the node that produces a value to the node that
//! consumes it, and carry the [`Role`] the value plays there (receiver, argument, owner of a
//! field, ...), which is what code generation needs to wire statements together.
//!
//! Interprocedural flow is bound positionally (§A2.2 item 7): inside a callee, a read of `this`
//! or of parameter k is not a node of its own; the edges that would leave it leave the node that
//! produced the caller's receiver or argument k instead (the paper's "extended" edges). A callee's
//! returned value flows to its call node with [`Role::Returned`], so a field read inside a getter
//! is a parent of the call: a template sets the field before it calls the getter.
//!
//! After distillation (`slice`), every node lies on a path from a graph input to a field or
//! array-element read, or is such a read; paths that start at constants are gone.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use bytecode::InsnIdx;
use programdb::{MethodId, ProgramDb};

/// A node of one graph (its index in [`Ocg::nodes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a node's instruction is: `insn` of `method`, reached from the method under test through
/// the call instructions of `context` (outermost first; empty for the method under test itself).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Site {
    pub context: Vec<(MethodId, InsnIdx)>,
    pub method: MethodId,
    pub insn: InsnIdx,
}

/// A graph input: a value the test passes to the method under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Input {
    /// The receiver of the method under test.
    Receiver,
    /// Declared parameter `index` (0-based, `this` not counted).
    Param { index: u16 },
}

/// What a node is (the node kinds of §A2.1's table).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NodeKind {
    /// A read of the receiver or of a parameter of the method under test (`aload`/`iload` of
    /// its entry value).
    Input(Input),
    /// A `getfield` (`is_static` false) or `getstatic` read. `owner` is the internal name of the
    /// class the instruction names; `descriptor` the field's type.
    Field { owner: String, name: String, descriptor: String, is_static: bool },
    /// An `xaload`: an element of an array. `descriptor` is the element type when known
    /// (`Ljava/lang/Object;` for `aaload` of an array whose type the slicer could not tell).
    ArrayElement { descriptor: String },
    /// A call; `owner`, `name`, `descriptor` as the instruction names them.
    Call { owner: String, name: String, descriptor: String, is_static: bool },
    /// An instruction that only moves a value (`xload`/`xstore` of a local, `checkcast`): it
    /// yields no statement of its own, the template reuses its parent's variable.
    PassThrough,
}

/// The role a value plays for the node it flows into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// The receiver of a call.
    Receiver,
    /// Declared argument k of a call (`this` not counted).
    Arg(u16),
    /// The object whose field is read.
    Owner,
    /// The array an element is read from.
    ArrayRef,
    /// The index of an element read.
    ArrayIndex,
    /// The value a callee returns, flowing to its call node.
    Returned,
    /// A value moved by a pass-through node (or a store/load of a local).
    AssignedValue,
    /// An operand of arithmetic or a comparison on the way to the branch.
    Operand,
    /// A branch operand that guards the consumer (control dependence, e.g. `id` in
    /// `if (id < 0) return null; return players[id];`).
    Guard,
}

/// One node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub kind: NodeKind,
    pub site: Site,
}

/// One edge: the value of `from` plays `role` for `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    pub role: Role,
}

/// The branch a graph is built for: the conditional jump (or switch) at `insn` of `method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target {
    pub method: MethodId,
    pub insn: InsnIdx,
}

/// The object construction graph of one branch. Nodes are in the order the slicer made them;
/// edges are sorted and unique.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ocg {
    pub target: Target,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    index: BTreeMap<Site, NodeId>,
}

impl Ocg {
    /// An empty graph for `target`.
    pub fn new(target: Target) -> Ocg {
        Ocg { target, nodes: Vec::new(), edges: Vec::new(), index: BTreeMap::new() }
    }

    /// The node at `site`, made with `kind` if there is none yet.
    pub fn node(&mut self, site: Site, kind: NodeKind) -> NodeId {
        if let Some(&id) = self.index.get(&site) {
            return id;
        }
        let id = NodeId(self.nodes.len() as u32);
        self.index.insert(site.clone(), id);
        self.nodes.push(Node { kind, site });
        id
    }

    /// Adds an edge (once).
    pub fn edge(&mut self, from: NodeId, to: NodeId, role: Role) {
        let e = Edge { from, to, role };
        if let Err(at) = self.edges.binary_search(&e) {
            self.edges.insert(at, e);
        }
    }

    /// The node at `site`, if any.
    pub fn find(&self, site: &Site) -> Option<NodeId> {
        self.index.get(site).copied()
    }

    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn get(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The edges into `id`, sorted.
    pub fn parents(&self, id: NodeId) -> impl Iterator<Item = &Edge> + '_ {
        self.edges.iter().filter(move |e| e.to == id)
    }

    /// The edges out of `id`, sorted.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = &Edge> + '_ {
        self.edges.iter().filter(move |e| e.from == id)
    }

    /// The top-layer nodes (no parents), in node order: where Algorithm 1 starts.
    pub fn roots(&self) -> Vec<NodeId> {
        (0..self.nodes.len() as u32).map(NodeId).filter(|&n| self.parents(n).next().is_none()).collect()
    }

    /// Keeps only the nodes `keep` says yes to, and the edges between them; node ids are
    /// renumbered in their old order.
    pub fn retain(&mut self, keep: impl Fn(NodeId, &Node) -> bool) {
        let mut map = vec![None; self.nodes.len()];
        let mut nodes = Vec::new();
        for (i, n) in self.nodes.iter().enumerate() {
            if keep(NodeId(i as u32), n) {
                map[i] = Some(NodeId(nodes.len() as u32));
                nodes.push(n.clone());
            }
        }
        let mut edges: Vec<Edge> = self
            .edges
            .iter()
            .filter_map(|e| Some(Edge { from: map[e.from.index()]?, to: map[e.to.index()]?, role: e.role }))
            .collect();
        edges.sort();
        edges.dedup();
        self.index = nodes.iter().enumerate().map(|(i, n)| (n.site.clone(), NodeId(i as u32))).collect();
        self.nodes = nodes;
        self.edges = edges;
    }

    /// Keeps only the edges `keep` says yes to; nodes stay as they are.
    pub fn retain_edges(&mut self, keep: impl Fn(&Edge) -> bool) {
        self.edges.retain(|e| keep(e));
    }

    /// The leaves (§A2.1): field and array-element reads whose value is a slot — a primitive or a
    /// string — or an object whose state nothing downstream reads (no path from the node reaches
    /// an edge with role `Owner`, `ArrayRef` or `Receiver`). In node order.
    pub fn leaves(&self) -> Vec<NodeId> {
        (0..self.nodes.len() as u32).map(NodeId).filter(|&n| self.is_leaf(n)).collect()
    }

    pub fn is_leaf(&self, n: NodeId) -> bool {
        let descriptor = match &self.get(n).kind {
            NodeKind::Field { descriptor, .. } | NodeKind::ArrayElement { descriptor } => descriptor,
            _ => return false,
        };
        if is_slot(descriptor) {
            return true;
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut work = vec![n];
        while let Some(m) = work.pop() {
            for e in self.children(m) {
                if matches!(e.role, Role::Owner | Role::ArrayRef | Role::Receiver) {
                    return false;
                }
                if !std::mem::replace(&mut seen[e.to.index()], true) {
                    work.push(e.to);
                }
            }
        }
        true
    }

    /// The graph as text, one node per line with its parents, leaves marked: what
    /// `suitesmith analyze --ocg` prints.
    pub fn render(&self, db: &ProgramDb) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "ocg {} @{}", method_name(db, self.target.method), self.target.insn.0);
        for (i, n) in self.nodes.iter().enumerate() {
            let id = NodeId(i as u32);
            let _ = write!(s, "  n{i} {}", describe(&n.kind));
            let _ = write!(s, " [{}@{}", method_name(db, n.site.method), n.site.insn.0);
            for (m, at) in &n.site.context {
                let _ = write!(s, " <- {}@{}", method_name(db, *m), at.0);
            }
            s.push(']');
            if self.is_leaf(id) {
                s.push_str(" LEAF");
            }
            let parents: Vec<String> =
                self.parents(id).map(|e| format!("n{}:{:?}", e.from.0, e.role)).collect();
            if !parents.is_empty() {
                let _ = write!(s, " <= {}", parents.join(", "));
            }
            s.push('\n');
        }
        s
    }
}

/// Whether a value of this descriptor is a slot of a template: a primitive or a string.
pub fn is_slot(descriptor: &str) -> bool {
    descriptor.len() == 1 || descriptor == "Ljava/lang/String;"
}

fn describe(kind: &NodeKind) -> String {
    match kind {
        NodeKind::Input(Input::Receiver) => "input this".to_owned(),
        NodeKind::Input(Input::Param { index }) => format!("input arg{index}"),
        NodeKind::Field { owner, name, descriptor, is_static } => {
            format!("{}field {owner}.{name}:{descriptor}", if *is_static { "static " } else { "" })
        }
        NodeKind::ArrayElement { descriptor } => format!("element {descriptor}"),
        NodeKind::Call { owner, name, descriptor, is_static } => {
            format!("{}call {owner}.{name}{descriptor}", if *is_static { "static " } else { "" })
        }
        NodeKind::PassThrough => "pass".to_owned(),
    }
}

/// `Class.name` of a method, for text.
pub fn method_name(db: &ProgramDb, m: MethodId) -> String {
    let class = db.class_name(m.class());
    let simple = class.rsplit('/').next().unwrap_or(class);
    let name =
        db.class(m.class()).ok().and_then(|c| db.member(m)?.name(&c.constant_pool).map(|n| n.to_string()));
    match name {
        Some(name) => format!("{simple}.{name}"),
        None => format!("{simple}.#{}", m.index()),
    }
}
