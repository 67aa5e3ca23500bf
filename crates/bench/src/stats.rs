//! The statistics of comparing two configurations over seeds, as the search-based testing literature
//! reports them (Arcuri and Briand, "A Hitchhiker's guide to statistical tests for assessing randomized
//! algorithms in software engineering", STVR 2014): mean and median, the Vargha–Delaney Â12 effect
//! size, the two-sided Mann–Whitney U test, and the verdict "significant win or loss" that a
//! comparison of configurations reports. Pure functions over samples; no rows, no formatting
//! (report.rs does those).

/// The significance level of a win or a loss.
pub const ALPHA: f64 = 0.05;
/// Â12 above this is a win, below [`A12_LOSS`] a loss, when p < [`ALPHA`] (Vargha and
/// Delaney's bound of a "medium" effect).
pub const A12_WIN: f64 = 0.64;
pub const A12_LOSS: f64 = 0.36;
/// The exact test up to this many observations in all (25 seeds a side); beyond, the normal
/// approximation. See [`mann_whitney`].
pub const EXACT_MAX_N: usize = 50;

pub fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

pub fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    Some(if n % 2 == 1 { s[n / 2] } else { (s[n / 2 - 1] + s[n / 2]) / 2.0 })
}

/// Vargha and Delaney's Â12: the probability that a value drawn from `x` is larger than one drawn from
/// `y`, ties counting half, i.e. (#(x>y) + 0.5·#(x=y)) / (m·n). 0.5 is no difference; `None` when a
/// side is empty.
pub fn a12(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.is_empty() || y.is_empty() {
        return None;
    }
    // Doubled, so the count stays an integer: 2 per pair won, 1 per tie.
    let mut doubled = 0u64;
    for a in x {
        for b in y {
            doubled += match a.total_cmp(b) {
                std::cmp::Ordering::Greater => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Less => 0,
            };
        }
    }
    Some(doubled as f64 / (2 * x.len() * y.len()) as f64)
}

/// How a p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PMethod {
    /// The permutation distribution of the rank sum, enumerated.
    Exact,
    /// The normal approximation with tie and continuity correction.
    Normal,
}

impl PMethod {
    pub fn name(self) -> &'static str {
        match self {
            PMethod::Exact => "exact",
            PMethod::Normal => "normal",
        }
    }
}

/// The outcome of a Mann–Whitney U test of `x` against `y`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// U of `x`: the pairs `x` wins, ties counting half (R's `W`); U / (m·n) is Â12.
    pub u: f64,
    /// Two-sided.
    pub p: f64,
    pub method: PMethod,
}

/// The two-sided Mann–Whitney U (Wilcoxon rank-sum) test of `x` against `y`; `None` when a side is
/// empty.
///
/// Up to [`EXACT_MAX_N`] observations in all the p-value is exact: the permutation distribution of
/// the rank sum of the smaller side over the midranks of the pooled sample (so ties are handled
/// exactly, not approximated), counted by dynamic programming, and p = P(|W − E W| ≥ |w − E W|),
/// which without ties is R's `wilcox.test(exact = TRUE)` (twice the smaller tail, as the
/// distribution is then symmetric). Beyond, the dynamic programme's table grows as N³ and the
/// normal approximation with tie and continuity correction (R's `exact = FALSE, correct = TRUE`)
/// is used; at 25 against 25 without ties it is within 0.004 of the exact p everywhere.
pub fn mann_whitney(x: &[f64], y: &[f64]) -> Option<MannWhitney> {
    let (m, n) = (x.len(), y.len());
    if m == 0 || n == 0 {
        return None;
    }
    let ranks = doubled_midranks(x, y);
    let rank_sum_x: u64 = ranks[..m].iter().sum();
    // U = W − m(m+1)/2 with W = rank_sum_x / 2.
    let u = (rank_sum_x as f64 - (m * (m + 1)) as f64) / 2.0;
    if m + n <= EXACT_MAX_N {
        // The smaller side's sum has the same two-sided p (its sum is the total minus the other's,
        // and its mean likewise), and a smaller table.
        let (side, observed) = if m <= n { (m, rank_sum_x) } else { (n, ranks[m..].iter().sum::<u64>()) };
        Some(MannWhitney { u, p: exact_p(&ranks, side, observed), method: PMethod::Exact })
    } else {
        Some(MannWhitney { u, p: normal_p(u, m, n, &ranks), method: PMethod::Normal })
    }
}

