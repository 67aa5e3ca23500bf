//! The assertion model: a test case with the checks written after its statements and the exception
//! its last statement is expected to throw. It sits beside the test model so that `postprocess`,
//! which chooses assertions, and `junit`, which writes them as Java, share it without one depending
//! on the other. It is data only: no rendering, no execution.

use crate::{JType, PrimValue, TestCase, VarId};

/// One test method to render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JUnitTest {
    pub case: TestCase,
    /// Assertions in the order they are written; each one goes after the statement it names.
    pub assertions: Vec<Assertion>,
    /// The binary name of the exception the LAST statement throws (`java.lang.IllegalStateException`,
    /// `a.Outer$Failure`), or `None` when the test completes normally.
    pub expected_exception: Option<String>,
    /// The test method's name (`testPopThrowsIllegalStateException`), unique in its class; `None`
    /// gives the renderer's numbered `test00`, `test01`, ...
    pub name: Option<String>,
    /// The test changes the JVM's system properties (its runs in the workers said so): the test
    /// class then restores them after each of its tests, so that no test sees another's.
    pub changes_system_properties: bool,
}

impl JUnitTest {
    /// A test without assertions that completes normally.
    pub fn plain(case: TestCase) -> JUnitTest {
        JUnitTest {
            case,
            assertions: Vec::new(),
            expected_exception: None,
            name: None,
            changes_system_properties: false,
        }
    }

    /// The assertions (indices, ascending) that observe a value depending on what the assertions
    /// `unstable` observe, these included. An assertion that failed when the written test ran,
    /// though it held in the workers, observed a value that differs between runs (the real clock
    /// through the code under test's `now()`, an identity hash): every value computed from it,
    /// and every object a call with it may have changed, differs as well ([`unstable_from`]).
    pub fn dependent_assertions(&self, unstable: &[usize]) -> Vec<usize> {
        let sources: Vec<VarId> =
            unstable.iter().filter_map(|&a| self.assertions.get(a)).flat_map(|a| a.check.vars()).collect();
        let from = unstable_from(&self.case, &sources);
        self.assertions
            .iter()
            .enumerate()
            .filter(|(a, x)| unstable.contains(a) || observes_unstable(&from, x))
            .map(|(a, _)| a)
            .collect()
    }
}

/// Whether assertion `a` observes a variable that is unstable where it is written, by `from` (what
/// [`unstable_from`] gives).
pub fn observes_unstable(from: &[Option<usize>], a: &Assertion) -> bool {
    a.check.vars().into_iter().any(|v| from.get(v.index()).copied().flatten().is_some_and(|f| f <= a.after))
}

/// For each variable of `case`, the first statement from which its value may differ between runs
/// because it flows from one of `sources` (variables whose own value differs between runs or
/// JVMs: an identity hash, a string holding one, the clock), or `None`. A source is unstable from
/// its definition; a statement `i` that uses a variable unstable by then makes its result, its
/// receiver and its arguments unstable from `i` on (a call with an unstable argument may store it
/// in them).
pub fn unstable_from(case: &TestCase, sources: &[VarId]) -> Vec<Option<usize>> {
    let mut from: Vec<Option<usize>> = vec![None; case.statements.len()];
    for v in sources {
        if let Some(f) = from.get_mut(v.index()) {
            *f = Some(v.index());
        }
    }
    for (i, st) in case.statements.iter().enumerate() {
        let uses = st.uses();
        if !uses.iter().any(|u| from.get(u.index()).copied().flatten().is_some_and(|f| f <= i)) {
            continue;
        }
        for v in uses.into_iter().map(VarId::index).chain([i]) {
            if let Some(f) = from.get_mut(v) {
                *f = Some(f.map_or(i, |f| f.min(i)));
            }
        }
    }
    from
}

