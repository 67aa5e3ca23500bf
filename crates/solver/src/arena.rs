//! The expression DAG: hash-consed nodes in a `Vec` with eager constant folding and a few exact
//! algebraic simplifications, evaluation under an assignment (`Arena::eval`, the semantics of
//! `apply` on every node), and a readable rendering for `analyze`.
//!
//! An argument is always created before the node that uses it, so node ids are a topological order:
//! walks collect the reachable ids and then run through them in ascending order, never recursing.

use std::collections::BTreeSet;

use indexmap::IndexMap;

use crate::op::{Op, apply};
use crate::value::{Sort, Value, mask};
use crate::{Assignment, ExprId, VarId};

/// One node of the DAG.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Node {
    Var(VarId),
    Const(Value),
    App(Op, Box<[ExprId]>),
}

/// A hash-consed expression DAG with eager constant folding: `mk` returns the existing node for an
/// equal (op, args), and a Const node when every argument is a Const. Only operations with a
/// symbolic operand create non-constant nodes.
#[derive(Clone, Debug, Default)]
pub struct Arena {
    nodes: Vec<(Node, Sort)>,
    /// Constants and applications, for hash-consing (variables are unique by construction).
    interned: IndexMap<Node, ExprId>,
    vars: Vec<(Sort, String)>,
    var_exprs: Vec<ExprId>,
}

/// The nodes reachable from some roots in ascending (topological) order, each with its arguments as
/// positions in that order: what evaluation, the AVM and the Z3 translation walk.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    pub order: Vec<ExprId>,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug)]
pub(crate) enum Step {
    Var(VarId, Sort),
    Const(Value),
    App(Op, Vec<u32>),
}

impl Compiled {
    /// The position of `e` (which must be reachable from the roots).
    pub fn pos(&self, e: ExprId) -> usize {
        self.order.binary_search(&e).unwrap_or_else(|_| panic!("{e:?} is not reachable from the roots"))
    }

    /// Evaluates every step into `out` (cleared first); `vars` is indexed by `VarId`, and a variable
    /// beyond it takes its sort's default.
    pub fn run(&self, vars: &[Option<Value>], out: &mut Vec<Value>) {
        out.clear();
        let mut args = Vec::with_capacity(3);
        for step in &self.steps {
            let v = match step {
                Step::Var(v, sort) => {
                    vars.get(v.0 as usize).copied().flatten().unwrap_or_else(|| Value::default_of(*sort))
                }
                Step::Const(c) => *c,
                Step::App(op, a) => {
                    args.clear();
                    args.extend(a.iter().map(|&i| out[i as usize]));
                    apply(*op, &args)
                }
            };
            out.push(v);
        }
    }

    /// The variables among the steps, ascending.
    pub fn vars(&self) -> Vec<(VarId, Sort)> {
        let mut res: Vec<(VarId, Sort)> = self
            .steps
            .iter()
            .filter_map(|s| if let Step::Var(v, sort) = s { Some((*v, *sort)) } else { None })
            .collect();
        res.sort();
        res
    }
}

impl Arena {
    pub fn new() -> Arena {
        Arena::default()
    }

    /// A fresh input variable (names are for display only; they need not be unique).
    pub fn var(&mut self, sort: Sort, name: &str) -> (VarId, ExprId) {
        let var = VarId(self.vars.len() as u32);
        self.vars.push((sort, name.to_string()));
        let e = self.push(Node::Var(var), sort);
        self.var_exprs.push(e);
        (var, e)
    }

    pub fn konst(&mut self, v: Value) -> ExprId {
        self.intern(Node::Const(v), v.sort())
    }

    /// `op(args)`, folded when every argument is constant, simplified when an exact rule applies
    /// (x+0, x*1, ite(true,a,b), not(not x), comparisons of lcmp/fcmp results with 0, ...), and
    /// hash-consed. Panics when the arguments are ill-sorted (`Op::result_sort`): that is a bug of
    /// the caller, like an index out of bounds.
    pub fn mk(&mut self, op: Op, args: &[ExprId]) -> ExprId {
        self.try_mk(op, args).unwrap_or_else(|e| panic!("solver::Arena::mk: {e}"))
    }

