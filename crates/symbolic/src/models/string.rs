//! The `java.lang.String` model (digest §C.3, priority A) over the char-sequence representation:
//! a string input's length is a Bv(32) variable and each character a Bv(16) variable, so every
//! string condition is bit-vector arithmetic. `charAt` checks its bounds as an implicit branch;
//! `equals`, `startsWith` and `equalsIgnoreCase` keep an input's length symbolic; operations whose
//! result's shape depends on the exact length pin it (`fixed_str`).

use jvm_model::ClassName;
use solver::{ExprId, Op, Value};

use crate::heap::{Ch, Obj, StrVal};
use crate::interp::{Machine, Res, unsupported};
use crate::value::{C, Slot};

type R = Option<Res<Option<Slot>>>;

fn some(s: Slot) -> R {
    Some(Ok(Some(s)))
}

impl Machine<'_, '_> {
    /// Instance and static methods of `java.lang.String`.
    pub(crate) fn string_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> R {
        if (name, desc) == ("format", "(Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/String;") {
            return Some(self.string_format(args[0], args[1]));
        }
        if name == "join" {
            return Some(self.string_join(args[0], args[1], desc).map(Some));
        }
        if name == "valueOf" || name == "copyValueOf" {
            let p = &desc[1..desc.find(')')?];
            let p = if p == "[C" { "[C" } else { p };
            if p == "[C" {
                return Some(self.chars_to_string(args[0]).map(Some));
            }
            return Some(self.string_of(args[0], p).map(|s| Some(self.new_string(s))));
        }
        let this = args.first()?.as_ref()?;
        match (name, desc) {
            ("<init>", _) => Some(self.string_init(this, desc, args).map(|_| None)),
            ("length", "()I") => {
                let sv = self.str_of(this).ok()?;
                if sv.len.is_some() {
                    self.sym_insn = true;
                }
                some(self.str_len(&sv))
            }
            ("isEmpty", "()Z") => {
                let sv = self.str_of(this).ok()?;
                let len = self.str_len(&sv);
                let (h, e) = self.cond(Op::Eq, &[len, Slot::int(0)]);
                some(self.bool_slot(h, e))
            }
            ("charAt", "(I)C") => Some(self.char_at(this, args[1]).map(Some)),
            ("equals", "(Ljava/lang/Object;)Z") => Some(self.string_equals(this, args[1], false).map(Some)),
            ("equalsIgnoreCase", "(Ljava/lang/String;)Z") => {
                Some(self.string_equals(this, args[1], true).map(Some))
            }
            ("contentEquals", "(Ljava/lang/CharSequence;)Z") => {
                Some(self.string_equals(this, args[1], false).map(Some))
            }
            ("hashCode", "()I") => Some(self.string_hash(this).map(Some)),
            ("toString", _) | ("intern", _) => some(args[0]),
            ("compareTo", "(Ljava/lang/String;)I") | ("compareTo", "(Ljava/lang/Object;)I") => {
                Some(self.string_compare(this, args[1]).map(Some))
            }
            ("startsWith", "(Ljava/lang/String;)Z") => {
                Some(self.starts_with(this, args[1], Slot::int(0)).map(Some))
            }
            ("startsWith", "(Ljava/lang/String;I)Z") => {
                Some(self.starts_with(this, args[1], args[2]).map(Some))
            }
            ("endsWith", "(Ljava/lang/String;)Z") => Some(self.ends_with(this, args[1]).map(Some)),
            ("contains", "(Ljava/lang/CharSequence;)Z") => Some(self.find_str(this, args[1], true).map(Some)),
            ("indexOf", "(Ljava/lang/String;)I") => Some(self.find_str(this, args[1], false).map(Some)),
            ("indexOf", "(I)I") => Some(self.index_of_char(this, args[1], Slot::int(0), false).map(Some)),
            ("indexOf", "(II)I") => Some(self.index_of_char(this, args[1], args[2], false).map(Some)),
            ("lastIndexOf", "(I)I") => {
                Some(self.index_of_char(this, args[1], Slot::int(i32::MAX), true).map(Some))
            }
            ("substring", "(I)Ljava/lang/String;") => Some(self.substring(this, args[1], None).map(Some)),
            ("substring", "(II)Ljava/lang/String;") | ("subSequence", "(II)Ljava/lang/CharSequence;") => {
                Some(self.substring(this, args[1], Some(args[2])).map(Some))
            }
            ("concat", "(Ljava/lang/String;)Ljava/lang/String;") => {
                Some(self.string_concat(this, args[1]).map(Some))
            }
            ("trim", "()Ljava/lang/String;") => Some(self.trim(this, Blank::Trim, true, true).map(Some)),
            ("strip", "()Ljava/lang/String;") => Some(self.trim(this, Blank::Strip, true, true).map(Some)),
            ("stripLeading", "()Ljava/lang/String;") => {
                Some(self.trim(this, Blank::Strip, true, false).map(Some))
            }
            ("stripTrailing", "()Ljava/lang/String;") => {
                Some(self.trim(this, Blank::Strip, false, true).map(Some))
            }
            ("formatted", "([Ljava/lang/Object;)Ljava/lang/String;") => {
                Some(self.string_format(args[0], args[1]))
            }
            ("toCharArray", "()[C") => Some(self.char_array_of(this).map(Some)),
            ("toUpperCase", "()Ljava/lang/String;") => Some(self.map_case(this, true).map(Some)),
            ("toLowerCase", "()Ljava/lang/String;") => Some(self.map_case(this, false).map(Some)),
            ("toUpperCase" | "toLowerCase", "(Ljava/util/Locale;)Ljava/lang/String;") => {
                Some(self.map_case_in(this, name == "toUpperCase", args[1]).map(Some))
            }
            ("replace", "(CC)Ljava/lang/String;") => {
                Some(self.replace_char(this, args[1], args[2]).map(Some))
            }
            _ => self.string_model_more(this, name, desc, args),
        }
    }

