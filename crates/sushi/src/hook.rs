//! The loop of digest §A.2.5–A.2.6 inside the search, as a `search::Hook`: path conditions become
//! goals beside the branches they lead to; a goal a test solves (distance 0) has that test
//! re-executed and checked to cover the path's branches; a goal still unsolved after
//! `SushiConfig::patience` evaluations is taken as possibly spurious, and the branches its path
//! was chosen for go back to selection, among the paths the workers know and no round tried yet.
//!
//! Deviation from the paper, which runs EvoSuite once per round with only the path-condition
//! goals: here the goals join the search's own (DynaMOSA targets them beside the branches), and a
//! round is triggered per goal, not when the whole round is done.

use std::collections::{BTreeMap, BTreeSet};

use fitness::PathGoal;
use goals::GoalId;
use search::{GoalIdx, Hook, ProblemError, View};
use testcase::{TestCase, TestRng};

use crate::prepare::Prepared;
use crate::{Candidate, PathId, SushiConfig, select};

/// What SUSHI asks of the search's problem.
pub trait SushiTarget {
    /// The search goal of a model branch goal, when it is searched.
    fn branch_goal(&self, goal: GoalId) -> Option<GoalIdx>;
    /// Registers path goals after the goals known now; their search goals, in order.
    fn register_paths(&mut self, goals: Vec<PathGoal>) -> Vec<GoalIdx>;
    /// The path conditions (indices in the set-up) whose distances the search's batches need from
    /// now on: the goals' not solved yet. The others' goals score as if their entry was never called.
    fn focus_paths(&mut self, pcs: &[u32]);
    /// Runs tests (after the batch in flight) and returns each one's fitness of every goal.
    fn run_tests(&mut self, tests: &[TestCase]) -> Result<Vec<Vec<f64>>, ProblemError>;
}

/// What SUSHI did in a search (report.json `sushi`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SushiStats {
    pub explore: crate::ExploreFigures,
    /// Path conditions sent to the workers, and of them those made goals (selected).
    pub sent: u64,
    pub selected: u64,
    /// Selected goals a test solved and that took their path's branches (checked by re-execution).
    pub solved: u64,
    /// Solved goals whose test did not cover all the path's branches (a condition weaker than its
    /// path: clauses left out, `ExploredPath::dropped`); not counted as solved.
    pub unsound: u64,
    /// Goals unsolved after `patience` evaluations: possibly spurious.
    pub spurious: u64,
    /// Goals neither solved nor spurious when the search ended.
    pub open: u64,
    /// Goals whose branches the search covered before any test solved them.
    pub covered_otherwise: u64,
    /// Selections made during the search (after the first).
    pub reselections: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Open,
    Solved,
    Unsound,
    Spurious,
}

#[derive(Clone, Debug)]
struct Active {
    /// Index in `Prepared::sent` (= the condition's index in the set-up).
    path: usize,
    goal: GoalIdx,
    since: u64,
    state: State,
}

/// The hook (see the module doc).
#[derive(Debug)]
pub struct SushiHook {
    config: SushiConfig,
    prepared: Prepared,
    /// `prepared.sent` as selection candidates (ids are indices in `sent`), made once.
    candidates: Vec<Candidate<GoalId>>,
    active: Vec<Active>,
    tried: BTreeSet<PathId>,
    started: bool,
    stats: SushiStats,
}

impl SushiHook {
    pub fn new(config: &SushiConfig, prepared: Prepared) -> SushiHook {
        let stats = SushiStats {
            explore: prepared.figures.clone(),
            sent: prepared.sent.len() as u64,
            ..SushiStats::default()
        };
        let candidates = prepared
            .sent
            .iter()
            .enumerate()
            .map(|(i, c)| Candidate { id: PathId(i as u32), branches: c.branches.clone() })
            .collect();
        SushiHook {
            config: config.clone(),
            prepared,
            candidates,
            active: Vec::new(),
            tried: BTreeSet::new(),
            started: false,
            stats,
        }
    }

    /// Path goals solved so far (checked by re-execution): what the hook earns, since it adds goals
    /// rather than tests.
    pub fn solved(&self) -> u64 {
        self.stats.solved
    }

    pub fn stats(&self) -> SushiStats {
        let mut s = self.stats.clone();
        s.open = self.active.iter().filter(|a| a.state == State::Open).count() as u64;
        s
    }

    /// The goals of the paths `paths` (indices in `sent`), registered with the problem.
    fn register<P: SushiTarget>(&mut self, paths: &[usize], problem: &mut P, evaluations: u64) {
        let goals: Vec<PathGoal> = paths
            .iter()
            .map(|&i| {
                let c = &self.prepared.sent[i];
                let pc = &c.condition;
                PathGoal {
                    pc: i as u32,
                    branches: c.branches.clone(),
                    entry: format!("{}.{}{}", pc.class, pc.name, pc.descriptor),
                }
            })
            .collect();
        let ids = problem.register_paths(goals);
        for (&path, goal) in paths.iter().zip(ids) {
            self.tried.insert(PathId(path as u32));
            self.active.push(Active { path, goal, since: evaluations, state: State::Open });
        }
        self.stats.selected += paths.len() as u64;
    }

    /// Whether every searched branch of a path is covered in the archive.
    fn branches_covered<P: SushiTarget>(&self, path: usize, view: &View<'_>, problem: &P) -> bool {
        searched(&self.prepared.sent[path].branches, problem).all(|g| view.archive().is_covered(g))
    }

