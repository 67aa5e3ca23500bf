//! Strings in the formats the code checks (docs/generators.md): on
//! `fixtures/java/jdkvalues/Formats.java`, a date-time parser reading `yyyy-MM-ddTHH:mm` at fixed
//! offsets and a dotted-quad parser reading characters, `generate --format-strings on` covers every
//! branch within a fixed number of evaluations (the pool holds ISO date-times and dotted quads, well
//! formed and with one field wrong, because the class compares with `'-'`, `'T'`, `':'` and `'.'`),
//! while without it the parsers' later checks stay out of reach (24 of 46 branch goals). The
//! written tests compile with JUnit alone and pass 5 of 5 fresh plain JVM runs.

mod common;

const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";

#[test]
fn format_strings_reach_the_parsers_deep_branches() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fixtures = test_support::workspace_root().join("fixtures/classes/jdkvalues");
    let cp = format!("{}:{JUNIT4}", fixtures.display());
    let class = "jdkvalues.Formats";

    let out = tmp.path().join("on");
    // DSE (on by default) reaches most of these branches by itself: off in both runs, which are about
    // the format strings alone.
    let report = common::generate_fixture(
        "jdkvalues",
        class,
        &out,
        &common::pinned(&["--format-strings", "on", "--dse", "off"]),
    );
    assert_eq!(common::uncovered_branches(&report), Vec::<String>::new());
    let c = &report["classes"][0];
    assert_eq!(c["criteria"]["branch"]["goals"], 46);
    assert_eq!(c["verification"]["verified"], true, "{}", c["verification"]);
    let files = common::java_files(&out);
    assert_eq!(files.len(), 1);
    let (name, text) = &files[0];
    common::compile_and_run_junit4(&out, name, &cp, tmp.path(), 5, class);
    assert!(text.contains("T12:30:45Z"), "an ISO date-time in\n{text}");

    let off = common::generate_fixture(
        "jdkvalues",
        class,
        &tmp.path().join("off"),
        &common::pinned(&["--dse", "off"]),
    );
    let branch = &off["classes"][0]["criteria"]["branch"];
    assert_eq!(branch["covered"], 24, "without format strings: {branch}");
}

/// The same seed and evaluation budget write byte-identical tests with one worker and with two.
#[test]
fn format_string_tests_are_deterministic() {
    let texts = common::written_with_one_and_two_workers(
        "jdkvalues",
        "jdkvalues.Formats",
        &common::pinned(&["--format-strings", "on"]),
    );
    assert_eq!(texts[0], texts[1]);
}
