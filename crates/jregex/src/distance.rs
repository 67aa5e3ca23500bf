//! The edit distance from a string to a pattern's language and the accepted strings built from the
//! automaton: the nearest one (the repair that distance measures) and length-bounded examples.
//!
//! The distance is the least number of single-code-point insertions, deletions and replacements
//! that turn the input into some accepted string. It is computed as Myers and Miller's approximate
//! matching of regular expressions ("Approximate matching of regular expressions", Bull. Math.
//! Biol. 51(1), 1989), the idea behind EvoSuite's `RegexDistanceUtils` (after Alshraideh and
//! Bottaci, 2006): a dynamic programme over input positions × automaton states, where reading the
//! next input char along a transition costs 0 if the transition takes it and 1 otherwise
//! (replacement), staying in a state while dropping the char costs 1 (deletion), and following a
//! transition without reading costs 1 (insertion). EvoSuite drops the automaton's back edges to
//! get a topological order; here insertions within a row are relaxed by Dijkstra's algorithm
//! instead, so loops are kept and the value is exact.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::dfa::{Dfa, StateId};

const INF: u32 = u32::MAX;

/// The distinct targets of each state, each with the code point an insertion or replacement
/// writes on the way (the representative of the ranges to that target), ordered so that the
/// most readable code point comes first.
pub(crate) type Edges = Vec<Vec<(StateId, char)>>;

pub(crate) fn edges(dfa: &Dfa) -> Edges {
    dfa.states
        .iter()
        .map(|st| {
            let mut targets: Vec<StateId> = st.trans.iter().map(|t| t.2).collect();
            targets.sort_unstable();
            targets.dedup();
            let mut res: Vec<(StateId, char)> = targets
                .into_iter()
                .filter_map(|q| {
                    let ranges = st.trans.iter().filter(|t| t.2 == q).map(|t| (t.0, t.1)).collect();
                    crate::charset::CharSet::from_ranges(ranges).representative().map(|c| (q, c))
                })
                .collect();
            res.sort_by_key(|&(q, c)| (readability(c), c, q));
            res
        })
        .collect()
}

/// Lower case, upper case, digits, other printable ASCII, then the rest.
fn readability(c: char) -> u8 {
    match c {
        'a'..='z' => 0,
        'A'..='Z' => 1,
        '0'..='9' => 2,
        ' '..='~' => 3,
        _ => 4,
    }
}

/// How a cell of the table was reached: from which state, in this row or the one before, and
/// what the repaired string gains.
#[derive(Clone, Copy, Debug)]
enum Back {
    Origin,
    /// Same row: a code point inserted along a transition from the state.
    Insert(StateId, char),
    /// Previous row, same state: the input char dropped.
    Delete,
    /// Previous row: the input char kept or replaced along a transition from the state.
    Read(StateId, char),
}

/// The table's last row and, when asked for, every row's back pointers.
struct Table {
    last: Vec<u32>,
    back: Vec<Vec<Back>>,
}

fn table(dfa: &Dfa, edges: &Edges, s: &[char], keep_back: bool) -> Table {
    let q = dfa.states.len();
    let mut row = vec![INF; q];
    let mut back_row = vec![Back::Origin; q];
    row[0] = 0;
    insertions(edges, &mut row, &mut back_row);
    let mut back = Vec::new();
    for &c in s {
        let mut next = vec![INF; q];
        let mut next_back = vec![Back::Origin; q];
        for p in 0..q {
            if row[p] == INF {
                continue;
            }
            let taken = dfa.next(p, c as u32);
            for &(to, rep) in &edges[p] {
                let (cost, written) = if taken == Some(to) { (0, c) } else { (1, rep) };
                if row[p] + cost < next[to] {
                    next[to] = row[p] + cost;
                    next_back[to] = Back::Read(p, written);
                }
            }
            if row[p] + 1 < next[p] {
                next[p] = row[p] + 1;
                next_back[p] = Back::Delete;
            }
        }
        insertions(edges, &mut next, &mut next_back);
        if keep_back {
            back.push(std::mem::replace(&mut back_row, next_back));
        } else {
            back_row = next_back;
        }
        row = next;
    }
    if keep_back {
        back.push(back_row);
    }
    Table { last: row, back }
}

