//! Verdicts: what one run of a probe shows, and the minimal test that shows it. A probe whose
//! objects were not built (a statement before its calls did not give a value) shows nothing.

use protocol::{Outcome, Value};
use testcase::assertion::{Assertion, Check, Expected, JUnitTest, Rule, Subject};
use testcase::{PrimValue, Statement, TestCase, VarId};

use crate::ContractKind;
use crate::probe::{Look, Probe, in_cut};

/// A contract broken in one run, with its test (unnamed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub(crate) kind: ContractKind,
    pub(crate) message: String,
    pub(crate) test: JUnitTest,
}

fn value(o: &[Outcome], v: VarId) -> Option<&Value> {
    match o.get(v.index())? {
        Outcome::Value(x) => Some(x),
        _ => None,
    }
}

fn boolean(o: &[Outcome], v: VarId) -> Option<bool> {
    match value(o, v)? {
        Value::Bool(b) => Some(*b),
        _ => None,
    }
}

fn int(o: &[Outcome], v: VarId) -> Option<i32> {
    match value(o, v)? {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

/// The class of what statement `v` threw, if it threw.
fn threw(o: &[Outcome], v: VarId) -> Option<&str> {
    match o.get(v.index())? {
        Outcome::Threw { class, .. } => Some(class),
        _ => None,
    }
}

/// The class of what call `v` of `equals`, `hashCode` or `toString` threw, when that breaks the
/// contract: its receiver held an object in this run, and the exception's top frame is the class
/// under test or one nested in it (`cut`). A `null` receiver is the probe's own doing (a slice
/// that built the object otherwise than its test), and a throw from a superclass or a callee is
/// not the class's (the rule of the exceptions from inside, docs/contracts.md).
fn threw_inside<'a>(c: &TestCase, o: &'a [Outcome], v: VarId, cut: &str) -> Option<&'a str> {
    let Some(Statement::Method { receiver: Some(r), .. }) = c.statements.get(v.index()) else {
        return None;
    };
    if !matches!(value(o, *r)?, Value::Object { .. }) {
        return None;
    }
    match o.get(v.index())? {
        Outcome::Threw { class, top_frame, .. } if in_cut(top_frame, cut) => Some(class),
        _ => None,
    }
}

/// The case up to and including statement `v`.
fn upto(case: &TestCase, v: VarId) -> TestCase {
    let mut c = case.clone();
    c.statements.truncate(v.index() + 1);
    c
}

fn verdict(kind: ContractKind, message: String, test: JUnitTest) -> Option<Verdict> {
    Some(Verdict { kind, message, test })
}

/// A test that ends in the call that must not throw.
fn throws(kind: ContractKind, case: &TestCase, at: VarId, call: &str, class: &str) -> Option<Verdict> {
    verdict(kind, format!("{call} threw {class}"), JUnitTest::plain(upto(case, at)))
}

/// A test with the contract asserted after statement `after` (and `before`, plain assertions of
/// what leads to it).
fn contract(case: &TestCase, before: Vec<Assertion>, after: VarId, rule: Rule, message: &str) -> JUnitTest {
    let mut assertions = before;
    assertions.push(Assertion {
        after: after.index(),
        check: Check::Contract { rule, message: message.to_string() },
    });
    JUnitTest { assertions, ..JUnitTest::plain(upto(case, after)) }
}

/// `assertTrue(v)` after `v`: the premise of a contract (`x.equals(y)` before comparing hashes).
fn premise(v: VarId) -> Assertion {
    Assertion {
        after: v.index(),
        check: Check::Equals { subject: Subject::Var(v), value: Expected::Prim(PrimValue::Boolean(true)) },
    }
}

/// The first variable a look reads: everything before it must have run.
fn start(look: &Look) -> VarId {
    match look {
        Look::Reflexive { eq } | Look::NullFalse { eq } => *eq,
        Look::NoThrow { at, .. } | Look::Inside { at, .. } => *at,
        Look::Symmetric { a, .. } | Look::Antisymmetric { a, .. } => *a,
        Look::HashConsistent { eq, .. } => *eq,
        Look::CompareReflexive { c } | Look::CompareEquals { c, .. } => *c,
        Look::Iterator { has, .. } => *has,
    }
}

