//! Subject lists (`bench/subjects/*.tsv`): which classes to generate tests for, on which classpath, and
//! what EvoSuite's published branch coverage was on the same class (SBST/SBFT tool competitions), so
//! the summary can print it beside ours. It does not check that the classes exist: `suitesmith
//! generate` says so (exit 2) and the run records it.
//!
//! Format: tab-separated, `#` starts a comment line, the first other line is the header. Columns by
//! name, in any order: `class` and `classpath` are required; `area`, `edition`, `benchmark` and
//! `evosuite_branch` are optional. A classpath is `:`-separated; a relative entry is relative to the
//! list's own directory. `evosuite_branch` holds `BUDGET=PERCENT` pairs separated by spaces (e.g.
//! `60=75.8 180=25.3`); an empty cell, `-` or `–` means none. The same class on the same classpath
//! may appear on several rows (one per competition edition): it is run once and keeps every row's
//! published values. A row whose class is `*` stands for every top-level class (not an interface or
//! annotation) of its classpath's first entry, a whole jar (`jars.tsv`), each run with
//! that row's classpath.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::BenchError;

/// One class to generate tests for.
#[derive(Debug, Clone, PartialEq)]
pub struct Subject {
    /// Binary name, e.g. `com.google.common.base.Throwables`.
    pub class: String,
    pub classpath: Vec<PathBuf>,
    /// Free text (e.g. `string/parsing`).
    pub area: String,
    /// Published results for this class, one per list row naming it.
    pub references: Vec<Reference>,
}

/// EvoSuite's published branch coverage for one class in one competition edition.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// e.g. `2021`; empty when the row names none.
    pub edition: String,
    /// The competition's benchmark id, e.g. `GUAVA-61`.
    pub benchmark: String,
    /// Budget in seconds -> branch coverage in percent (0–100).
    pub evosuite_branch: BTreeMap<u64, f64>,
}

impl Subject {
    /// The class name without its package, for tables and plots.
    pub fn simple_name(&self) -> &str {
        self.class.rsplit('.').next().unwrap_or(&self.class)
    }

    /// EvoSuite's published branch coverage (percent) at `budget_s`, with the reference it comes from.
    pub fn evosuite_at(&self, budget_s: u64) -> Vec<(&Reference, f64)> {
        self.references.iter().filter_map(|r| r.evosuite_branch.get(&budget_s).map(|v| (r, *v))).collect()
    }

    /// The mean of [`Subject::evosuite_at`] over editions, if any edition measured this budget.
    pub fn evosuite_mean_at(&self, budget_s: u64) -> Option<f64> {
        let v: Vec<f64> = self.evosuite_at(budget_s).into_iter().map(|(_, v)| v).collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    }
}

/// Reads a subject list from a file; relative classpath entries are resolved against its directory.
pub fn read_subjects(path: &Path) -> Result<Vec<Subject>, BenchError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| BenchError::Io { what: format!("cannot read {}", path.display()), source: e })?;
    // Absolute, since `generate` runs in another directory.
    let base = std::path::absolute(path.parent().unwrap_or(Path::new(".")))
        .map_err(|e| BenchError::Io { what: format!("cannot resolve {}", path.display()), source: e })?;
    let parsed = parse_subjects(&text, &base)
        .map_err(|detail| BenchError::Subjects { path: path.to_path_buf(), detail })?;
    expand_wildcards(parsed).map_err(|detail| BenchError::Subjects { path: path.to_path_buf(), detail })
}

/// Replaces each `*` subject by one subject per top-level class of its first classpath entry, with
/// the same classpath and area, in the classes' order; duplicates of a listed class are dropped.
pub fn expand_wildcards(subjects: Vec<Subject>) -> Result<Vec<Subject>, String> {
    let mut out: Vec<Subject> = Vec::new();
    for s in subjects {
        if s.class != "*" {
            out.push(s);
            continue;
        }
        let Some(first) = s.classpath.first() else { return Err("a `*` row with no classpath".into()) };
        let entry =
            classfile::ClassPathEntry::open(first).map_err(|e| format!("{}: {e}", first.display()))?;
        let cp = classfile::ClassPath::open(&s.classpath).map_err(|e| format!("{}: {e}", first.display()))?;
        for class in cp.top_level_classes(entry.class_names()) {
            if !out.iter().any(|o| o.class == class && o.classpath == s.classpath) {
                out.push(Subject {
                    class,
                    classpath: s.classpath.clone(),
                    area: s.area.clone(),
                    references: Vec::new(),
                });
            }
        }
    }
    Ok(out)
}

/// Parses the text of a subject list (see the module comment). Errors name the line.
pub fn parse_subjects(text: &str, base: &Path) -> Result<Vec<Subject>, String> {
    let mut header: Option<Vec<&str>> = None;
    let mut subjects: Vec<Subject> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').map(str::trim).collect();
        let Some(names) = &header else {
            for required in ["class", "classpath"] {
                if !cells.contains(&required) {
                    return Err(format!("line {n}: the header has no `{required}` column"));
                }
            }
            header = Some(cells);
            continue;
        };
        let get = |name: &str| -> &str {
            names.iter().position(|h| *h == name).and_then(|i| cells.get(i).copied()).unwrap_or("")
        };
        let class = get("class");
        if class.is_empty() {
            return Err(format!("line {n}: no class"));
        }
        let cp = get("classpath");
        if cp.is_empty() {
            return Err(format!("line {n}: no classpath for {class}"));
        }
        let classpath: Vec<PathBuf> = cp
            .split(':')
            .filter(|e| !e.is_empty())
            .map(|e| if Path::new(e).is_absolute() { PathBuf::from(e) } else { base.join(e) })
            .collect();
        let evosuite_branch =
            parse_published(get("evosuite_branch")).map_err(|e| format!("line {n}: {e}"))?;
        let reference = Reference {
            edition: get("edition").to_string(),
            benchmark: get("benchmark").to_string(),
            evosuite_branch,
        };
        let has_reference = !reference.evosuite_branch.is_empty() || !reference.benchmark.is_empty();
        match subjects.iter_mut().find(|s| s.class == class && s.classpath == classpath) {
            Some(s) => {
                if has_reference {
                    s.references.push(reference);
                }
            }
            None => subjects.push(Subject {
                class: class.to_string(),
                classpath,
                area: get("area").to_string(),
                references: if has_reference { vec![reference] } else { Vec::new() },
            }),
        }
    }
    if header.is_none() {
        return Err("no header line".into());
    }
    Ok(subjects)
}

