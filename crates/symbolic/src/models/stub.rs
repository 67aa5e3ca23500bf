//! Stubs (docs/stubs.md): the anonymous implementations of an interface or abstract class a test
//! creates, run as the workers run the class crate `stubgen` generates for them and
//! `suitesmith.rt.Stubs.answer` (java/runtime). A stub is an instance of its stub class (the
//! worker's name for it, so that `getClass().getName()` agrees) kept beside its answers; the
//! class is a subtype of the stubbed type for `checkcast`, `instanceof` and handlers, and a call
//! of one of its methods answers the next answer, then the default value, running its `Runnable`
//! arguments first for an executor, and throwing its value once after the answers. Every other
//! method is the stubbed type's (or `Object`'s, for an interface), as the JVM selects it.

use classfile::access;
use jvm_model::ClassName;
use programdb::ClassId;
use testcase::{StubRef, TestCase, VarId};

use crate::Stop;
use crate::heap::Obj;
use crate::interp::{Abrupt, Machine, Res, unsupported};
use crate::invoke::CallKind;
use crate::models::ModelResult;
use crate::value::{ObjId, Slot, default_of, split_descriptor};

/// A stub object's answers: one entry per method the stub implements, in answer order.
#[derive(Clone, Debug)]
pub(crate) struct StubObj {
    /// The stubbed type (internal name).
    pub ty: String,
    pub interface: bool,
    pub methods: Vec<StubAnswers>,
}

/// The answers of one method of one stub (the worker's `Stubs.Answers`).
#[derive(Clone, Debug)]
pub(crate) struct StubAnswers {
    name: String,
    desc: String,
    /// Whether it runs its `Runnable` arguments before answering.
    runs: bool,
    /// The answers as the worker holds them: objects, primitives in their own type's box.
    values: Vec<Slot>,
    calls: usize,
    /// Whether it is yet to throw after its answers, and what: `None` throws
    /// `NullPointerException`, as `throw null` does.
    throw_pending: bool,
    thrown: Option<ObjId>,
}

const RUNNABLE: &str = "Ljava/lang/Runnable;";

impl Machine<'_, '_> {
    /// A Stub statement: the stubbed type initialised (the stub class's initialisation does it),
    /// the answers taken from the test's variables, then the superclass constructor the stub
    /// mirrors run on the new object (so an abstract method it calls already answers).
    pub(crate) fn stub_statement(
        &mut self,
        test: &TestCase,
        vars: &[Slot],
        stub: &StubRef,
        args: &[VarId],
        answers: &[Vec<VarId>],
        throws: &[Option<VarId>],
    ) -> Res<Slot> {
        let st = &stub.stub;
        let ty = ClassName::internal_of(&st.class);
        let id = self.class_id(&ty)?;
        let class = ClassName::internal_of(&stub.stub_class());
        if st.is_interface {
            self.init_default_interfaces(id)?;
        } else {
            self.ensure_init(&ty)?;
        }
        let mut methods = Vec::with_capacity(st.methods.len());
        for (k, m) in st.methods.iter().enumerate() {
            let mut values = Vec::new();
            for v in answers.get(k).map_or(&[][..], |a| &a[..]) {
                values.push(self.arg(test, vars, *v, "Ljava/lang/Object;")?);
            }
            let throw = throws.get(k).copied().flatten();
            let thrown = throw.and_then(|v| vars[v.index()].as_ref()).filter(|&o| {
                let c = self.heap.class_of(o);
                self.assignable(&c, "java/lang/Throwable")
            });
            methods.push(StubAnswers {
                name: m.name.clone(),
                desc: m.descriptor.clone(),
                runs: m.runs_arguments,
                values,
                calls: 0,
                throw_pending: throw.is_some(),
                thrown,
            });
        }
        self.heap.stub_classes.insert(class.clone(), ty.clone());
        let o = self.heap.alloc(Obj::Inst { class, fields: Default::default() });
        self.heap.stubs.insert(o, StubObj { ty: ty.clone(), interface: st.is_interface, methods });
        let ctor = st.constructors.get(stub.ctor).map_or("()V", |(d, _)| d.as_str());
        let (params, _) = split_descriptor(ctor);
        let mut vals = self.args(test, vars, args, &params)?;
        vals.insert(0, Slot::obj(o));
        let sup = if st.is_interface { programdb::OBJECT } else { ty.as_str() };
        self.call(CallKind::Special, sup, "<init>", ctor, vals)?;
        Ok(Slot::obj(o))
    }

