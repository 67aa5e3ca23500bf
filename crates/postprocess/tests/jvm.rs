//! Minimisation and assertions on suites that a short real search produced (DynaMOSA, EvoSuite's
//! default criteria, 2000 evaluations, seed 1) for the bundled examples and a few `cluster`
//! fixtures, run in real JVM workers: the minimised suite covers the same goals with no more
//! statements, the asserted tests are snapshots (`test_data/<Class>.asserted.txt`, bless with
//! `UPDATE_EXPECT=1`), and rendered as JUnit 4 they compile and every assertion passes under
//! JUnitCore. Minimisation and assertions are deterministic: a second run with fresh workers gives
//! the same output.

#![allow(clippy::disallowed_methods)] // javac and java are spawned here, as crates/junit/tests do.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use engine::{DEFAULT_CRITERIA, GenerateConfig, JvmProblem, generate};
use exec::ExecResult;
use junit::{RenderConfig, Style};
use postprocess::{AssertedTest, AssertionConfig, Minimised, Runner, RunnerError, assertions, minimise};
use programdb::ProgramDb;
use search::Budget;
use testcase::{ConstructorRef, JType, MethodRef, PrimType, Statement, TestCase, VarId};

/// The `Runner` the engine will provide: `JvmProblem` executes, goal fitness 0 is covered.
/// With `trips_in_time`, its time is up after that many round trips (a deadline that does not
/// depend on the machine's speed).
struct JvmRunner {
    problem: JvmProblem,
    round_trips: usize,
    trips_in_time: Option<usize>,
}

impl JvmRunner {
    fn new(classpath: &[PathBuf], class: &str) -> JvmRunner {
        let db = test_support::open_db(classpath);
        let problem =
            JvmProblem::with_db(&db, classpath, class, &DEFAULT_CRITERIA, 2, 3000, engine::Extras::default())
                .expect("problem starts");
        JvmRunner { problem, round_trips: 0, trips_in_time: None }
    }
}

impl Runner for JvmRunner {
    fn run(&mut self, tests: &[TestCase]) -> Result<Vec<ExecResult>, RunnerError> {
        self.round_trips += 1;
        Ok(self.problem.execute(tests)?)
    }

    fn covered(&self, result: &ExecResult) -> Vec<u32> {
        let f = self.problem.fitness(&result.trace);
        f.iter().enumerate().filter(|(_, f)| **f == 0.0).map(|(i, _)| i as u32).collect()
    }

    fn out_of_time(&self) -> bool {
        self.trips_in_time.is_some_and(|n| self.round_trips >= n)
    }
}

fn examples() -> Vec<PathBuf> {
    vec![test_support::workspace_root().join("examples/classes")]
}

fn cluster() -> Vec<PathBuf> {
    vec![test_support::fixture_classes("cluster")]
}

fn search(classpath: &[PathBuf], class: &str) -> Vec<TestCase> {
    let config = GenerateConfig {
        workers: 2,
        techniques: engine::Techniques::none(),
        ..GenerateConfig::standard(classpath.to_vec(), class, Budget::evaluations(2000), 1)
    };
    generate(&config).unwrap_or_else(|e| panic!("{class}: {e}")).suite
}

/// The user classpath plus `java.base`, for the inspectors of JDK types.
fn class_path(classpath: &[PathBuf]) -> ProgramDb {
    let mut paths = classpath.to_vec();
    paths.push(test_support::java_base_jmod());
    test_support::open_db(&paths)
}

/// The asserted tests as text: each test, its assertions by statement, its expected exception.
fn text(tests: &[AssertedTest]) -> String {
    let mut out = String::new();
    for (i, t) in tests.iter().enumerate() {
        let s = &t.stats;
        out.push_str(&format!(
            "// test {i}: {} candidates, {} unstable, {} inspectors removed, {} capped, {} dropped on check\n",
            s.candidates, s.unstable, s.inspectors_removed, s.capped, s.dropped_on_check
        ));
        out.push_str(&t.test.case.to_string());
        for a in &t.test.assertions {
            out.push_str(&format!("  after {}: {:?}\n", a.after, a.check));
        }
        if let Some(e) = &t.test.expected_exception {
            out.push_str(&format!("  throws {e}\n"));
        }
    }
    out
}

fn statements(suite: &[TestCase]) -> usize {
    suite.iter().map(TestCase::len).sum()
}

