//! The verification machinery of `generate` against real javac, JUnit 4, JUnit 5 and JaCoCo
//! from /usr/share/java: hand-written suites of `fixtures/java/verify/Grade.java` stored as sources in
//! `test_data/verify/` are compiled and run in fresh JVMs. Outcomes are snapshots; the failure lines
//! are checked against the `// line: <method>` markers of the sources; the JaCoCo counts against
//! values computed by hand from Grade.java.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use expect_test::{Expect, expect};
use worker::Java;
use worker::verify::{
    self, CoverageAgent, JUnitJars, JUnitVersion, JacocoJars, RunOptions, TestOutcome, TestRunReport,
    VerifyError,
};

fn java() -> Java {
    Java::discover().unwrap_or_else(|e| panic!("{e}"))
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/verify").join(name)
}

fn fixture_classes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/verify")
}

/// The line of `file` that carries the marker `// line: <name>`.
fn marked_line(file: &str, name: &str) -> u32 {
    let text = std::fs::read_to_string(data(file)).unwrap();
    let marker = format!("// line: {name}");
    let i = text.lines().position(|l| l.trim_end().ends_with(&marker)).unwrap_or_else(|| panic!("{marker}"));
    i as u32 + 1
}

/// Compiles test sources of `test_data/verify` once per version into a directory kept for the process.
fn compiled(version: JUnitVersion) -> &'static Path {
    static FOUR: OnceLock<tempfile::TempDir> = OnceLock::new();
    static FIVE: OnceLock<tempfile::TempDir> = OnceLock::new();
    let (cell, files): (_, &[&str]) = match version {
        JUnitVersion::Four => (
            &FOUR,
            &[
                "PassingTest.java",
                "FailingTest.java",
                "FlakyTest.java",
                "LoopTest.java",
                "TimeoutTest.java",
                "ExitTest.java",
            ],
        ),
        JUnitVersion::Five => (&FIVE, &["Passing5Test.java", "Failing5Test.java"]),
    };
    cell.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let jars = JUnitJars::debian(version).unwrap();
        let sources: Vec<PathBuf> = files.iter().map(|f| data(f)).collect();
        let mut cp = vec![fixture_classes()];
        cp.extend(jars.compile);
        let c = verify::compile(&java(), &sources, &cp, dir.path()).unwrap();
        assert!(c.success, "{}", c.output);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        dir
    })
    .path()
}

fn run(version: JUnitVersion, classes: &[&str], options: &RunOptions) -> TestRunReport {
    let classes: Vec<String> = classes.iter().map(|c| format!("verify.{c}")).collect();
    let cp = vec![compiled(version).to_path_buf(), fixture_classes()];
    let jars = JUnitJars::debian(version).unwrap();
    verify::run_tests(&java(), &classes, &cp, &jars, version, options).unwrap_or_else(|e| panic!("{e}"))
}

/// One line per test: `class.method outcome`, then how the JVM ended.
fn render(report: &TestRunReport) -> String {
    let mut out = String::new();
    for t in &report.tests {
        let outcome = match &t.outcome {
            TestOutcome::Failed(f) => {
                let line = f.line.map_or("-".to_string(), |l| l.to_string());
                format!("failed at line {line}: {}: {}", f.exception, f.message)
            }
            other => format!("{other:?}"),
        };
        out.push_str(&format!("{}.{} {outcome}\n", t.class, t.method));
    }
    out.push_str(&format!("end: {:?}\n", report.end));
    out
}

fn check(report: &TestRunReport, expect: Expect) {
    expect.assert_eq(&render(report));
}

fn failure_line(report: &TestRunReport, class: &str, method: &str) -> Option<u32> {
    match report.outcome(class, method) {
        Some(TestOutcome::Failed(f)) => f.line,
        other => panic!("{class}.{method}: {other:?}"),
    }
}

