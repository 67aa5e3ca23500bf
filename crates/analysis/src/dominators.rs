//! Dominator trees. [`DomTree::compute`] is the iterative algorithm of Cooper, Harvey and Kennedy,
//! "A Simple, Fast Dominance Algorithm" (Software Practice and Experience, 2001): idoms are refined
//! in reverse postorder with the two-finger `intersect` until a fixed point. [`DomTree::compute_reference`]
//! is the textbook set-based data-flow formulation (Dom(n) = {n} ∪ ⋂ Dom(p) over predecessors p),
//! quadratic and kept only to cross-check the fast one in tests (STYLE.md rule 7, as Cranelift's
//! `dominator_tree/simple.rs`). Nodes not reachable from the root have no dominator and dominate
//! nothing. No recursion: every walk uses an explicit stack.

use crate::graph::{Graph, NodeId};

/// The dominator tree of a graph (or, for `post_dominators`, of its reverse), rooted at the entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomTree {
    root: NodeId,
    /// Immediate dominator; `None` for the root and for unreachable nodes.
    idom: Vec<Option<NodeId>>,
    reachable: Vec<bool>,
    children: Vec<Vec<NodeId>>,
    /// Pre- and post-order numbers in the tree, for O(1) `dominates` queries.
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl DomTree {
    /// Dominators of `g` from its entry by the Cooper–Harvey–Kennedy algorithm.
    pub fn compute(g: &Graph) -> DomTree {
        let n = g.n_nodes();
        let root = g.entry();
        let rpo = g.reverse_postorder();
        DomTree::from_idoms(n, root, chk_idoms(n, &rpo, |x| g.preds(x)))
    }

    /// Dominators of `g` by the simple set-based data-flow algorithm; same result as
    /// [`DomTree::compute`], much slower. For cross-checking only.
    pub fn compute_reference(g: &Graph) -> DomTree {
        let n = g.n_nodes();
        let root = g.entry();
        let rpo = g.reverse_postorder();
        DomTree::from_idoms(n, root, reference_idoms(n, root, &rpo, |x| g.preds(x)))
    }

    /// Builds the tree from immediate dominators (`idom[root]` and unreachable nodes are `None`).
    pub(crate) fn from_idoms(n: usize, root: NodeId, idom: Vec<Option<NodeId>>) -> DomTree {
        let mut children = vec![Vec::new(); n];
        let mut reachable = vec![false; n];
        if root.index() < n {
            reachable[root.index()] = true;
        }
        for (i, d) in idom.iter().enumerate() {
            if let Some(d) = d {
                children[d.index()].push(NodeId(i as u32));
                reachable[i] = true;
            }
        }
        // Number the tree with an explicit stack: pre on the way down, post on the way up.
        let mut pre = vec![u32::MAX; n];
        let mut post = vec![u32::MAX; n];
        if root.index() < n {
            let mut counter_pre = 0u32;
            let mut counter_post = 0u32;
            let mut stack = vec![(root, 0usize)];
            pre[root.index()] = counter_pre;
            counter_pre += 1;
            while let Some((node, pos)) = stack.last_mut() {
                let node = *node;
                if let Some(&c) = children[node.index()].get(*pos) {
                    *pos += 1;
                    pre[c.index()] = counter_pre;
                    counter_pre += 1;
                    stack.push((c, 0));
                } else {
                    post[node.index()] = counter_post;
                    counter_post += 1;
                    stack.pop();
                }
            }
        }
        DomTree { root, idom, reachable, children, pre, post }
    }

    pub fn root(&self) -> NodeId {
        self.root
    }

    pub fn n_nodes(&self) -> usize {
        self.idom.len()
    }

    /// The immediate dominator of `n`; `None` for the root and for nodes unreachable from it.
    pub fn idom(&self, n: NodeId) -> Option<NodeId> {
        self.idom[n.index()]
    }

    /// Whether `n` is reachable from the root (and so has dominators).
    pub fn is_reachable(&self, n: NodeId) -> bool {
        self.reachable[n.index()]
    }

    /// The nodes immediately dominated by `n`, in increasing node order.
    pub fn children(&self, n: NodeId) -> &[NodeId] {
        &self.children[n.index()]
    }

    /// Whether `a` dominates `b` (reflexive). False when either is unreachable.
    pub fn dominates(&self, a: NodeId, b: NodeId) -> bool {
        self.reachable[a.index()]
            && self.reachable[b.index()]
            && self.pre[a.index()] <= self.pre[b.index()]
            && self.post[b.index()] <= self.post[a.index()]
    }

    /// Whether `a` dominates `b` and differs from it.
    pub fn strictly_dominates(&self, a: NodeId, b: NodeId) -> bool {
        a != b && self.dominates(a, b)
    }
}

