//! `to_protocol` on a test using every statement kind of the test model (all fifteen protocol tags),
//! executed by a real worker against `examples/classes` (`example.Stack`, `example.Triangle`) and the
//! JDK (`java.awt.Point` for public instance fields, `Integer.MAX_VALUE` for a static one): every
//! statement's outcome is the one Java gives.

use std::sync::Arc;

use engine::{DEFAULT_CRITERIA, JvmProblem, to_protocol};
use protocol::{Outcome, Value};
use testcase::{
    ConstructorRef, FieldRef, JType, MethodRef, PrimType, PrimValue, ScratchFile, ScratchKind, Statement,
    StubMethod, StubRef, StubType, TestCase, VarId,
};

fn ctor(class: &str, descriptor: &str, params: Vec<JType>) -> Arc<ConstructorRef> {
    Arc::new(ConstructorRef {
        class: class.into(),
        descriptor: descriptor.into(),
        ty: JType::class(class),
        params,
    })
}

fn method(
    class: &str,
    name: &str,
    descriptor: &str,
    is_static: bool,
    params: Vec<JType>,
    ret: Option<JType>,
) -> Arc<MethodRef> {
    Arc::new(MethodRef {
        class: class.into(),
        name: name.into(),
        descriptor: descriptor.into(),
        is_static,
        owner: JType::class(class),
        params,
        ret,
    })
}

fn field(class: &str, name: &str, is_static: bool, ty: JType) -> Arc<FieldRef> {
    Arc::new(FieldRef {
        class: class.into(),
        name: name.into(),
        descriptor: ty.descriptor(),
        is_static,
        owner: JType::class(class),
        ty,
    })
}

const INT: JType = JType::Prim(PrimType::Int);

/// Every statement kind; the comment gives each variable's expected value.
fn every_kind() -> TestCase {
    let stack = JType::class("example.Stack");
    let kind = JType::class("example.Triangle$Kind");
    let mut t = TestCase::new();
    let three = t.push(Statement::Primitive(PrimValue::Int(3))); // v0 = 3
    let s =
        t.push(Statement::Constructor { ctor: ctor("example.Stack", "(I)V", vec![INT]), args: vec![three] }); // v1
    let seven = t.push(Statement::Primitive(PrimValue::Int(7))); // v2
    t.push(Statement::Method {
        method: method("example.Stack", "push", "(I)V", false, vec![INT], None),
        receiver: Some(s),
        args: vec![seven],
    }); // v3 void
    t.push(Statement::Method {
        method: method("example.Stack", "peek", "()I", false, vec![], Some(INT)),
        receiver: Some(s),
        args: vec![],
    }); // v4 = 7
    let text = t.push(Statement::String("a \"quoted\" é".into())); // v5
    t.push(Statement::Null(stack.clone())); // v6 null
    t.push(Statement::EnumConstant { ty: kind.clone(), name: "SCALENE".into() }); // v7
    t.push(Statement::FieldGet { field: field("java.lang.Integer", "MAX_VALUE", true, INT), receiver: None }); // v8
    let point = t.push(Statement::Constructor { ctor: ctor("java.awt.Point", "()V", vec![]), args: vec![] }); // v9
    t.push(Statement::FieldSet {
        field: field("java.awt.Point", "x", false, INT),
        receiver: Some(point),
        value: seven,
    }); // v10
    t.push(Statement::FieldGet { field: field("java.awt.Point", "x", false, INT), receiver: Some(point) }); // v11 = 7
    let arr = t.push(Statement::NewArray { ty: JType::array_of(INT), length: 2 }); // v12
    t.push(Statement::ArrayStore { array: arr, index: 1, value: three }); // v13
    t.push(Statement::ArrayLoad { array: arr, index: 1, ty: INT }); // v14 = 3
    t.push(Statement::Copy { from: s, ty: stack }); // v15
    t.push(Statement::Primitive(PrimValue::Long(-5))); // v16
    t.push(Statement::Primitive(PrimValue::double(-0.5))); // v17
    t.push(Statement::Primitive(PrimValue::Boolean(true))); // v18
    t.push(Statement::Method {
        method: method(
            "java.lang.String",
            "valueOf",
            "(Ljava/lang/Object;)Ljava/lang/String;",
            true,
            vec![JType::object()],
            Some(JType::string()),
        ),
        receiver: None,
        args: vec![text],
    }); // v19
    let four = t.push(Statement::Primitive(PrimValue::Int(4))); // v20
    let five = t.push(Statement::Primitive(PrimValue::Int(5))); // v21
    t.push(Statement::Method {
        method: method(
            "example.Triangle",
            "classify",
            "(III)Lexample/Triangle$Kind;",
            true,
            vec![INT, INT, INT],
            Some(kind),
        ),
        receiver: None,
        args: vec![three, four, five],
    }); // v22 = SCALENE
    t.push(Statement::Method {
        method: method("example.Stack", "pop", "()I", false, vec![], Some(INT)),
        receiver: Some(VarId(15)),
        args: vec![],
    }); // v23 = 7
    t.push(Statement::ClassLiteral { ty: JType::class("example.Stack") }); // v24 = Stack.class
    t.push(Statement::ClassLiteral { ty: INT }); // v25 = int.class
    t.push(Statement::ClassLiteral { ty: JType::array_of(JType::string()) }); // v26 = String[].class
    // A stub of `Supplier<String>` answering v5 once, then the default null (docs/stubs.md).
    let supplier = JType::class("java.util.function.Supplier");
    let stub = StubType {
        class: "java.util.function.Supplier".into(),
        is_interface: true,
        stub_class: "suitesmith.stubs.java_util_function_Supplier".into(),
        constructors: vec![("()V".into(), vec![])],
        methods: vec![StubMethod {
            name: "get".into(),
            descriptor: "()Ljava/lang/Object;".into(),
            params: vec![],
            ret: Some(JType::object()),
            java_params: vec![],
            java_ret: Some(JType::object()),
            runs_arguments: false,
            throw_bound: "java.lang.RuntimeException".into(),
        }],
    };
    let stub = Arc::new(StubRef {
        stub: Arc::new(stub),
        ty: supplier.clone(),
        ctor: 0,
        answer_types: vec![Some(JType::string())],
    });
    let sup = t.push(Statement::Stub { stub, args: vec![], answers: vec![vec![text]], throws: vec![None] }); // v27
    let get = || Statement::Method {
        method: method(
            "java.util.function.Supplier",
            "get",
            "()Ljava/lang/Object;",
            false,
            vec![],
            Some(JType::object()),
        ),
        receiver: Some(sup),
        args: vec![],
    };
    t.push(get()); // v28 = v5's string
    t.push(get()); // v29 = null: the answers are used up
    scratch_files(&mut t); // v30..v36
    t.push(Statement::Method {
        method: method("example.Stack", "pop", "()I", false, vec![], Some(INT)),
        receiver: Some(s),
        args: vec![],
    }); // v37 throws
    t.push(Statement::Primitive(PrimValue::Int(1))); // v38 not executed
    t
}

