//! The boxes (`Integer`, `Long`, `Short`, `Byte`, `Boolean`, `Double`, `Float`, `Character`) as
//! instances with their JDK `value` field, the `valueOf` caches (−128..127, booleans, chars up to
//! 127: identity matters to `==`), parsing with its NumberFormatException branches, and the ASCII
//! `Character` predicates.

use std::collections::BTreeMap;

use jvm_model::ClassName;
use solver::{ExprId, Op, Value};

use crate::heap::Obj;
use crate::interp::{Machine, Res, unsupported};
use crate::models::ModelResult;
use crate::value::{C, ObjId, Slot};

/// The primitive descriptor of a box class (None: not a box).
pub(crate) fn prim_of(class: &str) -> Option<&'static str> {
    Some(match class {
        "java/lang/Integer" => "I",
        "java/lang/Long" => "J",
        "java/lang/Short" => "S",
        "java/lang/Byte" => "B",
        "java/lang/Boolean" => "Z",
        "java/lang/Character" => "C",
        "java/lang/Double" => "D",
        "java/lang/Float" => "F",
        _ => return None,
    })
}

/// The `Character` predicates modelled over ASCII ranges (`char_predicate`).
const CHAR_PREDICATES: &[&str] = &[
    "isDigit",
    "isUpperCase",
    "isLowerCase",
    "isLetter",
    "isAlphabetic",
    "isLetterOrDigit",
    "isWhitespace",
    "isSpaceChar",
];

impl Machine<'_, '_> {
    /// `X.valueOf(v)`: a cached box for the values the JDK caches, a new one otherwise.
    pub(crate) fn box_value(&mut self, class: &str, v: Slot) -> ObjId {
        let range: Option<(i64, i64)> = match class {
            "java/lang/Boolean" => Some((i64::MIN, i64::MAX)),
            "java/lang/Character" => Some((0, 127)),
            "java/lang/Integer" | "java/lang/Short" | "java/lang/Byte" | "java/lang/Long" => {
                Some((-128, 127))
            }
            _ => None,
        };
        let x = match v.c {
            C::I(x) if class == "java/lang/Boolean" => i64::from(x != 0),
            C::I(x) => i64::from(x),
            C::J(x) => x,
            _ => 0,
        };
        let cached = range.is_some_and(|(lo, hi)| (lo..=hi).contains(&x));
        if cached
            && v.s.is_none()
            && let Some(&o) = self.box_cache.get(&(class.to_string(), x))
        {
            return o;
        }
        let mut fields = BTreeMap::new();
        fields.insert(format!("{class}.value"), v);
        let o = self.heap.alloc(Obj::Inst { class: class.to_string(), fields });
        if let (Some(_), Some(r)) = (v.s, range) {
            self.heap.valueof_boxes.insert(o, r);
        }
        if cached {
            // A symbolic value gets a box of its own that stands for the cached one (`Heap::same`).
            self.heap.cached_boxes.insert(o, x);
            if v.s.is_none() {
                self.box_cache.insert((class.to_string(), x), o);
            }
        }
        o
    }

    /// The primitive inside a box.
    pub(crate) fn unbox(&mut self, o: ObjId) -> Res<Slot> {
        match self.heap.get(o) {
            Obj::Inst { class, fields } if prim_of(class).is_some() => {
                let d = prim_of(class).unwrap_or("I");
                Ok(fields
                    .get(&format!("{class}.value"))
                    .copied()
                    .unwrap_or_else(|| crate::value::default_of(d)))
            }
            _ => unsupported(format!("unboxing a {}", self.heap.class_of(o))),
        }
    }

