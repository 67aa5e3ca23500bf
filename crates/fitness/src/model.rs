//! The goal model: for every goal of a [`ProbePlan`], the probe sites whose trace data decide it and,
//! per site, the branch goals the site is directly control dependent on (from `analysis`'
//! `goal_deps` of the block holding the probe's instruction). This is what approach levels
//! (McMinn 2004; EvoSuite's `ControlFlowDistance`) and DynaMOSA's goal release (Panichella et al.,
//! TSE 2018, §3: a goal enters the search when a branch it depends on is covered) are computed on.
//!
//! Non-branch goals (lines, exceptions, outputs, mutants, method exits) hang under the branch goals
//! their instruction depends on, as in DynaMOSA's extension to other criteria. The model is built
//! once per plan, from the bodies and analyses the program database keeps (`build_in`), or from
//! class files, decoding each planned method (`build`).

use std::borrow::Cow;
use std::collections::BTreeMap;

use analysis::{BranchGoal, MethodAnalysis, Outcome};
use bytecode::InsnIdx;
use classfile::ClassFile;
use goals::goal_text;
use goals::{Detail, Goal, GoalId, ProbeId, ProbeKind, ProbePlan, SwitchCase};
use programdb::ProgramDb;

/// Why a model could not be built. Only a mismatch between the plan and the classes is an
/// error; a method whose code does not decode has no probes in the plan, so it has no goals.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("the plan has {plan} classes but {given} class files were given")]
    ClassCount { plan: usize, given: usize },
    #[error("class #{index} is {given}, the plan has {plan}")]
    ClassName { index: usize, plan: String, given: String },
    #[error(transparent)]
    ClassFile(#[from] classfile::Error),
    #[error("{class}.{method}: {what}")]
    Method { class: String, method: String, what: String },
    #[error("class {0} of the plan is not in the program database")]
    MissingClass(String),
}

/// One place a goal is decided at: a probe, and what the probe's block is control dependent on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub probe: ProbeId,
    /// Branch goals the probe's block is directly control dependent on, sorted, without the goal
    /// itself (a loop header depends on its own back edge).
    pub deps: Vec<GoalId>,
    /// The block runs whenever its method does (a chain of control dependences reaches the
    /// method entry), or no dependence could be mapped to a planned goal.
    pub entry: bool,
    /// The probes of the site's method (a contiguous range), to tell whether it was entered.
    pub method_probes: std::ops::Range<u32>,
    /// The method's `MethodEnter` probe, when planned.
    pub method_entry: Option<ProbeId>,
}

/// What the model knows about one goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalInfo {
    pub goal: Goal,
    /// The sites that decide the goal (its probes, in id order); a goal is covered at any one.
    pub sites: Vec<Site>,
}

impl GoalInfo {
    /// The union of the sites' dependences, sorted.
    pub fn deps(&self) -> Vec<GoalId> {
        let mut d: Vec<GoalId> = self.sites.iter().flat_map(|s| s.deps.iter().copied()).collect();
        d.sort_unstable();
        d.dedup();
        d
    }

    /// Some site has no control dependence (DynaMOSA root).
    pub fn is_root(&self) -> bool {
        self.sites.iter().any(|s| s.entry) || self.sites.is_empty()
    }
}

/// A method without conditional jumps and switches (EvoSuite's "branchless method", whose only
/// branch goal is the root branch: entering the method).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchlessMethod {
    pub method_probes: std::ops::Range<u32>,
    pub method_entry: Option<ProbeId>,
}

/// A method by internal class name, method name and descriptor.
pub(crate) type MethodKey = (String, String, String);