/// A file and a directory as a `Path` (docs/files.md), named by their place among the test's
/// scratch files: file0 and file1.
fn scratch_files(t: &mut TestCase) {
    let file = JType::class("java.io.File");
    let f0 = t.push(Statement::ScratchFile(ScratchFile {
        kind: ScratchKind::File,
        path: false,
        contents: "x\ny".into(),
    })); // v30
    t.push(Statement::Method {
        method: method("java.io.File", "length", "()J", false, vec![], Some(JType::Prim(PrimType::Long))),
        receiver: Some(f0),
        args: vec![],
    }); // v31 = 3
    let d1 = t.push(Statement::ScratchFile(ScratchFile {
        kind: ScratchKind::Directory,
        path: true,
        contents: "z".into(),
    })); // v32
    let d1f = t.push(Statement::Method {
        method: method("java.nio.file.Path", "toFile", "()Ljava/io/File;", false, vec![], Some(file.clone())),
        receiver: Some(d1),
        args: vec![],
    }); // v33
    let string = Some(JType::string());
    t.push(Statement::Method {
        method: method(
            "java.io.File",
            "list",
            "()[Ljava/lang/String;",
            false,
            vec![],
            Some(JType::Array(Box::new(JType::string()))),
        ),
        receiver: Some(d1f),
        args: vec![],
    }); // v34 = ["data.txt"]
    for f in [f0, d1f] {
        t.push(Statement::Method {
            method: method("java.io.File", "getName", "()Ljava/lang/String;", false, vec![], string.clone()),
            receiver: Some(f),
            args: vec![],
        }); // v35 = "file0", v36 = "file1"
    }
}

