//! The run's allocation of its search among the techniques (`Allocation`, docs/portfolio.md). The
//! technique hooks are built once (`TechniqueHooks`); under `Allocation::Fixed` each is called at
//! every `between`, as before the portfolio; under `Allocation::Adaptive` they are the arms of one
//! `portfolio::Portfolio`, the search's only hook, which calls an arm while its cost is within the
//! share its earnings give it. DSE is metered by its own work (`dse::Dse::work`) and each of its
//! calls stops at the allowance the portfolio gives it (`DseArm`); SUSHI earns the path goals it
//! solved (`SushiArm`), and its exploration, done when the problem was built, is charged to its arm
//! before the search starts; the others are metered by the tests they inject (`portfolio::Plain`).
//!
//! Not here: the gates themselves and the rule (crate `portfolio`), which techniques a class keeps
//! (`Techniques::gated`), building the problem or the cluster (`search_class_in`).

use std::time::Duration;

use portfolio::{
    Allowance, Arm, ArmReport, Gate, Ledger, Metered, Plain, Portfolio, PortfolioArm, PortfolioConfig,
};
use search::{Clock, Hook, ProblemError, SearchError, SearchResult, View};
use testcase::{TestCase, TestRng};

use crate::{EngineError, JvmProblem};

/// The technique hooks of one search, each `None` when its technique is off.
pub(crate) struct TechniqueHooks<'a> {
    pub dse: Option<dse::Dse<'a>>,
    pub ocg: Option<ocg::OcgHook<'a>>,
    pub sushi: Option<sushi::SushiHook>,
    pub local: Option<localsearch::LocalSearch>,
}

impl TechniqueHooks<'_> {
    /// Every hook, in the order the search calls them: DSE, templates, SUSHI, local search.
    pub(crate) fn all(&mut self) -> Vec<&mut dyn Hook<JvmProblem>> {
        self.dse
            .iter_mut()
            .map(|h| h as &mut dyn Hook<JvmProblem>)
            .chain(self.ocg.iter_mut().map(|h| h as &mut dyn Hook<JvmProblem>))
            .chain(self.sushi.iter_mut().map(|h| h as &mut dyn Hook<JvmProblem>))
            .chain(self.local.iter_mut().map(|h| h as &mut dyn Hook<JvmProblem>))
            .collect()
    }
}

/// The gates of `class` (binary name) in the run's database.
pub(crate) fn class_gates(db: &programdb::ProgramDb, class: &str) -> Result<Vec<Gate>, EngineError> {
    let internal = jvm_model::ClassName::from_binary(class).into_internal();
    let id = db.class_id(&internal).ok_or_else(|| EngineError::MissingClass(class.to_string()))?;
    Ok(portfolio::gates(db, id)?)
}

/// What SUSHI's exploration and selection cost: their wall time, and their work in evaluation
/// equivalents at DSE's rates (`dse::budget`: interpreter steps and Z3 units are the same kinds of
/// work), so that a run with an evaluation budget charges a deterministic count.
pub(crate) fn exploration_cost(f: &sushi::ExploreFigures) -> (Duration, u64) {
    let work = f.steps / dse::INSTRUCTIONS_PER_EVALUATION + f.solver_work / dse::RLIMIT_PER_EVALUATION;
    (f.explore_time + f.select_time, work)
}

/// The search's budget once SUSHI's exploration (`explored`, wall time) is counted inside it: a
/// time budget loses the exploration's time, so that `--budget` bounds exploration and search
/// together. An evaluation budget is the search's evaluations and stays: the exploration is in
/// SUSHI's account instead, as every arm's work is.
pub(crate) fn less_exploration(mut budget: search::Budget, explored: Duration) -> search::Budget {
    budget.time = budget.time.map(|t| t.saturating_sub(explored));
    budget
}

/// DSE's parameters under `allocation`: under the portfolio its own share limit is off, since the
/// portfolio's share of DSE replaces it (one accounting for all arms).
pub(crate) fn dse_config(config: &dse::DseConfig, adaptive: bool) -> dse::DseConfig {
    if adaptive { dse::DseConfig { share: 0.0, time_share: 0.0, ..config.clone() } } else { config.clone() }
}

