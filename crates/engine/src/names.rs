//! The names of a class's tests before they are rendered (docs/tests.md): descriptive ones from
//! `junit::naming` over what each statement gave in the assertion runs, or numbered. Named once,
//! before verification, so the repair loop drops tests without renaming the others, and what is
//! written is what was verified.

use junit::JUnitTest;
use junit::naming::{TestNames, ValueKind, string_kind};
use protocol::{Outcome, Value};

/// `tests` with their names; `observed[t]` are the outcomes of test `t`'s statements (shorter or
/// empty when not known).
pub(crate) fn named(
    cut: &str,
    mut tests: Vec<JUnitTest>,
    observed: &[Vec<Outcome>],
    how: TestNames,
) -> Vec<JUnitTest> {
    if how == TestNames::Numbered {
        return tests;
    }
    let values: Vec<Vec<Option<ValueKind>>> = tests
        .iter()
        .enumerate()
        .map(|(t, test)| {
            let o = observed.get(t).map_or(&[][..], Vec::as_slice);
            (0..test.case.len()).map(|i| o.get(i).and_then(kind)).collect()
        })
        .collect();
    let names = junit::naming::names(cut, &tests, &values);
    for (t, n) in tests.iter_mut().zip(names) {
        t.name = Some(n);
    }
    tests
}

/// The kind of a statement's value; `None` for a void call, a throw or nothing.
fn kind(o: &Outcome) -> Option<ValueKind> {
    let Outcome::Value(v) = o else { return None };
    Some(match v {
        Value::Void => return None,
        Value::Null => ValueKind::Null,
        Value::Bool(b) => {
            if *b {
                ValueKind::True
            } else {
                ValueKind::False
            }
        }
        Value::Char(c) => ValueKind::of_char(*c as u16),
        Value::Byte(x) | Value::Short(x) | Value::Int(x) => ValueKind::of_number(f64::from(*x)),
        Value::Long(x) => ValueKind::of_number(x.signum() as f64),
        Value::Float(b) => ValueKind::of_number(f64::from(f32::from_bits(*b))),
        Value::Double(b) => ValueKind::of_number(f64::from_bits(*b)),
        Value::String(s) => string_kind(s),
        Value::Object { .. } => ValueKind::NonNull,
        Value::Array { length, .. } => {
            if *length == 0 {
                ValueKind::EmptyArray
            } else {
                ValueKind::NonEmptyArray
            }
        }
        Value::Enum { name, .. } => ValueKind::Word(name.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use testcase::{Statement, TestCase};

    #[test]
    fn values_have_the_kinds_names_use() {
        let kinds: Vec<Option<ValueKind>> = [
            Value::Void,
            Value::Null,
            Value::Bool(false),
            Value::Int(-3),
            Value::Long(0),
            Value::Double(f64::NAN.to_bits()),
            Value::Char('7' as i32),
            Value::String("full".into()),
            Value::String("is full".into()),
            Value::Array { class: "[I".into(), length: 0 },
            Value::Enum { class: "a.Kind".into(), name: "SCALENE".into() },
        ]
        .into_iter()
        .map(|v| kind(&Outcome::Value(v)))
        .collect();
        expect_test::expect![[r#"[None, Some(Null), Some(False), Some(Negative), Some(Zero), Some(NaN), Some(Digit), Some(Word("full")), Some(NonEmptyString), Some(EmptyArray), Some(Word("SCALENE"))]"#]]
        .assert_eq(&format!("{kinds:?}"));
    }

    /// Numbered leaves the names to the renderer; descriptive gives every test one.
    #[test]
    fn numbered_keeps_no_names_and_descriptive_names_every_test() {
        let mut case = TestCase::new();
        case.push(Statement::Primitive(testcase::PrimValue::Int(1)));
        let tests = vec![JUnitTest::plain(case.clone()), JUnitTest::plain(case)];
        let numbered = named("a.B", tests.clone(), &[], TestNames::Numbered);
        assert!(numbered.iter().all(|t| t.name.is_none()));
        let named = named("a.B", tests, &[], TestNames::Descriptive);
        let names: Vec<&str> = named.iter().filter_map(|t| t.name.as_deref()).collect();
        assert_eq!(names, ["test0", "test1"], "tests that call nothing of the class are numbered apart");
    }
}
