//! Match positions as Java's backtracking matcher reports them, without backtracking: a Pike VM
//! (Thompson's simulation with threads kept in priority order, as in RE2 and Rust's `regex`)
//! over the NFA, whose choices are ordered as Java tries them (alternatives left to right,
//! greedy repetition before leaving the loop, reluctant after, and a repetition left as soon as
//! an iteration reads nothing, as Java's `Loop` node does). Leftmost-first positions are what
//! `String.split` cuts at. It is exact for the patterns this crate accepts: without back
//! references, lookaround and possessive or atomic parts, the first match a backtracking matcher
//! finds is the highest-priority path, which is the one this simulation keeps.

use std::collections::BTreeSet;

use crate::nfa::{At, Nfa, State, StateId, holds};

/// A thread: an NFA state and where its match started (in chars).
type Thread = (StateId, usize);

/// What one position's closure remembers: the code-point and match states already listed (their
/// futures do not depend on the path), and the empty-step states explored with each set of
/// repetitions entered at this position on the way (those futures do: a repetition entered again
/// without reading is left, as Java's `Loop` does after an iteration that read nothing).
struct Seen {
    listed: Vec<bool>,
    explored: BTreeSet<(StateId, Vec<usize>)>,
}

impl Seen {
    fn new(nfa: &Nfa) -> Seen {
        Seen { listed: vec![false; nfa.states.len()], explored: BTreeSet::new() }
    }
}

/// Adds the threads reachable from `s` by empty steps at `at`, in priority order (depth first,
/// first choice first); a state already listed at this position keeps its earlier,
/// higher-priority thread.
fn add(nfa: &Nfa, s: StateId, start: usize, at: At, list: &mut Vec<Thread>, seen: &mut Seen) {
    let mut stack: Vec<(StateId, Vec<usize>)> = vec![(s, Vec::new())];
    while let Some((s, entered)) = stack.pop() {
        match &nfa.states[s] {
            State::Char(..) | State::Match => {
                if !std::mem::replace(&mut seen.listed[s], true) {
                    list.push((s, start));
                }
                continue;
            }
            _ if !seen.explored.insert((s, entered.clone())) => continue,
            State::Split(targets) => stack.extend(targets.iter().rev().map(|&t| (t, entered.clone()))),
            &State::Loop { body, exit, greedy, group } => {
                let Err(at_group) = entered.binary_search(&group) else {
                    // This repetition began at this position and is back without reading.
                    stack.push((exit, entered));
                    continue;
                };
                let mut inside = entered;
                inside.insert(at_group, group);
                let order = if greedy {
                    [(exit, inside.clone()), (body, inside)]
                } else {
                    [(body, inside.clone()), (exit, inside)]
                };
                stack.extend(order);
            }
            State::Look(look, to) => {
                if holds(*look, at) {
                    stack.push((*to, entered));
                }
            }
        }
    }
}

/// The leftmost-first match at or after char `from`, as `(start, end)` in chars.
pub(crate) fn find_at(nfa: &Nfa, chars: &[char], from: usize) -> Option<(usize, usize)> {
    let mut pending: Vec<Thread> = Vec::new();
    let mut matched = None;
    for i in from..=chars.len() {
        let at = At::of(chars, i);
        let mut seen = Seen::new(nfa);
        let mut list = Vec::new();
        for &(s, start) in &pending {
            add(nfa, s, start, at, &mut list, &mut seen);
        }
        // A new match may start here, at the lowest priority, until one is found.
        if matched.is_none() {
            add(nfa, nfa.start, i, at, &mut list, &mut seen);
        }
        let mut next = Vec::new();
        for (s, start) in list {
            match &nfa.states[s] {
                State::Match => {
                    // Threads after this one have lower priority: a backtracking matcher would
                    // never reach them.
                    matched = Some((start, i));
                    break;
                }
                State::Char(set, to) if chars.get(i).is_some_and(|&c| set.contains(c as u32)) => {
                    next.push((*to, start));
                }
                _ => {}
            }
        }
        if next.is_empty() && matched.is_some() {
            break;
        }
        pending = next;
    }
    matched
}

/// `String.split(regex)` (`limit` 0): the pieces between successive matches; a zero-width match
/// at the very start makes no leading empty piece (Java 8 and later); no match at all gives the
/// whole input; trailing empty pieces are removed.
pub(crate) fn split(nfa: &Nfa, s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    split_spans(nfa, &chars, 0).into_iter().map(|(a, b)| chars[a..b].iter().collect()).collect()
}

/// The pieces of `Pattern.split(input, limit)` (JDK 17's loop, step by step) as char ranges of
/// `chars`: with `limit > 0` at most `limit` pieces, the last one the rest of the input; with
/// `limit == 0` trailing empty pieces removed; with `limit < 0` every piece kept.
pub(crate) fn split_spans(nfa: &Nfa, chars: &[char], limit: i32) -> Vec<(usize, usize)> {
    let limited = limit > 0;
    let cap = usize::try_from(limit).unwrap_or(0);
    let mut res: Vec<(usize, usize)> = Vec::new();
    let mut index = 0;
    let mut from = 0;
    while from <= chars.len() {
        let Some((start, end)) = find_at(nfa, chars, from) else { break };
        // As `Matcher.find`: the next search starts after this match, one further if it was
        // empty.
        from = if start == end { end + 1 } else { end };
        if !limited || res.len() + 1 < cap {
            if index == 0 && start == 0 && end == 0 {
                continue;
            }
            res.push((index, start));
            index = end;
        } else if res.len() + 1 == cap {
            res.push((index, chars.len()));
            index = end;
        }
    }
    if index == 0 {
        return vec![(0, chars.len())];
    }
    if !limited || res.len() < cap {
        res.push((index, chars.len()));
    }
    if limit == 0 {
        while res.last().is_some_and(|&(a, b)| a == b) {
            res.pop();
        }
    }
    res
}
