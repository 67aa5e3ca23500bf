//! The test cluster (EvoSuite's `TestCluster`/`TestClusterGenerator`): for a class under test (CUT),
//! the calls a test may make on it, and, transitively to `cluster_depth`, how to obtain a value of
//! every type those calls need: constructors, static factories, methods of cluster classes returning
//! the type, enum constants, arrays, and concrete classes for abstract types (the classpath for user
//! types, `jdk::implementations` for JDK types). Generic type variables are resolved by unifying a
//! generator's return type, viewed as the wanted class (`as_super`), with the wanted type.
//!
//! Everything is ordered (BTreeMap, sorted vectors), so equal inputs give equal clusters. It reads
//! class files only; creating statements from the cluster is `factory`'s job.

mod jdk;
mod load;
mod overloads;
mod package;
mod shapes;
mod stubs;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use classfile::{ClassPath, access};
use programdb::ProgramDb;

use crate::pool::ConstantValues;
use crate::statement::{CLASS, ConstructorRef, FILE, FieldRef, MethodRef, PATH, Statement, VarId};
use crate::types::{JType, OBJECT, SubtypeOracle, TypeArg, TypeParam};
pub(crate) use load::PoolConstants;
use load::{ClassInfo, ClassTable};
use stubs::{Ancestry, StubInfo};
pub use stubs::{JDK_STUB_PACKAGE, RUNTIME_EXCEPTION, STUB_SUFFIX, stub_class_name};

/// Whether `binary` (`a.B$C`) is a nested class declared `static` (its own `InnerClasses` entry has
/// `ACC_STATIC`, JVMS §4.7.6): its constructor's first parameter is then an ordinary argument, not
/// the enclosing instance. False when the class cannot be read.
pub fn is_static_nested(cp: &ClassPath, binary: &str) -> bool {
    let internal = binary.replace('.', "/");
    let Ok(Some(bytes)) = cp.class_bytes(&internal) else { return false };
    let Ok(cf) = classfile::ClassFile::parse(&bytes) else { return false };
    load::inner_class_flags(&cf, &internal).is_some_and(|(flags, _)| flags & access::STATIC != 0)
}

/// The parameter part of a method descriptor (`(ILjava/lang/String;` of `(ILjava/lang/String;)V`):
/// what an override or a hiding method shares with the method it replaces.
fn param_part(descriptor: &str) -> &str {
    descriptor.rsplit_once(')').map_or(descriptor, |(p, _)| p)
}

/// `is_static_nested` over the classes of the run's program database.
pub fn is_static_nested_in(db: &ProgramDb, binary: &str) -> bool {
    let internal = binary.replace('.', "/");
    let Some(Ok(cf)) = db.class_id(&internal).map(|c| db.class(c)) else { return false };
    load::inner_class_flags(cf, &internal).is_some_and(|(flags, _)| flags & access::STATIC != 0)
}

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
    /// methods return values the search chooses (issue 20 item 1, `--stubs`).
    pub stubs: bool,
    /// Whether a wanted `java.io.File` or `java.nio.file.Path` can be a file, directory or
    /// missing name in the test's temporary folder (issue 20 item 2, `--files`).
    pub files: bool,
    /// Whether the static pool also holds the numbers the CUT's methods push with instructions
    /// (`bipush`, `sipush`, `iconst`, ...: `load::code_constants`), as EvoSuite's does, besides
    /// its constant pool's (`--code-constants`). Off by default: its ablation lost on the public
    /// set (docs/benchmarks.md), and it moves the fixed-budget fixtures of the techniques.
    pub code_constants: bool,
    /// Whether a type the cluster cannot make is made by the methods of other classes of the
    /// CUT's package or of its own package that return it or a subtype (issue 20 item 3,
    /// `package::package_generators`, `--package-generators`).
    pub package_generators: bool,
    /// Whether the static pool also holds strings in the formats whose separators the CUT
    /// compares with (dotted quads, ISO dates, URLs, ...: `shapes::format_shapes`, issue 20 item
    /// 4, `--format-strings`).
    pub format_strings: bool,
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
struct CreationCache(std::sync::Mutex<BTreeMap<JType, Arc<Vec<Creation>>>>);

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
struct ModifierCache(std::sync::Mutex<BTreeMap<String, Modifiers>>);

impl Clone for ModifierCache {
    fn clone(&self) -> ModifierCache {
        ModifierCache::default()
    }
}

/// The class hierarchy entry of a loaded class: what assignability and `as_super` need.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Hier {
    type_params: Vec<TypeParam>,
    /// Generic superclass then superinterfaces (`AbstractList<E>`, `List<E>`, ...).
    supers: Vec<JType>,
}

/// The test cluster of one class under test.
#[derive(Debug, Clone)]
pub struct TestCluster {
    cut: String,
    config: ClusterConfig,
    targets: Vec<Arc<GenericCallable>>,
    generators: BTreeMap<String, Vec<Arc<GenericCallable>>>,
    modifiers: BTreeMap<String, Vec<Arc<GenericCallable>>>,
    implementations: BTreeMap<String, Vec<String>>,
    enums: BTreeMap<String, Vec<String>>,
    hierarchy: BTreeMap<String, Hier>,
    /// `ancestors(&hierarchy)`, for `is_subclass`.
    ancestors: BTreeMap<String, Vec<String>>,
    /// `creations` per wanted type, computed on first request.
    creations: CreationCache,
    /// `target_type` of each generic target class (the CUT and its member classes).
    target_types: BTreeMap<String, JType>,
    /// `modifiers` per class, computed on first request.
    modifier_cache: ModifierCache,
    constants: ConstantValues,
    problems: BTreeMap<String, String>,
    /// Stubs of the abstract classes and interfaces a test may implement (`ClusterConfig::stubs`).
    stubs: BTreeMap<String, StubInfo>,
}

/// `java.base.jmod` of the JDK in `JAVA_HOME`, or of the `java` found on `PATH` (`jdk::base_jmod`).
pub fn jdk_base_jmod() -> Option<PathBuf> {
    ::jdk::base_jmod()
}

impl SubtypeOracle for TestCluster {
    fn is_subclass(&self, sub: &str, sup: &str) -> bool {
        sub == sup
            || sup == OBJECT
            || self.ancestors.get(sub).is_some_and(|a| a.binary_search_by(|x| x.as_str().cmp(sup)).is_ok())
    }
}

/// Every class's proper supertypes (superclasses and interfaces, transitively), sorted: test
/// creation asks "is A a subtype of B" for every candidate generator, so it is precomputed once
/// instead of walking the hierarchy (with allocations) on each question.
fn ancestors(hierarchy: &BTreeMap<String, Hier>) -> BTreeMap<String, Vec<String>> {
    hierarchy
        .keys()
        .map(|start| {
            // An explicit worklist over the loaded hierarchy (STYLE.md rule 7).
            let mut seen = BTreeSet::new();
            let mut work = vec![start.as_str()];
            while let Some(c) = work.pop() {
                if let Some(h) = hierarchy.get(c) {
                    for s in h.supers.iter().filter_map(|s| s.class_name()) {
                        if seen.insert(s.to_string()) {
                            work.push(s);
                        }
                    }
                }
            }
            seen.remove(start);
            (start.clone(), seen.into_iter().collect())
        })
        .collect()
}

/// Binds the type variables of `pattern` so that it matches `actual` (first binding wins).
/// Wildcard arguments of `actual` bind to their bound.
fn unify(pattern: &JType, actual: &JType, map: &mut BTreeMap<String, JType>) {
    match (pattern, actual) {
        (JType::Var(v), a) if !a.is_primitive() && !matches!(a, JType::Var(_)) => {
            map.entry(v.clone()).or_insert_with(|| a.clone());
        }
        (JType::Array(p), JType::Array(a)) => unify(p, a, map),
        (JType::Class { name: pn, args: pa }, JType::Class { name: an, args: aa })
            if pn == an && pa.len() == aa.len() =>
        {
            for (p, a) in pa.iter().zip(aa) {
                let p = match p {
                    TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => t,
                    TypeArg::Any => continue,
                };
                match a {
                    TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => unify(p, t, map),
                    TypeArg::Any => {}
                }
            }
        }
        _ => {}
    }
}

/// Cuts type arguments nested deeper than `depth` (they become raw), so that recursive generic
/// types (`Comparable<T extends Comparable<T>>`) stay finite.
fn limit_depth(t: &JType, depth: u32) -> JType {
    match t {
        JType::Class { name, args } => {
            if depth == 0 {
                return JType::class(name);
            }
            JType::Class {
                name: name.clone(),
                args: args
                    .iter()
                    .map(|a| match a {
                        TypeArg::Any => TypeArg::Any,
                        TypeArg::Exact(t) => TypeArg::Exact(limit_depth(t, depth - 1)),
                        TypeArg::Extends(t) => TypeArg::Extends(limit_depth(t, depth - 1)),
                        TypeArg::Super(t) => TypeArg::Super(limit_depth(t, depth - 1)),
                    })
                    .collect(),
            }
        }
        JType::Array(c) => JType::array_of(limit_depth(c, depth)),
        _ => t.clone(),
    }
}

