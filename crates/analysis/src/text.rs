//! A stable text form of a method's analyses, for snapshot tests and for humans (`suitesmith`
//! may print it for an example class). One section per analysis: instructions by block, edges,
//! dominator tree, post-dominator tree, control dependences and branch goals. The format is for
//! reading and diffing only; nothing parses it.

use std::fmt::Write;

use bytecode::{Insn, MethodBody};
use classfile::ConstantPool;

use crate::branch_goals::{BranchGoal, Outcome};
use crate::cfg::{BlockId, EdgeKind};
use crate::control_deps::ControlDep;
use crate::dominators::DomTree;
use crate::graph::{EdgeId, NodeId};
use crate::method::MethodAnalysis;

/// Renders every analysis of `body`. `cp` names exception types; `header` is the first line.
pub fn render(header: &str, body: &MethodBody, a: &MethodAnalysis, cp: &ConstantPool) -> String {
    let mut out = String::new();
    let cfg = &a.cfg;
    let _ = writeln!(out, "{header}");
    let _ = writeln!(out, "\nblocks:");
    for b in cfg.block_ids() {
        let block = cfg.block(b);
        let lines: Vec<String> = block.lines.iter().map(u16::to_string).collect();
        let _ = writeln!(
            out,
            "  {b} [{}..{}) lines {}",
            block.start,
            block.end,
            if lines.is_empty() { "-".to_owned() } else { lines.join(",") }
        );
        for i in block.start.index()..block.end.index() {
            let _ = writeln!(out, "    {i:>4}: {}", insn_text(&body.insns[i]));
        }
    }
    if !body.handlers.is_empty() {
        let _ = writeln!(out, "\nhandlers:");
        for (k, h) in body.handlers.iter().enumerate() {
            let caught = if h.catch_type == 0 {
                "any".to_owned()
            } else {
                cp.class_name(h.catch_type).map_or_else(|| format!("#{}", h.catch_type), |n| n.into_owned())
            };
            let _ = writeln!(out, "  h{k} [{}..{}) -> {} catch {caught}", h.start, h.end, h.handler);
        }
    }
    let _ = writeln!(out, "\nedges:");
    for (k, e) in cfg.edges().iter().enumerate() {
        let _ = writeln!(out, "  e{k} {} -> {} {}", e.from, e.to, edge_kind_text(e.kind));
    }
    let _ = writeln!(out, "\ndominator tree:");
    write_tree(&mut out, &a.dominators, |n| BlockId::from_node(n).to_string());
    let unreachable: Vec<String> =
        cfg.block_ids().filter(|b| !a.dominators.is_reachable(b.node())).map(|b| b.to_string()).collect();
    if !unreachable.is_empty() {
        let _ = writeln!(out, "  unreachable: {}", unreachable.join(" "));
    }
    let _ = writeln!(out, "\npost-dominator tree:");
    let exit = a.post_dominators.exit();
    write_tree(&mut out, a.post_dominators.tree(), |n| {
        if n == exit { "exit".to_owned() } else { BlockId::from_node(n).to_string() }
    });
    if !a.post_dominators.virtual_exits().is_empty() {
        let v: Vec<String> =
            a.post_dominators.virtual_exits().iter().map(|&n| BlockId::from_node(n).to_string()).collect();
        let _ = writeln!(out, "  virtual exit edges from: {}", v.join(" "));
    }
    let _ = writeln!(out, "\ncontrol dependences:");
    for b in cfg.block_ids() {
        let deps: Vec<String> = a
            .control_deps
            .deps(b.node())
            .iter()
            .map(|d| match d {
                ControlDep::Entry => "entry".to_owned(),
                ControlDep::Edge(e) => edge_text(a, *e),
            })
            .collect();
        let _ = writeln!(out, "  {b}: {}", if deps.is_empty() { "-".to_owned() } else { deps.join(", ") });
    }
    let _ = writeln!(out, "\ngoal dependences:");
    for b in cfg.block_ids() {
        let d = &a.goal_deps[b.index()];
        let mut parts: Vec<String> = Vec::new();
        if d.entry {
            parts.push("entry".to_owned());
        }
        parts.extend(d.goals.iter().map(|g| format!("g{g}")));
        let _ = writeln!(out, "  {b}: {}", if parts.is_empty() { "-".to_owned() } else { parts.join(", ") });
    }
    let _ = writeln!(out, "\nbranch goals:");
    for (k, g) in a.branch_goals.iter().enumerate() {
        match g {
            BranchGoal::Root => {
                let _ = writeln!(out, "  g{k} root");
            }
            BranchGoal::Branch { insn, block, edge, outcome } => {
                let line = cfg.line_of(*insn).map_or_else(|| "-".to_owned(), |l| l.to_string());
                let outcome = match outcome {
                    Outcome::Taken => "taken".to_owned(),
                    Outcome::NotTaken => "not-taken".to_owned(),
                    Outcome::Case(k) => format!("case {k}"),
                    Outcome::Default => "default".to_owned(),
                };
                let _ = writeln!(
                    out,
                    "  g{k} @{insn} {} line {line} {outcome} ({block} e{} -> {})",
                    body.insns[insn.index()].op().name(),
                    edge.index(),
                    cfg.edge(*edge).to
                );
            }
        }
    }
    out
}

