//! Snapshots of the page `render` writes for fixture data (with and without a source; names and
//! source text that need escaping), that `embedded` reads the data back, and `find_source`.

use expect_test::expect_file;
use report::{Branch, ClassReport, CriterionRow, LineRow, ReportData, Source, ViolationRow};

fn row(line: u32, lines: (usize, usize), branches: &[(&str, bool)], tests: &[usize]) -> LineRow {
    LineRow {
        line,
        line_goals: lines.1,
        line_goals_covered: lines.0,
        branches: branches.iter().map(|(t, c)| Branch { text: t.to_string(), covered: *c }).collect(),
        tests: tests.to_vec(),
    }
}

fn criterion(name: &str, covered: usize, total: usize) -> CriterionRow {
    CriterionRow { name: name.to_string(), covered, total }
}

/// A class like examples/src/example/Triangle.java, with one missed branch and one missed line,
/// and a source whose text needs escaping.
fn with_source() -> ClassReport {
    let text = "package p;\n\npublic class T<X> {\n  static int f(int a) {\n    if (a < 0 && a != -1) {\n      return \"</script>\".length();\n    }\n    return a;\n  }\n}\n";
    ClassReport {
        class: "p.T".to_string(),
        criteria: vec![criterion("line", 2, 3), criterion("branch", 3, 4), criterion("method", 1, 1)],
        tests: vec!["TTest.test0".to_string(), "TTest.test1".to_string()],
        lines: vec![
            row(4, (1, 1), &[], &[0, 1]),
            row(
                5,
                (1, 1),
                &[
                    ("branch p0 taken", true),
                    ("branch p0 not-taken", true),
                    ("branch p1 taken", true),
                    ("branch p1 not-taken", false),
                ],
                &[0, 1],
            ),
            row(6, (0, 1), &[], &[]),
            row(8, (1, 1), &[], &[1]),
        ],
        source: Some(Source { path: "src/p/T.java".to_string(), text: text.to_string() }),
        violations: Vec::new(),
    }
}

/// A class whose source was not found, with a name that needs escaping.
fn without_source() -> ClassReport {
    ClassReport {
        class: "q.A<b>&\"c\"".to_string(),
        criteria: vec![criterion("line", 1, 2), criterion("branch", 0, 0)],
        tests: vec!["A_Test.test'0".to_string()],
        lines: vec![row(3, (1, 1), &[], &[0]), row(7, (0, 1), &[], &[])],
        source: None,
        violations: vec![ViolationRow {
            kind: "equals_symmetric".to_string(),
            method: "equals".to_string(),
            message: "x.equals(y) returned true, y.equals(x) returned false".to_string(),
            test: "A_ViolationTest.testEqualsIsNotSymmetric<".to_string(),
        }],
    }
}

fn data() -> ReportData {
    ReportData {
        title: "suitesmith report: 2 classes".to_string(),
        classes: vec![with_source(), without_source()],
    }
}

#[test]
fn page_matches_the_snapshot() {
    expect_file!["snapshots/two_classes.html"].assert_eq(&report::render(&data()));
}

#[test]
fn page_escapes_every_text_and_carries_its_data() {
    let page = report::render(&data());
    // The only `</script>` closes the data and the script elements; no raw `<b>` from a name.
    assert_eq!(page.matches("</script>").count(), 2, "{page}");
    assert!(!page.contains("A<b>"));
    assert!(page.contains("q.A&lt;b&gt;&amp;&quot;c&quot;"));
    assert!(page.contains("&quot;&lt;/script&gt;&quot;.length();"));
    assert_eq!(report::embedded(&page).expect("data"), data());
}

#[test]
fn line_status_follows_the_goals() {
    let c = with_source();
    let status: Vec<&str> = c.lines.iter().map(|l| l.status().css()).collect();
    assert_eq!(status, ["covered", "partly", "missed", "covered"]);
}

#[test]
fn merge_orders_the_classes_of_the_parts() {
    let a = ReportData { title: "a".into(), classes: vec![without_source()] };
    let b = ReportData { title: "b".into(), classes: vec![with_source()] };
    let merged = report::merge("m".into(), vec![a, b]);
    let names: Vec<&str> = merged.classes.iter().map(|c| c.class.as_str()).collect();
    assert_eq!(names, ["p.T", "q.A<b>&\"c\""]);
}

#[test]
fn sources_are_found_by_outer_class_in_the_first_root_that_has_them() {
    let a = tempfile::tempdir().expect("tmp");
    let b = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(b.path().join("p")).expect("mkdir");
    std::fs::write(b.path().join("p/T.java"), "class T {}\n").expect("write");
    let roots = [a.path().to_path_buf(), b.path().to_path_buf()];
    let found = report::find_source(&roots, "p.T$Inner").expect("found in the second root");
    assert_eq!(found.text, "class T {}\n");
    assert!(found.path.ends_with("p/T.java"));
    assert_eq!(report::find_source(&roots, "p.U"), None);
    assert_eq!(
        report::embedded("<html></html>").err().map(|e| e.to_string()),
        Some("the page holds no report data (not written by suitesmith)".to_string())
    );
}
