//! Path conditions and explorations as text, one clause per line, for snapshots and (later)
//! `analyze --paths`: `fresh(p0) sushi.DList`, `p0.header.next = p0.header`, `p0.size + 1 > 15`.

use protocol::{Clause, Cmp, NumExpr, NumOp, PrimType};

use crate::explore::Exploration;
use crate::lazy::path_text;

/// One clause as text.
pub fn clause_text(c: &Clause) -> String {
    match c {
        Clause::Null(p) => format!("{} = null", path_text(p)),
        Clause::Alias(a, b) => format!("{} = {}", path_text(a), path_text(b)),
        Clause::Fresh { path, class } => format!("fresh({}) {class}", path_text(path)),
        Clause::Numeric { cmp, left, right } => {
            let op = match cmp {
                Cmp::Eq => "==",
                Cmp::Ne => "!=",
                Cmp::Lt => "<",
                Cmp::Le => "<=",
                Cmp::Gt => ">",
                Cmp::Ge => ">=",
            };
            format!("{} {op} {}", num_text(left), num_text(right))
        }
    }
}

fn ty_name(t: PrimType) -> &'static str {
    t.name()
}

/// A numeric expression as text, fully parenthesised below the top.
pub fn num_text(e: &NumExpr) -> String {
    match e {
        NumExpr::Const { ty, bits } => match ty {
            PrimType::Long => format!("{}L", *bits as i64),
            PrimType::Float => format!("{}f", f32::from_bits(*bits as u32)),
            PrimType::Double => format!("{}d", f64::from_bits(*bits)),
            _ => format!("{}", *bits as i64),
        },
        NumExpr::Path { path, .. } => path_text(path),
        NumExpr::Neg { operand, .. } => format!("-{}", inner(operand)),
        NumExpr::Binary { op, left, right, .. } => {
            let o = match op {
                NumOp::Add => "+",
                NumOp::Sub => "-",
                NumOp::Mul => "*",
                NumOp::Div => "/",
                NumOp::Rem => "%",
                NumOp::And => "&",
                NumOp::Or => "|",
                NumOp::Xor => "^",
                NumOp::Shl => "<<",
                NumOp::Shr => ">>",
                NumOp::Ushr => ">>>",
            };
            format!("{} {o} {}", inner(left), inner(right))
        }
        NumExpr::Convert { to, operand } => format!("({}) {}", ty_name(*to), inner(operand)),
    }
}

fn inner(e: &NumExpr) -> String {
    match e {
        NumExpr::Binary { .. } | NumExpr::Convert { .. } => format!("({})", num_text(e)),
        _ => num_text(e),
    }
}

impl Exploration {
    /// Every path: its number, how it ended, the goals it covered, then its clauses indented.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (i, p) in self.paths.iter().enumerate() {
            let goals: Vec<String> = p.covered.iter().map(|g| g.to_string()).collect();
            out.push_str(&format!("path {i}: {}; covers [{}]", p.end, goals.join(" ")));
            if p.dropped > 0 {
                out.push_str(&format!("; {} condition(s) left out", p.dropped));
            }
            out.push('\n');
            for c in &p.condition.clauses {
                out.push_str(&format!("    {}\n", clause_text(c)));
            }
        }
        out
    }
}