/// Relaxes one row through insertions (unit-cost transitions that read nothing): Dijkstra from
/// every finite cell at once.
fn insertions(edges: &Edges, row: &mut [u32], back: &mut [Back]) {
    let mut heap: BinaryHeap<Reverse<(u32, StateId)>> =
        row.iter().enumerate().filter(|&(_, &d)| d != INF).map(|(s, &d)| Reverse((d, s))).collect();
    while let Some(Reverse((d, p))) = heap.pop() {
        if d > row[p] {
            continue;
        }
        for &(to, rep) in &edges[p] {
            if d + 1 < row[to] {
                row[to] = d + 1;
                back[to] = Back::Insert(p, rep);
                heap.push(Reverse((d + 1, to)));
            }
        }
    }
}

/// The accepting state of least cost in the last row (the lowest-numbered among equals).
fn best(dfa: &Dfa, last: &[u32]) -> Option<(StateId, u32)> {
    (0..dfa.states.len())
        .filter(|&s| dfa.states[s].accept && last[s] != INF)
        .map(|s| (s, last[s]))
        .min_by_key(|&(s, d)| (d, s))
}

/// The distance from `s` to the language; `None` when the language is empty.
pub(crate) fn distance(dfa: &Dfa, edges: &Edges, s: &str) -> Option<u32> {
    if dfa.states.is_empty() {
        return None;
    }
    let chars: Vec<char> = s.chars().collect();
    let t = table(dfa, edges, &chars, false);
    best(dfa, &t.last).map(|(_, d)| d)
}

/// An accepted string at the least distance from `s`, read back through the table.
pub(crate) fn nearest(dfa: &Dfa, edges: &Edges, s: &str) -> Option<String> {
    if dfa.states.is_empty() {
        return None;
    }
    let chars: Vec<char> = s.chars().collect();
    let t = table(dfa, edges, &chars, true);
    let (mut state, _) = best(dfa, &t.last)?;
    let mut row = chars.len();
    let mut out = Vec::new();
    loop {
        match t.back[row][state] {
            Back::Origin => break,
            Back::Insert(p, c) => {
                out.push(c);
                state = p;
            }
            Back::Delete => row -= 1,
            Back::Read(p, c) => {
                out.push(c);
                state = p;
                row -= 1;
            }
        }
    }
    out.reverse();
    Some(out.into_iter().collect())
}

/// The first accepted string, in the order of length then of the edges' readability, whose length
/// is in `min_len..=max_len`.
pub(crate) fn example(dfa: &Dfa, edges: &Edges, min_len: usize, max_len: usize) -> Option<String> {
    if dfa.states.is_empty() || min_len > max_len {
        return None;
    }
    // If some accepted string is at least `min_len` long, one is at most `min_len + states`
    // long (a longer one repeats a state past `min_len`, and the loop can be cut out).
    let max_len = max_len.min(min_len.saturating_add(dfa.states.len()));
    // `good[r][p]`: some path of exactly `r` code points leads from `p` to acceptance.
    let mut good = vec![dfa.states.iter().map(|st| st.accept).collect::<Vec<bool>>()];
    for r in 1..=max_len {
        let prev = &good[r - 1];
        let cur = edges.iter().map(|es| es.iter().any(|&(q, _)| prev[q])).collect();
        good.push(cur);
    }
    let len = (min_len..=max_len).find(|&l| good[l][0])?;
    let mut out = String::new();
    let mut state = 0;
    for r in (1..=len).rev() {
        let &(q, c) = edges[state].iter().find(|&&(q, _)| good[r - 1][q])?;
        out.push(c);
        state = q;
    }
    Some(out)
}
