//! Comments say what the code does and why, not which issue asked for it: an issue number means
//! nothing to a reader without the tracker, and the reason it stood for belongs in the comment
//! itself. A comment line (`//`, `///`, `//!`, or the comment after code) in a crate's `src/`
//! that names an issue (`issue 21`, `Issues 4`, `issue-2`, or `issue` at the end of a line with
//! the number on the next) fails this test. Docs under docs/ may cite issues; citing another
//! project's tracker (`EvoSuite issue #121`) is a reference, not an issue of ours, and passes.

mod common;

/// The comment on `line`, if any: the whole line when it starts with `//`, else what follows a
/// ` // ` after code.
fn comment(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if t.starts_with("//") { Some(t) } else { line.find(" // ").map(|i| &line[i + 1..]) }
}

/// Whether `text` names an issue: `issue` or `issues` (any case) followed by a number after a
/// space or a hyphen; `ends_open` when it ends with the word, its number being on the next line.
fn names_issue(text: &str) -> (bool, bool) {
    let lower = text.to_ascii_lowercase();
    let mut ends_open = false;
    for (i, _) in lower.match_indices("issue") {
        let before_ok = lower[..i].chars().next_back().is_none_or(|c| !c.is_ascii_alphanumeric());
        if !before_ok {
            continue;
        }
        let rest = lower[i + "issue".len()..].strip_prefix('s').unwrap_or(&lower[i + "issue".len()..]);
        if rest.trim().is_empty() {
            ends_open = true;
            continue;
        }
        let after = rest.strip_prefix([' ', '-']).unwrap_or("").trim_start();
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            return (true, false);
        }
    }
    (false, ends_open)
}

/// The lines of `src` whose comment names an issue, as (line number, trimmed line).
fn issue_refs(src: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut open_since: Option<usize> = None;
    for (i, line) in src.lines().enumerate() {
        let Some(text) = comment(line) else {
            open_since = None;
            continue;
        };
        let body = text.trim_start_matches('/').trim_start_matches('!').trim_start();
        if let Some(at) = open_since.take()
            && body.starts_with(|c: char| c.is_ascii_digit())
        {
            found.push((at + 1, src.lines().nth(at).unwrap_or("").trim().to_string()));
        }
        let (named, ends_open) = names_issue(text);
        if named {
            found.push((i + 1, line.trim().to_string()));
        } else if ends_open {
            open_since = Some(i);
        }
    }
    found
}

#[test]
fn comments_name_no_issue() {
    let mut found = Vec::new();
    for (file, src) in common::product_sources() {
        for (line, text) in issue_refs(&src) {
            found.push(format!("{file}:{line}: {text}"));
        }
    }
    assert!(
        found.is_empty(),
        "say what the code does and why, without the issue number:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scanner_finds_issue_numbers_in_comments_only() {
    let src = "\
//! Module docs (issue 21): flagged.
/// Issues 4 and 5 asked for it: flagged.
let a = 1; // see issue-2: flagged.
// The issue
// 51 wrapped: flagged on the line with the word.
// No orphans (EvoSuite issue #121): a reference, passes.
// An issue with the clock, and tissue 3: pass.
let s = \"issue 20\"; // a string, not a comment: passes.
";
    assert_eq!(issue_refs(src).iter().map(|(l, _)| *l).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
}
