//! The interpreter's heap: every object a run makes (instances with their fields, arrays, strings
//! and string builders as char sequences with shadows, class mirrors), the interned string
//! literals, and static fields with each class's initialisation state.

use std::collections::BTreeMap;

use solver::ExprId;

use crate::value::{ObjId, Slot};

/// One character of a string model: its UTF-16 unit and, when symbolic, its Bv(16) shadow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ch {
    pub c: u16,
    pub s: Option<ExprId>,
}

/// Which input a string is, and so how its characters' variables are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum StrInput {
    /// The String statement of this index of the test (DSE).
    Stmt(usize),
    /// Fresh string `k` of an exploration (`LazyState::strings`), named by its access path.
    Fresh(usize),
}

/// The contents of a `String` or a string builder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct StrVal {
    pub chars: Vec<Ch>,
    /// The Bv(32) shadow of the length: only the strings of String statements made inputs have one
    /// (every derived string has a concrete length; models pin an input's length when the shape of
    /// their result depends on it).
    pub len: Option<ExprId>,
    /// The input this string is: characters past the concrete length can then be made on demand
    /// (what a longer string would hold).
    pub input: Option<StrInput>,
    /// For a derived string with a symbolic length: the Bv(16) expressions of the positions past
    /// the concrete length, up to the longest the string can be (what a longer input makes).
    pub tail: Vec<ExprId>,
}

impl StrVal {
    pub fn concrete(s: &[u16]) -> StrVal {
        StrVal {
            chars: s.iter().map(|&c| Ch { c, s: None }).collect(),
            len: None,
            input: None,
            tail: Vec::new(),
        }
    }

    /// A string of these characters, with a concrete length.
    pub fn from_chars(chars: Vec<Ch>) -> StrVal {
        StrVal { chars, len: None, input: None, tail: Vec::new() }
    }

    pub fn units(&self) -> Vec<u16> {
        self.chars.iter().map(|c| c.c).collect()
    }

    pub fn is_symbolic(&self) -> bool {
        self.len.is_some() || self.chars.iter().any(|c| c.s.is_some())
    }

    pub fn to_rust(&self) -> String {
        String::from_utf16_lossy(&self.units())
    }
}

/// A heap object.
#[derive(Clone, Debug)]
pub(crate) enum Obj {
    /// An instance of a class interpreted from bytecode; fields keyed `Declaring.name`, absent
    /// ones hold their default.
    Inst { class: String, fields: BTreeMap<String, Slot> },
    /// An array of component descriptor `comp` (`I`, `Ljava/lang/String;`, `[I`).
    Array { comp: String, elems: Vec<Slot> },
    /// A `java.lang.String` (model).
    Str(StrVal),
    /// A `StringBuilder` or `StringBuffer` (model), with its class name.
    Builder { class: String, val: StrVal },
    /// The `java.lang.Class` of a type (internal name or array descriptor).
    Mirror(String),
    /// An object made by `LambdaMetafactory` (a lambda or method reference).
    Lambda(Lambda),
}

/// A lambda: its functional interface and method name, the implementation method handle
/// (reference kind, class, name, descriptor) and the captured values.
#[derive(Clone, Debug)]
pub(crate) struct Lambda {
    pub iface: String,
    pub sam: String,
    pub kind: u8,
    pub class: String,
    pub name: String,
    pub desc: String,
    pub captured: Vec<Slot>,
}

/// A class's initialisation state (JVMS §5.5, without threads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Init {
    Running,
    Done,
    Failed,
}

#[derive(Debug, Default)]
pub(crate) struct Heap {
    pub objs: Vec<Obj>,
    /// String literals (and interned strings) by content: one object each, as the JVM interns them.
    pub interned: BTreeMap<Vec<u16>, ObjId>,
    /// Static fields keyed `Declaring.name`.
    pub statics: BTreeMap<String, Slot>,
    pub init: BTreeMap<String, Init>,
    pub mirrors: BTreeMap<String, ObjId>,
    /// String inputs made from a test's literal: the worker interns test literals, so such a
    /// string is identical (`==`) to every other literal of its contents.
    pub literal_inputs: BTreeMap<ObjId, Vec<u16>>,
    /// Boxes of the `valueOf` caches, with their values: two of one class and value are the same
    /// object to the JVM (a symbolic value's box stands for the cached one).
    pub cached_boxes: BTreeMap<ObjId, i64>,
    /// Boxes made by `valueOf` of a symbolic value, with their class's cache range: whether one
    /// is the cached object (`==` to another box of its value) is decided where `==` asks
    /// (`Machine::same_box_cond`), not when it is made.
    pub valueof_boxes: BTreeMap<ObjId, (i64, i64)>,
    /// Stubs (`models::stub`) with their answers, and the stub classes made so far with the type
    /// each implements (a stub class is not on the classpath: `assignable` asks this).
    pub stubs: BTreeMap<ObjId, crate::models::stub::StubObj>,
    pub stub_classes: BTreeMap<String, String>,
}

impl Heap {
    pub fn alloc(&mut self, o: Obj) -> ObjId {
        self.objs.push(o);
        ObjId((self.objs.len() - 1) as u32)
    }

    pub fn get(&self, id: ObjId) -> &Obj {
        &self.objs[id.0 as usize]
    }

    pub fn get_mut(&mut self, id: ObjId) -> &mut Obj {
        &mut self.objs[id.0 as usize]
    }

    /// The internal class name of an object (`[I` style for arrays).
    pub fn class_of(&self, id: ObjId) -> String {
        match self.get(id) {
            Obj::Inst { class, .. } | Obj::Builder { class, .. } => class.clone(),
            Obj::Array { comp, .. } => format!("[{comp}"),
            Obj::Str(_) => "java/lang/String".to_string(),
            Obj::Mirror(_) => "java/lang/Class".to_string(),
            Obj::Lambda(l) => l.iface.clone(),
        }
    }

    /// The interned string with these contents.
    pub fn literal(&mut self, units: &[u16]) -> ObjId {
        if let Some(&id) = self.interned.get(units) {
            return id;
        }
        let id = self.alloc(Obj::Str(StrVal::concrete(units)));
        self.interned.insert(units.to_vec(), id);
        id
    }

    pub fn mirror(&mut self, name: &str) -> ObjId {
        if let Some(&id) = self.mirrors.get(name) {
            return id;
        }
        let id = self.alloc(Obj::Mirror(name.to_string()));
        self.mirrors.insert(name.to_string(), id);
        id
    }

    /// The contents of an interned string (a literal, or an input standing for one).
    fn literal_units(&self, o: ObjId) -> Option<&[u16]> {
        if let Some(u) = self.literal_inputs.get(&o) {
            return Some(u);
        }
        match self.get(o) {
            Obj::Str(s) if s.len.is_none() => {
                let (k, v) = self.interned.get_key_value(&s.units())?;
                (*v == o).then_some(&k[..])
            }
            _ => None,
        }
    }

    /// Reference equality as the worker's JVM sees it (`==`, `if_acmp*`).
    pub fn same(&self, a: Option<ObjId>, b: Option<ObjId>) -> bool {
        match (a, b) {
            (Some(x), Some(y)) if x != y => match (self.literal_units(x), self.literal_units(y)) {
                (Some(p), Some(q)) => p == q,
                _ => match (self.cached_boxes.get(&x), self.cached_boxes.get(&y)) {
                    (Some(p), Some(q)) => p == q && self.class_of(x) == self.class_of(y),
                    _ => false,
                },
            },
            _ => a == b,
        }
    }
}