    /// `mk` that reports ill-sorted arguments instead of panicking.
    pub fn try_mk(&mut self, op: Op, args: &[ExprId]) -> Result<ExprId, crate::SortError> {
        let sorts: Vec<Sort> = args.iter().map(|&a| self.sort(a)).collect();
        let sort = op.result_sort(&sorts)?;
        let consts: Option<Vec<Value>> = args.iter().map(|&a| self.as_const(a)).collect();
        if let Some(vals) = consts {
            return Ok(self.konst(apply(op, &vals)));
        }
        let mut args = args.to_vec();
        if op.is_commutative() && self.before(args[1], args[0]) {
            args.swap(0, 1);
        }
        if let Some(e) = self.simplify(op, &args) {
            return Ok(e);
        }
        Ok(self.intern(Node::App(op, args.into()), sort))
    }

    pub fn sort(&self, e: ExprId) -> Sort {
        self.nodes[e.0 as usize].1
    }

    pub fn as_const(&self, e: ExprId) -> Option<Value> {
        match self.nodes[e.0 as usize].0 {
            Node::Const(v) => Some(v),
            _ => None,
        }
    }

    /// The variable `e` is, if it is one.
    pub fn as_var(&self, e: ExprId) -> Option<VarId> {
        match self.nodes[e.0 as usize].0 {
            Node::Var(v) => Some(v),
            _ => None,
        }
    }

    /// The operation and arguments of `e`, if it is neither a variable nor a constant.
    pub fn as_app(&self, e: ExprId) -> Option<(Op, &[ExprId])> {
        match &self.nodes[e.0 as usize].0 {
            Node::App(op, args) => Some((*op, args)),
            _ => None,
        }
    }

    /// The expression of a variable.
    pub fn var_expr(&self, v: VarId) -> ExprId {
        self.var_exprs[v.0 as usize]
    }

    /// Sort and name of every variable, indexed by `VarId`.
    pub fn vars(&self) -> &[(Sort, String)] {
        &self.vars
    }

    /// Number of nodes in the arena.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The variables occurring in `roots`, ascending.
    pub fn vars_of(&self, roots: &[ExprId]) -> Vec<VarId> {
        self.reachable(roots).into_iter().filter_map(|e| self.as_var(e)).collect()
    }

    /// Whether a float or double term occurs in `roots`.
    pub fn has_float(&self, roots: &[ExprId]) -> bool {
        self.reachable(roots).iter().any(|&e| matches!(self.sort(e), Sort::F32 | Sort::F64))
    }

    /// The value of `e` with exact Java semantics; variables not in `a` take their defaults.
    pub fn eval(&self, e: ExprId, a: &Assignment) -> Value {
        let prog = self.compile(&[e]);
        let mut vars = vec![None; self.vars.len()];
        for (v, val) in &a.0 {
            if let Some(slot) = vars.get_mut(v.0 as usize) {
                *slot = Some(*val);
            }
        }
        let mut out = Vec::with_capacity(prog.steps.len());
        prog.run(&vars, &mut out);
        out[prog.pos(e)]
    }

    /// `e` with every variable assigned in `a` replaced by its value, re-made through `mk` (so it
    /// folds: with every variable assigned, the result is the constant `eval` gives).
    pub fn instantiate(&mut self, e: ExprId, a: &Assignment) -> ExprId {
        let prog = self.compile(&[e]);
        let mut made: Vec<ExprId> = Vec::with_capacity(prog.steps.len());
        for (step, &old) in prog.steps.iter().zip(&prog.order) {
            let new = match step {
                Step::Var(v, _) => a.0.get(v).map_or(old, |&val| self.konst(val)),
                Step::Const(_) => old,
                Step::App(op, args) => {
                    let args: Vec<ExprId> = args.iter().map(|&i| made[i as usize]).collect();
                    self.mk(*op, &args)
                }
            };
            made.push(new);
        }
        made[prog.pos(e)]
    }

    /// Number of nodes reachable from `e` (itself included; shared nodes once).
    pub fn size(&self, e: ExprId) -> usize {
        self.reachable(&[e]).len()
    }

    /// The ids reachable from `roots`, ascending.
    pub(crate) fn reachable(&self, roots: &[ExprId]) -> Vec<ExprId> {
        let mut seen = BTreeSet::new();
        let mut stack = roots.to_vec();
        while let Some(e) = stack.pop() {
            if seen.insert(e)
                && let Node::App(_, args) = &self.nodes[e.0 as usize].0
            {
                stack.extend(args.iter().copied().filter(|a| !seen.contains(a)));
            }
        }
        seen.into_iter().collect()
    }

