//! `String.split(regex)`, `split(regex, limit)` and `String.matches(regex)` over `jregex`'s
//! automata (docs/regex.md), for every pattern `jregex` compiles; a pattern it refuses (back
//! references, lookaround, ...) stops the replay.
//!
//! - `split`: the pieces are cut where Java cuts them (`JavaRegex::split_spans`, Java's loop), and
//!   keep their characters' shadows, so what a parser does with a piece (`Integer.parseInt`,
//!   `charAt`) stays symbolic. Where the cuts fall depends only on which *class* of characters
//!   the pattern cannot tell apart each character is in (`JavaRegex::indistinguishable`), so each
//!   symbolic character's class is a path entry, an implicit branch (the JDK's matcher branches
//!   on it): the solver may change a character within its class freely, and an exploration that
//!   negates it moves a cut (a `.` where a digit was gives one more piece). The pieces are
//!   concrete ranges, but the last one keeps a symbolic length of the receiver's (`last_piece`)
//!   when the pattern has no anchor and matches no empty string; otherwise the receiver's length
//!   is pinned. A pattern whose matches are the single chars of a set, on a string with one
//!   separator, gets a symbolic cut instead (`split`'s model, `Machine::split_one_cut`).
//! - `matches`: the DFA walked symbolically, the state after each character an ite over the
//!   transitions; for a string input whose length is symbolic, the walk's acceptance at each
//!   length it may have, so the solver may change the length too. Past `MAX_WALK` ite nodes the
//!   characters are pinned and the answer is concrete.

use jregex::{DState, Flags, JavaRegex};
use solver::{ExprId, Op, Value};

use crate::heap::{Obj, StrVal};
use crate::interp::{Machine, Res, unsupported};
use crate::value::{ObjId, Slot};

/// The most transition tests a symbolic `matches` builds (positions × transitions) before it
/// pins the characters instead.
const MAX_WALK: usize = 20_000;

/// The DFA's dead state in a symbolic walk (no transition held).
const DEAD: i32 = -1;

fn is_surrogate(c: u16) -> bool {
    (0xD800..=0xDFFF).contains(&c)
}

impl Machine<'_, '_> {
    /// The compiled pattern of a `String` argument (its characters pinned: the automaton is built
    /// for one pattern), or the stop a refused pattern makes.
    fn pattern_of(&mut self, regex: ObjId) -> Res<JavaRegex> {
        let re = self.concrete_str(regex)?;
        if re.chars.iter().any(|c| is_surrogate(c.c)) {
            return unsupported("a regular expression holding a surrogate");
        }
        let text = re.to_rust();
        JavaRegex::parse(&text, Flags::NONE)
            .or_else(|e| unsupported(format!("the regular expression {text:?}: {e}")))
    }

    /// `c <= x <= hi` for some `(lo, hi)` of `ranges`, on a Bv(16) character (ranges past the
    /// BMP never hold a UTF-16 unit).
    pub(crate) fn in_ranges(&mut self, x: ExprId, ranges: &[(u32, u32)]) -> ExprId {
        let mut any = self.arena.konst(Value::Bool(false));
        for &(lo, hi) in ranges.iter().filter(|r| r.0 <= 0xFFFF) {
            let hi = hi.min(0xFFFF);
            let holds = if lo == 0 && hi == 0xFFFF {
                self.arena.konst(Value::Bool(true))
            } else {
                // lo <= x <= hi  <=>  x - lo <u hi - lo + 1 (at most 0xFFFF here).
                let klo = self.arena.konst(Value::char(lo as u16));
                let width = self.arena.konst(Value::char((hi - lo + 1) as u16));
                let d = self.arena.mk(Op::Sub, &[x, klo]);
                self.arena.mk(Op::Ult, &[d, width])
            };
            any = self.arena.mk(Op::Or2, &[any, holds]);
        }
        any
    }

