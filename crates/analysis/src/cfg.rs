//! Basic blocks and the control-flow graph of a method body, with normal edges labelled by how
//! control leaves the block (fall-through, jump, taken / not taken, switch case / default) and
//! exceptional edges to handlers.
//!
//! Leaders (JVMS §4.10.2 defines the flow; the block rule is the classic one of Aho et al.): the
//! first instruction, every jump and switch target, every instruction after a jump, switch,
//! return, `athrow`, `jsr` or `ret`, every handler's entry, and the start and (exclusive) end of
//! every protected range, so that each block lies wholly inside or wholly outside each range.
//! Every block inside a range then gets one exceptional edge per exception-table entry covering
//! it, in table order: a conservative over-approximation (a block of `iload`s cannot throw), and
//! the usual one (EvoSuite, Soot's `ExceptionalUnitGraph` in its simple form). Exceptions that
//! leave the method are not edges: a block ending in an uncaught `athrow` is an exit, like a
//! return.
//!
//! Subroutines (`jsr`/`ret`, class files before version 50, JVMS §4.10.2.5) are handled
//! conservatively without pairing calls and returns: a `jsr` has one edge to the subroutine, and
//! every `ret` has an edge to the instruction after *every* `jsr` of the method. This is a sound
//! over-approximation of the real flow (each `ret` returns to one of those points).
//!
//! Code is assumed to be verified (targets are instruction indices inside the method, as the
//! `bytecode` decoder guarantees). Targets outside the code are ignored rather than panicking.

use bytecode::{Insn, InsnIdx, MethodBody};

use crate::graph::{EdgeId, Graph, NodeId};

/// A basic block, by its index in `Cfg::blocks`. Block 0 is the entry (instruction 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockId(pub u32);

impl BlockId {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The node of this block in `Cfg::graph` (same number).
    pub fn node(self) -> NodeId {
        NodeId(self.0)
    }

    pub fn from_node(n: NodeId) -> BlockId {
        BlockId(n.0)
    }
}

/// A maximal straight-line run of instructions `[start, end)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub start: InsnIdx,
    pub end: InsnIdx,
    /// The source lines of the block's instructions (from `LineNumberTable`), sorted, distinct.
    pub lines: Vec<u16>,
}

/// How control moves along an edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EdgeKind {
    /// To the next block, with no control-transfer instruction (the block ended at a leader).
    Fallthrough,
    /// `goto` / `goto_w`.
    Jump,
    /// A conditional jump's target.
    Taken,
    /// A conditional jump's fall-through.
    NotTaken,
    /// A switch case with this key.
    Case(i32),
    /// A switch's default.
    Default,
    /// `jsr` / `jsr_w` to its subroutine.
    Jsr,
    /// `ret` to the instruction after some `jsr` (see the module comment).
    Ret,
    /// To the handler of exception-table entry `handler` (index in `MethodBody::handlers`).
    Exception { handler: u32 },
}

impl EdgeKind {
    pub fn is_exceptional(self) -> bool {
        matches!(self, EdgeKind::Exception { .. })
    }
}

/// One CFG edge. Its index in `Cfg::edges` is its `EdgeId` in `Cfg::graph`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CfgEdge {
    pub from: BlockId,
    pub to: BlockId,
    pub kind: EdgeKind,
}

/// The control-flow graph of one method body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cfg {
    blocks: Vec<Block>,
    edges: Vec<CfgEdge>,
    block_of: Vec<BlockId>,
    line_of: Vec<Option<u16>>,
    graph: Graph,
}

