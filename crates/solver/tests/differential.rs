//! Differential test of the constraint language's semantics against a real JVM: a few hundred random
//! expressions over int, long, float, double, char and boolean (every operation (`Math.sqrt`, `floor`
//! and `ceil` too), conversion and compare, with corner constants: 0, -1, MIN, MAX, NaN, ±0.0, ±Inf, 1e300, denormals ...) are
//! written as ONE Java class that prints each value (floats as raw bits), compiled with javac and
//! run; `Arena::eval` and the folding of `apply` (`Arena::instantiate`) must give the same bits.
//!
//! The second test checks Z3's translation against the same semantics on the same expressions: with
//! every variable fixed to its value, `e == eval(e)` must be Sat and `e != eval(e)` Unsat.
//!
//! The JLS leaves the payload of a NaN open, so a NaN matches any NaN; how many of them differ only
//! in the payload is printed. Division by zero, which throws in Java and which the interpreter
//! branches on before the solver sees it, goes through helpers that return 0 as `apply` does.

// The test starts `javac`/`java` itself; in the engine only the worker crate spawns processes.
#![allow(clippy::disallowed_methods)]

use std::fmt::Write as _;
use std::process::Command;

use rand::{RngExt, SeedableRng};
use solver::{Arena, Assignment, ExprId, Op, Outcome, Solver, SolverLimits, Sort, Value, Z3Solver};

type Rng = rand_pcg::Pcg64Mcg;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int,
    Long,
    Float,
    Double,
    Char,
    Bool,
}

const TYS: [Ty; 6] = [Ty::Int, Ty::Long, Ty::Float, Ty::Double, Ty::Char, Ty::Bool];

impl Ty {
    fn java(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Long => "long",
            Ty::Float => "float",
            Ty::Double => "double",
            Ty::Char => "char",
            Ty::Bool => "boolean",
        }
    }
    fn sort(self) -> Sort {
        match self {
            Ty::Int => Sort::Bv(32),
            Ty::Long => Sort::Bv(64),
            Ty::Float => Sort::F32,
            Ty::Double => Sort::F64,
            Ty::Char => Sort::Bv(16),
            Ty::Bool => Sort::Bool,
        }
    }
}

const INTS: &[i32] =
    &[0, 1, -1, 2, 7, -7, 31, 32, 33, 63, 64, i32::MIN, i32::MAX, 65535, 65536, 1_000_003, -128];
const LONGS: &[i64] =
    &[0, 1, -1, 7, -7, 63, 64, 65, i64::MIN, i64::MAX, 1 << 32, (1 << 31) - 1, i32::MIN as i64];
const FLOATS: &[f32] = &[
    0.0,
    -0.0,
    1.0,
    -1.5,
    0.1,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN_POSITIVE,
    1e-45,
    3e9,
    16_777_217.0,
    -2.5,
];
const DOUBLES: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.5,
    0.1,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MAX,
    4.9e-324,
    1e300,
    -1e300,
    9.3e18,
    -9.3e18,
    2.5,
    3e9,
    -2.147_483_648e9,
];
const CHARS: &[u16] = &[0, 1, 0x41, 0x30, 0x39, 0x7f, 0x8000, 0xffff];

fn pick<T: Copy>(rng: &mut Rng, xs: &[T]) -> T {
    xs[rng.random_range(0..xs.len())]
}

/// A random value of a type: mostly a corner constant, sometimes any bits.
fn random_value(rng: &mut Rng, ty: Ty) -> Value {
    let any = rng.random_bool(0.25);
    match ty {
        Ty::Int => Value::i32(if any { rng.random() } else { pick(rng, INTS) }),
        Ty::Long => Value::i64(if any { rng.random() } else { pick(rng, LONGS) }),
        Ty::Float => {
            if any {
                Value::f32(rng.random_range(-1e6f32..1e6))
            } else {
                Value::f32(pick(rng, FLOATS))
            }
        }
        Ty::Double => {
            if any {
                Value::F64(rng.random())
            } else {
                Value::f64(pick(rng, DOUBLES))
            }
        }
        Ty::Char => Value::char(if any { rng.random() } else { pick(rng, CHARS) }),
        Ty::Bool => Value::Bool(rng.random()),
    }
}

