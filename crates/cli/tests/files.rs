//! Files and paths as test values (docs/files.md): on `fixtures/java/files`,
//! whose methods read a settings file (`Config`: missing, empty, a directory with and without
//! entries, a comment, a `key=value` line), append to a journal (`Journal`: creates the file,
//! refuses a directory) and sort paths (`PathKinds`: `Path` parameters, line counts, a copy that
//! refuses to overwrite), `generate --files on` covers every branch within a fixed number of
//! evaluations, while without it some stay out of reach (`new File(String)` names nothing that
//! exists). The written tests make their files in JUnit's temporary folder, compile with JUnit
//! alone, pass 5 of 5 fresh runs, and leave nothing behind: not in the working directory, and
//! not in `java.io.tmpdir` (JUnit deletes the folder).

mod common;

use std::path::Path;

const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";

/// Each class and text its written tests must contain.
const CLASSES: &[(&str, &[&str])] = &[
    (
        "files.Config",
        &["public TemporaryFolder temporaryFolder = new TemporaryFolder();", ".createDirectory("],
    ),
    ("files.Journal", &["temporaryFolder.getRoot().toPath().resolve(\"file0\").toFile()"]),
    ("files.PathKinds", &["Path path0 = "]),
];

fn generate(out: &Path, class: &str, files: &str, junit: &str) -> serde_json::Value {
    common::generate_fixture("files", class, out, &common::pinned(&["--files", files, "--junit", junit]))
}

#[test]
fn files_reach_every_branch_and_their_tests_leave_nothing_behind() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fixtures = test_support::workspace_root().join("fixtures/classes/files");
    let cp = format!("{}:{JUNIT4}", fixtures.display());
    for (class, texts) in CLASSES {
        let out = tmp.path().join(class);
        let report = generate(&out, class, "on", "4");
        assert_eq!(common::uncovered_branches(&report), Vec::<String>::new(), "{class}");
        let c = &report["classes"][0];
        assert_eq!(c["verification"]["verified"], true, "{class}: {}", c["verification"]);
        assert_eq!(report["configuration"]["files"], true);

        let files = common::java_files(&out);
        assert_eq!(files.len(), 1, "{class}");
        let (name, text) = &files[0];
        for t in *texts {
            assert!(text.contains(t), "{class}: no {t} in\n{text}");
        }
        // A directory's length depends on the file system: never asserted.
        assert!(!text.contains("4096L"), "{class}: a directory's length is asserted\n{text}");

        // Run from an empty directory with an empty `java.io.tmpdir`: both stay empty.
        let cwd = tmp.path().join(format!("{class}-cwd"));
        let java_tmp = tmp.path().join(format!("{class}-tmp"));
        std::fs::create_dir_all(&cwd).expect("cwd");
        std::fs::create_dir_all(&java_tmp).expect("tmp");
        let tmpdir = format!("-Djava.io.tmpdir={}", java_tmp.display());
        common::compile_and_run_junit4_with(&out, name, &cp, &cwd, 5, class, &[&tmpdir]);
        assert!(common::files_under(&cwd).is_empty(), "{class}: files left in the working directory");
        assert_eq!(
            std::fs::read_dir(&java_tmp).expect("tmp").count(),
            0,
            "{class}: files left in java.io.tmpdir"
        );

        // Without files, the same budget leaves branches: `new File(String)` names nothing that
        // exists, and a relative name is the user's working directory (verification drops tests
        // that write there).
        let off = generate(&tmp.path().join(format!("{class}-off")), class, "off", "4");
        assert!(!common::uncovered_branches(&off).is_empty(), "{class} without files covers every branch");
    }
}

/// JUnit 5: the folder is an `@TempDir` field, and the verifier compiled and ran the tests.
#[test]
fn junit5_tests_use_a_temp_dir() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let report = generate(&out, "files.Config", "on", "5");
    assert_eq!(common::uncovered_branches(&report), Vec::<String>::new());
    let c = &report["classes"][0];
    assert_eq!(c["verification"]["verified"], true, "{}", c["verification"]);
    let files = common::java_files(&out);
    let text = &files[0].1;
    assert!(text.contains("@TempDir\n  Path temporaryFolder;"), "{text}");
    assert!(text.contains("Files.write(temporaryFolder.resolve(\"file0\"), "), "{text}");
}

/// The same seed and evaluation budget write byte-identical tests with one worker and with two.
#[test]
fn file_tests_are_deterministic() {
    let texts = common::written_with_one_and_two_workers(
        "files",
        "files.Config",
        &common::pinned(&["--files", "on"]),
    );
    assert_eq!(texts[0], texts[1]);
}
