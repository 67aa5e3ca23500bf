//! Fields, calls and object instructions: `get/putfield`, `get/putstatic`, the four `invoke*`
//! (models first, then bytecode), `invokedynamic` string concatenation (StringConcatFactory
//! recipes), `new`, `anewarray`, `checkcast`, `instanceof`.

use std::collections::BTreeMap;

use bytecode::Opcode;
use classfile::{Constant, access};

use crate::heap::{Lambda, Obj, StrVal};
use crate::interp::{Abrupt, Frame, Machine, Next, Res, unsupported};
use crate::models;
use crate::strings::BsmArg;
use crate::value::{Slot, default_of, split_descriptor};
use crate::{Stop, classes, strings};

/// How a call selects its method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CallKind {
    Static,
    /// `invokespecial`: constructors, `super.m()`, and private methods of old class files.
    Special,
    /// `invokevirtual` and `invokeinterface`: by the receiver's class.
    Virtual,
}

impl CallKind {
    /// The program database's kind of the call. Virtual and interface calls differ only in the
    /// reference they resolve, and the database tells that from the named class.
    fn invoke_kind(self) -> programdb::InvokeKind {
        match self {
            CallKind::Static => programdb::InvokeKind::Static,
            CallKind::Special => programdb::InvokeKind::Special,
            CallKind::Virtual => programdb::InvokeKind::Virtual,
        }
    }
}

