//! Z3 over bit-vectors and IEEE floats (feasibility.md §2): each query is translated into SMT-LIB
//! text (one constant and one defining equation per DAG node reachable from the constraints, so
//! sharing is kept), parsed by a fresh Z3 context, checked under a deterministic resource limit (`rlimit`, never a timeout),
//! and every variable that occurs is read back with model completion.
//!
//! Why text rather than the `z3` crate's term API: the API of z3 0.22 lacks the conversions we need
//! (bit-vector to float by bits and by value, `fp.rem`) and some of its wrappers call functions that
//! libz3 4.8.12 does not have; SMT-LIB has every operation of the FP and BV theories. Why a fresh
//! context per query: Z3's resource counter is per context, so the figure we report is the query's
//! own, and no query depends on the ones before it.
//!
//! Why `(declare-const eK)` plus `(assert (= eK body))` rather than `(define-fun eK () body)`: Z3
//! 4.8 expands nullary `define-fun` macros while parsing, without sharing the expansions, and that
//! is not bounded by `rlimit`: a 1,800-node query from commons-math's binary gcd (a chain of
//! shifts and masks) took 50 s to parse and the next one never finished, 1.7 GB in. With one
//! equation per node the parse is linear (25 ms on the same query) and Z3's `solve-eqs`
//! preprocessing removes the extra constants again.
//!
//! Every variable is a bit-vector or a Bool in Z3: a float variable is the bit pattern of its IEEE
//! value (`(_ to_fp 11 53)` of the bits), so the model gives us raw bits, NaN payload included.
//! Java's operations map onto the theories exactly: `bvsdiv`/`bvsrem` (never `bvsmod`) guarded by
//! the divisor (x/0 is 0 in `apply`), shift counts masked, d2i as ITEs for NaN and saturation,
//! Java's `%` on floats (fmod) from IEEE `fp.rem` by one correcting addition.

use std::fmt::Write as _;

use z3::ast::{BV, Bool};
use z3::{Config, Params, SatResult, Statistics, StatisticsValue};

use crate::arena::{Compiled, Step};
use crate::op::Op;
use crate::value::{Sort, Value};
use crate::{Arena, Assignment, ExprId, Outcome, Solver, SolverLimits, VarId, satisfies};

/// The Z3 solver.
#[derive(Debug)]
pub struct Z3Solver {
    limits: SolverLimits,
    rlimit_spent: u64,
    model_mismatches: u64,
    /// Queries not given to Z3 for their floating-point operations (`MAX_FLOAT_OPS`).
    float_refusals: u64,
}

/// Floating-point arithmetic and conversions a query may hold for Z3 to get it. Z3 bit-blasts each
/// into a circuit (a double multiplication is thousands of gates), and its `rlimit` does not bound
/// that work: a query of commons-math's HypergeometricDistribution ran 49 s in one 60 s run and
/// grew past 9 GB in another before it was killed. Beyond this, the query is the AVM's alone
/// (`Portfolio` asks it first for float queries), and Z3 answers unknown without running.
pub const MAX_FLOAT_OPS: usize = 32;

/// The floating-point arithmetic and conversion operations of a compiled query.
fn float_ops(prog: &Compiled) -> usize {
    prog.steps
        .iter()
        .filter(|s| {
            matches!(
                s,
                Step::App(
                    Op::FAdd
                        | Op::FSub
                        | Op::FMul
                        | Op::FDiv
                        | Op::FRem
                        | Op::FSqrt
                        | Op::FFloor
                        | Op::FCeil
                        | Op::IntToFp(_)
                        | Op::FpToInt(_)
                        | Op::FpToFp(_),
                    _
                )
            )
        })
        .count()
}

impl Z3Solver {
    pub fn new(limits: &SolverLimits) -> Z3Solver {
        Z3Solver { limits: *limits, rlimit_spent: 0, model_mismatches: 0, float_refusals: 0 }
    }

    /// Z3 resource units spent by every query so far (`rlimit count`).
    pub fn rlimit_spent(&self) -> u64 {
        self.rlimit_spent
    }

    /// Sat answers whose model did not satisfy the constraints under `Arena::eval` (returned as
    /// Unknown): a disagreement between the translation and the semantics, which tests keep at 0.
    pub fn model_mismatches(&self) -> u64 {
        self.model_mismatches
    }

    /// Queries refused for holding more than `MAX_FLOAT_OPS` floating-point operations.
    pub fn float_refusals(&self) -> u64 {
        self.float_refusals
    }
}