/// The goal model of a plan. Goal ids are the plan's.
#[derive(Debug, Clone, PartialEq)]
pub struct GoalModel {
    pub(crate) goals: Vec<GoalInfo>,
    pub(crate) roots: Vec<GoalId>,
    pub(crate) released: Vec<Vec<GoalId>>,
    /// Branch probes (conditional jumps and compare pairs), in id order, with their two goals
    /// (taken, not taken).
    pub(crate) predicates: Vec<(ProbeId, GoalId, GoalId)>,
    /// Switch probes with their case goals (keys in order, then default).
    pub(crate) switches: Vec<(ProbeId, Vec<GoalId>)>,
    pub(crate) branchless: Vec<BranchlessMethod>,
    /// `branch_goal[probe]`: (taken, not taken) goals of a branch probe.
    pub(crate) branch_of_probe: Vec<Option<(GoalId, GoalId)>>,
    /// (internal class name, method name, descriptor) -> (entry goal, normal-exit goal).
    pub(crate) methods: BTreeMap<MethodKey, (Option<GoalId>, Option<GoalId>)>,
    pub(crate) plan: ProbePlan,
    /// Every goal's sites again, in one vector in goal order, with `site_ranges[g]` the slice of
    /// goal `g`: `goal_fitness` walks all sites of all goals for every test, and one contiguous
    /// vector instead of a separate allocation per goal removed most of its cache misses.
    pub(crate) flat_sites: Vec<Site>,
    pub(crate) site_ranges: Vec<(u32, u32)>,
    /// `method_of_probe[p]`: the index (in plan order over all classes) of the method holding probe
    /// `p`, `u32::MAX` for a probe outside any method; what `touched_methods` maps trace data with.
    pub(crate) method_of_probe: Vec<u32>,
    /// Per method, the goals with a site in it (ascending), and the branch-like ones among them:
    /// the goals `goal_fitness` recomputes when a trace touches the method.
    pub(crate) method_goals: Vec<Vec<u32>>,
    pub(crate) method_branch_goals: Vec<Vec<u32>>,
    /// The fitness of every goal for an empty trace, what a goal of an untouched method keeps.
    pub(crate) baseline: Baseline,
}

/// Every goal's fitness, and the branch-like goals' reach costs, for the empty trace.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Baseline {
    pub(crate) values: Vec<f64>,
    pub(crate) branch_costs: Vec<f64>,
}

/// The analyses of one planned method, from wherever the model gets them: the number of
/// instructions of its body and its `MethodAnalysis`, borrowed from the program database or
/// computed here.
type Analysed<'a> = (usize, Cow<'a, MethodAnalysis>);

/// Which method of which class (plan order) a `method_analysis` source is asked about.
type MethodAt<'p> = (usize, &'p goals::ClassPlan, &'p goals::MethodPlan);

impl GoalModel {
    /// Builds the model of `plan` from the class files it was planned from, in plan order. Each
    /// planned method is decoded and analysed here; `build_in` takes them from the program database.
    pub fn build(plan: &ProbePlan, classes: &[ClassFile]) -> Result<GoalModel, ModelError> {
        if plan.classes().len() != classes.len() {
            return Err(ModelError::ClassCount { plan: plan.classes().len(), given: classes.len() });
        }
        for (ci, (cp_plan, class)) in plan.classes().iter().zip(classes).enumerate() {
            let name = class.name();
            if name != cp_plan.name {
                return Err(ModelError::ClassName {
                    index: ci,
                    plan: cp_plan.name.clone(),
                    given: name.into_owned(),
                });
            }
        }
        GoalModel::build_with(plan, |(ci, cp_plan, mp)| {
            let class = &classes[ci];
            let cp = &class.constant_pool;
            let err = |what: String| method_error(cp_plan, mp, what);
            let member =
                class.methods.get(mp.index.0 as usize).ok_or_else(|| err("no such method".into()))?;
            let code = member.code(cp).ok_or_else(|| err("no Code attribute".into()))??;
            let body = bytecode::decode(&code, cp).map_err(|e| err(e.to_string()))?;
            Ok((body.insns.len(), Cow::Owned(MethodAnalysis::compute(&body))))
        })
    }

