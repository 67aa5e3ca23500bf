//! Classes as the interpreter needs them: the callee of an invoke and the owner of a field, both
//! as the program database resolves and selects them (`programdb`'s `resolve`, JVMS §5.4.3,
//! §5.4.6), class initialisation on first active use (JVMS §5.5), subtype tests of
//! `checkcast`/`instanceof`/handlers, and the conversions of values to parameter types (widening,
//! boxing and unboxing, as reflection does for the test's statements).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use classfile::access;
use programdb::{ClassId, InvokeKind, MethodId, ProgramDb};
use solver::{Op, Sort};

use crate::Stop;
use crate::heap::{Init, Obj};
use crate::interp::{Abrupt, Machine, Res};
use crate::value::{C, Slot};

/// JDK classes whose `<clinit>` is not run: they are modelled, or their initialisers reach into
/// the VM (natives, system properties), and the models need none of their static state.
const NO_CLINIT: &[&str] = &[
    "java/lang/Object",
    "java/lang/String",
    "java/lang/System",
    "java/lang/Class",
    "java/lang/Throwable",
    "java/lang/Integer",
    "java/lang/Long",
    "java/lang/Short",
    "java/lang/Byte",
    "java/lang/Character",
    "java/lang/Boolean",
    "java/lang/Double",
    "java/lang/Float",
    "java/lang/Number",
    "java/lang/Math",
    "java/lang/StrictMath",
    "java/lang/StringBuilder",
    "java/lang/StringBuffer",
    "java/lang/AbstractStringBuilder",
    "java/lang/Thread",
    "java/lang/Runtime",
    "java/util/Arrays",
    "java/util/Objects",
    // Their initialisers reach `Unsafe` natives or bootstrap lambdas; the methods used are plain.
    "jdk/internal/util/ArraysSupport",
    "jdk/internal/util/Preconditions",
    "jdk/internal/misc/Unsafe",
    // Reads a system property through AccessController (a native caller check): false by default.
    "java/util/Arrays$LegacyMergeSort",
    // Modelled (their initialisers ask the VM about compare-and-set support).
    "java/util/concurrent/atomic/AtomicLong",
    "java/util/concurrent/atomic/AtomicInteger",
    // Its initialiser reflects on its own fields (serialisation); the methods need constants only.
    "java/util/Random",
    "jdk/internal/misc/CDS",
    // Starts the reference-handler thread, which the JVM did at boot; references need none of
    // its static state.
    "java/lang/ref/Reference",
];

/// Whether a class is the JDK's (java.base and the other platform modules).
pub(crate) fn is_jdk(class: &str) -> bool {
    ["java/", "javax/", "jdk/", "sun/", "com/sun/"].iter().any(|p| class.starts_with(p))
}

/// What the interpreter learns about classes once and keeps across replays: superclass chains
/// (the search for a model walks one at every call).
#[derive(Debug, Default)]
pub(crate) struct ClassCache {
    supers: RefCell<BTreeMap<String, Arc<Vec<String>>>>,
}

/// The method an invoke runs, as the interpreter selects it: `start` is where the search for a
/// model of the method begins (the receiver's class, or the named class for static, special and
/// private calls, or `java/lang/Object` for an array receiver), `method` the bytecode method the
/// program database resolves and selects (`ProgramDb::invoke_target`), if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Callee<'s> {
    pub start: &'s str,
    pub method: Option<MethodId>,
}