/// What Z3 answered, in plain data (Z3 objects do not leave the query's context).
enum Answer {
    Sat(Vec<(VarId, Value)>),
    Unsat,
    Unknown,
}

impl Solver for Z3Solver {
    /// With `z3_rlimit == 0` Z3 is off (every answer Unknown): Z3 reads 0 as "no limit", which we
    /// never allow. That is also the AVM-only configuration of paper 004 through `Portfolio`.
    fn solve(&mut self, arena: &Arena, constraints: &[ExprId], _hint: &Assignment) -> Outcome {
        if self.limits.z3_rlimit == 0 {
            return Outcome::Unknown;
        }
        let prog = arena.compile(constraints);
        if float_ops(&prog) > MAX_FLOAT_OPS {
            self.float_refusals += 1;
            return Outcome::Unknown;
        }
        let text = smtlib(&prog, constraints);
        let vars = prog.vars();
        let rlimit = u32::try_from(self.limits.z3_rlimit).unwrap_or(u32::MAX);
        let (answer, spent) = z3::with_z3_config(&Config::new(), || {
            check(&text, prog.steps.len() + constraints.len(), &vars, rlimit)
        });
        self.rlimit_spent += spent;
        match answer {
            Answer::Sat(values) => {
                let model = Assignment(values.into_iter().collect());
                if satisfies(arena, constraints, &model) {
                    Outcome::Sat(model)
                } else {
                    self.model_mismatches += 1;
                    Outcome::Unknown
                }
            }
            Answer::Unsat => Outcome::Unsat,
            Answer::Unknown => Outcome::Unknown,
        }
    }

    fn name(&self) -> &'static str {
        "z3"
    }
}

/// The SMT-LIB text Z3 is given for `constraints` (for `analyze` and for reproducing a query with
/// the `z3` command line: add `(check-sat)`).
pub fn to_smtlib(arena: &Arena, constraints: &[ExprId]) -> String {
    smtlib(&arena.compile(constraints), constraints)
}

/// Runs one query in the current (fresh) context; the answer and the resource units spent.
fn check(text: &str, n_asserts: usize, vars: &[(VarId, Sort)], rlimit: u32) -> (Answer, u64) {
    let solver = z3::Solver::new();
    let mut params = Params::new();
    params.set_u32("rlimit", rlimit);
    solver.set_params(&params);
    solver.from_string(text);
    // A parse error is silent (the crate installs no error handler): refuse to answer then.
    if solver.get_assertions().len() != n_asserts {
        return (Answer::Unknown, 0);
    }
    let res = solver.check();
    let spent = rlimit_count(&solver.get_statistics());
    let answer = match res {
        SatResult::Unsat => Answer::Unsat,
        SatResult::Unknown => Answer::Unknown,
        SatResult::Sat => match solver.get_model() {
            Some(model) => {
                let values: Option<Vec<(VarId, Value)>> =
                    vars.iter().map(|&(v, sort)| read_var(&model, v, sort).map(|val| (v, val))).collect();
                values.map_or(Answer::Unknown, Answer::Sat)
            }
            None => Answer::Unknown,
        },
    };
    (answer, spent)
}

fn rlimit_count(stats: &Statistics) -> u64 {
    match stats.value("rlimit count") {
        Some(StatisticsValue::UInt(n)) => u64::from(n),
        Some(StatisticsValue::Double(x)) => x as u64,
        None => 0,
    }
}

fn read_var(model: &z3::Model, v: VarId, sort: Sort) -> Option<Value> {
    let name = var_name(v);
    match sort {
        Sort::Bool => model.eval(&Bool::new_const(name), true)?.as_bool().map(Value::Bool),
        Sort::Bv(w) => {
            let bits = model.eval(&BV::new_const(name, u32::from(w)), true)?.as_u64()?;
            Some(Value::Bv { width: w, bits })
        }
        Sort::F32 => {
            let bits = model.eval(&BV::new_const(name, 32), true)?.as_u64()?;
            Some(Value::F32(bits as u32))
        }
        Sort::F64 => Some(Value::F64(model.eval(&BV::new_const(name, 64), true)?.as_u64()?)),
    }
}

fn var_name(v: VarId) -> String {
    format!("v{}", v.0)
}

fn smt_sort(sort: Sort) -> String {
    match sort {
        Sort::Bool => "Bool".into(),
        Sort::Bv(w) => format!("(_ BitVec {w})"),
        Sort::F32 => "(_ FloatingPoint 8 24)".into(),
        Sort::F64 => "(_ FloatingPoint 11 53)".into(),
    }
}