/// The midranks of `x` then `y` in the pooled sample, doubled so that they are integers (a tie
/// over ranks i..=j gets i + j).
fn doubled_midranks(x: &[f64], y: &[f64]) -> Vec<u64> {
    let pooled: Vec<f64> = x.iter().chain(y).copied().collect();
    let mut order: Vec<usize> = (0..pooled.len()).collect();
    order.sort_by(|&a, &b| pooled[a].total_cmp(&pooled[b]));
    let mut ranks = vec![0u64; pooled.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && pooled[order[j + 1]].total_cmp(&pooled[order[i]]).is_eq() {
            j += 1;
        }
        // Ranks are 1-based: positions i..=j hold ranks i+1..=j+1, whose doubled mean is i + j + 2.
        for &k in &order[i..=j] {
            ranks[k] = (i + j + 2) as u64;
        }
        i = j + 1;
    }
    ranks
}

/// P(|S − E S| ≥ |observed − E S|) for S the sum of a uniformly drawn `k`-subset of the doubled
/// midranks `ranks`. Counts per (subset size, sum) by dynamic programming; with at most
/// [`EXACT_MAX_N`] ranks the counts (at most C(50, 25) ≈ 1.3e14) fit a u64 and convert to f64
/// exactly.
fn exact_p(ranks: &[u64], k: usize, observed: u64) -> f64 {
    let total: u64 = ranks.iter().sum();
    let width = total as usize + 1;
    // counts[size * width + sum]
    let mut counts = vec![0u64; (k + 1) * width];
    counts[0] = 1;
    let mut reach = 0usize;
    for &r in ranks {
        let r = r as usize;
        reach += r;
        for size in (1..=k).rev() {
            for sum in (r..=reach).rev() {
                counts[size * width + sum] += counts[(size - 1) * width + sum - r];
            }
        }
    }
    // E S = k · (mean doubled rank) = k · total / N; compared times N to stay in integers.
    let n = ranks.len() as i128;
    let centre = k as i128 * total as i128;
    let distance = |s: u64| (s as i128 * n - centre).abs();
    let bound = distance(observed);
    let row = &counts[k * width..(k + 1) * width];
    let all: u64 = row.iter().sum();
    let extreme: u64 =
        row.iter().enumerate().filter(|&(s, _)| distance(s as u64) >= bound).map(|(_, c)| c).sum();
    extreme as f64 / all as f64
}

