//! Path selection (paper 003 §3.2 / digest §A.2.1): the integer program's minimum against the greedy
//! cover it falls back to, the later rounds of the §A.2.6 loop (tried paths, covered branches), the
//! caps, determinism, and a medium random instance checked for size, coverage and time.

use std::collections::BTreeSet;
use std::time::Instant;

use sushi::{Candidate, GreedyReason, Method, PathId, SelectConfig, Selection, greedy, select};

/// Candidates from `(id, branches)` rows.
fn cands(rows: &[(u32, &[u32])]) -> Vec<Candidate<u32>> {
    rows.iter().map(|&(id, bs)| Candidate { id: PathId(id), branches: bs.to_vec() }).collect()
}

fn set<T: Ord + Copy>(xs: &[T]) -> BTreeSet<T> {
    xs.iter().copied().collect()
}

fn ids(xs: &[u32]) -> Vec<PathId> {
    xs.iter().map(|&x| PathId(x)).collect()
}

fn tried(xs: &[u32]) -> BTreeSet<PathId> {
    xs.iter().map(|&x| PathId(x)).collect()
}

/// The textbook instance where greedy is not minimal: path 3 covers the most (4 branches) and is
/// taken first, after which paths 1 and 2 are still both needed; paths 1 and 2 alone cover all.
const GREEDY_TRAP: &[(u32, &[u32])] = &[(1, &[1, 2, 3]), (2, &[4, 5, 6]), (3, &[1, 2, 4, 5])];

#[test]
fn ilp_finds_the_minimum_where_greedy_does_not() {
    let c = cands(GREEDY_TRAP);
    let all = set(&[1, 2, 3, 4, 5, 6]);
    let ilp = select(&c, &all, &BTreeSet::new(), &SelectConfig::paper());
    assert_eq!(
        ilp,
        Selection {
            paths: ids(&[1, 2]),
            covered: vec![1, 2, 3, 4, 5, 6],
            uncoverable: vec![],
            method: Method::Ilp
        }
    );
    let g = greedy(&c, &all, &BTreeSet::new());
    assert_eq!(g.paths, ids(&[1, 2, 3]));
    assert_eq!(g.covered, vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(g.method, Method::Greedy { reason: GreedyReason::Requested });
}

/// (candidates, uncovered, tried, expected paths, expected covered, expected uncoverable)
type Case = (
    &'static [(u32, &'static [u32])],
    &'static [u32],
    &'static [u32],
    &'static [u32],
    &'static [u32],
    &'static [u32],
);

#[test]
fn selections_of_small_instances() {
    let cases: &[Case] = &[
        // Empty inputs, alone and together: nothing to select, trivially optimal.
        (&[], &[], &[], &[], &[], &[]),
        (&[], &[1, 2], &[], &[], &[], &[1, 2]),
        (GREEDY_TRAP, &[], &[], &[], &[], &[]),
        (&[(1, &[])], &[1], &[], &[], &[], &[1]),
        // Branches no path covers (7, 8) are left out; the rest is still covered minimally.
        (GREEDY_TRAP, &[1, 2, 3, 4, 5, 6, 7, 8], &[], &[1, 2], &[1, 2, 3, 4, 5, 6], &[7, 8]),
        // A later round: branches 1-3 covered by tests, so path 2 alone suffices.
        (GREEDY_TRAP, &[4, 5, 6], &[], &[2], &[4, 5, 6], &[]),
        // Path 1 tried (its condition was spurious): branch 3 is uncoverable now; path 3 covers
        // 1, 2, 4, 5 and only path 2 covers 6.
        (GREEDY_TRAP, &[1, 2, 3, 4, 5, 6], &[1], &[2, 3], &[1, 2, 4, 5, 6], &[3]),
        // Every path tried: nothing left to select, everything uncoverable.
        (GREEDY_TRAP, &[1, 2, 3], &[1, 2, 3], &[], &[], &[1, 2, 3]),
        // Branches outside `uncovered` (covered earlier) neither count nor make a path useful.
        (&[(1, &[1, 9]), (2, &[9])], &[1], &[], &[1], &[1], &[]),
        // Twins: same uncovered branches, the lowest id stands for both.
        (&[(5, &[1, 2]), (4, &[2, 1, 1]), (6, &[1, 2, 9])], &[1, 2], &[], &[4], &[1, 2], &[]),
        // One path listed twice: the union of its branches.
        (&[(1, &[1]), (2, &[1]), (1, &[2])], &[1, 2], &[], &[1], &[1, 2], &[]),
        // A path whose branches are a subset of another's is never needed.
        (&[(1, &[1]), (2, &[1, 2]), (3, &[3])], &[1, 2, 3], &[], &[2, 3], &[1, 2, 3], &[]),
    ];
    for (i, &(c, unc, tr, paths, covered, uncoverable)) in cases.iter().enumerate() {
        let got = select(&cands(c), &set(unc), &tried(tr), &SelectConfig::paper());
        let want = Selection {
            paths: ids(paths),
            covered: covered.to_vec(),
            uncoverable: uncoverable.to_vec(),
            method: Method::Ilp,
        };
        assert_eq!(got, want, "case {i}");
    }
}

