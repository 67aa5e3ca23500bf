//! `jdk.internal.misc.Unsafe` as the JDK's plain Java code uses it (`ConcurrentHashMap`, `File`,
//! the atomic field updaters): field offsets, array base offsets and scales, and reads, writes and
//! compare-and-sets at an object and offset, which become the interpreter's own field and element
//! accesses. `Unsafe`'s initialiser does not run (classes.rs `NO_CLINIT`): its static fields are
//! answered here. Also `Runtime.getRuntime()` (whose initialiser does not run either) and its
//! `availableProcessors`, a fixed placeholder of 1: the workers' machines differ, and the JDK's
//! users of it (`ConcurrentHashMap`'s resize stride) only tune speed with it. And the natives of
//! `Reference` (`refersTo0`, `clear0`): no collector runs during a replay, so a referent stays
//! until cleared.

use crate::heap::Obj;
use crate::interp::{Machine, Res, unsupported};
use crate::models::ModelResult;
use crate::value::{ObjId, Slot, default_of};

/// The offset of every array's first element (a 64-bit JVM with compressed class pointers).
const ARRAY_BASE: i64 = 16;

/// Field offsets handed out: `FIELD_BASE + i` for the `i`-th field asked for in a replay (an
/// index into `Machine::field_offsets`), far from any array offset so that a mix-up shows.
const FIELD_BASE: i64 = 0x10_0000;

/// The bytes per element of an array with this component descriptor (4 for references: the
/// workers' heaps are small, so oops are compressed).
fn scale_of(comp: &str) -> i64 {
    match comp {
        "Z" | "B" => 1,
        "C" | "S" => 2,
        "J" | "D" => 8,
        _ => 4,
    }
}

/// The field descriptor of an access method's type word (`getInt` -> `I`).
fn type_desc(word: &str) -> Option<&'static str> {
    Some(match word {
        "Int" => "I",
        "Long" => "J",
        "Reference" | "Object" => "Ljava/lang/Object;",
        "Boolean" => "Z",
        "Byte" => "B",
        "Short" => "S",
        "Char" => "C",
        "Float" => "F",
        "Double" => "D",
        _ => return None,
    })
}

/// `(operation, type descriptor)` of an access method's name: `getIntVolatile` is a read of an
/// int, `weakCompareAndSetReferenceAcquire` a compare-and-set of a reference. The memory-order
/// suffix changes nothing in a one-threaded replay.
fn access_of(name: &str) -> Option<(&'static str, &'static str)> {
    const OPS: &[&str] = &["compareAndExchange", "weakCompareAndSet", "compareAndSet", "get", "put"];
    let op = OPS.iter().find(|p| name.starts_with(*p))?;
    let rest = &name[op.len()..];
    if rest.is_empty() {
        return None;
    }
    let word_end = rest[1..].find(|c: char| c.is_ascii_uppercase()).map_or(rest.len(), |i| i + 1);
    let suffix = &rest[word_end..];
    if !matches!(suffix, "" | "Volatile" | "Acquire" | "Release" | "Opaque" | "Plain") {
        return None;
    }
    let op = if *op == "weakCompareAndSet" { "compareAndSet" } else { op };
    Some((op, type_desc(&rest[..word_end])?))
}

/// A place an offset names: a field of an object (its `owner.name` key and descriptor) or an
/// array element.
enum Cell {
    Field(Slot, String, String, String),
    Elem(ObjId, usize),
}