/// The normal approximation of the two-sided p of U, with the tie correction of the variance and a
/// continuity correction of 0.5 towards the mean, as R's `wilcox.test(exact = FALSE)` computes it.
fn normal_p(u: f64, m: usize, n: usize, doubled_ranks: &[u64]) -> f64 {
    let (mf, nf) = (m as f64, n as f64);
    let big_n = mf + nf;
    let mut sorted = doubled_ranks.to_vec();
    sorted.sort_unstable();
    // Σ (t³ − t) over the tie groups (equal midranks are one group).
    let mut ties = 0.0;
    for group in sorted.chunk_by(|a, b| a == b) {
        let t = group.len() as f64;
        ties += t * t * t - t;
    }
    let variance = mf * nf / 12.0 * ((big_n + 1.0) - ties / (big_n * (big_n - 1.0)));
    if variance <= 0.0 {
        // Every value equal: no evidence of a difference.
        return 1.0;
    }
    let d = u - mf * nf / 2.0;
    let correction = if d > 0.0 {
        0.5
    } else if d < 0.0 {
        -0.5
    } else {
        0.0
    };
    let z = (d - correction) / variance.sqrt();
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// The complementary error function, after Numerical Recipes' `erfcc` (Chebyshev fit, fractional
/// error below 1.2e-7 everywhere): ample for a p-value compared with 0.05 and printed to three places.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The smallest two-sided p the exact test can give with `m` against `n` observations and no ties
/// (every value of one side above every value of the other): 2 / C(m+n, m), at most 1. 3 against 3
/// gives 0.1, so no class can be significant at 0.05; 5 against 5 gives 2/252 ≈ 0.0079.
pub fn smallest_exact_p(m: usize, n: usize) -> f64 {
    let mut arrangements = 1.0f64;
    for i in 0..m.min(n) {
        arrangements = arrangements * (m + n - i) as f64 / (i + 1) as f64;
    }
    (2.0 / arrangements).min(1.0)
}

/// Whether a configuration beat the baseline on a class, significantly and by a large enough effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    /// Not significant, or too small an effect.
    Neither,
}

