//! More of the `java.lang.String` model: `isBlank`, `indexOf(String, from)`, `lastIndexOf(String)`,
//! `repeat`, `codePointAt`, `compareToIgnoreCase`, `getChars`, `regionMatches`; `split` and `matches`
//! are `regex`'s.

use solver::Op;

use crate::heap::{Obj, StrVal};
use crate::interp::{Machine, Res, unsupported};
use crate::models::ModelResult;
use crate::models::string::{java_whitespace, upper};
use crate::value::{ObjId, Slot};

impl Machine<'_, '_> {
    /// `getChars(srcBegin, srcEnd, dst, dstBegin)` (JDK 17): the source bounds are checked first
    /// (`StringIndexOutOfBoundsException`), then the destination (`NullPointerException` for a null
    /// array, `StringIndexOutOfBoundsException` past its end, as `checkBoundsOffCount` throws);
    /// then the characters, with their shadows, are copied. The indices are pinned.
    fn get_chars(&mut self, this: ObjId, args: &[Slot]) -> Res<()> {
        let a = self.fixed_str(this)?;
        let begin = self.pin(args[1]).as_int();
        let end = self.pin(args[2]).as_int();
        let dst_begin = self.pin(args[4]).as_int();
        let len = a.chars.len() as i32;
        if begin < 0 || begin > end || end > len {
            let what = format!("begin {begin}, end {end}, length {len}");
            return self.throw_new("java/lang/StringIndexOutOfBoundsException", &what);
        }
        let Some(dst) = args[3].as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "getChars into null");
        };
        let dst_len = match self.heap.get(dst) {
            Obj::Array { elems, .. } => elems.len() as i32,
            _ => return unsupported("String.getChars into a modelled object"),
        };
        let n = end - begin;
        if dst_begin < 0 || dst_begin > dst_len - n {
            let what = format!("offset {dst_begin}, count {n}, length {dst_len}");
            return self.throw_new("java/lang/StringIndexOutOfBoundsException", &what);
        }
        let slots: Vec<Slot> =
            a.chars[begin as usize..end as usize].iter().map(|&c| self.char_slot(c)).collect();
        if let Obj::Array { elems, .. } = self.heap.get_mut(dst) {
            for (k, s) in slots.into_iter().enumerate() {
                elems[dst_begin as usize + k] = s;
            }
        }
        Ok(())
    }

    /// `regionMatches([ignoreCase,] toffset, other, ooffset, len)` (JDK 17): `other` null throws;
    /// false when an offset is negative or a region passes its string's end (compared as longs);
    /// true for `len <= 0`; else the regions compared as `equals`/`equalsIgnoreCase` compare.
    /// Offsets, length and both lengths are pinned; ignoring case, a non-ASCII character in either
    /// region concretises both regions (`region_matches_unicode`).
    fn region_matches(&mut self, this: ObjId, ignore_case: Option<Slot>, rest: &[Slot]) -> Res<Option<Slot>> {
        let Some(o) = rest[1].as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "regionMatches with null");
        };
        let ic = ignore_case.is_some_and(|b| self.pin(b).as_int() != 0);
        let a = self.fixed_str(this)?;
        let b = self.fixed_str(o)?;
        let to = self.pin(rest[0]).as_int();
        let oo = self.pin(rest[2]).as_int();
        let len = self.pin(rest[3]).as_int();
        let (na, nb, l) = (a.chars.len() as i64, b.chars.len() as i64, i64::from(len));
        if oo < 0 || to < 0 || i64::from(to) > na - l || i64::from(oo) > nb - l {
            return Ok(Some(Slot::int(0)));
        }
        if len <= 0 {
            return Ok(Some(Slot::int(1)));
        }
        let region = |s: &StrVal, from: i32| {
            StrVal::from_chars(s.chars[from as usize..(from + len) as usize].to_vec())
        };
        let (ra, rb) = (region(&a, to), region(&b, oo));
        if ic && ra.chars.iter().chain(&rb.chars).any(|c| c.c >= 128) {
            return Ok(Some(self.region_matches_unicode(&ra, &rb)));
        }
        let holds = ra.chars.iter().zip(&rb.chars).all(|(x, y)| x.c == y.c || ic && upper(x.c) == upper(y.c));
        let e = self.str_eq_cond(&ra, &rb, ic);
        Ok(Some(self.bool_slot(holds, e)))
    }

    /// `regionMatches` ignoring case over regions with a character outside ASCII, where the
    /// symbolic case mapping (ASCII only) does not hold: the regions' symbolic characters are
    /// pinned and the JDK 17 comparison (`StringUTF16.regionMatchesCI`: equal, or equal upper
    /// cases, or equal lower cases of the upper cases) done on the concrete characters.
    fn region_matches_unicode(&mut self, ra: &StrVal, rb: &StrVal) -> Slot {
        for ch in ra.chars.iter().chain(&rb.chars).filter(|c| c.s.is_some()).copied().collect::<Vec<_>>() {
            let s = self.char_slot(ch);
            self.pin(s);
        }
        let same = ra.chars.iter().zip(&rb.chars).all(|(x, y)| {
            let (ux, uy) = (simple_case(x.c, true), simple_case(y.c, true));
            x.c == y.c || ux == uy || simple_case(ux, false) == simple_case(uy, false)
        });
        Slot::int(i32::from(same))
    }

    /// The methods of `string_model`'s second half (`this` non-null).
    pub(crate) fn string_model_more(
        &mut self,
        this: ObjId,
        name: &str,
        desc: &str,
        args: &[Slot],
    ) -> ModelResult {
        let r = match (name, desc) {
            ("isBlank", "()Z") => self.is_blank(this),
            ("indexOf", "(Ljava/lang/String;I)I") => self.find_from(this, args[1], Some(args[2]), false),
            ("lastIndexOf", "(Ljava/lang/String;)I") => self.find_from(this, args[1], None, true),
            ("lastIndexOf", "(Ljava/lang/String;I)I") => self.find_from(this, args[1], Some(args[2]), true),
            ("lastIndexOf", "(II)I") => self.index_of_char(this, args[1], args[2], true).map(Some),
            ("replace", "(Ljava/lang/CharSequence;Ljava/lang/CharSequence;)Ljava/lang/String;") => {
                self.replace_all(this, args[1], args[2])
            }
            ("repeat", "(I)Ljava/lang/String;") => self.repeat(this, args[1]),
            ("codePointAt", "(I)I") => {
                let c = self.string_model("charAt", "(I)C", args)?;
                match c {
                    Ok(Some(v)) if (0xd800..0xdc00).contains(&v.as_int()) => {
                        unsupported("codePointAt of a surrogate pair")
                    }
                    other => other,
                }
            }
            ("compareToIgnoreCase", "(Ljava/lang/String;)I") => self.compare_ignoring_case(this, args[1]),
            ("split", "(Ljava/lang/String;)[Ljava/lang/String;") => self.split_regex(this, args[1], None),
            ("split", "(Ljava/lang/String;I)[Ljava/lang/String;") => {
                self.split_regex(this, args[1], Some(args[2]))
            }
            ("matches", "(Ljava/lang/String;)Z") => self.matches_regex(this, args[1]),
            ("getChars", "(II[CI)V") => self.get_chars(this, args).map(|_| None),
            ("regionMatches", "(ILjava/lang/String;II)Z") => self.region_matches(this, None, &args[1..]),
            ("regionMatches", "(ZILjava/lang/String;II)Z") => {
                self.region_matches(this, Some(args[1]), &args[2..])
            }
            _ => return None,
        };
        Some(r)
    }

    /// `isBlank()`: every character `Character.isWhitespace` (exact for every UTF-16 unit: no
    /// code point past the BMP is whitespace), the conjunction kept symbolic.
    fn is_blank(&mut self, this: ObjId) -> Res<Option<Slot>> {
        let a = self.fixed_str(this)?;
        let holds = a.chars.iter().all(|c| java_whitespace(c.c));
        if a.chars.iter().all(|c| c.s.is_none()) {
            return Ok(Some(Slot::int(i32::from(holds))));
        }
        let mut acc = self.arena.konst(solver::Value::Bool(true));
        for ch in a.chars {
            let x = match ch.s {
                Some(x) => self.is_whitespace_expr(x),
                None => self.arena.konst(solver::Value::Bool(java_whitespace(ch.c))),
            };
            acc = self.arena.mk(Op::And2, &[acc, x]);
        }
        self.sym_insn = true;
        Ok(Some(self.bool_slot(holds, Some(acc))))
    }

    /// `indexOf(String, from)` and `lastIndexOf(String)`: the positions tried in search order, the
    /// first match as an ite chain.
    fn find_from(&mut self, this: ObjId, needle: Slot, from: Option<Slot>, last: bool) -> Res<Option<Slot>> {
        let Some(nd) = needle.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "null");
        };
        let a = self.fixed_str(this)?;
        let s = self.fixed_str(nd)?;
        let (n, m) = (a.chars.len() as i32, s.chars.len() as i32);
        let from = from.map(|f| self.pin(f).as_int());
        // Backwards from `min(from, n - m)` (nothing when `from` is negative), else forwards.
        let positions: Vec<i32> = if last {
            (0..=from.map_or(n - m, |f| f.min(n - m))).rev().collect()
        } else {
            (from.unwrap_or(0).max(0)..=n - m).collect()
        };
        let mut conds = Vec::new();
        for p in positions {
            let (holds, e) = self.match_at(&a, &s, p as usize);
            conds.push((p, holds, e));
        }
        Ok(Some(self.first_match(&conds)))
    }

    /// `replace(target, replacement)`: every occurrence, left to right, of a `CharSequence`;
    /// an empty target puts the replacement before every character and at the end (JDK 17).
    /// Concretised: the three strings' characters are pinned.
    fn replace_all(&mut self, this: ObjId, target: Slot, replacement: Slot) -> Res<Option<Slot>> {
        if target.as_ref().is_none() || replacement.as_ref().is_none() {
            return self.throw_new("java/lang/NullPointerException", "replace with null");
        }
        let t = self.string_of(target, "Ljava/lang/CharSequence;")?;
        let r = self.string_of(replacement, "Ljava/lang/CharSequence;")?;
        let a = self.concrete_str(this)?.units();
        let mut pinned = Vec::new();
        for sv in [&t, &r] {
            pinned.extend(sv.chars.iter().filter(|c| c.s.is_some()).copied());
            if let Some(l) = sv.len {
                self.pin(Slot { c: crate::value::C::I(sv.chars.len() as i32), s: Some(l) });
            }
        }
        for ch in pinned {
            let s = self.char_slot(ch);
            self.pin(s);
        }
        let (t, r) = (t.units(), r.units());
        let mut out: Vec<u16> = Vec::with_capacity(a.len());
        let mut i = 0;
        if t.is_empty() {
            for &c in &a {
                out.extend(&r);
                out.push(c);
            }
            out.extend(&r);
        } else {
            while i < a.len() {
                if a[i..].starts_with(&t) {
                    out.extend(&r);
                    i += t.len();
                } else {
                    out.push(a[i]);
                    i += 1;
                }
            }
        }
        Ok(Some(self.new_string(StrVal::concrete(&out))))
    }

    fn repeat(&mut self, this: ObjId, count: Slot) -> Res<Option<Slot>> {
        let n = self.pin(count).as_int();
        if n < 0 {
            return self.throw_new("java/lang/IllegalArgumentException", &format!("count is negative: {n}"));
        }
        let a = self.fixed_str(this)?;
        if (a.chars.len() as u64) * (n as u64) > 1 << 20 {
            return unsupported(format!("repeat({n})"));
        }
        let mut out = StrVal::default();
        for _ in 0..n {
            out.chars.extend(a.chars.iter().copied());
        }
        Ok(Some(self.new_string(out)))
    }

    fn compare_ignoring_case(&mut self, this: ObjId, other: Slot) -> Res<Option<Slot>> {
        let Some(o) = other.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "compareToIgnoreCase(null)");
        };
        let lower_a = self.string_model("toLowerCase", "()Ljava/lang/String;", &[Slot::obj(this)]);
        let lower_b = self.string_model("toLowerCase", "()Ljava/lang/String;", &[Slot::obj(o)]);
        let (Some(Ok(Some(x))), Some(Ok(Some(y)))) = (lower_a, lower_b) else {
            return unsupported("compareToIgnoreCase");
        };
        self.string_model("compareTo", "(Ljava/lang/String;)I", &[x, y])
            .unwrap_or_else(|| unsupported("compareTo"))
    }
}

/// `Character.toUpperCase(char)`/`toLowerCase(char)`: Unicode's simple (one-to-one) case mapping,
/// taken from Rust's full mapping where that is one character; of the others, whose full mapping
/// is longer (`ß` to `SS`), Java leaves most unchanged, but `İ` lowers to `i` and the Greek
/// letters with a subscript iota upper to their titlecase forms. Surrogates unchanged.
pub(crate) fn simple_case(c: u16, upper: bool) -> u16 {
    match (c, upper) {
        (0x130, false) => return u16::from(b'i'),
        (0x1f80..=0x1f87 | 0x1f90..=0x1f97 | 0x1fa0..=0x1fa7, true) => return c + 8,
        (0x1fb3 | 0x1fc3 | 0x1ff3, true) => return c + 9,
        _ => {}
    }
    let Some(ch) = char::from_u32(u32::from(c)) else { return c };
    let mut mapped: Vec<char> = if upper { ch.to_uppercase().collect() } else { ch.to_lowercase().collect() };
    match (mapped.pop(), mapped.is_empty()) {
        (Some(m), true) => u16::try_from(u32::from(m)).unwrap_or(c),
        _ => c,
    }
}
