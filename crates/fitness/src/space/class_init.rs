//! The goals only class initialisation reaches. The worker initialises every class under test at
//! set-up, before any test, so that each test starts from the state the static reset re-creates
//! (`java/runtime/.../WorkerMain.initialiseAll`): `<clinit>` code and what it runs never show in a
//! test's trace. Such goals are left out of the search (`init_goals`) and counted covered when the
//! tests load their class (`GoalSpace::class_init_goals`), which takes knowing what loading a class
//! loads and initialises (`ClassLoading`, read through the program database by `init_triggers`).

use jvm_model::ClassName;
use std::collections::{BTreeMap, BTreeSet};

use goals::{Criterion, GoalId, ProbeId, ProbePlan};
use programdb::{ClassId, ProgramDb};
use protocol::{Outcome, Trace};

use super::GoalSpace;
use crate::eval::goal_fitness;
use crate::model::GoalModel;

/// What loading a class under test loads and initialises, from the class files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassLoading {
    /// The class under test (internal name): every test loads it.
    cut: String,
    /// Superclass of each planned class (internal names): initialising a class initialises its
    /// superclasses first (JVMS §5.5).
    supers: BTreeMap<String, String>,
    /// Planned classes the compiler generated (`ACC_SYNTHETIC`, e.g. javac's `$SwitchMap$`
    /// holders): their goals count in no criterion, as JaCoCo filters them too, since no source line
    /// of the user's is in them and when they load depends on the compiler, not on the tests.
    synthetic: BTreeSet<String>,
    /// For each line of planned code (class, line), the other planned classes an instruction on it
    /// initialises when it runs (`init_triggers`).
    triggers: BTreeMap<String, BTreeMap<u16, BTreeSet<String>>>,
}

impl ClassLoading {
    /// What the classes of `plan` load, read from the program database they were planned from; `cut`
    /// is the class under test's internal name. A planned class the database lacks adds nothing (the
    /// plan was made from it, so this does not happen).
    pub fn read(db: &ProgramDb, cut: &str, plan: &ProbePlan) -> ClassLoading {
        let mut res = ClassLoading { cut: cut.to_string(), ..ClassLoading::default() };
        let planned: BTreeSet<&str> = plan.classes().iter().map(|c| c.name.as_str()).collect();
        for c in plan.classes() {
            let Some(id) = db.class_id(&c.name) else { continue };
            let Ok(file) = db.class(id) else { continue };
            init_triggers(db, id, &planned, &mut res.triggers);
            if let Some(sup) = file.super_name() {
                res.supers.insert(c.name.clone(), sup.into_owned());
            }
            if file.access_flags & classfile::access::SYNTHETIC != 0 {
                res.synthetic.insert(c.name.clone());
            }
        }
        res
    }
}

/// Adds to `out`, for each source line of `class`'s methods, the classes of `planned` (other than
/// `class`) that an instruction on that line initialises when it runs: the class of a `new`, of a
/// `getstatic`/`putstatic`, of an `invokestatic` (JVMS §5.5). A method that does not decode (the goal
/// model has decoded every instrumented one) adds nothing.
pub(crate) fn init_triggers(
    db: &ProgramDb,
    id: ClassId,
    planned: &BTreeSet<&str>,
    out: &mut BTreeMap<String, BTreeMap<u16, BTreeSet<String>>>,
) {
    use bytecode::{Insn, Opcode};
    let Ok(file) = db.class(id) else { return };
    let class = db.class_name(id);
    let cp = &file.constant_pool;
    for m in db.methods(id) {
        // The bodies the goal model decoded, from the database: no second decode.
        let Some(Ok(body)) = db.body(m) else { continue };
        let mut lines: Vec<(usize, u16)> = body.lines().map(|e| (e.start.index(), e.line)).collect();
        lines.sort_unstable();
        for (i, insn) in body.insns.iter().enumerate() {
            let target = match insn {
                Insn::Type { op, index } if *op == Opcode::NEW => cp.class_name(*index),
                Insn::Field { op, index } if *op == Opcode::GETSTATIC || *op == Opcode::PUTSTATIC => {
                    cp.member_ref(*index).map(|r| r.class)
                }
                Insn::Invoke { op, index } if *op == Opcode::INVOKESTATIC => {
                    cp.member_ref(*index).map(|r| r.class)
                }
                _ => None,
            };
            let Some(target) = target.filter(|t| t != class && planned.contains(t.as_ref())) else {
                continue;
            };
            let Some(&(_, line)) = lines.iter().rev().find(|&&(start, _)| start <= i) else { continue };
            out.entry(class.to_string()).or_default().entry(line).or_default().insert(target.into_owned());
        }
    }
}

/// Whether every probe of a goal sits in a static initialiser (or outside any method): no test
/// trace ever shows `<clinit>` code, so such goals are out of the search's reach.
fn only_in_class_init(plan: &ProbePlan, g: GoalId) -> bool {
    let probes = plan.probes_of_goal(g);
    !probes.is_empty() && probes.iter().all(|&p| plan.method_of(p).is_none_or(|m| m.name == "<clinit>"))
}

