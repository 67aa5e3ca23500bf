//! From the solver's Bool conditions of a path to the numeric clauses `n1 ⋈ n2` of a
//! `protocol::PathCondition` (digest 003-004 §A.2.3: compound conditions are normalised into that
//! form). Variables become the access paths of the inputs they stand for.
//!
//! A conjunction becomes several clauses, a negated comparison the opposite comparison (for bit
//! vectors only: `¬(x < y)` on floats also holds for NaN, which no comparison says). Whatever else
//! (a disjunction, an `ite`, a string's symbolic length) cannot be written as clauses: the caller
//! leaves the condition out and counts it. That makes the path condition weaker, never wrong for
//! the search, which re-checks by running the test which branches it covers.

use std::collections::BTreeMap;

use protocol::{AccessPath, Clause, Cmp, NumExpr, NumOp, PrimType};
use solver::{Arena, ExprId, Op, Sort, Value, VarId};

/// The inputs: solver variable -> (access path, primitive type).
pub(crate) type Vars = BTreeMap<VarId, (AccessPath, PrimType)>;

/// Nodes of a condition written out as clause trees at most. The solver's expressions are DAGs
/// with sharing and clauses are trees (the worker evaluates them as sent), so repeated squaring
/// or a chain of `x = x * x + x` doubles the tree per step: Guava's `IntMath` spent minutes
/// (and the bench's wall limit) building such trees before this bound. A condition over it is
/// left out and counted, as one with no clause form.
pub(crate) const MAX_CLAUSE_NODES: u64 = 4_096;

/// The clauses saying `cond` (Bool), or its negation with `negate`; `None` when it has no such form
/// or written out as trees it would have more than `MAX_CLAUSE_NODES` nodes.
pub(crate) fn clauses(arena: &Arena, vars: &Vars, cond: ExprId, negate: bool) -> Option<Vec<Clause>> {
    if tree_size(arena, cond, MAX_CLAUSE_NODES) > MAX_CLAUSE_NODES {
        return None;
    }
    let mut out = Vec::new();
    bool_expr(arena, vars, cond, negate, &mut out)?;
    Some(out)
}

/// The nodes of `root` written out as a tree, counted over the DAG once per node (memoised, no
/// recursion: chains can be thousands deep), saturating just above `limit`.
fn tree_size(arena: &Arena, root: ExprId, limit: u64) -> u64 {
    let mut size: BTreeMap<ExprId, u64> = BTreeMap::new();
    let mut stack = vec![(root, false)];
    while let Some((e, children_done)) = stack.pop() {
        if size.contains_key(&e) {
            continue;
        }
        let args = arena.as_app(e).map_or(&[][..], |(_, a)| a);
        if children_done {
            let n = args.iter().fold(1u64, |n, a| n.saturating_add(size.get(a).copied().unwrap_or(0)));
            size.insert(e, n.min(limit + 1));
        } else {
            stack.push((e, true));
            stack.extend(args.iter().filter(|a| !size.contains_key(a)).map(|a| (*a, false)));
        }
    }
    size.get(&root).copied().unwrap_or(1)
}

fn bool_expr(arena: &Arena, vars: &Vars, e: ExprId, neg: bool, out: &mut Vec<Clause>) -> Option<()> {
    if let Some(Value::Bool(b)) = arena.as_const(e) {
        // A constant true adds nothing; a constant false has no clause form.
        return (b != neg).then_some(());
    }
    if let Some(v) = arena.as_var(e) {
        // A boolean input: `x != 0` (or `== 0`), on its int value.
        let (path, _) = vars.get(&v)?;
        let left = NumExpr::Path { ty: PrimType::Int, path: path.clone() };
        let cmp = if neg { Cmp::Eq } else { Cmp::Ne };
        out.push(Clause::Numeric { cmp, left, right: NumExpr::int(0) });
        return Some(());
    }
    let (op, args) = arena.as_app(e)?;
    match (op, neg) {
        (Op::Not, _) => bool_expr(arena, vars, args[0], !neg, out),
        (Op::And2, false) | (Op::Or2, true) => {
            bool_expr(arena, vars, args[0], neg, out)?;
            bool_expr(arena, vars, args[1], neg, out)
        }
        (Op::BvToBool, _) => {
            let left = num(arena, vars, args[0])?;
            let zero = konst(Value::bv(width(arena.sort(args[0]))?, 0))?;
            let cmp = if neg { Cmp::Eq } else { Cmp::Ne };
            out.push(Clause::Numeric { cmp, left, right: zero });
            Some(())
        }
        _ => {
            let cmp = compare(arena, op, args, neg)?;
            let left = num(arena, vars, args[0])?;
            let right = num(arena, vars, args[1])?;
            out.push(Clause::Numeric { cmp, left, right });
            Some(())
        }
    }
}

