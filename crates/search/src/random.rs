//! Feedback-directed random search in the manner of Randoop (Pacheco, Lahiri, Ernst & Ball, ICSE
//! 2007): new tests extend earlier tests that ran without an exception by one random call (with
//! whatever its parameters need); the execution feedback decides what happens to each new test:
//! - no exception: it joins the pool of tests to extend;
//! - an exception at its last statement: it is kept (the archive has seen it) but not extended, as
//!   Randoop does with exception-revealing sequences;
//! - an exception before its last statement: it is dropped, since the statements after the throw
//!   never ran (Randoop's "illegal" sequences).
//!
//! Tests seen before are not evaluated again (Randoop discards equal sequences). The archive sees
//! every evaluation, like the other algorithms, so the final suite is the archive's. Random search
//! has no targets to follow (the target policy changes nothing here); tests a hook injects are
//! taken as samples of their batch.

use std::collections::BTreeSet;
use std::sync::Arc;

use rand::RngExt;
use testcase::{TestCase, TestRng};

use crate::SearchError;
use crate::context::{Batches, Individual, Search, pipelined};

/// The pool of tests to extend and the tests made so far (by their hash).
struct Randoop {
    pool: Vec<Arc<TestCase>>,
    seen: BTreeSet<u64>,
}

impl Batches for Randoop {
    fn make(&mut self, cx: &Search<'_>, rng: &mut TestRng) -> Vec<TestCase> {
        let batch_size = cx.config.population.max(1);
        let factory = cx.factory();
        let max_len = cx.config.factory.chromosome_length;
        let mut batch = Vec::with_capacity(batch_size);
        for _ in 0..batch_size {
            // Two tries at something new; a repeat is evaluated rather than looping forever on a
            // class with very few distinct tests.
            let mut t = TestCase::new();
            for _ in 0..2 {
                let pool = &self.pool;
                let fresh = pool.is_empty() || rng.random_bool(cx.config.p_new_test.clamp(0.0, 1.0));
                t = if fresh {
                    TestCase::new()
                } else {
                    let base = &pool[rng.random_range(0..pool.len())];
                    if base.len() >= max_len { TestCase::new() } else { (**base).clone() }
                };
                factory.insert_random_statement(&mut t, rng);
                if self.seen.insert(t.stable_hash()) {
                    break;
                }
            }
            batch.push(t);
        }
        batch
    }

    /// Injected tests are samples like the batch's own: extended when they ran without an
    /// exception, and not made again.
    fn absorb(
        &mut self,
        _: &mut Search<'_>,
        _: &mut TestRng,
        batch: Vec<Individual>,
        injected: Vec<Individual>,
    ) {
        for ind in &injected {
            self.seen.insert(ind.test.stable_hash());
        }
        for ind in batch.into_iter().chain(injected) {
            if ind.eval.exception_at.is_none() && !ind.test.is_empty() {
                self.pool.push(ind.test);
            }
        }
    }
}

/// Batches of `population` new tests, one in flight while the next is made ([`pipelined`]): a
/// batch extends the tests of all batches but the one before it.
pub(crate) fn run(cx: &mut Search<'_>, rng: &mut TestRng) -> Result<(), SearchError> {
    pipelined(cx, rng, &mut Randoop { pool: Vec::new(), seen: BTreeSet::new() })
}
