//! [`ReportData`] -> one self-contained HTML page: inline CSS and a few lines of JS (no network,
//! no external file), every text from the data HTML-escaped, the data itself embedded as JSON.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::{ClassReport, DATA_ID, LineRow, ReportData};

const STYLE: &str = "
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin: 1em 0 0.3em; }
table { border-collapse: collapse; }
th, td { padding: 2px 8px; text-align: left; vertical-align: top; }
table.criteria td.num, table.overview td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.criteria tr:nth-child(even), table.overview tr:nth-child(even) { background: #f4f4f4; }
table.lines { font: 12px/1.35 ui-monospace, monospace; width: 100%; }
table.lines td.ln { text-align: right; color: #777; user-select: none; width: 4em; }
table.lines td.code { white-space: pre; }
table.lines td.goals, table.lines td.by { color: #444; font-family: system-ui, sans-serif; }
table.lines td.goals { white-space: nowrap; }
tr.covered td.code, tr.covered td.ln { background: #ccf2cc; }
tr.partly td.code, tr.partly td.ln { background: #fff1b3; }
tr.missed td.code, tr.missed td.ln { background: #f8c9c9; }
.legend span { padding: 0 6px; margin-right: 6px; }
.legend .covered { background: #ccf2cc; } .legend .partly { background: #fff1b3; }
.legend .missed { background: #f8c9c9; }
body.only-missed tr.covered, body.only-missed tr.plain { display: none; }
.note { color: #666; }
";

/// Hides the lines whose every goal is covered, on demand; nothing else needs a script.
const SCRIPT: &str = "
document.getElementById('only-missed').addEventListener('change', function (e) {
  document.body.classList.toggle('only-missed', e.target.checked);
});
";

/// The page for `data`, byte-identical for equal data.
pub fn render(data: &ReportData) -> String {
    let mut out = String::new();
    let title = escape(&data.title);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
    );
    out.push_str(
        "<p class=\"legend\">Lines: <span class=\"covered\">covered</span><span class=\"partly\">partly \
         covered</span><span class=\"missed\">missed</span> <label><input type=\"checkbox\" \
         id=\"only-missed\"> only lines with something missed</label></p>\n",
    );
    overview(&mut out, data);
    for (i, c) in data.classes.iter().enumerate() {
        class_section(&mut out, i, c);
    }
    // `<` as \u003c: no `</script>` or `<!--` in the data can end the element early.
    let json = serde_json::to_string(data).unwrap_or_default().replace('<', "\\u003c");
    let _ = writeln!(out, "<script type=\"application/json\" id=\"{DATA_ID}\">{json}</script>");
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// One row per class, one column per criterion any class has.
fn overview(out: &mut String, data: &ReportData) {
    let mut names: Vec<&str> = Vec::new();
    for c in data.classes.iter().flat_map(|c| &c.criteria) {
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    out.push_str("<table class=\"overview\">\n<tr><th>class</th><th>tests</th>");
    for n in &names {
        let _ = write!(out, "<th>{}</th>", escape(n));
    }
    out.push_str("</tr>\n");
    for (i, c) in data.classes.iter().enumerate() {
        let _ = write!(
            out,
            "<tr><td><a href=\"#class-{i}\">{}</a></td><td class=\"num\">{}</td>",
            escape(&c.class),
            c.tests.len()
        );
        for n in &names {
            match c.criteria.iter().find(|r| r.name == *n) {
                Some(r) => {
                    let _ = write!(out, "<td class=\"num\">{}</td>", percent(r.covered, r.total));
                }
                None => out.push_str("<td></td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

fn class_section(out: &mut String, i: usize, c: &ClassReport) {
    let _ = write!(
        out,
        "<section class=\"class\" id=\"class-{i}\" data-class=\"{0}\">\n<h2>{0}</h2>\n",
        escape(&c.class)
    );
    out.push_str(
        "<table class=\"criteria\">\n<tr><th>criterion</th><th>covered</th><th>goals</th><th>coverage</th></tr>\n",
    );
    for r in &c.criteria {
        let _ = writeln!(
            out,
            "<tr data-criterion=\"{0}\"><td>{0}</td><td class=\"num covered\">{1}</td><td class=\"num \
             goals\">{2}</td><td class=\"num\">{3}</td></tr>",
            escape(&r.name),
            r.covered,
            r.total,
            percent(r.covered, r.total)
        );
    }
    out.push_str("</table>\n");
    violations(out, c);
    missed_branches(out, c);
    lines_table(out, i, c);
    let _ = write!(out, "<h3>Tests ({})</h3>\n<ol class=\"tests\" start=\"0\">\n", c.tests.len());
    for (t, name) in c.tests.iter().enumerate() {
        let _ = writeln!(out, "<li id=\"class-{i}-test-{t}\">{}</li>", escape(name));
    }
    out.push_str("</ol>\n</section>\n");
}

/// The contract violations, each with its failing test; nothing when there are none.
fn violations(out: &mut String, c: &ClassReport) {
    if c.violations.is_empty() {
        return;
    }
    let _ = writeln!(out, "<h3>Contract violations ({})</h3>\n<ul class=\"violations\">", c.violations.len());
    for v in &c.violations {
        let _ = writeln!(
            out,
            "<li data-kind=\"{0}\"><code>{1}</code> breaks {0}: {2} (failing test <code>{3}</code>)</li>",
            escape(&v.kind),
            escape(&v.method),
            escape(&v.message),
            escape(&v.test)
        );
    }
    out.push_str("</ul>\n");
}

/// The branch goals no test covers, by line.
fn missed_branches(out: &mut String, c: &ClassReport) {
    let missed: Vec<(u32, &str)> = c
        .lines
        .iter()
        .flat_map(|l| l.branches.iter().filter(|b| !b.covered).map(move |b| (l.line, b.text.as_str())))
        .collect();
    let _ = writeln!(out, "<h3>Missed branches ({})</h3>", missed.len());
    if missed.is_empty() {
        out.push_str("<p class=\"note\">none</p>\n");
        return;
    }
    out.push_str("<ul class=\"missed-branches\">\n");
    for (line, text) in missed {
        let _ = writeln!(out, "<li>line {line}: {}</li>", escape(text));
    }
    out.push_str("</ul>\n");
}

/// The source with each line coloured, or without a source the lines the bytecode names.
fn lines_table(out: &mut String, i: usize, c: &ClassReport) {
    let rows: BTreeMap<u32, &LineRow> = c.lines.iter().map(|l| (l.line, l)).collect();
    match &c.source {
        Some(s) => {
            let _ = write!(out, "<h3>Source: {}</h3>\n<table class=\"lines source\">\n", escape(&s.path));
            for (n, text) in s.text.lines().enumerate() {
                let n = n as u32 + 1;
                line_row(out, i, c, n, text, rows.get(&n).copied());
            }
        }
        None => {
            out.push_str(
                "<h3>Lines</h3>\n<p class=\"note\">No source found (give --sourcepath): the lines \
                 are the bytecode's line numbers.</p>\n<table class=\"lines\">\n",
            );
            for l in &c.lines {
                line_row(out, i, c, l.line, "", Some(l));
            }
        }
    }
    out.push_str("</table>\n");
}

fn line_row(out: &mut String, i: usize, c: &ClassReport, n: u32, text: &str, row: Option<&LineRow>) {
    let Some(row) = row else {
        let _ = writeln!(
            out,
            "<tr class=\"plain\"><td class=\"ln\">{n}</td><td class=\"code\">{}</td><td></td><td></td></tr>",
            escape(text)
        );
        return;
    };
    let mut goals = Vec::new();
    if row.line_goals > 1 {
        goals.push(format!("{}/{} line goals", row.line_goals_covered, row.line_goals));
    }
    if !row.branches.is_empty() {
        let covered = row.branches.iter().filter(|b| b.covered).count();
        goals.push(format!("{covered}/{} branches", row.branches.len()));
    }
    let by: Vec<String> = row
        .tests
        .iter()
        .map(|&t| {
            let name = c.tests.get(t).map_or("?", String::as_str);
            let short = name.rsplit('.').next().unwrap_or(name);
            format!("<a href=\"#class-{i}-test-{t}\" title=\"{}\">{}</a>", escape(name), escape(short))
        })
        .collect();
    let _ = writeln!(
        out,
        "<tr class=\"{}\" data-line=\"{n}\"><td class=\"ln\">{n}</td><td class=\"code\">{}</td>\
         <td class=\"goals\">{}</td><td class=\"by\">{}</td></tr>",
        row.status().css(),
        escape(text),
        goals.join(", "),
        by.join(" ")
    );
}

/// `covered/total (xx.x %)`; a criterion without goals is fully covered, as report.json says.
fn percent(covered: usize, total: usize) -> String {
    let p = if total == 0 { 100.0 } else { 100.0 * covered as f64 / total as f64 };
    format!("{covered}/{total} ({p:.1} %)")
}

/// Text as HTML: `&`, `<`, `>`, `"` and `'` as entities (safe in elements and quoted attributes).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
