//! Arithmetic, conversions, compares, jumps, switches and arrays (JVMS §6.5), each computed by
//! `solver::apply` on concrete operands and built with `Arena::mk` when an operand is symbolic, so
//! that the concrete run and the expressions cannot disagree. Conditional jumps and switches
//! record their branch goals and, when their condition is symbolic, a path entry; implicit
//! exceptions (division by zero, array bounds, negative sizes) with a symbolic operand record an
//! `Implicit` entry, and a symbolic array index or size is pinned.

use std::collections::BTreeMap;

use bytecode::{Insn, Opcode};
use solver::{ExprId, Op, Sort, Value};

use crate::EntryKind;
use crate::branches::NO_GOAL;
use crate::heap::Obj;
use crate::interp::{Frame, Machine, Next, Res, unsupported};
use crate::value::{C, Slot, default_of};

/// Array elements a replay may allocate in all.
const MAX_HEAP_CELLS: u64 = 1 << 22;

/// The rt-abi order of `if<cond>` conditions: eq, ne, lt, ge, gt, le.
const INT_CONDS: [Op; 6] = [Op::Eq, Op::Ne, Op::Slt, Op::Sge, Op::Sgt, Op::Sle];

/// The longest primitive array read at a symbolic index as an ite over its positions (`select`);
/// a longer one pins the index.
const SELECT_MAX: usize = 64;

