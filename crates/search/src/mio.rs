//! The Many Independent Objective algorithm (Arcuri, "Test suite generation with the Many
//! Independent Objective (MIO) algorithm", IST 2018): one small population per uncovered target
//! (at most n tests, the best on that target), an archive of covering tests, and a loop that either
//! samples a random test (probability P_r) or mutates a test from the population of the target
//! sampled least often since its last improvement. P_r and n fall linearly from their start values
//! (0.5, 10) to 0 and 1 at F = 0.5 of the budget, after which the search is focused. A sampled test
//! is mutated again and again, moving to each mutant that improves some population, until
//! `max_mutations_before_giving_up` mutations in a row bring nothing (EvoSuite's MIO).
//!
//! Populations are kept for the targets of the target policy (every goal unless a policy is
//! passed in); tests a hook injects are taken as samples: they join the populations.
//!
//! Batching: MIO is sequential; here `population` independent mutation chains in two groups take
//! turns, a batch advancing one group's chains by one step while the other group's batch runs. The
//! populations and counters are updated in the batch's order after it returns.

use std::collections::VecDeque;
use std::sync::Arc;

use rand::RngExt;
use testcase::{TestCase, TestRng};

use crate::context::{Batches, Individual, Search, pipelined};
use crate::{GoalIdx, SearchError};

/// One target's population: (fitness on the target, test), best first.
type Population = Vec<(f64, Arc<TestCase>)>;

struct Chain {
    current: Option<Arc<TestCase>>,
    failures: u32,
}

struct State {
    pops: Vec<Population>,
    /// Times each target was sampled since its population last improved.
    counters: Vec<u32>,
    /// Targets covered and thus done (their population is dropped).
    done: Vec<bool>,
}

impl State {
    /// Adds the test to the population of every uncovered target where it is among the best `n`
    /// (a goal that is not a target is left alone: it gets a population once it becomes one).
    /// Returns whether anything improved (a population or a newly covered goal).
    fn update(&mut self, cx: &Search<'_>, ind: &Individual, n: usize) -> bool {
        let mut improved = false;
        let targets = cx.targets();
        for (g, &f) in ind.eval.fitness.iter().enumerate() {
            if self.done[g] || !targets.is_target(GoalIdx::new(g)) {
                continue;
            }
            if cx.archive.is_covered(GoalIdx::new(g)) {
                self.done[g] = true;
                self.pops[g] = Vec::new();
                improved = true;
                continue;
            }
            let pop = &mut self.pops[g];
            let len = ind.len();
            let key = |e: &(f64, Arc<TestCase>)| (e.0, e.1.len());
            let better_than = |e: &(f64, Arc<TestCase>)| f < e.0 || (f == e.0 && len < e.1.len());
            if pop.len() >= n && !pop.last().is_some_and(better_than) {
                continue;
            }
            let at = pop.iter().position(better_than).unwrap_or(pop.len());
            if at == 0 {
                // A new best for the target: MIO resets its counter.
                self.counters[g] = 0;
            }
            pop.insert(at, (f, ind.test.clone()));
            pop.truncate(n.max(1));
            debug_assert!(pop.windows(2).all(|w| key(&w[0]) <= key(&w[1])));
            improved = true;
        }
        improved
    }

    /// The uncovered target with a non-empty population sampled least often (ties: random).
    fn pick_target(&self, rng: &mut TestRng) -> Option<usize> {
        let mut best: Vec<usize> = Vec::new();
        let mut min = u32::MAX;
        for g in 0..self.pops.len() {
            if self.done[g] || self.pops[g].is_empty() {
                continue;
            }
            match self.counters[g].cmp(&min) {
                std::cmp::Ordering::Less => {
                    min = self.counters[g];
                    best.clear();
                    best.push(g);
                }
                std::cmp::Ordering::Equal => best.push(g),
                std::cmp::Ordering::Greater => {}
            }
        }
        if best.is_empty() { None } else { Some(best[rng.random_range(0..best.len())]) }
    }
}