/// A Java expression that evaluates to `v` at run time (floats through their bits, so javac cannot
/// fold them; javac folds integer constants, by the JLS's own rules).
fn java_literal(v: Value) -> String {
    match v {
        Value::Bool(b) => format!("id({b})"),
        Value::Bv { width: 16, bits } => format!("id((char) 0x{bits:x})"),
        Value::Bv { width: 64, bits } => format!("id(0x{bits:x}L)"),
        Value::Bv { bits, .. } => format!("id(0x{bits:x})"),
        Value::F32(bits) => format!("Float.intBitsToFloat(0x{bits:x})"),
        Value::F64(bits) => format!("Double.longBitsToDouble(0x{bits:x}L)"),
    }
}

/// One generated case: its variables (Java local, value) and one expression in both languages.
struct Gen<'a> {
    rng: Rng,
    arena: &'a mut Arena,
    vars: Vec<(Ty, String, ExprId)>,
    asg: Assignment,
}

impl Gen<'_> {
    fn leaf(&mut self, ty: Ty) -> (ExprId, String) {
        if self.rng.random_bool(0.7) {
            let candidates: Vec<_> = self.vars.iter().filter(|v| v.0 == ty).cloned().collect();
            let (_, name, e) = candidates[self.rng.random_range(0..candidates.len())].clone();
            return (e, name);
        }
        let v = random_value(&mut self.rng, ty);
        (self.arena.konst(v), java_literal(v))
    }

    fn mk(&mut self, op: Op, args: &[ExprId]) -> ExprId {
        self.arena.mk(op, args)
    }

    fn expr(&mut self, ty: Ty, depth: u32) -> (ExprId, String) {
        if depth == 0 || self.rng.random_bool(0.15) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        match ty {
            Ty::Int | Ty::Long => self.gen_integral(ty, d),
            Ty::Float | Ty::Double => self.gen_floating(ty, d),
            Ty::Char => self.gen_char(d),
            Ty::Bool => self.gen_bool(d),
        }
    }

    fn binary(&mut self, op: Op, ty: Ty, sym: &str, d: u32) -> (ExprId, String) {
        let (a, sa) = self.expr(ty, d);
        let (b, sb) = self.expr(ty, d);
        (self.mk(op, &[a, b]), format!("({sa} {sym} {sb})"))
    }

    fn gen_integral(&mut self, ty: Ty, d: u32) -> (ExprId, String) {
        let long = ty == Ty::Long;
        let w = if long { 64 } else { 32 };
        let jt = ty.java();
        match self.rng.random_range(0..17) {
            0 => self.binary(Op::Add, ty, "+", d),
            1 => self.binary(Op::Sub, ty, "-", d),
            2 => self.binary(Op::Mul, ty, "*", d),
            3 => self.binary(Op::And, ty, "&", d),
            4 => self.binary(Op::Or, ty, "|", d),
            5 => self.binary(Op::Xor, ty, "^", d),
            6 | 7 => {
                let (op, f) = if self.rng.random() { (Op::SDiv, "div") } else { (Op::SRem, "rem") };
                let (a, sa) = self.expr(ty, d);
                let (b, sb) = self.expr(ty, d);
                (self.mk(op, &[a, b]), format!("{f}({sa}, {sb})"))
            }
            8 | 9 => {
                // Java shifts a long by an int count.
                let (op, sym) = pick(&mut self.rng, &[(Op::Shl, "<<"), (Op::AShr, ">>"), (Op::LShr, ">>>")]);
                let (a, sa) = self.expr(ty, d);
                let (n, sn) = self.expr(Ty::Int, d);
                let n = if long { self.mk(Op::SignExt(64), &[n]) } else { n };
                (self.mk(op, &[a, n]), format!("({sa} {sym} {sn})"))
            }
            10 => {
                let (a, sa) = self.expr(ty, d);
                (self.mk(Op::Neg, &[a]), format!("(-{sa})"))
            }
            11 => {
                // (int) long, (long) int.
                let other = if long { Ty::Int } else { Ty::Long };
                let (a, sa) = self.expr(other, d);
                let op = if long { Op::SignExt(64) } else { Op::Extract(32) };
                (self.mk(op, &[a]), format!("(({jt}) {sa})"))
            }
            12 => {
                let src = if self.rng.random() { Ty::Float } else { Ty::Double };
                let (a, sa) = self.expr(src, d);
                (self.mk(Op::FpToInt(w), &[a]), format!("(({jt}) {sa})"))
            }
            13 => {
                let (a, sa) = self.expr(Ty::Char, d);
                (self.mk(Op::ZeroExt(w), &[a]), format!("(({jt}) {sa})"))
            }
            14 if !long => {
                // i2b, i2s: narrow, then widen back as the JVM does.
                let (narrow, cast) = if self.rng.random() { (8, "byte") } else { (16, "short") };
                let (a, sa) = self.expr(Ty::Int, d);
                let n = self.mk(Op::Extract(narrow), &[a]);
                (self.mk(Op::SignExt(32), &[n]), format!("((int) ({cast}) {sa})"))
            }
            14 | 15 => {
                let (op, f, src) = pick(
                    &mut self.rng,
                    &[
                        (Op::Cmp, "Long.compare", Ty::Long),
                        (Op::FCmpL, "fcmpl", Ty::Float),
                        (Op::FCmpG, "fcmpg", Ty::Float),
                        (Op::FCmpL, "fcmpl", Ty::Double),
                        (Op::FCmpG, "fcmpg", Ty::Double),
                    ],
                );
                let (a, sa) = self.expr(src, d);
                let (b, sb) = self.expr(src, d);
                let c = self.mk(op, &[a, b]);
                let c = if long { self.mk(Op::SignExt(64), &[c]) } else { c };
                (c, format!("(({jt}) {f}({sa}, {sb}))"))
            }
            _ => self.ite(ty, d),
        }
    }

    fn ite(&mut self, ty: Ty, d: u32) -> (ExprId, String) {
        let (c, sc) = self.expr(Ty::Bool, d);
        let (a, sa) = self.expr(ty, d);
        let (b, sb) = self.expr(ty, d);
        (self.mk(Op::Ite, &[c, a, b]), format!("({sc} ? {sa} : {sb})"))
    }

    fn gen_floating(&mut self, ty: Ty, d: u32) -> (ExprId, String) {
        let sort = ty.sort();
        let jt = ty.java();
        match self.rng.random_range(0..11) {
            0 => self.binary(Op::FAdd, ty, "+", d),
            1 => self.binary(Op::FSub, ty, "-", d),
            2 => self.binary(Op::FMul, ty, "*", d),
            3 => self.binary(Op::FDiv, ty, "/", d),
            4 => self.binary(Op::FRem, ty, "%", d),
            5 => {
                let (a, sa) = self.expr(ty, d);
                (self.mk(Op::FNeg, &[a]), format!("(-{sa})"))
            }
            6 => {
                let src = pick(&mut self.rng, &[Ty::Int, Ty::Long]);
                let (a, sa) = self.expr(src, d);
                (self.mk(Op::IntToFp(sort), &[a]), format!("(({jt}) {sa})"))
            }
            7 => {
                let src = if ty == Ty::Float { Ty::Double } else { Ty::Float };
                let (a, sa) = self.expr(src, d);
                (self.mk(Op::FpToFp(sort), &[a]), format!("(({jt}) {sa})"))
            }
            8 => {
                let (a, sa) = self.expr(Ty::Char, d);
                let i = self.mk(Op::ZeroExt(32), &[a]);
                (self.mk(Op::IntToFp(sort), &[i]), format!("(({jt}) {sa})"))
            }
            // Java has these for doubles only.
            9 if ty == Ty::Double => {
                let (op, f) =
                    pick(&mut self.rng, &[(Op::FSqrt, "sqrt"), (Op::FFloor, "floor"), (Op::FCeil, "ceil")]);
                let (a, sa) = self.expr(ty, d);
                (self.mk(op, &[a]), format!("Math.{f}({sa})"))
            }
            _ => self.ite(ty, d),
        }
    }

    fn gen_char(&mut self, d: u32) -> (ExprId, String) {
        match self.rng.random_range(0..3) {
            0 => {
                let (a, sa) = self.expr(Ty::Int, d);
                (self.mk(Op::Extract(16), &[a]), format!("((char) {sa})"))
            }
            1 => {
                let (a, sa) = self.expr(Ty::Long, d);
                (self.mk(Op::Extract(16), &[a]), format!("((char) {sa})"))
            }
            _ => self.ite(Ty::Char, d),
        }
    }

    fn gen_bool(&mut self, d: u32) -> (ExprId, String) {
        match self.rng.random_range(0..8) {
            0 | 1 => {
                let ty = pick(&mut self.rng, &[Ty::Int, Ty::Long, Ty::Char]);
                let (op, sym) = pick(
                    &mut self.rng,
                    &[
                        (Op::Slt, "<"),
                        (Op::Sle, "<="),
                        (Op::Sgt, ">"),
                        (Op::Sge, ">="),
                        (Op::Eq, "=="),
                        (Op::Ne, "!="),
                    ],
                );
                let (mut a, sa) = self.expr(ty, d);
                let (mut b, sb) = self.expr(ty, d);
                if ty == Ty::Char {
                    // Java compares chars as ints.
                    a = self.mk(Op::ZeroExt(32), &[a]);
                    b = self.mk(Op::ZeroExt(32), &[b]);
                }
                (self.mk(op, &[a, b]), format!("({sa} {sym} {sb})"))
            }
            2 | 3 => {
                let ty = pick(&mut self.rng, &[Ty::Float, Ty::Double]);
                let (op, sym) = pick(
                    &mut self.rng,
                    &[(Op::FLt, "<"), (Op::FLe, "<="), (Op::FGt, ">"), (Op::FGe, ">="), (Op::FEq, "==")],
                );
                self.binary(op, ty, sym, d)
            }
            4 => {
                let (op, sym) = pick(&mut self.rng, &[(Op::And2, "&&"), (Op::Or2, "||")]);
                self.binary(op, Ty::Bool, sym, d)
            }
            5 => {
                let (a, sa) = self.expr(Ty::Bool, d);
                (self.mk(Op::Not, &[a]), format!("(!{sa})"))
            }
            6 => match self.rng.random_range(0..4) {
                0 => {
                    let (a, sa) = self.expr(Ty::Double, d);
                    (self.mk(Op::IsNaN, &[a]), format!("Double.isNaN({sa})"))
                }
                1 => {
                    let (a, sa) = self.expr(Ty::Int, d);
                    let (b, sb) = self.expr(Ty::Int, d);
                    (self.mk(Op::Ult, &[a, b]), format!("(Integer.compareUnsigned({sa}, {sb}) < 0)"))
                }
                2 => {
                    let (a, sa) = self.expr(Ty::Bool, d);
                    let (b, sb) = self.expr(Ty::Bool, d);
                    (self.mk(Op::Implies, &[a, b]), format!("(!{sa} || {sb})"))
                }
                _ => {
                    let (a, sa) = self.expr(Ty::Int, d);
                    (self.mk(Op::BvToBool, &[a]), format!("({sa} != 0)"))
                }
            },
            _ => {
                // A JVM boolean (0/1 int) compared back, as `ifeq` does.
                let (a, sa) = self.expr(Ty::Bool, d);
                let bv = self.mk(Op::BoolToBv, &[a]);
                let zero = self.arena.konst(Value::i32(0));
                (self.mk(Op::Ne, &[bv, zero]), format!("(({sa} ? 1 : 0) != 0)"))
            }
        }
    }
}