impl<'a> Machine<'a, '_> {
    pub(crate) fn field(&mut self, f: &mut Frame<'a>, op: Opcode, index: u16) -> Res<Next> {
        let Some(r) = f.cp.member_ref(index) else { return unsupported("bad field reference") };
        let (class, name, desc) = (r.class.into_owned(), r.name.into_owned(), r.descriptor.into_owned());
        match op {
            Opcode::GETSTATIC => {
                let v = self.get_static(&class, &name, &desc)?;
                f.push(v);
            }
            Opcode::PUTSTATIC => {
                let v = f.pop();
                self.put_static(&class, &name, &desc, v)?;
            }
            Opcode::GETFIELD => {
                let o = f.pop();
                let v = self.get_field(o, &class, &name, &desc)?;
                f.push(v);
            }
            _ => {
                let v = f.pop();
                let o = f.pop();
                self.put_field(o, &class, &name, &desc, v)?;
            }
        }
        Ok(Next::Go)
    }

    pub(crate) fn get_static(&mut self, class: &str, name: &str, desc: &str) -> Res<Slot> {
        if let Some(v) = models::static_field(self, class, name) {
            return Ok(v);
        }
        let owner = self.field_owner(class, name, desc);
        self.ensure_init(&owner)?;
        let key = format!("{owner}.{name}");
        if let Some(v) = self.heap.statics.get(&key) {
            return Ok(*v);
        }
        Ok(self.constant_value(&owner, name, desc).unwrap_or_else(|| default_of(desc)))
    }

    /// The value a static field's `ConstantValue` attribute gives it (JVMS §4.7.2, §5.5: set when
    /// the class is prepared, before its initialiser runs). javac writes one for every `static
    /// final` field with a constant initialiser and no `putstatic`, so without it a test reading
    /// `IntMath.MAX_SIGNED_POWER_OF_TWO` got 0.
    fn constant_value(&mut self, owner: &str, name: &str, desc: &str) -> Option<Slot> {
        let db = self.db;
        let file = db.class(db.class_id(owner)?).ok()?;
        let cp = &file.constant_pool;
        let field = file.field(name, desc)?;
        if field.access_flags & access::STATIC == 0 {
            return None;
        }
        let attr =
            field.attributes.iter().find(|a| cp.utf8(a.name_index).as_deref() == Some("ConstantValue"))?;
        let index = u16::from_be_bytes([*attr.info.first()?, *attr.info.get(1)?]);
        Some(match cp.get(index)? {
            Constant::Integer(v) => Slot::int(*v),
            Constant::Float(b) => Slot::conc(crate::value::C::F(*b)),
            Constant::Long(v) => Slot::long(*v),
            Constant::Double(b) => Slot::conc(crate::value::C::D(*b)),
            Constant::String { string_index } => {
                let units = crate::frame::mutf8_units(cp.utf8_bytes(*string_index)?)?;
                Slot::obj(self.heap.literal(&units))
            }
            _ => return None,
        })
    }

    pub(crate) fn put_static(&mut self, class: &str, name: &str, desc: &str, v: Slot) -> Res<()> {
        let owner = self.field_owner(class, name, desc);
        self.ensure_init(&owner)?;
        self.heap.statics.insert(format!("{owner}.{name}"), v);
        Ok(())
    }

    pub(crate) fn get_field(&mut self, o: Slot, class: &str, name: &str, desc: &str) -> Res<Slot> {
        let Some(id) = o.as_ref() else {
            return self
                .throw_new("java/lang/NullPointerException", &format!("read of field {name} of null"));
        };
        let owner = self.field_owner(class, name, desc);
        if self.lazy.is_some()
            && let Some(v) = self.lazy_get(id, &owner, name, desc)?
        {
            return Ok(v);
        }
        match self.heap.get(id) {
            Obj::Inst { fields, .. } => {
                Ok(fields.get(&format!("{owner}.{name}")).copied().unwrap_or_else(|| default_of(desc)))
            }
            _ => unsupported(format!("field {owner}.{name} of a modelled object")),
        }
    }

    pub(crate) fn put_field(&mut self, o: Slot, class: &str, name: &str, desc: &str, v: Slot) -> Res<()> {
        let Some(id) = o.as_ref() else {
            return self
                .throw_new("java/lang/NullPointerException", &format!("write of field {name} of null"));
        };
        let owner = self.field_owner(class, name, desc);
        match self.heap.get_mut(id) {
            Obj::Inst { fields, .. } => {
                fields.insert(format!("{owner}.{name}"), v);
                Ok(())
            }
            _ => unsupported(format!("field {owner}.{name} of a modelled object")),
        }
    }

    pub(crate) fn invoke_insn(&mut self, f: &mut Frame<'a>, op: Opcode, index: u16) -> Res<Next> {
        let Some(r) = f.cp.member_ref(index) else { return unsupported("bad method reference") };
        let (class, name, desc) = (r.class.into_owned(), r.name.into_owned(), r.descriptor.into_owned());
        let (params, ret) = split_descriptor(&desc);
        let n = params.len() + usize::from(op != Opcode::INVOKESTATIC);
        if f.stack.len() < n {
            return unsupported("operand stack underflow at a call");
        }
        let args = f.stack.split_off(f.stack.len() - n);
        let kind = match op {
            Opcode::INVOKESTATIC => CallKind::Static,
            Opcode::INVOKESPECIAL => CallKind::Special,
            _ => CallKind::Virtual,
        };
        let v = self.call(kind, &class, &name, &desc, args)?;
        if ret != "V" {
            f.push(v.unwrap_or(Slot::TOP));
        }
        Ok(Next::Go)
    }

    /// A call: the receiver's null check, the selection of the method (models first at each
    /// class of the chain, then the class's own declaration), then the model or the bytecode.
    pub(crate) fn call(
        &mut self,
        kind: CallKind,
        class: &str,
        name: &str,
        desc: &str,
        args: Vec<Slot>,
    ) -> Res<Option<Slot>> {
        self.tick()?;
        let runtime = match kind {
            CallKind::Static | CallKind::Special => String::new(),
            CallKind::Virtual => {
                let Some(recv) = args[0].as_ref() else {
                    return self
                        .throw_new("java/lang/NullPointerException", &format!("call of {name} on null"));
                };
                if let Obj::Lambda(l) = self.heap.get(recv)
                    && l.sam == name
                {
                    let l = l.clone();
                    return self.call_lambda(&l, desc, &args[1..]);
                }
                if let Some(r) = self.stub_call(recv, class, name, desc, &args) {
                    return r;
                }
                match self.stub_runtime(recv, name, desc) {
                    Some(t) => t,
                    None => self.heap.class_of(recv),
                }
            }
        };
        let callee = classes::callee(self.db, kind.invoke_kind(), class, name, desc, &runtime);
        let start = callee.start.to_string();
        if let Some(r) = self.call_model(&start, name, desc, &args) {
            return r;
        }
        let Some(m) = callee.method else {
            return Err(Abrupt::Stop(Stop::Missing(format!("method {start}.{name}{desc}"))));
        };
        let owner = self.db.class_name(m.class()).to_string();
        if let Some(r) = self.call_model(&owner, name, desc, &args) {
            return r;
        }
        if models::opaque(&owner) {
            return unsupported(format!("unmodelled {owner}.{name}{desc}"));
        }
        if self.method_flags(m) & access::NATIVE != 0 {
            if kind == CallKind::Static && models::native_no_op(&owner, name, desc) {
                return Ok(None);
            }
            return Err(Abrupt::Stop(Stop::Native(format!("{owner}.{name}{desc}"))));
        }
        if kind == CallKind::Static {
            self.ensure_init(&owner)?;
        }
        self.call_bytecode(m, args)
    }

    /// The model of the first class up the chain from `start` that has one for this method.
    fn call_model(
        &mut self,
        start: &str,
        name: &str,
        desc: &str,
        args: &[Slot],
    ) -> Option<Res<Option<Slot>>> {
        for c in self.supers(start).iter() {
            if let Some(r) = models::call(self, c, name, desc, args) {
                return Some(r);
            }
            // A class that declares the method itself ends the search: its code runs.
            if let Some(id) = self.db.class_id(c)
                && self.db.declared_method(id, name, desc).is_some()
            {
                return None;
            }
        }
        None
    }

    /// `new`, `anewarray`, `checkcast`, `instanceof`.
    pub(crate) fn type_op(&mut self, f: &mut Frame<'a>, op: Opcode, index: u16) -> Res<Next> {
        let Some(name) = f.cp.class_name(index).map(|c| c.into_owned()) else {
            return unsupported("bad class reference");
        };
        match op {
            Opcode::NEW => {
                let o = self.new_object(&name)?;
                f.push(Slot::obj(o));
            }
            Opcode::ANEWARRAY => {
                let comp = if name.starts_with('[') { name } else { format!("L{name};") };
                let count = f.pop();
                let a = self.alloc_array(&comp, count)?;
                f.push(Slot::obj(a));
            }
            Opcode::CHECKCAST => {
                let o = *f.stack.last().unwrap_or(&Slot::TOP);
                // A lambda of `altMetafactory` may be Serializable too (an intersection cast).
                let lambda = o.as_ref().is_some_and(|id| matches!(self.heap.get(id), Obj::Lambda(_)));
                if let Some(id) = o.as_ref()
                    && !self.assignable(&self.heap.class_of(id), &name)
                    && !(lambda && name == "java/io/Serializable")
                {
                    let msg = format!("{} cannot be cast to {name}", self.heap.class_of(id));
                    return self.throw_new("java/lang/ClassCastException", &msg);
                }
            }
            _ => {
                let o = f.pop();
                let is = o.as_ref().is_some_and(|id| self.assignable(&self.heap.class_of(id), &name));
                f.push(Slot::int(i32::from(is)));
            }
        }
        Ok(Next::Go)
    }

    /// A new, uninitialised object of a class (models' classes get their model object).
    pub(crate) fn new_object(&mut self, class: &str) -> Res<crate::value::ObjId> {
        self.ensure_init(class)?;
        let o = match class {
            "java/lang/String" => Obj::Str(StrVal::default()),
            "java/lang/StringBuilder" | "java/lang/StringBuffer" => {
                Obj::Builder { class: class.to_string(), val: StrVal::default() }
            }
            _ => {
                if let Some(id) = self.db.class_id(class)
                    && self.db.access_flags(id) & (access::ABSTRACT | access::INTERFACE) != 0
                {
                    return self.throw_new("java/lang/InstantiationError", class);
                }
                Obj::Inst { class: class.to_string(), fields: BTreeMap::new() }
            }
        };
        Ok(self.heap.alloc(o))
    }

    /// `invokedynamic`: string concatenation by `StringConcatFactory` (javac 9+ for `+` on
    /// strings) and lambdas by `LambdaMetafactory`; any other bootstrap stops the replay.
    pub(crate) fn indy(&mut self, f: &mut Frame<'a>, index: u16) -> Res<Next> {
        let Some(Constant::InvokeDynamic { bootstrap_method_attr_index, name_and_type_index }) =
            f.cp.get(index)
        else {
            return unsupported("bad invokedynamic constant");
        };
        let Some((name, desc)) = f.cp.name_and_type(*name_and_type_index) else {
            return unsupported("bad invokedynamic name and type");
        };
        let (name, desc) = (name.into_owned(), desc.into_owned());
        let class = self.class_id(f.class)?;
        let file = self.db.class(class).map_err(|e| Abrupt::Stop(Stop::Missing(e.to_string())))?;
        let Some((bsm, bsm_name, static_args)) = strings::bootstrap(file, *bootstrap_method_attr_index)
        else {
            return unsupported("invokedynamic without its bootstrap method");
        };
        let (params, ret) = split_descriptor(&desc);
        let params: Vec<String> = params.into_iter().map(str::to_string).collect();
        let ret = ret.to_string();
        if f.stack.len() < params.len() {
            return unsupported("operand stack underflow at invokedynamic");
        }
        let args = f.stack.split_off(f.stack.len() - params.len());
        let v = match bsm.as_str() {
            "java/lang/invoke/StringConcatFactory" => {
                let texts: Vec<Vec<u16>> = static_args
                    .iter()
                    .map(|a| match a {
                        BsmArg::Text(t) => t.clone(),
                        _ => Vec::new(),
                    })
                    .collect();
                let recipe =
                    (bsm_name == "makeConcatWithConstants").then(|| texts.first().cloned()).flatten();
                let s = self.concat_recipe(recipe.as_deref(), &texts, &params, &args)?;
                Slot::obj(self.heap.alloc(Obj::Str(s)))
            }
            "java/lang/invoke/LambdaMetafactory" => {
                let Some(BsmArg::Handle { kind, class, name: target, desc: tdesc }) =
                    static_args.get(1).cloned()
                else {
                    return unsupported("a lambda without its implementation handle");
                };
                let iface = ret.trim_start_matches('L').trim_end_matches(';').to_string();
                let lambda =
                    Lambda { iface, sam: name, kind, class, name: target, desc: tdesc, captured: args };
                Slot::obj(self.heap.alloc(Obj::Lambda(lambda)))
            }
            _ => return unsupported(format!("invokedynamic {name} bootstrapped by {bsm}.{bsm_name}")),
        };
        f.push(v);
        Ok(Next::Go)
    }

    /// The functional method of a lambda object: its implementation method called with the
    /// captured values, then the arguments (adapted as `LambdaMetafactory` adapts them: boxing,
    /// unboxing, widening), and its result adapted to the interface method's return type.
    fn call_lambda(&mut self, l: &Lambda, desc: &str, args: &[Slot]) -> Res<Option<Slot>> {
        let (params, ret) = split_descriptor(&l.desc);
        let mut all: Vec<Slot> = l.captured.iter().chain(args).copied().collect();
        // REF_invokeVirtual, REF_invokeSpecial, REF_invokeInterface: the first value is the receiver.
        let has_receiver = matches!(l.kind, 5 | 7 | 9);
        let skip = usize::from(has_receiver);
        if all.len() != params.len() + skip {
            return unsupported(format!(
                "lambda {}.{}{} called with {} values",
                l.class,
                l.name,
                l.desc,
                all.len()
            ));
        }
        for (a, p) in all.iter_mut().skip(skip).zip(&params) {
            *a = self.coerce(*a, p)?;
        }
        let r = match l.kind {
            6 => self.call(CallKind::Static, &l.class, &l.name, &l.desc, all)?,
            5 | 9 => self.call(CallKind::Virtual, &l.class, &l.name, &l.desc, all)?,
            7 => self.call(CallKind::Special, &l.class, &l.name, &l.desc, all)?,
            8 => {
                let o = self.new_object(&l.class)?;
                all.insert(0, Slot::obj(o));
                self.call(CallKind::Special, &l.class, "<init>", &l.desc, all)?;
                Some(Slot::obj(o))
            }
            k => return unsupported(format!("method handle kind {k}")),
        };
        let (_, want) = split_descriptor(desc);
        match (r, want) {
            (_, "V") | (None, _) => Ok(None),
            (Some(v), w) if w.len() > 1 && ret.len() == 1 && ret != "V" => {
                Ok(Some(Slot::obj(self.box_prim(v, ret))))
            }
            (Some(v), w) => self.coerce(v, w).map(Some),
        }
    }

    /// The string a recipe makes: `\u{1}` takes the next argument, `\u{2}` the next constant,
    /// other characters are literal (StringConcatFactory); no recipe: the arguments in order.
    fn concat_recipe(
        &mut self,
        recipe: Option<&[u16]>,
        constants: &[Vec<u16>],
        params: &[String],
        args: &[Slot],
    ) -> Res<StrVal> {
        let mut parts: Vec<StrVal> = Vec::new();
        let mut next_arg = 0;
        let mut next_const = 1;
        let default_recipe: Vec<u16> = vec![1; args.len()];
        for &u in recipe.unwrap_or(&default_recipe) {
            match u {
                1 => {
                    let (Some(a), Some(p)) = (args.get(next_arg), params.get(next_arg)) else {
                        return unsupported("concatenation recipe without its argument");
                    };
                    let s = self.concat_arg(*a, p)?;
                    parts.push(s);
                    next_arg += 1;
                }
                2 => {
                    let c = constants.get(next_const).cloned().unwrap_or_default();
                    parts.push(StrVal::concrete(&c));
                    next_const += 1;
                }
                _ => parts.push(StrVal::concrete(&[u])),
            }
        }
        Ok(self.concat_parts(parts))
    }
}
