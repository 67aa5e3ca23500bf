//! Test-model tests: printing of every statement kind, canonical bytes and hashing, insertion with
//! renumbering, the typing checks, and graceful deletion with repair.

use std::sync::Arc;

use expect_test::expect;
use testcase::types::{NoHierarchy, parse_field_type};
use testcase::validity::InvalidTest;
use testcase::{
    ConstructorRef, FieldRef, JType, MethodRef, PrimType, PrimValue, Statement, TestCase, VarId, check,
    remove_statement,
};

fn foo() -> JType {
    JType::class("pkg.Foo")
}

fn ctor(params: Vec<JType>) -> Arc<ConstructorRef> {
    let desc = format!("({})V", params.iter().map(JType::descriptor).collect::<String>());
    Arc::new(ConstructorRef { class: "pkg.Foo".into(), descriptor: desc, ty: foo(), params })
}

fn method(name: &str, is_static: bool, params: Vec<JType>, ret: Option<JType>) -> Arc<MethodRef> {
    let desc = format!(
        "({}){}",
        params.iter().map(JType::descriptor).collect::<String>(),
        ret.as_ref().map_or("V".to_string(), JType::descriptor)
    );
    Arc::new(MethodRef {
        class: "pkg.Foo".into(),
        name: name.into(),
        descriptor: desc,
        is_static,
        owner: foo(),
        params,
        ret,
    })
}

fn field(name: &str, is_static: bool, ty: JType) -> Arc<FieldRef> {
    Arc::new(FieldRef {
        class: "pkg.Foo".into(),
        name: name.into(),
        descriptor: ty.descriptor(),
        is_static,
        owner: foo(),
        ty,
    })
}

fn int() -> JType {
    JType::Prim(PrimType::Int)
}

/// One statement of every kind, every primitive type among them.
fn every_kind() -> TestCase {
    let mut t = TestCase::new();
    let i = t.push(Statement::Primitive(PrimValue::Int(-7)));
    t.push(Statement::Primitive(PrimValue::Boolean(true)));
    t.push(Statement::Primitive(PrimValue::Byte(-3)));
    t.push(Statement::Primitive(PrimValue::Char(b'\'' as u16)));
    t.push(Statement::Primitive(PrimValue::Short(300)));
    t.push(Statement::Primitive(PrimValue::Long(1 << 40)));
    t.push(Statement::Primitive(PrimValue::float(1.5)));
    t.push(Statement::Primitive(PrimValue::double(f64::NAN)));
    let s = t.push(Statement::String("a\"b\n\u{e9}".into()));
    let list = parse_field_type("Ljava/util/List<Ljava/lang/String;>;").unwrap();
    t.push(Statement::Null(list));
    t.push(Statement::EnumConstant { ty: JType::class("pkg.Color"), name: "RED".into() });
    let f = t.push(Statement::Constructor { ctor: ctor(vec![int(), JType::string()]), args: vec![i, s] });
    t.push(Statement::Method { method: method("run", false, vec![], None), receiver: Some(f), args: vec![] });
    t.push(Statement::Method {
        method: method("parse", true, vec![JType::string()], Some(int())),
        receiver: None,
        args: vec![s],
    });
    t.push(Statement::FieldGet { field: field("count", false, int()), receiver: Some(f) });
    t.push(Statement::FieldSet { field: field("LIMIT", true, int()), receiver: None, value: i });
    let arr = t.push(Statement::NewArray { ty: JType::array_of(JType::array_of(int())), length: 3 });
    let row = t.push(Statement::NewArray { ty: JType::array_of(int()), length: 2 });
    t.push(Statement::ArrayStore { array: arr, index: 1, value: row });
    t.push(Statement::ArrayLoad { array: row, index: 0, ty: int() });
    t.push(Statement::Copy { from: s, ty: JType::object() });
    t
}