    /// Builds the model of `plan`, whose classes are on `db`'s classpath under the plan's names,
    /// with the bodies and analyses the database keeps (each method decoded and analysed once
    /// per run, whoever asks).
    pub fn build_in(db: &ProgramDb, plan: &ProbePlan) -> Result<GoalModel, ModelError> {
        let ids: Vec<programdb::ClassId> = plan
            .classes()
            .iter()
            .map(|c| db.class_id(&c.name).ok_or_else(|| ModelError::MissingClass(c.name.clone())))
            .collect::<Result<_, _>>()?;
        GoalModel::build_with(plan, |(ci, cp_plan, mp)| {
            let err = |what: String| method_error(cp_plan, mp, what);
            let m = db.method_id(ids[ci], mp.index.0).ok_or_else(|| err("no such method".into()))?;
            let body =
                db.body(m).ok_or_else(|| err("no Code attribute".into()))?.map_err(|e| err(e.to_string()))?;
            let analysis = db.analysis(m).ok_or_else(|| err("no analysis".into()))?;
            Ok((body.insns.len(), Cow::Borrowed(analysis)))
        })
    }

    /// The phases of the model, in order: the sites of every goal (per planned method, from its
    /// analyses), DynaMOSA's roots and release lists, the probe tables, the method goals, the flat
    /// site table and per-method goal lists, and the empty trace's fitness.
    fn build_with<'a>(
        plan: &ProbePlan,
        method_analysis: impl Fn(MethodAt<'_>) -> Result<Analysed<'a>, ModelError>,
    ) -> Result<GoalModel, ModelError> {
        let (sites, branchless) = all_sites(plan, method_analysis)?;
        let goals: Vec<GoalInfo> =
            plan.goals().iter().zip(sites).map(|(g, sites)| GoalInfo { goal: g.clone(), sites }).collect();
        let (roots, released) = release_lists(&goals);
        let (predicates, switches, branch_of_probe) = probe_tables(plan);
        let methods = method_entry_exit_goals(plan);
        let (flat_sites, site_ranges) = flatten_sites(&goals);
        let (method_of_probe, method_goals, method_branch_goals) = goals_per_method(plan, &goals);
        let mut model = GoalModel {
            method_of_probe,
            method_goals,
            method_branch_goals,
            baseline: Baseline::default(),
            flat_sites,
            site_ranges,
            goals,
            roots,
            released,
            predicates,
            switches,
            branchless,
            branch_of_probe,
            methods,
            plan: plan.clone(),
        };
        let (values, branch_costs) = crate::eval::full_fitness(&model, &protocol::Trace::default());
        model.baseline = Baseline { values, branch_costs };
        Ok(model)
    }

    /// The methods (indices as in `method_of_probe`) whose goals a trace can change: those with a
    /// probe hit (whatever its count: `eval::entered` looks at the list) or a branch or switch
    /// evaluated. Operand samples and return categories are read only at probes that were hit.
    /// Sorted, distinct.
    pub(crate) fn touched_methods(&self, trace: &protocol::Trace) -> Vec<u32> {
        let probes = trace
            .hits
            .iter()
            .map(|h| h.0)
            .chain(trace.branches.iter().map(|b| b.probe))
            .chain(trace.switches.iter().map(|s| s.0));
        let mut out: Vec<u32> = probes
            .filter_map(|p| self.method_of_probe.get(p.0 as usize).copied())
            .filter(|&m| m != u32::MAX)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The sites of goal `g` (as `info(g).sites`), from the contiguous table.
    pub(crate) fn sites_of(&self, g: usize) -> &[Site] {
        let (a, b) = self.site_ranges[g];
        &self.flat_sites[a as usize..b as usize]
    }

    pub fn plan(&self) -> &ProbePlan {
        &self.plan
    }

    pub fn n_goals(&self) -> usize {
        self.goals.len()
    }

    pub fn goal(&self, g: GoalId) -> &Goal {
        &self.goals[g.index()].goal
    }

    pub fn info(&self, g: GoalId) -> &GoalInfo {
        &self.goals[g.index()]
    }

    /// The branch goals `g` is directly control dependent on (over all its sites).
    pub fn deps(&self, g: GoalId) -> Vec<GoalId> {
        self.goals[g.index()].deps()
    }

    /// DynaMOSA's initial targets: goals with a site that no branch goal controls.
    pub fn roots(&self) -> &[GoalId] {
        &self.roots
    }

    /// The goals directly control dependent on `g` (released when `g` is covered), in id order.
    pub fn released_by(&self, g: GoalId) -> &[GoalId] {
        &self.released[g.index()]
    }

    /// The (taken, not taken) goals of a branch probe.
    pub fn branch_goals_of(&self, probe: ProbeId) -> Option<(GoalId, GoalId)> {
        self.branch_of_probe.get(probe.index()).copied().flatten()
    }

    /// The (entry, normal-exit) goals of a method by internal class name, name and descriptor.
    pub fn method_goals(
        &self,
        class: &str,
        name: &str,
        descriptor: &str,
    ) -> (Option<GoalId>, Option<GoalId>) {
        self.methods
            .get(&(class.to_string(), name.to_string(), descriptor.to_string()))
            .copied()
            .unwrap_or((None, None))
    }

    /// Every goal id, in order.
    pub fn goal_ids(&self) -> impl Iterator<Item = GoalId> + '_ {
        (0..self.goals.len() as u32).map(GoalId)
    }
}