impl<'a> Machine<'a, '_> {
    /// `op` on `args`: concrete by `solver::apply`; with a symbolic operand, also its expression.
    pub(crate) fn op(&mut self, op: Op, args: &[Slot]) -> Slot {
        let vals: Vec<Value> = args.iter().map(|a| a.c.value().unwrap_or(Value::i32(0))).collect();
        let c = C::from_value(solver::apply(op, &vals));
        if args.iter().all(|a| a.s.is_none()) {
            return Slot::conc(c);
        }
        let es: Vec<ExprId> = args.iter().map(|a| self.expr(*a)).collect();
        let e = self.arena.mk(op, &es);
        Slot { c, s: self.arena.as_const(e).is_none().then_some(e) }
    }

    /// A chain of unary operations (narrowing conversions go through narrower bit vectors, which
    /// `C` cannot hold in between).
    pub(crate) fn chain(&mut self, ops: &[Op], a: Slot) -> Slot {
        let mut v = a.c.value().unwrap_or(Value::i32(0));
        for &op in ops {
            v = solver::apply(op, &[v]);
        }
        let c = C::from_value(v);
        let Some(_) = a.s else { return Slot::conc(c) };
        let mut e = self.expr(a);
        for &op in ops {
            e = self.arena.mk(op, &[e]);
        }
        Slot { c, s: self.arena.as_const(e).is_none().then_some(e) }
    }

    /// A Bool condition: whether it holds, and its expression when an operand is symbolic.
    pub(crate) fn cond(&mut self, op: Op, args: &[Slot]) -> (bool, Option<ExprId>) {
        let vals: Vec<Value> = args.iter().map(|a| a.c.value().unwrap_or(Value::i32(0))).collect();
        let holds = solver::apply(op, &vals).as_bool();
        if args.iter().all(|a| a.s.is_none()) {
            return (holds, None);
        }
        let es: Vec<ExprId> = args.iter().map(|a| self.expr(*a)).collect();
        let e = self.arena.mk(op, &es);
        (holds, self.arena.as_const(e).is_none().then_some(e))
    }

    /// `e` when `holds`, else `not e`.
    pub(crate) fn held(&mut self, holds: bool, e: ExprId) -> ExprId {
        if holds { e } else { self.arena.mk(Op::Not, &[e]) }
    }

    /// The JVM int 0/1 of a Bool condition (a model's boolean result).
    pub(crate) fn bool_slot(&mut self, holds: bool, e: Option<ExprId>) -> Slot {
        match e {
            None => Slot::int(i32::from(holds)),
            Some(e) => {
                let v = self.arena.mk(Op::BoolToBv, &[e]);
                self.bools.insert(v, e);
                Slot { c: C::I(i32::from(holds)), s: Some(v) }
            }
        }
    }

    /// `iadd` .. `lxor`.
    pub(crate) fn arith(&mut self, f: &mut Frame<'a>, op: Opcode) -> Res<Next> {
        let o = op.0 - 0x60;
        if (0x74..=0x77).contains(&op.0) {
            let a = f.pop();
            let r = self.op(if o % 4 >= 2 { Op::FNeg } else { Op::Neg }, &[a]);
            f.push(r);
            return Ok(Next::Go);
        }
        let b = f.pop();
        let a = f.pop();
        let r = match op.0 {
            0x60..=0x73 => {
                let float = o % 4 >= 2;
                let kind = o / 4;
                if kind >= 3 && !float {
                    self.div_check(b)?;
                }
                let ops = if float {
                    [Op::FAdd, Op::FSub, Op::FMul, Op::FDiv, Op::FRem]
                } else {
                    [Op::Add, Op::Sub, Op::Mul, Op::SDiv, Op::SRem]
                };
                self.op(ops[usize::from(kind)], &[a, b])
            }
            0x78..=0x7d => {
                let ops = [Op::Shl, Op::AShr, Op::LShr];
                let sop = ops[usize::from((op.0 - 0x78) / 2)];
                // Long shifts take an int count: widen it (Java masks it by 63 anyway).
                let b = if a.wide() { self.chain(&[Op::SignExt(64)], b) } else { b };
                self.op(sop, &[a, b])
            }
            _ => {
                let ops = [Op::And, Op::Or, Op::Xor];
                self.op(ops[usize::from((op.0 - 0x7e) / 2)], &[a, b])
            }
        };
        f.push(r);
        Ok(Next::Go)
    }

    /// Integer division by zero: an implicit branch (ArithmeticException).
    pub(crate) fn div_check(&mut self, d: Slot) -> Res<()> {
        let zero = Slot::conc(if d.wide() { C::J(0) } else { C::I(0) });
        let (is_zero, e) = self.cond(Op::Eq, &[d, zero]);
        if let Some(e) = e {
            let h = self.held(is_zero, e);
            self.implicit(h);
        }
        if is_zero {
            return self.throw_new("java/lang/ArithmeticException", "/ by zero");
        }
        Ok(())
    }

    /// `i2l` .. `i2s`.
    pub(crate) fn convert(&mut self, f: &mut Frame<'a>, op: Opcode) -> Res<Next> {
        let a = f.pop();
        let ops: &[Op] = match op.0 {
            0x85 => &[Op::SignExt(64)],
            0x86 | 0x89 => &[Op::IntToFp(Sort::F32)],
            0x87 | 0x8a => &[Op::IntToFp(Sort::F64)],
            0x88 => &[Op::Extract(32)],
            0x8b | 0x8e => &[Op::FpToInt(32)],
            0x8c | 0x8f => &[Op::FpToInt(64)],
            0x8d => &[Op::FpToFp(Sort::F64)],
            0x90 => &[Op::FpToFp(Sort::F32)],
            0x91 => &[Op::Extract(8), Op::SignExt(32)],
            0x92 => &[Op::Extract(16), Op::ZeroExt(32)],
            _ => &[Op::Extract(16), Op::SignExt(32)],
        };
        let r = self.chain(ops, a);
        f.push(r);
        Ok(Next::Go)
    }

    /// `lcmp`, `fcmpl`, `fcmpg`, `dcmpl`, `dcmpg`: the int result, remembering its operands so
    /// that the `if` after it can state the comparison directly.
    pub(crate) fn compare(&mut self, f: &mut Frame<'a>, op: Opcode) -> Res<Next> {
        let b = f.pop();
        let a = f.pop();
        let o = match op.0 {
            0x94 => Op::Cmp,
            0x95 | 0x97 => Op::FCmpL,
            _ => Op::FCmpG,
        };
        let r = self.op(o, &[a, b]);
        if let Some(e) = r.s {
            let (ea, eb) = (self.expr(a), self.expr(b));
            self.cmps.insert(e, (o, ea, eb));
        }
        f.push(r);
        Ok(Next::Go)
    }

    /// The Bool expression of `v <cond> 0` for a symbolic int `v`, stated on the compared values
    /// when `v` is a three-way compare's result or a boolean model's.
    fn zero_cond(&mut self, e: ExprId, k: usize) -> ExprId {
        if let Some(&(o, a, b)) = self.cmps.get(&e) {
            // k: eq, ne, lt, ge, gt, le of the three-way result against 0 (JVMS §6.5.fcmp<op>).
            let (op, negate) = match (o, k) {
                (Op::Cmp, _) => (INT_CONDS[k], false),
                (_, 0) => (Op::FEq, false),
                (_, 1) => (Op::FEq, true),
                (Op::FCmpL, 2) => (Op::FGe, true),
                (Op::FCmpL, 3) => (Op::FGe, false),
                (Op::FCmpL, 4) => (Op::FGt, false),
                (Op::FCmpL, _) => (Op::FGt, true),
                (_, 2) => (Op::FLt, false),
                (_, 3) => (Op::FLt, true),
                (_, 4) => (Op::FLe, true),
                _ => (Op::FLe, false),
            };
            let c = self.arena.mk(op, &[a, b]);
            return if negate { self.arena.mk(Op::Not, &[c]) } else { c };
        }
        if let Some(&b) = self.bools.get(&e)
            && k <= 1
        {
            return if k == 1 { b } else { self.arena.mk(Op::Not, &[b]) };
        }
        let zero = self.arena.konst(Value::i32(0));
        self.arena.mk(INT_CONDS[k], &[e, zero])
    }

    /// Conditional jumps and `goto`.
    pub(crate) fn jump(&mut self, f: &mut Frame<'a>, op: Opcode, target: usize) -> Res<Next> {
        let (taken, sym) = match op.0 {
            0xa7 | 0xc8 => return Ok(Next::Jump(target)),
            0x99..=0x9e => {
                let v = f.pop();
                let k = usize::from(op.0 - 0x99);
                let (taken, _) = self.cond(INT_CONDS[k], &[v, Slot::int(0)]);
                let sym = v.s.map(|e| {
                    self.sym_insn = true;
                    self.zero_cond(e, k)
                });
                (taken, sym)
            }
            0x9f..=0xa4 => {
                let b = f.pop();
                let a = f.pop();
                self.cond(INT_CONDS[usize::from(op.0 - 0x9f)], &[a, b])
            }
            0xa5 | 0xa6 => {
                let b = f.pop().as_ref();
                let a = f.pop().as_ref();
                let same = self.heap.same(a, b);
                let sym = self
                    .same_box_cond(a, b)
                    .map(|e| if op.0 == 0xa5 { e } else { self.arena.mk(Op::Not, &[e]) });
                (same == (op.0 == 0xa5), sym)
            }
            0xc6 | 0xc7 => {
                let a = f.pop().as_ref();
                (a.is_none() == (op.0 == 0xc6), None)
            }
            _ => return unsupported(format!("instruction {}", op.name())),
        };
        let merged = sym.is_some_and(|c| self.merge_diamond(f, target, taken, c));
        self.branch(f, taken, sym, merged);
        Ok(if taken { Next::Jump(target) } else { Next::Go })
    }

    /// `a == b` for two boxes of one class made by `valueOf`, one with a symbolic value: their
    /// values are equal and in the class's cache range (outside it each `valueOf` makes a new
    /// object).
    fn same_box_cond(
        &mut self,
        a: Option<crate::value::ObjId>,
        b: Option<crate::value::ObjId>,
    ) -> Option<ExprId> {
        let (a, b) = (a?, b?);
        let h = &self.heap;
        let made = |o| h.cached_boxes.contains_key(&o) || h.valueof_boxes.contains_key(&o);
        if a == b || !made(a) || !made(b) || h.class_of(a) != h.class_of(b) {
            return None;
        }
        // Every Boolean is cached (its range is the whole of i64).
        let range =
            h.valueof_boxes.get(&a).or_else(|| h.valueof_boxes.get(&b)).copied().filter(|r| r.0 != i64::MIN);
        let (va, vb) = (self.unbox(a).ok()?, self.unbox(b).ok()?);
        let eq = self.cond(Op::Eq, &[va, vb]).1?;
        let Some((lo, hi)) = range else { return Some(eq) };
        let (k_lo, k_hi) = if va.wide() {
            (Slot::long(lo), Slot::long(hi))
        } else {
            (Slot::int(lo as i32), Slot::int(hi as i32))
        };
        let mut all = eq;
        for c in [self.cond(Op::Sge, &[va, k_lo]).1, self.cond(Op::Sle, &[va, k_hi]).1].into_iter().flatten()
        {
            all = self.arena.mk(Op::And2, &[all, c]);
        }
        Some(all)
    }

    /// Covers the jump's goal and records the entry of a symbolic condition `sym` (of the jump
    /// being taken), `merged` when its diamond is (module `merge`).
    fn branch(&mut self, f: &Frame<'a>, taken: bool, sym: Option<ExprId>, merged: bool) {
        let pc = f.pc as u32;
        let goals =
            if self.in_clinit == 0 { f.goals.as_ref().and_then(|g| g.jumps.get(&pc)).copied() } else { None };
        if let Some((t, n)) = goals {
            self.cover(if taken { t } else { n });
        }
        if let Some(c) = sym {
            let held = self.held(taken, c);
            let (goal, neg) = match goals {
                Some((t, n)) if taken => (t, Some(n)),
                Some((t, n)) => (n, Some(t)),
                None => (NO_GOAL, None),
            };
            let before = self.path.len();
            self.record(EntryKind::Branch, held, goal, neg);
            if merged
                && self.path.len() > before
                && let Some(last) = self.path.last_mut()
            {
                last.merged = true;
            }
        }
    }

    /// `tableswitch` and `lookupswitch`: every distinct target is a branch outcome.
    pub(crate) fn switch(&mut self, f: &mut Frame<'a>, insn: &Insn) -> Res<Next> {
        let key = f.pop();
        let k = key.as_int();
        let (default, pairs): (usize, Vec<(i32, usize)>) = match insn {
            Insn::TableSwitch { default, low, targets } => (
                default.index(),
                targets.iter().enumerate().map(|(i, t)| (low.wrapping_add(i as i32), t.index())).collect(),
            ),
            Insn::LookupSwitch { default, pairs } => {
                (default.index(), pairs.iter().map(|(k, t)| (*k, t.index())).collect())
            }
            _ => return unsupported("not a switch"),
        };
        let target = pairs.iter().find(|(key, _)| *key == k).map_or(default, |&(_, t)| t);
        let pc = f.pc as u32;
        let sg = if self.in_clinit == 0 { f.goals.as_ref().and_then(|g| g.switches.get(&pc)) } else { None };
        let goal_of = |key: Option<i32>| match (sg, key) {
            (Some(s), Some(k)) => s.goal_of(k).unwrap_or(NO_GOAL),
            (Some(s), None) => s.default.unwrap_or(NO_GOAL),
            (None, _) => NO_GOAL,
        };
        // Keys by target, the default's own keys left out (javac's gap fillers).
        let mut groups: BTreeMap<usize, Vec<i32>> = BTreeMap::new();
        for &(key, t) in &pairs {
            if t != default {
                groups.entry(t).or_default().push(key);
            }
        }
        let taken_goal = goal_of(groups.get(&target).map(|ks| ks[0]));
        if taken_goal != NO_GOAL {
            self.cover(taken_goal);
        }
        let Some(e) = key.s else { return Ok(Next::Jump(target)) };
        self.sym_insn = true;
        let mut cases = Vec::new();
        let mut held = None;
        for (&t, ks) in &groups {
            let c = self.any_of(e, ks);
            if t == target {
                held = Some(c);
            } else {
                cases.push((goal_of(Some(ks[0])), c));
            }
        }
        let all: Vec<i32> = groups.values().flatten().copied().collect();
        let any = self.any_of(e, &all);
        let none = self.arena.mk(Op::Not, &[any]);
        let held = match held {
            Some(h) => {
                cases.push((goal_of(None), none));
                h
            }
            None => none,
        };
        self.record(EntryKind::Switch, held, taken_goal, None);
        if let Some(last) = self.path.last_mut()
            && last.cond == held
            && last.kind == EntryKind::Switch
        {
            last.cases = cases;
        }
        Ok(Next::Jump(target))
    }

    /// `e == k1 or e == k2 ...`.
    fn any_of(&mut self, e: ExprId, keys: &[i32]) -> ExprId {
        let mut acc = self.arena.konst(Value::Bool(false));
        for &k in keys {
            let kk = self.arena.konst(Value::i32(k));
            let eq = self.arena.mk(Op::Eq, &[e, kk]);
            acc = self.arena.mk(Op::Or2, &[acc, eq]);
        }
        acc
    }

    // ----- Arrays. -----

    /// The array object of a reference, or NullPointerException.
    fn array_of(&mut self, r: Slot) -> Res<crate::value::ObjId> {
        match r.as_ref() {
            Some(o) if matches!(self.heap.get(o), Obj::Array { .. }) => Ok(o),
            Some(_) => unsupported("array instruction on a non-array"),
            None => self.throw_new("java/lang/NullPointerException", "array is null"),
        }
    }

    /// The bounds check of an index (an implicit branch when symbolic), then the index pinned.
    pub(crate) fn check_index(&mut self, idx: Slot, len: usize) -> Res<usize> {
        self.check_index_as(idx, len, "java/lang/ArrayIndexOutOfBoundsException")
    }

    /// `check_index` throwing `class`.
    pub(crate) fn check_index_as(&mut self, idx: Slot, len: usize, class: &str) -> Res<usize> {
        self.check_bounds(idx, len, class)?;
        Ok(self.pin(idx).as_int() as usize)
    }

    /// The bounds check of an index (an implicit branch when symbolic), the index left as it is.
    fn check_bounds(&mut self, idx: Slot, len: usize, class: &str) -> Res<usize> {
        let (inside, e) = self.cond(Op::Ult, &[idx, Slot::int(len as i32)]);
        if let Some(e) = e {
            let h = self.held(inside, e);
            self.implicit(h);
        }
        if !inside {
            let msg = format!("Index {} out of bounds for length {len}", idx.as_int());
            return self.throw_new(class, &msg);
        }
        Ok(idx.as_int() as usize)
    }

    /// An element of a primitive array at a symbolic index, without pinning the index: an ite
    /// over the positions (the bounds check is on the path already). Arrays of references, and
    /// arrays longer than `SELECT_MAX`, pin the index instead (`check_index`).
    fn select(&mut self, a: crate::value::ObjId, idx: Slot, i: usize) -> Slot {
        let elems = match self.heap.get(a) {
            Obj::Array { elems, .. } => elems.clone(),
            _ => return Slot::TOP,
        };
        let ie = self.expr(idx);
        let mut acc = self.expr(elems[elems.len() - 1]);
        for k in (0..elems.len() - 1).rev() {
            let kk = self.arena.konst(Value::i32(k as i32));
            let at = self.arena.mk(Op::Eq, &[ie, kk]);
            let ek = self.expr(elems[k]);
            acc = self.arena.mk(Op::Ite, &[at, ek, acc]);
        }
        self.sym_insn = true;
        Slot { c: elems[i].c, s: Some(acc) }
    }

    pub(crate) fn array_load(&mut self, f: &mut Frame<'a>, _op: Opcode) -> Res<Next> {
        let idx = f.pop();
        let arr = f.pop();
        let a = self.array_of(arr)?;
        let len = self.array_len(a);
        let primitive = matches!(self.heap.get(a), Obj::Array { comp, .. } if !comp.starts_with(['L', '[']));
        if idx.s.is_some() && primitive && len <= SELECT_MAX {
            let i = self.check_bounds(idx, len, "java/lang/ArrayIndexOutOfBoundsException")?;
            let v = self.select(a, idx, i);
            f.push(v);
            return Ok(Next::Go);
        }
        let i = self.check_index(idx, len)?;
        let v = match self.heap.get(a) {
            Obj::Array { elems, .. } => elems[i],
            _ => Slot::TOP,
        };
        f.push(v);
        Ok(Next::Go)
    }

    pub(crate) fn array_len(&self, a: crate::value::ObjId) -> usize {
        match self.heap.get(a) {
            Obj::Array { elems, .. } => elems.len(),
            _ => 0,
        }
    }

    pub(crate) fn array_store(&mut self, f: &mut Frame<'a>, op: Opcode) -> Res<Next> {
        let v = f.pop();
        let idx = f.pop();
        let arr = f.pop();
        let a = self.array_of(arr)?;
        let len = self.array_len(a);
        let i = self.check_index(idx, len)?;
        let boolean = matches!(self.heap.get(a), Obj::Array { comp, .. } if comp == "Z");
        let v = match op.0 {
            0x54 if boolean => self.op(Op::And, &[v, Slot::int(1)]),
            0x54 => self.chain(&[Op::Extract(8), Op::SignExt(32)], v),
            0x55 => self.chain(&[Op::Extract(16), Op::ZeroExt(32)], v),
            0x56 => self.chain(&[Op::Extract(16), Op::SignExt(32)], v),
            _ => v,
        };
        if let Obj::Array { elems, .. } = self.heap.get_mut(a) {
            elems[i] = v;
        }
        Ok(Next::Go)
    }

    pub(crate) fn array_length(&mut self, f: &mut Frame<'a>) -> Res<Next> {
        let arr = f.pop();
        let a = self.array_of(arr)?;
        let n = self.array_len(a);
        f.push(Slot::int(n as i32));
        Ok(Next::Go)
    }

    /// Counts `n` more array elements against the replay's bound: past `MAX_HEAP_CELLS` the run
    /// stops, deterministically, before anything is allocated (the JVM might not stop, or run out
    /// of memory; the engine must do neither). Every allocation of an array whose length comes
    /// from the test goes through here.
    pub(crate) fn count_cells(&mut self, n: u64) -> Res<()> {
        self.heap_cells = self.heap_cells.saturating_add(n);
        if self.heap_cells > MAX_HEAP_CELLS {
            return unsupported(format!("arrays of more than {MAX_HEAP_CELLS} elements in all"));
        }
        Ok(())
    }

    /// A new array of `count` elements of `comp` (NegativeArraySizeException as an implicit
    /// branch; the size pinned when symbolic).
    pub(crate) fn alloc_array(&mut self, comp: &str, count: Slot) -> Res<crate::value::ObjId> {
        let (ok, e) = self.cond(Op::Sge, &[count, Slot::int(0)]);
        if let Some(e) = e {
            let h = self.held(ok, e);
            self.implicit(h);
        }
        if !ok {
            return self.throw_new("java/lang/NegativeArraySizeException", &count.as_int().to_string());
        }
        let n = self.pin(count).as_int() as usize;
        self.count_cells(n as u64)?;
        let elems = vec![default_of(comp); n];
        Ok(self.heap.alloc(Obj::Array { comp: comp.to_string(), elems }))
    }

    pub(crate) fn new_array(&mut self, f: &mut Frame<'a>, atype: u8) -> Res<Next> {
        let comp = match atype {
            4 => "Z",
            5 => "C",
            6 => "F",
            7 => "D",
            8 => "B",
            9 => "S",
            10 => "I",
            _ => "J",
        };
        let count = f.pop();
        let a = self.alloc_array(comp, count)?;
        f.push(Slot::obj(a));
        Ok(Next::Go)
    }

    pub(crate) fn multi_array(&mut self, f: &mut Frame<'a>, index: u16, dims: u8) -> Res<Next> {
        let Some(desc) = f.cp.class_name(index).map(|c| c.into_owned()) else {
            return unsupported("bad multianewarray type");
        };
        let mut counts: Vec<Slot> = (0..dims).map(|_| f.pop()).collect();
        counts.reverse();
        let a = self.multi(&desc, &counts)?;
        f.push(Slot::obj(a));
        Ok(Next::Go)
    }

    fn multi(&mut self, desc: &str, counts: &[Slot]) -> Res<crate::value::ObjId> {
        let comp = &desc[1..];
        let a = self.alloc_array(comp, counts[0])?;
        if counts.len() > 1 {
            for i in 0..self.array_len(a) {
                let sub = self.multi(comp, &counts[1..])?;
                if let Obj::Array { elems, .. } = self.heap.get_mut(a) {
                    elems[i] = Slot::obj(sub);
                }
            }
        }
        Ok(a)
    }
}
