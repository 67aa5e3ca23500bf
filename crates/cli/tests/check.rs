//! The CI mode, `generate --project --check`, on a copy of examples/maven: after generation the
//! check passes (exit 0); after a refactoring of Counter that keeps its behaviour it still does
//! (and says that Counter and Slug, which uses it, changed since their tests were written);
//! after a constant of one method changes it exits 1, naming the test and its failing assertion;
//! `mvn suitesmith:check` fails the build the same way. The generated tests run only through the
//! binary's verifier (guarded, in the sandbox), never by `mvn test`. Needs `mvn` and a local
//! repository filled by scripts/fetch-maven.sh.

mod common;

use std::path::Path;

use common::{copy_of, mvn, suitesmith};

const COUNTER: &str = "core/src/main/java/sample/core/Counter.java";

/// Runs `generate --project DIR --check`: its exit code and stderr.
fn check(project: &Path) -> (Option<i32>, String) {
    let dir = project.display().to_string();
    let out = suitesmith(&["generate", "--project", &dir, "--check"], &[]);
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Replaces `from` by `to` in a source file of the project.
fn edit(project: &Path, rel: &str, from: &str, to: &str) {
    let p = project.join(rel);
    let text = std::fs::read_to_string(&p).expect("source");
    assert!(text.contains(from), "{rel} has {from:?}");
    std::fs::write(&p, text.replace(from, to)).expect("write");
}

/// Each edit of Counter's `increment` with whether it keeps the behaviour: a refactoring, then
/// the constant `true` of its counting path changed.
const EDITS: &[(&str, &str, bool)] = &[
    (
        "if (count >= limit) {\n            return false;\n        }\n        count++;\n        return true;",
        "if (count < limit) {\n            count += 1;\n            return true;\n        }\n        return false;",
        true,
    ),
    ("count += 1;\n            return true;", "count += 1;\n            return false;", false),
];

#[test]
fn check_passes_after_a_refactoring_and_names_the_test_after_a_behaviour_change() {
    let tmp = copy_of(&test_support::workspace_root().join("examples/maven"));
    let project = tmp.path();
    let dir = project.display().to_string();
    let out = suitesmith(
        // Without complement mode: the generated CounterTest calls `increment` itself.
        &[
            "generate",
            "--project",
            &dir,
            "--evaluations",
            "300",
            "--seed",
            "1",
            "--verify-runs",
            "1",
            "--no-complement",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let (code, err) = check(project);
    assert_eq!(code, Some(0), "nothing changed: {err}");
    assert!(err.contains("generated tests of 2 classes pass against the current build"), "{err}");
    assert!(!err.contains("changed since their tests were written"), "{err}");

    for (from, to, keeps) in EDITS {
        edit(project, COUNTER, from, to);
        let (code, err) = check(project);
        // Slug uses Counter: both classes' code changed.
        let said = "check: 2 of 2 classes changed since their tests were written (their code or a project \
                    class they depend on): sample.core.Counter, sample.text.Slug";
        assert!(err.contains(said), "{err}");
        if *keeps {
            assert_eq!(code, Some(0), "a refactoring keeps the behaviour: {err}");
            assert!(!err.contains("behaviour changed"), "{err}");
            continue;
        }
        assert_eq!(code, Some(1), "{err}");
        let named: Vec<&str> = err.lines().filter(|l| l.starts_with("behaviour changed: ")).collect();
        assert!(!named.is_empty(), "{err}");
        // The test is named, with the assertion that failed: its file, line and text.
        let first = err.lines().position(|l| l.starts_with("behaviour changed: sample.")).expect("a test");
        let line = err.lines().nth(first).unwrap_or_default();
        let at = err.lines().nth(first + 1).unwrap_or_default();
        assert!(line.contains("Test.test"), "{err}");
        assert!(
            at.trim_start().starts_with("at ") && at.contains("Test.java:") && at.contains("assert"),
            "{err}"
        );
        assert!(err.contains("suitesmith: check failed: "), "{err}");
    }

    // The Maven goal fails the build on the same change.
    let plugin = copy_of(&test_support::workspace_root().join("maven-plugin"));
    mvn(plugin.path(), &["-q", "install"]);
    let binary = format!("-Dsuitesmith.binary={}", env!("CARGO_BIN_EXE_suitesmith"));
    let out = maven_check(project, &binary);
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{log}");
    assert!(log.contains("suitesmith check: behaviour changed"), "{log}");
}

/// `mvn suitesmith:check`, which is to fail here.
#[allow(clippy::disallowed_methods)] // the test runs Maven as a user would
fn maven_check(project: &Path, binary: &str) -> std::process::Output {
    std::process::Command::new("mvn")
        .args(["-B", "-o", "-Dstyle.color=never", "suitesmith:check", binary])
        .current_dir(project)
        .output()
        .expect("mvn")
}
