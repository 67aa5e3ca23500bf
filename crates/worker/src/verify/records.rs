//! The record lines of `java/runtime/src/suitesmith/tools` (`Records.java`, docs/verify.md): a tag, then
//! tab-separated fields in which `\\`, `\t`, `\n` and `\r` stand for a backslash, a tab, a line feed
//! and a carriage return. Lines whose tag is unknown are not records (the tools redirect System.out,
//! but a test could still write to the file descriptor) and are skipped by the callers.

/// Splits one line into its tag and unescaped fields.
pub(crate) fn parse(line: &str) -> Vec<String> {
    line.split('\t').map(unescape).collect()
}

fn unescape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// A line number field: digits, or `-` for none.
pub(crate) fn line_number(field: &str) -> Option<u32> {
    field.parse().ok().filter(|n| *n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_unescaped() {
        assert_eq!(
            parse("fail\ta.B\tm\tE\tx\\ty\\\\z\\nw\t12"),
            ["fail", "a.B", "m", "E", "x\ty\\z\nw", "12"]
        );
        assert_eq!(parse("done\t3"), ["done", "3"]);
        assert_eq!(parse("skip\ta\tb\t"), ["skip", "a", "b", ""]);
        assert_eq!(line_number("-"), None);
        assert_eq!(line_number("17"), Some(17));
    }
}
