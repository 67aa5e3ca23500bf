//! The smaller models: `Object` (identity equality and hash, `getClass`, `clone`), `Throwable`
//! (message and cause; `fillInStackTrace` a no-op), `System.arraycopy`, `Arrays`, `Objects`,
//! `Class` names, and `PrintStream` output as a no-op (that still calls `toString`).

use jvm_model::ClassName;
use solver::{Op, Value};

use crate::heap::{Obj, StrVal};
use crate::interp::{Machine, Res, unsupported};
use crate::invoke::CallKind;
use crate::models::ModelResult;
use crate::value::{C, ObjId, Slot, default_of};

/// The workers' time base (`protocol::Setup::empty().time_base_ms`, which the engine keeps).
pub const TIME_BASE_MS: i64 = 1_500_000_000_000;

/// The seed of the workers' `Random` behind `Math.random` (java/runtime `Guards.RANDOM_SEED`).
const RANDOM_SEED: u64 = 0x5EED_5EED_5EED;

const DETAIL: &str = "java/lang/Throwable.detailMessage";
const CAUSE: &str = "java/lang/Throwable.cause";

impl Machine<'_, '_> {
    /// The identity hash of an object: the workers' JVMs run with `-XX:hashCode=2` (crates/worker
    /// `process.rs`), which makes every identity hash 1, so the replay gives 1 too. (It was a
    /// hash of the heap index, which made `hashCode` of objects without their own, and of maps and
    /// sets holding them, differ from the JVM's: TreeRangeMap on the public set.)
    fn identity_hash(_: ObjId) -> i32 {
        1
    }

