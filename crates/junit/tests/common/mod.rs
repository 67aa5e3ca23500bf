//! Shared helpers of the junit tests: a builder of test cases over test clusters of the `junit` fixtures
//! (members looked up by name and JVM descriptor, instantiated by the cluster as the factory would),
//! the hand-written suites with their known outcomes, and javac/java runs of rendered classes.

#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use junit::{Assertion, Check, Expected, JUnitTest, Rendered, Subject};
use programdb::ProgramDb;
use testcase::cluster::CallableKind;
use testcase::{
    ClusterConfig, ConstructorRef, JType, MethodRef, PrimType, PrimValue, Statement, TestCase, TestCluster,
    TypeArg, VarId,
};

/// The program database over java.base and fixture areas, which clusters are built over as a run
/// builds them.
pub fn program_db(areas: &[&str]) -> ProgramDb {
    let mut paths = vec![test_support::java_base_jmod()];
    paths.extend(areas.iter().map(|a| test_support::fixture_classes(a)));
    test_support::open_db(&paths)
}

/// Test clusters of several classes under test, keyed by binary name.
pub struct Clusters(BTreeMap<String, TestCluster>);

impl Clusters {
    pub fn build(db: &ProgramDb, cuts: &[&str]) -> Clusters {
        Clusters(
            cuts.iter()
                .map(|c| {
                    let cl =
                        TestCluster::build_in(db, c, &ClusterConfig::evosuite()).expect("cluster builds");
                    (c.to_string(), cl)
                })
                .collect(),
        )
    }
}

/// Builds one test case; every call is a target of the named CUT's cluster.
pub struct B<'a> {
    cl: &'a Clusters,
    pub t: TestCase,
    pub assertions: Vec<Assertion>,
}

pub fn int(v: i32) -> PrimValue {
    PrimValue::Int(v)
}

