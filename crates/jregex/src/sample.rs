//! Random accepted strings: a walk of the deterministic automaton from its start, each step a
//! transition and a char of its ranges drawn by a small seeded generator, stopping at an accepting
//! state by chance (1/4) or when the length bound is near, then finishing by the shortest way to
//! acceptance. The same seed gives the same string.
//!
//! This is what EvoSuite's `RegexDistanceUtils.getRegexInstance` does for its dynamic pool (a
//! random walk of the `dk.brics` automaton), with two differences: chars are drawn from the
//! printable ASCII part of a range when it has one (a test's literal stays readable), and the walk
//! is bounded, finishing along the shortest path rather than restarting.
//!
//! Not here: which patterns a class uses (the test cluster reads them from its code).

use crate::dfa::{DState, StateId};

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// enough for drawing transitions, and it keeps this crate free of dependencies.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A draw in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Per state, the least number of chars that leads to acceptance (every state is live, so each
/// has one), by relaxing the transitions backwards until nothing changes.
fn to_accept(states: &[DState]) -> Vec<usize> {
    let mut dist: Vec<usize> = states.iter().map(|s| if s.accept { 0 } else { usize::MAX }).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (i, s) in states.iter().enumerate() {
            let best = s.trans.iter().map(|t| dist[t.2].saturating_add(1)).min().unwrap_or(usize::MAX);
            if best < dist[i] {
                dist[i] = best;
                changed = true;
            }
        }
    }
    dist
}

/// A char of `lo..=hi`: printable ASCII when the range has some, never a UTF-16 surrogate.
fn draw_char(rng: &mut SplitMix, lo: u32, hi: u32) -> Option<char> {
    let (plo, phi) = (lo.max(0x20), hi.min(0x7E));
    let (a, b) = if plo <= phi { (plo, phi) } else { (lo, hi) };
    let c = a + rng.below(u64::from(b - a) + 1) as u32;
    char::from_u32(c).or_else(|| char::from_u32(a)).or_else(|| char::from_u32(b))
}

/// A random string the automaton `states` accepts, at most about `max_len` code points long
/// (longer only when no accepted string is that short); `None` when it accepts nothing.
pub(crate) fn sample(states: &[DState], seed: u64, max_len: usize) -> Option<String> {
    if states.is_empty() {
        return None;
    }
    let dist = to_accept(states);
    let mut rng = SplitMix(seed);
    let mut out = String::new();
    let mut state: StateId = 0;
    let mut len = 0usize;
    loop {
        let s = &states[state];
        // Stop at an accepting state with probability 1/4, or when one more char would leave no
        // room to finish within the bound: an optional part (`(-\d+)?`) is taken more often
        // than not.
        if s.accept && (s.trans.is_empty() || rng.below(4) == 0 || len >= max_len) {
            return Some(out);
        }
        let room = max_len.saturating_sub(len + 1);
        let fits: Vec<&(u32, u32, StateId)> = s.trans.iter().filter(|t| dist[t.2] <= room).collect();
        if fits.is_empty() && s.accept {
            // Nothing more fits: this accepting state ends the string.
            return Some(out);
        }
        let t = if fits.is_empty() {
            // Past the bound (no accepted string is that short): the shortest way on.
            s.trans.iter().min_by_key(|t| dist[t.2])?
        } else {
            fits[rng.below(fits.len() as u64) as usize]
        };
        out.push(draw_char(&mut rng, t.0, t.1)?);
        len += 1;
        state = t.2;
    }
}