/// Replaces the remaining type variables (those `finish` could not bind, from an enclosing scope
/// we do not track) by Object, then cuts type arguments nested deeper than `max_depth`.
fn close(t: &JType, max_depth: u32) -> JType {
    let res = if t.has_vars() { erase_vars(t) } else { t.clone() };
    limit_depth(&res, max_depth)
}

/// How a raw type is judged against a parameterized bound (`Comparable` against `Comparable<?>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Raw {
    /// Not within it: the variable is a class's, and the type argument appears in a declared type
    /// (javac: "type argument Comparable is not within bounds of type-variable K", JLS §4.5).
    Rejected,
    /// Within it by unchecked conversion: the variable is a method's, inferred by javac, which
    /// accepts `Range<Comparable> r = Range.closed(a, b)` for `<C extends Comparable<?>>` with a
    /// warning (JLS §18.2.2), as it did before bounds were checked.
    Unchecked,
}

/// The types tried, after a variable's erased bound, for a type variable that nothing binds and
/// whose erased bound is not within its bounds (`E extends Comparable<E>`): EvoSuite's default cast
/// classes (`CastClassManager`), which the factory can create as constants.
const CAST_CLASSES: [&str; 2] = ["java.lang.String", "java.lang.Integer"];

/// The enum a variable bounded by `Enum` (`E extends Enum<E>`: `EnumSet.noneOf(Class<E>)`,
/// `EnumUtils.getEnum(Class<E>, String)`) is bound to when the cluster has no enum of its own: a
/// JDK enum, always loadable. `Enum` itself is not within such a bound, and as a class literal it
/// only makes the call throw ("not an enum type").
const FALLBACK_ENUM: &str = "java.util.concurrent.TimeUnit";

/// The method type variable `X` if parameter `p` of `g` is `Class<X>` and `X` occurs nowhere else
/// in the parameters, and in the result not at all or as the whole result, and is bounded by a
/// closed type other than `Enum` (Guava's `<X extends Throwable> throwIfInstanceOf(Throwable,
/// Class<X>)`, `<T> Defaults.defaultValue(Class<T>)`). Such a parameter can take the literal of
/// any class within the bound, not only of the one the variable is bound to: `substitute` makes
/// it `Class<? extends binding>`.
fn class_only_var<'g>(g: &'g GenericCallable, p: &JType) -> Option<&'g str> {
    let JType::Class { name, args } = p else { return None };
    let [TypeArg::Exact(JType::Var(x))] = args.as_slice() else { return None };
    let tp = g.type_params.iter().find(|t| &t.name == x)?;
    if name != CLASS || enum_bounded(tp) || tp.bounds.iter().any(JType::has_vars) {
        return None;
    }
    let occurrences: usize = g.params.iter().map(|q| var_occurrences(q, x)).sum();
    let ret_ok = g.ret.as_ref().is_none_or(|r| *r == JType::Var(x.clone()) || var_occurrences(r, x) == 0);
    (occurrences == 1 && ret_ok).then_some(tp.name.as_str())
}

/// How often type variable `x` occurs in `t`.
fn var_occurrences(t: &JType, x: &str) -> usize {
    match t {
        JType::Prim(_) => 0,
        JType::Var(v) => usize::from(v == x),
        JType::Array(c) => var_occurrences(c, x),
        JType::Class { args, .. } => args
            .iter()
            .map(|a| match a {
                TypeArg::Any => 0,
                TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => var_occurrences(t, x),
            })
            .sum(),
    }
}

/// Whether type variable `p` is bounded by `Enum`.
fn enum_bounded(p: &TypeParam) -> bool {
    p.erased_bound().class_name() == Some("java.lang.Enum")
}

fn erase_vars(t: &JType) -> JType {
    match t {
        JType::Var(_) => JType::object(),
        JType::Array(c) => JType::array_of(erase_vars(c)),
        JType::Class { name, args } => JType::Class {
            name: name.clone(),
            args: args
                .iter()
                .map(|a| match a {
                    TypeArg::Any => TypeArg::Any,
                    TypeArg::Exact(t) => TypeArg::Exact(erase_vars(t)),
                    TypeArg::Extends(t) => TypeArg::Extends(erase_vars(t)),
                    TypeArg::Super(t) => TypeArg::Super(erase_vars(t)),
                })
                .collect(),
        },
        JType::Prim(_) => t.clone(),
    }
}

impl TestCluster {
    /// Builds the cluster of `cut` (binary name with dots) over `cp`, which should contain the JDK
    /// (`jdk_base_jmod`) for JDK types to have generators.
    pub fn build(cp: &ClassPath, cut: &str, config: &ClusterConfig) -> Result<TestCluster, ClusterError> {
        Builder::new(ClassTable::new(cp), cut, config)?.run()
    }

    /// `build` over the classes of the run's program database (its classpath should contain the
    /// JDK likewise).
    pub fn build_in(db: &ProgramDb, cut: &str, config: &ClusterConfig) -> Result<TestCluster, ClusterError> {
        Builder::new(ClassTable::in_db(db), cut, config)?.run()
    }

    /// The class under test.
    pub fn cut(&self) -> &str {
        &self.cut
    }

    pub fn config(&self) -> &ClusterConfig {
        &self.config
    }

    /// The calls on the CUT a test may make: constructors, methods, field reads and writes.
    pub fn targets(&self) -> &[Arc<GenericCallable>] {
        &self.targets
    }

    /// Constant values of the CUT's constant pool.
    pub fn constants(&self) -> &ConstantValues {
        &self.constants
    }

    /// Classes that failed to load, with the reason.
    pub fn problems(&self) -> &BTreeMap<String, String> {
        &self.problems
    }

    /// Concrete classes known for an abstract type (sorted; the JDK table first for JDK types).
    pub fn implementations(&self, class: &str) -> &[String] {
        self.implementations.get(class).map_or(&[], Vec::as_slice)
    }

    /// The constants of an enum of the cluster.
    pub fn enum_constants(&self, class: &str) -> &[String] {
        self.enums.get(class).map_or(&[], Vec::as_slice)
    }

    /// The callable of `kind` named `name` with JVM `descriptor` that a test can call on an object of class
    /// `class` (binary name): one of the target classes' members (the CUT and its member
    /// classes), or a modifier of another class (see `modifiers`). `None` when the cluster has none
    /// (private, not collected). Object construction templates (crate `ocg`) look methods up here.
    pub fn callable(
        &self,
        class: &str,
        kind: CallableKind,
        name: &str,
        descriptor: &str,
    ) -> Option<Arc<GenericCallable>> {
        let matches =
            |g: &&Arc<GenericCallable>| g.kind == kind && g.name == name && g.descriptor == descriptor;
        if let Some(g) = self.targets.iter().filter(matches).find(|g| self.is_subclass(class, &g.class)) {
            return Some(g.clone());
        }
        self.modifiers(class).iter().find(matches).cloned()
    }

    /// Instance methods (and field writes) that change an object of class `class` or its
    /// superclasses, for inserting calls on existing variables (memoised per class; a poisoned
    /// lock only costs the memo).
    pub fn modifiers(&self, class: &str) -> Modifiers {
        if let Some(ms) = self.modifier_cache.0.lock().ok().and_then(|m| m.get(class).cloned()) {
            return ms;
        }
        let mut res = Vec::new();
        for (c, ms) in &self.modifiers {
            if self.is_subclass(class, c) {
                res.extend(ms.iter().cloned());
            }
        }
        let res = Arc::new(res);
        if let Ok(mut m) = self.modifier_cache.0.lock() {
            m.insert(class.to_string(), res.clone());
        }
        res
    }

    /// The generic supertype of `ty` whose class is `target` (`ArrayList<String>` as `List` is
    /// `List<String>`), through the generic superclass and superinterface signatures. Raw in, raw
    /// out.
    pub fn as_super(&self, ty: &JType, target: &str) -> Option<JType> {
        let mut work = vec![ty.clone()];
        let mut seen = BTreeSet::new();
        while let Some(t) = work.pop() {
            let JType::Class { name, args } = &t else { continue };
            if name == target {
                return Some(t.clone());
            }
            if !seen.insert(name.clone()) {
                continue;
            }
            let Some(h) = self.hierarchy.get(name) else { continue };
            let mut map = BTreeMap::new();
            // A non-generic class (`String`) is not raw: its supertypes keep their arguments
            // (`Comparable<String>`), which bound checks compare.
            let raw = !h.type_params.is_empty() && (args.is_empty() || args.len() != h.type_params.len());
            if !raw {
                for (p, a) in h.type_params.iter().zip(args) {
                    let a = match a {
                        TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => t.clone(),
                        TypeArg::Any => p.erased_bound(),
                    };
                    map.insert(p.name.clone(), a);
                }
            }
            for s in &h.supers {
                work.push(if raw { s.erasure() } else { s.subst(&map) });
            }
        }
        if target == OBJECT { Some(JType::object()) } else { None }
    }