/// The plan goal of an analysis branch goal: the branch probe sits on the jump itself, or on the
/// `?cmp*` right before it (a compare pair, see `goals::plan`). A switch case key that the plan
/// folded into the default (a `tableswitch` gap javac filled in) maps to the default goal.
fn map_branch_goal(plan: &ProbePlan, bg: &BranchGoal, probes: &[(ProbeId, &goals::Probe)]) -> Option<GoalId> {
    let BranchGoal::Branch { insn, outcome, .. } = *bg else { return None };
    let at = |p: &goals::Probe| {
        p.insn == insn
            || (matches!(p.kind, ProbeKind::CmpLong | ProbeKind::CmpFloat | ProbeKind::CmpDouble)
                && InsnIdx::new(p.insn.index() + 1) == insn)
    };
    let find = |p: &goals::Probe, want: &Goal| p.goals.iter().copied().find(|&g| plan.goal(g) == want);
    for &(id, p) in probes {
        if !at(p) {
            continue;
        }
        let default = Goal::SwitchCase { probe: id, case: SwitchCase::Default };
        match (&p.detail, outcome) {
            (Detail::Branch { .. }, Outcome::Taken | Outcome::NotTaken) => {
                return find(p, &Goal::Branch { probe: id, taken: outcome == Outcome::Taken });
            }
            (Detail::Switch { keys, target_key }, Outcome::Case(k)) => {
                // The goal of a case is its target's, named by the target's smallest key.
                let k = keys.iter().position(|&c| c == k).map_or(k, |i| target_key[i]);
                let key = Goal::SwitchCase { probe: id, case: SwitchCase::Key(k) };
                return find(p, &key).or_else(|| find(p, &default));
            }
            (Detail::Switch { .. }, Outcome::Default) => return find(p, &default),
            _ => {}
        }
    }
    None
}

/// The error of one planned method.
fn method_error(c: &goals::ClassPlan, mp: &goals::MethodPlan, what: String) -> ModelError {
    ModelError::Method { class: c.name.clone(), method: format!("{}{}", mp.name, mp.descriptor), what }
}

/// Phase 1: the sites of every goal (indexed by goal), and the branchless methods, from the
/// analyses of every planned method with probes.
fn all_sites<'a>(
    plan: &ProbePlan,
    method_analysis: impl Fn(MethodAt<'_>) -> Result<Analysed<'a>, ModelError>,
) -> Result<(Vec<Vec<Site>>, Vec<BranchlessMethod>), ModelError> {
    let mut sites: Vec<Vec<Site>> = vec![Vec::new(); plan.goals().len()];
    let mut branchless = Vec::new();
    for (ci, cp_plan) in plan.classes().iter().enumerate() {
        for mp in &cp_plan.methods {
            if mp.undecodable.is_some() || mp.probes.is_empty() {
                continue;
            }
            let (n_insns, ma) = method_analysis((ci, cp_plan, mp))?;
            method_sites(plan, mp, n_insns, &ma, &mut sites, &mut branchless);
        }
    }
    Ok((sites, branchless))
}

