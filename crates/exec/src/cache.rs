//! A result cache for test executions, keyed by the canonical bytes of a test
//! ([`protocol::canonical_test_bytes`]): equal statement lists hit, whatever object holds them.
//! Bounded by a number of results and by the bytes they hold ([`approx_bytes`]), first-in
//! first-out (search populations revisit recent tests, not old ones). Only deterministic results
//! are stored ([`ExecResult::is_deterministic`]). A test repeated inside one batch runs once.
//!
//! The cache runs nothing itself: a caller plans a batch against it ([`Cached::plan`]), runs the
//! misses wherever it likes (the engine sends them to its pool ahead of time), and finishes the plan
//! with their runs ([`Cached::finish`]). Results are shared (`Arc`) between the cache and its
//! callers, so the search's hot path never copies a trace.
//!
//! Not here: deciding what is worth caching beyond determinism, or any eviction smarter than FIFO.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use protocol::{Outcome, Statement, Trace, Value};

use crate::{ExecResult, Scored};

/// Remembered results, bounded by entries and bytes.
#[derive(Debug)]
pub struct Cached {
    map: BTreeMap<Arc<[u8]>, Arc<ExecResult>>,
    /// Insertion order, with each entry's size as counted in `bytes`.
    order: VecDeque<(Arc<[u8]>, usize)>,
    capacity: usize,
    max_bytes: usize,
    bytes: usize,
    hits: u64,
    misses: u64,
}

/// One batch's way through the cache ([`Cached::plan`]): the misses to run, each distinct test
/// once in first-seen order, and the hits, held from the moment of planning (a result evicted
/// before the batch is finished still serves it).
#[derive(Debug)]
pub struct Plan {
    keys: Vec<Arc<[u8]>>,
    /// Per test: the position of its run among the misses, or the cached result.
    sources: Vec<Result<usize, Arc<ExecResult>>>,
    /// The positions (in the batch) of the misses, in run order.
    to_run: Vec<usize>,
}

impl Plan {
    /// The tests of `tests` (the planned batch) to run, in order.
    pub fn misses(&self, tests: &[Vec<Statement>]) -> Vec<Vec<Statement>> {
        self.to_run.iter().map(|&i| tests[i].clone()).collect()
    }

    /// [`Plan::misses`], taken out of the batch instead of copied.
    pub fn take_misses(&self, mut tests: Vec<Vec<Statement>>) -> Vec<Vec<Statement>> {
        self.to_run.iter().map(|&i| std::mem::take(&mut tests[i])).collect()
    }
}

impl Cached {
    /// Keeps at most `capacity` results, whatever their size.
    pub fn new(capacity: usize) -> Cached {
        Cached::bounded(capacity, usize::MAX)
    }