    pub(crate) fn box_model(&mut self, class: &str, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let prim = prim_of(class).unwrap_or("I");
        let params = &desc[1..desc.find(')')?];
        let ret = &desc[desc.find(')')? + 1..];
        let r = match (name, params) {
            ("valueOf", p) if p == prim => Ok(Some(Slot::obj(self.box_value(class, args[0])))),
            ("<init>", p) if p == prim => {
                let this = args[0].as_ref()?;
                if let Obj::Inst { fields, .. } = self.heap.get_mut(this) {
                    fields.insert(format!("{class}.value"), args[1]);
                }
                Ok(None)
            }
            ("parseInt" | "parseLong" | "parseShort" | "parseByte", "Ljava/lang/String;") => {
                self.parse_integer(args[0], prim).map(Some)
            }
            // Natives: the bits move unchanged (NaN payloads too, as HotSpot's intrinsics on x86-64
            // do); a symbolic argument is pinned.
            ("doubleToRawLongBits", "D")
            | ("floatToRawIntBits", "F")
            | ("longBitsToDouble", "J")
            | ("intBitsToFloat", "I") => {
                let v = self.pin(args[0]);
                Ok(Some(match v.c {
                    C::D(b) => Slot::long(b as i64),
                    C::F(b) => Slot::int(b as i32),
                    C::J(b) => Slot::conc(C::D(b as u64)),
                    C::I(b) => Slot::conc(C::F(b as u32)),
                    _ => return Some(unsupported(format!("{name} of a reference"))),
                }))
            }
            ("valueOf", "Ljava/lang/String;") if matches!(prim, "I" | "J" | "S" | "B") => {
                self.parse_integer(args[0], prim).map(|v| Some(Slot::obj(self.box_value(class, v))))
            }
            ("parseInt" | "parseLong", "Ljava/lang/String;I") => {
                let radix = self.pin(args[1]).as_int();
                if radix != 10 {
                    return Some(self.parse_radix(args[0], radix, prim).map(Some));
                }
                self.parse_integer(args[0], prim).map(Some)
            }
            ("toHexString", "I" | "J") => {
                let wide = if prim == "J" { args[0] } else { self.chain(&[Op::SignExt(64)], args[0]) };
                let digits = self.hex_digits(wide, if prim == "J" { 64 } else { 32 }, false, 1);
                Ok(Some(self.new_string(crate::heap::StrVal::from_chars(digits))))
            }
            ("toString", p) if p == prim => self.string_of(args[0], prim).map(|s| Some(self.new_string(s))),
            ("toString", "") | ("hashCode", "") if params.is_empty() => {
                let v = self.unbox(args[0].as_ref()?);
                match (name, v) {
                    (_, Err(e)) => Err(e),
                    ("toString", Ok(v)) => self.string_of(v, prim).map(|s| Some(self.new_string(s))),
                    (_, Ok(v)) => Ok(Some(self.box_hash(prim, v))),
                }
            }
            ("hashCode", p) if p == prim => Ok(Some(self.box_hash(prim, args[0]))),
            ("compare", _) if params.len() == 2 * prim.len() => {
                Ok(Some(self.compare3(prim, args[0], args[1])))
            }
            ("compareTo", _) if args[1].as_ref().is_some_and(|o| self.heap.class_of(o) != class) => {
                let other = ClassName::binary_of(&self.heap.class_of(args[1].as_ref()?));
                let msg = format!("{other} cannot be cast to {}", ClassName::binary_of(class));
                self.throw_new("java/lang/ClassCastException", &msg)
            }
            ("compareTo", _) => {
                let a = self.unbox(args[0].as_ref()?);
                let b = args[1].as_ref().map(|o| self.unbox(o));
                match (a, b) {
                    (Ok(a), Some(Ok(b))) => Ok(Some(self.compare3(prim, a, b))),
                    (Err(e), _) | (_, Some(Err(e))) => Err(e),
                    (_, None) => self.throw_new("java/lang/NullPointerException", "compareTo(null)"),
                }
            }
            ("equals", "Ljava/lang/Object;") => self.box_equals(class, prim, args).map(Some),
            (n, "") if n.ends_with("Value") => {
                let v = self.unbox(args[0].as_ref()?);
                v.and_then(|v| self.coerce_prim(v, prim, ret)).map(Some)
            }
            ("parseDouble" | "parseFloat", "Ljava/lang/String;") => self.parse_float(args[0], prim).map(Some),
            ("valueOf", "Ljava/lang/String;") if matches!(prim, "D" | "F") => {
                self.parse_float(args[0], prim).map(|v| Some(Slot::obj(self.box_value(class, v))))
            }
            ("isNaN", "D" | "F") => {
                let (h, e) = self.cond(Op::IsNaN, &[args[0]]);
                Ok(Some(self.bool_slot(h, e)))
            }
            ("parseBoolean", "Ljava/lang/String;") => {
                let t = self.new_rust_string("true");
                let Some(s) = args[0].as_ref() else { return Some(Ok(Some(Slot::int(0)))) };
                let tmp = [Slot::obj(s), t];
                return self.string_model("equalsIgnoreCase", "(Ljava/lang/String;)Z", &tmp);
            }
            ("signum", "I") => {
                let s = self.compare3("I", args[0], Slot::int(0));
                Ok(Some(s))
            }
            _ => return None,
        };
        Some(r)
    }

