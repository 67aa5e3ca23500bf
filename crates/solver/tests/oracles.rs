//! The oracle queries of digest B.7 on each solver: Magic.linear (three coupled linear constraints
//! over ints), `x*x == 1522756`, Magic.floats (doubles, nonlinear), unsatisfiable queries, a
//! CasNumber-style check-digit query over characters, and determinism. Every Sat model is checked
//! with `Arena::eval`; the figures (Z3 resource units, AVM evaluations) are printed with
//! `--nocapture` and back the default limits' doc comment.

use solver::{Arena, Assignment, Avm, ExprId, Op, Outcome, Portfolio, Solver, SolverLimits, Sort, Value, Z3Solver, satisfies};

/// A query as the symbolic interpreter would build it, with the test's own values as the hint.
struct Query {
    name: &'static str,
    arena: Arena,
    constraints: Vec<ExprId>,
    hint: Assignment,
}

fn int(arena: &mut Arena, v: i32) -> ExprId {
    arena.konst(Value::i32(v))
}

/// Magic.linear: `a*3 - b*7 + c == 1000003 && a - b == 77777 && c > 5*a && c < 5*a + 10`.
fn linear() -> Query {
    let mut arena = Arena::new();
    let (va, a) = arena.var(Sort::Bv(32), "a");
    let (vb, b) = arena.var(Sort::Bv(32), "b");
    let (vc, c) = arena.var(Sort::Bv(32), "c");
    let (k3, k7, k5, k10) = (int(&mut arena, 3), int(&mut arena, 7), int(&mut arena, 5), int(&mut arena, 10));
    let a3 = arena.mk(Op::Mul, &[a, k3]);
    let b7 = arena.mk(Op::Mul, &[b, k7]);
    let lhs = arena.mk(Op::Sub, &[a3, b7]);
    let lhs = arena.mk(Op::Add, &[lhs, c]);
    let target = int(&mut arena, 1_000_003);
    let c1 = arena.mk(Op::Eq, &[lhs, target]);
    let diff = arena.mk(Op::Sub, &[a, b]);
    let k = int(&mut arena, 77_777);
    let c2 = arena.mk(Op::Eq, &[diff, k]);
    let a5 = arena.mk(Op::Mul, &[a, k5]);
    let c3 = arena.mk(Op::Sgt, &[c, a5]);
    let a5p = arena.mk(Op::Add, &[a5, k10]);
    let c4 = arena.mk(Op::Slt, &[c, a5p]);
    let hint = Assignment([(va, Value::i32(1)), (vb, Value::i32(2)), (vc, Value::i32(3))].into_iter().collect());
    Query { name: "Magic.linear", arena, constraints: vec![c1, c2, c3, c4], hint }
}

fn square() -> Query {
    let mut arena = Arena::new();
    let (vx, x) = arena.var(Sort::Bv(32), "x");
    let xx = arena.mk(Op::Mul, &[x, x]);
    let k = int(&mut arena, 1_522_756);
    let c = arena.mk(Op::Eq, &[xx, k]);
    Query { name: "x*x == 1522756", arena, constraints: vec![c], hint: one(vx, Value::i32(0)) }
}

fn one(v: solver::VarId, val: Value) -> Assignment {
    Assignment([(v, val)].into_iter().collect())
}

/// Magic.floats as javac compiles it: `x*3.0+1.5 == 42.0` is `dcmpl; ifne`, `y < 0` is `dcmpg; ifge`.
fn floats() -> Query {
    let mut arena = Arena::new();
    let (vx, x) = arena.var(Sort::F64, "x");
    let (vy, y) = arena.var(Sort::F64, "y");
    let d = |arena: &mut Arena, v: f64| arena.konst(Value::f64(v));
    let zero = int(&mut arena, 0);
    let (k3, k15, k42, k225, k0) =
        (d(&mut arena, 3.0), d(&mut arena, 1.5), d(&mut arena, 42.0), d(&mut arena, 2.25), d(&mut arena, 0.0));
    let x3 = arena.mk(Op::FMul, &[x, k3]);
    let lhs = arena.mk(Op::FAdd, &[x3, k15]);
    let cmp1 = arena.mk(Op::FCmpL, &[lhs, k42]);
    let c1 = arena.mk(Op::Eq, &[cmp1, zero]);
    let yy = arena.mk(Op::FMul, &[y, y]);
    let cmp2 = arena.mk(Op::FCmpL, &[yy, k225]);
    let c2 = arena.mk(Op::Eq, &[cmp2, zero]);
    let cmp3 = arena.mk(Op::FCmpG, &[y, k0]);
    let c3 = arena.mk(Op::Slt, &[cmp3, zero]);
    let hint = Assignment([(vx, Value::f64(0.0)), (vy, Value::f64(0.0))].into_iter().collect());
    Query { name: "Magic.floats", arena, constraints: vec![c1, c2, c3], hint }
}

