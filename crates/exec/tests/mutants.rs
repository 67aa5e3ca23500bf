//! Mutant schemata in a real worker (docs/mutation.md): `assertions.Kinds` instrumented with
//! `Options::schemata` computes its original results when no mutant is active, and each mutant's
//! result when a test activates it (protocol v15's `Mutant` statement) — one site of every kind
//! (operators of the four numeric types and the long shift, conditions against zero, between ints,
//! between references, against null and after `lcmp`, unary operators after loads, constants of
//! every type), with the mutants' results worked out by Java's rules in the table below. A mutant
//! that throws is an outcome like any other, and the next test runs the original again.

use exec::{ExecResult, JvmExecutor, Subject};
use goals::{BinOp, Constant, Goal, GoalId, Mutant, UnaryOp};
use protocol::{Outcome, Statement, Value, Var};
use rt_abi::cond;
use worker::{Java, Pool, WorkerConfig};

const KINDS: &str = "assertions.Kinds";

fn prepare() -> Subject {
    let cp = [test_support::workspace_root().join("fixtures/classes/assertions")];
    let db = test_support::open_db(&cp);
    let mut opts = instrument::Options::all();
    opts.schemata = true;
    let subject =
        exec::prepare_in(&db, &cp, &["assertions/Kinds".to_string()], &opts, 3000).expect("prepare");
    assert!(subject.unchanged.is_empty(), "{:?}", subject.unchanged);
    assert!(subject.unmutated.is_empty(), "{:?}", subject.unmutated);
    subject
}

fn executor(subject: &Subject) -> JvmExecutor {
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), subject.setup.clone());
    JvmExecutor::new(Pool::new(config, 1).expect("pool"))
}

/// An argument of a call.
#[derive(Clone, Copy)]
enum Arg {
    I(i32),
    J(i64),
    F(f32),
    D(f64),
    /// The same string object, as often as it is named.
    Str,
    Null,
}

/// A static call of `Kinds.name` with `args`, as statements; the call is the last one.
fn call(name: &str, desc: &str, args: &[Arg]) -> Vec<Statement> {
    let mut out: Vec<Statement> = Vec::new();
    call_into(&mut out, name, desc, args);
    out
}

/// The call with `mutant` active first.
fn mutated(mutant: protocol::ActiveMutant, name: &str, desc: &str, args: &[Arg]) -> Vec<Statement> {
    let mut out = vec![Statement::Mutant(mutant)];
    call_into(&mut out, name, desc, args);
    out
}

fn call_into(out: &mut Vec<Statement>, name: &str, desc: &str, args: &[Arg]) {
    let mut vars = Vec::new();
    let mut string = None;
    for a in args {
        let st = match *a {
            Arg::I(v) => Statement::int(v),
            Arg::J(v) => Statement::long(v),
            Arg::F(v) => Statement::float(v),
            Arg::D(v) => Statement::double(v),
            Arg::Null => Statement::Null { ty: "java.lang.Object".into() },
            Arg::Str => {
                if let Some(v) = string {
                    vars.push(v);
                    continue;
                }
                string = Some(Var(out.len() as u16));
                Statement::string("x")
            }
        };
        vars.push(Var(out.len() as u16));
        out.push(st);
    }
    out.push(Statement::Method {
        class: KINDS.into(),
        name: name.into(),
        descriptor: desc.into(),
        is_static: true,
        receiver: None,
        args: vars,
    });
}

/// The weak-mutation goal of method `name` with `mutant`, at the probe at instruction `insn` when
/// given (two loads of one method have UOI mutants alike).
fn goal(subject: &Subject, name: &str, mutant: Mutant, insn: Option<usize>) -> GoalId {
    let plan = &subject.plan;
    let found: Vec<GoalId> = (0..plan.goals().len() as u32)
        .map(GoalId)
        .filter(|&g| match plan.goal(g) {
            Goal::WeakMutation { probe, mutant: m } => {
                *m == mutant
                    && plan.method_of(*probe).is_some_and(|mp| mp.name == name)
                    && insn.is_none_or(|i| plan.probe(*probe).insn.index() == i)
            }
            _ => false,
        })
        .collect();
    assert_eq!(found.len(), 1, "{name} {mutant:?} at {insn:?}: {found:?}");
    found[0]
}

