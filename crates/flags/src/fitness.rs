//! The fitness of an interprocedural flag branch (paper 001 §3, Algorithms 1 and 2, Eq. 3; digest
//! 000-001 §B2.5–B2.7), as pure functions of a static description of the flag methods
//! (`FlagSpecs`, see `spec` for how detection fills it) and a context-sensitive trace
//! (`FlagTrace`) that tests build by hand and that instrumentation will fill later.
//!
//! The trace is a list of invocations of flag methods. Each is identified by its call context:
//! the chain of frames from the method under test down to it, a frame being the call site, the
//! callee that ran, and the *occurrence* of that call site within its caller's invocation (the
//! digest's cheaper equivalent of the paper's iteration trace, §B2.3 item 2). Per invocation it
//! holds, for every branch executed, the raw branch distances of both outcomes (0 for an outcome
//! taken; the minimum per outcome when the branch ran several times inside one invocation).
//!
//! `Evaluator::branch_fitness_if` is Algorithm 1: for the flag value a flag branch needs, over the
//! invocations of its call site (one per loop iteration of the caller), the distance of each
//! required branch (Algorithm 2, `branch_fitness_r`) is aggregated with Eq. 3 first over
//! iterations, then over required branches, then normalised with `x/(1+x)`. A required branch's
//! distance in one invocation is `norm(bd)` when it ran, and `approach level + norm(bd)` of the
//! nearest executed branch it is control dependent on when it did not (Eq. 1, the per-invocation
//! approach level of §B2.3 item 3; the smallest when several qualify, as Table 1 does). The three
//! scenarios of Algorithm 2: a required branch or divergence point that is itself a flag branch
//! whose call ran in this invocation recurses into the nested call's invocations with the flag
//! value the outcome needs (scenario 1; its value, already normalised, replaces `norm(bd)`); one
//! whose call did not run is reached through the approach level like any branch, whose divergence
//! point may in turn be a flag branch (scenario 2); an ordinary branch is looked up (scenario 3).
//! A forwarded call (`return g(..)`) recurses into `g`'s invocations. Recursion stops at
//! `FitnessConfig::max_depth` frames (digest §C decision 10) and every `(context, call, value)`
//! is computed once per evaluator (memoisation).
//!
//! Contexts keep call sites apart: a branch covered in the invocation from another call site is
//! not distance 0 here (paper Listing 5).

use std::collections::BTreeMap;

use bytecode::InsnIdx;

/// A flag method, as numbered by the caller of this module (`spec` numbers the summaries of a
/// `FlagAnalysis` in order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MethodKey(pub u32);

/// EvoSuite's constant of the branch distance table (paper 001 §2.2, digest §B2.2): the distance
/// of an unsatisfied boolean condition.
pub const K: f64 = 1.0;

/// `norm(x) = x / (1 + x)` (paper Eq. 1's normalisation, the one all worked examples use).
pub fn normalize(x: f64) -> f64 {
    x / (1.0 + x)
}

/// Eq. 3: the harmonic mean `k / Σ 1/d_i` of `k` distances; 0 as soon as one is 0 (the
/// short-circuit for `1/0`); `None` for no distances.
pub fn harmonic_mean(ds: &[f64]) -> Option<f64> {
    if ds.is_empty() {
        return None;
    }
    if ds.iter().any(|&d| d <= 0.0) {
        return Some(0.0);
    }
    Some(ds.len() as f64 / ds.iter().map(|d| 1.0 / d).sum::<f64>())
}

/// One control dependence: the outcome `taken` of the conditional jump at `insn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dep {
    pub insn: InsnIdx,
    pub taken: bool,
}

/// One required branch of a flag method for a returned value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Required {
    /// The value is returned on a path with no decision before it (in javac's code, a constant
    /// stored into a local that other paths may overwrite). When the method returned the other
    /// value, nothing on that path measures why: it counts as `K`, the flat flag distance.
    Always,
    /// The outcome `taken` of the conditional jump at `insn`.
    Branch { insn: InsnIdx, taken: bool },
    /// The nested flag call at `call`, whose result is returned, must return `needs`.
    Call { call: InsnIdx, needs: bool },
    /// The switch at `insn` must go to case `key` (`None`: to its default). An extension of the
    /// paper, whose fitness is defined on conditional jumps only (docs/flags.md, "Switches"): the
    /// distance is EvoSuite's for a switch case, `|v - key|` for the key `v` switched on, and for
    /// the default `K` when `v` is one of the cases.
    Case { insn: InsnIdx, key: Option<i32> },
}

