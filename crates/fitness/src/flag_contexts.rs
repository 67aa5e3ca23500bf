//! Interprocedural flag fitness in a run (paper 001, Evoif; digest 000-001 §B2.3 and §B2.7;
//! docs/flags.md): the probe family `flag-contexts` that traces, inside the flag methods that
//! `flags::analyze` finds for the classes under test (and only those), each conditional jump's
//! operands and each switch's key per invocation, with the invocation's caller and call site
//! (protocol v5 records);
//! and the goal-space refiner that, for each flag branch of those classes reached with the wrong
//! outcome, replaces the flat branch distance by the `flags` crate's aggregate (Algorithms 1–2,
//! Eq. 3) over the call contexts rooted at the flag branch's own call site.
//!
//! It does not plan anything in methods that are not flag methods, nor in classes that are not
//! instrumented (a flag method in another class, or in the JDK, is not traced: its flag branches
//! keep the flat distance); it never changes whether a goal is covered.

use std::collections::BTreeMap;

use bytecode::InsnIdx;
use flags::fitness::{Distances, FitnessConfig, FlagObjective, FlagTrace, Frame, Invocation};
use flags::spec::SpecIndex;
use flags::{FlagAnalysis, FlagConfig};
use goals::{
    Extensions, Goal, GoalId, MethodView, ProbeFamily, ProbeId, ProbeKind, ProbePlan, RecordProbe,
    RecordShape, branch_cond, cmp_kind,
};
use programdb::{MethodId, ProgramDb};
use protocol::{Record, Trace};
use rt_abi::cond;

use crate::eval::GoalFitness;
use crate::extension::FamilyProbes;
use crate::space::Refiner;

/// The family's name in `Detail::Record`.
pub const FLAG_CONTEXTS: &str = "flag-contexts";

/// How a traced jump's operands give its distances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operands {
    /// `if<cond>`: one int against 0.
    Zero,
    /// `if_icmp<cond>`.
    Int,
    /// `if_acmp<cond>`: two references, equal or not.
    Ref,
    /// `ifnull`/`ifnonnull`.
    Null,
    /// `lcmp`, `fcmp*`, `dcmp*` then `if<cond>`: the compare's two operands.
    Long,
    Float {
        nan_greater: bool,
    },
    Double {
        nan_greater: bool,
    },
}

/// What one probe of the family stands for.
#[derive(Debug, Clone, Copy)]
enum TagKind {
    /// The flag method's entry: the invocation exists even if no jump ran.
    Entry,
    /// The conditional jump at `insn`, taken under rt-abi condition `cond`.
    Jump { insn: InsnIdx, operands: Operands, cond: i32 },
    /// The switch at `insn`: the record is the key switched on.
    Switch { insn: InsnIdx },
}

#[derive(Debug, Clone, Copy)]
struct Tag {
    method: MethodId,
    kind: TagKind,
}

/// A method of the classes under test with flag branches whose flag methods are traced.
#[derive(Debug)]
struct Mut {
    class: String,
    index: u16,
    spec: SpecIndex,
    /// Per flag branch outcome: the jump, its outcome (`taken`), and its objective.
    objectives: Vec<(InsnIdx, bool, FlagObjective)>,
}

/// One probe of the family: before which instruction, with what shape and tag.
type Planned = (InsnIdx, RecordShape, u32);

/// The family and the static half of the fitness hook, built from the program before the classes
/// are instrumented (see `FlagContexts::build`).
#[derive(Debug)]
pub struct FlagContexts {
    tags: Vec<Tag>,
    /// Class (internal name) -> method index -> probes: before which instruction, with what
    /// shape and tag.
    planned: BTreeMap<String, BTreeMap<u16, Vec<Planned>>>,
    muts: Vec<Mut>,
}

