//! The test model of DESIGN.md §3.5: a test is a sequence of statements, and a variable is the index
//! of the statement that defines it (`VarId`), so cloning, equality and hashing are derived. Holds the
//! canonical byte form (for caches) and the compact Java-like printer (for snapshot tests). It knows
//! nothing of execution; `Statement::protocol_tag` names the docs/protocol.md tag each kind maps to.

use jvm_model::ClassName;
use std::fmt::{self, Write as _};
use std::sync::Arc;

use crate::types::{JType, PrimType, TypeArg, simple_name};

/// A variable: the index of the statement whose value it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

impl VarId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// A primitive constant. Floats keep their raw IEEE bits so that equality and hashing are exact
/// (NaN payloads, -0.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PrimValue {
    Boolean(bool),
    Byte(i8),
    Char(u16),
    Short(i16),
    Int(i32),
    Long(i64),
    Float(u32),
    Double(u64),
}

impl PrimValue {
    pub fn ty(self) -> PrimType {
        match self {
            PrimValue::Boolean(_) => PrimType::Boolean,
            PrimValue::Byte(_) => PrimType::Byte,
            PrimValue::Char(_) => PrimType::Char,
            PrimValue::Short(_) => PrimType::Short,
            PrimValue::Int(_) => PrimType::Int,
            PrimValue::Long(_) => PrimType::Long,
            PrimValue::Float(_) => PrimType::Float,
            PrimValue::Double(_) => PrimType::Double,
        }
    }

    /// The protocol's `u64 bits`: integers sign-extended, floats as raw bits (docs/protocol.md tag 0).
    pub fn bits(self) -> u64 {
        match self {
            PrimValue::Boolean(b) => b as u64,
            PrimValue::Byte(v) => v as i64 as u64,
            PrimValue::Char(v) => v as u64,
            PrimValue::Short(v) => v as i64 as u64,
            PrimValue::Int(v) => v as i64 as u64,
            PrimValue::Long(v) => v as u64,
            PrimValue::Float(v) => v as u64,
            PrimValue::Double(v) => v,
        }
    }

    pub fn float(v: f32) -> PrimValue {
        PrimValue::Float(v.to_bits())
    }

    pub fn double(v: f64) -> PrimValue {
        PrimValue::Double(v.to_bits())
    }
}

impl fmt::Display for PrimValue {
    /// Java literal syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PrimValue::Boolean(b) => write!(f, "{b}"),
            PrimValue::Byte(v) => write!(f, "(byte){v}"),
            PrimValue::Char(c) => {
                f.write_char('\'')?;
                write_escaped_unit(f, c, '\'')?;
                f.write_char('\'')
            }
            PrimValue::Short(v) => write!(f, "(short){v}"),
            PrimValue::Int(v) => write!(f, "{v}"),
            PrimValue::Long(v) => write!(f, "{v}L"),
            PrimValue::Float(b) => {
                let v = f32::from_bits(b);
                if v.is_nan() {
                    f.write_str("Float.NaN")
                } else if v.is_infinite() {
                    f.write_str(if v > 0.0 { "Float.POSITIVE_INFINITY" } else { "Float.NEGATIVE_INFINITY" })
                } else {
                    write!(f, "{v:?}F")
                }
            }
            PrimValue::Double(b) => {
                let v = f64::from_bits(b);
                if v.is_nan() {
                    f.write_str("Double.NaN")
                } else if v.is_infinite() {
                    f.write_str(if v > 0.0 { "Double.POSITIVE_INFINITY" } else { "Double.NEGATIVE_INFINITY" })
                } else {
                    write!(f, "{v:?}")
                }
            }
        }
    }
}

fn write_escaped_unit(f: &mut impl fmt::Write, c: u16, quote: char) -> fmt::Result {
    match char::from_u32(c as u32) {
        Some('\\') => f.write_str("\\\\"),
        Some('\n') => f.write_str("\\n"),
        Some('\t') => f.write_str("\\t"),
        Some('\r') => f.write_str("\\r"),
        Some(ch) if ch == quote => write!(f, "\\{ch}"),
        Some(ch) if (' '..='~').contains(&ch) => f.write_char(ch),
        _ => write!(f, "\\u{c:04x}"),
    }
}

/// A constructor as called by a test: the protocol fields plus the types the model checks.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstructorRef {
    /// The class (binary name) and JVM descriptor, as the protocol names it.
    pub class: String,
    pub descriptor: String,
    /// The type constructed, type arguments included (`ArrayList<String>`).
    pub ty: JType,
    /// Parameter types after substituting the type arguments.
    pub params: Vec<JType>,
}