/// The CHK iteration. `rpo` lists the reachable nodes in reverse postorder, root first.
fn chk_idoms<'a>(n: usize, rpo: &[NodeId], preds: impl Fn(NodeId) -> &'a [NodeId]) -> Vec<Option<NodeId>> {
    const UNDEF: u32 = u32::MAX;
    // Work in RPO numbers: the root is 0 and `intersect` moves the finger with the larger number up.
    let mut rpo_num = vec![UNDEF; n];
    for (i, &x) in rpo.iter().enumerate() {
        rpo_num[x.index()] = i as u32;
    }
    let mut doms = vec![UNDEF; rpo.len()]; // indexed by RPO number, holds an RPO number
    if rpo.is_empty() {
        return vec![None; n];
    }
    doms[0] = 0;
    let intersect = |doms: &[u32], mut a: u32, mut b: u32| {
        while a != b {
            while a > b {
                a = doms[a as usize];
            }
            while b > a {
                b = doms[b as usize];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for (i, &x) in rpo.iter().enumerate().skip(1) {
            let mut new_idom = UNDEF;
            for &p in preds(x) {
                let pn = rpo_num[p.index()];
                if pn == UNDEF || doms[pn as usize] == UNDEF {
                    continue; // unreachable or not yet processed
                }
                new_idom = if new_idom == UNDEF { pn } else { intersect(&doms, pn, new_idom) };
            }
            if new_idom != UNDEF && doms[i] != new_idom {
                doms[i] = new_idom;
                changed = true;
            }
        }
    }
    let mut idom = vec![None; n];
    for (i, &x) in rpo.iter().enumerate().skip(1) {
        if doms[i] != UNDEF {
            idom[x.index()] = Some(rpo[doms[i] as usize]);
        }
    }
    idom
}

/// The reference algorithm over bit sets: iterate Dom(x) = {x} ∪ ⋂ Dom(p) to a fixed point, then
/// pick as idom the strict dominator with the most dominators itself (the deepest one).
fn reference_idoms<'a>(
    n: usize,
    root: NodeId,
    rpo: &[NodeId],
    preds: impl Fn(NodeId) -> &'a [NodeId],
) -> Vec<Option<NodeId>> {
    let words = n.div_ceil(64);
    let mut reachable = vec![false; n];
    for &x in rpo {
        reachable[x.index()] = true;
    }
    let full: Vec<u64> = (0..words)
        .map(|w| {
            let lo = w * 64;
            let bits = (n - lo).min(64);
            if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 }
        })
        .collect();
    let mut dom: Vec<Vec<u64>> = vec![full; n];
    if root.index() < n {
        dom[root.index()] = vec![0; words];
        dom[root.index()][root.index() / 64] |= 1 << (root.index() % 64);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &x in rpo {
            if x == root {
                continue;
            }
            let mut acc: Option<Vec<u64>> = None;
            for &p in preds(x) {
                if !reachable[p.index()] {
                    continue;
                }
                match &mut acc {
                    None => acc = Some(dom[p.index()].clone()),
                    Some(a) => {
                        for (w, v) in a.iter_mut().zip(&dom[p.index()]) {
                            *w &= v;
                        }
                    }
                }
            }
            let mut new = acc.unwrap_or_else(|| vec![0; words]);
            new[x.index() / 64] |= 1 << (x.index() % 64);
            if new != dom[x.index()] {
                dom[x.index()] = new;
                changed = true;
            }
        }
    }
    let count = |s: &[u64]| s.iter().map(|w| w.count_ones()).sum::<u32>();
    let mut idom = vec![None; n];
    for &x in rpo {
        if x == root {
            continue;
        }
        let set = &dom[x.index()];
        let mut best: Option<(u32, NodeId)> = None;
        for d in 0..n {
            if d != x.index() && set[d / 64] & (1 << (d % 64)) != 0 {
                let c = count(&dom[d]);
                if best.is_none_or(|(bc, _)| c > bc) {
                    best = Some((c, NodeId(d as u32)));
                }
            }
        }
        idom[x.index()] = best.map(|(_, d)| d);
    }
    idom
}
