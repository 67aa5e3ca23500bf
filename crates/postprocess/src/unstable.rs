//! Which statements of a test hold a value that differs between runs or JVMs (the sources that
//! `testcase::assertion::unstable_from` follows): nothing computed from them is asserted.

use protocol::{Outcome, Value};
use testcase::{JType, Statement, TestCase, VarId};

use crate::assert::expected;
use crate::inspect::Inspectors;

/// The statements of a test (before `normal`, those that completed) whose own value differs between
/// the two runs or would differ in another JVM: what [`expected`] will not assert (time, a string
/// holding an identity hash), and the identity hash itself (`hashCode()` of a class that does not
/// override it, `System.identityHashCode`), the same in every worker (`-XX:hashCode=2`) but not in
/// the written test's JVM. What is computed from them is not asserted either.
pub(crate) fn sources(
    test: &TestCase,
    run1: &[Outcome],
    run2: &[Outcome],
    normal: usize,
    inspectors: &mut Inspectors,
) -> Vec<VarId> {
    let class_of = |r: &VarId| match run1.get(r.index()) {
        Some(Outcome::Value(Value::Object { class } | Value::Enum { class, .. })) => Some(class.clone()),
        _ => None,
    };
    let mut out = Vec::new();
    for i in 0..normal.min(run1.len()).min(run2.len()) {
        let st = &test.statements[i];
        if hands_identity_string(st, run1, inspectors) {
            out.push(VarId(i as u32));
            continue;
        }
        let (Some(ty), Outcome::Value(a), Outcome::Value(b)) = (st.value_type(), &run1[i], &run2[i]) else {
            continue;
        };
        if !matches!(st, Statement::Method { .. } | Statement::FieldGet { .. }) {
            continue;
        }
        let mut unstable = a != b;
        expected(a, &ty, &mut unstable);
        let identity = match st {
            Statement::Method { method, receiver: Some(r), .. }
                if method.name == "hashCode" && method.descriptor == "()I" =>
            {
                class_of(r).is_some_and(|c| inspectors.identity_hash_code(&c))
            }
            Statement::Method { method, receiver: None, .. } => {
                method.class == "java.lang.System" && method.name == "identityHashCode"
            }
            _ => false,
        };
        if unstable || identity {
            out.push(VarId(i as u32));
        }
    }
    out
}

/// Whether a builder's `append` or `insert` (`StringBuilder`'s, `StringBuffer`'s, a library's
/// own, the `Appendable` idiom) is handed an object whose `toString()` is `Object`'s (an array, or
/// a class that does not override it) as an `Object`: the builder then holds `Class@hash`, the
/// same in every worker (`-XX:hashCode=2`) but not in the written test's JVM, and what is computed
/// from it (a length, a distance) differs too. A call that returns the string itself needs no
/// rule: its value is refused as it is. Other calls taking an `Object` (`List.add`) do not print it.
fn hands_identity_string(st: &Statement, run1: &[Outcome], inspectors: &mut Inspectors) -> bool {
    let Statement::Method { method, args, .. } = st else { return false };
    if !matches!(method.name.as_str(), "append" | "insert") {
        return false;
    }
    args.iter().zip(&method.params).any(|(a, p)| {
        *p == JType::object()
            && match run1.get(a.index()) {
                Some(Outcome::Value(Value::Array { .. })) => true,
                Some(Outcome::Value(Value::Object { class })) => inspectors.identity_to_string(class),
                _ => false,
            }
    })
}