#[test]
fn prints_every_kind() {
    let t = every_kind();
    expect![[r#"
        int v0 = -7;
        boolean v1 = true;
        byte v2 = (byte)-3;
        char v3 = '\'';
        short v4 = (short)300;
        long v5 = 1099511627776L;
        float v6 = 1.5F;
        double v7 = Double.NaN;
        String v8 = "a\"b\n\u00e9";
        List<String> v9 = null;
        Color v10 = Color.RED;
        Foo v11 = new Foo(v0, v8);
        v11.run();
        int v13 = Foo.parse(v8);
        int v14 = v11.count;
        Foo.LIMIT = v0;
        int[][] v16 = new int[3][];
        int[] v17 = new int[2];
        v16[1] = v17;
        int v19 = v17[0];
        Object v20 = v8;
    "#]]
    .assert_eq(&t.to_text());
    check(&t, &NoHierarchy).expect("well-typed");
    let tags: Vec<u8> = t.statements.iter().map(Statement::protocol_tag).collect();
    for tag in 0..=11u8 {
        assert!(tags.contains(&tag), "protocol tag {tag} not covered");
    }
}

#[test]
fn canonical_form_and_hash() {
    let a = every_kind();
    let b = a.clone();
    assert_eq!(a, b);
    assert_eq!(a.canonical_bytes(), b.canonical_bytes());
    assert_eq!(a.stable_hash(), b.stable_hash());
    let mut c = a.clone();
    c.statements[0] = Statement::Primitive(PrimValue::Int(-6));
    assert_ne!(a.canonical_bytes(), c.canonical_bytes());
    assert_ne!(a.stable_hash(), c.stable_hash());
    // -0.0 and 0.0 are different constants.
    let z =
        TestCase { statements: vec![Statement::Primitive(PrimValue::double(0.0))], ..TestCase::default() };
    let nz =
        TestCase { statements: vec![Statement::Primitive(PrimValue::double(-0.0))], ..TestCase::default() };
    assert_ne!(z, nz);
    assert_ne!(z.stable_hash(), nz.stable_hash());
}

#[test]
fn insert_renumbers_later_uses() {
    let mut t = every_kind();
    let v = t.insert(1, Statement::Primitive(PrimValue::Int(5)));
    assert_eq!(v, VarId(1));
    check(&t, &NoHierarchy).expect("still well-typed");
    assert!(t.to_text().contains("Foo v12 = new Foo(v0, v9);"));
}

#[test]
fn typing_violations() {
    let o = &NoHierarchy;
    let mut t = TestCase::new();
    let s = t.push(Statement::String("x".into()));
    t.push(Statement::Method {
        method: method("parse", true, vec![int()], Some(int())),
        receiver: None,
        args: vec![s],
    });
    assert!(matches!(check(&t, o), Err(InvalidTest::NotAssignable { stmt: 1, .. })));

    let mut t = TestCase::new();
    t.push(Statement::Copy { from: VarId(0), ty: int() });
    assert!(matches!(check(&t, o), Err(InvalidTest::ForwardUse { stmt: 0, .. })));

    let mut t = TestCase::new();
    let f = t.push(Statement::Constructor { ctor: ctor(vec![]), args: vec![] });
    let void = t.push(Statement::Method {
        method: method("run", false, vec![], None),
        receiver: Some(f),
        args: vec![],
    });
    t.push(Statement::Copy { from: void, ty: JType::object() });
    assert!(matches!(check(&t, o), Err(InvalidTest::VoidUse { stmt: 2, .. })));

    let mut t = TestCase::new();
    let a = t.push(Statement::NewArray { ty: JType::array_of(int()), length: 2 });
    let i = t.push(Statement::Primitive(PrimValue::Int(1)));
    t.push(Statement::ArrayStore { array: a, index: 2, value: i });
    assert_eq!(check(&t, o), Err(InvalidTest::IndexOutOfBounds { stmt: 2, index: 2, length: 2 }));

    // A primitive is never a receiver, even of a method declared on Object.
    let mut t = TestCase::new();
    let i = t.push(Statement::Primitive(PrimValue::Int(1)));
    let hash = Arc::new(MethodRef {
        class: "java.lang.Object".into(),
        name: "hashCode".into(),
        descriptor: "()I".into(),
        is_static: false,
        owner: JType::object(),
        params: vec![],
        ret: Some(int()),
    });
    t.push(Statement::Method { method: hash, receiver: Some(i), args: vec![] });
    assert!(matches!(check(&t, o), Err(InvalidTest::NotAssignable { stmt: 1, .. })));

    // A static call with a receiver is malformed.
    let mut t = TestCase::new();
    let f = t.push(Statement::Constructor { ctor: ctor(vec![]), args: vec![] });
    t.push(Statement::Method {
        method: method("parse", true, vec![], Some(int())),
        receiver: Some(f),
        args: vec![],
    });
    assert!(matches!(check(&t, o), Err(InvalidTest::Shape { stmt: 1, .. })));
}

#[test]
fn removal_repairs_or_drops_dependents() {
    let o = &NoHierarchy;
    // v0 and v1 are ints; removing v1 re-points its user at v0.
    let mut t = TestCase::new();
    let a = t.push(Statement::Primitive(PrimValue::Int(1)));
    let b = t.push(Statement::Primitive(PrimValue::Int(2)));
    let f = t.push(Statement::Constructor { ctor: ctor(vec![int()]), args: vec![b] });
    t.push(Statement::Method { method: method("run", false, vec![], None), receiver: Some(f), args: vec![] });
    let _ = a;
    assert_eq!(remove_statement(&mut t, 1, o), 1);
    check(&t, o).expect("repaired");
    expect![[r#"
        int v0 = 1;
        Foo v1 = new Foo(v0);
        v1.run();
    "#]]
    .assert_eq(&t.to_text());
    // Removing the only Foo removes the call on it too.
    assert_eq!(remove_statement(&mut t, 1, o), 2);
    check(&t, o).expect("still valid");
    assert_eq!(t.to_text(), "int v0 = 1;\n");
}

#[test]
fn inner_class_constructors_take_their_outer_instance_first() {
    let c = |class: &str, descriptor: &str| ConstructorRef {
        class: class.into(),
        descriptor: descriptor.into(),
        ty: JType::class(class),
        params: Vec::new(),
    };
    // An inner class: the outer instance comes first in the descriptor.
    assert!(c("a.b.Outer$Inner", "(La/b/Outer;I)V").takes_outer_instance(false));
    // Declared static (the InnerClasses attribute says so): an ordinary first parameter.
    assert!(!c("a.b.Outer$Inner", "(La/b/Outer;I)V").takes_outer_instance(true));
    // Nested two deep: the outer instance is the directly enclosing class.
    assert!(c("a.Outer$Mid$Inner", "(La/Outer$Mid;)V").takes_outer_instance(false));
    assert!(!c("a.Outer$Mid$Inner", "(La/Outer;)V").takes_outer_instance(false));
    // A top-level class, and a nested one whose first parameter is something else.
    assert!(!c("a.Outer", "(La/Outer;)V").takes_outer_instance(false));
    assert!(!c("a.Outer$Inner", "(I)V").takes_outer_instance(false));
    assert!(!c("a.Outer$Inner", "()V").takes_outer_instance(false));
}
