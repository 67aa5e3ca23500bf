//! Statements of a test case, run as the worker's executor runs them (java/runtime
//! `Executor.execute`): constructors and methods by reflection (virtual dispatch for instance
//! methods, arguments boxed, unboxed and widened), fields, arrays, enum constants (the enum's
//! static field after its `<clinit>`), null and copies. A statement that throws ends the test, as
//! `Executor.runTest` stops at the first statement whose outcome is not a value. The Primitive and
//! String statements listed as symbolic become the replay's inputs.

use jvm_model::ClassName;
use solver::{Op, Sort, Value};
use testcase::{JType, PrimValue, Statement, TestCase};

use crate::heap::{Ch, Obj, StrInput, StrVal};
use crate::interp::{Abrupt, Loc, Machine, Res};
use crate::invoke::CallKind;
use crate::value::{C, Slot, split_descriptor};
use crate::{Input, InputOrigin, Stop};

pub(crate) fn run_test(m: &mut Machine<'_, '_>, test: &TestCase, symbolic: &[usize]) {
    let mut vars: Vec<Slot> = vec![Slot::null(); test.statements.len()];
    for (i, st) in test.statements.iter().enumerate() {
        m.stats.statements = i as u32 + 1;
        // Entries made by the statement itself (input assumptions) are located at it.
        m.locs.push(Loc { class: "test".to_string(), method: format!("statement {i}"), insn: i as u32 });
        let r = m.statement(test, &vars, i, st, symbolic.contains(&i));
        m.locs.pop();
        match r {
            Ok(v) => {
                let has_value = st.value_type().is_some();
                let text = if has_value { m.summary(v) } else { "void".to_string() };
                m.outcomes.push(text);
                vars[i] = v;
            }
            Err(Abrupt::Throw(e)) => {
                let text = format!("threw {}", ClassName::binary_of(&m.heap.class_of(e)));
                m.outcomes.push(text);
                break;
            }
            Err(Abrupt::Stop(s)) => {
                m.outcomes.push("stopped".to_string());
                m.stats.stop = Some(s);
                break;
            }
        }
    }
}

impl Machine<'_, '_> {
    /// A value as the outcomes show it.
    pub(crate) fn summary(&self, v: Slot) -> String {
        match v.c {
            C::I(x) => x.to_string(),
            C::J(x) => format!("{x}L"),
            C::F(b) => format!("{}F", crate::strings::java_float(f32::from_bits(b))),
            C::D(b) => crate::strings::java_double(f64::from_bits(b)),
            C::R(None) => "null".to_string(),
            C::R(Some(o)) => match self.heap.get(o) {
                Obj::Str(s) => format!("{:?}", s.to_rust()),
                _ => ClassName::binary_of(&self.heap.class_of(o)),
            },
            C::Top => "?".to_string(),
        }
    }