    /// A primitive converted between JVM types (`intValue` of a Long, `doubleValue` of an Integer).
    fn coerce_prim(&mut self, v: Slot, from: &str, to: &str) -> Res<Slot> {
        use solver::Sort;
        let ops: &[Op] = match (from, to) {
            (a, b) if a == b => &[],
            ("I" | "S" | "B" | "C" | "Z", "I" | "S" | "B" | "C" | "Z") => &[],
            ("I" | "S" | "B" | "C", "J") => &[Op::SignExt(64)],
            ("I" | "S" | "B" | "C", "F") | ("J", "F") => &[Op::IntToFp(Sort::F32)],
            ("I" | "S" | "B" | "C", "D") | ("J", "D") => &[Op::IntToFp(Sort::F64)],
            ("J", _) => &[Op::Extract(32)],
            ("F", "D") => &[Op::FpToFp(Sort::F64)],
            ("D", "F") => &[Op::FpToFp(Sort::F32)],
            ("F" | "D", "J") => &[Op::FpToInt(64)],
            ("F" | "D", _) => &[Op::FpToInt(32)],
            _ => return unsupported(format!("conversion {from} to {to}")),
        };
        let v = self.chain(ops, v);
        Ok(match to {
            "B" => self.chain(&[Op::Extract(8), Op::SignExt(32)], v),
            "S" => self.chain(&[Op::Extract(16), Op::SignExt(32)], v),
            _ => v,
        })
    }

    fn box_hash(&mut self, prim: &str, v: Slot) -> Slot {
        match prim {
            "J" => {
                let hi = self.op(Op::LShr, &[v, Slot::long(32)]);
                let x = self.op(Op::Xor, &[v, hi]);
                self.chain(&[Op::Extract(32)], x)
            }
            "Z" => {
                let v = self.pin(v);
                Slot::int(if v.as_int() != 0 { 1231 } else { 1237 })
            }
            "D" | "F" => {
                // Double.hashCode hashes the canonical bits: concretised.
                let v = self.pin(v);
                match v.c {
                    C::D(b) => {
                        let b = if f64::from_bits(b).is_nan() { 0x7ff8_0000_0000_0000 } else { b };
                        Slot::int((b ^ (b >> 32)) as i32)
                    }
                    C::F(b) => Slot::int(if f32::from_bits(b).is_nan() { 0x7fc0_0000 } else { b as i32 }),
                    _ => Slot::int(0),
                }
            }
            _ => v,
        }
    }

    /// Java's `compare` of two primitives: -1, 0 or 1 (`Double.compare`'s total order concretised).
    pub(crate) fn compare3(&mut self, prim: &str, a: Slot, b: Slot) -> Slot {
        match prim {
            "J" => self.op(Op::Cmp, &[a, b]),
            "D" | "F" => {
                let (a, b) = (self.pin(a), self.pin(b));
                let (x, y) = match (a.c, b.c) {
                    (C::D(x), C::D(y)) => (f64::from_bits(x), f64::from_bits(y)),
                    (C::F(x), C::F(y)) => (f64::from(f32::from_bits(x)), f64::from(f32::from_bits(y))),
                    _ => (0.0, 0.0),
                };
                Slot::int(x.total_cmp(&y) as i32)
            }
            _ => {
                // Sign-extended to 64 bits, lcmp gives Integer.compare.
                let (a, b) = (self.chain(&[Op::SignExt(64)], a), self.chain(&[Op::SignExt(64)], b));
                self.op(Op::Cmp, &[a, b])
            }
        }
    }

    fn box_equals(&mut self, class: &str, prim: &str, args: &[Slot]) -> Res<Slot> {
        let Some(this) = args[0].as_ref() else { return Ok(Slot::int(0)) };
        let Some(other) = args[1].as_ref() else { return Ok(Slot::int(0)) };
        if self.heap.class_of(other) != class {
            return Ok(Slot::int(0));
        }
        let (a, b) = (self.unbox(this)?, self.unbox(other)?);
        if matches!(prim, "D" | "F") {
            let (a, b) = (self.pin(a), self.pin(b));
            return Ok(Slot::int(i32::from(a.c == b.c)));
        }
        let (h, e) = self.cond(Op::Eq, &[a, b]);
        Ok(self.bool_slot(h, e))
    }

