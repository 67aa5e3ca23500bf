//! Regression assertions as EvoSuite's `CompleteAssertionGenerator` makes them (anchors.md §1.5,
//! strategy `ALL` with a cap): what a test did is observed by executing it, and asserted.
//!
//! - Observed after each statement that completed normally: the value of a call or field read
//!   (primitives and strings by value, `null`/non-`null` for objects, enum constants by `name()`,
//!   array lengths), and the inspectors ([`crate::Inspectors`]) of the objects the statement
//!   created or touched (its value, receiver and object arguments). Inspector values come from an
//!   augmented copy of the test with the inspector calls inserted right after the statement, in the
//!   order JUnit will run them.
//! - Every test (plain and augmented) runs twice; a value that differs between the two runs is not
//!   asserted (identity hash codes, unseeded randomness), nor is a string holding `Class@hash` or
//!   the worker's deterministic clock, nor a long near that clock (those differ outside the worker),
//!   nor anything computed from such a value or from an identity hash in a later statement
//!   (`crate::unstable`, `testcase::assertion::unstable_from`): it may read the same in the workers and not elsewhere.
//! - An inspector that throws, or whose presence changes the outcome of a later statement of the
//!   test, is removed and the augmented test re-run; after the assertions are chosen (at most
//!   `max_per_test`, return values first), the test with exactly the chosen inspector calls runs
//!   once more and any assertion whose value moved is dropped.
//! - A test is cut after the first statement that throws (later statements never ran); that
//!   exception becomes the expected exception, named as `assertThrows` can name it, with the
//!   class of its top frame and its message asserted when they are stable ([`thrown_checks`],
//!   docs/tests.md).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use exec::{ExecResult, ExecStatus};
use programdb::ProgramDb;
use protocol::{Outcome, Value};
use testcase::assertion::{Assertion, Check, Expected, JUnitTest, Subject, observes_unstable};
use testcase::{JType, MethodRef, PrimType, PrimValue, Statement, TestCase, VarId};

use crate::inspect::{Inspector, Inspectors};
use crate::{PostError, Runner, run_batch};

/// Augmented runs that removed an inspector before the set settles; then the test keeps none.
const MAX_INSPECTOR_ROUNDS: usize = 3;
/// Inspector calls added to one test at most (keeps the augmented tests short).
const MAX_INSPECTOR_CALLS: usize = 64;
/// Longer strings are not asserted by value (unreadable tests); a string result gets its length
/// asserted instead.
const MAX_STRING: usize = 200;
/// The worker's fixed clock base (`Guards.timeBaseMs`): values near it are time, which differs
/// outside the worker.
const TIME_BASE_MS: i64 = 1_700_000_000_000;

/// How assertions are chosen. No `Default`: [`AssertionConfig::evosuite`] builds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssertionConfig {
    /// Assertions kept per test at most.
    pub max_per_test: usize,
    /// The package (dotted) the test class is written in: the CUT's.
    pub package: String,
    /// Tests per batch of the plain runs, of the augmented runs and of the final check; the
    /// runner's deadline is checked between batches. The tests of plain batches past it are not
    /// run (no assertions, no expected exception), those of later batches keep no inspector.
    pub plain_chunk: usize,
}

impl AssertionConfig {
    /// At most 10 assertions per test, in the package of `cut` (binary name).
    pub fn evosuite(cut: &str) -> AssertionConfig {
        AssertionConfig {
            max_per_test: 10,
            package: cut.rsplit_once('.').map_or(String::new(), |(p, _)| p.to_string()),
            // Two workers' worth of work for a while (each test runs twice), and few enough that
            // a suite of slow tests does not run far past the deadline: commons-math's
            // ArithmeticUtils, 102 tests computing with large `BigInteger`s, spent 187 s in one
            // batch of a 60 s run's assertions.
            plain_chunk: 32,
        }
    }
}

/// Counts of one test's assertion generation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AssertionStats {
    /// Assertions observed before the cap.
    pub candidates: usize,
    /// Values not asserted because the two runs disagreed or they look like time or identity.
    pub unstable: usize,
    /// Inspector calls removed because they threw or changed the test's outcomes.
    pub inspectors_removed: usize,
    /// Assertions left out by the cap.
    pub capped: usize,
    /// Chosen assertions dropped by the final check, or unchecked for want of time.
    pub dropped_on_check: usize,
    /// Statements cut after the first throwing statement.
    pub truncated: usize,
    /// The test's own outcome (where it stopped, what it threw) differed between runs, or it hit a
    /// guard or timed out: it has no assertions and no expected exception.
    pub flaky: bool,
    /// The test was not run, because the post-processing budget ran out before its batch of the
    /// plain runs: it has no assertions and no expected exception (verification judges it).
    pub not_run: bool,
}

/// A test with its assertions, as `junit::render` takes it (`testcase::assertion`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssertedTest {
    pub test: JUnitTest,
    pub stats: AssertionStats,
    /// What each statement of `test` gave in its first plain run (what names say a test shows);
    /// empty when the test was not run or its runs disagreed.
    pub observed: Vec<Outcome>,
}

