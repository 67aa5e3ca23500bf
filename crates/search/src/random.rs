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
//! every evaluation, like the other algorithms, so the final suite is the archive's.

use std::collections::BTreeSet;
use std::sync::Arc;

use rand::RngExt;
use testcase::{TestCase, TestRng};

use crate::SearchError;
use crate::context::Search;

pub(crate) fn run(cx: &mut Search<'_>, rng: &mut TestRng) -> Result<(), SearchError> {
    let batch_size = cx.config.population.max(1);
    let mut pool: Vec<Arc<TestCase>> = Vec::new();
    let mut seen: BTreeSet<u64> = BTreeSet::new();
    while !cx.should_stop() {
        let mut batch = Vec::with_capacity(batch_size);
        {
            let factory = cx.factory();
            let max_len = cx.config.factory.chromosome_length;
            for _ in 0..batch_size {
                // Two tries at something new; a repeat is evaluated rather than looping forever on a
                // class with very few distinct tests.
                let mut t = TestCase::new();
                for _ in 0..2 {
                    let fresh = pool.is_empty() || rng.random_bool(cx.config.p_new_test.clamp(0.0, 1.0));
                    t = if fresh {
                        TestCase::new()
                    } else {
                        let base = &pool[rng.random_range(0..pool.len())];
                        if base.len() >= max_len { TestCase::new() } else { (**base).clone() }
                    };
                    factory.insert_random_statement(&mut t, rng);
                    if seen.insert(t.stable_hash()) {
                        break;
                    }
                }
                batch.push(t);
            }
        }
        for ind in cx.evaluate(batch)? {
            if ind.eval.exception_at.is_none() && !ind.test.is_empty() {
                pool.push(ind.test);
            }
        }
        cx.end_iteration();
    }
    Ok(())
}