    /// Resolves a callable for a receiver of type `recv` (or, for static members and
    /// constructors, with no receiver): class variables from the receiver's type arguments,
    /// method variables and the rest by their bounds.
    ///
    /// Without a receiver, a member of a target class (the CUT or a member class of it) that needs
    /// one, and a target class's constructor, use the target type `target_type` chose, so that the
    /// receiver a test creates has a generator within bounds.
    pub fn instantiate(&self, g: &Arc<GenericCallable>, recv: Option<&JType>) -> Instantiated {
        let chosen;
        let recv = match recv {
            None if g.needs_receiver() || g.kind == CallableKind::Constructor => {
                chosen = g.receiver.class_name().and_then(|c| self.target_types.get(c)).cloned();
                chosen.as_ref()
            }
            r => r,
        };
        let mut map = BTreeMap::new();
        if let Some(r) = recv {
            if let Some(view) = self.as_super(r, &g.class) {
                unify(&g.owner, &view, &mut map);
            }
            unify(&g.receiver, r, &mut map);
        }
        self.finish(g, map)
    }

    /// Binds the variables `map` leaves free (`choose_unbound`) and substitutes. A method variable
    /// first gets its erased bound even where only unchecked conversion makes it fit (as before
    /// bounds were checked); if that makes a parameter or the result ill-formed (a raw
    /// `Comparable` for `FrozenSpanMap<K extends Comparable<?>, V>`), it is chosen strictly.
    fn finish(&self, g: &Arc<GenericCallable>, map: BTreeMap<String, JType>) -> Instantiated {
        let mut lax = map.clone();
        self.choose_unbound(&g.class_params, Raw::Rejected, &mut lax);
        let mut strict = lax.clone();
        self.choose_unbound(&g.type_params, Raw::Unchecked, &mut lax);
        let inst = self.substitute(g, &lax);
        if g.type_params.is_empty() || inst.ret.iter().chain(&inst.params).all(|t| self.well_formed(t)) {
            return inst;
        }
        self.choose_unbound(&g.type_params, Raw::Rejected, &mut strict);
        self.substitute(g, &strict)
    }

    fn substitute(&self, g: &Arc<GenericCallable>, map: &BTreeMap<String, JType>) -> Instantiated {
        let d = self.config.max_generic_depth;
        let sub = |t: &JType| close(&t.subst(map), d);
        let params = g
            .params
            .iter()
            .map(|p| match class_only_var(g, p) {
                // javac infers the variable from the literal; the result, `X` or none, is still
                // assignable to the binding.
                Some(x) => JType::Class {
                    name: CLASS.to_string(),
                    args: vec![TypeArg::Extends(sub(&JType::Var(x.to_string())))],
                },
                None => sub(p),
            })
            .collect();
        Instantiated {
            callable: g.clone(),
            owner: if g.needs_receiver() { sub(&g.receiver) } else { sub(&g.owner) },
            params,
            ret: g.ret.as_ref().map(sub),
        }
    }

    /// Whether the bindings of `g`'s variables in `map` are within their bounds: the class's
    /// strictly (they become declared types), the method's as javac's inference checks them.
    fn callable_within_bounds(&self, g: &GenericCallable, map: &BTreeMap<String, JType>) -> bool {
        self.within_bounds(&g.class_params, Raw::Rejected, map)
            && self.within_bounds(&g.type_params, Raw::Unchecked, map)
    }

    /// Binds every variable of `params` that `map` leaves free, in declaration order, to the first
    /// of its erased bound, `String` and `Integer` that keeps all bounds satisfied (JLS §4.5: the
    /// erased bound fails F-bounds such as `E extends Comparable<E>` in a declared type, where
    /// `String` fits), or to its erased bound when none does. Variables bound later are read as
    /// Object by the check of earlier ones.
    fn choose_unbound(&self, params: &[TypeParam], raw: Raw, map: &mut BTreeMap<String, JType>) {
        for p in params {
            if map.contains_key(&p.name) {
                continue;
            }
            let erased = p.erased_bound();
            let cands = self.binding_candidates(p);
            let fits = |c: &JType| {
                let mut m = map.clone();
                m.insert(p.name.clone(), c.clone());
                self.param_within_bounds(p, raw, &m)
            };
            // A bound naming a variable bound already (`<E extends T> E max(E, E)` of an
            // `Ordering<Range<Comparable>>`) is what fits when none of the candidates does: the
            // erased bound, Object, would make javac reject `max((Object) a, (Object) b)`.
            // Computed only when no candidate fits: `instantiate` runs per inserted call.
            let bound = || {
                p.bounds
                    .first()
                    .map(|b| close(&b.subst(map), self.config.max_generic_depth))
                    .filter(|b| !b.has_vars() && fits(b))
            };
            let chosen = cands.iter().find(|c| fits(c)).cloned().or_else(bound).unwrap_or(erased);
            map.insert(p.name.clone(), chosen);
        }
    }

    /// The classes a free variable `p` may be bound to, in preference order: its erased bound,
    /// then the cast classes; for an `Enum` bound, first the cluster's enums and `FALLBACK_ENUM`
    /// (raw `Enum` passes a method variable's bound by unchecked conversion, but no value of it
    /// is an enum constant).
    fn binding_candidates(&self, p: &TypeParam) -> Vec<JType> {
        let mut cands = Vec::new();
        if enum_bounded(p) {
            cands.extend(self.enums.keys().map(|c| JType::class(c)));
            cands.push(JType::class(FALLBACK_ENUM));
        }
        cands.push(p.erased_bound());
        cands.extend(CAST_CLASSES.iter().map(|c| JType::class(c)));
        let mut seen = BTreeSet::new();
        cands.retain(|c| seen.insert(c.clone()));
        cands
    }

    /// Whether the binding of `p` in `map` is within `p`'s bounds, each bound read with `map`
    /// (JLS §4.5: `T <: B[A1:=T1, ..., An:=Tn]`). An unbound variable passes.
    fn param_within_bounds(&self, p: &TypeParam, raw: Raw, map: &BTreeMap<String, JType>) -> bool {
        let Some(t) = map.get(&p.name) else { return true };
        let t = close(t, u32::MAX);
        p.bounds.iter().all(|b| self.within_bound(&t, &close(&b.subst(map), u32::MAX), raw))
    }

    /// Whether every variable of `params` bound in `map` is within its bounds.
    fn within_bounds(&self, params: &[TypeParam], raw: Raw, map: &BTreeMap<String, JType>) -> bool {
        params.iter().all(|p| self.param_within_bounds(p, raw, map))
    }

    /// Whether `t` is a well-formed type (JLS §4.5): each type argument of each parameterized class
    /// in it is within the bounds of the class's type parameter. javac rejects a declaration of
    /// `ImmutableRangeMap<Comparable, V>` for `K extends Comparable<?>` however the value was made.
    fn well_formed(&self, t: &JType) -> bool {
        match t {
            JType::Prim(_) | JType::Var(_) => true,
            JType::Array(c) => self.well_formed(c),
            JType::Class { name, args } => {
                let inner_ok = args.iter().all(|a| match a {
                    TypeArg::Any => true,
                    TypeArg::Exact(x) | TypeArg::Extends(x) | TypeArg::Super(x) => self.well_formed(x),
                });
                let Some(h) = self.hierarchy.get(name) else { return inner_ok };
                if !inner_ok || args.len() != h.type_params.len() {
                    return inner_ok;
                }
                // Only exact arguments are checked: a wildcard's capture is within bounds by
                // construction (JLS §5.1.10).
                let map: BTreeMap<String, JType> = h
                    .type_params
                    .iter()
                    .zip(args)
                    .filter_map(|(p, a)| match a {
                        TypeArg::Exact(x) => Some((p.name.clone(), x.clone())),
                        _ => None,
                    })
                    .collect();
                self.within_bounds(&h.type_params, Raw::Rejected, &map)
            }
        }
    }

