//! Which abstract classes and interfaces a test may implement with an anonymous class
//! (`--stubs`), and what such a stub is made of: the superclass constructors it mirrors and the
//! abstract methods it answers. The rules are those of javac for an anonymous class written in a
//! test of the CUT's package (JLS §15.9.5, §8.4.8.1, §6.6), so that what the worker runs is what
//! the written test compiles to.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::Arc;

use classfile::access;

use super::features::ClusterFeature;
use super::generics::close;
use super::load::{ClassInfo, MethodInfo, package_of};
use super::walk::Builder;
use super::{ClusterConfig, Creation, TestCluster, jdk};
use crate::statement::{StubMethod, StubType};
use crate::types::{JType, TypeArg, parse_method_sig};

/// More abstract methods than this and a stub is not worth writing: such a type (`List`, `Map`)
/// has implementations on the classpath, and an anonymous class of twenty methods is no test a
/// user would read.
pub(crate) const MAX_STUB_METHODS: usize = 8;

/// Abstract classes no class may extend directly (JLS §8.1.4, §8.10).
const NOT_EXTENSIBLE: [&str; 2] = ["java.lang.Enum", "java.lang.Record"];

/// What a stub method without a `throws` clause may throw.
pub const RUNTIME_EXCEPTION: &str = "java.lang.RuntimeException";

/// The suffix of a user type's stub class, defined in the type's own package (so that it may
/// implement package-private methods) by the worker's class loader.
pub const STUB_SUFFIX: &str = "$SuitesmithStub";

/// The package of the stubs of JDK types, where a class loader may not define classes.
pub const JDK_STUB_PACKAGE: &str = "suitesmith.stubs";

/// Public methods of `Object` that an interface may redeclare abstractly (`Comparator.equals`):
/// every class already implements them.
const OBJECT_METHODS: [(&str, &str); 3] =
    [("equals", "(Ljava/lang/Object;)Z"), ("hashCode", "()I"), ("toString", "()Ljava/lang/String;")];

/// What the cluster keeps of a stub type: the model's `StubType`, plus each method's generic
/// return type and declaring class, from which a stub of a parameterized type
/// (`Callable<String>`) gets the type of its answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StubInfo {
    pub stub: Arc<StubType>,
    pub generic_returns: Vec<Option<(String, JType)>>,
}

/// The binary name of the class a worker defines for `class`.
pub fn stub_class_name(class: &str, is_jdk: bool) -> String {
    if is_jdk {
        format!("{JDK_STUB_PACKAGE}.{}", class.replace(['.', '$'], "_"))
    } else {
        format!("{class}{STUB_SUFFIX}")
    }
}

/// Whether every class `types` mention (type arguments included) can be named from the test.
fn all_nameable<'t>(
    types: impl IntoIterator<Item = &'t JType>,
    accessible: &mut dyn FnMut(&str) -> bool,
) -> bool {
    let mut named = Vec::new();
    for t in types {
        t.mentioned_classes(&mut named);
    }
    named.iter().all(|n| accessible(n))
}

/// The hierarchy a stub must complete: the class and its superclasses, most derived first, and
/// every interface they implement.
pub(crate) struct Ancestry {
    pub chain: Vec<Arc<ClassInfo>>,
    pub interfaces: Vec<Arc<ClassInfo>>,
}