/// `(_ to_fp eb sb)` for a float sort.
fn to_fp(sort: Sort) -> &'static str {
    if sort == Sort::F32 { "(_ to_fp 8 24)" } else { "(_ to_fp 11 53)" }
}

fn bv_lit(width: u8, bits: u64) -> String {
    format!("(_ bv{bits} {width})")
}

fn literal(v: Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Bv { width, bits } => bv_lit(width, bits),
        Value::F32(bits) => format!("({} {})", to_fp(Sort::F32), bv_lit(32, u64::from(bits))),
        Value::F64(bits) => format!("({} {})", to_fp(Sort::F64), bv_lit(64, bits)),
    }
}

/// The query as SMT-LIB: variables, one constant with its defining equation per node, one
/// assertion per constraint (so `steps + constraints` assertions in all).
fn smtlib(prog: &Compiled, constraints: &[ExprId]) -> String {
    let mut s = String::new();
    let sorts: Vec<Sort> = prog
        .steps
        .iter()
        .map(|st| match st {
            Step::Var(_, sort) => *sort,
            Step::Const(c) => c.sort(),
            Step::App(..) => Sort::Bool, // Filled in below, in order.
        })
        .collect();
    let mut sorts = sorts;
    for (k, step) in prog.steps.iter().enumerate() {
        let name = format!("e{}", prog.order[k].0);
        let arg = |i: usize, args: &[u32]| format!("e{}", prog.order[args[i] as usize].0);
        let (sort, body) = match step {
            Step::Var(v, sort) => {
                let bits = match sort {
                    Sort::F32 => Sort::Bv(32),
                    Sort::F64 => Sort::Bv(64),
                    other => *other,
                };
                writeln!(s, "(declare-const {} {})", var_name(*v), smt_sort(bits)).unwrap();
                let body = match sort {
                    Sort::F32 | Sort::F64 => format!("({} {})", to_fp(*sort), var_name(*v)),
                    _ => var_name(*v),
                };
                (*sort, body)
            }
            Step::Const(c) => (c.sort(), literal(*c)),
            Step::App(op, args) => {
                let a: Vec<String> = (0..args.len()).map(|i| arg(i, args)).collect();
                let arg_sorts: Vec<Sort> = args.iter().map(|&i| sorts[i as usize]).collect();
                let sort = op.result_sort(&arg_sorts).expect("the arena holds well-sorted nodes");
                (sort, translate(*op, &a, &arg_sorts))
            }
        };
        sorts[k] = sort;
        writeln!(s, "(declare-const {name} {})", smt_sort(sort)).unwrap();
        writeln!(s, "(assert (= {name} {body}))").unwrap();
    }
    for c in constraints {
        writeln!(s, "(assert e{})", c.0).unwrap();
    }
    s
}

