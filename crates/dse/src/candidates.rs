//! Candidates of one DSE application (paper 004 §III.B, digest B.2.2 steps 4–6): for a replay's
//! path condition p1 ∧ … ∧ pn and an entry i whose other side is a goal of the search, the query
//! p1 ∧ … ∧ p(i−1) ∧ ¬pi (for a switch, the prefix and the condition of each other case). With the
//! filter on (004's best configuration) only goals the search has not covered are kept: the side
//! the run took is covered by the test itself, so these are the one-sided branches. Queries are
//! ranked by size (conjuncts), smallest first, ties in the order they were found; a query with the
//! same goal and the same negated condition as one queued before in the application, or one the
//! solver gave up on in an earlier application, is dropped.
//!
//! Exploration (our addition, docs/dse.md): with the filter on, a branch whose other side the
//! search has covered, and an implicit exception check (whose sides have no goals), is still
//! queued, after every target, as an *exploration*: its model makes a test that is replayed in the
//! interpreter only (never run or kept), whose own candidates may reach goals the seed's path
//! could not. Explorations go depth first (see `Queue`). The search often covers a branch with a test whose values
//! are not inputs (`linear(r, r, 1000003)` with `r` a method's result), and the branches behind it
//! then need a test that takes the same branch with input values.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use search::GoalIdx;
use solver::{Arena, ExprId, Op, VarId};
use symbolic::{EntryKind, Replay};

/// One query: conjuncts `0..prefix` of replay `replay`'s path, and `negated` (a Bool expression of
/// the same replay's arena, already negated), meant to cover `goal`; or, when `explore`, to take a
/// covered branch (or an implicit exception check, which has no goal) the other way and find, from
/// the test it makes, paths to goals still missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub replay: usize,
    pub prefix: usize,
    pub negated: ExprId,
    pub goal: Option<GoalIdx>,
    pub explore: bool,
    /// What makes it a duplicate (`Queue`).
    pub key: Key,
}

/// What a negation is worth (`Queue::add_replay`'s classification of its goal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Worth {
    /// A goal the search misses: solve, run, keep if new.
    Target,
    /// A covered goal: solve and replay only, for the paths behind it (after every target).
    Explore,
    Skip,
}

impl Candidate {
    /// Conjuncts of the query.
    pub fn size(&self) -> usize {
        self.prefix + 1
    }

    /// The query's constraints: the negated condition and the conjuncts of the prefix that share
    /// variables with it, directly or through other such conjuncts (KLEE's constraint
    /// independence). The others hold on the test's own values, which the substitution keeps for
    /// every variable the model leaves out, so the answer is the same and the query smaller.
    /// Merged jumps (`PcEntry::merged`) are never conjuncts: the values they chose are `ite`s.
    pub fn constraints(&self, replay: &Replay) -> Vec<ExprId> {
        self.constraints_with(replay, &entry_vars(replay))
    }

    /// `constraints` with the variables of each path entry computed once for the replay
    /// (`entry_vars`): an application asks for many queries of one replay, and each entry's
    /// condition may be a large DAG.
    pub fn constraints_with(&self, replay: &Replay, entry_vars: &[Vec<VarId>]) -> Vec<ExprId> {
        let arena = &replay.arena;
        let mut vars: BTreeSet<VarId> = arena.vars_of(&[self.negated]).into_iter().collect();
        let conds = &entry_vars[..self.prefix];
        // A merged jump counts as taken already, so that it is never added.
        let mut taken: Vec<bool> = replay.path[..self.prefix].iter().map(|e| e.merged).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for (i, vs) in conds.iter().enumerate() {
                if !taken[i] && vs.iter().any(|v| vars.contains(v)) {
                    taken[i] = true;
                    vars.extend(vs.iter().copied());
                    changed = true;
                }
            }
        }
        let mut c: Vec<ExprId> = replay.path[..self.prefix]
            .iter()
            .zip(&taken)
            .filter(|(e, t)| **t && !e.merged)
            .map(|(e, _)| e.cond)
            .collect();
        c.push(self.negated);
        c
    }
}

/// The variables of each path entry's condition, in path order (`Candidate::constraints_with`).
/// One walk for the whole path: each node's variables are computed once, from its arguments',
/// and the conditions of a long path share most of their nodes (walking each condition on its own
/// was quadratic in the path: docs/benchmarks.md).
pub fn entry_vars(replay: &Replay) -> Vec<Vec<VarId>> {
    let arena = &replay.arena;
    let mut memo: BTreeMap<ExprId, Rc<Vec<VarId>>> = BTreeMap::new();
    replay.path.iter().map(|e| vars_memo(arena, e.cond, &mut memo).to_vec()).collect()
}

/// The variables of `e`, sorted, with every node's kept in `memo` (post-order, explicit stack).
fn vars_memo(arena: &Arena, e: ExprId, memo: &mut BTreeMap<ExprId, Rc<Vec<VarId>>>) -> Rc<Vec<VarId>> {
    let mut stack = vec![(e, false)];
    while let Some((x, ready)) = stack.pop() {
        if memo.contains_key(&x) {
            continue;
        }
        let vars = if let Some(v) = arena.as_var(x) {
            Rc::new(vec![v])
        } else if let Some((_, args)) = arena.as_app(x) {
            if !ready {
                stack.push((x, true));
                stack.extend(args.iter().filter(|a| !memo.contains_key(a)).map(|&a| (a, false)));
                continue;
            }
            let parts: Vec<&Rc<Vec<VarId>>> = args.iter().filter_map(|a| memo.get(a)).collect();
            match parts.as_slice() {
                [] => Rc::new(Vec::new()),
                [one] => Rc::clone(one),
                many => {
                    let set: BTreeSet<VarId> = many.iter().flat_map(|p| p.iter().copied()).collect();
                    Rc::new(set.into_iter().collect())
                }
            }
        } else {
            Rc::new(Vec::new())
        };
        memo.insert(x, vars);
    }
    memo.get(&e).cloned().unwrap_or_default()
}