/// The stub of `info`, or `None` when a test cannot implement it: a class or method it cannot
/// name or override from the CUT's package, a sealed or non-static inner class, no accessible
/// constructor, or more than `MAX_STUB_METHODS` abstract methods. `accessible` says whether a
/// class named in a signature can be named from the test.
pub(crate) fn stub_info(
    info: &ClassInfo,
    ancestry: &Ancestry,
    cut_package: &str,
    is_jdk: bool,
    sealed: bool,
    accessible: &mut dyn FnMut(&str) -> bool,
) -> Option<StubInfo> {
    // No class may extend `Enum` or `Record` directly (JLS §8.1.4): `new Enum<..>() {}` does not
    // compile, though `Enum` looks like a `TypeToken` (abstract, generic, no abstract method).
    if sealed
        || info.access & access::ANNOTATION != 0
        || info.is_enum()
        || NOT_EXTENSIBLE.contains(&info.name.as_str())
    {
        return None;
    }
    let is_interface = info.access & access::INTERFACE != 0;
    // A member class that is not static needs an enclosing instance (`outer.new Inner() {}`).
    if info.name.contains('$') && !is_interface && info.access & access::STATIC == 0 {
        return None;
    }
    let same_package = |decl: &str| package_of(decl) == cut_package && package_of(&info.name) == cut_package;
    // Package-private members are overridable only from their own package, where a JDK type's
    // stub never is.
    let usable = |m: &MethodInfo, decl: &str| {
        m.access & access::PRIVATE == 0
            && (m.access & (access::PUBLIC | access::PROTECTED) != 0 || (!is_jdk && same_package(decl)))
    };
    let (by_classes, with_defaults) = implemented(ancestry);
    let views =
        if info.sig.type_params.is_empty() { supertype_views(info, ancestry) } else { BTreeMap::new() };
    let mut seen = BTreeSet::new();
    let mut methods = Vec::new();
    let mut generic_returns = Vec::new();
    let n_classes = ancestry.chain.len();
    for (i, c) in ancestry.chain.iter().chain(&ancestry.interfaces).enumerate() {
        let concrete = if i < n_classes { &by_classes } else { &with_defaults };
        for m in &c.methods {
            if m.access & access::ABSTRACT == 0 || m.access & access::STATIC != 0 {
                continue;
            }
            let key = (m.name.clone(), m.descriptor.clone());
            if concrete.contains(&key) || !seen.insert(key) {
                continue;
            }
            if !usable(m, &c.name) {
                return None;
            }
            let erased = parse_method_sig(&m.descriptor).ok()?;
            if !all_nameable(erased.params.iter().chain(&erased.ret), accessible) {
                return None;
            }
            let runs_arguments = erased.ret.is_none()
                && erased.params.iter().any(|p| p.class_name() == Some("java.lang.Runnable"));
            generic_returns.push(m.sig.ret.clone().map(|r| (c.name.clone(), r)));
            // A checked exception the test cannot name cannot be thrown from its override.
            let throw_bound = m
                .exceptions
                .iter()
                .find(|e| accessible(e))
                .cloned()
                .unwrap_or_else(|| RUNTIME_EXCEPTION.to_string());
            let (java_params, java_ret) = match member_types(m, views.get(&c.name), c) {
                Some((ps, r)) if ps.len() == erased.params.len() && r.is_some() == erased.ret.is_some() => {
                    (ps, r)
                }
                _ => (erased.params.clone(), erased.ret.clone()),
            };
            // The override is written with the types as members of the stubbed class
            // (`compare(Key a, Key b)` for a `Comparator<Key>`): each must be nameable too, and no
            // other type overrides it (a parameter of another erasure names another method).
            if !all_nameable(java_params.iter().chain(&java_ret), accessible) {
                return None;
            }
            methods.push(StubMethod {
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                params: erased.params,
                ret: erased.ret,
                java_params,
                java_ret,
                runs_arguments,
                throw_bound,
            });
        }
    }
    if methods.len() > MAX_STUB_METHODS {
        return None;
    }
    let constructors = if is_interface {
        vec![("()V".to_string(), Vec::new())]
    } else {
        let mut res = Vec::new();
        for m in info.methods.iter().filter(|m| m.name == "<init>") {
            if !usable(m, &info.name) || m.access & access::SYNTHETIC != 0 {
                continue;
            }
            let Ok(erased) = parse_method_sig(&m.descriptor) else { continue };
            if all_nameable(&erased.params, accessible) {
                res.push((m.descriptor.clone(), erased.params));
            }
        }
        res
    };
    if constructors.is_empty() {
        return None;
    }
    let stub = StubType {
        class: info.name.clone(),
        is_interface,
        stub_class: stub_class_name(&info.name, is_jdk),
        constructors,
        methods,
    };
    Some(StubInfo { stub: Arc::new(stub), generic_returns })
}

/// Methods by name and descriptor.
type Signatures = BTreeSet<(String, String)>;

