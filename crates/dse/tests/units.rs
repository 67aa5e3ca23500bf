//! Unit tests of the parts of DSE that need no interpreter run: expansion, candidates over a
//! hand-built path condition, substitution of models, the trigger and the controller. Each feature
//! goes through one `check_*` helper with a snapshot.

use std::collections::BTreeMap;
use std::sync::Arc;

use dse::{Controller, Queue, Trigger, Worth, expand, substitute, values_only_change};
use expect_test::{Expect, expect};
use search::GoalIdx;
use solver::{Arena, Assignment, Op, Sort, Value};
use symbolic::{EntryKind, Input, InputOrigin, InterpStats, PcEntry, Replay};
use testcase::{JType, MethodRef, PrimType, PrimValue, Statement, TestCase, VarId, rng_from_seed};

fn static_call(class: &str, name: &str, params: Vec<JType>, ret: Option<JType>) -> Arc<MethodRef> {
    let desc: String = params.iter().map(JType::descriptor).collect();
    let ret_desc = ret.as_ref().map_or("V".to_string(), JType::descriptor);
    Arc::new(MethodRef {
        class: class.to_string(),
        name: name.to_string(),
        descriptor: format!("({desc}){ret_desc}"),
        is_static: true,
        owner: JType::class(class),
        params,
        ret,
    })
}

fn int() -> JType {
    JType::Prim(PrimType::Int)
}

fn check_expand(test: &TestCase, expect: Expect) {
    let e = expand(test);
    assert_eq!(expand(&e), e, "expansion is idempotent");
    testcase::check(&e, &testcase::types::NoHierarchy).expect("the expanded test is valid");
    expect.assert_eq(&e.to_string());
}

