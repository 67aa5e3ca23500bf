//! The restore of the JVM's system properties that a test class gets when one of its tests changes
//! them ([`crate::JUnitTest::changes_system_properties`]): a snapshot taken when the class is
//! initialised, before its first test, and an `@After` (JUnit 4) / `@AfterEach` (JUnit 5) method
//! that puts it back. System properties are JVM-wide, so without it a later test of the class would
//! see what an earlier one set or cleared, and the tests would pass or fail by their order (the
//! workers restore them after every execution for the same reason, docs/protocol.md v16). EvoSuite's
//! scaffolding does the same. Classes whose tests leave the properties alone get none of this.
//!
//! The restore works in place: the JDK and the class under test may keep the `Properties` object,
//! so it stays the JVM's (put back if a test replaced it) and gets its entries back.

use crate::Style;
use crate::names::Names;

/// The classes the restore names, which the import table must know of.
pub(crate) fn classes(style: Style) -> [&'static str; 3] {
    [SYSTEM, PROPERTIES, after_annotation(style)]
}

const SYSTEM: &str = "java.lang.System";
const PROPERTIES: &str = "java.util.Properties";

fn after_annotation(style: Style) -> &'static str {
    match style {
        Style::JUnit4 => "org.junit.After",
        Style::JUnit5 => "org.junit.jupiter.api.AfterEach",
    }
}

/// The fields and the method, each line indented by `indent`, ending with the method's brace.
pub(crate) fn restore(names: &mut Names, style: Style, indent: &str) -> String {
    let (system, properties) = (names.class(SYSTEM), names.class(PROPERTIES));
    let after = names.class(after_annotation(style));
    let lines = [
        "// Some tests change system properties: each test's changes are undone after it.".to_string(),
        format!("private static final {properties} SYSTEM_PROPERTIES = {system}.getProperties();"),
        format!(
            "private static final {properties} SYSTEM_PROPERTIES_BEFORE = ({properties}) SYSTEM_PROPERTIES.clone();"
        ),
        String::new(),
        format!("@{after}"),
        "public void restoreSystemProperties() {".to_string(),
        // In place: the JDK and the class under test may hold on to the object.
        format!("{indent}{system}.setProperties(SYSTEM_PROPERTIES);"),
        format!("{indent}SYSTEM_PROPERTIES.keySet().retainAll(SYSTEM_PROPERTIES_BEFORE.keySet());"),
        format!("{indent}SYSTEM_PROPERTIES.putAll(SYSTEM_PROPERTIES_BEFORE);"),
        "}".to_string(),
    ];
    let mut out = String::new();
    for l in lines {
        if !l.is_empty() {
            out.push_str(indent);
            out.push_str(&l);
        }
        out.push('\n');
    }
    out
}
