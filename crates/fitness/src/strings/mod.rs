//! String distances (docs/strings.md): how many single-char edits separate the operands of a
//! boolean string test (`equals`, `equalsIgnoreCase`, `startsWith`, `endsWith`, `contains`,
//! `regionMatches` as `equals` of its regions, `matches`) from the other outcome, and the
//! goal-space refiner that scores the branch testing such a test's result with that distance
//! instead of the flat 0/1 of a boolean.
//!
//! EvoSuite replaces these calls by `StringHelper` methods that return a graded value
//! (Arcuri, "It really does matter how you normalize the branch distance", 2013; EvoSuite's
//! testability transformation, McMinn's flag problem): `equals` through a left-aligned
//! character distance, `startsWith`/`endsWith` as `equals` of the same-length prefix/suffix,
//! `matches` through `RegexDistanceUtils` (Myers and Miller's edit distance to a regular
//! language). Here every distance is the exact least number of single-char insertions, deletions
//! and replacements that makes the test hold: Levenshtein's for `equals`, its semi-global forms
//! (Sellers 1980, "The theory and computation of evolutionary distances: pattern recognition")
//! for a prefix, a suffix or a substring, and `jregex`'s distance to the pattern's language. What
//! the runtime records is described in docs/protocol.md (v13 `compares`).
//!
//! It does not grade a result kept in a local or returned (only a branch right after the call,
//! the runtime's rule), and it never changes whether a goal is covered.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use goals::{Detail, Goal, GoalId, ProbeId, ProbeKind, ProbePlan};
use jregex::{Flags, JavaRegex};
use protocol::{Compared, StringTest, Trace};
use rt_abi::cond;

use crate::eval::GoalFitness;
use crate::norm;
use crate::space::Refiner;

/// Levenshtein's distance between `a` and `b`, over chars.
pub fn edit_distance(a: &str, b: &str) -> u32 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    align(&a, &b, Ends::Whole)
}

/// The least number of edits that make `s` start with `prefix`: `min_j lev(s[..j], prefix)`.
pub fn prefix_distance(s: &str, prefix: &str) -> u32 {
    let s: Vec<char> = s.chars().collect();
    let p: Vec<char> = prefix.chars().collect();
    align(&s, &p, Ends::FreeTail)
}

/// The least number of edits that make `s` end with `suffix` (the prefix distance reversed).
pub fn suffix_distance(s: &str, suffix: &str) -> u32 {
    let s: Vec<char> = s.chars().rev().collect();
    let p: Vec<char> = suffix.chars().rev().collect();
    align(&s, &p, Ends::FreeTail)
}

/// The least number of edits that make `s` contain `part`: `min_{i<=j} lev(s[i..j], part)`
/// (Sellers' approximate substring match).
pub fn contains_distance(s: &str, part: &str) -> u32 {
    let s: Vec<char> = s.chars().collect();
    let p: Vec<char> = part.chars().collect();
    align(&s, &p, Ends::FreeBoth)
}

/// The least number of replacements that make `s` stop containing `part` (non-empty): one per
/// point of a least set of positions that hits every occurrence (greedy interval stabbing, exact
/// for intervals), each replaced by a char `part` does not hold. `None` when `part` is empty,
/// which every string contains.
pub fn uncontains_distance(s: &str, part: &str) -> Option<u32> {
    let s: Vec<char> = s.chars().collect();
    let p: Vec<char> = part.chars().collect();
    if p.is_empty() {
        return None;
    }
    let mut n = 0;
    let mut next_free = 0;
    for start in 0..s.len().saturating_sub(p.len() - 1) {
        if start >= next_free && s[start..start + p.len()] == p[..] {
            // Stab the occurrence at its last char: that also hits every later overlapping one.
            n += 1;
            next_free = start + p.len();
        }
    }
    Some(n)
}

/// Which ends of the text `s` an alignment may leave unmatched at no cost.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ends {
    Whole,
    /// A suffix of `s` (prefix distance).
    FreeTail,
    /// A prefix and a suffix of `s` (substring distance).
    FreeBoth,
}