/// What one run of probe `p` shows, if it breaks a contract; `cut` is the class under test.
pub(crate) fn judge(p: &Probe, o: &[Outcome], cut: &str) -> Option<Verdict> {
    let first = start(&p.look).index();
    // `null` arguments run as values too; an object not built shows nothing.
    if o.len() < p.case.len() || !o[..first].iter().all(|x| matches!(x, Outcome::Value(_))) {
        return None;
    }
    let c = &p.case;
    let eq_threw = |v: VarId, call: &str| {
        threw_inside(c, o, v, cut).and_then(|k| throws(ContractKind::EqualsThrows, c, v, call, k))
    };
    match &p.look {
        Look::Reflexive { eq } => eq_threw(*eq, "x.equals(x)").or_else(|| {
            let m = "equals is not reflexive: x.equals(x) returned false";
            (!boolean(o, *eq)?).then(|| Verdict {
                kind: ContractKind::EqualsReflexive,
                message: "x.equals(x) returned false".into(),
                test: contract(c, Vec::new(), *eq, Rule::True(*eq), m),
            })
        }),
        Look::NullFalse { eq } => eq_threw(*eq, "x.equals(null)").or_else(|| {
            let m = "equals must be false on null: x.equals(null) returned true";
            boolean(o, *eq)?.then(|| Verdict {
                kind: ContractKind::EqualsNull,
                message: "x.equals(null) returned true".into(),
                test: contract(c, Vec::new(), *eq, Rule::False(*eq), m),
            })
        }),
        Look::NoThrow { at, kind } => {
            threw_inside(c, o, *at, cut).and_then(|k| throws(*kind, c, *at, &format!("x.{}()", p.method), k))
        }
        Look::Symmetric { a, b } => {
            eq_threw(*a, "x.equals(y)").or_else(|| eq_threw(*b, "y.equals(x)")).or_else(|| {
                let (x, y) = (boolean(o, *a)?, boolean(o, *b)?);
                let m = "equals is not symmetric: x.equals(y) differs from y.equals(x)";
                (x != y).then(|| Verdict {
                    kind: ContractKind::EqualsSymmetric,
                    message: format!("x.equals(y) returned {x}, y.equals(x) returned {y}"),
                    test: contract(c, Vec::new(), *b, Rule::Same(*a, *b), m),
                })
            })
        }
        Look::HashConsistent { eq, ha, hb } => hash_consistent(c, o, [*eq, *ha, *hb], cut),
        Look::CompareReflexive { c: at } => {
            let n = int(o, *at)?;
            let m = "compareTo is not reflexive: x.compareTo(x) is not 0";
            (n != 0).then(|| Verdict {
                kind: ContractKind::CompareToReflexive,
                message: format!("x.compareTo(x) returned {n}"),
                test: contract(c, Vec::new(), *at, Rule::Zero(*at), m),
            })
        }
        Look::Antisymmetric { a, b } => {
            let (x, y) = (int(o, *a)?, int(o, *b)?);
            let m =
                "compareTo is not antisymmetric: x.compareTo(y) and y.compareTo(x) must have opposite signs";
            (x.signum() != -y.signum()).then(|| Verdict {
                kind: ContractKind::CompareToAntisymmetric,
                message: format!("x.compareTo(y) returned {x}, y.compareTo(x) returned {y}"),
                test: contract(c, Vec::new(), *b, Rule::OppositeSigns(*a, *b), m),
            })
        }
        Look::CompareEquals { c: at, eq } => eq_threw(*eq, "x.equals(y)").or_else(|| {
            let (n, e) = (int(o, *at)?, boolean(o, *eq)?);
            let m = "compareTo is inconsistent with equals: x.compareTo(y) == 0 differs from x.equals(y)";
            ((n == 0) != e).then(|| Verdict {
                kind: ContractKind::CompareToEquals,
                message: format!("x.compareTo(y) returned {n}, x.equals(y) returned {e}"),
                test: contract(c, Vec::new(), *eq, Rule::ZeroWhenEqual { compared: *at, equal: *eq }, m),
            })
        }),
        Look::Iterator { has, next } => iterator(c, o, *has, *next),
        Look::Inside { at, class } => {
            let k = threw(o, *at).filter(|k| k == class)?;
            let kind = match k.rsplit('.').next() {
                Some("NullPointerException") => ContractKind::NullPointerInside,
                Some("ArrayIndexOutOfBoundsException") => ContractKind::IndexInside,
                _ => ContractKind::CastInside,
            };
            throws(kind, c, *at, &format!("{}(..) on arguments in range", p.method), k)
        }
    }
}