    /// Subtyping of a type argument against a bound (JLS §4.10.2), stricter than
    /// `types::is_assignable`: type arguments are compared through the supertype of `t` whose
    /// class is the bound's (`String` as `Comparable` is `Comparable<String>`). What a raw
    /// supertype against a parameterized bound gives is `raw`'s to say.
    fn within_bound(&self, t: &JType, bound: &JType, raw: Raw) -> bool {
        match (t, bound) {
            (_, JType::Var(_)) => true,
            (JType::Prim(_), _) | (_, JType::Prim(_)) => false,
            (JType::Var(_), JType::Class { name, .. }) => name == OBJECT,
            (JType::Array(_), JType::Class { name, .. }) => {
                name == OBJECT || name == "java.lang.Cloneable" || name == "java.io.Serializable"
            }
            (JType::Array(a), JType::Array(b)) => match (a.as_ref(), b.as_ref()) {
                (JType::Prim(x), JType::Prim(y)) => x == y,
                (x, y) => self.within_bound(x, y, raw),
            },
            (JType::Class { .. } | JType::Var(_), JType::Array(_)) => false,
            (JType::Class { name: tname, .. }, JType::Class { name, args }) => {
                // A class whose hierarchy was never loaded cannot be judged: accepted, as before
                // bounds were checked.
                if name == OBJECT || !self.hierarchy.contains_key(tname) {
                    return true;
                }
                let Some(JType::Class { args: targs, .. }) = self.as_super(t, name) else { return false };
                if args.is_empty() {
                    return true;
                }
                if targs.is_empty() || targs.len() != args.len() {
                    return raw == Raw::Unchecked;
                }
                targs.iter().zip(args).all(|(ta, ba)| self.arg_within(ta, ba, raw))
            }
        }
    }

    /// Type-argument containment (JLS §4.5.1) of a supertype's argument `ta` in a bound's `ba`.
    fn arg_within(&self, ta: &TypeArg, ba: &TypeArg, raw: Raw) -> bool {
        match (ta, ba) {
            (_, TypeArg::Any) => true,
            (TypeArg::Exact(x), TypeArg::Exact(y)) => x == y,
            (TypeArg::Exact(x) | TypeArg::Extends(x), TypeArg::Extends(y)) => self.within_bound(x, y, raw),
            (TypeArg::Any, TypeArg::Extends(y)) => y.class_name() == Some(OBJECT),
            (TypeArg::Exact(x) | TypeArg::Super(x), TypeArg::Super(y)) => self.within_bound(y, x, raw),
            _ => false,
        }
    }

