//! Constant-pool behaviour: interning (dedup, append-only, two-slot entries, the 65535 limit),
//! every tag up to Java 21 through a write/parse cycle, and modified UTF-8 in real class files.

use std::path::Path;

use classfile::{ClassFile, ClassPathEntry, Constant, ConstantPool, Error, MemberKind, mutf8};

fn fixture(name: &str) -> ClassFile {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/classfile");
    let entry = ClassPathEntry::open(&dir).unwrap();
    let bytes = entry.class_files().map(Result::unwrap).find(|(n, _)| n == name).unwrap().1;
    ClassFile::parse(&bytes).unwrap()
}

/// A minimal class around `cp` whose `this_class` is `this_class`.
fn class_with(cp: ConstantPool, this_class: u16) -> ClassFile {
    ClassFile {
        minor_version: 0,
        major_version: 65,
        constant_pool: cp,
        access_flags: 0x0021,
        this_class,
        super_class: 0,
        interfaces: vec![],
        fields: vec![],
        methods: vec![],
        attributes: vec![],
    }
}

#[test]
fn interning_reuses_existing_entries_and_appends_new_ones() {
    let mut cf = fixture("classfile/Outer");
    let before = cf.constant_pool.clone();
    let n = before.len();
    let cp = &mut cf.constant_pool;

    // Entries javac already emitted are found, not duplicated.
    let obj = cp.intern_class("java/lang/Object").unwrap();
    assert_eq!(cp.class_name(obj).as_deref(), Some("java/lang/Object"));
    let init = cp.intern_methodref("java/lang/Object", "<init>", "()V").unwrap();
    assert_eq!(cp.len(), n);
    let r = cp.member_ref(init).unwrap();
    assert_eq!(
        (r.kind, &*r.class, &*r.name, &*r.descriptor),
        (MemberKind::Method, "java/lang/Object", "<init>", "()V")
    );

    // New entries go at the end; a second intern returns the same index.
    let probe = cp.intern_methodref("suitesmith/Probes", "hit", "(I)V").unwrap();
    assert!(usize::from(probe) >= n);
    assert_eq!(cp.intern_methodref("suitesmith/Probes", "hit", "(I)V").unwrap(), probe);
    let field = cp.intern_fieldref("suitesmith/Probes", "hits", "[J").unwrap();
    assert_eq!(cp.member_ref(field).unwrap().kind, MemberKind::Field);
    let imr = cp.intern_interface_methodref("java/util/List", "size", "()I").unwrap();
    assert_eq!(cp.member_ref(imr).unwrap().kind, MemberKind::InterfaceMethod);
    let s = cp.intern_string("probe \0 \u{1F600}").unwrap();
    assert!(matches!(cp.get(s), Some(Constant::String { .. })));

    // Long and Double take two slots; the second one is unusable.
    let before_long = cp.len();
    let l = cp.intern_long(i64::MIN).unwrap();
    assert_eq!(usize::from(l), before_long);
    assert_eq!(cp.len(), before_long + 2);
    assert_eq!(cp.get(l + 1), None);
    assert_eq!(cp.intern_long(i64::MIN).unwrap(), l);
    let d = cp.intern_double(-0.0).unwrap();
    assert_ne!(cp.intern_double(0.0).unwrap(), d, "doubles are interned by bits");
    let i = cp.intern_integer(7).unwrap();
    assert_eq!(cp.get(i), Some(&Constant::Integer(7)));
    let f = cp.intern_float(f32::NAN).unwrap();
    assert_eq!(cp.get(f), Some(&Constant::Float(f32::NAN.to_bits())));
    let nat = cp.intern_name_and_type("hit", "(I)V").unwrap();
    assert_eq!(
        cp.name_and_type(nat).map(|(a, b)| (a.into_owned(), b.into_owned())),
        Some(("hit".into(), "(I)V".into()))
    );

    // Old indices still hold what they held.
    for (idx, c) in before.iter() {
        assert_eq!(cf.constant_pool.get(idx), Some(c));
    }
    // The grown class writes and reads back to the same model.
    let bytes = cf.to_bytes();
    let back = ClassFile::parse(&bytes).unwrap();
    assert_eq!(back, cf);
    assert_eq!(
        back.constant_pool.utf8(string_utf8_index(&back.constant_pool, s)).as_deref(),
        Some("probe \0 \u{1F600}")
    );
}

/// The `Utf8` index a `String` constant points at.
fn string_utf8_index(cp: &ConstantPool, string_index: u16) -> u16 {
    match cp.get(string_index) {
        Some(Constant::String { string_index }) => *string_index,
        other => panic!("not a String: {other:?}"),
    }
}

