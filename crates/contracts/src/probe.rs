//! Probes: the objects a suite builds (each as the slice of its test that makes and changes it),
//! single-object probes (`equals` with itself and with `null`, `hashCode`, `toString`,
//! `compareTo` with itself, `hasNext` then `next`), pair probes over two such slices put one after
//! the other (so that equal-looking objects meet), and the calls of the class's own methods that
//! threw from inside on arguments in range. It builds tests only; [`crate::judge`] reads outcomes.

use std::collections::BTreeSet;
use std::sync::Arc;

use classfile::access;
use jvm_model::ClassName;
use programdb::ProgramDb;
use protocol::{Outcome, Value};
use testcase::types::OBJECT;
use testcase::{JType, MethodRef, PrimType, Statement, TestCase, VarId};

use crate::{ContractConfig, TwoRuns};

/// What a probe checks; positions are variables of the probe's case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Look {
    /// `x.equals(x)`.
    Reflexive { eq: VarId },
    /// `x.equals(null)`.
    NullFalse { eq: VarId },
    /// `x.hashCode()` or `x.toString()`, which must not throw (`kind` says which).
    NoThrow { at: VarId, kind: crate::ContractKind },
    /// `x.equals(y)`, `y.equals(x)`.
    Symmetric { a: VarId, b: VarId },
    /// `x.equals(y)`, `x.hashCode()`, `y.hashCode()`.
    HashConsistent { eq: VarId, ha: VarId, hb: VarId },
    /// `x.compareTo(x)`.
    CompareReflexive { c: VarId },
    /// `x.compareTo(y)`, `y.compareTo(x)`.
    Antisymmetric { a: VarId, b: VarId },
    /// `x.compareTo(y)`, `x.equals(y)`.
    CompareEquals { c: VarId, eq: VarId },
    /// `x.hasNext()`, `x.next()`.
    Iterator { has: VarId, next: VarId },
    /// The last statement, a call of the class's own method, threw `class` from inside.
    Inside { at: VarId, class: String },
}

/// One probe: a test and what to look at in its outcomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Probe {
    pub(crate) case: TestCase,
    pub(crate) look: Look,
    /// The class of the object checked, or declaring the method called (binary name).
    pub(crate) class: String,
    /// The method the contract is about.
    pub(crate) method: String,
}

/// An object of the class under test that a test builds: its slice and its variable there.
#[derive(Debug, Clone)]
struct Object {
    case: TestCase,
    var: VarId,
    /// Its class when it ran (binary name).
    class: String,
}

/// Every probe of the suite, in a fixed order: per object its single probes, then the pairs,
/// then the exceptions from inside.
pub(crate) fn build(
    suite: &[TestCase],
    base: &[TwoRuns],
    db: &ProgramDb,
    config: &ContractConfig,
) -> Vec<Probe> {
    let objects = objects(suite, base, db, config);
    let mut out = Vec::new();
    for o in &objects {
        singles(o, db, &mut out);
    }
    for (i, x) in objects.iter().enumerate() {
        for y in &objects[i..] {
            pairs(x, y, db, &mut out);
        }
    }
    for (t, runs) in suite.iter().zip(base) {
        out.extend(inside(t, runs, db, &config.cut));
    }
    out
}

/// Whether a class is the class under test or nested in it.
pub(crate) fn in_cut(class: &str, cut: &str) -> bool {
    class == cut || class.strip_prefix(cut).is_some_and(|r| r.starts_with('$'))
}

/// How many leading statements ran the same way twice, each giving a value.
fn steady_prefix(runs: &TwoRuns) -> usize {
    let (a, b) = runs;
    a.iter().zip(b).take_while(|(x, y)| matches!(x, Outcome::Value(_)) && x == y).count()
}

