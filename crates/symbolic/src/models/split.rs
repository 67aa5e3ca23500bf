//! `String.split` by a pattern whose matches are the single chars of one set (`"="`, `"[-T:]"`:
//! `jregex::JavaRegex::single_char_class`) on a string with one separator: the cut is kept
//! symbolic. Where the other split model fixes the pieces' lengths at this run's cuts (each
//! character's class an implicit entry), here the cut is the first position below the length
//! whose character is a separator, an expression of the string, so a solver may move it: the
//! first piece's length is the cut, the second's the length less the cut and the separator, and
//! the second piece's characters are chosen by the cut. A piece compared with a constant of
//! another length (`key.equalsIgnoreCase("port")`) is then a query like any other.
//!
//! The shape stays as this run's: a separator exists (an implicit entry, whose negation removes
//! the cut), no second one follows unless the limit is 2 (implicit: a negation adds a cut), and
//! with limit 0 the second piece is not empty (trailing empty pieces are removed). Strings with
//! more separators than `MAX_CUTS` are cut by the other model.

use solver::{ExprId, Op, Value};

use crate::heap::{Ch, StrVal};
use crate::interp::Machine;
use crate::value::{C, Slot};

/// The most separators a split keeps symbolic cuts for: with more, the pieces' ite chains (one
/// per cut and position) grow quickly, and parsers that cut a string in several pieces check its
/// shape with `matches` first, whose solution already has the cuts.
pub(crate) const MAX_CUTS: usize = 1;

impl Machine<'_, '_> {
    /// The pieces of `a.split(regex, limit)` with a symbolic cut, `class` being the separators'
    /// code points; `None` when the split is not one this model keeps symbolic (a concrete
    /// string, no separator or more than `MAX_CUTS`, limit 1, an empty second piece dropped).
    pub(crate) fn split_one_cut(&mut self, a: &StrVal, class: &[(u32, u32)], limit: i32) -> Option<Slot> {
        let n = a.chars.len();
        let is_sep = |c: u16| class.iter().any(|&(lo, hi)| (lo..=hi).contains(&u32::from(c)));
        let seps: Vec<usize> = (0..n).filter(|&k| is_sep(a.chars[k].c)).collect();
        let p = *seps.first()?;
        let dropped = limit == 0 && p + 1 == n;
        if !a.is_symbolic() || limit == 1 || (limit != 2 && seps.len() > MAX_CUTS) || dropped {
            return None;
        }
        let bound = match (a.len, a.input) {
            (None, _) => n,
            (Some(_), Some(_)) => n.max(self.cfg.max_string as usize),
            (Some(_), None) => n + a.tail.len(),
        };
        let len = a.len.unwrap_or_else(|| self.arena.konst(Value::i32(n as i32)));
        let chars: Vec<ExprId> = (0..bound).map(|k| self.char_expr(a, k)).collect();
        let seps_at: Vec<ExprId> = chars
            .iter()
            .enumerate()
            .map(|(k, &c)| {
                let kk = self.arena.konst(Value::i32(k as i32));
                let inside = self.arena.mk(Op::Ult, &[kk, len]);
                let sep = self.in_ranges(c, class);
                self.arena.mk(Op::And2, &[inside, sep])
            })
            .collect();
        let conds: Vec<(i32, bool, Option<ExprId>)> =
            seps_at.iter().enumerate().map(|(k, &e)| (k as i32, k == p, Some(e))).collect();
        let cut = self.first_match(&conds);
        let cut_e = self.expr(cut);
        // The shape of this run: a separator, no other after it (limit 2 ignores them), and a
        // second piece that limit 0 keeps.
        let (found, e) = self.cond(Op::Sge, &[cut, Slot::int(0)]);
        if let Some(e) = e {
            let h = self.held(found, e);
            self.implicit(h);
        }
        if limit != 2 {
            let mut none_after = self.arena.konst(Value::Bool(true));
            for (k, &sep) in seps_at.iter().enumerate() {
                let kk = self.arena.konst(Value::i32(k as i32));
                let after = self.arena.mk(Op::Slt, &[cut_e, kk]);
                let both = self.arena.mk(Op::And2, &[after, sep]);
                let not = self.arena.mk(Op::Not, &[both]);
                none_after = self.arena.mk(Op::And2, &[none_after, not]);
            }
            if self.arena.as_const(none_after).is_none() {
                self.implicit(none_after);
            }
        }
        let one = self.arena.konst(Value::i32(1));
        let after_cut = self.arena.mk(Op::Add, &[cut_e, one]);
        let rest = self.arena.mk(Op::Sub, &[len, after_cut]);
        if limit == 0 {
            let (kept, e) = self.cond(
                Op::Slt,
                &[
                    Slot { c: C::I(p as i32 + 1), s: Some(after_cut) },
                    Slot { c: C::I(n as i32), s: Some(len) },
                ],
            );
            if let Some(e) = e {
                let h = self.held(kept, e);
                self.implicit(h);
            }
        }
        self.sym_insn = true;
        let first =
            StrVal { chars: a.chars[..p].to_vec(), len: Some(cut_e), input: None, tail: chars[p..].to_vec() };
        let second = self.second_piece(a, &chars, cut_e, p, rest);
        let elems = vec![self.new_string(first), self.new_string(second)];
        let arr = self.heap.alloc(crate::heap::Obj::Array { comp: "Ljava/lang/String;".into(), elems });
        Some(Slot::obj(arr))
    }

    /// The piece after the cut: its character `j` is the receiver's at `cut + 1 + j`, an ite over
    /// the positions the cut may take; its length `rest`.
    fn second_piece(&mut self, a: &StrVal, chars: &[ExprId], cut: ExprId, p: usize, rest: ExprId) -> StrVal {
        let bound = chars.len();
        let zero = self.arena.konst(Value::char(0));
        let mut at = Vec::with_capacity(bound);
        for j in 0..bound.saturating_sub(1) {
            let mut e = zero;
            for c in (0..bound - 1 - j).rev() {
                let kc = self.arena.konst(Value::i32(c as i32));
                let is = self.arena.mk(Op::Eq, &[cut, kc]);
                e = self.arena.mk(Op::Ite, &[is, chars[c + 1 + j], e]);
            }
            at.push(e);
        }
        let n = a.chars.len();
        let own = n - p - 1;
        let piece: Vec<Ch> = (0..own).map(|j| Ch { c: a.chars[p + 1 + j].c, s: Some(at[j]) }).collect();
        StrVal { chars: piece, len: Some(rest), input: None, tail: at[own..].to_vec() }
    }
}