impl<'a> B<'a> {
    pub fn new(cl: &'a Clusters) -> B<'a> {
        B { cl, t: TestCase::new(), assertions: Vec::new() }
    }

    pub fn prim(&mut self, v: PrimValue) -> VarId {
        self.t.push(Statement::Primitive(v))
    }

    pub fn str(&mut self, s: &str) -> VarId {
        self.t.push(Statement::String(s.to_string()))
    }

    pub fn null(&mut self, ty: JType) -> VarId {
        self.t.push(Statement::Null(ty))
    }

    pub fn push(&mut self, st: Statement) -> VarId {
        self.t.push(st)
    }

    fn find(
        &self,
        cut: &str,
        kind: CallableKind,
        name: &str,
        desc: &str,
    ) -> (&'a TestCluster, Arc<testcase::cluster::GenericCallable>) {
        let cl = self.cl.0.get(cut).unwrap_or_else(|| panic!("no cluster for {cut}"));
        let g = cl
            .targets()
            .iter()
            .find(|g| g.kind == kind && g.name == name && g.descriptor == desc)
            .unwrap_or_else(|| panic!("{cut} has no target {name}{desc}"));
        (cl, g.clone())
    }

    /// A constructor or method of `cut`, instantiated for the receiver's declared type.
    pub fn call(&mut self, cut: &str, name: &str, desc: &str, recv: Option<VarId>, args: &[VarId]) -> VarId {
        let kind = if name == "<init>" { CallableKind::Constructor } else { CallableKind::Method };
        let (cl, g) = self.find(cut, kind, name, desc);
        let recv_ty = recv.and_then(|r| self.t.var_type(r));
        let inst = cl.instantiate(&g, recv_ty.as_ref());
        self.t.push(inst.statement(recv, args.to_vec()))
    }

    pub fn get(&mut self, cut: &str, name: &str, desc: &str, recv: Option<VarId>) -> VarId {
        let (cl, g) = self.find(cut, CallableKind::FieldGet, name, desc);
        let recv_ty = recv.and_then(|r| self.t.var_type(r));
        let inst = cl.instantiate(&g, recv_ty.as_ref());
        self.t.push(inst.statement(recv, Vec::new()))
    }

    pub fn set(&mut self, cut: &str, name: &str, desc: &str, recv: Option<VarId>, value: VarId) -> VarId {
        let (cl, g) = self.find(cut, CallableKind::FieldSet, name, desc);
        let recv_ty = recv.and_then(|r| self.t.var_type(r));
        let inst = cl.instantiate(&g, recv_ty.as_ref());
        self.t.push(inst.statement(recv, vec![value]))
    }

    fn last(&self) -> usize {
        self.t.len() - 1
    }

    /// Asserts after the last statement so far.
    pub fn check(&mut self, check: Check) {
        let after = self.last();
        self.assertions.push(Assertion { after, check });
    }

    pub fn eq(&mut self, v: VarId, value: PrimValue) {
        self.check(Check::Equals { subject: Subject::Var(v), value: Expected::Prim(value) });
    }

    pub fn eq_str(&mut self, v: VarId, value: &str) {
        self.check(Check::Equals { subject: Subject::Var(v), value: Expected::String(value.to_string()) });
    }

    pub fn done(self) -> JUnitTest {
        JUnitTest { expected_exception: None, ..self.throws("") }
    }

    pub fn throws(self, exception: &str) -> JUnitTest {
        JUnitTest {
            case: self.t,
            assertions: self.assertions,
            expected_exception: Some(exception.to_string()),
            name: None,
            changes_system_properties: false,
        }
    }
}

fn class(name: &str) -> JType {
    JType::class(name)
}

fn generic(name: &str, arg: JType) -> JType {
    JType::Class { name: name.to_string(), args: vec![TypeArg::Exact(arg)] }
}

/// The hand-written suites: (class under test, tests), with outcomes known from the fixtures' code.
pub fn suites(cl: &Clusters) -> Vec<(&'static str, Vec<JUnitTest>)> {
    vec![
        ("junit.Prims", prims(cl)),
        ("junit.Outer", outer(cl)),
        ("junit.Color", color(cl)),
        ("junit.Box", boxes(cl)),
        ("junit.Thrower", thrower(cl)),
        ("junit.Test", named_test(cl)),
        ("junit.other.Date", date(cl)),
    ]
}

pub const CUTS: [&str; 10] = [
    "junit.Prims",
    "junit.Outer",
    "junit.Outer$Nested",
    "junit.Outer$Inner",
    "junit.Color",
    "junit.Box",
    "junit.Thrower",
    "junit.Test",
    "junit.other.Date",
    "java.util.Date",
];

const P: &str = "junit.Prims";

fn echo(cl: &Clusters, values: &[PrimValue]) -> JUnitTest {
    let mut b = B::new(cl);
    for &v in values {
        let x = b.prim(v);
        let c = v.ty().descriptor_char();
        let r = b.call(P, "echo", &format!("({c}){c}"), None, &[x]);
        b.eq(r, v);
    }
    b.done()
}

fn prims(cl: &Clusters) -> Vec<JUnitTest> {
    let mut tests = vec![
        echo(
            cl,
            &[int(i32::MIN), int(i32::MAX), PrimValue::Long(i64::MIN), PrimValue::Long(i64::MAX), int(-7)],
        ),
        echo(
            cl,
            &[
                PrimValue::Byte(-128),
                PrimValue::Byte(127),
                PrimValue::Short(-32768),
                PrimValue::Char(b'\'' as u16),
                PrimValue::Char(b'\\' as u16),
                PrimValue::Char(b'"' as u16),
                PrimValue::Char(0xe9),
                PrimValue::Char(b'\n' as u16),
                PrimValue::Char(0),
                PrimValue::Char(0xffff),
                PrimValue::Boolean(true),
                PrimValue::Boolean(false),
            ],
        ),
        echo(
            cl,
            &[
                PrimValue::float(f32::NAN),
                PrimValue::float(f32::NEG_INFINITY),
                PrimValue::float(-0.0),
                PrimValue::float(f32::from_bits(1)),
                PrimValue::float(f32::MAX),
                PrimValue::float(0.1),
                PrimValue::double(f64::NAN),
                PrimValue::double(f64::INFINITY),
                PrimValue::double(0.1),
                PrimValue::double(f64::MAX),
                PrimValue::double(f64::from_bits(1)),
                PrimValue::double(-1e-300),
            ],
        ),
    ];

    // Strings with quotes, backslashes, line breaks and non-ASCII text (BMP and a surrogate pair).
    let mut b = B::new(cl);
    let text = "a\"b'c\\d\ne\tf\rg\u{e9}\u{20ac}\u{1F600}/*x*/";
    let s = b.str(text);
    let r = b.call(P, "echo", "(Ljava/lang/String;)Ljava/lang/String;", None, &[s]);
    b.eq_str(r, text);
    let len = b.call(P, "length", "(Ljava/lang/String;)I", None, &[s]);
    b.eq(len, int(text.encode_utf16().count() as i32));
    let i = b.prim(int(1));
    let c = b.call(P, "charAt", "(Ljava/lang/String;I)C", None, &[s, i]);
    b.eq(c, PrimValue::Char(b'"' as u16));
    tests.push(b.done());

    // Overloads that only the static types of the arguments tell apart.
    let mut b = B::new(cl);
    let which = |b: &mut B, desc: &str, arg: VarId, want: &str| {
        let r = b.call(P, "which", &format!("({desc})Ljava/lang/String;"), None, &[arg]);
        b.eq_str(r, want);
    };
    let ns = b.null(JType::string());
    which(&mut b, "Ljava/lang/String;", ns, "String");
    which(&mut b, "Ljava/lang/Object;", ns, "Object");
    let ni = b.null(class("java.lang.Integer"));
    which(&mut b, "Ljava/lang/Integer;", ni, "Integer");
    let na = b.null(JType::array_of(JType::Prim(PrimType::Int)));
    which(&mut b, "[I", na, "int[]");
    let three = b.prim(int(3));
    which(&mut b, "I", three, "int");
    which(&mut b, "J", three, "long");
    which(&mut b, "Ljava/lang/Object;", three, "Object");
    which(&mut b, "Ljava/lang/Integer;", three, "Integer");
    // A negative constant cast to a reference type needs parentheses (JLS §15.16).
    let minus = b.prim(int(-3));
    which(&mut b, "Ljava/lang/Object;", minus, "Object");
    let minus_zero = b.prim(PrimValue::float(-0.0));
    which(&mut b, "Ljava/lang/Object;", minus_zero, "Object");
    // Widening of inlined constants: char to int, int to float (rounded), long to double.
    let a = b.prim(PrimValue::Char(b'a' as u16));
    let r = b.call(P, "echo", "(I)I", None, &[a]);
    b.eq(r, int(97));
    let odd = b.prim(int(16_777_217));
    let r = b.call(P, "echo", "(F)F", None, &[odd]);
    b.eq(r, PrimValue::float(16_777_216.0));
    let big = b.prim(PrimValue::Long((1 << 53) + 1));
    let r = b.call(P, "echo", "(D)D", None, &[big]);
    b.eq(r, PrimValue::double((1u64 << 53) as f64));
    tests.push(b.done());

    // Arrays: stores, loads, varargs, nested arrays, lengths and contents.
    let mut b = B::new(cl);
    let arr = b.push(Statement::NewArray { ty: JType::array_of(JType::Prim(PrimType::Int)), length: 3 });
    let five = b.prim(int(5));
    b.push(Statement::ArrayStore { array: arr, index: 0, value: five });
    let byte = b.prim(PrimValue::Byte(-2));
    b.push(Statement::ArrayStore { array: arr, index: 2, value: byte });
    let sum = b.call(P, "sum", "([I)I", None, &[arr]);
    b.eq(sum, int(3));
    b.check(Check::ArrayEquals {
        var: arr,
        values: vec![Expected::Prim(int(5)), Expected::Prim(int(0)), Expected::Prim(int(-2))],
    });
    let max = b.call(P, "max", "([I)I", None, &[arr]);
    b.eq(max, int(5));
    let strs = b.push(Statement::NewArray { ty: JType::array_of(JType::string()), length: 2 });
    let q = b.str("q\"");
    b.push(Statement::ArrayStore { array: strs, index: 0, value: q });
    let joined = b.call(P, "join", "([Ljava/lang/String;)Ljava/lang/String;", None, &[strs]);
    b.eq_str(joined, "q\"|null");
    let two = b.prim(int(2));
    let grid = b.call(P, "grid", "(I)[[I", None, &[two]);
    b.check(Check::ArrayLength { var: grid, length: 2 });
    let row = b.push(Statement::ArrayLoad {
        array: grid,
        index: 1,
        ty: JType::array_of(JType::Prim(PrimType::Int)),
    });
    b.check(Check::ArrayEquals { var: row, values: vec![Expected::Prim(int(0)), Expected::Prim(int(0))] });
    let cell = b.push(Statement::ArrayLoad { array: row, index: 0, ty: JType::Prim(PrimType::Int) });
    b.eq(cell, int(0));
    let doubles =
        b.push(Statement::NewArray { ty: JType::array_of(JType::Prim(PrimType::Double)), length: 1 });
    b.check(Check::ArrayEquals { var: doubles, values: vec![Expected::Prim(PrimValue::double(0.0))] });
    let empty = b.push(Statement::NewArray { ty: JType::array_of(JType::Prim(PrimType::Char)), length: 0 });
    b.check(Check::ArrayEquals { var: empty, values: vec![] });
    tests.push(b.done());

    // Instance members: fields, boxing returns, inspectors, identity and equality.
    let mut b = B::new(cl);
    let five = b.prim(int(5));
    let p = b.call(P, "<init>", "(I)V", None, &[five]);
    let three = b.prim(int(3));
    let added = b.call(P, "add", "(I)I", Some(p), &[three]);
    b.eq(added, int(8));
    let count = b.get(P, "count", "I", Some(p));
    b.eq(count, int(8));
    let one = b.prim(int(1));
    b.set(P, "count", "I", Some(p), one);
    let boxed = b.call(P, "boxed", "()Ljava/lang/Integer;", Some(p), &[]);
    b.eq(boxed, int(1));
    let obj = b.call(P, "asObject", "()Ljava/lang/Object;", Some(p), &[]);
    b.eq(obj, int(1));
    b.check(Check::NotNull(obj));
    b.check(Check::Equals {
        subject: Subject::Call { var: p, method: "toString".into(), ret: JType::string() },
        value: Expected::String("Prims(1)".into()),
    });
    let label = b.get(P, "label", "Ljava/lang/String;", None);
    b.eq_str(label, "none");
    let hist = b.get(P, "history", "[J", Some(p));
    b.check(Check::ArrayLength { var: hist, length: 2 });
    let big = b.prim(PrimValue::Long(1 << 40));
    b.push(Statement::ArrayStore { array: hist, index: 1, value: big });
    let h1 = b.push(Statement::ArrayLoad { array: hist, index: 1, ty: JType::Prim(PrimType::Long) });
    b.eq(h1, PrimValue::Long(1 << 40));
    let copy = b.push(Statement::Copy { from: p, ty: JType::object() });
    b.check(Check::Same(p, copy));
    b.check(Check::ObjectsEqual { a: p, b: copy, equal: true });
    let other = b.call(P, "<init>", "()V", None, &[]);
    b.check(Check::NotSame(p, other));
    b.check(Check::ObjectsEqual { a: p, b: other, equal: false });
    let nothing = b.null(class(P));
    b.check(Check::Null(nothing));
    tests.push(b.done());
    tests
}

const O: &str = "junit.Outer";

fn outer(cl: &Clusters) -> Vec<JUnitTest> {
    let mut tests = Vec::new();
    let mut b = B::new(cl);
    let name = b.str("o");
    let o = b.call(O, "<init>", "(Ljava/lang/String;)V", None, &[name]);
    let t = b.prim(PrimValue::Boolean(true));
    let mode = b.call(O, "mode", "(Z)Ljunit/Outer$Mode;", Some(o), &[t]);
    let fast = b.call(O, "speed", "(Ljunit/Outer$Mode;)I", None, &[mode]);
    b.eq(fast, int(10));
    let slow = b.push(Statement::EnumConstant { ty: class("junit.Outer$Mode"), name: "SLOW".into() });
    let s = b.call(O, "speed", "(Ljunit/Outer$Mode;)I", None, &[slow]);
    b.eq(s, int(1));
    b.check(Check::NotSame(mode, slow));
    tests.push(b.done());

    let mut b = B::new(cl);
    let four = b.prim(int(4));
    let n = b.call("junit.Outer$Nested", "<init>", "(I)V", None, &[four]);
    let twice = b.call("junit.Outer$Nested", "twice", "()I", Some(n), &[]);
    b.eq(twice, int(8));
    let v = b.get("junit.Outer$Nested", "value", "I", Some(n));
    b.eq(v, int(4));
    tests.push(b.done());

    let mut b = B::new(cl);
    let name = b.str("o");
    let o = b.call(O, "<init>", "(Ljava/lang/String;)V", None, &[name]);
    let x = b.str("x");
    let inner = b.call("junit.Outer$Inner", "<init>", "(Ljunit/Outer;Ljava/lang/String;)V", None, &[o, x]);
    let d = b.call("junit.Outer$Inner", "describe", "()Ljava/lang/String;", Some(inner), &[]);
    b.eq_str(d, "o/x");
    // Static nested, with the enclosing class as its first parameter: `new Outer.Nested(outer0)`.
    let from = b.call("junit.Outer$Nested", "<init>", "(Ljunit/Outer;)V", None, &[o]);
    let v = b.get("junit.Outer$Nested", "value", "I", Some(from));
    b.eq(v, int(1));
    tests.push(b.done());

    let mut b = B::new(cl);
    let none = b.null(class("junit.Outer$Mode"));
    b.call(O, "speed", "(Ljunit/Outer$Mode;)I", None, &[none]);
    b.check(Check::Null(none));
    tests.push(b.throws("junit.Outer$Failure"));
    tests
}

fn color(cl: &Clusters) -> Vec<JUnitTest> {
    let mut b = B::new(cl);
    let blue = b.push(Statement::EnumConstant { ty: class("junit.Color"), name: "BLUE".into() });
    let next = b.call("junit.Color", "next", "()Ljunit/Color;", Some(blue), &[]);
    let red = b.push(Statement::EnumConstant { ty: class("junit.Color"), name: "RED".into() });
    b.check(Check::Same(next, red));
    b.check(Check::ObjectsEqual { a: next, b: blue, equal: false });
    b.check(Check::Equals {
        subject: Subject::Call { var: next, method: "ordinal".into(), ret: JType::Prim(PrimType::Int) },
        value: Expected::Prim(int(0)),
    });
    vec![b.done()]
}

const BOX: &str = "junit.Box";

fn boxes(cl: &Clusters) -> Vec<JUnitTest> {
    let mut tests = Vec::new();
    // A hand-instantiated `new Box<String>(v)`: the cluster would close T to Object.
    let mut b = B::new(cl);
    let v = b.str("v");
    let box_string = generic(BOX, JType::string());
    let bx = b.push(Statement::Constructor {
        ctor: Arc::new(ConstructorRef {
            class: BOX.into(),
            descriptor: "(Ljava/lang/Object;)V".into(),
            ty: box_string.clone(),
            params: vec![JType::string()],
        }),
        args: vec![v],
    });
    let got = b.call(BOX, "get", "()Ljava/lang/Object;", Some(bx), &[]);
    b.eq_str(got, "v");
    let list = b.call(BOX, "asList", "()Ljava/util/List;", Some(bx), &[]);
    b.check(Check::Equals {
        subject: Subject::Call { var: list, method: "size".into(), ret: JType::Prim(PrimType::Int) },
        value: Expected::Prim(int(1)),
    });
    let zero = b.prim(int(0));
    let first = b.push(Statement::Method {
        method: Arc::new(MethodRef {
            class: "java.util.List".into(),
            name: "get".into(),
            descriptor: "(I)Ljava/lang/Object;".into(),
            is_static: false,
            owner: generic("java.util.List", JType::string()),
            params: vec![JType::Prim(PrimType::Int)],
            ret: Some(JType::string()),
        }),
        receiver: Some(list),
        args: vec![zero],
    });
    b.eq_str(first, "v");
    let none = b.null(JType::string());
    b.call(BOX, "set", "(Ljava/lang/Object;)V", Some(bx), &[none]);
    let empty = b.call(BOX, "isEmpty", "()Z", Some(bx), &[]);
    b.eq(empty, PrimValue::Boolean(true));
    tests.push(b.done());

    let mut b = B::new(cl);
    let seven = b.prim(int(7));
    let of = b.call(BOX, "of", "(Ljava/lang/Object;)Ljunit/Box;", None, &[seven]);
    let got = b.call(BOX, "get", "()Ljava/lang/Object;", Some(of), &[]);
    b.eq(got, int(7));
    b.check(Check::Equals {
        subject: Subject::Call { var: of, method: "isEmpty".into(), ret: JType::Prim(PrimType::Boolean) },
        value: Expected::Prim(PrimValue::Boolean(false)),
    });
    tests.push(b.done());

    let mut b = B::new(cl);
    let a = b.str("a");
    let z = b.str("b");
    let m = b.call(
        BOX,
        "max",
        "(Ljava/lang/Comparable;Ljava/lang/Comparable;)Ljava/lang/Comparable;",
        None,
        &[a, z],
    );
    b.eq_str(m, "b");
    tests.push(b.done());

    // A raw receiver: `Box` without type arguments, whose `get` is `Object` in Java.
    let mut b = B::new(cl);
    let raw = b.call(BOX, "<init>", "()V", None, &[]);
    let got = b.call(BOX, "get", "()Ljava/lang/Object;", Some(raw), &[]);
    b.check(Check::Null(got));
    tests.push(b.done());
    tests
}

const T: &str = "junit.Thrower";

fn thrower(cl: &Clusters) -> Vec<JUnitTest> {
    let mut tests = Vec::new();
    let mut b = B::new(cl);
    let t = b.call(T, "<init>", "()V", None, &[]);
    let five = b.prim(int(5));
    // Placed after a constant that is inlined: the assertion must still be written.
    b.check(Check::NotNull(t));
    let r = b.call(T, "check", "(I)I", Some(t), &[five]);
    b.eq(r, int(5));
    let calls = b.get(T, "calls", "I", Some(t));
    b.eq(calls, int(1));
    tests.push(b.done());

    let mut b = B::new(cl);
    let t = b.call(T, "<init>", "()V", None, &[]);
    let neg = b.prim(int(-1));
    b.call(T, "check", "(I)I", Some(t), &[neg]);
    // Where the exception came from and its message, then the state it left; a named method.
    b.check(Check::ThrownFrom(T.into()));
    b.check(Check::ThrownMessage("negative: -1".into()));
    b.check(Check::NotNull(t));
    let mut named = b.throws("java.lang.IllegalArgumentException");
    named.name = Some("testCheckTakingNegativeThrowsIllegalArgumentException".into());
    tests.push(named);

    let mut b = B::new(cl);
    let e = b.str("");
    b.call(T, "read", "(Ljava/lang/String;)I", None, &[e]);
    b.check(Check::ThrownMessage("no path".into()));
    tests.push(b.throws("java.io.IOException"));

    let mut b = B::new(cl);
    let n = b.null(JType::string());
    b.call(T, "read", "(Ljava/lang/String;)I", None, &[n]);
    tests.push(b.throws("java.lang.Throwable"));

    let mut b = B::new(cl);
    b.call(T, "boom", "()V", None, &[]);
    tests.push(b.throws("java.lang.Error"));

    let mut b = B::new(cl);
    let three = b.prim(int(3));
    b.call(T, "oops", "(I)V", None, &[three]);
    tests.push(b.throws("junit.other.Oops"));

    let mut b = B::new(cl);
    let why = b.str("why");
    b.call(T, "fail", "(Ljava/lang/String;)V", None, &[why]);
    tests.push(b.throws("junit.Outer$Failure"));

    let mut b = B::new(cl);
    let one = b.prim(int(1));
    let zero = b.prim(int(0));
    b.call(T, "divide", "(II)I", None, &[one, zero]);
    b.eq(one, int(1));
    tests.push(b.throws("java.lang.ArithmeticException"));

    // A field read that throws: a NullPointerException on a null receiver (not a statement
    // expression, so JUnit 5 needs a block lambda).
    let mut b = B::new(cl);
    let n = b.null(class(T));
    b.get(T, "calls", "I", Some(n));
    tests.push(b.throws("java.lang.NullPointerException"));
    tests
}

fn named_test(cl: &Clusters) -> Vec<JUnitTest> {
    let mut b = B::new(cl);
    let t = b.call("junit.Test", "<init>", "()V", None, &[]);
    let r1 = b.call("junit.Test", "run", "()I", Some(t), &[]);
    b.eq(r1, int(1));
    let r2 = b.call("junit.Test", "run", "()I", Some(t), &[]);
    b.eq(r2, int(2));
    vec![b.done()]
}

const D: &str = "junit.other.Date";

fn date(cl: &Clusters) -> Vec<JUnitTest> {
    let mut b = B::new(cl);
    let ms = b.prim(PrimValue::Long(1000));
    let d = b.call(D, "<init>", "(J)V", None, &[ms]);
    let t = b.call(D, "time", "()J", Some(d), &[]);
    b.eq(t, PrimValue::Long(1000));
    let u = b.call(D, "toUtil", "()Ljava/util/Date;", Some(d), &[]);
    b.check(Check::Equals {
        subject: Subject::Call { var: u, method: "getTime".into(), ret: JType::Prim(PrimType::Long) },
        value: Expected::Prim(PrimValue::Long(1000)),
    });
    let back = b.call(D, "fromUtil", "(Ljava/util/Date;)Ljunit/other/Date;", None, &[u]);
    let t2 = b.call(D, "time", "()J", Some(back), &[]);
    b.eq(t2, PrimValue::Long(1000));
    let epoch = b.prim(PrimValue::Long(0));
    let ud = b.call("java.util.Date", "<init>", "(J)V", None, &[epoch]);
    let back0 = b.call(D, "fromUtil", "(Ljava/util/Date;)Ljunit/other/Date;", None, &[ud]);
    let t0 = b.call(D, "time", "()J", Some(back0), &[]);
    b.eq(t0, PrimValue::Long(0));
    vec![b.done()]
}

/// The JDK's tools.
pub fn tool(name: &str) -> PathBuf {
    test_support::java_home().join("bin").join(name)
}

pub const JUNIT4_CP: &[&str] = &["/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"];
/// The console launcher bundles the Jupiter API and engine, the platform, opentest4j and apiguardian.
pub const JUNIT5_STANDALONE: &str = "/usr/share/java/junit-platform-console-standalone.jar";

pub fn join_cp(parts: &[PathBuf]) -> String {
    std::env::join_paths(parts).expect("classpath joins").to_string_lossy().into_owned()
}

/// Writes rendered classes under `dir/src` and compiles them into `dir/classes`; returns javac's
/// diagnostics on failure.
pub fn compile(dir: &Path, rendered: &[Rendered], cp: &[PathBuf]) -> Result<PathBuf, String> {
    let src = dir.join("src");
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).expect("classes dir");
    let mut files = Vec::new();
    for r in rendered {
        let path = src.join(r.relative_path());
        std::fs::create_dir_all(path.parent().expect("parent")).expect("src dir");
        std::fs::write(&path, &r.source).expect("write source");
        files.push(path);
    }
    // C1 only: these JVMs live for seconds, where the optimising compiler does not pay off.
    let out = Command::new(tool("javac"))
        .arg("-J-XX:TieredStopAtLevel=1")
        .arg("-nowarn")
        .arg("-encoding")
        .arg("US-ASCII")
        .arg("-d")
        .arg(&classes)
        .arg("-cp")
        .arg(join_cp(cp))
        .args(&files)
        .output()
        .expect("javac runs");
    if out.status.success() {
        Ok(classes)
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}

/// Runs `java` and returns (success, stdout + stderr).
pub fn java(args: &[String]) -> (bool, String) {
    let out =
        Command::new(tool("java")).arg("-XX:TieredStopAtLevel=1").args(args).output().expect("java runs");
    (
        out.status.success(),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
    )
}