impl Verdict {
    /// `a12` and `p` of the configuration against the baseline.
    pub fn of(a12: f64, p: f64) -> Verdict {
        if p < ALPHA && a12 > A12_WIN {
            Verdict::Win
        } else if p < ALPHA && a12 < A12_LOSS {
            Verdict::Loss
        } else {
            Verdict::Neither
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Loss => "loss",
            Verdict::Neither => "—",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// The reference the dynamic programme is checked against: every split of the pooled sample
    /// enumerated, the rank sums computed from scratch.
    fn brute_force_p(x: &[f64], y: &[f64]) -> f64 {
        let ranks = doubled_midranks(x, y);
        let (m, big_n) = (x.len(), ranks.len());
        let observed: u64 = ranks[..m].iter().sum();
        let centre = m as f64 * ranks.iter().sum::<u64>() as f64 / big_n as f64;
        let (mut extreme, mut all) = (0u64, 0u64);
        for mask in 0u64..(1 << big_n) {
            if mask.count_ones() as usize != m {
                continue;
            }
            let s: u64 = (0..big_n).filter(|i| mask >> i & 1 == 1).map(|i| ranks[i]).sum();
            all += 1;
            // Sums are integers over a centre that is a multiple of 1/N; a 1e-9 slack cannot blur them.
            if (s as f64 - centre).abs() >= (observed as f64 - centre).abs() - 1e-9 {
                extreme += 1;
            }
        }
        extreme as f64 / all as f64
    }

    #[test]
    fn mean_and_median() {
        assert_eq!(mean(&[]), None);
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn a12_counts_wins_and_half_ties() {
        assert_eq!(a12(&[], &[1.0]), None);
        assert_eq!(a12(&[2.0, 3.0], &[1.0]), Some(1.0));
        assert_eq!(a12(&[1.0], &[2.0, 3.0]), Some(0.0));
        assert_eq!(a12(&[1.0, 1.0], &[1.0]), Some(0.5));
        // x = {0.5, 0.5, 0.7}, y = {0.3, 0.5, 0.5}: each 0.5 beats 0.3 and ties the two 0.5s (1 + 2·½),
        // 0.7 beats all three: 7 of 9 pairs.
        assert_eq!(a12(&[0.5, 0.5, 0.7], &[0.3, 0.5, 0.5]), Some(7.0 / 9.0));
        // Â12 of one side is 1 − Â12 of the other.
        assert_eq!(a12(&[0.3, 0.5, 0.5], &[0.5, 0.5, 0.7]), Some(2.0 / 9.0));
    }

    #[test]
    fn midranks_of_ties() {
        // Pooled 0.3 | 0.5 0.5 0.5 0.5 | 0.7: ranks 1, 3.5 (of 2..=5), 6; doubled 2, 7, 12.
        assert_eq!(doubled_midranks(&[0.5, 0.5, 0.7], &[0.3, 0.5, 0.5]), vec![7, 7, 12, 2, 7, 7]);
    }

    /// The figures: complete separation gives the smallest p, 2 / C(m+n, m).
    #[test]
    fn smallest_p_three_and_five_seeds() {
        let t = mann_whitney(&[0.4, 0.5, 0.6], &[0.1, 0.2, 0.3]).expect("test");
        assert_eq!(t.method, PMethod::Exact);
        assert_eq!(t.u, 9.0);
        assert!(close(t.p, 0.1, 1e-15), "{t:?}");
        assert!(close(smallest_exact_p(3, 3), 0.1, 1e-15));
        let t = mann_whitney(&[1.0, 2.0, 3.0, 4.0, 5.0], &[6.0, 7.0, 8.0, 9.0, 10.0]).expect("test");
        assert_eq!(t.u, 0.0);
        assert!(close(t.p, 2.0 / 252.0, 1e-15), "{t:?}");
        assert!(close(t.p, 0.0079, 5e-5));
        assert!(close(smallest_exact_p(5, 5), 2.0 / 252.0, 1e-15));
        // 4 against 4: 2/70, below 0.05 (only complete separation gets there).
        assert!(close(smallest_exact_p(4, 4), 2.0 / 70.0, 1e-15));
        assert_eq!(smallest_exact_p(1, 1), 1.0);
    }

    /// By hand from the definition: x = {0.5, 0.5, 0.7}, y = {0.3, 0.5, 0.5}, doubled midranks
    /// 2, 7, 7, 7, 7, 12. W of x (doubled) is 7 + 7 + 12 = 26, U = 13 − 6 = 7; E of the doubled sum
    /// is 3 · 7 = 21. Of the C(6,3) = 20 equally likely 3-subsets: {2, 12, one 7} sums to 21 (4
    /// subsets), {2, two 7s} to 16 (6), {12, two 7s} to 26 (6), {three 7s} to 21 (4). |S − 21| ≥ 5
    /// for 12 of them: p = 0.6.
    #[test]
    fn exact_p_with_ties_by_hand() {
        let t = mann_whitney(&[0.5, 0.5, 0.7], &[0.3, 0.5, 0.5]).expect("test");
        assert_eq!(t, MannWhitney { u: 7.0, p: 0.6, method: PMethod::Exact });
        assert_eq!(t.u / 9.0, a12(&[0.5, 0.5, 0.7], &[0.3, 0.5, 0.5]).expect("a12"));
        // Every value equal: p is 1.
        assert_eq!(mann_whitney(&[0.5; 3], &[0.5; 3]).expect("test").p, 1.0);
    }

    /// The two-sample example of R's `?wilcox.test` (Hollander and Wolfe, permeability of membranes):
    /// R prints `W = 35, p-value = 0.1272` for `alternative = "greater"`. From the definition: 382 of
    /// the C(15, 5) = 3003 splits have U ≥ 35, so P = 382/3003 = 0.12721; the distribution is
    /// symmetric without ties, so the two-sided p, R's default, is 764/3003 = 0.25441.
    #[test]
    fn exact_p_as_r_wilcox_test() {
        let x = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
        let y = [1.15, 0.88, 0.90, 0.74, 1.21];
        let t = mann_whitney(&x, &y).expect("test");
        assert_eq!(t.u, 35.0);
        assert_eq!(t.method, PMethod::Exact);
        assert!(close(t.p, 764.0 / 3003.0, 1e-15), "{t:?}");
        assert!(close(t.p / 2.0, 0.1272, 5e-5));
        // The sides swapped: U is the complement, p the same.
        let t = mann_whitney(&y, &x).expect("test");
        assert_eq!(t.u, 50.0 - 35.0);
        assert!(close(t.p, 764.0 / 3003.0, 1e-15), "{t:?}");
    }

    #[test]
    fn dynamic_programme_agrees_with_enumeration() {
        // A fixed pseudo-random stream with many ties (values on a grid of 4), sizes 1..=7 a side.
        let mut state = 12345u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            f64::from((state >> 33) as u32 % 4) / 4.0
        };
        for m in 1..=7 {
            for n in 1..=7 {
                let x: Vec<f64> = (0..m).map(|_| next()).collect();
                let y: Vec<f64> = (0..n).map(|_| next()).collect();
                let t = mann_whitney(&x, &y).expect("test");
                let reference = brute_force_p(&x, &y);
                assert!(close(t.p, reference, 1e-12), "{x:?} {y:?}: {} against {reference}", t.p);
                assert_eq!(t.u / (m * n) as f64, a12(&x, &y).expect("a12"), "{x:?} {y:?}");
            }
        }
    }

    /// R's `wilcox.test(c(.5, .5, .7), c(.3, .5, .5), exact = FALSE)`: U − mn/2 = 2.5, 2.0 after the
    /// continuity correction; σ² = 9/12 · (7 − (4³ − 4)/(6 · 5)) = 3.75; p = 2 · (1 − Φ(2/√3.75)) =
    /// 0.30170.
    #[test]
    fn normal_approximation_by_hand() {
        let ranks = doubled_midranks(&[0.5, 0.5, 0.7], &[0.3, 0.5, 0.5]);
        assert!(close(normal_p(7.0, 3, 3, &ranks), 0.30170, 5e-5));
        assert!(close(erfc(1.959_964 / std::f64::consts::SQRT_2), 0.05, 1e-7));
        assert!(close(erfc(-1.0), 2.0 - erfc(1.0), 1e-15));
        assert_eq!(normal_p(4.5, 3, 3, &[7; 6]), 1.0);
    }

    /// Past [`EXACT_MAX_N`] the normal approximation; at the boundary (25 against 25) the two agree
    /// within 0.004 from no difference to near separation.
    #[test]
    fn large_samples_use_the_normal_approximation() {
        let x: Vec<f64> = (0..26).map(|i| f64::from(i) * 2.0 + 1.0).collect();
        let y: Vec<f64> = (0..25).map(|i| f64::from(i) * 2.0).collect();
        let t = mann_whitney(&x, &y).expect("test");
        assert_eq!(t.method, PMethod::Normal);
        // Interleaved: x_i = 2i + 1 beats y_0..=y_i, so 1 + 2 + … + 25 = 325 pairs, and x_25 all 25.
        assert_eq!(t.u, 350.0);
        for shift in 0..12 {
            let x: Vec<f64> = (0..25).map(|i| f64::from(i) * 2.0 + 1.0 + f64::from(shift) * 2.0).collect();
            let ranks = doubled_midranks(&x, &y);
            let sum: u64 = ranks[..25].iter().sum();
            let u = (sum as f64 - 650.0) / 2.0;
            let (exact, normal) = (exact_p(&ranks, 25, sum), normal_p(u, 25, 25, &ranks));
            assert!(close(exact, normal, 0.004), "shift {shift}: exact {exact}, normal {normal}");
        }
    }

    #[test]
    fn verdicts_at_the_thresholds() {
        assert_eq!(Verdict::of(0.65, 0.049), Verdict::Win);
        assert_eq!(Verdict::of(0.64, 0.049), Verdict::Neither);
        assert_eq!(Verdict::of(0.35, 0.049), Verdict::Loss);
        assert_eq!(Verdict::of(0.36, 0.049), Verdict::Neither);
        assert_eq!(Verdict::of(1.0, 0.05), Verdict::Neither);
        assert_eq!(Verdict::of(0.0, 0.1), Verdict::Neither);
        assert_eq!(Verdict::Loss.name(), "loss");
    }
}