    /// `Integer.parseInt` (and the Long, Short, Byte forms) in radix 10: an optional sign, then
    /// digits, each check an implicit branch to NumberFormatException (and an empty string's);
    /// a symbolic length kept (`parse_input`), else the length is concrete. More than 9 digits
    /// (18 for long) are parsed concretely, their characters pinned.
    fn parse_integer(&mut self, s: Slot, prim: &str) -> Res<Slot> {
        let Some(o) = s.as_ref() else {
            return self.throw_new("java/lang/NumberFormatException", "Cannot parse null string: null");
        };
        let sv = self.str_of(o)?;
        if sv.chars.iter().any(|c| c.c >= 128 && char::from_u32(u32::from(c.c)).is_some_and(char::is_numeric))
        {
            // `Character.digit` takes other Unicode digits too ("١٢" is 12): not modelled. Every
            // such digit is `is_numeric` (Nd, in any Unicode version since JDK 17's), so another
            // non-ASCII character is no digit for Java either: a NumberFormatException, as the
            // digit checks below find.
            return unsupported("parsing a number holding a non-ASCII digit");
        }
        let text = sv.to_rust();
        let fail = format!("For input string: \"{text}\"");
        let n = sv.chars.len();
        if n == 0 {
            // The empty string's check is an implicit branch, as the digits' are: an exploration
            // that negates it gets a number (where a pinned length kept the exception).
            if let Some(len) = sv.len {
                let (empty, e) = self.cond(Op::Eq, &[Slot { c: C::I(0), s: Some(len) }, Slot::int(0)]);
                if let Some(e) = e {
                    let h = self.held(empty, e);
                    self.implicit(h);
                }
            }
            return self.throw_new("java/lang/NumberFormatException", &fail);
        }
        let wide = prim == "J";
        let max_digits = if wide { 18 } else { 9 };
        let first = sv.chars[0];
        let minus = crate::heap::Ch { c: u16::from(b'-'), s: None };
        let plus = crate::heap::Ch { c: u16::from(b'+'), s: None };
        let (is_minus, em) = self.ch_eq(first, minus);
        let (is_plus, ep) = self.ch_eq(first, plus);
        let signed = is_minus || is_plus;
        if let Some(e) = em {
            let h = self.held(is_minus, e);
            self.implicit(h);
        }
        if let Some(e) = ep
            && !is_minus
        {
            let h = self.held(is_plus, e);
            self.implicit(h);
        }
        let start = usize::from(signed);
        let is_digit = |c: u16| (u16::from(b'0')..=u16::from(b'9')).contains(&c);
        if let Some(len) = sv.len
            && n - start > max_digits
            && let Some(k) = (start..start + max_digits).find(|&k| !is_digit(sv.chars[k].c))
        {
            return self.parse_stops_at(&sv, len, start, k, &fail);
        }
        if n == start || n - start > max_digits {
            self.fixed_str(o)?;
            for ch in &sv.chars {
                let s = self.char_slot(*ch);
                self.pin(s);
            }
            return self.parse_concrete(&text, prim, &fail);
        }
        if let Some(len) = sv.len
            && start + max_digits <= self.cfg.max_string as usize
        {
            return self.parse_input(&sv, len, start, max_digits, prim, is_minus, &fail);
        }
        self.fixed_str(o)?;
        let zero_w = if wide { Slot::long(0) } else { Slot::int(0) };
        let mut acc = zero_w;
        for ch in &sv.chars[start..] {
            let c = self.char_slot(*ch);
            let d = self.op(Op::Sub, &[c, Slot::int(i32::from(b'0'))]);
            let (digit, e) = self.cond(Op::Ult, &[d, Slot::int(10)]);
            if let Some(e) = e {
                let h = self.held(digit, e);
                self.implicit(h);
            }
            if !digit {
                return self.throw_new("java/lang/NumberFormatException", &fail);
            }
            let d = if wide { self.chain(&[Op::SignExt(64)], d) } else { d };
            let ten = if wide { Slot::long(10) } else { Slot::int(10) };
            let m = self.op(Op::Mul, &[acc, ten]);
            acc = self.op(Op::Add, &[m, d]);
        }
        if is_minus {
            acc = self.op(Op::Neg, &[acc]);
        }
        self.narrow_parsed(acc, prim, &fail)
    }