/// The value the test's last statement gave.
fn last(r: &ExecResult) -> &Outcome {
    r.outcomes.last().expect("outcomes")
}

fn int(v: i32) -> Outcome {
    Outcome::Value(Value::Int(v))
}
fn long(v: i64) -> Outcome {
    Outcome::Value(Value::Long(v))
}
fn float(v: f32) -> Outcome {
    Outcome::Value(Value::Float(v.to_bits()))
}
fn double(v: f64) -> Outcome {
    Outcome::Value(Value::Double(v.to_bits()))
}
fn boolean(v: bool) -> Outcome {
    Outcome::Value(Value::Bool(v))
}

/// A call, its original result, and mutants with theirs: (mutant, instruction of its probe when
/// it must be told apart, result).
struct Case {
    name: &'static str,
    desc: &'static str,
    args: Vec<Arg>,
    original: Outcome,
    mutants: Vec<(Mutant, Option<usize>, Outcome)>,
}

fn cases() -> Vec<Case> {
    let mut out = operator_cases();
    out.extend(condition_cases());
    out.extend(constant_cases());
    out
}

/// Operators of every type, with UOI on their operands.
fn operator_cases() -> Vec<Case> {
    use Mutant::*;
    vec![
        Case {
            name: "addInt",
            desc: "(II)I",
            args: vec![Arg::I(7), Arg::I(3)],
            original: int(10),
            mutants: vec![
                (ReplaceOp(BinOp::Sub), None, int(4)),
                (ReplaceOp(BinOp::Mul), None, int(21)),
                (ReplaceOp(BinOp::Div), None, int(2)),
                (ReplaceOp(BinOp::Rem), None, int(1)),
                (FirstOperand, None, int(7)),
                (SecondOperand, None, int(3)),
                // UOI on `a` (its probe after iload_0) and on `b` (after iload_1).
                (InsertUnary(UnaryOp::Inc), Some(1), int(11)),
                (InsertUnary(UnaryOp::Neg), Some(1), int(-4)),
                (InsertUnary(UnaryOp::Dec), Some(2), int(9)),
                (InsertUnary(UnaryOp::Neg), Some(2), int(4)),
            ],
        },
        Case {
            name: "mulLong",
            desc: "(JJ)J",
            args: vec![Arg::J(6), Arg::J(7)],
            original: long(42),
            mutants: vec![
                (ReplaceOp(BinOp::Add), None, long(13)),
                (ReplaceOp(BinOp::Div), None, long(0)),
                (ReplaceOp(BinOp::Rem), None, long(6)),
                (SecondOperand, None, long(7)),
                (InsertUnary(UnaryOp::Neg), Some(1), long(-42)),
            ],
        },
        Case {
            name: "shiftLong",
            desc: "(JI)J",
            args: vec![Arg::J(-16), Arg::I(2)],
            original: long(-64),
            mutants: vec![
                (ReplaceOp(BinOp::Shr), None, long(-4)),
                (ReplaceOp(BinOp::Ushr), None, long(0x3FFF_FFFF_FFFF_FFFC)),
            ],
        },
        Case {
            name: "divDouble",
            desc: "(DD)D",
            args: vec![Arg::D(1.0), Arg::D(4.0)],
            original: double(0.25),
            mutants: vec![
                (ReplaceOp(BinOp::Add), None, double(5.0)),
                (ReplaceOp(BinOp::Rem), None, double(1.0)),
                (FirstOperand, None, double(1.0)),
                (InsertUnary(UnaryOp::Inc), Some(2), double(0.2)),
            ],
        },
        Case {
            name: "subFloat",
            desc: "(FF)F",
            args: vec![Arg::F(1.5), Arg::F(0.5)],
            original: float(1.0),
            mutants: vec![
                (ReplaceOp(BinOp::Div), None, float(3.0)),
                (ReplaceOp(BinOp::Mul), None, float(0.75)),
                (InsertUnary(UnaryOp::Dec), Some(1), float(0.0)),
            ],
        },
    ]
}

