//! `String.format(format, args...)` and `format.formatted(args...)` for the common conversions of
//! `java.util.Formatter`: `%d` (Integer, Long, Short, Byte), `%x`/`%X` (their two's complement
//! in hexadecimal), `%s`/`%S`, `%c`, `%b`, `%f` (Double, Float) with the flags `-`, `0`, `+`, ` `
//! and `#` where Java allows them, a width, a precision where Java allows one (`%.2f`, `%.3s`),
//! explicit indices (`%2$s`), `%%` and `%n`, as JDK 17's `Formatter` writes them in a locale whose
//! digits are ASCII and whose decimal separator is `.` (the workers' locale on our machines;
//! docs/dse.md). Anything else (grouping, `%e`, `%g`, `%o`, a `BigInteger`, a `Formattable`, a
//! relative index, any format Java would refuse) stops the replay rather than guess.
//!
//! The format is pinned. `%d` and `%x` of an integer keep its value symbolic in the digits (each
//! digit an expression of the value), pinning only the sign and the number of digits, which
//! decide the text's length (`%0Wd` of a value whose text fills the width either way keeps the
//! sign too: `zero_padded_decimal`); `%f` is formatted concretely, its value pinned; `%s` of a
//! string and `%c` of a character keep the characters' shadows. So a parser that formats and
//! then compares or reads back the text stays symbolic in it.

use solver::Op;

use crate::heap::{Ch, Obj, StrVal};
use crate::interp::{Machine, Res, unsupported};
use crate::value::{C, Slot};

/// One conversion of a format string: `%[index$][flags][width][.precision]conversion`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Spec {
    /// `n$`, 1-based.
    index: Option<usize>,
    flags: String,
    width: Option<usize>,
    precision: Option<usize>,
    conversion: char,
}

/// A piece of a format string: literal text or a conversion.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Spec(Spec),
}

/// The pieces of `format`, or `None` where this model does not follow Java (and then stops).
fn parse_format(format: &str) -> Option<Vec<Piece>> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut it = format.chars().peekable();
    while let Some(c) = it.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        let mut digits = String::new();
        while let Some(&d) = it.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(d);
            it.next();
        }
        let mut index = None;
        if it.peek() == Some(&'$') {
            it.next();
            index = Some(digits.parse::<usize>().ok().filter(|&i| i > 0)?);
            digits.clear();
        }
        // Flags come before the width; a leading '0' of the digits read so far is the zero flag.
        let mut flags = String::new();
        if digits.is_empty() {
            while let Some(&f) = it.peek().filter(|f| "-#+ 0,(<".contains(**f)) {
                flags.push(f);
                it.next();
            }
            while let Some(&d) = it.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(d);
                it.next();
            }
        } else if let Some(rest) = digits.strip_prefix('0') {
            flags.push('0');
            digits = rest.to_string();
        }
        let width = if digits.is_empty() { None } else { Some(digits.parse::<usize>().ok()?) };
        let mut precision = None;
        if it.peek() == Some(&'.') {
            it.next();
            let mut p = String::new();
            while let Some(&d) = it.peek().filter(|d| d.is_ascii_digit()) {
                p.push(d);
                it.next();
            }
            precision = Some(p.parse::<usize>().ok()?);
        }
        let conversion = it.next()?;
        if !text.is_empty() {
            out.push(Piece::Text(std::mem::take(&mut text)));
        }
        let spec = Spec { index, flags, width, precision, conversion };
        valid(&spec).then_some(())?;
        out.push(Piece::Spec(spec));
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    Some(out)
}

/// Whether Java accepts `spec` and this model follows it: the flags each conversion allows, a
/// width for `-` and `0`, no precision for integers and characters.
fn valid(s: &Spec) -> bool {
    let allowed = match s.conversion {
        'd' => "-0+ ",
        'x' | 'X' => "-0#",
        'f' => "-0+ #",
        's' | 'S' | 'c' | 'b' => "-",
        '%' | 'n' => "",
        _ => return false,
    };
    let f = &s.flags;
    let unique = f.chars().all(|c| f.matches(c).count() == 1);
    let needs_width = f.contains('-') || f.contains('0');
    unique
        && f.chars().all(|c| allowed.contains(c))
        && !(f.contains('-') && f.contains('0'))
        && !(f.contains('+') && f.contains(' '))
        && (!needs_width || s.width.is_some())
        && (s.precision.is_none() || matches!(s.conversion, 'f' | 's' | 'S' | 'b'))
        && (!matches!(s.conversion, '%' | 'n') || (s.width.is_none() && s.index.is_none()))
}