/// The objects of the class under test the suite builds, distinct by slice, at most
/// `config.max_objects`, in suite order.
fn objects(suite: &[TestCase], base: &[TwoRuns], db: &ProgramDb, config: &ContractConfig) -> Vec<Object> {
    let mut out: Vec<Object> = Vec::new();
    let mut seen = BTreeSet::new();
    for (t, runs) in suite.iter().zip(base) {
        let prefix = steady_prefix(runs);
        for i in 0..prefix {
            let Outcome::Value(Value::Object { class }) = &runs.0[i] else { continue };
            if !in_cut(class, &config.cut) {
                continue;
            }
            let v = VarId(i as u32);
            // The object as made, then with the calls made on it: the shorter test wins where both
            // show a violation, and the calls may be what makes it.
            for watched in [&[][..], &[v][..]] {
                let (case, map) = slice(t, prefix, &[v], watched);
                if contains_itself(&case, &runs.0, &map, db) || reaches_past_api(&case, db) {
                    continue;
                }
                if out.len() >= config.max_objects || !seen.insert(case.canonical_bytes()) {
                    continue;
                }
                out.push(Object { case, var: map[i].unwrap_or(v), class: class.clone() });
            }
        }
    }
    out
}

/// The statements of `t` before `end` that `roots` need (their definitions, transitively), those
/// that use a variable of `watched` (calls that may change it) with what they need, and every
/// statement before the last of these that uses a variable kept (a call that may change it, as
/// the test made it), transitively; renumbered. Returns the slice and each old statement's new variable.
fn slice(t: &TestCase, end: usize, roots: &[VarId], watched: &[VarId]) -> (TestCase, Vec<Option<VarId>>) {
    let end = end.min(t.len());
    let mut keep = vec![false; end];
    let mark = |from: usize, keep: &mut Vec<bool>| {
        let mut work = vec![from];
        while let Some(j) = work.pop() {
            if j >= end || keep[j] {
                continue;
            }
            keep[j] = true;
            work.extend(t.statements[j].uses().into_iter().map(VarId::index));
        }
    };
    for r in roots {
        mark(r.index(), &mut keep);
    }
    let first = watched.iter().map(|v| v.index()).min().unwrap_or(end);
    for i in first..end {
        if !keep[i] && t.statements[i].uses().iter().any(|u| watched.contains(u)) {
            mark(i, &mut keep);
        }
    }
    // The calls made on what the slice uses before its last statement (a `put` on the map a later
    // `get` reads, a setter on an argument), with what they need, until nothing more is needed:
    // without them a kept statement may give another value than in the test (`get` a `null`),
    // and the probe would judge an object the test never built.
    let last = (0..end).rev().find(|&i| keep[i]).unwrap_or(0);
    let mut grew = true;
    while grew {
        grew = false;
        for j in 0..last {
            if !keep[j] && t.statements[j].uses().iter().any(|u| keep.get(u.index()) == Some(&true)) {
                mark(j, &mut keep);
                grew = true;
            }
        }
    }
    let mut out = TestCase::new();
    let mut map = vec![None; t.len()];
    for i in 0..end {
        if !keep[i] {
            continue;
        }
        let mut st = t.statements[i].clone();
        for u in st.uses_mut() {
            *u = map[u.index()].unwrap_or(*u);
        }
        map[i] = Some(out.push(st));
    }
    (out, map)
}

/// Whether a statement of a slice hands a map or a collection to itself (`m.put(m, v)`,
/// `c.add(c)`): `equals` and `hashCode` of a collection that contains itself are left undefined
/// by `java.util` (they recurse without end, or answer either way), so its objects are not
/// judged. `runs` are the outcomes of the test the slice was cut from, `map` its variables there.
fn contains_itself(case: &TestCase, runs: &[Outcome], map: &[Option<VarId>], db: &ProgramDb) -> bool {
    let class_of = |new: VarId| {
        let old = map.iter().position(|m| *m == Some(new))?;
        match runs.get(old)? {
            Outcome::Value(Value::Object { class }) => Some(ClassName::from_binary(class).into_internal()),
            _ => None,
        }
    };
    case.statements.iter().any(|s| match s {
        Statement::Method { receiver: Some(r), args, .. } if args.contains(r) => class_of(*r)
            .is_some_and(|c| db.is_subtype(&c, "java/util/Map") || db.is_subtype(&c, "java/util/Collection")),
        _ => false,
    })
}

