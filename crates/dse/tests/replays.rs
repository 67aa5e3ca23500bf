//! DSE over real replays of the dse fixtures (`fixtures/classes/dse`): a test is built by hand,
//! expanded and replayed by the concolic interpreter over the probe plan a run instruments, and
//! `dse::explain` shows each branch's condition and the solver's answer for its negation (no JVM:
//! the engine's tests check the solved tests in one). One `check_explain` helper, snapshots.

use std::sync::Arc;

use dse::DseConfig;
use expect_test::{Expect, expect};
use programdb::ProgramDb;
use testcase::{JType, MethodRef, PrimType, PrimValue, Statement, TestCase, VarId};

/// The program database over the dse fixtures and `java.base`, and the plan of `class`.
fn program(class: &str) -> (ProgramDb, goals::ProbePlan) {
    let mut cp = vec![test_support::fixture_classes("dse")];
    cp.extend(jdk::base_jmod());
    let db = test_support::open_db(&cp);
    let id = db.class_id(&class.replace('.', "/")).expect("class on the classpath");
    let (plan, _) = instrument::instrument_classes_in(&db, &[id], &instrument::Options::all());
    (db, plan)
}

/// A test calling static `class.name` with `args` (primitive and string values); it returns an
/// `int`, a `boolean` when it is named `valid`.
fn call(class: &str, name: &str, args: &[Statement]) -> TestCase {
    let mut t = TestCase::new();
    let mut vars = Vec::new();
    let mut params = Vec::new();
    for a in args {
        params.push(a.value_type().expect("a value"));
        vars.push(t.push(a.clone()));
    }
    let desc: String = params.iter().map(JType::descriptor).collect();
    let method = Arc::new(MethodRef {
        class: class.to_string(),
        name: name.to_string(),
        descriptor: format!("({desc}){}", if name == "valid" { "Z" } else { "I" }),
        is_static: true,
        owner: JType::class(class),
        params,
        ret: Some(JType::Prim(if name == "valid" { PrimType::Boolean } else { PrimType::Int })),
    });
    t.push(Statement::Method { method, receiver: None, args: vars });
    t
}

fn check_explain(class: &str, test: &TestCase, expect: Expect) {
    let (db, plan) = program(class);
    let text = dse::explain(&db, &plan, test, &DseConfig::paper(), 1);
    expect.assert_eq(&text);
}