    fn statement(
        &mut self,
        test: &TestCase,
        vars: &[Slot],
        i: usize,
        st: &Statement,
        sym: bool,
    ) -> Res<Slot> {
        match st {
            Statement::Primitive(v) => Ok(self.primitive(i, *v, sym)),
            Statement::String(s) => Ok(self.string_input(i, s, sym)),
            Statement::Null(_) => Ok(Slot::null()),
            Statement::EnumConstant { ty, name } => {
                let class = ClassName::internal_of(ty.class_name().unwrap_or_default());
                let desc = format!("L{class};");
                self.get_static(&class, name, &desc)
            }
            Statement::Constructor { ctor, args } => {
                let class = ClassName::internal_of(&ctor.class);
                let (params, _) = split_descriptor(&ctor.descriptor);
                let mut vals = self.args(test, vars, args, &params)?;
                // `outer.new Inner(..)` with a null outer instance throws before the constructor
                // runs: javac checks it in the written test, and the worker's `Executor.construct`
                // does the same.
                if vals.first().is_some_and(|v| v.as_ref().is_none())
                    && ctor.takes_outer_instance(testcase::cluster::is_static_nested_in(self.db, &ctor.class))
                {
                    return self.throw_new("java/lang/NullPointerException", "null outer instance");
                }
                let o = self.new_object(&class)?;
                vals.insert(0, Slot::obj(o));
                self.call(CallKind::Special, &class, "<init>", &ctor.descriptor, vals)?;
                Ok(Slot::obj(o))
            }
            Statement::Method { method, receiver, args } => {
                let class = ClassName::internal_of(&method.class);
                let (params, _) = split_descriptor(&method.descriptor);
                let mut vals = self.args(test, vars, args, &params)?;
                let kind = if method.is_static {
                    CallKind::Static
                } else {
                    // A primitive variable is the worker's box of it, as every variable there.
                    let r = match receiver {
                        Some(v) => self.arg(test, vars, *v, &format!("L{class};"))?,
                        None => Slot::null(),
                    };
                    if r.as_ref().is_none() {
                        return self.throw_new("java/lang/NullPointerException", "null receiver");
                    }
                    vals.insert(0, r);
                    CallKind::Virtual
                };
                Ok(self.call(kind, &class, &method.name, &method.descriptor, vals)?.unwrap_or(Slot::null()))
            }
            Statement::FieldGet { field, receiver } => {
                let class = ClassName::internal_of(&field.class);
                if field.is_static {
                    return self.get_static(&class, &field.name, &field.descriptor);
                }
                let r = receiver.map_or(Slot::null(), |r| vars[r.index()]);
                self.get_field(r, &class, &field.name, &field.descriptor)
            }
            Statement::FieldSet { field, receiver, value } => {
                let class = ClassName::internal_of(&field.class);
                let v = self.arg(test, vars, *value, &field.descriptor)?;
                if field.is_static {
                    self.put_static(&class, &field.name, &field.descriptor, v)?;
                } else {
                    let r = receiver.map_or(Slot::null(), |r| vars[r.index()]);
                    self.put_field(r, &class, &field.name, &field.descriptor, v)?;
                }
                Ok(Slot::null())
            }
            Statement::NewArray { ty, length } => {
                let desc = ty.erasure().descriptor();
                let a = self.alloc_array(&desc[1..], Slot::int(*length as i32))?;
                Ok(Slot::obj(a))
            }
            Statement::ArrayStore { array, index, value } => {
                self.array_stmt(test, vars, *array, *index, Some(*value))
            }
            Statement::ArrayLoad { array, index, .. } => self.array_stmt(test, vars, *array, *index, None),
            Statement::Copy { from, .. } => Ok(vars[from.index()]),
            // A class literal is the class's mirror, as `ldc` of a class constant makes it; a
            // primitive type's is named by its Java name, as `Integer.TYPE`'s (models/mirror.rs).
            Statement::ClassLiteral { ty } => match ty.erasure() {
                JType::Class { name, .. } => Ok(Slot::obj(self.heap.mirror(&ClassName::internal_of(&name)))),
                t @ JType::Array(_) => Ok(Slot::obj(self.heap.mirror(&t.descriptor()))),
                JType::Prim(p) => Ok(Slot::obj(self.heap.mirror(p.name()))),
                JType::Var(_) => {
                    Err(Abrupt::Stop(Stop::Unsupported("a type variable's class literal".into())))
                }
            },
            Statement::Stub { stub, args, answers, throws } => {
                self.stub_statement(test, vars, stub, args, answers, throws)
            }
            Statement::ScratchFile(_) => Err(Abrupt::Stop(Stop::Unsupported("a scratch file".into()))),
        }
    }

