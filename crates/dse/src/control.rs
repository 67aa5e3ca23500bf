//! When DSE runs (paper 004 §III.C, digest B.2.4): the adaptive trigger and the P/R controller.
//!
//! 004 applies DSE to the best individual of whole-suite search when it changed since the last
//! generation, its fitness changed, and the change included a mutation of a primitive value; then
//! with probability P, which becomes P/R after an application that kept no test and P×R (capped
//! at 1) after one that did. DynaMOSA, our default, has no single best individual, so the trigger
//! is kept per goal (a deviation, docs/dse.md). For each target goal, the best test the search has
//! for it (`search::View::best`; for a goal covered since, the archive's test, at fitness 0)
//! changed since the last call, or has its first value (the goal just became a target, or the
//! initial population reached it); its fitness on the goal improved; and either the new best
//! differs from the old one in primitive or string values only (same statements otherwise: the
//! change was a primitive mutation), or the improvement is in the branch distance alone (the
//! approach level, the fitness's integer part, stayed): the same condition was reached and the
//! values got closer to flipping it, which is the evidence 004 reads from a primitive mutation
//! ("the variable matters"). The per-goal best rarely keeps its statements: it is replaced by
//! whichever test of the population reaches a better value first, or by a shorter one. The same
//! rule serves whole-suite search through the same hook, since `View::best` is kept for every
//! algorithm.

use rand::RngExt;
use search::GoalIdx;
use testcase::{Statement, TestCase, TestRng};

/// The last best test seen per goal.
#[derive(Debug, Default)]
pub struct Trigger {
    seen: Vec<Option<Seen>>,
}

#[derive(Debug)]
struct Seen {
    fitness: f64,
    hash: u64,
    test: TestCase,
}

impl Trigger {
    /// Records the best test of each goal of `bests` (goals in ascending order, each with its best
    /// fitness and test, if it has one) and returns the goals whose best fired the trigger, with
    /// their new best test, in goal order.
    pub fn observe<'t>(
        &mut self,
        bests: impl IntoIterator<Item = (GoalIdx, Option<(f64, &'t TestCase)>)>,
    ) -> Vec<(GoalIdx, TestCase)> {
        let mut fired = Vec::new();
        for (g, best) in bests {
            if self.seen.len() <= g.index() {
                self.seen.resize_with(g.index() + 1, || None);
            }
            let slot = &mut self.seen[g.index()];
            let Some((fitness, test)) = best else {
                *slot = None;
                continue;
            };
            // A goal seen covered before cannot improve, so it cannot fire: skipped before its
            // test is hashed. Hashing every covered goal's test at every call cost FilenameUtils
            // 43 % of its generations at 60 s (DSE's own applications took 2 % of the search).
            if fitness == 0.0 && slot.as_ref().is_some_and(|s| s.fitness == 0.0) {
                continue;
            }
            let hash = test.stable_hash();
            match slot {
                Some(s) if s.hash == hash && s.test == *test => s.fitness = fitness,
                _ => {
                    let fires = match slot.as_ref() {
                        // A goal's first value: it became a target (DynaMOSA released it when the
                        // search covered its parent) or the initial population reached it.
                        None => true,
                        Some(s) => {
                            fitness < s.fitness
                                && (values_only_change(&s.test, test) || fitness.floor() == s.fitness.floor())
                        }
                    };
                    if fires {
                        fired.push((g, test.clone()));
                    }
                    *slot = Some(Seen { fitness, hash, test: test.clone() });
                }
            }
        }
        fired
    }
}

/// Whether `new` is `old` with some primitive or string values changed and nothing else: the
/// mark of a primitive mutation (digest B.2.4's `primitive_value_mutated`).
pub fn values_only_change(old: &TestCase, new: &TestCase) -> bool {
    if old.len() != new.len() || old == new {
        return false;
    }
    old.statements.iter().zip(&new.statements).all(|(a, b)| match (a, b) {
        (Statement::Primitive(x), Statement::Primitive(y)) => x.ty() == y.ty(),
        (Statement::String(_), Statement::String(_)) => true,
        _ => a == b,
    })
}

/// The probability P of applying DSE when triggered, adapted by the rate R.
#[derive(Debug, Clone, PartialEq)]
pub struct Controller {
    p: f64,
    rate: f64,
}

impl Controller {
    /// P starts at `probability` (clamped to (0, 1]); `rate` R ≥ 1 (1: no adaptation).
    pub fn new(probability: f64, rate: f64) -> Controller {
        Controller { p: probability.clamp(f64::MIN_POSITIVE, 1.0), rate: rate.max(1.0) }
    }

    pub fn probability(&self) -> f64 {
        self.p
    }

    /// Whether to apply DSE now: always at P = 1 (no draw), else a draw from DSE's own generator
    /// (never the search's, whose sequence therefore does not depend on P).
    pub fn admit(&self, rng: &mut TestRng) -> bool {
        self.p >= 1.0 || rng.random::<f64>() < self.p
    }

    /// After an application: P×R (at most 1) when it kept a test, P/R when it did not.
    pub fn record(&mut self, success: bool) {
        self.p =
            if success { (self.p * self.rate).min(1.0) } else { (self.p / self.rate).max(f64::MIN_POSITIVE) };
    }
}