impl ConstructorRef {
    /// Whether this is the constructor of an inner (non-static member) class, whose first
    /// descriptor parameter is the outer instance: written `outer.new Inner(rest)` (JLS §15.9), and
    /// a null outer instance throws `NullPointerException` before the constructor runs (JLS
    /// §15.9.4). The renderer and the symbolic interpreter decide it here; the worker decides the
    /// same from reflection (`Executor.takesOuterInstance`), and the symbolic differential test
    /// holds the two together. `static_nested`: whether the class is declared `static`, which only
    /// its `InnerClasses` attribute says (`cluster::is_static_nested_in`).
    pub fn takes_outer_instance(&self, static_nested: bool) -> bool {
        if static_nested {
            return false;
        }
        let Some((outer, _)) = self.class.rsplit_once('$') else { return false };
        let Some(first) = self.descriptor.strip_prefix("(L").and_then(|d| d.split_once(';')) else {
            return false;
        };
        first.0 == ClassName::from_binary(outer).internal()
    }
}

/// A method as called by a test.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MethodRef {
    /// The declaring class (binary name), name and JVM descriptor, as the protocol names them.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub is_static: bool,
    /// The receiver's expected type for instance methods (the declaring class with type arguments).
    pub owner: JType,
    /// Parameter and return types after substituting type arguments; `None` is `void`.
    pub params: Vec<JType>,
    pub ret: Option<JType>,
}

/// A field as read or written by a test.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldRef {
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub is_static: bool,
    pub owner: JType,
    pub ty: JType,
}

/// An abstract class or interface a test implements with an anonymous class:
/// what the cluster found about it. The worker runs the generated class `stub_class` (crate
/// `stubgen`); the renderer writes the same thing as an anonymous class.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StubType {
    /// The abstract class or interface (binary name).
    pub class: String,
    pub is_interface: bool,
    /// The binary name of the class the worker defines for it.
    pub stub_class: String,
    /// The superclass constructors the stub mirrors (JVM descriptor, erased parameter types);
    /// `()V` for an interface.
    pub constructors: Vec<(String, Vec<JType>)>,
    /// The abstract methods the stub implements, in answer order.
    pub methods: Vec<StubMethod>,
}

/// One abstract method a stub implements.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StubMethod {
    pub name: String,
    pub descriptor: String,
    /// Erased parameter and return types (from the descriptor); `None` is `void`.
    pub params: Vec<JType>,
    pub ret: Option<JType>,
    /// The types the written override declares: the method's as a member of the stubbed class,
    /// erased (`Line point(double, double)` where `Line extends Points<Line>` inherits `T
    /// point(double, double)`; an override returning `Object` does not compile, JLS §8.4.8.3).
    /// The same as `params` and `ret` when the stubbed class is generic (it is written raw, and
    /// the members of a raw type are erased, JLS §4.8) or the method has type variables of its own.
    pub java_params: Vec<JType>,
    pub java_ret: Option<JType>,
    /// Whether the stub runs its `Runnable` arguments before answering (a void method taking
    /// one is an executor: `execute(r)` runs `r` on the calling thread).
    pub runs_arguments: bool,
    /// The class of what the method may throw (binary name): the first class of its `throws`
    /// clause a test can name (`IOException` for `Closeable.close`, `Exception` for
    /// `Callable.call`), else `java.lang.RuntimeException`, which any method may throw.
    pub throw_bound: String,
}

/// A stub as a test creates it: the type, with type arguments, the constructor chosen and the
/// type of the answers of each method (`None` for void methods, which take none).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StubRef {
    pub stub: Arc<StubType>,
    pub ty: JType,
    pub ctor: usize,
    pub answer_types: Vec<Option<JType>>,
}

impl StubRef {
    /// The generic signature of the stub's class when it captures type arguments, as
    /// `new TypeToken<List<String>>() {}` does: an abstract class without abstract methods whose
    /// type arguments are all exact and closed. Such a stub is written parameterized, and its
    /// class is one per signature (`stub_class`), so that `getGenericSuperclass()` sees them. A stub
    /// with abstract methods is written raw (their erased overrides would not compile in a
    /// parameterized one), so it captures nothing.
    pub fn capture_signature(&self) -> Option<String> {
        let JType::Class { args, .. } = &self.ty else { return None };
        let closed = |a: &TypeArg| matches!(a, TypeArg::Exact(t) if !t.has_vars() && !t.is_primitive());
        if self.stub.is_interface
            || !self.stub.methods.is_empty()
            || args.is_empty()
            || !args.iter().all(closed)
        {
            return None;
        }
        Some(self.ty.signature())
    }

