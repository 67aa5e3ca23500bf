//! The text dump of a probe plan, for snapshot tests and debugging: one line per class, method,
//! probe (kind, instruction, line, detail, goals) and then one line per goal with its probes.

use std::fmt::Write;

use crate::{Detail, Goal, Mutant, ProbeId, ProbePlan, SwitchCase, Witness};

fn cond_name(c: i32) -> String {
    let base = ["eq", "ne", "lt", "ge", "gt", "le"].get((c & 7) as usize).copied().unwrap_or("?");
    if c & rt_abi::cond::NAN_GREATER != 0 { format!("{base}/nan>") } else { base.to_string() }
}

pub(crate) fn dump(plan: &ProbePlan) -> String {
    let mut out = String::new();
    for (ci, c) in plan.classes().iter().enumerate() {
        let _ = writeln!(out, "class c{ci} {}", c.name);
        for m in &c.methods {
            let _ = write!(out, "  method {} {}{}", m.index, m.name, m.descriptor);
            if let Some(why) = &m.undecodable {
                let _ = write!(out, " undecodable: {why}");
            }
            out.push('\n');
            for i in m.probes.clone() {
                probe_line(plan, ProbeId(i), &mut out);
            }
        }
        if let Some(p) = c.class_init
            && plan.probe(p).method.is_none()
        {
            let _ = writeln!(out, "  synthesized <clinit>");
            probe_line(plan, p, &mut out);
        }
    }
    for (gi, g) in plan.goals().iter().enumerate() {
        let id = crate::GoalId(gi as u32);
        let probes: Vec<String> = plan.probes_of_goal(id).iter().map(ToString::to_string).collect();
        let _ = write!(out, "g{gi} {} <- {}", goal_text(g), probes.join(" "));
        let witnesses = plan.completion_witnesses(id);
        if !witnesses.is_empty() {
            let w: Vec<String> = witnesses
                .iter()
                .map(|w| match w {
                    Witness::Hit(p) => p.to_string(),
                    Witness::Covered(g) => g.to_string(),
                })
                .collect();
            let _ = write!(out, " | completed <- {}", w.join(" "));
        }
        out.push('\n');
    }
    out
}

fn probe_line(plan: &ProbePlan, id: ProbeId, out: &mut String) {
    let p = plan.probe(id);
    let _ = write!(out, "    {id} {:?} @{}", p.kind, p.insn);
    if let Some(l) = p.line {
        let _ = write!(out, " L{l}");
    }
    match &p.detail {
        Detail::None => {}
        Detail::Branch { cond } => {
            let _ = write!(out, " {}", cond_name(*cond));
        }
        Detail::Switch { keys, target_key } => {
            let _ = write!(out, " keys {keys:?}");
            // Only switches where keys share a target say so, to keep the common dump short.
            if target_key != keys {
                let _ = write!(out, " targets {target_key:?}");
            }
        }
        Detail::Operator { op } => {
            let _ = write!(out, " {}", op.name());
        }
        Detail::Caught { catch_type } => {
            let _ = write!(out, " catch {}", catch_type.as_deref().unwrap_or("*"));
        }
        Detail::Call { callee } => {
            let _ = write!(out, " {callee}");
        }
        Detail::FallThrough => out.push_str(" fall-through"),
        Detail::Record { family, tag } => {
            let _ = write!(out, " {family} #{tag}");
        }
    }
    if !p.goals.is_empty() {
        let goals: Vec<String> = p.goals.iter().map(ToString::to_string).collect();
        let _ = write!(out, " -> {}", goals.join(" "));
    }
    out.push('\n');
}

/// A short text for a goal, the words `ProbePlan::dump` uses (also for other crates' snapshots).
pub fn goal_text(g: &Goal) -> String {
    match g {
        Goal::Line { class, line } => format!("line {class} L{line}"),
        Goal::Branch { probe, taken } => {
            format!("branch {probe} {}", if *taken { "taken" } else { "not-taken" })
        }
        Goal::SwitchCase { probe, case } => match case {
            SwitchCase::Key(k) => format!("case {probe} {k}"),
            SwitchCase::Default => format!("case {probe} default"),
        },
        Goal::MethodEntry { class, method } => format!("method-entry {class} {method}"),
        Goal::MethodNormalExit { class, method } => format!("method-normal-exit {class} {method}"),
        Goal::Exception { probe } => format!("exception {probe}"),
        Goal::Output { class, method, value } => format!("output {class} {method} {value:?}"),
        Goal::WeakMutation { probe, mutant } => match mutant {
            Mutant::ReplaceOp(op) => format!("mutant {probe} op->{}", op.name()),
            Mutant::FirstOperand => format!("mutant {probe} first-operand"),
            Mutant::SecondOperand => format!("mutant {probe} second-operand"),
            Mutant::ReplaceCond(c) => format!("mutant {probe} cond->{}", cond_name(*c)),
            Mutant::InsertUnary(u) => format!("mutant {probe} uoi{}", u.name()),
            Mutant::ReplaceConstant { at, by } => format!("mutant {probe} const@{} ->{by}", at.0),
        },
    }
}
