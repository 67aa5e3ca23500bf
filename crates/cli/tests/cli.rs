//! The `suitesmith` binary from outside: exit codes and the one-line error of bad input (with nothing
//! written), `instrument` output that runs unchanged under the verifier, and the `analyze` report of
//! the bundled example as a snapshot (bless with `UPDATE_EXPECT=1`), and `analyze --flags` on a flag fixture;
//! `generate --help` as a snapshot with every switch's default, and a technique's switch given with its
//! `--no-` form as bad input.

// Tests run the binary and `java` as a user would; only the worker crate spawns processes in the engine.
#![allow(clippy::disallowed_methods)]

mod common;

use common::{stderr_line, suitesmith};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Each bad input: exit 2, one line on stderr, and the output directory not created.
#[test]
fn bad_input_is_one_line_exit_2_and_nothing_written() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let out_s = out.display().to_string();
    let corrupt = tmp.path().join("corrupt.jar");
    std::fs::write(&corrupt, b"not a zip").expect("write");
    let corrupt_s = corrupt.display().to_string();
    let dse_run = |extra: &[&'static str]| -> Vec<&str> {
        let mut a = vec!["generate", "--classpath", "examples/classes", "--class", "example.Stack"];
        a.extend(["--out", out_s.as_str(), "--dse", "on"]);
        a.extend_from_slice(extra);
        a
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["instrument", "--classpath", "", "--out", &out_s], "the classpath is empty"),
        (vec!["instrument", "--classpath", "/no/such/dir", "--out", &out_s], "does not exist"),
        (vec!["instrument", "--classpath", "examples/classes::x", "--out", &out_s], "empty entry"),
        (vec!["instrument", "--classpath", &corrupt_s, "--out", &out_s], "cannot read classpath entry"),
        (
            vec!["analyze", "--classpath", "examples/classes", "--class", "example.Nope"],
            "not on the classpath",
        ),
        (
            vec![
                "search",
                "--classpath",
                "examples/classes",
                "--class",
                "example.Stack",
                "--evaluations",
                "0",
            ],
            "must be positive",
        ),
        (
            vec!["search", "--classpath", "examples/classes", "--class", "example.Stack", "--budget", "0s"],
            "is zero",
        ),
        (
            vec![
                "search",
                "--classpath",
                "examples/classes",
                "--class",
                "example.Nope",
                "--evaluations",
                "10",
            ],
            "not on the classpath",
        ),
        (dse_run(&["--dse-share=-1"]), "--dse-share -1"),
        (dse_run(&["--dse-time-share=NaN"]), "--dse-time-share NaN"),
        (dse_run(&["--dse-rate", "0.5"]), "--dse-rate 0.5 is below 1"),
        (dse_run(&["--local-search-share", "0"]), "--local-search-share must be in (0, 1], not 0"),
        (dse_run(&["--local-search-exponents", "63"]), "--local-search-exponents must be in 1..=62, not 63"),
    ];
    for (args, expected) in cases {
        let res = suitesmith(&args, &[]);
        assert_eq!(res.status.code(), Some(2), "{args:?}: {res:?}");
        let line = stderr_line(&res);
        assert!(line.starts_with("suitesmith: error: ") && line.contains(expected), "{args:?}: {line:?}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    // A non-empty output directory is refused and left as it was.
    std::fs::create_dir_all(&out).expect("mkdir");
    std::fs::write(out.join("keep.txt"), "mine").expect("write");
    let res = suitesmith(&["instrument", "--classpath", "examples/classes", "--out", &out_s], &[]);
    assert_eq!(res.status.code(), Some(2));
    assert!(stderr_line(&res).contains("is not empty"));
    assert_eq!(std::fs::read_dir(&out).expect("read").count(), 1);
}

fn java(cp: &Path, main: &str) -> Output {
    Command::new(test_support::java_home().join("bin/java"))
        .args(["-Xverify:all", "-cp"])
        .arg(cp)
        .arg(main)
        .output()
        .expect("run java")
}

/// `instrument` writes every class plus the runtime, and the fixture programs print exactly what the
/// originals print, under the verifier; `--probes none` also.
#[test]
fn instrumented_programs_run_unchanged() {
    let classes = test_support::fixture_classes("behaviour");
    for probes in ["all", "none"] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let out: PathBuf = tmp.path().join("out");
        let res = suitesmith(
            &[
                "instrument",
                "--classpath",
                &classes.display().to_string(),
                "--out",
                &out.display().to_string(),
                "--probes",
                probes,
            ],
            &[],
        );
        assert_eq!(res.status.code(), Some(0), "{res:?}");
        let stdout = String::from_utf8_lossy(&res.stdout);
        assert!(stdout.contains("0 classes and 0 methods left unchanged"), "{stdout}");
        assert!(out.join("suitesmith/rt/Tracer.class").exists());
        for main in ["behaviour.Compares", "behaviour.Loops", "behaviour.Switches", "behaviour.Exceptions"] {
            let original = java(&classes, main);
            let rewritten = java(&out, main);
            assert!(original.status.success(), "{main}: {original:?}");
            assert_eq!(rewritten.status.code(), original.status.code(), "{main} ({probes}): {rewritten:?}");
            assert_eq!(rewritten.stdout, original.stdout, "{main} ({probes})");
        }
    }
}

