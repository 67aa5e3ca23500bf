//! String operations that keep a symbolic length symbolic instead of pinning it: `indexOf(char)`
//! (the first position below the length holding the character), `endsWith` of a concrete suffix
//! (a disjunction over the lengths the string may have), `substring` at concrete
//! positions (only the bound checks are pinned; `substring(b)` keeps `length - b`) and `hashCode`
//! (Horner's polynomial for every length the string may have, picked by an ite chain) and `trim`,
//! `strip*` (this run's blanks at each end pinned, the trailing ones at every length the string
//! may have). They apply
//! to strings with a length shadow (inputs, and what concatenation and these derive from them);
//! the models in `string` handle the others. (`substring` and `endsWith` at symbolic positions
//! were tried as ite chains over the positions: their queries, tens of seconds each for Z3 at the
//! standard limits, cost more than the pins they avoid.)

use solver::{Op, Value};

use super::string::Blank;
use crate::heap::{Ch, StrVal};
use crate::interp::{Machine, Res};
use crate::value::{ObjId, Slot};

impl Machine<'_, '_> {
    /// How many positions a string with a symbolic length may have: its characters and tail, or
    /// an input's `max_string`.
    fn str_bound(&self, sv: &StrVal) -> usize {
        match sv.input {
            Some(_) => sv.chars.len().max(self.cfg.max_string as usize),
            None => sv.chars.len() + sv.tail.len(),
        }
    }

    /// `indexOf(ch)` on a string with a symbolic length: the first `k < length` with `s[k] == ch`.
    pub(crate) fn index_of_char_sym(&mut self, this: ObjId, ch: Slot) -> Res<Option<Slot>> {
        let sv = self.str_of(this)?;
        let Some(len) = sv.len else { return Ok(None) };
        if ch.s.is_some() || !(0..0x10000).contains(&ch.as_int()) {
            return Ok(None);
        }
        let target = self.int_to_char(ch);
        let t = target.s.unwrap_or_else(|| self.arena.konst(Value::char(target.c)));
        let mut conds = Vec::new();
        for k in 0..self.str_bound(&sv) {
            let holds = sv.chars.get(k).is_some_and(|c| c.c == target.c);
            let kk = self.arena.konst(Value::i32(k as i32));
            let inside = self.arena.mk(Op::Ult, &[kk, len]);
            let c = self.char_expr(&sv, k);
            let eq = self.arena.mk(Op::Eq, &[c, t]);
            let both = self.arena.mk(Op::And2, &[inside, eq]);
            conds.push((k as i32, holds, Some(both)));
        }
        Ok(Some(self.first_match(&conds)))
    }

    /// `substring(b)` and `substring(b, e)` on a string with a symbolic length, the positions
    /// pinned: the check the JDK makes against the length is kept as a pin (`b <= length` or
    /// `e <= length`), not the length itself. `substring(b)` has the symbolic length `length - b`
    /// and the characters past the concrete end as its tail (what a longer input holds there).
    /// `None` when the string's length is concrete or the bounds throw (the fixed model throws).
    pub(crate) fn substring_sym(&mut self, this: ObjId, begin: Slot, end: Option<Slot>) -> Res<Option<Slot>> {
        let sv = self.str_of(this)?;
        let Some(len) = sv.len else { return Ok(None) };
        let n = sv.chars.len() as i32;
        let b = self.pin(begin).as_int();
        let e = end.map(|e| self.pin(e).as_int());
        if b < 0 || b > e.unwrap_or(n) || e.unwrap_or(n) > n {
            return Ok(None);
        }
        let (fits, c) = self.cond(Op::Sle, &[Slot::int(e.unwrap_or(b)), self.str_len(&sv)]);
        self.pin_cond(fits, c);
        let out = match e {
            Some(e) => StrVal::from_chars(sv.chars[b as usize..e as usize].to_vec()),
            None => {
                let tail: Vec<_> =
                    (sv.chars.len()..self.str_bound(&sv)).map(|k| self.char_expr(&sv, k)).collect();
                let kb = self.arena.konst(Value::i32(b));
                let rest = self.arena.mk(Op::Sub, &[len, kb]);
                let chars: Vec<Ch> = sv.chars[b as usize..].to_vec();
                StrVal { chars, len: Some(rest), input: None, tail }
            }
        };
        Ok(Some(self.new_string(out)))
    }

