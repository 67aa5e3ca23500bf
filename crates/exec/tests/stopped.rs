//! Where a test stopped and whether it can be written whole: the predicates the engine's scoring
//! (no coverage credit for an unwritable test) and postprocess's guard cut share.

use exec::{ExecResult, ExecStatus};
use protocol::{Outcome, Trace, Value};

fn value() -> Outcome {
    Outcome::Value(Value::Int(1))
}

fn threw() -> Outcome {
    Outcome::Threw {
        class: "java.lang.IllegalStateException".into(),
        message: String::new(),
        from_sut: true,
        thrown_in: String::new(),
        top_frame: String::new(),
    }
}

fn guard() -> Outcome {
    Outcome::Guard { what: "exit 0".into() }
}

fn with(status: ExecStatus, outcomes: Vec<Outcome>) -> ExecResult {
    ExecResult { status, ..ExecResult::normal(outcomes, Trace::default()) }
}

#[test]
fn a_test_that_ran_to_the_end_or_threw_is_writable() {
    let whole = with(ExecStatus::Normal, vec![value(), value()]);
    assert_eq!((whole.stopped_at(), whole.first_guard(), whole.writable_whole()), (None, None, true));
    let thrown = with(ExecStatus::Normal, vec![value(), threw(), Outcome::NotExecuted]);
    assert_eq!((thrown.stopped_at(), thrown.first_guard(), thrown.writable_whole()), (Some(1), None, true));
}

#[test]
fn a_guarded_or_timed_out_or_crashed_test_is_not_writable() {
    let guarded = with(ExecStatus::Guard, vec![value(), guard(), Outcome::NotExecuted]);
    assert_eq!(
        (guarded.stopped_at(), guarded.first_guard(), guarded.writable_whole()),
        (Some(1), Some(1), false)
    );
    // A guard that fired outside any statement (a thread an earlier statement started).
    let stray = with(ExecStatus::Guard, vec![value(), value()]);
    assert_eq!((stray.stopped_at(), stray.first_guard(), stray.writable_whole()), (None, Some(0), false));
    let timed_out = with(ExecStatus::Timeout, vec![value(), Outcome::Timeout]);
    assert_eq!((timed_out.stopped_at(), timed_out.writable_whole()), (Some(1), false));
    let crashed = ExecResult::aborted(ExecStatus::Crash, 2, "worker died".into());
    assert_eq!((crashed.stopped_at(), crashed.first_guard(), crashed.writable_whole()), (None, None, false));
    // A statement the worker's own timeout stopped, in a test whose status the engine left normal.
    let late = with(ExecStatus::Normal, vec![value(), Outcome::Timeout]);
    assert!(!late.writable_whole());
}