    /// The parameterization a target class with type parameters is tested as (`MinMaxPriorityQueue`
    /// as `MinMaxPriorityQueue<String>`). EvoSuite draws a type argument for each variable from its
    /// cast classes (Object, String, Integer) within the variable's bounds; here each combination
    /// of the erased bound, `String` and `Integer` within bounds is scored by how many generators
    /// can produce it within their own bounds, and the best one kept (ties: the earliest, which is
    /// the erased bounds, i.e. the type as before). An unbounded class parameter can be Object for
    /// the class itself while its static factories need `E extends Comparable<E>`; Object would
    /// leave the tests without a receiver javac accepts.
    fn target_type(&self, class: &str) -> Option<JType> {
        let params = &self.hierarchy.get(class)?.type_params;
        if params.is_empty() {
            return None;
        }
        // Up to three candidates per variable; classes with many variables try the erased bounds
        // only beyond 27 combinations.
        let per_var: Vec<Vec<JType>> = params.iter().map(|p| self.binding_candidates(p)).collect();
        let combos: usize = per_var.iter().map(Vec::len).product();
        let mut best: Option<(usize, JType)> = None;
        for k in 0..combos.min(27) {
            let mut rest = k;
            let mut map = BTreeMap::new();
            for (p, cands) in params.iter().zip(&per_var) {
                map.insert(p.name.clone(), cands[rest % cands.len()].clone());
                rest /= cands.len();
            }
            if !self.within_bounds(params, Raw::Rejected, &map) {
                continue;
            }
            let args = params.iter().map(|p| TypeArg::Exact(map[&p.name].clone())).collect();
            let ty = JType::Class { name: class.to_string(), args };
            let score = self.creations(&ty).iter().filter(|c| matches!(c, Creation::Call(_))).count();
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, ty));
            }
        }
        best.map(|(_, t)| t)
    }

    /// The parameterization chosen for a target class by `target_type`, if it is generic.
    pub fn target_parameterization(&self, class: &str) -> Option<&JType> {
        self.target_types.get(class)
    }

    /// Every way to obtain a value assignable to `want`, in a fixed order: constants for
    /// primitive-like types, enum constants, arrays, then generators of the wanted class and of
    /// its concrete implementations, instantiated so that their result matches `want`. The answer
    /// depends on the cluster and `want` alone; it is computed once per type (test creation asks
    /// for the same few types over and over, and instantiating generic generators is costly).
    pub fn creations(&self, want: &JType) -> Arc<Vec<Creation>> {
        let mut cache = self.creations.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(c) = cache.get(want) {
            return c.clone();
        }
        let c = Arc::new(self.compute_creations(want));
        cache.insert(want.clone(), c.clone());
        c
    }

    fn compute_creations(&self, want: &JType) -> Vec<Creation> {
        let mut res = Vec::new();
        match want {
            JType::Prim(_) => {
                res.push(Creation::Constant(want.clone()));
                return res;
            }
            JType::Array(_) => {
                res.push(Creation::Array(want.clone()));
                return res;
            }
            JType::Var(_) => return self.compute_creations(&JType::object()),
            JType::Class { name, args } => {
                if want.is_primitive_like() {
                    res.push(Creation::Constant(want.clone()));
                    return res;
                }
                if name == CLASS {
                    res.extend(self.class_literals(args).into_iter().map(Creation::ClassLiteral));
                    return res;
                }
                if let Some(cs) = self.enums.get(name) {
                    res.push(Creation::Enum { class: name.clone(), constants: cs.clone() });
                    return res;
                }
                if self.config.files && (name == FILE || name == PATH) {
                    // First, so that the factory's uniform choice among creations gives it a
                    // fair share next to `new File(String)` and the like.
                    res.push(Creation::ScratchFile { path: name == PATH });
                }
                let mut classes = vec![name.clone()];
                for i in self.implementations(name) {
                    if !classes.contains(i) {
                        classes.push(i.clone());
                    }
                }
                for c in &classes {
                    let cty = JType::class(c);
                    if c != name && cty.is_primitive_like() {
                        res.push(Creation::Constant(cty));
                        continue;
                    }
                    if c != name
                        && let Some(cs) = self.enums.get(c)
                    {
                        res.push(Creation::Enum { class: c.clone(), constants: cs.clone() });
                        continue;
                    }
                    if c != name && c == CLASS {
                        // A class literal as a `java.lang.reflect.Type` (types as values).
                        res.extend(self.class_literals(&[]).into_iter().map(Creation::ClassLiteral));
                        continue;
                    }
                    for g in self.generators.get(c).into_iter().flatten() {
                        if let Some(inst) = self.instantiate_for(g, want, name) {
                            res.push(Creation::Call(inst));
                        }
                    }
                }
                if let Some(s) = self.stubs.get(name) {
                    for ty in self.stub_values(s, want) {
                        res.push(Creation::Stub(Arc::new(self.stub_ref(s, &ty))));
                    }
                }
            }
        }
        res
    }

    /// The types of the stubs offered for `want`: `want` itself, except for a capturing stub (an
    /// abstract generic class without abstract methods, `TypeToken<T>`), whose open type
    /// arguments (`?`, `? extends B`, a variable) each become a closed type, so that the written
    /// `new TypeToken<List<String>>() {}` captures it: `B`, or in turn `String`, `List<String>`
    /// and `Integer[]` (a class, a parameterized type, an array).
    fn stub_values(&self, s: &StubInfo, want: &JType) -> Vec<JType> {
        let JType::Class { name, args } = want else { return vec![want.clone()] };
        let n_params = self.hierarchy.get(name).map_or(0, |h| h.type_params.len());
        if s.stub.is_interface || !s.stub.methods.is_empty() || n_params == 0 {
            return vec![want.clone()];
        }
        let mut candidates = vec![
            JType::string(),
            JType::Class { name: "java.util.List".into(), args: vec![TypeArg::Exact(JType::string())] },
            JType::array_of(JType::class("java.lang.Integer")),
        ];
        // A bounded variable (`T extends Number`) gets its bound and `Integer`, where the others
        // do not fit: two captures the code can tell apart.
        for p in self.hierarchy.get(name).map_or(&[][..], |h| &h.type_params[..]) {
            let b = p.erased_bound();
            if b == JType::object() {
                continue;
            }
            for c in [b, JType::class("java.lang.Integer")] {
                if !candidates.contains(&c) {
                    candidates.push(c);
                }
            }
        }
        let closed = |t: &JType| !t.has_vars() && !t.is_primitive();
        let open = |a: Option<&TypeArg>| match a {
            Some(TypeArg::Exact(t)) if closed(t) => None,
            Some(TypeArg::Extends(t)) if closed(t) && *t != JType::object() => Some(Some(t.clone())),
            _ => Some(None),
        };
        if (0..n_params).all(|i| open(args.get(i)).is_none()) && args.len() == n_params {
            return vec![want.clone()];
        }
        // `within_bound` accepts a class whose hierarchy it never loaded (`List`, here): against a
        // bound other than Object, only a candidate it can judge is taken.
        let bounded = self
            .hierarchy
            .get(name)
            .is_some_and(|h| h.type_params.iter().any(|p| p.erased_bound() != JType::object()));
        let judged = |c: &JType| match c {
            JType::Class { name, .. } => !bounded || self.hierarchy.contains_key(name),
            _ => true,
        };
        candidates
            .iter()
            .filter(|c| judged(c))
            .map(|c| JType::Class {
                name: name.clone(),
                args: (0..n_params)
                    .map(|i| match open(args.get(i)) {
                        None => args[i].clone(),
                        Some(Some(bound)) => TypeArg::Exact(bound),
                        Some(None) => TypeArg::Exact(c.clone()),
                    })
                    .collect(),
            })
            // The written `new C<String>() {}` must be within C's bounds (JLS §4.5) to compile.
            .filter(|t| self.well_formed(t))
            .collect::<BTreeSet<JType>>()
            .into_iter()
            .collect()
    }

    /// A stub of `want` (an abstract class or interface with a stub): the answer types its type
    /// arguments give (`Callable<String>` answers strings).
    fn stub_ref(&self, s: &StubInfo, want: &JType) -> crate::statement::StubRef {
        let d = self.config.max_generic_depth;
        let params_of = |c: &str| -> Vec<String> {
            self.hierarchy
                .get(c)
                .map(|h| h.type_params.iter().map(|p| p.name.clone()).collect())
                .unwrap_or_default()
        };
        let as_super = |c: &str| self.as_super(want, c);
        let answer_types = stubs::answer_types(s, &params_of, &as_super)
            .into_iter()
            .map(|t| t.map(|t| close(&t, d)))
            .collect();
        crate::statement::StubRef { stub: s.stub.clone(), ty: want.clone(), ctor: 0, answer_types }
    }

    /// The stub types of the cluster (abstract class or interface -> stub), for the engine,
    /// which generates their classes, and for tests.
    pub fn stub_types(&self) -> impl Iterator<Item = &Arc<crate::statement::StubType>> {
        self.stubs.values().map(|s| &s.stub)
    }

    /// The class literals a `Class<args>` may be (types as values, issue 20 item 3; EvoSuite's
    /// `ClassPrimitiveStatement`): the argument itself when it is exact, a bound and its concrete
    /// implementations for `? extends B`, a bound and `Object` for `? super B`; for `Class<?>`, a
    /// raw `Class`, an unresolved variable or `? extends Object`, the CUT and a few JDK classes of
    /// every kind (a final value class, a boxed primitive, an interface, an array) and the eight
    /// primitive classes.
    fn class_literals(&self, args: &[TypeArg]) -> Vec<JType> {
        let named = |t: &JType| matches!(t, JType::Class { .. } | JType::Array(_) | JType::Prim(_));
        let mut res: Vec<JType> = match args.first() {
            Some(TypeArg::Exact(t)) if named(t) => vec![t.erasure()],
            Some(TypeArg::Extends(t)) if named(t) && *t != JType::object() => {
                let mut v = vec![t.erasure()];
                if let Some(n) = t.class_name() {
                    v.extend(self.implementations(n).iter().map(|i| JType::class(i)));
                }
                v
            }
            Some(TypeArg::Super(t)) if named(t) => vec![t.erasure(), JType::object()],
            _ => {
                let mut v = vec![
                    JType::class(&self.cut),
                    JType::object(),
                    JType::string(),
                    JType::class("java.lang.Integer"),
                    JType::Prim(crate::types::PrimType::Int),
                    JType::class("java.lang.Comparable"),
                    JType::array_of(JType::Prim(crate::types::PrimType::Int)),
                ];
                // The other primitive classes, which code taking any class tells apart
                // (Guava's `Defaults.defaultValue`, `Primitives.wrap`, lang3's `ClassUtils`).
                v.extend(crate::types::PrimType::ALL.iter().map(|p| JType::Prim(*p)));
                v
            }
        };
        let mut seen = BTreeSet::new();
        res.retain(|t| seen.insert(t.clone()));
        res
    }

    /// Instantiates generator `g` so that its result, seen as class `name`, matches `want`.
    fn instantiate_for(&self, g: &Arc<GenericCallable>, want: &JType, name: &str) -> Option<Instantiated> {
        let ret = g.ret.as_ref()?;
        let view = self.as_super(ret, name)?;
        let mut map = BTreeMap::new();
        unify(&view, want, &mut map);
        // The bindings `want` forces must be within the variables' bounds (JLS §18.1.3: javac
        // rejects `MinMaxPriorityQueue<Object> q = MinMaxPriorityQueue.create()` for
        // `<E extends Comparable<E>>`), and so must those `finish` chooses.
        let mut full = map.clone();
        self.choose_unbound(&g.class_params, Raw::Rejected, &mut full);
        self.choose_unbound(&g.type_params, Raw::Unchecked, &mut full);
        if !self.callable_within_bounds(g, &full) {
            return None;
        }
        let inst = self.finish(g, map);
        let produced = inst.ret.as_ref()?;
        // The value is declared with the produced type, which must be well-formed too.
        (self.well_formed(produced) && crate::types::is_assignable(self, produced, want)).then_some(inst)
    }

    /// The cluster as text, for snapshot tests and debugging.
    pub fn dump(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "cluster of {} (cluster_depth {})", self.cut, self.config.cluster_depth);
        let _ = writeln!(s, "targets ({}):", self.targets.len());
        for t in &self.targets {
            let _ = writeln!(s, "  {}", t.describe());
        }
        if !self.target_types.is_empty() {
            let _ = writeln!(s, "tested as:");
            for t in self.target_types.values() {
                let _ = writeln!(s, "  {t}");
            }
        }
        let _ = writeln!(s, "generators:");
        for (c, gs) in &self.generators {
            let _ = writeln!(s, "  {c}:");
            for g in gs {
                let _ = writeln!(s, "    {}", g.describe());
            }
        }
        let _ = writeln!(s, "modifiers:");
        for (c, ms) in &self.modifiers {
            let _ = writeln!(s, "  {c}:");
            for m in ms {
                let _ = writeln!(s, "    {}", m.describe());
            }
        }
        let _ = writeln!(s, "implementations:");
        for (c, is) in &self.implementations {
            let _ = writeln!(s, "  {c} -> {}", is.join(", "));
        }
        let _ = writeln!(s, "enums:");
        for (c, cs) in &self.enums {
            let _ = writeln!(s, "  {c}: {}", cs.join(", "));
        }
        if !self.stubs.is_empty() {
            let _ = writeln!(s, "stubs:");
            for st in self.stubs.values() {
                let st = &st.stub;
                let ctors: Vec<&str> = st.constructors.iter().map(|(d, _)| d.as_str()).collect();
                let ms: Vec<String> = st
                    .methods
                    .iter()
                    .map(|m| {
                        let throws = if m.throw_bound == RUNTIME_EXCEPTION {
                            String::new()
                        } else {
                            format!(" throws {}", m.throw_bound)
                        };
                        format!(
                            "{}{}{}{throws}",
                            m.name,
                            m.descriptor,
                            if m.runs_arguments { " runs" } else { "" }
                        )
                    })
                    .collect();
                let _ = writeln!(
                    s,
                    "  {} as {} [{}]: {}",
                    st.class,
                    st.stub_class,
                    ctors.join(", "),
                    ms.join(", ")
                );
            }
        }
        let _ = writeln!(s, "constants: {}", self.constants.summary());
        if !self.problems.is_empty() {
            let _ = writeln!(s, "problems:");
            for (c, p) in &self.problems {
                let _ = writeln!(s, "  {c}: {p}");
            }
        }
        s
    }

    /// Counts for reports: (targets, generator callables, modifier callables).
    pub fn counts(&self) -> (usize, usize, usize) {
        (
            self.targets.len(),
            self.generators.values().map(Vec::len).sum(),
            self.modifiers.values().map(Vec::len).sum(),
        )
    }
}

/// Direct subclasses/implementations of each user class or interface, and the concrete accessible
/// user classes.
type SubclassIndex = (BTreeMap<String, BTreeSet<String>>, BTreeSet<String>);

/// The state of one cluster construction (a breadth-first walk over needed classes).
struct Builder<'a> {
    table: ClassTable<'a>,
    cut: Arc<ClassInfo>,
    config: ClusterConfig,
    /// Class -> smallest depth at which it was processed.
    done: BTreeMap<String, u32>,
    queue: VecDeque<(String, u32)>,
    targets: Vec<Arc<GenericCallable>>,
    generators: BTreeMap<String, BTreeSet<Arc<GenericCallable>>>,
    modifiers: BTreeMap<String, BTreeSet<Arc<GenericCallable>>>,
    implementations: BTreeMap<String, Vec<String>>,
    enums: BTreeMap<String, Vec<String>>,
    /// Superclass/interface -> concrete user classes below it, built on first need.
    subclass_index: Option<SubclassIndex>,
    /// Static methods of non-JDK dependency classes that do not return their own class.
    statics: Vec<Arc<GenericCallable>>,
    constants: ConstantValues,
    /// The CUT's accessible member classes, whose members are targets too.
    nested: BTreeSet<String>,
    /// The JDK interfaces the CUT's named nested classes that a test cannot name implement
    /// (`ClusterConfig::package_generators`, issue 20 item 3): their methods are the only way in
    /// to those classes' code, so they are offered whole, not only the container-filling ones of
    /// other JDK types.
    nested_jdk_supertypes: BTreeSet<String>,
    stubs: BTreeMap<String, StubInfo>,
}