impl FlagContexts {
    /// The flag branches of every method of `classes` (internal names: the classes the run
    /// instruments) and the flag methods among those classes they reach, cascades included;
    /// `None` when no flag branch reaches a flag method that will be instrumented (nothing to
    /// trace: the run's plan stays the plan without flags).
    pub fn build(db: &ProgramDb, classes: &[String]) -> Option<FlagContexts> {
        let config = FlagConfig::standard();
        let mut traced: BTreeMap<MethodId, ()> = BTreeMap::new();
        let mut muts = Vec::new();
        for name in classes {
            let Some(cid) = db.class_id(name) else { continue };
            for m in db.methods(cid) {
                if !matches!(db.body(m), Some(Ok(_))) {
                    continue;
                }
                let a = flags::analyze(db, m, &config);
                if let Some(mt) = mut_of(db, classes, name, m, &a) {
                    for &f in &mt.spec.keys {
                        if classes.iter().any(|c| c == db.class_name(f.class())) {
                            traced.insert(f, ());
                        }
                    }
                    muts.push(mt);
                }
            }
        }
        if traced.is_empty() {
            return None;
        }
        let mut res = FlagContexts { tags: Vec::new(), planned: BTreeMap::new(), muts };
        for &f in traced.keys() {
            res.plan_method(db, f);
        }
        Some(res)
    }

    /// The tags and probes of flag method `f`: its entry, each conditional jump (at the compare
    /// before it for `lcmp`/`fcmp*`/`dcmp*`) and each switch.
    fn plan_method(&mut self, db: &ProgramDb, f: MethodId) {
        let Some(Ok(body)) = db.body(f) else { return };
        let mut probes = Vec::new();
        let mut push = |tags: &mut Vec<Tag>, at: usize, shape: RecordShape, kind: TagKind| {
            probes.push((InsnIdx::new(at), shape, tags.len() as u32));
            tags.push(Tag { method: f, kind });
        };
        push(&mut self.tags, 0, RecordShape::Event, TagKind::Entry);
        for (i, insn) in body.insns.iter().enumerate() {
            if insn.is_switch() {
                push(&mut self.tags, i, RecordShape::Int, TagKind::Switch { insn: InsnIdx::new(i) });
                continue;
            }
            let Some((kind, c)) = branch_cond(insn.op()) else { continue };
            let before = i.checked_sub(1).and_then(|p| cmp_kind(body.insns[p].op()));
            let (at, shape, operands) = match (kind, before) {
                (ProbeKind::BranchZero, Some((ProbeKind::CmpLong, _))) => {
                    (i - 1, RecordShape::LongLong, Operands::Long)
                }
                (ProbeKind::BranchZero, Some((ProbeKind::CmpFloat, g))) => {
                    (i - 1, RecordShape::FloatFloat, Operands::Float { nan_greater: g })
                }
                (ProbeKind::BranchZero, Some((_, g))) => {
                    (i - 1, RecordShape::DoubleDouble, Operands::Double { nan_greater: g })
                }
                (ProbeKind::BranchZero, None) => (i, RecordShape::Int, Operands::Zero),
                (ProbeKind::BranchInt, _) => (i, RecordShape::IntInt, Operands::Int),
                (ProbeKind::BranchRef, _) => (i, RecordShape::RefRef, Operands::Ref),
                _ => (i, RecordShape::Ref, Operands::Null),
            };
            push(&mut self.tags, at, shape, TagKind::Jump { insn: InsnIdx::new(i), operands, cond: c });
        }
        probes.sort_by_key(|p| (p.0, p.2));
        let class = db.class_name(f.class()).to_string();
        self.planned.entry(class).or_default().insert(f.index(), probes);
    }

    /// The plan options' extension list naming this family. The family must outlive every plan
    /// made with it, and `PlanOptions` holds `'static` families (to stay `Copy`): the family is
    /// leaked, once per run that traces flags (a few kilobytes).
    pub fn leak(self) -> (&'static FlagContexts, Extensions) {
        let family: &'static FlagContexts = Box::leak(Box::new(self));
        let list: &'static [&'static dyn ProbeFamily] = Box::leak(Box::new([family as &dyn ProbeFamily]));
        (family, Extensions(list))
    }

    /// Flag methods traced.
    pub fn n_traced(&self) -> usize {
        self.planned.values().map(BTreeMap::len).sum()
    }
}

/// The method `m` (of class `class`) as a method under test, when one of its flag branches
/// reaches a flag method of `classes`.
fn mut_of(db: &ProgramDb, classes: &[String], class: &str, m: MethodId, a: &FlagAnalysis) -> Option<Mut> {
    let traced = |f: &MethodId| classes.iter().any(|c| c == db.class_name(f.class()));
    let spec = flags::spec::specs(db, a);
    let objectives: Vec<(InsnIdx, bool, FlagObjective)> = flags::spec::objectives(a)
        .into_iter()
        .filter(|(jump, _, _)| {
            a.branches
                .iter()
                .any(|b| b.branch == *jump && b.targets.iter().any(|t| traced(t) && spec.key(*t).is_some()))
        })
        .collect();
    if objectives.is_empty() {
        return None;
    }
    Some(Mut { class: class.to_string(), index: m.index(), spec, objectives })
}

