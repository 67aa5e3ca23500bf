//! Thompson's construction: the tree to a nondeterministic automaton whose steps read one code
//! point of a set, are empty, or are empty under an anchor's condition. It is the input of the
//! subset construction (`dfa.rs`) and of the Pike VM that finds match positions (`pike.rs`).

use std::collections::BTreeSet;

use crate::ast::{Ast, Look};
use crate::charset::CharSet;
use crate::error::RegexError;

/// Counted repetition is unrolled, so a pattern's automaton can be large; past this many states
/// the pattern is refused rather than built.
pub const MAX_NFA_STATES: usize = 100_000;

pub type StateId = usize;

#[derive(Clone, Debug)]
pub enum State {
    /// Read one code point of the set, then go to the target.
    Char(CharSet, StateId),
    /// Go to any of the targets without reading; the order is the priority for match positions.
    Split(Vec<StateId>),
    /// The entry of an unbounded loop: the body or the exit, without reading. Kept apart from
    /// `Split` because Java leaves a loop whose iteration read nothing (`pike.rs`); `group`
    /// names the loop.
    Loop {
        body: StateId,
        exit: StateId,
        greedy: bool,
        group: usize,
    },
    /// Go to the target without reading when the anchor holds.
    Look(Look, StateId),
    Match,
}

#[derive(Clone, Debug)]
pub struct Nfa {
    pub states: Vec<State>,
    pub start: StateId,
}

/// What the anchors need to know of the char on one side of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// No char: the start or the end of the input.
    None,
    /// `[A-Za-z0-9_]`.
    Word,
    Lf,
    Cr,
    /// `\u0085`, `\u2028`, `\u2029`.
    OtherTerminator,
    Other,
}

impl Kind {
    pub fn of(c: Option<char>) -> Kind {
        match c {
            None => Kind::None,
            Some('\n') => Kind::Lf,
            Some('\r') => Kind::Cr,
            Some('\u{85}' | '\u{2028}' | '\u{2029}') => Kind::OtherTerminator,
            Some(c) if c.is_ascii_alphanumeric() || c == '_' => Kind::Word,
            Some(_) => Kind::Other,
        }
    }

    fn is_terminator(self, unix_lines: bool) -> bool {
        if unix_lines {
            self == Kind::Lf
        } else {
            matches!(self, Kind::Lf | Kind::Cr | Kind::OtherTerminator)
        }
    }

    /// The code points whose kind is not `Other`: the DFA cuts its alphabet at their ends so
    /// that every interval has one kind.
    pub fn special() -> CharSet {
        CharSet::from_ranges(vec![
            ('a' as u32, 'z' as u32),
            ('A' as u32, 'Z' as u32),
            ('0' as u32, '9' as u32),
            (95, 95),
            (10, 10),
            (13, 13),
            (0x85, 0x85),
            (0x2028, 0x2029),
        ])
    }
}

/// Where anchors hold at one position of the input.
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub prev: Kind,
    pub next: Kind,
    /// Only a line terminator is left (so `$` holds).
    pub before_final_terminator: bool,
    /// Only `\n` is left (so `$` holds under `UNIX_LINES`).
    pub before_final_newline: bool,
    /// Every anchor holds (to ask what could follow one).
    pub any: bool,
}

impl At {
    /// Between `prev` and `next`, not before a final line terminator.
    pub fn between(prev: Kind, next: Kind) -> At {
        At { prev, next, before_final_terminator: false, before_final_newline: false, any: false }
    }

    pub const ANY: At = At {
        prev: Kind::None,
        next: Kind::None,
        before_final_terminator: true,
        before_final_newline: true,
        any: true,
    };

    /// The anchors that hold at position `i` of `chars`.
    pub fn of(chars: &[char], i: usize) -> At {
        let prev = Kind::of(i.checked_sub(1).map(|j| chars[j]));
        let rest = &chars[i..];
        At {
            prev,
            next: Kind::of(rest.first().copied()),
            // Java's `$` does not hold inside `\r\n`.
            before_final_terminator: is_final_terminator(rest) && !(rest == ['\n'] && prev == Kind::Cr),
            before_final_newline: rest == ['\n'],
            any: false,
        }
    }
}

impl Nfa {
    pub fn build(ast: &Ast) -> Result<Nfa, RegexError> {
        let mut states = vec![State::Match];
        let mut possessive = Vec::new();
        let start = compile(&mut states, &mut possessive, ast, 0)?;
        let nfa = Nfa { states, start };
        nfa.check_dollars(ast)?;
        nfa.check_possessive(&possessive)?;
        Ok(nfa)
    }

