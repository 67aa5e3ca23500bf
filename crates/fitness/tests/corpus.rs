//! The goal model over every class of a real jar (commons-lang3): it builds, every goal has a site,
//! every dependence is a branch goal, and on an empty trace (nothing ran) every goal gets a finite
//! fitness, i.e. a chain of control dependences leads from a method entry to each goal. Also
//! prints how long scoring one trace takes on the largest class.

use std::path::Path;
use std::time::Instant;

use fitness::{GoalModel, UNREACHABLE, goal_fitness};
use goals::{Goal, PlanOptions, ProbePlan};
use protocol::Trace;

#[test]
fn models_of_commons_lang3() {
    let jar = Path::new("/usr/share/java/commons-lang3.jar");
    let entry = classfile::ClassPathEntry::open(jar).expect("open jar");
    let mut classes: Vec<(String, Vec<u8>)> = entry.class_files().map(|r| r.expect("read class")).collect();
    classes.sort();
    let (mut n_goals, mut n_classes) = (0, 0);
    let mut largest: Option<(usize, GoalModel)> = None;
    for (name, bytes) in &classes {
        let mut plan = ProbePlan::new();
        plan.add_class_bytes(bytes, &PlanOptions::all()).expect("plan");
        let model = GoalModel::build(&plan, &[classfile::ClassFile::parse(bytes).expect("parse")])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let fit = goal_fitness(&model, &Trace::default());
        for g in model.goal_ids() {
            let info = model.info(g);
            assert!(!info.sites.is_empty() || plan.probes_of_goal(g).is_empty(), "{name} {g}: no site");
            for d in info.deps() {
                assert!(
                    matches!(model.goal(d), Goal::Branch { .. } | Goal::SwitchCase { .. }),
                    "{name} {g} <- {d}"
                );
            }
            assert!(fit.of(g) < UNREACHABLE, "{name} {g} {:?}: unreachable", model.goal(g));
            assert!(fit.of(g) > 0.0, "{name} {g}: covered by an empty trace");
        }
        n_goals += model.n_goals();
        n_classes += 1;
        if largest.as_ref().is_none_or(|(n, _)| model.n_goals() > *n) {
            largest = Some((model.n_goals(), model));
        }
    }
    assert!(n_goals > 50_000, "{n_goals} goals");
    let (n, model) = largest.expect("a class");
    let t0 = Instant::now();
    let rounds = 20;
    for _ in 0..rounds {
        std::hint::black_box(goal_fitness(&model, &Trace::default()));
    }
    eprintln!(
        "{n_classes} classes, {n_goals} goals; largest class {n} goals: {:?} per trace",
        t0.elapsed() / rounds
    );
}
