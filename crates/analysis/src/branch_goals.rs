//! The inventory of branch goals of a method, as EvoSuite's branch criterion defines them: each
//! conditional jump gives two goals (taken, not taken), each switch one goal per case and one for
//! the default (cases sharing a target stay separate goals, since the switch key tells them
//! apart), and a method with neither gets a single root goal (covered when the method is
//! entered). Goals refer to their CFG edge, so the control dependences of a goal are those of its
//! edge's source block. `goto`, `jsr`/`ret` and exceptional edges are not goals.

use bytecode::{InsnIdx, MethodBody};

use crate::cfg::{BlockId, Cfg, EdgeKind};
use crate::control_deps::{ControlDep, ControlDeps};
use crate::graph::EdgeId;

/// A branch goal of one method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BranchGoal {
    /// The method has no conditional jump and no switch: covered by entering it.
    Root,
    /// One outcome of the branching instruction `insn` (the last of block `block`), along `edge`.
    Branch { insn: InsnIdx, block: BlockId, edge: EdgeId, outcome: Outcome },
}

/// Which outcome of a branching instruction a goal asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Taken,
    NotTaken,
    Case(i32),
    Default,
}

/// The branch goals of `body`, in instruction order and, per instruction, in the CFG's edge order
/// (taken before not taken; cases in operand order, then default).
pub fn branch_goals(body: &MethodBody, cfg: &Cfg) -> Vec<BranchGoal> {
    let mut goals = Vec::new();
    for b in cfg.block_ids() {
        let block = cfg.block(b);
        let last = InsnIdx::new(block.end.index() - 1);
        let insn = &body.insns[last.index()];
        if !(insn.is_conditional() || insn.is_switch()) {
            continue;
        }
        for &e in cfg.succ_edges(b) {
            let outcome = match cfg.edge(e).kind {
                EdgeKind::Taken => Outcome::Taken,
                EdgeKind::NotTaken => Outcome::NotTaken,
                EdgeKind::Case(k) => Outcome::Case(k),
                EdgeKind::Default => Outcome::Default,
                _ => continue,
            };
            goals.push(BranchGoal::Branch { insn: last, block: b, edge: e, outcome });
        }
    }
    if goals.is_empty() {
        goals.push(BranchGoal::Root);
    }
    goals
}

/// The branch goals a block is control dependent on, for approach-level fitness: a block's
/// control dependences on edges that are not goals (fall-through and jump edges made conditional by
/// exceptional flow, exceptional edges, `jsr`/`ret`) are replaced by the goal dependences of their
/// source block, transitively. `entry` says whether some chain reaches `ControlDep::Entry` (the
/// block runs whenever the method does, or once no exception was thrown).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoalDeps {
    /// Indices into the method's branch-goal list, sorted.
    pub goals: Vec<usize>,
    pub entry: bool,
}

/// [`GoalDeps`] of every block, indexed by `BlockId`.
pub fn goal_deps(cfg: &Cfg, deps: &ControlDeps, goals: &[BranchGoal]) -> Vec<GoalDeps> {
    let mut goal_of_edge = vec![None; cfg.edges().len()];
    for (k, g) in goals.iter().enumerate() {
        if let BranchGoal::Branch { edge, .. } = g {
            goal_of_edge[edge.index()] = Some(k);
        }
    }
    let n = cfg.blocks().len();
    let mut res = Vec::with_capacity(n);
    let mut visited = vec![false; n];
    for b in cfg.block_ids() {
        let mut out = GoalDeps::default();
        let mut touched = vec![b];
        visited[b.index()] = true;
        let mut worklist: Vec<ControlDep> = deps.deps(b.node()).to_vec();
        while let Some(d) = worklist.pop() {
            match d {
                ControlDep::Entry => out.entry = true,
                ControlDep::Edge(e) => match goal_of_edge[e.index()] {
                    Some(g) => out.goals.push(g),
                    None => {
                        let from = cfg.edge(e).from;
                        if !visited[from.index()] {
                            visited[from.index()] = true;
                            touched.push(from);
                            worklist.extend_from_slice(deps.deps(from.node()));
                        }
                    }
                },
            }
        }
        for t in touched {
            visited[t.index()] = false;
        }
        out.goals.sort_unstable();
        out.goals.dedup();
        res.push(out);
    }
    res
}