impl ProbeFamily for FlagContexts {
    fn name(&self) -> &'static str {
        FLAG_CONTEXTS
    }

    fn plan(&self, method: &MethodView<'_>, at: InsnIdx, out: &mut Vec<RecordProbe>) {
        let Some(probes) = self.planned.get(&*method.class.name()).and_then(|c| c.get(&method.method.0))
        else {
            return;
        };
        let start = probes.partition_point(|p| p.0 < at);
        for &(_, shape, tag) in probes[start..].iter().take_while(|p| p.0 == at) {
            out.push(RecordProbe { shape, tag });
        }
    }
}

/// A flag branch outcome of the plan, as the refiner scores it.
#[derive(Debug)]
struct Objective {
    mut_idx: usize,
    goal: GoalId,
    /// The jump's branch probe (the goal counts as reached when it has distances).
    probe: ProbeId,
    objective: FlagObjective,
}

/// The fitness hook (`space::Refiner`) over one plan: see the module comment.
#[derive(Debug)]
pub struct FlagFitness {
    family: &'static FlagContexts,
    probes: FamilyProbes,
    objectives: Vec<Objective>,
    /// Call-site probes: the class, method and instruction of the call.
    sites: BTreeMap<ProbeId, (u32, u16, InsnIdx)>,
    /// Plan class id of each method under test.
    mut_class: Vec<Option<u32>>,
}

impl FlagFitness {
    /// The hook for `plan`, which was made with `family` among its extensions.
    pub fn new(family: &'static FlagContexts, plan: &ProbePlan) -> FlagFitness {
        let mut_class: Vec<Option<u32>> =
            family.muts.iter().map(|m| plan.class_id(&m.class).map(|c| c.0)).collect();
        let mut objectives = Vec::new();
        let mut sites = BTreeMap::new();
        for (i, p) in plan.probes().iter().enumerate() {
            let id = ProbeId(i as u32);
            let Some(method) = p.method else { continue };
            if p.kind == ProbeKind::CallSite {
                sites.insert(id, (p.class.0, method.0, p.insn));
                continue;
            }
            for (mi, m) in family.muts.iter().enumerate() {
                if mut_class[mi] != Some(p.class.0) || m.index != method.0 {
                    continue;
                }
                for &(jump, taken, objective) in m.objectives.iter().filter(|o| o.0 == p.insn) {
                    let goal = p.goals.iter().copied().find(|&g| {
                        matches!(plan.goal(g), Goal::Branch { probe, taken: t } if *probe == id && *t == taken)
                    });
                    if let Some(goal) = goal {
                        debug_assert_eq!(jump, p.insn);
                        objectives.push(Objective { mut_idx: mi, goal, probe: id, objective });
                    }
                }
            }
        }
        FlagFitness { family, probes: FamilyProbes::of(plan, FLAG_CONTEXTS), objectives, sites, mut_class }
    }

    /// Flag methods traced.
    pub fn n_traced(&self) -> usize {
        self.family.n_traced()
    }

