//! Stubs of abstract classes and interfaces (docs/stubs.md): on
//! `fixtures/java/stubs`, whose methods take an abstract class with constructor arguments
//! (`Meter`), a generic interface (`Source<String>`), functional interfaces (`Callable`,
//! `Supplier`, `Comparator`) and an `Executor`; whose `Shape` is an abstract class under test with
//! no subclass anywhere; whose `Captures` takes a `TypeRef<?>` (a capture of a type argument, as
//! Guava's `TypeToken`) and `Amount` a bounded one; whose `Closing` catches what a `Closeable`, a
//! `Callable` and two `Runnable`s throw; and whose `Builders` takes an interface inheriting its
//! methods from a superinterface it parameterizes, and a `java.time.Clock`: `generate --stubs on`
//! covers every feasible branch within a fixed number of evaluations, while without stubs only
//! `null` reaches those parameters (0 of 28, 0 of 8, 0 of 4, 1 of 4, 6 of 16 and 4 of 10
//! branches; `Closing`'s 5 branches in catch blocks need a stub that throws). The written tests
//! implement the types as anonymous classes, none is dropped as uncompilable, and they compile
//! with JUnit alone and pass 5 of 5 fresh plain JVM runs.

mod common;

use std::path::Path;

const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";

/// Each class; the branch goals it leaves with stubs (infeasible ones, with the reason); text its
/// written tests must contain; the branch goals covered without stubs.
const CLASSES: &[(&str, &[&str], &[&str], u64)] = &[
    (
        "stubs.Elapsed",
        // `runs > 0` false after `execute`: a stub executor runs its task at once (item 5), so
        // only an executor that drops the task reaches it.
        &["branch p115 taken (stubs/Elapsed:76)"],
        &[
            "new Meter(",
            "new Source() {",
            "new Callable() {",
            "new Executor() {",
            "argA.run();",
            "int callsA;",
        ],
        0,
    ),
    ("stubs.Shape", &[], &["new Shape() {"], 0),
    // A capture of a type argument (`TypeToken`-like): one stub class per captured signature.
    ("stubs.Captures", &[], &["new TypeRef<List<String>>() {}", "new TypeRef<Integer[]>() {}"], 0),
    // A capture of a bounded variable takes only arguments within the bound (`Amount<String>`
    // does not compile for `T extends Number`).
    ("stubs.Amount", &[], &["new Amount<Number>() {}", "new Amount<Integer>() {}"], 1),
    // Stubs that throw after their answers (Mockito's `thenThrow`): a checked exception the
    // override declares, and the unchecked one any method may throw. Without stubs, only the
    // `null` checks are covered.
    (
        "stubs.Closing",
        &[],
        &[
            "public void close() throws IOException {",
            "public Object call() throws Exception {",
            "public void run() {",
        ],
        6,
    ),
    // Overrides declare their types as members of the stubbed class: `Line point(..)` for
    // `Line extends Points<Line>` (Spatial4j's `LineStringBuilder`), and `Clock.withZone`, which
    // `InstantSource`'s default does not implement. Without stubs, only `null` and JDK clocks.
    (
        "stubs.Builders",
        &[],
        &["public Builders.Line point(double argA, double argB) {", "public Clock withZone(ZoneId argA) {"],
        4,
    ),
];

fn generate(out: &Path, class: &str, stubs: &str) -> serde_json::Value {
    common::generate_fixture("stubs", class, out, &common::pinned(&["--stubs", stubs]))
}

#[test]
fn stubs_reach_every_feasible_branch_and_their_tests_pass() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fixtures = test_support::workspace_root().join("fixtures/classes/stubs");
    let cp = format!("{}:{JUNIT4}", fixtures.display());
    for (class, left, texts, off_covered) in CLASSES {
        let out = tmp.path().join(class);
        let report = generate(&out, class, "on");
        assert_eq!(common::uncovered_branches(&report), left.to_vec(), "{class}");
        let c = &report["classes"][0];
        assert_eq!(c["verification"]["verified"], true, "{class}: {}", c["verification"]);
        assert_eq!(c["verification"]["uncompilable_tests_dropped"], 0, "{class}: {}", c["log"]);

        let files = common::java_files(&out);
        assert_eq!(files.len(), 1, "{class}");
        let (name, text) = &files[0];
        for t in *texts {
            assert!(text.contains(t), "{class}: no {t} in\n{text}");
        }
        common::compile_and_run_junit4(&out, name, &cp, tmp.path(), 5, class);

        // Without stubs, the same budget covers only what `null` reaches: that is all these
        // parameters get, and an abstract CUT gets no instance.
        let off = generate(&tmp.path().join(format!("{class}-off")), class, "off");
        let branch = &off["classes"][0]["criteria"]["branch"];
        assert_eq!(branch["covered"], *off_covered, "{class} without stubs: {branch}");
    }
}

/// The same seed and evaluation budget write byte-identical tests with one worker and with two.
#[test]
fn stub_tests_are_deterministic() {
    let texts = common::written_with_one_and_two_workers(
        "stubs",
        "stubs.Elapsed",
        &common::pinned(&["--stubs", "on"]),
    );
    assert_eq!(texts[0], texts[1]);
}
