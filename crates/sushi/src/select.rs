//! Path selection, step 2 of SUSHI's loop (paper 003 §3.2 / digest §A.2.1): of the explored paths
//! not tried yet, the fewest that together traverse every uncovered branch that any of them
//! traverses ("the minimal subset of paths that achieves the maximum branch coverage").
//!
//! The paper solves this with GLPK; digest §A.2.1 writes the integer program down:
//!
//! ```text
//! minimise    Σ_p x_p                                   x_p ∈ {0, 1}, p an untried path
//! subject to  Σ_{p : b ∈ cov(p)} x_p ≥ 1                for every uncovered branch b some
//!                                                       untried path covers
//! ```
//!
//! Branches no untried path covers get no constraint (that is what makes the coverage "maximum"
//! rather than total, and keeps the program feasible); they are reported in
//! [`Selection::uncoverable`]. Here the program is solved exactly by `microlp`, a pure-Rust
//! branch-and-bound MILP solver, after reductions that keep the minimum (`reduce`).
//!
//! Where the exact solve is not used, the result is a greedy set cover ([`greedy`]), a deviation
//! from the paper labelled as one in [`Method::Greedy`]: the instance is larger than the caps of
//! [`SelectConfig`], the node limit ran out with no cover at least as small as the greedy one, or
//! the solver failed. Every limit counts work (instance size, branch-and-bound nodes), never time.
//!
//! Everything is ordered (`BTreeMap`, `BTreeSet`, sorted `Vec`s, ties to the lowest [`PathId`]),
//! so the selection depends on the input's content only, not on its order.

use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::fmt;

use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOptions, SolveOutcome};

/// An explored path (one path condition of the symbolic executor), by its index in the caller's
/// list of paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PathId(pub u32);

/// A path the selection may choose: its id and the branches it traverses. `B` is whatever the
/// caller names branches by (a goal id, a probe id); only its order matters here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate<B> {
    pub id: PathId,
    /// In any order, repeats allowed. Two candidates with the same id are one path whose branches
    /// are the union of theirs.
    pub branches: Vec<B>,
}

/// Limits on the exact solve. The paper has none (GLPK on every explored path); these keep a
/// large instance (paper 003's closure01 explores 86,141 paths) from stalling the run, and they
/// count work, not time, so a limit is hit on every machine or on none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectConfig {
    /// Candidates the integer program may have: untried paths that cover an uncovered branch, paths
    /// with the same set of such branches counted once. Above it, greedy.
    pub max_ilp_paths: usize,
    /// Constraints the integer program may have: uncovered branches some candidate covers. Above
    /// it, greedy.
    pub max_ilp_branches: usize,
    /// Branch-and-bound nodes the solver may explore (its root relaxation not counted). When they
    /// run out, the best cover found is used if it is no larger than the greedy one.
    pub max_ilp_nodes: u64,
}

impl SelectConfig {
    /// The paper's method, the exact integer program, within limits the paper does not have. What
    /// they mean in time (debug test build, 2 loaded cores): path sets shaped like symbolic
    /// execution's, 200 paths × 150 branches, are solved exactly in tens of nodes and milliseconds;
    /// unstructured random set cover of that size needs about 2,200 nodes (seconds) to prove its
    /// optimum, which 200 nodes already find; at 1,000 × 1,000 a node costs tens of milliseconds,
    /// so the caps keep the worst case to seconds.
    pub fn paper() -> SelectConfig {
        SelectConfig { max_ilp_paths: 1_000, max_ilp_branches: 1_000, max_ilp_nodes: 200 }
    }
}

/// The paths to turn into search goals next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection<B> {
    /// Sorted by id.
    pub paths: Vec<PathId>,
    /// The uncovered branches the selected paths traverse, sorted: every uncovered branch some
    /// untried candidate traverses.
    pub covered: Vec<B>,
    /// The uncovered branches no untried candidate traverses, sorted: left out of the program.
    pub uncoverable: Vec<B>,
    pub method: Method,
}

/// How the selection was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// The integer program of paper 003 §3.2 / digest §A.2.1, solved to proven optimality: no set
    /// of fewer paths covers the same branches.
    Ilp,
    /// The integer program's best cover when the node limit ran out: no larger than the greedy
    /// cover (which seeded the solver), but not proven minimal.
    IlpIncumbent { nodes: u64 },
    /// A greedy set cover, NOT the paper's method (a deviation from paper 003 §3.2): it may select
    /// more paths than the minimum, by up to a factor of H(d) ≤ ln d + 1 where d is the most uncovered
    /// branches one path traverses.
    Greedy { reason: GreedyReason },
}

