//! A result cache in front of any [`Executor`], keyed by the canonical bytes of a test
//! ([`protocol::canonical_test_bytes`]): equal statement lists hit, whatever object holds them.
//! Bounded, first-in first-out (search populations revisit recent tests, not old ones). Only
//! deterministic results are stored ([`ExecResult::is_deterministic`]). A test repeated inside one
//! batch runs once.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use crate::{ExecError, ExecResult, Executor, TestCase};

/// An [`Executor`] wrapper that remembers results.
#[derive(Debug)]
pub struct Cached<E> {
    inner: E,
    map: BTreeMap<Arc<[u8]>, ExecResult>,
    order: VecDeque<Arc<[u8]>>,
    capacity: usize,
    hits: u64,
    misses: u64,
}

impl<E: Executor> Cached<E> {
    /// Keeps at most `capacity` results.
    pub fn new(inner: E, capacity: usize) -> Cached<E> {
        Cached { inner, map: BTreeMap::new(), order: VecDeque::new(), capacity, hits: 0, misses: 0 }
    }

    pub fn inner(&self) -> &E {
        &self.inner
    }

    pub fn inner_mut(&mut self) -> &mut E {
        &mut self.inner
    }

    /// (hits, misses) so far; a test repeated within a batch counts as a hit.
    pub fn counts(&self) -> (u64, u64) {
        (self.hits, self.misses)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    fn insert(&mut self, key: Arc<[u8]>, result: ExecResult) {
        if self.capacity == 0 || self.map.contains_key(&key) {
            return;
        }
        while self.map.len() >= self.capacity {
            let Some(old) = self.order.pop_front() else { break };
            self.map.remove(&old);
        }
        self.order.push_back(Arc::clone(&key));
        self.map.insert(key, result);
    }
}

impl<E: Executor> Executor for Cached<E> {
    fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecResult>, ExecError> {
        let keys: Vec<Arc<[u8]>> =
            tests.iter().map(|t| Arc::from(protocol::canonical_test_bytes(t))).collect();
        // Which tests to run: misses, each distinct key once, in first-seen order.
        let mut to_run: Vec<usize> = Vec::new();
        let mut first_of: BTreeMap<&[u8], usize> = BTreeMap::new();
        for (i, k) in keys.iter().enumerate() {
            if self.map.contains_key(k) || first_of.contains_key(&k[..]) {
                self.hits += 1;
            } else {
                first_of.insert(k, to_run.len());
                to_run.push(i);
                self.misses += 1;
            }
        }
        let batch: Vec<TestCase> = to_run.iter().map(|&i| tests[i].clone()).collect();
        let fresh = if batch.is_empty() { Vec::new() } else { self.inner.execute(&batch)? };
        let mut out = Vec::with_capacity(tests.len());
        for k in &keys {
            let r = match first_of.get(&k[..]) {
                Some(&j) => fresh[j].clone(),
                None => self.map.get(k).cloned().unwrap_or_else(|| {
                    ExecResult::aborted(crate::ExecStatus::Crash, 0, "cache lost a result".into())
                }),
            };
            out.push(r);
        }
        for (j, r) in fresh.into_iter().enumerate() {
            if r.is_deterministic() {
                self.insert(Arc::clone(&keys[to_run[j]]), r);
            }
        }
        Ok(out)
    }
}