/// Whether a slice reaches past the class's API: writes a field or calls a method or constructor
/// that its class declares not public, or constructs a class that is not public
/// (`((AbstractHashedMap) m).size = 1`, `m.moveToMRU(m.header)`, `new TreeList.TreeListIterator(list,
/// -1)`, which a test in the class's package may do). The object's state is then the test's doing,
/// not one the class's public methods keep (an `LRUMap` whose `size` was overwritten, or whose list
/// header was moved, is "not symmetric"; a `TreeList` iterator made at index -1, which
/// `listIterator(int)` refuses, throws `NullPointerException` from `next()`). A member whose class
/// cannot be read counts as public.
fn reaches_past_api(case: &TestCase, db: &ProgramDb) -> bool {
    let hidden = |class: &str, name: &str, descriptor: Option<&str>| {
        let internal = ClassName::from_binary(class).into_internal();
        let Some(cf) = db.class_id(&internal).and_then(|id| db.class(id).ok()) else { return false };
        if name == "<init>" && cf.access_flags & access::PUBLIC == 0 {
            return true;
        }
        let cp = &cf.constant_pool;
        let members = if descriptor.is_some() { &cf.methods } else { &cf.fields };
        members.iter().any(|m| {
            m.name(cp).is_some_and(|n| n == name)
                && descriptor.is_none_or(|d| m.descriptor(cp).is_some_and(|x| x == d))
                && m.access_flags & access::PUBLIC == 0
        })
    };
    case.statements.iter().any(|s| match s {
        Statement::FieldSet { field, .. } => hidden(&field.class, &field.name, None),
        Statement::Method { method, .. } => hidden(&method.class, &method.name, Some(&method.descriptor)),
        Statement::Constructor { ctor, .. } => hidden(&ctor.class, "<init>", Some(&ctor.descriptor)),
        _ => false,
    })
}

/// `a` followed by `b`, `b`'s variables moved up; returns the case and `b`'s offset.
fn concat(a: &TestCase, b: &TestCase) -> (TestCase, u32) {
    let mut out = a.clone();
    let offset = a.len() as u32;
    for st in &b.statements {
        let mut st = st.clone();
        for u in st.uses_mut() {
            u.0 += offset;
        }
        out.push(st);
    }
    (out, offset)
}

/// `receiver.name(args)` with the given descriptor, declared on the receiver's static type.
fn call(
    case: &mut TestCase,
    receiver: VarId,
    name: &str,
    descriptor: &str,
    params: Vec<JType>,
    ret: JType,
) -> VarId {
    let owner = case.var_type(receiver).map_or_else(JType::object, |t| t.erasure());
    let class = owner.class_name().unwrap_or(OBJECT).to_string();
    let method = MethodRef {
        class,
        name: name.to_string(),
        descriptor: descriptor.to_string(),
        is_static: false,
        owner,
        params,
        ret: Some(ret),
    };
    case.push(Statement::Method { method: Arc::new(method), receiver: Some(receiver), args: Vec::new() })
}

/// [`call`] with one argument.
fn call1(
    case: &mut TestCase,
    receiver: VarId,
    name: &str,
    descriptor: &str,
    param: JType,
    ret: JType,
    arg: VarId,
) -> VarId {
    let v = call(case, receiver, name, descriptor, vec![param], ret);
    if let Some(Statement::Method { args, .. }) = case.statements.last_mut() {
        args.push(arg);
    }
    v
}

fn boolean() -> JType {
    JType::Prim(PrimType::Boolean)
}

fn int() -> JType {
    JType::Prim(PrimType::Int)
}

const EQUALS: &str = "(Ljava/lang/Object;)Z";

fn equals(case: &mut TestCase, x: VarId, y: VarId) -> VarId {
    call1(case, x, "equals", EQUALS, JType::object(), boolean(), y)
}