/// Search, minimise, assert; checks the minimisation's invariants and prints the figures.
fn pipeline(classpath: &[PathBuf], class: &str) -> (Minimised, Vec<AssertedTest>, usize) {
    let suite = search(classpath, class);
    let mut runner = JvmRunner::new(classpath, class);
    let m = minimise(&mut runner, suite.clone()).expect("minimise");
    assert!(m.preserved(), "{class}: goals before {:?}\nafter {:?}", m.covered_before, m.covered_after);
    assert!(m.lost.is_empty());
    assert_eq!(m.statements_before, statements(&suite));
    assert_eq!(m.statements_after, statements(&m.suite));
    assert!(m.statements_after <= m.statements_before);
    assert!(m.suite.len() <= suite.len());
    let minimise_trips = runner.round_trips;
    let cp = class_path(classpath);
    let asserted =
        assertions(&mut runner, &m.suite, &cp, &AssertionConfig::evosuite(class)).expect("assertions");
    let assert_trips = runner.round_trips - minimise_trips;
    let per_test: Vec<usize> = asserted.iter().map(|t| t.test.assertions.len()).collect();
    println!(
        "{class}: {} goals; tests {} -> {}, statements {} -> {}; minimise: {} round trips, {} executions; \
         assertions per test {:?} (+ {} expected exceptions), {} round trips",
        m.covered_before.len(),
        m.tests_before,
        m.suite.len(),
        m.statements_before,
        m.statements_after,
        m.round_trips,
        m.executions,
        per_test,
        asserted.iter().filter(|t| t.test.expected_exception.is_some()).count(),
        assert_trips,
    );
    assert!(asserted.iter().all(|t| !t.stats.flaky), "{class}: a flaky test");
    (m, asserted, assert_trips)
}

const JUNIT4: &[&str] = &["/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"];

fn tool(name: &str) -> PathBuf {
    test_support::java_home().join("bin").join(name)
}

/// Renders the tests as JUnit 4, compiles them against JUnit and `classpath`, runs JUnitCore in
/// `runs` fresh JVMs.
fn compile_and_run(classpath: &[PathBuf], class: &str, tests: &[AssertedTest], runs: usize) {
    let tests: Vec<junit::JUnitTest> = tests.iter().map(|t| t.test.clone()).collect();
    let rendered = junit::render(class, &tests, &RenderConfig::new(Style::JUnit4, 1)).expect("renders");
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path().join("src").join(rendered.relative_path());
    std::fs::create_dir_all(src.parent().expect("parent")).expect("src dir");
    std::fs::write(&src, &rendered.source).expect("write");
    let classes = dir.path().join("classes");
    std::fs::create_dir_all(&classes).expect("classes dir");
    let mut cp: Vec<PathBuf> = JUNIT4.iter().map(PathBuf::from).collect();
    cp.extend(classpath.iter().cloned());
    let cp_compile = std::env::join_paths(&cp).expect("cp").to_string_lossy().into_owned();
    let out = Command::new(tool("javac"))
        .args(["-J-XX:TieredStopAtLevel=1", "-nowarn", "-encoding", "US-ASCII", "-d"])
        .arg(&classes)
        .arg("-cp")
        .arg(&cp_compile)
        .arg(&src)
        .output()
        .expect("javac runs");
    succeeded(&out, &format!("{class}: javac"), &rendered.source);
    cp.push(classes);
    let cp_run = std::env::join_paths(&cp).expect("cp").to_string_lossy().into_owned();
    for run in 0..runs {
        let out = Command::new(tool("java"))
            .args(["-XX:TieredStopAtLevel=1", "-cp", &cp_run, "org.junit.runner.JUnitCore"])
            .arg(rendered.binary_name())
            .output()
            .expect("java runs");
        succeeded(&out, &format!("{class}: JUnit, run {run}"), &rendered.source);
    }
}

