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
}

impl JUnitTest {
    /// A test without assertions that completes normally.
    pub fn plain(case: TestCase) -> JUnitTest {
        JUnitTest { case, assertions: Vec::new(), expected_exception: None }
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
}