impl Check {
    /// The variables the check observes.
    pub fn vars(&self) -> Vec<VarId> {
        match self {
            Check::Equals { subject: Subject::Var(v) | Subject::Call { var: v, .. }, .. }
            | Check::Null(v)
            | Check::NotNull(v)
            | Check::ArrayLength { var: v, .. }
            | Check::ArrayEquals { var: v, .. } => vec![*v],
            Check::Same(a, b) | Check::NotSame(a, b) | Check::ObjectsEqual { a, b, .. } => vec![*a, *b],
            Check::Contract { rule, .. } => rule.vars(),
            Check::ThrownMessage(_) | Check::ThrownFrom(_) => Vec::new(),
        }
    }

    /// Whether the check observes the exception the last statement threw rather than a variable.
    pub fn on_thrown(&self) -> bool {
        matches!(self, Check::ThrownMessage(_) | Check::ThrownFrom(_))
    }
}

/// An assertion written after statement `after` (an index into the test's statements).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assertion {
    pub after: usize,
    pub check: Check,
}

/// A primitive or string value an assertion expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    Prim(PrimValue),
    String(String),
}

/// What an assertion observes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// The variable itself.
    Var(VarId),
    /// The result of a public no-argument inspector `var.method()` returning `ret` (`size()`,
    /// `isEmpty()`, `toString()`).
    Call { var: VarId, method: String, ret: JType },
}

/// The check of an assertion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// `assertEquals(value, subject)`; booleans as `assertTrue`/`assertFalse`, floats and doubles
    /// with EvoSuite's delta of 0.01 (NaN equals NaN in both JUnits).
    Equals { subject: Subject, value: Expected },
    /// `assertNull(var)`.
    Null(VarId),
    /// `assertNotNull(var)`.
    NotNull(VarId),
    /// `assertEquals(length, var.length)` on an array.
    ArrayLength { var: VarId, length: u32 },
    /// `assertArrayEquals(new T[] {values}, var)` on an array of primitives or strings.
    ArrayEquals { var: VarId, values: Vec<Expected> },
    /// `assertSame(a, b)`.
    Same(VarId, VarId),
    /// `assertNotSame(a, b)`.
    NotSame(VarId, VarId),
    /// `assertTrue(a.equals((Object) b))`, or `assertFalse` when `equal` is false.
    ObjectsEqual { a: VarId, b: VarId, equal: bool },
    /// `assertEquals(message, e.getMessage())` on the exception the last statement threw; placed
    /// after the last statement of a test with an expected exception.
    ThrownMessage(String),
    /// `assertEquals(class, e.getStackTrace()[0].getClassName())`: the exception the last
    /// statement threw came from that class (the binary name; EvoSuite's `verifyException`), the
    /// class under test or a callee. Placed like [`Check::ThrownMessage`].
    ThrownFrom(String),
    /// A contract the values must keep (a contract-violation test, which fails by design where
    /// the code under test breaks it): `rule` written as an assertion with `message`.
    Contract { rule: Rule, message: String },
}

/// The condition of a [`Check::Contract`], over variables of the test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// The boolean is true: `assertTrue(message, v)`.
    True(VarId),
    /// The boolean is false: `assertFalse(message, v)`.
    False(VarId),
    /// The int is 0: `assertEquals(message, 0, v)`.
    Zero(VarId),
    /// Two booleans or ints are equal: `assertEquals(message, a, b)`.
    Same(VarId, VarId),
    /// Two `compareTo` results have opposite signs: `assertEquals(message, -Integer.signum(a),
    /// Integer.signum(b))`.
    OppositeSigns(VarId, VarId),
    /// A `compareTo` result is 0 exactly when the `equals` result is true: `assertEquals(message,
    /// equal, compared == 0)`.
    ZeroWhenEqual { compared: VarId, equal: VarId },
}