/// How the Java program prints a value of `ty`, and how we print ours the same way.
fn java_print(ty: Ty, expr: &str) -> String {
    match ty {
        Ty::Float => format!("Float.floatToRawIntBits({expr})"),
        Ty::Double => format!("Double.doubleToRawLongBits({expr})"),
        Ty::Char => format!("(int) {expr}"),
        _ => expr.to_string(),
    }
}

fn rust_print(v: Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Bv { width: 16, bits } => bits.to_string(),
        Value::F32(bits) => (bits as i32).to_string(),
        Value::F64(bits) => (bits as i64).to_string(),
        other => other.as_i64().to_string(),
    }
}

fn is_nan_text(ty: Ty, s: &str) -> bool {
    match ty {
        Ty::Float => s.parse::<i32>().is_ok_and(|b| f32::from_bits(b as u32).is_nan()),
        Ty::Double => s.parse::<i64>().is_ok_and(|b| f64::from_bits(b as u64).is_nan()),
        _ => false,
    }
}

const HELPERS: &str = r#"
    static int id(int v) { return v; }
    static long id(long v) { return v; }
    static char id(char v) { return v; }
    static boolean id(boolean v) { return v; }
    static int div(int a, int b) { return b == 0 ? 0 : a / b; }
    static int rem(int a, int b) { return b == 0 ? 0 : a % b; }
    static long div(long a, long b) { return b == 0 ? 0 : a / b; }
    static long rem(long a, long b) { return b == 0 ? 0 : a % b; }
    static int fcmpl(float a, float b) { return a > b ? 1 : a == b ? 0 : -1; }
    static int fcmpg(float a, float b) { return a < b ? -1 : a == b ? 0 : 1; }
    static int fcmpl(double a, double b) { return a > b ? 1 : a == b ? 0 : -1; }
    static int fcmpg(double a, double b) { return a < b ? -1 : a == b ? 0 : 1; }
