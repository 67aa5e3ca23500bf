//! Strings as the models see them: the contents of a string object with shadows (the input's
//! length pinned where a result's shape depends on it), `String.valueOf` of every JVM type (Java's
//! number formatting; an integer's digits symbolic), the characters of string inputs made on demand, and the `BootstrapMethods`
//! entries `invokedynamic` string concatenation needs.

use classfile::{ClassFile, Constant};
use solver::{ExprId, Op, Sort, Value};

use crate::heap::{Ch, Obj, StrInput, StrVal};
use crate::interp::{Machine, Res, unsupported};
use crate::invoke::CallKind;
use crate::value::{C, ObjId, Slot};
use crate::{EntryKind, Input, InputOrigin, NO_GOAL};

/// The nodes one concatenation may spend on keeping its first part's length symbolic (one
/// position per character of a string of up to `max_string` characters, each an `ite` chain over
/// the other parts' characters): a parser's input and a few literals fit many times over.
const MAX_CONCAT_NODES: usize = 1 << 16;

impl Machine<'_, '_> {
    /// The contents of a String or builder object, as a value whose length is concrete: an input's
    /// symbolic length is pinned first (the caller's result depends on the exact length).
    pub(crate) fn fixed_str(&mut self, o: ObjId) -> Res<StrVal> {
        let sv = match self.heap.get(o) {
            Obj::Str(s) => s.clone(),
            Obj::Builder { val, .. } => val.clone(),
            _ => return unsupported(format!("a string operation on a {}", self.heap.class_of(o))),
        };
        if let Some(l) = sv.len {
            self.pin(Slot { c: C::I(sv.chars.len() as i32), s: Some(l) });
            self.set_len_shadow(o, None);
        }
        Ok(StrVal { len: None, tail: Vec::new(), ..sv })
    }

    /// `fixed_str` with every symbolic character pinned too: for a model whose result depends on
    /// the whole text (a pattern, a format, a number's digits it does not model).
    pub(crate) fn concrete_str(&mut self, o: ObjId) -> Res<StrVal> {
        let sv = self.fixed_str(o)?;
        for ch in sv.chars.iter().filter(|c| c.s.is_some()).copied().collect::<Vec<_>>() {
            let s = self.char_slot(ch);
            self.pin(s);
        }
        Ok(sv)
    }

    /// The contents of a String or builder, length shadow kept.
    pub(crate) fn str_of(&self, o: ObjId) -> Res<StrVal> {
        match self.heap.get(o) {
            Obj::Str(s) => Ok(s.clone()),
            Obj::Builder { val, .. } => Ok(val.clone()),
            _ => unsupported(format!("a string operation on a {}", self.heap.class_of(o))),
        }
    }

    fn set_len_shadow(&mut self, o: ObjId, l: Option<ExprId>) {
        let clear = |s: &mut StrVal| {
            s.len = l;
            if l.is_none() {
                s.tail.clear();
            }
        };
        match self.heap.get_mut(o) {
            Obj::Str(s) => clear(s),
            Obj::Builder { val, .. } => clear(val),
            _ => {}
        }
    }