/// `s` padded with spaces to `width` (on the right with `-`), as `appendJustified`.
fn justify(s: Vec<Ch>, spec: &Spec) -> Vec<Ch> {
    let pad = spec.width.unwrap_or(0).saturating_sub(s.len());
    let spaces = vec![Ch { c: u16::from(b' '), s: None }; pad];
    if spec.flags.contains('-') { [s, spaces].concat() } else { [spaces, s].concat() }
}

fn text_units(s: Vec<Ch>) -> Vec<u16> {
    s.into_iter().map(|c| c.c).collect()
}

fn units(s: &str) -> Vec<Ch> {
    s.encode_utf16().map(|c| Ch { c, s: None }).collect()
}

/// A number's text as `Formatter` writes `%d` and `%f`: the sign (`-`, or `+`/` ` by the
/// flags), the zero padding up to the width after the sign, then the magnitude's digits (spaces
/// to the width come after, in `justify`).
fn signed(neg: bool, magnitude: Vec<Ch>, spec: &Spec) -> Vec<Ch> {
    let f = &spec.flags;
    let mut s = String::new();
    if neg {
        s.push('-');
    } else if f.contains('+') {
        s.push('+');
    } else if f.contains(' ') {
        s.push(' ');
    }
    if f.contains('0') {
        let w = spec.width.unwrap_or(0);
        let have = s.len() + magnitude.len();
        s.push_str(&"0".repeat(w.saturating_sub(have)));
    }
    [units(&s), magnitude].concat()
}

/// `%x`'s prefix (`0x` with `#`) and zeros up to the width (with `0`) before `digits`; upper
/// case for `%X`.
fn hex(digits: Vec<Ch>, spec: &Spec) -> Vec<Ch> {
    let prefix = match (spec.flags.contains('#'), spec.conversion == 'X') {
        (false, _) => "",
        (true, false) => "0x",
        (true, true) => "0X",
    };
    let zeros = if spec.flags.contains('0') {
        spec.width.unwrap_or(0).saturating_sub(digits.len() + prefix.len())
    } else {
        0
    };
    [units(&format!("{prefix}{}", "0".repeat(zeros))), digits].concat()
}

/// `%.Nf` of a finite, non-negative `v`: JDK 17's `FormattedFloatingDecimal` in its
/// `DECIMAL_FLOAT` form, which rounds `Double.toString`'s digits half up (not the binary value:
/// `%.1f` of 0.15 is 0.2, of 0.25 is 0.3), then `Formatter.addZeros`.
pub(crate) fn decimal_float(v: f64, precision: usize) -> String {
    let (mut digits, mut exp) = shortest_digits(v);
    let prec = exp + precision as i64;
    let n = digits.len() as i64;
    if (0..n).contains(&prec) {
        if prec == 0 {
            if digits[0] >= b'5' {
                digits = vec![b'1'];
                exp += 1;
            } else {
                digits = vec![b'0'];
            }
        } else {
            let p = prec as usize;
            let round_up = digits[p] >= b'5';
            digits.truncate(p);
            if round_up {
                let mut i = p;
                while i > 0 && digits[i - 1] == b'9' {
                    digits[i - 1] = b'0';
                    i -= 1;
                }
                if i == 0 {
                    digits.insert(0, b'1');
                    digits.truncate(p);
                    exp += 1;
                } else {
                    digits[i - 1] += 1;
                }
            }
        }
    }
    let digits: String = digits.iter().map(|&d| d as char).collect();
    let mut out = if exp > 0 {
        let e = exp as usize;
        if digits.len() <= e {
            format!("{digits}{}", "0".repeat(e - digits.len()))
        } else {
            let frac: String = digits[e..].chars().take(precision).collect();
            if frac.is_empty() { digits[..e].to_string() } else { format!("{}.{frac}", &digits[..e]) }
        }
    } else {
        let zeros = ((-exp) as usize).min(precision);
        let t = (digits.len() as i64).min(precision as i64 + exp).max(0) as usize;
        if zeros > 0 || t > 0 { format!("0.{}{}", "0".repeat(zeros), &digits[..t]) } else { "0".to_string() }
    };
    // addZeros: a point and zeros up to the precision.
    let have = out.find('.').map_or(0, |i| out.len() - i - 1);
    if have < precision {
        if !out.contains('.') {
            out.push('.');
        }
        out.push_str(&"0".repeat(precision - have));
    }
    out
}

