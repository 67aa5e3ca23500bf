//! Strings in the formats the code under test checks (`--format-strings`):
//! dotted quads, CIDR blocks, ISO dates and times, host-port pairs, e-mail addresses, paths,
//! URLs, percent escapes and colours, added to the static pool when the class under test compares
//! characters with the separators of that format.
//!
//! A parser of such a format (gson's `ISO8601Utils.parse` checks `'-'`, `'T'` and `':'` one
//! offset at a time) rejects a random string at its first character, and the branch distance of
//! `charAt(i) == '-'` guides only one character at a time, each behind the checks before it. A
//! well-formed value of the format, and a few nearly well-formed ones (a month 13, an octet 256),
//! reach the checks deep in the parser at once; the search mutates them from there. Each format
//! has well-formed values first, then values with one field out of range or not a number.
//! EvoSuite has no such seeds; its dynamic pool adds the strings the code compares with
//! (`equals`, `startsWith`), which our pool does too, but a parser compares characters.
//!
//! The signal is the class's own separators: the characters it pushes as numbers (`bipush 45`,
//! as `charAt(i) == '-'` compiles) and its one-character string constants (`split(":")`,
//! `indexOf("/")`). A format's shapes are added when all of its separators are there.

use std::collections::BTreeSet;

use super::ClusterConfig;
use super::features::ClusterFeature;
use super::load::{CutPool, PoolConstants};

/// `ClusterConfig::format_strings`.
pub(super) struct FormatStrings;

impl ClusterFeature for FormatStrings {
    fn enabled(&self, config: &ClusterConfig) -> bool {
        config.format_strings
    }

    /// The separators are read from the pushed numbers as well (`bipush 45` is `'-'`), whether
    /// or not the pool keeps them (`code_constants`).
    fn extend_pool(&self, cut: &CutPool<'_, '_>, pool: &mut PoolConstants) {
        let full = cut.full();
        pool.strings.extend(format_shapes(&full.ints, &full.strings));
    }
}

/// The formats: the separators a class must use, and the strings added then, well-formed first.
/// The values are ours (not from another tool); a fixed list keeps runs deterministic.
const SHAPES: &[(&[char], &[&str])] = &[
    (&['.'], &["192.168.0.1", "0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3", "1.2.3.x"]),
    (&['.', '/'], &["10.0.0.0/8", "192.168.1.0/24", "1.2.3.4/33"]),
    (
        &['-', 'T', ':'],
        &[
            "2024-02-29T12:30:45Z",
            "2024-02-29T12:30:45.123+01:00",
            "20240229T123045Z",
            // Each field out of range once, and a letter in a number.
            "2024-13-01T12:30:45Z",
            "2024-02-29T25:30:45Z",
            "2024-02-29T12:61:45Z",
            "2024-02-29T12:3x:45Z",
        ],
    ),
    (&['-', ':'], &["2024-02-29 12:30:45", "2024-02-29", "12:30:45"]),
    (&['-'], &["2024-02-29", "2024-2-3", "-1"]),
    (&[':'], &["12:30", "12:30:45", "example.com:8080", "::1", "2001:db8::1", "[::1]:80"]),
    (&['@'], &["user@example.com", "a@b", "@x"]),
    // Paths to normalise (Guava's `Files.simplifyPath` splits on '/' and switches on "." and
    // ".."); as text only: the guards refuse writes outside the scratch directory.
    (&['/', '.'], &["a/./b/../c", "/../x", "//a//b/", "../a", "./a/", "/a/b.c"]),
    (&['/', ':'], &["http://example.com:8080/a/b?c=d#e", "https://example.com/", "mailto:a@b.c"]),
    (&['%'], &["a%20b", "%2F", "%zz", "%"]),
    (&['#'], &["#ff00ff", "#fff", "#"]),
];

/// The separators that `SHAPES` uses.
const SEPARATORS: &[char] = &['.', '/', '-', 'T', ':', '@', '%', '#'];

/// The format strings for a class that pushes the numbers `ints` and has the string constants
/// `strings`: every shape whose separators the class uses, in `SHAPES`' order, once each.
pub(crate) fn format_shapes(ints: &[i32], strings: &[String]) -> Vec<String> {
    let mut used: BTreeSet<char> = BTreeSet::new();
    for &i in ints {
        if let Some(c) = u32::try_from(i).ok().and_then(char::from_u32)
            && SEPARATORS.contains(&c)
        {
            used.insert(c);
        }
    }
    for s in strings {
        let mut chars = s.chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && SEPARATORS.contains(&c)
        {
            used.insert(c);
        }
    }
    let mut seen = BTreeSet::new();
    SHAPES
        .iter()
        .filter(|(seps, _)| seps.iter().all(|c| used.contains(c)))
        .flat_map(|(_, values)| values.iter())
        .filter(|v| seen.insert(**v))
        .map(|v| v.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gson's `ISO8601Utils` pushes `'-'`, `'T'`, `':'`, `'.'`, `'+'` and `'Z'` (and has the string
    /// "Z"): dates, times and dotted quads, not e-mail addresses.
    #[test]
    fn a_date_parser_gets_dates_and_times() {
        let ints: Vec<i32> = "-T:.+Z".chars().map(|c| c as i32).chain([0, 1, 4]).collect();
        let shapes = format_shapes(&ints, &["Z".to_string(), "GMT".to_string()]);
        assert!(shapes.contains(&"2024-02-29T12:30:45Z".to_string()));
        assert!(shapes.contains(&"12:30:45".to_string()));
        assert!(shapes.contains(&"192.168.0.1".to_string()));
        assert!(!shapes.iter().any(|s| s.contains('@') || s.contains('%')));
        // Each once, though `"2024-02-29"` is in two formats.
        assert_eq!(shapes.iter().filter(|s| *s == "2024-02-29").count(), 1);
    }

    /// Separators from one-character string constants count; longer strings and other numbers
    /// do not.
    #[test]
    fn one_character_strings_are_separators_and_nothing_else_is() {
        assert_eq!(
            format_shapes(&[300, -1, 65], &["a@b".to_string(), "..".to_string()]),
            Vec::<String>::new()
        );
        let cidr = format_shapes(&[], &["/".to_string(), ".".to_string()]);
        assert!(cidr.contains(&"10.0.0.0/8".to_string()));
        assert!(cidr.contains(&"a/./b/../c".to_string()));
    }
}