/// P_r and n at `progress` (fraction of the budget used).
fn schedule(cx: &Search<'_>, progress: f64) -> (f64, usize) {
    let m = &cx.config.mio;
    let f = m.exploitation_starts_at;
    if progress >= f || f <= 0.0 {
        return (0.0, 1);
    }
    let left = 1.0 - progress / f;
    let n = 1.0 + (m.tests_per_target.max(1) as f64 - 1.0) * left;
    (m.p_random * left, n.round() as usize)
}

/// MIO's state with its chains in two groups that take turns: a batch advances one group's
/// chains by a step, so each chain still waits for its own last result before its next step,
/// while the other group's batch runs ([`pipelined`]). What the chains share (the populations, the
/// counters) is one batch behind.
struct Mio {
    st: State,
    chains: Vec<Chain>,
    groups: usize,
    /// The group of the next batch made.
    turn: usize,
    /// Per batch made and not yet absorbed, in order: its group, whether each of its tests is a new
    /// sample (it becomes its chain's current test), and the population size `n` it was made with.
    made: VecDeque<(usize, Vec<bool>, usize)>,
    max_fail: u32,
}

impl Batches for Mio {
    fn make(&mut self, cx: &Search<'_>, rng: &mut TestRng) -> Vec<TestCase> {
        let (p_random, n) = schedule(cx, cx.progress());
        for pop in &mut self.st.pops {
            pop.truncate(n);
        }
        let group = self.turn;
        self.turn = (self.turn + 1) % self.groups;
        let factory = cx.factory();
        let (st, max_fail) = (&mut self.st, self.max_fail);
        let mut batch = Vec::new();
        let mut sampled = Vec::new();
        for chain in self.chains.iter_mut().skip(group).step_by(self.groups) {
            if let Some(cur) = chain.current.as_ref().filter(|_| chain.failures < max_fail) {
                let mut t = (**cur).clone();
                if !factory.mutate(&mut t, rng) {
                    factory.mutate(&mut t, rng);
                }
                batch.push(t);
                sampled.push(false);
                continue;
            }
            let target = if rng.random_bool(p_random.clamp(0.0, 1.0)) { None } else { st.pick_target(rng) };
            let t = match target {
                None => factory.random_test(rng),
                Some(g) => {
                    st.counters[g] += 1;
                    let pop = &st.pops[g];
                    let mut t = (*pop[rng.random_range(0..pop.len())].1).clone();
                    if !factory.mutate(&mut t, rng) {
                        factory.mutate(&mut t, rng);
                    }
                    t
                }
            };
            batch.push(t);
            sampled.push(true);
        }
        self.made.push_back((group, sampled, n));
        batch
    }

    /// Injected tests are samples outside the chains: they join the populations where they are
    /// among the best, from which the chains sample.
    fn absorb(
        &mut self,
        cx: &mut Search<'_>,
        _: &mut TestRng,
        evaluated: Vec<Individual>,
        injected: Vec<Individual>,
    ) {
        let Some((group, sampled, n)) = self.made.pop_front() else { return };
        // Goals discovered by this batch.
        let st = &mut self.st;
        st.pops.resize(cx.n_goals(), Vec::new());
        st.counters.resize(cx.n_goals(), 0);
        st.done.resize(cx.n_goals(), false);
        let chains = self.chains.iter_mut().skip(group).step_by(self.groups);
        for ((chain, ind), fresh) in chains.zip(evaluated).zip(sampled) {
            let improved = st.update(cx, &ind, n);
            if fresh || improved {
                chain.current = Some(ind.test);
                chain.failures = 0;
            } else {
                chain.failures += 1;
            }
        }
        for ind in &injected {
            st.update(cx, ind, n);
        }
    }
}

pub(crate) fn run(cx: &mut Search<'_>, rng: &mut TestRng) -> Result<(), SearchError> {
    let n_goals = cx.n_goals();
    let st =
        State { pops: vec![Vec::new(); n_goals], counters: vec![0; n_goals], done: vec![false; n_goals] };
    let chains: Vec<Chain> =
        (0..cx.config.population.max(1)).map(|_| Chain { current: None, failures: 0 }).collect();
    let groups = chains.len().min(2);
    let max_fail = cx.config.mio.max_mutations_before_giving_up.max(1);
    pipelined(cx, rng, &mut Mio { st, chains, groups, turn: 0, made: VecDeque::new(), max_fail })
}