/// The portfolio's lines for a class whose search ran without hooks: the gates, no account.
pub(crate) fn report_without_hooks(
    config: &PortfolioConfig,
    gates: &[Gate],
    budget: &search::Budget,
) -> Vec<ArmReport> {
    let budget = portfolio::Budget::of(budget);
    portfolio::report(gates, &Ledger::new(&[], budget.measure(), config.decay_for(budget)))
}

/// DSE as an arm: metered by its own work, and each call limited to the portfolio's allowance (an
/// application runs to its own budgets otherwise: 10,362 evaluation equivalents in one call on
/// `dse.Keyword`).
struct DseArm<'h, 'a>(&'h mut dse::Dse<'a>);

impl Hook<JvmProblem> for DseArm<'_, '_> {
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut JvmProblem,
        rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        self.0.between(view, problem, rng)
    }
}

impl Metered<JvmProblem> for DseArm<'_, '_> {
    fn work(&self) -> Option<u64> {
        Some(self.0.work())
    }

    fn allow(&mut self, allowance: Allowance) {
        self.0.limit_next_call(match allowance {
            Allowance::Work(units) => dse::CallLimit::Work(units),
            Allowance::Seconds(s) => dse::CallLimit::Seconds(s),
        });
    }
}

/// SUSHI as an arm: it injects no tests but adds path goals, and earns those solved.
struct SushiArm<'h>(&'h mut sushi::SushiHook);

impl Hook<JvmProblem> for SushiArm<'_> {
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut JvmProblem,
        rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        self.0.between(view, problem, rng)
    }
}

impl Metered<JvmProblem> for SushiArm<'_> {
    fn earned(&self) -> u64 {
        self.0.solved()
    }
}

/// Runs the search (`run`, given the search's hooks) with `hooks` as the arms of one portfolio with
/// `config` over the class's `gates`, SUSHI's arm charged `explored` (time, work) first; the
/// search's result and the portfolio's report.
pub(crate) fn adaptive<F>(
    hooks: &mut TechniqueHooks<'_>,
    config: &PortfolioConfig,
    gates: Vec<Gate>,
    budget: &search::Budget,
    clock: &dyn Clock,
    explored: Option<(Duration, u64)>,
    run: F,
) -> Result<(SearchResult, Vec<ArmReport>), SearchError>
where
    F: FnOnce(Vec<&mut dyn Hook<JvmProblem>>) -> Result<SearchResult, SearchError>,
{
    let mut dse = hooks.dse.as_mut().map(DseArm);
    let mut ocg = hooks.ocg.as_mut().map(|h| Plain(h as &mut dyn Hook<JvmProblem>));
    let mut sushi = hooks.sushi.as_mut().map(SushiArm);
    let mut local = hooks.local.as_mut().map(|h| Plain(h as &mut dyn Hook<JvmProblem>));
    let arms: Vec<PortfolioArm<'_, JvmProblem>> = [
        (Arm::Dse, dse.as_mut().map(|h| h as &mut dyn Metered<JvmProblem>)),
        (Arm::Ocg, ocg.as_mut().map(|h| h as &mut dyn Metered<JvmProblem>)),
        (Arm::Sushi, sushi.as_mut().map(|h| h as &mut dyn Metered<JvmProblem>)),
        (Arm::LocalSearch, local.as_mut().map(|h| h as &mut dyn Metered<JvmProblem>)),
    ]
    .into_iter()
    .filter_map(|(arm, hook)| hook.map(|hook| PortfolioArm { arm, hook }))
    .collect();
    let mut portfolio = Portfolio::new(config.clone(), portfolio::Budget::of(budget), clock, arms, gates);
    if let Some((time, work)) = explored {
        portfolio.charge(Arm::Sushi, time, work);
    }
    let result = run(vec![&mut portfolio])?;
    Ok((result, portfolio.report()))
}