/// The raw distance of a switch on `v` to case `key` (`None`: the default) of a switch whose
/// non-default keys are `cases` (sorted); 0 when it goes there.
pub fn case_distance(v: i32, key: Option<i32>, cases: &[i32]) -> f64 {
    match key {
        Some(k) => (f64::from(v) - f64::from(k)).abs(),
        None if cases.binary_search(&v).is_ok() => K,
        None => 0.0,
    }
}

/// A conditional jump of a flag method that tests a nested flag call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagBranchSpec {
    pub call: InsnIdx,
    /// The nested call's result under which the jump is taken.
    pub taken_needs: bool,
}

/// The static facts the fitness needs about one flag method.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MethodSpec {
    /// The required branches for returning `false` (index 0) and `true` (index 1).
    pub required: [Vec<Required>; 2],
    /// For conditional jumps and calls: the branch outcomes they are control dependent on
    /// (empty: they run whenever the method does).
    pub deps: BTreeMap<InsnIdx, Vec<Dep>>,
    /// The conditional jumps that test nested flag calls.
    pub flag_branches: BTreeMap<InsnIdx, FlagBranchSpec>,
    /// Per switch, its keys that do not go to the default, sorted.
    pub switches: BTreeMap<InsnIdx, Vec<i32>>,
}

/// The static facts about every flag method.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FlagSpecs {
    pub methods: BTreeMap<MethodKey, MethodSpec>,
}

/// One level of a call context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Frame {
    /// The call site, in the caller.
    pub call: InsnIdx,
    /// Which execution of that call site, within the caller's invocation (0 for the first).
    pub occurrence: u32,
    /// The flag method that ran.
    pub callee: MethodKey,
}

/// Raw branch distances of both outcomes of one branch (0 for an outcome taken).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distances {
    pub taken: f64,
    pub not_taken: f64,
}

impl Distances {
    pub fn of(&self, taken: bool) -> f64 {
        if taken { self.taken } else { self.not_taken }
    }
}

/// One invocation of a flag method: its context and the branches it executed.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    /// From the method under test's call site down to this invocation (never empty).
    pub context: Vec<Frame>,
    /// Per branch executed, its distances; a branch listed twice keeps the minimum per outcome.
    pub branches: Vec<(InsnIdx, Distances)>,
    /// Per switch executed, a key it switched on (a switch run several times is listed with each).
    pub keys: Vec<(InsnIdx, i32)>,
}

/// The invocations of one test, indexed by context.
#[derive(Debug, Clone, PartialEq)]
pub struct FlagTrace {
    contexts: Vec<Vec<Frame>>,
    branches: Vec<BTreeMap<InsnIdx, Distances>>,
    /// Per invocation, per switch executed, the keys it switched on.
    keys: Vec<BTreeMap<InsnIdx, Vec<i32>>>,
    /// (parent context, call site) -> invocations, by occurrence.
    children: BTreeMap<(Vec<Frame>, InsnIdx), Vec<usize>>,
}

impl FlagTrace {
    /// Indexes `invocations` (invocations with an empty context are dropped: they have no call site).
    pub fn new(invocations: Vec<Invocation>) -> FlagTrace {
        let mut trace = FlagTrace {
            contexts: Vec::new(),
            branches: Vec::new(),
            keys: Vec::new(),
            children: BTreeMap::new(),
        };
        for inv in invocations {
            let Some((last, parent)) = inv.context.split_last() else { continue };
            let mut table: BTreeMap<InsnIdx, Distances> = BTreeMap::new();
            for (insn, d) in inv.branches {
                let e = table.entry(insn).or_insert(d);
                e.taken = e.taken.min(d.taken);
                e.not_taken = e.not_taken.min(d.not_taken);
            }
            let mut keys: BTreeMap<InsnIdx, Vec<i32>> = BTreeMap::new();
            for (insn, v) in inv.keys {
                keys.entry(insn).or_default().push(v);
            }
            let idx = trace.contexts.len();
            trace.children.entry((parent.to_vec(), last.call)).or_default().push(idx);
            trace.contexts.push(inv.context);
            trace.branches.push(table);
            trace.keys.push(keys);
        }
        for list in trace.children.values_mut() {
            list.sort_by_key(|&i| trace.contexts[i].last().map(|f| f.occurrence));
        }
        trace
    }