/// The goals a test can never cover because the worker runs them at set-up, before any test, in
/// model order:
/// - every goal whose probes all sit in a static initialiser (`only_in_class_init`);
/// - the line and branch goals `init_trace` covers: code that runs while the classes initialise, as
///   a singleton's private constructor or a helper filling a static table. Such code runs again
///   under static reset, but reset is untraced, and the JVM initialises a class once. Only line and
///   branch goals count: they are what the written tests execute and JaCoCo measures when they load
///   the class, whereas method, output and mutation goals are about calls a test makes.
pub(super) fn init_goals(model: &GoalModel, init_trace: &Trace) -> Vec<GoalId> {
    let at_init = goal_fitness(model, init_trace);
    model
        .goal_ids()
        .filter(|&g| {
            only_in_class_init(model.plan(), g)
                || (matches!(model.goal(g).criterion(), Criterion::Line | Criterion::Branch)
                    && at_init.of(g) == 0.0)
        })
        .collect()
}

impl GoalSpace {
    /// Per criterion of `criteria`, the goals left out of the search because the worker's set-up
    /// runs them (`init_goals`), as (criterion, covered, total). The written tests trigger those
    /// initialisers themselves for every class they load, so a goal counts covered when its class
    /// is loaded by the suite whose executions are `runs` (each test's trace and outcomes):
    /// `loaded_classes`. A nested class no test loads is never initialised by the tests: its goals
    /// count uncovered, as JaCoCo sees them, and are listed (as `uncovered` lists goals) in the
    /// second value.
    pub fn class_init_goals(
        &self,
        criteria: &[Criterion],
        runs: &[(&Trace, &[Outcome])],
    ) -> (Vec<(Criterion, usize, usize)>, Vec<String>) {
        let plan = self.model.plan();
        let loaded = self.loaded_classes(runs);
        let mut per: BTreeMap<Criterion, (usize, usize)> = BTreeMap::new();
        let mut uncovered = Vec::new();
        for &g in &self.init_goals {
            let criterion = self.model.goal(g).criterion();
            let class = plan.goal_class(g);
            if !criteria.contains(&criterion) || self.loading.synthetic.contains(class) {
                continue;
            }
            let e = per.entry(criterion).or_default();
            e.1 += 1;
            if loaded.contains(class) {
                e.0 += 1;
            } else {
                uncovered.push(self.static_text(g));
            }
        }
        (per.into_iter().map(|(c, (covered, total))| (c, covered, total)).collect(), uncovered)
    }

    /// The classes a suite loads: the class under test, a class one of its tests hits a probe of
    /// or holds an instance of (an object or enum value a statement gave), a class an executed
    /// line initialises (`triggers`: `new`, static field or static method of it), the superclasses
    /// of these, and what the initialisers of these initialise.
    fn loaded_classes(&self, runs: &[(&Trace, &[Outcome])]) -> BTreeSet<String> {
        let (plan, loading) = (self.model.plan(), &self.loading);
        let mut hit: BTreeSet<u32> = BTreeSet::new();
        let mut loaded: BTreeSet<String> = BTreeSet::new();
        loaded.insert(loading.cut.clone());
        for (trace, outcomes) in runs {
            hit.extend(trace.hits.iter().map(|(p, _)| p.0).filter(|&p| (p as usize) < plan.n_probes()));
            for o in *outcomes {
                if let Outcome::Value(
                    protocol::Value::Object { class } | protocol::Value::Enum { class, .. },
                ) = o
                {
                    loaded.insert(ClassName::from_binary(class).into_internal());
                }
            }
        }
        // Each probe hit at least once, once: its class, and what its line initialises.
        for p in hit {
            let probe = plan.probe(ProbeId(p));
            let class = &plan.class(probe.class).name;
            if let Some(t) = probe.line.and_then(|l| loading.triggers.get(class)?.get(&l)) {
                loaded.extend(t.iter().cloned());
            }
            loaded.insert(class.clone());
        }
        // A loaded class has loaded its superclasses, and ran its initialiser: what the lines
        // initialisation ran (the line goals of `init_goals`) initialise is loaded too (an
        // anonymous class a static field holds).
        let mut init_lines: BTreeMap<&str, Vec<u16>> = BTreeMap::new();
        for &g in &self.init_goals {
            if let goals::Goal::Line { class, line } = self.model.goal(g) {
                init_lines.entry(plan.class(*class).name.as_str()).or_default().push(*line);
            }
        }
        let mut work: Vec<String> = loaded.iter().cloned().collect();
        while let Some(c) = work.pop() {
            let mut next: Vec<&String> = loading.supers.get(&c).into_iter().collect();
            if let (Some(lines), Some(by_line)) = (init_lines.get(c.as_str()), loading.triggers.get(&c)) {
                next.extend(lines.iter().filter_map(|l| by_line.get(l)).flatten());
            }
            for n in next {
                if loaded.insert(n.clone()) {
                    work.push(n.clone());
                }
            }
        }
        loaded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search_fixtures() -> ProgramDb {
        test_support::open_db(&[test_support::fixture_classes("search")])
    }

    /// A switch on an enum reads javac's switch map (`getstatic Alarm$1.$SwitchMap$...`) on the
    /// `switch` line: running that line initialises `Alarm$1`, and `Level` (not planned here)
    /// and `Alarm` itself are never triggers.
    #[test]
    fn switch_map_is_initialised_by_the_switch_line() {
        let planned: BTreeSet<&str> = ["search/Alarm", "search/Alarm$1"].into_iter().collect();
        let mut out = BTreeMap::new();
        let db = search_fixtures();
        let alarm = db.class_id("search/Alarm").expect("Alarm");
        init_triggers(&db, alarm, &planned, &mut out);
        let want: BTreeSet<String> = ["search/Alarm$1".to_string()].into_iter().collect();
        assert_eq!(out, BTreeMap::from([("search/Alarm".to_string(), BTreeMap::from([(12, want)]))]));
    }
}