    /// The binary name of the class the worker defines for this stub: the type's stub class, or
    /// one per captured signature (a stable hash of it, so that a name always has the same bytes).
    pub fn stub_class(&self) -> String {
        match self.capture_signature() {
            Some(sig) => {
                // FNV-1a: stable across runs and platforms, unlike the std hasher.
                let mut h: u64 = 0xcbf2_9ce4_8422_2325;
                for b in sig.bytes() {
                    h ^= u64::from(b);
                    h = h.wrapping_mul(0x0000_0100_0000_01b3);
                }
                format!("{}${h:016x}", self.stub.stub_class)
            }
            None => self.stub.stub_class.clone(),
        }
    }

    /// The class file the worker defines for this stub (crate `stubgen`): the engine sends it with
    /// the test, and the interpreter's tests define the same bytes. `None` when the generator
    /// refuses the class (a descriptor it cannot read).
    pub fn class_file(&self) -> Option<Vec<u8>> {
        let st = &self.stub;
        let internal = |n: &str| ClassName::from_binary(n).into_internal();
        let (super_name, interfaces) = if st.is_interface {
            ("java/lang/Object".to_string(), vec![internal(&st.class)])
        } else {
            (internal(&st.class), Vec::new())
        };
        let constructors: Vec<String> = st.constructors.iter().map(|(d, _)| d.clone()).collect();
        let methods: Vec<(String, String)> =
            st.methods.iter().map(|m| (m.name.clone(), m.descriptor.clone())).collect();
        let name = internal(&self.stub_class());
        // A capturing stub's class signature: no type parameters of its own, its superclass with
        // the captured arguments (JVMS §4.7.9.1 `ClassSignature`).
        let signature = self.capture_signature();
        stubgen::generate(&stubgen::StubSpec {
            name: &name,
            super_name: &super_name,
            interfaces: &interfaces,
            constructors: &constructors,
            methods: &methods,
            signature: signature.as_deref(),
        })
        .ok()
    }

    /// The erased parameter types of the chosen constructor.
    pub fn ctor_params(&self) -> &[JType] {
        self.stub.constructors.get(self.ctor).map_or(&[], |(_, p)| p.as_slice())
    }
}

/// One statement. Member references sit behind `Arc` so that cloning a test is cheap; equality and
/// hashing still compare them by value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Statement {
    /// A primitive constant (protocol tag 0).
    Primitive(PrimValue),
    /// A string constant (tag 1).
    String(String),
    /// `null` of a declared type (tag 2).
    Null(JType),
    /// An enum constant `ty.name` (tag 3).
    EnumConstant { ty: JType, name: String },
    /// `new C(args)` (tag 4).
    Constructor { ctor: Arc<ConstructorRef>, args: Vec<VarId> },
    /// `receiver.m(args)` or `C.m(args)` (tag 5); `receiver` is `None` exactly for static methods.
    Method { method: Arc<MethodRef>, receiver: Option<VarId>, args: Vec<VarId> },
    /// `receiver.f` or `C.f` (tag 6).
    FieldGet { field: Arc<FieldRef>, receiver: Option<VarId> },
    /// `receiver.f = value` (tag 7).
    FieldSet { field: Arc<FieldRef>, receiver: Option<VarId>, value: VarId },
    /// `new T[length]` where `ty` is the array type (tag 8, with `ty`'s component descriptor).
    NewArray { ty: JType, length: u32 },
    /// `array[index] = value` (tag 9).
    ArrayStore { array: VarId, index: u32, value: VarId },
    /// `array[index]`, whose value has the component type `ty` (tag 10).
    ArrayLoad { array: VarId, index: u32, ty: JType },
    /// `T v = from` (tag 11).
    Copy { from: VarId, ty: JType },
    /// The class literal `T.class` (tag 12; types as values): `ty` is a class
    /// (erased: `List.class`, never `List<String>.class`), an array or a primitive type.
    ClassLiteral { ty: JType },
    /// An instance of an anonymous implementation of an abstract class or interface (tag 13):
    /// `args` go to the superclass constructor, and method k returns
    /// `answers[k]` in turn, then its return type's default value (so that a loop on a stub's
    /// `hasNext()` ends). With `throws[k]`, the call after the answers throws that value (of the
    /// method's `throw_bound`; a null throws `NullPointerException`, as `throw null` does), once:
    /// Mockito's `thenThrow`, for the code that catches what such a method throws.
    Stub { stub: Arc<StubRef>, args: Vec<VarId>, answers: Vec<Vec<VarId>>, throws: Vec<Option<VarId>> },
    /// A file or directory in the test's own temporary folder (tag 14): a
    /// `java.io.File`, or a `java.nio.file.Path` when `path`. A file holds `contents` (UTF-8); a
    /// directory holds `contents` in one file `data.txt` when they are not empty; a missing file
    /// is a name in the folder that nothing has created yet. The k-th such statement of a test is
    /// named `file<k>` ([`ScratchFile::name`]), in the worker and in the written test alike.
    ScratchFile(ScratchFile),
}