    /// The flag branch outcomes the hook scores (branch goals of the plan), in plan order.
    pub fn goals(&self) -> impl Iterator<Item = GoalId> + '_ {
        self.objectives.iter().map(|o| o.goal)
    }

    /// The invocations of traced flag methods in `trace`, by invocation number; those after the
    /// first one a full probe may have missed records of are dropped.
    fn invocations(&self, trace: &Trace) -> BTreeMap<u32, Traced> {
        let mut res: BTreeMap<u32, Traced> = BTreeMap::new();
        let mut cutoff = u32::MAX;
        for (p, records) in self.probes.records(trace) {
            let Some(tag) = self.family.tags.get(p.tag as usize) else { continue };
            if records.len() >= rt_abi::record::PER_PROBE {
                cutoff = cutoff.min(records.iter().map(|r| r.frame).max().unwrap_or(0));
            }
            for r in records.iter().filter(|r| r.frame != 0) {
                let inv = res.entry(r.frame).or_insert_with(|| Traced {
                    method: tag.method,
                    parent: r.parent,
                    site: r.site,
                    branches: BTreeMap::new(),
                    keys: Vec::new(),
                });
                match tag.kind {
                    TagKind::Jump { insn, operands, cond } => {
                        let d = distances(operands, cond, r);
                        let e = inv.branches.entry(insn).or_insert(d);
                        e.taken = e.taken.min(d.taken);
                        e.not_taken = e.not_taken.min(d.not_taken);
                    }
                    TagKind::Switch { insn } => inv.keys.push((insn, r.a as i64 as i32)),
                    TagKind::Entry => {}
                }
            }
        }
        res.retain(|&frame, _| frame <= cutoff);
        res
    }

    /// The context-sensitive trace of method under test `mi`: the invocations entered from its
    /// call sites (one root per execution of a call site, numbered by occurrence across the
    /// test) and their descendants.
    fn flag_trace(&self, mi: usize, invs: &BTreeMap<u32, Traced>) -> FlagTrace {
        let m = &self.family.muts[mi];
        let mut contexts: BTreeMap<u32, Vec<Frame>> = BTreeMap::new();
        let mut occurrences: BTreeMap<(u32, ProbeId), u32> = BTreeMap::new();
        let mut out = Vec::new();
        for (&frame, inv) in invs {
            let Some(site) = inv.site else { continue };
            let Some(&(class, method, call)) = self.sites.get(&site) else { continue };
            let Some(callee) = m.spec.key(inv.method) else { continue };
            let parent_ctx = if Some(class) == self.mut_class[mi] && method == m.index {
                Vec::new()
            } else {
                match contexts.get(&inv.parent) {
                    Some(c) => c.clone(),
                    None => continue,
                }
            };
            let root = if parent_ctx.is_empty() { 0 } else { inv.parent };
            let n = occurrences.entry((root, site)).or_insert(0);
            let mut context = parent_ctx;
            context.push(Frame { call, occurrence: *n, callee });
            *n += 1;
            out.push(Invocation {
                context: context.clone(),
                branches: inv.branches.iter().map(|(&i, &d)| (i, d)).collect(),
                keys: inv.keys.clone(),
            });
            contexts.insert(frame, context);
        }
        FlagTrace::new(out)
    }
}

/// One invocation of a traced flag method, as the records tell it.
#[derive(Debug)]
struct Traced {
    method: MethodId,
    parent: u32,
    site: Option<ProbeId>,
    branches: BTreeMap<InsnIdx, Distances>,
    /// The switches run and the keys they switched on, in record order.
    keys: Vec<(InsnIdx, i32)>,
}

impl Refiner for FlagFitness {
    /// Each flag branch outcome reached with the wrong outcome (the jump ran, the goal is not
    /// covered) scores `flag_fitness` (digest §B2.7: `0 + ` the recovered distance) instead of
    /// the flat branch distance, when the trace has an invocation of its call site; a recovered
    /// 0 (the required branches ran, the flag still had the other value) keeps the flat value,
    /// since 0 would count the goal covered.
    fn refine(&self, trace: &Trace, all: &mut GoalFitness) {
        let pending: Vec<&Objective> = self
            .objectives
            .iter()
            .filter(|o| all.of(o.goal) > 0.0 && trace.branch(o.probe).is_some())
            .collect();
        if pending.is_empty() {
            return;
        }
        let invs = self.invocations(trace);
        if invs.is_empty() {
            return;
        }
        let mut by_mut: BTreeMap<usize, Vec<&Objective>> = BTreeMap::new();
        for o in pending {
            by_mut.entry(o.mut_idx).or_default().push(o);
        }
        let config = FitnessConfig { max_depth: 5 };
        for (mi, objectives) in by_mut {
            let ft = self.flag_trace(mi, &invs);
            let specs = &self.family.muts[mi].spec.specs;
            let mut eval = flags::fitness::Evaluator::new(specs, &ft, config);
            for o in objectives {
                match eval.branch_fitness_if(&[], o.objective.call, o.objective.needs) {
                    Some(v) if v > 0.0 => all.set(o.goal, v),
                    _ => {}
                }
            }
        }
    }
}