/// One operation in SMT-LIB, over argument terms `a` of sorts `sorts`.
fn translate(op: Op, a: &[String], sorts: &[Sort]) -> String {
    let w = match sorts.first() {
        Some(Sort::Bv(w)) => *w,
        _ => 0,
    };
    let fsort = sorts.first().copied().unwrap_or(Sort::F64);
    let bin = |f: &str| format!("({f} {} {})", a[0], a[1]);
    let rne = |f: &str| format!("({f} RNE {} {})", a[0], a[1]);
    let i32_lit = |v: i32| bv_lit(32, u64::from(v as u32));
    match op {
        Op::Add => bin("bvadd"),
        Op::Sub => bin("bvsub"),
        Op::Mul => bin("bvmul"),
        Op::SDiv | Op::SRem => {
            let f = if op == Op::SDiv { "bvsdiv" } else { "bvsrem" };
            let zero = bv_lit(w, 0);
            format!("(ite (= {} {zero}) {zero} ({f} {} {}))", a[1], a[0], a[1])
        }
        Op::Neg => format!("(bvneg {})", a[0]),
        Op::And => bin("bvand"),
        Op::Or => bin("bvor"),
        Op::Xor => bin("bvxor"),
        Op::Shl | Op::AShr | Op::LShr => {
            let f = match op {
                Op::Shl => "bvshl",
                Op::AShr => "bvashr",
                _ => "bvlshr",
            };
            let mut count = format!("(bvand {} {})", a[1], bv_lit(w, u64::from(w - 1)));
            if !w.is_power_of_two() {
                count = format!("(bvurem {count} {})", bv_lit(w, u64::from(w)));
            }
            format!("({f} {} {count})", a[0])
        }
        Op::SignExt(to) => format!("((_ sign_extend {}) {})", to - w, a[0]),
        Op::ZeroExt(to) => format!("((_ zero_extend {}) {})", to - w, a[0]),
        Op::Extract(to) => format!("((_ extract {} 0) {})", to - 1, a[0]),
        Op::Eq => bin("="),
        Op::Ne => format!("(not (= {} {}))", a[0], a[1]),
        Op::Slt => bin("bvslt"),
        Op::Sle => bin("bvsle"),
        Op::Sgt => bin("bvsgt"),
        Op::Sge => bin("bvsge"),
        Op::Ult => bin("bvult"),
        Op::FAdd => rne("fp.add"),
        Op::FSub => rne("fp.sub"),
        Op::FMul => rne("fp.mul"),
        Op::FDiv => rne("fp.div"),
        Op::FRem => {
            // IEEE remainder rounds the quotient to nearest, fmod truncates: when the remainder's
            // sign differs from the dividend's, fmod = rem + sign(a)·|b|, which is exact.
            let (x, y) = (&a[0], &a[1]);
            format!(
                "(let ((r (fp.rem {x} {y}))) (ite (or (fp.isZero r) (= (fp.isNegative r) (fp.isNegative {x}))) r \
                 (fp.add RNE r (ite (fp.isNegative {x}) (fp.neg (fp.abs {y})) (fp.abs {y})))))"
            )
        }
        Op::FNeg => format!("(fp.neg {})", a[0]),
        Op::FSqrt => format!("(fp.sqrt RNE {})", a[0]),
        Op::FFloor => format!("(fp.roundToIntegral RTN {})", a[0]),
        Op::FCeil => format!("(fp.roundToIntegral RTP {})", a[0]),
        Op::FLt => bin("fp.lt"),
        Op::FLe => bin("fp.leq"),
        Op::FGt => bin("fp.gt"),
        Op::FGe => bin("fp.geq"),
        Op::FEq => bin("fp.eq"),
        Op::IsNaN => format!("(fp.isNaN {})", a[0]),
        Op::IntToFp(to) | Op::FpToFp(to) => format!("({} RNE {})", to_fp(to), a[0]),
        Op::FpToInt(to) => {
            let lim = 2f64.powi(i32::from(to) - 1);
            let (hi, lo) = float_literal(fsort, lim, -lim);
            let max = bv_lit(to, (1u64 << (to - 1)) - 1);
            let min = bv_lit(to, 1u64 << (to - 1));
            format!(
                "(ite (fp.isNaN {x}) {z} (ite (fp.geq {x} {hi}) {max} (ite (fp.leq {x} {lo}) {min} ((_ fp.to_sbv {to}) RTZ {x}))))",
                x = a[0],
                z = bv_lit(to, 0)
            )
        }
        Op::Cmp => format!(
            "(ite (bvslt {x} {y}) {m} (ite (= {x} {y}) {z} {p}))",
            x = a[0],
            y = a[1],
            m = i32_lit(-1),
            z = i32_lit(0),
            p = i32_lit(1)
        ),
        Op::FCmpL | Op::FCmpG => format!(
            "(ite (or (fp.isNaN {x}) (fp.isNaN {y})) {nan} (ite (fp.lt {x} {y}) {m} (ite (fp.eq {x} {y}) {z} {p})))",
            x = a[0],
            y = a[1],
            nan = i32_lit(if op == Op::FCmpL { -1 } else { 1 }),
            m = i32_lit(-1),
            z = i32_lit(0),
            p = i32_lit(1)
        ),
        Op::Not => format!("(not {})", a[0]),
        Op::And2 => bin("and"),
        Op::Or2 => bin("or"),
        Op::Implies => bin("=>"),
        Op::Ite => format!("(ite {} {} {})", a[0], a[1], a[2]),
        Op::BoolToBv => format!("(ite {} {} {})", a[0], i32_lit(1), i32_lit(0)),
        Op::BvToBool => format!("(not (= {} {}))", a[0], bv_lit(w, 0)),
    }
}

/// Two values as literals of a float sort (both exactly representable powers of two here).
fn float_literal(sort: Sort, hi: f64, lo: f64) -> (String, String) {
    let lit = |x: f64| if sort == Sort::F32 { literal(Value::f32(x as f32)) } else { literal(Value::f64(x)) };
    (lit(hi), lit(lo))
}
