//! EvoSuite's test mutation (`TestChromosome.mutate`): delete, change and insert, each applied with
//! its probability (`p_test_delete/change/insert`, 1/3 each); primitive perturbation by at most
//! `max_delta` or a fresh value (`random_perturbation`); string edits (delete, replace, insert
//! characters); changing a call's parameter (`p_change_parameter`) or the call itself for another
//! with an assignable result; and single-point relative crossover (`SinglePointRelativeCrossOver`).
//! Every operator leaves a valid test valid: an edit that would break typing is rolled back.

use std::sync::Arc;

use rand::RngExt;

use crate::TestRng;
use crate::cluster::{Creation, GenericCallable};
use crate::factory::{TestFactory, int_value, random_char};
use crate::statement::{PrimValue, ScratchKind, Statement, TestCase, VarId};
use crate::validity::{
    candidates, check, check_statement, expected_use_types, receiver_first, remove_statement,
};

impl TestFactory<'_> {
    /// Mutates a test in place; returns whether it changed.
    pub fn mutate(&self, test: &mut TestCase, rng: &mut TestRng) -> bool {
        let mut changed = false;
        if rng.random_bool(self.config.p_test_delete.clamp(0.0, 1.0)) {
            changed |= self.mutation_delete(test, rng);
        }
        if rng.random_bool(self.config.p_test_change.clamp(0.0, 1.0)) {
            changed |= self.mutation_change(test, rng);
        }
        if rng.random_bool(self.config.p_test_insert.clamp(0.0, 1.0)) {
            changed |= self.mutation_insert(test, rng);
        }
        changed
    }

    /// Deletes each statement with probability 1/length, with its dependents repaired or deleted.
    pub fn mutation_delete(&self, test: &mut TestCase, rng: &mut TestRng) -> bool {
        if test.is_empty() {
            return false;
        }
        let pl = 1.0 / test.len() as f64;
        let mut changed = false;
        for i in (0..test.len()).rev() {
            if i < test.len() && rng.random_bool(pl) {
                remove_statement(test, i, self.cluster);
                changed = true;
            }
        }
        changed
    }

    /// Changes each statement with probability 1/length.
    pub fn mutation_change(&self, test: &mut TestCase, rng: &mut TestRng) -> bool {
        if test.is_empty() {
            return false;
        }
        let pl = 1.0 / test.len() as f64;
        let mut changed = false;
        let mut i = 0;
        while i < test.len() {
            if rng.random_bool(pl) {
                let backup = test.clone();
                let before = test.len();
                let ok = self.change_statement(test, i, rng);
                if ok && check(test, self.cluster).is_ok() {
                    changed = true;
                    // Statements inserted before `i` to satisfy a new call moved it.
                    i += test.len() - before;
                } else {
                    *test = backup;
                }
            }
            i += 1;
        }
        changed
    }

    /// Inserts statements: the first always, each further one with probability
    /// `p_statement_insertion^k`, while the test is shorter than `chromosome_length`.
    pub fn mutation_insert(&self, test: &mut TestCase, rng: &mut TestRng) -> bool {
        let alpha = self.config.p_statement_insertion.clamp(0.0, 1.0);
        let mut changed = false;
        let mut count = 0i32;
        while rng.random::<f64>() <= alpha.powi(count) && test.len() < self.config.chromosome_length {
            count += 1;
            changed |= self.insert_random_statement(test, rng);
        }
        changed
    }

    fn change_statement(&self, test: &mut TestCase, i: usize, rng: &mut TestRng) -> bool {
        let st = test.statements[i].clone();
        match st {
            Statement::Primitive(v) => {
                let nv = if rng.random_bool(self.config.random_perturbation.clamp(0.0, 1.0)) {
                    self.random_primitive(v.ty(), rng)
                } else {
                    self.delta(v, rng)
                };
                test.statements[i] = Statement::Primitive(nv);
                nv != v
            }
            Statement::String(s) => {
                let ns = self.string_edit(&s, rng);
                let changed = ns != s;
                test.statements[i] = Statement::String(ns);
                changed
            }
            Statement::EnumConstant { ty, name } => {
                let cs = self.cluster.enum_constants(ty.class_name().unwrap_or_default());
                let others: Vec<&String> = cs.iter().filter(|c| **c != name).collect();
                if others.is_empty() {
                    return false;
                }
                let name = others[rng.random_range(0..others.len())].clone();
                test.statements[i] = Statement::EnumConstant { ty, name };
                true
            }
            Statement::ClassLiteral { ty } => {
                // Another of the literals a `Class<?>` may be; `check` then rejects one that a
                // use of this variable cannot take (a `Class<String>` parameter).
                let others: Vec<crate::types::JType> = self
                    .cluster
                    .creations(&crate::types::JType::class(crate::statement::CLASS))
                    .iter()
                    .filter_map(|c| match c {
                        Creation::ClassLiteral(t) if *t != ty => Some(t.clone()),
                        _ => None,
                    })
                    .collect();
                if others.is_empty() {
                    return false;
                }
                let ty = others[rng.random_range(0..others.len())].clone();
                test.statements[i] = Statement::ClassLiteral { ty };
                true
            }
            Statement::NewArray { ty, length } => {
                // Growing keeps every store in bounds.
                if length >= self.config.max_array {
                    return false;
                }
                let length = rng.random_range(length + 1..=self.config.max_array);
                test.statements[i] = Statement::NewArray { ty, length };
                true
            }
            Statement::Null(_) => self.change_null(test, i, rng),
            Statement::ScratchFile(mut sf) => {
                // Another kind a quarter of the time (always for a missing file, whose contents
                // nothing reads), new contents a quarter of the rest, else an edit of the contents
                // like any string's. The value's type (`File` or `Path`) stays: uses depend on it.
                if sf.kind == ScratchKind::Missing || rng.random_bool(0.25) {
                    let others: Vec<ScratchKind> =
                        ScratchKind::ALL.into_iter().filter(|k| *k != sf.kind).collect();
                    sf.kind = others[rng.random_range(0..others.len())];
                } else if rng.random_bool(0.25) {
                    sf.contents = self.random_contents(rng);
                } else {
                    let edited = self.string_edit(&sf.contents, rng);
                    if edited == sf.contents {
                        return false;
                    }
                    sf.contents = edited;
                }
                test.statements[i] = Statement::ScratchFile(sf);
                true
            }
            Statement::Stub { .. } => self.change_stub(test, i, rng),
            Statement::Constructor { .. } | Statement::Method { .. }
                if !rng.random_bool(self.config.p_change_parameter.clamp(0.0, 1.0)) =>
            {
                self.change_call(test, i, rng)
            }
            _ => self.change_use(test, i, rng),
        }
    }

    /// Changes a stub: one more answer for a method, one answer fewer, a throw after the answers
    /// added or removed, or another value for an argument, answer or thrown value (`change_use`),
    /// a quarter each.
    fn change_stub(&self, test: &mut TestCase, i: usize, rng: &mut TestRng) -> bool {
        let Statement::Stub { answers, .. } = &test.statements[i] else { return false };
        let n = answers.len();
        match rng.random_range(0..4) {
            2 if n > 0 => {
                let k = rng.random_range(0..n);
                self.toggle_throw(test, i, k, rng)
            }
            0 if n > 0 => {
                let k = rng.random_range(0..n);
                self.add_answer(test, i, k, rng)
            }
            1 if n > 0 => {
                let k = rng.random_range(0..n);
                let Statement::Stub { answers, .. } = &mut test.statements[i] else { return false };
                let a = &mut answers[k];
                if a.is_empty() {
                    return false;
                }
                let at = rng.random_range(0..a.len());
                a.remove(at);
                true
            }
            _ => self.change_use(test, i, rng),
        }
    }

    /// Replaces `null` with a new value of its type, created right before it.
    fn change_null(&self, test: &mut TestCase, i: usize, rng: &mut TestRng) -> bool {
        let Some(t) = test.var_type(VarId(i as u32)) else { return false };
        let mut pos = i;
        let Ok(v) = self.create(test, &mut pos, &t, 1, rng) else { return false };
        // `pos` is now the null statement's index; make it a copy of the new value.
        test.statements[pos] = Statement::Copy { from: v, ty: t };
        true
    }

    /// Points one use of statement `i` at another earlier variable of an assignable type.
    fn change_use(&self, test: &mut TestCase, i: usize, rng: &mut TestRng) -> bool {
        let uses = test.statements[i].uses();
        if uses.is_empty() {
            return false;
        }
        let slot = rng.random_range(0..uses.len());
        let Some(want) = expected_use_types(test, i).get(slot).cloned().flatten() else { return false };
        let cands: Vec<VarId> =
            candidates(test, self.cluster, &want, i, Some(uses[slot])).into_iter().collect();
        if cands.is_empty() {
            return false;
        }
        let c = cands[rng.random_range(0..cands.len())];
        let mut slots = test.statements[i].uses_mut();
        *slots[slot] = c;
        true
    }

    /// Replaces the call at `i` by another whose result is assignable to the same type (for void
    /// calls: another call on the same receiver, or another CUT call), with parameters satisfied
    /// by the factory before `i`.
    fn change_call(&self, test: &mut TestCase, i: usize, rng: &mut TestRng) -> bool {
        let st = test.statements[i].clone();
        let mut pos = i;
        let replacement = match st.value_type() {
            Some(t) => {
                let ways: Vec<_> = self
                    .cluster
                    .creations(&t)
                    .iter()
                    .filter_map(|w| match w {
                        Creation::Call(inst) => Some(inst.clone()),
                        _ => None,
                    })
                    .filter(|inst| !same_member(&inst.callable, &st))
                    .collect();
                if ways.is_empty() {
                    return false;
                }
                let inst = ways[rng.random_range(0..ways.len())].clone();
                self.build_replacement(test, &mut pos, &inst, None, rng)
            }
            None => {
                let recv = match &st {
                    Statement::Method { receiver: Some(r), .. } => Some(*r),
                    _ => None,
                };
                let options: Vec<Arc<GenericCallable>> = match recv.and_then(|r| test.var_type(r)) {
                    Some(rt) => {
                        let mut ms = self.cluster.modifiers(rt.class_name().unwrap_or_default()).to_vec();
                        if rt.class_name() == Some(self.cluster.cut()) {
                            ms.extend(self.cluster.targets().iter().filter(|t| t.needs_receiver()).cloned());
                        }
                        ms
                    }
                    None => self.cluster.targets().iter().filter(|t| !t.needs_receiver()).cloned().collect(),
                };
                let options: Vec<_> = options.into_iter().filter(|g| !same_member(g, &st)).collect();
                if options.is_empty() {
                    return false;
                }
                let g = options[rng.random_range(0..options.len())].clone();
                let recv_ty = recv.and_then(|r| test.var_type(r));
                let inst = self.cluster.instantiate(&g, recv_ty.as_ref());
                // A void statement's variable is never used, so any call may replace it.
                self.build_replacement(test, &mut pos, &inst, recv.filter(|_| g.needs_receiver()), rng)
            }
        };
        let Some(new_st) = replacement else { return false };
        // `pos` is where the old statement now is, after the inserted dependencies.
        let uses_self = new_st.uses().iter().any(|u| u.index() >= pos);
        if uses_self {
            return false;
        }
        test.statements[pos] = new_st;
        true
    }

    /// The statement calling `inst`, with parameters satisfied by statements inserted at `*pos`.
    fn build_replacement(
        &self,
        test: &mut TestCase,
        pos: &mut usize,
        inst: &crate::cluster::Instantiated,
        recv: Option<VarId>,
        rng: &mut TestRng,
    ) -> Option<Statement> {
        let mut receiver = recv;
        if inst.callable.needs_receiver() && receiver.is_none() {
            receiver = Some(self.satisfy(test, pos, &inst.owner, 1, false, rng).ok()?);
        }
        let mut args = Vec::new();
        for p in &inst.params {
            args.push(self.satisfy(test, pos, p, 1, true, rng).ok()?);
        }
        Some(inst.statement(if inst.callable.needs_receiver() { receiver } else { None }, args))
    }

    /// EvoSuite's `NumericalPrimitiveStatement.delta`: add a nonzero delta in
    /// `[-max_delta, max_delta]`; booleans flip.
    fn delta(&self, v: PrimValue, rng: &mut TestRng) -> PrimValue {
        let m = self.config.max_delta.max(1) as i64;
        let mut d = rng.random_range(-m..=m);
        if d == 0 {
            d = 1;
        }
        match v {
            PrimValue::Boolean(b) => PrimValue::Boolean(!b),
            PrimValue::Byte(x) => int_value(v.ty(), x as i64 + d),
            PrimValue::Char(x) => int_value(v.ty(), x as i64 + d),
            PrimValue::Short(x) => int_value(v.ty(), x as i64 + d),
            PrimValue::Int(x) => int_value(v.ty(), x as i64 + d),
            PrimValue::Long(x) => PrimValue::Long(x.wrapping_add(d)),
            PrimValue::Float(b) => {
                let f = rng.random::<f64>() * 2.0 * m as f64 - m as f64;
                PrimValue::float(f32::from_bits(b) + f as f32)
            }
            PrimValue::Double(b) => {
                let f = rng.random::<f64>() * 2.0 * m as f64 - m as f64;
                PrimValue::double(f64::from_bits(b) + f)
            }
        }
    }

    /// EvoSuite's `StringPrimitiveStatement.delta`: with probability 1/3 each, delete characters
    /// (each with 1/length), replace characters (each with 1/length), insert characters (the k-th
    /// with 0.5^k, up to `string_length`).
    pub fn string_edit(&self, s: &str, rng: &mut TestRng) -> String {
        let mut chars: Vec<char> = s.chars().collect();
        let p = 1.0 / 3.0;
        if rng.random_bool(p) && !chars.is_empty() {
            let pl = 1.0 / chars.len() as f64;
            for i in (0..chars.len()).rev() {
                if rng.random_bool(pl) {
                    chars.remove(i);
                }
            }
        }
        if rng.random_bool(p) && !chars.is_empty() {
            let pl = 1.0 / chars.len() as f64;
            for c in chars.iter_mut() {
                if rng.random_bool(pl) {
                    *c = random_char(rng);
                }
            }
        }
        if rng.random_bool(p) {
            let mut k = 1;
            while rng.random::<f64>() <= 0.5f64.powi(k) && chars.len() < self.config.string_length {
                let at = rng.random_range(0..=chars.len());
                chars.insert(at, random_char(rng));
                k += 1;
            }
        }
        chars.into_iter().collect()
    }

    /// Single-point relative crossover: one relative cut point for both parents; each offspring
    /// is one parent's head and the other's tail, the tail's references to dropped variables
    /// redirected to assignable variables of the head (or to new values); statements that cannot
    /// be repaired are dropped.
    pub fn crossover(&self, a: &TestCase, b: &TestCase, rng: &mut TestRng) -> (TestCase, TestCase) {
        let split: f64 = rng.random();
        let cut = |t: &TestCase| -> usize {
            if t.is_empty() { 0 } else { ((t.len() - 1) as f64 * split).floor() as usize + 1 }
        };
        let (ca, cb) = (cut(a), cut(b));
        let c1 = self.splice(a, ca, b, cb, rng);
        let c2 = self.splice(b, cb, a, ca, rng);
        (c1, c2)
    }

    fn splice(&self, head: &TestCase, h: usize, tail: &TestCase, t: usize, rng: &mut TestRng) -> TestCase {
        let mut child =
            TestCase { statements: head.statements[..h.min(head.len())].to_vec(), lineage: head.lineage };
        // Tail index -> the child's variable holding its value (None: dropped).
        let mut map: Vec<Option<VarId>> = vec![None; tail.len()];
        for j in t.min(tail.len())..tail.len() {
            let mut st = tail.statements[j].clone();
            let expected = expected_use_types(tail, j);
            let uses = st.uses();
            let mut new_uses = Vec::with_capacity(uses.len());
            let backup = child.clone();
            let mut ok = true;
            for (slot, u) in uses.iter().enumerate() {
                let mapped = if u.index() >= t { map[u.index()] } else { None };
                let v = match mapped {
                    Some(v) => Some(v),
                    None => {
                        let Some(want) = expected.get(slot).cloned().flatten() else {
                            ok = false;
                            break;
                        };
                        let mut pos = child.len();
                        self.satisfy(&mut child, &mut pos, &want, 1, slot > 0 || !receiver_first(&st), rng)
                            .ok()
                    }
                };
                match v {
                    Some(v) => new_uses.push(v),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                for (s, v) in st.uses_mut().into_iter().zip(&new_uses) {
                    *s = *v;
                }
                let v = child.push(st);
                if check_statement(&child, v.index(), self.cluster).is_ok() {
                    map[j] = Some(v);
                    continue;
                }
            }
            child = backup;
        }
        child
    }
}

/// Whether a callable is the member the statement already calls.
fn same_member(g: &GenericCallable, st: &Statement) -> bool {
    match st {
        Statement::Method { method, .. } => {
            g.class == method.class && g.name == method.name && g.descriptor == method.descriptor
        }
        Statement::Constructor { ctor, .. } => {
            g.name == "<init>" && g.class == ctor.class && g.descriptor == ctor.descriptor
        }
        _ => false,
    }
}
