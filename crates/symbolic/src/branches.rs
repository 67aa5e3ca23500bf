//! From a jump or switch instruction of a planned method to its branch goals, as `goals` plans
//! them (crates/goals/src/family/jumps.rs): a conditional jump at `i` carries a `Branch*` probe at
//! `i`, unless it is the `if` of a `?cmp*` + `if<cond>` pair, whose `Cmp*` probe sits at the compare,
//! `i - 1`; each such probe serves `Goal::Branch { taken: true }` (the jump's own direction) and
//! `{ taken: false }`. A switch's `SwitchKey` probe serves one goal per distinct target, named by
//! the smallest key leading there, plus the default.

use std::collections::BTreeMap;
use std::sync::Arc;

use goals::{Detail, Goal, GoalId, MethodIdx, ProbeKind, ProbePlan, SwitchCase};

/// The goal of path entries that have none (see `PcEntry::goal`).
pub const NO_GOAL: GoalId = GoalId(u32::MAX);

/// The branch goals of one method, by instruction index of the jump or switch.
#[derive(Debug, Default)]
pub(crate) struct MethodGoals {
    /// (taken, fall-through) goals of each conditional jump.
    pub jumps: BTreeMap<u32, (GoalId, GoalId)>,
    pub switches: BTreeMap<u32, SwitchGoals>,
}

#[derive(Debug, Default)]
pub(crate) struct SwitchGoals {
    /// Keys leading elsewhere than the default, sorted, and the smallest key of each one's target.
    pub keys: Vec<i32>,
    pub target_key: Vec<i32>,
    pub key_goal: BTreeMap<i32, GoalId>,
    pub default: Option<GoalId>,
}

impl SwitchGoals {
    /// The goal a key reaches.
    pub fn goal_of(&self, key: i32) -> Option<GoalId> {
        match self.keys.binary_search(&key) {
            Ok(i) => self.key_goal.get(&self.target_key[i]).copied(),
            Err(_) => self.default,
        }
    }
}

/// The goals of every method asked about so far, by (class, method index).
#[derive(Debug, Default)]
pub(crate) struct GoalIndex {
    methods: BTreeMap<(String, u16), Option<Arc<MethodGoals>>>,
}

impl GoalIndex {
    pub fn method(&mut self, plan: &ProbePlan, class: &str, index: u16) -> Option<Arc<MethodGoals>> {
        if let Some(m) = self.methods.get(&(class.to_string(), index)) {
            return m.clone();
        }
        let res = plan.class_id(class).map(|c| Arc::new(method_goals(plan, c, MethodIdx(index))));
        self.methods.insert((class.to_string(), index), res.clone());
        res
    }
}

fn method_goals(plan: &ProbePlan, class: goals::PlanClassIdx, method: MethodIdx) -> MethodGoals {
    let mut res = MethodGoals::default();
    for (_, p) in plan.method_probes(class, method) {
        let at = match p.kind {
            ProbeKind::BranchZero | ProbeKind::BranchInt | ProbeKind::BranchRef | ProbeKind::BranchNull => {
                p.insn.0
            }
            ProbeKind::CmpLong | ProbeKind::CmpFloat | ProbeKind::CmpDouble => p.insn.0 + 1,
            ProbeKind::SwitchKey => {
                res.switches.insert(p.insn.0, switch_goals(plan, p));
                continue;
            }
            _ => continue,
        };
        let (mut taken, mut fall) = (None, None);
        for &g in &p.goals {
            match plan.goal(g) {
                Goal::Branch { taken: true, .. } => taken = Some(g),
                Goal::Branch { taken: false, .. } => fall = Some(g),
                _ => {}
            }
        }
        if let (Some(t), Some(f)) = (taken, fall) {
            res.jumps.insert(at, (t, f));
        }
    }
    res
}

fn switch_goals(plan: &ProbePlan, p: &goals::Probe) -> SwitchGoals {
    let mut res = SwitchGoals::default();
    if let Detail::Switch { keys, target_key } = &p.detail {
        res.keys = keys.clone();
        res.target_key = target_key.clone();
    }
    for &g in &p.goals {
        match plan.goal(g) {
            Goal::SwitchCase { case: SwitchCase::Key(k), .. } => {
                res.key_goal.insert(*k, g);
            }
            Goal::SwitchCase { case: SwitchCase::Default, .. } => res.default = Some(g),
            _ => {}
        }
    }
    res
}
