//! Naming over hand-built suites of a `Stack` class: the names as a snapshot, uniqueness and length
//! on a suite of look-alike tests, and equal names for equal suites.

use std::sync::Arc;

use expect_test::expect;
use testcase::{ConstructorRef, JType, MethodRef, PrimType, PrimValue, Statement, TestCase, VarId};

use super::{MAX_CHARS, ValueKind, names};
use crate::JUnitTest;

const CUT: &str = "example.Stack";

fn ctor(descriptor: &str, params: Vec<JType>, args: Vec<VarId>) -> Statement {
    let ctor =
        ConstructorRef { class: CUT.into(), descriptor: descriptor.into(), ty: JType::class(CUT), params };
    Statement::Constructor { ctor: Arc::new(ctor), args }
}

fn call(name: &str, descriptor: &str, receiver: VarId, args: Vec<VarId>, ret: Option<JType>) -> Statement {
    let params = args.iter().map(|_| JType::Prim(PrimType::Int)).collect();
    let method = MethodRef {
        class: CUT.into(),
        name: name.into(),
        descriptor: descriptor.into(),
        is_static: false,
        owner: JType::class(CUT),
        params,
        ret,
    };
    Statement::Method { method: Arc::new(method), receiver: Some(receiver), args }
}

/// One test: `new Stack()` (or `new Stack(n)`), then the calls named by `ops` (`push:N`, `pop`,
/// `size`, `isEmpty`), each call's value kind from `values`, the last throwing `throws` if given.
fn test(
    capacity: Option<i32>,
    ops: &[&str],
    values: &[Option<ValueKind>],
    throws: Option<&str>,
) -> (JUnitTest, Vec<Option<ValueKind>>) {
    let mut t = TestCase::new();
    let mut kinds = Vec::new();
    let s = match capacity {
        Some(n) => {
            let v = t.push(Statement::Primitive(PrimValue::Int(n)));
            kinds.push(None);
            t.push(ctor("(I)V", vec![JType::Prim(PrimType::Int)], vec![v]))
        }
        None => t.push(ctor("()V", Vec::new(), Vec::new())),
    };
    kinds.push(Some(ValueKind::NonNull));
    for (k, op) in ops.iter().enumerate() {
        let value = values.get(k).cloned().flatten();
        if let Some(x) = op.strip_prefix("push:") {
            let v = t.push(Statement::Primitive(PrimValue::Int(x.parse().expect("int"))));
            kinds.push(None);
            t.push(call("push", "(I)V", s, vec![v], None));
        } else if *op == "isEmpty" {
            t.push(call("isEmpty", "()Z", s, Vec::new(), Some(JType::Prim(PrimType::Boolean))));
        } else {
            t.push(call(op, "()I", s, Vec::new(), Some(JType::Prim(PrimType::Int))));
        }
        kinds.push(value);
    }
    let mut j = JUnitTest::plain(t);
    j.expected_exception = throws.map(str::to_string);
    (j, kinds)
}

fn name_all(suite: &[(JUnitTest, Vec<Option<ValueKind>>)]) -> Vec<String> {
    let tests: Vec<JUnitTest> = suite.iter().map(|(t, _)| t.clone()).collect();
    let values: Vec<Vec<Option<ValueKind>>> = suite.iter().map(|(_, v)| v.clone()).collect();
    names(CUT, &tests, &values)
}

fn stack_suite() -> Vec<(JUnitTest, Vec<Option<ValueKind>>)> {
    let ise = Some("java.lang.IllegalStateException");
    let neg = Some(ValueKind::Negative);
    let pos = Some(ValueKind::Positive);
    vec![
        test(None, &["pop"], &[], ise),
        test(Some(-1), &[], &[], Some("java.lang.IllegalArgumentException")),
        test(Some(0), &["push:1"], &[], ise),
        test(None, &["push:-3", "pop"], &[None, neg], None),
        test(None, &["push:7", "pop"], &[None, pos.clone()], None),
        test(None, &["size"], &[Some(ValueKind::Zero)], None),
        test(None, &["isEmpty"], &[Some(ValueKind::True)], None),
        test(None, &["push:2", "isEmpty"], &[None, Some(ValueKind::False)], None),
        test(Some(5), &["size"], &[Some(ValueKind::Zero)], None),
        test(Some(3), &["pop"], &[], ise),
        test(None, &["describe"], &[Some(ValueKind::Word("empty".into()))], None),
        // Alike but for the values pushed: told apart by them.
        test(None, &["push:3", "size"], &[None, pos.clone()], None),
        test(None, &["push:-5", "push:-5", "size"], &[None, None, pos.clone()], None),
        test(None, &["push:5", "push:3", "size"], &[None, None, pos.clone()], None),
        // Two facts alone in the suite, too long together: the later one names the test.
        test(None, &["properNumeratorOfThisStackNow", "longValueOfTheTopElementNow"], &[], None),
    ]
}

#[test]
fn a_stack_suite_is_named_after_what_each_test_alone_shows() {
    let got = name_all(&stack_suite()).join("\n");
    expect![[r#"
        testPopThrowsIllegalStateException0
        testCreatesStackWithIntThrowsIllegalArgumentException
        testPushThrowsIllegalStateException
        testPopReturningNegative
        testPopReturningPositive
        testCreatesStackWithNoArgumentsAndCallsSize
        testIsEmptyReturningTrue
        testIsEmptyReturningFalse
        testCreatesStackWithIntAndCallsSize
        testPopThrowsIllegalStateException1
        testDescribe
        testPushAndSize
        testPushTakingNegativeAndSize
        testPushWith5AndSize
        testLongValueOfTheTopElementNow"#]]
    .assert_eq(&got);
}

#[test]
fn look_alike_tests_get_unique_short_identifiers() {
    let suite: Vec<_> = (0..30).map(|k| test(None, &["push:1"; 3][..(k % 3) + 1], &[], None)).collect();
    let got = name_all(&suite);
    let distinct: std::collections::BTreeSet<&String> = got.iter().collect();
    assert_eq!(distinct.len(), got.len(), "{got:?}");
    for n in &got {
        assert!(n.len() <= MAX_CHARS && n.starts_with("test"), "{n}");
        assert!(n.chars().all(|c| c.is_ascii_alphanumeric()), "{n}");
    }
    expect!["testPush0, testPush1, testPush2"].assert_eq(&got[..3].join(", "));
}

#[test]
fn equal_suites_get_equal_names() {
    assert_eq!(name_all(&stack_suite()), name_all(&stack_suite()));
}

#[test]
fn enum_constants_and_chars_have_words() {
    assert_eq!(ValueKind::Word("DARK_RED".into()).word(), "DarkRed");
    assert_eq!(super::string_kind("full"), ValueKind::Word("full".into()));
    assert_eq!(super::string_kind("is full"), ValueKind::NonEmptyString);
    assert_eq!(ValueKind::of_char(u16::from(b'7')), ValueKind::Digit);
    assert_eq!(ValueKind::of_number(f64::NAN).word(), "NaN");
}