#[test]
fn pool_limit_is_an_error() {
    let mut cp = ConstantPool::new();
    for i in 0..65533 {
        cp.intern_integer(i).unwrap();
    }
    // Slots 1..=65533 are used; count 65534. One more single-slot entry fits, a Long does not.
    assert_eq!(cp.len(), 65534);
    assert!(matches!(cp.intern_long(1), Err(Error::ConstantPoolFull { what: "Long" })));
    assert_eq!(cp.intern_integer(-1).unwrap(), 65534);
    assert!(matches!(cp.intern_utf8("x"), Err(Error::ConstantPoolFull { .. })));
    // A Utf8 entry holds at most 65535 bytes of modified UTF-8 (NUL takes two).
    let mut small = ConstantPool::new();
    assert!(small.intern_utf8(&"x".repeat(65535)).is_ok());
    let too_long = "\0".repeat(32768);
    assert!(matches!(small.intern_utf8(&too_long), Err(Error::StringTooLong { len: 65536 })));
    // Existing entries can still be interned when the pool is full.
    assert_eq!(cp.intern_integer(5).unwrap(), 6);
    assert_eq!(cp.len(), 65535);
}

#[test]
fn every_tag_survives_write_and_parse() {
    let mut cp = ConstantPool::new();
    let name = cp.intern_utf8("p/All").unwrap();
    let this = cp.push(Constant::Class { name_index: name }).unwrap();
    let nat = cp.intern_name_and_type("x", "I").unwrap();
    let all = [
        Constant::Integer(-1),
        Constant::Float(0x7FC0_0001),
        Constant::Long(-2),
        Constant::Double(0x7FF8_0000_0000_0001),
        Constant::String { string_index: name },
        Constant::Fieldref { class_index: this, name_and_type_index: nat },
        Constant::Methodref { class_index: this, name_and_type_index: nat },
        Constant::InterfaceMethodref { class_index: this, name_and_type_index: nat },
        Constant::MethodHandle { reference_kind: 6, reference_index: 7 },
        Constant::MethodType { descriptor_index: name },
        Constant::Dynamic { bootstrap_method_attr_index: 0, name_and_type_index: nat },
        Constant::InvokeDynamic { bootstrap_method_attr_index: 1, name_and_type_index: nat },
        Constant::Module { name_index: name },
        Constant::Package { name_index: name },
        Constant::Utf8(vec![0xED, 0xA0, 0x80]), // a lone surrogate: kept raw, decodes to None
    ];
    let idx: Vec<u16> = all.iter().map(|c| cp.push(c.clone()).unwrap()).collect();
    let cf = class_with(cp, this);
    let bytes = cf.to_bytes();
    let back = ClassFile::parse(&bytes).unwrap();
    assert_eq!(back, cf);
    assert_eq!(back.to_bytes(), bytes);
    for (i, c) in idx.iter().zip(&all) {
        assert_eq!(back.constant_pool.get(*i), Some(c));
    }
    assert_eq!(back.constant_pool.utf8(*idx.last().unwrap()), None);
    assert_eq!(back.name(), "p/All");
    assert_eq!(back.super_name(), None);

    // An unknown tag is an error with its position.
    let mut bad = bytes.clone();
    let first_tag_offset = 10;
    bad[first_tag_offset] = 2;
    assert!(matches!(ClassFile::parse(&bad), Err(Error::BadConstantTag { tag: 2, index: 1, offset: 10 })));
}

#[test]
fn modified_utf8_in_real_class_files() {
    let cf = fixture("classfile/Constants");
    let cp = &cf.constant_pool;
    let strings: Vec<String> = cp
        .iter()
        .filter_map(|(_, c)| match c {
            Constant::String { string_index } => cp.utf8(*string_index).map(|s| s.into_owned()),
            _ => None,
        })
        .collect();
    assert!(strings.contains(&"a\0b".to_string()), "{strings:?}");
    assert!(strings.contains(&"smile \u{1F600} \u{e9}\u{20ac}".to_string()), "{strings:?}");
    // javac wrote NUL as C0 80 and the emoji as a surrogate pair; encoding gives the same bytes.
    let raw: Vec<&[u8]> = cp.iter().filter_map(|(i, _)| cp.utf8_bytes(i)).collect();
    assert!(raw.contains(&&b"a\xC0\x80b"[..]));
    assert!(raw.contains(&&mutf8::encode("smile \u{1F600} \u{e9}\u{20ac}")[..]));
    assert!(raw.iter().all(|b| !b.contains(&0)), "MUTF-8 never contains a zero byte");
    // Long and Double constants take two slots in real files too.
    let wide = cp.iter().filter(|(_, c)| matches!(c, Constant::Long(_) | Constant::Double(_)));
    for (i, _) in wide {
        assert_eq!(cp.get(i + 1), None);
    }
    assert!(cf.field("BIG", "J").is_some());
    assert!(cf.method("classify", "(Ljava/lang/String;)I").is_some());
}