#[test]
fn same_x_x_has_a_satisfiable_negation_only_after_expansion() {
    // `same(x, x)`: in the replay of the test as written the condition is `x == x`, which the
    // arena folds to true: nothing to negate (the paper's `x != x` is unsat). The expansion makes
    // it `same(x1, x2)`, and `x1 != x2` is sat (paper 004 §III.B).
    let mut t = TestCase::new();
    let x = t.push(Statement::Primitive(PrimValue::Int(7)));
    let method = Arc::new(MethodRef {
        class: "dse.Same".into(),
        name: "same".into(),
        descriptor: "(II)Z".into(),
        is_static: true,
        owner: JType::class("dse.Same"),
        params: vec![JType::Prim(PrimType::Int), JType::Prim(PrimType::Int)],
        ret: Some(JType::Prim(PrimType::Boolean)),
    });
    t.push(Statement::Method { method, receiver: None, args: vec![x, VarId(0)] });
    let (db, plan) = program("dse.Same");
    let unexpanded = {
        let cfg = DseConfig::paper();
        let mut replay =
            symbolic::Concolic::new(&db, &plan, cfg.sym()).run(&t, &dse::symbolic_statements(&t));
        let mut solver = solver::Portfolio::new(&cfg.solver, 1);
        replay
            .path
            .clone()
            .iter()
            .map(|e| {
                let negated = replay.arena.mk(solver::Op::Not, &[e.cond]);
                format!("{} -> {:?}", replay.arena.display(e.cond), {
                    use solver::Solver as _;
                    matches!(solver.solve(&replay.arena, &[negated], &replay.hint), solver::Outcome::Sat(_))
                })
            })
            .collect::<Vec<_>>()
    };
    expect![[r#"
        []
    "#]]
    .assert_debug_eq(&unexpanded);
    check_explain(
        "dse.Same",
        &t,
        expect![[r#"
            == test
            int v0 = 7;
            boolean v1 = Same.same(v0, v0);

            == expanded
            int v0 = 7;
            int v1 = 7;
            boolean v2 = Same.same(v0, v1);

            == replay: 2 inputs, 1 path entries, 1 instructions symbolic, 4 concrete, 0 pinned
            #0 Branch dse/Same.same(II)Z@2 took g11: !(v0 != v1)
                negate for g10: sat (1 constraints): v0 = -1, v1 = 0
        "#]],
    );
}

#[test]
fn magic_linear_negations_chain_through_the_prefix() {
    let t = call(
        "dse.Magic",
        "linear",
        &[
            Statement::Primitive(PrimValue::Int(455557)),
            Statement::Primitive(PrimValue::Int(377780)),
            Statement::Primitive(PrimValue::Int(0)),
        ],
    );
    check_explain(
        "dse.Magic",
        &t,
        expect![[r#"
            == test
            int v0 = 455557;
            int v1 = 377780;
            int v2 = 0;
            int v3 = Magic.linear(v0, v1, v2);

            == replay: 3 inputs, 1 path entries, 5 instructions symbolic, 8 concrete, 0 pinned
            #0 Branch dse/Magic.linear(III)I@10 took g47: ((v2 + ((v0 * 3) - (v1 * 7))) != 1000003)
                negate for g48: sat (1 constraints): v0 = 0, v1 = 0, v2 = 1000003
        "#]],
    );
}

#[test]
fn date_parse_constraints_over_characters() {
    let t = call("dse.DateParse", "dayOfYear", &[Statement::String("2000-02-2x".into())]);
    check_explain(
        "dse.DateParse",
        &t,
        expect![[r#"
            == test
            String v0 = "2000-02-2x";
            int v1 = DateParse.dayOfYear(v0);

            == replay: 11 inputs, 23 path entries, 12 instructions symbolic, 24 concrete, 3 pinned
            inputs: len0 = v0.length(), s0[0] = v0.charAt(0), s0[1] = v0.charAt(1), s0[2] = v0.charAt(2), s0[3] = v0.charAt(3), s0[4] = v0.charAt(4), s0[5] = v0.charAt(5), s0[6] = v0.charAt(6), s0[7] = v0.charAt(7), s0[8] = v0.charAt(8), s0[9] = v0.charAt(9)
            #0 Assume test.statement 0@0 took -: ((0 <= len0) && (len0 <= 32))
            #1 Branch dse/DateParse.dayOfYear(Ljava/lang/String;)I@5 took g7: (len0 == 10)
                negate for g8: sat (2 constraints): v0 = ""
            #2 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@10 took -: (4 <u len0)
                negate (explore): unsat
            #3 Branch dse/DateParse.dayOfYear(Ljava/lang/String;)I@12 took g34: !(zext32(s0[4]) != 45)
                negate for g33: sat (2 constraints): v0 = "2000\002-2x"
            #4 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@15 took -: (7 <u len0)
                negate (explore): unsat
            #5 Branch dse/DateParse.dayOfYear(Ljava/lang/String;)I@17 took g50: (zext32(s0[7]) == 45)
                negate for g51: sat (2 constraints): v0 = "2000-02\02x"
            #6 Pin dse/DateParse.dayOfYear(Ljava/lang/String;)I@23 took -: (4 <= len0)
            #7 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@24 took -: !(s0[0] == (char)45)
                negate (explore): sat (2 constraints): v0 = "-000-02-2x"
            #8 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@24 took -: !(s0[0] == (char)43)
                negate (explore): sat (3 constraints): v0 = "+000-02-2x"
            #9 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@24 took -: ((zext32(s0[0]) - 48) <u 10)
                negate (explore): sat (4 constraints): v0 = "\n000-02-2x"
            #10 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@24 took -: ((zext32(s0[1]) - 48) <u 10)
                negate (explore): sat (2 constraints): v0 = "2\u{c}00-02-2x"
            #11 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@24 took -: ((zext32(s0[2]) - 48) <u 10)
                negate (explore): sat (2 constraints): v0 = "20\u{c}0-02-2x"
            #12 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@24 took -: ((zext32(s0[3]) - 48) <u 10)
                negate (explore): sat (2 constraints): v0 = "200\u{c}-02-2x"
            #13 Pin dse/DateParse.dayOfYear(Ljava/lang/String;)I@29 took -: (7 <= len0)
            #14 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@30 took -: !(s0[5] == (char)45)
                negate (explore): sat (2 constraints): v0 = "2000--2-2x"
            #15 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@30 took -: !(s0[5] == (char)43)
                negate (explore): sat (3 constraints): v0 = "2000-+2-2x"
            #16 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@30 took -: ((zext32(s0[5]) - 48) <u 10)
                negate (explore): sat (4 constraints): v0 = "2000-\n2-2x"
            #17 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@30 took -: ((zext32(s0[6]) - 48) <u 10)
                negate (explore): sat (2 constraints): v0 = "2000-0\u{c}-2x"
            #18 Pin dse/DateParse.dayOfYear(Ljava/lang/String;)I@35 took -: (10 <= len0)
            #19 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@36 took -: !(s0[8] == (char)45)
                negate (explore): sat (2 constraints): v0 = "2000-02--x"
            #20 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@36 took -: !(s0[8] == (char)43)
                negate (explore): sat (3 constraints): v0 = "2000-02-+x"
            #21 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@36 took -: ((zext32(s0[8]) - 48) <u 10)
                negate (explore): sat (4 constraints): v0 = "2000-02-\nx"
            #22 Implicit dse/DateParse.dayOfYear(Ljava/lang/String;)I@36 took -: !((zext32(s0[9]) - 48) <u 10)
                negate (explore): sat (2 constraints): v0 = "2000-02-20"
        "#]],
    );
}

#[test]
fn cas_number_check_digit() {
    let t = call("dse.CasNumber", "check", &[Statement::String("7732-18-4".into())]);
    check_explain(
        "dse.CasNumber",
        &t,
        expect![[r#"
            == test
            String v0 = "7732-18-4";
            int v1 = CasNumber.check(v0);

            == replay: 10 inputs, 53 path entries, 82 instructions symbolic, 152 concrete, 9 pinned
            inputs: len0 = v0.length(), s0[0] = v0.charAt(0), s0[1] = v0.charAt(1), s0[2] = v0.charAt(2), s0[3] = v0.charAt(3), s0[4] = v0.charAt(4), s0[5] = v0.charAt(5), s0[6] = v0.charAt(6), s0[7] = v0.charAt(7), s0[8] = v0.charAt(8)
            #0 Assume test.statement 0@0 took -: ((0 <= len0) && (len0 <= 32))
            #1 Branch dse/CasNumber.check(Ljava/lang/String;)I@9 took g26: !(len0 < 7)
                negate for g25: sat (2 constraints): v0 = ""
            #2 Branch dse/CasNumber.check(Ljava/lang/String;)I@12 took g40: (len0 <= 12)
                negate for g41: sat (3 constraints): v0 = "7732-18-4aaaa"
            #3 Implicit dse/CasNumber.check(Ljava/lang/String;)I@19 took -: ((len0 - 2) <u len0)
                negate (explore): unsat
            #4 Pin dse/CasNumber.check(Ljava/lang/String;)I@19 took -: ((len0 - 2) == 7)
            #5 Branch dse/CasNumber.check(Ljava/lang/String;)I@21 took g66: !(zext32(s0[7]) != 45)
                negate for g65: sat (2 constraints): v0 = "7732-18\04"
            #6 Implicit dse/CasNumber.check(Ljava/lang/String;)I@26 took -: ((len0 - 5) <u len0)
                negate (explore): unsat
            #7 Pin dse/CasNumber.check(Ljava/lang/String;)I@26 took -: ((len0 - 5) == 4)
            #8 Branch dse/CasNumber.check(Ljava/lang/String;)I@28 took g91: (zext32(s0[4]) == 45)
                negate for g92: sat (2 constraints): v0 = "7732\018-4"
            #9 Branch dse/CasNumber.check(Ljava/lang/String;)I@40 took g134: !((len0 - 3) < 0)
                negate for g133: unsat
            #10 Branch dse/CasNumber.check(Ljava/lang/String;)I@45 took g158: ((len0 - 5) != (len0 - 3))
                negate for g159: unsat
            #11 Implicit dse/CasNumber.check(Ljava/lang/String;)I@49 took -: ((len0 - 3) <u len0)
                negate (explore): unsat
            #12 Pin dse/CasNumber.check(Ljava/lang/String;)I@49 took -: ((len0 - 3) == 6)
            #13 Branch dse/CasNumber.check(Ljava/lang/String;)I@53 took g180: !(zext32(s0[6]) < 48)
                negate for g179: sat (2 constraints): v0 = "7732-1\0-4"
            #14 Branch dse/CasNumber.check(Ljava/lang/String;)I@56 took g194: (zext32(s0[6]) <= 57)
                negate for g195: sat (3 constraints): v0 = "7732-1:-4"
            #15 Branch dse/CasNumber.check(Ljava/lang/String;)I@40 took g134: !(((len0 - 3) + -1) < 0)
                negate for g133: unsat
            #16 Branch dse/CasNumber.check(Ljava/lang/String;)I@45 took g158: ((len0 - 5) != ((len0 - 3) + -1))
                negate for g159: unsat
            #17 Implicit dse/CasNumber.check(Ljava/lang/String;)I@49 took -: (((len0 - 3) + -1) <u len0)
                negate (explore): unsat
            #18 Pin dse/CasNumber.check(Ljava/lang/String;)I@49 took -: (((len0 - 3) + -1) == 5)
            #19 Branch dse/CasNumber.check(Ljava/lang/String;)I@53 took g180: !(zext32(s0[5]) < 48)
                negate for g179: sat (2 constraints): v0 = "7732-\08-4"
            #20 Branch dse/CasNumber.check(Ljava/lang/String;)I@56 took g194: (zext32(s0[5]) <= 57)
                negate for g195: sat (3 constraints): v0 = "7732-:8-4"
            #21 Branch dse/CasNumber.check(Ljava/lang/String;)I@40 took g134: !((((len0 - 3) + -1) + -1) < 0)
                negate for g133: unsat
            #22 Branch dse/CasNumber.check(Ljava/lang/String;)I@45 took g159: !((len0 - 5) != (((len0 - 3) + -1) + -1))
                negate for g158: unsat
            #23 Branch dse/CasNumber.check(Ljava/lang/String;)I@40 took g134: !(((((len0 - 3) + -1) + -1) + -1) < 0)
                negate for g133: unsat
            #24 Branch dse/CasNumber.check(Ljava/lang/String;)I@45 took g158: ((len0 - 5) != ((((len0 - 3) + -1) + -1) + -1))
                negate for g159: unsat
            #25 Implicit dse/CasNumber.check(Ljava/lang/String;)I@49 took -: (((((len0 - 3) + -1) + -1) + -1) <u len0)
                negate (explore): unsat
            #26 Pin dse/CasNumber.check(Ljava/lang/String;)I@49 took -: (((((len0 - 3) + -1) + -1) + -1) == 3)
            #27 Branch dse/CasNumber.check(Ljava/lang/String;)I@53 took g180: !(zext32(s0[3]) < 48)
                negate for g179: sat (2 constraints): v0 = "773\0-18-4"
            #28 Branch dse/CasNumber.check(Ljava/lang/String;)I@56 took g194: (zext32(s0[3]) <= 57)
                negate for g195: sat (3 constraints): v0 = "773:-18-4"
            #29 Branch dse/CasNumber.check(Ljava/lang/String;)I@40 took g134: !((((((len0 - 3) + -1) + -1) + -1) + -1) < 0)
                negate for g133: unsat
            #30 Branch dse/CasNumber.check(Ljava/lang/String;)I@45 took g158: ((len0 - 5) != (((((len0 - 3) + -1) + -1) + -1) + -1))
                negate for g159: unsat
            #31 Implicit dse/CasNumber.check(Ljava/lang/String;)I@49 took -: ((((((len0 - 3) + -1) + -1) + -1) + -1) <u len0)
                negate (explore): unsat
            #32 Pin dse/CasNumber.check(Ljava/lang/String;)I@49 took -: ((((((len0 - 3) + -1) + -1) + -1) + -1) == 2)
            #33 Branch dse/CasNumber.check(Ljava/lang/String;)I@53 took g180: !(zext32(s0[2]) < 48)
                negate for g179: sat (2 constraints): v0 = "77\02-18-4"
            #34 Branch dse/CasNumber.check(Ljava/lang/String;)I@56 took g194: (zext32(s0[2]) <= 57)
                negate for g195: sat (3 constraints): v0 = "77:2-18-4"
            #35 Branch dse/CasNumber.check(Ljava/lang/String;)I@40 took g134: !(((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) < 0)
                negate for g133: unsat
            #36 Branch dse/CasNumber.check(Ljava/lang/String;)I@45 took g158: ((len0 - 5) != ((((((len0 - 3) + -1) + -1) + -1) + -1) + -1))
                negate for g159: unsat
            #37 Implicit dse/CasNumber.check(Ljava/lang/String;)I@49 took -: (((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) <u len0)
                negate (explore): unsat
            #38 Pin dse/CasNumber.check(Ljava/lang/String;)I@49 took -: (((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) == 1)
            #39 Branch dse/CasNumber.check(Ljava/lang/String;)I@53 took g180: !(zext32(s0[1]) < 48)
                negate for g179: sat (2 constraints): v0 = "7\032-18-4"
            #40 Branch dse/CasNumber.check(Ljava/lang/String;)I@56 took g194: (zext32(s0[1]) <= 57)
                negate for g195: sat (3 constraints): v0 = "7:32-18-4"
            #41 Branch dse/CasNumber.check(Ljava/lang/String;)I@40 took g134: !((((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1) < 0)
                negate for g133: unsat
            #42 Branch dse/CasNumber.check(Ljava/lang/String;)I@45 took g158: ((len0 - 5) != (((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1))
                negate for g159: unsat
            #43 Implicit dse/CasNumber.check(Ljava/lang/String;)I@49 took -: ((((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1) <u len0)
                negate (explore): unsat
            #44 Pin dse/CasNumber.check(Ljava/lang/String;)I@49 took -: ((((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1) == 0)
            #45 Branch dse/CasNumber.check(Ljava/lang/String;)I@53 took g180: !(zext32(s0[0]) < 48)
                negate for g179: sat (2 constraints): v0 = "\0732-18-4"
            #46 Branch dse/CasNumber.check(Ljava/lang/String;)I@56 took g194: (zext32(s0[0]) <= 57)
                negate for g195: sat (3 constraints): v0 = ":732-18-4"
            #47 Branch dse/CasNumber.check(Ljava/lang/String;)I@40 took g133: (((((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1) + -1) < 0)
                negate for g134: unsat
            #48 Implicit dse/CasNumber.check(Ljava/lang/String;)I@74 took -: ((len0 - 1) <u len0)
                negate (explore): unsat
            #49 Pin dse/CasNumber.check(Ljava/lang/String;)I@74 took -: ((len0 - 1) == 8)
            #50 Branch dse/CasNumber.check(Ljava/lang/String;)I@78 took g264: !(zext32(s0[8]) < 48)
                negate for g263: sat (2 constraints): v0 = "7732-18-\0"
            #51 Branch dse/CasNumber.check(Ljava/lang/String;)I@81 took g278: (zext32(s0[8]) <= 57)
                negate for g279: sat (3 constraints): v0 = "7732-18-:"
            #52 Branch dse/CasNumber.check(Ljava/lang/String;)I@90 took g320: ((((((((zext32(s0[6]) - 48) + ((zext32(s0[5]) - 48) * 2)) + ((zext32(s0[3]) - 48) * 3)) + ((zext32(s0[2]) - 48) * 4)) + ((zext32(s0[1]) - 48) * 5)) + ((zext32(s0[0]) - 48) * 6)) % 10) != (zext32(s0[8]) - 48))
                negate for g321: sat (22 constraints): v0 = "4101-91-1"
        "#]],
    );
}

#[test]
fn parse_num_through_integer_parse_int() {
    let t = call("dse.ParseNum", "parse", &[Statement::String("5710".into())]);
    check_explain(
        "dse.ParseNum",
        &t,
        expect![[r#"
            == test
            String v0 = "5710";
            int v1 = ParseNum.parse(v0);

            == replay: 10 inputs, 15 path entries, 3 instructions symbolic, 8 concrete, 7 pinned
            inputs: len0 = v0.length(), s0[0] = v0.charAt(0), s0[1] = v0.charAt(1), s0[2] = v0.charAt(2), s0[3] = v0.charAt(3), s0[4] = v0.charAt(4), s0[5] = v0.charAt(5), s0[6] = v0.charAt(6), s0[7] = v0.charAt(7), s0[8] = v0.charAt(8)
            #0 Assume test.statement 0@0 took -: ((0 <= len0) && (len0 <= 32))
            #1 Implicit dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: !(s0[0] == (char)45)
                negate (explore): sat (2 constraints): v0 = "-710"
            #2 Implicit dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: !(s0[0] == (char)43)
                negate (explore): sat (3 constraints): v0 = "+710"
            #3 Pin dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: (len0 > 0)
            #4 Pin dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: (len0 <= 9)
            #5 Implicit dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: !((char)9 <u (s0[0] - (char)48))
                negate (explore): sat (4 constraints): v0 = "\u{8c}710"
            #6 Implicit dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: !((char)9 <u (s0[1] - (char)48))
                negate (explore): sat (2 constraints): v0 = "5:10"
            #7 Implicit dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: !((char)9 <u (s0[2] - (char)48))
                negate (explore): sat (2 constraints): v0 = "57:0"
            #8 Implicit dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: !((char)9 <u (s0[3] - (char)48))
                negate (explore): sat (2 constraints): v0 = "571:"
            #9 Pin dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: ((4 <u len0) => !((char)9 <u (s0[4] - (char)48)))
            #10 Pin dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: ((5 <u len0) => !((char)9 <u (s0[5] - (char)48)))
            #11 Pin dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: ((6 <u len0) => !((char)9 <u (s0[6] - (char)48)))
            #12 Pin dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: ((7 <u len0) => !((char)9 <u (s0[7] - (char)48)))
            #13 Pin dse/ParseNum.parse(Ljava/lang/String;)I@1 took -: ((8 <u len0) => !((char)9 <u (s0[8] - (char)48)))
            #14 Branch dse/ParseNum.parse(Ljava/lang/String;)I@11 took g30: (((((8 <u len0) ? zext32((s0[8] - (char)48)) : 0) + ((((7 <u len0) ? zext32((s0[7] - (char)48)) : 0) + ((((6 <u len0) ? zext32((s0[6] - (char)48)) : 0) + ((((5 <u len0) ? zext32((s0[5] - (char)48)) : 0) + ((((4 <u len0) ? zext32((s0[4] - (char)48)) : 0) + ((((3 <u len0) ? zext32((s0[3] - (char)48)) : 0) + ((((2 <u len0) ? zext32((s0[2] - (char)48)) : 0) + ((((1 <u len0) ? zext32((s0[1] - (char)48)) : 0) + (((0 <u len0) ? zext32((s0[0] - (char)48)) : 0) * ((1 <u len0) ? 10 : 1))) * ((2 <u len0) ? 10 : 1))) * ((3 <u len0) ? 10 : 1))) * ((4 <u len0) ? 10 : 1))) * ((5 <u len0) ? 10 : 1))) * ((6 <u len0) ? 10 : 1))) * ((7 <u len0) ? 10 : 1))) * ((8 <u len0) ? 10 : 1))) * 3) != 17133)
                negate for g31: sat (24 constraints): v0 = "5711"
        "#]],
    );
}

#[test]
fn email_through_index_of_substring_and_ends_with() {
    let t = call("dse.Email", "valid", &[Statement::String("bob@example.orx".into())]);
    check_explain(
        "dse.Email",
        &t,
        expect![[r#"
            == test
            String v0 = "bob@example.orx";
            boolean v1 = Email.valid(v0);

            == replay: 33 inputs, 7 path entries, 7 instructions symbolic, 18 concrete, 4 pinned
            inputs: len0 = v0.length(), s0[0] = v0.charAt(0), s0[1] = v0.charAt(1), s0[2] = v0.charAt(2), s0[3] = v0.charAt(3), s0[4] = v0.charAt(4), s0[5] = v0.charAt(5), s0[6] = v0.charAt(6), s0[7] = v0.charAt(7), s0[8] = v0.charAt(8), s0[9] = v0.charAt(9), s0[10] = v0.charAt(10), s0[11] = v0.charAt(11), s0[12] = v0.charAt(12), s0[13] = v0.charAt(13), s0[14] = v0.charAt(14), s0[15] = v0.charAt(15), s0[16] = v0.charAt(16), s0[17] = v0.charAt(17), s0[18] = v0.charAt(18), s0[19] = v0.charAt(19), s0[20] = v0.charAt(20), s0[21] = v0.charAt(21), s0[22] = v0.charAt(22), s0[23] = v0.charAt(23), s0[24] = v0.charAt(24), s0[25] = v0.charAt(25), s0[26] = v0.charAt(26), s0[27] = v0.charAt(27), s0[28] = v0.charAt(28), s0[29] = v0.charAt(29), s0[30] = v0.charAt(30), s0[31] = v0.charAt(31)
            #0 Assume test.statement 0@0 took -: ((0 <= len0) && (len0 <= 32))
            #1 Branch dse/Email.valid(Ljava/lang/String;)Z@9 took g23: ((((0 <u len0) && (s0[0] == (char)64)) ? 0 : (((1 <u len0) && (s0[1] == (char)64)) ? 1 : (((2 <u len0) && (s0[2] == (char)64)) ? 2 : (((3 <u len0) && (s0[3] == (char)64)) ? 3 : (((4 <u len0) && (s0[4] == (char)64)) ? 4 : (((5 <u len0) && (s0[5] == (char)64)) ? 5 : (((6 <u len0) && (s0[6] == (char)64)) ? 6 : (((7 <u len0) && (s0[7] == (char)64)) ? 7 : (((8 <u len0) && (s0[8] == (char)64)) ? 8 : (((9 <u len0) && (s0[9] == (char)64)) ? 9 : (((10 <u len0) && (s0[10] == (char)64)) ? 10 : (((11 <u len0) && (s0[11] == (char)64)) ? 11 : (((12 <u len0) && (s0[12] == (char)64)) ? 12 : (((13 <u len0) && (s0[13] == (char)64)) ? 13 : (((14 <u len0) && (s0[14] == (char)64)) ? 14 : (((15 <u len0) && (s0[15] == (char)64)) ? 15 : (((16 <u len0) && (s0[16] == (char)64)) ? 16 : (((17 <u len0) && (s0[17] == (char)64)) ? 17 : (((18 <u len0) && (s0[18] == (char)64)) ? 18 : (((19 <u len0) && (s0[19] == (char)64)) ? 19 : (((20 <u len0) && (s0[20] == (char)64)) ? 20 : (((21 <u len0) && (s0[21] == (char)64)) ? 21 : (((22 <u len0) && (s0[22] == (char)64)) ? 22 : (((23 <u len0) && (s0[23] == (char)64)) ? 23 : (((24 <u len0) && (s0[24] == (char)64)) ? 24 : (((25 <u len0) && (s0[25] == (char)64)) ? 25 : (((26 <u len0) && (s0[26] == (char)64)) ? 26 : (((27 <u len0) && (s0[27] == (char)64)) ? 27 : (((28 <u len0) && (s0[28] == (char)64)) ? 28 : (((29 <u len0) && (s0[29] == (char)64)) ? 29 : (((30 <u len0) && (s0[30] == (char)64)) ? 30 : (((31 <u len0) && (s0[31] == (char)64)) ? 31 : -1)))))))))))))))))))))))))))))))) > 0)
                negate for g24: sat (34 constraints): v0 = ""
            #2 Pin dse/Email.valid(Ljava/lang/String;)Z@15 took -: ((((0 <u len0) && (s0[0] == (char)64)) ? 0 : (((1 <u len0) && (s0[1] == (char)64)) ? 1 : (((2 <u len0) && (s0[2] == (char)64)) ? 2 : (((3 <u len0) && (s0[3] == (char)64)) ? 3 : (((4 <u len0) && (s0[4] == (char)64)) ? 4 : (((5 <u len0) && (s0[5] == (char)64)) ? 5 : (((6 <u len0) && (s0[6] == (char)64)) ? 6 : (((7 <u len0) && (s0[7] == (char)64)) ? 7 : (((8 <u len0) && (s0[8] == (char)64)) ? 8 : (((9 <u len0) && (s0[9] == (char)64)) ? 9 : (((10 <u len0) && (s0[10] == (char)64)) ? 10 : (((11 <u len0) && (s0[11] == (char)64)) ? 11 : (((12 <u len0) && (s0[12] == (char)64)) ? 12 : (((13 <u len0) && (s0[13] == (char)64)) ? 13 : (((14 <u len0) && (s0[14] == (char)64)) ? 14 : (((15 <u len0) && (s0[15] == (char)64)) ? 15 : (((16 <u len0) && (s0[16] == (char)64)) ? 16 : (((17 <u len0) && (s0[17] == (char)64)) ? 17 : (((18 <u len0) && (s0[18] == (char)64)) ? 18 : (((19 <u len0) && (s0[19] == (char)64)) ? 19 : (((20 <u len0) && (s0[20] == (char)64)) ? 20 : (((21 <u len0) && (s0[21] == (char)64)) ? 21 : (((22 <u len0) && (s0[22] == (char)64)) ? 22 : (((23 <u len0) && (s0[23] == (char)64)) ? 23 : (((24 <u len0) && (s0[24] == (char)64)) ? 24 : (((25 <u len0) && (s0[25] == (char)64)) ? 25 : (((26 <u len0) && (s0[26] == (char)64)) ? 26 : (((27 <u len0) && (s0[27] == (char)64)) ? 27 : (((28 <u len0) && (s0[28] == (char)64)) ? 28 : (((29 <u len0) && (s0[29] == (char)64)) ? 29 : (((30 <u len0) && (s0[30] == (char)64)) ? 30 : (((31 <u len0) && (s0[31] == (char)64)) ? 31 : -1)))))))))))))))))))))))))))))))) == 3)
            #3 Pin dse/Email.valid(Ljava/lang/String;)Z@15 took -: (3 <= len0)
            #4 Pin dse/Email.valid(Ljava/lang/String;)Z@21 took -: (((((0 <u len0) && (s0[0] == (char)64)) ? 0 : (((1 <u len0) && (s0[1] == (char)64)) ? 1 : (((2 <u len0) && (s0[2] == (char)64)) ? 2 : (((3 <u len0) && (s0[3] == (char)64)) ? 3 : (((4 <u len0) && (s0[4] == (char)64)) ? 4 : (((5 <u len0) && (s0[5] == (char)64)) ? 5 : (((6 <u len0) && (s0[6] == (char)64)) ? 6 : (((7 <u len0) && (s0[7] == (char)64)) ? 7 : (((8 <u len0) && (s0[8] == (char)64)) ? 8 : (((9 <u len0) && (s0[9] == (char)64)) ? 9 : (((10 <u len0) && (s0[10] == (char)64)) ? 10 : (((11 <u len0) && (s0[11] == (char)64)) ? 11 : (((12 <u len0) && (s0[12] == (char)64)) ? 12 : (((13 <u len0) && (s0[13] == (char)64)) ? 13 : (((14 <u len0) && (s0[14] == (char)64)) ? 14 : (((15 <u len0) && (s0[15] == (char)64)) ? 15 : (((16 <u len0) && (s0[16] == (char)64)) ? 16 : (((17 <u len0) && (s0[17] == (char)64)) ? 17 : (((18 <u len0) && (s0[18] == (char)64)) ? 18 : (((19 <u len0) && (s0[19] == (char)64)) ? 19 : (((20 <u len0) && (s0[20] == (char)64)) ? 20 : (((21 <u len0) && (s0[21] == (char)64)) ? 21 : (((22 <u len0) && (s0[22] == (char)64)) ? 22 : (((23 <u len0) && (s0[23] == (char)64)) ? 23 : (((24 <u len0) && (s0[24] == (char)64)) ? 24 : (((25 <u len0) && (s0[25] == (char)64)) ? 25 : (((26 <u len0) && (s0[26] == (char)64)) ? 26 : (((27 <u len0) && (s0[27] == (char)64)) ? 27 : (((28 <u len0) && (s0[28] == (char)64)) ? 28 : (((29 <u len0) && (s0[29] == (char)64)) ? 29 : (((30 <u len0) && (s0[30] == (char)64)) ? 30 : (((31 <u len0) && (s0[31] == (char)64)) ? 31 : -1)))))))))))))))))))))))))))))))) + 1) == 4)
            #5 Pin dse/Email.valid(Ljava/lang/String;)Z@21 took -: (4 <= len0)
            #6 Branch dse/Email.valid(Ljava/lang/String;)Z@26 took g54: !((((((((((((((((((((((((((((((len0 - 4) == 4) && (s0[4] == (char)46)) && (s0[5] == (char)111)) && (s0[6] == (char)114)) && (s0[7] == (char)103)) || ((((((len0 - 4) == 5) && (s0[5] == (char)46)) && (s0[6] == (char)111)) && (s0[7] == (char)114)) && (s0[8] == (char)103))) || ((((((len0 - 4) == 6) && (s0[6] == (char)46)) && (s0[7] == (char)111)) && (s0[8] == (char)114)) && (s0[9] == (char)103))) || ((((((len0 - 4) == 7) && (s0[7] == (char)46)) && (s0[8] == (char)111)) && (s0[9] == (char)114)) && (s0[10] == (char)103))) || ((((((len0 - 4) == 8) && (s0[8] == (char)46)) && (s0[9] == (char)111)) && (s0[10] == (char)114)) && (s0[11] == (char)103))) || ((((((len0 - 4) == 9) && (s0[9] == (char)46)) && (s0[10] == (char)111)) && (s0[11] == (char)114)) && (s0[12] == (char)103))) || ((((((len0 - 4) == 10) && (s0[10] == (char)46)) && (s0[11] == (char)111)) && (s0[12] == (char)114)) && (s0[13] == (char)103))) || ((((((len0 - 4) == 11) && (s0[11] == (char)46)) && (s0[12] == (char)111)) && (s0[13] == (char)114)) && (s0[14] == (char)103))) || ((((((len0 - 4) == 12) && (s0[12] == (char)46)) && (s0[13] == (char)111)) && (s0[14] == (char)114)) && (s0[15] == (char)103))) || ((((((len0 - 4) == 13) && (s0[13] == (char)46)) && (s0[14] == (char)111)) && (s0[15] == (char)114)) && (s0[16] == (char)103))) || ((((((len0 - 4) == 14) && (s0[14] == (char)46)) && (s0[15] == (char)111)) && (s0[16] == (char)114)) && (s0[17] == (char)103))) || ((((((len0 - 4) == 15) && (s0[15] == (char)46)) && (s0[16] == (char)111)) && (s0[17] == (char)114)) && (s0[18] == (char)103))) || ((((((len0 - 4) == 16) && (s0[16] == (char)46)) && (s0[17] == (char)111)) && (s0[18] == (char)114)) && (s0[19] == (char)103))) || ((((((len0 - 4) == 17) && (s0[17] == (char)46)) && (s0[18] == (char)111)) && (s0[19] == (char)114)) && (s0[20] == (char)103))) || ((((((len0 - 4) == 18) && (s0[18] == (char)46)) && (s0[19] == (char)111)) && (s0[20] == (char)114)) && (s0[21] == (char)103))) || ((((((len0 - 4) == 19) && (s0[19] == (char)46)) && (s0[20] == (char)111)) && (s0[21] == (char)114)) && (s0[22] == (char)103))) || ((((((len0 - 4) == 20) && (s0[20] == (char)46)) && (s0[21] == (char)111)) && (s0[22] == (char)114)) && (s0[23] == (char)103))) || ((((((len0 - 4) == 21) && (s0[21] == (char)46)) && (s0[22] == (char)111)) && (s0[23] == (char)114)) && (s0[24] == (char)103))) || ((((((len0 - 4) == 22) && (s0[22] == (char)46)) && (s0[23] == (char)111)) && (s0[24] == (char)114)) && (s0[25] == (char)103))) || ((((((len0 - 4) == 23) && (s0[23] == (char)46)) && (s0[24] == (char)111)) && (s0[25] == (char)114)) && (s0[26] == (char)103))) || ((((((len0 - 4) == 24) && (s0[24] == (char)46)) && (s0[25] == (char)111)) && (s0[26] == (char)114)) && (s0[27] == (char)103))) || ((((((len0 - 4) == 25) && (s0[25] == (char)46)) && (s0[26] == (char)111)) && (s0[27] == (char)114)) && (s0[28] == (char)103))) || ((((((len0 - 4) == 26) && (s0[26] == (char)46)) && (s0[27] == (char)111)) && (s0[28] == (char)114)) && (s0[29] == (char)103))) || ((((((len0 - 4) == 27) && (s0[27] == (char)46)) && (s0[28] == (char)111)) && (s0[29] == (char)114)) && (s0[30] == (char)103))) || ((((((len0 - 4) == 28) && (s0[28] == (char)46)) && (s0[29] == (char)111)) && (s0[30] == (char)114)) && (s0[31] == (char)103)))
                negate for g53: sat (39 constraints): v0 = "\0\0\0@\0\0\0\0\0\0\0\0\0.org"
        "#]],
    );
}

#[test]
fn narrow_casts() {
    let t = call("dse.Narrow", "narrow", &[Statement::Primitive(PrimValue::Int(-7))]);
    check_explain(
        "dse.Narrow",
        &t,
        expect![[r#"
            == test
            int v0 = -7;
            int v1 = Narrow.narrow(v0);

            == replay: 1 inputs, 2 path entries, 5 instructions symbolic, 7 concrete, 0 pinned
            #0 Branch dse/Narrow.narrow(I)I@3 took g8: !(sext32(low8(v0)) != -7)
                negate for g7: sat (1 constraints): v0 = 6
            #1 Branch dse/Narrow.narrow(I)I@9 took g30: (zext32(low16((v0 >>> 16))) != 90)
                negate for g31: sat (2 constraints): v0 = 5898489
        "#]],
    );
}

#[test]
fn concat_through_invokedynamic() {
    let t = call(
        "dse.Concat",
        "id",
        &[Statement::String("id".into()), Statement::Primitive(PrimValue::Char(u16::from(b'R')))],
    );
    check_explain(
        "dse.Concat",
        &t,
        expect![[r#"
            == test
            String v0 = "id";
            char v1 = 'R';
            int v2 = Concat.id(v0, v1);

            == replay: 34 inputs, 2 path entries, 3 instructions symbolic, 9 concrete, 0 pinned
            inputs: len0 = v0.length(), s0[0] = v0.charAt(0), s0[1] = v0.charAt(1), s0[2] = v0.charAt(2), s0[3] = v0.charAt(3), s0[4] = v0.charAt(4), s0[5] = v0.charAt(5), s0[6] = v0.charAt(6), s0[7] = v0.charAt(7), s0[8] = v0.charAt(8), s0[9] = v0.charAt(9), s0[10] = v0.charAt(10), s0[11] = v0.charAt(11), s0[12] = v0.charAt(12), s0[13] = v0.charAt(13), s0[14] = v0.charAt(14), s0[15] = v0.charAt(15), s0[16] = v0.charAt(16), s0[17] = v0.charAt(17), s0[18] = v0.charAt(18), s0[19] = v0.charAt(19), s0[20] = v0.charAt(20), s0[21] = v0.charAt(21), s0[22] = v0.charAt(22), s0[23] = v0.charAt(23), s0[24] = v0.charAt(24), s0[25] = v0.charAt(25), s0[26] = v0.charAt(26), s0[27] = v0.charAt(27), s0[28] = v0.charAt(28), s0[29] = v0.charAt(29), s0[30] = v0.charAt(30), s0[31] = v0.charAt(31)
            #0 Assume test.statement 0@0 took -: ((0 <= len0) && (len0 <= 32))
            #1 Branch dse/Concat.id(Ljava/lang/String;C)I@11 took g20: !((((((len0 + 2) == 4) && ((0 <u (len0 + 2)) => (((0 <u len0) ? s0[0] : (((0 - len0) == 0) ? (char)45 : (((0 - len0) == 1) ? v1 : (char)0))) == (char)105))) && ((1 <u (len0 + 2)) => (((1 <u len0) ? s0[1] : (((1 - len0) == 0) ? (char)45 : (((1 - len0) == 1) ? v1 : (char)0))) == (char)100))) && ((2 <u (len0 + 2)) => (((2 <u len0) ? s0[2] : (((2 - len0) == 0) ? (char)45 : (((2 - len0) == 1) ? v1 : (char)0))) == (char)45))) && ((3 <u (len0 + 2)) => (((3 <u len0) ? s0[3] : (((3 - len0) == 0) ? (char)45 : (((3 - len0) == 1) ? v1 : (char)0))) == (char)81)))
                negate for g21: sat (6 constraints): v1 = 'Q'
        "#]],
    );
}

/// A `DseTarget` whose "JVM" is the interpreter (a goal its replay takes has fitness 0; the
/// engine's tests check solved tests in a real one): it records the tests DSE asks it to run.
struct Interpreted<'a> {
    db: &'a ProgramDb,
    plan: &'a goals::ProbePlan,
    run: Vec<TestCase>,
}

impl dse::DseTarget for Interpreted<'_> {
    fn plan(&self) -> &goals::ProbePlan {
        self.plan
    }

    fn search_goal(&self, goal: goals::GoalId) -> Option<search::GoalIdx> {
        Some(search::GoalIdx::new(goal.0 as usize))
    }

    fn run_tests(&mut self, tests: &[TestCase]) -> Result<Vec<Vec<f64>>, search::ProblemError> {
        let mut out = Vec::new();
        for t in tests {
            let r = symbolic::Concolic::new(self.db, self.plan, symbolic::SymConfig::STANDARD).run(t, &[]);
            let mut fit = vec![1.0; self.plan.goals().len()];
            for g in r.covered {
                fit[g.0 as usize] = 0.0;
            }
            out.push(fit);
            self.run.push(t.clone());
        }
        Ok(out)
    }
}

#[test]
fn an_exploration_that_takes_a_new_goal_is_checked() {
    // "2000-02-2x" fails the last digit check; the exploration that negates that implicit entry
    // (the deepest, so the first exploration) makes a date that parses, whose replay takes the
    // month and day checks no test took: it is checked and kept, within four queries (the three
    // targets of the length and dash checks first).
    let (db, plan) = program("dse.DateParse");
    let seed = call("dse.DateParse", "dayOfYear", &[Statement::String("2000-02-2x".into())]);
    let own = symbolic::Concolic::new(&db, &plan, symbolic::SymConfig::STANDARD).run(&seed, &[]).covered;
    let covered = |g: search::GoalIdx| own.iter().any(|o| o.0 as usize == g.index());
    let config = DseConfig { max_queries: 4, ..DseConfig::paper() };
    let mut target = Interpreted { db: &db, plan: &plan, run: Vec::new() };
    let kept = dse::Dse::new(&db, &config, 1).apply(&covered, &mut target, &[seed]).expect("apply");
    let date = |t: &TestCase| {
        t.statements.iter().any(|s| {
            matches!(s, Statement::String(s) if s.len() == 10
            && s.char_indices().all(|(i, c)| if i == 4 || i == 7 { c == '-' } else { c.is_ascii_digit() }))
        })
    };
    assert!(
        target.run.iter().any(date),
        "no date was run: {:?}",
        target.run.iter().map(|t| t.to_string()).collect::<Vec<_>>()
    );
    assert!(kept.iter().any(date), "no date was kept");
}
