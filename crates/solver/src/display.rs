//! A readable, Java-like rendering of expressions for `suitesmith analyze` and test snapshots:
//! infix operators with full parentheses, casts for conversions, `?:` for ite. Shared nodes are
//! written out at each use; a rendering past `LIMIT` characters is cut with `…`.

use crate::ExprId;
use crate::arena::{Arena, Step};
use crate::op::Op;
use crate::value::Sort;

/// Longest rendering of one node before it is cut.
const LIMIT: usize = 4000;

fn infix(op: Op) -> Option<&'static str> {
    Some(match op {
        Op::Add | Op::FAdd => "+",
        Op::Sub | Op::FSub => "-",
        Op::Mul | Op::FMul => "*",
        Op::SDiv | Op::FDiv => "/",
        Op::SRem | Op::FRem => "%",
        Op::And => "&",
        Op::Or => "|",
        Op::Xor => "^",
        Op::Shl => "<<",
        Op::AShr => ">>",
        Op::LShr => ">>>",
        Op::Eq | Op::FEq => "==",
        Op::Ne => "!=",
        Op::Slt | Op::FLt => "<",
        Op::Sle | Op::FLe => "<=",
        Op::Sgt | Op::FGt => ">",
        Op::Sge | Op::FGe => ">=",
        Op::Ult => "<u",
        Op::And2 => "&&",
        Op::Or2 => "||",
        Op::Implies => "=>",
        _ => return None,
    })
}

fn type_name(sort: Sort) -> String {
    match sort {
        Sort::F32 => "float".into(),
        Sort::F64 => "double".into(),
        Sort::Bv(32) => "int".into(),
        Sort::Bv(64) => "long".into(),
        Sort::Bv(16) => "char".into(),
        other => other.to_string(),
    }
}

fn render(op: Op, a: &[&str]) -> String {
    if let Some(sym) = infix(op) {
        return format!("({} {sym} {})", a[0], a[1]);
    }
    match op {
        Op::Neg | Op::FNeg => format!("-{}", a[0]),
        Op::FSqrt => format!("sqrt({})", a[0]),
        Op::FFloor => format!("floor({})", a[0]),
        Op::FCeil => format!("ceil({})", a[0]),
        Op::Not => format!("!{}", a[0]),
        Op::SignExt(w) => format!("sext{w}({})", a[0]),
        Op::ZeroExt(w) => format!("zext{w}({})", a[0]),
        Op::Extract(w) => format!("low{w}({})", a[0]),
        Op::IsNaN => format!("isNaN({})", a[0]),
        Op::IntToFp(s) | Op::FpToFp(s) => format!("({}){}", type_name(s), a[0]),
        Op::FpToInt(w) => format!("({}){}", type_name(Sort::Bv(w)), a[0]),
        Op::Cmp => format!("cmp({}, {})", a[0], a[1]),
        Op::FCmpL => format!("fcmpl({}, {})", a[0], a[1]),
        Op::FCmpG => format!("fcmpg({}, {})", a[0], a[1]),
        Op::Ite => format!("({} ? {} : {})", a[0], a[1], a[2]),
        Op::BoolToBv => format!("({} ? 1 : 0)", a[0]),
        Op::BvToBool => format!("({} != 0)", a[0]),
        _ => format!("{op:?}({})", a.join(", ")),
    }
}

impl Arena {
    /// `e` as Java-like text, e.g. `((x * 3) + 1) == 10`.
    pub fn display(&self, e: ExprId) -> String {
        let prog = self.compile(&[e]);
        let mut text: Vec<String> = Vec::with_capacity(prog.steps.len());
        for step in &prog.steps {
            let mut s = match step {
                Step::Var(v, _) => self.vars()[v.0 as usize].1.clone(),
                Step::Const(c) => c.to_string(),
                Step::App(op, args) => {
                    let a: Vec<&str> = args.iter().map(|&i| text[i as usize].as_str()).collect();
                    render(*op, &a)
                }
            };
            if s.len() > LIMIT {
                let mut cut = LIMIT;
                while !s.is_char_boundary(cut) {
                    cut -= 1;
                }
                s.truncate(cut);
                s.push('…');
            }
            text.push(s);
        }
        text.swap_remove(prog.pos(e))
    }
}