    /// Initialises the superinterfaces of a stub class that declare default methods, as the
    /// JVM does before a class's own initialisation (JVMS §5.5 step 7): the interface itself and
    /// its superinterfaces, depth first.
    fn init_default_interfaces(&mut self, iface: ClassId) -> Res<()> {
        // An interface has no constructor and its `<clinit>` is static.
        let defaults =
            self.db.methods(iface).any(|m| self.method_flags(m) & (access::ABSTRACT | access::STATIC) == 0);
        if defaults {
            let name = self.db.class_name(iface).to_string();
            self.ensure_init(&name)?;
        }
        for &s in self.db.interfaces(iface).to_vec().iter() {
            self.init_default_interfaces(s)?;
        }
        Ok(())
    }

    /// For a virtual call on a stub: the answer of the stub's own method of that name and
    /// descriptor (unless the reference resolves to a private method, which is not selected),
    /// `None` for the methods it inherits. A copy of a stub (`clone`) has no answers: it stops.
    pub(crate) fn stub_call(
        &mut self,
        recv: ObjId,
        class: &str,
        name: &str,
        desc: &str,
        args: &[Slot],
    ) -> Option<Res<Option<Slot>>> {
        // Every virtual call asks: most replays make no stub.
        if self.heap.stub_classes.is_empty() {
            return None;
        }
        let Some(s) = self.heap.stubs.get(&recv) else {
            let c = self.heap.class_of(recv);
            return self.heap.stub_classes.contains_key(&c).then(|| unsupported("a copy of a stub"));
        };
        let k = s.methods.iter().position(|m| m.name == name && m.desc == desc)?;
        let private = self
            .db
            .resolve_method(class, name, desc)
            .is_some_and(|m| self.method_flags(m) & access::PRIVATE != 0);
        if private {
            return None;
        }
        Some(self.stub_answer(recv, k, args))
    }

    /// The class a stub's inherited methods are selected from: the stubbed abstract class, or for
    /// an interface stub `Object` where it declares the method, else the interface (its default
    /// methods). `None` for objects that are no stub.
    pub(crate) fn stub_runtime(&self, recv: ObjId, name: &str, desc: &str) -> Option<String> {
        let s = self.heap.stubs.get(&recv)?;
        if !s.interface {
            return Some(s.ty.clone());
        }
        let object = self.db.class_id(programdb::OBJECT);
        let by_object = object
            .and_then(|o| self.db.declared_method(o, name, desc))
            .is_some_and(|m| self.method_flags(m) & (access::STATIC | access::PRIVATE) == 0);
        Some(if by_object { programdb::OBJECT.to_string() } else { s.ty.clone() })
    }

    fn stub_state(&mut self, recv: ObjId, k: usize) -> &mut StubAnswers {
        &mut self.heap.stubs.get_mut(&recv).expect("a stub").methods[k]
    }