/// The sites of one method's probes: each probe's block's control dependences, mapped to plan
/// goals.
fn method_sites(
    plan: &ProbePlan,
    mp: &goals::MethodPlan,
    n_insns: usize,
    ma: &MethodAnalysis,
    sites: &mut [Vec<Site>],
    branchless: &mut Vec<BranchlessMethod>,
) {
    let probes: Vec<(ProbeId, &goals::Probe)> =
        mp.probes.clone().map(|i| (ProbeId(i), plan.probe(ProbeId(i)))).collect();
    let method_entry = probes.iter().find(|(_, p)| p.kind == ProbeKind::MethodEnter).map(|(id, _)| *id);
    // Analysis branch goal k -> plan goal.
    let mapped: Vec<Option<GoalId>> =
        ma.branch_goals.iter().map(|bg| map_branch_goal(plan, bg, &probes)).collect();
    if ma.branch_goals.iter().all(|bg| matches!(bg, BranchGoal::Root)) {
        branchless.push(BranchlessMethod { method_probes: mp.probes.clone(), method_entry });
    }
    for &(id, p) in &probes {
        if p.goals.is_empty() {
            continue;
        }
        let (deps, entry) = if p.insn.index() < n_insns && !ma.cfg.blocks().is_empty() {
            let gd = &ma.goal_deps[ma.cfg.block_of(p.insn).index()];
            let deps: Vec<GoalId> = {
                let mut d: Vec<GoalId> = gd.goals.iter().filter_map(|&k| mapped[k]).collect();
                d.sort_unstable();
                d.dedup();
                d
            };
            let entry = gd.entry || deps.is_empty();
            (deps, entry)
        } else {
            (Vec::new(), true)
        };
        for &g in &p.goals {
            let mut deps = deps.clone();
            deps.retain(|&d| d != g);
            // The method entry goal is decided by entering, whatever block 0 depends on.
            if p.kind == ProbeKind::MethodEnter {
                deps.clear();
            }
            let entry = entry || deps.is_empty();
            sites[g.index()].push(Site {
                probe: id,
                deps,
                entry,
                method_probes: mp.probes.clone(),
                method_entry,
            });
        }
    }
}

/// Phase 2: DynaMOSA's roots, and per goal the goals its coverage releases.
fn release_lists(goals: &[GoalInfo]) -> (Vec<GoalId>, Vec<Vec<GoalId>>) {
    let mut released = vec![Vec::new(); goals.len()];
    let mut roots = Vec::new();
    for (gi, info) in goals.iter().enumerate() {
        let g = GoalId(gi as u32);
        if info.is_root() {
            roots.push(g);
        }
        for d in info.deps() {
            released[d.index()].push(g);
        }
    }
    (roots, released)
}

/// The branch probes with their goals (taken, not taken), the switch probes with their case goals,
/// and the branch goals by probe.
type ProbeTables =
    (Vec<(ProbeId, GoalId, GoalId)>, Vec<(ProbeId, Vec<GoalId>)>, Vec<Option<(GoalId, GoalId)>>);

/// Phase 3: the probe tables.
fn probe_tables(plan: &ProbePlan) -> ProbeTables {
    let mut predicates = Vec::new();
    let mut switches = Vec::new();
    let mut branch_of_probe = vec![None; plan.n_probes()];
    for (pi, p) in plan.probes().iter().enumerate() {
        let id = ProbeId(pi as u32);
        match &p.detail {
            Detail::Branch { .. } => {
                let side = |taken: bool| {
                    p.goals.iter().copied().find(|&g| *plan.goal(g) == Goal::Branch { probe: id, taken })
                };
                if let (Some(t), Some(f)) = (side(true), side(false)) {
                    predicates.push((id, t, f));
                    branch_of_probe[pi] = Some((t, f));
                }
            }
            Detail::Switch { .. } => {
                let cases: Vec<GoalId> = p
                    .goals
                    .iter()
                    .copied()
                    .filter(|&g| matches!(plan.goal(g), Goal::SwitchCase { .. }))
                    .collect();
                switches.push((id, cases));
            }
            _ => {}
        }
    }
    (predicates, switches, branch_of_probe)
}