#[test]
fn junit4_outcomes_and_failure_lines() {
    let report = run(
        JUnitVersion::Four,
        &["PassingTest", "FailingTest", "Missing"],
        &RunOptions::new(Duration::from_secs(60)),
    );
    check(
        &report,
        expect![[r#"
            verify.PassingTest.gradePass Passed
            verify.PassingTest.gradeA Passed
            verify.PassingTest.printsRecordLikeLine Passed
            verify.PassingTest.tally Passed
            verify.FailingTest.assumption Skipped { reason: "assumption failed" }
            verify.FailingTest.passes Passed
            verify.FailingTest.outOfRange failed at line 21: java.lang.IllegalArgumentException: score out of range: -1
            verify.FailingTest.wrongGrade failed at line 15: org.junit.ComparisonFailure: expected:<[B]> but was:<[A]>
            verify.FailingTest.ignored Skipped { reason: "ignored" }
            verify.Missing.initializationError failed at line -: java.lang.ClassNotFoundException: verify.Missing
            end: Completed
        "#]],
    );
    assert_eq!(
        failure_line(&report, "verify.FailingTest", "wrongGrade"),
        Some(marked_line("FailingTest.java", "wrongGrade"))
    );
    assert_eq!(
        failure_line(&report, "verify.FailingTest", "outOfRange"),
        Some(marked_line("FailingTest.java", "outOfRange"))
    );
    // What a test prints goes to stderr, so a record-shaped line there changes nothing.
    assert!(report.stderr.contains("injected"), "{}", report.stderr);
    assert!(!report.all_passed());
}

#[test]
fn junit5_outcomes_and_failure_lines() {
    let report = run(
        JUnitVersion::Five,
        &["Passing5Test", "Failing5Test", "Missing"],
        &RunOptions::new(Duration::from_secs(60)),
    );
    check(
        &report,
        expect![[r#"
            verify.Missing.initializationError failed at line -: java.lang.ClassNotFoundException: verify.Missing
            verify.Passing5Test.gradeA Passed
            verify.Passing5Test.packagePrivate Passed
            verify.Failing5Test.assumption Skipped { reason: "Assumption failed: assumption is not true" }
            verify.Failing5Test.outOfRange failed at line 21: java.lang.IllegalArgumentException: score out of range: 101
            verify.Failing5Test.slow TimedOut
            verify.Failing5Test.wrongGrade failed at line 16: org.opentest4j.AssertionFailedError: expected: <B> but was: <A>
            verify.Failing5Test.disabled Skipped { reason: "not today" }
            end: Completed
        "#]],
    );
    assert_eq!(
        failure_line(&report, "verify.Failing5Test", "wrongGrade"),
        Some(marked_line("Failing5Test.java", "wrongGrade"))
    );
    assert_eq!(
        failure_line(&report, "verify.Failing5Test", "outOfRange"),
        Some(marked_line("Failing5Test.java", "outOfRange"))
    );
    let passing = run(JUnitVersion::Five, &["Passing5Test"], &RunOptions::new(Duration::from_secs(60)));
    assert!(passing.all_passed(), "{}", render(&passing));
}

#[test]
fn repeated_fresh_jvms_reveal_a_flaky_test() {
    let dir = tempfile::tempdir().unwrap();
    let mut options = RunOptions::new(Duration::from_secs(60));
    options.working_dir = Some(dir.path().to_path_buf());
    let classes = vec!["verify.FlakyTest".to_string()];
    let cp = vec![compiled(JUnitVersion::Four).to_path_buf(), fixture_classes()];
    let jars = JUnitJars::debian(JUnitVersion::Four).unwrap();
    let reports =
        verify::run_repeatedly(&java(), &classes, &cp, &jars, JUnitVersion::Four, &options, 5).unwrap();
    assert_eq!(reports.len(), 5);
    let summaries = verify::summarize(&reports);
    let text: Vec<String> = summaries
        .iter()
        .map(|s| {
            let o: Vec<&str> =
                s.outcomes.iter().map(|o| if matches!(o, TestOutcome::Passed) { "P" } else { "F" }).collect();
            format!("{} {} flaky={} lines={:?}", s.method, o.join(""), s.is_flaky(), s.failure_lines())
        })
        .collect();
    let line = marked_line("FlakyTest.java", "alternates");
    assert_eq!(
        text,
        [
            "stable PPPPP flaky=false lines=[]".to_string(),
            format!("alternates PFPFP flaky=true lines=[{line}]")
        ]
    );
}

#[test]
fn tests_that_never_end_are_timed_out_and_the_jvm_killed() {
    // JUnit's own timeout fails TimeoutTest and the run goes on; LoopTest spins until the deadline.
    let report = run(
        JUnitVersion::Four,
        &["TimeoutTest", "PassingTest", "LoopTest"],
        &RunOptions::new(Duration::from_secs(4)),
    );
    check(
        &report,
        expect![[r#"
            verify.TimeoutTest.spinsWithTimeout TimedOut
            verify.PassingTest.gradePass Passed
            verify.PassingTest.gradeA Passed
            verify.PassingTest.printsRecordLikeLine Passed
            verify.PassingTest.tally Passed
            verify.LoopTest.spinsForever TimedOut
            end: TimedOut
        "#]],
    );
    assert!(report.elapsed < Duration::from_secs(10), "{:?}", report.elapsed);
    // Alone, JUnit's timeout lets the JVM finish: the spinning thread does not keep it alive.
    let report = run(JUnitVersion::Four, &["TimeoutTest"], &RunOptions::new(Duration::from_secs(30)));
    check(
        &report,
        expect![[r#"
            verify.TimeoutTest.spinsWithTimeout TimedOut
            end: Completed
        "#]],
    );
}

#[test]
fn system_exit_ends_the_run_and_is_reported() {
    let report =
        run(JUnitVersion::Four, &["ExitTest", "PassingTest"], &RunOptions::new(Duration::from_secs(60)));
    check(
        &report,
        expect![[r#"
            verify.ExitTest.exits Aborted
            verify.PassingTest.gradePass Aborted
            verify.PassingTest.gradeA Aborted
            verify.PassingTest.printsRecordLikeLine Aborted
            verify.PassingTest.tally Aborted
            end: Exited { code: Some(3) }
        "#]],
    );
}

#[test]
fn compile_errors_name_the_file_and_line() {
    let jars = JUnitJars::debian(JUnitVersion::Four).unwrap();
    let mut cp = vec![fixture_classes()];
    cp.extend(jars.compile);
    let out = tempfile::tempdir().unwrap();
    let broken = data("BrokenTest.java");
    let sources = vec![data("PassingTest.java"), broken.clone()];
    let c = verify::compile(&java(), &sources, &cp, out.path()).unwrap();
    assert!(!c.success);
    assert_eq!(c.failed_sources(), [broken.as_path()]);
    let errors = c.errors_by_file();
    let d = &errors[broken.as_path()];
    assert_eq!(d.len(), 1, "{:?}", c.diagnostics);
    assert_eq!(d[0].line, marked_line("BrokenTest.java", "typeError"));
    assert_eq!(d[0].message, "incompatible types: String cannot be converted to int");

    // Without the broken source the rest compiles: what the caller does after dropping it.
    let c = verify::compile(&java(), &sources[..1], &cp, out.path()).unwrap();
    assert!(c.success && c.diagnostics.is_empty(), "{}", c.output);
    assert!(out.path().join("verify/PassingTest.class").is_file());
}

/// A test of a class that uses a package its module does not export compiles when the run's JVM
/// flags open or export it (`javac_module_options`: `--add-opens` becomes javac's `--add-exports`),
/// and not without them.
#[test]
fn module_flags_of_the_run_reach_javac() {
    let out = tempfile::tempdir().unwrap();
    let sources = vec![data("InternalsTest.java")];
    let c = verify::compile(&java(), &sources, &[], out.path()).unwrap();
    assert!(!c.success, "{}", c.output);
    assert!(c.output.contains("jdk.internal.misc"), "{}", c.output);
    let options =
        verify::javac_module_options(&["--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED".to_string()]);
    let c = verify::compile_with(&java(), &sources, &[], out.path(), &options).unwrap();
    assert!(c.success, "{}", c.output);
    assert!(out.path().join("verify/InternalsTest.class").is_file());
}

#[test]
fn jacoco_counts_lines_and_branches_of_the_class_under_test() {
    let dir = tempfile::tempdir().unwrap();
    let jacoco = JacocoJars::debian().unwrap();
    let exec = dir.path().join("passing.exec");
    let mut options = RunOptions::new(Duration::from_secs(60));
    options.coverage = Some(jacoco.agent(&exec).unwrap());
    let report = run(JUnitVersion::Four, &["PassingTest"], &options);
    assert!(report.all_passed(), "{}", render(&report));

    let classes = verify::nested_classes(&[fixture_classes()], "verify.Grade").unwrap();
    assert_eq!(classes, ["verify.Grade", "verify.Grade$Tally"]);
    let from_dir = verify::jacoco_coverage(
        &java(),
        &jacoco,
        std::slice::from_ref(&exec),
        &[fixture_classes()],
        &classes,
    )
    .unwrap();
    // By hand from Grade.java. Grade: 6 lines (the implicit constructor's `public class Grade {`, the two
    // `if`s, `throw`, `return "A"`, the ternary); the tests call of(95) and of(60), never the
    // constructor or the throw, so 4 are covered. Branches: `score < 0 || score > 100` is two jumps
    // (only the false sides run), `score >= 90` both sides, the ternary only its `pass` side: 5 of 8.
    // Methods: of, not <init>. Tally (new, add(3), total()): 5 lines (class line, `if`, `total += v`,
    // add's closing brace holding its return, `return total`), all covered; `v > 0` only true: 1 of 2.
    let counts: Vec<_> =
        from_dir.iter().map(|c| (c.class.as_str(), c.lines, c.branches, c.methods)).collect();
    assert_eq!(
        counts,
        [("verify.Grade", (4, 6), (5, 8), (1, 2)), ("verify.Grade$Tally", (5, 5), (1, 2), (3, 3))]
    );

    // The same classes inside a jar with others around them (a user's jar): only those asked are read.
    let jar = dir.path().join("app.jar");
    write_jar(
        &jar,
        &[
            (&fixture_classes(), "verify/Grade.class"),
            (&fixture_classes(), "verify/Grade$Tally.class"),
            (compiled(JUnitVersion::Four), "verify/FailingTest.class"),
        ],
    );
    assert_eq!(verify::nested_classes(std::slice::from_ref(&jar), "verify.Grade").unwrap(), classes);
    let from_jar = verify::jacoco_coverage(
        &java(),
        &jacoco,
        std::slice::from_ref(&exec),
        std::slice::from_ref(&jar),
        &classes,
    )
    .unwrap();
    assert_eq!(from_jar, from_dir);

    let missing = verify::jacoco_coverage(&java(), &jacoco, &[exec], &[jar], &["verify.Nope".to_string()]);
    assert!(matches!(missing, Err(VerifyError::ClassFileMissing { .. })), "{missing:?}");
    let no_exec = verify::jacoco_coverage(
        &java(),
        &jacoco,
        &[dir.path().join("none.exec")],
        &[fixture_classes()],
        &classes,
    );
    assert!(matches!(no_exec, Err(VerifyError::ExecFileMissing { .. })), "{no_exec:?}");
}

fn write_jar(path: &Path, entries: &[(&Path, &str)]) {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (dir, name) in entries {
        zip.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(&std::fs::read(dir.join(name)).unwrap()).unwrap();
    }
    zip.finish().unwrap();
}

#[test]
fn missing_jars_and_javac_are_clear_errors() {
    let empty = tempfile::tempdir().unwrap();
    let e = JUnitJars::in_dir(empty.path(), JUnitVersion::Four).unwrap_err();
    assert!(e.to_string().contains("junit4.jar is missing"), "{e}");
    assert!(e.to_string().ends_with("install it with `apt-get install junit4 libhamcrest-java`"), "{e}");
    let e = JUnitJars::in_dir(empty.path(), JUnitVersion::Five).unwrap_err();
    assert!(e.to_string().ends_with("`apt-get install junit5`"), "{e}");
    let e = JacocoJars::in_dir(empty.path()).unwrap_err();
    assert!(e.to_string().contains("`apt-get install libjacoco-java`"), "{e}");

    // The jars of this machine (scripts/test.sh installs them).
    let five = JUnitJars::debian(JUnitVersion::Five).unwrap();
    assert_eq!(five.compile.len(), 4);
    assert!(five.compile.iter().all(|j| five.run.contains(j)) && five.run.len() == 7);

    // A JRE-like installation: `java` with no `javac` beside it.
    let jre = Java { path: empty.path().join("bin/java"), version: "17".into(), major: 17 };
    let e = verify::compile(&jre, &[data("PassingTest.java")], &[], empty.path()).unwrap_err();
    assert!(matches!(e, VerifyError::NoJavac { .. }), "{e}");
    let agent: CoverageAgent = JacocoJars::debian().unwrap().agent(Path::new("x.exec")).unwrap();
    assert!(agent.agent_jar.is_file());
}

#[test]
fn class_hash_method_runs_only_the_methods_named() {
    let report = run(
        JUnitVersion::Four,
        &["PassingTest#tally", "FailingTest#passes", "FailingTest#wrongGrade"],
        &RunOptions::new(Duration::from_secs(60)),
    );
    check(
        &report,
        expect![[r#"
            verify.PassingTest.tally Passed
            verify.FailingTest.passes Passed
            verify.FailingTest.wrongGrade failed at line 15: org.junit.ComparisonFailure: expected:<[B]> but was:<[A]>
            end: Completed
        "#]],
    );
    let report = run(JUnitVersion::Five, &["Passing5Test#gradeA"], &RunOptions::new(Duration::from_secs(60)));
    check(
        &report,
        expect![[r#"
            verify.Passing5Test.gradeA Passed
            end: Completed
        "#]],
    );
}

#[test]
fn a_contained_run_has_its_working_temporary_and_home_directories_in_its_scratch_directory() {
    let work = tempfile::tempdir().unwrap();
    let mut options = RunOptions::new(Duration::from_secs(60));
    options.working_dir = Some(work.path().to_path_buf());
    options.contained = true;
    // -XshowSettings prints the JVM's system properties (what the tests see) to stderr, which the
    // report keeps.
    options.jvm_args = vec!["-XshowSettings:properties".into()];
    let report = run(JUnitVersion::Four, &["PassingTest#tally"], &options);
    assert!(report.all_passed(), "{}", render(&report));
    let root = std::path::absolute(work.path()).unwrap();
    for (key, dir) in [
        ("user.dir", root.join(worker::cleanup::WORKING_DIR)),
        ("java.io.tmpdir", root.join("tmp")),
        ("user.home", root.join("home")),
        ("suitesmith.verify.scratch", root.clone()),
    ] {
        let line = format!("{key} = {}", dir.display());
        assert!(report.stderr.contains(&line), "{line} not in\n{}", report.stderr);
        assert!(dir.is_dir(), "{}", dir.display());
    }
}