/// What a [`Statement::ScratchFile`] makes in the test's temporary folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScratchKind {
    /// A regular file with the contents.
    File,
    /// A directory, with the contents in `data.txt` unless they are empty.
    Directory,
    /// A name nothing has created (for code that creates or writes files).
    Missing,
}

impl ScratchKind {
    pub const ALL: [ScratchKind; 3] = [ScratchKind::File, ScratchKind::Directory, ScratchKind::Missing];

    /// The protocol's byte for this kind (docs/protocol.md, tag 14).
    pub fn code(self) -> u8 {
        match self {
            ScratchKind::File => 0,
            ScratchKind::Directory => 1,
            ScratchKind::Missing => 2,
        }
    }
}

/// The fields of [`Statement::ScratchFile`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScratchFile {
    pub kind: ScratchKind,
    /// A `Path` rather than a `File`.
    pub path: bool,
    pub contents: String,
}

/// The class of a file value.
pub const FILE: &str = "java.io.File";
/// The class of a path value.
pub const PATH: &str = "java.nio.file.Path";
/// The folder below its scratch directory where a worker makes a test's scratch files
/// (`suitesmith.rt.Executor.SCRATCH_FOLDER` has the same name): a value naming it differs in the
/// written test, whose temporary folder has a name of JUnit's.
pub const SCRATCH_FOLDER: &str = "suitesmith-files";
/// The file a directory's contents go in.
pub const DIRECTORY_DATA: &str = "data.txt";

impl ScratchFile {
    /// The value's type: `File` or `Path`.
    pub fn value_type(&self) -> JType {
        JType::class(if self.path { PATH } else { FILE })
    }

    /// The name in the temporary folder of the statement at `index` of `test`: `file<k>` for the
    /// k-th scratch-file statement, so that names depend on the test alone.
    pub fn name(test: &TestCase, index: usize) -> String {
        let k = test.statements[..index.min(test.len())]
            .iter()
            .filter(|s| matches!(s, Statement::ScratchFile(_)))
            .count();
        format!("file{k}")
    }
}

impl Statement {
    /// The docs/protocol.md statement tag this kind is encoded as.
    pub fn protocol_tag(&self) -> u8 {
        match self {
            Statement::Primitive(_) => 0,
            Statement::String(_) => 1,
            Statement::Null(_) => 2,
            Statement::EnumConstant { .. } => 3,
            Statement::Constructor { .. } => 4,
            Statement::Method { .. } => 5,
            Statement::FieldGet { .. } => 6,
            Statement::FieldSet { .. } => 7,
            Statement::NewArray { .. } => 8,
            Statement::ArrayStore { .. } => 9,
            Statement::ArrayLoad { .. } => 10,
            Statement::Copy { .. } => 11,
            Statement::ClassLiteral { .. } => 12,
            Statement::Stub { .. } => 13,
            Statement::ScratchFile(_) => 14,
        }
    }