/// The callee of an invoke of kind `kind` naming `class.name desc`, for a receiver whose class
/// is `runtime` (an internal name or an array descriptor; ignored by static and special calls).
/// `Machine::call` selects through this, and the resolution differential test asks it too.
pub fn callee<'s>(
    db: &ProgramDb,
    kind: InvokeKind,
    class: &'s str,
    name: &str,
    desc: &str,
    runtime: &'s str,
) -> Callee<'s> {
    if !kind.is_virtual() {
        return Callee { start: class, method: db.invoke_target(kind, class, name, desc, None) };
    }
    if runtime.starts_with('[') {
        // Arrays have Object's methods (`clone` among them, JVMS §2.15).
        let object = db.class_id(programdb::OBJECT);
        let method = object.and_then(|o| db.invoke_target(kind, programdb::OBJECT, name, desc, Some(o)));
        return Callee { start: programdb::OBJECT, method };
    }
    let resolved = db.resolve_method(class, name, desc);
    // A private method is not selected (JVMS §5.4.6; javac 11+ calls them with invokevirtual).
    let private = resolved.and_then(|m| db.member(m)).is_some_and(|m| m.access_flags & access::PRIVATE != 0);
    let start = if private { class } else { runtime };
    Callee { start, method: db.invoke_target(kind, class, name, desc, db.class_id(runtime)) }
}