#[test]
fn analyze_reports_the_bundled_example() {
    let res = suitesmith(&["analyze", "--classpath", "examples/classes", "--class", "example.Triangle"], &[]);
    assert_eq!(res.status.code(), Some(0), "{res:?}");
    expect_test::expect_file!["../test_data/analyze_Triangle.txt"]
        .assert_eq(&String::from_utf8_lossy(&res.stdout));
}

/// `analyze --flags`: the flag branches of F3 (digest 000-001 §B7), with the cascade
/// through `isValid` down to `hasChecksum` and `notReserved`.
#[test]
fn analyze_flags_lists_flag_branches() {
    let res = suitesmith(
        &["analyze", "--classpath", "fixtures/classes/flags", "--class", "flags.ChecksumScanner", "--flags"],
        &[],
    );
    assert_eq!(res.status.code(), Some(0), "{res:?}");
    expect_test::expect_file!["../test_data/analyze_flags_ChecksumScanner.txt"]
        .assert_eq(&String::from_utf8_lossy(&res.stdout));
}

/// `analyze --paths`: the path conditions of each public method of `BlockPool`
/// (symbolic exploration with lazy initialisation, paper 003), with the branches they cover.
#[test]
fn analyze_paths_lists_path_conditions() {
    let res = suitesmith(
        &["analyze", "--classpath", "fixtures/classes/sushi", "--class", "sushi.BlockPool", "--paths"],
        &[],
    );
    assert_eq!(res.status.code(), Some(0), "{res:?}");
    expect_test::expect_file!["../test_data/analyze_paths_BlockPool.txt"]
        .assert_eq(&String::from_utf8_lossy(&res.stdout));
    let res = suitesmith(
        &["analyze", "--classpath", "fixtures/classes/sushi", "--class", "sushi.Nope", "--paths"],
        &[],
    );
    assert_eq!(res.status.code(), Some(2), "{res:?}");
}

/// `--help` opens with what the tool does for a user, and ends with how to start.
#[test]
fn help_opens_with_what_the_tool_does() {
    let res = suitesmith(&["--help"], &[]);
    assert_eq!(res.status.code(), Some(0));
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(text.starts_with("Writes JUnit tests for compiled Java classes"), "{text}");
    assert!(text.contains("Start with: suitesmith generate --classpath"), "{text}");
}

/// `generate --help` as a snapshot (bless with `UPDATE_EXPECT=1`): every switch with its default,
/// read from the product's defaults (`engine::Techniques::standard`), and every technique's
/// `--no-` form.
#[test]
fn generate_help_shows_every_default() {
    let res = suitesmith(&["generate", "--help"], &[]);
    assert_eq!(res.status.code(), Some(0), "{res:?}");
    let text = String::from_utf8_lossy(&res.stdout);
    expect_test::expect_file!["snapshots/generate-help.txt"].assert_eq(&text);
    let standard = engine::Techniques::standard();
    for t in engine::Technique::ALL {
        let name = t.name();
        let (on, off) = if t == engine::Technique::GoalSelection { ("smart", "all") } else { ("on", "off") };
        let default = if standard.is_on(t) { on } else { off };
        // The switch's entry: its line and, when clap puts the help below it, the next.
        let lines: Vec<&str> = text.lines().collect();
        let at = lines.iter().position(|l| l.trim_start().starts_with(&format!("--{name} ")));
        let entry = at.map(|i| lines[i..(i + 2).min(lines.len())].join("\n")).unwrap_or_default();
        let entry = entry.split("\n      --").next().unwrap_or_default();
        assert!(entry.contains(&format!("[default: {default}]")), "--{name}: {entry:?}");
        assert!(text.contains(&format!("--no-{name} ")), "--no-{name}");
    }
}

/// A technique's switch with its `--no-` form, on each command that takes them: exit 2, one line
/// naming both, nothing written, before any JVM starts.
#[test]
fn a_switch_and_its_ablation_together_are_bad_input() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let out_s = out.display().to_string();
    let generate =
        ["generate", "--classpath", "examples/classes", "--class", "example.Stack", "--out", &out_s];
    let search =
        ["search", "--classpath", "examples/classes", "--class", "example.Stack", "--evaluations", "10"];
    for t in engine::Technique::ALL {
        let name = t.name();
        let (switch, ablation) = (format!("--{name}"), format!("--no-{name}"));
        for command in [&generate[..], &search[..]] {
            let mut args = command.to_vec();
            args.extend([switch.as_str(), ablation.as_str()]);
            let res = suitesmith(&args, &[]);
            assert_eq!(res.status.code(), Some(2), "{args:?}: {res:?}");
            let line = stderr_line(&res);
            let expected =
                format!("suitesmith: error: {switch} and {ablation} contradict each other: give one of them");
            assert_eq!(line.trim_end(), expected, "{args:?}");
            assert!(!out.exists(), "{args:?} wrote {}", out.display());
        }
    }
}
