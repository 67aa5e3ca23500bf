//! The result cache: hits on equal statement lists, one run per distinct test in a batch, results in
//! request order, nothing non-deterministic cached, FIFO eviction, the byte bound.

use std::sync::Arc;

use exec::{Cached, ExecResult, ExecStatus, Scored};
use protocol::{Outcome, ProbeId, Statement, Trace, Value};

/// A scripted result that encodes the test: the value of its first int statement, and a hit on
/// probe `len`. Tests starting with int 13 time out.
fn script(t: &[Statement]) -> ExecResult {
    let v = match t.first() {
        Some(Statement::Primitive { bits, .. }) => *bits as i32,
        _ => -1,
    };
    if v == 13 {
        return ExecResult::aborted(ExecStatus::Timeout, t.len(), "scripted".into());
    }
    let trace = Trace { hits: vec![(ProbeId(t.len() as u32), 1)], ..Trace::default() };
    ExecResult::normal(vec![Outcome::Value(Value::Int(v)); t.len()], trace)
}

/// A cache with the scripted runs behind it, recording every test that ran, as the engine drives
/// it: plan a batch, run its misses, finish the plan with their runs.
struct Fake {
    cache: Cached,
    executed: Vec<Vec<Statement>>,
}

impl Fake {
    fn new(cache: Cached) -> Fake {
        Fake { cache, executed: Vec::new() }
    }

    fn execute(&mut self, tests: &[Vec<Statement>]) -> Vec<Arc<ExecResult>> {
        let plan = self.cache.plan(tests);
        let misses = plan.misses(tests);
        let results = misses.iter().map(|t| script(t)).collect();
        self.executed.extend(misses);
        let ran = Scored::<ExecResult, ()> { results, scores: Vec::new(), workers_done: None };
        self.cache.finish(plan, ran).results
    }
}

fn test(v: i32, len: usize) -> Vec<Statement> {
    vec![Statement::int(v); len]
}

fn first_value(r: &ExecResult) -> Option<&Outcome> {
    r.outcomes.first()
}

#[test]
fn cache_hits_equal_tests_and_keeps_order() {
    let mut ex = Fake::new(Cached::new(100));
    let batch = [test(1, 2), test(2, 2), test(1, 2), test(3, 1)];
    let rs = ex.execute(&batch);
    let values: Vec<_> = rs.iter().map(|r| first_value(r).cloned()).collect();
    assert_eq!(
        values,
        [1, 2, 1, 3].map(|v| Some(Outcome::Value(Value::Int(v)))).to_vec(),
        "results in request order"
    );
    assert_eq!(ex.executed.len(), 3, "the repeated test ran once");
    assert_eq!(ex.cache.counts(), (1, 3));

    let rs2 = ex.execute(&[test(3, 1), test(1, 2), test(4, 1)]);
    assert_eq!(first_value(&rs2[0]), Some(&Outcome::Value(Value::Int(3))));
    assert_eq!(first_value(&rs2[2]), Some(&Outcome::Value(Value::Int(4))));
    assert_eq!(ex.executed.len(), 4, "only the new test ran");
    assert_eq!(ex.cache.counts(), (3, 4));
}

#[test]
fn timeouts_are_not_cached() {
    let mut ex = Fake::new(Cached::new(100));
    let rs = ex.execute(&[test(13, 1)]);
    assert_eq!(rs[0].status, ExecStatus::Timeout);
    ex.execute(&[test(13, 1)]);
    assert_eq!(ex.executed.len(), 2, "a timeout runs again");
    assert!(ex.cache.is_empty());
}

#[test]
fn eviction_is_first_in_first_out() {
    let mut ex = Fake::new(Cached::new(2));
    ex.execute(&[test(1, 1), test(2, 1), test(3, 1)]);
    assert_eq!(ex.cache.len(), 2);
    ex.execute(&[test(2, 1), test(3, 1)]);
    assert_eq!(ex.executed.len(), 3, "2 and 3 are cached");
    ex.execute(&[test(1, 1)]);
    assert_eq!(ex.executed.len(), 4, "1 was evicted first");
}

#[test]
fn statement_strings_are_part_of_the_key() {
    let mut ex = Fake::new(Cached::new(10));
    let a = vec![Statement::int(1), Statement::string("a")];
    let b = vec![Statement::int(1), Statement::string("b")];
    ex.execute(&[a.clone(), b, a]);
    assert_eq!(ex.executed.len(), 2);
}

/// The byte bound: the cache keeps what fits (oldest out first), counts its bytes as
/// `approx_bytes` does, and does not keep a result larger than the whole bound.
#[test]
fn cache_is_bounded_by_bytes() {
    let size = |t: &Vec<Statement>| {
        let r = script(t);
        protocol::canonical_test_bytes(t).len() + exec::approx_bytes(&r)
    };
    let (a, b, c) = (test(1, 2), test(2, 2), test(3, 2));
    let bound = size(&a) + size(&b);
    let mut ex = Fake::new(Cached::bounded(100, bound));
    ex.execute(&[a.clone(), b.clone()]);
    assert_eq!((ex.cache.len(), ex.cache.bytes()), (2, bound));
    ex.execute(std::slice::from_ref(&c));
    assert_eq!(ex.cache.len(), 2, "the oldest result made room");
    assert!(ex.cache.bytes() <= bound);
    ex.execute(&[b.clone(), c.clone()]);
    assert_eq!(ex.executed.len(), 3, "b and c were kept");
    ex.execute(std::slice::from_ref(&a));
    assert_eq!(ex.executed.len(), 4, "a was evicted");

    let big = test(4, 50);
    let mut small = Fake::new(Cached::bounded(100, size(&big) - 1));
    small.execute(&[big.clone(), big.clone()]);
    assert_eq!((small.cache.len(), small.cache.bytes()), (0, 0), "too large to keep");
    assert_eq!(small.executed.len(), 1, "still run once per batch");
}