    /// The states reachable from `from` by empty steps whose anchors hold `at`.
    pub fn closure(&self, from: impl IntoIterator<Item = StateId>, at: At) -> BTreeSet<StateId> {
        let mut seen = BTreeSet::new();
        let mut work: Vec<StateId> = from.into_iter().collect();
        while let Some(s) = work.pop() {
            if !seen.insert(s) {
                continue;
            }
            match &self.states[s] {
                State::Split(targets) => work.extend(targets.iter().copied()),
                State::Loop { body, exit, .. } => work.extend([*body, *exit]),
                State::Look(look, to) if holds(*look, at) => work.push(*to),
                _ => {}
            }
        }
        seen
    }

    pub fn is_match(&self, set: &BTreeSet<StateId>) -> bool {
        set.iter().any(|&s| matches!(self.states[s], State::Match))
    }

    /// A possessive repetition of a set `S` continuing at `next` accepts what the greedy one
    /// does when nothing readable first from `next` is in `S` and no anchor but the end ones
    /// comes first: the greedy matcher then never gains by giving back an `S`, so never does.
    fn check_possessive(&self, checks: &[PossessiveCheck]) -> Result<(), RegexError> {
        let anywhere = At::ANY;
        for (next, set, offset) in checks {
            let overlaps = self.closure([*next], anywhere).into_iter().any(|s| match &self.states[s] {
                State::Char(first, _) => !first.intersect(set).ranges().is_empty(),
                // Giving back chars moves the position, which can make an anchor that looks at
                // the chars around it (or `^`) hold where it did not.
                State::Look(look, _) => look.is_local() || *look == Look::Start,
                _ => false,
            });
            if overlaps {
                return Err(RegexError::unsupported(
                    *offset,
                    "possessive quantifier followed by what it repeats",
                ));
            }
        }
        Ok(())
    }

    /// Whole-string automata treat `$` and `\Z` as the end of the input. That is exact unless
    /// what follows them can read a line terminator: `a$\n` accepts `a\n` in Java, which this
    /// crate refuses; `a$b` accepts nothing, which the end reading gives too.
    fn check_dollars(&self, ast: &Ast) -> Result<(), RegexError> {
        let anywhere = At::ANY;
        for s in &self.states {
            let State::Look(Look::Dollar { unix_lines }, to) = s else { continue };
            let terminators = if *unix_lines {
                CharSet::single('\n' as u32)
            } else {
                CharSet::of_chars("\n\r\u{85}\u{2028}\u{2029}")
            };
            let after = self.closure([*to], anywhere);
            let reads_terminator = after.iter().any(|&t| match &self.states[t] {
                State::Char(set, _) => !set.intersect(&terminators).ranges().is_empty(),
                _ => false,
            });
            if reads_terminator {
                let offset = dollar_offset(ast).unwrap_or(0);
                return Err(RegexError::unsupported(offset, "$ or \\Z before a line terminator"));
            }
        }
        Ok(())
    }
}

/// Whether `rest` is exactly one line terminator (`\r\n` counts as one).
fn is_final_terminator(rest: &[char]) -> bool {
    matches!(rest, ['\r', '\n'] | ['\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'])
}

pub fn holds(look: Look, at: At) -> bool {
    if at.any {
        return true;
    }
    let word = |k: Kind| k == Kind::Word;
    match look {
        Look::Start => at.prev == Kind::None,
        Look::End => at.next == Kind::None,
        Look::Dollar { unix_lines: false } => at.next == Kind::None || at.before_final_terminator,
        Look::Dollar { unix_lines: true } => at.next == Kind::None || at.before_final_newline,
        Look::WordBoundary => word(at.prev) != word(at.next),
        Look::NotWordBoundary => word(at.prev) == word(at.next),
        Look::LineStart { unix_lines } => {
            let inside_crlf = !unix_lines && at.prev == Kind::Cr && at.next == Kind::Lf;
            at.next != Kind::None
                && (at.prev == Kind::None || (at.prev.is_terminator(unix_lines) && !inside_crlf))
        }
        Look::LineEnd { unix_lines } => {
            let inside_crlf = !unix_lines && at.prev == Kind::Cr && at.next == Kind::Lf;
            at.next == Kind::None || (at.next.is_terminator(unix_lines) && !inside_crlf)
        }
    }
}

/// The offset of the first `$`/`\Z` of the tree, for the error message.
fn dollar_offset(ast: &Ast) -> Option<usize> {
    match ast {
        Ast::Look { look: Look::Dollar { .. }, offset } => Some(*offset),
        Ast::Concat(items) | Ast::Alt(items) => items.iter().find_map(dollar_offset),
        Ast::Repeat { ast, .. } => dollar_offset(ast),
        _ => None,
    }
}

fn push(states: &mut Vec<State>, s: State) -> Result<StateId, RegexError> {
    if states.len() >= MAX_NFA_STATES {
        return Err(RegexError::TooLarge { limit: MAX_NFA_STATES });
    }
    states.push(s);
    Ok(states.len() - 1)
}