/// `Double.toString`'s significant digits (the shortest that round-trip: JDK 17's
/// `FloatingDecimal` gives one more in rare cases, such as 4.9E-324 for `Double.MIN_VALUE`, as
/// `strings::java_double` also does not follow) of a finite `v >= 0` and its decimal exponent `e`
/// (`v = 0.d1d2... × 10^e`); zero is `"0"` with exponent 1.
fn shortest_digits(v: f64) -> (Vec<u8>, i64) {
    if v == 0.0 {
        return (vec![b'0'], 1);
    }
    let sci = format!("{v:e}");
    let (mant, e) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: Vec<u8> = mant.bytes().filter(u8::is_ascii_digit).collect();
    (digits, e.parse::<i64>().unwrap_or(0) + 1)
}

impl Machine<'_, '_> {
    /// `String.format(String, Object...)` (`format` the first argument) and `formatted(Object...)`
    /// (`format` the receiver).
    pub(crate) fn string_format(&mut self, format: Slot, args: Slot) -> Res<Option<Slot>> {
        let Some(f) = format.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "format(null)");
        };
        let fs = self.concrete_str(f)?;
        let text = fs.to_rust();
        let Some(pieces) = parse_format(&text) else {
            return unsupported(format!("String.format of {text:?}"));
        };
        let Some(a) = args.as_ref() else { return unsupported("String.format with a null argument array") };
        let elems = match self.heap.get(a) {
            Obj::Array { elems, .. } => elems.clone(),
            _ => return unsupported("String.format's arguments"),
        };
        // The parts, each with its own length (a leading `%s` of an input keeps the input's
        // length symbolic: `concat_parts`).
        let mut out: Vec<StrVal> = Vec::new();
        let mut next = 0;
        for piece in pieces {
            let spec = match piece {
                Piece::Text(t) => {
                    out.push(StrVal::from_chars(units(&t)));
                    continue;
                }
                Piece::Spec(s) => s,
            };
            match spec.conversion {
                '%' => out.push(StrVal::from_chars(units("%"))),
                'n' => out.push(StrVal::from_chars(units("\n"))),
                _ => {
                    let i = spec.index.map_or_else(
                        || {
                            next += 1;
                            next - 1
                        },
                        |i| i - 1,
                    );
                    let Some(&arg) = elems.get(i) else {
                        return unsupported("String.format with a missing argument");
                    };
                    let piece = self.format_one(&spec, arg)?;
                    out.push(piece);
                }
            }
        }
        let sv = self.concat_parts(out);
        Ok(Some(self.new_string(sv)))
    }

    /// One conversion of `arg`.
    fn format_one(&mut self, spec: &Spec, arg: Slot) -> Res<StrVal> {
        let class = arg.as_ref().map(|o| self.heap.class_of(o));
        let class = class.as_deref();
        if arg.as_ref().is_some()
            && matches!(spec.conversion, 's' | 'S')
            && class.is_some_and(|c| self.db.is_subtype(c, "java/util/Formattable"))
        {
            return unsupported("String.format of a Formattable");
        }
        let value = match (arg.as_ref(), class) {
            (Some(o), Some(c)) if crate::models::boxes::prim_of(c).is_some() => Some(self.unbox(o)?),
            _ => None,
        };
        let text = match (spec.conversion, class, value) {
            ('s', None, _) | ('S', None, _) => units("null"),
            ('s', Some("java/lang/String"), _) if spec.width.is_none() && spec.precision.is_none() => {
                // The string as it is, its length shadow kept.
                return arg.as_ref().map_or_else(|| Ok(StrVal::default()), |o| self.str_of(o));
            }
            ('s', Some("java/lang/String"), _) if let Some(o) = arg.as_ref() => {
                let mut sv = self.fixed_str(o)?.chars;
                if let Some(p) = spec.precision {
                    sv.truncate(p);
                }
                sv
            }
            ('s' | 'S', Some(_), _) => {
                let sv = self.string_of(arg, "Ljava/lang/Object;")?;
                let mut chars = sv.chars;
                if let Some(p) = spec.precision {
                    chars.truncate(p);
                }
                if spec.conversion == 'S' {
                    for ch in chars.iter().filter(|c| c.s.is_some()).copied().collect::<Vec<_>>() {
                        let s = self.char_slot(ch);
                        self.pin(s);
                    }
                    let t = String::from_utf16_lossy(&chars.iter().map(|c| c.c).collect::<Vec<_>>());
                    units(&t.to_uppercase())
                } else {
                    chars
                }
            }
            ('b', _, _) => {
                let b = match (class, value) {
                    (None, _) => false,
                    (Some("java/lang/Boolean"), Some(v)) => self.pin(v).as_int() != 0,
                    _ => true,
                };
                let s = b.to_string();
                units(&s[..spec.precision.unwrap_or(s.len()).min(s.len())])
            }
            ('c', Some("java/lang/Character"), Some(v)) => vec![self.int_to_char(v)],
            ('d' | 'x' | 'X', Some(c), Some(v))
                if matches!(
                    c,
                    "java/lang/Integer" | "java/lang/Long" | "java/lang/Short" | "java/lang/Byte"
                ) =>
            {
                let bits = match c {
                    "java/lang/Long" => 64,
                    "java/lang/Integer" => 32,
                    "java/lang/Short" => 16,
                    _ => 8,
                };
                let wide = if v.wide() { v } else { self.chain(&[Op::SignExt(64)], v) };
                // With the zero flag the digits fill the width, whatever their own number.
                let width = if spec.flags.contains('0') { spec.width.unwrap_or(0) } else { 0 };
                if spec.conversion == 'd'
                    && let Some(text) = self.zero_padded_decimal(wide, spec)
                {
                    text
                } else if spec.conversion == 'd' {
                    let sign = wide.as_long() < 0 || spec.flags.contains(['+', ' ']);
                    let min = width.saturating_sub(usize::from(sign)).max(1) as u32;
                    let (neg, digits) = self.decimal_digits(wide, min);
                    signed(neg, digits, spec)
                } else {
                    let upper = spec.conversion == 'X';
                    let prefix = if spec.flags.contains('#') { 2 } else { 0 };
                    let digits = self.hex_digits(wide, bits, upper, width.saturating_sub(prefix).max(1));
                    hex(digits, spec)
                }
            }
            ('f', Some("java/lang/Double" | "java/lang/Float"), Some(v)) => {
                let x = match self.pin(v).c {
                    C::D(b) => f64::from_bits(b),
                    C::F(b) => f64::from(f32::from_bits(b)),
                    _ => return unsupported("String.format of a strange number"),
                };
                units(&self.format_float(x, spec)?)
            }
            _ => {
                return unsupported(format!(
                    "String.format's %{} of a {}",
                    spec.conversion,
                    class.unwrap_or("null")
                ));
            }
        };
        Ok(StrVal::from_chars(justify(text, spec)))
    }

    /// `%0Wd` (no other flag) of a symbolic long `x` whose text fills the width whichever its
    /// sign, `-10^(W-1) < x < 10^W` (W digits, or a minus and W - 1 digits): the sign stays
    /// symbolic, the first character being `x < 0 ? '-' : its digit` and the others the digits
    /// of `|x|`, and only that range is pinned. `decimal_digits` pins the sign, so a test with a
    /// negative number could never give a query for a text without a minus (`"%s-%04d"` of -1
    /// is `"…--001"`; `"AB-0042"` needs 42). `None` where this does not apply.
    fn zero_padded_decimal(&mut self, x: Slot, spec: &Spec) -> Option<Vec<Ch>> {
        let w = u32::try_from(spec.width?).ok().filter(|w| (2..=18).contains(w))?;
        if x.s.is_none() || spec.flags != "0" {
            return None;
        }
        let (lo, hi) = (-(10i64.pow(w - 1)), 10i64.pow(w));
        let n = x.as_long();
        if n <= lo || n >= hi {
            return None;
        }
        let (neg, Some(is_neg)) = self.cond(Op::Slt, &[x, Slot::long(0)]) else { return None };
        for (op, bound) in [(Op::Sgt, lo), (Op::Slt, hi)] {
            let (holds, e) = self.cond(op, &[x, Slot::long(bound)]);
            self.pin_cond(holds, e);
        }
        let minus = self.op(Op::Neg, &[x]);
        let (xe, me) = (self.expr(x), self.expr(minus));
        let abs = self.arena.mk(Op::Ite, &[is_neg, me, xe]);
        let m = Slot { c: C::J(n.unsigned_abs() as i64), s: Some(abs) };
        let mut codes = self.digit_codes(m, w);
        let first = codes[0];
        let (dash, digit) = (self.arena.konst(solver::Value::i32(i32::from(b'-'))), self.expr(first));
        let e = self.arena.mk(Op::Ite, &[is_neg, dash, digit]);
        codes[0] = Slot { c: C::I(if neg { i32::from(b'-') } else { first.as_int() }), s: Some(e) };
        Some(codes.into_iter().map(|c| self.int_to_char(c)).collect())
    }

    /// The hexadecimal digits of the low `bits` bits of `x` (a long), at least `min` of them
    /// (leading zeros), with shadows: the number of digits pinned (only its bound when `min`
    /// digits hold the value), each digit `(u >>> 4j) & 15` as '0'..'9' or 'a'..'f' ('A'..'F').
    pub(crate) fn hex_digits(&mut self, x: Slot, bits: u8, upper: bool, min: usize) -> Vec<Ch> {
        let u = if bits == 64 { x } else { self.chain(&[Op::Extract(bits), Op::ZeroExt(64)], x) };
        let n = u.as_long() as u64;
        if u.s.is_none() {
            let t = format!("{n:0>min$x}");
            return units(&if upper { t.to_uppercase() } else { t });
        }
        let own = format!("{n:x}").len();
        let k = own.max(min).min(16) as i64;
        if k > 1 && own >= min {
            let top = self.op(Op::LShr, &[u, Slot::long(4 * (k - 1))]);
            let (h, e) = self.cond(Op::Ne, &[top, Slot::long(0)]);
            self.pin_cond(h, e);
        }
        if k < 16 {
            let above = self.op(Op::LShr, &[u, Slot::long(4 * k)]);
            let (h, e) = self.cond(Op::Eq, &[above, Slot::long(0)]);
            self.pin_cond(h, e);
        }
        let letter = i32::from(if upper { b'A' } else { b'a' }) - 10;
        (0..k)
            .map(|i| {
                let sh = self.op(Op::LShr, &[u, Slot::long(4 * (k - 1 - i))]);
                let d = self.op(Op::And, &[sh, Slot::long(15)]);
                let d = self.chain(&[Op::Extract(32)], d);
                let (digit, e) = self.cond(Op::Slt, &[d, Slot::int(10)]);
                let as_digit = self.op(Op::Add, &[d, Slot::int(i32::from(b'0'))]);
                let as_letter = self.op(Op::Add, &[d, Slot::int(letter)]);
                let c = match e {
                    None => {
                        if digit {
                            as_digit
                        } else {
                            as_letter
                        }
                    }
                    Some(e) => {
                        let (x, y) = (self.expr(as_digit), self.expr(as_letter));
                        let pick = self.arena.mk(Op::Ite, &[e, x, y]);
                        Slot { c: if digit { as_digit.c } else { as_letter.c }, s: Some(pick) }
                    }
                };
                self.int_to_char(c)
            })
            .collect()
    }

    /// `%f` of a double: NaN and the infinities spelled out, zero padding only for finite values.
    fn format_float(&mut self, x: f64, spec: &Spec) -> Res<String> {
        if x.is_nan() {
            return Ok("NaN".into());
        }
        // Double.compare(x, 0.0) == -1: -0.0 is negative too.
        let neg = x.is_sign_negative();
        if x.is_infinite() {
            let no_zeros = Spec { flags: spec.flags.replace('0', ""), ..spec.clone() };
            return Ok(String::from_utf16_lossy(&text_units(signed(neg, units("Infinity"), &no_zeros))));
        }
        let p = spec.precision.unwrap_or(6);
        let mut mag = decimal_float(x.abs(), p);
        if spec.flags.contains('#') && p == 0 {
            mag.push('.');
        }
        Ok(String::from_utf16_lossy(&text_units(signed(neg, units(&mag), spec))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_strings_parse_as_java_reads_them() {
        let p = parse_format("a%05d|%-3s%%%n%2$x%.2f").expect("parses");
        let specs: Vec<String> = p
            .iter()
            .map(|x| match x {
                Piece::Text(t) => format!("text {t:?}"),
                Piece::Spec(s) => {
                    format!("{:?} {:?} {:?} {:?} {}", s.index, s.flags, s.width, s.precision, s.conversion)
                }
            })
            .collect();
        expect_test::expect![[r#"
            [
                "text \"a\"",
                "None \"0\" Some(5) None d",
                "text \"|\"",
                "None \"-\" Some(3) None s",
                "None \"\" None None %",
                "None \"\" None None n",
                "Some(2) \"\" None None x",
                "None \"\" None Some(2) f",
            ]
        "#]]
        .assert_debug_eq(&specs);
        for refused in ["%-d", "%05s", "%+ d", "%,d", "%e", "%.2d", "%<s", "%", "%0$s", "%-0 5d"] {
            assert_eq!(parse_format(refused), None, "{refused}");
        }
    }
}