    /// `split(regex)` (`limit` None: 0) and `split(regex, limit)`.
    pub(crate) fn split_regex(&mut self, this: ObjId, regex: Slot, limit: Option<Slot>) -> Res<Option<Slot>> {
        let Some(r) = regex.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "split(null)");
        };
        let re = self.pattern_of(r)?;
        let limit = limit.map_or(0, |l| self.pin(l).as_int());
        let a = self.str_of(this)?;
        if a.chars.iter().any(|c| is_surrogate(c.c)) {
            return unsupported("split of a string holding a surrogate");
        }
        if self.cfg.parser_models
            && let Some(class) = re.single_char_class()
            && let Some(arr) = self.split_one_cut(&a, &class, limit)
        {
            return Ok(Some(arr));
        }
        let text = a.to_rust();
        for (ch, c) in a.chars.iter().zip(text.chars()) {
            let Some(x) = ch.s else { continue };
            let class = re.indistinguishable(c);
            let cond = self.in_ranges(x, &class);
            self.sym_insn = true;
            self.implicit(cond);
        }
        let spans = re.split_spans(&text, limit);
        let keep = a.len.filter(|_| kept_length(&a, &spans, &re));
        if a.len.is_some() && keep.is_none() {
            // The pieces' shape depends on the exact length.
            self.fixed_str(this)?;
        }
        let mut elems: Vec<Slot> = Vec::with_capacity(spans.len());
        for (i, &(b, e)) in spans.iter().enumerate() {
            let piece = match keep {
                Some(len) if i + 1 == spans.len() => self.last_piece(&a, len, b, &re.unread()),
                _ => StrVal::from_chars(a.chars[b..e].to_vec()),
            };
            elems.push(self.new_string(piece));
        }
        let arr = self.heap.alloc(Obj::Array { comp: "Ljava/lang/String;".into(), elems });
        Ok(Some(Slot::obj(arr)))
    }

    /// The last piece of a split whose receiver has a symbolic length, the piece starting at `b`
    /// and ending the receiver: its length stays `len - b`. Sound because the pattern has no
    /// anchor and matches no empty string, so what follows the last cut never moves a cut as
    /// long as it is not emptied (`b < len` is kept as a pin when `b > 0`) and every character
    /// the receiver may have past this run's is one the pattern never reads (kept as a pin under
    /// `k < len`) (jregex's `unread_chars_only_move_the_end_of_the_last_piece`).
    fn last_piece(&mut self, a: &StrVal, len: ExprId, b: usize, unread: &[(u32, u32)]) -> StrVal {
        let n = a.chars.len();
        if b > 0 {
            let (fits, c) = self.cond(
                Op::Slt,
                &[Slot::int(b as i32), Slot { c: crate::value::C::I(n as i32), s: Some(len) }],
            );
            self.pin_cond(fits, c);
        }
        let bound = match a.input {
            Some(_) => n.max(self.cfg.max_string as usize),
            None => n + a.tail.len(),
        };
        let mut tail = Vec::with_capacity(bound - n);
        for k in n..bound {
            let c = self.char_expr(a, k);
            let kk = self.arena.konst(Value::i32(k as i32));
            let inside = self.arena.mk(Op::Ult, &[kk, len]);
            let never_read = self.in_ranges(c, unread);
            let guarded = self.arena.mk(Op::Implies, &[inside, never_read]);
            self.pin_cond(true, Some(guarded));
            tail.push(c);
        }
        let kb = self.arena.konst(Value::i32(b as i32));
        let rest = self.arena.mk(Op::Sub, &[len, kb]);
        self.sym_insn = true;
        StrVal { chars: a.chars[b..].to_vec(), len: Some(rest), input: None, tail }
    }

    /// `matches(regex)`: the whole string in the pattern's language.
    pub(crate) fn matches_regex(&mut self, this: ObjId, regex: Slot) -> Res<Option<Slot>> {
        let Some(r) = regex.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "matches(null)");
        };
        let re = self.pattern_of(r)?;
        let a = self.str_of(this)?;
        if a.chars.iter().any(|c| is_surrogate(c.c)) {
            return unsupported("matches on a string holding a surrogate");
        }
        let holds = re.matches(&a.to_rust());
        if !a.is_symbolic() {
            return Ok(Some(Slot::int(i32::from(holds))));
        }
        let states = re.dfa_states();
        let positions = match a.input {
            Some(_) if a.len.is_some() => a.chars.len().max(self.cfg.max_string as usize),
            _ => a.chars.len() + a.tail.len(),
        };
        let transitions: usize = states.iter().map(|s| s.trans.len()).sum();
        if states.is_empty() || positions.saturating_mul(transitions) > MAX_WALK {
            // Too large to walk symbolically (or nothing matches): the answer as it is.
            self.concrete_str(this)?;
            return Ok(Some(Slot::int(i32::from(holds))));
        }
        let accepting: Vec<usize> = (0..states.len()).filter(|&q| states[q].accept).collect();
        let mut state = self.arena.konst(Value::i32(0));
        let mut acc = self.arena.konst(Value::Bool(false));
        for k in 0..=positions {
            // Accepted at length k: the walk so far ends in an accepting state.
            let mut here = self.arena.konst(Value::Bool(false));
            for &q in &accepting {
                let kq = self.arena.konst(Value::i32(q as i32));
                let is = self.arena.mk(Op::Eq, &[state, kq]);
                here = self.arena.mk(Op::Or2, &[here, is]);
            }
            let at_len = match a.len {
                Some(len) => {
                    let kk = self.arena.konst(Value::i32(k as i32));
                    let is = self.arena.mk(Op::Eq, &[len, kk]);
                    self.arena.mk(Op::And2, &[is, here])
                }
                None if k == a.chars.len() => here,
                None => self.arena.konst(Value::Bool(false)),
            };
            acc = self.arena.mk(Op::Or2, &[acc, at_len]);
            if k == positions {
                break;
            }
            let c = self.char_expr(&a, k);
            state = self.dfa_step(states, state, c);
        }
        self.sym_insn = true;
        Ok(Some(self.bool_slot(holds, Some(acc))))
    }

    /// The DFA's state after reading `c` in `state`, as an ite over every transition.
    fn dfa_step(&mut self, states: &[DState], state: ExprId, c: ExprId) -> ExprId {
        let mut next = self.arena.konst(Value::i32(DEAD));
        for (q, st) in states.iter().enumerate().rev() {
            let kq = self.arena.konst(Value::i32(q as i32));
            let at = self.arena.mk(Op::Eq, &[state, kq]);
            for &(lo, hi, to) in st.trans.iter().rev() {
                let reads = self.in_ranges(c, &[(lo, hi)]);
                let both = self.arena.mk(Op::And2, &[at, reads]);
                let kt = self.arena.konst(Value::i32(to as i32));
                next = self.arena.mk(Op::Ite, &[both, kt, next]);
            }
        }
        next
    }
}

/// Whether a split of `a` into `spans` may keep `a`'s length symbolic in its last piece: that
/// piece ends the string (and is not empty, or is the whole of it), and the pattern has no
/// anchor and matches no empty string (`Machine::last_piece`).
fn kept_length(a: &StrVal, spans: &[(usize, usize)], re: &JavaRegex) -> bool {
    let n = a.chars.len();
    spans.last().is_some_and(|&(b, e)| e == n && (b < e || b == 0)) && !re.has_anchors() && !re.matches("")
}
