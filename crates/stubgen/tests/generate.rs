//! `generate` without a JVM: the layout of a small stub read back through `classfile` (flags,
//! members, limits and code bytes), determinism, and the errors of malformed specs. That the code
//! runs and verifies is `jvm.rs`'s job.

use std::fmt::Write as _;

use classfile::{ClassFile, Code};
use expect_test::{Expect, expect};
use stubgen::{StubError, StubSpec};

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|x| x.to_string()).collect()
}

fn pairs(xs: &[(&str, &str)]) -> Vec<(String, String)> {
    xs.iter().map(|(n, d)| (n.to_string(), d.to_string())).collect()
}

/// The class `generate` writes for `spec`, parsed back and printed: class flags, members with
/// their flags, and for each method its limits and code in hex.
fn check_layout(spec: &StubSpec<'_>, expect: Expect) {
    let bytes = stubgen::generate(spec).unwrap();
    let class = ClassFile::parse(&bytes).unwrap();
    let cp = &class.constant_pool;
    let mut out = format!(
        "{} {}.{} flags {:#06x} super {} interfaces {:?}\n",
        class.name(),
        class.major_version,
        class.minor_version,
        class.access_flags,
        class.super_name().unwrap_or_default(),
        class.interface_names().collect::<Vec<_>>(),
    );
    for f in &class.fields {
        writeln!(out, "field {:#06x} {} {}", f.access_flags, f.name(cp).unwrap(), f.descriptor(cp).unwrap())
            .unwrap();
    }
    for m in &class.methods {
        let code: Code = m.code(cp).unwrap().unwrap();
        let hex: Vec<String> = code.code.iter().map(|b| format!("{b:02x}")).collect();
        writeln!(
            out,
            "method {:#06x} {}{} stack {} locals {}\n  {}",
            m.access_flags,
            m.name(cp).unwrap(),
            m.descriptor(cp).unwrap(),
            code.max_stack,
            code.max_locals,
            hex.join(" ")
        )
        .unwrap();
    }
    expect.assert_eq(&out);
}