#[test]
fn expansion_splits_shared_values() {
    // same(x, x) becomes same(x1, x2), both holding x's value (paper 004 §III.B).
    let mut t = TestCase::new();
    let x = t.push(Statement::Primitive(PrimValue::Int(7)));
    let same = static_call("dse.Same", "same", vec![int(), int()], Some(JType::Prim(PrimType::Boolean)));
    t.push(Statement::Method { method: same.clone(), receiver: None, args: vec![x, x] });
    let s = t.push(Statement::String("ab".into()));
    let concat =
        static_call("dse.Concat", "join", vec![JType::string(), JType::string()], Some(JType::string()));
    t.push(Statement::Method { method: concat, receiver: None, args: vec![s, s] });
    t.push(Statement::Method { method: same, receiver: None, args: vec![x, VarId(0)] });
    check_expand(
        &t,
        expect![[r#"
            int v0 = 7;
            int v1 = 7;
            boolean v2 = Same.same(v0, v1);
            String v3 = "ab";
            String v4 = "ab";
            String v5 = Concat.join(v3, v4);
            int v6 = 7;
            int v7 = 7;
            boolean v8 = Same.same(v6, v7);
        "#]],
    );
}

#[test]
fn expansion_stores_defaults_into_unassigned_slots() {
    let mut t = TestCase::new();
    let a = t.push(Statement::NewArray { ty: JType::array_of(int()), length: 3 });
    let v = t.push(Statement::Primitive(PrimValue::Int(5)));
    t.push(Statement::ArrayStore { array: a, index: 1, value: v });
    let sum = static_call("dse.ArraySum", "sum", vec![JType::array_of(int())], Some(int()));
    t.push(Statement::Method { method: sum, receiver: None, args: vec![a] });
    check_expand(
        &t,
        expect![[r#"
            int[] v0 = new int[3];
            int v1 = 0;
            v0[0] = v1;
            int v3 = 0;
            v0[2] = v3;
            int v5 = 5;
            v0[1] = v5;
            int v7 = ArraySum.sum(v0);
        "#]],
    );
}

/// A replay with inputs `x`, `y`, `z` (Prim 0, 1, 2), path `x > 0` (goal 1, other side goal 2),
/// `z != 1` (goal 7/8), `y != 3` (goal 3/4), an implicit check `y >= 0` (no goal), `x + y < 10`
/// (goal 5/6).
fn replay() -> Replay {
    let mut a = Arena::new();
    let (vx, x) = a.var(Sort::Bv(32), "x");
    let (vy, y) = a.var(Sort::Bv(32), "y");
    let (vz, z) = a.var(Sort::Bv(32), "z");
    let one = a.konst(Value::i32(1));
    let c5 = a.mk(Op::Ne, &[z, one]);
    let zero = a.konst(Value::i32(0));
    let three = a.konst(Value::i32(3));
    let ten = a.konst(Value::i32(10));
    let c1 = a.mk(Op::Sgt, &[x, zero]);
    let c2 = a.mk(Op::Ne, &[y, three]);
    let sum = a.mk(Op::Add, &[x, y]);
    let c3 = a.mk(Op::Slt, &[sum, ten]);
    let c4 = a.mk(Op::Sge, &[y, zero]);
    let entry = |goal: u32, neg: Option<u32>, cond, kind| PcEntry {
        goal: goals::GoalId(goal),
        negated_goal: neg.map(goals::GoalId),
        cond,
        kind,
        cases: Vec::new(),
        class: "dse/T".into(),
        method: "m(II)I".into(),
        insn: goal,
        merged: false,
    };
    Replay {
        arena: a,
        inputs: vec![
            Input { var: vx, origin: InputOrigin::Prim { stmt: 0 } },
            Input { var: vy, origin: InputOrigin::Prim { stmt: 1 } },
            Input { var: vz, origin: InputOrigin::Prim { stmt: 2 } },
        ],
        hint: Assignment(
            [(vx, Value::i32(2)), (vy, Value::i32(4)), (vz, Value::i32(0))].into_iter().collect(),
        ),
        path: vec![
            entry(1, Some(2), c1, EntryKind::Branch),
            entry(7, Some(8), c5, EntryKind::Branch),
            entry(3, Some(4), c2, EntryKind::Branch),
            entry(u32::MAX, None, c4, EntryKind::Implicit),
            entry(5, Some(6), c3, EntryKind::Branch),
        ],
        covered: vec![],
        stop: None,
        stats: InterpStats::default(),
        outcomes: Vec::new(),
    }
}

/// The queue's candidates in order: goal, size, the sliced query; `covered` goals are explored.
fn check_candidates(replays: &mut [Replay], covered: &[usize], expect: Expect) {
    let mut q = Queue::default();
    let worth = |g: GoalIdx| if covered.contains(&g.index()) { Worth::Explore } else { Worth::Target };
    for (i, r) in replays.iter_mut().enumerate() {
        // The search's goals here are the plan's, one for one.
        q.add_replay(i, r, &|g| Some(GoalIdx::new(g.0 as usize)), &worth);
    }
    let mut out = format!("queued {} duplicates {}\n", q.queued_total, q.duplicates);
    while let Some(c) = q.pop() {
        let r = &replays[c.replay];
        let query: Vec<String> = c.constraints(r).iter().map(|&e| r.arena.display(e)).collect();
        let what = match (c.explore, c.goal) {
            (false, Some(g)) => format!("{g}"),
            (true, Some(g)) => format!("explore {g}"),
            (_, None) => "explore".to_string(),
        };
        out.push_str(&format!("{what} size {} replay {}: {}\n", c.size(), c.replay, query.join(" && ")));
    }
    expect.assert_eq(&out);
}

#[test]
fn candidates_are_ranked_deduplicated_and_sliced_with_explorations_last() {
    check_candidates(
        &mut [replay(), replay()],
        &[4],
        expect![[r#"
            queued 5 duplicates 5
            g2 size 1 replay 0: !(x > 0)
            g8 size 2 replay 0: !(z != 1)
            g6 size 5 replay 0: (x > 0) && (y != 3) && (y >= 0) && !((x + y) < 10)
            explore size 4 replay 0: (y != 3) && !(y >= 0)
            explore g4 size 3 replay 0: !(y != 3)
        "#]],
    );
}

fn check_substitute(
    test: &TestCase,
    inputs: &[Input],
    model: &[(u32, Value)],
    hint: &[(u32, Value)],
    expect: Expect,
) {
    let m = |xs: &[(u32, Value)]| {
        Assignment(xs.iter().map(|(v, x)| (solver::VarId(*v), *x)).collect::<BTreeMap<_, _>>())
    };
    let t = substitute(test, inputs, &m(model), &m(hint), 8);
    expect.assert_eq(&t.to_string());
}

#[test]
fn substitution_narrows_to_the_statement_type_and_rebuilds_strings() {
    let mut t = TestCase::new();
    t.push(Statement::Primitive(PrimValue::Byte(1)));
    t.push(Statement::Primitive(PrimValue::Char(u16::from(b'x'))));
    t.push(Statement::Primitive(PrimValue::Short(2)));
    t.push(Statement::Primitive(PrimValue::Long(3)));
    t.push(Statement::Primitive(PrimValue::double(0.5)));
    t.push(Statement::Primitive(PrimValue::Boolean(false)));
    t.push(Statement::String("hey".into()));
    t.push(Statement::String("keep".into()));
    let prim = |v: u32, stmt: usize| Input { var: solver::VarId(v), origin: InputOrigin::Prim { stmt } };
    let inputs = vec![
        prim(0, 0),
        prim(1, 1),
        prim(2, 2),
        prim(3, 3),
        prim(4, 4),
        prim(5, 5),
        Input { var: solver::VarId(6), origin: InputOrigin::StrLen { stmt: 6 } },
        Input { var: solver::VarId(7), origin: InputOrigin::StrChar { stmt: 6, index: 0 } },
        Input { var: solver::VarId(8), origin: InputOrigin::StrChar { stmt: 6, index: 4 } },
        Input { var: solver::VarId(9), origin: InputOrigin::StrChar { stmt: 7, index: 1 } },
    ];
    // Byte 0x1f9 keeps its low byte (-7), short -40000 its low 16 bits; "hey" becomes length 6
    // with '2' at 0 and '-' at 4, the old 'e', 'y' at 1, 2 and 'a' past the old string; "keep"
    // takes the hint's 'e' at 1 (no model value).
    check_substitute(
        &t,
        &inputs,
        &[
            (0, Value::i32(0x1f9)),
            (1, Value::char(u16::from(b'Z'))),
            (2, Value::i32(-40000)),
            (3, Value::i64(-5)),
            (4, Value::f64(13.5)),
            (5, Value::Bool(true)),
            (6, Value::i32(6)),
            (7, Value::char(u16::from(b'2'))),
            (8, Value::char(u16::from(b'-'))),
        ],
        &[(9, Value::char(u16::from(b'e')))],
        expect![[r#"
            byte v0 = (byte)-7;
            char v1 = 'Z';
            short v2 = (short)25536;
            long v3 = -5L;
            double v4 = 13.5;
            boolean v5 = true;
            String v6 = "2eya-a";
            String v7 = "keep";
        "#]],
    );
}

#[test]
fn substitution_clamps_string_lengths() {
    let mut t = TestCase::new();
    t.push(Statement::String("ab".into()));
    t.push(Statement::String("cd".into()));
    let len = |v: u32, stmt: usize| Input { var: solver::VarId(v), origin: InputOrigin::StrLen { stmt } };
    check_substitute(
        &t,
        &[len(0, 0), len(1, 1)],
        &[(0, Value::i32(-3)), (1, Value::i32(1000))],
        &[],
        expect![[r#"
            String v0 = "";
            String v1 = "cdaaaaaa";
        "#]],
    );
}

#[test]
fn trigger_fires_when_values_bring_a_goal_closer() {
    let test = |x: i32, extra: bool| {
        let mut t = TestCase::new();
        t.push(Statement::Primitive(PrimValue::Int(x)));
        if extra {
            t.push(Statement::String("s".into()));
        }
        t
    };
    let (g, h) = (GoalIdx::new(0), GoalIdx::new(2));
    let mut tr = Trigger::default();
    let mut log = String::new();
    let mut step = |tr: &mut Trigger, bests: Vec<(GoalIdx, Option<(f64, &TestCase)>)>| {
        let fired: Vec<String> =
            tr.observe(bests).into_iter().map(|(g, t)| format!("{g}:{}", t.to_string().trim())).collect();
        log.push_str(&format!("[{}]\n", fired.join(", ")));
    };
    let (a, b, c, d, e) = (test(1, false), test(2, false), test(3, false), test(3, true), test(4, true));
    step(&mut tr, vec![(g, Some((1.5, &a))), (h, None)]); // first sight: nothing to compare
    step(&mut tr, vec![(g, Some((1.4, &b))), (h, Some((0.9, &a)))]); // g improved by a value change
    step(&mut tr, vec![(g, Some((1.4, &c))), (h, Some((0.9, &a)))]); // same fitness: no
    step(&mut tr, vec![(g, Some((0.9, &d))), (h, Some((0.8, &d)))]); // g: new structure and level: no;
    // h: new structure, same approach level, closer: fires
    step(&mut tr, vec![(g, Some((0.9, &d))), (h, Some((0.8, &d)))]); // unchanged: no
    step(&mut tr, vec![(g, Some((0.2, &e))), (h, None)]); // g: values only, closer: fires; h covered
    expect![[r#"
        [g0:int v0 = 1;]
        [g0:int v0 = 2;, g2:int v0 = 1;]
        []
        [g2:int v0 = 3;
        String v1 = "s";]
        []
        [g0:int v0 = 4;
        String v1 = "s";]
    "#]]
    .assert_eq(&log);
    assert!(values_only_change(&a, &b) && !values_only_change(&a, &a) && !values_only_change(&c, &d));
}

#[test]
fn controller_adapts_the_probability() {
    let mut c = Controller::new(1.0, 2.0);
    let mut seen = Vec::new();
    for success in [false, false, true, false, true, true, true] {
        c.record(success);
        seen.push(c.probability());
    }
    assert_eq!(seen, vec![0.5, 0.25, 0.5, 0.25, 0.5, 1.0, 1.0]);
    let mut rng = rng_from_seed(1);
    let admitted = (0..1000).filter(|_| Controller::new(0.25, 1.0).admit(&mut rng)).count();
    assert!((200..300).contains(&admitted), "{admitted} of 1000 admitted at P = 0.25");
    let mut never_drawn = rng_from_seed(1);
    let c = Controller::new(1.0, 1.0);
    assert!((0..10).all(|_| c.admit(&mut never_drawn)));
    // R = 1 is no adaptation (004's best configuration).
    let mut r1 = Controller::new(0.5, 1.0);
    r1.record(false);
    r1.record(true);
    assert_eq!(r1.probability(), 0.5);
}

/// A merged jump (`PcEntry::merged`, a constant-push diamond whose value is an `ite`) is negated
/// for its own goal, but no later query carries it, even one sharing its variables.
#[test]
fn merged_jumps_are_targets_but_never_in_prefixes() {
    let mut r = replay();
    r.path[0].merged = true;
    check_candidates(
        &mut [r],
        &[],
        expect![[r#"
        queued 5 duplicates 0
        g2 size 1 replay 0: !(x > 0)
        g8 size 2 replay 0: !(z != 1)
        g4 size 3 replay 0: !(y != 3)
        g6 size 5 replay 0: (y != 3) && (y >= 0) && !((x + y) < 10)
        explore size 4 replay 0: (y != 3) && !(y >= 0)
    "#]],
    );
}