    /// `parse_integer` of a string input whose length stays symbolic: the value is the digits
    /// up to the length, `ite(k < len, acc * 10 + digit_k, acc)` for every position a number of
    /// `max_digits` could use, so that a solver may change the number of digits. Restrictions that
    /// hold on this run are kept as pin-kind entries: the length is 1..=max_digits digits after the
    /// sign (no overflow), and every character past this run's length is a digit if the length
    /// grows over it. The digit checks of this run's characters are implicit branches.
    /// (The value's form: see the loop.)
    #[allow(clippy::too_many_arguments)]
    fn parse_input(
        &mut self,
        sv: &crate::heap::StrVal,
        len: ExprId,
        start: usize,
        max_digits: usize,
        prim: &str,
        minus: bool,
        fail: &str,
    ) -> Res<Slot> {
        let wide = prim == "J";
        let n = sv.chars.len();
        let l = Slot { c: C::I(n as i32), s: Some(len) };
        let (lo, e1) = self.cond(Op::Sgt, &[l, Slot::int(start as i32)]);
        let (hi, e2) = self.cond(Op::Sle, &[l, Slot::int((start + max_digits) as i32)]);
        self.pin_cond(lo, e1);
        self.pin_cond(hi, e2);
        let widen = |m: &mut Self, e: ExprId| if wide { m.arena.mk(Op::SignExt(64), &[e]) } else { e };
        let k0 = self.arena.konst(if wide { Value::i64(0) } else { Value::i32(0) });
        let ten = self.arena.konst(if wide { Value::i64(10) } else { Value::i32(10) });
        let one = self.arena.konst(if wide { Value::i64(1) } else { Value::i32(1) });
        let (zero, nine) = (self.arena.konst(Value::char(u16::from(b'0'))), self.arena.konst(Value::char(9)));
        let mut acc = k0;
        let mut conc: i64 = 0;
        for k in start..start + max_digits {
            let c = self.char_expr(sv, k);
            let d16 = self.arena.mk(Op::Sub, &[c, zero]);
            // A digit: c - '0' <= 9 unsigned (Bv16).
            let above = self.arena_ugt(d16, nine);
            let digit = self.arena.mk(Op::Not, &[above]);
            let kk = self.arena.konst(Value::i32(k as i32));
            let inside = self.arena.mk(Op::Ult, &[kk, len]);
            if k < n {
                let is_digit = (u16::from(b'0')..=u16::from(b'9')).contains(&sv.chars[k].c);
                let h = self.held(is_digit, digit);
                self.implicit(h);
                if !is_digit {
                    return self.throw_new("java/lang/NumberFormatException", fail);
                }
                conc = conc * 10 + i64::from(sv.chars[k].c - u16::from(b'0'));
            } else {
                let guarded = self.arena.mk(Op::Implies, &[inside, digit]);
                self.pin_cond(true, Some(guarded));
            }
            let d32 = self.arena.mk(Op::ZeroExt(32), &[d16]);
            let d = widen(self, d32);
            // acc * (k < len ? 10 : 1) + (k < len ? digit : 0): linear in size, where
            // `ite(k < len, acc * 10 + digit, acc)` would repeat `acc` in both branches.
            let scale = self.arena.mk(Op::Ite, &[inside, ten, one]);
            let add = self.arena.mk(Op::Ite, &[inside, d, k0]);
            let m = self.arena.mk(Op::Mul, &[acc, scale]);
            acc = self.arena.mk(Op::Add, &[m, add]);
        }
        self.sym_insn = true;
        let c = if wide { C::J(conc) } else { C::I(conc as i32) };
        let mut v = Slot { c, s: Some(acc) };
        if minus {
            v = self.op(Op::Neg, &[v]);
        }
        self.narrow_parsed(v, prim, fail)
    }

    /// `parse_integer` of a string with a symbolic length, longer than a number's digits, whose
    /// character `k` (among the first `max_digits` after the sign) is no digit: Java's loop reads
    /// up to it and throws. Each step's `i < length` and digit check are implicit entries (the
    /// length is not pinned), so an exploration may end the string before `k` (a number) or
    /// make character `k` a digit.
    fn parse_stops_at(
        &mut self,
        sv: &crate::heap::StrVal,
        len: ExprId,
        start: usize,
        k: usize,
        fail: &str,
    ) -> Res<Slot> {
        let n = sv.chars.len();
        let (zero, nine) = (self.arena.konst(Value::char(u16::from(b'0'))), self.arena.konst(Value::char(9)));
        for i in start..=k {
            let (inside, e) =
                self.cond(Op::Slt, &[Slot::int(i as i32), Slot { c: C::I(n as i32), s: Some(len) }]);
            if let Some(e) = e {
                let h = self.held(inside, e);
                self.implicit(h);
            }
            let c = self.char_expr(sv, i);
            let d16 = self.arena.mk(Op::Sub, &[c, zero]);
            let above = self.arena_ugt(d16, nine);
            let digit = self.arena.mk(Op::Not, &[above]);
            if self.arena.as_const(digit).is_none() {
                let h = self.held(i < k, digit);
                self.implicit(h);
            }
        }
        self.sym_insn = true;
        self.throw_new("java/lang/NumberFormatException", fail)
    }

