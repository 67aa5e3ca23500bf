//! `Math` and `StrictMath`: `abs`, `min`, `max` of ints and longs, `floorDiv`, `floorMod`
//! symbolic; over doubles (and floats where Java has them) `sqrt`, `floor`, `ceil`, `abs`, `min`,
//! `max`, and `pow(x, 2.0)` symbolic too (`Op::FSqrt`, `FFloor`, `FCeil`, and JDK 17's own
//! expressions of the others: `abs` is `a <= 0 ? 0 - a : a`, `min` and `max` test NaN and the
//! signed zeros first), so the solver (Z3's floating-point theory, or the AVM on the double's bits
//! when Z3 refuses the query) can change the argument; the other functions are concretised, their
//! arguments pinned, computed with Rust's correctly rounded operations where Java's are (`rint`)
//! and libm otherwise. The overflow-checked `...Exact` methods are in `exact`.

use solver::{ExprId, Op, Value};

use crate::interp::{Machine, Res, unsupported};
use crate::models::ModelResult;
use crate::value::{C, Slot};

impl Machine<'_, '_> {
    pub(crate) fn math_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let params = &desc[1..desc.find(')')?];
        if let Some(r) = self.math_exact(name, params, args) {
            return Some(r.map(Some));
        }
        let r = match (name, params) {
            ("random", "") => self.guarded_random().map(Some),
            ("abs", "I" | "J") => {
                let zero = if params == "J" { Slot::long(0) } else { Slot::int(0) };
                let neg = self.op(Op::Neg, &[args[0]]);
                Ok(Some(self.ite_cmp(Op::Slt, args[0], zero, neg, args[0])))
            }
            ("min", "II" | "JJ") => Ok(Some(self.ite_cmp(Op::Sle, args[0], args[1], args[0], args[1]))),
            ("max", "II" | "JJ") => Ok(Some(self.ite_cmp(Op::Sge, args[0], args[1], args[0], args[1]))),
            ("sqrt", "D") => Ok(Some(self.op(Op::FSqrt, &[args[0]]))),
            ("floor", "D") => Ok(Some(self.op(Op::FFloor, &[args[0]]))),
            ("ceil", "D") => Ok(Some(self.op(Op::FCeil, &[args[0]]))),
            ("abs", "F" | "D") => Ok(Some(self.float_abs(args[0]))),
            ("min" | "max", "FF" | "DD") => Ok(Some(self.float_min_max(name == "max", args[0], args[1]))),
            ("pow", "DD") if args[1].s.is_none() && args[1].c == C::D(2f64.to_bits()) => {
                // Math.pow(x, 2.0) is x * x (StrictMath's FdLibm says so; HotSpot's intrinsic
                // agrees, checked on 6 million doubles, compiled and interpreted).
                Ok(Some(self.op(Op::FMul, &[args[0], args[0]])))
            }
            ("signum", "F" | "D") | (_, "D" | "DD") => self.math_concrete(name, args).map(Some),
            ("floorDiv" | "floorMod", "II" | "JJ") => self.floor_div_mod(name == "floorDiv", args).map(Some),
            _ => return Some(unsupported(format!("Math.{name}{desc}"))),
        };
        Some(r)
    }

    /// `ite(a <op> b, x, y)`.
    fn ite_cmp(&mut self, op: Op, a: Slot, b: Slot, x: Slot, y: Slot) -> Slot {
        let (h, e) = self.cond(op, &[a, b]);
        let conc = if h { x.c } else { y.c };
        match e {
            None => {
                if h {
                    x
                } else {
                    y
                }
            }
            Some(e) => {
                let (ex, ey) = (self.expr(x), self.expr(y));
                Slot { c: conc, s: Some(self.arena.mk(Op::Ite, &[e, ex, ey])) }
            }
        }
    }

    /// `Math.floorDiv`/`floorMod`: the truncating result corrected when the signs differ.
    fn floor_div_mod(&mut self, div: bool, args: &[Slot]) -> Res<Slot> {
        let (a, b) = (args[0], args[1]);
        let zero = if a.wide() { Slot::long(0) } else { Slot::int(0) };
        let one = if a.wide() { Slot::long(1) } else { Slot::int(1) };
        self.div_check(b)?;
        let q = self.op(Op::SDiv, &[a, b]);
        let r = self.op(Op::SRem, &[a, b]);
        // Signs differ and the remainder is not zero: floor is one less, the modulus moves by b.
        let x = self.op(Op::Xor, &[a, b]);
        let (neg, e1) = self.cond(Op::Slt, &[x, zero]);
        let (nz, e2) = self.cond(Op::Ne, &[r, zero]);
        let fix = neg && nz;
        let (fixed, other) =
            if div { (self.op(Op::Sub, &[q, one]), q) } else { (self.op(Op::Add, &[r, b]), r) };
        let conc = if fix { fixed.c } else { other.c };
        if e1.is_none() && e2.is_none() && fixed.s.is_none() && other.s.is_none() {
            return Ok(Slot::conc(conc));
        }
        let c1 = e1.unwrap_or_else(|| self.arena.konst(Value::Bool(neg)));
        let c2 = e2.unwrap_or_else(|| self.arena.konst(Value::Bool(nz)));
        let c = self.arena.mk(Op::And2, &[c1, c2]);
        let (ef, eo) = (self.expr(fixed), self.expr(other));
        Ok(Slot { c: conc, s: Some(self.arena.mk(Op::Ite, &[c, ef, eo])) })
    }

    /// Floating-point `Math` functions: concretised (arguments pinned), computed with Rust's
    /// correctly rounded operations where Java's are (sqrt, floor, ceil, rint) and libm otherwise.
    pub(crate) fn math_concrete(&mut self, name: &str, args: &[Slot]) -> Res<Slot> {
        let vals: Vec<C> = args.iter().map(|a| self.pin(*a).c).collect();
        let f = |c: C| match c {
            C::D(b) => f64::from_bits(b),
            C::F(b) => f64::from(f32::from_bits(b)),
            _ => 0.0,
        };
        let x = vals.first().map_or(0.0, |c| f(*c));
        let y = vals.get(1).map_or(0.0, |c| f(*c));
        let single = matches!(vals.first(), Some(C::F(_)));
        let r = match name {
            "abs" => x.abs(),
            "min" => java_min(x, y),
            "max" => -java_min(-x, -y),
            "sqrt" => x.sqrt(),
            "floor" => x.floor(),
            "ceil" => x.ceil(),
            "signum" => {
                if x.is_nan() || x == 0.0 {
                    x
                } else {
                    x.signum()
                }
            }
            "rint" => x.round_ties_even(),
            "pow" => x.powf(y),
            "exp" => x.exp(),
            "log" => x.ln(),
            "log10" => x.log10(),
            "sin" => x.sin(),
            "cos" => x.cos(),
            "tan" => x.tan(),
            "atan" => x.atan(),
            "atan2" => x.atan2(y),
            "hypot" => x.hypot(y),
            "cbrt" => x.cbrt(),
            _ => return unsupported(format!("Math.{name}")),
        };
        Ok(Slot::conc(if single { C::F((r as f32).to_bits()) } else { C::D(r.to_bits()) }))
    }

    /// JDK 17's `Math.abs(double)` and `abs(float)`: `a <= 0 ? 0 - a : a` (so -0.0 gives 0.0).
    fn float_abs(&mut self, a: Slot) -> Slot {
        let zero = float_zero(a, false);
        let neg = self.op(Op::FSub, &[zero, a]);
        self.ite_cmp(Op::FLe, a, zero, neg, a)
    }

    /// JDK 17's `Math.min` and `max` of doubles or floats: `a` if it is NaN; `b` if both are zero
    /// and the signed zero asked for is `b` (min) or `a` is -0.0 (max); else `a <= b ? a : b`
    /// (`a >= b` for max), which gives `b` when `b` is NaN.
    fn float_min_max(&mut self, max: bool, a: Slot, b: Slot) -> Slot {
        let konst = |m: &mut Self, s: Slot| m.arena.konst(s.c.value().unwrap_or(Value::f64(0.0)));
        let (ka, kb) = (konst(self, a), konst(self, b));
        let folded = self.min_max_expr(max, ka, kb, a);
        let conc = C::from_value(self.arena.as_const(folded).unwrap_or(Value::f64(f64::NAN)));
        if a.s.is_none() && b.s.is_none() {
            return Slot::conc(conc);
        }
        let (ea, eb) = (self.expr(a), self.expr(b));
        self.sym_insn = true;
        Slot { c: conc, s: Some(self.min_max_expr(max, ea, eb, a)) }
    }

    fn min_max_expr(&mut self, max: bool, ea: ExprId, eb: ExprId, like: Slot) -> ExprId {
        let (z, nz) = (float_zero(like, false), float_zero(like, true));
        let (z, nz) = (self.expr(z), self.expr(nz));
        let nan = self.arena.mk(Op::IsNaN, &[ea]);
        let a0 = self.arena.mk(Op::FEq, &[ea, z]);
        let b0 = self.arena.mk(Op::FEq, &[eb, z]);
        // SMT equality tells -0.0 from 0.0 (`Op::Eq`).
        let signed = self.arena.mk(Op::Eq, &[if max { ea } else { eb }, nz]);
        let zeros = self.arena.mk(Op::And2, &[a0, b0]);
        let zeros = self.arena.mk(Op::And2, &[zeros, signed]);
        let keep_a = self.arena.mk(if max { Op::FGe } else { Op::FLe }, &[ea, eb]);
        let pick = self.arena.mk(Op::Ite, &[keep_a, ea, eb]);
        let pick = self.arena.mk(Op::Ite, &[zeros, eb, pick]);
        self.arena.mk(Op::Ite, &[nan, ea, pick])
    }
}

/// 0.0 (or -0.0) of `like`'s precision.
fn float_zero(like: Slot, negative: bool) -> Slot {
    let z = if negative { -0.0f64 } else { 0.0 };
    match like.c {
        C::F(_) => Slot::conc(C::F((z as f32).to_bits())),
        _ => Slot::conc(C::D(z.to_bits())),
    }
}

/// Java's `Math.min` on doubles: NaN if either is NaN, and -0.0 below 0.0.
fn java_min(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 && y == 0.0 {
        return if x.is_sign_negative() { x } else { y };
    }
    x.min(y)
}
