//! The archive: the shortest covering test per goal, first found kept on equal length, distinct
//! tests as the suite.

use std::sync::Arc;

use expect_test::expect;
use search::{Archive, Evaluation, GoalIdx};
use testcase::{PrimValue, Statement, TestCase};

fn ints(values: &[i32]) -> Arc<TestCase> {
    Arc::new(TestCase {
        statements: values.iter().map(|v| Statement::Primitive(PrimValue::Int(*v))).collect(),
        ..TestCase::default()
    })
}

fn eval(fitness: &[f64]) -> Evaluation {
    Evaluation { fitness: fitness.to_vec(), exception_at: None }
}

#[test]
fn keeps_the_shortest_covering_test() {
    let mut a = Archive::new(3);
    assert_eq!(a.update(&ints(&[1, 2, 3]), &eval(&[0.0, 0.5, 1.0])), vec![GoalIdx::new(0)]);
    // Longer: ignored; shorter: replaces; equal length: the first stays.
    assert_eq!(a.update(&ints(&[4, 5, 6, 7]), &eval(&[0.0, 0.0, 1.0])), vec![GoalIdx::new(1)]);
    assert_eq!(a.update(&ints(&[8, 9]), &eval(&[0.0, 0.3, 1.0])), vec![]);
    assert_eq!(a.update(&ints(&[10, 11]), &eval(&[0.0, 0.3, 1.0])), vec![]);
    assert_eq!((a.n_covered(), a.all_covered()), (2, false));
    assert!(
        a.is_covered(GoalIdx::new(1)) && !a.is_covered(GoalIdx::new(2)) && !a.is_covered(GoalIdx::new(9))
    );
    assert_eq!(a.covered_goals(), vec![GoalIdx::new(0), GoalIdx::new(1)]);
    expect![[r#"
        g0 -> test 0
        g1 -> test 1
        // test 0
        int v0 = 8;
        int v1 = 9;

        // test 1
        int v0 = 4;
        int v1 = 5;
        int v2 = 6;
        int v3 = 7;

    "#]]
    .assert_eq(&a.to_text());
    // One test covering two goals appears once in the suite.
    a.update(&ints(&[1]), &eval(&[0.0, 0.0, 0.0]));
    assert!(a.all_covered());
    assert_eq!(a.tests(), vec![(*ints(&[1])).clone()]);
}
