//! Instructions that only move values (and their shadows): constants, `ldc`, local loads and
//! stores, `iinc`, and the operand-stack shuffles (`dup*`, `pop*`, `swap`) by value category.

use bytecode::Opcode;
use classfile::Constant;
use solver::Op;

use crate::interp::{Frame, Machine, Next, Res, unsupported};
use crate::value::{C, Slot};

impl<'a> Machine<'a, '_> {
    /// `aconst_null`, `iconst_*`, `lconst_*`, `fconst_*`, `dconst_*`.
    pub(crate) fn constant(&mut self, f: &mut Frame<'a>, op: Opcode) -> Res<Next> {
        let c = match op.0 {
            0x00 => return Ok(Next::Go),
            0x01 => C::R(None),
            0x02..=0x08 => C::I(i32::from(op.0) - 3),
            0x09 | 0x0a => C::J(i64::from(op.0 - 0x09)),
            0x0b..=0x0d => C::F((f32::from(op.0 - 0x0b)).to_bits()),
            _ => C::D((f64::from(op.0 - 0x0e)).to_bits()),
        };
        f.push(Slot::conc(c));
        Ok(Next::Go)
    }

    /// `ldc`, `ldc_w`, `ldc2_w`: numbers, string literals (interned), class literals.
    pub(crate) fn ldc(&mut self, f: &mut Frame<'a>, index: u16) -> Res<Next> {
        let s = match f.cp.get(index) {
            Some(Constant::Integer(v)) => Slot::int(*v),
            Some(Constant::Float(b)) => Slot::conc(C::F(*b)),
            Some(Constant::Long(v)) => Slot::long(*v),
            Some(Constant::Double(b)) => Slot::conc(C::D(*b)),
            Some(Constant::String { string_index }) => {
                let Some(units) = f.cp.utf8_bytes(*string_index).and_then(mutf8_units) else {
                    return unsupported("bad string constant");
                };
                Slot::obj(self.heap.literal(&units))
            }
            Some(Constant::Class { .. }) => {
                let name = f.cp.class_name(index).map(|c| c.into_owned()).unwrap_or_default();
                Slot::obj(self.heap.mirror(&name))
            }
            other => return unsupported(format!("ldc of {other:?}")),
        };
        f.push(s);
        Ok(Next::Go)
    }

    pub(crate) fn local(&mut self, f: &mut Frame<'a>, op: Opcode, var: u16) -> Res<Next> {
        let Some((kind, store, _)) = op.local_access() else {
            return unsupported(format!("instruction {}", op.name()));
        };
        let v = usize::from(var);
        if v + usize::from(kind.slots()) > f.locals.len() {
            return unsupported("local variable index out of range");
        }
        if store {
            let s = f.pop();
            f.locals[v] = s;
            if kind.slots() == 2 {
                f.locals[v + 1] = Slot::TOP;
            }
        } else {
            let s = f.locals[v];
            f.push(s);
        }
        Ok(Next::Go)
    }

    pub(crate) fn iinc(&mut self, f: &mut Frame<'a>, var: u16, delta: i16) -> Res<Next> {
        let v = usize::from(var);
        let Some(&cur) = f.locals.get(v) else { return unsupported("local variable index out of range") };
        f.locals[v] = self.op(Op::Add, &[cur, Slot::int(i32::from(delta))]);
        Ok(Next::Go)
    }

    /// `pop` .. `swap` (JVMS §6.5): forms 1 and 2 chosen by the category of the values on top.
    pub(crate) fn stack_op(&mut self, f: &mut Frame<'a>, op: Opcode) -> Res<Next> {
        let st = &mut f.stack;
        let n = st.len();
        let wide_at = |st: &Vec<Slot>, k: usize| n >= k && st[n - k].wide();
        match op.0 {
            0x57 => {
                st.pop();
            }
            0x58 => {
                let w = wide_at(st, 1);
                st.pop();
                if !w {
                    st.pop();
                }
            }
            0x59 => {
                let top = *st.last().unwrap_or(&Slot::TOP);
                st.push(top);
            }
            0x5a if n >= 2 => st.insert(n - 2, st[n - 1]),
            0x5b if n >= 2 => {
                // dup_x2: form 2 when value2 is wide.
                let at = if wide_at(st, 2) { n - 2 } else { n.saturating_sub(3) };
                st.insert(at, st[n - 1]);
            }
            0x5c => {
                if wide_at(st, 1) {
                    st.push(st[n - 1]);
                } else if n >= 2 {
                    st.extend_from_within(n - 2..n);
                }
            }
            0x5d if n >= 2 => {
                // dup2_x1
                if wide_at(st, 1) {
                    st.insert(n - 2, st[n - 1]);
                } else if n >= 3 {
                    let (a, b) = (st[n - 2], st[n - 1]);
                    st.insert(n - 3, b);
                    st.insert(n - 3, a);
                }
            }
            0x5e if n >= 2 => self.dup2_x2(f),
            0x5f if n >= 2 => st.swap(n - 1, n - 2),
            _ => return unsupported(format!("{} on a short stack", op.name())),
        }
        Ok(Next::Go)
    }

    fn dup2_x2(&mut self, f: &mut Frame<'a>) {
        let st = &mut f.stack;
        let n = st.len();
        let top_wide = st[n - 1].wide();
        let second_wide = st[n - 2].wide();
        // Forms 4, 2, 3, 1 of JVMS §6.5.dup2_x2.
        if top_wide && second_wide {
            st.insert(n - 2, st[n - 1]);
        } else if top_wide {
            if n >= 3 {
                st.insert(n - 3, st[n - 1]);
            }
        } else if n >= 3 && st[n - 3].wide() {
            let (a, b) = (st[n - 2], st[n - 1]);
            st.insert(n - 3, b);
            st.insert(n - 3, a);
        } else if n >= 4 {
            let (a, b) = (st[n - 2], st[n - 1]);
            st.insert(n - 4, b);
            st.insert(n - 4, a);
        }
    }
}