/// The methods (name, descriptor) implemented along the superclass chain, and those plus the
/// default methods of interfaces. An abstract method of a class is implemented only by a class
/// (JLS §8.4.8: an interface's default never overrides it; Java 17's `Clock.withZone` is abstract
/// though `InstantSource` has a default of the same signature).
fn implemented(ancestry: &Ancestry) -> (Signatures, Signatures) {
    let concrete_in = |classes: &[Arc<ClassInfo>], out: &mut Signatures| {
        for c in classes {
            for m in &c.methods {
                if m.access & (access::ABSTRACT | access::STATIC) == 0
                    && m.name != "<init>"
                    && m.name != "<clinit>"
                {
                    out.insert((m.name.clone(), m.descriptor.clone()));
                }
            }
        }
    };
    let mut by_classes: Signatures =
        OBJECT_METHODS.iter().map(|(n, d)| (n.to_string(), d.to_string())).collect();
    concrete_in(&ancestry.chain, &mut by_classes);
    let mut with_defaults = by_classes.clone();
    concrete_in(&ancestry.interfaces, &mut with_defaults);
    (by_classes, with_defaults)
}

/// Each supertype of the non-generic `info` as `info` sees it (`Points<Line>` for `Line extends
/// Points<Line>`), by binary name; a raw supertype's own supertypes are erased (JLS §4.8).
fn supertype_views(info: &ClassInfo, ancestry: &Ancestry) -> BTreeMap<String, JType> {
    let classes: BTreeMap<&str, &ClassInfo> =
        ancestry.chain.iter().chain(&ancestry.interfaces).map(|c| (c.name.as_str(), &**c)).collect();
    let mut views = BTreeMap::new();
    let mut work = vec![info.generic_self()];
    while let Some(t) = work.pop() {
        let JType::Class { name, args } = &t else { continue };
        if views.contains_key(name) {
            continue;
        }
        views.insert(name.clone(), t.clone());
        let Some(c) = classes.get(name.as_str()) else { continue };
        let raw = args.len() != c.sig.type_params.len();
        let map = type_arg_map(c, args);
        let supers = c.super_name.iter().map(|_| &c.sig.superclass).chain(&c.sig.interfaces);
        for s in supers {
            work.push(if raw { s.erasure() } else { s.subst(&map) });
        }
    }
    views
}

/// `c`'s type variables bound to `args` (wildcards to their bound: a supertype has none).
fn type_arg_map(c: &ClassInfo, args: &[TypeArg]) -> BTreeMap<String, JType> {
    let mut map = BTreeMap::new();
    if args.len() == c.sig.type_params.len() {
        for (p, a) in c.sig.type_params.iter().zip(args) {
            if let TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) = a {
                map.insert(p.name.clone(), t.clone());
            }
        }
    }
    map
}

/// The erased parameter and return types of `m`, declared in `decl`, as a member of the class
/// that sees `decl` as `view`; `None` when a type variable is left (the method's own, or a raw
/// view), where the descriptor's erasure is what an override declares.
fn member_types(
    m: &MethodInfo,
    view: Option<&JType>,
    decl: &ClassInfo,
) -> Option<(Vec<JType>, Option<JType>)> {
    let JType::Class { args, .. } = view? else { return None };
    if !m.sig.type_params.is_empty() {
        return None;
    }
    let map = type_arg_map(decl, args);
    let sub = |t: &JType| {
        let t = t.subst(&map);
        (!t.has_vars()).then(|| t.erasure())
    };
    let params = m.sig.params.iter().map(sub).collect::<Option<Vec<_>>>()?;
    let ret = match &m.sig.ret {
        Some(r) => Some(sub(r)?),
        None => None,
    };
    Some((params, ret))
}

/// The answer types of a stub of `ty`: each method's generic return type with the type
/// arguments `ty` gives its declaring class (`as_super`), erased where they are unknown.
pub(crate) fn answer_types(
    info: &StubInfo,
    type_params_of: &dyn Fn(&str) -> Vec<String>,
    as_super: &dyn Fn(&str) -> Option<JType>,
) -> Vec<Option<JType>> {
    info.stub
        .methods
        .iter()
        .zip(&info.generic_returns)
        .map(|(m, generic)| {
            let erased = m.ret.clone()?;
            let Some((decl, ret)) = generic else { return Some(erased) };
            if !ret.has_vars() {
                return Some(ret.clone());
            }
            let mut map = BTreeMap::new();
            if let Some(JType::Class { args, .. }) = as_super(decl) {
                let params = type_params_of(decl);
                if params.len() == args.len() {
                    for (p, a) in params.into_iter().zip(args) {
                        if let TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) = a {
                            map.insert(p, t);
                        }
                    }
                }
            }
            let t = ret.subst(&map);
            // A variable left (a method's own, or of a raw view) is its erasure.
            Some(if t.has_vars() { erased } else { t })
        })
        .collect()
}