impl<'a> Machine<'a, '_> {
    pub(crate) fn class_id(&self, name: &str) -> Res<ClassId> {
        self.db.class_id(name).ok_or_else(|| Abrupt::Stop(Stop::Missing(format!("class {name}"))))
    }

    pub(crate) fn method_flags(&self, m: MethodId) -> u16 {
        self.db.member(m).map_or(0, |mm| mm.access_flags)
    }

    /// The superclass chain of a class, itself first (names, so that classes missing from the
    /// classpath end it).
    pub(crate) fn supers(&self, class: &str) -> Arc<Vec<String>> {
        if let Some(s) = self.cache.supers.borrow().get(class) {
            return s.clone();
        }
        let mut out = vec![class.to_string()];
        let mut cur = self.db.class_id(class);
        while let Some(c) = cur {
            let Some(s) = self.db.super_name(c) else { break };
            if out.iter().any(|o| o == s) {
                break;
            }
            out.push(s.to_string());
            cur = self.db.class_id(s);
        }
        let out = Arc::new(out);
        self.cache.supers.borrow_mut().insert(class.to_string(), out.clone());
        out
    }

    /// The class declaring the field `name:desc` seen from `class` (JVMS §5.4.3.2), or `class`
    /// itself when none on the classpath does.
    pub(crate) fn field_owner(&self, class: &str, name: &str, desc: &str) -> String {
        self.db.resolve_field(class, name, desc).map_or(class, |c| self.db.class_name(c)).to_string()
    }

    /// Initialises a class on its first active use: superclass first, then its `<clinit>`.
    /// An initialiser that throws leaves the class erroneous (ExceptionInInitializerError, then
    /// NoClassDefFoundError on later uses).
    pub(crate) fn ensure_init(&mut self, class: &str) -> Res<()> {
        if class.starts_with('[') || NO_CLINIT.contains(&class) {
            return Ok(());
        }
        match self.heap.init.get(class) {
            Some(Init::Done | Init::Running) => return Ok(()),
            Some(Init::Failed) => return self.throw_new("java/lang/NoClassDefFoundError", class),
            None => {}
        }
        let Some(id) = self.db.class_id(class) else { return Ok(()) };
        self.heap.init.insert(class.to_string(), Init::Running);
        if !self.db.is_interface(id)
            && let Some(s) = self.db.super_name(id).map(str::to_string)
        {
            self.ensure_init(&s)?;
        }
        if let Some(m) = self.db.declared_method(id, "<clinit>", "()V") {
            match self.call_bytecode(m, Vec::new()) {
                Ok(_) => {}
                Err(Abrupt::Throw(e)) if is_jdk(class) => {
                    // The JDK's initialisers do not fail in a sound JVM: this one failed on
                    // something the interpreter does not model.
                    let what = self.heap.class_of(e);
                    return Err(Abrupt::Stop(Stop::Unsupported(format!(
                        "the initialiser of {class} threw {what}"
                    ))));
                }
                Err(Abrupt::Throw(e)) => {
                    self.heap.init.insert(class.to_string(), Init::Failed);
                    let err = self.new_throwable("java/lang/ExceptionInInitializerError", "");
                    if let Obj::Inst { fields, .. } = self.heap.get_mut(err) {
                        fields.insert("java/lang/Throwable.cause".to_string(), Slot::obj(e));
                    }
                    let _ = e;
                    return Err(Abrupt::Throw(err));
                }
                Err(s) => return Err(s),
            }
        }
        self.heap.init.insert(class.to_string(), Init::Done);
        Ok(())
    }

    /// Whether type `sub` (internal name or array descriptor) is assignable to `sup`.
    pub(crate) fn assignable(&self, sub: &str, sup: &str) -> bool {
        if sub == sup || sup == programdb::OBJECT {
            return true;
        }
        match (sub.strip_prefix('['), sup.strip_prefix('[')) {
            (Some(a), Some(b)) => match (a.strip_prefix('L'), b.strip_prefix('L')) {
                (Some(x), Some(y)) => self.assignable(x.trim_end_matches(';'), y.trim_end_matches(';')),
                (None, Some(y)) => a.starts_with('[') && y.trim_end_matches(';') == programdb::OBJECT,
                _ => a == b,
            },
            (Some(_), None) => sup == "java/lang/Cloneable" || sup == "java/io/Serializable",
            (None, Some(_)) => false,
            (None, None) => match self.heap.stub_classes.get(sub) {
                Some(stubbed) => self.assignable(stubbed, sup),
                None => self.db.is_subtype(sub, sup),
            },
        }
    }

    /// A value converted to a parameter or field type, as reflection passes the test's values:
    /// primitive widening, boxing into a reference type, unboxing from a box.
    pub(crate) fn coerce(&mut self, s: Slot, desc: &str) -> Res<Slot> {
        let prim = desc.len() == 1;
        match (s.c, prim) {
            (C::R(Some(o)), true) => {
                let v = self.unbox(o)?;
                self.coerce(v, desc)
            }
            (C::R(_), _) => Ok(s),
            (_, false) => self.box_for(s, desc),
            (C::I(_), true) => Ok(match desc {
                "J" => self.chain_ops(&[Op::SignExt(64)], s),
                "F" => self.chain_ops(&[Op::IntToFp(Sort::F32)], s),
                "D" => self.chain_ops(&[Op::IntToFp(Sort::F64)], s),
                _ => s,
            }),
            (C::J(_), true) => Ok(match desc {
                "F" => self.chain_ops(&[Op::IntToFp(Sort::F32)], s),
                "D" => self.chain_ops(&[Op::IntToFp(Sort::F64)], s),
                _ => s,
            }),
            (C::F(_), true) if desc == "D" => Ok(self.chain_ops(&[Op::FpToFp(Sort::F64)], s)),
            _ => Ok(s),
        }
    }

    fn chain_ops(&mut self, ops: &[Op], s: Slot) -> Slot {
        self.chain(ops, s)
    }

    /// Boxes a primitive of descriptor `prim` in its own box.
    pub(crate) fn box_prim(&mut self, s: Slot, prim: &str) -> crate::value::ObjId {
        let class = match prim {
            "Z" => "java/lang/Boolean",
            "C" => "java/lang/Character",
            "B" => "java/lang/Byte",
            "S" => "java/lang/Short",
            "J" => "java/lang/Long",
            "F" => "java/lang/Float",
            "D" => "java/lang/Double",
            _ => "java/lang/Integer",
        };
        self.box_value(class, s)
    }

    /// Boxes a primitive for a reference-typed destination (`Object`, `Integer`, `Number`, ...):
    /// the box of the value's own type, except where the destination names a box.
    fn box_for(&mut self, s: Slot, desc: &str) -> Res<Slot> {
        let class = match (s.c, desc) {
            (_, "Ljava/lang/Boolean;") => "java/lang/Boolean",
            (_, "Ljava/lang/Character;") => "java/lang/Character",
            (_, "Ljava/lang/Byte;") => "java/lang/Byte",
            (_, "Ljava/lang/Short;") => "java/lang/Short",
            (C::J(_), _) => "java/lang/Long",
            (C::F(_), _) => "java/lang/Float",
            (C::D(_), _) => "java/lang/Double",
            _ => "java/lang/Integer",
        };
        let b = self.box_value(class, s);
        Ok(Slot::obj(b))
    }
}
