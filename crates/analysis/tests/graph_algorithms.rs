//! Property tests of the generic graph algorithms: on thousands of seeded random graphs, the fast
//! (Cooper–Harvey–Kennedy) and reference (set-based) dominator and post-dominator trees agree, both
//! agree with the definition checked by brute force (a dominates b iff b is unreachable once a is
//! removed), and control dependence agrees with the definition of Ferrante et al. (y depends on
//! edge a->b iff y post-dominates b and y does not strictly post-dominate a). Plus a few small
//! hand-checked graphs.

use analysis::{ControlDep, ControlDeps, DomTree, EdgeId, Graph, NodeId, PostDomTree};

/// SplitMix64: a tiny deterministic PRNG, so the test needs no dependency and never changes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random graph shaped a bit like a CFG: mostly forward edges, some back edges, some exits,
/// sometimes parallel edges, self loops and unreachable nodes.
fn random_graph(rng: &mut Rng) -> Graph {
    let n = 1 + rng.below(24) as usize;
    let mut succs = vec![Vec::new(); n];
    for (i, list) in succs.iter_mut().enumerate() {
        let k = match rng.below(10) {
            0 | 1 => 0,
            2..=5 => 1,
            6..=8 => 2,
            _ => 3,
        };
        for _ in 0..k {
            let to = if rng.below(4) == 0 || i + 1 >= n {
                rng.below(n as u64) as usize
            } else {
                i + 1 + rng.below((n - i - 1) as u64) as usize
            };
            list.push(NodeId(to as u32));
        }
    }
    Graph::from_succs(&succs, NodeId(0))
}

/// Nodes reachable from `from` in `g` without passing through `removed`.
fn reachable_avoiding(
    n: usize,
    from: NodeId,
    removed: Option<NodeId>,
    succs: &dyn Fn(NodeId) -> Vec<NodeId>,
) -> Vec<bool> {
    let mut seen = vec![false; n];
    if Some(from) == removed {
        return seen;
    }
    seen[from.index()] = true;
    let mut stack = vec![from];
    while let Some(x) = stack.pop() {
        for y in succs(x) {
            if Some(y) != removed && !seen[y.index()] {
                seen[y.index()] = true;
                stack.push(y);
            }
        }
    }
    seen
}

/// Checks a dominator tree against the brute-force definition on a graph given by `succs`.
fn check_against_definition(n: usize, root: NodeId, succs: &dyn Fn(NodeId) -> Vec<NodeId>, t: &DomTree) {
    let reach = reachable_avoiding(n, root, None, succs);
    for a in 0..n {
        let a = NodeId(a as u32);
        let without_a = reachable_avoiding(n, root, Some(a), succs);
        for b in 0..n {
            let b = NodeId(b as u32);
            let expected = reach[a.index()] && reach[b.index()] && (a == b || !without_a[b.index()]);
            assert_eq!(t.dominates(a, b), expected, "dominates({a:?}, {b:?})");
        }
        assert_eq!(t.is_reachable(a), reach[a.index()]);
    }
}

#[test]
fn fast_and_reference_agree_on_random_graphs() {
    let mut rng = Rng(0x5EED_0001);
    let mut n_virtual = 0;
    for _ in 0..3000 {
        let g = random_graph(&mut rng);
        let n = g.n_nodes();
        let fast = DomTree::compute(&g);
        let reference = DomTree::compute_reference(&g);
        assert_eq!(fast, reference, "dominators of {g:?}");
        check_against_definition(n, g.entry(), &|x| g.succs(x).collect(), &fast);

        let pfast = PostDomTree::compute(&g);
        let pref = PostDomTree::compute_reference(&g);
        assert_eq!(pfast, pref, "post-dominators of {g:?}");
        n_virtual += pfast.virtual_exits().len();
        // Every real node has an immediate post-dominator (the graph is made total).
        for x in g.nodes() {
            assert!(pfast.ipdom(x).is_some(), "{x:?} has no ipdom in {g:?}");
        }
        // Post-dominance is dominance from the exit on the reverse graph with the virtual edges.
        let exit = pfast.exit();
        let virtual_exits = pfast.virtual_exits().to_vec();
        let rev_succs = |x: NodeId| -> Vec<NodeId> {
            if x == exit {
                g.nodes().filter(|&y| g.succ_edges(y).is_empty() || virtual_exits.contains(&y)).collect()
            } else {
                g.preds(x).to_vec()
            }
        };
        check_against_definition(n + 1, exit, &rev_succs, pfast.tree());

        let cd = ControlDeps::compute(&g, &pfast);
        for e in 0..g.n_edges() {
            let e = EdgeId(e as u32);
            let (a, b) = g.edge(e);
            for y in g.nodes() {
                let expected = pfast.post_dominates(y, b) && !(y != a && pfast.post_dominates(y, a));
                assert_eq!(cd.deps(y).contains(&ControlDep::Edge(e)), expected, "{y:?} on {e:?} in {g:?}");
                assert_eq!(cd.dependents(e).contains(&y), expected);
            }
        }
        for y in g.nodes() {
            let expected = fast.is_reachable(y) && pfast.post_dominates(y, g.entry());
            assert_eq!(cd.deps(y).contains(&ControlDep::Entry), expected);
        }
    }
    // The generator must exercise the infinite-loop handling, or the test proves less than it says.
    assert!(n_virtual > 100, "only {n_virtual} virtual exits");
}