    /// Checks the goals tests solved since the last call (re-execution, §A.2.5), and marks those
    /// unsolved past their patience as spurious; whether any goal left `Open`.
    fn update<P: SushiTarget>(&mut self, view: &View<'_>, problem: &mut P) -> Result<bool, ProblemError> {
        let solved: Vec<(usize, TestCase)> = self.solved_open(view.archive());
        let mut changed = !solved.is_empty();
        self.check(solved, problem)?;
        let now = view.evaluations();
        for i in 0..self.active.len() {
            let a = &self.active[i];
            if a.state != State::Open || now.saturating_sub(a.since) < self.config.patience {
                continue;
            }
            if self.branches_covered(a.path, view, problem) {
                self.stats.covered_otherwise += 1;
            } else {
                self.stats.spurious += 1;
            }
            self.active[i].state = State::Spurious;
            changed = true;
        }
        Ok(changed)
    }

    /// Selection among the untried sent paths for the searched branches no test covers yet and no
    /// open goal is after (§A.2.6's `ilp_min_cover(paths \ tried, branches_not_in(covered))`).
    fn reselect<P: SushiTarget>(&mut self, view: &View<'_>, problem: &mut P) {
        let pursued: BTreeSet<GoalId> = self
            .active
            .iter()
            .filter(|a| a.state == State::Open)
            .flat_map(|a| self.prepared.sent[a.path].branches.iter().copied())
            .collect();
        let mut status: BTreeMap<GoalId, bool> = BTreeMap::new();
        let uncovered: BTreeSet<GoalId> = self
            .prepared
            .sent
            .iter()
            .flat_map(|c| c.branches.iter().copied())
            .filter(|b| !pursued.contains(b))
            .filter(|&b| {
                *status
                    .entry(b)
                    .or_insert_with(|| problem.branch_goal(b).is_some_and(|g| !view.archive().is_covered(g)))
            })
            .collect();
        if uncovered.is_empty() {
            return;
        }
        let s = select(&self.candidates, &uncovered, &self.tried, &self.config.select);
        if s.paths.is_empty() {
            return;
        }
        self.stats.reselections += 1;
        let paths: Vec<usize> = s.paths.iter().map(|p| p.0 as usize).collect();
        self.register(&paths, problem, view.evaluations());
    }

    /// Tells the problem which conditions the workers evaluate from now on: those of the goals the
    /// search may still be after, open or given up as spurious (a spurious goal stays a target of
    /// the search, and IntTree's perfect tree is solved after its patience ran out). A solved or
    /// unsound goal has its test at distance 0, and a sent condition that is not a goal guides
    /// nothing: the workers would compute them at every call of their entry methods for nothing.
    fn refocus<P: SushiTarget>(&self, problem: &mut P) {
        let mut pcs: Vec<u32> = self
            .active
            .iter()
            .filter(|a| matches!(a.state, State::Open | State::Spurious))
            .map(|a| a.path as u32)
            .collect();
        pcs.sort_unstable();
        problem.focus_paths(&pcs);
    }

    /// After the search: the goals solved after the last call are checked too.
    pub fn finish<P: SushiTarget>(
        &mut self,
        archive: &search::Archive,
        problem: &mut P,
    ) -> Result<(), ProblemError> {
        let solved = self.solved_open(archive);
        self.check(solved, problem)
    }

    /// The open goals the archive has a test for (distance 0), with that test.
    fn solved_open(&self, archive: &search::Archive) -> Vec<(usize, TestCase)> {
        self.active
            .iter()
            .enumerate()
            .filter(|(_, a)| a.state == State::Open)
            .filter_map(|(i, a)| archive.test_for(a.goal).map(|t| (i, t.clone())))
            .collect()
    }

    /// §A.2.5: each solving test re-executed; its goal is solved when the run covers every searched
    /// branch of the path, else unsound (the condition is weaker than its path).
    fn check<P: SushiTarget>(
        &mut self,
        solved: Vec<(usize, TestCase)>,
        problem: &mut P,
    ) -> Result<(), ProblemError> {
        if solved.is_empty() {
            return Ok(());
        }
        let tests: Vec<TestCase> = solved.iter().map(|(_, t)| t.clone()).collect();
        let fitness = problem.run_tests(&tests)?;
        for ((i, _), f) in solved.iter().zip(fitness) {
            let path = self.active[*i].path;
            let takes = searched(&self.prepared.sent[path].branches, problem)
                .all(|g| f.get(g.index()).is_some_and(|&v| v == 0.0));
            if takes {
                self.active[*i].state = State::Solved;
                self.stats.solved += 1;
            } else {
                self.active[*i].state = State::Unsound;
                self.stats.unsound += 1;
            }
        }
        Ok(())
    }
}

/// The search goals of those of a path's branches that are searched (a branch the criteria or the
/// set-up leave out cannot be asked of a test).
fn searched<'a, P: SushiTarget>(
    branches: &'a [GoalId],
    problem: &'a P,
) -> impl Iterator<Item = GoalIdx> + 'a {
    branches.iter().filter_map(|&b| problem.branch_goal(b))
}

impl<P: SushiTarget> Hook<P> for SushiHook {
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut P,
        _rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        if !self.started {
            self.started = true;
            let first: Vec<usize> = (0..self.prepared.first_round).collect();
            self.register(&first, problem, view.evaluations());
            self.refocus(problem);
            return Ok(Vec::new());
        }
        if self.update(view, problem)? {
            self.reselect(view, problem);
            self.refocus(problem);
        }
        Ok(Vec::new())
    }
}
