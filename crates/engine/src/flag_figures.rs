//! Interprocedural flag fitness (paper 001, docs/flags.md) in a run: what the workers trace for it,
//! and what report.json says it found and what a suite covers of it.

use exec::ExecResult;
use fitness::{FlagContexts, FlagFitness, GoalFitness, GoalSpace};

/// What interprocedural flag fitness found and what a suite covers of it (report.json `flags`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagFigures {
    /// Flag methods traced (in the classes under test).
    pub methods: usize,
    /// Flag branch outcomes (branch goals) scored by the flag fitness, and how many are covered.
    pub branches: usize,
    pub covered: usize,
    /// The flag branch outcomes left uncovered, as text.
    pub uncovered: Vec<String>,
}

/// What flag fitness found and what `results` cover of it; `None` when it is off or found nothing
/// to trace.
pub(crate) fn flag_figures(
    flags: Option<&FlagFitness>,
    space: &GoalSpace,
    results: &[ExecResult],
) -> Option<FlagFigures> {
    let flags = flags?;
    let all: Vec<GoalFitness> =
        results.iter().map(|r| fitness::goal_fitness(space.model(), &r.trace)).collect();
    let (mut branches, mut covered, mut uncovered) = (0, 0, Vec::new());
    for g in flags.goals() {
        branches += 1;
        if all.iter().any(|f| f.is_covered(g)) {
            covered += 1;
        } else {
            uncovered.push(space.model_goal_text(g));
        }
    }
    Some(FlagFigures { methods: flags.n_traced(), branches, covered, uncovered })
}

/// Interprocedural flag fitness (paper 001, docs/flags.md): the flag branches of `classes` and
/// the flag methods among them to trace, with the tracing family added to `options`' plan;
/// `None` (and `options` unchanged) when there is nothing to trace.
pub(crate) fn flag_tracing(
    db: &programdb::ProgramDb,
    classes: &[String],
    options: &mut instrument::Options,
) -> Option<&'static FlagContexts> {
    let (family, extensions) = FlagContexts::build(db, classes)?.leak();
    options.plan.extensions = extensions;
    Some(family)
}