    /// `parseInt(s, radix)` and `parseLong(s, radix)` for a radix other than 10, concretised (the
    /// characters pinned): an optional sign, then at least one digit of the radix (ASCII letters
    /// for the digits past 9); a radix outside 2..=36, a bad digit or an overflow throws
    /// NumberFormatException, as in Java.
    fn parse_radix(&mut self, s: Slot, radix: i32, prim: &str) -> Res<Slot> {
        let Some(o) = s.as_ref() else {
            return self.throw_new("java/lang/NumberFormatException", "Cannot parse null string: null");
        };
        if !(2..=36).contains(&radix) {
            return self.throw_new("java/lang/NumberFormatException", &format!("radix {radix} out of range"));
        }
        let sv = self.fixed_str(o)?;
        if sv.chars.iter().any(|c| c.c >= 128) {
            return unsupported("parsing a number holding a non-ASCII character");
        }
        for ch in sv.chars.iter().filter(|c| c.s.is_some()).copied().collect::<Vec<_>>() {
            let c = self.char_slot(ch);
            self.pin(c);
        }
        let text = sv.to_rust();
        // Rust's `from_str_radix` reads Java's syntax: an optional sign, then digits of either case.
        let r = if prim == "J" {
            i64::from_str_radix(&text, radix as u32).ok().map(Slot::long)
        } else {
            i32::from_str_radix(&text, radix as u32).ok().map(Slot::int)
        };
        match r {
            Some(v) => Ok(v),
            None => {
                self.throw_new("java/lang/NumberFormatException", &format!("For input string: \"{text}\""))
            }
        }
    }

    /// `a >u b` on bit vectors (`b <u a`).
    fn arena_ugt(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.arena.mk(Op::Ult, &[b, a])
    }

    /// `Double.parseDouble` / `Float.parseFloat`, concretised (the characters pinned): Java's
    /// syntax (whitespace trimmed, an optional `d`/`f` suffix, `NaN` and `Infinity` spelled so),
    /// correctly rounded as Java rounds; hexadecimal floats stop the replay.
    fn parse_float(&mut self, s: Slot, prim: &str) -> Res<Slot> {
        let Some(o) = s.as_ref() else { return self.throw_new("java/lang/NullPointerException", "null") };
        let sv = self.concrete_str(o)?;
        let text = sv.to_rust();
        let t = text.trim_matches(|c: char| c <= ' ');
        let fail = format!("For input string: \"{text}\"");
        let body = t.strip_prefix(['+', '-']).unwrap_or(t);
        if body.contains(['x', 'X']) {
            return unsupported("a hexadecimal floating-point literal");
        }
        let named = matches!(body, "NaN" | "Infinity");
        let digits = body.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(body);
        let plain = !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
            && digits.chars().any(|c| c.is_ascii_digit());
        if !named && !plain {
            return self.throw_new("java/lang/NumberFormatException", &fail);
        }
        let sign = if t.starts_with('-') { "-" } else { "" };
        let src = format!("{sign}{}", if named { body } else { digits });
        let r = if prim == "F" {
            src.parse::<f32>().ok().map(|v| Slot::conc(C::F(v.to_bits())))
        } else {
            src.parse::<f64>().ok().map(|v| Slot::conc(C::D(v.to_bits())))
        };
        match r {
            Some(v) => Ok(v),
            None => self.throw_new("java/lang/NumberFormatException", &fail),
        }
    }

    /// Short and Byte parse as int, then check their range (NumberFormatException outside).
    fn narrow_parsed(&mut self, v: Slot, prim: &str, fail: &str) -> Res<Slot> {
        let (lo, hi) = match prim {
            "S" => (i32::from(i16::MIN), i32::from(i16::MAX)),
            "B" => (i32::from(i8::MIN), i32::from(i8::MAX)),
            _ => return Ok(v),
        };
        let (ge, e1) = self.cond(Op::Sge, &[v, Slot::int(lo)]);
        let (le, e2) = self.cond(Op::Sle, &[v, Slot::int(hi)]);
        for (h, e) in [(ge, e1), (le, e2)] {
            if let Some(e) = e {
                let x = self.held(h, e);
                self.implicit(x);
            }
        }
        if !(ge && le) {
            return self.throw_new("java/lang/NumberFormatException", fail);
        }
        Ok(v)
    }