    pub(crate) fn object_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let this = args.first()?.as_ref()?;
        let r = match (name, desc) {
            ("<init>", "()V") => Ok(None),
            ("equals", "(Ljava/lang/Object;)Z") => {
                Ok(Some(Slot::int(i32::from(Some(this) == args[1].as_ref()))))
            }
            ("hashCode", "()I") => Ok(Some(Slot::int(Self::identity_hash(this)))),
            ("getClass", "()Ljava/lang/Class;") => {
                let c = self.heap.class_of(this);
                Ok(Some(Slot::obj(self.heap.mirror(&c))))
            }
            ("toString", "()Ljava/lang/String;") => {
                let h = match self.call(
                    CallKind::Virtual,
                    "java/lang/Object",
                    "hashCode",
                    "()I",
                    vec![args[0]],
                ) {
                    Ok(h) => h.map_or(0, |s| self.pin(s).as_int()),
                    Err(e) => return Some(Err(e)),
                };
                let c = ClassName::binary_of(&self.heap.class_of(this));
                Ok(Some(self.new_rust_string(&format!("{c}@{h:x}"))))
            }
            ("clone", "()Ljava/lang/Object;") => self.clone_object(this).map(Some),
            ("notify" | "notifyAll", "()V") => Ok(None),
            _ => return None,
        };
        Some(r)
    }

    fn clone_object(&mut self, o: ObjId) -> Res<Slot> {
        let copy = self.heap.get(o).clone();
        if let Obj::Inst { class, .. } = &copy
            && !self.assignable(class, "java/lang/Cloneable")
        {
            let c = ClassName::binary_of(class);
            return self.throw_new("java/lang/CloneNotSupportedException", &c);
        }
        Ok(Slot::obj(self.heap.alloc(copy)))
    }

    pub(crate) fn throwable_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let this = args.first()?.as_ref()?;
        let set = |m: &mut Self, key: &str, v: Slot| {
            if let Obj::Inst { fields, .. } = m.heap.get_mut(this) {
                fields.insert(key.to_string(), v);
            }
        };
        let get = |m: &Self, key: &str| match m.heap.get(this) {
            Obj::Inst { fields, .. } => fields.get(key).copied().unwrap_or(Slot::null()),
            _ => Slot::null(),
        };
        let r = match (name, desc) {
            ("<init>", "()V") => Ok(None),
            ("<init>", "(Ljava/lang/String;)V") => {
                set(self, DETAIL, args[1]);
                Ok(None)
            }
            (
                "<init>",
                "(Ljava/lang/String;Ljava/lang/Throwable;)V" | "(Ljava/lang/String;Ljava/lang/Throwable;ZZ)V",
            ) => {
                set(self, DETAIL, args[1]);
                set(self, CAUSE, args[2]);
                Ok(None)
            }
            ("<init>", "(Ljava/lang/Throwable;)V") => {
                // The message of `Throwable(cause)` is the cause's toString: concrete here.
                let msg = match args[1].as_ref() {
                    Some(_) => {
                        let s = self.string_of(args[1], "Ljava/lang/Object;");
                        match s {
                            Ok(s) => self.new_string(s),
                            Err(e) => return Some(Err(e)),
                        }
                    }
                    None => Slot::null(),
                };
                set(self, DETAIL, msg);
                set(self, CAUSE, args[1]);
                Ok(None)
            }
            ("getMessage" | "getLocalizedMessage", _) => Ok(Some(get(self, DETAIL))),
            ("getCause", _) => Ok(Some(get(self, CAUSE))),
            ("initCause", _) => {
                set(self, CAUSE, args[1]);
                Ok(Some(args[0]))
            }
            ("fillInStackTrace", _) => Ok(Some(args[0])),
            ("printStackTrace", "()V") | ("addSuppressed", _) | ("setStackTrace", _) => Ok(None),
            ("getStackTrace", _) => {
                let a = self
                    .heap
                    .alloc(Obj::Array { comp: "Ljava/lang/StackTraceElement;".into(), elems: Vec::new() });
                Ok(Some(Slot::obj(a)))
            }
            ("toString", "()Ljava/lang/String;") => {
                let c = ClassName::binary_of(&self.heap.class_of(this));
                let msg = get(self, DETAIL);
                let text = match msg.as_ref() {
                    Some(m) => match self.fixed_str(m) {
                        Ok(s) => format!("{c}: {}", s.to_rust()),
                        Err(e) => return Some(Err(e)),
                    },
                    None => c,
                };
                Ok(Some(self.new_rust_string(&text)))
            }
            _ => return None,
        };
        Some(r)
    }

    pub(crate) fn system_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let r = match (name, desc) {
            ("arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V") => self.arraycopy(args).map(|_| None),
            ("identityHashCode", _) => Ok(Some(Slot::int(args[0].as_ref().map_or(0, Self::identity_hash)))),
            ("lineSeparator", _) => Ok(Some(self.new_rust_string("\n"))),
            // The workers run without a security manager (DESIGN.md §3.4: guards instead).
            ("getSecurityManager", "()Ljava/lang/SecurityManager;") => Ok(Some(Slot::null())),
            ("currentTimeMillis" | "nanoTime", "()J") => self.guarded_clock(name == "nanoTime").map(Some),
            _ => return Some(unsupported(format!("System.{name}{desc}"))),
        };
        Some(r)
    }

    /// `Thread.currentThread()`: one `Thread` object per replay, with no fields set (the JDK's
    /// code reads its `threadLocals`, null until a `ThreadLocal` makes the map, as for a new
    /// thread). Made without running `Thread`'s initialiser, which the JVM ran before any test.
    pub(crate) fn current_thread(&mut self) -> Slot {
        const KEY: &str = "java/lang/Thread.suitesmith.current";
        if let Some(t) = self.heap.statics.get(KEY) {
            return *t;
        }
        let t = Slot::obj(
            self.heap.alloc(Obj::Inst { class: "java/lang/Thread".to_string(), fields: Default::default() }),
        );
        self.heap.statics.insert(KEY.to_string(), t);
        t
    }

    /// `Reflection.getCallerClass()` (native): the class of the method that called the method
    /// asking (`AccessController.doPrivileged`'s caller, say); the test itself calls from the
    /// class under test's package, which no JDK code tells apart.
    pub(crate) fn caller_class(&mut self) -> Slot {
        let n = self.locs.len();
        let caller = match n.checked_sub(2).map(|i| self.locs[i].class.clone()) {
            Some(c) if c != "test" => c,
            _ => {
                self.plan.classes().first().map_or_else(|| programdb::OBJECT.to_string(), |c| c.name.clone())
            }
        };
        Slot::obj(self.heap.mirror(&caller))
    }

    /// The workers' clock (java/runtime `Guards`): the instrumented classes under test read a
    /// time that starts at the setup's base and advances by 1 ms per query, from 0 in every test.
    /// Other callers (the JDK) read the real clock, which a replay cannot know.
    fn guarded_clock(&mut self, nanos: bool) -> Res<Slot> {
        let caller = self.locs.last().map(|l| l.class.clone()).unwrap_or_default();
        if self.plan.class_id(&caller).is_none() {
            return unsupported(format!(
                "System.{} outside the classes under test",
                if nanos { "nanoTime" } else { "currentTimeMillis" }
            ));
        }
        let ms = TIME_BASE_MS + self.clock_ticks;
        self.clock_ticks += 1;
        Ok(Slot::long(if nanos { ms * 1_000_000 } else { ms }))
    }

    /// `Math.random()` in the classes under test: the workers' per-test `java.util.Random` seeded
    /// with `Guards.RANDOM_SEED` (its 48-bit LCG, `nextDouble`).
    pub(crate) fn guarded_random(&mut self) -> Res<Slot> {
        const MULT: u64 = 0x5_DEEC_E66D;
        const MASK: u64 = (1 << 48) - 1;
        let caller = self.locs.last().map(|l| l.class.clone()).unwrap_or_default();
        if self.plan.class_id(&caller).is_none() {
            return unsupported("Math.random outside the classes under test");
        }
        let seed = self.random_seed.get_or_insert((RANDOM_SEED ^ MULT) & MASK);
        let mut next = |bits: u32| {
            *seed = (seed.wrapping_mul(MULT).wrapping_add(0xB)) & MASK;
            (*seed >> (48 - bits)) as i64
        };
        let hi = next(26);
        let lo = next(27);
        let v = ((hi << 27) + lo) as f64 * (1.0 / (1u64 << 53) as f64);
        Ok(Slot::conc(C::D(v.to_bits())))
    }

    fn arraycopy(&mut self, args: &[Slot]) -> Res<()> {
        let (Some(src), Some(dst)) = (args[0].as_ref(), args[2].as_ref()) else {
            return self.throw_new("java/lang/NullPointerException", "arraycopy of null");
        };
        let sp = self.pin(args[1]).as_int();
        let dp = self.pin(args[3]).as_int();
        let n = self.pin(args[4]).as_int();
        let (Obj::Array { elems: se, .. }, Obj::Array { elems: de, .. }) =
            (self.heap.get(src), self.heap.get(dst))
        else {
            return self.throw_new("java/lang/ArrayStoreException", "arraycopy of a non-array");
        };
        let (sl, dl) = (se.len() as i64, de.len() as i64);
        let (sp, dp, n) = (i64::from(sp), i64::from(dp), i64::from(n));
        if sp < 0 || dp < 0 || n < 0 || sp + n > sl || dp + n > dl {
            return self.throw_new(
                "java/lang/ArrayIndexOutOfBoundsException",
                "arraycopy: last source index out of bounds",
            );
        }
        let part: Vec<Slot> = se[sp as usize..(sp + n) as usize].to_vec();
        if let Obj::Array { elems, .. } = self.heap.get_mut(dst) {
            elems[dp as usize..(dp + n) as usize].copy_from_slice(&part);
        }
        Ok(())
    }

    fn array_elems(&mut self, a: Slot) -> Res<(ObjId, String, Vec<Slot>)> {
        let Some(o) = a.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "array is null");
        };
        match self.heap.get(o) {
            Obj::Array { comp, elems } => Ok((o, comp.clone(), elems.clone())),
            _ => unsupported("an Arrays method on a non-array"),
        }
    }

    pub(crate) fn arrays_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let r = match (name, args.len()) {
            ("fill", 2) | ("fill", 4) => self.arrays_fill(args).map(|_| None),
            ("copyOf", 2) => self.arrays_copy(args[0], Slot::int(0), args[1], true).map(Some),
            ("copyOfRange", 3) => self.arrays_copy(args[0], args[1], args[2], false).map(Some),
            ("equals", 2) if !desc.contains("[Ljava") => self.arrays_equals(args).map(Some),
            ("toString", 1) if !desc.contains("[Ljava") => self.arrays_to_string(args[0]).map(Some),
            _ => return None,
        };
        Some(r)
    }

    fn arrays_fill(&mut self, args: &[Slot]) -> Res<()> {
        let (o, comp, elems) = self.array_elems(args[0])?;
        let (from, to, v) = if args.len() == 4 {
            (self.pin(args[1]).as_int(), self.pin(args[2]).as_int(), args[3])
        } else {
            (0, elems.len() as i32, args[1])
        };
        if from < 0 || to > elems.len() as i32 || from > to {
            return self.throw_new("java/lang/ArrayIndexOutOfBoundsException", "fill range");
        }
        let v = if comp.len() == 1 { self.coerce(v, &comp)? } else { v };
        if let Obj::Array { elems, .. } = self.heap.get_mut(o) {
            for e in &mut elems[from as usize..to as usize] {
                *e = v;
            }
        }
        Ok(())
    }

    fn arrays_copy(&mut self, a: Slot, from: Slot, to: Slot, is_length: bool) -> Res<Slot> {
        let (_, comp, elems) = self.array_elems(a)?;
        let from = self.pin(from).as_int();
        let to = self.pin(to).as_int();
        let (start, len) = if is_length { (0, to) } else { (from, to.saturating_sub(from)) };
        if len < 0 {
            let cls = if is_length {
                "java/lang/NegativeArraySizeException"
            } else {
                "java/lang/IllegalArgumentException"
            };
            return self.throw_new(cls, &format!("{from} > {to}"));
        }
        if start < 0 || start as usize > elems.len() {
            return self.throw_new("java/lang/ArrayIndexOutOfBoundsException", "copyOfRange");
        }
        // `Arrays.copyOf(a, n)` allocates n elements whatever a's length (Guava's
        // `Shorts.ensureCapacity` asks for a billion).
        self.count_cells(len as u64)?;
        let mut out = vec![default_of(&comp); len as usize];
        for (i, e) in elems.iter().skip(start as usize).take(len as usize).enumerate() {
            out[i] = *e;
        }
        Ok(Slot::obj(self.heap.alloc(Obj::Array { comp, elems: out })))
    }

    fn arrays_equals(&mut self, args: &[Slot]) -> Res<Slot> {
        let (Some(_), Some(_)) = (args[0].as_ref(), args[1].as_ref()) else {
            return Ok(Slot::int(i32::from(args[0].as_ref() == args[1].as_ref())));
        };
        let (_, comp, a) = self.array_elems(args[0])?;
        let (_, _, b) = self.array_elems(args[1])?;
        if a.len() != b.len() {
            return Ok(Slot::int(0));
        }
        if matches!(comp.as_str(), "F" | "D") {
            let same = a.iter().zip(&b).all(|(x, y)| x.c == y.c);
            for s in a.iter().chain(&b) {
                self.pin(*s);
            }
            return Ok(Slot::int(i32::from(same)));
        }
        let mut holds = true;
        let mut acc = self.arena.konst(Value::Bool(true));
        let mut sym = false;
        for (x, y) in a.iter().zip(&b) {
            let (eq, e) = self.cond(Op::Eq, &[*x, *y]);
            holds &= eq;
            if let Some(e) = e {
                sym = true;
                acc = self.arena.mk(Op::And2, &[acc, e]);
            } else if !eq {
                acc = self.arena.konst(Value::Bool(false));
            }
        }
        Ok(self.bool_slot(holds, sym.then_some(acc)))
    }

    fn arrays_to_string(&mut self, a: Slot) -> Res<Slot> {
        if a.as_ref().is_none() {
            return Ok(self.new_rust_string("null"));
        }
        let (_, comp, elems) = self.array_elems(a)?;
        let mut out = StrVal::concrete(&[u16::from(b'[')]);
        for (i, e) in elems.iter().enumerate() {
            if i > 0 {
                out.chars.extend(StrVal::concrete(&[u16::from(b','), u16::from(b' ')]).chars);
            }
            let s = self.string_of(*e, &comp)?;
            out.chars.extend(s.chars);
        }
        out.chars.extend(StrVal::concrete(&[u16::from(b']')]).chars);
        Ok(self.new_string(out))
    }

    pub(crate) fn objects_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let r = match (name, desc) {
            ("equals", "(Ljava/lang/Object;Ljava/lang/Object;)Z") => {
                if self.heap.same(args[0].as_ref(), args[1].as_ref()) {
                    Ok(Some(Slot::int(1)))
                } else if args[0].as_ref().is_none() {
                    Ok(Some(Slot::int(0)))
                } else {
                    self.call(
                        CallKind::Virtual,
                        "java/lang/Object",
                        "equals",
                        "(Ljava/lang/Object;)Z",
                        args.to_vec(),
                    )
                }
            }
            ("requireNonNull", _) => match args[0].as_ref() {
                Some(_) => Ok(Some(args[0])),
                None => self.throw_new("java/lang/NullPointerException", ""),
            },
            ("isNull", _) => Ok(Some(Slot::int(i32::from(args[0].as_ref().is_none())))),
            ("nonNull", _) => Ok(Some(Slot::int(i32::from(args[0].as_ref().is_some())))),
            ("hashCode", "(Ljava/lang/Object;)I") => match args[0].as_ref() {
                None => Ok(Some(Slot::int(0))),
                Some(_) => self.call(CallKind::Virtual, "java/lang/Object", "hashCode", "()I", vec![args[0]]),
            },
            ("hash", "([Ljava/lang/Object;)I") => self.objects_hash(args[0]).map(Some),
            ("checkIndex", "(II)I") => {
                let len = args[1].as_int().max(0) as usize;
                self.check_index_as(args[0], len, "java/lang/IndexOutOfBoundsException")
                    .map(|_| Some(args[0]))
            }
            ("toString", "(Ljava/lang/Object;)Ljava/lang/String;") => {
                self.string_of(args[0], "Ljava/lang/Object;").map(|s| Some(self.new_string(s)))
            }
            _ => return None,
        };
        Some(r)
    }

    fn objects_hash(&mut self, arr: Slot) -> Res<Slot> {
        if arr.as_ref().is_none() {
            return Ok(Slot::int(0));
        }
        let (_, _, elems) = self.array_elems(arr)?;
        let mut h = Slot::int(1);
        for e in elems {
            let eh = match e.as_ref() {
                None => Slot::int(0),
                Some(_) => self
                    .call(CallKind::Virtual, "java/lang/Object", "hashCode", "()I", vec![e])?
                    .unwrap_or(Slot::int(0)),
            };
            let m = self.op(Op::Mul, &[h, Slot::int(31)]);
            h = self.op(Op::Add, &[m, eh]);
        }
        Ok(h)
    }

    /// `Enum.valueOf(Class, String)`: the enum constant of that name (the class initialised first).
    pub(crate) fn enum_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        if (name, desc) != ("valueOf", "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/Enum;") {
            return None;
        }
        Some(self.enum_value_of(args[0], args[1]))
    }

    fn enum_value_of(&mut self, class: Slot, name: Slot) -> Res<Option<Slot>> {
        let Some(Obj::Mirror(t)) = class.as_ref().map(|c| self.heap.get(c).clone()) else {
            return self.throw_new("java/lang/NullPointerException", "enum class is null");
        };
        let Some(n) = name.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "Name is null");
        };
        let wanted = self.concrete_str(n)?;
        self.ensure_init(&t)?;
        let id = self.class_id(&t)?;
        let file = self
            .db
            .class(id)
            .map_err(|e| crate::interp::Abrupt::Stop(crate::Stop::Missing(e.to_string())))?;
        let cp = &file.constant_pool;
        let names: Vec<String> = file
            .fields
            .iter()
            .filter(|f| f.access_flags & classfile::access::ENUM != 0)
            .filter_map(|f| f.name(cp).map(|n| n.into_owned()))
            .collect();
        let units = wanted.units();
        for f in names {
            if f.encode_utf16().eq(units.iter().copied()) {
                return self.get_static(&t, &f, &format!("L{t};")).map(Some);
            }
        }
        let msg = format!("No enum constant {}.{}", ClassName::binary_of(&t), wanted.to_rust());
        self.throw_new("java/lang/IllegalArgumentException", &msg)
    }

    pub(crate) fn class_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        match (name, desc) {
            ("getPrimitiveClass", _) => return Some(self.primitive_class(args[0]).map(Some)),
            ("forName", "(Ljava/lang/String;)Ljava/lang/Class;") => {
                return Some(self.class_for_name(args[0], true).map(Some));
            }
            ("forName", "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;") => {
                let init = self.pin(args[1]).as_int() != 0;
                return Some(self.class_for_name(args[0], init).map(Some));
            }
            _ => {}
        }
        let this = args.first()?.as_ref()?;
        let Obj::Mirror(t) = self.heap.get(this).clone() else { return None };
        let r = match name {
            "getName" | "getTypeName" => Ok(Some(self.new_rust_string(&ClassName::binary_of(&t)))),
            "getSimpleName" => {
                let simple = t.rsplit(['/', '$']).next().unwrap_or(&t).to_string();
                Ok(Some(self.new_rust_string(&simple)))
            }
            "desiredAssertionStatus" => Ok(Some(Slot::int(0))),
            "hashCode" => Ok(Some(Slot::int(Self::identity_hash(this)))),
            "isInstance" => {
                let is = args[1].as_ref().is_some_and(|o| self.assignable(&self.heap.class_of(o), &t));
                Ok(Some(Slot::int(i32::from(is))))
            }
            _ => return self.class_query(&t, name, args).map(|r| r.map(Some)),
        };
        Some(r)
    }

    pub(crate) fn print_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let r = match (name, desc) {
            ("print" | "println", "(Ljava/lang/Object;)V") => {
                self.string_of(args[1], "Ljava/lang/Object;").map(|_| None)
            }
            ("print" | "println" | "write" | "flush" | "close", _) => Ok(None),
            ("printf" | "format" | "append", _) => Ok(Some(args[0])),
            _ => return None,
        };
        Some(r)
    }
}

impl Machine<'_, '_> {
    /// `java.lang.reflect.Array.getLength` (native): null throws `NullPointerException`, an object
    /// that is not an array `IllegalArgumentException` ("Argument is not an array", the JDK's
    /// message); an array's length is concrete in the heap.
    pub(crate) fn array_length_of(&mut self, a: Slot) -> Res<Slot> {
        let Some(o) = a.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "Array.getLength(null)");
        };
        match self.heap.get(o) {
            Obj::Array { elems, .. } => Ok(Slot::int(elems.len() as i32)),
            _ => self.throw_new("java/lang/IllegalArgumentException", "Argument is not an array"),
        }
    }
}