/// One inspector call inserted after statement `after`, on variable `var` (original numbering),
/// with `arg` as its one argument (an `equals` check) or none.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Probe {
    after: usize,
    var: VarId,
    inspector: Inspector,
    arg: Option<VarId>,
}

/// An observation that may become an assertion: `priority` orders the cap (0 first).
#[derive(Debug, Clone)]
struct Candidate {
    priority: u8,
    assertion: Assertion,
    /// Position of the probe whose value this asserts, for the final check.
    probe: Option<usize>,
}

/// The test with one unused constant first: an equivalent copy that a caching runner must execute
/// again (its canonical bytes differ), so that two runs are two executions.
fn distinct(test: &TestCase) -> TestCase {
    let mut t = test.clone();
    t.insert(0, Statement::Primitive(PrimValue::Int(0)));
    t
}

/// `test` with each probe's call inserted after its statement (probes sorted by `after`);
/// returns the augmented test, the new position of each original statement, and of each probe.
fn augment(test: &TestCase, probes: &[Probe]) -> (TestCase, Vec<usize>, Vec<usize>) {
    let mut out = TestCase::new();
    let mut pos = Vec::with_capacity(test.len());
    let mut probe_pos = Vec::with_capacity(probes.len());
    let mut next = 0;
    for (i, st) in test.statements.iter().enumerate() {
        let mut st = st.clone();
        for v in st.uses_mut() {
            *v = VarId(pos[v.index()] as u32);
        }
        pos.push(out.push(st).index());
        while next < probes.len() && probes[next].after == i {
            let p = &probes[next];
            let owner = test.var_type(p.var).unwrap_or_else(JType::object);
            let class = owner.erasure().class_name().unwrap_or(testcase::types::OBJECT).to_string();
            let method = MethodRef {
                class,
                name: p.inspector.name.clone(),
                descriptor: p.inspector.descriptor.clone(),
                is_static: false,
                owner,
                params: Vec::new(),
                ret: Some(p.inspector.ret.clone()),
            };
            let receiver = Some(VarId(pos[p.var.index()] as u32));
            let args: Vec<VarId> = p.arg.iter().map(|a| VarId(pos[a.index()] as u32)).collect();
            let method = MethodRef { params: args.iter().map(|_| JType::object()).collect(), ..method };
            probe_pos.push(out.push(Statement::Method { method: Arc::new(method), receiver, args }).index());
            next += 1;
        }
    }
    (out, pos, probe_pos)
}

/// The statements a written test runs: its case with the call each assertion makes
/// (`assertEquals(3, stack0.size())`, `assertTrue(a.equals((Object) b))`) inserted after the
/// statement the assertion follows. The
/// coverage of written tests is measured on these, as JaCoCo sees the inspectors run too.
pub fn as_written(test: &JUnitTest) -> TestCase {
    written(test).case
}

/// A written test's statements ([`as_written`]) with where each outcome comes from.
pub(crate) struct Written {
    pub(crate) case: TestCase,
    /// Per assertion, the position in `case` of the outcome it checks: its inspector call, the
    /// statement whose value it checks, or the throwing statement.
    pub(crate) observed: Vec<usize>,
    /// The position in `case` of each statement of the test's own case.
    pub(crate) statements: Vec<usize>,
}

/// [`as_written`], with the positions of [`Written`].
pub(crate) fn written(test: &JUnitTest) -> Written {
    let mut probes: Vec<(usize, Probe)> = test
        .assertions
        .iter()
        .enumerate()
        .filter_map(|(k, a)| match &a.check {
            Check::Equals { subject: Subject::Call { var, method, ret }, .. } => Some((
                k,
                Probe {
                    after: a.after,
                    var: *var,
                    inspector: Inspector {
                        name: method.clone(),
                        descriptor: format!("(){}", ret.descriptor()),
                        ret: ret.clone(),
                    },
                    arg: None,
                },
            )),
            Check::ObjectsEqual { a: var, b, .. } => Some((
                k,
                Probe {
                    after: a.after,
                    var: *var,
                    inspector: Inspector {
                        name: "equals".into(),
                        descriptor: "(Ljava/lang/Object;)Z".into(),
                        ret: JType::Prim(PrimType::Boolean),
                    },
                    arg: Some(*b),
                },
            )),
            _ => None,
        })
        .collect();
    // Stable: the calls after one statement keep their written order.
    probes.sort_by_key(|(_, p)| p.after);
    let sorted: Vec<Probe> = probes.iter().map(|(_, p)| p.clone()).collect();
    let (case, pos, probe_pos) = augment(&test.case, &sorted);
    let at = |v: VarId| pos.get(v.index()).copied().unwrap_or(usize::MAX);
    let mut observed: Vec<usize> = test
        .assertions
        .iter()
        .map(|a| match &a.check {
            Check::Equals { subject: Subject::Var(v), .. }
            | Check::Null(v)
            | Check::NotNull(v)
            | Check::ArrayLength { var: v, .. }
            | Check::ArrayEquals { var: v, .. }
            | Check::Same(v, _)
            | Check::NotSame(v, _) => at(*v),
            _ => pos.get(a.after).copied().unwrap_or(usize::MAX),
        })
        .collect();
    for (j, (k, _)) in probes.iter().enumerate() {
        observed[*k] = probe_pos[j];
    }
    Written { case, observed, statements: pos }
}