/// Fails with the output of `what` and the test source unless it exited with 0.
fn succeeded(out: &std::process::Output, what: &str, source: &str) {
    assert!(
        out.status.success(),
        "{what} failed:\n{}{}\n{source}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check(classpath: &[PathBuf], class: &str) {
    let (_, asserted, _) = pipeline(classpath, class);
    let simple = class.rsplit('.').next().unwrap_or(class);
    expect_test::expect_file![snapshot_path(simple)].assert_eq(&text(&asserted));
    compile_and_run(classpath, class, &asserted, 1);
}

fn snapshot_path(simple: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(format!("{simple}.asserted.txt"))
}

#[test]
fn stack() {
    check(&examples(), "example.Stack");
}

#[test]
fn triangle() {
    check(&examples(), "example.Triangle");
}

#[test]
fn money() {
    check(&cluster(), "cluster.Money");
}

#[test]
fn pizza() {
    check(&cluster(), "cluster.Pizza");
}

#[test]
fn array_ops() {
    check(&cluster(), "cluster.ArrayOps");
}

/// Same suite, fresh workers: the same minimised suite and the same assertions.
#[test]
fn deterministic() {
    let cp = examples();
    let suite = search(&cp, "example.Stack");
    let once = || {
        let mut runner = JvmRunner::new(&cp, "example.Stack");
        let m = minimise(&mut runner, suite.clone()).expect("minimise");
        let a =
            assertions(&mut runner, &m.suite, &class_path(&cp), &AssertionConfig::evosuite("example.Stack"))
                .expect("assertions");
        (m, a)
    };
    let (m1, a1) = once();
    let (m2, a2) = once();
    assert_eq!(m1, m2);
    assert_eq!(a1, a2);
}

/// Out of time after the first batch of the plain runs: that batch's tests get their assertions
/// as with time,
/// the later ones are not run and get none (nor an expected exception), and nothing else runs.
/// Those of them that do not throw compile and pass as written.
#[test]
fn plain_runs_stop_between_batches_when_time_is_up() {
    let cp = examples();
    let class = "example.Stack";
    let suite = search(&cp, class);
    let mut runner = JvmRunner::new(&cp, class);
    let m = minimise(&mut runner, suite).expect("minimise");
    assert!(m.suite.len() > 2, "{} tests", m.suite.len());
    let config = AssertionConfig { plain_chunk: 2, ..AssertionConfig::evosuite(class) };
    let full = assertions(&mut runner, &m.suite, &class_path(&cp), &config).expect("assertions");
    runner.trips_in_time = Some(runner.round_trips + 1);
    let before = runner.round_trips;
    let cut = assertions(&mut runner, &m.suite, &class_path(&cp), &config).expect("assertions");
    assert_eq!(runner.round_trips - before, 1, "one batch of plain runs, no inspector rounds, no check");
    assert_eq!(cut.len(), m.suite.len());
    for (k, (c, f)) in cut.iter().zip(&full).enumerate() {
        assert_eq!(c.stats.not_run, k >= 2, "test {k}: {:?}", c.stats);
        if k < 2 {
            assert_eq!(c.test, f.test, "test {k}: the first batch is asserted as before");
        } else {
            assert_eq!(c.test.case, m.suite[k], "test {k}");
            assert!(c.test.assertions.is_empty() && c.test.expected_exception.is_none(), "test {k}");
        }
    }
    assert!(full.iter().skip(2).any(|t| !t.test.assertions.is_empty()), "the later tests had assertions");
    let quiet: Vec<AssertedTest> = cut
        .iter()
        .zip(&full)
        .skip(2)
        .filter(|(_, f)| f.test.expected_exception.is_none())
        .map(|(c, _)| c.clone())
        .collect();
    assert!(!quiet.is_empty());
    compile_and_run(&cp, class, &quiet, 1);
}

/// Out of time after the first batch of the inspector runs: every plain batch ran, the tests of
/// that batch are checked in one more round trip and may keep their inspector assertions, the
/// later tests keep only plain ones (a subset of what they had with time), and the suite compiles
/// and passes as written.
#[test]
fn inspector_runs_stop_between_batches_when_time_is_up() {
    let cp = examples();
    let class = "example.Stack";
    let suite = search(&cp, class);
    let mut runner = JvmRunner::new(&cp, class);
    let m = minimise(&mut runner, suite).expect("minimise");
    let config = AssertionConfig { plain_chunk: 2, ..AssertionConfig::evosuite(class) };
    let full = assertions(&mut runner, &m.suite, &class_path(&cp), &config).expect("assertions");
    let plain_batches = m.suite.len().div_ceil(2);
    runner.trips_in_time = Some(runner.round_trips + plain_batches + 1);
    let before = runner.round_trips;
    let cut = assertions(&mut runner, &m.suite, &class_path(&cp), &config).expect("assertions");
    assert_eq!(
        runner.round_trips - before,
        plain_batches + 2,
        "every plain batch, one inspector batch and the check of its tests"
    );
    let mut fewer = 0;
    for (k, (c, f)) in cut.iter().zip(&full).enumerate() {
        assert!(!c.stats.not_run, "test {k}");
        assert!(c.test.assertions.iter().all(|a| f.test.assertions.contains(a)), "test {k}: {c:?}\n{f:?}");
        fewer += usize::from(c.test.assertions.len() < f.test.assertions.len());
    }
    assert!(fewer > 0, "some later test lost its inspector assertions");
    let quiet: Vec<AssertedTest> =
        cut.iter().filter(|t| t.test.expected_exception.is_none()).cloned().collect();
    assert!(!quiet.is_empty());
    compile_and_run(&cp, class, &quiet, 1);
}

/// A call of `name` on `receiver` (or a static one) declared by `class`.
fn call(
    class: &str,
    receiver: Option<VarId>,
    name: &str,
    args: Vec<VarId>,
    params: Vec<JType>,
    ret: JType,
) -> Statement {
    let descriptor =
        format!("({}){}", params.iter().map(JType::descriptor).collect::<String>(), ret.descriptor());
    let method = MethodRef {
        class: class.into(),
        name: name.into(),
        descriptor,
        is_static: receiver.is_none(),
        owner: JType::class(class),
        params,
        ret: Some(ret),
    };
    Statement::Method { method: Arc::new(method), receiver, args }
}

/// `Token token0 = new Token(); String string0 = token0.toString(); String string1 =
/// Scrubber.digitsOut(string0); int int0 = token0.hashCode(); boolean boolean0 = Scrubber.odd(int0);
/// String string2 = "a1b"; String string3 = Scrubber.digitsOut(string2);`: nothing computed from
/// the identity hash is asserted (`string1` reads `unstable.Token@` in the workers, `boolean0` is
/// true there), `string3` is, and the written test passes in three fresh JVMs.
#[test]
fn values_computed_from_an_identity_hash_are_not_asserted() {
    let classpath = vec![test_support::fixture_classes("unstable")];
    let class = "unstable.Scrubber";
    let (string, int, boolean) =
        (JType::string(), JType::Prim(PrimType::Int), JType::Prim(PrimType::Boolean));
    let token = JType::class("unstable.Token");
    let ctor = ConstructorRef {
        class: "unstable.Token".into(),
        descriptor: "()V".into(),
        ty: token,
        params: Vec::new(),
    };
    let mut t = TestCase::new();
    let v0 = t.push(Statement::Constructor { ctor: Arc::new(ctor), args: Vec::new() });
    let v1 = t.push(call("java.lang.Object", Some(v0), "toString", Vec::new(), Vec::new(), string.clone()));
    let v2 = t.push(call(class, None, "digitsOut", vec![v1], vec![string.clone()], string.clone()));
    let v3 = t.push(call("java.lang.Object", Some(v0), "hashCode", Vec::new(), Vec::new(), int.clone()));
    let v4 = t.push(call(class, None, "odd", vec![v3], vec![int], boolean));
    let v5 = t.push(Statement::String("a1b".into()));
    let v6 = t.push(call(class, None, "digitsOut", vec![v5], vec![string.clone()], string.clone()));
    // A builder that printed the token: its length differs outside the workers.
    let builder = "java.lang.StringBuilder";
    let sb = ConstructorRef {
        class: builder.into(),
        descriptor: "(Ljava/lang/String;)V".into(),
        ty: JType::class(builder),
        params: vec![string.clone()],
    };
    let v7 = t.push(Statement::Constructor { ctor: Arc::new(sb), args: vec![v5] });
    let v8 =
        t.push(call(builder, Some(v7), "append", vec![v0], vec![JType::object()], JType::class(builder)));
    let v9 = t.push(call(builder, Some(v8), "length", Vec::new(), Vec::new(), JType::Prim(PrimType::Int)));
    let mut runner = JvmRunner::new(&classpath, class);
    let config = AssertionConfig::evosuite(class);
    let asserted = assertions(&mut runner, &[t], &class_path(&classpath), &config).expect("assertions");
    let observed: Vec<VarId> = asserted[0].test.assertions.iter().flat_map(|a| a.check.vars()).collect();
    for v in [v1, v2, v3, v4, v8, v9] {
        assert!(!observed.contains(&v), "{v:?} asserted:\n{}", text(&asserted));
    }
    assert!(observed.contains(&v6), "{}", text(&asserted));
    compile_and_run(&classpath, class, &asserted, 3);
}
