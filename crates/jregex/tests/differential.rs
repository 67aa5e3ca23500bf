//! Differential testing against the JVM: patterns generated from the covered syntax (literals,
//! `.`, classes with ranges, negation and `&&`, predefined classes, groups, alternation, greedy,
//! reluctant and possessive quantifiers, `(?i)`, anchors) by a fixed-seed generator, each run on generated
//! inputs by this crate and by `java.util.regex` (whole-string match, `find`, `split`); every
//! row must agree, and the distance must be 0 exactly on matches with a repair that matches.

mod common;

use std::fmt::Write as _;

use jregex::{Flags, JavaRegex, RegexError};

/// xorshift64: a fixed sequence, so the rows are the same on every run.
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }

    fn atom(&mut self, depth: u32) -> String {
        let leaves = ["a", "b", "c", "-", " ", ".", r"\d", r"\w", r"\s", r"\W", "A", r"\b", r"\B", "\n"];
        let classes = ["[ab]", "[^a]", "[a-c]", "[^a-c ]", "[a-c&&[^b]]", r"[\d-]", "[b[-]]", r"[\sA]"];
        match self.below(if depth == 0 { 3 } else { 5 }) {
            0 | 1 => self.pick(&leaves).to_string(),
            2 => self.pick(&classes).to_string(),
            3 => format!("({})", self.alternation(depth - 1)),
            _ => format!("(?:{})", self.alternation(depth - 1)),
        }
    }

    fn quantified(&mut self, depth: u32) -> String {
        let atom = self.atom(depth);
        let q = ["", "", "", "*", "+", "?", "{1,2}", "{2}", "{0,}"];
        let q = self.pick(&q);
        let modifier = if q.is_empty() { "" } else { self.pick(&["", "", "", "?", "+"]) };
        format!("{atom}{q}{modifier}")
    }

    fn alternation(&mut self, depth: u32) -> String {
        let alts: Vec<String> = (0..1 + self.below(3)).map(|_| self.concat(depth)).collect();
        alts.join("|")
    }

    fn concat(&mut self, depth: u32) -> String {
        (0..self.below(3)).map(|_| self.quantified(depth)).collect()
    }

    fn pattern(&mut self) -> String {
        let prefix = self.pick(&[
            "", "", "", "", "(?i)", "^", "(?m)", "(?m)^", r"\b", "(?s)", "(?d)", "(?x)", "(?md)", r"\A",
        ]);
        let suffix = self.pick(&["", "", "", "", "$", r"\b", r"\B", r"\Z", r"\z"]);
        format!("{prefix}{}{suffix}", self.alternation(2))
    }

    fn input(&mut self) -> String {
        let alphabet = ['a', 'b', 'c', 'A', 'B', '-', '1', ' ', 'x', '_', '\n', '\r'];
        (0..self.below(7)).map(|_| alphabet[self.below(alphabet.len())]).collect()
    }
}

