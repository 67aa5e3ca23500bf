//! Selection operators: EvoSuite's rank selection (Whitley's linear ranking with `rank_bias`, used
//! by the whole-suite GA) and tournament selection with a caller-supplied order (MOSA's rank and
//! crowding distance tournament).

use std::cmp::Ordering;

use rand::RngExt;
use testcase::TestRng;

/// EvoSuite's `RankSelection.getIndex`: an index into a population sorted best first, biased
/// towards the front by `bias` in (1, 2] (Whitley 1989).
pub(crate) fn rank_index(n: usize, bias: f64, rng: &mut TestRng) -> usize {
    if n <= 1 {
        return 0;
    }
    let r: f64 = rng.random();
    let d = if bias > 1.0 {
        (bias - (bias * bias - 4.0 * (bias - 1.0) * r).sqrt()) / 2.0 / (bias - 1.0)
    } else {
        r
    };
    ((n as f64 * d) as usize).min(n - 1)
}

/// Tournament selection (EvoSuite's `TournamentSelection`): `size` uniform draws with
/// replacement, the best by `better` wins (`Ordering::Less` = the first argument is better); the
/// first drawn wins ties.
pub(crate) fn tournament(
    n: usize,
    size: usize,
    rng: &mut TestRng,
    mut better: impl FnMut(usize, usize) -> Ordering,
) -> usize {
    if n <= 1 {
        return 0;
    }
    let mut best = rng.random_range(0..n);
    for _ in 1..size.max(1) {
        let c = rng.random_range(0..n);
        if better(c, best) == Ordering::Less {
            best = c;
        }
    }
    best
}
