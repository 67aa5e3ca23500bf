//! Data-driven tests of the JUnit renderer on the `junit` fixtures: hand-written suites with known
//! outcomes are rendered for JUnit 4 and 5, compared with snapshots in `test_data/junit{4,5}/`
//! (`UPDATE_EXPECT=1` to bless), compiled with javac against the Debian JUnit jars and run with JUnit's
//! own runners (they must pass); suites from `testcase`'s random factory on the `junit`, `cluster`
//! and `bounds` fixtures must compile; rendering twice gives identical bytes; bad input is a typed error;
//! a class whose tests change system properties restores them after each test (`sysprops` fixture).

#![allow(clippy::disallowed_methods)]

mod common;

use std::path::{Path, PathBuf};

use common::{
    B, CUTS, Clusters, JUNIT4_CP, JUNIT5_STANDALONE, compile, int, java, join_cp, program_db, suites,
};
use expect_test::expect_file;
use junit::{
    Assertion, Check, Expected, JUnitTest, RenderConfig, RenderError, Rendered, Style, Subject, render,
};
use testcase::{FactoryConfig, Statement, TestCluster, TestFactory, ValuePool, VarId, rng_from_seed};

/// JUnit 4 suites are rendered with EvoSuite's constant inlining (the default), JUnit 5 suites
/// without it, so that both paths are compiled and run without rendering everything twice.
fn config_for(style: Style, seed: u64) -> RenderConfig {
    let mut config = RenderConfig::new(style, seed);
    config.inline_constants = style == Style::JUnit4;
    config.static_nested = vec!["junit.Outer$Nested".to_string()];
    config
}

fn render_suites(style: Style) -> Vec<Rendered> {
    let cl = Clusters::build(&program_db(&["junit"]), &CUTS);
    let config = config_for(style, 42);
    suites(&cl)
        .iter()
        .map(|(cut, tests)| render(cut, tests, &config).unwrap_or_else(|e| panic!("{cut}: {e}")))
        .collect()
}

fn jars(paths: &[&str]) -> Vec<PathBuf> {
    paths.iter().map(PathBuf::from).collect()
}

/// Renders, snapshots, compiles and runs the hand-written suites; returns the number of tests run.
fn check_style(style: Style) {
    let rendered = render_suites(style);
    let dir_name = match style {
        Style::JUnit4 => "junit4",
        Style::JUnit5 => "junit5",
    };
    for r in &rendered {
        expect_file![format!("../test_data/{dir_name}/{}.java", r.binary_name())].assert_eq(&r.source);
        assert!(r.source.is_ascii(), "{} is not ASCII", r.relative_path());
    }
    assert_eq!(rendered, render_suites(style), "rendering is not deterministic");
    for r in &rendered {
        check_lines(r);
    }

    let tmp = tempfile::tempdir().expect("tempdir");
    let fixtures = test_support::fixture_classes("junit");
    let mut cp = vec![fixtures.clone()];
    cp.extend(match style {
        Style::JUnit4 => jars(JUNIT4_CP),
        Style::JUnit5 => jars(&[JUNIT5_STANDALONE]),
    });
    let classes = compile(tmp.path(), &rendered, &cp).unwrap_or_else(|e| panic!("javac failed:\n{e}"));
    let n_tests: usize = {
        let cl = Clusters::build(&program_db(&["junit"]), &CUTS);
        suites(&cl).iter().map(|(_, t)| t.len()).sum()
    };
    let names: Vec<String> = rendered.iter().map(Rendered::binary_name).collect();
    match style {
        Style::JUnit4 => {
            let mut run_cp = vec![classes];
            run_cp.extend(cp);
            let mut args =
                vec!["-cp".to_string(), join_cp(&run_cp), "org.junit.runner.JUnitCore".to_string()];
            args.extend(names);
            let (ok, out) = java(&args);
            assert!(ok, "JUnit 4 run failed:\n{out}");
            assert!(out.contains(&format!("OK ({n_tests} tests)")), "unexpected JUnit 4 summary:\n{out}");
        }
        Style::JUnit5 => {
            let mut args = vec![
                "-jar".to_string(),
                JUNIT5_STANDALONE.to_string(),
                "--disable-banner".to_string(),
                "--details=summary".to_string(),
                "--fail-if-no-tests".to_string(),
                "--class-path".to_string(),
                join_cp(&[classes, fixtures]),
            ];
            for n in names {
                args.push(format!("--select-class={n}"));
            }
            let (ok, out) = java(&args);
            assert!(ok, "JUnit 5 run failed:\n{out}");
            let successful = out
                .lines()
                .find(|l| l.contains("tests successful"))
                .and_then(|l| l.trim_start_matches(|c: char| !c.is_ascii_digit()).split_whitespace().next())
                .and_then(|n| n.parse::<usize>().ok());
            assert_eq!(successful, Some(n_tests), "unexpected JUnit 5 summary:\n{out}");
        }
    }
}