    fn parse_concrete(&mut self, text: &str, prim: &str, fail: &str) -> Res<Slot> {
        let ok = |t: &str| {
            t.bytes().enumerate().all(|(i, b)| b.is_ascii_digit() || (i == 0 && (b == b'-' || b == b'+')))
        };
        if !ok(text) {
            return self.throw_new("java/lang/NumberFormatException", fail);
        }
        let r = match prim {
            "J" => text.parse::<i64>().ok().map(Slot::long),
            "S" => text.parse::<i16>().ok().map(|v| Slot::int(i32::from(v))),
            "B" => text.parse::<i8>().ok().map(|v| Slot::int(i32::from(v))),
            _ => text.parse::<i32>().ok().map(Slot::int),
        };
        match r {
            Some(v) => Ok(v),
            None => self.throw_new("java/lang/NumberFormatException", fail),
        }
    }

    fn ch_eq(&mut self, a: crate::heap::Ch, b: crate::heap::Ch) -> (bool, Option<ExprId>) {
        let holds = a.c == b.c;
        match a.s {
            None => (holds, None),
            Some(x) => {
                let y = self.arena.konst(Value::char(b.c));
                let e = self.arena.mk(Op::Eq, &[x, y]);
                (holds, self.arena.as_const(e).is_none().then_some(e))
            }
        }
    }