/// The probes of one object.
fn singles(o: &Object, db: &ProgramDb, out: &mut Vec<Probe>) {
    let probe = |case: TestCase, look: Look, method: &str| Probe {
        case,
        look,
        class: o.class.clone(),
        method: method.to_string(),
    };
    let mut c = o.case.clone();
    let eq = equals(&mut c, o.var, o.var);
    out.push(probe(c, Look::Reflexive { eq }, "equals"));
    let mut c = o.case.clone();
    let null = c.push(Statement::Null(JType::object()));
    let eq = equals(&mut c, o.var, null);
    out.push(probe(c, Look::NullFalse { eq }, "equals"));
    let mut c = o.case.clone();
    let at = call(&mut c, o.var, "hashCode", "()I", Vec::new(), int());
    out.push(probe(c, Look::NoThrow { at, kind: crate::ContractKind::HashCodeThrows }, "hashCode"));
    let mut c = o.case.clone();
    let at = call(&mut c, o.var, "toString", "()Ljava/lang/String;", Vec::new(), JType::string());
    out.push(probe(c, Look::NoThrow { at, kind: crate::ContractKind::ToStringThrows }, "toString"));
    let internal = ClassName::from_binary(&o.class).into_internal();
    if let Some(cmp) = compare_to(db, &internal) {
        let mut c = o.case.clone();
        let at = call1(&mut c, o.var, "compareTo", &cmp.descriptor, cmp.param.clone(), int(), o.var);
        out.push(probe(c, Look::CompareReflexive { c: at }, "compareTo"));
    }
    if db.is_subtype(&internal, "java/util/Iterator") {
        let mut c = o.case.clone();
        let has = call(&mut c, o.var, "hasNext", "()Z", Vec::new(), boolean());
        let next = call(&mut c, o.var, "next", "()Ljava/lang/Object;", Vec::new(), JType::object());
        out.push(probe(c, Look::Iterator { has, next }, "hasNext"));
    }
}

/// The probes of two objects, `y` built after `x`.
fn pairs(x: &Object, y: &Object, db: &ProgramDb, out: &mut Vec<Probe>) {
    let (base, offset) = concat(&x.case, &y.case);
    let (xv, yv) = (x.var, VarId(y.var.0 + offset));
    let probe = |case: TestCase, look: Look, method: &str| Probe {
        case,
        look,
        class: x.class.clone(),
        method: method.to_string(),
    };
    let mut c = base.clone();
    let a = equals(&mut c, xv, yv);
    let b = equals(&mut c, yv, xv);
    out.push(probe(c, Look::Symmetric { a, b }, "equals"));
    let mut c = base.clone();
    let eq = equals(&mut c, xv, yv);
    let ha = call(&mut c, xv, "hashCode", "()I", Vec::new(), int());
    let hb = call(&mut c, yv, "hashCode", "()I", Vec::new(), int());
    out.push(probe(c, Look::HashConsistent { eq, ha, hb }, "hashCode"));
    // compareTo between objects of one class only: another class may rightly be refused.
    if x.class != y.class {
        return;
    }
    let Some(cmp) = compare_to(db, &ClassName::from_binary(&x.class).into_internal()) else { return };
    let mut c = base.clone();
    let a = call1(&mut c, xv, "compareTo", &cmp.descriptor, cmp.param.clone(), int(), yv);
    let b = call1(&mut c, yv, "compareTo", &cmp.descriptor, cmp.param.clone(), int(), xv);
    out.push(probe(c, Look::Antisymmetric { a, b }, "compareTo"));
    let mut c = base;
    let cv = call1(&mut c, xv, "compareTo", &cmp.descriptor, cmp.param.clone(), int(), yv);
    let eq = equals(&mut c, xv, yv);
    out.push(probe(c, Look::CompareEquals { c: cv, eq }, "compareTo"));
}

/// A class's own `compareTo`.
struct CompareTo {
    descriptor: String,
    param: JType,
}