#[test]
fn caps_force_greedy_with_a_reason() {
    let c = cands(GREEDY_TRAP);
    let all = set(&[1, 2, 3, 4, 5, 6, 7]);
    let none = BTreeSet::new();
    let cases: &[(SelectConfig, GreedyReason)] = &[
        (
            SelectConfig { max_ilp_paths: 2, ..SelectConfig::paper() },
            GreedyReason::TooManyPaths { paths: 3, cap: 2 },
        ),
        (
            SelectConfig { max_ilp_branches: 5, ..SelectConfig::paper() },
            GreedyReason::TooManyBranches { branches: 6, cap: 5 },
        ),
    ];
    let g = greedy(&c, &all, &none);
    for (cfg, reason) in cases {
        let got = select(&c, &all, &none, cfg);
        assert_eq!(got.method, Method::Greedy { reason: reason.clone() });
        assert_eq!((&got.paths, &got.covered, &got.uncoverable), (&g.paths, &g.covered, &g.uncoverable));
        assert!(!reason.to_string().is_empty());
    }
    // At the caps exactly, the program is used.
    let at = SelectConfig { max_ilp_paths: 3, max_ilp_branches: 6, ..SelectConfig::paper() };
    assert_eq!(select(&c, &all, &none, &at).method, Method::Ilp);
}

/// A tiny deterministic generator (Knuth's MMIX LCG), so the test needs no `rand`.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `paths` candidates over branches `0..branches`, each traversing 2 to `max_len` of them, in a
/// shape like symbolic execution's: branches cluster by method (a path mostly stays in one block
/// of branches) with a few from elsewhere.
fn random_instance(seed: u64, paths: u32, branches: u32, max_len: u64) -> Vec<Candidate<u32>> {
    let mut rng = Lcg(seed);
    let block = (branches / 10).max(1);
    (0..paths)
        .map(|id| {
            let start = rng.below(u64::from(branches)) as u32;
            let len = 2 + rng.below(max_len - 1);
            let bs = (0..len)
                .map(|_| {
                    if rng.below(5) == 0 {
                        rng.below(u64::from(branches)) as u32
                    } else {
                        (start + rng.below(u64::from(block)) as u32) % branches
                    }
                })
                .collect();
            Candidate { id: PathId(id), branches: bs }
        })
        .collect()
}

/// The sorted uncovered branches `sel.paths` traverse.
fn union(c: &[Candidate<u32>], paths: &[PathId], uncovered: &BTreeSet<u32>) -> Vec<u32> {
    let chosen: BTreeSet<PathId> = paths.iter().copied().collect();
    let u: BTreeSet<u32> = c
        .iter()
        .filter(|p| chosen.contains(&p.id))
        .flat_map(|p| p.branches.iter().copied())
        .filter(|b| uncovered.contains(b))
        .collect();
    u.into_iter().collect()
}

/// The minimum cover size by exhaustive search over subsets (small instances only).
fn brute_force_minimum(c: &[Candidate<u32>], uncovered: &BTreeSet<u32>) -> usize {
    let target = union(c, &c.iter().map(|p| p.id).collect::<Vec<_>>(), uncovered);
    let mut best = c.len();
    for mask in 0u32..(1 << c.len()) {
        let k = mask.count_ones() as usize;
        if k >= best {
            continue;
        }
        let paths: Vec<PathId> = (0..c.len()).filter(|i| mask & (1 << i) != 0).map(|i| c[i].id).collect();
        if union(c, &paths, uncovered) == target {
            best = k;
        }
    }
    best
}

