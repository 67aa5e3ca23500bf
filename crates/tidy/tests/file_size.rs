//! No Rust file over [`MAX_LINES`] lines outside [`EXEMPT`]: past that a file holds more than one
//! idea, and is split into modules along them. An exemption is a decision with its reason.

mod common;

const MAX_LINES: usize = 1000;

/// (file, why it may be longer).
const EXEMPT: &[(&str, &str)] = &[
    ("crates/bench/src/report.rs", "not split yet: the summary's CSV, Markdown and SVG renderings in one"),
    ("crates/junit/src/render.rs", "not split yet: one renderer of statements, literals and casts to Java"),
    ("crates/protocol/src/codec.rs", "the wire codec: encoder and decoder of every message side by side"),
    (
        "crates/rt-abi/src/lib.rs",
        "the ABI tables (tracer methods, guard redirects) that mirror java/runtime's",
    ),
];

fn long_files() -> Vec<(String, usize)> {
    common::sources()
        .into_iter()
        .map(|(f, src)| (f, src.lines().count()))
        .filter(|&(_, n)| n > MAX_LINES)
        .collect()
}

#[test]
fn no_file_is_longer_than_the_limit() {
    let long: Vec<String> = long_files()
        .into_iter()
        .filter(|(f, _)| !EXEMPT.iter().any(|(e, _)| e == f))
        .map(|(f, n)| format!("{f} is {n} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them, or exempt with a reason):\n{}",
        long.join("\n")
    );
}

#[test]
fn exemptions_are_current() {
    let long = long_files();
    for (file, why) in EXEMPT {
        assert!(!why.is_empty());
        assert!(
            long.iter().any(|(f, _)| f == file),
            "{file} is no longer over {MAX_LINES} lines (or gone): drop it"
        );
    }
}
