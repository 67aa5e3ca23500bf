//! The subset construction: a deterministic automaton over code points whose transitions are
//! labelled by disjoint ranges, built once per pattern. Anchors are decided here, as in
//! `regex-automata`: a state remembers the kind of the char read last (none in the initial
//! state), and the empty steps out of it are taken only when the next char is known (on a
//! transition) or known to be absent (for acceptance), so `^`, `\A`, `$`, `\z`, `\Z`, `\b`, `\B`
//! and the `MULTILINE` anchors see both sides of their position. States that cannot reach
//! acceptance are removed, so every state left is live and a missing transition means rejection.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::RegexError;
use crate::nfa::{At, Kind, Nfa, State as NState, StateId as NStateId};

/// A subset-construction state: NFA states entered by the last step, and the kind of the char
/// read there.
type Key = (BTreeSet<NStateId>, Kind);

/// Past this many states the pattern is refused rather than built.
pub const MAX_DFA_STATES: usize = 20_000;

pub type StateId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DState {
    /// `(lo, hi, target)`, sorted by `lo`, disjoint.
    pub trans: Vec<(u32, u32, StateId)>,
    pub accept: bool,
}

/// A deterministic automaton whose start is state 0; it accepts nothing when `states` is empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa {
    pub states: Vec<DState>,
}

impl Dfa {
    pub fn build(nfa: &Nfa) -> Result<Dfa, RegexError> {
        // Without `\b`, `\B` or `MULTILINE` anchors only whether a char is there matters, so
        // every char is `Other` and states are not split by the char before them.
        let local = nfa.states.iter().any(|s| matches!(s, NState::Look(look, _) if look.is_local()));
        let intervals = alphabet(nfa, local);
        let kinds: Vec<Kind> = intervals
            .iter()
            .map(|&(lo, _)| if local { Kind::of(char::from_u32(lo)) } else { Kind::Other })
            .collect();
        let covers = covers(nfa, &intervals);
        // A state is the NFA states entered by the last step (before their empty steps, which
        // depend on the next char) and the kind of the char read.
        let initial: Key = (BTreeSet::from([nfa.start]), Kind::None);
        let mut ids: BTreeMap<Key, StateId> = BTreeMap::from([(initial.clone(), 0)]);
        let mut keys = vec![initial];
        let mut states = Vec::new();
        let mut i = 0;
        while i < keys.len() {
            let (set, prev) = keys[i].clone();
            let accept = nfa.is_match(&nfa.closure(set.iter().copied(), At::between(prev, Kind::None)));
            // The NFA targets of each interval, from the closure under the interval's kind.
            let mut targets: BTreeMap<usize, BTreeSet<NStateId>> = BTreeMap::new();
            let mut by_kind: Vec<Kind> = kinds.clone();
            by_kind.sort_unstable();
            by_kind.dedup();
            for kind in by_kind {
                for s in nfa.closure(set.iter().copied(), At::between(prev, kind)) {
                    if let NState::Char(_, to) = nfa.states[s] {
                        for &k in covers[s].iter().filter(|&&k| kinds[k] == kind) {
                            targets.entry(k).or_default().insert(to);
                        }
                    }
                }
            }
            let mut trans: Vec<(u32, u32, StateId)> = Vec::new();
            for (k, next) in targets {
                let (lo, hi) = intervals[k];
                let key = (next, kinds[k]);
                let n = ids.len();
                let to = *ids.entry(key.clone()).or_insert(n);
                if to == n {
                    if n >= MAX_DFA_STATES {
                        return Err(RegexError::TooLarge { limit: MAX_DFA_STATES });
                    }
                    keys.push(key);
                }
                match trans.last_mut() {
                    Some(last) if last.2 == to && last.1 + 1 == lo => last.1 = hi,
                    _ => trans.push((lo, hi, to)),
                }
            }
            states.push(DState { trans, accept });
            i += 1;
        }
        Ok(trim(Dfa { states }))
    }

    /// The state after reading `c` in `state`, if any.
    pub fn next(&self, state: StateId, c: u32) -> Option<StateId> {
        let trans = &self.states[state].trans;
        let i = trans.partition_point(|&(lo, _, _)| lo <= c);
        (i > 0 && trans[i - 1].1 >= c).then(|| trans[i - 1].2)
    }

    pub fn matches(&self, s: &str) -> bool {
        if self.states.is_empty() {
            return false;
        }
        let mut state = 0;
        for c in s.chars() {
            match self.next(state, c as u32) {
                Some(n) => state = n,
                None => return false,
            }
        }
        self.states[state].accept
    }
}

/// The elementary intervals of the code points: maximal ranges that no set of the automaton
/// splits (nor, with `local` anchors, a change of [`Kind`]), so one code point stands for each.
fn alphabet(nfa: &Nfa, local: bool) -> Vec<(u32, u32)> {
    let mut cuts = BTreeSet::new();
    if local {
        for &(lo, hi) in Kind::special().ranges() {
            cuts.insert(lo);
            cuts.insert(hi + 1);
        }
    }
    for s in &nfa.states {
        if let NState::Char(set, _) = s {
            for &(lo, hi) in set.ranges() {
                cuts.insert(lo);
                cuts.insert(hi + 1);
            }
        }
    }
    let cuts: Vec<u32> = cuts.into_iter().collect();
    cuts.windows(2).map(|w| (w[0], w[1] - 1)).collect()
}

/// For each NFA state, the indices of the intervals its code-point step reads.
fn covers(nfa: &Nfa, intervals: &[(u32, u32)]) -> Vec<Vec<usize>> {
    nfa.states
        .iter()
        .map(|s| match s {
            NState::Char(set, _) => set
                .ranges()
                .iter()
                .flat_map(|&(lo, hi)| {
                    // Intervals are cut at every range's ends, so each range is a run of them.
                    let first = intervals.partition_point(|&(a, _)| a < lo);
                    let last = intervals.partition_point(|&(a, _)| a <= hi);
                    first..last
                })
                .collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// Removes the states from which no accepting state is reachable, renumbering the rest in
/// order (the start stays 0 unless it is dead, and then nothing is left).
fn trim(dfa: Dfa) -> Dfa {
    let n = dfa.states.len();
    let mut preds: Vec<Vec<StateId>> = vec![Vec::new(); n];
    for (s, st) in dfa.states.iter().enumerate() {
        for &(_, _, to) in &st.trans {
            preds[to].push(s);
        }
    }
    let mut live = vec![false; n];
    let mut work: Vec<StateId> = (0..n).filter(|&s| dfa.states[s].accept).collect();
    while let Some(s) = work.pop() {
        if !std::mem::replace(&mut live[s], true) {
            work.extend(preds[s].iter().copied());
        }
    }
    if n == 0 || !live[0] {
        return Dfa { states: Vec::new() };
    }
    let mut new_id = vec![usize::MAX; n];
    let mut k = 0;
    for s in 0..n {
        if live[s] {
            new_id[s] = k;
            k += 1;
        }
    }
    let states = dfa
        .states
        .into_iter()
        .enumerate()
        .filter(|&(s, _)| live[s])
        .map(|(_, st)| DState {
            trans: st
                .trans
                .into_iter()
                .filter(|t| live[t.2])
                .map(|(lo, hi, to)| (lo, hi, new_id[to]))
                .collect(),
            accept: st.accept,
        })
        .collect();
    Dfa { states }
}