#[test]
fn every_statement_kind_runs_on_a_real_worker() {
    let test = every_kind();
    let tags: std::collections::BTreeSet<u8> = test.statements.iter().map(Statement::protocol_tag).collect();
    assert_eq!(tags.len(), 15, "the test uses every statement kind");
    let wire = to_protocol(&test);
    assert_eq!(wire.len(), test.len());

    let classes = test_support::workspace_root().join("examples/classes");
    let cp = [classes];
    let db = test_support::open_db(&cp);
    let mut problem =
        JvmProblem::with_db(&db, &cp, "example.Stack", &DEFAULT_CRITERIA, 1, 3000, engine::Extras::default())
            .expect("problem");
    let results = problem.execute(std::slice::from_ref(&test)).expect("execute");
    let r = &results[0];
    assert_eq!(r.status, exec::ExecStatus::Normal, "{r:?}");
    let obj = |c: &str| Outcome::Value(Value::Object { class: c.into() });
    let expected = vec![
        Outcome::Value(Value::Int(3)),
        obj("example.Stack"),
        Outcome::Value(Value::Int(7)),
        Outcome::Value(Value::Void),
        Outcome::Value(Value::Int(7)),
        Outcome::Value(Value::String("a \"quoted\" é".into())),
        Outcome::Value(Value::Null),
        Outcome::Value(Value::Enum { class: "example.Triangle$Kind".into(), name: "SCALENE".into() }),
        Outcome::Value(Value::Int(i32::MAX)),
        obj("java.awt.Point"),
        Outcome::Value(Value::Void),
        Outcome::Value(Value::Int(7)),
        Outcome::Value(Value::Array { class: "[I".into(), length: 2 }),
        Outcome::Value(Value::Void),
        Outcome::Value(Value::Int(3)),
        obj("example.Stack"),
        Outcome::Value(Value::Long(-5)),
        Outcome::Value(Value::Double((-0.5f64).to_bits())),
        Outcome::Value(Value::Bool(true)),
        Outcome::Value(Value::String("a \"quoted\" é".into())),
        Outcome::Value(Value::Int(4)),
        Outcome::Value(Value::Int(5)),
        Outcome::Value(Value::Enum { class: "example.Triangle$Kind".into(), name: "SCALENE".into() }),
        Outcome::Value(Value::Int(7)),
        obj("java.lang.Class"),
        obj("java.lang.Class"),
        obj("java.lang.Class"),
        obj("suitesmith.stubs.java_util_function_Supplier"),
        Outcome::Value(Value::String("a \"quoted\" é".into())),
        Outcome::Value(Value::Null),
        obj("java.io.File"),
        Outcome::Value(Value::Long(3)),
        obj("sun.nio.fs.UnixPath"),
        obj("java.io.File"),
        Outcome::Value(Value::Array { class: "[Ljava.lang.String;".into(), length: 1 }),
        Outcome::Value(Value::String("file0".into())),
        Outcome::Value(Value::String("file1".into())),
        Outcome::Threw {
            class: "java.lang.IllegalStateException".into(),
            message: "stack is empty".into(),
            from_sut: true,
            thrown_in: "example.Stack.pop".into(),
            top_frame: "example.Stack".into(),
        },
        Outcome::NotExecuted,
    ];
    for (i, (got, want)) in r.outcomes.iter().zip(&expected).enumerate() {
        assert_eq!(got, want, "statement {i}: {}", test.statements[i].protocol_tag());
    }
    assert_eq!(r.outcomes.len(), expected.len());
    // The trace reaches the CUT's probes: the fitness of some goals is 0.
    assert!(problem.fitness(&r.trace).contains(&0.0));
}

/// `outer.new Inner(..)` with a null outer instance throws `NullPointerException` before the
/// constructor runs, as javac's check does in the written test; reflection alone would pass the
/// null on (the worker built Spatial4j's `WKTReader.State` on a null reader, and the written tests
/// were dropped at verification). A static nested class taking its enclosing class as an ordinary
/// argument runs its constructor with the null.
#[test]
fn a_null_outer_instance_fails_the_inner_constructor_call() {
    let outer = JType::class("junit.Outer");
    let inner =
        ctor("junit.Outer$Inner", "(Ljunit/Outer;Ljava/lang/String;)V", vec![outer.clone(), JType::string()]);
    let nested = ctor("junit.Outer$Nested", "(Ljunit/Outer;)V", vec![outer.clone()]);
    let make = |with_outer: bool, k: &Arc<ConstructorRef>| {
        let mut t = TestCase::new();
        let o = if with_outer {
            let name = t.push(Statement::String("a".into()));
            t.push(Statement::Constructor {
                ctor: ctor("junit.Outer", "(Ljava/lang/String;)V", vec![JType::string()]),
                args: vec![name],
            })
        } else {
            t.push(Statement::Null(outer.clone()))
        };
        let mut args = vec![o];
        if k.params.len() == 2 {
            args.push(t.push(Statement::String("x".into())));
        }
        t.push(Statement::Constructor { ctor: k.clone(), args });
        t
    };
    let tests = [make(false, &inner), make(true, &inner), make(false, &nested)];
    let classes = test_support::fixture_classes("junit");
    let cp = [classes];
    let db = test_support::open_db(&cp);
    let mut problem =
        JvmProblem::with_db(&db, &cp, "junit.Outer", &DEFAULT_CRITERIA, 1, 3000, engine::Extras::default())
            .expect("problem");
    let results = problem.execute(&tests).expect("execute");
    let last = |i: usize| results[i].outcomes[tests[i].len() - 1].clone();
    let npe = |from_sut: bool, thrown_in: &str| Outcome::Threw {
        class: "java.lang.NullPointerException".into(),
        message: String::new(),
        from_sut,
        thrown_in: thrown_in.into(),
        top_frame: String::new(),
    };
    assert_eq!(last(0), npe(false, ""), "a null outer instance: {:?}", results[0]);
    assert_eq!(last(1), Outcome::Value(Value::Object { class: "junit.Outer$Inner".into() }));
    match last(2) {
        Outcome::Threw { class, from_sut: true, .. } => assert_eq!(class, "java.lang.NullPointerException"),
        other => panic!("the static nested class's constructor runs and throws: {other:?}"),
    }
}
