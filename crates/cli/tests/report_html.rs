//! report.html in a real browser: `generate` on the bundled example (README's
//! first command, `scripts/example.sh`: `--classpath examples/classes --prefix example`, seed 1,
//! with a fixed number of evaluations here) with `--sourcepath examples/src`, then headless
//! Chromium from Debian loads the page: no console message at all (the page logs nothing, so any
//! is an error or a script failing), and the DOM after its scripts ran shows report.json's covered
//! and total goals for every class and criterion and the source with coloured lines. The test's
//! screenshot, taken in its temporary directory, becomes docs/report-example.png with
//! `UPDATE_EXPECT=1` (as the snapshots are blessed): a test run never writes into the checkout
//! otherwise. A deliberately broken page first shows that the console check catches errors.

// Tests run the binary and the browser as a user would.
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::Path;
use std::process::Command;

use common::suitesmith;

const CHROMIUM: &str = "/usr/bin/chromium";

/// Chromium headless on `page` with a fresh profile and no network use of its own; `extra` says
/// what to produce. Returns (stdout, the console lines of stderr).
fn chromium(page: &Path, profile: &Path, extra: &[String]) -> (String, Vec<String>) {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: scripts/test.sh installs Debian's chromium"
    );
    let out = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    let console = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_string)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), console)
}

/// The text of the first element after `from` that opens with `open`, up to its closing `</`.
fn text_after<'a>(dom: &'a str, from: usize, open: &str) -> Option<&'a str> {
    let start = dom[from..].find(open)? + from + open.len();
    let end = dom[start..].find("</")? + start;
    Some(&dom[start..end])
}

#[test]
fn the_example_report_renders_in_chromium_with_report_json_figures() {
    let root = test_support::workspace_root();
    let tmp = tempfile::tempdir().expect("tempdir");

    // The console check itself: a page with a failing script is caught.
    let broken = tmp.path().join("broken.html");
    std::fs::write(&broken, "<html><body><script>undefinedFunction();</script></body></html>")
        .expect("write");
    let (_, console) = chromium(&broken, &tmp.path().join("profile0"), &["--dump-dom".to_string()]);
    assert!(console.iter().any(|l| l.contains("undefinedFunction")), "console errors not seen: {console:?}");

    let out = tmp.path().join("out");
    let run = suitesmith(
        &[
            "generate",
            "--classpath",
            "examples/classes",
            "--prefix",
            "example",
            "--evaluations",
            "1500",
            "--seed",
            "1",
            "--verify-runs",
            "1",
            "--sourcepath",
            "examples/src",
            "--out",
            &out.display().to_string(),
        ],
        &[],
    );
    assert!(run.status.success(), "generate failed: {}", String::from_utf8_lossy(&run.stderr));
    let page = out.join("report.html");
    let (dom, console) = chromium(&page, &tmp.path().join("profile1"), &["--dump-dom".to_string()]);
    assert!(console.is_empty(), "console messages: {console:?}");

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report.json"))
            .expect("parses");
    let classes = report["classes"].as_array().expect("classes");
    assert!(classes.len() >= 2, "the example has Stack and Triangle: {classes:?}");
    let mut checked = 0;
    for c in classes {
        let name = c["class"].as_str().expect("class");
        let section =
            dom.find(&format!("data-class=\"{name}\"")).unwrap_or_else(|| panic!("{name} not shown"));
        for (criterion, figures) in c["criteria"].as_object().expect("criteria") {
            let row = dom[section..]
                .find(&format!("data-criterion=\"{criterion}\""))
                .map(|i| i + section)
                .unwrap_or_else(|| panic!("{name}: no row for {criterion}"));
            let covered = text_after(&dom, row, "<td class=\"num covered\">").expect("covered cell");
            let goals = text_after(&dom, row, "<td class=\"num goals\">").expect("goals cell");
            assert_eq!(covered, figures["covered"].to_string(), "{name} {criterion}: covered");
            assert_eq!(goals, figures["goals"].to_string(), "{name} {criterion}: goals");
            checked += 1;
        }
        // The source was found and its lines coloured.
        let source = text_after(&dom, section, "<h3>Source: ").expect("a source heading");
        assert!(source.ends_with(&format!("{}.java", name.replace('.', "/"))), "{source}");
        let end = dom[section + 1..].find("<section").map_or(dom.len(), |i| i + section + 1);
        assert!(dom[section..end].contains("<tr class=\"covered\""), "{name}: no covered line");
    }
    // Seven criteria with static goals per class, and context branch where calls reveal contexts.
    assert!(checked >= 14, "every criterion of every class: {checked} figures checked");

    let shot = tmp.path().join("report-example.png");
    let (_, console) = chromium(
        &page,
        &tmp.path().join("profile2"),
        &[format!("--screenshot={}", shot.display()), "--window-size=1280,1600".to_string()],
    );
    assert!(console.is_empty(), "console messages: {console:?}");
    let png = std::fs::read(&shot).expect("screenshot written");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "a real screenshot: {} bytes", png.len());
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(root.join("docs/report-example.png"), &png).expect("docs/report-example.png");
    }
}