/// Outcomes of a `distinct` copy, aligned with the original's statements.
fn unshift(r: &ExecResult) -> &[Outcome] {
    r.outcomes.get(1..).unwrap_or(&[])
}

/// Whether an outcome stopped the test (anything but a value).
fn stopped(o: &Outcome) -> bool {
    !matches!(o, Outcome::Value(_))
}

/// Whether a string would differ outside the worker or between JVMs: `Class@1b6d3586` identity
/// strings, the worker's clock, and the names of stub classes (docs/stubs.md), which the written
/// test's anonymous classes do not have (`ElapsedTest$1`).
fn unstable_string(s: &str) -> bool {
    if s.contains("1700000000") || s.contains("2023-11-14") {
        return true;
    }
    if s.contains(testcase::cluster::STUB_SUFFIX) || s.contains(testcase::cluster::JDK_STUB_PACKAGE) {
        return true;
    }
    // A scratch file's path, or its folder's name: the written test's temporary folder has
    // another (`SCRATCH_FOLDER`, the folder the worker makes them in).
    if s.contains(testcase::statement::SCRATCH_FOLDER) || s.contains("suitesmith-worker-") {
        return true;
    }
    // `Name@hash`: a real JVM's hash has several hex digits; the workers' is always 1
    // (`-XX:hashCode=2`), so `java.io.BufferedWriter@1` is one too when nothing alphanumeric
    // follows (a `Formatter`'s default `toString`), and an array's (`[Ljava.lang.Object;@1`,
    // `[I@1`) whatever follows: no address or name ends in `;` or an array descriptor, and a
    // joined string puts the next part right after it (`StringUtils.join(array, "w,h")` gave
    // `[Ljava.lang.Object;@1w,h...`, asserted, and failed every run outside the workers).
    let b = s.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        let hex = b[i + 1..].iter().take_while(|x| x.is_ascii_hexdigit()).count();
        let follows_ok = b.get(i + 2).is_none_or(|x| !x.is_ascii_alphanumeric()) || after_array_type(&b[..i]);
        let workers = b.get(i + 1) == Some(&b'1') && follows_ok;
        c == b'@'
            && i > 0
            && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'$' || b[i - 1] == b';')
            && (hex >= 4 || workers)
    })
}

/// Whether `before` ends in an array's class name as `Object.toString` prints it: `[I`, `[[Z`,
/// `[Ljava.lang.String;`.
fn after_array_type(before: &[u8]) -> bool {
    match before.last() {
        Some(b';') => {
            let body = &before[..before.len() - 1];
            let name_char = |x: &u8| x.is_ascii_alphanumeric() || b"._$".contains(x);
            let start = body.len() - body.iter().rev().take_while(|x| name_char(x)).count();
            start > 0 && body[start - 1] == b'[' && body.get(start) == Some(&b'L')
        }
        Some(x) if b"ZBCSIJFD".contains(x) => before.len() >= 2 && before[before.len() - 2] == b'[',
        _ => false,
    }
}

/// Whether a long looks like the worker's clock in milliseconds or nanoseconds.
fn time_like(v: i64) -> bool {
    // In i128: a value near i64::MIN must not overflow the difference (a debug-build panic).
    let near = |x: i64, base: i64, width: i64| (i128::from(x) - i128::from(base)).abs() < i128::from(width);
    near(v, TIME_BASE_MS, 100_000_000_000) || near(v / 1_000_000, TIME_BASE_MS, 100_000_000_000)
}

/// A primitive value of type `want` from an outcome value, when it has that type.
fn prim(v: &Value, want: PrimType) -> Option<PrimValue> {
    let p = match (v, want) {
        (Value::Bool(b), PrimType::Boolean) => PrimValue::Boolean(*b),
        (Value::Byte(x), PrimType::Byte) => PrimValue::Byte(*x as i8),
        (Value::Char(x), PrimType::Char) => PrimValue::Char(*x as u16),
        (Value::Short(x), PrimType::Short) => PrimValue::Short(*x as i16),
        (Value::Int(x), PrimType::Int) => PrimValue::Int(*x),
        (Value::Long(x), PrimType::Long) => PrimValue::Long(*x),
        (Value::Float(x), PrimType::Float) => PrimValue::Float(*x),
        (Value::Double(x), PrimType::Double) => PrimValue::Double(*x),
        _ => return None,
    };
    Some(p)
}

/// The expected value of a subject of static type `ty` that evaluated to `v`, if it is asserted by
/// value (`None` also when the value is unstable; `unstable` is then set).
pub(crate) fn expected(v: &Value, ty: &JType, unstable: &mut bool) -> Option<Expected> {
    let want = match ty {
        JType::Prim(p) => Some(*p),
        JType::Class { name, .. } => PrimType::unwrap(name),
        _ => None,
    };
    if let Some(p) = want {
        let e = prim(v, p)?;
        if let PrimValue::Long(x) = e
            && time_like(x)
        {
            *unstable = true;
            return None;
        }
        return Some(Expected::Prim(e));
    }
    match v {
        Value::String(s) if *ty == JType::string() => {
            if unstable_string(s) {
                *unstable = true;
                None
            } else if too_long(s) {
                None
            } else {
                Some(Expected::String(s.clone()))
            }
        }
        _ => None,
    }
}

