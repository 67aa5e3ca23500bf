//! The HTML report of a `generate` run (docs/report.md): [`ReportData`] is what the
//! engine's results say per class (coverage per criterion, each line's goals and the tests that
//! cover them, the source when found), [`render`] turns it into one self-contained page (inline
//! CSS and JS, no network), and the page carries its data as JSON so that `merge` can read the
//! shards' pages back ([`embedded`]) and render one for the whole run ([`merge`]).

mod html;
mod source;

use serde::{Deserialize, Serialize};

pub use html::render;
pub use source::{find_source, source_path};

/// Everything one report page shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportData {
    /// The page's heading (`suitesmith report: 2 classes`...).
    pub title: String,
    /// In class order.
    pub classes: Vec<ClassReport>,
}

/// One class under test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassReport {
    /// Binary name with dots (`example.Stack`).
    pub class: String,
    /// Covered/total goals per criterion, as report.json has them.
    pub criteria: Vec<CriterionRow>,
    /// The written tests, as `TestClass.method`, in the order [`LineRow::tests`] indexes.
    pub tests: Vec<String>,
    /// The lines with goals, in line order (one row per line number).
    pub lines: Vec<LineRow>,
    /// The class's source file, when one was found.
    pub source: Option<Source>,
    /// The contract violations found (docs/contracts.md), each with its failing test.
    #[serde(default)]
    pub violations: Vec<ViolationRow>,
}

/// One contract violation: a bug report with the test that shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolationRow {
    /// The contract (`equals_symmetric`, `null_pointer_inside`, ...).
    pub kind: String,
    /// The method that breaks it.
    pub method: String,
    /// What happened, one line.
    pub message: String,
    /// The failing test, as `ViolationTestClass.method`.
    pub test: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriterionRow {
    /// EvoSuite's name (`line`, `branch`, ...).
    pub name: String,
    pub covered: usize,
    pub total: usize,
}

/// The goals of one source line and the tests that cover any of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineRow {
    pub line: u32,
    /// Line goals of this line (more than one when several classes or methods share it).
    pub line_goals: usize,
    pub line_goals_covered: usize,
    /// Branch goals of this line with whether the tests cover each.
    pub branches: Vec<Branch>,
    /// Indices into [`ClassReport::tests`], ascending.
    pub tests: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branch {
    /// The goal as the engine writes it (`branch p7 taken`).
    pub text: String,
    pub covered: bool,
}

/// A source file as read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Where it was found, as shown on the page.
    pub path: String,
    pub text: String,
}

/// How a line is coloured: every goal of it covered, some, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineStatus {
    Covered,
    Partly,
    Missed,
}

impl LineStatus {
    /// The CSS class of a row with this status.
    pub fn css(self) -> &'static str {
        match self {
            LineStatus::Covered => "covered",
            LineStatus::Partly => "partly",
            LineStatus::Missed => "missed",
        }
    }
}

impl LineRow {
    /// Covered when every goal of the line is, missed when none is, partly otherwise (JaCoCo's
    /// colours: a line run with a branch left is partly covered).
    pub fn status(&self) -> LineStatus {
        let covered = self.line_goals_covered + self.branches.iter().filter(|b| b.covered).count();
        let total = self.line_goals + self.branches.len();
        if covered == total {
            LineStatus::Covered
        } else if covered == 0 {
            LineStatus::Missed
        } else {
            LineStatus::Partly
        }
    }
}

/// What can go wrong reading a report page back.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("the page holds no report data (not written by suitesmith)")]
    NoData,
    #[error("the page's report data does not parse: {0}")]
    Parse(#[from] serde_json::Error),
}

/// The id of the element that carries the page's data.
const DATA_ID: &str = "suitesmith-report-data";

/// The data a page rendered by [`render`] carries.
pub fn embedded(page: &str) -> Result<ReportData, ReportError> {
    let open = format!("<script type=\"application/json\" id=\"{DATA_ID}\">");
    let start = page.find(&open).ok_or(ReportError::NoData)? + open.len();
    let len = page[start..].find("</script>").ok_or(ReportError::NoData)?;
    Ok(serde_json::from_str(&page[start..start + len])?)
}

/// The shards' reports as one: every class, in class order, under `title`.
pub fn merge(title: String, parts: Vec<ReportData>) -> ReportData {
    let mut classes: Vec<ClassReport> = parts.into_iter().flat_map(|p| p.classes).collect();
    classes.sort_by(|a, b| a.class.cmp(&b.class));
    ReportData { title, classes }
}
