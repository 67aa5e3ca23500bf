//! Local search on a string value, one position per round: the string with the char at the
//! position deleted, replaced by each char of an alphabet, and each char of the alphabet inserted
//! before it (at the end, insertions only), all in one batch.
//!
//! EvoSuite's `StringLocalSearch` (after McMinn's string operators) tries, on a string of a test,
//! removing each char, replacing each char and inserting chars at each position, one evaluation at
//! a time, keeping what improves the fitness. Two deviations: the probes of one position go in one
//! batch (a hook sees the search only between generations, as for the numbers, lib.rs), and a
//! replacement or insertion draws from an alphabet, not by moving the char's code: our string
//! distances count edits (docs/strings.md), so a char one code away from the right one is no
//! closer, and only the right char helps. The alphabet is the printable ASCII chars of the class's
//! string constants (the static pool, which holds the strings its patterns accept: the digits of
//! `\d`, the separators of a format), which are the chars a parser compares with.
//!
//! Not here: which goal and which string a round takes, nor what it learns (lib.rs).

use std::collections::BTreeSet;

/// Alphabets larger than this keep their first chars in code order (a round makes about twice
/// as many tests).
const MAX_ALPHABET: usize = 48;

/// The chars a round writes: the printable ASCII chars of `strings`, sorted, at most
/// `MAX_ALPHABET`; when there are none, `a`, `0` and a space.
pub fn alphabet<'s>(strings: impl IntoIterator<Item = &'s String>) -> Vec<char> {
    let chars: BTreeSet<char> =
        strings.into_iter().flat_map(|s| s.chars()).filter(|c| (' '..='~').contains(c)).collect();
    if chars.is_empty() {
        return vec![' ', '0', 'a'];
    }
    chars.into_iter().take(MAX_ALPHABET).collect()
}

/// The probes of position `at` of `s` (in chars; `at` may be the length): the deletion of the char
/// there, its replacements by each other char of `alphabet`, then the insertions of each char of
/// `alphabet` before it, without repeats and without `s` itself.
pub fn string_moves(s: &str, at: usize, alphabet: &[char]) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let at = at.min(chars.len());
    let with = |cut: usize, put: Option<char>| -> String {
        chars[..at].iter().copied().chain(put).chain(chars[at + cut..].iter().copied()).collect()
    };
    let mut out: Vec<String> = Vec::new();
    let mut push = |t: String| {
        if t != s && !out.contains(&t) {
            out.push(t);
        }
    };
    if at < chars.len() {
        push(with(1, None));
        for &c in alphabet {
            push(with(1, Some(c)));
        }
    }
    for &c in alphabet {
        push(with(0, Some(c)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_deleted_replaced_and_inserted_before() {
        let got = string_moves("ab", 1, &['.', 'b', 'c']);
        assert_eq!(got, ["a", "a.", "ac", "a.b", "abb", "acb"]);
        // At the end only insertions.
        assert_eq!(string_moves("ab", 2, &['.']), ["ab."]);
        assert_eq!(string_moves("", 0, &['x']), ["x"]);
    }

    #[test]
    fn the_alphabet_is_the_constants_printable_chars() {
        let pool = ["1.2".to_string(), "é-x".to_string(), String::new()];
        assert_eq!(alphabet(&pool), ['-', '.', '1', '2', 'x']);
        assert_eq!(alphabet(&[]), [' ', '0', 'a']);
    }
}
