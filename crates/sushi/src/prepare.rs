//! Before the search (digest §A.2.1 steps 1–2, §A.2.6): the symbolic exploration of every public
//! method of the class under test, and the path conditions the workers will evaluate, chosen by
//! rounds of path selection over the explored paths.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use goals::{GoalId, ProbePlan};
use programdb::ProgramDb;
use protocol::{Clause, PathCondition};
use symbolic::{Concolic, ExploredPath, PathEnd, SymConfig};

use crate::{Candidate, PathId, SushiConfig, select};

/// An explored path that may become a goal: its condition and the branch goals it traverses.
#[derive(Clone, Debug, PartialEq)]
pub struct PathCandidate {
    pub condition: PathCondition,
    pub branches: Vec<GoalId>,
}

/// What the exploration and the rounds of selection before the search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prepared {
    /// The paths whose conditions go to the workers, in `Setup::path_conditions` order: the
    /// first round's selection first (the paper's minimal cover), then the next rounds'.
    pub sent: Vec<PathCandidate>,
    /// The first round's paths (indices in `sent`): the goals the search starts with.
    pub first_round: usize,
    pub figures: ExploreFigures,
}

/// Figures of the exploration (report.json `sushi`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExploreFigures {
    /// Public methods explored, and those left out because the class's step, path or solver
    /// budget ran out or the method could not be found.
    pub methods: u64,
    pub methods_skipped: u64,
    /// Paths explored, and of them those that can be goals (they end and traverse a branch).
    pub paths: u64,
    pub candidates: u64,
    /// Branch goals some candidate traverses.
    pub branches: u64,
    pub steps: u64,
    pub solver_calls: u64,
    /// Z3 resource units spent, and whether a method's or the class's share ran out.
    pub solver_work: u64,
    pub work_exhausted: bool,
    /// Rounds of selection computed before the search.
    pub rounds: u64,
    /// Wall time of exploration and selection (reporting only: nothing depends on it).
    pub explore_time: Duration,
    pub select_time: Duration,
}

/// The public methods of `class` (internal name) that can be entries: declared in it, with a body,
/// not constructors or initialisers, not synthetic or bridges; in the class file's order.
fn entries(db: &ProgramDb, class: &str) -> Vec<(String, String)> {
    use classfile::access::{ABSTRACT, NATIVE, PUBLIC, SYNTHETIC, VOLATILE_OR_BRIDGE as BRIDGE};
    let Some(c) = db.class_id(class) else { return Vec::new() };
    let Ok(cf) = db.class(c) else { return Vec::new() };
    let cp = &cf.constant_pool;
    db.methods(c)
        .filter_map(|m| {
            let member = db.member(m)?;
            let f = member.access_flags;
            if f & PUBLIC == 0 || f & (ABSTRACT | NATIVE | SYNTHETIC | BRIDGE) != 0 {
                return None;
            }
            let (name, desc) = (member.name(cp)?, member.descriptor(cp)?);
            (!name.starts_with('<')).then(|| (name.to_string(), desc.to_string()))
        })
        .collect()
}

