//! The result cache and the fake executor: hits on equal statement lists, one run per distinct test
//! in a batch, results in request order, nothing non-deterministic cached, FIFO eviction.

use exec::{Cached, ExecResult, ExecStatus, Executor, FakeExecutor, TestCase};
use protocol::{Outcome, ProbeId, Statement, Trace, Value};

/// A fake whose result encodes the test: the value of its first int statement, and a hit on probe
/// `len`. Tests starting with int 13 time out.
fn fake() -> FakeExecutor {
    FakeExecutor::new(|t: &TestCase| {
        let v = match t.first() {
            Some(Statement::Primitive { bits, .. }) => *bits as i32,
            _ => -1,
        };
        if v == 13 {
            return ExecResult::aborted(ExecStatus::Timeout, t.len(), "scripted".into());
        }
        let trace = Trace { hits: vec![(ProbeId(t.len() as u32), 1)], ..Trace::default() };
        ExecResult::normal(vec![Outcome::Value(Value::Int(v)); t.len()], trace)
    })
}

fn test(v: i32, len: usize) -> TestCase {
    vec![Statement::int(v); len]
}

fn first_value(r: &ExecResult) -> Option<&Outcome> {
    r.outcomes.first()
}

#[test]
fn fake_records_and_answers_in_order() {
    let mut ex = fake();
    let rs = ex.execute(&[test(1, 2), test(2, 3)]).unwrap();
    assert_eq!(rs.len(), 2);
    assert_eq!(first_value(&rs[0]), Some(&Outcome::Value(Value::Int(1))));
    assert!(rs[1].trace.is_hit(ProbeId(3)));
    assert_eq!(ex.executed(), &[test(1, 2), test(2, 3)]);
}

#[test]
fn cache_hits_equal_tests_and_keeps_order() {
    let mut ex = Cached::new(fake(), 100);
    let batch = [test(1, 2), test(2, 2), test(1, 2), test(3, 1)];
    let rs = ex.execute(&batch).unwrap();
    let values: Vec<_> = rs.iter().map(|r| first_value(r).cloned()).collect();
    assert_eq!(
        values,
        [1, 2, 1, 3].map(|v| Some(Outcome::Value(Value::Int(v)))).to_vec(),
        "results in request order"
    );
    assert_eq!(ex.inner().executed().len(), 3, "the repeated test ran once");
    assert_eq!(ex.counts(), (1, 3));

    let rs2 = ex.execute(&[test(3, 1), test(1, 2), test(4, 1)]).unwrap();
    assert_eq!(first_value(&rs2[0]), Some(&Outcome::Value(Value::Int(3))));
    assert_eq!(first_value(&rs2[2]), Some(&Outcome::Value(Value::Int(4))));
    assert_eq!(ex.inner().executed().len(), 4, "only the new test ran");
    assert_eq!(ex.counts(), (3, 4));
}

#[test]
fn timeouts_are_not_cached() {
    let mut ex = Cached::new(fake(), 100);
    let rs = ex.execute(&[test(13, 1)]).unwrap();
    assert_eq!(rs[0].status, ExecStatus::Timeout);
    ex.execute(&[test(13, 1)]).unwrap();
    assert_eq!(ex.inner().executed().len(), 2, "a timeout runs again");
    assert!(ex.is_empty());
}

#[test]
fn eviction_is_first_in_first_out() {
    let mut ex = Cached::new(fake(), 2);
    ex.execute(&[test(1, 1), test(2, 1), test(3, 1)]).unwrap();
    assert_eq!(ex.len(), 2);
    ex.execute(&[test(2, 1), test(3, 1)]).unwrap();
    assert_eq!(ex.inner().executed().len(), 3, "2 and 3 are cached");
    ex.execute(&[test(1, 1)]).unwrap();
    assert_eq!(ex.inner().executed().len(), 4, "1 was evicted first");
}

#[test]
fn statement_strings_are_part_of_the_key() {
    let mut ex = Cached::new(fake(), 10);
    let a = vec![Statement::int(1), Statement::string("a")];
    let b = vec![Statement::int(1), Statement::string("b")];
    ex.execute(&[a.clone(), b, a]).unwrap();
    assert_eq!(ex.inner().executed().len(), 2);
}

/// The byte bound: the cache keeps what fits (oldest out first), counts its bytes as
/// `approx_bytes` does, and does not keep a result larger than the whole bound.
#[test]
fn cache_is_bounded_by_bytes() {
    let size = |t: &TestCase| {
        let r = fake().execute(std::slice::from_ref(t)).unwrap().remove(0);
        protocol::canonical_test_bytes(t).len() + exec::approx_bytes(&r)
    };
    let (a, b, c) = (test(1, 2), test(2, 2), test(3, 2));
    let bound = size(&a) + size(&b);
    let mut ex = Cached::bounded(fake(), 100, bound);
    ex.execute(&[a.clone(), b.clone()]).unwrap();
    assert_eq!((ex.len(), ex.bytes()), (2, bound));
    ex.execute(std::slice::from_ref(&c)).unwrap();
    assert_eq!(ex.len(), 2, "the oldest result made room");
    assert!(ex.bytes() <= bound);
    ex.execute(&[b.clone(), c.clone()]).unwrap();
    assert_eq!(ex.inner().executed().len(), 3, "b and c were kept");
    ex.execute(std::slice::from_ref(&a)).unwrap();
    assert_eq!(ex.inner().executed().len(), 4, "a was evicted");

    let big = test(4, 50);
    let mut small = Cached::bounded(fake(), 100, size(&big) - 1);
    small.execute(&[big.clone(), big.clone()]).unwrap();
    assert_eq!((small.len(), small.bytes()), (0, 0), "too large to keep");
    assert_eq!(small.inner().executed().len(), 1, "still run once per batch");
}
