//! Snapshot of what the accessors see in Java 17 fixture classes (names, descriptors, attribute
//! names, `Code` limits), refreshed with `UPDATE_EXPECT=1`.

use std::fmt::Write;
use std::path::Path;

use classfile::descriptor::{FieldType, MethodDescriptor};
use classfile::{ClassFile, ClassPath};
use expect_test::{Expect, expect};

fn check(class: &str, expect: Expect) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/classfile");
    let cp = ClassPath::open(&[dir]).unwrap();
    let cf = ClassFile::parse(&cp.class_bytes(class).unwrap().unwrap()).unwrap();
    expect.assert_eq(&summary(&cf));
}

fn summary(cf: &ClassFile) -> String {
    let pool = &cf.constant_pool;
    let attr_names = |attrs: &[classfile::Attribute]| {
        attrs
            .iter()
            .map(|a| pool.utf8(a.name_index).unwrap_or_default().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = String::new();
    let interfaces: Vec<_> = cf.interface_names().collect();
    writeln!(
        s,
        "class {} {}.{} flags {:#06x}",
        cf.name(),
        cf.major_version,
        cf.minor_version,
        cf.access_flags
    )
    .unwrap();
    writeln!(s, "  extends {:?} implements {interfaces:?}", cf.super_name()).unwrap();
    writeln!(s, "  attributes: {}", attr_names(&cf.attributes)).unwrap();
    for f in &cf.fields {
        let d = f.descriptor(pool).unwrap();
        let t = FieldType::parse(&d).unwrap();
        writeln!(
            s,
            "  field {} {d} slots={} [{}]",
            f.name(pool).unwrap(),
            t.slots(),
            attr_names(&f.attributes)
        )
        .unwrap();
    }
    for m in &cf.methods {
        let d = m.descriptor(pool).unwrap();
        let md = MethodDescriptor::parse(&d).unwrap();
        assert_eq!(md.to_string(), d);
        write!(
            s,
            "  method {}{d} params={} [{}]",
            m.name(pool).unwrap(),
            md.param_slots(),
            attr_names(&m.attributes)
        )
        .unwrap();
        if let Some(code) = m.code(pool) {
            let code = code.unwrap();
            write!(
                s,
                " stack={} locals={} len={} handlers={} code-attrs=[{}]",
                code.max_stack,
                code.max_locals,
                code.code.len(),
                code.exception_table.len(),
                attr_names(&code.attributes)
            )
            .unwrap();
        }
        s.push('\n');
    }
    s
}

#[test]
fn record_summary() {
    check(
        "classfile/Shapes$Rect",
        expect![[r#"
            class classfile/Shapes$Rect 61.0 flags 0x0031
              extends Some("java/lang/Record") implements ["classfile/Shapes"]
              attributes: SourceFile NestHost Record BootstrapMethods InnerClasses
              field width J slots=2 []
              field height J slots=2 []
              method <init>(JJ)V params=4 [Code MethodParameters] stack=3 locals=5 len=15 handlers=0 code-attrs=[LineNumberTable LocalVariableTable]
              method area()D params=0 [Code] stack=4 locals=1 len=12 handlers=0 code-attrs=[LineNumberTable LocalVariableTable]
              method toString()Ljava/lang/String; params=0 [Code] stack=1 locals=1 len=7 handlers=0 code-attrs=[LineNumberTable LocalVariableTable]
              method hashCode()I params=0 [Code] stack=1 locals=1 len=7 handlers=0 code-attrs=[LineNumberTable LocalVariableTable]
              method equals(Ljava/lang/Object;)Z params=1 [Code] stack=2 locals=2 len=8 handlers=0 code-attrs=[LineNumberTable LocalVariableTable]
              method width()J params=0 [Code] stack=2 locals=1 len=5 handlers=0 code-attrs=[LineNumberTable LocalVariableTable]
              method height()J params=0 [Code] stack=2 locals=1 len=5 handlers=0 code-attrs=[LineNumberTable LocalVariableTable]
        "#]],
    );
}

#[test]
fn try_with_resources_summary() {
    check(
        "classfile/Kinds",
        expect![[r#"
            class classfile/Kinds 61.0 flags 0x0021
              extends Some("java/lang/Object") implements []
              attributes: SourceFile NestMembers InnerClasses
              method <init>()V params=0 [Code] stack=1 locals=1 len=5 handlers=0 code-attrs=[LineNumberTable LocalVariableTable]
              method read(Ljava/lang/String;)I params=1 [Code Exceptions RuntimeVisibleAnnotations RuntimeVisibleTypeAnnotations] stack=3 locals=6 len=83 handlers=7 code-attrs=[LineNumberTable LocalVariableTable StackMapTable]
              method locked(Ljava/lang/Object;)V params=1 [Code] stack=2 locals=3 len=19 handlers=2 code-attrs=[LineNumberTable LocalVariableTable StackMapTable]
        "#]],
    );
}