    fn array_stmt(
        &mut self,
        test: &TestCase,
        vars: &[Slot],
        array: testcase::VarId,
        index: u32,
        value: Option<testcase::VarId>,
    ) -> Res<Slot> {
        let a = vars[array.index()];
        let Some(o) = a.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "null array");
        };
        let (comp, len) = match self.heap.get(o) {
            Obj::Array { comp, elems } => (comp.clone(), elems.len()),
            _ => return self.throw_new("java/lang/IllegalArgumentException", "not an array"),
        };
        let i = self.check_index(Slot::int(index as i32), len)?;
        match value {
            Some(v) => {
                let v = self.arg(test, vars, v, &comp)?;
                if let Obj::Array { elems, .. } = self.heap.get_mut(o) {
                    elems[i] = v;
                }
                Ok(Slot::null())
            }
            None => match self.heap.get(o) {
                Obj::Array { elems, .. } => Ok(elems[i]),
                _ => Ok(Slot::null()),
            },
        }
    }

    pub(crate) fn args(
        &mut self,
        test: &TestCase,
        vars: &[Slot],
        args: &[testcase::VarId],
        params: &[&str],
    ) -> Res<Vec<Slot>> {
        let mut out = Vec::with_capacity(args.len());
        for (a, p) in args.iter().zip(params) {
            out.push(self.arg(test, vars, *a, p)?);
        }
        Ok(out)
    }

    /// A variable passed where `desc` is expected, as reflection passes it: a primitive variable
    /// boxed in its own type's box for a reference, unboxed and widened for a primitive.
    pub(crate) fn arg(
        &mut self,
        test: &TestCase,
        vars: &[Slot],
        v: testcase::VarId,
        desc: &str,
    ) -> Res<Slot> {
        let s = vars[v.index()];
        let prim = test.var_type(v).and_then(|t| t.as_primitive());
        match (prim, desc.len() == 1) {
            (Some(p), false) if !matches!(s.c, C::R(_)) => {
                let class = ClassName::internal_of(p.wrapper());
                Ok(Slot::obj(self.box_value(&class, s)))
            }
            _ => self.coerce(s, desc),
        }
    }

    /// A Primitive statement's value; as an input, a variable of its type's sort.
    fn primitive(&mut self, stmt: usize, v: PrimValue, sym: bool) -> Slot {
        let (c, sort, hint, widen): (C, Sort, Value, &[Op]) = match v {
            PrimValue::Boolean(b) => (C::I(i32::from(b)), Sort::Bool, Value::Bool(b), &[Op::BoolToBv]),
            PrimValue::Byte(x) => {
                (C::I(i32::from(x)), Sort::Bv(8), Value::bv(8, i64::from(x)), &[Op::SignExt(32)])
            }
            PrimValue::Short(x) => {
                (C::I(i32::from(x)), Sort::Bv(16), Value::bv(16, i64::from(x)), &[Op::SignExt(32)])
            }
            PrimValue::Char(x) => (C::I(i32::from(x)), Sort::Bv(16), Value::char(x), &[Op::ZeroExt(32)]),
            PrimValue::Int(x) => (C::I(x), Sort::Bv(32), Value::i32(x), &[]),
            PrimValue::Long(x) => (C::J(x), Sort::Bv(64), Value::i64(x), &[]),
            PrimValue::Float(b) => (C::F(b), Sort::F32, Value::F32(b), &[]),
            PrimValue::Double(b) => (C::D(b), Sort::F64, Value::F64(b), &[]),
        };
        if !sym {
            return Slot::conc(c);
        }
        let (var, e) = self.arena.var(sort, &format!("v{stmt}"));
        self.inputs.push(Input { var, origin: InputOrigin::Prim { stmt } });
        self.hint.insert(var, hint);
        let mut w = e;
        for &op in widen {
            w = self.arena.mk(op, &[w]);
        }
        if sort == Sort::Bool {
            self.bools.insert(w, e);
        }
        Slot { c, s: Some(w) }
    }

    /// A String statement's string: the interned literal (as the worker interns test literals),
    /// or, as an input, a fresh string whose length and characters are variables.
    fn string_input(&mut self, stmt: usize, s: &str, sym: bool) -> Slot {
        let units: Vec<u16> = s.encode_utf16().collect();
        if !sym {
            return Slot::obj(self.heap.literal(&units));
        }
        let (lv, le) = self.arena.var(Sort::Bv(32), &format!("len{stmt}"));
        self.inputs.push(Input { var: lv, origin: InputOrigin::StrLen { stmt } });
        self.hint.insert(lv, Value::i32(units.len() as i32));
        let max = self.cfg.max_string.max(units.len() as u32);
        self.assume_string_length(le, max);
        let chars = units
            .iter()
            .enumerate()
            .map(|(k, &c)| {
                let s = (k < self.cfg.max_string as usize).then(|| self.input_char(stmt, k as u32, c));
                Ch { c, s }
            })
            .collect();
        let sv = StrVal { chars, len: Some(le), input: Some(StrInput::Stmt(stmt)), tail: Vec::new() };
        let o = self.heap.alloc(Obj::Str(sv));
        self.heap.literal_inputs.insert(o, units);
        Slot::obj(o)
    }
}