    /// The concatenation of `parts`. When the first part has a symbolic length (an input's) and
    /// the others concrete lengths, the result keeps it: its length is `len0 + m` and position
    /// `k` holds `ite(k < len0, first[k], rest[k - len0])` for every position a string of up to
    /// `max_string` characters makes (the positions past this run's length in `tail`). Otherwise
    /// every symbolic length is pinned first.
    pub(crate) fn concat_parts(&mut self, mut parts: Vec<StrVal>) -> StrVal {
        let symbolic_first = parts.first().is_some_and(|p| p.len.is_some());
        // The symbolic length costs `bound × (m + 4)` nodes (below), and a loop that appends to
        // its own result pays it again in every round: a result longer than a few inputs pins
        // its length instead, so that such a loop stays linear after a few rounds.
        let m: usize = parts.iter().skip(1).map(|p| p.chars.len()).sum();
        let n = parts.first().map_or(0, |p| p.chars.len());
        let max = self.cfg.max_string as usize;
        let bound = max.max(n) + m;
        let affordable = n + m <= 4 * max && bound.saturating_mul(m + 4) <= MAX_CONCAT_NODES;
        if !symbolic_first || !affordable || parts.iter().skip(1).any(|p| p.len.is_some()) {
            let mut out = StrVal::default();
            for p in parts {
                if let Some(l) = p.len {
                    self.pin(Slot { c: C::I(p.chars.len() as i32), s: Some(l) });
                }
                out.chars.extend(p.chars);
            }
            return out;
        }
        let first = parts.remove(0);
        let rest: Vec<Ch> = parts.into_iter().flat_map(|p| p.chars).collect();
        let Some(len0) = first.len else { return StrVal::default() };
        let mut chars: Vec<Ch> = first.chars.iter().copied().chain(rest.iter().copied()).collect();
        let mut tail = Vec::new();
        let zero = self.arena.konst(Value::char(0));
        for k in 0..bound {
            let kk = self.arena.konst(Value::i32(k as i32));
            let inside = self.arena.mk(Op::Ult, &[kk, len0]);
            let own = self.char_expr(&first, k);
            let j = self.arena.mk(Op::Sub, &[kk, len0]);
            let mut other = zero;
            for (jj, ch) in rest.iter().enumerate().rev() {
                let jk = self.arena.konst(Value::i32(jj as i32));
                let at = self.arena.mk(Op::Eq, &[j, jk]);
                let c = ch.s.unwrap_or_else(|| self.arena.konst(Value::char(ch.c)));
                other = self.arena.mk(Op::Ite, &[at, c, other]);
            }
            let e = self.arena.mk(Op::Ite, &[inside, own, other]);
            match chars.get_mut(k) {
                Some(ch) => ch.s = Some(e),
                None => tail.push(e),
            }
        }
        let mk = self.arena.konst(Value::i32(m as i32));
        let len = self.arena.mk(Op::Add, &[len0, mk]);
        self.sym_insn = true;
        StrVal { chars, len: Some(len), input: None, tail }
    }

    /// A string argument of a concatenation, its length kept symbolic when it is an input's.
    pub(crate) fn concat_arg(&mut self, a: Slot, desc: &str) -> Res<StrVal> {
        if desc == "Ljava/lang/String;"
            && let Some(o) = a.as_ref()
            && let Obj::Str(s) = self.heap.get(o)
        {
            return Ok(s.clone());
        }
        self.string_of(a, desc)
    }

    /// The length of a string as a JVM int with its shadow.
    pub(crate) fn str_len(&self, sv: &StrVal) -> Slot {
        Slot { c: C::I(sv.chars.len() as i32), s: sv.len }
    }

    /// Character `k` of string `sv` as a Bv(16) expression: its shadow, the input variable made on
    /// demand (also past the concrete length, up to `max_string`), or the constant.
    pub(crate) fn char_expr(&mut self, sv: &StrVal, k: usize) -> ExprId {
        if let Some(ch) = sv.chars.get(k) {
            if let Some(s) = ch.s {
                self.sym_insn = true;
                return s;
            }
            return self.arena.konst(Value::char(ch.c));
        }
        if let Some(&e) = sv.tail.get(k - sv.chars.len()) {
            return e;
        }
        let past = match sv.input {
            Some(StrInput::Stmt(stmt)) if k < self.cfg.max_string as usize => {
                Some(self.input_char(stmt, k as u32, 0))
            }
            Some(StrInput::Fresh(i)) if k < self.cfg.max_string as usize => self.lazy_char(i, k as u32),
            _ => None,
        };
        past.unwrap_or_else(|| self.arena.konst(Value::char(0)))
    }

