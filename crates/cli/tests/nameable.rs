//! Tests name only classes they can (JLS §6.6): on `fixtures/java/cluster`'s `Cleaner`, whose
//! `Engine` (another package) has public members naming the package-private `Builder` (jsoup's
//! `Parser` and `TreeBuilder`, which made every test of jsoup's `Cleaner` uncompilable in the SBFT
//! 2023 run), `generate` calls them only where the test need not write `Builder`: results are
//! declared as the nearest class the test can name, and a call taking a `Builder` is left out
//! (all it could get is `(Builder) null`, which does not compile). No test is dropped as
//! uncompilable; the one branch left needs such a null.

mod common;

const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";

#[test]
fn results_of_unnameable_classes_are_declared_as_nameable_ones() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    common::generate_with("cluster", "cluster.Cleaner", &out, ["2000", "1", "2"], &[]);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report"))
            .expect("json");
    let c = &report["classes"][0];
    assert_eq!(c["verification"]["uncompilable_tests_dropped"], 0, "{}", c["log"]);
    assert_eq!(c["verification"]["verified"], true, "{}", c["verification"]);
    // `engine.current == null`: only `new Engine(null)` and the like, untyped, get there.
    assert_eq!(common::uncovered_branches(&report), vec!["branch p15 not-taken (cluster/Cleaner:19)"]);

    let files = common::java_files(&out);
    assert_eq!(files.len(), 1);
    let (name, text) = &files[0];
    let named = text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').any(|w| w == "Builder");
    assert!(!named, "the package-private Builder named in\n{text}");
    let cp =
        format!("{}:{JUNIT4}", test_support::workspace_root().join("fixtures/classes/cluster").display());
    common::compile_and_run_junit4(&out, name, &cp, tmp.path(), 5, "cluster.Cleaner");
}
