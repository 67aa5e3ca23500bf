//! What the exploration tests (`explore.rs`, `invariants.rs`) share: the sushi fixtures' program
//! database and probe plan.

use goals::{PlanOptions, ProbePlan};
use programdb::ProgramDb;

pub fn db() -> ProgramDb {
    let paths = [test_support::fixture_classes("sushi"), test_support::java_base_jmod()];
    test_support::open_db(&paths)
}

pub fn plan(db: &ProgramDb) -> ProbePlan {
    let mut plan = ProbePlan::new();
    for c in db.class_ids() {
        if db.class_name(c).starts_with("sushi/") {
            plan.add_class_in(db, c, &PlanOptions::all()).expect("fixture class plans");
        }
    }
    plan
}
