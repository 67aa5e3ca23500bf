//! Call rounds' test surgery: which numbers a call round may copy a call of, and the test it makes
//! (docs/localsearch.md "Call rounds"), on IntTree's `insert(int)` as SUSHI's fixture calls it.

use std::sync::Arc;

use localsearch::{copyable, with_call_again};
use testcase::{ConstructorRef, JType, MethodRef, PrimType, PrimValue, Statement, TestCase, VarId};

fn tree() -> JType {
    JType::class("sushi.IntTree")
}

fn call(name: &str, receiver: u32, args: &[u32]) -> Statement {
    let params = if args.is_empty() { Vec::new() } else { vec![JType::Prim(PrimType::Int)] };
    let descriptor = if args.is_empty() { "()I" } else { "(I)Z" };
    Statement::Method {
        method: Arc::new(MethodRef {
            class: "sushi.IntTree".into(),
            name: name.into(),
            descriptor: descriptor.into(),
            is_static: false,
            owner: tree(),
            params,
            ret: Some(JType::Prim(PrimType::Boolean)),
        }),
        receiver: Some(VarId(receiver)),
        args: args.iter().map(|&a| VarId(a)).collect(),
    }
}

/// `t = new IntTree(); int a = 8; t.insert(a); int b = 4; t.size(); t.insert(b); t.insert(a);`
fn sample() -> TestCase {
    let mut t = TestCase::default();
    t.push(Statement::Constructor {
        ctor: Arc::new(ConstructorRef {
            class: "sushi.IntTree".into(),
            descriptor: "()V".into(),
            ty: tree(),
            params: Vec::new(),
        }),
        args: Vec::new(),
    });
    t.push(Statement::Primitive(PrimValue::Int(8)));
    t.push(call("insert", 0, &[1]));
    t.push(Statement::Primitive(PrimValue::Int(4)));
    t.push(call("size", 0, &[]));
    t.push(call("insert", 0, &[3]));
    t.push(call("insert", 0, &[1]));
    t
}

#[test]
fn each_number_passed_to_a_method_pairs_with_its_first_call() {
    let t = sample();
    assert_eq!(copyable(&t, 40), vec![(1, 2), (3, 5)]);
    assert_eq!(copyable(&t, 8), Vec::new(), "two more statements would pass the length bound");
    assert_eq!(copyable(&t, 9), vec![(1, 2), (3, 5)]);
}

#[test]
fn the_call_is_made_again_right_after_itself_with_the_moved_number() {
    let t = sample();
    let again = with_call_again(&t, 3, 5, PrimValue::Int(5));
    assert_eq!(again.len(), t.len() + 2);
    assert_eq!(&again.statements[..6], &t.statements[..6], "everything up to the call is kept");
    assert_eq!(again.statements[6], Statement::Primitive(PrimValue::Int(5)));
    assert_eq!(again.statements[7], call("insert", 0, &[6]));
    // The statement after it used variable 1, which did not move.
    assert_eq!(again.statements[8], call("insert", 0, &[1]));
    assert_eq!(testcase::check(&again, &testcase::types::NoHierarchy), Ok(()));
}