impl Cfg {
    /// Splits `body` into blocks and connects them (see the module comment for the rules).
    pub fn compute(body: &MethodBody) -> Cfg {
        let insns = &body.insns;
        let len = insns.len();
        let line_of = lines_per_insn(body);
        if len == 0 {
            return Cfg {
                blocks: Vec::new(),
                edges: Vec::new(),
                block_of: Vec::new(),
                line_of,
                graph: Graph::new(0, NodeId(0)),
            };
        }
        let valid = |t: InsnIdx| t.index() < len;

        // Leaders.
        let mut leader = vec![false; len + 1];
        leader[0] = true;
        let mut return_sites = Vec::new();
        for (i, insn) in insns.iter().enumerate() {
            for t in insn.targets().filter(|&t| valid(t)) {
                leader[t.index()] = true;
            }
            let op = insn.op();
            if insn.is_branch() || !insn.falls_through() {
                leader[i + 1] = true;
            }
            if op.is_jsr() && i + 1 < len {
                return_sites.push(InsnIdx::new(i + 1));
            }
        }
        for h in &body.handlers {
            for at in [h.start, h.end, h.handler] {
                if at.index() <= len {
                    leader[at.index()] = true;
                }
            }
        }

        // Blocks.
        let mut blocks = Vec::new();
        let mut block_of = vec![BlockId(0); len];
        let mut start = 0;
        for i in 1..=len {
            if leader[i] {
                let id = BlockId(blocks.len() as u32);
                block_of[start..i].iter_mut().for_each(|b| *b = id);
                let mut lines: Vec<u16> = line_of[start..i].iter().flatten().copied().collect();
                lines.sort_unstable();
                lines.dedup();
                blocks.push(Block { start: InsnIdx::new(start), end: InsnIdx::new(i), lines });
                start = i;
            }
        }

        // Edges: per block, normal edges in operand order, then exceptional edges in table order.
        let mut edges = Vec::new();
        for (b, block) in blocks.iter().enumerate() {
            let from = BlockId(b as u32);
            let last = block.end.index() - 1;
            let insn = &insns[last];
            let mut push = |to: InsnIdx, kind: EdgeKind| {
                if valid(to) {
                    edges.push(CfgEdge { from, to: block_of[to.index()], kind });
                }
            };
            let next = InsnIdx::new(last + 1);
            match insn {
                Insn::Branch { op, target } if op.is_conditional_branch() => {
                    push(*target, EdgeKind::Taken);
                    push(next, EdgeKind::NotTaken);
                }
                Insn::Branch { op, target } if op.is_goto() => push(*target, EdgeKind::Jump),
                Insn::Branch { target, .. } => push(*target, EdgeKind::Jsr),
                Insn::TableSwitch { default, low, targets } => {
                    for (k, t) in targets.iter().enumerate() {
                        push(*t, EdgeKind::Case(low.wrapping_add(k as i32)));
                    }
                    push(*default, EdgeKind::Default);
                }
                Insn::LookupSwitch { default, pairs } => {
                    for (key, t) in pairs {
                        push(*t, EdgeKind::Case(*key));
                    }
                    push(*default, EdgeKind::Default);
                }
                _ if insn.op() == bytecode::Opcode::RET => {
                    for &site in &return_sites {
                        push(site, EdgeKind::Ret);
                    }
                }
                _ if insn.falls_through() => push(next, EdgeKind::Fallthrough),
                _ => {}
            }
            for (k, h) in body.handlers.iter().enumerate() {
                if h.start <= block.start && block.end <= h.end && block.start < h.end {
                    push(h.handler, EdgeKind::Exception { handler: k as u32 });
                }
            }
        }

        let mut graph = Graph::new(blocks.len(), NodeId(0));
        for e in &edges {
            graph.add_edge(e.from.node(), e.to.node());
        }
        Cfg { blocks, edges, block_of, line_of, graph }
    }

    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    pub fn block(&self, b: BlockId) -> &Block {
        &self.blocks[b.index()]
    }

    pub fn block_ids(&self) -> impl Iterator<Item = BlockId> + '_ {
        (0..self.blocks.len() as u32).map(BlockId)
    }

    /// All edges; the index of an edge is its `EdgeId`.
    pub fn edges(&self) -> &[CfgEdge] {
        &self.edges
    }

    pub fn edge(&self, e: EdgeId) -> &CfgEdge {
        &self.edges[e.index()]
    }

    /// The edges leaving `b`, in order.
    pub fn succ_edges(&self, b: BlockId) -> &[EdgeId] {
        self.graph.succ_edges(b.node())
    }

    /// The block containing instruction `i`.
    pub fn block_of(&self, i: InsnIdx) -> BlockId {
        self.block_of[i.index()]
    }

    /// The source line of instruction `i`, if the body has a `LineNumberTable` covering it.
    pub fn line_of(&self, i: InsnIdx) -> Option<u16> {
        self.line_of.get(i.index()).copied().flatten()
    }

    /// The graph the generic algorithms run on: nodes are blocks, edges are `edges()` in order.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }
}

/// The line of every instruction: that of the line entry with the greatest start at or before it
/// (JVMS §4.7.12; when several entries share a start, the last one in file order wins).
fn lines_per_insn(body: &MethodBody) -> Vec<Option<u16>> {
    let len = body.insns.len();
    let mut entries: Vec<(InsnIdx, u16)> = body.lines().map(|e| (e.start, e.line)).collect();
    entries.sort_by_key(|&(start, _)| start);
    let mut res = vec![None; len];
    let mut k = 0;
    let mut current = None;
    for (i, slot) in res.iter_mut().enumerate() {
        while k < entries.len() && entries[k].0.index() <= i {
            current = Some(entries[k].1);
            k += 1;
        }
        *slot = current;
    }
    res
}