/// The edit distance of `p` to `s` (whole, a prefix of it, or a substring of it), by the
/// dynamic programme over `p`'s rows and `s`'s columns, two rows at a time.
fn align(s: &[char], p: &[char], ends: Ends) -> u32 {
    let free_start = ends == Ends::FreeBoth;
    let mut prev: Vec<u32> = (0..=s.len()).map(|j| if free_start { 0 } else { j as u32 }).collect();
    let mut cur = vec![0u32; s.len() + 1];
    for (i, &pc) in p.iter().enumerate() {
        cur[0] = i as u32 + 1;
        for (j, &sc) in s.iter().enumerate() {
            let replace = prev[j] + u32::from(pc != sc);
            cur[j + 1] = replace.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    match ends {
        Ends::Whole => prev[s.len()],
        Ends::FreeTail | Ends::FreeBoth => prev.iter().copied().min().unwrap_or(0),
    }
}

/// `String.equalsIgnoreCase`'s view of a string: each char upper-cased then lower-cased, when
/// that maps it to one char (Java compares char by char the same way).
pub fn fold_case(s: &str) -> String {
    s.chars()
        .map(|c| {
            let mut up = c.to_uppercase();
            match (up.next(), up.next()) {
                (Some(u), None) => {
                    let mut low = u.to_lowercase();
                    match (low.next(), low.next()) {
                        (Some(l), None) => l,
                        _ => c,
                    }
                }
                _ => c,
            }
        })
        .collect()
}

/// Compiled patterns, once per (pattern, flags), `None` for one `jregex` refuses. Bounded: a
/// pattern the search itself makes up could otherwise fill it; past the bound patterns are
/// compiled for each use and not kept.
#[derive(Debug, Default)]
pub struct RegexCache {
    compiled: Mutex<BTreeMap<(String, i32), Compiled>>,
}

/// A pattern as the cache keeps it: `None` when `jregex` refused it (or it accepts nothing).
type Compiled = Option<Arc<JavaRegex>>;

/// Patterns kept by a [`RegexCache`].
const REGEX_CACHE_CAPACITY: usize = 256;

impl RegexCache {
    pub fn get(&self, pattern: &str, flags: i32) -> Compiled {
        let key = (pattern.to_string(), flags);
        if let Some(r) = self.compiled.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return r.clone();
        }
        let compiled = Flags::from_java_bits(flags)
            .and_then(|f| JavaRegex::parse(pattern, f))
            .ok()
            .filter(|r| !r.is_empty_language())
            .map(Arc::new);
        let mut map = self.compiled.lock().unwrap_or_else(PoisonError::into_inner);
        if map.len() < REGEX_CACHE_CAPACITY {
            map.insert(key, compiled.clone());
        }
        compiled
    }
}

/// The distances of one recorded test to holding and to failing, in edits: `(to_true,
/// to_false)`, 0 on the side it took, `None` where no graded distance is known (a pattern
/// `jregex` refuses, or a side no edit of the receiver can reach).
pub fn test_distances(c: &Compared, regexes: &RegexCache) -> (Option<u32>, Option<u32>) {
    let (a, b) = (c.a.as_str(), c.b.as_str());
    let other = |holds: bool| if holds { Some(1) } else { Some(0) };
    match c.test {
        StringTest::Equals => {
            let d = edit_distance(a, b);
            (Some(d), other(d == 0))
        }
        StringTest::EqualsIgnoreCase => {
            let d = edit_distance(&fold_case(a), &fold_case(b));
            (Some(d), other(d == 0))
        }
        StringTest::StartsWith => {
            let d = prefix_distance(a, b);
            (Some(d), if b.is_empty() { None } else { other(d == 0) })
        }
        StringTest::EndsWith => {
            let d = suffix_distance(a, b);
            (Some(d), if b.is_empty() { None } else { other(d == 0) })
        }
        StringTest::Contains => {
            let d = contains_distance(a, b);
            (Some(d), if d == 0 { uncontains_distance(a, b) } else { Some(0) })
        }
        StringTest::Matches => match regexes.get(b, c.flags) {
            Some(r) => {
                let d = r.distance(a);
                // Failing a match has no graded distance here (the complement's automaton is
                // not built): flat.
                (Some(d), if d == 0 { None } else { Some(0) })
            }
            None => (None, None),
        },
    }
}

/// One branch goal scored by the refiner: the goal and whether covering it needs the tested
/// string test to hold.
#[derive(Debug, Clone, Copy)]
struct Scored {
    goal: GoalId,
    needs_true: bool,
}

/// The string distance's fitness hook over one plan (see the module comment): for each branch
/// goal of an `if<cond>` against 0 (the jump javac emits for a boolean), the side that needs the
/// string test to hold or to fail.
#[derive(Debug)]
pub struct StringFitness {
    goals: BTreeMap<ProbeId, Vec<Scored>>,
    regexes: RegexCache,
}

impl StringFitness {
    /// The hook for `plan`: every `ifeq`/`ifne` branch goal, since which of them follow a string
    /// test only the trace says.
    pub fn new(plan: &ProbePlan) -> StringFitness {
        let mut goals: BTreeMap<ProbeId, Vec<Scored>> = BTreeMap::new();
        for (i, p) in plan.probes().iter().enumerate() {
            let id = ProbeId(i as u32);
            let Detail::Branch { cond: c } = p.detail else { continue };
            if p.kind != ProbeKind::BranchZero || !(c == cond::EQ || c == cond::NE) {
                continue;
            }
            for &g in &p.goals {
                if let Goal::Branch { probe, taken } = plan.goal(g)
                    && *probe == id
                {
                    // `ifeq` jumps when the result is false, `ifne` when it is true.
                    let needs_true = (c == cond::NE) == *taken;
                    goals.entry(id).or_default().push(Scored { goal: g, needs_true });
                }
            }
        }
        StringFitness { goals, regexes: RegexCache::default() }
    }
}

impl Refiner for StringFitness {
    /// Each branch goal after a string test that the trace evaluated without covering it scores
    /// `ν(d)`, `d` the least distance over the tests recorded there, instead of the flat `ν(1)`;
    /// a distance of 0 (operands cut to 256 chars) or an unknown one keeps the flat value.
    fn refine(&self, trace: &Trace, all: &mut GoalFitness) {
        for (probe, compares) in &trace.compares {
            let Some(scored) = self.goals.get(probe) else { continue };
            if trace.branch(*probe).is_none() {
                continue;
            }
            let distances: Vec<(Option<u32>, Option<u32>)> =
                compares.iter().map(|c| test_distances(c, &self.regexes)).collect();
            for s in scored {
                if all.of(s.goal) == 0.0 {
                    continue;
                }
                let d = distances.iter().filter_map(|&(t, f)| if s.needs_true { t } else { f }).min();
                if let Some(d) = d.filter(|&d| d > 0 && d != u32::MAX) {
                    all.set(s.goal, norm(f64::from(d)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
