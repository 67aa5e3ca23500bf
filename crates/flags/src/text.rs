//! A text form of flag detection, for `suitesmith analyze --flags` and snapshot tests: per method
//! its IPF branches (jump, call, the flag value each outcome needs, the targets), then each flag
//! method reached with its required paths per returned value. Instructions are shown by index
//! with their source line, so that the paper's line-based names of CFG edges can be checked.

use std::fmt::Write as _;

use bytecode::InsnIdx;
use programdb::{MethodId, ProgramDb};

use crate::detect::{FlagAnalysis, FlagMethod, IpfBranch, PathSource};
use crate::origin::Via;

/// `owner.name(descriptor)` of a method.
pub fn method_name(db: &ProgramDb, m: MethodId) -> String {
    let Ok(class) = db.class(m.class()) else { return format!("{m:?}") };
    let cp = &class.constant_pool;
    let member = db.member(m);
    let name = member.and_then(|mm| mm.name(cp)).unwrap_or_default();
    let desc = member.and_then(|mm| mm.descriptor(cp)).unwrap_or_default();
    format!("{}.{name}{desc}", db.class_name(m.class()))
}

/// `@i` with the source line of instruction `i` of `m`, when the method has a line table.
fn at(db: &ProgramDb, m: MethodId, i: InsnIdx) -> String {
    match db.cfg(m).and_then(|c| c.line_of(i)) {
        Some(line) => format!("@{i} (line {line})"),
        None => format!("@{i}"),
    }
}

fn outcome(taken: bool) -> &'static str {
    if taken { "taken" } else { "not taken" }
}

fn render_branch(out: &mut String, db: &ProgramDb, m: MethodId, b: &IpfBranch, indent: &str) {
    let neg = if b.negated { " negated" } else { "" };
    let mixed = if b.mixed { " (operand also from elsewhere)" } else { "" };
    let _ = writeln!(
        out,
        "{indent}branch {} on call {}{neg} {}: taken needs {}, not taken needs {}{mixed}",
        at(db, m, b.branch),
        at(db, m, b.call),
        b.callee,
        b.needs(true),
        b.needs(false),
    );
    let targets: Vec<String> = b.targets.iter().map(|&t| method_name(db, t)).collect();
    let _ = writeln!(
        out,
        "{indent}  targets: {}",
        if targets.is_empty() { "none on the classpath".to_owned() } else { targets.join(", ") }
    );
}

fn via_text(db: &ProgramDb, m: MethodId, v: &Via) -> String {
    match *v {
        Via::Entry => "entry".to_owned(),
        Via::Branch { insn, taken } => format!("{} {}", at(db, m, insn), outcome(taken)),
        Via::Switch { insn, case: Some(k) } => format!("{} case {k}", at(db, m, insn)),
        Via::Switch { insn, case: None } => format!("{} default", at(db, m, insn)),
        Via::Handler { handler } => format!("handler h{handler}"),
    }
}

fn render_flag_method(out: &mut String, db: &ProgramDb, f: &FlagMethod) {
    let m = f.method;
    let _ = writeln!(out, "  flag method {} (depth {})", method_name(db, m), f.depth);
    for value in [false, true] {
        let _ = writeln!(out, "    returns {value}:");
        if f.paths(value).is_empty() {
            let _ = writeln!(out, "      never");
        }
        for p in f.paths(value) {
            let what = match &p.source {
                PathSource::Constant { producer, via } => {
                    let v: Vec<String> = via.iter().map(|v| via_text(db, m, v)).collect();
                    format!("constant {} via {}", at(db, m, *producer), v.join(", "))
                }
                PathSource::Call { call, needs } => format!("call {} must return {needs}", at(db, m, *call)),
                PathSource::Unknown => "a value not followed".to_owned(),
            };
            let _ = writeln!(out, "      ireturn {}: {what}", at(db, m, p.ret));
        }
    }
    for b in &f.branches {
        render_branch(out, db, m, b, "    ");
    }
}

/// The whole analysis of one method under test.
pub fn render(db: &ProgramDb, a: &FlagAnalysis) -> String {
    let mut out = format!("method {}\n", method_name(db, a.method));
    if a.branches.is_empty() {
        out.push_str("  no flag branches\n");
        return out;
    }
    for b in &a.branches {
        render_branch(&mut out, db, a.method, b, "  ");
    }
    for f in &a.flag_methods {
        render_flag_method(&mut out, db, f);
    }
    if a.depth_capped {
        out.push_str("  (cascades deeper than the depth cap are not summarised)\n");
    }
    out
}