/// Jumps of every kind.
fn condition_cases() -> Vec<Case> {
    use Mutant::*;
    vec![
        Case {
            // `if_icmpge` (cond GE) to the `false` arm; 1 < 2.
            name: "less",
            desc: "(II)Z",
            args: vec![Arg::I(1), Arg::I(2)],
            original: boolean(true),
            mutants: vec![
                (ReplaceCond(cond::EQ), None, boolean(true)),
                (ReplaceCond(cond::NE), None, boolean(false)),
                (ReplaceCond(cond::LT), None, boolean(false)),
                (ReplaceCond(cond::GT), None, boolean(true)),
            ],
        },
        Case {
            // `ifge` against zero.
            name: "sign",
            desc: "(I)I",
            args: vec![Arg::I(-5)],
            original: int(-1),
            mutants: vec![
                (ReplaceCond(cond::LT), None, int(1)),
                (ReplaceCond(cond::EQ), None, int(-1)),
                (ReplaceCond(cond::NE), None, int(1)),
            ],
        },
        Case {
            // `if_acmpne`: the mutant jumps when the two are the same object.
            name: "same",
            desc: "(Ljava/lang/Object;Ljava/lang/Object;)Z",
            args: vec![Arg::Str, Arg::Str],
            original: boolean(true),
            mutants: vec![(ReplaceCond(cond::EQ), None, boolean(false))],
        },
        Case {
            name: "isNull",
            desc: "(Ljava/lang/Object;)Z",
            args: vec![Arg::Null],
            original: boolean(true),
            mutants: vec![(ReplaceCond(cond::EQ), None, boolean(false))],
        },
        Case {
            // `lcmp` gives 1, `ifle` does not jump.
            name: "longGreater",
            desc: "(JJ)Z",
            args: vec![Arg::J(3), Arg::J(2)],
            original: boolean(true),
            mutants: vec![
                (ReplaceCond(cond::GT), None, boolean(false)),
                (ReplaceCond(cond::EQ), None, boolean(true)),
            ],
        },
    ]
}

/// Constants of every type.
fn constant_cases() -> Vec<Case> {
    use Mutant::*;
    vec![
        Case {
            name: "scale",
            desc: "(I)I",
            args: vec![Arg::I(3)],
            original: int(21),
            mutants: vec![
                (ReplaceConstant { at: goals::InsnIdx::new(1), by: Constant::Int(0) }, None, int(0)),
                (ReplaceConstant { at: goals::InsnIdx::new(1), by: Constant::Int(-1) }, None, int(-3)),
                (ReplaceConstant { at: goals::InsnIdx::new(1), by: Constant::Int(8) }, None, int(24)),
                (InsertUnary(UnaryOp::Inc), None, int(28)),
                (ReplaceOp(BinOp::Add), None, int(10)),
            ],
        },
        Case {
            name: "ratio",
            desc: "(D)D",
            args: vec![Arg::D(2.0)],
            original: double(5.0),
            mutants: vec![
                (
                    ReplaceConstant { at: goals::InsnIdx::new(1), by: Constant::Double(1.5f64.to_bits()) },
                    None,
                    double(3.0),
                ),
                (
                    ReplaceConstant { at: goals::InsnIdx::new(1), by: Constant::Double(3.5f64.to_bits()) },
                    None,
                    double(7.0),
                ),
            ],
        },
        Case {
            name: "plusTen",
            desc: "(J)J",
            args: vec![Arg::J(5)],
            original: long(15),
            mutants: vec![(
                ReplaceConstant { at: goals::InsnIdx::new(1), by: Constant::Long(11) },
                None,
                long(16),
            )],
        },
        Case {
            name: "half",
            desc: "(F)F",
            args: vec![Arg::F(3.0)],
            original: float(1.5),
            mutants: vec![(
                ReplaceConstant { at: goals::InsnIdx::new(1), by: Constant::Float(1.0f32.to_bits()) },
                None,
                float(3.0),
            )],
        },
        Case {
            // 6 / (3 - 1); the constant 1 replaced by 2 divides by 1.
            name: "quotient",
            desc: "(II)I",
            args: vec![Arg::I(6), Arg::I(3)],
            original: int(3),
            mutants: vec![
                (ReplaceConstant { at: goals::InsnIdx::new(2), by: Constant::Int(2) }, None, int(6)),
                (ReplaceOp(BinOp::Add), Some(3), int(1)),
                (ReplaceOp(BinOp::Rem), Some(4), int(0)),
            ],
        },
    ]
}

