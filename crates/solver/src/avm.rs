//! The Alternating Variable Method (Korel 1990; the solver of paper 004, digest B.2.3, "AVM as
//! commonly defined"): minimise the sum of the constraints' normalised branch distances by
//! exploratory moves ±δ on one variable at a time, each success followed by pattern moves that
//! double the step, cycling through the variables; a full cycle without improvement restarts from
//! random values. Integers (bit-vectors) move by 1 within their range (chars, Bv(16), in 0..=65535);
//! floats move by 10^-p for p = 0, 1, 2, ... with the value rounded to p decimals after each move
//! (Harman and McMinn's precision steps); booleans flip.
//!
//! Deterministic: the random restarts draw from a generator seeded anew from the solver's seed at
//! every query, and the only limit is the number of objective evaluations.

use rand::{RngExt, SeedableRng};

use crate::arena::{Compiled, Step};
use crate::op::Op;
use crate::value::{Sort, Value};
use crate::{Arena, Assignment, ExprId, Outcome, Solver, SolverLimits, VarId};

type Rng = rand_pcg::Pcg64Mcg;

/// The distance of an unsatisfied constraint that has no numeric gradient (NaN operands).
const BIG: f64 = 1e30;
/// Precisions tried for doubles and floats: steps 10^0 down to 10^-MAX.
const MAX_PRECISION_F64: i32 = 15;
const MAX_PRECISION_F32: i32 = 7;

/// The AVM solver.
#[derive(Debug)]
pub struct Avm {
    limits: SolverLimits,
    seed: u64,
    evaluations: u64,
}

impl Avm {
    pub fn new(limits: &SolverLimits, seed: u64) -> Avm {
        Avm { limits: *limits, seed, evaluations: 0 }
    }

    /// Objective evaluations spent by every query so far.
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }
}

impl Solver for Avm {
    fn solve(&mut self, arena: &Arena, constraints: &[ExprId], hint: &Assignment) -> Outcome {
        let mut search = Search::new(arena, constraints, hint, self.limits.avm_evaluations, self.seed);
        let res = search.run();
        self.evaluations += search.evals;
        match res {
            Some(true) => Outcome::Sat(search.model()),
            // Without variables the constraints are constants, and false ones stay false.
            Some(false) => Outcome::Unsat,
            None => Outcome::Unknown,
        }
    }

    fn name(&self) -> &'static str {
        "avm"
    }
}

/// The budget is spent.
struct Exhausted;

/// One query: the compiled constraints, the current point and its objective.
struct Search {
    prog: Compiled,
    roots: Vec<usize>,
    vars: Vec<(VarId, Sort)>,
    /// Values indexed by `VarId` (what `Compiled::run` reads).
    dense: Vec<Option<Value>>,
    out: Vec<Value>,
    /// The objective at the current point.
    fx: Objective,
    solved: bool,
    evals: u64,
    budget: u64,
    rng: Rng,
}

impl Search {
    fn new(arena: &Arena, constraints: &[ExprId], hint: &Assignment, budget: u64, seed: u64) -> Search {
        let prog = arena.compile(constraints);
        let roots = constraints.iter().map(|&c| prog.pos(c)).collect();
        let vars = prog.vars();
        let mut dense = vec![None; arena.vars().len()];
        for &(v, sort) in &vars {
            dense[v.0 as usize] = Some(clamp_start(hint.get(v, sort)));
        }
        let out = Vec::with_capacity(prog.steps.len());
        let rng = Rng::seed_from_u64(seed);
        Search { prog, roots, vars, dense, out, fx: Objective::WORST, solved: false, evals: 0, budget, rng }
    }

    fn model(&self) -> Assignment {
        Assignment(self.vars.iter().map(|&(v, _)| (v, self.get(v))).collect())
    }

    fn get(&self, v: VarId) -> Value {
        self.dense[v.0 as usize].expect("every variable of the query has a value")
    }

    /// `Some(true)` when solved, `Some(false)` when constant and false, `None` when out of budget.
    fn run(&mut self) -> Option<bool> {
        let fx = self.evaluate().ok()?;
        self.fx = fx;
        if self.solved {
            return Some(true);
        }
        if self.vars.is_empty() {
            return Some(false);
        }
        self.search().ok().map(|()| true)
    }

    fn search(&mut self) -> Result<(), Exhausted> {
        loop {
            let mut improved = false;
            for i in 0..self.vars.len() {
                improved |= self.improve(i)?;
                if self.solved {
                    return Ok(());
                }
            }
            if !improved {
                self.restart()?;
                if self.solved {
                    return Ok(());
                }
            }
        }
    }

    fn restart(&mut self) -> Result<(), Exhausted> {
        for i in 0..self.vars.len() {
            let (v, sort) = self.vars[i];
            let val = random_value(&mut self.rng, sort);
            self.dense[v.0 as usize] = Some(val);
        }
        self.fx = self.evaluate()?;
        Ok(())
    }