    /// `String.join(delimiter, elements...)` and `String.join(delimiter, Iterable)` (the
    /// iterable walked through its own `iterator()`).
    fn string_join(&mut self, delim: Slot, elems: Slot, desc: &str) -> Res<Slot> {
        use crate::invoke::CallKind;
        let (Some(d), Some(e)) = (delim.as_ref(), elems.as_ref()) else {
            return self.throw_new("java/lang/NullPointerException", "join of null");
        };
        let d = self.string_of(Slot::obj(d), "Ljava/lang/CharSequence;")?;
        let items: Vec<Slot> = if desc.contains("[Ljava/lang/CharSequence;") {
            match self.heap.get(e) {
                Obj::Array { elems, .. } => elems.clone(),
                _ => return unsupported("String.join of a non-array"),
            }
        } else {
            let it = self.call(
                CallKind::Virtual,
                "java/lang/Iterable",
                "iterator",
                "()Ljava/util/Iterator;",
                vec![elems],
            )?;
            let it = it.unwrap_or(Slot::null());
            let mut out = Vec::new();
            loop {
                let more = self.call(CallKind::Virtual, "java/util/Iterator", "hasNext", "()Z", vec![it])?;
                if more.map_or(0, |m| self.pin(m).as_int()) == 0 {
                    break;
                }
                let v = self.call(
                    CallKind::Virtual,
                    "java/util/Iterator",
                    "next",
                    "()Ljava/lang/Object;",
                    vec![it],
                )?;
                out.push(v.unwrap_or(Slot::null()));
            }
            out
        };
        let mut out = StrVal::default();
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                out.chars.extend(d.chars.iter().copied());
            }
            let s = self.string_of(item, "Ljava/lang/CharSequence;")?;
            out.chars.extend(s.chars);
        }
        Ok(self.new_string(out))
    }

    fn string_init(&mut self, this: crate::value::ObjId, desc: &str, args: &[Slot]) -> Res<()> {
        let sv = match desc {
            "()V" => StrVal::default(),
            "(Ljava/lang/String;)V" | "(Ljava/lang/StringBuilder;)V" | "(Ljava/lang/StringBuffer;)V" => {
                match args[1].as_ref() {
                    Some(o) => self.str_of(o)?,
                    None => return self.throw_new("java/lang/NullPointerException", "new String(null)"),
                }
            }
            "([C)V" => {
                let s = self.chars_to_string(args[1])?;
                let Some(o) = s.as_ref() else { return Ok(()) };
                self.str_of(o)?
            }
            "([CII)V" | "([III)V" => self.string_of_range(args, desc == "([III)V")?,
            _ => return unsupported(format!("String.<init>{desc}")),
        };
        *self.heap.get_mut(this) = Obj::Str(sv);
        Ok(())
    }

    /// `new String(char[] | int[] codePoints, offset, count)` (JDK 17): a null array throws
    /// `NullPointerException`, a range outside it `StringIndexOutOfBoundsException`, then the
    /// elements in range become the characters; a code point (pinned) past the BMP becomes its
    /// surrogate pair, one that is not a code point `IllegalArgumentException`. Offset and count
    /// are pinned.
    fn string_of_range(&mut self, args: &[Slot], code_points: bool) -> Res<StrVal> {
        let Some(a) = args[1].as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "new String of a null array");
        };
        let elems = match self.heap.get(a) {
            Obj::Array { elems, .. } => elems.clone(),
            _ => return unsupported("String of a non-array"),
        };
        let offset = self.pin(args[2]).as_int();
        let count = self.pin(args[3]).as_int();
        let n = elems.len() as i64;
        if offset < 0 || count < 0 || i64::from(offset) > n - i64::from(count) {
            let what = format!("offset {offset}, count {count}, length {n}");
            return self.throw_new("java/lang/StringIndexOutOfBoundsException", &what);
        }
        let range = &elems[offset as usize..(offset + count) as usize];
        let mut chars = Vec::with_capacity(range.len());
        for &e in range {
            if !code_points {
                chars.push(self.int_to_char(e));
                continue;
            }
            let cp = self.pin(e).as_int();
            match u32::try_from(cp).ok().and_then(char::from_u32) {
                _ if (0..0x10000).contains(&cp) => chars.push(Ch { c: cp as u16, s: None }),
                Some(c) => {
                    let mut units = [0u16; 2];
                    chars.extend(c.encode_utf16(&mut units).iter().map(|&u| Ch { c: u, s: None }));
                }
                None => {
                    let what = format!("Not a valid Unicode code point: 0x{cp:X}");
                    return self.throw_new("java/lang/IllegalArgumentException", &what);
                }
            }
        }
        Ok(StrVal::from_chars(chars))
    }

    /// `new String(char[])` / `String.valueOf(char[])`.
    fn chars_to_string(&mut self, arr: Slot) -> Res<Slot> {
        let Some(a) = arr.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "null char[]");
        };
        let elems = match self.heap.get(a) {
            Obj::Array { elems, .. } => elems.clone(),
            _ => return unsupported("String of a non-array"),
        };
        let chars = elems.into_iter().map(|e| self.int_to_char(e)).collect();
        Ok(self.new_string(StrVal { chars, len: None, input: None, tail: Vec::new() }))
    }

    fn char_at(&mut self, this: crate::value::ObjId, idx: Slot) -> Res<Slot> {
        let sv = self.str_of(this)?;
        let len = self.str_len(&sv);
        let (inside, e) = self.cond(Op::Ult, &[idx, len]);
        if let Some(e) = e {
            let h = self.held(inside, e);
            self.implicit(h);
        }
        if !inside {
            let msg = format!("index {} out of bounds for length {}", idx.as_int(), sv.chars.len());
            return self.throw_new("java/lang/StringIndexOutOfBoundsException", &msg);
        }
        let i = self.pin(idx).as_int() as usize;
        let ch = sv.chars[i];
        Ok(self.char_slot(ch))
    }

    /// The Bool condition "the two strings are equal" (optionally ignoring ASCII case) over the
    /// characters both may have: up to `max_string` when both lengths are symbolic, up to the
    /// longer one when one is.
    pub(crate) fn str_eq_cond(&mut self, a: &StrVal, b: &StrVal, ignore_case: bool) -> Option<ExprId> {
        if !a.is_symbolic() && !b.is_symbolic() {
            return None;
        }
        let (na, nb) = (a.chars.len(), b.chars.len());
        let k_max = match (a.len.is_some(), b.len.is_some()) {
            (true, true) => (self.cfg.max_string as usize).max(na).max(nb),
            (false, false) if na != nb => return None,
            (false, false) => na,
            _ => na.max(nb),
        };
        let la = self.str_len(a);
        let lb = self.str_len(b);
        let la = self.expr(la);
        let lb = self.expr(lb);
        let mut acc = self.arena.mk(Op::Eq, &[la, lb]);
        for k in 0..k_max {
            let (x, y) = (self.char_expr(a, k), self.char_expr(b, k));
            let same =
                if ignore_case { self.same_ignoring_case(x, y) } else { self.arena.mk(Op::Eq, &[x, y]) };
            let kk = self.arena.konst(Value::i32(k as i32));
            let inside = self.arena.mk(Op::Ult, &[kk, la]);
            let guarded = self.arena.mk(Op::Implies, &[inside, same]);
            acc = self.arena.mk(Op::And2, &[acc, guarded]);
        }
        Some(acc)
    }

    fn same_ignoring_case(&mut self, x: ExprId, y: ExprId) -> ExprId {
        let eq = self.arena.mk(Op::Eq, &[x, y]);
        let (ux, uy) = (self.ascii_case(x, true), self.ascii_case(y, true));
        let ueq = self.arena.mk(Op::Eq, &[ux, uy]);
        self.arena.mk(Op::Or2, &[eq, ueq])
    }

    /// ASCII upper (or lower) case of a Bv(16) character expression.
    fn ascii_case(&mut self, c: ExprId, upper: bool) -> ExprId {
        let (lo, hi) = if upper { (b'a', b'z') } else { (b'A', b'Z') };
        let lo = self.arena.konst(Value::char(u16::from(lo)));
        let hi = self.arena.konst(Value::char(u16::from(hi)));
        let ge = self.arena.mk(Op::Sge, &[c, lo]);
        let le = self.arena.mk(Op::Sle, &[c, hi]);
        let inr = self.arena.mk(Op::And2, &[ge, le]);
        let d = self.arena.konst(Value::char(32));
        let moved = self.arena.mk(if upper { Op::Sub } else { Op::Add }, &[c, d]);
        self.arena.mk(Op::Ite, &[inr, moved, c])
    }

    fn string_equals(&mut self, this: crate::value::ObjId, other: Slot, ignore_case: bool) -> Res<Slot> {
        let a = self.str_of(this)?;
        let b = match other.as_ref().map(|o| self.str_of(o)) {
            Some(Ok(b)) => b,
            _ => return Ok(Slot::int(0)),
        };
        let holds = if ignore_case {
            a.chars.len() == b.chars.len()
                && a.chars.iter().zip(&b.chars).all(|(x, y)| x.c == y.c || upper(x.c) == upper(y.c))
        } else {
            a.units() == b.units()
        };
        let e = self.str_eq_cond(&a, &b, ignore_case);
        Ok(self.bool_slot(holds, e))
    }

    fn string_hash(&mut self, this: crate::value::ObjId) -> Res<Slot> {
        if let Some(h) = self.string_hash_sym(this)? {
            return Ok(h);
        }
        let sv = self.fixed_str(this)?;
        let mut h = Slot::int(0);
        for ch in sv.chars {
            let c = self.char_slot(ch);
            let m = self.op(Op::Mul, &[h, Slot::int(31)]);
            h = self.op(Op::Add, &[m, c]);
        }
        Ok(h)
    }

    fn string_compare(&mut self, this: crate::value::ObjId, other: Slot) -> Res<Slot> {
        let Some(o) = other.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "compareTo(null)");
        };
        if !matches!(self.heap.get(o), Obj::Str(_)) {
            // The bridge `compareTo(Object)` casts its argument.
            let msg = format!(
                "{} cannot be cast to java.lang.String",
                ClassName::binary_of(&self.heap.class_of(o))
            );
            return self.throw_new("java/lang/ClassCastException", &msg);
        }
        let a = self.fixed_str(this)?;
        let b = self.fixed_str(o)?;
        let (na, nb) = (a.chars.len(), b.chars.len());
        let mut r = Slot::int(na as i32 - nb as i32);
        for k in (0..na.min(nb)).rev() {
            let (x, y) = (self.char_slot(a.chars[k]), self.char_slot(b.chars[k]));
            let d = self.op(Op::Sub, &[x, y]);
            let (ne, e) = self.cond(Op::Ne, &[x, y]);
            r = match (e, d.s.or(r.s)) {
                (None, _) if ne => d,
                (None, _) => r,
                (Some(c), _) => {
                    let (ed, er) = (self.expr(d), self.expr(r));
                    let ite = self.arena.mk(Op::Ite, &[c, ed, er]);
                    Slot { c: if ne { d.c } else { r.c }, s: Some(ite) }
                }
            };
        }
        Ok(r)
    }

    fn starts_with(&mut self, this: crate::value::ObjId, prefix: Slot, from: Slot) -> Res<Slot> {
        let Some(p) = prefix.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "startsWith(null)");
        };
        let from = self.pin(from).as_int();
        let a = self.str_of(this)?;
        let p = self.fixed_str(p)?;
        let (n, m) = (a.chars.len() as i64, p.chars.len() as i64);
        if from < 0 || i64::from(from) > n - m && a.len.is_none() {
            return Ok(Slot::int(0));
        }
        let holds = i64::from(from) + m <= n
            && p.chars.iter().enumerate().all(|(k, c)| a.chars[from as usize + k].c == c.c);
        if !a.is_symbolic() && !p.is_symbolic() {
            return Ok(Slot::int(i32::from(holds)));
        }
        let len = self.str_len(&a);
        let (_, fits) = self.cond(Op::Sge, &[len, Slot::int(from + m as i32)]);
        let mut acc = fits.unwrap_or_else(|| self.arena.konst(Value::Bool(true)));
        for k in 0..m as usize {
            let x = self.char_expr(&a, from as usize + k);
            let y = self.char_expr(&p, k);
            let eq = self.arena.mk(Op::Eq, &[x, y]);
            acc = self.arena.mk(Op::And2, &[acc, eq]);
        }
        Ok(self.bool_slot(holds, Some(acc)))
    }

    fn ends_with(&mut self, this: crate::value::ObjId, suffix: Slot) -> Res<Slot> {
        let Some(s) = suffix.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "endsWith(null)");
        };
        if let Some(r) = self.ends_with_sym(this, s)? {
            return Ok(r);
        }
        let a = self.fixed_str(this)?;
        let s = self.fixed_str(s)?;
        let (n, m) = (a.chars.len(), s.chars.len());
        if m > n {
            return Ok(Slot::int(0));
        }
        let (holds, e) = self.match_at(&a, &s, n - m);
        Ok(self.bool_slot(holds, e))
    }

    /// Whether `needle` occurs in `hay` at `at`, and its condition when symbolic.
    pub(crate) fn match_at(&mut self, hay: &StrVal, needle: &StrVal, at: usize) -> (bool, Option<ExprId>) {
        let mut holds = true;
        let mut acc: Option<ExprId> = None;
        for (k, c) in needle.chars.iter().enumerate() {
            let h = hay.chars[at + k];
            let (eq, e) = self.ch_cond(Op::Eq, h, *c);
            holds &= eq;
            acc = match (acc, e) {
                (a, None) if eq => a,
                (_, None) => Some(self.arena.konst(Value::Bool(false))),
                (None, Some(e)) => Some(e),
                (Some(a), Some(e)) => Some(self.arena.mk(Op::And2, &[a, e])),
            };
        }
        (holds, acc)
    }

    /// A comparison of two characters as Bv(16) values.
    pub(crate) fn ch_cond(&mut self, op: Op, a: Ch, b: Ch) -> (bool, Option<ExprId>) {
        let holds = solver::apply(op, &[Value::char(a.c), Value::char(b.c)]).as_bool();
        if a.s.is_none() && b.s.is_none() {
            return (holds, None);
        }
        let (x, y) = (self.ch_expr(a), self.ch_expr(b));
        self.sym_insn = true;
        let e = self.arena.mk(op, &[x, y]);
        (holds, self.arena.as_const(e).is_none().then_some(e))
    }

    /// The first position whose condition holds (-1 if none), as an ite chain when symbolic.
    pub(crate) fn first_match(&mut self, conds: &[(i32, bool, Option<ExprId>)]) -> Slot {
        let concrete = conds.iter().find(|c| c.1).map_or(-1, |c| c.0);
        if conds.iter().all(|c| c.2.is_none()) {
            return Slot::int(concrete);
        }
        let mut acc = self.arena.konst(Value::i32(-1));
        for &(p, holds, e) in conds.iter().rev() {
            let c = e.unwrap_or_else(|| self.arena.konst(Value::Bool(holds)));
            let pk = self.arena.konst(Value::i32(p));
            acc = self.arena.mk(Op::Ite, &[c, pk, acc]);
        }
        Slot { c: C::I(concrete), s: self.arena.as_const(acc).is_none().then_some(acc) }
    }

    /// `indexOf(String)` (an ite chain over the positions) or `contains` (whether it is not -1).
    fn find_str(&mut self, this: crate::value::ObjId, needle: Slot, contains: bool) -> Res<Slot> {
        let Some(nd) = needle.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "null");
        };
        let a = self.fixed_str(this)?;
        let s = self.fixed_str(nd)?;
        let (n, m) = (a.chars.len(), s.chars.len());
        let mut conds = Vec::new();
        if m <= n {
            for p in 0..=n - m {
                let (holds, e) = self.match_at(&a, &s, p);
                conds.push((p as i32, holds, e));
            }
        }
        let r = self.first_match(&conds);
        if !contains {
            return Ok(r);
        }
        let (found, e) = self.cond(Op::Sge, &[r, Slot::int(0)]);
        Ok(self.bool_slot(found, e))
    }

    pub(crate) fn index_of_char(
        &mut self,
        this: crate::value::ObjId,
        ch: Slot,
        from: Slot,
        last: bool,
    ) -> Res<Slot> {
        if !last
            && from.s.is_none()
            && from.as_int() == 0
            && let Some(r) = self.index_of_char_sym(this, ch)?
        {
            return Ok(r);
        }
        let a = self.fixed_str(this)?;
        let from = self.pin(from).as_int();
        let n = a.chars.len() as i32;
        let positions: Vec<i32> = if last {
            (0..n.min(from.saturating_add(1))).rev().collect()
        } else {
            (from.max(0)..n).collect()
        };
        // A code point above 0xFFFF never matches a single unit.
        let (bmp, e) = self.cond(Op::Ult, &[ch, Slot::int(0x10000)]);
        self.pin_cond(bmp, e);
        if !bmp {
            return Ok(Slot::int(-1));
        }
        let target = self.int_to_char(ch);
        let mut conds = Vec::new();
        for p in positions {
            let (eq, e) = self.ch_cond(Op::Eq, a.chars[p as usize], target);
            conds.push((p, eq, e));
        }
        Ok(self.first_match(&conds))
    }

    fn substring(&mut self, this: crate::value::ObjId, begin: Slot, end: Option<Slot>) -> Res<Slot> {
        if let Some(r) = self.substring_sym(this, begin, end)? {
            return Ok(r);
        }
        let a = self.fixed_str(this)?;
        let n = a.chars.len() as i32;
        let b = self.pin(begin).as_int();
        let e = end.map_or(n, |e| self.pin(e).as_int());
        if b < 0 || e > n || b > e {
            let msg = format!("begin {b}, end {e}, length {n}");
            return self.throw_new("java/lang/StringIndexOutOfBoundsException", &msg);
        }
        let chars = a.chars[b as usize..e as usize].to_vec();
        Ok(self.new_string(StrVal { chars, len: None, input: None, tail: Vec::new() }))
    }

    fn string_concat(&mut self, this: crate::value::ObjId, other: Slot) -> Res<Slot> {
        let Some(o) = other.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "concat(null)");
        };
        let a = self.str_of(this)?;
        let b = self.str_of(o)?;
        let s = self.concat_parts(vec![a, b]);
        Ok(self.new_string(s))
    }

    /// `trim()` (characters up to U+0020 are blank) and `strip()`, `stripLeading()`,
    /// `stripTrailing()` (`Character.isWhitespace`): each character looked at decides where the
    /// result starts or ends, so its side is pinned.
    fn trim(&mut self, this: crate::value::ObjId, blank: Blank, leading: bool, trailing: bool) -> Res<Slot> {
        if self.cfg.parser_models
            && let Some(r) = self.trim_sym(this, blank, leading, trailing)?
        {
            return Ok(r);
        }
        let a = self.fixed_str(this)?;
        let mut b = 0;
        let mut e = a.chars.len();
        while leading && b < e && self.blank_pinned(a.chars[b], blank) {
            b += 1;
        }
        while trailing && e > b && self.blank_pinned(a.chars[e - 1], blank) {
            e -= 1;
        }
        let chars = a.chars[b..e].to_vec();
        Ok(self.new_string(StrVal { chars, len: None, input: None, tail: Vec::new() }))
    }

    /// Whether `ch` is blank for `trim` or `strip`, the answer pinned when `ch` is symbolic.
    pub(crate) fn blank_pinned(&mut self, ch: Ch, blank: Blank) -> bool {
        let holds = blank.holds(ch.c);
        if let Some(x) = ch.s {
            let e = self.blank_expr(x, blank);
            self.pin_cond(holds, Some(e));
        }
        holds
    }

    /// Whether the Bv(16) character `x` is blank for `trim` or `strip`.
    pub(crate) fn blank_expr(&mut self, x: ExprId, blank: Blank) -> ExprId {
        match blank {
            Blank::Trim => {
                let space = self.arena.konst(Value::char(32));
                let above = self.arena.mk(Op::Ult, &[space, x]);
                self.arena.mk(Op::Not, &[above])
            }
            Blank::Strip => self.is_whitespace_expr(x),
        }
    }

    /// `Character.isWhitespace` of a Bv(16) character, exact for every UTF-16 unit.
    pub(crate) fn is_whitespace_expr(&mut self, x: ExprId) -> ExprId {
        self.in_ranges(x, JAVA_WHITESPACE)
    }

    /// A condition a model's result depends on, kept as it held (counted as a pin).
    pub(crate) fn pin_cond(&mut self, holds: bool, e: Option<ExprId>) {
        if let Some(e) = e {
            let h = self.held(holds, e);
            self.stats.pinned += 1;
            self.record(crate::EntryKind::Pin, h, crate::NO_GOAL, None);
        }
    }

    fn char_array_of(&mut self, this: crate::value::ObjId) -> Res<Slot> {
        let a = self.fixed_str(this)?;
        let elems: Vec<Slot> = a.chars.iter().map(|&c| self.char_slot(c)).collect();
        Ok(Slot::obj(self.heap.alloc(Obj::Array { comp: "C".into(), elems })))
    }

    /// `toUpperCase()`/`toLowerCase()`: ASCII characters mapped symbolically (a symbolic one is
    /// kept below 128 by a pin-kind entry); a string with a character outside ASCII is mapped as
    /// Java maps it (Unicode case mapping, final sigma), its symbolic characters pinned.
    fn map_case(&mut self, this: crate::value::ObjId, upper_case: bool) -> Res<Slot> {
        let a = self.fixed_str(this)?;
        if a.chars.iter().any(|c| c.c >= 128) {
            for ch in a.chars.iter().filter(|c| c.s.is_some()).copied().collect::<Vec<_>>() {
                let s = self.char_slot(ch);
                self.pin(s);
            }
            let text = a.to_rust();
            let mapped = if upper_case { text.to_uppercase() } else { text.to_lowercase() };
            return Ok(self.new_rust_string(&mapped));
        }
        let mut chars = Vec::with_capacity(a.chars.len());
        for &ch in &a.chars {
            let c = if upper_case {
                (ch.c as u8).to_ascii_uppercase()
            } else {
                (ch.c as u8).to_ascii_lowercase()
            };
            let s = match ch.s {
                None => None,
                Some(e) => {
                    let (ascii, x) = self.ch_cond(Op::Ult, ch, Ch { c: 128, s: None });
                    self.pin_cond(ascii, x);
                    Some(self.ascii_case(e, upper_case))
                }
            };
            chars.push(Ch { c: u16::from(c), s });
        }
        Ok(self.new_string(StrVal { chars, len: None, input: None, tail: Vec::new() }))
    }

    /// `toUpperCase(locale)`/`toLowerCase(locale)`: as without a locale (which assumes the
    /// workers' default is none of these), except in Turkish, Azeri and Lithuanian, whose own
    /// rules for `i` and dots are not modelled (the replay stops); a null locale throws.
    fn map_case_in(&mut self, this: crate::value::ObjId, upper_case: bool, locale: Slot) -> Res<Slot> {
        if locale.as_ref().is_none() {
            return self.throw_new("java/lang/NullPointerException", "locale is null");
        }
        let base =
            self.get_field(locale, "java/util/Locale", "baseLocale", "Lsun/util/locale/BaseLocale;")?;
        let language =
            self.get_field(base, "sun/util/locale/BaseLocale", "language", "Ljava/lang/String;")?;
        if let Some(l) = language.as_ref()
            && matches!(self.fixed_str(l)?.to_rust().as_str(), "tr" | "az" | "lt")
        {
            return unsupported("toUpperCase/toLowerCase in a Turkish, Azeri or Lithuanian locale");
        }
        self.map_case(this, upper_case)
    }

    fn replace_char(&mut self, this: crate::value::ObjId, old: Slot, new: Slot) -> Res<Slot> {
        let a = self.fixed_str(this)?;
        let (old, new) = (self.int_to_char(old), self.int_to_char(new));
        let mut chars = Vec::with_capacity(a.chars.len());
        for ch in a.chars {
            let (eq, e) = self.ch_cond(Op::Eq, ch, old);
            let c = if eq { new.c } else { ch.c };
            let s = match e {
                None if eq => new.s,
                None => ch.s,
                Some(e) => {
                    let (x, y) = (self.ch_expr(new), self.ch_expr(ch));
                    Some(self.arena.mk(Op::Ite, &[e, x, y]))
                }
            };
            chars.push(Ch { c, s });
        }
        Ok(self.new_string(StrVal { chars, len: None, input: None, tail: Vec::new() }))
    }

    fn ch_expr(&mut self, c: Ch) -> ExprId {
        c.s.unwrap_or_else(|| self.arena.konst(Value::char(c.c)))
    }
}