#[test]
fn ilp_matches_exhaustive_search_on_small_random_instances() {
    for seed in 0..60 {
        let c = random_instance(seed, 12, 14, 6);
        // Every other branch uncovered, so the restriction to `uncovered` is exercised too.
        let uncovered: BTreeSet<u32> = (0..14).filter(|b| b % 2 == 0 || seed % 3 == 0).collect();
        let sel = select(&c, &uncovered, &BTreeSet::new(), &SelectConfig::paper());
        assert_eq!(sel.method, Method::Ilp, "seed {seed}");
        assert_eq!(sel.paths.len(), brute_force_minimum(&c, &uncovered), "seed {seed}");
        assert_eq!(sel.covered, union(&c, &sel.paths, &uncovered), "seed {seed}");
        assert_eq!(sel.covered, union(&c, &c.iter().map(|p| p.id).collect::<Vec<_>>(), &uncovered));
    }
}

#[test]
fn shuffled_candidates_give_the_same_selection() {
    let c = random_instance(7, 60, 40, 8);
    let uncovered: BTreeSet<u32> = (0..40).collect();
    let none = BTreeSet::new();
    let want = select(&c, &uncovered, &none, &SelectConfig::paper());
    let want_greedy = greedy(&c, &uncovered, &none);
    let mut rng = Lcg(99);
    for _ in 0..5 {
        let mut shuffled = c.clone();
        // Fisher-Yates, each candidate's branches reversed as well.
        for i in (1..shuffled.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            shuffled.swap(i, j);
        }
        for p in &mut shuffled {
            p.branches.reverse();
        }
        assert_eq!(select(&shuffled, &uncovered, &none, &SelectConfig::paper()), want);
        assert_eq!(greedy(&shuffled, &uncovered, &none), want_greedy);
    }
}

/// A program for [`sushi_instance`]: `methods` methods of `sites` jump sites each; site `s`'s
/// two outcomes are branches `2s` and `2s + 1`.
struct Program {
    sites: u32,
    /// The (site, outcome) a site is nested under; `None` at the top level of its method.
    parent: Vec<Option<(u32, u32)>>,
    /// The method a site calls after its jump, if any (a callee shared by several methods).
    callee: Vec<Option<u32>>,
}

impl Program {
    fn random(rng: &mut Lcg, methods: u32, sites: u32) -> Program {
        let n = (methods * sites) as usize;
        let (mut parent, mut callee) = (vec![None; n], vec![None; n]);
        for s in 0..methods * sites {
            let first = s - s % sites;
            if s > first && rng.below(2) == 0 {
                let p = first + rng.below(u64::from(s - first)) as u32;
                parent[s as usize] = Some((p, rng.below(2) as u32));
            }
            if rng.below(5) == 0 {
                callee[s as usize] = Some(rng.below(u64::from(methods)) as u32);
            }
        }
        Program { sites, parent, callee }
    }

    /// One path through method `m`: a random outcome at every site it reaches, callees entered
    /// up to two calls deep.
    fn walk(&self, m: u32, depth: u32, rng: &mut Lcg, out: &mut Vec<u32>) {
        let mut taken = std::collections::BTreeMap::new();
        for s in m * self.sites..(m + 1) * self.sites {
            if let Some((p, o)) = self.parent[s as usize]
                && taken.get(&p) != Some(&o)
            {
                continue;
            }
            let o = rng.below(2) as u32;
            taken.insert(s, o);
            out.push(2 * s + o);
            if let Some(c) = self.callee[s as usize]
                && depth < 2
            {
                self.walk(c, depth + 1, rng, out);
            }
        }
    }
}

/// `paths` candidates shaped like symbolic execution's (digest §A.2.1 step 1): each enters one
/// method of a random [`Program`] and takes a random outcome at every jump it reaches, so paths of
/// a method share branches, nested jumps are reached only under one outcome of their parent, and
/// shared callees tie methods together.
fn sushi_instance(seed: u64, paths: u32, methods: u32, sites: u32) -> Vec<Candidate<u32>> {
    let mut rng = Lcg(seed);
    let program = Program::random(&mut rng, methods, sites);
    (0..paths)
        .map(|id| {
            let mut branches = Vec::new();
            let m = rng.below(u64::from(methods)) as u32;
            program.walk(m, 0, &mut rng, &mut branches);
            Candidate { id: PathId(id), branches }
        })
        .collect()
}