    pub(crate) fn compile(&self, roots: &[ExprId]) -> Compiled {
        let order = self.reachable(roots);
        let steps = order
            .iter()
            .map(|&e| match &self.nodes[e.0 as usize] {
                (Node::Var(v), sort) => Step::Var(*v, *sort),
                (Node::Const(c), _) => Step::Const(*c),
                (Node::App(op, args), _) => Step::App(
                    *op,
                    args.iter()
                        .map(|a| order.binary_search(a).expect("arguments are reachable") as u32)
                        .collect(),
                ),
            })
            .collect();
        Compiled { order, steps }
    }

    fn push(&mut self, node: Node, sort: Sort) -> ExprId {
        let id = ExprId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 nodes"));
        self.nodes.push((node, sort));
        id
    }

    fn intern(&mut self, node: Node, sort: Sort) -> ExprId {
        if let Some(&e) = self.interned.get(&node) {
            return e;
        }
        let e = self.push(node.clone(), sort);
        self.interned.insert(node, e);
        e
    }

    /// The canonical order of commutative arguments: constants last, otherwise by id.
    fn before(&self, a: ExprId, b: ExprId) -> bool {
        match (self.as_const(a).is_some(), self.as_const(b).is_some()) {
            (true, false) => false,
            (false, true) => true,
            _ => a < b,
        }
    }

    fn bits(&self, e: ExprId) -> Option<(u64, u8)> {
        match self.as_const(e) {
            Some(Value::Bv { width, bits }) => Some((bits, width)),
            _ => None,
        }
    }

    fn is_bits(&self, e: ExprId, want: u64) -> bool {
        self.bits(e).is_some_and(|(b, w)| b == want & mask(w))
    }

    fn bool_const(&self, e: ExprId) -> Option<bool> {
        match self.as_const(e) {
            Some(Value::Bool(b)) => Some(b),
            _ => None,
        }
    }

    fn zero_like(&mut self, e: ExprId) -> ExprId {
        let sort = self.sort(e);
        self.konst(Value::default_of(sort))
    }

    /// Exact rewrites of `op(args)` (arguments already in canonical order, not all constant).
    fn simplify(&mut self, op: Op, args: &[ExprId]) -> Option<ExprId> {
        let a = args[0];
        let b = args.get(1).copied();
        let same = b == Some(a);
        let bb = b.unwrap_or(a);
        let app_a = self.as_app(a).map(|(o, xs)| (o, xs.to_vec()));
        match op {
            Op::Add | Op::Sub | Op::Or | Op::Xor | Op::Shl | Op::AShr | Op::LShr if self.is_bits(bb, 0) => {
                Some(a)
            }
            Op::Shl | Op::AShr | Op::LShr => {
                let (n, w) = self.bits(bb)?;
                (n & u64::from(w - 1) == 0).then_some(a)
            }
            Op::Sub | Op::Xor if same => Some(self.zero_like(a)),
            Op::Mul | Op::SDiv if self.is_bits(bb, 1) => Some(a),
            Op::Mul | Op::And if self.is_bits(bb, 0) => Some(bb),
            Op::And if self.is_bits(bb, u64::MAX) => Some(a),
            Op::Or if self.is_bits(bb, u64::MAX) => Some(bb),
            Op::And | Op::Or if same => Some(a),
            Op::SRem if self.is_bits(bb, 1) || self.is_bits(bb, u64::MAX) => Some(self.zero_like(a)),
            Op::Neg | Op::FNeg | Op::Not => match app_a {
                Some((inner, xs)) if inner == op => Some(xs[0]),
                _ => None,
            },
            Op::SignExt(to) | Op::ZeroExt(to) | Op::Extract(to) if self.sort(a) == Sort::Bv(to) => Some(a),
            Op::Extract(to) => match app_a {
                Some((Op::SignExt(_) | Op::ZeroExt(_), xs)) if self.sort(xs[0]) == Sort::Bv(to) => {
                    Some(xs[0])
                }
                _ => None,
            },
            Op::Eq | Op::Ne | Op::Slt | Op::Sle | Op::Sgt | Op::Sge | Op::Ult => {
                self.simplify_compare(op, a, bb)
            }
            Op::And2 | Op::Or2 => {
                let absorbing = op == Op::Or2;
                match self.bool_const(bb) {
                    Some(c) if c == absorbing => Some(bb),
                    Some(_) => Some(a),
                    None => same.then_some(a),
                }
            }
            Op::Implies => match (self.bool_const(a), self.bool_const(bb)) {
                (Some(true), _) => Some(bb),
                (Some(false), _) | (_, Some(true)) => Some(self.konst(Value::Bool(true))),
                (_, Some(false)) => Some(self.mk(Op::Not, &[a])),
                _ => same.then(|| self.konst(Value::Bool(true))),
            },
            Op::Ite => {
                let (c, t, e) = (args[0], args[1], args[2]);
                match (self.bool_const(c), self.bool_const(t), self.bool_const(e)) {
                    (Some(true), ..) => Some(t),
                    (Some(false), ..) => Some(e),
                    _ if t == e => Some(t),
                    (_, Some(true), Some(false)) => Some(c),
                    (_, Some(false), Some(true)) => Some(self.mk(Op::Not, &[c])),
                    _ => None,
                }
            }
            Op::BvToBool => match app_a {
                Some((Op::BoolToBv, xs)) => Some(xs[0]),
                _ => None,
            },
            _ => None,
        }
    }