/// `Rendered::tests` points at the right lines: each method's header just before its first line,
/// each assertion's line holding an `assert` call, the `assertThrows` and throwing lines.
fn check_lines(r: &Rendered) {
    let lines: Vec<&str> = r.source.lines().collect();
    let line = |n: u32| lines[n as usize - 1].trim();
    for t in &r.tests {
        assert!(
            line(t.first_line - 1).contains(&format!("void {}()", t.method)),
            "{}: {}",
            r.class_name,
            t.method
        );
        assert_eq!(line(t.last_line), "}", "{}: {}", r.class_name, t.method);
        for &(_, l) in &t.assertions {
            assert!(line(l).starts_with("assert"), "{}: {} line {l}: {}", r.class_name, t.method, line(l));
        }
        if let Some(l) = t.fail {
            assert!(line(l).contains("assertThrows("), "{}", line(l));
        }
        if let Some(l) = t.throwing {
            assert!(t.fail.is_some() && l >= t.first_line && l <= t.last_line);
        }
    }
}

/// The line of the frame of `method` of the test class in a JUnit stack trace printed in `out`.
fn frame_line(out: &str, class: &str, method: &str) -> Option<u32> {
    let needle = format!("{class}.{method}(");
    let l = out.lines().find(|l| l.contains(&needle))?;
    let tail = l.rsplit_once(':')?.1;
    tail.trim_end_matches(')').parse().ok()
}

#[test]
fn junit4_suites_compile_and_pass() {
    check_style(Style::JUnit4);
}

#[test]
fn junit5_suites_compile_and_pass() {
    check_style(Style::JUnit5);
}