    /// The variable of character `index` of the String statement `stmt` (hint: `hint`).
    pub(crate) fn input_char(&mut self, stmt: usize, index: u32, hint: u16) -> ExprId {
        if let Some(&e) = self.str_chars.get(&(StrInput::Stmt(stmt), index)) {
            return e;
        }
        let (v, e) = self.arena.var(Sort::Bv(16), &format!("s{stmt}[{index}]"));
        self.inputs.push(Input { var: v, origin: InputOrigin::StrChar { stmt, index } });
        self.hint.insert(v, Value::char(hint));
        self.str_chars.insert((StrInput::Stmt(stmt), index), e);
        e
    }

    /// Records that a string input's length `le` is in `0..=max`: every string the solver proposes
    /// can be built (a test's string input, a fresh string of an exploration).
    pub(crate) fn assume_string_length(&mut self, le: ExprId, max: u32) {
        let zero = self.arena.konst(Value::i32(0));
        let mk = self.arena.konst(Value::i32(max as i32));
        let lo = self.arena.mk(Op::Sle, &[zero, le]);
        let hi = self.arena.mk(Op::Sle, &[le, mk]);
        let both = self.arena.mk(Op::And2, &[lo, hi]);
        self.record(EntryKind::Assume, both, NO_GOAL, None);
    }

    /// A character's JVM int value (zero-extended) with its shadow.
    pub(crate) fn char_slot(&mut self, ch: Ch) -> Slot {
        match ch.s {
            None => Slot::int(i32::from(ch.c)),
            Some(e) => {
                self.sym_insn = true;
                let w = self.arena.mk(Op::ZeroExt(32), &[e]);
                Slot { c: C::I(i32::from(ch.c)), s: Some(w) }
            }
        }
    }

    /// A JVM int as a character (its low 16 bits), with its shadow.
    pub(crate) fn int_to_char(&mut self, s: Slot) -> Ch {
        let c = s.as_int() as u16;
        match s.s {
            None => Ch { c, s: None },
            Some(e) => {
                self.sym_insn = true;
                Ch { c, s: Some(self.arena.mk(Op::Extract(16), &[e])) }
            }
        }
    }

    /// The decimal digits of a long's magnitude, at least `min` of them (leading zeros, as `%0Nd`
    /// pads), and its sign, with shadows: the sign and the number of digits pinned
    /// (`10^(k-1) <= |n| < 10^k`; only the upper bound when `min` digits hold the value), each
    /// digit `|n| / 10^j % 10` of the value. `Long.MIN_VALUE`, whose magnitude is no long, is
    /// pinned.
    pub(crate) fn decimal_digits(&mut self, x: Slot, min: u32) -> (bool, Vec<Ch>) {
        let n = x.as_long();
        if x.s.is_none() || n == i64::MIN {
            let n = self.pin(x).as_long();
            let text = format!("{:0>w$}", n.unsigned_abs(), w = min as usize);
            return (n < 0, StrVal::concrete(&text.encode_utf16().collect::<Vec<u16>>()).chars);
        }
        let (neg, e) = self.cond(Op::Slt, &[x, Slot::long(0)]);
        self.pin_cond(neg, e);
        let m = if neg { self.op(Op::Neg, &[x]) } else { x };
        let own = n.unsigned_abs().to_string().len() as u32;
        let k = own.max(min).min(19);
        if k > 1 && own >= min {
            let (h, e) = self.cond(Op::Sge, &[m, Slot::long(10i64.pow(k - 1))]);
            self.pin_cond(h, e);
        }
        if k < 19 {
            let (h, e) = self.cond(Op::Slt, &[m, Slot::long(10i64.pow(k))]);
            self.pin_cond(h, e);
        }
        let digits = self.digit_codes(m, k).into_iter().map(|c| self.int_to_char(c)).collect();
        (neg, digits)
    }