/// The comparison of `op` (negated with `neg`) when it is one.
fn compare(arena: &Arena, op: Op, args: &[ExprId], neg: bool) -> Option<Cmp> {
    let bv = matches!(arena.sort(*args.first()?), Sort::Bv(_));
    let cmp = match op {
        Op::Eq | Op::Ne if !bv => return None,
        Op::Eq | Op::FEq => Cmp::Eq,
        Op::Ne => Cmp::Ne,
        Op::Slt | Op::FLt => Cmp::Lt,
        Op::Sle | Op::FLe => Cmp::Le,
        Op::Sgt | Op::FGt => Cmp::Gt,
        Op::Sge | Op::FGe => Cmp::Ge,
        _ => return None,
    };
    if !neg {
        return Some(cmp);
    }
    if !bv {
        return None;
    }
    Some(match cmp {
        Cmp::Eq => Cmp::Ne,
        Cmp::Ne => Cmp::Eq,
        Cmp::Lt => Cmp::Ge,
        Cmp::Le => Cmp::Gt,
        Cmp::Gt => Cmp::Le,
        Cmp::Ge => Cmp::Lt,
    })
}

fn width(s: Sort) -> Option<u8> {
    match s {
        Sort::Bv(w) => Some(w),
        _ => None,
    }
}

/// The protocol type a value of this sort computes in.
fn ty_of(s: Sort) -> Option<PrimType> {
    Some(match s {
        Sort::Bv(64) => PrimType::Long,
        Sort::Bv(32) => PrimType::Int,
        Sort::Bv(16) => PrimType::Short,
        Sort::Bv(8) => PrimType::Byte,
        Sort::F32 => PrimType::Float,
        Sort::F64 => PrimType::Double,
        _ => return None,
    })
}

fn konst(v: Value) -> Option<NumExpr> {
    Some(match v {
        Value::Bv { width, .. } => NumExpr::Const { ty: ty_of(Sort::Bv(width))?, bits: v.as_i64() as u64 },
        Value::F32(b) => NumExpr::Const { ty: PrimType::Float, bits: u64::from(b) },
        Value::F64(b) => NumExpr::Const { ty: PrimType::Double, bits: b },
        Value::Bool(_) => return None,
    })
}

/// The numeric expression of a bit-vector or float expression.
fn num(arena: &Arena, vars: &Vars, e: ExprId) -> Option<NumExpr> {
    if let Some(v) = arena.as_const(e) {
        return konst(v);
    }
    if let Some(v) = arena.as_var(e) {
        let (path, ty) = vars.get(&v)?;
        return Some(NumExpr::Path { ty: *ty, path: path.clone() });
    }
    let (op, args) = arena.as_app(e)?;
    let ty = ty_of(arena.sort(e));
    let bin = |nop: NumOp| -> Option<NumExpr> {
        Some(NumExpr::Binary {
            op: nop,
            ty: ty?,
            left: Box::new(num(arena, vars, args[0])?),
            right: Box::new(num(arena, vars, args[1])?),
        })
    };
    match op {
        Op::Add | Op::FAdd => bin(NumOp::Add),
        Op::Sub | Op::FSub => bin(NumOp::Sub),
        Op::Mul | Op::FMul => bin(NumOp::Mul),
        Op::SDiv | Op::FDiv => bin(NumOp::Div),
        Op::SRem | Op::FRem => bin(NumOp::Rem),
        Op::And => bin(NumOp::And),
        Op::Or => bin(NumOp::Or),
        Op::Xor => bin(NumOp::Xor),
        Op::Shl => bin(NumOp::Shl),
        Op::AShr => bin(NumOp::Shr),
        Op::LShr => bin(NumOp::Ushr),
        Op::Neg | Op::FNeg => Some(NumExpr::Neg { ty: ty?, operand: Box::new(num(arena, vars, args[0])?) }),
        Op::SignExt(_) | Op::ZeroExt(_) => widen(arena, vars, op, args[0], ty?),
        // `l2i`: the low 32 bits of a long.
        Op::Extract(32) => {
            Some(NumExpr::Convert { to: PrimType::Int, operand: Box::new(num(arena, vars, args[0])?) })
        }
        Op::BoolToBv => {
            // A boolean input as the JVM's int.
            let (path, _) = vars.get(&arena.as_var(args[0])?)?;
            Some(NumExpr::Path { ty: PrimType::Int, path: path.clone() })
        }
        Op::IntToFp(_) | Op::FpToInt(_) | Op::FpToFp(_) => {
            Some(NumExpr::Convert { to: ty?, operand: Box::new(num(arena, vars, args[0])?) })
        }
        _ => None,
    }
}