#[test]
fn generated_patterns_agree_with_the_jvm() {
    let mut g = Gen(0x5eed_1234_abcd_ef01);
    let mut rows = Vec::new();
    for _ in 0..400 {
        let pattern = g.pattern();
        for _ in 0..6 {
            rows.push((pattern.clone(), g.input()));
        }
    }
    let lines = common::jvm(&rows);
    let mut failures = String::new();
    let mut compiled: Option<(String, JavaRegex)> = None;
    let mut refused = std::collections::BTreeSet::new();
    for ((pattern, input), jvm) in rows.iter().zip(&lines) {
        if compiled.as_ref().is_none_or(|(p, _)| p != pattern) {
            match JavaRegex::parse(pattern, Flags::NONE) {
                Ok(re) => compiled = Some((pattern.clone(), re)),
                // Possessive quantifiers are refused where they could change the language.
                Err(RegexError::Unsupported { construct, .. }) if construct.starts_with("possessive") => {
                    refused.insert(pattern.clone());
                    continue;
                }
                // Under `(?x)` a generated space may leave a quantifier with nothing to repeat.
                Err(RegexError::Syntax { .. }) if jvm == "error" => continue,
                Err(e) => {
                    writeln!(failures, "{pattern:?}: {e} (JVM {jvm})").unwrap();
                    continue;
                }
            }
        }
        let Some((_, re)) = &compiled else { continue };
        let ours = common::ours(re, input);
        if *jvm != ours {
            writeln!(failures, "{pattern:?} on {input:?}: JVM {jvm}, ours {ours}").unwrap();
        }
        let near = re.nearest(input);
        let repaired = near.is_some_and(|n| re.matches(&n)) || re.is_empty_language();
        if re.matches(input) != (re.distance(input) == 0) || !repaired {
            writeln!(failures, "{pattern:?} on {input:?}: distance or repair inconsistent").unwrap();
        }
    }
    assert!(failures.is_empty(), "{failures}");
    // Possessive quantifiers on a set are compiled when they keep the language (and then agree
    // with the JVM above); on groups they are refused. Both happen often enough to count.
    let possessive = |p: &String| ["*+", "++", "?+", "}+"].iter().any(|q| p.contains(q));
    let patterns: std::collections::BTreeSet<&String> = rows.iter().map(|(p, _)| p).collect();
    let accepted = patterns.iter().filter(|p| possessive(p) && !refused.contains(**p)).count();
    assert!(
        refused.len() < 150 && accepted >= 20,
        "{} refused, {accepted} possessive compiled",
        refused.len()
    );
}

/// Random text over Java's metacharacters: the parser must never panic, must not call valid
/// Java a syntax error, and whatever it compiles must agree with the JVM.
#[test]
fn random_text_parses_like_the_jvm() {
    let pieces = [
        "a",
        "b",
        "-",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "{2}",
        "{1,",
        ",",
        "^",
        "$",
        ".",
        "*",
        "+",
        "?",
        "|",
        "\\",
        "\\d",
        "\\w",
        "\\s",
        "\\Q",
        "\\E",
        "&&",
        ":",
        "(?",
        "<",
        ">",
        "=",
        "!",
        "i)",
        "\\p{",
        "Lower}",
        "\\x4",
        "1",
        "0",
        "\\u00",
        "\\0",
        "\\t",
        "#",
        " ",
        "x",
        "\\b",
        "\\1",
        "\\Z",
        "\\z",
        "\\A",
        "(?m)",
        "(?s)",
        "(?x)",
        "(?-i)",
        "\\B",
        "\\R",
        "\\p{Alpha}",
        "\\P{",
        "\\h",
        "\\v",
        "\\x{",
        "\\c",
        "}+",
    ];
    let mut g = Gen(0x0dd_ba11_c0ff_ee00);
    let mut rows = Vec::new();
    for _ in 0..4000 {
        let pattern: String = (0..g.below(12)).map(|_| g.pick(&pieces)).collect();
        let input = g.input();
        rows.push((pattern, input));
    }
    let lines = common::jvm(&rows);
    let mut failures = String::new();
    let (mut compared, mut refused) = (0, 0);
    for ((pattern, input), jvm) in rows.iter().zip(&lines) {
        match JavaRegex::parse(pattern, Flags::NONE) {
            Ok(re) => {
                compared += usize::from(jvm != "error");
                let ours = common::ours(&re, input);
                if jvm != "error" && *jvm != ours {
                    writeln!(failures, "{pattern:?} on {input:?}: JVM {jvm}, ours {ours}").unwrap();
                }
            }
            Err(RegexError::Syntax { offset, message }) if jvm != "error" => {
                writeln!(failures, "{pattern:?}: valid Java, ours: syntax error at {offset}: {message}")
                    .unwrap();
            }
            Err(_) => refused += usize::from(jvm != "error"),
        }
    }
    assert!(failures.is_empty(), "{failures}");
    // Not vacuous: most of what the JVM compiles is compiled and compared.
    assert!(compared > 4 * refused, "compared {compared}, refused {refused}");
}

