//! The class hierarchy over real classpaths: guava and commons-lang3 from Debian, and the analysis
//! fixtures (moved here from `analysis::ClassHierarchy`'s tests). Expectations were checked against
//! the libraries' sources and javadoc.

use std::path::PathBuf;

use expect_test::expect;
use programdb::{ClassId, ProgramDb};

fn open(paths: &[PathBuf]) -> ProgramDb {
    test_support::open_db(paths)
}

fn names(db: &ProgramDb, ids: &[ClassId]) -> Vec<String> {
    ids.iter().map(|&c| db.class_name(c).to_string()).collect()
}

#[test]
fn guava_and_commons_lang() {
    let db = open(&["/usr/share/java/guava.jar".into(), "/usr/share/java/commons-lang3.jar".into()]);
    assert!(db.class_ids().count() > 2000);
    let list = "com/google/common/collect/ImmutableList";
    let id = db.class_id(list).expect("on the classpath");
    assert_eq!(db.super_name(id), Some("com/google/common/collect/ImmutableCollection"));
    assert!(db.is_subclass(list, "com/google/common/collect/ImmutableCollection"));
    assert!(db.is_subclass(list, "java/util/AbstractCollection"));
    assert!(!db.is_subclass(list, "java/util/List"), "an interface is not a superclass");
    assert!(db.is_subtype(list, "java/util/List"));
    assert!(db.is_subtype(list, "java/util/RandomAccess"));
    assert!(db.is_subtype(list, "java/lang/Object"));
    assert!(!db.is_subtype("java/util/List", list));
    // `java/util/List` is not on this classpath, but its known subtypes are.
    assert!(db.subtypes("java/util/List").contains(&id));

    let optional = names(&db, &db.subtypes("com/google/common/base/Optional"));
    expect![[r#"
        [
            "com/google/common/base/Absent",
            "com/google/common/base/Present",
        ]
    "#]]
    .assert_debug_eq(&optional);
    let mutable = names(&db, &db.subtypes("org/apache/commons/lang3/mutable/Mutable"));
    expect![[r#"
        [
            "org/apache/commons/lang3/mutable/MutableBoolean",
            "org/apache/commons/lang3/mutable/MutableByte",
            "org/apache/commons/lang3/mutable/MutableDouble",
            "org/apache/commons/lang3/mutable/MutableFloat",
            "org/apache/commons/lang3/mutable/MutableInt",
            "org/apache/commons/lang3/mutable/MutableLong",
            "org/apache/commons/lang3/mutable/MutableObject",
            "org/apache/commons/lang3/mutable/MutableShort",
        ]
    "#]]
    .assert_debug_eq(&mutable);
    let mutable = db.class_id("org/apache/commons/lang3/mutable/Mutable").expect("on the classpath");
    assert!(db.is_interface(mutable));
    // The subtype lists parsed every class, each once.
    let (parsed_twice, decoded_twice) = db.repeated_work();
    assert!(parsed_twice.is_empty() && decoded_twice.is_empty());
    assert_eq!(db.stats().classes_parsed, db.class_ids().count());
}

#[test]
fn fixtures_and_first_definition_wins() {
    let db = open(&[test_support::fixture_classes("analysis")]);
    assert!(db.is_subclass("analysis/Switches$Color", "java/lang/Enum"));
    // `java/lang/Enum` is not on this classpath, so its interfaces are unknown.
    assert!(!db.is_subtype("analysis/Switches$Color", "java/lang/Comparable"));
    expect![[r#"
        [
            "analysis/Switches$Color",
        ]
    "#]]
    .assert_debug_eq(&names(&db, &db.subtypes("java/lang/Enum")));
}

#[test]
fn with_the_jdk_interfaces_are_known() {
    let db = open(&[test_support::fixture_classes("cluster"), test_support::java_base_jmod()]);
    assert!(db.is_subtype("cluster/Color", "java/lang/Comparable"));
    let dog = db.class_id("cluster/Dog").expect("fixture");
    let animal = db.class_id("cluster/Animal").expect("fixture");
    assert_eq!(db.superclass(dog), Some(animal));
    assert_eq!(db.superclass(animal), db.class_id("java/lang/Object"));
    // Walking up parsed only the classes on the way, not the JDK.
    assert!(db.stats().classes_parsed < 10, "{:?}", db.stats());
}

#[test]
fn application_subtypes_leave_the_jdk_unparsed() {
    use programdb::Within;
    let db = open(&[test_support::fixture_classes("cluster"), test_support::java_base_jmod()]);
    let enums = db.direct_subtypes_within("java/lang/Enum", Within::Application);
    assert_eq!(names(&db, enums), ["cluster/Color"]);
    let shapes = db.direct_subtypes_within("cluster/Shape", Within::Application);
    assert_eq!(names(&db, shapes), ["cluster/Circle", "cluster/Square"]);
    // Only the fixture classes were read (20 with `hidden`), not java.base.
    assert!(db.stats().classes_parsed <= 20, "{:?}", db.stats());
    // The whole classpath's index also knows the JDK's enums, and parses java.base for it.
    let all = db.direct_subtypes_within("java/lang/Enum", Within::Classpath);
    assert!(all.len() > 10 && names(&db, all).contains(&"java/lang/Thread$State".to_string()));
    assert_eq!(db.direct_subtypes("cluster/Shape"), shapes);
}
