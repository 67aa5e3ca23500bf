//! Worked examples of every string distance, as one table per test kind: the operands, then the
//! distances to holding and to failing (`-` where none is known), checked against a snapshot.

use expect_test::{Expect, expect};
use protocol::{Compared, StringTest};

use super::*;

fn check(test: StringTest, flags: i32, cases: &[(&str, &str)], expect: Expect) {
    let regexes = RegexCache::default();
    let show = |d: Option<u32>| d.map_or("-".to_string(), |d| d.to_string());
    let mut out = String::new();
    for &(a, b) in cases {
        let c = Compared { test, flags, a: a.into(), b: b.into() };
        let (t, f) = test_distances(&c, &regexes);
        out.push_str(&format!("{a:?} {b:?}: true {} false {}\n", show(t), show(f)));
    }
    expect.assert_eq(&out);
}

/// Levenshtein's textbook examples ("kitten"/"sitting" is 3), the empty string, a whole
/// replacement, and a char outside the BMP counting as one edit.
#[test]
fn equals_is_the_edit_distance() {
    check(
        StringTest::Equals,
        0,
        &[
            ("kitten", "sitting"),
            ("flaw", "lawn"),
            ("", "deploy"),
            ("deploy", "deploy"),
            ("dpl", "deploy"),
            ("abc", "xyz"),
            ("a\u{1F600}b", "ab"),
        ],
        expect![[r#"
            "kitten" "sitting": true 3 false 0
            "flaw" "lawn": true 2 false 0
            "" "deploy": true 6 false 0
            "deploy" "deploy": true 0 false 1
            "dpl" "deploy": true 3 false 0
            "abc" "xyz": true 3 false 0
            "a😀b" "ab": true 1 false 0
        "#]],
    );
}

#[test]
fn equals_ignore_case_folds_first() {
    check(
        StringTest::EqualsIgnoreCase,
        0,
        &[("DEPLOY", "deploy"), ("Depl0y", "deploy"), ("straße", "STRASSE"), ("", "x")],
        expect![[r#"
            "DEPLOY" "deploy": true 0 false 1
            "Depl0y" "deploy": true 1 false 0
            "straße" "STRASSE": true 2 false 0
            "" "x": true 1 false 0
        "#]],
    );
}

/// The prefix distance lets the rest of the string be anything: "-x" needs one edit to start with
/// "--" whatever follows; EvoSuite's same-length prefix gives the same here, but "x--a" needs one
/// deletion where the first two chars "x-" compared with "--" would also say 1, and "" needs both.
#[test]
fn starts_with_is_the_prefix_distance() {
    check(
        StringTest::StartsWith,
        0,
        &[("--verbose", "--"), ("-verbose", "--"), ("x--a", "--"), ("", "--"), ("abc", ""), ("v", "--")],
        expect![[r#"
            "--verbose" "--": true 0 false 1
            "-verbose" "--": true 1 false 0
            "x--a" "--": true 1 false 0
            "" "--": true 2 false 0
            "abc" "": true 0 false -
            "v" "--": true 2 false 0
        "#]],
    );
}

#[test]
fn ends_with_is_the_suffix_distance() {
    check(
        StringTest::EndsWith,
        0,
        &[("file.java", ".java"), ("file.jav", ".java"), ("file.class", ".java"), ("", ".x")],
        expect![[r#"
            "file.java" ".java": true 0 false 1
            "file.jav" ".java": true 1 false 0
            "file.class" ".java": true 4 false 0
            "" ".x": true 2 false 0
        "#]],
    );
}

/// Sellers' substring distance: the best window anywhere; to fail, one replacement per point
/// of a least set of positions hitting every occurrence ("aaaa" holds "aa" three times, two
/// replacements clear it).
#[test]
fn contains_is_the_substring_distance() {
    check(
        StringTest::Contains,
        0,
        &[
            ("key=value", "="),
            ("key:value", "="),
            ("abcdef", "cxe"),
            ("xx", "abc"),
            ("aaaa", "aa"),
            ("a=b=c", "="),
            ("abc", ""),
        ],
        expect![[r#"
            "key=value" "=": true 0 false 1
            "key:value" "=": true 1 false 0
            "abcdef" "cxe": true 1 false 0
            "xx" "abc": true 3 false 0
            "aaaa" "aa": true 0 false 2
            "a=b=c" "=": true 0 false 2
            "abc" "": true 0 false -
        "#]],
    );
}

/// `jregex`'s distance to the language; a pattern it refuses (a back reference) or a pattern
/// Java would refuse has no graded distance; `CASE_INSENSITIVE` (2) comes from a `Matcher`'s
/// pattern flags.
#[test]
fn matches_is_the_distance_to_the_language() {
    check(
        StringTest::Matches,
        0,
        &[
            ("1.2.3", "\\d+\\.\\d+\\.\\d+"),
            ("1.2", "\\d+\\.\\d+\\.\\d+"),
            ("", "\\d+\\.\\d+\\.\\d+"),
            ("v1.x.3", "\\d+\\.\\d+\\.\\d+"),
            ("aa", "(a)\\1"),
            ("a", "("),
        ],
        expect![[r#"
            "1.2.3" "\\d+\\.\\d+\\.\\d+": true 0 false -
            "1.2" "\\d+\\.\\d+\\.\\d+": true 2 false 0
            "" "\\d+\\.\\d+\\.\\d+": true 5 false 0
            "v1.x.3" "\\d+\\.\\d+\\.\\d+": true 2 false 0
            "aa" "(a)\\1": true - false -
            "a" "(": true - false -
        "#]],
    );
    check(
        StringTest::Matches,
        2,
        &[("DEPLOY", "deploy"), ("DEPLOX", "deploy")],
        expect![[r#"
            "DEPLOY" "deploy": true 0 false -
            "DEPLOX" "deploy": true 1 false 0
        "#]],
    );
}

/// The semi-global forms agree with a brute force over every prefix, suffix and substring.
#[test]
fn semi_global_forms_agree_with_brute_force() {
    let words = ["", "a", "ab", "ba", "abc", "cab", "aab", "xaby", "--", "-x-"];
    for s in words {
        for p in words {
            let cs: Vec<char> = s.chars().collect();
            let sub = |i: usize, j: usize| cs[i..j].iter().collect::<String>();
            let n = cs.len();
            let pre = (0..=n).map(|j| edit_distance(&sub(0, j), p)).min().unwrap_or(0);
            let suf = (0..=n).map(|i| edit_distance(&sub(i, n), p)).min().unwrap_or(0);
            let any =
                (0..=n).flat_map(|i| (i..=n).map(move |j| (i, j))).map(|(i, j)| edit_distance(&sub(i, j), p));
            assert_eq!(prefix_distance(s, p), pre, "{s:?} starts with {p:?}");
            assert_eq!(suffix_distance(s, p), suf, "{s:?} ends with {p:?}");
            assert_eq!(contains_distance(s, p), any.min().unwrap_or(0), "{s:?} contains {p:?}");
        }
    }
}
