//! The data-driven tests of the crate: a table of Java patterns and inputs with the expected
//! whole-string match and edit distance, whose match column (and `find` and `split`) the real JVM
//! confirms (the oracle of `common/mod.rs`); `split` on worked examples; the nearest accepted string and the examples checked for consistency with the
//! distance, against a brute-force reference on small alphabets, and as snapshots; the refusals
//! of unsupported constructs; and a determinism check.

mod common;

use std::fmt::Write as _;

use expect_test::expect;
use jregex::{Flags, JavaRegex};

/// (pattern, input, whole-string match, distance).
const ROWS: &[(&str, &str, bool, u32)] = &[
    (r"\d{3}-\d{4}", "12-45678", false, 2),
    (r"\d{3}-\d{4}", "555-1234", true, 0),
    ("abc", "ac", false, 1),
    ("abc", "", false, 3),
    ("", "", true, 0),
    ("", "abc", false, 3),
    ("a*", "aaab", false, 1),
    ("a|bc", "c", false, 1),
    ("[a-z]+", "", false, 1),
    ("[a-z]+", "ABC", false, 3),
    ("(?i)[a-z]+", "ABC", true, 0),
    ("(?i)abc", "aBc", true, 0),
    ("(?i)[^a]", "A", false, 1),
    ("(?i)\\p{Lower}", "A", true, 0),
    ("[^abc]", "d", true, 0),
    ("[^abc]", "a", false, 1),
    ("[^a[b]]", "b", false, 1),
    ("[a-z&&[^aeiou]]+", "bcd", true, 0),
    ("[a-z&&[^aeiou]]+", "bad", false, 1),
    ("[a-z&&def]", "e", true, 0),
    ("[a-d[m-p]]", "n", true, 0),
    ("[a-d[m-p]]", "e", false, 1),
    ("[]a]", "]", true, 0),
    (r"[\Q]\E]", "]", true, 0),
    (r"[\w.-]+@[\w-]+\.[a-z]{2,}", "user@example.com", true, 0),
    (r"[\w.-]+@[\w-]+\.[a-z]{2,}", "user@examplecom", false, 1),
    (r"\p{Upper}\p{Lower}+", "Hello", true, 0),
    (r"\p{Upper}\p{Lower}+", "hello", false, 1),
    (r"\p{XDigit}{2}", "fG", false, 1),
    (r"\p{Punct}\p{Alnum}\p{Space}", "!a ", true, 0),
    (r"\P{Alpha}", "a", false, 1),
    (r"\Qa.b\E", "a.b", true, 0),
    (r"\Qa.b\E", "axb", false, 1),
    (r"\Q1\E\Q$1.00\E", "1$1.00", true, 0),
    (r"a\Q.*\E+", "a.**", true, 0),
    (r"\Q(a)", "(a)", true, 0),
    (r"\c\Q,", "\u{1c},", true, 0),
    ("a.b", "axb", true, 0),
    ("a.b", "a\nb", false, 1),
    ("(?s)a.b", "a\nb", true, 0),
    ("^abc$", "abc", true, 0),
    ("a$", "a\n", false, 1),
    (r"\Aab\z", "ab", true, 0),
    (r"a\Z", "a", true, 0),
    ("colou?r", "colour", true, 0),
    ("colou?r", "colr", false, 1),
    ("x{2,3}", "x", false, 1),
    ("x{2,3}", "xxxx", false, 1),
    ("x{2,3}", "xxx", true, 0),
    ("x{2,}", "xxxxx", true, 0),
    ("(ab)+", "aba", false, 1),
    ("(?:ab)*c", "ababab", false, 1),
    (r"(?<year>\d{4})-(?<m>\d{2})", "2024-01", true, 0),
    ("\\t\\n", "\t\n", true, 0),
    (r"\x41\u0042\0103\x{44}", "ABCD", true, 0),
    (r"\cA\e", "\u{1}\u{1b}", true, 0),
    ("a+?b??c*?", "aab", true, 0),
    (r"\s+\S", " \ta", true, 0),
    (r"\D\W\w", "a!_", true, 0),
    (r"\h\v", " \n", true, 0),
    ("(?x) a b # a comment", "ab", true, 0),
    (r"\d+(\.\d+)?", "3.", false, 1),
    (r"\d+(\.\d+)?", "3.14", true, 0),
    (r"[+-]?\d+", "-12", true, 0),
    ("(a|b)*abb", "aabb", true, 0),
    ("(a|b)*abb", "ab", false, 1),
    (".*foo.*", "xfox", false, 1),
    ("é+", "éé", true, 0),
    (r"\x{1F600}", "😀", true, 0),
    ("[a-c]{3}", "abcd", false, 1),
    (r"(\d{1,3}\.){3}\d{1,3}", "10.0.0", false, 1),
    (r"(\d{1,3}\.){3}\d{1,3}", "192.168.1.1", true, 0),
    ("[0-9]{4}-[0-9]{2}-[0-9]{2}", "2024/01/15", false, 2),
    (r#"[^"]*+""#, r#"ab""#, true, 0),
    (r#""[^"]*+""#, r#""ab"#, false, 1),
    (r"\d++\.\d{1,2}+", "12.345", false, 1),
    ("a*+b", "aab", true, 0),
    ("a?+b|a", "a", true, 0),
    (r"\bfoo\b", "foo", true, 0),
    (r"\bfoo\b", "foox", false, 1),
    (r"a\b.", "a-", true, 0),
    (r"a\b.", "ab", false, 1),
    (r"a\B.", "ab", true, 0),
    (r".*\bcat\b.*", "the cat sat", true, 0),
    (r".*\bcat\b.*", "concat", false, 1),
    ("(?m)^a$", "a", true, 0),
    ("(?m)a$\n^b", "a\nb", true, 0),
    ("(?m)a$\r\n^b", "a\r\nb", true, 0),
];

fn compile(pattern: &str) -> JavaRegex {
    JavaRegex::parse(pattern, Flags::NONE).unwrap_or_else(|e| panic!("{pattern:?}: {e}"))
}

/// Levenshtein distance over code points (the reference for `nearest`).
fn levenshtein(a: &str, b: &str) -> u32 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<u32> = (0..=b.len() as u32).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i as u32 + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + u32::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[test]
fn table_matches_and_distances() {
    let mut failures = String::new();
    for &(pattern, input, matches, dist) in ROWS {
        let re = compile(pattern);
        let got = (re.matches(input), re.distance(input));
        if got != (matches, dist) {
            writeln!(failures, "{pattern:?} on {input:?}: got {got:?}, want {:?}", (matches, dist)).unwrap();
        }
        // The repair is accepted and exactly `distance` edits away.
        let near = re.nearest(input).expect("every table pattern accepts something");
        if !re.matches(&near) || levenshtein(input, &near) != re.distance(input) {
            writeln!(failures, "{pattern:?} on {input:?}: nearest {near:?} is not a repair").unwrap();
        }
        if re.matches(input) != (re.distance(input) == 0)
            || (re.matches(input) && re.nearest(input).as_deref() != Some(input))
        {
            writeln!(failures, "{pattern:?} on {input:?}: distance 0 iff matches").unwrap();
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// Every string over `alphabet` of length at most `max_len`.
fn strings(alphabet: &[char], max_len: usize) -> Vec<String> {
    let mut res = vec![String::new()];
    let mut layer = vec![String::new()];
    for _ in 0..max_len {
        layer = layer.iter().flat_map(|s| alphabet.iter().map(move |&c| format!("{s}{c}"))).collect();
        res.extend(layer.iter().cloned());
    }
    res
}

/// The distance against its definition: the least Levenshtein distance to an accepted string,
/// searched by brute force over a small alphabet (every accepted string within reach is in it).
#[test]
fn distance_equals_brute_force_on_small_alphabets() {
    let cases: &[(&str, &[char], &[&str])] = &[
        ("(ab)+c?", &['a', 'b', 'c'], &["", "ba", "abba", "cab", "abcab"]),
        ("a*b*a", &['a', 'b'], &["", "b", "bab", "abba", "bbbb"]),
        ("(a|bb)*c", &['a', 'b', 'c'], &["", "bc", "abab", "cc", "bbb"]),
        ("[ab]{2,3}", &['a', 'b', 'c'], &["", "c", "cccc", "abcab"]),
    ];
    for &(pattern, alphabet, inputs) in cases {
        let re = compile(pattern);
        let accepted: Vec<String> = strings(alphabet, 7).into_iter().filter(|s| re.matches(s)).collect();
        for &input in inputs {
            let want = accepted.iter().map(|w| levenshtein(input, w)).min().unwrap();
            assert_eq!(re.distance(input), want, "{pattern:?} on {input:?}");
        }
    }
}

/// The examples and repairs of the table's patterns, as one snapshot.
#[test]
fn examples_and_repairs() {
    let mut out = String::new();
    let mut seen = std::collections::BTreeSet::new();
    for &(pattern, input, _, _) in ROWS {
        let re = compile(pattern);
        if seen.insert(pattern) {
            let shortest = re.example(0, usize::MAX);
            let longer = re.example(5, 12);
            writeln!(out, "{pattern:?}: shortest {shortest:?}, 5..=12 {longer:?}").unwrap();
        }
        if !re.matches(input) {
            writeln!(out, "  {input:?} -> {:?}", re.nearest(input)).unwrap();
        }
    }
    expect_test::expect_file!["../test_data/examples.txt"].assert_eq(&out);
}

#[test]
fn unsupported_and_invalid_patterns_are_typed_errors() {
    let patterns = [
        r"(a)\1",
        "(?=a)b",
        "(?<=a)b",
        "(?>a)",
        "a*+a",
        "(ab)++",
        "a?+(?:b|a)",
        r"\p{L}",
        r"\p{IsLatin}",
        "[\\b]",
        "a$\n",
        r"a\Z\s",
        r"\R",
        "a{2,1}",
        "(ab",
        "ab)",
        "*a",
        "[a",
        "x{99999999}",
        r"\y",
        "(?iu)a",
    ];
    let mut out = String::new();
    for p in patterns {
        let res = JavaRegex::parse(p, Flags::NONE).map(|_| ());
        writeln!(out, "{p:?}: {res:?}").unwrap();
    }
    expect![[r#"
        "(a)\\1": Err(Unsupported { offset: 3, construct: "back reference \\1" })
        "(?=a)b": Err(Unsupported { offset: 0, construct: "lookahead (?=" })
        "(?<=a)b": Err(Unsupported { offset: 0, construct: "lookbehind (?<" })
        "(?>a)": Err(Unsupported { offset: 0, construct: "atomic group (?>" })
        "a*+a": Err(Unsupported { offset: 0, construct: "possessive quantifier followed by what it repeats" })
        "(ab)++": Err(Unsupported { offset: 0, construct: "possessive quantifier on a group" })
        "a?+(?:b|a)": Err(Unsupported { offset: 0, construct: "possessive quantifier followed by what it repeats" })
        "\\p{L}": Err(Unsupported { offset: 0, construct: "\\p{L}" })
        "\\p{IsLatin}": Err(Unsupported { offset: 0, construct: "\\p{IsLatin}" })
        "[\\b]": Err(Syntax { offset: 1, message: "illegal/unsupported escape \\b" })
        "a$\n": Err(Unsupported { offset: 1, construct: "$ or \\Z before a line terminator" })
        "a\\Z\\s": Err(Unsupported { offset: 1, construct: "$ or \\Z before a line terminator" })
        "\\R": Err(Unsupported { offset: 0, construct: "linebreak matcher \\R" })
        "a{2,1}": Err(Syntax { offset: 1, message: "illegal repetition range" })
        "(ab": Err(Syntax { offset: 0, message: "unclosed group" })
        "ab)": Err(Syntax { offset: 2, message: "unmatched closing ')'" })
        "*a": Err(Syntax { offset: 0, message: "dangling meta character '*'" })
        "[a": Err(Syntax { offset: 0, message: "unclosed character class" })
        "x{99999999}": Err(TooLarge { limit: 100000 })
        "\\y": Err(Syntax { offset: 0, message: "illegal/unsupported escape \\y" })
        "(?iu)a": Err(Unsupported { offset: 0, construct: "UNICODE_CASE with CASE_INSENSITIVE" })
    "#]]
    .assert_eq(&out);
}

/// Patterns that accept nothing: no distance, repair or example.
#[test]
fn empty_languages() {
    // `(?m)^` never holds at the end of the input, so not in the empty string; `\b` needs a
    // char on one side; `(?m)$` before a char that is no line terminator.
    for p in ["a$b", r"a\zb", "[^\\x{0}-\\x{10FFFF}]", "[a&&b]", "(?m)^", r"\b", "(?m)a$."] {
        let re = compile(p);
        assert!(re.is_empty_language() && !re.matches("ab"), "{p:?}");
        assert_eq!((re.distance("ab"), re.nearest("ab"), re.example(0, 9)), (u32::MAX, None, None), "{p:?}");
    }
}

#[test]
fn flags_from_java_bits() {
    let re = JavaRegex::parse("a.c", Flags::from_java_bits(2 | 32).unwrap()).unwrap();
    assert!(re.matches("A\nC"));
    let lit = JavaRegex::parse("a.c", Flags::from_java_bits(16).unwrap()).unwrap();
    assert!(lit.matches("a.c") && !lit.matches("abc"));
    assert!(Flags::from_java_bits(256).is_err());
}

#[test]
fn deterministic() {
    let run = || {
        let mut out = String::new();
        for &(pattern, input, _, _) in ROWS {
            let re = compile(pattern);
            write!(out, "{re:?} {:?} {:?} {}", re.nearest(input), re.example(3, 9), re.distance(input))
                .unwrap();
        }
        out
    };
    assert_eq!(run(), run());
}

/// Random accepted strings: every sample of every table pattern is accepted, is at most 12 code
/// points long when the shortest accepted string is, and is the same for the same seed; a date's
/// pattern gives a different date for nearly every seed.
#[test]
fn samples_are_accepted_bounded_and_seeded() {
    let mut failures = String::new();
    let mut seen = std::collections::BTreeSet::new();
    for &(pattern, _, _, _) in ROWS {
        if !seen.insert(pattern) {
            continue;
        }
        let re = compile(pattern);
        let shortest = re.example(0, usize::MAX).expect("every table pattern accepts something");
        let samples: Vec<String> = (0..8).map(|seed| re.sample(seed, 12).expect("a sample")).collect();
        for s in &samples {
            if !re.matches(s) || (shortest.chars().count() <= 12 && s.chars().count() > 12) {
                writeln!(failures, "{pattern:?}: sample {s:?}").unwrap();
            }
        }
        if samples != (0..8).map(|seed| re.sample(seed, 12).expect("a sample")).collect::<Vec<_>>() {
            writeln!(failures, "{pattern:?}: samples differ for one seed").unwrap();
        }
    }
    assert!(failures.is_empty(), "{failures}");
    let re = compile(r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?");
    let distinct: std::collections::BTreeSet<String> =
        (0..8).map(|seed| re.sample(seed, 16).expect("a sample")).collect();
    assert!(distinct.len() >= 6, "{distinct:?}");
}

/// The match column of the table (and `find`) as the JVM computes them.
#[test]
fn table_agrees_with_the_jvm() {
    let rows: Vec<(String, String)> =
        ROWS.iter().map(|(p, s, _, _)| (p.to_string(), s.to_string())).collect();
    let lines = common::jvm(&rows);
    let mut failures = String::new();
    for (&(pattern, input, matches, _), jvm) in ROWS.iter().zip(&lines) {
        let ours = common::ours(&compile(pattern), input);
        if *jvm != ours || !jvm.starts_with(&matches.to_string()) {
            writeln!(failures, "{pattern:?} on {input:?}: JVM {jvm}, ours {ours}, table {matches}").unwrap();
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// The first match's span in chars, as docs/regex.md shows it.
#[test]
fn find_span_examples() {
    assert_eq!(compile(r"\d{3}-\d{4}").find_span("tel 555-1234"), Some((4, 12)));
    assert_eq!(compile("a+?").find_span("baa"), Some((1, 2)));
    assert_eq!(compile("a|ab").find_span("xab"), Some((1, 2)));
    assert_eq!(compile("x").find_span("abc"), None);
}

/// `String.split` on worked examples, which the JVM confirms too.
#[test]
fn split_examples() {
    let cases: &[(&str, &str, &[&str])] = &[
        (",", "a,b,,c,,", &["a", "b", "", "c"]),
        (r"\.", "1.2.3", &["1", "2", "3"]),
        ("", "abc", &["a", "b", "c"]),
        (":", ":a", &["", "a"]),
        (":", ":", &[]),
        (":", "", &[""]),
        (r"\s*,\s*", "a , b,c", &["a", "b", "c"]),
        ("x*", "axxb", &["a", "", "b"]),
        ("a|ab", "cabd", &["c", "bd"]),
        ("ab|a", "cabd", &["c", "d"]),
        ("b+?", "abbc", &["a", "", "c"]),
    ];
    for &(pattern, input, want) in cases {
        assert_eq!(compile(pattern).split(input), want, "{pattern:?} on {input:?}");
    }
    let rows: Vec<(String, String)> = cases.iter().map(|(p, s, _)| (p.to_string(), s.to_string())).collect();
    for ((pattern, input), jvm) in rows.iter().zip(common::jvm(&rows)) {
        assert_eq!(jvm, common::ours(&compile(pattern), input), "{pattern:?} on {input:?}");
    }
}
