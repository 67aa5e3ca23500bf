//! Candidates of one DSE application (paper 004 §III.B, digest B.2.2 steps 4–6): for a replay's
//! path condition p1 ∧ … ∧ pn and an entry i whose other side is a goal of the search, the query
//! p1 ∧ … ∧ p(i−1) ∧ ¬pi (for a switch, the prefix and the condition of each other case). With the
//! filter on (004's best configuration) only goals the search has not covered are kept: the side
//! the run took is covered by the test itself, so these are the one-sided branches. Queries are
//! ranked by size (conjuncts), smallest first, ties in the order they were found; a query with the
//! same goal and the same negated condition as one queued before in the application is dropped.
//!
//! Exploration (our addition, docs/dse.md): with the filter on, a branch whose other side the
//! search has covered, and an implicit exception check (whose sides have no goals), is still
//! queued, after every target, as an *exploration*: its model makes a test that is replayed in the
//! interpreter only (never run or kept), whose own candidates may reach goals the seed's path
//! could not. Explorations go depth first (see `Queue`). The search often covers a branch with a test whose values
//! are not inputs (`linear(r, r, 1000003)` with `r` a method's result), and the branches behind it
//! then need a test that takes the same branch with input values.

use std::collections::{BTreeMap, BTreeSet};

use search::GoalIdx;
use solver::{Arena, ExprId, Op, VarId};
use symbolic::{EntryKind, Replay};

/// Negated conditions of more nodes (as a tree) are not compared across replays (their text would
/// be costly to build); within a replay the arena's hash-consing makes equal conditions one node.
const MAX_KEY_NODES: usize = 256;

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
    pub fn constraints(&self, replay: &Replay) -> Vec<ExprId> {
        let arena = &replay.arena;
        let mut vars: BTreeSet<VarId> = arena.vars_of(&[self.negated]).into_iter().collect();
        let conds: Vec<(ExprId, Vec<VarId>)> =
            replay.path[..self.prefix].iter().map(|e| (e.cond, arena.vars_of(&[e.cond]))).collect();
        let mut taken = vec![false; conds.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for (i, (_, vs)) in conds.iter().enumerate() {
                if !taken[i] && vs.iter().any(|v| vars.contains(v)) {
                    taken[i] = true;
                    vars.extend(vs.iter().copied());
                    changed = true;
                }
            }
        }
        let mut c: Vec<ExprId> = conds.iter().zip(&taken).filter(|(_, t)| **t).map(|((e, _), _)| *e).collect();
        c.push(self.negated);
        c
    }
}

/// The text of `e` with variables by name (names say which input they are, the same in every
/// replay of the run), or `None` past `budget` nodes (counted as a tree: shared nodes again).
fn key_text(arena: &Arena, e: ExprId, budget: &mut usize) -> Option<String> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    if let Some(v) = arena.as_const(e) {
        return Some(format!("{v:?}"));
    }
    if let Some(v) = arena.as_var(e) {
        return Some(arena.vars().get(v.0 as usize).map_or_else(|| format!("{v:?}"), |(_, n)| n.clone()));
    }
    let (op, args) = arena.as_app(e)?;
    let mut out = format!("({op:?}");
    for &a in args {
        out.push(' ');
        out.push_str(&key_text(arena, a, budget)?);
    }
    out.push(')');
    Some(out)
}

/// What makes two queries duplicates: the goal and the negated condition (its text when small,
/// else the node of its replay).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Text(String),
    Node(usize, ExprId),
}

/// The queue of one application, and the keys seen. Targets come first, by size then arrival;
/// explorations after them, depth first: the latest replay's first, and in a replay the deepest
/// entry first (getting past the check where the run stopped, a parse one character at a time,
/// goes deeper each time).
#[derive(Debug, Default)]
pub struct Queue {
    queued: BTreeMap<(bool, u64, u64, u64), Candidate>,
    seen: BTreeSet<(Option<GoalIdx>, Key)>,
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
                let key = match key_text(&replay.arena, negated, &mut MAX_KEY_NODES.clone()) {
                    Some(text) => Key::Text(text),
                    None => Key::Node(index, negated),
                };
                if !self.seen.insert((goal, key)) {
                    self.duplicates += 1;
                    continue;
                }
                let c = Candidate { replay: index, prefix: i, negated, goal, explore };
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
