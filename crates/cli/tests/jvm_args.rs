//! `generate --jvm-arg` (Error Prone's classes need `--add-exports` on Java 17): the
//! flags reach the workers and the verification's runs. `modules.Internals` reads a private field
//! of `String`, which gets past `setAccessible` only under `--add-opens=java.base/java.lang=..`:
//! with the flag every branch is covered within 3,000 evaluations and the written tests, whose
//! header names the flag, pass 5 of 5 fresh runs with it; without it the branches after the
//! reflective read stay uncovered. A flag that is not one, or that would replace our classpath,
//! is refused with one line, exit 2, before anything is written.

mod common;

use std::path::Path;

const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";
const OPENS: &str = "--add-opens=java.base/java.lang=ALL-UNNAMED";

#[test]
fn jvm_flags_reach_the_workers_the_verification_and_the_header() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("on");
    let jvm_arg = format!("--jvm-arg={OPENS}");
    let report = common::generate_fixture("modules", "modules.Internals", &out, &[&jvm_arg]);
    assert_eq!(common::uncovered_branches(&report), Vec::<String>::new());
    assert_eq!(report["configuration"]["jvm_args"], serde_json::json!([OPENS]));
    let c = &report["classes"][0];
    assert_eq!(c["verification"]["verified"], true, "{}", c["verification"]);
    assert_eq!(c["verification"]["failing_tests_dropped"], 0, "{}", c["verification"]);

    let files = common::java_files(&out);
    assert_eq!(files.len(), 1);
    let (name, text) = &files[0];
    let header = text.lines().next().unwrap_or_default();
    assert!(header.ends_with(&format!("Run with the JVM flags {OPENS}. */")), "{header}");
    assert!(text.contains("Internals.coder(\"\")"), "{text}");
    let fixtures = test_support::workspace_root().join("fixtures/classes/modules");
    let cp = format!("{}:{JUNIT4}", fixtures.display());
    let cwd = tmp.path().join("cwd");
    std::fs::create_dir_all(&cwd).expect("cwd");
    common::compile_and_run_junit4_with(&out, name, &cp, &cwd, 5, "Internals", &[OPENS]);

    // Without the flag `setAccessible` throws: the branch after it is never reached.
    let off = common::generate_fixture("modules", "modules.Internals", &tmp.path().join("off"), &[]);
    assert_eq!(off["configuration"]["jvm_args"], serde_json::json!([]));
    let uncovered = common::uncovered_branches(&off);
    assert_eq!(uncovered.len(), 2, "{uncovered:?}");
    let (_, text) = &common::java_files(&tmp.path().join("off"))[0];
    assert!(!text.contains("JVM flags"), "{text}");
}

#[test]
fn flags_that_are_not_one_jvm_flag_are_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let out_arg = out.display().to_string();
    for (flag, says) in [
        ("--jvm-arg=-cp", "would replace suitesmith's own -cp"),
        ("--jvm-arg=--class-path=/x", "would replace suitesmith's own --class-path"),
        ("--jvm-arg=-Djava.io.tmpdir=/tmp", "would replace suitesmith's own -Djava.io.tmpdir"),
        ("--jvm-arg=hello", "is not one JVM flag"),
        ("--jvm-arg=-Dx=a b", "is not one JVM flag"),
    ] {
        let run = common::suitesmith(
            &["generate", "--classpath", "fixtures/classes/modules", "--class", "modules.Internals"]
                .into_iter()
                .chain(["--out", &out_arg, flag])
                .collect::<Vec<_>>(),
            &[],
        );
        assert_eq!(run.status.code(), Some(2), "{flag}");
        let line = common::stderr_line(&run);
        assert!(line.contains(says), "{flag}: {line}");
        assert!(!Path::new(&out).exists(), "{flag}: something was written");
    }
}