    /// The invocations of the call site `call` made by the invocation with context `parent`
    /// (`&[]`: the method under test).
    pub fn children(&self, parent: &[Frame], call: InsnIdx) -> &[usize] {
        self.children.get(&(parent.to_vec(), call)).map_or(&[], Vec::as_slice)
    }
}

/// What the fitness is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FitnessConfig {
    /// The longest call context followed (digest §C decision 10: 5).
    pub max_depth: usize,
}

/// A flag branch of the method under test, as an objective: its call site and the flag value the
/// wanted outcome needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FlagObjective {
    pub call: InsnIdx,
    pub needs: bool,
}

/// The recovered distance of a flag branch of the method under test, in `[0, 1)`, to replace the
/// flat `norm(K)` of a flag branch reached with the wrong outcome (digest §B2.7); `None` when the
/// trace holds no invocation of its call site with a known spec (keep the flat value then).
pub fn flag_fitness(
    specs: &FlagSpecs,
    trace: &FlagTrace,
    objective: FlagObjective,
    config: FitnessConfig,
) -> Option<f64> {
    Evaluator::new(specs, trace, config).branch_fitness_if(&[], objective.call, objective.needs)
}

/// What a node must do: a jump's outcome, or a forwarded call's result.
#[derive(Debug, Clone, Copy)]
enum Goal {
    Outcome(bool),
    Returns(bool),
}

/// One fitness evaluation: the memo of Algorithm 1's results over one trace.
#[derive(Debug)]
pub struct Evaluator<'a> {
    specs: &'a FlagSpecs,
    trace: &'a FlagTrace,
    config: FitnessConfig,
    memo: BTreeMap<(Vec<Frame>, InsnIdx, bool), Option<f64>>,
    computed: usize,
}