#[test]
fn each_mutant_computes_its_own_result_and_the_original_runs_otherwise() {
    let subject = prepare();
    let mut ex = executor(&subject);
    let mut tests: Vec<Vec<Statement>> = Vec::new();
    let mut expected: Vec<(String, Outcome)> = Vec::new();
    for case in cases() {
        let test = call(case.name, case.desc, &case.args);
        tests.push(test.clone());
        expected.push((format!("{} original", case.name), case.original.clone()));
        for (mutant, insn, result) in case.mutants {
            let g = goal(&subject, case.name, mutant, insn);
            let active = instrument::active_mutant(&subject.plan, g).expect("a weak-mutation goal");
            assert!(
                subject.mutant_sites.binary_search(&active.site).is_ok(),
                "{} {mutant:?}: no site",
                case.name
            );
            tests.push(mutated(active, case.name, case.desc, &case.args));
            expected.push((format!("{} {mutant:?}", case.name), result));
            // The original again, after the mutant's test.
            tests.push(test.clone());
            expected.push((format!("{} original after {mutant:?}", case.name), case.original.clone()));
        }
    }
    let results = ex.execute(&tests).expect("the worker runs the tests");
    let got: Vec<(String, Outcome)> =
        expected.iter().zip(&results).map(|((what, _), r)| (what.clone(), last(r).clone())).collect();
    assert_eq!(got, expected);
}

#[test]
fn every_weak_mutation_goal_has_an_emitted_site_and_a_throwing_mutant_is_an_outcome() {
    let subject = prepare();
    let plan = &subject.plan;
    let weak: Vec<GoalId> = (0..plan.goals().len() as u32)
        .map(GoalId)
        .filter(|&g| matches!(plan.goal(g), Goal::WeakMutation { .. }))
        .collect();
    assert!(weak.len() > 60, "{} weak-mutation goals", weak.len());
    for &g in &weak {
        let site = instrument::active_mutant(plan, g).expect("active mutant").site;
        assert!(subject.mutant_sites.binary_search(&site).is_ok(), "{g:?} {:?}", plan.goal(g));
    }
    // 6 / (2 - 1) with `-` replaced by `%`: 6 / 0.
    let mut ex = executor(&subject);
    let g = goal(&subject, "quotient", Mutant::ReplaceOp(BinOp::Rem), Some(3));
    let active = instrument::active_mutant(plan, g).expect("mutant");
    let test = mutated(active, "quotient", "(II)I", &[Arg::I(6), Arg::I(2)]);
    let r = ex.execute(&[test, call("quotient", "(II)I", &[Arg::I(6), Arg::I(2)])]).expect("runs");
    assert_eq!(r[0].status, exec::ExecStatus::Normal);
    assert_eq!(r[0].outcomes[0], Outcome::Value(Value::Void));
    match last(&r[0]) {
        Outcome::Threw { class, .. } => assert_eq!(class, "java.lang.ArithmeticException"),
        o => panic!("the mutant divides by zero: {o:?}"),
    }
    assert_eq!(last(&r[1]), &int(6));
}
