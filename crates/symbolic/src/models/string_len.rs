//! String operations that keep a symbolic length symbolic instead of pinning it: `indexOf(char)`
//! (the first position below the length holding the character). It applies to strings with a
//! length shadow (inputs, and what concatenation derives from them); the models in `string`
//! handle the others. (`substring` and `endsWith` at symbolic positions were tried as ite chains
//! over the positions: their queries, tens of seconds each for Z3 at the standard limits, cost
//! more than the pins they avoid.)

use solver::{Op, Value};

use crate::heap::StrVal;
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
}