/// The public, non-bridge `int compareTo(T)` of a `Comparable` class or of its nearest
/// superclass that declares one.
fn compare_to(db: &ProgramDb, internal: &str) -> Option<CompareTo> {
    if !db.is_subtype(internal, "java/lang/Comparable") {
        return None;
    }
    let mut cur = Some(internal.to_string());
    let mut depth = 0;
    while let Some(name) = cur {
        depth += 1;
        let cf = db.class_id(&name).and_then(|id| db.class(id).ok())?;
        let cp = &cf.constant_pool;
        for m in &cf.methods {
            let (Some(n), Some(d)) = (m.name(cp), m.descriptor(cp)) else { continue };
            let flags = m.access_flags;
            let usable = flags & access::PUBLIC != 0
                && flags & (access::STATIC | access::SYNTHETIC | access::VOLATILE_OR_BRIDGE) == 0;
            let param = d.strip_prefix("(L").and_then(|r| r.strip_suffix(";)I"));
            if let (true, "compareTo", Some(p)) = (usable, n.as_ref(), param)
                && !p.contains(';')
            {
                let param = JType::class(&ClassName::from_internal(p).binary());
                return Some(CompareTo { descriptor: d.into_owned(), param });
            }
        }
        cur = cf.super_name().map(|s| s.into_owned());
        if depth > 32 {
            return None;
        }
    }
    None
}

/// Exceptions thrown from inside the class under test that count when the arguments were in range.
const INSIDE: [&str; 3] = [
    "java.lang.NullPointerException",
    "java.lang.ArrayIndexOutOfBoundsException",
    "java.lang.ClassCastException",
];

/// The probe of a test whose steady prefix ends in a call of the class's own method that threw
/// one of [`INSIDE`] from the class's own code, both runs alike, on arguments in range: no `null`
/// the caller made anywhere in the test ([`may_pass_null`]: a `null` given earlier, to a
/// constructor, is the caller's), an array
/// argument not empty and every `int` argument within `[0, n)` of the shortest array or string
/// argument (an index the caller chose out of range is the caller's; an `int` without an array
/// or string beside it cannot be judged, so the call is not reported), and a `ClassCastException`
/// not from `compareTo` or `compare`, which may throw it by contract.
fn inside(t: &TestCase, runs: &TwoRuns, db: &ProgramDb, cut: &str) -> Option<Probe> {
    let at = steady_prefix(runs);
    let (Outcome::Threw { class, from_sut: true, top_frame, .. }, Some(second)) =
        (runs.0.get(at)?, runs.1.get(at))
    else {
        return None;
    };
    if !matches!(second, Outcome::Threw { class: c2, .. } if c2 == class)
        || !INSIDE.contains(&class.as_str())
        || !in_cut(top_frame, cut)
    {
        return None;
    }
    let (owner, method, args, params, receiver) = match &t.statements[at] {
        Statement::Method { method, args, receiver } => {
            (&method.class, method.name.clone(), args, &method.params, *receiver)
        }
        Statement::Constructor { ctor, args } => {
            (&ctor.class, "<init>".to_string(), args, &ctor.params, None)
        }
        _ => return None,
    };
    if !in_cut(owner, cut)
        || (class.ends_with("ClassCastException") && matches!(method.as_str(), "compareTo" | "compare"))
    {
        return None;
    }
    let roots = [VarId(at as u32)];
    let watched: Vec<VarId> = receiver.into_iter().chain(args.iter().copied()).collect();
    let (case, _) = slice(t, at + 1, &roots, &watched);
    // A receiver or argument built past the API is in a state the class's callers cannot make.
    if may_pass_null(&case) || reaches_past_api(&case, db) {
        return None;
    }
    // A `char`, `short` or `byte` handed to an `int` parameter is an index like an `int`
    // (StringUtils.join(array, '<', '<', '|') indexes the array at 60).
    let value = |(v, p): (&VarId, &JType)| match &runs.0[v.index()] {
        Outcome::Value(Value::Char(i) | Value::Short(i) | Value::Byte(i))
            if *p == JType::Prim(PrimType::Int) =>
        {
            Some(Value::Int(*i))
        }
        Outcome::Value(x) => Some(x.clone()),
        _ => None,
    };
    let owned: Vec<Value> = args.iter().zip(params).filter_map(value).collect();
    let values: Vec<&Value> = owned.iter().collect();
    if values.len() != args.len() || values.iter().any(|v| matches!(v, Value::Null)) {
        return None;
    }
    if class.ends_with("ArrayIndexOutOfBoundsException") && !in_range(&values) {
        return None;
    }
    let last = VarId(case.len() as u32 - 1);
    Some(Probe { case, look: Look::Inside { at: last, class: class.clone() }, class: owner.clone(), method })
}