    /// Comparisons: of a node with itself, of a JVM boolean (`BoolToBv`) with a constant, and of a
    /// three-way compare (lcmp, fcmpl, fcmpg) with 0, which the JVM's `if<cond>` after `*cmp*` is:
    /// the last becomes the comparison of the operands, so solvers see `a < b` on doubles.
    fn simplify_compare(&mut self, op: Op, a: ExprId, b: ExprId) -> Option<ExprId> {
        if a == b && !matches!(self.sort(a), Sort::F32 | Sort::F64) {
            let res = matches!(op, Op::Eq | Op::Sle | Op::Sge);
            return Some(self.konst(Value::Bool(res)));
        }
        if let (Some(c), Op::Eq | Op::Ne) = (self.bool_const(b), op) {
            // A condition compared with a boolean constant is the condition or its negation.
            return Some(if c == (op == Op::Eq) { a } else { self.mk(Op::Not, &[a]) });
        }
        let (inner, xs) = self.as_app(a).map(|(o, xs)| (o, xs.to_vec()))?;
        let c = self.bits(b)?.0;
        match (inner, op) {
            (Op::BoolToBv, Op::Eq | Op::Ne) => {
                let eq = op == Op::Eq;
                // The value is 0 or 1: `== 1` and `!= 0` are the condition, `== 0` and `!= 1` its negation.
                Some(match (c, eq) {
                    (0, false) | (1, true) => xs[0],
                    (0, true) | (1, false) => self.mk(Op::Not, &[xs[0]]),
                    _ => self.konst(Value::Bool(!eq)),
                })
            }
            (Op::Cmp, Op::Eq | Op::Ne | Op::Slt | Op::Sle | Op::Sgt | Op::Sge) if c == 0 => {
                Some(self.mk(op, &xs))
            }
            (Op::FCmpL | Op::FCmpG, Op::Eq | Op::Ne | Op::Slt | Op::Sle | Op::Sgt | Op::Sge) if c == 0 => {
                // NaN makes fcmpl -1 and fcmpg 1: the comparison that NaN satisfies is the negation of
                // one that NaN falsifies.
                let nan_low = inner == Op::FCmpL;
                let (fop, negate) = match op {
                    Op::Eq => (Op::FEq, false),
                    Op::Ne => (Op::FEq, true),
                    Op::Slt if nan_low => (Op::FGe, true),
                    Op::Slt => (Op::FLt, false),
                    Op::Sle if nan_low => (Op::FGt, true),
                    Op::Sle => (Op::FLe, false),
                    Op::Sgt if nan_low => (Op::FGt, false),
                    Op::Sgt => (Op::FLe, true),
                    Op::Sge if nan_low => (Op::FGe, false),
                    _ => (Op::FLt, true),
                };
                let cmp = self.mk(fop, &xs);
                Some(if negate { self.mk(Op::Not, &[cmp]) } else { cmp })
            }
            _ => None,
        }
    }
}
