//! `JvmVerifier` on hand-written JUnit 4 tests of `fixtures/java/sandbox`, with real javac and JVMs:
//! the runs are guarded and contained (a test that would delete a file outside the
//! scratch directory fails instead, and the file survives), a JVM that dies is re-run to find the
//! one test that killed it, and the five runs differ in identity hashes and clock so that an
//! assertion on either fails in one of them.

use std::collections::BTreeMap;
use std::path::PathBuf;

use engine::JvmVerifier;
use engine::{TestFailure, Verifier};
use junit::{Rendered, TestLines};
use worker::Java;
use worker::verify::{JUnitJars, JUnitVersion};

fn verifier(cut: &str) -> JvmVerifier {
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let jars = JUnitJars::debian(JUnitVersion::Four).unwrap_or_else(|e| panic!("{e}"));
    let classpath = vec![test_support::fixture_classes("sandbox")];
    JvmVerifier::new(java, jars, JUnitVersion::Four, &classpath, cut).expect("verifier")
}

/// A JUnit 4 class `sandbox.<name>` whose methods are `bodies` (`test0`, `test1`, ...), each with
/// the `@Test(timeout = 4000)` of the written tests, and where each method and assertion is.
fn rendered(name: &str, bodies: &[&str]) -> Rendered {
    let mut source = String::from(
        "package sandbox;\n\nimport static org.junit.Assert.*;\n\nimport org.junit.Test;\n\npublic class ",
    );
    source.push_str(name);
    source.push_str(" {\n");
    let mut tests = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        source.push_str(&format!(
            "\n    @Test(timeout = 4000)\n    public void test{i}() throws Throwable {{\n"
        ));
        let first_line = source.lines().count() as u32 + 1;
        let mut assertions = Vec::new();
        for statement in body.lines() {
            let line = source.lines().count() as u32 + 1;
            if statement.trim_start().starts_with("assert") {
                assertions.push((assertions.len(), line));
            }
            source.push_str(&format!("        {statement}\n"));
        }
        source.push_str("    }\n");
        let last_line = source.lines().count() as u32;
        tests.push(TestLines {
            method: format!("test{i}"),
            first_line,
            last_line,
            assertions,
            fail: None,
            throwing: None,
        });
    }
    source.push_str("}\n");
    Rendered { package: "sandbox".into(), class_name: name.into(), source, tests }
}

/// Compiles `file` (it must compile) and runs it `runs` times.
fn verify(v: &mut JvmVerifier, file: &Rendered, runs: usize) -> Vec<TestFailure> {
    let files = [file.clone()];
    let errors = v.compile(&files).expect("javac runs");
    assert!(errors.is_empty(), "{errors:?}\n{}", file.source);
    v.run(&files, runs).expect("the runs")
}

/// The failures per method: how many runs reported it, and the messages.
fn by_method(failures: &[TestFailure]) -> BTreeMap<String, Vec<&TestFailure>> {
    let mut m: BTreeMap<String, Vec<&TestFailure>> = BTreeMap::new();
    for f in failures {
        m.entry(f.method.clone()).or_default().push(f);
    }
    m
}

fn litter_in(dir: &std::path::Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("sandbox-litter")))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_canary_survives_and_the_test_that_hit_a_guard_fails() {
    let canary_dir = tempfile::tempdir().unwrap();
    let canary = canary_dir.path().join("canary.txt");
    std::fs::write(&canary, "still here").unwrap();
    let path = canary.display().to_string().replace('\\', "\\\\");
    let sweep5 = format!("Janitor janitor = new Janitor(\"{path}\");\nassertFalse(janitor.sweep(5));");
    let sweep1 = format!("Janitor janitor = new Janitor(\"{path}\");\nassertFalse(janitor.sweep(1));");
    // Containment: the temporary and home directories are inside the run's scratch directory, and
    // a temporary file the class under test makes lands there, not in the system's. The test keeps
    // that file, which for the user would stay in `java.io.tmpdir`: it fails for it.
    let contained = "String dir = new java.io.File(System.getProperty(\"suitesmith.verify.scratch\")).getCanonicalPath();\n\
                     assertTrue(new java.io.File(Janitor.litter()).getCanonicalPath().startsWith(dir));\n\
                     assertTrue(new java.io.File(System.getProperty(\"user.home\")).getCanonicalPath().startsWith(dir));";
    let file = rendered("JanitorTest", &[&sweep5, &sweep1, contained]);
    let before = litter_in(&std::env::temp_dir());

    let mut v = verifier("sandbox.Janitor");
    let failures = verify(&mut v, &file, 5);

    assert_eq!(std::fs::read_to_string(&canary).expect("the canary survives"), "still here");
    assert_eq!(litter_in(&std::env::temp_dir()), before, "nothing left in the system's temporary directory");
    let m = by_method(&failures);
    assert_eq!(m.keys().collect::<Vec<_>>(), ["test0", "test2"], "{failures:#?}");
    assert_eq!(m["test0"].len(), 5, "failed in every run: {failures:#?}");
    for f in &m["test0"] {
        // No line: the test goes whole, not just its assertion (which passed).
        assert_eq!(f.line, None, "{f:?}");
        assert!(f.message.contains("a guard refused: File.delete("), "{f:?}");
    }
    // Its assertions passed (the file is in the run's own temporary directory), and it fails in
    // every run for what it left there, which each run removed.
    assert_eq!(m["test2"].len(), 5, "failed in every run: {failures:#?}");
    for f in &m["test2"] {
        assert_eq!(f.line, None, "{f:?}");
        assert!(f.message.contains("the test left 1 file(s) behind, first tmp/sandbox-litter"), "{f:?}");
    }
}