/// CasNumber's check digit over a 7-character string "ddd-dd-d" as the char-array encoding gives
/// it: digits are chars (Bv16) zero-extended to int, `sum += weight * (c - '0')`, and the negated
/// last branch `sum % 10 == last - '0'` (the test's own string "123-45-0" has the wrong digit).
fn cas_number() -> Query {
    let mut arena = Arena::new();
    let text = "123-45-0";
    let mut hint = Assignment::default();
    let mut chars = Vec::new();
    for (i, ch) in text.chars().enumerate() {
        let (v, e) = arena.var(Sort::Bv(16), &format!("s{i}"));
        hint.0.insert(v, Value::char(ch as u16));
        chars.push(e);
    }
    let n = chars.len();
    let (k0, k9, k10) = (int(&mut arena, '0' as i32), int(&mut arena, '9' as i32), int(&mut arena, 10));
    let dash = int(&mut arena, '-' as i32);
    let as_int = |arena: &mut Arena, c: ExprId| arena.mk(Op::ZeroExt(32), &[c]);
    let mut constraints = Vec::new();
    for i in [n - 2, n - 5] {
        let c = as_int(&mut arena, chars[i]);
        constraints.push(arena.mk(Op::Eq, &[c, dash]));
    }
    let mut sum = int(&mut arena, 0);
    let mut weight = 1;
    let digit_ok = |arena: &mut Arena, c: ExprId, out: &mut Vec<ExprId>| {
        // `if (c < '0' || c > '9') return -3;` not taken: two conditions that held.
        let lt = arena.mk(Op::Slt, &[c, k0]);
        out.push(arena.mk(Op::Not, &[lt]));
        let gt = arena.mk(Op::Sgt, &[c, k9]);
        out.push(arena.mk(Op::Not, &[gt]));
    };
    for i in (0..n - 2).rev() {
        if i == n - 5 {
            continue;
        }
        let c = as_int(&mut arena, chars[i]);
        digit_ok(&mut arena, c, &mut constraints);
        let d = arena.mk(Op::Sub, &[c, k0]);
        let w = int(&mut arena, weight);
        let term = arena.mk(Op::Mul, &[w, d]);
        sum = arena.mk(Op::Add, &[sum, term]);
        weight += 1;
    }
    let last = as_int(&mut arena, chars[n - 1]);
    digit_ok(&mut arena, last, &mut constraints);
    let rem = arena.mk(Op::SRem, &[sum, k10]);
    let ld = arena.mk(Op::Sub, &[last, k0]);
    constraints.push(arena.mk(Op::Eq, &[rem, ld]));
    Query { name: "CasNumber check digit", arena, constraints, hint }
}

/// `x != x` (folds to false) and `x*2 == 7` (no int is, even with overflow).
fn unsat_queries() -> Vec<Query> {
    let mut arena = Arena::new();
    let (vx, x) = arena.var(Sort::Bv(32), "x");
    let c = arena.mk(Op::Ne, &[x, x]);
    let q1 = Query { name: "x != x", arena, constraints: vec![c], hint: Assignment::default() };
    let mut arena = Arena::new();
    let (_, y) = arena.var(Sort::Bv(32), "y");
    let two = int(&mut arena, 2);
    let y2 = arena.mk(Op::Mul, &[y, two]);
    let seven = int(&mut arena, 7);
    let c = arena.mk(Op::Eq, &[y2, seven]);
    let _ = vx;
    let q2 = Query { name: "x*2 == 7", arena, constraints: vec![c], hint: Assignment::default() };
    vec![q1, q2]
}

fn limits() -> SolverLimits {
    SolverLimits::default()
}