    /// `hashCode()` of a string with a symbolic length: `h(k+1) = 31·h(k) + s[k]` for every length
    /// the string may have, the one of its length chosen by an ite chain (linear in the bound).
    pub(crate) fn string_hash_sym(&mut self, this: ObjId) -> Res<Option<Slot>> {
        let sv = self.str_of(this)?;
        let Some(len) = sv.len else { return Ok(None) };
        let concrete = sv.chars.iter().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c.c)));
        let k31 = self.arena.konst(Value::i32(31));
        let mut h = self.arena.konst(Value::i32(0));
        let mut pick = h;
        for k in 0..self.str_bound(&sv) {
            let c = self.char_expr(&sv, k);
            let c = self.arena.mk(Op::ZeroExt(32), &[c]);
            let m = self.arena.mk(Op::Mul, &[h, k31]);
            h = self.arena.mk(Op::Add, &[m, c]);
            let kk = self.arena.konst(Value::i32(k as i32 + 1));
            let is = self.arena.mk(Op::Eq, &[len, kk]);
            pick = self.arena.mk(Op::Ite, &[is, h, pick]);
        }
        self.sym_insn = true;
        Ok(Some(Slot { c: crate::value::C::I(concrete), s: Some(pick) }))
    }

    /// `endsWith(suffix)` of a concrete suffix on a string with a symbolic length: for each length
    /// `L` the string may have, `length == L` and the suffix at `L - m`; their disjunction. (A
    /// disjunction of conjunctions of character equalities, not an ite over symbolic positions:
    /// Z3 answers it at once.) `None` when the length is concrete or the suffix symbolic.
    pub(crate) fn ends_with_sym(&mut self, this: ObjId, suffix: ObjId) -> Res<Option<Slot>> {
        let sv = self.str_of(this)?;
        let Some(len) = sv.len else { return Ok(None) };
        let suf = self.str_of(suffix)?;
        if suf.is_symbolic() {
            return Ok(None);
        }
        let (n, m) = (sv.chars.len(), suf.chars.len());
        let holds = n >= m && sv.chars[n - m..].iter().zip(&suf.chars).all(|(x, y)| x.c == y.c);
        let mut any = self.arena.konst(Value::Bool(false));
        for l in m..=self.str_bound(&sv) {
            let kl = self.arena.konst(Value::i32(l as i32));
            let mut all = self.arena.mk(Op::Eq, &[len, kl]);
            for (k, c) in suf.chars.iter().enumerate() {
                let x = self.char_expr(&sv, l - m + k);
                let y = self.arena.konst(Value::char(c.c));
                let eq = self.arena.mk(Op::Eq, &[x, y]);
                all = self.arena.mk(Op::And2, &[all, eq]);
            }
            any = self.arena.mk(Op::Or2, &[any, all]);
        }
        self.sym_insn = true;
        Ok(Some(self.bool_slot(holds, Some(any))))
    }

    /// `trim()`/`strip*()` of a string with a symbolic length `L`, this run's result not empty:
    /// the `b` leading blanks and the first character kept are pinned as the fixed model pins
    /// them; of the `t` trailing blanks, for every length `l` the string may have,
    /// `L == l` implies the `t` characters before `l` blank and the one before them not; and
    /// `L > b + t`. The result is the receiver's characters from `b`, of length `L - b - t`.
    /// `None` when the length is concrete or every character is blank (the fixed model).
    pub(crate) fn trim_sym(
        &mut self,
        this: ObjId,
        blank: Blank,
        leading: bool,
        trailing: bool,
    ) -> Res<Option<Slot>> {
        let sv = self.str_of(this)?;
        let Some(len) = sv.len else { return Ok(None) };
        let n = sv.chars.len();
        let mut b = 0;
        while leading && b < n && blank.holds(sv.chars[b].c) {
            b += 1;
        }
        let mut e = n;
        while trailing && e > b && blank.holds(sv.chars[e - 1].c) {
            e -= 1;
        }
        if b == e {
            return Ok(None);
        }
        let (t, bound) = (n - e, self.str_bound(&sv));
        if leading {
            for &ch in &sv.chars[..=b] {
                self.blank_pinned(ch, blank);
            }
        }
        let l = Slot { c: crate::value::C::I(n as i32), s: Some(len) };
        let (fits, c) = self.cond(Op::Sgt, &[l, Slot::int((b + t) as i32)]);
        self.pin_cond(fits, c);
        if trailing {
            let mut all = self.arena.konst(Value::Bool(true));
            for l in b + t + 1..=bound {
                let kl = self.arena.konst(Value::i32(l as i32));
                let at = self.arena.mk(Op::Eq, &[len, kl]);
                let mut ends = self.arena.konst(Value::Bool(true));
                for k in l - t - 1..l {
                    let x = self.char_expr(&sv, k);
                    let is = self.blank_expr(x, blank);
                    let want = if k + 1 + t == l { self.arena.mk(Op::Not, &[is]) } else { is };
                    ends = self.arena.mk(Op::And2, &[ends, want]);
                }
                let guarded = self.arena.mk(Op::Implies, &[at, ends]);
                all = self.arena.mk(Op::And2, &[all, guarded]);
            }
            if self.arena.as_const(all).is_none() {
                self.pin_cond(true, Some(all));
            }
        }
        let tail: Vec<_> = (e..bound.saturating_sub(t)).map(|k| self.char_expr(&sv, k)).collect();
        let kbt = self.arena.konst(Value::i32((b + t) as i32));
        let rest = self.arena.mk(Op::Sub, &[len, kbt]);
        self.sym_insn = true;
        let out = StrVal { chars: sv.chars[b..e].to_vec(), len: Some(rest), input: None, tail };
        Ok(Some(self.new_string(out)))
    }
}