/// A test that deletes files it did not make (here every file in `java.io.tmpdir`, as
/// commons-io's `FileUtils.cleanDirectory(getTempDirectory())` did in a benchmark, wiping `/tmp`
/// when the written tests ran) fails in every run: verification keeps a canary file in the working,
/// temporary and home directories, and the test deleted the one in `tmp`. A test that has the
/// temporary directory deleted when the JVM exits (commons-io's `forceDeleteOnExit`, the actual
/// culprit of that benchmark) is refused by the guards.
#[test]
fn a_test_that_deletes_files_it_did_not_make_fails() {
    let clear = "assertTrue(Janitor.clearTemporaryDirectory() >= 1);";
    let keep = "assertTrue(new Janitor(\"x\") != null);";
    let at_exit = "Janitor.forgetTemporaryDirectory();";
    let file = rendered("JanitorTest", &[clear, keep, at_exit]);
    let mut v = verifier("sandbox.Janitor");
    let failures = verify(&mut v, &file, 3);
    let m = by_method(&failures);
    assert_eq!(m.keys().collect::<Vec<_>>(), ["test0", "test2"], "{failures:#?}");
    // A deletion at exit, which no check after the test would see: refused.
    assert_eq!(m["test2"].len(), 3, "failed in every run: {failures:#?}");
    for f in &m["test2"] {
        assert!(f.message.contains("a guard refused: File.deleteOnExit("), "{f:?}");
    }
    assert_eq!(m["test0"].len(), 3, "failed in every run: {failures:#?}");
    for f in &m["test0"] {
        assert_eq!(f.line, None, "{f:?}");
        assert!(
            f.message.contains("the test deleted 1 file(s) it did not make, first tmp/suitesmith-canary"),
            "{f:?}"
        );
    }
}

/// A class the CUT calls (here `Ledger`, package-private, outside `Stamper`'s nest) is
/// guarded in the verification runs too, and loads beside its package-mate.
#[test]
fn a_deletion_through_a_helper_is_refused() {
    let canary_dir = tempfile::tempdir().unwrap();
    let canary = canary_dir.path().join("canary.txt");
    std::fs::write(&canary, "still here").unwrap();
    let path = canary.display().to_string().replace('\\', "\\\\");
    let discard5 = format!("Stamper stamper = new Stamper(\"{path}\");\nassertFalse(stamper.discard(5));");
    let discard1 = format!("Stamper stamper = new Stamper(\"{path}\");\nassertFalse(stamper.discard(1));");
    let file = rendered("StamperTest", &[&discard5, &discard1]);

    let mut v = verifier("sandbox.Stamper");
    let failures = verify(&mut v, &file, 2);

    assert_eq!(std::fs::read_to_string(&canary).expect("the canary survives"), "still here");
    let m = by_method(&failures);
    assert_eq!(m.keys().collect::<Vec<_>>(), ["test0"], "{failures:#?}");
    assert_eq!(m["test0"].len(), 2, "failed in every run: {failures:#?}");
    assert!(m["test0"][0].message.contains("a guard refused: File.delete("), "{failures:#?}");
}

