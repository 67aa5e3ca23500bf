//! Strings of the right shape from the class's regular expressions (`--regex-strings`): a
//! pattern constant the CUT hands to `String.matches`, `split`, `replaceAll`, `replaceFirst`,
//! `Pattern.compile` or `Pattern.matches` is compiled by `jregex`, and the shortest string it
//! accepts, the shortest of at least five chars and five random accepted ones go into the static
//! pool.
//!
//! A `matches` gate (`s.matches("\\d{4}-\\d{2}-\\d{2}")`) rejects random strings, and the string
//! distance (docs/strings.md) guides one edit at a time, each edit a draw among 95 chars; a pool
//! string the pattern accepts passes the gate at once, and the search mutates it from there.
//! EvoSuite does this dynamically: `StringHelper.StringMatches` adds
//! `RegexDistanceUtils.getRegexInstance(regex)` (a random walk of the pattern's automaton) to the
//! dynamic pool when the call runs. Here it is static, before the search, from the patterns the
//! code pushes: no run is needed, and the strings are the same every run (the random ones are
//! drawn with seeds from a hash of the pattern, not from the run's generator, so the pool does
//! not depend on the seed or on what ran first). A pattern the code builds at run time is not
//! seen; `jregex` refuses back references, lookaround and Unicode classes (docs/regex.md), whose
//! patterns add nothing.
//!
//! A pattern is found when its `ldc` is the argument of the call: the instructions between them
//! push one value each (the receiver's or other arguments' loads and constants), as javac
//! compiles `s.split("=", 2)` and `Pattern.compile(P, Pattern.CASE_INSENSITIVE)`.

use bytecode::{Insn, MethodBody, Opcode};
use classfile::{Constant, ConstantPool};
use jregex::{Flags, JavaRegex};

use super::ClusterConfig;
use super::features::ClusterFeature;
use super::load::{CutPool, PoolConstants};

/// Random accepted strings added per pattern, besides the shortest ones.
const SAMPLES: u64 = 5;

/// The length bound of the random accepted strings, in chars (a test's literal stays short).
const SAMPLE_LEN: usize = 24;

