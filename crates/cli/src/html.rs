//! `report.html` of a run (docs/report.md): the engine's results per class (`ClassTests`: coverage
//! per criterion, the line and branch goals with the written tests that cover them) as
//! `report::ReportData`, with each class's source looked up under the source roots
//! (`--sourcepath`, or a project's `src/main/java`), rendered by `report::render`.

use jvm_model::ClassName;
use std::collections::BTreeMap;
use std::path::PathBuf;

use engine::{ClassTests, Criterion};
use report::{Branch, ClassReport, CriterionRow, LineRow, ReportData};

/// The page's title for `n` classes.
pub fn title(n: usize) -> String {
    format!("suitesmith report: {n} {}", if n == 1 { "class" } else { "classes" })
}

/// The report page of the classes `done`, sources searched in `source_roots` in order.
pub fn report_html(done: &[ClassTests], source_roots: &[PathBuf]) -> String {
    report::render(&report_data(done, source_roots))
}

/// What the page shows of the classes `done`.
pub fn report_data(done: &[ClassTests], source_roots: &[PathBuf]) -> ReportData {
    let classes = done.iter().map(|t| class_report(t, source_roots)).collect();
    ReportData { title: title(done.len()), classes }
}

fn class_report(t: &ClassTests, source_roots: &[PathBuf]) -> ClassReport {
    let criteria = t
        .coverage
        .iter()
        .map(|c| CriterionRow { name: c.criterion.name().to_string(), covered: c.covered, total: c.total })
        .collect();
    // The files hold the tests in order, split into classes of consecutive tests.
    let mut tests: Vec<String> = t
        .files
        .iter()
        .flat_map(|f| f.tests.iter().map(|m| format!("{}.{}", f.class_name, m.method)))
        .collect();
    if tests.len() != t.tests.len() {
        tests = (0..t.tests.len()).map(|i| format!("test {i}")).collect();
    }
    ClassReport {
        class: t.class.clone(),
        criteria,
        tests,
        lines: line_rows(t),
        source: report::find_source(source_roots, &t.class),
        violations: t
            .violations
            .iter()
            .map(|v| report::ViolationRow {
                kind: v.kind.name().to_string(),
                method: v.method.clone(),
                message: v.message.clone(),
                test: format!(
                    "{}.{}",
                    t.violation_file.as_ref().map_or("", |f| f.class_name.as_str()),
                    v.test.name.as_deref().unwrap_or_default()
                ),
            })
            .collect(),
    }
}

/// The line and branch goals of the class and its nested classes (the lines of its source file)
/// by line; goals without a line (methods compiled without line numbers) have no row.
fn line_rows(t: &ClassTests) -> Vec<LineRow> {
    let outer = ClassName::from_binary(&t.class).outermost().into_internal();
    let mut rows: BTreeMap<u32, LineRow> = BTreeMap::new();
    for g in &t.goal_runs {
        let (Some(line), true) = (g.line, g.class.split('$').next() == Some(outer.as_str())) else {
            continue;
        };
        let row = rows.entry(u32::from(line)).or_insert_with(|| LineRow {
            line: u32::from(line),
            line_goals: 0,
            line_goals_covered: 0,
            branches: Vec::new(),
            tests: Vec::new(),
        });
        match g.criterion {
            Criterion::Line => {
                row.line_goals += 1;
                row.line_goals_covered += usize::from(!g.runs.is_empty());
            }
            _ => row.branches.push(Branch { text: g.text.clone(), covered: !g.runs.is_empty() }),
        }
        row.tests.extend(&g.runs);
    }
    let mut rows: Vec<LineRow> = rows.into_values().collect();
    for r in &mut rows {
        r.tests.sort_unstable();
        r.tests.dedup();
    }
    rows
}