/// `60=75.8 180=25.3` -> {60: 75.8, 180: 25.3}; empty, `-` or `–` -> {}.
fn parse_published(cell: &str) -> Result<BTreeMap<u64, f64>, String> {
    let mut out = BTreeMap::new();
    if matches!(cell, "" | "-" | "–") {
        return Ok(out);
    }
    for pair in cell.split_whitespace() {
        let bad = || format!("bad published value {pair:?}: expected BUDGET=PERCENT, e.g. 60=75.8");
        let (budget, value) = pair.split_once('=').ok_or_else(bad)?;
        let budget: u64 = budget.trim_end_matches('s').parse().map_err(|_| bad())?;
        let value: f64 = value.trim_end_matches('%').parse().map_err(|_| bad())?;
        if !(0.0..=100.0).contains(&value) {
            return Err(bad());
        }
        out.insert(budget, value);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_columns_by_name_and_merges_editions() {
        let text = "# a comment\nclass\tarea\tclasspath\tedition\tbenchmark\tevosuite_branch\n\
                    a.B\tmath\t/j/x.jar:rel/dir\t2020\tX-1\t60=75.8 180=25.3\n\
                    \n\
                    a.B\tmath\t/j/x.jar:rel/dir\t2022\tX-9\t30s=10 120=20.5%\n\
                    c.D\t\tother.jar\t\t\t–\n";
        let s = parse_subjects(text, Path::new("/base")).expect("parse");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].class, "a.B");
        assert_eq!(s[0].simple_name(), "B");
        assert_eq!(s[0].classpath, vec![PathBuf::from("/j/x.jar"), PathBuf::from("/base/rel/dir")]);
        assert_eq!(s[0].area, "math");
        assert_eq!(s[0].references.len(), 2);
        assert_eq!(s[0].evosuite_at(60).len(), 1);
        assert_eq!(s[0].evosuite_at(60)[0].0.benchmark, "X-1");
        assert_eq!(s[0].evosuite_mean_at(120), Some(20.5));
        assert_eq!(s[0].evosuite_mean_at(300), None);
        assert_eq!(s[1].classpath, vec![PathBuf::from("/base/other.jar")]);
        assert!(s[1].references.is_empty());
    }

    #[test]
    fn bad_lists_name_the_line() {
        let base = Path::new("/");
        assert_eq!(
            parse_subjects("class\tjar\n", base).unwrap_err(),
            "line 1: the header has no `classpath` column"
        );
        assert_eq!(parse_subjects("# only\n", base).unwrap_err(), "no header line");
        assert_eq!(
            parse_subjects("class\tclasspath\tevosuite_branch\na.B\tx.jar\t60:7\n", base).unwrap_err(),
            "line 2: bad published value \"60:7\": expected BUDGET=PERCENT, e.g. 60=75.8"
        );
        assert_eq!(
            parse_subjects("class\tclasspath\na.B\t\n", base).unwrap_err(),
            "line 2: no classpath for a.B"
        );
        assert!(parse_subjects("class\tclasspath\tevosuite_branch\na.B\tx\t60=101\n", base).is_err());
    }

    /// The shipped lists parse, and every Debian jar they name is installed.
    #[test]
    fn shipped_lists_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/subjects");
        let public = read_subjects(&dir.join("public.tsv")).expect("public.tsv");
        assert_eq!(public.len(), 26);
        let guava = read_subjects(&dir.join("guava.tsv")).expect("guava.tsv");
        assert_eq!(guava.len(), 52, "52 distinct classes over the 2020-2022 editions");
        assert_eq!(guava.iter().map(|s| s.references.len()).sum::<usize>(), 60);
        let fixtures = read_subjects(&dir.join("fixtures.tsv")).expect("fixtures.tsv");
        assert_eq!(fixtures.len(), 2);
        // Every top-level class of three whole jars: hundreds, none an interface, none nested.
        let jars = read_subjects(&dir.join("jars.tsv")).expect("jars.tsv");
        assert!(jars.len() > 300, "{}", jars.len());
        assert!(jars.iter().any(|s| s.class == "org.apache.commons.lang3.StringUtils"));
        assert!(jars.iter().all(|s| !s.class.contains('$') && s.class != "org.jsoup.select.NodeFilter"));
        for s in public.iter().chain(&guava).chain(&fixtures) {
            for e in &s.classpath {
                assert!(e.exists(), "{} needs {}", s.class, e.display());
            }
        }
        // EvoSuite 2021 at 120 s: the headline mean over the 25 classes of that edition is 71.5 %.
        let v: Vec<f64> = guava
            .iter()
            .flat_map(|s| s.references.iter())
            .filter(|r| r.edition == "2021")
            .filter_map(|r| r.evosuite_branch.get(&120).copied())
            .collect();
        assert_eq!(v.len(), 25);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        assert!((mean - 71.5).abs() < 0.05, "{mean}");
    }
}
