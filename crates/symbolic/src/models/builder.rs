//! `StringBuilder` and `StringBuffer` (one model: no threads): the contents are a char sequence
//! with shadows, appended to by `String.valueOf` of each argument.

use crate::heap::{Obj, StrVal};
use crate::interp::{Machine, Res, unsupported};
use crate::models::ModelResult;
use crate::value::{ObjId, Slot};

impl Machine<'_, '_> {
    pub(crate) fn builder_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let this = args.first()?.as_ref()?;
        let params = &desc[1..desc.find(')')?];
        let r = match (name, params) {
            ("<init>", "") => Ok(None),
            ("<init>", "I") => {
                if args[1].as_int() < 0 {
                    return Some(self.throw_new("java/lang/NegativeArraySizeException", "capacity"));
                }
                Ok(None)
            }
            // `new StringBuilder(null)` calls `length()` on its argument.
            ("<init>", _) if args[1].as_ref().is_none() => {
                self.throw_new("java/lang/NullPointerException", "new StringBuilder(null)")
            }
            ("<init>", p) => self.append(this, args[1], p).map(|_| None),
            // `append(char[], offset, len)` reads `str.length` first: a null array throws, where a
            // null CharSequence appends "null".
            ("append", "[CII") if args[1].as_ref().is_none() => {
                self.throw_new("java/lang/NullPointerException", "append of a null char[]")
            }
            ("append", "Ljava/lang/CharSequence;II") | ("append", "[CII") => {
                self.append_range(this, args).map(Some)
            }
            ("append", p) => self.append(this, args[1], p).map(|_| Some(args[0])),
            ("toString", "") => {
                let sv = self.builder_val(this);
                Ok(Some(self.new_string(StrVal { len: None, input: None, tail: Vec::new(), ..sv })))
            }
            ("length", "") => Ok(Some(Slot::int(self.builder_val(this).chars.len() as i32))),
            ("charAt", "I") => return self.string_model("charAt", "(I)C", args),
            ("setLength", "I") => self.set_length(this, args[1]).map(|_| None),
            ("insert", p) if p.starts_with('I') && params.len() > 1 => {
                self.insert(this, args[1], args[2], &p[1..]).map(|_| Some(args[0]))
            }
            ("reverse", "") => {
                self.with_builder(this, |v| v.chars.reverse());
                Ok(Some(args[0]))
            }
            ("deleteCharAt", "I") => self.delete(this, args[1], None).map(|_| Some(args[0])),
            ("delete", "II") => self.delete(this, args[1], Some(args[2])).map(|_| Some(args[0])),
            ("setCharAt", "IC") => self.set_char_at(this, args[1], args[2]).map(|_| None),
            ("indexOf", "Ljava/lang/String;") => {
                let sv = self.builder_val(this);
                let s = self.new_string(sv);
                let tmp = [s, args[1]];
                return self.string_model("indexOf", "(Ljava/lang/String;)I", &tmp);
            }
            // The builder's contents as a string, then `String`'s model.
            ("substring" | "subSequence", "II") | ("substring", "I") => {
                let sv = self.builder_val(this);
                let s = self.new_string(sv);
                let mut tmp = vec![s];
                tmp.extend_from_slice(&args[1..]);
                let desc = match (name, params) {
                    ("subSequence", _) => "(II)Ljava/lang/CharSequence;",
                    (_, "II") => "(II)Ljava/lang/String;",
                    _ => "(I)Ljava/lang/String;",
                };
                return self.string_model(name, desc, &tmp);
            }
            ("capacity", "") => Ok(Some(Slot::int(self.builder_val(this).chars.len().max(16) as i32))),
            _ => return None,
        };
        Some(r)
    }

    fn builder_val(&self, o: ObjId) -> StrVal {
        match self.heap.get(o) {
            Obj::Builder { val, .. } => val.clone(),
            Obj::Str(s) => s.clone(),
            _ => StrVal::default(),
        }
    }

    fn with_builder(&mut self, o: ObjId, f: impl FnOnce(&mut StrVal)) {
        if let Obj::Builder { val, .. } = self.heap.get_mut(o) {
            f(val);
        }
    }

    fn append(&mut self, this: ObjId, v: Slot, param: &str) -> Res<()> {
        let sv = match param {
            "[C" => {
                let Some(a) = v.as_ref() else {
                    return self.throw_new("java/lang/NullPointerException", "null");
                };
                let elems = match self.heap.get(a) {
                    Obj::Array { elems, .. } => elems.clone(),
                    _ => return unsupported("append of a non-array"),
                };
                StrVal {
                    chars: elems.into_iter().map(|e| self.int_to_char(e)).collect(),
                    len: None,
                    input: None,
                    tail: Vec::new(),
                }
            }
            _ => self.string_of(v, param)?,
        };
        self.with_builder(this, |b| b.chars.extend(sv.chars));
        Ok(())
    }

    fn append_range(&mut self, this: ObjId, args: &[Slot]) -> Res<Slot> {
        let sv = match args[1].as_ref() {
            Some(o) if matches!(self.heap.get(o), Obj::Array { .. }) => {
                let elems = match self.heap.get(o) {
                    Obj::Array { elems, .. } => elems.clone(),
                    _ => Vec::new(),
                };
                StrVal {
                    chars: elems.into_iter().map(|e| self.int_to_char(e)).collect(),
                    len: None,
                    input: None,
                    tail: Vec::new(),
                }
            }
            Some(o) => self.fixed_str(o)?,
            None => StrVal::concrete(&"null".encode_utf16().collect::<Vec<_>>()),
        };
        let a = self.pin(args[2]).as_int();
        let b = self.pin(args[3]).as_int();
        // (char[], offset, len) versus (CharSequence, start, end).
        let (s, e) = if matches!(args[1].as_ref().map(|o| self.heap.get(o)), Some(Obj::Array { .. })) {
            (a, a.saturating_add(b))
        } else {
            (a, b)
        };
        if s < 0 || e < s || e as usize > sv.chars.len() {
            return self.throw_new("java/lang/IndexOutOfBoundsException", "append range");
        }
        let part = sv.chars[s as usize..e as usize].to_vec();
        self.with_builder(this, |v| v.chars.extend(part));
        Ok(args[0])
    }

    fn set_length(&mut self, this: ObjId, n: Slot) -> Res<()> {
        let n = self.pin(n).as_int();
        if n < 0 {
            return self.throw_new("java/lang/StringIndexOutOfBoundsException", "setLength");
        }
        if n > 1 << 20 {
            return unsupported(format!("setLength({n})"));
        }
        self.with_builder(this, |v| v.chars.resize(n as usize, crate::heap::Ch { c: 0, s: None }));
        Ok(())
    }

    fn insert(&mut self, this: ObjId, at: Slot, v: Slot, param: &str) -> Res<()> {
        let at = self.pin(at).as_int();
        let len = self.builder_val(this).chars.len() as i32;
        if at < 0 || at > len {
            return self.throw_new("java/lang/StringIndexOutOfBoundsException", "insert");
        }
        let sv = self.string_of(v, param)?;
        self.with_builder(this, |b| {
            let tail = b.chars.split_off(at as usize);
            b.chars.extend(sv.chars);
            b.chars.extend(tail);
        });
        Ok(())
    }

    fn delete(&mut self, this: ObjId, start: Slot, end: Option<Slot>) -> Res<()> {
        let len = self.builder_val(this).chars.len() as i32;
        let s = self.pin(start).as_int();
        let e = match end {
            Some(e) => self.pin(e).as_int().min(len),
            None => s.saturating_add(1),
        };
        if s < 0 || s > e || (end.is_none() && s >= len) {
            return self.throw_new("java/lang/StringIndexOutOfBoundsException", "delete");
        }
        self.with_builder(this, |b| {
            b.chars.drain(s as usize..e as usize);
        });
        Ok(())
    }

    fn set_char_at(&mut self, this: ObjId, at: Slot, c: Slot) -> Res<()> {
        let at = self.pin(at).as_int();
        let len = self.builder_val(this).chars.len() as i32;
        if at < 0 || at >= len {
            return self.throw_new("java/lang/StringIndexOutOfBoundsException", "setCharAt");
        }
        let ch = self.int_to_char(c);
        self.with_builder(this, |b| b.chars[at as usize] = ch);
        Ok(())
    }
}