/// Why a selection is the greedy cover rather than the integer program's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GreedyReason {
    /// The caller asked for it ([`greedy`]).
    Requested,
    /// More candidates than [`SelectConfig::max_ilp_paths`].
    TooManyPaths { paths: usize, cap: usize },
    /// More coverable branches than [`SelectConfig::max_ilp_branches`].
    TooManyBranches { branches: usize, cap: usize },
    /// [`SelectConfig::max_ilp_nodes`] ran out before a cover smaller than the greedy one was found.
    NodeLimit { nodes: u64 },
    /// The solver returned an error, or a solution that is not a cover (checked, not trusted).
    Solver(String),
}

impl fmt::Display for GreedyReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GreedyReason::Requested => write!(f, "greedy cover requested"),
            GreedyReason::TooManyPaths { paths, cap } => {
                write!(f, "{paths} candidate paths exceed the ILP cap of {cap}")
            }
            GreedyReason::TooManyBranches { branches, cap } => {
                write!(f, "{branches} coverable branches exceed the ILP cap of {cap}")
            }
            GreedyReason::NodeLimit { nodes } => {
                write!(f, "ILP node limit reached after {nodes} nodes without beating greedy")
            }
            GreedyReason::Solver(e) => write!(f, "ILP solver failed: {e}"),
        }
    }
}

/// Step 2 of paper 003's loop (§3.2 / digest §A.2.1): the fewest untried candidates that cover
/// every uncovered branch that some untried candidate covers, by the exact integer program when the
/// instance is within `cfg`'s limits, else by the greedy cover (labelled in [`Method::Greedy`]).
/// In the loop of digest §A.2.6, `uncovered` is what the generated tests have not covered yet and
/// `tried` the paths selected in earlier rounds.
pub fn select<B: Ord + Copy>(
    candidates: &[Candidate<B>],
    uncovered: &BTreeSet<B>,
    tried: &BTreeSet<PathId>,
    cfg: &SelectConfig,
) -> Selection<B> {
    let inst = Instance::new(candidates, uncovered, tried);
    if inst.cols.len() > cfg.max_ilp_paths {
        let reason = GreedyReason::TooManyPaths { paths: inst.cols.len(), cap: cfg.max_ilp_paths };
        return inst.selection(&greedy_cover(&inst.cols, inst.branches.len()), Method::Greedy { reason });
    }
    if inst.branches.len() > cfg.max_ilp_branches {
        let reason =
            GreedyReason::TooManyBranches { branches: inst.branches.len(), cap: cfg.max_ilp_branches };
        return inst.selection(&greedy_cover(&inst.cols, inst.branches.len()), Method::Greedy { reason });
    }
    let (chosen, method) = solve(&inst, cfg.max_ilp_nodes);
    inst.selection(&chosen, method)
}

/// The greedy set cover over the same instance as [`select`]: repeatedly the candidate that covers
/// the most branches not covered yet, ties to the lowest [`PathId`], until no candidate adds one.
/// A deviation from paper 003 §3.2, which selects by an integer program: greedy can select more
/// paths than needed (tests/select.rs has an instance where it takes 3 and the minimum is 2). It is
/// what [`select`] falls back to, and public so that the difference can be measured.
pub fn greedy<B: Ord + Copy>(
    candidates: &[Candidate<B>],
    uncovered: &BTreeSet<B>,
    tried: &BTreeSet<PathId>,
) -> Selection<B> {
    let inst = Instance::new(candidates, uncovered, tried);
    let chosen = greedy_cover(&inst.cols, inst.branches.len());
    inst.selection(&chosen, Method::Greedy { reason: GreedyReason::Requested })
}

/// One column of the set-cover matrix: a candidate and the rows (dense branch indices) it covers.
#[derive(Clone, Debug)]
struct Col {
    id: PathId,
    /// Sorted, distinct, non-empty.
    rows: Vec<u32>,
}

/// The set-cover instance: rows are the coverable uncovered branches, columns the untried
/// candidates restricted to them.
struct Instance<B> {
    /// Row `r` is branch `branches[r]`; sorted.
    branches: Vec<B>,
    uncoverable: Vec<B>,
    /// Sorted by id; no two with the same rows (of such twins only the lowest id is kept: either
    /// can stand for the other in a cover, and the greedy, tie-breaking to the lower id, would never
    /// pick the higher one).
    cols: Vec<Col>,
}