fn is_bridge_or_synthetic(access: u16) -> bool {
    access & (access::SYNTHETIC | access::VOLATILE_OR_BRIDGE) != 0
}

impl<'a> Builder<'a> {
    fn new(
        mut table: ClassTable<'a>,
        cut: &str,
        config: &ClusterConfig,
    ) -> Result<Builder<'a>, ClusterError> {
        let cf = table.parse(cut)?;
        // The constant pool's values and, when either option wants them, the pushed numbers: the
        // separators a class compares with are pushed (`bipush 45`), whatever `code_constants`.
        let full = (config.code_constants || config.format_strings).then(|| table.pool_constants(cut, &cf));
        let formats = match &full {
            Some(f) if config.format_strings => shapes::format_shapes(&f.ints, &f.strings),
            _ => Vec::new(),
        };
        let mut pool = match full {
            Some(f) if config.code_constants => f,
            _ => load::pool_constants(&cf),
        };
        pool.strings.extend(formats);
        let constants = ConstantValues::from_pool(&pool);
        let info = table.get(cut).ok_or_else(|| ClusterError::ClassNotFound(cut.to_string()))?;
        if info.is_local || info.access & access::PRIVATE != 0 {
            return Err(ClusterError::NotTestable(cut.to_string()));
        }
        Ok(Builder {
            table,
            cut: info,
            config: config.clone(),
            done: BTreeMap::new(),
            queue: VecDeque::new(),
            targets: Vec::new(),
            generators: BTreeMap::new(),
            modifiers: BTreeMap::new(),
            implementations: BTreeMap::new(),
            enums: BTreeMap::new(),
            subclass_index: None,
            statics: Vec::new(),
            constants,
            nested: BTreeSet::new(),
            nested_jdk_supertypes: BTreeSet::new(),
            stubs: BTreeMap::new(),
        })
    }

    fn cut_package(&self) -> &str {
        self.cut.package()
    }

    /// `class_accessible` of the class and of every class enclosing it: a package-private member
    /// of a private nested class (Guava's `TreeRangeMap.SubRangeMap.SubRangeMapAsMap`) cannot be
    /// named from a test (JLS §6.6.1).
    fn class_and_outers_accessible(&mut self, c: &ClassInfo) -> bool {
        if !self.class_accessible(c) {
            return false;
        }
        let mut name = c.name.clone();
        while let Some(i) = name.rfind('$') {
            name.truncate(i);
            match self.table.get(&name) {
                Some(outer) if !self.class_accessible(&outer) => return false,
                Some(_) => {}
                // Not a nested class after all (a `$` in a top-level name), or unreadable.
                None => break,
            }
        }
        true
    }

    /// Whether a test in the CUT's package can name class `name`: a primitive, wrapper or
    /// `String`, or a class the table reads that is accessible with its enclosing classes.
    fn nameable(&mut self, name: &str) -> bool {
        JType::class(name).is_primitive_like()
            || self.table.get(name).is_some_and(|c| self.class_and_outers_accessible(&c))
    }

    /// Whether a test in the CUT's package can write every class `t` mentions. A class not on
    /// the classpath counts as nameable: what cannot be read is not judged here.
    fn type_nameable(&mut self, t: &JType) -> bool {
        let mut names = Vec::new();
        t.mentioned_classes(&mut names);
        names.iter().all(|n| self.table.get(n).is_none() || self.nameable(n))
    }

    /// `t` as a test can declare a variable of it: a class it cannot name becomes its nearest
    /// superclass it can (jsoup's `Parser.getTreeBuilder()` returns a package-private
    /// `TreeBuilder`: the test's variable is an `Object`), and type arguments it cannot name
    /// make the type raw.
    fn nameable_type(&mut self, t: JType) -> JType {
        match t {
            JType::Array(c) => JType::Array(Box::new(self.nameable_type(*c))),
            JType::Class { ref name, .. } if !self.type_nameable(&JType::class(name)) => {
                let Some(info) = self.table.get(name) else { return JType::object() };
                for c in self.superclass_chain(&info).iter().skip(1) {
                    if self.nameable(&c.name) {
                        return JType::class(&c.name);
                    }
                }
                JType::object()
            }
            JType::Class { ref name, .. } if !self.type_nameable(&t) => JType::class(name),
            other => other,
        }
    }

    /// The interfaces named by `roots` with all their superinterfaces, each once, in work-list
    /// order, and whether the table read every one.
    fn interface_closure(&mut self, roots: Vec<String>) -> (Vec<Arc<ClassInfo>>, bool) {
        let mut res = Vec::new();
        let mut complete = true;
        let mut seen = BTreeSet::new();
        let mut work = roots;
        while let Some(i) = work.pop() {
            if !seen.insert(i.clone()) {
                continue;
            }
            let Some(ii) = self.table.get(&i) else {
                complete = false;
                continue;
            };
            work.extend(ii.interfaces.iter().cloned());
            res.push(ii);
        }
        (res, complete)
    }

    fn class_accessible(&self, c: &ClassInfo) -> bool {
        !c.is_local
            && c.access & access::PRIVATE == 0
            && (c.access & access::PUBLIC != 0 || c.package() == self.cut_package())
    }

    /// JLS §6.6.1 from a test in the CUT's package: public, or not private and in the package.
    fn member_accessible(&self, member_access: u16, declaring: &ClassInfo) -> bool {
        if member_access & access::PRIVATE != 0 || is_bridge_or_synthetic(member_access) {
            return false;
        }
        member_access & access::PUBLIC != 0 || declaring.package() == self.cut_package()
    }

    /// The class and its superclasses, most derived first (interfaces are not walked: default
    /// methods are rare in subjects and reached through the implementing class's own calls).
    fn superclass_chain(&mut self, c: &Arc<ClassInfo>) -> Vec<Arc<ClassInfo>> {
        let mut res = vec![c.clone()];
        let mut cur = c.clone();
        while let Some(s) = cur.super_name.clone() {
            let Some(next) = self.table.get(&s) else { break };
            if res.iter().any(|x| x.name == next.name) {
                break;
            }
            res.push(next.clone());
            cur = next;
        }
        res
    }

    fn callable(
        &self,
        decl: &ClassInfo,
        kind: CallableKind,
        name: &str,
        descriptor: &str,
        is_static: bool,
    ) -> GenericCallable {
        GenericCallable {
            kind,
            class: decl.name.clone(),
            name: name.to_string(),
            descriptor: descriptor.to_string(),
            is_static,
            class_params: decl.sig.type_params.clone(),
            type_params: Vec::new(),
            owner: decl.generic_self(),
            receiver: decl.generic_self(),
            params: Vec::new(),
            ret: None,
        }
    }

    /// The accessible constructors, methods and fields of `c` (inherited ones included, overridden
    /// ones once). `object_methods` keeps Object's own `equals`; `jdk_only_modifiers` keeps only
    /// container-filling methods and the class's own `jdk_factories` (for JDK classes). Object's
    /// own `hashCode` and `toString` are never members: their results come from the identity
    /// hash, which differs between JVM runs, so a test feeding one into a later call
    /// (`d.cumulativeProbability(d.hashCode())`) would cover different code in the user's runs
    /// than in the workers (`-XX:hashCode=2`). Overrides of them are members as usual.
    fn members(
        &mut self,
        c: &Arc<ClassInfo>,
        object_methods: bool,
        jdk_only_modifiers: bool,
    ) -> Vec<GenericCallable> {
        let mut res = Vec::new();
        let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
        let concrete = !c.is_abstract() && !c.is_enum();
        let user_class = !jdk::is_jdk(&c.name);
        for decl in self.superclass_chain(c) {
            let is_object = decl.name == OBJECT;
            // Members a user class inherits from the JDK (`Enum.describeConstable`, ...) are left
            // out, except Object's equals on the CUT.
            if user_class && !is_object && jdk::is_jdk(&decl.name) {
                continue;
            }
            for m in &decl.methods {
                if m.name == "<clinit>" {
                    continue;
                }
                if !self.member_accessible(m.access, &decl) {
                    // An instance method the test cannot call still hides the superclass's of the
                    // same signature (JLS §8.4.8: it is not inherited): Spatial4j's
                    // `JtsSpatialContextFactory` overrides the protected `init` of
                    // `SpatialContextFactory` from another package, so a test in the latter's
                    // package cannot call `init` on it, though it can call the superclass's.
                    if m.name != "<init>"
                        && m.access & access::STATIC == 0
                        && !is_bridge_or_synthetic(m.access)
                    {
                        seen.insert((m.name.clone(), param_part(&m.descriptor).to_string()));
                    }
                    continue;
                }
                let is_ctor = m.name == "<init>";
                if is_ctor && (decl.name != c.name || !concrete) {
                    continue;
                }
                if is_ctor
                    && !user_class
                    && (jdk::is_nondeterministic_constructor(&decl.name, &m.descriptor)
                        || jdk::is_file_constructor(&decl.name, &m.descriptor))
                {
                    continue;
                }
                if is_object && !(object_methods && m.name == "equals") {
                    continue;
                }
                let factory = m.access & access::STATIC != 0
                    && decl.name == c.name
                    && jdk::jdk_factories(&decl.name).contains(&m.name.as_str());
                if jdk_only_modifiers && !is_ctor && !factory && !jdk::is_jdk_modifier(&m.name) {
                    continue;
                }
                // An override is the same name and parameters; its return type may be narrower
                // (`StringBuilder.append` returns `StringBuilder` where the package-private
                // `AbstractStringBuilder.append` it overrides returns `AbstractStringBuilder`, a
                // type a test cannot name). The most derived declaration comes first and wins.
                if !seen.insert((m.name.clone(), param_part(&m.descriptor).to_string())) {
                    continue;
                }
                let is_static = m.access & access::STATIC != 0;
                let kind = if is_ctor { CallableKind::Constructor } else { CallableKind::Method };
                let mut g = self.callable(&decl, kind, &m.name, &m.descriptor, is_static);
                g.receiver = c.generic_self();
                if is_static && !is_ctor {
                    // Static methods do not see the class's type variables.
                    g.class_params.clear();
                }
                g.type_params = m.sig.type_params.clone();
                g.params = m.sig.params.clone();
                // A parameter of a class the test cannot name (jsoup's `new Parser(TreeBuilder)`,
                // `TreeBuilder` package-private) only ever gets `(TreeBuilder) null`: such a class
                // has no generators, and the cast does not compile.
                if !g.params.iter().all(|p| self.type_nameable(p)) {
                    continue;
                }
                g.ret = if is_ctor {
                    Some(decl.generic_self())
                } else {
                    m.sig.ret.clone().map(|r| self.nameable_type(r))
                };
                res.push(g);
            }
            if jdk_only_modifiers {
                continue;
            }
            for f in &decl.fields {
                if !self.member_accessible(f.access, &decl) || f.access & access::ENUM != 0 {
                    continue;
                }
                if !seen.insert((f.name.clone(), f.descriptor.clone())) {
                    continue;
                }
                let is_static = f.access & access::STATIC != 0;
                let mut g = self.callable(&decl, CallableKind::FieldGet, &f.name, &f.descriptor, is_static);
                g.receiver = c.generic_self();
                if is_static {
                    g.class_params.clear();
                }
                g.ret = Some(self.nameable_type(f.ty.clone()));
                if f.access & access::FINAL == 0 && self.type_nameable(&f.ty) {
                    let mut s = g.clone();
                    s.kind = CallableKind::FieldSet;
                    s.params = vec![f.ty.clone()];
                    s.ret = None;
                    res.push(s);
                }
                res.push(g);
            }
        }
        let ambiguous = overloads::ambiguous(&res);
        res.into_iter().enumerate().filter(|(i, _)| !ambiguous.contains(i)).map(|(_, g)| g).collect()
    }

    fn enqueue_type(&mut self, t: &JType, depth: u32) {
        if depth > self.config.cluster_depth {
            return;
        }
        let mut names = Vec::new();
        t.mentioned_classes(&mut names);
        for n in names {
            if self.done.get(&n).is_none_or(|&d| d > depth) {
                self.queue.push_back((n, depth));
            }
        }
    }

    fn enqueue_callable(&mut self, g: &GenericCallable, depth: u32) {
        let tys: Vec<JType> = g
            .params
            .iter()
            .chain(g.ret.iter())
            .chain(g.type_params.iter().flat_map(|p| p.bounds.first()))
            .chain(g.class_params.iter().flat_map(|p| p.bounds.first()))
            .cloned()
            .collect();
        for t in tys {
            self.enqueue_type(&t, depth);
        }
        // A variable bounded by `Enum` may be bound to `FALLBACK_ENUM`, whose constants are then
        // needed (`binding_candidates`).
        if g.type_params.iter().chain(&g.class_params).any(enum_bounded) {
            self.enqueue_type(&JType::class(FALLBACK_ENUM), depth);
        }
    }

    fn add_generator(&mut self, g: Arc<GenericCallable>) {
        if let Some(name) = g.ret.as_ref().and_then(|r| r.class_name()) {
            self.generators.entry(name.to_string()).or_default().insert(g);
        }
    }

    /// Concrete, accessible user classes below `sup` on the classpath (outside the JDK). Built
    /// once by reading every user class's header.
    fn user_implementations(&mut self, sup: &str) -> Vec<String> {
        if self.subclass_index.is_none() {
            // User classes only: JDK modules are covered by `jdk::implementations`.
            let names: Vec<String> = self
                .table
                .classpath()
                .entries()
                .iter()
                .filter(|e| e.path().extension().is_none_or(|x| x != "jmod"))
                .flat_map(|e| e.class_names())
                .map(|n| n.replace('/', "."))
                .filter(|n| !jdk::is_jdk(n) && n != "module-info")
                .collect::<BTreeSet<String>>()
                .into_iter()
                .collect();
            // Edges from every class (abstract ones included, so that chains through abstract
            // classes and sub-interfaces are followed); concrete accessible classes marked.
            let mut index: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            let mut concrete = BTreeSet::new();
            for n in names {
                let Some(info) = self.table.get(&n) else { continue };
                if !info.is_abstract() && self.class_accessible(&info) {
                    concrete.insert(n.clone());
                }
                for s in info.super_name.iter().chain(&info.interfaces) {
                    index.entry(s.clone()).or_default().insert(n.clone());
                }
            }
            self.subclass_index = Some((index, concrete));
        }
        let Some((index, concrete)) = &self.subclass_index else { return Vec::new() };
        let mut res = BTreeSet::new();
        let mut work = vec![sup.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(s) = work.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            for c in index.get(&s).into_iter().flatten() {
                if concrete.contains(c) {
                    res.insert(c.clone());
                }
                work.push(c.clone());
            }
        }
        res.into_iter().collect()
    }

    fn process(&mut self, name: String, depth: u32) {
        if self.done.get(&name).is_some_and(|&d| d <= depth) {
            return;
        }
        self.done.insert(name.clone(), depth);
        let ty = JType::class(&name);
        if ty.is_primitive_like() {
            return;
        }
        let Some(info) = self.table.get(&name) else { return };
        if !self.class_and_outers_accessible(&info) {
            return;
        }
        let is_jdk = jdk::is_jdk(&name);
        if info.is_enum() {
            self.enums.insert(name.clone(), info.enum_constants());
        }
        // Concrete implementations for abstract types (and Object).
        // A concrete JDK class with an entry in the table (`Throwable`) gets its subclasses too.
        if info.is_abstract() || name == OBJECT || (is_jdk && !jdk::implementations(&name).is_empty()) {
            let impls: Vec<String> = if is_jdk {
                jdk::implementations(&name).iter().map(|s| s.to_string()).collect()
            } else {
                self.user_implementations(&name)
            };
            let impls: Vec<String> = impls.into_iter().filter(|i| i != &name || name == OBJECT).collect();
            for i in impls.iter().map(String::as_str).chain(jdk::factory_classes(&name).iter().copied()) {
                self.queue.push_back((i.to_string(), depth));
            }
            if !impls.is_empty() {
                // Extended, not replaced: a class walked again at a smaller depth keeps the
                // implementations `package_generators` gave it.
                let known = self.implementations.entry(name.clone()).or_default();
                for i in impls {
                    if !known.contains(&i) {
                        known.push(i);
                    }
                }
            }
        }
        // A JDK type with implementations in the table (`InputStream`, `CharSequence`, `List`)
        // gets none: those are what code expects of it, while a stub's repeated last answer makes
        // an endless stream (`read()` never -1), which each test then runs until its timeout.
        // The interfaces of `java.time` get both (`jdk::stub_beside_implementations`).
        if self.config.stubs
            && info.is_abstract()
            && (!is_jdk || jdk::implementations(&name).is_empty() || jdk::stub_beside_implementations(&name))
            && let Some(s) = self.stub_of(&info, is_jdk)
        {
            // The stub's constructor arguments and answers need generators too.
            let types: Vec<JType> = s
                .stub
                .constructors
                .iter()
                .flat_map(|(_, ps)| ps.iter().cloned())
                .chain(s.generic_returns.iter().flatten().map(|(_, r)| r.clone()))
                .chain(s.stub.methods.iter().map(|m| JType::class(&m.throw_bound)))
                .collect();
            for t in types {
                self.enqueue_type(&t, depth + 1);
            }
            self.stubs.insert(name.clone(), s);
        }
        let is_cut = name == self.cut.name;
        // The CUT's accessible member classes are tested with it (EvoSuite's target classes
        // include them; their goals are the CUT's goals too, since they are instrumented with it).
        let is_target = is_cut || self.nested.contains(&name);
        // A JDK type a nested class of the CUT implements (ThreeTen-Extra's `PackedFields`
        // exposes private enums only as `TemporalField`s) is the way in to that class's code.
        let jdk_only = is_jdk
            && !is_target
            && !(self.config.package_generators && self.nested_jdk_supertypes.contains(&name));
        let members = self.members(&info, is_cut, jdk_only);
        for g in members {
            let g = Arc::new(g);
            if is_target {
                self.targets.push(g.clone());
            }
            let produces_self = g.kind == CallableKind::Constructor
                || (g.is_static
                    && g.kind == CallableKind::Method
                    && g.ret.as_ref().is_some_and(|r| r.class_name() == Some(name.as_str())));
            if produces_self {
                self.add_generator(g.clone());
                self.enqueue_callable(&g, depth + 1);
            } else if !g.is_static && !is_jdk_object_method(&g) {
                if !is_cut {
                    self.modifiers.entry(name.clone()).or_default().insert(g.clone());
                }
                self.enqueue_callable(&g, depth + 1);
            } else if is_target {
                self.enqueue_callable(&g, depth + 1);
            } else if g.is_static
                && g.kind == CallableKind::Method
                && (!is_jdk || jdk::jdk_factories(&name).contains(&g.name.as_str()))
            {
                // A static factory of another type (`Shapes.circle(double) -> Shape`,
                // `TemporalQueries.precision()`): a generator of its result if that type is needed.
                self.statics.push(g);
            }
        }
    }

    /// The stub of abstract class or interface `info` (`stubs::stub_info`), reading its
    /// superclasses and interfaces.
    fn stub_of(&mut self, info: &Arc<ClassInfo>, is_jdk: bool) -> Option<StubInfo> {
        let chain = self.superclass_chain(info);
        let roots = chain.iter().rev().flat_map(|c| c.interfaces.iter().cloned()).collect();
        let (interfaces, complete) = self.interface_closure(roots);
        if !complete {
            return None;
        }
        let sealed =
            self.table.parse(&info.name).is_ok_and(|cf| cf.attribute("PermittedSubclasses").is_some());
        // Whether each class a member signature names can be named from the test: in the
        // descriptors, and in the types the overrides are written with (generic signatures and
        // the supertypes' type arguments they are substituted from).
        let mut named = Vec::new();
        for c in chain.iter().chain(&interfaces) {
            c.sig.superclass.mentioned_classes(&mut named);
            c.sig.interfaces.iter().for_each(|i| i.mentioned_classes(&mut named));
            for m in &c.methods {
                if let Ok(sig) = crate::types::parse_method_sig(&m.descriptor) {
                    for t in sig.params.iter().chain(&sig.ret) {
                        t.mentioned_classes(&mut named);
                    }
                }
                m.sig.params.iter().chain(&m.sig.ret).for_each(|t| t.mentioned_classes(&mut named));
                named.extend(m.exceptions.iter().cloned());
            }
        }
        let mut visible = BTreeMap::new();
        for n in named {
            if let std::collections::btree_map::Entry::Vacant(e) = visible.entry(n) {
                let n = e.key().clone();
                let ok = self.nameable(&n);
                e.insert(ok);
            }
        }
        let cut_package = self.cut_package().to_string();
        let ancestry = Ancestry { chain, interfaces };
        let mut accessible = |n: &str| visible.get(n).copied().unwrap_or(false);
        stubs::stub_info(info, &ancestry, &cut_package, is_jdk, sealed, &mut accessible)
    }

    /// Processes the queue, then adds the methods of cluster classes returning a class as
    /// generators of it ("other cluster classes' methods returning the type", EvoSuite's
    /// `TestCluster.generators`).
    fn walk(&mut self) {
        while let Some((n, d)) = self.queue.pop_front() {
            self.process(n, d);
        }
        let mut returning: Vec<Arc<GenericCallable>> = self.targets.clone();
        for ms in self.modifiers.values() {
            returning.extend(ms.iter().cloned());
        }
        returning.extend(self.statics.iter().cloned());
        for g in returning {
            let Some(r) = g.ret.as_ref().and_then(|r| r.class_name()) else { continue };
            if JType::class(r).is_primitive_like() || !self.done.contains_key(r) || r == OBJECT {
                continue;
            }
            self.add_generator(g);
        }
    }

    /// Adds the JDK interfaces `info` implements, with their superinterfaces, to
    /// `nested_jdk_supertypes`.
    fn add_jdk_interfaces(&mut self, info: &ClassInfo) {
        let (interfaces, _) = self.interface_closure(info.interfaces.clone());
        for c in interfaces {
            if jdk::is_jdk(&c.name) {
                self.nested_jdk_supertypes.insert(c.name.clone());
            }
        }
    }

    fn run(mut self) -> Result<TestCluster, ClusterError> {
        let cut = self.cut.name.clone();
        self.queue.push_back((cut.clone(), 0));
        // Accessible member classes of the CUT (`Cut$Inner`, also nested deeper; local and
        // anonymous classes are filtered by `process`'s accessibility check), in name order.
        let prefix = format!("{}$", cut.replace('.', "/"));
        let nested: Vec<String> = self
            .table
            .classpath()
            .class_names()
            .filter(|n| n.starts_with(&prefix))
            .map(|n| n.replace('/', "."))
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        for n in nested {
            let Some(info) = self.table.get(&n) else { continue };
            if self.class_and_outers_accessible(&info) && !info.is_local {
                self.nested.insert(n.clone());
                self.queue.push_back((n, 0));
            } else if !info.is_local {
                self.add_jdk_interfaces(&info);
            }
        }
        self.walk();
        if self.config.package_generators {
            for _ in 0..package::ROUNDS {
                if self.package_generators() == 0 {
                    break;
                }
                self.walk();
            }
        }
        // The hierarchy of every loaded class plus the supertypes of every mentioned class, so
        // that assignability sees them.
        let mut mentioned: BTreeSet<String> = self.done.keys().cloned().collect();
        for c in ["java.lang.Integer", "java.lang.String", "java.lang.Long", "java.lang.Double"] {
            mentioned.insert(c.to_string());
        }
        let mut hierarchy = BTreeMap::new();
        let mut work: Vec<String> = mentioned.into_iter().collect();
        while let Some(n) = work.pop() {
            if hierarchy.contains_key(&n) {
                continue;
            }
            let Some(info) = self.table.get(&n) else { continue };
            let mut supers = vec![info.sig.superclass.clone()];
            if info.super_name.is_none() {
                supers.clear();
            }
            supers.extend(info.sig.interfaces.iter().cloned());
            for s in &supers {
                if let Some(c) = s.class_name() {
                    work.push(c.to_string());
                }
            }
            hierarchy.insert(n, Hier { type_params: info.sig.type_params.clone(), supers });
        }
        let sorted = |m: BTreeMap<String, BTreeSet<Arc<GenericCallable>>>| -> BTreeMap<String, Vec<Arc<GenericCallable>>> {
            m.into_iter().map(|(k, v)| (k, v.into_iter().collect())).collect()
        };
        let mut problems = self.table.problems.clone();
        // Classes the walk never needed are not problems of this cluster.
        problems.retain(|k, _| self.done.contains_key(k));
        let target_classes: BTreeSet<String> =
            self.targets.iter().filter_map(|g| g.receiver.class_name().map(str::to_string)).collect();
        let mut cluster = TestCluster {
            cut: self.cut.name.clone(),
            config: self.config.clone(),
            targets: self.targets,
            generators: sorted(self.generators),
            modifiers: sorted(self.modifiers),
            implementations: self.implementations,
            enums: self.enums,
            ancestors: ancestors(&hierarchy),
            creations: CreationCache::default(),
            modifier_cache: ModifierCache::default(),
            hierarchy,
            constants: self.constants,
            problems,
            target_types: BTreeMap::new(),
            stubs: self.stubs,
        };
        for c in target_classes {
            if let Some(t) = cluster.target_type(&c) {
                cluster.target_types.insert(c, t);
            }
        }
        Ok(cluster)
    }
}

fn is_jdk_object_method(g: &GenericCallable) -> bool {
    g.class == OBJECT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unify_binds_through_arguments() {
        let pat = crate::types::parse_field_type("Ljava/util/List<TE;>;").unwrap();
        let act = crate::types::parse_field_type("Ljava/util/List<+Ljava/lang/String;>;").unwrap();
        let mut m = BTreeMap::new();
        unify(&pat, &act, &mut m);
        assert_eq!(m.get("E"), Some(&JType::string()));
    }
}