#[test]
fn layout_of_a_class_stub() {
    let interfaces = strings(&["java/lang/Runnable"]);
    let constructors = strings(&["(JLjava/lang/String;)V"]);
    let methods = pairs(&[("read", "()J"), ("put", "(DI)V"), ("name", "()Ljava/lang/String;")]);
    let spec = StubSpec {
        name: "a/Meter$SuitesmithStub",
        super_name: "a/Meter",
        interfaces: &interfaces,
        constructors: &constructors,
        methods: &methods,
        signature: None,
    };
    // <init>: aload_0 aload 4 putfield; aload_0 lload_1 aload_3 invokespecial; return.
    // read: aload_0 getfield iconst_0 aaload iconst_0 anewarray invokestatic checkcast
    //       invokevirtual lreturn; put boxes a double (slots 1-2) and an int (slot 3) with dup,
    //       index, load, valueOf, aastore, then pops the answer.
    check_layout(
        &spec,
        expect![[r#"
            a/Meter$SuitesmithStub 52.0 flags 0x1031 super a/Meter interfaces ["java/lang/Runnable"]
            field 0x0012 suitesmith$answers [Ljava/lang/Object;
            method 0x0001 <init>(JLjava/lang/String;[Ljava/lang/Object;)V stack 4 locals 5
              2a 19 04 b5 00 0b 2a 1f 2d b7 00 0f b1
            method 0x0001 read()J stack 2 locals 1
              2a b4 00 0b 03 32 03 bd 00 12 b8 00 18 c0 00 1a b6 00 1e ad
            method 0x0001 put(DI)V stack 6 locals 4
              2a b4 00 0b 04 32 05 bd 00 12 59 03 27 b8 00 25 53 59 04 1d b8 00 2a 53 b8 00 18 57 b1
            method 0x0001 name()Ljava/lang/String; stack 2 locals 1
              2a b4 00 0b 05 32 03 bd 00 12 b8 00 18 c0 00 2e b0
        "#]],
    );
}

#[test]
fn layout_of_an_interface_stub() {
    let interfaces = strings(&["a/Source"]);
    let constructors = strings(&["()V"]);
    let methods = pairs(&[("next", "()Ljava/lang/Object;"), ("all", "()[[I")]);
    let spec = StubSpec {
        name: "a/Source$SuitesmithStub",
        super_name: "java/lang/Object",
        interfaces: &interfaces,
        constructors: &constructors,
        methods: &methods,
        signature: None,
    };
    // `next` returns the answer as it is; `all` casts it to the array class `[[I`.
    check_layout(
        &spec,
        expect![[r#"
            a/Source$SuitesmithStub 52.0 flags 0x1031 super java/lang/Object interfaces ["a/Source"]
            field 0x0012 suitesmith$answers [Ljava/lang/Object;
            method 0x0001 <init>([Ljava/lang/Object;)V stack 2 locals 2
              2a 2b b5 00 0b 2a b7 00 0f b1
            method 0x0001 next()Ljava/lang/Object; stack 2 locals 1
              2a b4 00 0b 03 32 03 bd 00 04 b8 00 16 b0
            method 0x0001 all()[[I stack 2 locals 1
              2a b4 00 0b 04 32 03 bd 00 04 b8 00 16 c0 00 1a b0
        "#]],
    );
}

/// Equal specs give equal bytes, whether the spec is the same value or a fresh copy of it.
#[test]
fn generation_is_deterministic() {
    let interfaces = strings(&["a/I", "a/J"]);
    let constructors = strings(&["()V", "(IJLjava/lang/String;)V"]);
    let methods = pairs(&[("f", "(ZBCSIJFD)D"), ("g", "([J)[Ljava/lang/String;"), ("h", "()V")]);
    let spec = StubSpec {
        name: "a/B$SuitesmithStub",
        super_name: "a/B",
        interfaces: &interfaces,
        constructors: &constructors,
        methods: &methods,
        signature: None,
    };
    let first = stubgen::generate(&spec).unwrap();
    assert_eq!(stubgen::generate(&spec).unwrap(), first);
    let (interfaces2, constructors2, methods2) = (interfaces.clone(), constructors.clone(), methods.clone());
    let copy =
        StubSpec { interfaces: &interfaces2, constructors: &constructors2, methods: &methods2, ..spec };
    assert_eq!(stubgen::generate(&copy).unwrap(), first);
}

/// Method answer indices past `sipush`'s range are pushed with `ldc`, and the class still parses.
#[test]
fn many_methods_use_every_int_push() {
    let methods: Vec<(String, String)> = (0..33_000).map(|k| (format!("m{k}"), "()I".to_owned())).collect();
    let spec = StubSpec {
        name: "a/Many",
        super_name: "java/lang/Object",
        interfaces: &[],
        constructors: &strings(&["()V"]),
        methods: &methods,
        signature: None,
    };
    let class = ClassFile::parse(&stubgen::generate(&spec).unwrap()).unwrap();
    let cp = &class.constant_pool;
    // The opcode after `aload_0; getfield #x` pushes the index: iconst_0, bipush, sipush, ldc(_w).
    let push = |k: usize| class.methods[k + 1].code(cp).unwrap().unwrap().code[4];
    assert_eq!([push(0), push(6), push(128), push(32_768)], [0x03, 0x10, 0x11, 0x13]);
}

/// Each malformed spec gives its error, never a panic; the message names the stub and member.
fn check_error(constructors: &[&str], methods: &[(&str, &str)], names: (&str, &str), expect: Expect) {
    let (constructors, methods) = (strings(constructors), pairs(methods));
    let spec = StubSpec {
        name: names.0,
        super_name: names.1,
        interfaces: &[],
        constructors: &constructors,
        methods: &methods,
        signature: None,
    };
    let err: StubError = stubgen::generate(&spec).unwrap_err();
    expect.assert_eq(&err.to_string());
}

#[test]
fn malformed_specs_are_errors() {
    let ok = ("a/S", "a/B");
    check_error(
        &["()V"],
        &[("f", "(I")],
        ok,
        expect![[r#"stub a/S: f: bad descriptor "(I" at character 2"#]],
    );
    check_error(
        &["(Ljava/lang/String)V"],
        &[],
        ok,
        expect![[r#"stub a/S: <init>: bad descriptor "(Ljava/lang/String)V" at character 1"#]],
    );
    check_error(
        &["()I"],
        &[],
        ok,
        expect![[r#"stub a/S: constructor descriptor "()I" does not return void"#]],
    );
    check_error(
        &["()V"],
        &[("<init>", "()V")],
        ok,
        expect![[r#"stub a/S: method name "<init>" is not a valid JVM name"#]],
    );
    check_error(
        &["()V"],
        &[],
        ("a.S", "a/B"),
        expect![[r#"stub a.S: class name "a.S" is not a valid JVM name"#]],
    );
    check_error(
        &["()V"],
        &[],
        ("a/S", "a//B"),
        expect![[r#"stub a/S: superclass name "a//B" is not a valid JVM name"#]],
    );
    check_error(&["()V"], &[("f", "()V"), ("f", "()V")], ok, expect![[r#"stub a/S: f()V is listed twice"#]]);
    // 127 longs and the receiver are 255 slots, the limit; the answers array is one more.
    let wide = format!("({})V", "J".repeat(127));
    check_error(
        &[&wide],
        &[("f", &wide)],
        ok,
        expect![
            "stub a/S: <init>(JJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJ)V needs 256 parameter slots, more than 255"
        ],
    );
}

/// A name too long for a `Utf8` constant is the constant-pool error, not a panic.
#[test]
fn oversized_names_are_constant_pool_errors() {
    let name = "a".repeat(70_000);
    let spec = StubSpec {
        name: &name,
        super_name: "a/B",
        interfaces: &[],
        constructors: &strings(&["()V"]),
        methods: &[],
        signature: None,
    };
    let err = stubgen::generate(&spec).unwrap_err();
    assert!(matches!(err, StubError::ConstantPool { .. }), "{err:?}");
    assert!(
        err.to_string()
            .ends_with("string too long for a Utf8 constant: 70000 bytes of modified UTF-8 (limit 65535)")
    );
}
