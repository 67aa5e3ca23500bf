//! The cluster's model: the callables it offers in their generic and instantiated forms, the ways
//! of obtaining a value (`Creation`), the construction parameters (`ClusterConfig`) and errors, and
//! the memo tables the queries fill. Building the cluster is `walk`'s job, answering questions
//! `queries`' and `generics`'.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use crate::statement::{ConstructorRef, FieldRef, MethodRef, Statement, VarId};
use crate::types::{JType, TypeParam};

/// Errors building a cluster: only the CUT itself must load; dependencies that fail are reported
/// in `TestCluster::problems` and left out.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("class {0} is not on the classpath")]
    ClassNotFound(String),
    #[error(transparent)]
    ClassFile(#[from] classfile::Error),
    #[error("class {0} cannot be tested: it is local, anonymous or private")]
    NotTestable(String),
}

/// Parameters of cluster construction. No `Default`: use `ClusterConfig::evosuite()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterConfig {
    /// How many steps of "a parameter of a generator of a parameter ..." are followed from the
    /// CUT's calls (EvoSuite bounds dependencies the same way).
    pub cluster_depth: u32,
    /// Nesting bound for type arguments of instantiated generic types (`max_generic_depth`).
    pub max_generic_depth: u32,
    /// Whether abstract classes and interfaces get stubs: anonymous implementations whose
    /// methods return values the search chooses (`--stubs`).
    pub stubs: bool,
    /// Whether a wanted `java.io.File` or `java.nio.file.Path` can be a file, directory or
    /// missing name in the test's temporary folder (`--files`).
    pub files: bool,
    /// Whether the static pool also holds the numbers the CUT's methods push with instructions
    /// (`bipush`, `sipush`, `iconst`, ...: `load::code_constants`), as EvoSuite's does, besides
    /// its constant pool's (`--code-constants`). Off by default: its ablation lost on the public
    /// set (docs/benchmarks.md), and it moves the fixed-budget fixtures of the techniques.
    pub code_constants: bool,
    /// Whether a type the cluster cannot make is made by the methods of other classes of the
    /// CUT's package or of its own package that return it or a subtype
    /// (`package::package_generators`, `--package-generators`).
    pub package_generators: bool,
    /// Whether the static pool also holds strings in the formats whose separators the CUT
    /// compares with (dotted quads, ISO dates, URLs, ...: `shapes::format_shapes`,
    /// `--format-strings`).
    pub format_strings: bool,
    /// Whether the static pool also holds strings the CUT's regular expressions accept (the
    /// constant patterns it passes to `matches`, `split`, `replaceAll`, `Pattern.compile`:
    /// `regex_strings::accepted_strings`, `--regex-strings`).
    pub regex_strings: bool,
}

impl ClusterConfig {
    /// EvoSuite's defaults: `max_generic_depth=3`, and a dependency depth of 3; unlike EvoSuite's,
    /// the static pool holds no pushed numbers (`code_constants`).
    pub fn evosuite() -> ClusterConfig {
        ClusterConfig {
            cluster_depth: 3,
            max_generic_depth: 3,
            stubs: false,
            files: false,
            code_constants: false,
            package_generators: false,
            format_strings: false,
            regex_strings: false,
        }
    }
}

/// What a callable does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CallableKind {
    Constructor,
    Method,
    FieldGet,
    FieldSet,
}

/// A constructor, method or field access in its generic, declared form: types mention the
/// declaring class's type variables (`class_params`) and the method's own (`type_params`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GenericCallable {
    pub kind: CallableKind,
    /// Declaring class (binary name), member name and JVM descriptor.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub is_static: bool,
    pub class_params: Vec<TypeParam>,
    pub type_params: Vec<TypeParam>,
    /// The declaring class with its type variables (`ArrayList<E>`).
    pub owner: JType,
    /// The class the member was collected for, with its type variables: the receiver's type. It
    /// differs from `owner` for inherited members (`Object.hashCode` called on the CUT).
    pub receiver: JType,
    /// Parameter types (for `FieldSet`, the field's type).
    pub params: Vec<JType>,
    /// The value produced: the constructed type, the return type, the field type; `None` for
    /// void methods and field writes.
    pub ret: Option<JType>,
}

impl GenericCallable {
    /// Whether the statement needs a receiver.
    pub fn needs_receiver(&self) -> bool {
        !self.is_static && self.kind != CallableKind::Constructor
    }