/// A sign or zero extension: an input of a narrow type read as `to` (the worker converts the
/// value at a path), `i2b`/`i2s`/`i2c` (an extraction then an extension), or `i2l`.
fn widen(arena: &Arena, vars: &Vars, op: Op, x: ExprId, to: PrimType) -> Option<NumExpr> {
    if let Some(v) = arena.as_var(x) {
        let (path, _) = vars.get(&v)?;
        return Some(NumExpr::Path { ty: to, path: path.clone() });
    }
    if let Some((Op::Extract(w), inner)) = arena.as_app(x) {
        let narrow = match (w, op) {
            (8, Op::SignExt(_)) => PrimType::Byte,
            (16, Op::SignExt(_)) => PrimType::Short,
            (16, Op::ZeroExt(_)) => PrimType::Char,
            _ => return None,
        };
        let operand = Box::new(num(arena, vars, inner[0])?);
        return Some(NumExpr::Convert { to: narrow, operand });
    }
    match (op, to, arena.sort(x)) {
        (Op::SignExt(64), PrimType::Long, Sort::Bv(32)) => {
            Some(NumExpr::Convert { to, operand: Box::new(num(arena, vars, x)?) })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use protocol::Root;

    use super::*;

    fn setup() -> (Arena, Vars, ExprId, ExprId) {
        let mut a = Arena::new();
        let mut vars = Vars::new();
        let (x, xe) = a.var(Sort::Bv(32), "p0");
        vars.insert(x, (AccessPath { root: Root::Param(0), steps: vec![] }, PrimType::Int));
        let (b, be) = a.var(Sort::Bv(8), "p1");
        vars.insert(b, (AccessPath { root: Root::Param(1), steps: vec![] }, PrimType::Byte));
        let be = a.mk(Op::SignExt(32), &[be]);
        (a, vars, xe, be)
    }

    fn text(a: &Arena, vars: &Vars, e: ExprId, neg: bool) -> String {
        match clauses(a, vars, e, neg) {
            Some(cs) => cs.iter().map(crate::pctext::clause_text).collect::<Vec<_>>().join(" && "),
            None => "none".into(),
        }
    }

    /// Repeated squaring shares every step in the DAG and doubles the tree: within the bound it is
    /// written out, past it the condition has no clause form (IntMath's stall, in small).
    #[test]
    fn shared_squarings_are_bounded() {
        let (mut a, vars, x, _) = setup();
        let zero = a.konst(Value::i32(0));
        let mut e = x;
        for k in 1..=40 {
            e = a.mk(Op::Mul, &[e, e]);
            let lt = a.mk(Op::Slt, &[e, zero]);
            // 2^k leaves and 2^k - 1 products, plus the comparison and its constant.
            let nodes = (1u64 << k.min(62)) * 2 - 1 + 2;
            assert_eq!(text(&a, &vars, lt, false) != "none", nodes <= MAX_CLAUSE_NODES, "k = {k}");
        }
        assert_eq!(tree_size(&a, e, 100), 101);
    }

    #[test]
    fn conditions_become_clauses() {
        let (mut a, vars, x, b) = setup();
        let one = a.konst(Value::i32(1));
        let sum = a.mk(Op::Add, &[x, one]);
        let lt = a.mk(Op::Slt, &[sum, b]);
        assert_eq!(text(&a, &vars, lt, false), "p0 + 1 < p1");
        // A negated comparison on bit vectors is the opposite comparison.
        let not = a.mk(Op::Not, &[lt]);
        assert_eq!(text(&a, &vars, not, false), "p0 + 1 >= p1");
        assert_eq!(text(&a, &vars, lt, true), "p0 + 1 >= p1");
        // A conjunction is split; a disjunction has no clause form, unless negated.
        let eq = a.mk(Op::Eq, &[x, b]);
        let and = a.mk(Op::And2, &[lt, eq]);
        assert_eq!(text(&a, &vars, and, false), "p0 + 1 < p1 && p0 == p1");
        let or = a.mk(Op::Or2, &[lt, eq]);
        assert_eq!(text(&a, &vars, or, false), "none");
        assert_eq!(text(&a, &vars, or, true), "p0 + 1 >= p1 && p0 != p1");
        // `i2b`, `i2l`.
        let ext = a.mk(Op::Extract(8), &[x]);
        let i2b = a.mk(Op::SignExt(32), &[ext]);
        let zero = a.konst(Value::i32(0));
        let c = a.mk(Op::Sgt, &[i2b, zero]);
        assert_eq!(text(&a, &vars, c, false), "(byte) p0 > 0");
        let l = a.mk(Op::SignExt(64), &[x]);
        let big = a.konst(Value::i64(1 << 40));
        let c = a.mk(Op::Sle, &[l, big]);
        // An input widened is the value at its path read as the wider type (`NumExpr::Path::ty`).
        assert_eq!(text(&a, &vars, c, false), "p0 <= 1099511627776L");
        let Some(cs) = clauses(&a, &vars, c, false) else { panic!("a clause") };
        assert!(matches!(&cs[0], Clause::Numeric { left: NumExpr::Path { ty: PrimType::Long, .. }, .. }));
    }

    #[test]
    fn negated_float_comparisons_are_left_out() {
        let mut a = Arena::new();
        let mut vars = Vars::new();
        let (d, de) = a.var(Sort::F64, "p0");
        vars.insert(d, (AccessPath { root: Root::Param(0), steps: vec![] }, PrimType::Double));
        let k = a.konst(Value::f64(1.5));
        let lt = a.mk(Op::FLt, &[de, k]);
        assert_eq!(text(&a, &vars, lt, false), "p0 < 1.5d");
        assert_eq!(text(&a, &vars, lt, true), "none");
    }
}