/// `ClusterConfig::stubs`: a stub for every abstract class and interface the walk meets that a
/// test may implement, offered after the generators of the type and its implementations.
pub(super) struct Stubs;

impl ClusterFeature for Stubs {
    fn enabled(&self, config: &ClusterConfig) -> bool {
        config.stubs
    }

    fn visit_class(&self, b: &mut Builder<'_>, info: &Arc<ClassInfo>, is_jdk: bool, depth: u32) {
        let name = &info.name;
        // A JDK type with implementations in the table (`InputStream`, `CharSequence`, `List`)
        // gets none: those are what code expects of it, while a stub's repeated last answer makes
        // an endless stream (`read()` never -1), which each test then runs until its timeout.
        // The interfaces of `java.time` get both (`jdk::stub_beside_implementations`).
        if info.is_abstract()
            && (!is_jdk || jdk::implementations(name).is_empty() || jdk::stub_beside_implementations(name))
            && let Some(s) = b.stub_of(info, is_jdk)
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
                b.enqueue_type(&t, depth + 1);
            }
            b.stubs.insert(name.clone(), s);
        }
    }

    fn makes(&self, b: &Builder<'_>, name: &str) -> bool {
        b.stubs.contains_key(name)
    }

    fn trailing_creations(&self, c: &TestCluster, want: &JType, name: &str, out: &mut Vec<Creation>) {
        if let Some(s) = c.stubs.get(name) {
            for ty in c.stub_values(s, want) {
                out.push(Creation::Stub(Arc::new(c.stub_ref(s, &ty))));
            }
        }
    }

    fn dump(&self, c: &TestCluster, out: &mut String) {
        if c.stubs.is_empty() {
            return;
        }
        let _ = writeln!(out, "stubs:");
        for st in c.stubs.values() {
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
                out,
                "  {} as {} [{}]: {}",
                st.class,
                st.stub_class,
                ctors.join(", "),
                ms.join(", ")
            );
        }
    }
}

impl TestCluster {
    /// The types of the stubs offered for `want`: `want` itself, except for a capturing stub (an
    /// abstract generic class without abstract methods, `TypeToken<T>`), whose open type
    /// arguments (`?`, `? extends B`, a variable) each become a closed type, so that the written
    /// `new TypeToken<List<String>>() {}` captures it: `B`, or in turn `String`, `List<String>`
    /// and `Integer[]` (a class, a parameterized type, an array).
    pub(super) fn stub_values(&self, s: &StubInfo, want: &JType) -> Vec<JType> {
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
            JType::Class { name, .. } => !bounded || self.hierarchy.contains(name),
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
    pub(super) fn stub_ref(&self, s: &StubInfo, want: &JType) -> crate::statement::StubRef {
        let d = self.config.max_generic_depth;
        let params_of = |c: &str| -> Vec<String> {
            self.hierarchy
                .get(c)
                .map(|h| h.type_params.iter().map(|p| p.name.clone()).collect())
                .unwrap_or_default()
        };
        let as_super = |c: &str| self.as_super(want, c);
        let answer_types =
            answer_types(s, &params_of, &as_super).into_iter().map(|t| t.map(|t| close(&t, d))).collect();
        crate::statement::StubRef { stub: s.stub.clone(), ty: want.clone(), ctor: 0, answer_types }
    }
}

impl Builder<'_> {
    /// The stub of abstract class or interface `info` (`stubs::stub_info`), reading its
    /// superclasses and interfaces.
    pub(super) fn stub_of(&mut self, info: &Arc<ClassInfo>, is_jdk: bool) -> Option<StubInfo> {
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
                if let Ok(sig) = parse_method_sig(&m.descriptor) {
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
        stub_info(info, &ancestry, &cut_package, is_jdk, sealed, &mut accessible)
    }
}