/// Phase 4: the entry and normal-exit goals of each method, by class, name and descriptor.
fn method_entry_exit_goals(plan: &ProbePlan) -> BTreeMap<MethodKey, (Option<GoalId>, Option<GoalId>)> {
    let mut methods: BTreeMap<MethodKey, (Option<GoalId>, Option<GoalId>)> = BTreeMap::new();
    for (gi, goal) in plan.goals().iter().enumerate() {
        let (class, method, exit) = match *goal {
            Goal::MethodEntry { class, method } => (class, method, false),
            Goal::MethodNormalExit { class, method } => (class, method, true),
            _ => continue,
        };
        let cp = plan.class(class);
        let Some(mp) = cp.methods.iter().find(|m| m.index == method) else { continue };
        let e = methods.entry((cp.name.clone(), mp.name.clone(), mp.descriptor.clone())).or_default();
        if exit {
            e.1 = Some(GoalId(gi as u32));
        } else {
            e.0 = Some(GoalId(gi as u32));
        }
    }
    methods
}

/// Phase 5: every goal's sites in one vector, with each goal's range in it.
fn flatten_sites(goals: &[GoalInfo]) -> (Vec<Site>, Vec<(u32, u32)>) {
    let mut flat_sites = Vec::new();
    let mut site_ranges = Vec::with_capacity(goals.len());
    for g in goals {
        let start = flat_sites.len() as u32;
        flat_sites.extend(g.sites.iter().cloned());
        site_ranges.push((start, flat_sites.len() as u32));
    }
    (flat_sites, site_ranges)
}

/// Phase 6: the method (plan order) of each probe, and per method its goals and its branch-like
/// goals.
fn goals_per_method(plan: &ProbePlan, goals: &[GoalInfo]) -> (Vec<u32>, Vec<Vec<u32>>, Vec<Vec<u32>>) {
    // Methods in plan order; a site's method is the one whose probe range it carries.
    let mut method_of_probe = vec![u32::MAX; plan.n_probes()];
    let mut n_methods = 0u32;
    for c in plan.classes() {
        for mp in &c.methods {
            for p in mp.probes.clone() {
                if let Some(slot) = method_of_probe.get_mut(p as usize) {
                    *slot = n_methods;
                }
            }
            n_methods += 1;
        }
    }
    let mut method_goals = vec![Vec::new(); n_methods as usize];
    let mut method_branch_goals = vec![Vec::new(); n_methods as usize];
    for (gi, g) in goals.iter().enumerate() {
        let branch_like = matches!(g.goal, Goal::Branch { .. } | Goal::SwitchCase { .. });
        for s in &g.sites {
            let Some(&m) = method_of_probe.get(s.probe.index()) else { continue };
            let Some(list) = method_goals.get_mut(m as usize) else { continue };
            if list.last() != Some(&(gi as u32)) {
                list.push(gi as u32);
                if branch_like {
                    method_branch_goals[m as usize].push(gi as u32);
                }
            }
        }
    }
    (method_of_probe, method_goals, method_branch_goals)
}

impl GoalModel {
    /// A text dump: one line per goal with its text, sites' dependences and root flag, then the
    /// release lists; for snapshot tests and debugging.
    pub fn dump(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for g in self.goal_ids() {
            let info = self.info(g);
            let _ = write!(out, "{g} {}", goal_text(&info.goal));
            for s in &info.sites {
                let deps: Vec<String> = s.deps.iter().map(ToString::to_string).collect();
                let _ = write!(
                    out,
                    " | {} deps [{}]{}",
                    s.probe,
                    deps.join(" "),
                    if s.entry { " entry" } else { "" }
                );
            }
            let rel = self.released_by(g);
            if !rel.is_empty() {
                let rel: Vec<String> = rel.iter().map(ToString::to_string).collect();
                let _ = write!(out, " => releases {}", rel.join(" "));
            }
            out.push('\n');
        }
        let roots: Vec<String> = self.roots().iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "roots: {}", roots.join(" "));
        out
    }
}