fn solve(s: &mut dyn Solver, q: &Query) -> Outcome {
    let res = s.solve(&q.arena, &q.constraints, &q.hint);
    if let Outcome::Sat(m) = &res {
        assert!(satisfies(&q.arena, &q.constraints, m), "{}: {} returned a model that does not satisfy", q.name, s.name());
        // A model gives every variable that occurs.
        for v in q.arena.vars_of(&q.constraints) {
            assert!(m.0.contains_key(&v), "{}: {} left {v:?} out", q.name, s.name());
        }
    }
    res
}

fn show(q: &Query, m: &Outcome) -> String {
    match m {
        Outcome::Sat(a) => a.0.iter().map(|(v, val)| format!("{}={val}", q.arena.vars()[v.0 as usize].1)).collect::<Vec<_>>().join(" "),
        other => format!("{other:?}"),
    }
}

#[test]
fn z3_solves_the_bit_vector_oracles_within_the_default_limit() {
    for q in [linear(), square(), cas_number()] {
        let mut z3 = Z3Solver::new(&limits());
        let res = solve(&mut z3, &q);
        eprintln!("z3 {}: {} ({} rlimit units)", q.name, show(&q, &res), z3.rlimit_spent());
        assert!(matches!(res, Outcome::Sat(_)), "{}: {res:?}", q.name);
        assert_eq!(z3.model_mismatches(), 0);
    }
}

#[test]
fn z3_proves_unsat() {
    for q in unsat_queries() {
        let mut z3 = Z3Solver::new(&limits());
        assert_eq!(solve(&mut z3, &q), Outcome::Unsat, "{}", q.name);
    }
}

#[test]
fn avm_solves_floats_squares_and_check_digits() {
    for q in [floats(), square(), cas_number()] {
        let mut avm = Avm::new(&limits(), 7);
        let res = solve(&mut avm, &q);
        eprintln!("avm {}: {} ({} evaluations)", q.name, show(&q, &res), avm.evaluations());
        assert!(matches!(res, Outcome::Sat(_)), "{}: {res:?}", q.name);
    }
    let q = floats();
    let Outcome::Sat(m) = solve(&mut Avm::new(&limits(), 7), &q) else { unreachable!() };
    let vals: Vec<f64> = m.0.values().map(|v| v.as_f64()).collect();
    assert_eq!(vals, vec![13.5, -1.5]);
}

#[test]
fn avm_gives_up_within_its_budget_on_unsat_queries() {
    let qs = unsat_queries();
    // x != x folds to the constant false: nothing to search, and that is a proof.
    assert_eq!(solve(&mut Avm::new(&limits(), 1), &qs[0]), Outcome::Unsat);
    let mut avm = Avm::new(&SolverLimits { z3_rlimit: 0, avm_evaluations: 5000 }, 1);
    assert_eq!(solve(&mut avm, &qs[1]), Outcome::Unknown);
    assert_eq!(avm.evaluations(), 5000);
}

#[test]
fn portfolio_solves_every_oracle() {
    let mut p = Portfolio::new(&limits(), 3);
    for q in [linear(), square(), floats(), cas_number()] {
        let res = solve(&mut p, &q);
        eprintln!("portfolio {}: {}", q.name, show(&q, &res));
        assert!(matches!(res, Outcome::Sat(_)), "{}: {res:?}", q.name);
    }
    for q in unsat_queries() {
        assert_eq!(solve(&mut p, &q), Outcome::Unsat, "{}", q.name);
    }
    eprintln!("{:?}", p.stats());
    let s = p.stats();
    assert_eq!(s.z3.calls, 6);
    assert_eq!(s.z3.sat + s.z3.unsat + s.z3.unknown, s.z3.calls);
    assert_eq!(s.z3.unsat, 2);
    assert_eq!(s.avm.calls, s.z3.unknown);
}

#[test]
fn the_same_query_twice_gives_the_same_model() {
    for q in [linear(), square(), floats(), cas_number()] {
        let mut p = Portfolio::new(&limits(), 11);
        let first = solve(&mut p, &q);
        let second = solve(&mut p, &q);
        let fresh = solve(&mut Portfolio::new(&limits(), 11), &q);
        assert_eq!(first, second, "{}", q.name);
        assert_eq!(first, fresh, "{}", q.name);
        let mut avm = Avm::new(&limits(), 5);
        assert_eq!(solve(&mut avm, &q), solve(&mut avm, &q), "avm {}", q.name);
    }
}