/// Compiles `ast` so that it continues to `next`; returns its entry state. Recursion depth is
/// the tree's, which the parser bounds.
/// A possessive repetition to check: where it continues, the set it repeats, its offset.
type PossessiveCheck = (StateId, CharSet, usize);

fn compile(
    states: &mut Vec<State>,
    checks: &mut Vec<PossessiveCheck>,
    ast: &Ast,
    next: StateId,
) -> Result<StateId, RegexError> {
    match ast {
        Ast::Empty => Ok(next),
        Ast::Set(set) => push(states, State::Char(set.clone(), next)),
        Ast::Look { look, .. } => push(states, State::Look(*look, next)),
        Ast::Concat(items) => {
            let mut cur = next;
            for item in items.iter().rev() {
                cur = compile(states, checks, item, cur)?;
            }
            Ok(cur)
        }
        Ast::Alt(items) => {
            let entries =
                items.iter().map(|a| compile(states, checks, a, next)).collect::<Result<Vec<_>, _>>()?;
            push(states, State::Split(entries))
        }
        Ast::Repeat { ast, min, max, greedy, possessive } => {
            if let (Some(offset), Ast::Set(set)) = (possessive, ast.as_ref()) {
                checks.push((next, set.clone(), *offset));
            }
            // Bounds checked before unrolling: a body that adds no state would not hit the cap.
            let span = max.map_or(0, |m| m - min) as usize;
            if *min as usize > MAX_NFA_STATES || span > MAX_NFA_STATES {
                return Err(RegexError::TooLarge { limit: MAX_NFA_STATES });
            }
            // Unique per compiled loop: the index its first state will get.
            let group = states.len();
            let mut cur = match max {
                None => {
                    // The loop: `ast` then back here, or on to `next`.
                    let lp = push(states, State::Split(Vec::new()))?;
                    let body = compile(states, checks, ast, lp)?;
                    states[lp] = State::Loop { body, exit: next, greedy: *greedy, group };
                    lp
                }
                Some(max) => {
                    let mut cur = next;
                    for _ in *min..*max {
                        let body = compile(states, checks, ast, cur)?;
                        let choice = if *greedy { vec![body, next] } else { vec![next, body] };
                        cur = push(states, State::Split(choice))?;
                    }
                    cur
                }
            };
            for _ in 0..*min {
                cur = compile(states, checks, ast, cur)?;
            }
            Ok(cur)
        }
    }
}

/// The code points that every code-point step of `nfa` reads exactly when it reads `c`, and,
/// when `nfa` has an anchor, whose [`Kind`] is `c`'s (see `JavaRegex::indistinguishable`).
/// Without an anchor no step looks at a char's kind, so kinds would only split the classes
/// (and pin a letter to the letters where any char the sets do not hold would do).
pub fn indistinguishable(nfa: &Nfa, c: char) -> Vec<(u32, u32)> {
    let sets: Vec<&CharSet> = nfa
        .states
        .iter()
        .filter_map(|s| if let State::Char(set, _) = s { Some(set) } else { None })
        .collect();
    let anchored = has_anchors(nfa);
    let kind = |x: u32| anchored.then(|| Kind::of(char::from_u32(x).or(Some('\u{FFFD}'))));
    let signature =
        |x: u32| -> (Vec<bool>, Option<Kind>) { (sets.iter().map(|s| s.contains(x)).collect(), kind(x)) };
    // Cut the code points where some set or some kind changes; each run between cuts is uniform.
    let mut cuts = BTreeSet::from([0u32, 0x11_0000]);
    let kinds = if anchored { Kind::special().ranges().to_vec() } else { Vec::new() };
    for &(lo, hi) in sets.iter().flat_map(|s| s.ranges()).chain(kinds.iter()) {
        cuts.insert(lo);
        cuts.insert(hi + 1);
    }
    let want = signature(c as u32);
    let cuts: Vec<u32> = cuts.into_iter().collect();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for w in cuts.windows(2) {
        let (lo, hi) = (w[0], w[1] - 1);
        if signature(lo) != want {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.1 + 1 == lo => last.1 = hi,
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// Whether `nfa` has an anchor (`^`, `$`, `\b`, ...): a match may then depend on where the
/// input ends or on a neighbouring char's kind.
pub fn has_anchors(nfa: &Nfa) -> bool {
    nfa.states.iter().any(|s| matches!(s, State::Look(..)))
}

/// The code points no code-point step of `nfa` reads, as sorted disjoint ranges.
pub fn unread(nfa: &Nfa) -> Vec<(u32, u32)> {
    let read = nfa
        .states
        .iter()
        .filter_map(|s| if let State::Char(set, _) = s { Some(set) } else { None })
        .fold(CharSet::empty(), |acc, set| acc.union(set));
    read.negate().ranges().to_vec()
}