impl std::fmt::Display for BlockId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "B{}", self.0)
    }
}

fn edge_text(a: &MethodAnalysis, e: EdgeId) -> String {
    let edge = a.cfg.edge(e);
    format!("e{} ({} -> {} {})", e.index(), edge.from, edge.to, edge_kind_text(edge.kind))
}

fn edge_kind_text(k: EdgeKind) -> String {
    match k {
        EdgeKind::Fallthrough => "fallthrough".to_owned(),
        EdgeKind::Jump => "jump".to_owned(),
        EdgeKind::Taken => "taken".to_owned(),
        EdgeKind::NotTaken => "not-taken".to_owned(),
        EdgeKind::Case(k) => format!("case {k}"),
        EdgeKind::Default => "default".to_owned(),
        EdgeKind::Jsr => "jsr".to_owned(),
        EdgeKind::Ret => "ret".to_owned(),
        EdgeKind::Exception { handler } => format!("exception h{handler}"),
    }
}

/// One instruction: mnemonic, then targets or operands that matter for control flow.
pub(crate) fn insn_text(insn: &Insn) -> String {
    let name = insn.op().name();
    match insn {
        Insn::Branch { target, .. } => format!("{name} {target}"),
        Insn::TableSwitch { default, low, targets } => {
            let cases: Vec<String> = targets
                .iter()
                .enumerate()
                .map(|(k, t)| format!("{}: {t}", low.wrapping_add(k as i32)))
                .collect();
            format!("{name} {{ {}, default: {default} }}", cases.join(", "))
        }
        Insn::LookupSwitch { default, pairs } => {
            let cases: Vec<String> = pairs.iter().map(|(k, t)| format!("{k}: {t}")).collect();
            format!("{name} {{ {}, default: {default} }}", cases.join(", "))
        }
        Insn::Local { var, .. } if !name.contains('_') => format!("{name} {var}"),
        Insn::Iinc { var, delta, .. } => format!("{name} {var} {delta}"),
        Insn::Push { value, .. } => format!("{name} {value}"),
        _ => name.to_owned(),
    }
}

/// Writes a tree with two spaces of indentation per level, children in node order. An explicit
/// stack, no recursion (STYLE.md rule 7).
fn write_tree(out: &mut String, t: &DomTree, name: impl Fn(NodeId) -> String) {
    if t.root().index() >= t.n_nodes() {
        return; // the tree of an empty graph
    }
    let mut stack = vec![(t.root(), 1usize)];
    while let Some((n, depth)) = stack.pop() {
        let _ = writeln!(out, "{}{}", "  ".repeat(depth), name(n));
        for &c in t.children(n).iter().rev() {
            stack.push((c, depth + 1));
        }
    }
}