/// Whether a test may hand the class a `null` of the caller's making: a `null` constant, a stub
/// (whose answers may be `null`, and are the caller's code anyway), or an array of references
/// with a slot never stored to.
fn may_pass_null(case: &TestCase) -> bool {
    case.statements.iter().enumerate().any(|(i, s)| match s {
        Statement::Null(_) | Statement::Stub { .. } => true,
        Statement::NewArray { ty: JType::Array(component), length } if !component.is_primitive() => {
            let stored: BTreeSet<u32> = case
                .statements
                .iter()
                .filter_map(|x| match x {
                    Statement::ArrayStore { array, index, .. } if array.index() == i => Some(*index),
                    _ => None,
                })
                .collect();
            (stored.len() as u64) < u64::from(*length)
        }
        _ => false,
    })
}

/// Whether the `int` arguments index the array and string arguments: each within `[0, n)` of the
/// shortest of them, which must exist and not be empty.
fn in_range(values: &[&Value]) -> bool {
    let lengths: Vec<i64> = values
        .iter()
        .filter_map(|v| match v {
            Value::Array { length, .. } => Some(i64::from(*length)),
            Value::String(s) => Some(s.encode_utf16().count() as i64),
            _ => None,
        })
        .collect();
    let Some(&n) = lengths.iter().min() else {
        return false;
    };
    n > 0 && values.iter().all(|v| !matches!(v, Value::Int(i) if !(0..n).contains(&i64::from(*i))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use testcase::{ConstructorRef, PrimValue};

    fn ctor(class: &str, params: Vec<JType>) -> Arc<ConstructorRef> {
        let descriptor = format!("({})V", params.iter().map(JType::descriptor).collect::<String>());
        Arc::new(ConstructorRef { class: class.into(), descriptor, ty: JType::class(class), params })
    }

    /// `int v0 = 1; A v1 = new A(v0); int v2 = 2; A v3 = new A(v2); v1.equals(v3); v3.hashCode()`:
    /// the slice of `v3` is its constructor with its argument and the calls on it, with what they
    /// need (`v1`, passed to `equals`, and its own argument).
    #[test]
    fn a_slice_keeps_what_an_object_needs_and_the_calls_on_it() {
        let a = ctor("p.A", vec![int()]);
        let mut t = TestCase::new();
        let v0 = t.push(Statement::Primitive(PrimValue::Int(1)));
        let v1 = t.push(Statement::Constructor { ctor: a.clone(), args: vec![v0] });
        let v2 = t.push(Statement::Primitive(PrimValue::Int(2)));
        let v3 = t.push(Statement::Constructor { ctor: a, args: vec![v2] });
        let mut with_calls = t.clone();
        equals(&mut with_calls, v1, v3);
        call(&mut with_calls, v3, "hashCode", "()I", Vec::new(), int());
        let (s, map) = slice(&with_calls, with_calls.len(), &[v3], &[v3]);
        assert_eq!(s.len(), 6, "{s}");
        assert_eq!(map[v3.index()], Some(VarId(3)));
        let (s, map) = slice(&t, t.len(), &[v3], &[v3]);
        assert_eq!(s.len(), 2, "{s}");
        assert_eq!(map[v3.index()], Some(VarId(1)));
        assert_eq!(map[v1.index()], None);
    }

    /// `A v0 = new A(); A v1 = new A(); int v2 = 3; v0.link(v1); A v4 = v0.next(); v1.size()`: the
    /// slice of `v4` keeps `link`, an earlier call on `v0` that `next` reads, and `v1`, which
    /// `link` needs; not the constant no kept statement uses, nor the call after `v4`.
    #[test]
    fn a_slice_keeps_the_earlier_calls_on_what_it_uses() {
        let a = ctor("p.A", Vec::new());
        let ty = JType::class("p.A");
        let mut t = TestCase::new();
        let v0 = t.push(Statement::Constructor { ctor: a.clone(), args: Vec::new() });
        let v1 = t.push(Statement::Constructor { ctor: a, args: Vec::new() });
        t.push(Statement::Primitive(PrimValue::Int(3)));
        let link = call1(&mut t, v0, "link", "(Lp/A;)Z", ty.clone(), boolean(), v1);
        let v4 = call(&mut t, v0, "next", "()Lp/A;", Vec::new(), ty);
        call(&mut t, v1, "size", "()I", Vec::new(), int());
        let (s, map) = slice(&t, t.len(), &[v4], &[]);
        assert_eq!(s.len(), 4, "{s}");
        assert_eq!(map[link.index()], Some(VarId(2)));
        assert_eq!(map[v4.index()], Some(VarId(3)));
    }

    /// `ArrayList v0 = new ArrayList(); ArrayList v1 = new ArrayList(); v0.add(v1)` is judged; with
    /// `v0.add(v0)` (a list holding itself), or a write of `HashMap`'s package-private `size`, or
    /// a call of its package-private `resize()`, or a `new` of a class or constructor that is not
    /// public, it is not.
    #[test]
    fn objects_holding_themselves_or_built_past_the_api_are_not_judged() {
        let db = test_support::open_db(&[test_support::java_base_jmod()]);
        let list = ctor("java.util.ArrayList", Vec::new());
        let mut t = TestCase::new();
        let v0 = t.push(Statement::Constructor { ctor: list.clone(), args: Vec::new() });
        let v1 = t.push(Statement::Constructor { ctor: list, args: Vec::new() });
        call1(&mut t, v0, "add", "(Ljava/lang/Object;)Z", JType::object(), boolean(), v1);
        let object = || Outcome::Value(Value::Object { class: "java.util.ArrayList".into() });
        let runs = [object(), object(), Outcome::Value(Value::Bool(true)), Outcome::Value(Value::Bool(true))];
        let map: Vec<Option<VarId>> = (0..4).map(|i| Some(VarId(i))).collect();
        assert!(!contains_itself(&t, &runs, &map, &db));
        assert!(!reaches_past_api(&t, &db));
        let mut itself = t.clone();
        call1(&mut itself, v0, "add", "(Ljava/lang/Object;)Z", JType::object(), boolean(), v0);
        assert!(contains_itself(&itself, &runs, &map, &db));
        let map_ty = JType::class("java.util.HashMap");
        let mut resized = t.clone();
        call(&mut resized, v0, "resize", "()[Ljava/util/HashMap$Node;", Vec::new(), map_ty.clone());
        if let Some(Statement::Method { method, .. }) = resized.statements.last_mut() {
            Arc::make_mut(method).class = "java.util.HashMap".into();
        }
        assert!(reaches_past_api(&resized, &db));
        let size = testcase::FieldRef {
            class: "java.util.HashMap".into(),
            name: "size".into(),
            descriptor: "I".into(),
            is_static: false,
            owner: map_ty,
            ty: int(),
        };
        let mut written = t.clone();
        written.push(Statement::FieldSet { field: Arc::new(size), receiver: Some(v0), value: v0 });
        assert!(reaches_past_api(&written, &db));
        // `HashMap.Node` is package-private (its constructor too), `AbstractMap.SimpleEntry`'s is
        // public in a public class.
        let mut node = t.clone();
        node.push(Statement::Constructor {
            ctor: ctor("java.util.HashMap$Node", Vec::new()),
            args: Vec::new(),
        });
        if let Some(Statement::Constructor { ctor, .. }) = node.statements.last_mut() {
            Arc::make_mut(ctor).descriptor =
                "(ILjava/lang/Object;Ljava/lang/Object;Ljava/util/HashMap$Node;)V".into();
        }
        assert!(reaches_past_api(&node, &db));
        let mut entry = t.clone();
        entry.push(Statement::Constructor {
            ctor: ctor("java.util.AbstractMap$SimpleEntry", Vec::new()),
            args: Vec::new(),
        });
        if let Some(Statement::Constructor { ctor, .. }) = entry.statements.last_mut() {
            Arc::make_mut(ctor).descriptor = "(Ljava/lang/Object;Ljava/lang/Object;)V".into();
        }
        assert!(!reaches_past_api(&entry, &db));
    }

    /// `Shape[] v0 = new Shape[2]; v0[0] = ...`: a slot left empty is a `null` the test made; an
    /// `int[]` is never one, nor a reference array filled in every slot.
    #[test]
    fn a_reference_array_with_an_empty_slot_passes_null() {
        let shapes = JType::array_of(JType::class("p.Shape"));
        let mut t = TestCase::new();
        let a = t.push(Statement::NewArray { ty: shapes, length: 2 });
        let s = t.push(Statement::Constructor { ctor: ctor("p.Shape", Vec::new()), args: Vec::new() });
        t.push(Statement::ArrayStore { array: a, index: 0, value: s });
        assert!(may_pass_null(&t));
        t.push(Statement::ArrayStore { array: a, index: 1, value: s });
        assert!(!may_pass_null(&t));
        let mut ints = TestCase::new();
        ints.push(Statement::NewArray { ty: JType::array_of(int()), length: 3 });
        assert!(!may_pass_null(&ints));
        ints.push(Statement::Null(JType::object()));
        assert!(may_pass_null(&ints));
    }

    /// `int[] v0 = new int[1]; char v1 = c; U.at(v0, v1, v1)` (`at(int[], char, int)`) threw
    /// `ArrayIndexOutOfBoundsException` inside `U`: the `char` handed to the `int` parameter is an
    /// index, so `'<'` (60) is out of range and `'\0'` is not; the `char` parameter is no index.
    #[test]
    fn a_char_given_to_an_int_parameter_is_an_index() {
        let db = test_support::open_db(&[test_support::java_base_jmod()]);
        let probe = |c: i32| {
            let mut t = TestCase::new();
            let v0 = t.push(Statement::NewArray { ty: JType::array_of(int()), length: 1 });
            let v1 = t.push(Statement::Primitive(PrimValue::Char(c as u16)));
            let method = MethodRef {
                class: "p.U".into(),
                name: "at".into(),
                descriptor: "([ICI)I".into(),
                is_static: true,
                owner: JType::class("p.U"),
                params: vec![JType::array_of(int()), JType::Prim(PrimType::Char), int()],
                ret: Some(int()),
            };
            t.push(Statement::Method { method: Arc::new(method), receiver: None, args: vec![v0, v1, v1] });
            let threw = Outcome::Threw {
                class: "java.lang.ArrayIndexOutOfBoundsException".into(),
                message: String::new(),
                from_sut: true,
                thrown_in: "p.U.at".into(),
                top_frame: "p.U".into(),
            };
            let run = vec![
                Outcome::Value(Value::Array { class: "[I".into(), length: 1 }),
                Outcome::Value(Value::Char(c)),
                threw,
            ];
            inside(&t, &(run.clone(), run), &db, "p.U")
        };
        assert!(probe(60).is_none(), "'<' is index 60 of a one-element array");
        assert!(probe(0).is_some(), "'\\0' is index 0, in range");
    }

    #[test]
    fn an_index_is_in_range_of_the_shortest_array_or_string() {
        let arr = |n| Value::Array { class: "[I".into(), length: n };
        assert!(in_range(&[&arr(3)]));
        assert!(!in_range(&[&arr(0)]), "an empty array is out of range");
        assert!(in_range(&[&arr(3), &Value::Int(2)]));
        assert!(!in_range(&[&arr(3), &Value::Int(3)]));
        assert!(!in_range(&[&arr(3), &Value::Int(-1)]));
        assert!(!in_range(&[&Value::Int(0)]), "an int alone cannot be judged");
        assert!(in_range(&[&Value::String("ab".into()), &Value::Int(1)]));
    }
}