pub(crate) fn upper(c: u16) -> u16 {
    if (u16::from(b'a')..=u16::from(b'z')).contains(&c) { c - 32 } else { c }
}

/// What `trim` and `strip` take as blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Blank {
    /// `trim`: every character up to U+0020.
    Trim,
    /// `strip`: `Character.isWhitespace`.
    Strip,
}

impl Blank {
    /// Whether the UTF-16 unit `c` is blank.
    pub(crate) fn holds(self, c: u16) -> bool {
        match self {
            Blank::Trim => c <= 32,
            Blank::Strip => java_whitespace(c),
        }
    }
}

/// The UTF-16 units `Character.isWhitespace` holds for in JDK 17 (Unicode 13): the space,
/// line and paragraph separators but the no-break spaces U+00A0, U+2007 and U+202F, and
/// U+0009..U+000D, U+001C..U+001F.
pub(crate) const JAVA_WHITESPACE: &[(u32, u32)] = &[
    (0x09, 0x0D),
    (0x1C, 0x20),
    (0x1680, 0x1680),
    (0x2000, 0x2006),
    (0x2008, 0x200A),
    (0x2028, 0x2029),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
];

/// `Character.isWhitespace(c)` for a UTF-16 unit.
pub(crate) fn java_whitespace(c: u16) -> bool {
    JAVA_WHITESPACE.iter().any(|&(lo, hi)| (lo..=hi).contains(&u32::from(c)))
}