/// Random tests of `testcase`'s factory (EvoSuite's insertion probabilities) on every fixture class of
/// the `junit` and `cluster` areas, without assertions: whatever the factory builds must compile in
/// both styles, and so must those on the `bounds` fixtures, whose factories bound their type
/// variables. They are not run: without execution results their outcomes are unknown.
#[test]
fn factory_suites_compile() {
    let db = program_db(&["junit", "cluster", "bounds"]);
    let cuts = [
        "junit.Prims",
        "junit.Outer",
        "junit.Outer$Inner",
        "junit.Box",
        "junit.Thrower",
        "junit.Color",
        "junit.other.Date",
        "cluster.Overloads",
        "cluster.Generics",
        "cluster.Geometry",
        "cluster.Zoo",
        "cluster.Palette",
        "cluster.Pizza",
        "cluster.Money",
        "cluster.ArrayOps",
        // Factories bounding their variables more than the class does (`E extends Comparable<E>`,
        // like Guava's MinMaxPriorityQueue): javac rejects instantiations outside the bounds.
        "bounds.SortedBag",
        "bounds.SpanMap",
        "bounds.FrozenSpanMap",
    ];
    let config = FactoryConfig::evosuite();
    let mut rng = rng_from_seed(7);
    let mut rendered = Vec::new();
    let mut n_statements = 0;
    for cut in cuts {
        let cluster =
            TestCluster::build_in(&db, cut, &testcase::ClusterConfig::evosuite()).expect("cluster builds");
        let pool = ValuePool::new(cluster.constants().clone(), config.dynamic_pool_size);
        let factory = TestFactory::new(&cluster, &pool, &config);
        let tests: Vec<JUnitTest> =
            (0..25).map(|_| JUnitTest::plain(factory.random_test(&mut rng))).collect();
        n_statements += tests.iter().map(|t| t.case.len()).sum::<usize>();
        for (style, suffix) in [(Style::JUnit4, "J4"), (Style::JUnit5, "J5")] {
            let mut rc = config_for(style, 7);
            rc.class_name =
                Some(format!("{}_Random{suffix}Test", cut.rsplit(['.', '$']).next().unwrap_or(cut)));
            let a = render(cut, &tests, &rc).unwrap_or_else(|e| panic!("{cut}: {e}"));
            let b = render(cut, &tests, &rc).expect("renders twice");
            assert_eq!(a.source.as_bytes(), b.source.as_bytes(), "{cut}: not deterministic");
            rendered.push(a);
        }
    }
    assert!(n_statements > 1000, "the factory built only {n_statements} statements");
    let lines: usize = rendered.iter().map(|r| r.source.lines().count()).sum();
    eprintln!("factory suites: {} classes, {n_statements} statements, {lines} lines of Java", rendered.len());
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut jcp = vec![
        test_support::fixture_classes("junit"),
        test_support::fixture_classes("cluster"),
        test_support::fixture_classes("bounds"),
    ];
    jcp.extend(jars(JUNIT4_CP));
    jcp.push(PathBuf::from(JUNIT5_STANDALONE));
    if let Some(keep) = std::env::var_os("JUNIT_KEEP") {
        for r in &rendered {
            std::fs::write(PathBuf::from(&keep).join(format!("{}.java", r.binary_name())), &r.source)
                .expect("keep");
        }
    }
    if let Err(e) = compile(tmp.path(), &rendered, &jcp) {
        panic!("javac failed on factory suites:\n{e}");
    }
}

/// The error cases of `render`: malformed references are typed errors, never panics or bad Java.
#[test]
fn bad_input_is_an_error() {
    let cl = Clusters::build(&program_db(&["junit"]), &["junit.Prims"]);
    let config = RenderConfig::new(Style::JUnit4, 1);
    let mut forward = testcase::TestCase::new();
    forward.push(Statement::Copy { from: VarId(3), ty: testcase::JType::object() });
    let err = render("junit.Prims", &[JUnitTest::plain(forward)], &config).unwrap_err();
    assert_eq!(err, RenderError::ForwardUse { test: 0, stmt: 0, var: VarId(3) });

    let mut b = B::new(&cl);
    let x = b.prim(int(1));
    let r = b.call("junit.Prims", "echo", "(I)I", None, &[x]);
    b.eq(r, int(1));
    let err = render("junit.Prims", &[b.throws("java.lang.RuntimeException")], &config).unwrap_err();
    assert!(matches!(err, RenderError::BadAssertion { test: 0, assertion: 0, .. }), "{err}");

    let mut b = B::new(&cl);
    let x = b.prim(int(1));
    b.check(Check::Null(x));
    let err = render("junit.Prims", &[b.done()], &config).unwrap_err();
    assert_eq!(err.to_string(), "test 0, assertion 0: a primitive variable is never null or an object");

    let mut b = B::new(&cl);
    let x = b.prim(int(1));
    b.check(Check::Equals { subject: Subject::Var(x), value: Expected::Prim(int(1)) });
    let mut t = b.done();
    t.assertions[0].after = 5;
    assert!(matches!(render("junit.Prims", &[t], &config), Err(RenderError::BadAssertion { .. })));
    assert_eq!(render("", &[], &config).unwrap_err(), RenderError::BadClassName(String::new()));
    assert_eq!(
        render(
            "junit.Prims",
            &[JUnitTest { expected_exception: Some("X".into()), ..JUnitTest::plain(Default::default()) }],
            &config
        )
        .unwrap_err(),
        RenderError::EmptyThrowingTest { test: 0 }
    );
    // A check of a thrown exception in a test that expects none.
    let mut t = JUnitTest::plain(Default::default());
    t.case.push(Statement::Primitive(int(1)));
    t.assertions.push(Assertion { after: 0, check: Check::ThrownMessage("m".into()) });
    assert!(matches!(render("junit.Prims", &[t], &config), Err(RenderError::BadAssertion { .. })));
    // Names: a given name may not repeat a numbered one, nor be anything but an identifier.
    let named = |n: &str| JUnitTest { name: Some(n.into()), ..JUnitTest::plain(Default::default()) };
    let plain = JUnitTest::plain(Default::default());
    for (tests, bad) in [
        (vec![plain.clone(), named("test00")], 1),
        (vec![named("testA"), named("testA")], 1),
        (vec![named("test-a")], 0),
        (vec![named("")], 0),
    ] {
        match render("junit.Prims", &tests, &config) {
            Err(RenderError::BadTestName { test, .. }) => assert_eq!(test, bad),
            other => panic!("{tests:?}: {other:?}"),
        }
    }
    assert!(render("junit.Prims", &[named("testA"), named("testB"), plain], &config).is_ok());
}