    /// The static type of the variable this statement defines; `None` for statements without a
    /// value (void calls, stores), whose variable must not be used.
    pub fn value_type(&self) -> Option<JType> {
        match self {
            Statement::Primitive(v) => Some(JType::Prim(v.ty())),
            Statement::String(_) => Some(JType::string()),
            Statement::Null(t) => Some(t.clone()),
            Statement::EnumConstant { ty, .. } => Some(ty.clone()),
            Statement::Constructor { ctor, .. } => Some(ctor.ty.clone()),
            Statement::Method { method, .. } => method.ret.clone(),
            Statement::FieldGet { field, .. } => Some(field.ty.clone()),
            Statement::FieldSet { .. } | Statement::ArrayStore { .. } => None,
            Statement::NewArray { ty, .. } => Some(ty.clone()),
            Statement::ArrayLoad { ty, .. } => Some(ty.clone()),
            Statement::Copy { ty, .. } => Some(ty.clone()),
            Statement::ClassLiteral { ty } => Some(class_literal_type(ty)),
            Statement::Stub { stub, .. } => Some(stub.ty.clone()),
            Statement::ScratchFile(f) => Some(f.value_type()),
        }
    }

    /// The variables this statement reads, in field order.
    pub fn uses(&self) -> Vec<VarId> {
        let mut res = Vec::new();
        match self {
            Statement::Primitive(_)
            | Statement::String(_)
            | Statement::Null(_)
            | Statement::EnumConstant { .. }
            | Statement::ClassLiteral { .. }
            | Statement::ScratchFile(_)
            | Statement::NewArray { .. } => {}
            Statement::Constructor { args, .. } => res.extend(args),
            Statement::Method { receiver, args, .. } => {
                res.extend(receiver);
                res.extend(args);
            }
            Statement::FieldGet { receiver, .. } => res.extend(receiver),
            Statement::FieldSet { receiver, value, .. } => {
                res.extend(receiver);
                res.push(*value);
            }
            Statement::ArrayStore { array, value, .. } => {
                res.push(*array);
                res.push(*value);
            }
            Statement::ArrayLoad { array, .. } => res.push(*array),
            Statement::Copy { from, .. } => res.push(*from),
            Statement::Stub { args, answers, throws, .. } => {
                res.extend(args);
                res.extend(answers.iter().flatten());
                res.extend(throws.iter().flatten());
            }
        }
        res
    }

    /// Mutable access to the variables this statement reads, in the order of `uses`.
    pub fn uses_mut(&mut self) -> Vec<&mut VarId> {
        let mut res: Vec<&mut VarId> = Vec::new();
        match self {
            Statement::Primitive(_)
            | Statement::String(_)
            | Statement::Null(_)
            | Statement::EnumConstant { .. }
            | Statement::ClassLiteral { .. }
            | Statement::ScratchFile(_)
            | Statement::NewArray { .. } => {}
            Statement::Constructor { args, .. } => res.extend(args.iter_mut()),
            Statement::Method { receiver, args, .. } => {
                res.extend(receiver.iter_mut());
                res.extend(args.iter_mut());
            }
            Statement::FieldGet { receiver, .. } => res.extend(receiver.iter_mut()),
            Statement::FieldSet { receiver, value, .. } => {
                res.extend(receiver.iter_mut());
                res.push(value);
            }
            Statement::ArrayStore { array, value, .. } => {
                res.push(array);
                res.push(value);
            }
            Statement::ArrayLoad { array, .. } => res.push(array),
            Statement::Copy { from, .. } => res.push(from),
            Statement::Stub { args, answers, throws, .. } => {
                res.extend(args.iter_mut());
                res.extend(answers.iter_mut().flatten());
                res.extend(throws.iter_mut().flatten());
            }
        }
        res
    }

    /// The type each use must be assignable to, in the order of `uses`. Array stores and loads
    /// depend on the array variable's type, so their slots are `None` and are checked separately.
    pub fn use_types(&self) -> Vec<Option<JType>> {
        match self {
            Statement::Primitive(_)
            | Statement::String(_)
            | Statement::Null(_)
            | Statement::EnumConstant { .. }
            | Statement::ClassLiteral { .. }
            | Statement::ScratchFile(_)
            | Statement::NewArray { .. } => Vec::new(),
            Statement::Constructor { ctor, .. } => ctor.params.iter().cloned().map(Some).collect(),
            Statement::Method { method, receiver, .. } => {
                let mut res = Vec::new();
                if receiver.is_some() {
                    res.push(Some(method.owner.clone()));
                }
                res.extend(method.params.iter().cloned().map(Some));
                res
            }
            Statement::FieldGet { field, receiver } => {
                receiver.iter().map(|_| Some(field.owner.clone())).collect()
            }
            Statement::FieldSet { field, receiver, .. } => {
                let mut res: Vec<Option<JType>> =
                    receiver.iter().map(|_| Some(field.owner.clone())).collect();
                res.push(Some(field.ty.clone()));
                res
            }
            Statement::ArrayStore { .. } => vec![None, None],
            Statement::ArrayLoad { .. } => vec![None],
            Statement::Copy { ty, .. } => vec![Some(ty.clone())],
            Statement::Stub { stub, answers, throws, .. } => {
                let mut res: Vec<Option<JType>> = stub.ctor_params().iter().cloned().map(Some).collect();
                for (k, a) in answers.iter().enumerate() {
                    let t = stub.answer_types.get(k).cloned().flatten();
                    res.extend(a.iter().map(|_| t.clone()));
                }
                for (k, t) in throws.iter().enumerate() {
                    if t.is_some() {
                        res.push(stub.stub.methods.get(k).map(|m| JType::class(&m.throw_bound)));
                    }
                }
                res
            }
        }
    }