    /// The `k` decimal digits of a non-negative long `m` (leading zeros), each as the int code of
    /// its character, `'0' + m / 10^j % 10`, with shadows.
    pub(crate) fn digit_codes(&mut self, m: Slot, k: u32) -> Vec<Slot> {
        (0..k)
            .map(|i| {
                let q = self.op(Op::SDiv, &[m, Slot::long(10i64.pow(k - 1 - i))]);
                let d = self.op(Op::SRem, &[q, Slot::long(10)]);
                let d = self.chain(&[Op::Extract(32)], d);
                self.op(Op::Add, &[d, Slot::int(i32::from(b'0'))])
            })
            .collect()
    }

    /// `String.valueOf` of a value of descriptor `desc` (the string conversion of JLS §5.1.11).
    /// An integral number keeps its value in its digits (`decimal_digits`: only the sign and the
    /// number of digits pinned; pinned whole without the parser models); floating-point numbers
    /// and booleans are formatted concretely, their shadows pinned; a char keeps its shadow; an
    /// object other than a string goes through its `toString()`.
    pub(crate) fn string_of(&mut self, a: Slot, desc: &str) -> Res<StrVal> {
        let text = match desc {
            "C" => {
                let ch = self.int_to_char(a);
                return Ok(StrVal { chars: vec![ch], len: None, input: None, tail: Vec::new() });
            }
            "Z" => (if self.pin(a).as_int() != 0 { "true" } else { "false" }).to_string(),
            "I" | "S" | "B" | "J" if self.cfg.parser_models && a.s.is_some() => {
                let wide = if a.wide() { a } else { self.chain(&[Op::SignExt(64)], a) };
                let (neg, digits) = self.decimal_digits(wide, 1);
                let sign = neg.then_some(Ch { c: u16::from(b'-'), s: None });
                return Ok(StrVal::from_chars(sign.into_iter().chain(digits).collect()));
            }
            "I" | "S" | "B" => self.pin(a).as_int().to_string(),
            "J" => self.pin(a).as_long().to_string(),
            "F" => match self.pin(a).c {
                C::F(b) => java_float(f32::from_bits(b)),
                _ => String::new(),
            },
            "D" => match self.pin(a).c {
                C::D(b) => java_double(f64::from_bits(b)),
                _ => String::new(),
            },
            _ => return self.object_string(a),
        };
        Ok(StrVal::concrete(&text.encode_utf16().collect::<Vec<u16>>()))
    }

    fn object_string(&mut self, a: Slot) -> Res<StrVal> {
        let Some(o) = a.as_ref() else {
            return Ok(StrVal::concrete(&"null".encode_utf16().collect::<Vec<_>>()));
        };
        if matches!(self.heap.get(o), Obj::Str(_) | Obj::Builder { .. }) {
            return self.fixed_str(o);
        }
        let r =
            self.call(CallKind::Virtual, "java/lang/Object", "toString", "()Ljava/lang/String;", vec![a])?;
        match r.and_then(|s| s.as_ref()) {
            Some(s) => self.fixed_str(s),
            None => Ok(StrVal::concrete(&"null".encode_utf16().collect::<Vec<_>>())),
        }
    }

    /// A new String object of these contents.
    pub(crate) fn new_string(&mut self, sv: StrVal) -> Slot {
        Slot::obj(self.heap.alloc(Obj::Str(sv)))
    }

    pub(crate) fn new_rust_string(&mut self, s: &str) -> Slot {
        let units: Vec<u16> = s.encode_utf16().collect();
        self.new_string(StrVal::concrete(&units))
    }
}

/// A static argument of a bootstrap method.
#[derive(Clone, Debug)]
pub(crate) enum BsmArg {
    /// A string or number constant, as text.
    Text(Vec<u16>),
    /// A method handle: reference kind (JVMS §5.4.3.5), class, name, descriptor.
    Handle {
        kind: u8,
        class: String,
        name: String,
        desc: String,
    },
    Other,
}