/// `x.equals(y)` true, yet the hash codes differ; or one of the calls threw from inside
/// ([`threw_inside`]). `calls` are `x.equals(y)`, `x.hashCode()` and `y.hashCode()`.
fn hash_consistent(c: &TestCase, o: &[Outcome], calls: [VarId; 3], cut: &str) -> Option<Verdict> {
    let [eq, ha, hb] = calls;
    if let Some(k) = threw_inside(c, o, eq, cut) {
        return throws(ContractKind::EqualsThrows, c, eq, "x.equals(y)", k);
    }
    for (h, call) in [(ha, "x.hashCode()"), (hb, "y.hashCode()")] {
        if let Some(k) = threw_inside(c, o, h, cut) {
            return throws(ContractKind::HashCodeThrows, c, h, call, k);
        }
    }
    let m = "hashCode is inconsistent with equals: x.equals(y) but x.hashCode() != y.hashCode()";
    (boolean(o, eq)? && int(o, ha)? != int(o, hb)?).then(|| Verdict {
        kind: ContractKind::HashCodeConsistent,
        message: "x.equals(y) returned true, x.hashCode() differs from y.hashCode()".into(),
        test: contract(c, vec![premise(eq)], hb, Rule::Same(ha, hb), m),
    })
}

/// `hasNext()` true and `next()` throwing `NoSuchElementException`, or `hasNext()` false and
/// `next()` returning.
fn iterator(c: &TestCase, o: &[Outcome], has: VarId, next: VarId) -> Option<Verdict> {
    let h = boolean(o, has)?;
    match (h, o.get(next.index())?) {
        (true, Outcome::Threw { class, .. }) if class == "java.util.NoSuchElementException" => {
            let mut test = JUnitTest::plain(upto(c, next));
            test.assertions.push(premise(has));
            verdict(
                ContractKind::IteratorHasNext,
                "hasNext() returned true, next() threw NoSuchElementException".into(),
                test,
            )
        }
        (false, Outcome::Value(_)) => {
            let m = "next() must throw NoSuchElementException once hasNext() is false, but it returned";
            verdict(
                ContractKind::IteratorNextPastEnd,
                "hasNext() returned false, next() returned".into(),
                contract(c, Vec::new(), next, Rule::True(has), m),
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use testcase::{JType, MethodRef};

    /// `A v0 = ...; v0.toString()` judged with `v0`'s value and where the exception came from.
    fn to_string_throws(receiver: Value, top_frame: &str) -> Option<Verdict> {
        let mut case = TestCase::new();
        let v0 = case.push(Statement::Null(JType::class("p.A")));
        let method = MethodRef {
            class: "p.A".into(),
            name: "toString".into(),
            descriptor: "()Ljava/lang/String;".into(),
            is_static: false,
            owner: JType::class("p.A"),
            params: Vec::new(),
            ret: Some(JType::string()),
        };
        let at =
            case.push(Statement::Method { method: Arc::new(method), receiver: Some(v0), args: Vec::new() });
        let look = Look::NoThrow { at, kind: ContractKind::ToStringThrows };
        let p = Probe { case, look, class: "p.A".into(), method: "toString".into() };
        let threw = Outcome::Threw {
            class: "java.lang.NullPointerException".into(),
            message: String::new(),
            from_sut: true,
            thrown_in: String::new(),
            top_frame: top_frame.into(),
        };
        judge(&p, &[Outcome::Value(receiver), threw], "p.A")
    }

    /// `toString` throwing counts only on an object, from the class under test or a class nested in
    /// it: not on `null` (the probe's call fails itself), nor from a superclass or the JDK.
    #[test]
    fn a_throw_counts_on_an_object_from_inside_only() {
        let object = || Value::Object { class: "p.A".into() };
        assert!(to_string_throws(object(), "p.A").is_some());
        assert!(to_string_throws(object(), "p.A$Node").is_some());
        assert!(to_string_throws(object(), "p.Base").is_none());
        assert!(to_string_throws(object(), "java.util.AbstractMap").is_none());
        assert!(to_string_throws(Value::Null, "p.A").is_none());
    }
}