impl<'a> Evaluator<'a> {
    pub fn new(specs: &'a FlagSpecs, trace: &'a FlagTrace, config: FitnessConfig) -> Evaluator<'a> {
        Evaluator { specs, trace, config, memo: BTreeMap::new(), computed: 0 }
    }

    /// How many `(context, call, value)` results were computed (not taken from the memo).
    pub fn computed(&self) -> usize {
        self.computed
    }

    /// Algorithm 1: the normalised distance to the call at `call` (made by the invocation with
    /// context `parent`) returning `needs`.
    pub fn branch_fitness_if(&mut self, parent: &[Frame], call: InsnIdx, needs: bool) -> Option<f64> {
        if parent.len() >= self.config.max_depth {
            return None;
        }
        let key = (parent.to_vec(), call, needs);
        if let Some(&res) = self.memo.get(&key) {
            return res;
        }
        self.computed += 1;
        let mut per_required: BTreeMap<(MethodKey, usize), Vec<f64>> = BTreeMap::new();
        let specs = self.specs;
        for &inv in self.trace.children(parent, call) {
            let callee = self.callee(inv);
            let Some(spec) = specs.methods.get(&callee) else { continue };
            for (k, r) in spec.required[usize::from(needs)].iter().enumerate() {
                let d = self.branch_fitness_r(inv, r);
                per_required.entry((callee, k)).or_default().push(d);
            }
        }
        let per_branch: Vec<f64> = per_required.values().filter_map(|ds| harmonic_mean(ds)).collect();
        let res = harmonic_mean(&per_branch).map(normalize);
        self.memo.insert(key, res);
        res
    }

    /// Algorithm 2: the distance of required branch `r` in invocation `inv` (an index of the
    /// trace's invocations): `approach level + norm(branch distance)`, 0 when achieved; `K` for
    /// `Required::Always`; a switch case (our extension) like a jump, with the case distance.
    pub fn branch_fitness_r(&mut self, inv: usize, r: &Required) -> f64 {
        match *r {
            // Had that path run, the flag would have had the value; it ran and a later
            // definition (a store on another path) won, which the path cannot measure: the flat
            // flag distance K.
            Required::Always => K,
            Required::Branch { insn, taken } => self.reach(inv, insn, Goal::Outcome(taken)),
            Required::Call { call, needs } => self.reach(inv, call, Goal::Returns(needs)),
            Required::Case { insn, key } => {
                let Some(seen) = self.trace.keys[inv].get(&insn) else { return self.approach(inv, insn) };
                let cases = self.spec(inv).and_then(|s| s.switches.get(&insn)).map_or(&[][..], Vec::as_slice);
                let d = seen.iter().map(|&v| case_distance(v, key, cases)).fold(f64::INFINITY, f64::min);
                if d <= 0.0 { 0.0 } else { normalize(d) }
            }
        }
    }

    fn callee(&self, inv: usize) -> MethodKey {
        self.trace.contexts[inv].last().map_or(MethodKey(u32::MAX), |f| f.callee)
    }

    fn spec(&self, inv: usize) -> Option<&'a MethodSpec> {
        self.specs.methods.get(&self.callee(inv))
    }

    fn executed(&self, inv: usize, node: InsnIdx, goal: Goal) -> bool {
        match goal {
            Goal::Outcome(_) => self.trace.branches[inv].contains_key(&node),
            Goal::Returns(_) => !self.trace.children(&self.trace.contexts[inv], node).is_empty(),
        }
    }

    /// The distance of `node` achieving `goal` in `inv`: at the node when it ran, else through
    /// the nearest executed branch it is control dependent on.
    fn reach(&mut self, inv: usize, node: InsnIdx, goal: Goal) -> f64 {
        if self.executed(inv, node, goal) { self.at_node(inv, node, goal) } else { self.approach(inv, node) }
    }

    /// The distance at an executed node (no approach level).
    fn at_node(&mut self, inv: usize, node: InsnIdx, goal: Goal) -> f64 {
        let context = self.trace.contexts[inv].clone();
        match goal {
            Goal::Returns(needs) => self.branch_fitness_if(&context, node, needs).unwrap_or(1.0),
            Goal::Outcome(taken) => {
                let d = self.trace.branches[inv].get(&node).map_or(1.0, |d| d.of(taken));
                if d <= 0.0 {
                    return 0.0;
                }
                let nested = self.spec(inv).and_then(|s| s.flag_branches.get(&node)).copied();
                match nested {
                    Some(fb) if !self.trace.children(&context, fb.call).is_empty() => {
                        let needs = if taken { fb.taken_needs } else { !fb.taken_needs };
                        self.branch_fitness_if(&context, fb.call, needs).unwrap_or(normalize(d))
                    }
                    _ => normalize(d),
                }
            }
        }
    }

    /// Eq. 1 inside one invocation: `level + distance` of the nearest executed control
    /// dependences of `node`, breadth first; the smallest. When none ran (the invocation ended
    /// early, by an exception), the depth of `node`'s control dependences plus 1: worse than any
    /// divergence at those levels.
    fn approach(&mut self, inv: usize, node: InsnIdx) -> f64 {
        let Some(spec) = self.spec(inv) else { return 1.0 };
        let mut best: Option<f64> = None;
        let mut level = 0;
        let mut frontier: Vec<InsnIdx> = vec![node];
        let mut seen = std::collections::BTreeSet::from([node]);
        let deps_of = |n: &InsnIdx| spec.deps.get(n).map_or(&[][..], Vec::as_slice);
        while frontier.iter().any(|n| !deps_of(n).is_empty()) && best.is_none() {
            level += 1;
            let mut next = Vec::new();
            for n in frontier {
                for dep in deps_of(&n) {
                    if self.trace.branches[inv].contains_key(&dep.insn) {
                        let d = level as f64 + self.at_node(inv, dep.insn, Goal::Outcome(dep.taken));
                        best = Some(best.map_or(d, |b| b.min(d)));
                    } else if seen.insert(dep.insn) {
                        next.push(dep.insn);
                    }
                }
            }
            frontier = next;
        }
        best.unwrap_or(level as f64 + 1.0)
    }
}