/// The UTF-16 code units of a modified-UTF-8 string constant (JVMS §4.4.7), decoded unit by unit:
/// a Java literal may hold a lone surrogate (CharMatcher's tables do), which is not valid UTF-8 and
/// so has no Rust `str`. Standard 4-byte sequences, which the format forbids, are accepted as the
/// surrogate pair they mean (as `classfile::mutf8::decode` accepts them); `None` for a malformed
/// sequence.
pub(crate) fn mutf8_units(bytes: &[u8]) -> Option<Vec<u16>> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let cont = |b: Option<&u8>| b.filter(|&&b| b & 0xc0 == 0x80).map(|&b| u32::from(b & 0x3f));
    while i < bytes.len() {
        let b = u32::from(bytes[i]);
        let (c, n) = match b {
            0x00..=0x7f => (b, 1),
            0xc0..=0xdf => ((b & 0x1f) << 6 | cont(bytes.get(i + 1))?, 2),
            0xe0..=0xef => ((b & 0x0f) << 12 | cont(bytes.get(i + 1))? << 6 | cont(bytes.get(i + 2))?, 3),
            0xf0..=0xf7 => (
                (b & 0x07) << 18
                    | cont(bytes.get(i + 1))? << 12
                    | cont(bytes.get(i + 2))? << 6
                    | cont(bytes.get(i + 3))?,
                4,
            ),
            _ => return None,
        };
        match char::from_u32(c) {
            Some(ch) if c > 0xffff => out.extend(ch.encode_utf16(&mut [0; 2]).iter()),
            _ if c <= 0xffff => out.push(c as u16),
            _ => return None,
        }
        i += n;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::mutf8_units;

    #[test]
    fn modified_utf8_keeps_lone_surrogates_and_nul() {
        // "a", NUL as C0 80, U+00E9, a lone high surrogate D800 as ED A0 80, U+20AC.
        let bytes = [0x61, 0xc0, 0x80, 0xc3, 0xa9, 0xed, 0xa0, 0x80, 0xe2, 0x82, 0xac];
        assert_eq!(mutf8_units(&bytes), Some(vec![0x61, 0, 0xe9, 0xd800, 0x20ac]));
        // A standard 4-byte sequence (U+1F600) is the pair it means.
        assert_eq!(mutf8_units(&[0xf0, 0x9f, 0x98, 0x80]), Some(vec![0xd83d, 0xde00]));
        assert_eq!(mutf8_units(&[0xe2, 0x82]), None);
        assert_eq!(mutf8_units(&[0x80]), None);
    }
}