    /// `Stubs.answer`: the `Runnable` arguments run, then for a void method the pending throw;
    /// otherwise a null among the answers of a primitive method throws, the next answer is
    /// returned converted to the return type, and past the answers the pending throw, then the
    /// default value.
    fn stub_answer(&mut self, recv: ObjId, k: usize, args: &[Slot]) -> Res<Option<Slot>> {
        let a = self.stub_state(recv, k).clone();
        let (params, ret) = split_descriptor(&a.desc);
        if a.runs {
            for (i, p) in params.iter().enumerate() {
                if *p == RUNNABLE {
                    let r = args.get(i + 1).copied().unwrap_or(Slot::null());
                    self.call(CallKind::Virtual, "java/lang/Runnable", "run", "()V", vec![r])?;
                }
            }
        }
        if ret == "V" {
            self.stub_throw_due(recv, k)?;
            return Ok(None);
        }
        let prim = ret.len() == 1;
        // The written test builds its array of answers on every call: a null among them for a
        // primitive type throws there, whichever answer is due.
        if prim && a.values.iter().any(|v| v.as_ref().is_none()) {
            return self
                .throw_new("java/lang/NullPointerException", "a null answer for a primitive return type");
        }
        let state = self.stub_state(recv, k);
        if state.calls >= state.values.len() {
            self.stub_throw_due(recv, k)?;
            return Ok(Some(default_of(ret)));
        }
        let v = state.values[state.calls];
        state.calls += 1;
        let Some(o) = v.as_ref() else { return Ok(Some(v)) };
        if prim {
            return self.stub_unbox(o, ret).map(Some);
        }
        // The generated method's `checkcast` to its return type.
        let want = ret.strip_prefix('L').map_or(ret, |c| c.trim_end_matches(';'));
        let c = self.heap.class_of(o);
        if !self.assignable(&c, want) {
            return self.throw_new("java/lang/ClassCastException", &format!("{c} cannot be cast to {want}"));
        }
        Ok(Some(v))
    }

    fn stub_throw_due(&mut self, recv: ObjId, k: usize) -> Res<()> {
        let s = self.stub_state(recv, k);
        if !s.throw_pending {
            return Ok(());
        }
        s.throw_pending = false;
        match s.thrown {
            Some(e) => Err(Abrupt::Throw(e)),
            None => self.throw_new("java/lang/NullPointerException", ""),
        }
    }

    /// `Stubs.coerce` and the generated method's unboxing: a `Character` widened to an `int`
    /// for the other numeric types, then `Number`'s `xValue` of the return type; a value of
    /// another class fails the casts with `ClassCastException`.
    fn stub_unbox(&mut self, o: ObjId, ret: &str) -> Res<Slot> {
        let c = self.heap.class_of(o);
        let cast = |m: &mut Self, want: &str| {
            m.throw_new("java/lang/ClassCastException", &format!("{c} cannot be cast to {want}"))
        };
        match ret {
            "Z" if c == "java/lang/Boolean" => self.unbox(o),
            "Z" => cast(self, "java/lang/Boolean"),
            "C" if c == "java/lang/Character" => self.unbox(o),
            "C" => cast(self, "java/lang/Character"),
            _ => {
                let num = if c == "java/lang/Character" {
                    let ch = self.unbox(o)?;
                    self.box_value("java/lang/Integer", ch)
                } else if self.assignable(&c, "java/lang/Number") {
                    o
                } else {
                    return cast(self, "java/lang/Number");
                };
                let (name, desc) = match ret {
                    "B" => ("byteValue", "()B"),
                    "S" => ("shortValue", "()S"),
                    "I" => ("intValue", "()I"),
                    "J" => ("longValue", "()J"),
                    "F" => ("floatValue", "()F"),
                    _ => ("doubleValue", "()D"),
                };
                let v = self.call(CallKind::Virtual, "java/lang/Number", name, desc, vec![Slot::obj(num)])?;
                v.ok_or_else(|| Abrupt::Stop(Stop::Unsupported(format!("Number.{name} without a value"))))
            }
        }
    }

    /// `Class` methods on a stub class's mirror: its name and identity are the worker's, but
    /// what the JVM reads from the generated class file (its simple name, modifiers, members) is
    /// not modelled.
    pub(crate) fn stub_mirror_model(&mut self, name: &str, args: &[Slot]) -> ModelResult {
        let this = args.first()?.as_ref()?;
        let Obj::Mirror(t) = self.heap.get(this) else { return None };
        if !self.heap.stub_classes.contains_key(t) {
            return None;
        }
        match name {
            "getName" | "getTypeName" | "hashCode" | "isInstance" => None,
            _ => Some(unsupported(format!("Class.{name} of a stub class"))),
        }
    }
}
