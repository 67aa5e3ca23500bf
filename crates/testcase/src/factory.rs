//! EvoSuite's random test factory (`TestFactory`, `RandomLengthTestFactory`): random tests of random
//! length made of calls on the CUT and on existing objects, whose parameters are satisfied by
//! reusing earlier variables (`object_reuse_probability`, `primitive_reuse_probability`), `null`
//! (`null_probability`) or values created recursively up to `max_recursion`. Constants come from the
//! value pools with probability `primitive_pool`. A failed insertion leaves the test unchanged.

use std::sync::Arc;

use rand::RngExt;

use crate::TestRng;
use crate::cluster::{CallableKind, Creation, GenericCallable, Instantiated, TestCluster};
use crate::pool::{PoolValue, ValuePool};
use crate::statement::{PrimValue, ScratchFile, ScratchKind, Statement, StubRef, TestCase, VarId};
use crate::types::{JType, PrimType, STRING};
use crate::validity::candidates;

/// The most answers a stub method returns in turn: a sequence long enough for "first this, then
/// that" (an iterator's `hasNext`: true, then false), short enough to read.
pub const MAX_ANSWERS: usize = 3;

/// How often a new stub's method throws after its answers (`Statement::Stub::throws`): rarely,
/// since most code wants answers, and mutation adds or removes a throw as often as an answer.
pub const P_STUB_THROW: f64 = 0.125;

/// Test-creation and mutation parameters. No `Default`: `FactoryConfig::evosuite()` gives
/// EvoSuite's (anchors.md §1.4, digest 002 §2.2).
#[derive(Debug, Clone, PartialEq)]
pub struct FactoryConfig {
    /// Maximum statements of a test during search (`chromosome_length`).
    pub chromosome_length: usize,
    /// Attempts to reach the chosen length of a random test (`max_attempts`).
    pub max_attempts: usize,
    /// Probability that an inserted statement is a call on the CUT rather than on an existing
    /// object (`insertion_uut`).
    pub insertion_uut: f64,
    /// Decay of repeated insertions in the insert mutation (`p_statement_insertion`).
    pub p_statement_insertion: f64,
    pub p_test_delete: f64,
    pub p_test_change: f64,
    pub p_test_insert: f64,
    /// Probability that changing a call changes one parameter rather than the called member.
    pub p_change_parameter: f64,
    pub null_probability: f64,
    pub object_reuse_probability: f64,
    pub primitive_reuse_probability: f64,
    /// Probability of drawing a constant from a pool rather than a random value.
    pub primitive_pool: f64,
    /// Probability of the dynamic pool rather than the static one, when drawing from a pool.
    pub dynamic_pool: f64,
    pub dynamic_pool_size: usize,
    pub string_length: usize,
    pub max_int: i32,
    pub max_delta: i32,
    /// Probability that mutating a primitive draws a new value instead of adding a delta.
    pub random_perturbation: f64,
    pub max_array: u32,
    pub max_recursion: u32,
}

impl FactoryConfig {
    /// EvoSuite 1.2.0's defaults.
    pub fn evosuite() -> FactoryConfig {
        FactoryConfig {
            chromosome_length: 40,
            max_attempts: 1000,
            insertion_uut: 0.5,
            p_statement_insertion: 0.5,
            p_test_delete: 1.0 / 3.0,
            p_test_change: 1.0 / 3.0,
            p_test_insert: 1.0 / 3.0,
            p_change_parameter: 0.1,
            null_probability: 0.1,
            object_reuse_probability: 0.9,
            primitive_reuse_probability: 0.5,
            primitive_pool: 0.5,
            dynamic_pool: 0.5,
            dynamic_pool_size: 50,
            string_length: 20,
            max_int: 2048,
            max_delta: 20,
            random_perturbation: 0.2,
            max_array: 10,
            max_recursion: 10,
        }
    }
}

/// Creation gave up (no generator, recursion too deep); the caller restores the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Failed;

/// The factory: the cluster, the pools and the parameters, borrowed for the search.
#[derive(Debug, Clone, Copy)]
pub struct TestFactory<'a> {
    pub cluster: &'a TestCluster,
    pub pool: &'a ValuePool,
    pub config: &'a FactoryConfig,
}

