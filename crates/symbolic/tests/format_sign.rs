//! `%0Wd` keeps the sign of its number symbolic (`models/format.rs`, `zero_padded_decimal`) on
//! the `parsers.Labels` fixture: `String.format("%s-%04d", prefix, n).equals("AB-0042")` negated
//! on a test with a negative `n` (whose text has a minus) is solved with 42, and the solved test
//! takes the other side when replayed. With the sign pinned, as `decimal_digits` pins it, every
//! such query was unsat.

mod common;

use goals::{PlanOptions, ProbePlan};
use solver::{Outcome, Portfolio, Solver, SolverLimits};
use symbolic::{Concolic, SymConfig};
use testcase::Statement;

#[test]
fn a_zero_padded_number_may_change_its_sign() {
    let dir = test_support::fixture_classes("parsers");
    let db = test_support::open_db(&[dir, test_support::java_base_jmod()]);
    let mut plan = ProbePlan::new();
    for c in db.class_ids().filter(|&c| db.class_name(c).starts_with("parsers/")) {
        plan.add_class_in(&db, c, &PlanOptions::all()).expect("fixture class plans");
    }
    let mut concolic = Concolic::new(&db, &plan, SymConfig::STANDARD);
    // DSE's limits (`dse::DseConfig::paper`): the default rlimit gives up on this query.
    let mut solver = Portfolio::new(&SolverLimits { z3_rlimit: 6_000_000, ..SolverLimits::default() }, 1);
    // The tests DSE replayed for the ticket at seed 1 of `tests/parsers.rs`.
    for (prefix, n) in [("r9][zwJy4h", -1), ("", -711)] {
        let spec = format!("parsers.Labels.ticket(Ljava/lang/String;I)I *{prefix:?} *{n}");
        let (test, sym) = common::test_of(&spec);
        let mut r = concolic.run(&test, &sym);
        assert!(r.stop.is_none(), "{spec}: the replay stopped: {:?}", r.stop);
        let negations = common::branch_negations(&mut r);
        let (_, goal, constraints) = negations.first().unwrap_or_else(|| panic!("{spec}: no negation"));
        let answer = solver.solve(&r.arena, constraints, &r.hint);
        let Outcome::Sat(model) = answer else {
            panic!("{spec}: the ticket's query is {answer:?}, {} negations", negations.len());
        };
        let t = common::substitute(&test, &r, &model);
        let values: Vec<String> = t
            .statements
            .iter()
            .filter_map(|s| match s {
                Statement::Primitive(p) => Some(p.to_string()),
                Statement::String(s) => Some(format!("{s:?}")),
                _ => None,
            })
            .collect();
        assert_eq!(values, ["\"AB\"", "42"], "{spec}");
        assert!(
            concolic.run(&t, &sym).covered.contains(goal),
            "{spec}: {values:?} does not take the other side"
        );
    }
}