impl Machine<'_, '_> {
    /// The static fields of `Unsafe` and `Runtime` whose initialisers do not run.
    pub(crate) fn unsafe_static(&mut self, class: &str, name: &str) -> Option<Slot> {
        let comp = |n: &str| match n {
            "BOOLEAN" => "Z",
            "BYTE" => "B",
            "CHAR" => "C",
            "SHORT" => "S",
            "INT" => "I",
            "LONG" => "J",
            "FLOAT" => "F",
            "DOUBLE" => "D",
            _ => "L",
        };
        match (class, name) {
            ("jdk/internal/misc/Unsafe", "theUnsafe") | ("java/lang/Runtime", "currentRuntime") => {
                Some(self.singleton(class))
            }
            ("jdk/internal/misc/Unsafe", "ADDRESS_SIZE") => Some(Slot::int(8)),
            ("jdk/internal/misc/Unsafe", _) if name.starts_with("ARRAY_") => {
                let kind = name.trim_start_matches("ARRAY_").split('_').next().unwrap_or("");
                if name.ends_with("_BASE_OFFSET") {
                    Some(Slot::int(ARRAY_BASE as i32))
                } else if name.ends_with("_INDEX_SCALE") {
                    Some(Slot::int(scale_of(comp(kind)) as i32))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The one object of a class whose initialiser makes it (`Unsafe.theUnsafe`, `Runtime`).
    fn singleton(&mut self, class: &str) -> Slot {
        let key = format!("{class}.suitesmith.singleton");
        if let Some(v) = self.heap.statics.get(&key) {
            return *v;
        }
        let o =
            Slot::obj(self.heap.alloc(Obj::Inst { class: class.to_string(), fields: Default::default() }));
        self.heap.statics.insert(key, o);
        o
    }

    pub(crate) fn runtime_model(&mut self, name: &str, desc: &str) -> ModelResult {
        match (name, desc) {
            ("getRuntime", "()Ljava/lang/Runtime;") => Some(Ok(Some(self.singleton("java/lang/Runtime")))),
            ("availableProcessors", "()I") => Some(Ok(Some(Slot::int(1)))),
            _ => None,
        }
    }

    /// The methods of `Unsafe` (`args[0]` the receiver); `None` for the others, whose bytecode
    /// runs (`getAndAddInt` and its kin loop over the compare-and-sets modelled here).
    pub(crate) fn unsafe_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let r = match (name, desc) {
            ("getUnsafe", _) => Ok(Some(self.singleton("jdk/internal/misc/Unsafe"))),
            ("objectFieldOffset", "(Ljava/lang/Class;Ljava/lang/String;)J") => {
                self.field_offset(args[1], args[2]).map(Some)
            }
            ("arrayBaseOffset", "(Ljava/lang/Class;)I") => Ok(Some(Slot::int(ARRAY_BASE as i32))),
            ("arrayIndexScale", "(Ljava/lang/Class;)I") => {
                let comp = self.mirror_name(args[1]).unwrap_or_default();
                let comp = comp.strip_prefix('[').unwrap_or("L");
                Ok(Some(Slot::int(scale_of(comp) as i32)))
            }
            ("addressSize", "()I") => Ok(Some(Slot::int(8))),
            ("storeFence" | "loadFence" | "fullFence" | "loadLoadFence" | "storeStoreFence", "()V") => {
                Ok(None)
            }
            ("ensureClassInitialized", "(Ljava/lang/Class;)V") => {
                let c = self.mirror_name(args[1]).unwrap_or_default();
                self.ensure_init(&c).map(|_| None)
            }
            _ if desc.starts_with("(Ljava/lang/Object;J") => {
                let (op, ty) = access_of(name)?;
                self.unsafe_access(op, ty, args).map(|v| if op == "put" { None } else { Some(v) })
            }
            _ => return None,
        };
        Some(r)
    }

    fn mirror_name(&self, c: Slot) -> Option<String> {
        match self.heap.get(c.as_ref()?) {
            Obj::Mirror(t) => Some(t.clone()),
            _ => None,
        }
    }

    /// `objectFieldOffset(class, name)`: the field declared by the class or a superclass, by name
    /// (an `InternalError` when there is none, as the JDK throws).
    fn field_offset(&mut self, class: Slot, name: Slot) -> Res<Slot> {
        let (Some(c), Some(n)) = (self.mirror_name(class), name.as_ref()) else {
            return self.throw_new("java/lang/NullPointerException", "objectFieldOffset of null");
        };
        let field = self.concrete_str(n)?.to_rust();
        let db = self.db;
        let mut at = db.class_id(&c);
        while let Some(id) = at {
            let file =
                db.class(id).map_err(|e| crate::interp::Abrupt::Stop(crate::Stop::Missing(e.to_string())))?;
            let cp = &file.constant_pool;
            let found = file.fields.iter().find(|f| f.name(cp).as_deref() == Some(field.as_str()));
            if let Some(f) = found {
                let desc = f.descriptor(cp).map(|d| d.into_owned()).unwrap_or_default();
                let entry = (db.class_name(id).to_string(), field.clone(), desc);
                let i = match self.field_offsets.iter().position(|e| *e == entry) {
                    Some(i) => i,
                    None => {
                        self.field_offsets.push(entry);
                        self.field_offsets.len() - 1
                    }
                };
                return Ok(Slot::long(FIELD_BASE + i as i64));
            }
            at = db.superclass(id);
        }
        self.throw_new("java/lang/InternalError", &field)
    }

    /// The place `(o, offset)` names.
    fn cell(&mut self, o: Slot, offset: Slot) -> Res<Cell> {
        let off = self.pin(offset).as_long();
        let Some(id) = o.as_ref() else {
            return unsupported("Unsafe access to a static field or an address");
        };
        match self.heap.get(id) {
            Obj::Array { comp, elems } => {
                let scale = scale_of(comp);
                let i = (off - ARRAY_BASE) / scale;
                if off < ARRAY_BASE || (off - ARRAY_BASE) % scale != 0 || i >= elems.len() as i64 {
                    return unsupported(format!("Unsafe access at offset {off} of an array"));
                }
                Ok(Cell::Elem(id, i as usize))
            }
            Obj::Inst { .. } => {
                let Some((owner, name, desc)) =
                    usize::try_from(off - FIELD_BASE).ok().and_then(|i| self.field_offsets.get(i)).cloned()
                else {
                    return unsupported(format!("Unsafe access at an offset {off} not handed out"));
                };
                Ok(Cell::Field(o, owner, name, desc))
            }
            _ => unsupported("Unsafe access to a modelled object"),
        }
    }

    fn cell_get(&mut self, cell: &Cell, ty: &str) -> Res<Slot> {
        match cell {
            Cell::Field(o, owner, name, desc) => self.get_field(*o, owner, name, desc),
            Cell::Elem(a, i) => match self.heap.get(*a) {
                Obj::Array { elems, .. } => Ok(elems[*i]),
                _ => Ok(default_of(ty)),
            },
        }
    }

    fn cell_put(&mut self, cell: &Cell, v: Slot) -> Res<()> {
        match cell {
            Cell::Field(o, owner, name, desc) => self.put_field(*o, owner, name, desc, v),
            Cell::Elem(a, i) => {
                if let Obj::Array { elems, .. } = self.heap.get_mut(*a) {
                    elems[*i] = v;
                }
                Ok(())
            }
        }
    }

    /// A read, write, compare-and-set (the success) or compare-and-exchange (the witness) at
    /// `args[1]` and offset `args[2]`; compared values are pinned, references by identity.
    fn unsafe_access(&mut self, op: &str, ty: &str, args: &[Slot]) -> Res<Slot> {
        let cell = self.cell(args[1], args[2])?;
        match op {
            "get" => self.cell_get(&cell, ty),
            "put" => self.cell_put(&cell, args[3]).map(|_| Slot::null()),
            _ => {
                let (expected, new) = (args[3], args[4]);
                let current = self.cell_get(&cell, ty)?;
                let same = if ty.starts_with('L') {
                    self.heap.same(current.as_ref(), expected.as_ref())
                } else {
                    self.pin(current).c == self.pin(expected).c
                };
                if same {
                    self.cell_put(&cell, new)?;
                }
                Ok(if op == "compareAndSet" { Slot::int(i32::from(same)) } else { current })
            }
        }
    }
}

impl Machine<'_, '_> {
    pub(crate) fn reference_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        const REFERENT: (&str, &str, &str) = ("java/lang/ref/Reference", "referent", "Ljava/lang/Object;");
        let r = match (name, desc) {
            ("refersTo0", "(Ljava/lang/Object;)Z") => self
                .get_field(args[0], REFERENT.0, REFERENT.1, REFERENT.2)
                .map(|v| Some(Slot::int(i32::from(self.heap.same(v.as_ref(), args[1].as_ref()))))),
            ("clear0", "()V") => {
                self.put_field(args[0], REFERENT.0, REFERENT.1, REFERENT.2, Slot::null()).map(|_| None)
            }
            _ => return None,
        };
        Some(r)
    }
}
