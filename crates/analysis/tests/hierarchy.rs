//! The class hierarchy over real classpaths: guava and commons-lang3 from Debian, and the analysis
//! fixtures. Expectations were checked against the libraries' sources and javadoc.

use std::path::PathBuf;

use analysis::ClassHierarchy;
use classfile::ClassPath;
use expect_test::expect;

fn open(paths: &[&str]) -> ClassHierarchy {
    let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    let cp = ClassPath::open(&paths).expect("classpath opens");
    let (h, errors) = ClassHierarchy::from_classpath(&cp);
    assert!(errors.is_empty(), "{errors:?}");
    h
}

#[test]
fn guava_and_commons_lang() {
    let h = open(&["/usr/share/java/guava.jar", "/usr/share/java/commons-lang3.jar"]);
    assert!(h.len() > 2000, "{} classes", h.len());
    let list = "com/google/common/collect/ImmutableList";
    assert_eq!(h.superclass(list), Some("com/google/common/collect/ImmutableCollection"));
    assert!(h.is_subclass(list, "com/google/common/collect/ImmutableCollection"));
    assert!(h.is_subclass(list, "java/util/AbstractCollection"));
    assert!(!h.is_subclass(list, "java/util/List"), "an interface is not a superclass");
    assert!(h.is_subtype(list, "java/util/List"));
    assert!(h.is_subtype(list, "java/util/RandomAccess"));
    assert!(h.is_subtype(list, "java/lang/Object"));
    assert!(!h.is_subtype("java/util/List", list));
    // `java/util/List` is not on this classpath, but its known subtypes are.
    assert!(h.subtypes("java/util/List").contains(&"com/google/common/collect/ImmutableList"));

    let optional = h.subtypes("com/google/common/base/Optional");
    expect![[r#"
        [
            "com/google/common/base/Absent",
            "com/google/common/base/Present",
        ]
    "#]]
    .assert_debug_eq(&optional);
    let mutable = h.subtypes("org/apache/commons/lang3/mutable/Mutable");
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
    assert_eq!(h.get("org/apache/commons/lang3/mutable/Mutable").map(|c| c.is_interface()), Some(true));
}

#[test]
fn fixtures_and_first_definition_wins() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/classes/analysis");
    let h = open(&[dir]);
    assert!(h.is_subclass("analysis/Switches$Color", "java/lang/Enum"));
    // `java/lang/Enum` is not on this classpath, so its interfaces are unknown.
    assert!(!h.is_subtype("analysis/Switches$Color", "java/lang/Comparable"));
    expect![[r#"
        [
            "analysis/Switches$Color",
        ]
    "#]]
    .assert_debug_eq(&h.subtypes("java/lang/Enum"));
}