    /// Moves variable `i` while that improves the objective; whether it moved.
    fn improve(&mut self, i: usize) -> Result<bool, Exhausted> {
        let (_, sort) = self.vars[i];
        match sort {
            Sort::Bool => {
                let v = self.get(self.vars[i].0);
                self.try_value(i, Value::Bool(!v.as_bool()))
            }
            Sort::Bv(w) => self.improve_int(i, w),
            Sort::F32 | Sort::F64 => {
                let max = if sort == Sort::F32 { MAX_PRECISION_F32 } else { MAX_PRECISION_F64 };
                let mut improved = false;
                for p in 0..=max {
                    improved |= self.improve_float(i, p)?;
                    if self.solved {
                        break;
                    }
                }
                Ok(improved)
            }
        }
    }

    /// Sets variable `i` to `val` if that lowers the objective (keeps it otherwise).
    fn try_value(&mut self, i: usize, val: Value) -> Result<bool, Exhausted> {
        let var = self.vars[i].0;
        let old = self.get(var);
        if val == old {
            return Ok(false);
        }
        self.dense[var.0 as usize] = Some(val);
        let f = self.evaluate()?;
        if self.solved || f.better_than(&self.fx) {
            self.fx = f;
            Ok(true)
        } else {
            self.dense[var.0 as usize] = Some(old);
            Ok(false)
        }
    }

    fn improve_int(&mut self, i: usize, w: u8) -> Result<bool, Exhausted> {
        let (lo, hi) = int_range(w);
        let var = self.vars[i].0;
        let mut improved = false;
        loop {
            let mut moved = false;
            for dir in [1i128, -1] {
                let cur = int_of(self.get(var), w);
                if self.try_value(i, int_value((cur + dir).clamp(lo, hi), w))? {
                    moved = true;
                    // Pattern moves: keep going in this direction with doubling steps.
                    let mut step = 2i128;
                    while !self.solved && step < (1i128 << 66) {
                        let cur = int_of(self.get(var), w);
                        if !self.try_value(i, int_value((cur + dir * step).clamp(lo, hi), w))? {
                            break;
                        }
                        step *= 2;
                    }
                    break;
                }
            }
            if !moved || self.solved {
                return Ok(improved || moved);
            }
            improved = true;
        }
    }

    fn improve_float(&mut self, i: usize, p: i32) -> Result<bool, Exhausted> {
        let var = self.vars[i].0;
        let delta = 10f64.powi(-p);
        let mut improved = false;
        loop {
            let mut moved = false;
            for dir in [1.0f64, -1.0] {
                let cur = self.get(var);
                if self.try_value(i, float_move(cur, dir * delta, p))? {
                    moved = true;
                    let mut step = 2.0;
                    while !self.solved && step < 1e300 {
                        let cur = self.get(var);
                        if !self.try_value(i, float_move(cur, dir * step * delta, p))? {
                            break;
                        }
                        step *= 2.0;
                    }
                    break;
                }
            }
            if !moved || self.solved {
                return Ok(improved || moved);
            }
            improved = true;
        }
    }

    /// The objective at the current point: the sum of the constraints' normalised distances.
    fn evaluate(&mut self) -> Result<Objective, Exhausted> {
        if self.evals >= self.budget {
            return Err(Exhausted);
        }
        self.evals += 1;
        self.prog.run(&self.dense, &mut self.out);
        self.solved = self.roots.iter().all(|&r| self.out[r] == Value::Bool(true));
        let mut f = Objective { unsatisfied: 0, slack: 0.0 };
        for &r in &self.roots {
            let d = distance(&self.prog, &self.out, r, true);
            if d > 0.0 {
                f.unsatisfied += 1;
                f.slack += 1.0 / (d + 1.0);
            }
        }
        Ok(f)
    }
}

/// Σ d/(d+1) over the constraints, kept as `unsatisfied - slack` with slack = Σ 1/(d+1) over the
/// unsatisfied ones: the same number, but a step of 1 at a distance of 2^31 changes d/(d+1) by
/// 2^-62, below the resolution of an f64 near 1, while it changes 1/(d+1) by a relative 2^-31.
#[derive(Clone, Copy, Debug)]
struct Objective {
    unsatisfied: u32,
    slack: f64,
}

impl Objective {
    const WORST: Objective = Objective { unsatisfied: u32::MAX, slack: 0.0 };

    fn better_than(&self, other: &Objective) -> bool {
        let whole = f64::from(self.unsatisfied) - f64::from(other.unsatisfied);
        whole - (self.slack - other.slack) < 0.0
    }
}