    /// Keeps at most `capacity` results holding at most `max_bytes` together (keys included, as
    /// [`approx_bytes`] counts them); a result larger than `max_bytes` alone is not kept.
    pub fn bounded(capacity: usize, max_bytes: usize) -> Cached {
        Cached {
            map: BTreeMap::new(),
            order: VecDeque::new(),
            capacity,
            max_bytes,
            bytes: 0,
            hits: 0,
            misses: 0,
        }
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

    /// The bytes the kept results and their keys hold, as [`approx_bytes`] counts them.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Which tests of a batch hit (a repeat within the batch counts as a hit of its first
    /// occurrence) and which must run: [`Plan::misses`], then [`Cached::finish`] with their runs.
    pub fn plan(&mut self, tests: &[Vec<Statement>]) -> Plan {
        let keys: Vec<Arc<[u8]>> =
            tests.iter().map(|t| Arc::from(protocol::canonical_test_bytes(t))).collect();
        let mut to_run: Vec<usize> = Vec::new();
        let mut first_of: BTreeMap<&[u8], usize> = BTreeMap::new();
        let mut sources = Vec::with_capacity(tests.len());
        for (i, k) in keys.iter().enumerate() {
            if let Some(r) = self.map.get(k) {
                self.hits += 1;
                sources.push(Err(Arc::clone(r)));
            } else if let Some(&j) = first_of.get(&k[..]) {
                self.hits += 1;
                sources.push(Ok(j));
            } else {
                first_of.insert(k, to_run.len());
                sources.push(Ok(to_run.len()));
                to_run.push(i);
                self.misses += 1;
            }
        }
        drop(first_of);
        Plan { keys, sources, to_run }
    }

    /// The results of a planned batch, one per test in order, from the runs of its misses (and
    /// their scores, `None` for hits and repeats); the deterministic runs are kept.
    pub fn finish<S>(&mut self, plan: Plan, ran: Scored<ExecResult, S>) -> Scored<Arc<ExecResult>, S> {
        let fresh: Vec<Arc<ExecResult>> = ran.results.into_iter().map(Arc::new).collect();
        let mut scores: Vec<Option<S>> = (0..plan.keys.len()).map(|_| None).collect();
        for (j, s) in ran.scores.into_iter().enumerate() {
            if let Some(&i) = plan.to_run.get(j) {
                scores[i] = s;
            }
        }
        let out = plan
            .sources
            .into_iter()
            .map(|src| match src {
                Ok(j) => fresh.get(j).cloned().unwrap_or_else(|| {
                    Arc::new(ExecResult::aborted(crate::ExecStatus::Crash, 0, "a run is missing".into()))
                }),
                Err(hit) => hit,
            })
            .collect();
        for (j, r) in fresh.into_iter().enumerate() {
            if r.is_deterministic() {
                self.insert(Arc::clone(&plan.keys[plan.to_run[j]]), r);
            }
        }
        Scored { results: out, scores, workers_done: ran.workers_done }
    }

    fn insert(&mut self, key: Arc<[u8]>, result: Arc<ExecResult>) {
        let size = key.len() + approx_bytes(&result);
        if self.capacity == 0 || size > self.max_bytes || self.map.contains_key(&key) {
            return;
        }
        while self.map.len() >= self.capacity || self.bytes + size > self.max_bytes {
            let Some((old, old_size)) = self.order.pop_front() else { break };
            self.map.remove(&old);
            self.bytes -= old_size;
        }
        self.order.push_back((Arc::clone(&key), size));
        self.bytes += size;
        self.map.insert(key, result);
    }
}

/// The heap and inline bytes one result holds (vector capacities and strings; allocator overhead
/// not counted): what the cache's byte bound measures.
pub fn approx_bytes(r: &ExecResult) -> usize {
    fn vec<T>(v: &Vec<T>) -> usize {
        v.capacity() * size_of::<T>()
    }
    let value = |v: &Value| match v {
        Value::String(s) | Value::Object { class: s } | Value::Array { class: s, .. } => s.capacity(),
        Value::Enum { class, name } => class.capacity() + name.capacity(),
        _ => 0,
    };
    let outcome = |o: &Outcome| match o {
        Outcome::Value(v) => value(v),
        Outcome::Threw { class, message, thrown_in, top_frame, .. } => {
            class.capacity() + message.capacity() + thrown_in.capacity() + top_frame.capacity()
        }
        Outcome::Guard { what } => what.capacity(),
        Outcome::NotExecuted | Outcome::Timeout => 0,
    };
    let t: &Trace = &r.trace;
    size_of::<ExecResult>()
        + vec(&r.outcomes)
        + r.outcomes.iter().map(outcome).sum::<usize>()
        + r.stdout.capacity()
        + r.detail.capacity()
        + vec(&t.hits)
        + vec(&t.branches)
        + vec(&t.switches)
        + t.switches.iter().map(|(_, k)| vec(k)).sum::<usize>()
        + vec(&t.operands)
        + t.operands.iter().map(|(_, o)| vec(o)).sum::<usize>()
        + vec(&t.returns)
        + vec(&t.exceptions)
        + t.exceptions.iter().map(|(_, s)| s.capacity()).sum::<usize>()
        + vec(&t.contexts)
        + vec(&t.class_inits)
        + vec(&t.strings)
        + t.strings.iter().map(String::capacity).sum::<usize>()
        + vec(&t.records)
        + t.records.iter().map(|(_, r)| vec(r)).sum::<usize>()
        + vec(&t.compares)
        + t.compares
            .iter()
            .flat_map(|(_, c)| c)
            .map(|c| size_of_val(c) + c.a.capacity() + c.b.capacity())
            .sum::<usize>()
}