    /// Whether this is a call (constructor or method): the statements mutation may re-target.
    pub fn is_call(&self) -> bool {
        matches!(self, Statement::Constructor { .. } | Statement::Method { .. })
    }
}

/// A test case: statements in execution order. Variable `VarId(i)` is the value of statement `i`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TestCase {
    pub statements: Vec<Statement>,
    /// Where the test came from, for reports only (ignored by equality and hashing).
    pub lineage: Lineage,
}

/// Where a test came from, for reports only: whether it is an object construction template
/// (paper 000, crate `ocg`) or descends from one by mutation or crossover (a child inherits its
/// first parent's lineage). Nothing decides on it: two tests with the same statements are the
/// same test whatever their lineage, so every pair is equal and hashing ignores it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lineage {
    pub template: bool,
}

impl PartialEq for Lineage {
    fn eq(&self, _: &Lineage) -> bool {
        true
    }
}

impl Eq for Lineage {}

impl std::hash::Hash for Lineage {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl TestCase {
    pub fn new() -> TestCase {
        TestCase { statements: Vec::new(), lineage: Lineage::default() }
    }

    pub fn len(&self) -> usize {
        self.statements.len()
    }

    pub fn is_empty(&self) -> bool {
        self.statements.is_empty()
    }

    /// Appends a statement and returns its variable.
    pub fn push(&mut self, st: Statement) -> VarId {
        self.statements.push(st);
        VarId((self.statements.len() - 1) as u32)
    }

    /// Inserts a statement at `pos` (clamped to the length), moving later statements up by one
    /// and renumbering their uses of moved variables. Returns the new statement's variable.
    pub fn insert(&mut self, pos: usize, st: Statement) -> VarId {
        let pos = pos.min(self.statements.len());
        for later in &mut self.statements[pos..] {
            for v in later.uses_mut() {
                if v.index() >= pos {
                    v.0 += 1;
                }
            }
        }
        self.statements.insert(pos, st);
        VarId(pos as u32)
    }

    /// The static type of a variable, if it has a value.
    pub fn var_type(&self, v: VarId) -> Option<JType> {
        self.statements.get(v.index()).and_then(Statement::value_type)
    }

    /// The statements that use variable `v`, directly.
    pub fn direct_users(&self, v: VarId) -> Vec<usize> {
        (v.index() + 1..self.statements.len()).filter(|&i| self.statements[i].uses().contains(&v)).collect()
    }

    /// The canonical byte form: equal tests give equal bytes and different tests different bytes,
    /// independent of the Rust version (unlike `std::hash`). Used for caching executions.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + 48 * self.statements.len());
        put_u32(&mut out, self.statements.len() as u32);
        for st in &self.statements {
            encode_statement(st, &mut out);
        }
        out
    }