/// A structural hash of `e`, so that equal conditions of different replays meet: each node hashed
/// once (the DAG's size, never its unfolded tree), post-order with an explicit stack. Variables
/// count by name (names say which input they are, the same in every replay of the run), so a
/// node's hash does not depend on what else is hashed: `memo` is kept across the conditions of a
/// replay (`Queue::add_replay`), whose shared sub-DAGs are then hashed once, not once per
/// condition (on long paths that repetition was most of DSE's time: docs/benchmarks.md).
fn structural_hash(arena: &Arena, e: ExprId, memo: &mut BTreeMap<ExprId, u64>) -> u64 {
    let mut stack = vec![(e, false)];
    while let Some((x, ready)) = stack.pop() {
        if memo.contains_key(&x) {
            continue;
        }
        let h = if let Some(v) = arena.as_const(x) {
            mix(fnv(format!("{v:?}").as_bytes()), 1)
        } else if let Some(v) = arena.as_var(x) {
            let id = fnv(arena.vars().get(v.0 as usize).map_or("?", |(_, n)| n.as_str()).as_bytes());
            mix(mix(id, fnv(format!("{:?}", arena.sort(x)).as_bytes())), 2)
        } else if let Some((op, args)) = arena.as_app(x) {
            if !ready {
                stack.push((x, true));
                stack.extend(args.iter().filter(|a| !memo.contains_key(a)).map(|&a| (a, false)));
                continue;
            }
            args.iter().fold(mix(fnv(format!("{op:?}").as_bytes()), 3), |h, a| {
                mix(h, memo.get(a).copied().unwrap_or(0))
            })
        } else {
            0
        };
        memo.insert(x, h);
    }
    memo.get(&e).copied().unwrap_or(0)
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn mix(h: u64, x: u64) -> u64 {
    let h = (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    (h ^ (h >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

/// What makes two queries duplicates: the goal and the negated condition's structural hash.
pub type Key = (Option<GoalIdx>, u64);

/// The queue of one application, and the keys seen. Targets come first, by size then arrival;
/// explorations after them, depth first: the latest replay's first, and in a replay the deepest
/// entry first (getting past the check where the run stopped, a parse one character at a time,
/// goes deeper each time).
#[derive(Debug, Default)]
pub struct Queue {
    queued: BTreeMap<(bool, u64, u64, u64), Candidate>,
    seen: BTreeSet<Key>,
    /// Keys whose query came back unknown in an earlier application: not tried again.
    pub hopeless: BTreeSet<Key>,
    arrivals: u64,
    /// Candidates queued and duplicates dropped so far.
    pub queued_total: u64,
    pub duplicates: u64,
}

impl Queue {
    /// Queues the candidates of replay `index` (see the module's doc). `goal_of` maps a model goal
    /// to the search's; `worth` says what a query for a goal is worth (the filter).
    pub fn add_replay(
        &mut self,
        index: usize,
        replay: &mut Replay,
        goal_of: &dyn Fn(goals::GoalId) -> Option<GoalIdx>,
        worth: &dyn Fn(GoalIdx) -> Worth,
    ) {
        let mut memo = BTreeMap::new();
        for i in 0..replay.path.len() {
            let cond = replay.path[i].cond;
            let targets: Vec<(Option<goals::GoalId>, ExprId)> = match replay.path[i].kind {
                EntryKind::Branch => match replay.path[i].negated_goal {
                    Some(g) => vec![(Some(g), replay.arena.mk(Op::Not, &[cond]))],
                    None => Vec::new(),
                },
                EntryKind::Switch => replay.path[i].cases.iter().map(|&(g, c)| (Some(g), c)).collect(),
                // The other side of an implicit check (the exception, or getting past it: a
                // parse that must succeed) has no goal of its own: explored only.
                EntryKind::Implicit => vec![(None, replay.arena.mk(Op::Not, &[cond]))],
                EntryKind::Pin | EntryKind::Assume => Vec::new(),
            };
            for (model_goal, negated) in targets {
                let goal = model_goal.and_then(goal_of);
                let explore = match goal.map_or(Worth::Explore, worth) {
                    Worth::Target => false,
                    Worth::Explore => true,
                    Worth::Skip => continue,
                };
                if replay.arena.as_const(negated).is_some() {
                    continue;
                }
                let key = (goal, structural_hash(&replay.arena, negated, &mut memo));
                if self.hopeless.contains(&key) || !self.seen.insert(key) {
                    self.duplicates += 1;
                    continue;
                }
                let c = Candidate { replay: index, prefix: i, negated, goal, explore, key };
                let order = if explore {
                    (true, u64::MAX - index as u64, u64::MAX - i as u64, self.arrivals)
                } else {
                    (false, c.size() as u64, 0, self.arrivals)
                };
                self.queued.insert(order, c);
                self.arrivals += 1;
                self.queued_total += 1;
            }
        }
    }

    /// An empty queue that drops the keys of `hopeless`.
    pub fn with_hopeless(hopeless: BTreeSet<Key>) -> Queue {
        Queue { hopeless, ..Queue::default() }
    }

    /// The smallest candidate left.
    pub fn pop(&mut self) -> Option<Candidate> {
        self.queued.pop_first().map(|(_, c)| c)
    }

    pub fn is_empty(&self) -> bool {
        self.queued.is_empty()
    }

    pub fn len(&self) -> usize {
        self.queued.len()
    }
}