/// An empty suite is a class without methods or imports; the header, package and timeouts follow the
/// configuration.
#[test]
fn empty_suite_and_configuration() {
    let mut config = RenderConfig::new(Style::JUnit5, 9);
    config.class_name = Some("OuterInnerTest".into());
    config.tool_version = "1.2.3".into();
    let r = render("a.b.Outer$Inner", &[], &config).expect("renders");
    assert_eq!(r.relative_path(), "a/b/OuterInnerTest.java");
    expect_test::expect![[r#"
        /* Generated by suitesmith 1.2.3, seed 9, for a.b.Outer$Inner, JUnit 5. */

        package a.b;

        public class OuterInnerTest {
        }
    "#]]
    .assert_eq(&r.source);
    config.timeout_ms = 1500;
    let r = render("Top", &[JUnitTest::plain(Default::default())], &config).expect("renders");
    expect_test::expect![[r#"
        /* Generated by suitesmith 1.2.3, seed 9, for Top, JUnit 5. */

        import java.util.concurrent.TimeUnit;
        import org.junit.jupiter.api.Test;
        import org.junit.jupiter.api.Timeout;

        public class OuterInnerTest {

          @Test
          @Timeout(value = 1500, unit = TimeUnit.MILLISECONDS)
          public void test00() throws Throwable {
          }
        }
    "#]]
    .assert_eq(&r.source);
}

/// The assertions are real: a suite whose every expectation is wrong (a wrong value, a null check on
/// an object, an exception that is not thrown, in the plain and in the `Throwable` form) fails every
/// test under both JUnits.
#[test]
fn wrong_expectations_fail() {
    let cl = Clusters::build(&program_db(&["junit"]), &["junit.Prims", "junit.Thrower"]);
    let mut tests = Vec::new();
    let mut b = B::new(&cl);
    let x = b.prim(int(5));
    let r = b.call("junit.Prims", "echo", "(I)I", None, &[x]);
    b.eq(r, int(6));
    tests.push(b.done());
    let mut b = B::new(&cl);
    let p = b.call("junit.Prims", "<init>", "()V", None, &[]);
    b.check(Check::Null(p));
    tests.push(b.done());
    let mut b = B::new(&cl);
    let t = b.call("junit.Thrower", "<init>", "()V", None, &[]);
    let x = b.prim(int(5));
    b.call("junit.Thrower", "check", "(I)I", Some(t), &[x]);
    tests.push(b.throws("java.lang.IllegalArgumentException"));
    let mut b = B::new(&cl);
    let t = b.call("junit.Thrower", "<init>", "()V", None, &[]);
    let x = b.prim(int(5));
    b.call("junit.Thrower", "check", "(I)I", Some(t), &[x]);
    tests.push(b.throws("java.lang.Throwable"));

    let rendered: Vec<Rendered> = [(Style::JUnit4, "Wrong4Test"), (Style::JUnit5, "Wrong5Test")]
        .iter()
        .map(|(style, name)| {
            let mut config = RenderConfig::new(*style, 1);
            config.class_name = Some(name.to_string());
            render("junit.Thrower", &tests, &config).expect("renders")
        })
        .collect();
    let tmp = tempfile::tempdir().expect("tempdir");
    let fixtures = test_support::fixture_classes("junit");
    let mut cp = vec![fixtures.clone()];
    cp.extend(jars(JUNIT4_CP));
    cp.push(PathBuf::from(JUNIT5_STANDALONE));
    let classes = compile(tmp.path(), &rendered, &cp).unwrap_or_else(|e| panic!("javac failed:\n{e}"));

    let mut run_cp = vec![classes.clone()];
    run_cp.extend(cp);
    let (ok, out) = java(&[
        "-cp".to_string(),
        join_cp(&run_cp),
        "org.junit.runner.JUnitCore".to_string(),
        rendered[0].binary_name(),
    ]);
    assert!(!ok && out.contains("Tests run: 4,  Failures: 4"), "JUnit 4 should fail 4 of 4:\n{out}");
    // The stack traces name the lines `Rendered::tests` gives for the failing assertion and `fail`.
    let r4 = &rendered[0];
    check_lines(r4);
    let name = r4.binary_name();
    assert_eq!(frame_line(&out, &name, &r4.tests[0].method), Some(r4.tests[0].assertions[0].1), "{out}");
    assert_eq!(frame_line(&out, &name, &r4.tests[1].method), Some(r4.tests[1].assertions[0].1), "{out}");
    assert_eq!(frame_line(&out, &name, &r4.tests[2].method), r4.tests[2].fail, "{out}");
    let (ok, out) = java(&[
        "-jar".to_string(),
        JUNIT5_STANDALONE.to_string(),
        "--disable-banner".to_string(),
        "--details=summary".to_string(),
        "--class-path".to_string(),
        join_cp(&[classes, fixtures]),
        format!("--select-class={}", rendered[1].binary_name()),
    ]);
    let failed = out.lines().any(|l| l.contains("4 tests failed"));
    assert!(!ok && failed, "JUnit 5 should fail 4 of 4:\n{out}");
}

/// A class of the CUT's package named like a `java.lang` class shadows it, so the `java.lang` one
/// is written fully qualified when the caller lists the package's classes.
#[test]
fn package_classes_shadow_java_lang() {
    let cl = Clusters::build(&program_db(&["junit"]), &["junit.Prims"]);
    let mut b = B::new(&cl);
    let s = b.str("x");
    let r = b.call("junit.Prims", "which", "(Ljava/lang/Object;)Ljava/lang/String;", None, &[s]);
    b.eq_str(r, "Object");
    let m = b.prim(int(i32::MIN));
    b.call("junit.Prims", "echo", "(I)I", None, &[m]);
    let mut config = RenderConfig::new(Style::JUnit4, 3);
    config.timeout_ms = 0;
    config.package_classes = vec!["junit.String".into(), "junit.Integer".into(), "other.Object".into()];
    let r = render("junit.Prims", &[b.done()], &config).expect("renders");
    expect_test::expect![[r#"
        /* Generated by suitesmith 0.0.0, seed 3, for junit.Prims, JUnit 4. */

        package junit;

        import static org.junit.Assert.assertEquals;

        import org.junit.Test;

        public class Prims_ESTest {

          @Test
          public void test00() throws Throwable {
            java.lang.String string0 = Prims.which((Object) "x");
            assertEquals("Object", string0);
            int int0 = Prims.echo(java.lang.Integer.MIN_VALUE);
          }
        }
    "#]]
    .assert_eq(&r.source);
}

/// A violation test (docs/contracts.md): its first line says it fails by design, and each contract
/// is an assertion with its message, first in JUnit 4 and last in JUnit 5.
#[test]
fn contracts_are_assertions_with_a_message() {
    use junit::Rule;
    use testcase::{PrimValue, TestCase};
    let mut case = TestCase::new();
    let eq = case.push(Statement::Primitive(PrimValue::Boolean(false)));
    let c1 = case.push(Statement::Primitive(PrimValue::Int(1)));
    let c2 = case.push(Statement::Primitive(PrimValue::Int(1)));
    let contract = |rule: Rule, message: &str| Assertion {
        after: 2,
        check: Check::Contract { rule, message: message.to_string() },
    };
    let test = JUnitTest {
        case,
        assertions: vec![
            contract(Rule::True(eq), "reflexive"),
            contract(Rule::False(eq), "false on \"null\""),
            contract(Rule::Zero(c1), "zero"),
            contract(Rule::Same(c1, c2), "same"),
            contract(Rule::OppositeSigns(c1, c2), "antisymmetric"),
            contract(Rule::ZeroWhenEqual { compared: c1, equal: eq }, "consistent"),
        ],
        expected_exception: None,
        name: Some("testContracts".into()),
        changes_system_properties: false,
    };
    let mut out = String::new();
    for style in [Style::JUnit4, Style::JUnit5] {
        let mut config = RenderConfig::new(style, 3);
        config.tool_version = "1.2.3".into();
        config.class_name = Some("TopViolationTest".into());
        config.failing_by_design = true;
        let r = render("Top", std::slice::from_ref(&test), &config).expect("renders");
        out.push_str(&r.source);
    }
    expect_test::expect![[r#"
        /* These tests FAIL by design: each shows a contract Top breaks (suitesmith, docs/contracts.md). */
        /* Generated by suitesmith 1.2.3, seed 3, for Top, JUnit 4. */

        import static org.junit.Assert.assertEquals;
        import static org.junit.Assert.assertFalse;
        import static org.junit.Assert.assertTrue;

        import org.junit.Test;

        public class TopViolationTest {

          @Test(timeout = 4000)
          public void testContracts() throws Throwable {
            boolean boolean0 = false;
            int int0 = 1;
            int int1 = 1;
            assertTrue("reflexive", boolean0);
            assertFalse("false on \"null\"", boolean0);
            assertEquals("zero", 0, int0);
            assertEquals("same", int0, int1);
            assertEquals("antisymmetric", -Integer.signum(int0), Integer.signum(int1));
            assertEquals("consistent", boolean0, int0 == 0);
          }
        }
        /* These tests FAIL by design: each shows a contract Top breaks (suitesmith, docs/contracts.md). */
        /* Generated by suitesmith 1.2.3, seed 3, for Top, JUnit 5. */

        import static org.junit.jupiter.api.Assertions.assertEquals;
        import static org.junit.jupiter.api.Assertions.assertFalse;
        import static org.junit.jupiter.api.Assertions.assertTrue;

        import org.junit.jupiter.api.Test;
        import org.junit.jupiter.api.Timeout;

        public class TopViolationTest {

          @Test
          @Timeout(4)
          public void testContracts() throws Throwable {
            boolean boolean0 = false;
            int int0 = 1;
            int int1 = 1;
            assertTrue(boolean0, "reflexive");
            assertFalse(boolean0, "false on \"null\"");
            assertEquals(0, int0, "zero");
            assertEquals(int0, int1, "same");
            assertEquals(-Integer.signum(int0), Integer.signum(int1), "antisymmetric");
            assertEquals(boolean0, int0 == 0, "consistent");
          }
        }
    "#]]
    .assert_eq(&out);
}

// The restore of system properties (`JUnitTest::changes_system_properties`, src/properties.rs), on
// `sysprops.Config` (fixtures/java/sysprops): a suite with a test that turns debugging on through
// `System.setProperty` and one that expects it off is rendered for JUnit 4 and 5, compared with
// snapshots, compiled and run; JUnit 5 runs them in name order, the writer first, where the same
// suite without the restore fails. A suite none of whose tests changes properties gets no restore.

const SYSPROPS_CONFIG: &str = "sysprops.Config";

/// `enableDebug(); assertEquals("debug", mode())`, which changes the properties, and
/// `assertEquals("normal", mode())`, which fails after it unless they are restored. Named so that
/// in name order the first runs first.
fn properties_suite(restore: bool) -> Vec<JUnitTest> {
    let cl = Clusters::build(&program_db(&["sysprops"]), &[SYSPROPS_CONFIG]);
    let mut on = B::new(&cl);
    on.call(SYSPROPS_CONFIG, "enableDebug", "()V", None, &[]);
    let mode = on.call(SYSPROPS_CONFIG, "mode", "()Ljava/lang/String;", None, &[]);
    on.eq_str(mode, "debug");
    let mut off = B::new(&cl);
    let mode = off.call(SYSPROPS_CONFIG, "mode", "()Ljava/lang/String;", None, &[]);
    off.eq_str(mode, "normal");
    vec![
        JUnitTest { name: Some("testDebugOn".into()), changes_system_properties: restore, ..on.done() },
        JUnitTest { name: Some("testModeNormal".into()), ..off.done() },
    ]
}

fn rendered_properties(style: Style, restore: bool) -> Rendered {
    let mut config = RenderConfig::new(style, 5);
    config.tool_version = "1.2.3".into();
    render(SYSPROPS_CONFIG, &properties_suite(restore), &config).expect("renders")
}

fn compiled(dir: &Path, r: &Rendered, style: Style) -> Vec<PathBuf> {
    let mut cp = vec![test_support::fixture_classes("sysprops")];
    cp.extend(match style {
        Style::JUnit4 => jars(JUNIT4_CP),
        Style::JUnit5 => vec![PathBuf::from(JUNIT5_STANDALONE)],
    });
    let classes = compile(dir, std::slice::from_ref(r), &cp).unwrap_or_else(|e| panic!("javac failed:\n{e}"));
    cp.insert(0, classes);
    cp
}

/// Runs the JUnit 5 class in method-name order; whether every test passed, and the output.
fn run_junit5_in_name_order(cp: &[PathBuf], class: &str) -> (bool, String) {
    java(&[
        "-jar".to_string(),
        JUNIT5_STANDALONE.to_string(),
        "--disable-banner".to_string(),
        "--details=tree".to_string(),
        "--config=junit.jupiter.testmethod.order.default=org.junit.jupiter.api.MethodOrderer$MethodName"
            .to_string(),
        "--class-path".to_string(),
        join_cp(cp),
        format!("--select-class={class}"),
    ])
}

#[test]
fn a_class_whose_tests_change_system_properties_restores_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (style, dir) in [(Style::JUnit4, "junit4"), (Style::JUnit5, "junit5")] {
        let r = rendered_properties(style, true);
        expect_file![format!("../test_data/{dir}/{}.java", r.binary_name())].assert_eq(&r.source);
        let cp = compiled(&tmp.path().join(dir), &r, style);
        let (ok, out) = match style {
            Style::JUnit4 => {
                let mut args =
                    vec!["-cp".to_string(), join_cp(&cp), "org.junit.runner.JUnitCore".to_string()];
                args.push(r.binary_name());
                java(&args)
            }
            Style::JUnit5 => run_junit5_in_name_order(&cp, &r.binary_name()),
        };
        assert!(ok, "{dir}: the tests fail:\n{out}");
    }
}

/// Without the restore the reader fails after the writer: the check above is not vacuous. And a
/// suite that does not change properties gets nothing of the restore.
#[test]
fn without_the_restore_the_tests_depend_on_their_order() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let r = rendered_properties(Style::JUnit5, false);
    for absent in ["Properties", "SYSTEM_PROPERTIES", "AfterEach", "restoreSystemProperties"] {
        assert!(!r.source.contains(absent), "{absent} in a class that changes no properties:\n{}", r.source);
    }
    let cp = compiled(tmp.path(), &r, Style::JUnit5);
    let (ok, out) = run_junit5_in_name_order(&cp, &r.binary_name());
    assert!(!ok && out.contains("expected: <normal> but was: <debug>"), "{out}");
}
