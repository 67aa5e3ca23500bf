//! No function over 120 lines: every `fn` in the workspace's Rust sources,
//! measured from its `fn` line to its closing brace, is at most [`MAX_LINES`] long, except the ones
//! in [`ALLOWED`]: opcode interpreters (one arm per instruction, which read best as one match) and
//! test data tables. A long function is split along its phases instead; an entry here is a decision.
//!
//! The scanner is a small tokenizer, not a parser: it skips comments (nested block comments too),
//! string, raw-string, byte-string and char literals, tells lifetimes from chars, and matches braces.

mod common;

const MAX_LINES: usize = 120;

/// (file relative to the workspace root, function name, why it may be longer).
const ALLOWED: &[(&str, &str, &str)] = &[
    ("crates/bytecode/src/encode.rs", "emit", "opcode encoder: one match arm per instruction format"),
    (
        "crates/bytecode/src/frames.rs",
        "step",
        "opcode interpreter: the type state after each instruction (JVMS 4.10.1.9)",
    ),
    (
        "crates/junit/tests/common/mod.rs",
        "prims",
        "test data table: the primitive literals the renderer must write",
    ),
];

/// A function with a body: where its `fn` is and how many lines it spans.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Function {
    name: String,
    line: usize,
    lines: usize,
}

/// Every function with a body in `src`, in source order (nested functions too).
fn functions(src: &str) -> Vec<Function> {
    let tokens = tokens(src);
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.text != "fn" {
            continue;
        }
        // `fn(u32) -> u32` is a type; a function has a name.
        let Some(name) = tokens.get(i + 1).filter(|n| is_ident(&n.text)) else { continue };
        // The body is the first `{` outside parentheses and brackets; `;` first means no body.
        let mut depth = 0i32;
        let mut open = None;
        for (j, u) in tokens.iter().enumerate().skip(i + 2) {
            match u.text.as_str() {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                ";" if depth == 0 => break,
                "{" if depth == 0 => {
                    open = Some(j);
                    break;
                }
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut braces = 0i32;
        for u in &tokens[open..] {
            match u.text.as_str() {
                "{" => braces += 1,
                "}" => {
                    braces -= 1;
                    if braces == 0 {
                        out.push(Function {
                            name: name.text.clone(),
                            line: t.line,
                            lines: u.line - t.line + 1,
                        });
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

fn is_ident(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

#[derive(Debug)]
struct Token {
    text: String,
    line: usize,
}

/// Identifiers and single punctuation characters, with their 1-based lines; comments and literals
/// are skipped (a literal leaves no token, which is all brace matching needs).
fn tokens(src: &str) -> Vec<Token> {
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Advances over `b[i..j]`, counting the newlines it holds.
    let skip_to = |i: &mut usize, j: usize, line: &mut usize| {
        *line += b[*i..j.min(b.len())].iter().filter(|&&c| c == '\n').count();
        *i = j.min(b.len());
    };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let j = (i..b.len()).find(|&k| b[k] == '\n').unwrap_or(b.len());
            skip_to(&mut i, j, &mut line);
        } else if c == '/' && next == Some('*') {
            let (mut j, mut depth) = (i + 2, 1);
            while j < b.len() && depth > 0 {
                if b[j] == '/' && b.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if b[j] == '*' && b.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            skip_to(&mut i, j, &mut line);
        } else if c == '"' {
            let j = string_end(&b, i + 1);
            skip_to(&mut i, j, &mut line);
        } else if (c == 'r' || c == 'b') && raw_string_start(&b, i).is_some() {
            let (hashes, body) = raw_string_start(&b, i).unwrap_or((0, i));
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let j =
                (body..b.len()).find(|&k| b[k..].starts_with(&close)).map_or(b.len(), |k| k + close.len());
            skip_to(&mut i, j, &mut line);
        } else if c == 'b' && next == Some('"') {
            let j = string_end(&b, i + 2);
            skip_to(&mut i, j, &mut line);
        } else if c == '\'' || (c == 'b' && next == Some('\'')) {
            let start = if c == 'b' { i + 1 } else { i };
            match char_end(&b, start) {
                Some(j) => skip_to(&mut i, j, &mut line),
                // A lifetime or label: the quote alone; the name follows as an identifier.
                None => i += 1,
            }
        } else if c.is_alphanumeric() || c == '_' {
            let j = (i..b.len()).find(|&k| !(b[k].is_alphanumeric() || b[k] == '_')).unwrap_or(b.len());
            out.push(Token { text: b[i..j].iter().collect(), line });
            i = j;
        } else {
            if c == '\n' {
                line += 1;
            } else if !c.is_whitespace() {
                out.push(Token { text: c.to_string(), line });
            }
            i += 1;
        }
    }
    out
}

/// The index after the closing quote of a string whose body starts at `i` (escapes honoured).
fn string_end(b: &[char], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// `r"`, `r#"`, `br##"`...: the number of hashes and the index where the body starts.
fn raw_string_start(b: &[char], i: usize) -> Option<(usize, usize)> {
    // Only at the start of a token: `for"` is not a raw string, and neither is `bar"`.
    if i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_') {
        return None;
    }
    let mut j = i;
    if b[j] == 'b' {
        j += 1;
    }
    if b.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = (j..b.len()).take_while(|&k| b[k] == '#').count();
    (b.get(j + hashes) == Some(&'"')).then_some((hashes, j + hashes + 1))
}

/// The index after a char literal starting with the quote at `i`, or `None` for a lifetime.
fn char_end(b: &[char], i: usize) -> Option<usize> {
    match (b.get(i + 1), b.get(i + 2)) {
        (Some('\\'), _) => (i + 2..b.len()).find(|&k| b[k] == '\'' && k > i + 2).map(|k| k + 1),
        (Some(_), Some('\'')) => Some(i + 3),
        _ => None,
    }
}

/// Every function over the limit in the workspace: (file, function).
fn long_functions() -> Vec<(String, Function)> {
    let mut out = Vec::new();
    for (rel, src) in common::sources() {
        for func in functions(&src).into_iter().filter(|func| func.lines > MAX_LINES) {
            out.push((rel.clone(), func));
        }
    }
    out
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let long = long_functions();
    let offenders: Vec<String> = long
        .iter()
        .filter(|(file, f)| !ALLOWED.iter().any(|&(af, an, _)| af == file && an == f.name))
        .map(|(file, f)| format!("{file}:{} fn {} is {} lines", f.line, f.name, f.lines))
        .collect();
    assert!(
        offenders.is_empty(),
        "functions over {MAX_LINES} lines (split them along their phases, or name them in ALLOWED):\n{}",
        offenders.join("\n")
    );
}

/// Every allowlisted function still exists and is still over the limit.
#[test]
fn allowlist_is_current() {
    let long = long_functions();
    for &(file, name, why) in ALLOWED {
        assert!(!why.is_empty());
        assert!(
            long.iter().any(|(f, func)| f == file && func.name == name),
            "{file} fn {name} is no longer over {MAX_LINES} lines (or gone): drop it from ALLOWED"
        );
    }
}

/// The scanner itself: comments, strings, chars and lifetimes do not confuse the brace count.
#[test]
fn scanner_measures_from_fn_to_closing_brace() {
    let src = r##"
fn a() {
    let s = "}{ \" }";
    let r = r#"}"#;
    let c = '}';
    let q = '\'';
    // }
    /* } /* nested } */ } */
}
fn b<'x>(v: &'x str) -> &'x str { v }
trait T { fn decl(&self); fn with_body(&self) { let f: fn(u8) -> u8 = |x| x; } }
"##;
    let got: Vec<(String, usize, usize)> =
        functions(src).into_iter().map(|f| (f.name, f.line, f.lines)).collect();
    assert_eq!(got, [("a".to_string(), 2, 8), ("b".to_string(), 10, 1), ("with_body".to_string(), 11, 1)]);
}