    /// A stable 64-bit hash of the canonical form, for deduplication: eight bytes at a time, each
    /// word mixed in with a multiply and a rotation, then SplitMix64's finaliser (a byte-by-byte
    /// FNV-1a was a visible part of random search's engine time).
    pub fn stable_hash(&self) -> u64 {
        let bytes = self.canonical_bytes();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64;
        let mut words = bytes.chunks_exact(8);
        let mut mix = |w: u64| h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
        for w in &mut words {
            mix(u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
        }
        let mut tail = [0u8; 8];
        tail[..words.remainder().len()].copy_from_slice(words.remainder());
        mix(u64::from_le_bytes(tail));
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    }

    /// The compact Java-like text, one statement per line.
    pub fn to_text(&self) -> String {
        self.to_string()
    }
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u32(out, s.len() as u32);
    out.extend_from_slice(s.as_bytes());
}

fn put_var(out: &mut Vec<u8>, v: Option<VarId>) {
    put_u32(out, v.map_or(u32::MAX, |v| v.0));
}

fn put_type(out: &mut Vec<u8>, t: &JType) {
    match t {
        JType::Prim(p) => {
            out.push(b'P');
            out.push(p.descriptor_char() as u8);
        }
        JType::Class { name, args } => {
            out.push(b'L');
            put_str(out, name);
            put_u32(out, args.len() as u32);
            for a in args {
                match a {
                    TypeArg::Any => out.push(b'*'),
                    TypeArg::Exact(t) => {
                        out.push(b'=');
                        put_type(out, t);
                    }
                    TypeArg::Extends(t) => {
                        out.push(b'+');
                        put_type(out, t);
                    }
                    TypeArg::Super(t) => {
                        out.push(b'-');
                        put_type(out, t);
                    }
                }
            }
        }
        JType::Array(c) => {
            out.push(b'[');
            put_type(out, c);
        }
        JType::Var(v) => {
            out.push(b'T');
            put_str(out, v);
        }
    }
}

fn put_types(out: &mut Vec<u8>, ts: &[JType]) {
    put_u32(out, ts.len() as u32);
    for t in ts {
        put_type(out, t);
    }
}

fn put_vars(out: &mut Vec<u8>, vs: &[VarId]) {
    put_u32(out, vs.len() as u32);
    for v in vs {
        put_var(out, Some(*v));
    }
}

fn encode_statement(st: &Statement, out: &mut Vec<u8>) {
    out.push(st.protocol_tag());
    match st {
        Statement::Primitive(v) => {
            out.push(v.ty().descriptor_char() as u8);
            out.extend_from_slice(&v.bits().to_be_bytes());
        }
        Statement::String(s) => put_str(out, s),
        Statement::Null(t) => put_type(out, t),
        Statement::EnumConstant { ty, name } => {
            put_type(out, ty);
            put_str(out, name);
        }
        Statement::Constructor { ctor, args } => {
            put_str(out, &ctor.class);
            put_str(out, &ctor.descriptor);
            put_type(out, &ctor.ty);
            put_types(out, &ctor.params);
            put_vars(out, args);
        }
        Statement::Method { method, receiver, args } => {
            put_str(out, &method.class);
            put_str(out, &method.name);
            put_str(out, &method.descriptor);
            out.push(method.is_static as u8);
            put_type(out, &method.owner);
            put_types(out, &method.params);
            match &method.ret {
                Some(t) => put_type(out, t),
                None => out.push(b'V'),
            }
            put_var(out, *receiver);
            put_vars(out, args);
        }
        Statement::FieldGet { field, receiver } => {
            put_field(out, field);
            put_var(out, *receiver);
        }
        Statement::FieldSet { field, receiver, value } => {
            put_field(out, field);
            put_var(out, *receiver);
            put_var(out, Some(*value));
        }
        Statement::NewArray { ty, length } => {
            put_type(out, ty);
            put_u32(out, *length);
        }
        Statement::ArrayStore { array, index, value } => {
            put_var(out, Some(*array));
            put_u32(out, *index);
            put_var(out, Some(*value));
        }
        Statement::ArrayLoad { array, index, ty } => {
            put_var(out, Some(*array));
            put_u32(out, *index);
            put_type(out, ty);
        }
        Statement::Copy { from, ty } => {
            put_var(out, Some(*from));
            put_type(out, ty);
        }
        Statement::ClassLiteral { ty } => put_type(out, ty),
        Statement::Stub { stub, args, answers, throws } => {
            put_str(out, &stub.stub.stub_class);
            put_type(out, &stub.ty);
            put_u32(out, stub.ctor as u32);
            put_vars(out, args);
            put_u32(out, answers.len() as u32);
            for a in answers {
                put_vars(out, a);
            }
            // Only stubs that throw add bytes, so the keys of the others stay as they were.
            if throws.iter().any(Option::is_some) {
                for t in throws {
                    put_var(out, *t);
                }
            }
        }
        Statement::ScratchFile(sf) => {
            out.push(sf.kind.code());
            out.push(sf.path as u8);
            put_str(out, &sf.contents);
        }
    }
}

/// The type of the class literal `ty.class`: `Class<T>` of the erased `ty`, its wrapper for a
/// primitive (`int.class` is a `Class<Integer>`, JLS §15.8.2).
pub fn class_literal_type(ty: &JType) -> JType {
    let arg = match ty {
        JType::Prim(p) => JType::class(p.wrapper()),
        other => other.erasure(),
    };
    JType::Class { name: CLASS.to_string(), args: vec![TypeArg::Exact(arg)] }
}

/// `java.lang.Class`, whose values are class literals.
pub const CLASS: &str = "java.lang.Class";

fn put_field(out: &mut Vec<u8>, f: &FieldRef) {
    put_str(out, &f.class);
    put_str(out, &f.name);
    put_str(out, &f.descriptor);
    out.push(f.is_static as u8);
    put_type(out, &f.owner);
    put_type(out, &f.ty);
}

/// Writes a Java string literal with escapes.
pub fn string_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for unit in s.encode_utf16() {
        // Writing to a String cannot fail.
        let _ = write_escaped_unit(&mut out, unit, '"');
    }
    out.push('"');
    out
}