#[test]
fn only_the_test_that_ends_its_jvm_is_reported() {
    let file = rendered(
        "QuitterTest",
        &[
            "assertEquals(2, 1 + 1);",
            // Through a class outside the CUT's nest: guarded too, since it calls a redirected
            // method, so refused and the JVM lives on.
            "Quitter.quitElsewhere(3);",
            "assertEquals(4, 2 + 2);",
            // In the CUT: refused by the guard, the JVM lives on.
            "Quitter.quit(4);",
            // In the test itself: the JVM ends at once, without shutdown hooks.
            "Runtime.getRuntime().halt(5);",
            "assertEquals(6, 3 + 3);",
        ],
    );
    let mut v = verifier("sandbox.Quitter");
    let failures = verify(&mut v, &file, 5);

    let m = by_method(&failures);
    assert_eq!(m.keys().collect::<Vec<_>>(), ["test1", "test3", "test4"], "{failures:#?}");
    assert_eq!(m["test1"].len(), 5, "{failures:#?}");
    assert!(m["test1"][0].message.contains("a guard refused: System.exit(3)"), "{failures:#?}");
    // A culprit is found in the first run and left out of the others.
    assert!(m["test4"][0].message.contains("also when run alone"), "{failures:#?}");
    assert_eq!(m["test4"].len(), 1, "{failures:#?}");
    assert!(m["test4"][0].message.contains("Some(5)"), "{failures:#?}");
    assert_eq!(m["test3"].len(), 5, "{failures:#?}");
    assert!(m["test3"][0].message.contains("a guard refused: System.exit(4)"), "{failures:#?}");
}

#[test]
fn assertions_on_identity_hashes_and_the_clock_fail_in_some_run() {
    let file = rendered(
        "VaryingTest",
        &[
            // What the workers (-XX:hashCode=2: every identity hash is 1) see.
            "int bucket = Varying.bucket();\nassertEquals(1, bucket);",
            // The workers' clock starts at 1,700,000,000,000 ms and advances 1 ms per read; the
            // verification runs read the real one.
            "long millis = Varying.millis();\nassertTrue(millis > 1750000000000L);",
            "assertEquals(0, Varying.bucket() * 0);",
        ],
    );
    let mut v = verifier("sandbox.Varying");
    let failures = verify(&mut v, &file, 5);

    let m = by_method(&failures);
    assert_eq!(m.keys().collect::<Vec<_>>(), ["test0"], "{failures:#?}");
    let line = file.tests[0].assertions[0].1;
    // At the assertion's line: the repair loop removes that assertion.
    assert!(m["test0"].iter().all(|f| f.line == Some(line)), "{failures:#?}");
}

/// Past the post-processing deadline a round still makes its first two runs (the two identity-hash
/// modes), and no more: the run's wall time stays within its budget on a loaded machine. Without
/// a deadline all five run.
#[test]
fn past_the_deadline_a_round_makes_only_its_first_two_runs() {
    let file = rendered("VaryingTest", &["int bucket = Varying.bucket();\nassertEquals(1, bucket);"]);
    let mut v = verifier("sandbox.Varying");
    v.set_deadline(Some(std::time::Instant::now()));
    let failures = verify(&mut v, &file, 5);
    assert_eq!(v.runs_done(), Some(2));
    // The second run (-XX:hashCode=3) still catches the identity hash the first one may not.
    assert!(!failures.is_empty(), "{failures:#?}");

    v.set_deadline(None);
    verify(&mut v, &file, 5);
    assert_eq!(v.runs_done(), Some(5));
}

/// One run carries the JaCoCo agent, as a user's build with coverage does: a test that expects the
/// `InaccessibleObjectException` of reflection into `java.lang` passes in a plain JVM and fails
/// under the agent (which opens `java.lang` to inject its runtime), so the repair loop sees it fail.
#[test]
fn a_test_that_passes_only_without_coverage_fails_in_the_jacoco_run() {
    let file = rendered(
        "ReflectionTest",
        &[
            "try {\n  java.lang.reflect.Field f = String.class.getDeclaredField(\"value\");\n  f.setAccessible(true);\n  fail(\"Expecting exception: InaccessibleObjectException\");\n} catch (java.lang.reflect.InaccessibleObjectException e) {\n}",
            "assertEquals(3, \"abc\".length());",
        ],
    );
    let mut v = verifier("sandbox.Varying");
    let failures = verify(&mut v, &file, 2);
    let m = by_method(&failures);
    assert_eq!(m.keys().collect::<Vec<_>>(), ["test0"], "{failures:#?}");
    assert_eq!(m["test0"].len(), 1, "fails in the JaCoCo run only: {failures:#?}");
    // A plain run alone passes it.
    assert!(verify(&mut v, &file, 1).is_empty());
}
