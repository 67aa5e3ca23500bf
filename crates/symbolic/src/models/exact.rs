//! `Math`'s overflow-checked arithmetic (`addExact`, `subtractExact`, `multiplyExact`,
//! `incrementExact`, `decrementExact`, `negateExact`, `toIntExact`, `absExact`), symbolic: the
//! result is the wrapped operation, and the overflow an implicit branch to `ArithmeticException`,
//! as division by zero is (`div_check`), so the solver can aim at either side. An int operation is
//! done on the operands sign-extended to 64 bits, where it cannot overflow, and overflows when
//! the result does not survive the cut back to 32; a long one uses Java's own tests (sign bits
//! for `+` and `-`, a division for `*`).

use solver::{ExprId, Op};

use crate::interp::{Machine, Res};
use crate::value::Slot;

impl Machine<'_, '_> {
    /// The `...Exact` method `name` with parameter descriptors `params`; `None` if it is not one.
    pub(crate) fn math_exact(&mut self, name: &str, params: &str, args: &[Slot]) -> Option<Res<Slot>> {
        let op = match name {
            "addExact" | "incrementExact" => Op::Add,
            "subtractExact" | "decrementExact" | "negateExact" => Op::Sub,
            "multiplyExact" => Op::Mul,
            "toIntExact" if params == "J" => return Some(self.narrowed(args[0], "integer overflow")),
            "absExact" if matches!(params, "I" | "J") => return Some(self.abs_exact(args[0])),
            _ => return None,
        };
        let one = |wide: bool| if wide { Slot::long(1) } else { Slot::int(1) };
        let zero = |wide: bool| if wide { Slot::long(0) } else { Slot::int(0) };
        let (a, b) = match (name, params) {
            (_, "II" | "JJ") => (args[0], args[1]),
            ("multiplyExact", "JI") => (args[0], self.op(Op::SignExt(64), &[args[1]])),
            ("incrementExact" | "decrementExact", "I" | "J") => (args[0], one(params == "J")),
            ("negateExact", "I" | "J") => (zero(params == "J"), args[0]),
            _ => return None,
        };
        Some(if a.wide() { self.long_exact(op, a, b) } else { self.int_exact(op, a, b) })
    }

    fn int_exact(&mut self, op: Op, a: Slot, b: Slot) -> Res<Slot> {
        let wa = self.op(Op::SignExt(64), &[a]);
        let wb = self.op(Op::SignExt(64), &[b]);
        let wide = self.op(op, &[wa, wb]);
        self.narrowed(wide, "integer overflow")
    }

    /// `(int) wide`, after the implicit check that the cut loses nothing.
    fn narrowed(&mut self, wide: Slot, message: &str) -> Res<Slot> {
        let r = self.op(Op::Extract(32), &[wide]);
        let back = self.op(Op::SignExt(64), &[r]);
        let over = self.cond(Op::Ne, &[back, wide]);
        self.overflow_check(over, message)?;
        Ok(r)
    }

    /// `absExact`: overflows for the minimum value only.
    fn abs_exact(&mut self, a: Slot) -> Res<Slot> {
        let (min, zero) = if a.wide() {
            (Slot::long(i64::MIN), Slot::long(0))
        } else {
            (Slot::int(i32::MIN), Slot::int(0))
        };
        let over = self.cond(Op::Eq, &[a, min]);
        let message = if a.wide() {
            "Overflow to represent absolute value of Long.MIN_VALUE"
        } else {
            "Overflow to represent absolute value of Integer.MIN_VALUE"
        };
        self.overflow_check(over, message)?;
        let neg = self.op(Op::Neg, &[a]);
        let (is_neg, e) = self.cond(Op::Slt, &[a, zero]);
        Ok(match e {
            None => {
                if is_neg {
                    neg
                } else {
                    a
                }
            }
            Some(e) => {
                let (en, ea) = (self.expr(neg), self.expr(a));
                Slot { c: if is_neg { neg.c } else { a.c }, s: Some(self.arena.mk(Op::Ite, &[e, en, ea])) }
            }
        })
    }

    /// Java's checks for longs (`Math.addExact(long, long)` and its siblings in JDK 17).
    fn long_exact(&mut self, op: Op, a: Slot, b: Slot) -> Res<Slot> {
        let r = self.op(op, &[a, b]);
        let zero = Slot::long(0);
        let over = match op {
            Op::Add | Op::Sub => {
                // add: both operands' signs differ from the result's; sub: the operands' signs
                // differ and the result's differs from the first's.
                let x = if op == Op::Add { self.op(Op::Xor, &[a, r]) } else { self.op(Op::Xor, &[a, b]) };
                let y = if op == Op::Add { self.op(Op::Xor, &[b, r]) } else { self.op(Op::Xor, &[a, r]) };
                let both = self.op(Op::And, &[x, y]);
                self.cond(Op::Slt, &[both, zero])
            }
            _ => {
                // (b != 0 && r / b != a) || (a == MIN && b == -1)
                let q = self.op(Op::SDiv, &[r, b]);
                let nz = self.cond(Op::Ne, &[b, zero]);
                let differs = self.cond(Op::Ne, &[q, a]);
                let is_min = self.cond(Op::Eq, &[a, Slot::long(i64::MIN)]);
                let minus_one = self.cond(Op::Eq, &[b, Slot::long(-1)]);
                let left = self.bool_op(Op::And2, nz, differs);
                let right = self.bool_op(Op::And2, is_min, minus_one);
                self.bool_op(Op::Or2, left, right)
            }
        };
        self.overflow_check(over, "long overflow")?;
        Ok(r)
    }

    /// `x op y` over two conditions (`And2`/`Or2`), symbolic when either is.
    fn bool_op(
        &mut self,
        op: Op,
        x: (bool, Option<ExprId>),
        y: (bool, Option<ExprId>),
    ) -> (bool, Option<ExprId>) {
        let holds = if op == Op::And2 { x.0 && y.0 } else { x.0 || y.0 };
        if x.1.is_none() && y.1.is_none() {
            return (holds, None);
        }
        let as_expr = |m: &mut Self, c: (bool, Option<ExprId>)| {
            c.1.unwrap_or_else(|| m.arena.konst(solver::Value::Bool(c.0)))
        };
        let (ex, ey) = (as_expr(self, x), as_expr(self, y));
        let e = self.arena.mk(op, &[ex, ey]);
        (holds, self.arena.as_const(e).is_none().then_some(e))
    }

    /// The implicit branch of an overflow: recorded when symbolic, thrown when it holds.
    fn overflow_check(&mut self, (over, e): (bool, Option<ExprId>), message: &str) -> Res<()> {
        if let Some(e) = e {
            let h = self.held(over, e);
            self.implicit(h);
        }
        if over {
            return self.throw_new("java/lang/ArithmeticException", message);
        }
        Ok(())
    }
}