/// Explores every entry of `class` with `cfg.explore` (until `cfg.max_class_steps`,
/// `cfg.max_class_paths` or `cfg.max_class_solver_work`) and computes
/// the rounds of selection whose paths go to the workers: round 1 is the minimal set of paths
/// covering every branch some path covers (§A.2.1 step 2, all branches uncovered before the
/// search); round k + 1 the same over the paths not chosen yet, so that a spurious path of round k
/// has alternatives; until `cfg.max_conditions` paths or no path is left.
pub fn prepare(db: &ProgramDb, plan: &ProbePlan, class: &str, cfg: &SushiConfig) -> Prepared {
    let mut figures = ExploreFigures::default();
    let started = Instant::now();
    let mut candidates: Vec<PathCandidate> = Vec::new();
    let mut concolic = Concolic::new(db, plan, SymConfig::STANDARD);
    let entries = entries(db, class);
    let n = entries.len() as u64;
    for (i, (name, desc)) in entries.into_iter().enumerate() {
        let left = u64::from(cfg.max_class_paths).saturating_sub(figures.paths);
        let work_left = cfg.max_class_solver_work.saturating_sub(figures.solver_work);
        if figures.steps >= cfg.max_class_steps || left == 0 || work_left == 0 {
            figures.methods_skipped += 1;
            continue;
        }
        // An even share of what is left for this method and the ones after it (what a method
        // leaves goes to the next ones), so that the first methods cannot starve the last:
        // IntTree's `shape`, fifth in its class file, was skipped when `contains` and `insert`
        // took 400 paths each.
        let methods_left = n - i as u64;
        let mut explore = cfg.explore.clone();
        explore.max_paths = explore.max_paths.min(left.div_ceil(methods_left) as u32);
        explore.max_solver_work = cfg.method_solver_work().min(work_left.div_ceil(methods_left));
        let Ok(e) = concolic.explore(class, &name, &desc, &explore) else {
            figures.methods_skipped += 1;
            continue;
        };
        figures.methods += 1;
        figures.paths += e.paths.len() as u64;
        figures.steps += e.stats.steps;
        figures.solver_calls += e.stats.solver_calls;
        figures.solver_work += e.stats.solver_work;
        figures.work_exhausted |= e.stats.solver_work_exhausted;
        candidates.extend(e.paths.into_iter().filter_map(candidate));
    }
    // Path ids in order of fewest alias clauses, exploration order within (a stable sort): the
    // selection breaks ties towards the lowest id, and of paths covering the same branches the
    // one whose inputs share the fewest objects is the likeliest to be a heap a legal call
    // sequence builds (the depth-first order tries aliases before fresh objects, so the first
    // found is often a cycle no method makes: LinkedHeap's spurious goals 11 -> 0). The paper
    // leaves ties open.
    candidates.sort_by_key(|c| c.condition.clauses.iter().filter(|k| matches!(k, Clause::Alias(..))).count());
    figures.candidates = candidates.len() as u64;
    figures.explore_time = started.elapsed();
    let started = Instant::now();
    let all: Vec<Candidate<GoalId>> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| Candidate { id: PathId(i as u32), branches: c.branches.clone() })
        .collect();
    let branches: BTreeSet<GoalId> = candidates.iter().flat_map(|c| c.branches.iter().copied()).collect();
    figures.branches = branches.len() as u64;
    let mut tried: BTreeSet<PathId> = BTreeSet::new();
    let mut order: Vec<PathId> = Vec::new();
    let mut first_round = 0;
    while order.len() < cfg.max_conditions {
        let s = select(&all, &branches, &tried, &cfg.select);
        if s.paths.is_empty() {
            break;
        }
        figures.rounds += 1;
        for p in s.paths {
            if order.len() < cfg.max_conditions {
                order.push(p);
            }
            tried.insert(p);
        }
        if figures.rounds == 1 {
            first_round = order.len();
        }
    }
    figures.select_time = started.elapsed();
    let sent = order.into_iter().map(|p| candidates[p.0 as usize].clone()).collect();
    Prepared { sent, first_round, figures }
}

/// A path that can be a goal: it ended (returned or threw) or was stopped by a bound, and it
/// traverses a branch. A path the solver left `unknown` was never run, and one the interpreter
/// stopped (an unsupported operation) may not be what the JVM does: both are left out.
fn candidate(p: ExploredPath) -> Option<PathCandidate> {
    match p.end {
        PathEnd::Return(_) | PathEnd::Exception(_) | PathEnd::Bound(_) => {}
        PathEnd::Stop(_) | PathEnd::Unknown => return None,
    }
    (!p.covered.is_empty()).then_some(PathCandidate { condition: p.condition, branches: p.covered })
}
