//! `ConcurrentHashMap` as a stand-in for one thread: its initialiser and methods reach `Unsafe`,
//! so a map keeps `HashMap`'s fields and its point methods run `HashMap`'s bytecode, after the
//! null checks by which it differs (no null keys or values: `NullPointerException`). Its class
//! stays `ConcurrentHashMap` for `getClass`, `instanceof` and `checkcast`; the calls `HashMap`'s
//! bytecode makes on it (references naming `java/util/HashMap`) select from `HashMap`.
//!
//! Only methods whose results do not depend on the table's layout are modelled: the two maps
//! size and split their tables differently (`ConcurrentHashMap.transfer` reverses part of a bin),
//! so their iteration orders can differ, and the views, iteration, `toString`, `equals`,
//! `hashCode` and every other method stop the replay. The key's `equals` is called on the same
//! receiver by both, but for the keys whose spread hashes differ in the top bit only (the
//! concurrent map masks it): such keys, equal or not, get one more `equals` call here.

use crate::heap::Obj;
use crate::interp::{Machine, Res, unsupported};
use crate::invoke::CallKind;
use crate::models::ModelResult;
use crate::value::{ObjId, Slot};

pub(crate) const CHM: &str = "java/util/concurrent/ConcurrentHashMap";
const HASH_MAP: &str = "java/util/HashMap";

const GET: &str = "(Ljava/lang/Object;)Ljava/lang/Object;";
const PUT: &str = "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";
const COMPUTE_IF_ABSENT: &str = "(Ljava/lang/Object;Ljava/util/function/Function;)Ljava/lang/Object;";

impl Machine<'_, '_> {
    /// The class a virtual call on `recv` naming `class` selects from: the receiver's own, but
    /// `HashMap` for a stand-in called from `HashMap`'s bytecode (no real `ConcurrentHashMap` is
    /// a `HashMap`, so only the stand-in's delegation makes such a call).
    pub(crate) fn stand_in_runtime(&self, recv: ObjId, class: &str) -> String {
        let c = self.heap.class_of(recv);
        if class == HASH_MAP && self.supers(&c).iter().any(|s| s == CHM) { HASH_MAP.to_string() } else { c }
    }

    /// A `ConcurrentHashMap` method: the null checks of the concurrent map, then `HashMap`'s
    /// method of the same signature. `None` for `Object`'s final methods (`getClass`), which
    /// run as for any object.
    pub(crate) fn chm_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        // The arguments the concurrent map refuses when null.
        let non_null: &[usize] = match (name, desc) {
            ("<init>", "()V" | "(I)V") | ("size", "()I") | ("isEmpty", "()Z") | ("clear", "()V") => &[],
            ("get" | "containsKey" | "remove", _) if desc == GET || desc == "(Ljava/lang/Object;)Z" => &[1],
            ("getOrDefault", PUT) => &[1],
            // `remove(k, v)` with a null value is false, as no value is null.
            ("remove", "(Ljava/lang/Object;Ljava/lang/Object;)Z") => &[1],
            ("put" | "putIfAbsent" | "replace", PUT) => &[1, 2],
            ("computeIfAbsent", COMPUTE_IF_ABSENT) => &[1, 2],
            ("getClass" | "notify" | "notifyAll" | "wait", _) => return None,
            _ => return Some(unsupported(format!("ConcurrentHashMap.{name}{desc}"))),
        };
        if args.first().and_then(|a| a.as_ref()).is_none() {
            return Some(unsupported(format!("static ConcurrentHashMap.{name}{desc}")));
        }
        for &i in non_null {
            if args.get(i).and_then(|a| a.as_ref()).is_none() {
                return Some(self.throw_new("java/lang/NullPointerException", ""));
            }
        }
        if name == "<init>"
            && let Err(e) = self.ensure_init(HASH_MAP)
        {
            return Some(Err(e));
        }
        if name == "computeIfAbsent" {
            return Some(self.chm_compute_if_absent(args));
        }
        Some(self.call(CallKind::Special, HASH_MAP, name, desc, args.to_vec()))
    }

    /// `computeIfAbsent`: the value if present, else the function's value put unless null. The
    /// concurrent map lets the function change other bins where `HashMap`'s bytecode throws
    /// `ConcurrentModificationException`, and throws `IllegalStateException` for a change of the
    /// same bin: a function that changes the map stops the replay.
    fn chm_compute_if_absent(&mut self, args: &[Slot]) -> Res<Option<Slot>> {
        let (map, key, f) = (args[0], args[1], args[2]);
        let old = self.call(CallKind::Special, HASH_MAP, "get", GET, vec![map, key])?;
        if let Some(v) = old.filter(|v| v.as_ref().is_some()) {
            return Ok(Some(v));
        }
        let before = self.mod_count(map);
        let apply = "(Ljava/lang/Object;)Ljava/lang/Object;";
        let v = self.call(CallKind::Virtual, "java/util/function/Function", "apply", apply, vec![f, key])?;
        if self.mod_count(map) != before {
            return unsupported("ConcurrentHashMap.computeIfAbsent whose function changes the map");
        }
        let Some(v) = v.filter(|v| v.as_ref().is_some()) else { return Ok(Some(Slot::null())) };
        self.call(CallKind::Special, HASH_MAP, "put", PUT, vec![map, key, v])?;
        Ok(Some(v))
    }

    /// `HashMap.modCount` of a stand-in, concrete (the map's structure is).
    fn mod_count(&self, map: Slot) -> i32 {
        match map.as_ref().map(|o| self.heap.get(o)) {
            Some(Obj::Inst { fields, .. }) => {
                fields.get("java/util/HashMap.modCount").map_or(0, |s| s.as_int())
            }
            _ => 0,
        }
    }
}