/// The regex-taking methods: class, name, descriptor, and how deep under the top of the operand
/// stack the pattern is when the call is made (0: the last argument).
const REGEX_CALLS: &[(&str, &str, &str, usize)] = &[
    ("java/lang/String", "matches", "(Ljava/lang/String;)Z", 0),
    ("java/lang/String", "split", "(Ljava/lang/String;)[Ljava/lang/String;", 0),
    ("java/lang/String", "split", "(Ljava/lang/String;I)[Ljava/lang/String;", 1),
    ("java/lang/String", "replaceAll", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;", 1),
    ("java/lang/String", "replaceFirst", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;", 1),
    ("java/util/regex/Pattern", "compile", "(Ljava/lang/String;)Ljava/util/regex/Pattern;", 0),
    ("java/util/regex/Pattern", "compile", "(Ljava/lang/String;I)Ljava/util/regex/Pattern;", 1),
    ("java/util/regex/Pattern", "matches", "(Ljava/lang/String;Ljava/lang/CharSequence;)Z", 1),
];

/// `ClusterConfig::regex_strings`.
pub(super) struct RegexStrings;

impl ClusterFeature for RegexStrings {
    fn enabled(&self, config: &ClusterConfig) -> bool {
        config.regex_strings
    }

    fn extend_pool(&self, cut: &CutPool<'_, '_>, pool: &mut PoolConstants) {
        // In the order the methods and their calls come, each pattern once.
        let mut patterns: Vec<(String, Flags)> = Vec::new();
        cut.for_each_body(|body, cp| {
            for p in regex_arguments(body, cp) {
                if !patterns.contains(&p) {
                    patterns.push(p);
                }
            }
        });
        for (pattern, flags) in patterns {
            for s in accepted_strings(&pattern, flags) {
                if !pool.strings.contains(&s) {
                    pool.strings.push(s);
                }
            }
        }
    }
}

/// The strings added for `pattern`: the shortest accepted, the shortest of 5 to 12 chars, and
/// `SAMPLES` random ones, without repeats, in that order; none when `jregex` refuses the pattern.
pub(crate) fn accepted_strings(pattern: &str, flags: Flags) -> Vec<String> {
    let Ok(re) = JavaRegex::parse(pattern, flags) else { return Vec::new() };
    let seed = fnv1a(pattern.as_bytes());
    let candidates = [re.example(0, usize::MAX), re.example(5, 12)]
        .into_iter()
        .chain((0..SAMPLES).map(|i| re.sample(seed.wrapping_add(i), SAMPLE_LEN)));
    let mut out: Vec<String> = Vec::new();
    for s in candidates.flatten() {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// FNV-1a over `bytes`: a seed that depends on the pattern alone.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The string constants `body` passes as the pattern of a regex-taking call, with the flags when
/// the call takes them as a constant (`Pattern.compile(p, flags)`; a computed flag word, or one
/// `jregex` refuses, drops the pattern).
pub(crate) fn regex_arguments(body: &MethodBody, cp: &ConstantPool) -> Vec<(String, Flags)> {
    let mut out = Vec::new();
    for (i, insn) in body.insns.iter().enumerate() {
        let Insn::Invoke { index, .. } = insn else { continue };
        let Some(m) = cp.member_ref(*index) else { continue };
        let Some(&(.., depth)) =
            REGEX_CALLS.iter().find(|(c, n, d, _)| m.class == *c && m.name == *n && m.descriptor == *d)
        else {
            continue;
        };
        let Some(at) = argument_at(&body.insns[..i], depth) else { continue };
        let Some(pattern) = string_constant(&body.insns[at], cp) else { continue };
        let flags = if m.name == "compile" && depth == 1 {
            match int_constant(&body.insns[at + 1], cp).map(Flags::from_java_bits) {
                Some(Ok(f)) => f,
                _ => continue,
            }
        } else {
            Flags::NONE
        };
        out.push((pattern, flags));
    }
    out
}

/// The index of the instruction that pushed the value `depth` below the top of the stack at the
/// end of `before`, when every instruction from there on pushes exactly one value.
fn argument_at(before: &[Insn], depth: usize) -> Option<usize> {
    let mut need = depth;
    for (i, insn) in before.iter().enumerate().rev() {
        if !pushes_one(insn) {
            return None;
        }
        if need == 0 {
            return Some(i);
        }
        need -= 1;
    }
    None
}

/// Whether `insn` pushes one value and pops none: a constant or a local's load.
fn pushes_one(insn: &Insn) -> bool {
    match insn {
        Insn::Ldc { .. } | Insn::Push { .. } => true,
        // aconst_null, iconst_*, lconst_*, fconst_*, dconst_*.
        Insn::Simple(op) => (0x01..=0x0f).contains(&op.0),
        Insn::Local { op, .. } => (Opcode::ILOAD.0..=Opcode::ALOAD.0).contains(&op.0),
        _ => false,
    }
}

fn string_constant(insn: &Insn, cp: &ConstantPool) -> Option<String> {
    let Insn::Ldc { index, .. } = insn else { return None };
    match cp.get(*index)? {
        Constant::String { string_index } => cp.utf8(*string_index).map(|s| s.into_owned()),
        _ => None,
    }
}

fn int_constant(insn: &Insn, cp: &ConstantPool) -> Option<i32> {
    match goals::constant_of(insn, cp)? {
        goals::Constant::Int(v) => Some(v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An ISO date's pattern gives dates (with and without the time) that it accepts, the same
    /// every time; a refused pattern gives nothing.
    #[test]
    fn a_date_pattern_gives_dates() {
        let p = r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?";
        let got = accepted_strings(p, Flags::NONE);
        let re = JavaRegex::parse(p, Flags::NONE).expect("pattern");
        assert!(got.len() >= 3, "{got:?}");
        assert!(got.iter().all(|s| re.matches(s)), "{got:?}");
        assert_eq!(got[0], "0000-00-00");
        assert_eq!(got, accepted_strings(p, Flags::NONE));
        assert!(accepted_strings(r"(a)\1", Flags::NONE).is_empty());
    }
}