"#;

struct Case {
    ty: Ty,
    expr: ExprId,
    asg: Assignment,
    java: String,
}

fn generate(arena: &mut Arena, n: usize, seed: u64) -> Vec<Case> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut cases = Vec::new();
    for k in 0..n {
        let mut g = Gen {
            rng: Rng::seed_from_u64(rng.random()),
            arena,
            vars: Vec::new(),
            asg: Assignment::default(),
        };
        let mut decls = String::new();
        for (t, ty) in TYS.iter().enumerate() {
            for j in 0..2 {
                let name = format!("v{t}_{j}");
                let (var, e) = g.arena.var(ty.sort(), &name);
                let v = random_value(&mut g.rng, *ty);
                g.asg.0.insert(var, v);
                writeln!(decls, "        {} {name} = {};", ty.java(), java_literal(v)).unwrap();
                g.vars.push((*ty, name, e));
            }
        }
        let ty = TYS[k % TYS.len()];
        let (expr, text) = g.expr(ty, 4);
        let java = format!(
            "    static void c{k}() {{\n{decls}        System.out.println({});\n    }}\n",
            java_print(ty, &text)
        );
        cases.push(Case { ty, expr, asg: g.asg, java });
    }
    cases
}

#[test]
fn eval_and_apply_agree_with_the_jvm_bit_for_bit() {
    let mut arena = Arena::new();
    let cases = generate(&mut arena, 600, 15);
    let mut src = String::from("public class Diff {\n");
    src.push_str(HELPERS);
    for c in &cases {
        src.push_str(&c.java);
    }
    src.push_str("    public static void main(String[] args) {\n");
    for k in 0..cases.len() {
        writeln!(src, "        c{k}();").unwrap();
    }
    src.push_str("    }\n}\n");

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Diff.java"), &src).unwrap();
    let bin = test_support::java_home().join("bin");
    let out = Command::new(bin.join("javac"))
        .arg("-d")
        .arg(dir.path())
        .arg(dir.path().join("Diff.java"))
        .output()
        .unwrap();
    assert!(out.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(bin.join("java")).arg("-cp").arg(dir.path()).arg("Diff").output().unwrap();
    assert!(out.status.success(), "java failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), cases.len());

    let (mut mismatches, mut nan_payloads, mut symbolic) = (Vec::new(), 0, 0);
    for (k, (c, want)) in cases.iter().zip(&lines).enumerate() {
        symbolic += usize::from(arena.as_const(c.expr).is_none());
        let evaluated = arena.eval(c.expr, &c.asg);
        let folded_id = arena.instantiate(c.expr, &c.asg);
        let folded = arena.as_const(folded_id).expect("a fully assigned expression folds to a constant");
        for (how, got) in [("eval", evaluated), ("fold", folded)] {
            let got = rust_print(got);
            if got == *want {
                continue;
            }
            if is_nan_text(c.ty, &got) && is_nan_text(c.ty, want) {
                nan_payloads += 1;
                continue;
            }
            mismatches.push(format!(
                "case {k} ({how}): java {want}, ours {got}\n  {}\n  vars {:?}",
                arena.display(c.expr),
                c.asg.0.values().map(|v| v.to_string()).collect::<Vec<_>>()
            ));
        }
    }
    eprintln!(
        "{} cases ({symbolic} symbolic after simplification), {} mismatches, {nan_payloads} NaNs differing only in payload",
        cases.len(),
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "first mismatches:\n{}",
        mismatches.iter().take(8).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn z3_translation_agrees_with_eval() {
    let mut arena = Arena::new();
    let cases = generate(&mut arena, 200, 16);
    let mut z3 = Z3Solver::new(&SolverLimits::default());
    let mut failures = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        if arena.as_const(c.expr).is_some() {
            continue;
        }
        let mut fixed: Vec<ExprId> = Vec::new();
        for v in arena.vars_of(&[c.expr]) {
            let val = arena.konst(c.asg.0[&v]);
            let ve = arena.var_expr(v);
            fixed.push(arena.mk(Op::Eq, &[ve, val]));
        }
        let want = arena.eval(c.expr, &c.asg);
        let value = arena.konst(want);
        let eq = arena.mk(Op::Eq, &[c.expr, value]);
        let ne = arena.mk(Op::Not, &[eq]);
        let sat = z3.solve(&arena, &[fixed.as_slice(), &[eq]].concat(), &Assignment::default());
        let unsat = z3.solve(&arena, &[fixed.as_slice(), &[ne]].concat(), &Assignment::default());
        if !matches!(sat, Outcome::Sat(_)) || unsat != Outcome::Unsat {
            failures.push(format!("case {k}: {} = {want}: {sat:?} / {unsat:?}", arena.display(c.expr)));
        }
    }
    eprintln!("{} z3 resource units, {} failures", z3.rlimit_spent(), failures.len());
    assert_eq!(z3.model_mismatches(), 0);
    assert!(
        failures.is_empty(),
        "first failures:\n{}",
        failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n")
    );
}