fn write_args(f: &mut fmt::Formatter<'_>, args: &[VarId]) -> fmt::Result {
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{a}")?;
    }
    Ok(())
}

impl fmt::Display for TestCase {
    /// One line per statement: `Type vN = expression;`, or just the expression for statements
    /// without a value. Class names are simple names.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, st) in self.statements.iter().enumerate() {
            let v = VarId(i as u32);
            if let Some(t) = st.value_type() {
                write!(f, "{t} {v} = ")?;
            }
            match st {
                Statement::Primitive(p) => write!(f, "{p}")?,
                Statement::String(s) => f.write_str(&string_literal(s))?,
                Statement::Null(_) => f.write_str("null")?,
                Statement::EnumConstant { ty, name } => write!(f, "{}.{name}", ty.erasure())?,
                Statement::Constructor { ctor, args } => {
                    write!(f, "new {}(", ctor.ty)?;
                    write_args(f, args)?;
                    f.write_str(")")?;
                }
                Statement::Method { method, receiver, args } => {
                    match receiver {
                        Some(r) => write!(f, "{r}.")?,
                        None => write!(f, "{}.", simple_name(&method.class))?,
                    }
                    write!(f, "{}(", method.name)?;
                    write_args(f, args)?;
                    f.write_str(")")?;
                }
                Statement::FieldGet { field, receiver } => match receiver {
                    Some(r) => write!(f, "{r}.{}", field.name)?,
                    None => write!(f, "{}.{}", simple_name(&field.class), field.name)?,
                },
                Statement::FieldSet { field, receiver, value } => match receiver {
                    Some(r) => write!(f, "{r}.{} = {value}", field.name)?,
                    None => write!(f, "{}.{} = {value}", simple_name(&field.class), field.name)?,
                },
                Statement::NewArray { ty, length } => {
                    // `new int[3][]` for an `int[][]`: the length goes on the outermost dimension.
                    let (mut base, mut dims) = (ty, 0usize);
                    while let JType::Array(c) = base {
                        base = c;
                        dims += 1;
                    }
                    write!(f, "new {}[{length}]{}", base.erasure(), "[]".repeat(dims.saturating_sub(1)))?;
                }
                Statement::ArrayStore { array, index, value } => write!(f, "{array}[{index}] = {value}")?,
                Statement::ArrayLoad { array, index, .. } => write!(f, "{array}[{index}]")?,
                Statement::Copy { from, .. } => write!(f, "{from}")?,
                Statement::ClassLiteral { ty } => write!(f, "{}.class", ty.erasure())?,
                Statement::Stub { stub, args, answers, throws } => {
                    write!(f, "new {}(", stub.ty)?;
                    write_args(f, args)?;
                    f.write_str(") {")?;
                    for (k, (m, a)) in stub.stub.methods.iter().zip(answers).enumerate() {
                        write!(f, " {}: ", m.name)?;
                        if m.runs_arguments {
                            f.write_str("run ")?;
                        }
                        f.write_str("[")?;
                        write_args(f, a)?;
                        f.write_str("]")?;
                        if let Some(Some(t)) = throws.get(k) {
                            write!(f, " throw {t}")?;
                        }
                    }
                    f.write_str(" }")?;
                }
                Statement::ScratchFile(sf) => {
                    let ty = if sf.path { "Path" } else { "File" };
                    write!(f, "{ty} {:?} {}", sf.kind, string_literal(&sf.contents))?;
                }
            }
            f.write_str(";\n")?;
        }
        Ok(())
    }
}