impl Rule {
    /// The variables the rule reads.
    pub fn vars(&self) -> Vec<VarId> {
        match self {
            Rule::True(v) | Rule::False(v) | Rule::Zero(v) => vec![*v],
            Rule::Same(a, b) | Rule::OppositeSigns(a, b) => vec![*a, *b],
            Rule::ZeroWhenEqual { compared, equal } => vec![*compared, *equal],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PrimType, Statement};

    fn int_equals(v: VarId, x: i32) -> Check {
        Check::Equals { subject: Subject::Var(v), value: Expected::Prim(PrimValue::Int(x)) }
    }

    /// `int v0 = 7; int v1 = 3; int[] v2 = new int[2]; v2[0] = v0; int v4 = v2[1]; int v5 = v1;`
    /// with an assertion after each: when the one on `v0` fails, the array's length after the store
    /// and the load from it depend on `v0`; `v1`, `v5` and the array's length before the store do
    /// not.
    #[test]
    fn values_computed_from_an_unstable_one_are_unstable_from_where_they_use_it() {
        let mut case = TestCase::new();
        let v0 = case.push(Statement::Primitive(PrimValue::Int(7)));
        let v1 = case.push(Statement::Primitive(PrimValue::Int(3)));
        let ints = JType::array_of(JType::Prim(PrimType::Int));
        let v2 = case.push(Statement::NewArray { ty: ints, length: 2 });
        case.push(Statement::ArrayStore { array: v2, index: 0, value: v0 });
        let v4 = case.push(Statement::ArrayLoad { array: v2, index: 1, ty: JType::Prim(PrimType::Int) });
        let v5 = case.push(Statement::Copy { from: v1, ty: JType::Prim(PrimType::Int) });
        let assertions = vec![
            Assertion { after: 0, check: int_equals(v0, 7) },
            Assertion { after: 1, check: int_equals(v1, 3) },
            Assertion { after: 2, check: Check::ArrayLength { var: v2, length: 2 } },
            Assertion { after: 3, check: Check::ArrayLength { var: v2, length: 2 } },
            Assertion { after: 4, check: int_equals(v4, 0) },
            Assertion { after: 5, check: int_equals(v5, 3) },
        ];
        let test = JUnitTest { assertions, ..JUnitTest::plain(case) };
        assert_eq!(test.dependent_assertions(&[0]), [0, 3, 4]);
        assert_eq!(test.dependent_assertions(&[1]), [1, 5]);
        assert_eq!(test.dependent_assertions(&[]), Vec::<usize>::new());
    }

    fn call(case: &mut TestCase, receiver: Option<VarId>, name: &str, args: Vec<VarId>) -> VarId {
        let method = crate::MethodRef {
            class: "p.M".into(),
            name: name.into(),
            descriptor: "()Ljava/lang/String;".into(),
            is_static: receiver.is_none(),
            owner: JType::class("p.M"),
            params: args.iter().map(|_| JType::string()).collect(),
            ret: Some(JType::string()),
        };
        case.push(Statement::Method { method: std::sync::Arc::new(method), receiver, args })
    }

    /// `M v0 = M.of(); String v1 = v0.toString(); M v2 = M.digits(); String v3 = v2.removeFrom(v1);
    /// String v4 = v3.trim(); String v5 = v0.name();` with `v1` (an identity hash) unstable: what
    /// `removeFrom` gives and what is computed from it are, and `removeFrom`'s receiver from there
    /// on; `v0`, which `v1` came from, and `v5` are not.
    #[test]
    fn unstable_values_flow_through_arguments_results_and_receivers() {
        let mut case = TestCase::new();
        let v0 = call(&mut case, None, "of", Vec::new());
        let v1 = call(&mut case, Some(v0), "toString", Vec::new());
        let v2 = call(&mut case, None, "digits", Vec::new());
        let v3 = call(&mut case, Some(v2), "removeFrom", vec![v1]);
        call(&mut case, Some(v3), "trim", Vec::new());
        call(&mut case, Some(v0), "name", Vec::new());
        assert_eq!(unstable_from(&case, &[v1]), [None, Some(1), Some(3), Some(3), Some(4), None]);
        assert_eq!(unstable_from(&case, &[]), [None; 6]);
    }
}