impl<B: Ord + Copy> Instance<B> {
    fn new(candidates: &[Candidate<B>], uncovered: &BTreeSet<B>, tried: &BTreeSet<PathId>) -> Self {
        let mut paths: BTreeMap<PathId, BTreeSet<B>> = BTreeMap::new();
        for c in candidates.iter().filter(|c| !tried.contains(&c.id)) {
            let set = paths.entry(c.id).or_default();
            set.extend(c.branches.iter().copied().filter(|b| uncovered.contains(b)));
        }
        let coverable: BTreeSet<B> = paths.values().flatten().copied().collect();
        let branches: Vec<B> = coverable.iter().copied().collect();
        let row: BTreeMap<B, u32> = branches.iter().enumerate().map(|(i, &b)| (b, to_u32(i))).collect();
        let uncoverable = uncovered.difference(&coverable).copied().collect();
        let mut seen: BTreeSet<Vec<u32>> = BTreeSet::new();
        let mut cols = Vec::new();
        // Ascending ids, so the first of twins seen is the lowest; a BTreeSet iterates in order, so
        // `rows` comes out sorted.
        for (id, set) in paths {
            let rows: Vec<u32> = set.iter().map(|b| row[b]).collect();
            if !rows.is_empty() && seen.insert(rows.clone()) {
                cols.push(Col { id, rows });
            }
        }
        Instance { branches, uncoverable, cols }
    }

    /// The selection made of columns `chosen` (indices into `cols`).
    fn selection(&self, chosen: &[usize], method: Method) -> Selection<B> {
        let mut paths: Vec<PathId> = chosen.iter().map(|&c| self.cols[c].id).collect();
        paths.sort();
        let rows: BTreeSet<u32> = chosen.iter().flat_map(|&c| self.cols[c].rows.iter().copied()).collect();
        let covered = rows.iter().map(|&r| self.branches[r as usize]).collect();
        Selection { paths, covered, uncoverable: self.uncoverable.clone(), method }
    }
}

fn to_u32(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 branches")
}

/// Greedy set cover of rows `0..n_rows` by `cols`, as indices into `cols` in the order picked.
/// Lazy evaluation: a column's gain only shrinks as rows get covered, so a stale gain in the heap is
/// an upper bound; the top is picked only once its gain is current. With the heap ordered by gain,
/// then lowest id (the `cols` index order is id order), the picks are exactly those of the eager
/// "recount every column each round" loop.
fn greedy_cover(cols: &[Col], n_rows: usize) -> Vec<usize> {
    let mut covered = vec![false; n_rows];
    let mut heap: BinaryHeap<(usize, Reverse<usize>)> =
        cols.iter().enumerate().map(|(i, c)| (c.rows.len(), Reverse(i))).collect();
    let mut chosen = Vec::new();
    while let Some((stale, Reverse(i))) = heap.pop() {
        let gain = cols[i].rows.iter().filter(|&&r| !covered[r as usize]).count();
        if gain == 0 {
            continue;
        }
        if gain < stale {
            heap.push((gain, Reverse(i)));
            continue;
        }
        for &r in &cols[i].rows {
            covered[r as usize] = true;
        }
        chosen.push(i);
    }
    chosen
}

/// A fixed-size set of small integers, for the subset tests of the reductions.
#[derive(Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(len: usize, members: impl IntoIterator<Item = usize>) -> Bits {
        let mut words = vec![0u64; len.div_ceil(64)];
        for m in members {
            words[m / 64] |= 1 << (m % 64);
        }
        Bits(words)
    }

    fn is_subset(&self, other: &Bits) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }
}

/// The indices of `sets` that no other index dominates. With `keep_larger` (columns), `j`
/// dominates `i` when `sets[j]` is a strict superset of `sets[i]`; otherwise (rows), when `sets[j]`
/// is a strict subset of `sets[i]`, or equal to it with `j < i`. Both relations are strict partial
/// orders, so every dominated index is dominated by a kept one (follow the relation until it stops
/// in a finite set); `reduce`'s proofs rely on that. Quadratic, hence only under the caps.
fn undominated(sets: &[Bits], sizes: &[usize], keep_larger: bool) -> Vec<usize> {
    let n = sets.len();
    (0..n)
        .filter(|&i| {
            !(0..n).any(|j| {
                if j == i {
                    return false;
                }
                if keep_larger {
                    // Column i is dropped when a column j covers a strict superset of its rows.
                    sizes[j] > sizes[i] && sets[i].is_subset(&sets[j])
                } else {
                    // Row i is dropped when a row j is covered by a subset of i's columns (equal
                    // sets: the lower index stays).
                    match sizes[j].cmp(&sizes[i]) {
                        Ordering::Less => sets[j].is_subset(&sets[i]),
                        Ordering::Equal => j < i && sets[j] == sets[i],
                        Ordering::Greater => false,
                    }
                }
            })
        })
        .collect()
}