/// (seed, ILP paths, greedy paths) of 200 paths over 15 methods × 5 jumps (150 branches).
const MEDIUM: &[(u64, usize, usize)] = &[(0, 16, 17), (1, 26, 28), (2, 28, 31), (3, 23, 26), (4, 20, 25)];

#[test]
fn medium_random_instances_are_solved_exactly_and_quickly() {
    let uncovered: BTreeSet<u32> = (0..150).collect();
    let none = BTreeSet::new();
    for &(seed, ilp_size, greedy_size) in MEDIUM {
        let c = sushi_instance(seed, 200, 15, 5);
        let all_paths: Vec<PathId> = c.iter().map(|p| p.id).collect();
        let coverable = union(&c, &all_paths, &uncovered);

        let start = Instant::now();
        let ilp = select(&c, &uncovered, &none, &SelectConfig::paper());
        let ilp_time = start.elapsed();
        let start = Instant::now();
        let g = greedy(&c, &uncovered, &none);
        let greedy_time = start.elapsed();
        eprintln!(
            "seed {seed}, 200 paths x 150 branches ({} coverable): ILP {} paths in {ilp_time:?}, greedy {} in {greedy_time:?}",
            coverable.len(),
            ilp.paths.len(),
            g.paths.len()
        );

        assert_eq!(ilp.method, Method::Ilp, "seed {seed}");
        assert_eq!((ilp.paths.len(), g.paths.len()), (ilp_size, greedy_size), "seed {seed}");
        assert_eq!(ilp.covered, coverable);
        assert_eq!(union(&c, &ilp.paths, &uncovered), coverable);
        assert_eq!(g.covered, coverable);
        let left: Vec<u32> = uncovered.iter().copied().filter(|b| !coverable.contains(b)).collect();
        assert_eq!(ilp.uncoverable, left);
        // Generous for a loaded 2-core machine (the node limit is what bounds the work); the
        // measured time is printed above.
        assert!(ilp_time.as_secs_f64() < 5.0, "seed {seed}: ILP took {ilp_time:?}");

        // The next round of §A.2.6: the selected paths tried, the odd branches still uncovered.
        let tried: BTreeSet<PathId> = ilp.paths.iter().copied().collect();
        let still: BTreeSet<u32> = uncovered.iter().copied().filter(|b| b % 2 == 1).collect();
        let next = select(&c, &still, &tried, &SelectConfig::paper());
        assert_eq!(next.method, Method::Ilp, "seed {seed}");
        assert!(next.paths.iter().all(|p| !tried.contains(p)));
        let untried: Vec<PathId> = all_paths.iter().copied().filter(|p| !tried.contains(p)).collect();
        assert_eq!(next.covered, union(&c, &untried, &still));
        assert!(next.paths.len() <= greedy(&c, &still, &tried).paths.len());
    }
}

/// Unstructured random set cover of the same size is much harder for branch and bound (its LP
/// bound is far from the optimum): the node limit stops it, and what comes back is still a cover
/// no larger than the greedy one, the same on every run.
#[test]
fn node_limit_never_does_worse_than_greedy() {
    let c = random_instance(2024, 200, 150, 12);
    let uncovered: BTreeSet<u32> = (0..150).collect();
    let none = BTreeSet::new();
    let g = greedy(&c, &uncovered, &none);
    for nodes in [0, 1, 10, SelectConfig::paper().max_ilp_nodes] {
        let cfg = SelectConfig { max_ilp_nodes: nodes, ..SelectConfig::paper() };
        let start = Instant::now();
        let sel = select(&c, &uncovered, &none, &cfg);
        eprintln!(
            "{nodes} nodes: {} paths ({:?}) in {:?}, greedy {}",
            sel.paths.len(),
            sel.method,
            start.elapsed(),
            g.paths.len()
        );
        assert!(sel.paths.len() <= g.paths.len(), "{nodes} nodes: {:?}", sel.method);
        assert_eq!(sel.covered, g.covered);
        match &sel.method {
            Method::Ilp | Method::IlpIncumbent { .. } => {}
            Method::Greedy { reason: GreedyReason::NodeLimit { .. } } => assert_eq!(sel.paths, g.paths),
            other => panic!("{nodes} nodes: unexpected {other:?}"),
        }
        assert_eq!(select(&c, &uncovered, &none, &cfg), sel, "{nodes} nodes: not deterministic");
    }
}
