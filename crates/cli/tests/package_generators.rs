//! Generators from the package (docs/generators.md): on `fixtures/java/generators`,
//! whose `Router` takes a `Channel` (an interface whose only implementation is package-private
//! behind the public factories `Channels.loopback(int)` and `Channels.closed()`), a `Ticket` (its
//! constructor package-private; `Registry.issue(String)`, an instance method, makes it) and a
//! `Pool` (made by `Pools.direct()` and `Pools.bounded(int)`, an executor service in small) and a
//! `Mode` (a private constructor: its instances are its constants `Mode.READ` and `Mode.WRITE`), all
//! in another package, `generate --package-generators on` covers every branch within a fixed number
//! of evaluations, while without it only `null` reaches those parameters (4 of 28 branch goals:
//! the null checks). The written tests call the factories, compile with JUnit alone and pass 5 of 5
//! fresh plain JVM runs; 1 and 2 workers write the same bytes. `Scales` exposes a private nested
//! class only as a JDK interface (below).

mod common;

const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";

#[test]
fn package_generators_reach_every_branch_and_their_tests_pass() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fixtures = test_support::workspace_root().join("fixtures/classes/generators");
    let cp = format!("{}:{JUNIT4}", fixtures.display());
    let class = "generators.Router";

    let out = tmp.path().join("on");
    let report =
        common::generate_fixture("generators", class, &out, &common::pinned(&["--package-generators", "on"]));
    assert_eq!(common::uncovered_branches(&report), Vec::<String>::new());
    let c = &report["classes"][0];
    assert_eq!(c["criteria"]["branch"]["goals"], 28);
    assert_eq!(c["verification"]["verified"], true, "{}", c["verification"]);
    let files = common::java_files(&out);
    assert_eq!(files.len(), 1);
    let (name, text) = &files[0];
    for call in [
        "Channels.loopback(",
        "Channels.closed()",
        ".issue(",
        "new Registry()",
        "Pools.",
        "Mode.READ",
        "Mode.WRITE",
    ] {
        assert!(text.contains(call), "no {call} in\n{text}");
    }
    common::compile_and_run_junit4(&out, name, &cp, tmp.path(), 5, class);

    // Without them, the same budget reaches only the null checks' taken sides.
    let off = common::generate_fixture("generators", class, &tmp.path().join("off"), &common::pinned(&[]));
    let branch = &off["classes"][0]["criteria"]["branch"];
    assert_eq!(branch["covered"], 4, "without package generators: {branch}");
}

/// The same seed and evaluation budget write byte-identical tests with one worker and with two.
#[test]
fn package_generator_tests_are_deterministic() {
    let texts = common::written_with_one_and_two_workers(
        "generators",
        "generators.Router",
        &common::pinned(&["--package-generators", "on"]),
    );
    assert_eq!(texts[0], texts[1]);
}

/// `Scales` exposes its private nested class only as `IntUnaryOperator` constants (ThreeTen-Extra's
/// `PackedFields`): with package generators the JDK interface's methods are offered on them, and
/// `applyAsInt` covers all 4 branch goals of the nested class; without, no call reaches it (0 of 4).
#[test]
fn jdk_interfaces_of_private_nested_classes_are_called() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fixtures = test_support::workspace_root().join("fixtures/classes/generators");
    let cp = format!("{}:{JUNIT4}", fixtures.display());
    let class = "generators.Scales";

    let out = tmp.path().join("on");
    let report =
        common::generate_fixture("generators", class, &out, &common::pinned(&["--package-generators", "on"]));
    assert_eq!(common::uncovered_branches(&report), Vec::<String>::new());
    assert_eq!(report["classes"][0]["criteria"]["branch"]["goals"], 4);
    let files = common::java_files(&out);
    assert_eq!(files.len(), 1);
    let (name, text) = &files[0];
    for call in ["Scales.", ".applyAsInt("] {
        assert!(text.contains(call), "no {call} in\n{text}");
    }
    common::compile_and_run_junit4(&out, name, &cp, tmp.path(), 5, class);

    let off = common::generate_fixture("generators", class, &tmp.path().join("off"), &common::pinned(&[]));
    let branch = &off["classes"][0]["criteria"]["branch"];
    assert_eq!(branch["covered"], 0, "without package generators: {branch}");
}
