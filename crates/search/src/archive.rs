//! The archive of covered goals (EvoSuite's `CoverageArchive`, Rojas et al. SSBSE 2016; MIO's
//! archive, Arcuri 2018): for each covered goal the shortest test covering it, updated on every
//! evaluation; the secondary objective is length (EvoSuite's `TOTAL_LENGTH`), and among tests of
//! equal length the first found stays, which keeps the archive stable. The final suite is the
//! archive's distinct tests.

use std::collections::BTreeSet;
use std::sync::Arc;

use testcase::TestCase;

use crate::{Evaluation, GoalIdx};

#[derive(Debug, Clone)]
pub struct Archive {
    /// Per goal, the best covering test so far.
    best: Vec<Option<Arc<TestCase>>>,
    n_covered: usize,
}

impl Archive {
    pub fn new(n_goals: usize) -> Archive {
        Archive { best: vec![None; n_goals], n_covered: 0 }
    }

    /// Makes room for goals discovered during the search (uncovered).
    pub fn grow(&mut self, n_goals: usize) {
        if n_goals > self.best.len() {
            self.best.resize(n_goals, None);
        }
    }

    pub fn n_goals(&self) -> usize {
        self.best.len()
    }

    pub fn n_covered(&self) -> usize {
        self.n_covered
    }

    pub fn is_covered(&self, g: GoalIdx) -> bool {
        self.best.get(g.index()).is_some_and(Option::is_some)
    }

    pub fn all_covered(&self) -> bool {
        self.n_covered == self.best.len()
    }

    /// The shortest test found covering `g`.
    pub fn test_for(&self, g: GoalIdx) -> Option<&TestCase> {
        self.best.get(g.index()).and_then(|t| t.as_deref())
    }

    /// The covered goals, ascending.
    pub fn covered_goals(&self) -> Vec<GoalIdx> {
        (0..self.best.len()).filter(|&i| self.best[i].is_some()).map(GoalIdx::new).collect()
    }

    /// Records a test's evaluation: it becomes the archived test of every goal it covers for which
    /// no test, or only a longer one, was archived. Returns the goals covered for the first time.
    pub fn update(&mut self, test: &Arc<TestCase>, eval: &Evaluation) -> Vec<GoalIdx> {
        let covered: Vec<GoalIdx> =
            (0..eval.fitness.len()).map(GoalIdx::new).filter(|&g| eval.covers(g)).collect();
        self.update_covered(test, &covered)
    }

    /// [`Archive::update`] given the goals the test covers, ascending.
    pub fn update_covered(&mut self, test: &Arc<TestCase>, covered: &[GoalIdx]) -> Vec<GoalIdx> {
        let mut newly = Vec::new();
        for &g in covered {
            match self.best.get(g.index()) {
                None => {}
                Some(None) => {
                    self.best[g.index()] = Some(test.clone());
                    self.n_covered += 1;
                    newly.push(g);
                }
                Some(Some(old)) if test.len() < old.len() => self.best[g.index()] = Some(test.clone()),
                Some(Some(_)) => {}
            }
        }
        newly
    }

    /// The distinct archived tests, ordered by the smallest goal each covers.
    pub fn tests(&self) -> Vec<TestCase> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for t in self.best.iter().flatten() {
            if seen.insert(t.canonical_bytes()) {
                out.push((**t).clone());
            }
        }
        out
    }

    /// A printable form, for determinism checks and debugging: each goal and its test's index in
    /// `tests()`, then the tests.
    pub fn to_text(&self) -> String {
        let tests = self.tests();
        let mut s = String::new();
        for (i, t) in self.best.iter().enumerate() {
            if let Some(t) = t {
                let k = tests.iter().position(|u| u == &**t).unwrap_or(usize::MAX);
                s.push_str(&format!("g{i} -> test {k}\n"));
            }
        }
        for (k, t) in tests.iter().enumerate() {
            s.push_str(&format!("// test {k}\n{t}\n"));
        }
        s
    }
}