/// What `split`, `matches`, `find` and `find_span` say of an input, by positions only.
fn shape(re: &JavaRegex, input: &str) -> String {
    let spans: Vec<_> = [0, 2, -1].iter().map(|&l| re.split_spans(input, l)).collect();
    format!("{} {} {:?} {spans:?}", re.matches(input), re.find(input), re.find_span(input))
}

/// A char of `ranges` other than `c` if there is one (outside the surrogates), from each end.
fn others(ranges: &[(u32, u32)], c: char) -> Vec<char> {
    let all = ranges.iter().flat_map(|&(lo, hi)| [lo, hi, lo.saturating_add(1).min(hi)]);
    all.filter_map(char::from_u32).filter(|&x| x != c).collect()
}

/// `indistinguishable`: putting any char of `c`'s class in its place changes none of the
/// answers by position (the DSE's split model pins each char to its class and keeps the
/// pieces' chars symbolic on that ground), and the class holds `c`.
#[test]
fn indistinguishable_chars_change_no_answer() {
    let mut g = Gen(0x00dd_ba11_5eed_0042);
    let (mut checked, mut failures) = (0, String::new());
    for _ in 0..300 {
        let pattern = g.pattern();
        let Ok(re) = JavaRegex::parse(&pattern, Flags::NONE) else { continue };
        for _ in 0..4 {
            let input = g.input();
            let want = shape(&re, &input);
            let chars: Vec<char> = input.chars().collect();
            for (i, &c) in chars.iter().enumerate() {
                let class = re.indistinguishable(c);
                if !class.iter().any(|&(lo, hi)| (lo..=hi).contains(&(c as u32))) {
                    writeln!(failures, "{pattern:?}: {c:?} not in its own class {class:?}").unwrap();
                }
                for x in others(&class, c) {
                    let mut other = chars.clone();
                    other[i] = x;
                    let other: String = other.into_iter().collect();
                    checked += 1;
                    if shape(&re, &other) != want {
                        writeln!(failures, "{pattern:?}: {input:?} and {other:?} differ").unwrap();
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures}");
    assert!(checked > 1000, "only {checked} replacements checked");
}

/// `unread` and `has_anchors`: for a pattern without anchors that matches no empty string, chars
/// no set reads appended to an input whose last piece ends it lengthen that piece only, and a
/// char taken off its end shortens it only (the DSE's split model keeps that piece's length
/// symbolic on that ground).
#[test]
fn unread_chars_only_move_the_end_of_the_last_piece() {
    let mut g = Gen(0x001a_570f_7e55_0042);
    let (mut checked, mut failures) = (0, String::new());
    for _ in 0..3000 {
        let pattern = g.pattern();
        let Ok(re) = JavaRegex::parse(&pattern, Flags::NONE) else { continue };
        if re.has_anchors() || re.matches("") {
            continue;
        }
        let Some(x) = re.unread().iter().find_map(|&(lo, _)| char::from_u32(lo)) else { continue };
        for _ in 0..8 {
            let input = g.input();
            let n = input.chars().count();
            let spans = re.split_spans(&input, 0);
            let Some(&(start, end)) = spans.last() else { continue };
            if end != n || start == end {
                continue;
            }
            let moved = |by: isize| {
                let mut s = spans.clone();
                if let Some(last) = s.last_mut() {
                    last.1 = (last.1 as isize + by) as usize;
                }
                s
            };
            checked += 1;
            let longer = format!("{input}{x}{x}");
            if re.split_spans(&longer, 0) != moved(2) {
                writeln!(failures, "{pattern:?}: {input:?} and {longer:?}").unwrap();
            }
            if end - start >= 2 {
                let shorter: String = input.chars().take(n - 1).collect();
                if re.split_spans(&shorter, 0) != moved(-1) {
                    writeln!(failures, "{pattern:?}: {input:?} and {shorter:?}").unwrap();
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures}");
    assert!(checked > 100, "only {checked} inputs checked");
}

/// The pieces of `input` cut at every char of `class`, as the oracle prints them for the limit
/// -1 (`[61/62]`: hexadecimal code points, pieces joined by `/`).
fn cut_at_class(input: &str, class: &[(u32, u32)]) -> String {
    let pieces: Vec<String> = input
        .split(|c: char| class.iter().any(|&(lo, hi)| (lo..=hi).contains(&(c as u32))))
        .map(|p| p.chars().map(|c| format!("{:x}", c as u32)).collect::<Vec<_>>().join("."))
        .collect();
    format!("[{}]", pieces.join("/"))
}

/// `single_char_class`: a pattern has a class exactly when its language is the single chars of
/// a set (fixed patterns, and the generated ones whose class it finds), and Java's `split` cuts
/// at every char of that set and nowhere else (limit -1, from the JVM).
#[test]
fn single_char_class_is_where_the_jvm_cuts() {
    let fixed = ["=", "[-T:]", "a|b", r"\.", "[^a-c]", r"\s", " +", r"\s*;\s*", "^=", "=$", "ab", "", "a?"];
    let dates = JavaRegex::parse("[-T:]", Flags::NONE).unwrap().single_char_class();
    assert_eq!(dates, Some(vec![(45, 45), (58, 58), (84, 84)]), "docs/regex.md's example");
    let mut patterns: Vec<String> = fixed.iter().map(|p| p.to_string()).collect();
    let mut g = Gen(0x51_c1a5_5000_0042);
    for _ in 0..3000 {
        patterns.push(g.pattern());
    }
    let mut rows = Vec::new();
    for p in &patterns {
        let Ok(re) = JavaRegex::parse(p, Flags::NONE) else { continue };
        let class = re.single_char_class();
        let expected = fixed.iter().position(|f| f == p).map(|i| i < 6);
        if expected.is_some_and(|want| want != class.is_some()) {
            panic!("{p:?}: single_char_class {class:?}");
        }
        let Some(class) = class else { continue };
        for input in ["", "a=b", "2024-02-29T23:59", "x. y", "=a==b=", "abc-", "\n:a", &g.input(), &g.input()]
        {
            rows.push((p.clone(), input.to_string(), class.clone()));
        }
    }
    let found = rows.iter().map(|r| r.0.as_str()).collect::<std::collections::BTreeSet<_>>().len();
    assert!(found > 20, "only {found} patterns with a class");
    let oracle: Vec<(String, String)> = rows.iter().map(|(p, s, _)| (p.clone(), s.clone())).collect();
    let mut failures = String::new();
    for ((p, input, class), line) in rows.iter().zip(common::jvm(&oracle)) {
        let jvm = line.rsplit(' ').next().unwrap_or_default().to_string();
        if jvm != cut_at_class(input, class) {
            writeln!(failures, "{p:?} on {input:?}: JVM {jvm}, cut at {class:?}").unwrap();
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// Without an anchor a pattern never looks at a char's kind, so a char's class is not split by
/// kind (a digit's holds `.` for `[-T:]`); with `\b` it is.
#[test]
fn kinds_split_classes_only_under_anchors() {
    let has = |pattern: &str, c: char, x: char| {
        let re = JavaRegex::parse(pattern, Flags::NONE).unwrap();
        re.indistinguishable(c).iter().any(|&(lo, hi)| (lo..=hi).contains(&(x as u32)))
    };
    assert!(has("[-T:]", '1', '.'));
    assert!(has("[-T:]", '1', '\n'));
    assert!(!has("[-T:]", '1', ':'));
    assert!(!has(r"\b[-T:]", '1', '.'));
    assert!(has(r"\b[-T:]", '1', 'a'));
}