/// The program after two classic set-cover reductions, each keeping the minimum number of paths
/// (the Selection reports the rows of the chosen columns from the full instance, so nothing is
/// lost):
///
/// - a column whose rows are a strict subset of another's is dropped: in any cover, replacing it by
///   the larger column keeps a cover of no greater size. (Columns are distinct, `Instance::new`.)
/// - a row whose columns include all the columns of another kept row is dropped: every cover of the
///   other row covers it. Among rows with equal column sets the lowest stays.
///
/// Returns the kept columns (indices into `inst.cols`) and the kept rows.
fn reduce<B>(inst: &Instance<B>) -> (Vec<usize>, Vec<usize>) {
    let n_rows = inst.branches.len();
    let col_bits: Vec<Bits> =
        inst.cols.iter().map(|c| Bits::new(n_rows, c.rows.iter().map(|&r| r as usize))).collect();
    let col_sizes: Vec<usize> = inst.cols.iter().map(|c| c.rows.len()).collect();
    let cols = undominated(&col_bits, &col_sizes, true);
    let mut row_cols: Vec<Vec<usize>> = vec![Vec::new(); n_rows];
    for (k, &c) in cols.iter().enumerate() {
        for &r in &inst.cols[c].rows {
            row_cols[r as usize].push(k);
        }
    }
    let row_bits: Vec<Bits> = row_cols.iter().map(|cs| Bits::new(cols.len(), cs.iter().copied())).collect();
    let row_sizes: Vec<usize> = row_cols.iter().map(Vec::len).collect();
    let rows = undominated(&row_bits, &row_sizes, false);
    (cols, rows)
}

/// The exact solve: the reduced program to microlp, seeded with the greedy cover of the reduced
/// columns, limited to `max_nodes` branch-and-bound nodes. Returns the chosen columns (indices into
/// `inst.cols`) and how they were chosen; the greedy cover of the full instance when the solver
/// fails or does not beat it.
fn solve<B>(inst: &Instance<B>, max_nodes: u64) -> (Vec<usize>, Method) {
    let n_rows = inst.branches.len();
    let fallback = |reason| (greedy_cover(&inst.cols, n_rows), Method::Greedy { reason });
    if n_rows == 0 {
        // Nothing to cover: the empty selection is the (trivial) optimum.
        return (Vec::new(), Method::Ilp);
    }
    let (cols, rows) = reduce(inst);
    let mut problem = Problem::new(OptimizationDirection::Minimize);
    let vars: Vec<_> = cols.iter().map(|_| problem.add_binary_var(1.0)).collect();
    let mut row_terms: Vec<Vec<(microlp::Variable, f64)>> = vec![Vec::new(); n_rows];
    for (k, &c) in cols.iter().enumerate() {
        for &r in &inst.cols[c].rows {
            row_terms[r as usize].push((vars[k], 1.0));
        }
    }
    for &r in &rows {
        problem.add_constraint(row_terms[r].as_slice(), ComparisonOp::Ge, 1.0);
    }
    // The reduced columns still cover every row (each dropped column's rows are in a kept one), so
    // their greedy cover is a feasible hint: the solver starts with an incumbent no worse than greedy.
    let kept: Vec<Col> = cols.iter().map(|&c| inst.cols[c].clone()).collect();
    let hint = greedy_cover(&kept, n_rows);
    let mut opts = SolveOptions::default();
    opts.node_limit = Some(max_nodes);
    opts.warm_start = Some(hint.iter().map(|&k| (vars[k], 1.0)).collect());
    let outcome = match problem.solve_with(opts) {
        Ok(outcome) => outcome,
        Err(e) => return fallback(GreedyReason::Solver(e.to_string())),
    };
    let nodes = outcome.stats().nodes_solved;
    let optimal = outcome.is_optimal();
    let solution = match outcome {
        SolveOutcome::Solution(s) => s,
        SolveOutcome::Interrupted(_) => return fallback(GreedyReason::NodeLimit { nodes }),
    };
    // Binary values come back within the integrality tolerance of 0 or 1.
    let chosen: Vec<usize> =
        (0..cols.len()).filter(|&k| solution.var_value(vars[k]) > 0.5).map(|k| cols[k]).collect();
    let mut hit = vec![false; n_rows];
    for &c in &chosen {
        for &r in &inst.cols[c].rows {
            hit[r as usize] = true;
        }
    }
    if hit.contains(&false) {
        return fallback(GreedyReason::Solver("the solution leaves a coverable branch uncovered".into()));
    }
    if optimal {
        return (chosen, Method::Ilp);
    }
    let greedy = greedy_cover(&inst.cols, n_rows);
    if chosen.len() <= greedy.len() {
        (chosen, Method::IlpIncumbent { nodes })
    } else {
        (greedy, Method::Greedy { reason: GreedyReason::NodeLimit { nodes } })
    }
}