pub(crate) fn random_char(rng: &mut TestRng) -> char {
    // Printable ASCII, as EvoSuite's `Randomness.nextChar`.
    rng.random_range(32u8..127) as char
}

impl<'a> TestFactory<'a> {
    pub fn new(cluster: &'a TestCluster, pool: &'a ValuePool, config: &'a FactoryConfig) -> TestFactory<'a> {
        TestFactory { cluster, pool, config }
    }

    /// A random test: a length drawn from `1..=chromosome_length`, filled by random insertions
    /// (at most `max_attempts`).
    pub fn random_test(&self, rng: &mut TestRng) -> TestCase {
        let mut test = TestCase::new();
        let length = rng.random_range(1..=self.config.chromosome_length.max(1));
        let mut attempts = 0;
        while test.len() < length && attempts < self.config.max_attempts {
            self.insert_random_statement(&mut test, rng);
            attempts += 1;
        }
        test
    }

    /// Inserts a call on the CUT (probability `insertion_uut`) or on an existing object, at a
    /// random position, with whatever statements its parameters need. Returns false, leaving the
    /// test as it was, if nothing could be inserted.
    pub fn insert_random_statement(&self, test: &mut TestCase, rng: &mut TestRng) -> bool {
        let backup = test.clone();
        let on_object = !rng.random_bool(self.config.insertion_uut.clamp(0.0, 1.0));
        let ok = if on_object {
            self.insert_call_on_object(test, rng).or_else(|_| self.insert_cut_call(test, rng))
        } else {
            self.insert_cut_call(test, rng)
        };
        if ok.is_err() {
            *test = backup;
            return false;
        }
        true
    }

    fn insert_cut_call(&self, test: &mut TestCase, rng: &mut TestRng) -> Result<VarId, Failed> {
        let targets = self.cluster.targets();
        if targets.is_empty() {
            return Err(Failed);
        }
        let g = targets[rng.random_range(0..targets.len())].clone();
        let mut pos = rng.random_range(0..=test.len());
        let backup = test.clone();
        let res = self.add_call(test, &mut pos, &g, None, 0, rng);
        if res.is_err() {
            *test = backup;
        }
        res
    }

    /// Calls a modifier of a random existing object (non-null, of a class with modifiers).
    fn insert_call_on_object(&self, test: &mut TestCase, rng: &mut TestRng) -> Result<VarId, Failed> {
        let objects: Vec<(VarId, JType, crate::cluster::Modifiers)> = (0..test.len())
            .filter(|&i| !matches!(test.statements[i], Statement::Null(_)))
            .filter_map(|i| {
                let t = test.var_type(VarId(i as u32))?;
                let ms = self.cluster.modifiers(t.class_name()?);
                (!ms.is_empty()).then_some((VarId(i as u32), t, ms))
            })
            .collect();
        if objects.is_empty() {
            return Err(Failed);
        }
        let (v, t, ms) = &objects[rng.random_range(0..objects.len())];
        let g = ms[rng.random_range(0..ms.len())].clone();
        let inst = self.cluster.instantiate(&g, Some(t));
        let mut pos = rng.random_range(v.index() + 1..=test.len());
        let backup = test.clone();
        let res = self.add_instantiated(test, &mut pos, &inst, Some(*v), 0, rng);
        if res.is_err() {
            *test = backup;
        }
        res
    }

    /// Inserts a call of `g` at `*pos` (advancing it past everything inserted) on `receiver`
    /// (for instance members; one is found or made when `None`), with parameter k bound to
    /// `fixed[k]` where that is `Some` and the other parameters satisfied as any insertion does.
    /// Object construction templates (crate `ocg`, paper 000 Algorithm 1) wire their statements
    /// this way. `None`, leaving the test as it was, when a parameter could not be satisfied.
    pub fn insert_call_with(
        &self,
        test: &mut TestCase,
        pos: &mut usize,
        g: &Arc<GenericCallable>,
        receiver: Option<VarId>,
        fixed: &[Option<VarId>],
        rng: &mut TestRng,
    ) -> Option<VarId> {
        let backup = (test.clone(), *pos);
        let mut receiver = receiver;
        if g.needs_receiver() && receiver.is_none() {
            let want = self.cluster.instantiate(g, None).owner;
            receiver = self.satisfy(test, pos, &want, 1, false, rng).ok();
        }
        let recv_ty = receiver.and_then(|r| test.var_type(r));
        let inst = self.cluster.instantiate(g, recv_ty.as_ref());
        let mut args = Vec::with_capacity(inst.params.len());
        for (k, p) in inst.params.iter().enumerate() {
            match fixed.get(k).copied().flatten() {
                Some(v) => args.push(Some(v)),
                None => args.push(self.satisfy(test, pos, p, 1, true, rng).ok()),
            }
        }
        let args: Option<Vec<VarId>> = args.into_iter().collect();
        match (args, !g.needs_receiver() || receiver.is_some()) {
            (Some(args), true) => {
                let st = inst.statement(if g.needs_receiver() { receiver } else { None }, args);
                Some(self.insert_at(test, pos, st))
            }
            _ => {
                (*test, *pos) = backup;
                None
            }
        }
    }

    /// Inserts a new value of a type assignable to `want` at `*pos`, never `null` (a template's
    /// object that a setter installs, paper 000 §A2.4's null-safe construction). `None`, leaving
    /// the test as it was, when the cluster has no way to make one.
    pub fn insert_value(
        &self,
        test: &mut TestCase,
        pos: &mut usize,
        want: &JType,
        rng: &mut TestRng,
    ) -> Option<VarId> {
        let backup = (test.clone(), *pos);
        // A new object: a constructor or a static factory, not a getter of an object already in
        // the test (which would hand back the field's current value, often `null`).
        let ways = self.cluster.creations(want);
        let fresh: Vec<&Instantiated> = ways
            .iter()
            .filter_map(|w| match w {
                Creation::Call(i) if i.callable.kind == CallableKind::Constructor || i.callable.is_static => {
                    Some(i)
                }
                _ => None,
            })
            .collect();
        let made = if fresh.is_empty() {
            self.create(test, pos, want, 1, rng)
        } else {
            let inst = fresh[rng.random_range(0..fresh.len())];
            self.add_instantiated(test, pos, inst, None, 1, rng)
        };
        match made {
            Ok(v) if !matches!(test.statements[v.index()], Statement::Null(_)) => Some(v),
            _ => {
                (*test, *pos) = backup;
                None
            }
        }
    }

    /// Adds a call of `g` at `*pos` (advancing it past everything inserted). `recv` is a receiver
    /// to use for instance members; otherwise one is found or created.
    pub(crate) fn add_call(
        &self,
        test: &mut TestCase,
        pos: &mut usize,
        g: &Arc<GenericCallable>,
        recv: Option<VarId>,
        depth: u32,
        rng: &mut TestRng,
    ) -> Result<VarId, Failed> {
        if depth > self.config.max_recursion {
            return Err(Failed);
        }
        let mut receiver = recv;
        if g.needs_receiver() && receiver.is_none() {
            let want = self.cluster.instantiate(g, None).owner;
            receiver = Some(self.satisfy(test, pos, &want, depth + 1, false, rng)?);
        }
        let recv_ty = receiver.and_then(|r| test.var_type(r));
        let inst = self.cluster.instantiate(g, recv_ty.as_ref());
        self.add_instantiated(test, pos, &inst, receiver, depth, rng)
    }

    fn add_instantiated(
        &self,
        test: &mut TestCase,
        pos: &mut usize,
        inst: &Instantiated,
        receiver: Option<VarId>,
        depth: u32,
        rng: &mut TestRng,
    ) -> Result<VarId, Failed> {
        if depth > self.config.max_recursion {
            return Err(Failed);
        }
        let mut receiver = receiver;
        if inst.callable.needs_receiver() && receiver.is_none() {
            receiver = Some(self.satisfy(test, pos, &inst.owner, depth + 1, false, rng)?);
        }
        let mut args = Vec::with_capacity(inst.params.len());
        for p in &inst.params {
            args.push(self.satisfy(test, pos, p, depth + 1, true, rng)?);
        }
        let st = inst.statement(if inst.callable.needs_receiver() { receiver } else { None }, args);
        let v = test.insert(*pos, st);
        *pos += 1;
        Ok(v)
    }

    /// A variable of a type assignable to `want`, defined before `*pos`: reused, `null`, or
    /// created (inserted at `*pos`).
    pub(crate) fn satisfy(
        &self,
        test: &mut TestCase,
        pos: &mut usize,
        want: &JType,
        depth: u32,
        allow_null: bool,
        rng: &mut TestRng,
    ) -> Result<VarId, Failed> {
        let cands = candidates(test, self.cluster, want, *pos, None);
        let cands: Vec<VarId> = if allow_null {
            cands
        } else {
            // A receiver: an object that is not a literal null and not a primitive.
            cands
                .into_iter()
                .filter(|v| !matches!(test.statements[v.index()], Statement::Null(_)))
                .filter(|v| !test.var_type(*v).is_some_and(|t| t.is_primitive()))
                .collect()
        };
        let reuse_p = if want.is_primitive_like() {
            self.config.primitive_reuse_probability
        } else {
            self.config.object_reuse_probability
        };
        if !want.is_primitive() && allow_null && rng.random_bool(self.config.null_probability.clamp(0.0, 1.0))
        {
            return Ok(self.insert_at(test, pos, Statement::Null(want.clone())));
        }
        if !cands.is_empty() && rng.random_bool(reuse_p.clamp(0.0, 1.0)) {
            return Ok(cands[rng.random_range(0..cands.len())]);
        }
        match self.create(test, pos, want, depth, rng) {
            Ok(v) if !allow_null && test.var_type(v).is_some_and(|t| t.is_primitive()) => Err(Failed),
            Ok(v) => Ok(v),
            Err(Failed) if !cands.is_empty() => Ok(cands[rng.random_range(0..cands.len())]),
            Err(Failed) if allow_null && !want.is_primitive() => {
                Ok(self.insert_at(test, pos, Statement::Null(want.clone())))
            }
            Err(f) => Err(f),
        }
    }

    fn insert_at(&self, test: &mut TestCase, pos: &mut usize, st: Statement) -> VarId {
        let v = test.insert(*pos, st);
        *pos += 1;
        v
    }

    /// Creates a new value of a type assignable to `want` with a random way of the cluster.
    pub(crate) fn create(
        &self,
        test: &mut TestCase,
        pos: &mut usize,
        want: &JType,
        depth: u32,
        rng: &mut TestRng,
    ) -> Result<VarId, Failed> {
        if depth > self.config.max_recursion {
            return Err(Failed);
        }
        let ways = self.cluster.creations(want);
        if ways.is_empty() {
            return Err(Failed);
        }
        let way = &ways[rng.random_range(0..ways.len())];
        match way {
            Creation::Constant(t) => {
                let st = self.random_constant(t, rng);
                Ok(self.insert_at(test, pos, st))
            }
            Creation::Enum { class, constants } => {
                if constants.is_empty() {
                    return Err(Failed);
                }
                let name = constants[rng.random_range(0..constants.len())].clone();
                Ok(self.insert_at(test, pos, Statement::EnumConstant { ty: JType::class(class), name }))
            }
            Creation::Array(t) => {
                let JType::Array(comp) = t else { return Err(Failed) };
                let length = rng.random_range(0..=self.config.max_array);
                let arr = self.insert_at(test, pos, Statement::NewArray { ty: t.clone(), length });
                for index in 0..length {
                    // Half the elements stay at their default value, which keeps tests short.
                    if rng.random_bool(0.5) {
                        let backup = (test.clone(), *pos);
                        match self.satisfy(test, pos, comp, depth + 1, true, rng) {
                            Ok(value) => {
                                self.insert_at(test, pos, Statement::ArrayStore { array: arr, index, value });
                            }
                            Err(Failed) => (*test, *pos) = backup,
                        }
                    }
                }
                Ok(arr)
            }
            Creation::Call(inst) => self.add_instantiated(test, pos, inst, None, depth, rng),
            Creation::ClassLiteral(t) => {
                Ok(self.insert_at(test, pos, Statement::ClassLiteral { ty: t.clone() }))
            }
            Creation::Stub(s) => self.add_stub(test, pos, s, depth, rng),
            Creation::ScratchFile { path } => {
                let kind = ScratchKind::ALL[rng.random_range(0..ScratchKind::ALL.len())];
                // A missing file has no contents.
                let contents =
                    if kind == ScratchKind::Missing { String::new() } else { self.random_contents(rng) };
                let sf = ScratchFile { kind, path: *path, contents };
                Ok(self.insert_at(test, pos, Statement::ScratchFile(sf)))
            }
        }
    }

    /// A stub with a random constructor, its arguments, and up to `MAX_ANSWERS` answers per
    /// method (one most often: a fixed return value), all satisfied before it.
    fn add_stub(
        &self,
        test: &mut TestCase,
        pos: &mut usize,
        s: &Arc<StubRef>,
        depth: u32,
        rng: &mut TestRng,
    ) -> Result<VarId, Failed> {
        let n = s.stub.constructors.len();
        if n == 0 {
            return Err(Failed);
        }
        let ctor = rng.random_range(0..n);
        let s = if ctor == s.ctor { s.clone() } else { Arc::new(StubRef { ctor, ..(**s).clone() }) };
        let mut args = Vec::new();
        for p in s.ctor_params().to_vec() {
            args.push(self.satisfy(test, pos, &p, depth + 1, true, rng)?);
        }
        let mut answers = Vec::with_capacity(s.answer_types.len());
        for t in s.answer_types.clone() {
            let mut a = Vec::new();
            if let Some(t) = t {
                let count = [0, 1, 1, 1, 2, MAX_ANSWERS][rng.random_range(0..6)];
                for _ in 0..count {
                    // An answer that cannot be made (too deep) leaves the method with fewer: the
                    // stub itself is still a value.
                    let backup = (test.clone(), *pos);
                    match self.satisfy(test, pos, &t, depth + 1, true, rng) {
                        Ok(v) => a.push(v),
                        Err(Failed) => {
                            (*test, *pos) = backup;
                            break;
                        }
                    }
                }
            }
            answers.push(a);
        }
        // A method throws now and then (`P_STUB_THROW`), after its answers: the code under test
        // that catches what it throws needs such a stub.
        let mut throws = Vec::with_capacity(s.stub.methods.len());
        for m in &s.stub.methods {
            let mut t = None;
            if rng.random_bool(P_STUB_THROW) {
                let backup = (test.clone(), *pos);
                match self.satisfy(test, pos, &JType::class(&m.throw_bound), depth + 1, true, rng) {
                    Ok(v) => t = Some(v),
                    Err(Failed) => (*test, *pos) = backup,
                }
            }
            throws.push(t);
        }
        Ok(self.insert_at(test, pos, Statement::Stub { stub: s, args, answers, throws }))
    }

    /// Makes method `k` of the stub at `i` throw a new value of its `throw_bound` after its
    /// answers, or stop throwing if it did; false when nothing changed.
    pub(crate) fn toggle_throw(&self, test: &mut TestCase, i: usize, k: usize, rng: &mut TestRng) -> bool {
        let Statement::Stub { stub, throws, .. } = &mut test.statements[i] else { return false };
        let Some(m) = stub.stub.methods.get(k) else { return false };
        let bound = JType::class(&m.throw_bound);
        match throws.get_mut(k) {
            None => return false,
            Some(t @ Some(_)) => {
                *t = None;
                return true;
            }
            Some(None) => {}
        }
        let mut pos = i;
        let Ok(v) = self.satisfy(test, &mut pos, &bound, 1, true, rng) else { return false };
        // `pos` is where the stub now is, after what `satisfy` inserted.
        let Statement::Stub { throws, .. } = &mut test.statements[pos] else { return false };
        match throws.get_mut(k) {
            Some(t) => {
                *t = Some(v);
                true
            }
            None => false,
        }
    }

    /// A new answer of method `k` of the stub at `i`, satisfied before it; false when there is
    /// none to add (a void method, or `MAX_ANSWERS` already).
    pub(crate) fn add_answer(&self, test: &mut TestCase, i: usize, k: usize, rng: &mut TestRng) -> bool {
        let Statement::Stub { stub, answers, .. } = &test.statements[i] else { return false };
        let Some(Some(t)) = stub.answer_types.get(k).cloned() else { return false };
        if answers.get(k).is_none_or(|a| a.len() >= MAX_ANSWERS) {
            return false;
        }
        let mut pos = i;
        let Ok(v) = self.satisfy(test, &mut pos, &t, 1, true, rng) else { return false };
        // `pos` is where the stub now is, after what `satisfy` inserted.
        let Statement::Stub { answers, .. } = &mut test.statements[pos] else { return false };
        let Some(a) = answers.get_mut(k) else { return false };
        let at = rng.random_range(0..=a.len());
        a.insert(at, v);
        true
    }

    /// A random constant of a primitive, wrapper or `String` type (a wrapper gets its primitive,
    /// which boxes): from a pool with probability `primitive_pool`, else uniformly random.
    pub fn random_constant(&self, t: &JType, rng: &mut TestRng) -> Statement {
        match t.as_primitive() {
            Some(p) => Statement::Primitive(self.random_primitive(p, rng)),
            None => {
                debug_assert!(t.class_name() == Some(STRING) || !t.is_primitive_like());
                Statement::String(self.random_string(rng))
            }
        }
    }

    /// Contents of a scratch file: up to four lines, each a random string (pool strings
    /// included), a quarter of them `key=value`, the shape of settings and properties files.
    pub fn random_contents(&self, rng: &mut TestRng) -> String {
        let n = rng.random_range(0..=4);
        let line = |rng: &mut TestRng| {
            if rng.random_bool(0.25) {
                format!("{}={}", self.random_string(rng), self.random_string(rng))
            } else {
                self.random_string(rng)
            }
        };
        (0..n).map(|_| line(rng)).collect::<Vec<_>>().join("\n")
    }

    pub fn random_string(&self, rng: &mut TestRng) -> String {
        if rng.random_bool(self.config.primitive_pool.clamp(0.0, 1.0))
            && let Some(PoolValue::String(s)) = self.pool.draw(rng, None, self.config.dynamic_pool)
        {
            return s;
        }
        let n = rng.random_range(0..=self.config.string_length);
        (0..n).map(|_| random_char(rng)).collect()
    }

    pub fn random_primitive(&self, p: PrimType, rng: &mut TestRng) -> PrimValue {
        if rng.random_bool(self.config.primitive_pool.clamp(0.0, 1.0))
            && let Some(v) = self.pool.draw(rng, Some(p), self.config.dynamic_pool)
        {
            return match (p, v) {
                (PrimType::Float, PoolValue::Float(b)) => PrimValue::Float(b),
                (PrimType::Double, PoolValue::Double(b)) => PrimValue::Double(b),
                (_, PoolValue::Int(i)) => int_value(p, i),
                _ => self.uniform_primitive(p, rng),
            };
        }
        self.uniform_primitive(p, rng)
    }

    /// EvoSuite's `randomize`: integers in `[-max_int, max_int]`, chars printable ASCII, floats
    /// uniform in the same range.
    fn uniform_primitive(&self, p: PrimType, rng: &mut TestRng) -> PrimValue {
        let m = self.config.max_int.max(1);
        match p {
            PrimType::Boolean => PrimValue::Boolean(rng.random_bool(0.5)),
            PrimType::Char => PrimValue::Char(random_char(rng) as u16),
            PrimType::Float => PrimValue::float((rng.random::<f64>() * 2.0 * m as f64 - m as f64) as f32),
            PrimType::Double => PrimValue::double(rng.random::<f64>() * 2.0 * m as f64 - m as f64),
            _ => int_value(p, rng.random_range(-m..=m) as i64),
        }
    }
}

/// An integer converted to a primitive kind the way a Java cast does (wrapping).
pub(crate) fn int_value(p: PrimType, v: i64) -> PrimValue {
    match p {
        PrimType::Boolean => PrimValue::Boolean(v != 0),
        PrimType::Byte => PrimValue::Byte(v as i8),
        PrimType::Char => PrimValue::Char(v as u16),
        PrimType::Short => PrimValue::Short(v as i16),
        PrimType::Int => PrimValue::Int(v as i32),
        PrimType::Long => PrimValue::Long(v),
        PrimType::Float => PrimValue::float(v as f32),
        PrimType::Double => PrimValue::double(v as f64),
    }
}