/// A string too long to assert by value.
fn too_long(s: &str) -> bool {
    s.chars().count() > MAX_STRING
}

/// Whether a variable's static type is an object whose inspectors may be called: a class type that
/// is neither `String` nor a box (those are asserted by value).
fn inspectable(ty: &JType) -> Option<String> {
    match ty {
        JType::Class { name, .. } if !ty.is_primitive_like() => Some(name.clone()),
        _ => None,
    }
}

/// The objects statement `i` created or touched: its value, its receiver and its object arguments.
fn touched(test: &TestCase, i: usize) -> Vec<VarId> {
    let st = &test.statements[i];
    let mut out = Vec::new();
    if st.value_type().is_some()
        && !matches!(st, Statement::Primitive(_) | Statement::String(_) | Statement::Null(_))
    {
        out.push(VarId(i as u32));
    }
    if st.is_call() || matches!(st, Statement::FieldSet { .. }) {
        for v in st.uses() {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// Per test: the truncated test, its two plain runs' outcomes, and what it threw at its end.
struct Plain {
    test: TestCase,
    run1: Vec<Outcome>,
    run2: Vec<Outcome>,
    /// Index of the last statement that completed normally, plus one.
    normal: usize,
    thrown: Option<String>,
    stats: AssertionStats,
    /// Per variable, the statement from which its value flows from one that differs between runs
    /// or JVMs ([`crate::unstable::sources`], `testcase::assertion::unstable_from`): not asserted there.
    unstable_from: Vec<Option<usize>>,
}

/// Generates assertions for every test of `suite` (see the module documentation). `classpath`
/// holds the classes the tests use and the JDK's `java.base` (for inspectors of JDK types).
///
/// Four phases, each one batch or a few: two plain runs of every test ([`plain_runs`]); inspector
/// calls on the objects each statement touched, run until none throws or disturbs the test
/// ([`inspector_probes`], [`settle_inspectors`]); the candidates and the cap per test
/// ([`choose`]); one last run checking the chosen inspector calls ([`check_chosen`]).
pub fn assertions(
    runner: &mut dyn Runner,
    suite: &[TestCase],
    db: &ProgramDb,
    config: &AssertionConfig,
) -> Result<Vec<AssertedTest>, PostError> {
    let mut inspectors = Inspectors::new(db);
    let mut plains = plain_runs(runner, suite, &mut inspectors, config)?;
    let mut probes = inspector_probes(&plains, &mut inspectors);
    let observed = settle_inspectors(runner, &mut plains, &mut probes, config.plain_chunk.max(1))?;
    let mut chosen: Vec<Chosen> = plains
        .iter_mut()
        .zip(&probes)
        .zip(&observed)
        .map(|((p, probes), observed)| choose(p, probes, observed.as_ref(), config))
        .collect();
    check_chosen(runner, &mut plains, &mut chosen, config.plain_chunk.max(1))?;
    Ok(plains
        .into_iter()
        .zip(chosen)
        .map(|(p, (cands, _))| {
            let mut assertions: Vec<Assertion> = cands.into_iter().map(|c| c.assertion).collect();
            // The checks of the exception come first among those after the throwing statement.
            let thrown = thrown_checks(&p);
            let at = assertions.iter().position(|a| a.after + 1 >= p.test.len()).unwrap_or(assertions.len());
            assertions.splice(at..at, thrown);
            AssertedTest {
                test: JUnitTest {
                    case: p.test,
                    assertions,
                    expected_exception: p.thrown,
                    name: None,
                    changes_system_properties: false,
                },
                stats: p.stats,
                observed: p.run1,
            }
        })
        .collect())
}

/// The kept candidates of one test and the inspector calls they need (what `Candidate::probe`
/// points into).
type Chosen = (Vec<Candidate>, Vec<Probe>);

/// Per test with settled inspectors: the inspectors' values in the two augmented runs.
type Observed = Option<(Vec<Outcome>, Vec<Outcome>)>;

/// [`run_batch`] for this module, which does not report its counts.
fn run(runner: &mut dyn Runner, tests: &[TestCase]) -> Result<Vec<ExecResult>, PostError> {
    let (mut round_trips, mut executions) = (0, 0);
    run_batch(runner, tests, &mut round_trips, &mut executions)
}

/// Phase 1: two plain runs of each test, in batches of `config.plain_chunk` tests; a test whose
/// runs disagree is flaky, and one that throws is cut after the throwing statement. The first
/// batch always runs; a later one only while the runner has time (its tests are `not_run`).
fn plain_runs(
    runner: &mut dyn Runner,
    suite: &[TestCase],
    inspectors: &mut Inspectors,
    config: &AssertionConfig,
) -> Result<Vec<Plain>, PostError> {
    let mut plains = Vec::with_capacity(suite.len());
    for (i, chunk) in suite.chunks(config.plain_chunk.max(1)).enumerate() {
        if i > 0 && runner.out_of_time() {
            plains.extend(chunk.iter().map(|t| Plain {
                test: t.clone(),
                run1: Vec::new(),
                run2: Vec::new(),
                normal: 0,
                thrown: None,
                stats: AssertionStats { not_run: true, ..AssertionStats::default() },
                unstable_from: Vec::new(),
            }));
            continue;
        }
        let mut batch: Vec<TestCase> = chunk.to_vec();
        batch.extend(chunk.iter().map(distinct));
        let results = run(runner, &batch)?;
        let (first, second) = results.split_at(chunk.len());
        for ((t, r1), r2) in chunk.iter().zip(first).zip(second) {
            plains.push(plain(t, r1, r2, inspectors, config));
        }
    }
    Ok(plains)
}

/// One test's [`Plain`] from its two runs.
fn plain(
    t: &TestCase,
    r1: &ExecResult,
    r2: &ExecResult,
    inspectors: &mut Inspectors,
    config: &AssertionConfig,
) -> Plain {
    let mut stats = AssertionStats::default();
    let o2 = unshift(r2);
    let stop = r1.outcomes.iter().position(stopped).unwrap_or(r1.outcomes.len()).min(t.len());
    let flaky = r1.status != ExecStatus::Normal
        || r1.outcomes.len() < t.len()
        || o2.len() < t.len()
        || r2.status != ExecStatus::Normal
        || o2.iter().position(stopped).unwrap_or(o2.len()).min(t.len()) != stop
        || matches!(r1.outcomes.get(stop), Some(o) if !matches!(o, Outcome::Threw { .. }))
        || match (r1.outcomes.get(stop), o2.get(stop)) {
            (Some(Outcome::Threw { class: a, .. }), Some(Outcome::Threw { class: b, .. })) => a != b,
            _ => false,
        };
    if flaky {
        stats.flaky = true;
        let test = t.clone();
        let (run1, run2, unstable_from) = (Vec::new(), Vec::new(), Vec::new());
        return Plain { test, run1, run2, normal: 0, thrown: None, stats, unstable_from };
    }
    let (test, thrown) = match r1.outcomes.get(stop) {
        Some(Outcome::Threw { class, .. }) if stop < t.len() => {
            stats.truncated = t.len() - stop - 1;
            let mut cut = t.clone();
            cut.statements.truncate(stop + 1);
            (cut, Some(inspectors.catchable(class, &config.package)))
        }
        _ => (t.clone(), None),
    };
    let n = test.len();
    let run1 = r1.outcomes[..n.min(r1.outcomes.len())].to_vec();
    let run2 = o2[..n.min(o2.len())].to_vec();
    let sources = crate::unstable::sources(&test, &run1, &run2, stop, inspectors);
    let unstable_from = testcase::assertion::unstable_from(&test, &sources);
    Plain { run1, run2, normal: stop, thrown, test, stats, unstable_from }
}

/// The checks of the exception a test's last statement threw, each kept only when both plain
/// runs agree on it (the verification runs in fresh JVMs remove what still differs): the class
/// of its top stack frame, as EvoSuite's `verifyException`, when that is not a JDK-internal or
/// reflection frame; its message when it has one that reads the same outside the worker. Only
/// for exceptions thrown inside the called code: a call that failed itself (a null receiver) is
/// thrown by the written test's own line.
fn thrown_checks(p: &Plain) -> Vec<Assertion> {
    let (Some(_), Some(Outcome::Threw { class, message, from_sut: true, top_frame, .. }), Some(o2)) =
        (&p.thrown, p.run1.get(p.normal), p.run2.get(p.normal))
    else {
        return Vec::new();
    };
    let Outcome::Threw { message: message2, top_frame: top2, .. } = o2 else { return Vec::new() };
    let after = p.normal;
    let mut out = Vec::new();
    if !top_frame.is_empty() && top_frame == top2 && !internal_frame(top_frame) {
        out.push(Assertion { after, check: Check::ThrownFrom(top_frame.clone()) });
    }
    // A message built from an unstable argument (`"no " + s` of an identity string) is unstable.
    let from_unstable = p.unstable_from.get(after).copied().flatten().is_some();
    if !message.is_empty() && message == message2 && stable_message(class, message) && !from_unstable {
        out.push(Assertion { after, check: Check::ThrownMessage(message.clone()) });
    }
    out
}

/// A frame whose class the written test would not see, or that differs between JDKs: JDK
/// internals, reflection, the runtime's own classes, stub classes (the test's are anonymous).
fn internal_frame(class: &str) -> bool {
    ["jdk.", "sun.", "com.sun.", "java.lang.reflect.", "java.lang.invoke.", "suitesmith."]
        .iter()
        .any(|p| class.starts_with(p))
        || unstable_string(class)
}

/// Whether an exception's message reads the same in the written test: not the helpful
/// `NullPointerException` text (it describes the bytecode, which instrumentation changes) nor a
/// `ClassCastException`'s (it names class loaders), and nothing [`unstable_string`] rejects.
fn stable_message(class: &str, message: &str) -> bool {
    !matches!(class, "java.lang.NullPointerException" | "java.lang.ClassCastException")
        && !message.contains("loader")
        && !unstable_string(message)
        && !too_long(message)
}

/// Phase 2a: the probes of each test: inspectors of the objects each statement touched.
fn inspector_probes(plains: &[Plain], inspectors: &mut Inspectors) -> Vec<Vec<Probe>> {
    plains
        .iter()
        .map(|p| {
            let mut out = Vec::new();
            for i in 0..p.normal {
                for v in touched(&p.test, i) {
                    let non_null =
                        matches!(p.run1.get(v.index()), Some(Outcome::Value(Value::Object { .. })));
                    let Some(class) = p.test.var_type(v).as_ref().and_then(inspectable) else { continue };
                    // A stub's methods are its answers, counted per call: asking them would
                    // change what the test's own calls get.
                    let stub = matches!(p.test.statements.get(v.index()), Some(Statement::Stub { .. }));
                    if !non_null || stub {
                        continue;
                    }
                    for ins in inspectors.of(&class) {
                        if out.len() < MAX_INSPECTOR_CALLS {
                            out.push(Probe { after: i, var: v, inspector: ins.clone(), arg: None });
                        }
                    }
                }
            }
            out
        })
        .collect()
}

/// Phase 2b: augmented runs until no inspector throws or disturbs the test; returns what the
/// settled inspectors observed in the two runs. The tests run in batches of `chunk`; once the
/// runner is out of time no batch starts, and the tests not settled lose their inspectors (they
/// keep their plain assertions): the phase ends at most one batch past the deadline.
fn settle_inspectors(
    runner: &mut dyn Runner,
    plains: &mut [Plain],
    probes: &mut [Vec<Probe>],
    chunk: usize,
) -> Result<Vec<Observed>, PostError> {
    let mut observed: Vec<Observed> = vec![None; plains.len()];
    let mut settled = vec![false; plains.len()];
    for round in 0..=MAX_INSPECTOR_ROUNDS {
        let todo: Vec<usize> = (0..plains.len()).filter(|&k| !settled[k] && !probes[k].is_empty()).collect();
        if todo.is_empty() {
            break;
        }
        for batch in todo.chunks(chunk) {
            // Out of time, the inspectors go (the tests keep their plain assertions).
            if round == MAX_INSPECTOR_ROUNDS || runner.out_of_time() {
                for &k in batch {
                    plains[k].stats.inspectors_removed += probes[k].len();
                    probes[k].clear();
                }
                continue;
            }
            settle_batch(runner, plains, probes, batch, &mut observed, &mut settled)?;
        }
    }
    Ok(observed)
}

/// One augmented batch of [`settle_inspectors`]: each test of `batch` run twice with its probes;
/// a test whose probes neither threw nor disturbed it is settled with what they observed, the
/// others lose the probes at fault and go again in the next round.
fn settle_batch(
    runner: &mut dyn Runner,
    plains: &mut [Plain],
    probes: &mut [Vec<Probe>],
    batch: &[usize],
    observed: &mut [Observed],
    settled: &mut [bool],
) -> Result<(), PostError> {
    let aug: Vec<(TestCase, Vec<usize>, Vec<usize>)> =
        batch.iter().map(|&k| augment(&plains[k].test, &probes[k])).collect();
    let mut tests: Vec<TestCase> = aug.iter().map(|a| a.0.clone()).collect();
    tests.extend(aug.iter().map(|a| distinct(&a.0)));
    let results = run(runner, &tests)?;
    let (first, second) = results.split_at(batch.len());
    for (j, &k) in batch.iter().enumerate() {
        let (_, pos, probe_pos) = &aug[j];
        let (o1, o2) = (&first[j].outcomes, unshift(&second[j]));
        let remove = disturbing(&plains[k], &probes[k], o1, pos, probe_pos);
        if remove.is_empty() {
            let values = |o: &[Outcome]| {
                probe_pos.iter().map(|&q| o.get(q).cloned().unwrap_or(Outcome::NotExecuted)).collect()
            };
            observed[k] = Some((values(o1), values(o2)));
            settled[k] = true;
        } else {
            plains[k].stats.inspectors_removed += remove.len();
            for x in remove.into_iter().rev() {
                probes[k].remove(x);
            }
        }
    }
    Ok(())
}

/// The probes to remove after an augmented run `o1` (ascending): a throwing inspector goes; so do
/// the inspectors before a statement they disturbed.
fn disturbing(p: &Plain, probes: &[Probe], o1: &[Outcome], pos: &[usize], probe_pos: &[usize]) -> Vec<usize> {
    let threw = probe_pos.iter().position(|&q| o1.get(q).is_none_or(stopped));
    let disturbed = (0..p.test.len())
        .find(|&i| p.run1[i] == p.run2[i] && o1.get(pos[i]).is_none_or(|o| !same_kind(o, &p.run1[i])));
    match (threw, disturbed) {
        (Some(q), Some(i)) if probes[q].after >= i => {
            (0..probes.len()).filter(|&x| probes[x].after < i).collect()
        }
        (Some(q), _) => vec![q],
        (None, Some(i)) => (0..probes.len()).filter(|&x| probes[x].after < i).collect(),
        (None, None) => Vec::new(),
    }
}

/// Phase 3: one test's candidates (direct ones and the settled inspectors' values), capped by
/// priority and written in test order.
fn choose(
    p: &mut Plain,
    probes: &[Probe],
    observed: Option<&(Vec<Outcome>, Vec<Outcome>)>,
    config: &AssertionConfig,
) -> Chosen {
    if p.stats.flaky || p.stats.not_run {
        return (Vec::new(), Vec::new());
    }
    let mut cands = direct_candidates(p);
    if let Some((v1, v2)) = observed {
        inspector_candidates(p, probes, v1, v2, &mut cands);
    }
    // A value computed from one that differs between JVMs may read the same in the workers' runs
    // (`removeFrom` of a string with an identity hash, which the workers' hash makes short).
    let before = cands.len();
    cands.retain(|c| !observes_unstable(&p.unstable_from, &c.assertion));
    p.stats.unstable += before - cands.len();
    p.stats.candidates = cands.len();
    // The cap: by priority, then in test order; written in test order.
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by_key(|&c| (cands[c].priority, cands[c].assertion.after, c));
    order.truncate(config.max_per_test);
    p.stats.capped = cands.len() - order.len();
    order.sort_by_key(|&c| (cands[c].assertion.after, c));
    let kept: Vec<Candidate> = order.into_iter().map(|c| cands[c].clone()).collect();
    let kept_probes: Vec<Probe> = kept.iter().filter_map(|c| c.probe.map(|q| probes[q].clone())).collect();
    // Re-point each kept candidate at its probe among the kept ones.
    let mut n = 0;
    let kept = kept
        .into_iter()
        .map(|mut c| {
            if c.probe.is_some() {
                c.probe = Some(n);
                n += 1;
            }
            c
        })
        .collect();
    (kept, kept_probes)
}

/// The candidates from the inspectors' values in the two augmented runs: equal values only, and a
/// repeated value of the same inspector on the same variable once.
fn inspector_candidates(
    p: &mut Plain,
    probes: &[Probe],
    v1: &[Outcome],
    v2: &[Outcome],
    cands: &mut Vec<Candidate>,
) {
    let mut last: BTreeMap<(VarId, String), Value> = BTreeMap::new();
    // A directory's `File.length()` is the file system's business (4096 on ext4, less on tmpfs),
    // and the written test's temporary folder may be on another than the worker's scratch.
    // Probes are sorted by name: `isDirectory` comes before `length`.
    let mut directories: BTreeSet<(VarId, usize)> = BTreeSet::new();
    let is_file =
        |v: VarId| p.test.var_type(v).is_some_and(|t| t.class_name() == Some(testcase::statement::FILE));
    for (q, probe) in probes.iter().enumerate() {
        let (Outcome::Value(a), Outcome::Value(b)) = (&v1[q], &v2[q]) else { continue };
        if is_file(probe.var) {
            match probe.inspector.name.as_str() {
                "isDirectory" if *a == Value::Bool(true) || *b == Value::Bool(true) => {
                    directories.insert((probe.var, probe.after));
                }
                "length" if directories.contains(&(probe.var, probe.after)) => {
                    p.stats.unstable += 1;
                    continue;
                }
                _ => {}
            }
        }
        let key = (probe.var, probe.inspector.name.clone());
        let repeated = last.get(&key) == Some(a);
        last.insert(key, a.clone());
        if repeated {
            continue;
        }
        let mut unstable = a != b;
        let value = expected(a, &probe.inspector.ret, &mut unstable);
        if unstable {
            p.stats.unstable += 1;
            continue;
        }
        let Some(value) = value else { continue };
        let subject = Subject::Call {
            var: probe.var,
            method: probe.inspector.name.clone(),
            ret: probe.inspector.ret.clone(),
        };
        cands.push(Candidate {
            priority: 1,
            assertion: Assertion { after: probe.after, check: Check::Equals { subject, value } },
            probe: Some(q),
        });
    }
}

/// Phase 4: the final check of the chosen inspector calls, in batches of `chunk`: a candidate
/// whose call no longer gives its value, or whose test the calls disturb, is dropped, and so are
/// the inspector assertions of the tests whose batch would start past the deadline (the first
/// batch always runs).
fn check_chosen(
    runner: &mut dyn Runner,
    plains: &mut [Plain],
    chosen: &mut [Chosen],
    chunk: usize,
) -> Result<(), PostError> {
    let check: Vec<usize> = (0..plains.len()).filter(|&k| !chosen[k].1.is_empty()).collect();
    for (b, batch) in check.chunks(chunk).enumerate() {
        if b > 0 && runner.out_of_time() {
            // Not checked, not kept: the inspector assertions of these tests go.
            for &k in batch {
                let (cands, _) = &mut chosen[k];
                let before = cands.len();
                cands.retain(|c| c.probe.is_none());
                plains[k].stats.dropped_on_check += before - cands.len();
            }
            continue;
        }
        let aug: Vec<(TestCase, Vec<usize>, Vec<usize>)> =
            batch.iter().map(|&k| augment(&plains[k].test, &sorted_probes(&chosen[k].1))).collect();
        let tests: Vec<TestCase> = aug.iter().map(|a| a.0.clone()).collect();
        let results = run(runner, &tests)?;
        for (j, &k) in batch.iter().enumerate() {
            let (_, pos, probe_pos) = &aug[j];
            let o = &results[j].outcomes;
            let p = &plains[k];
            let intact =
                (0..p.test.len()).all(|i| p.run1[i] != p.run2[i] || o.get(pos[i]) == Some(&p.run1[i]));
            let (cands, _) = &mut chosen[k];
            let before = cands.len();
            cands.retain(|c| match (&c.probe, &c.assertion.check) {
                (None, _) => true,
                (Some(q), Check::Equals { subject: Subject::Call { ret, .. }, value }) => {
                    let mut unstable = false;
                    intact
                        && matches!(o.get(probe_pos[*q]), Some(Outcome::Value(v)) if expected(v, ret, &mut unstable).as_ref() == Some(value))
                }
                _ => false,
            });
            plains[k].stats.dropped_on_check += before - cands.len();
        }
    }
    Ok(())
}

/// Probes in the order `augment` needs (by statement, stable).
fn sorted_probes(probes: &[Probe]) -> Vec<Probe> {
    let mut out = probes.to_vec();
    out.sort_by_key(|p| p.after);
    out
}

/// Whether two outcomes are the same kind of end: equal values, or the same exception class.
fn same_kind(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Threw { class: x, .. }, Outcome::Threw { class: y, .. }) => x == y,
        _ => a == b,
    }
}

/// Assertions on the statements' own values (calls and field reads that completed normally).
fn direct_candidates(p: &mut Plain) -> Vec<Candidate> {
    let mut out = Vec::new();
    for i in 0..p.normal {
        let st = &p.test.statements[i];
        if !matches!(st, Statement::Method { .. } | Statement::FieldGet { .. }) {
            continue;
        }
        let Some(ty) = st.value_type() else { continue };
        let (Outcome::Value(a), Outcome::Value(b)) = (&p.run1[i], &p.run2[i]) else { continue };
        let var = VarId(i as u32);
        let mut unstable = a != b;
        let value = expected(a, &ty, &mut unstable);
        if unstable {
            p.stats.unstable += 1;
            continue;
        }
        let (priority, check) = match (value, a) {
            (Some(value), _) => (0, Check::Equals { subject: Subject::Var(var), value }),
            (None, Value::Null) if !ty.is_primitive() => (0, Check::Null(var)),
            (None, Value::Enum { class, name }) if ty.erasure().class_name() == Some(class.as_str()) => {
                let subject = Subject::Call { var, method: "name".into(), ret: JType::string() };
                (0, Check::Equals { subject, value: Expected::String(name.clone()) })
            }
            (None, Value::Array { length, .. }) if matches!(ty, JType::Array(_)) => {
                (2, Check::ArrayLength { var, length: (*length).max(0) as u32 })
            }
            // A long string: its length (`String.length()` counts UTF-16 units).
            (None, Value::String(s)) if ty == JType::string() && too_long(s) => {
                let subject = Subject::Call { var, method: "length".into(), ret: JType::Prim(PrimType::Int) };
                let length = PrimValue::Int(s.encode_utf16().count() as i32);
                (0, Check::Equals { subject, value: Expected::Prim(length) })
            }
            // Any other object, boxed values under a wider type (`Number n = createNumber("0")`)
            // included: it is not null.
            (
                None,
                Value::Object { .. }
                | Value::Enum { .. }
                | Value::String(_)
                | Value::Array { .. }
                | Value::Bool(_)
                | Value::Byte(_)
                | Value::Char(_)
                | Value::Short(_)
                | Value::Int(_)
                | Value::Long(_)
                | Value::Float(_)
                | Value::Double(_),
            ) if !ty.is_primitive() => (3, Check::NotNull(var)),
            _ => continue,
        };
        out.push(Candidate { priority, assertion: Assertion { after: i, check }, probe: None });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unstable_strings() {
        assert!(unstable_string("example.Stack@1b6d3586"));
        assert!(unstable_string("[I@4554617c"));
        assert!(!unstable_string("a@b.com"));
        assert!(unstable_string("java.io.BufferedWriter@1"));
        assert!(unstable_string("[Lx.Y;@1, 2]"));
        assert!(!unstable_string("a@1a.org"));
        assert!(unstable_string("[Ljava.lang.Object;@1w,hLBD-c.[Ljava.lang.Object;@1"));
        assert!(unstable_string("x[I@1xyz"));
        assert!(unstable_string("[[Z@1z"));
        assert!(!unstable_string("I@1xyz"));
        assert!(!unstable_string("ZL;@1xyz"));
        assert!(unstable_string("[LLib.Lx;@1b"));
        assert!(!unstable_string("size=3"));
        assert!(unstable_string("at 1700000000123"));
        assert!(unstable_string("Ordering.from(suitesmith.stubs.java_util_Comparator@1)"));
        assert!(unstable_string("class stubs.Meter$SuitesmithStub"));
        assert!(unstable_string("/tmp/suitesmith-worker-x1/suitesmith-files/file0"));
        assert!(unstable_string("suitesmith-files"));
        assert!(!unstable_string("file0"));
        assert!(time_like(TIME_BASE_MS + 5));
        assert!(time_like((TIME_BASE_MS + 5) * 1_000_000));
        assert!(!time_like(42));
        // The extremes do not overflow (a debug build panicked on mutation.Values).
        assert!(!time_like(i64::MIN));
        assert!(!time_like(i64::MAX));
    }
}
