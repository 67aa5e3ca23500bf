//! A class name changes spelling in one place: `jvm_model::ClassName` (binary `a.b.C$D` <->
//! internal `a/b/C$D`, class and source file paths) and `jvm_model::package_internal`. Anywhere
//! else a `replace('.', "/")` or `replace('/', ".")` is a second, silent definition of that rule,
//! and the place where a descriptor, a file path and a class name get confused.

mod common;

/// The one file allowed to spell the conversion out.
const HOME: &str = "crates/jvm-model/src/class_name.rs";

/// The spelling changes in `src` as (line number, line); whitespace inside the call is ignored.
fn spelling_changes(src: &str) -> Vec<(usize, String)> {
    const CALLS: &[&str] =
        &["replace('.',\"/\")", "replace('/',\".\")", "replace(\".\",\"/\")", "replace(\"/\",\".\")"];
    src.lines()
        .enumerate()
        .filter(|(_, l)| {
            let squeezed: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            CALLS.iter().any(|c| squeezed.contains(c))
        })
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .collect()
}

#[test]
fn class_names_change_spelling_only_in_class_name() {
    let mut found = Vec::new();
    for (file, src) in common::product_sources() {
        if file == HOME {
            continue;
        }
        for (line, text) in spelling_changes(&src) {
            found.push(format!("{file}:{line}: {text}"));
        }
    }
    assert!(found.is_empty(), "use jvm_model::ClassName instead of:\n{}", found.join("\n"));
}

#[test]
fn the_scanner_sees_through_spacing() {
    let src = "let a = x.replace('.', \"/\");\nlet b = y.replace( \"/\" , \".\" );\nlet c = p.replace('\\\\', \"/\");";
    assert_eq!(spelling_changes(src).iter().map(|(l, _)| *l).collect::<Vec<_>>(), vec![1, 2]);
}
