//! `AtomicInteger` and `AtomicLong` as plain instances with a `value` field (one thread: every
//! update succeeds as written), and the workers' seeding of `new Random()` in the classes under
//! test (java/runtime `Guards.randomSeed`: SplitMix64 of a per-test counter), after which
//! `java.util.Random`'s own bytecode runs.

use solver::Op;

use crate::heap::Obj;
use crate::interp::{Machine, Res, unsupported};
use crate::invoke::CallKind;
use crate::models::ModelResult;
use crate::value::{C, ObjId, Slot};

impl Machine<'_, '_> {
    fn atomic_get(&self, this: ObjId, key: &str, wide: bool) -> Slot {
        match self.heap.get(this) {
            Obj::Inst { fields, .. } => {
                fields.get(key).copied().unwrap_or(if wide { Slot::long(0) } else { Slot::int(0) })
            }
            _ => Slot::int(0),
        }
    }

    fn atomic_set(&mut self, this: ObjId, key: &str, v: Slot) {
        if let Obj::Inst { fields, .. } = self.heap.get_mut(this) {
            fields.insert(key.to_string(), v);
        }
    }

    pub(crate) fn atomic_model(&mut self, class: &str, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let this = args.first()?.as_ref()?;
        let wide = class.ends_with("AtomicLong");
        let key = format!("{class}.value");
        let one = if wide { Slot::long(1) } else { Slot::int(1) };
        let cur = self.atomic_get(this, &key, wide);
        let r = match (name, desc) {
            ("<init>", "()V") => Ok(None),
            ("<init>", _) => {
                self.atomic_set(this, &key, args[1]);
                Ok(None)
            }
            ("get" | "getPlain" | "getAcquire" | "getOpaque", _) => Ok(Some(cur)),
            ("intValue", _) => Ok(Some(if wide { self.chain(&[Op::Extract(32)], cur) } else { cur })),
            ("longValue", _) => Ok(Some(if wide { cur } else { self.chain(&[Op::SignExt(64)], cur) })),
            ("set" | "lazySet" | "setPlain" | "setRelease" | "setOpaque", _) => {
                self.atomic_set(this, &key, args[1]);
                Ok(None)
            }
            ("getAndSet", _) => {
                self.atomic_set(this, &key, args[1]);
                Ok(Some(cur))
            }
            (
                "compareAndSet"
                | "weakCompareAndSet"
                | "weakCompareAndSetPlain"
                | "weakCompareAndSetVolatile",
                _,
            ) => {
                let (same, e) = self.cond(Op::Eq, &[cur, args[1]]);
                self.pin_cond(same, e);
                if same {
                    self.atomic_set(this, &key, args[2]);
                }
                Ok(Some(Slot::int(i32::from(same))))
            }
            ("getAndIncrement" | "incrementAndGet" | "getAndDecrement" | "decrementAndGet", _) => {
                let op = if name.contains("Increment") { Op::Add } else { Op::Sub };
                let next = self.op(op, &[cur, one]);
                self.atomic_set(this, &key, next);
                Ok(Some(if name.starts_with("get") { cur } else { next }))
            }
            ("getAndAdd" | "addAndGet", _) => {
                let next = self.op(Op::Add, &[cur, args[1]]);
                self.atomic_set(this, &key, next);
                Ok(Some(if name == "getAndAdd" { cur } else { next }))
            }
            ("toString", _) => {
                self.string_of(cur, if wide { "J" } else { "I" }).map(|s| Some(self.new_string(s)))
            }
            _ => return Some(unsupported(format!("{class}.{name}{desc}"))),
        };
        Some(r)
    }

    /// `new Random()` in the classes under test: seeded as the workers seed it.
    pub(crate) fn random_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        if (name, desc) != ("<init>", "()V") {
            return None;
        }
        let caller = self.locs.last().map(|l| l.class.clone()).unwrap_or_default();
        if self.plan.class_id(&caller).is_none() {
            return Some(unsupported("new Random() outside the classes under test"));
        }
        self.random_seeds += 1;
        let mut z = (self.random_seeds as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let seed = Slot::conc(C::J((z ^ (z >> 31)) as i64));
        let r: Res<Option<Slot>> = self
            .call(CallKind::Special, "java/util/Random", "<init>", "(J)V", vec![args[0], seed])
            .map(|_| None);
        Some(r)
    }
}