    /// `Character`'s ASCII predicates and case mappings, symbolic for ASCII characters (a symbolic
    /// character is kept below 128 by a pin-kind entry); `valueOf`/`charValue` as a box.
    pub(crate) fn character_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        // Outside ASCII the JDK's own tables (CharacterData*) are interpreted from bytecode.
        let static_char = desc.starts_with("(C") || desc.starts_with("(I");
        if static_char
            && !matches!(name, "valueOf" | "toString" | "compare")
            && !(0..128).contains(&args[0].as_int())
        {
            return None;
        }
        let r = match (name, desc) {
            ("valueOf", "(C)Ljava/lang/Character;") => {
                Ok(Some(Slot::obj(self.box_value("java/lang/Character", args[0]))))
            }
            ("charValue", "()C") | ("hashCode", "()I") => self.unbox(args[0].as_ref()?).map(Some),
            ("toString", "(C)Ljava/lang/String;") => {
                self.string_of(args[0], "C").map(|s| Some(self.new_string(s)))
            }
            ("compare", "(CC)I") => Ok(Some(self.op(Op::Sub, &[args[0], args[1]]))),
            ("equals", "(Ljava/lang/Object;)Z") => {
                return self.box_model("java/lang/Character", name, desc, args);
            }
            // The other predicates (isSurrogate, isJavaIdentifierPart, ...) run the JDK's bytecode,
            // exact for every character.
            (_, "(C)Z" | "(I)Z") if CHAR_PREDICATES.contains(&name) => {
                self.char_predicate(name, args[0]).map(Some)
            }
            ("toUpperCase" | "toLowerCase", "(C)C" | "(I)I") => {
                self.char_case(name == "toUpperCase", args[0]).map(Some)
            }
            ("digit", "(CI)I" | "(II)I") => self.char_digit(args[0], args[1]).map(Some),
            ("getNumericValue", "(C)I" | "(I)I") => self.char_digit(args[0], Slot::int(36)).map(Some),
            _ => return None,
        };
        Some(r)
    }

    /// Keeps a symbolic character in the ASCII range (where the models are exact).
    fn ascii(&mut self, c: Slot) -> Res<()> {
        let (ascii, e) = self.cond(Op::Ult, &[c, Slot::int(128)]);
        if !ascii {
            return unsupported("a Character predicate of a non-ASCII character");
        }
        self.pin_cond(ascii, e);
        Ok(())
    }

    fn in_range(&mut self, c: Slot, lo: u8, hi: u8) -> (bool, Option<ExprId>) {
        let (a, ea) = self.cond(Op::Sge, &[c, Slot::int(i32::from(lo))]);
        let (b, eb) = self.cond(Op::Sle, &[c, Slot::int(i32::from(hi))]);
        let e = match (ea, eb) {
            (Some(x), Some(y)) => Some(self.arena.mk(Op::And2, &[x, y])),
            _ => None,
        };
        (a && b, e)
    }

    fn any(&mut self, parts: &[(bool, Option<ExprId>)]) -> (bool, Option<ExprId>) {
        let holds = parts.iter().any(|p| p.0);
        if parts.iter().all(|p| p.1.is_none()) {
            return (holds, None);
        }
        let mut acc = self.arena.konst(Value::Bool(false));
        for &(h, e) in parts {
            let x = e.unwrap_or_else(|| self.arena.konst(Value::Bool(h)));
            acc = self.arena.mk(Op::Or2, &[acc, x]);
        }
        (holds, Some(acc))
    }

    /// One of `CHAR_PREDICATES` of `c`, for ASCII (a symbolic `c` is kept in ASCII).
    fn char_predicate(&mut self, name: &str, c: Slot) -> Res<Slot> {
        self.ascii(c)?;
        let digit = self.in_range(c, b'0', b'9');
        let upper = self.in_range(c, b'A', b'Z');
        let lower = self.in_range(c, b'a', b'z');
        let (h, e) = match name {
            "isDigit" => digit,
            "isUpperCase" => upper,
            "isLowerCase" => lower,
            "isLetter" | "isAlphabetic" => self.any(&[upper, lower]),
            "isLetterOrDigit" => self.any(&[upper, lower, digit]),
            "isWhitespace" | "isSpaceChar" => {
                let ws = self.in_range(c, 9, 13);
                let seps = self.in_range(c, 28, 32);
                if name == "isSpaceChar" {
                    self.cond(Op::Eq, &[c, Slot::int(32)])
                } else {
                    self.any(&[ws, seps])
                }
            }
            _ => return unsupported(format!("Character.{name}")),
        };
        Ok(self.bool_slot(h, e))
    }

    fn char_case(&mut self, upper: bool, c: Slot) -> Res<Slot> {
        self.ascii(c)?;
        let (inr, e) = if upper { self.in_range(c, b'a', b'z') } else { self.in_range(c, b'A', b'Z') };
        let moved = self.op(if upper { Op::Sub } else { Op::Add }, &[c, Slot::int(32)]);
        let conc = if inr { moved.c } else { c.c };
        match e {
            None => Ok(Slot::conc(conc)),
            Some(e) => {
                let (x, y) = (self.expr(moved), self.expr(c));
                Ok(Slot { c: conc, s: Some(self.arena.mk(Op::Ite, &[e, x, y])) })
            }
        }
    }

    /// `Character.digit(c, radix)` for ASCII: '0'..'9', then letters as 10.., -1 outside the radix.
    fn char_digit(&mut self, c: Slot, radix: Slot) -> Res<Slot> {
        self.ascii(c)?;
        let radix = self.pin(radix).as_int();
        let d = self.in_range(c, b'0', b'9');
        let u = self.in_range(c, b'A', b'Z');
        let l = self.in_range(c, b'a', b'z');
        let vd = self.op(Op::Sub, &[c, Slot::int(i32::from(b'0'))]);
        let vu = self.op(Op::Sub, &[c, Slot::int(i32::from(b'A') - 10)]);
        let vl = self.op(Op::Sub, &[c, Slot::int(i32::from(b'a') - 10)]);
        let conc = if d.0 {
            vd.as_int()
        } else if u.0 {
            vu.as_int()
        } else if l.0 {
            vl.as_int()
        } else {
            -1
        };
        let conc = if conc >= radix { -1 } else { conc };
        if c.s.is_none() {
            return Ok(Slot::int(conc));
        }
        let m1 = self.arena.konst(Value::i32(-1));
        let pick = |m: &mut Self, (h, e): (bool, Option<ExprId>), v: Slot, rest: ExprId| {
            let cond = e.unwrap_or_else(|| m.arena.konst(Value::Bool(h)));
            let ve = m.expr(v);
            m.arena.mk(Op::Ite, &[cond, ve, rest])
        };
        let mut acc = pick(self, l, vl, m1);
        acc = pick(self, u, vu, acc);
        acc = pick(self, d, vd, acc);
        let rk = self.arena.konst(Value::i32(radix));
        let lt = self.arena.mk(Op::Slt, &[acc, rk]);
        let r = self.arena.mk(Op::Ite, &[lt, acc, m1]);
        Ok(Slot { c: C::I(conc), s: Some(r) })
    }
}