fn graph(succs: &[&[u32]]) -> Graph {
    let succs: Vec<Vec<NodeId>> = succs.iter().map(|l| l.iter().map(|&x| NodeId(x)).collect()).collect();
    Graph::from_succs(&succs, NodeId(0))
}

fn idoms(t: &DomTree, n: usize) -> Vec<Option<u32>> {
    (0..n).map(|x| t.idom(NodeId(x as u32)).map(|d| d.0)).collect()
}

#[test]
fn diamond_with_loop() {
    // 0: if -> 1 | 2; 1 -> 3; 2 -> 3; 3: loop head -> 4 | 5; 4 -> 3; 5: return.
    let g = graph(&[&[1, 2], &[3], &[3], &[4, 5], &[3], &[]]);
    let d = DomTree::compute(&g);
    assert_eq!(idoms(&d, 6), vec![None, Some(0), Some(0), Some(0), Some(3), Some(3)]);
    let p = PostDomTree::compute(&g);
    assert_eq!(idoms(p.tree(), 7), vec![Some(3), Some(3), Some(3), Some(5), Some(3), Some(6), None]);
    assert!(p.virtual_exits().is_empty());
    let cd = ControlDeps::compute(&g, &p);
    let e = |i| ControlDep::Edge(EdgeId(i));
    // Edges: 0:(0,1) 1:(0,2) 2:(1,3) 3:(2,3) 4:(3,4) 5:(3,5) 6:(4,3).
    assert_eq!(cd.deps(NodeId(0)), &[ControlDep::Entry]);
    assert_eq!(cd.deps(NodeId(1)), &[e(0)]);
    assert_eq!(cd.deps(NodeId(2)), &[e(1)]);
    assert_eq!(cd.deps(NodeId(3)), &[ControlDep::Entry, e(4)]);
    assert_eq!(cd.deps(NodeId(4)), &[e(4)]);
    assert_eq!(cd.deps(NodeId(5)), &[ControlDep::Entry]);
}

#[test]
fn infinite_loop_gets_a_virtual_exit_at_its_latch() {
    // 0 -> 1; 1: if -> 2 | 3; 2 -> 4; 3 -> 4; 4 -> 1 (latch, no way out).
    let g = graph(&[&[1], &[2, 3], &[4], &[4], &[1]]);
    let p = PostDomTree::compute(&g);
    assert_eq!(p.virtual_exits(), &[NodeId(4)]);
    assert_eq!(idoms(p.tree(), 6), vec![Some(1), Some(4), Some(4), Some(4), Some(5), None]);
    let cd = ControlDeps::compute(&g, &p);
    // Edges: 0:(0,1) 1:(1,2) 2:(1,3) 3:(2,4) 4:(3,4) 5:(4,1).
    assert_eq!(cd.deps(NodeId(2)), &[ControlDep::Edge(EdgeId(1))]);
    assert_eq!(cd.deps(NodeId(1)), &[ControlDep::Entry, ControlDep::Edge(EdgeId(5))]);
    assert_eq!(cd.deps(NodeId(4)), &[ControlDep::Entry, ControlDep::Edge(EdgeId(5))]);
}

#[test]
fn deep_chain_does_not_overflow_the_stack() {
    let n = 200_000u32;
    let succs: Vec<Vec<NodeId>> =
        (0..n).map(|i| if i + 1 < n { vec![NodeId(i + 1)] } else { vec![] }).collect();
    let g = Graph::from_succs(&succs, NodeId(0));
    let d = DomTree::compute(&g);
    assert_eq!(d.idom(NodeId(n - 1)), Some(NodeId(n - 2)));
    let p = PostDomTree::compute(&g);
    assert_eq!(p.ipdom(NodeId(0)), Some(NodeId(1)));
    let cd = ControlDeps::compute(&g, &p);
    assert_eq!(cd.deps(NodeId(n / 2)), &[ControlDep::Entry]);
}