    /// One line for dumps: `ArrayList.<init>(int) -> ArrayList<E>`.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        let owner = crate::types::simple_name(&self.class);
        let _ = match self.kind {
            CallableKind::Constructor => write!(s, "new {owner}("),
            CallableKind::Method if self.is_static => write!(s, "static {owner}.{}(", self.name),
            CallableKind::Method => write!(s, "{owner}.{}(", self.name),
            CallableKind::FieldGet => {
                write!(s, "get {}{owner}.{}(", if self.is_static { "static " } else { "" }, self.name)
            }
            CallableKind::FieldSet => {
                write!(s, "set {}{owner}.{}(", if self.is_static { "static " } else { "" }, self.name)
            }
        };
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "{p}");
        }
        s.push(')');
        if let Some(r) = &self.ret {
            let _ = write!(s, " -> {r}");
        }
        s
    }
}

/// A callable with every type variable resolved: what a statement is built from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instantiated {
    pub callable: Arc<GenericCallable>,
    pub owner: JType,
    pub params: Vec<JType>,
    pub ret: Option<JType>,
}

impl Instantiated {
    /// The statement calling this with the given receiver (for instance members) and arguments
    /// (for `FieldSet`, the one argument is the value).
    pub fn statement(&self, receiver: Option<VarId>, args: Vec<VarId>) -> Statement {
        let c = &self.callable;
        match c.kind {
            CallableKind::Constructor => Statement::Constructor {
                ctor: Arc::new(ConstructorRef {
                    class: c.class.clone(),
                    descriptor: c.descriptor.clone(),
                    ty: self.owner.clone(),
                    params: self.params.clone(),
                }),
                args,
            },
            CallableKind::Method => Statement::Method {
                method: Arc::new(MethodRef {
                    class: c.class.clone(),
                    name: c.name.clone(),
                    descriptor: c.descriptor.clone(),
                    is_static: c.is_static,
                    owner: self.owner.clone(),
                    params: self.params.clone(),
                    ret: self.ret.clone(),
                }),
                receiver,
                args,
            },
            CallableKind::FieldGet | CallableKind::FieldSet => {
                let field = Arc::new(FieldRef {
                    class: c.class.clone(),
                    name: c.name.clone(),
                    descriptor: c.descriptor.clone(),
                    is_static: c.is_static,
                    owner: self.owner.clone(),
                    ty: if c.kind == CallableKind::FieldGet {
                        self.ret.clone().unwrap_or_else(JType::object)
                    } else {
                        self.params.first().cloned().unwrap_or_else(JType::object)
                    },
                });
                if c.kind == CallableKind::FieldGet {
                    Statement::FieldGet { field, receiver }
                } else {
                    let value = args.first().copied().unwrap_or(VarId(0));
                    Statement::FieldSet { field, receiver, value }
                }
            }
        }
    }
}

/// One way to obtain a value of a wanted type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Creation {
    /// A primitive, wrapper or string constant of this type.
    Constant(JType),
    /// A constant of this enum class.
    Enum { class: String, constants: Vec<String> },
    /// An array of this (array) type.
    Array(JType),
    /// Calling a generator, instantiated for the wanted type.
    Call(Instantiated),
    /// The class literal of this type (`String.class`) for a wanted `Class<..>`.
    ClassLiteral(JType),
    /// An anonymous implementation of the wanted abstract class or interface (its first
    /// constructor; the factory chooses among them).
    Stub(Arc<crate::statement::StubRef>),
    /// A file, directory or missing name in the test's temporary folder, as a `Path` when
    /// `path`, else a `File` (`ClusterConfig::files`).
    ScratchFile { path: bool },
}

/// Memoised `TestCluster::creations`. A clone starts empty (it is only a cache).
#[derive(Debug, Default)]
pub(super) struct CreationCache(pub(super) std::sync::Mutex<BTreeMap<JType, Arc<Vec<Creation>>>>);

impl Clone for CreationCache {
    fn clone(&self) -> CreationCache {
        CreationCache::default()
    }
}

/// The modifiers of a class (`TestCluster::modifiers`), shared with the memo.
pub type Modifiers = Arc<Vec<Arc<GenericCallable>>>;

/// Memoised `TestCluster::modifiers` per class: mutation and insertion ask for the modifiers of
/// every variable's class on every call, and the answer walks all classes with modifiers (about 8 %
/// of the engine's time on classes with many object variables). A clone starts empty.
#[derive(Debug, Default)]
pub(super) struct ModifierCache(pub(super) std::sync::Mutex<BTreeMap<String, Modifiers>>);

impl Clone for ModifierCache {
    fn clone(&self) -> ModifierCache {
        ModifierCache::default()
    }
}