/// How far the boolean node at `pos` is from being `want` (0 exactly when it is): branch distances
/// for comparisons (integer and float differences), sums and minima through `and`/`or`/`not`.
fn distance(prog: &Compiled, out: &[Value], pos: usize, want: bool) -> f64 {
    if out[pos].as_bool() == want {
        return 0.0;
    }
    let Step::App(op, args) = &prog.steps[pos] else { return 1.0 };
    let arg = |k: usize| args[k] as usize;
    let sub = |k: usize, w: bool| distance(prog, out, arg(k), w);
    let (op, want) = match *op {
        Op::Ne => (Op::Eq, !want),
        other => (other, want),
    };
    let d = match op {
        Op::Not => sub(0, !want),
        Op::And2 if want => sub(0, true) + sub(1, true),
        Op::And2 => sub(0, false).min(sub(1, false)),
        Op::Or2 if want => sub(0, true).min(sub(1, true)),
        Op::Or2 => sub(0, false) + sub(1, false),
        Op::Implies if want => sub(0, false).min(sub(1, true)),
        Op::Implies => sub(0, true) + sub(1, false),
        Op::Eq
        | Op::Slt
        | Op::Sle
        | Op::Sgt
        | Op::Sge
        | Op::Ult
        | Op::FLt
        | Op::FLe
        | Op::FGt
        | Op::FGe
        | Op::FEq => compare_distance(op, out[arg(0)], out[arg(1)], want),
        Op::BvToBool if !want => (out[arg(0)].as_i64() as f64).abs(),
        _ => 1.0,
    };
    // A distance is positive whenever the node is not `want` (rounding must not make it 0).
    d.max(1e-12)
}

/// Branch distance of a comparison of two values (violated, so the result is positive).
fn compare_distance(op: Op, a: Value, b: Value, want: bool) -> f64 {
    let num = |v: Value, unsigned: bool| -> f64 {
        match v {
            Value::Bv { bits, .. } if unsigned => bits as f64,
            Value::Bv { .. } => v.as_i64() as f64,
            Value::Bool(x) => f64::from(u8::from(x)),
            _ => v.as_f64(),
        }
    };
    let unsigned = op == Op::Ult;
    let (x, y) = (num(a, unsigned), num(b, unsigned));
    let diff = (x - y).abs();
    // Korel's distances with K = 1: a strict relation wanted needs the gap plus one step, a
    // non-strict one the gap; the negation of a strict relation is a non-strict one and vice versa.
    let strict = matches!(op, Op::Slt | Op::Ult | Op::Sgt | Op::FLt | Op::FGt);
    let d = match op {
        Op::Eq | Op::FEq if want => diff,
        // Equal, wanted different: one step away.
        Op::Eq | Op::FEq => 1.0,
        _ if strict == want => diff + 1.0,
        _ => diff,
    };
    if d.is_finite() { d } else { BIG }
}

/// Where a search starts from a hint: NaN and infinities become 0.
fn clamp_start(v: Value) -> Value {
    match v {
        Value::F32(_) | Value::F64(_) if !v.as_f64().is_finite() => Value::default_of(v.sort()),
        other => other,
    }
}

/// The range a bit-vector variable moves in: chars (16 bits) unsigned, other widths signed.
fn int_range(w: u8) -> (i128, i128) {
    if w == 16 {
        (0, 0xffff)
    } else {
        let half = 1i128 << (w - 1);
        (-half, half - 1)
    }
}

fn int_of(v: Value, w: u8) -> i128 {
    if w == 16 { i128::from(v.as_u64() as u16) } else { i128::from(v.as_i64()) }
}

fn int_value(i: i128, w: u8) -> Value {
    Value::bv(w, i as i64)
}

/// `v + step`, rounded to `p` decimals (when that is exact enough to matter), in `v`'s precision.
fn float_move(v: Value, step: f64, p: i32) -> Value {
    let x = v.as_f64() + step;
    let scale = 10f64.powi(p);
    let scaled = x * scale;
    let x = if scaled.abs() < 9e15 { scaled.round() / scale } else { x };
    match v {
        Value::F32(_) => Value::f32(x as f32),
        _ => Value::f64(x),
    }
}

/// A restart point: mostly small values (where constants in code tend to be), sometimes any, and
/// now and then a special value no move reaches (NaN, infinities, -0.0, the extremes of a range).
fn random_value(rng: &mut Rng, sort: Sort) -> Value {
    if rng.random_bool(0.1)
        && let Some(v) = special_value(rng, sort)
    {
        return v;
    }
    let small = rng.random_bool(0.7);
    match sort {
        Sort::Bool => Value::Bool(rng.random()),
        Sort::Bv(16) => Value::char(if small { rng.random_range(0..128) } else { rng.random() }),
        Sort::Bv(w) => {
            let (lo, hi) = int_range(w);
            let v = if small { rng.random_range(-100i128..=100) } else { rng.random_range(lo..=hi) };
            int_value(v.clamp(lo, hi), w)
        }
        Sort::F32 => Value::f32(rng.random_range(if small { -100.0..100.0 } else { -1e6..1e6 })),
        Sort::F64 => Value::f64(rng.random_range(if small { -100.0..100.0 } else { -1e9..1e9 })),
    }
}

fn special_value(rng: &mut Rng, sort: Sort) -> Option<Value> {
    const F64S: [f64; 6] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, f64::MAX, f64::MIN_POSITIVE];
    let k = rng.random_range(0..F64S.len());
    match sort {
        Sort::F64 => Some(Value::f64(F64S[k])),
        Sort::F32 => Some(Value::f32(F64S[k] as f32)),
        Sort::Bv(w) => {
            let (lo, hi) = int_range(w);
            Some(int_value(if k % 2 == 0 { lo } else { hi }, w))
        }
        Sort::Bool => None,
    }
}