/// Entry `index` of the class's `BootstrapMethods` attribute (JVMS §4.7.23): the bootstrap
/// method's class and name, and its static arguments. The attribute's layout is read here from
/// its raw bytes: `classfile` keeps attributes it does not model as bytes.
pub(crate) fn bootstrap(file: &ClassFile, index: u16) -> Option<(String, String, Vec<BsmArg>)> {
    let cp = &file.constant_pool;
    let attr = file.attribute("BootstrapMethods")?;
    let b = &attr.info;
    let u2 = |at: usize| -> Option<u16> { Some(u16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?])) };
    let n = u2(0)?;
    let mut at = 2;
    for i in 0..n {
        let mh = u2(at)?;
        let nargs = usize::from(u2(at + 2)?);
        if i == index {
            let Constant::MethodHandle { reference_index, .. } = cp.get(mh)? else { return None };
            let r = cp.member_ref(*reference_index)?;
            let mut args = Vec::new();
            for k in 0..nargs {
                args.push(bsm_arg(cp, u2(at + 4 + 2 * k)?));
            }
            return Some((r.class.into_owned(), r.name.into_owned(), args));
        }
        at += 4 + 2 * nargs;
    }
    None
}

fn bsm_arg(cp: &classfile::ConstantPool, a: u16) -> BsmArg {
    let text = |t: String| BsmArg::Text(t.encode_utf16().collect());
    match cp.get(a) {
        Some(Constant::String { string_index }) => {
            cp.utf8(*string_index).map_or(BsmArg::Other, |s| text(s.into_owned()))
        }
        Some(Constant::Integer(v)) => text(v.to_string()),
        Some(Constant::Long(v)) => text(v.to_string()),
        Some(Constant::Float(v)) => text(java_float(f32::from_bits(*v))),
        Some(Constant::Double(v)) => text(java_double(f64::from_bits(*v))),
        Some(Constant::MethodHandle { reference_kind, reference_index }) => {
            match cp.member_ref(*reference_index) {
                Some(r) => BsmArg::Handle {
                    kind: *reference_kind,
                    class: r.class.into_owned(),
                    name: r.name.into_owned(),
                    desc: r.descriptor.into_owned(),
                },
                None => BsmArg::Other,
            }
        }
        _ => BsmArg::Other,
    }
}

/// `Double.toString` (JLS §5.1.11: plain notation for 1e-3 <= |d| < 1e7, computerized
/// scientific notation otherwise), from the shortest representation that round-trips.
pub(crate) fn java_double(v: f64) -> String {
    java_fp(v, format!("{v:e}"))
}

pub(crate) fn java_float(v: f32) -> String {
    java_fp(f64::from(v), format!("{v:e}"))
}

fn java_fp(v: f64, sci: String) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // `sci` is Rust's shortest round-trip digits as `d.ddde[-]x`.
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let sign = if neg { "-" } else { "" };
    let a = v.abs();
    if (1e-3..1e7).contains(&a) {
        let point = exp + 1;
        let s = if point <= 0 {
            format!("0.{}{}", "0".repeat((-point) as usize), digits)
        } else if point as usize >= digits.len() {
            format!("{}{}.0", digits, "0".repeat(point as usize - digits.len()))
        } else {
            format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
        };
        return format!("{sign}{s}");
    }
    let frac = if digits.len() > 1 { &digits[1..] } else { "0" };
    format!("{sign}{}.{}E{exp}", &digits[..1], frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_number_formatting() {
        assert_eq!(java_double(1.0), "1.0");
        assert_eq!(java_double(0.1), "0.1");
        assert_eq!(java_double(-13.5), "-13.5");
        assert_eq!(java_double(1e7), "1.0E7");
        assert_eq!(java_double(1.5e-4), "1.5E-4");
        assert_eq!(java_double(0.001), "0.001");
        assert_eq!(java_double(123456.789), "123456.789");
        assert_eq!(java_float(0.1), "0.1");
        assert_eq!(java_double(f64::NAN), "NaN");
    }
}