/// The distances to taking and to not taking a jump, from its recorded operands, as the
/// runtime's `Tracer.compare` computes them (docs/protocol.md "Branch distance").
fn distances(operands: Operands, c: i32, r: &Record) -> Distances {
    let (a, b) = match operands {
        Operands::Zero => (f64::from(r.a as i64 as i32), 0.0),
        Operands::Int => (f64::from(r.a as i64 as i32), f64::from(r.b as i64 as i32)),
        Operands::Long => (r.a as i64 as f64, r.b as i64 as f64),
        Operands::Ref => return boolean(r.a == r.b, c),
        Operands::Null => return boolean(r.a == 0, c),
        Operands::Float { nan_greater } => {
            let (x, y) = (f64::from(f32::from_bits(r.a as u32)), f64::from(f32::from_bits(r.b as u32)));
            return floating(x, y, nan_greater, c);
        }
        Operands::Double { nan_greater } => {
            return floating(f64::from_bits(r.a), f64::from_bits(r.b), nan_greater, c);
        }
    };
    compare(a, b, c)
}

/// `Tracer.compare`: `a OP b` with OP the jump's condition.
fn compare(a: f64, b: f64, c: i32) -> Distances {
    let eq = a == b;
    let d = if eq { 0.0 } else { (a - b).abs() };
    let (t, f) = match c {
        cond::EQ => (if eq { 0.0 } else { d }, if eq { 1.0 } else { 0.0 }),
        cond::NE => (if eq { 1.0 } else { 0.0 }, if eq { 0.0 } else { d }),
        cond::LT => {
            if a < b {
                (0.0, d)
            } else {
                (d + 1.0, 0.0)
            }
        }
        cond::GE => {
            if a >= b {
                (0.0, d + 1.0)
            } else {
                (d, 0.0)
            }
        }
        cond::GT => {
            if a > b {
                (0.0, d)
            } else {
                (d + 1.0, 0.0)
            }
        }
        _ => {
            if a <= b {
                (0.0, d + 1.0)
            } else {
                (d, 0.0)
            }
        }
    };
    Distances { taken: t, not_taken: f }
}

/// A reference comparison: `holds` is whether the EQ form holds.
fn boolean(holds: bool, c: i32) -> Distances {
    let taken = if c == cond::EQ { holds } else { !holds };
    if taken { Distances { taken: 0.0, not_taken: 1.0 } } else { Distances { taken: 1.0, not_taken: 0.0 } }
}

/// `fcmp*`/`dcmp*` then `if<cond>`: with a NaN the compare yields -1 (or +1 for the `g` forms),
/// which decides the jump (distance 0 to that side, 1 to the other).
fn floating(a: f64, b: f64, nan_greater: bool, c: i32) -> Distances {
    if a.is_nan() || b.is_nan() {
        let r = if nan_greater { 1.0 } else { -1.0 };
        let t = compare(r, 0.0, c);
        return if t.taken == 0.0 { boolean(true, cond::EQ) } else { boolean(false, cond::EQ) };
    }
    compare(a, b, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(a: u64, b: u64) -> Record {
        Record { depth: 1, frame: 1, parent: 0, site: None, a, b }
    }

    /// Hand-computed distances (docs/protocol.md): `if_icmplt 3 5` taken at 0, fall-through at
    /// 5 - 3 = 2; `ifeq` on 7: taken at 7; `ifnull` on a non-null reference: taken at 1.
    #[test]
    fn distances_follow_the_runtime() {
        let d = distances(Operands::Int, cond::LT, &rec(3, 5));
        assert_eq!((d.taken, d.not_taken), (0.0, 2.0));
        let d = distances(Operands::Zero, cond::EQ, &rec(7, 0));
        assert_eq!((d.taken, d.not_taken), (7.0, 0.0));
        let d = distances(Operands::Int, cond::NE, &rec((-4i64) as u64, (-4i64) as u64));
        assert_eq!((d.taken, d.not_taken), (1.0, 0.0));
        let d = distances(Operands::Null, cond::EQ, &rec(1 << 32 | 9, 0));
        assert_eq!((d.taken, d.not_taken), (1.0, 0.0));
        let d = distances(Operands::Long, cond::GE, &rec(10, 4242));
        assert_eq!((d.taken, d.not_taken), (4232.0, 0.0));
        let nan = f64::NAN.to_bits();
        let d = distances(Operands::Double { nan_greater: true }, cond::GT, &rec(nan, 0));
        assert_eq!((d.taken, d.not_taken), (0.0, 1.0));
    }
}
