//! The oracle queries of digest B.7 on each solver: Magic.linear (three coupled linear constraints
//! over ints), `x*x == 1522756`, Magic.floats (doubles, nonlinear), unsatisfiable queries, a
//! CasNumber-style check-digit query over characters, and determinism. Every Sat model is checked
//! with `Arena::eval`; the figures (Z3 resource units, AVM evaluations) are printed with
//! `--nocapture` and back the default limits' doc comment.

use solver::{
    Arena, Assignment, Avm, ExprId, Op, Outcome, Portfolio, Solver, SolverLimits, Sort, Value, Z3Solver,
    satisfies,
};

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
    let hint =
        Assignment([(va, Value::i32(1)), (vb, Value::i32(2)), (vc, Value::i32(3))].into_iter().collect());
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
    let (k3, k15, k42, k225, k0) = (
        d(&mut arena, 3.0),
        d(&mut arena, 1.5),
        d(&mut arena, 42.0),
        d(&mut arena, 2.25),
        d(&mut arena, 0.0),
    );
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
        assert!(
            satisfies(&q.arena, &q.constraints, m),
            "{}: {} returned a model that does not satisfy",
            q.name,
            s.name()
        );
        // A model gives every variable that occurs.
        for v in q.arena.vars_of(&q.constraints) {
            assert!(m.0.contains_key(&v), "{}: {} left {v:?} out", q.name, s.name());
        }
    }
    res
}

fn show(q: &Query, m: &Outcome) -> String {
    match m {
        Outcome::Sat(a) => {
            a.0.iter()
                .map(|(v, val)| format!("{}={val}", q.arena.vars()[v.0 as usize].1))
                .collect::<Vec<_>>()
                .join(" ")
        }
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
    // Three coupled equalities with a window of 9 are beyond local search (Z3's job); printed for
    // the record.
    let q = linear();
    let mut avm = Avm::new(&limits(), 7);
    let res = solve(&mut avm, &q);
    eprintln!("avm {}: {} ({} evaluations)", q.name, show(&q, &res), avm.evaluations());
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
    // Five bit-vector queries go to Z3 (all answered), the float query to the AVM (solved).
    assert_eq!((s.z3.calls, s.z3.sat, s.z3.unsat, s.z3.unknown), (5, 3, 2, 0));
    assert_eq!((s.avm.calls, s.avm.sat), (1, 1));
    assert!(s.avm_evaluations > 0 && s.avm_evaluations < 1000, "{s:?}");
    assert!(s.z3_rlimit > 0 && s.z3_rlimit < 5 * limits().z3_rlimit, "{s:?}");
    assert_eq!(s.z3_model_mismatches, 0);
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

/// `Integer.parseInt`-style digits from the string "abc": each char must become a digit and the
/// number 427; the AVM moves the characters down from the letters within 0..=65535.
#[test]
fn avm_moves_characters_into_digits() {
    let mut arena = Arena::new();
    let mut hint = Assignment::default();
    let mut constraints = Vec::new();
    let mut number = int(&mut arena, 0);
    let (k0, k9, k10) = (int(&mut arena, '0' as i32), int(&mut arena, '9' as i32), int(&mut arena, 10));
    for (i, ch) in "abc".chars().enumerate() {
        let (v, c) = arena.var(Sort::Bv(16), &format!("s{i}"));
        hint.0.insert(v, Value::char(ch as u16));
        let c = arena.mk(Op::ZeroExt(32), &[c]);
        constraints.push(arena.mk(Op::Sge, &[c, k0]));
        constraints.push(arena.mk(Op::Sle, &[c, k9]));
        let d = arena.mk(Op::Sub, &[c, k0]);
        let shifted = arena.mk(Op::Mul, &[number, k10]);
        number = arena.mk(Op::Add, &[shifted, d]);
    }
    let target = int(&mut arena, 427);
    constraints.push(arena.mk(Op::Eq, &[number, target]));
    let q = Query { name: "digits", arena, constraints, hint };
    let mut avm = Avm::new(&limits(), 2);
    let res = solve(&mut avm, &q);
    eprintln!("avm {}: {} ({} evaluations)", q.name, show(&q, &res), avm.evaluations());
    let Outcome::Sat(m) = res else { panic!("{res:?}") };
    let text: String = m.0.values().map(|v| char::from_u32(v.as_u64() as u32).unwrap()).collect();
    assert_eq!(text, "427");
}

/// A char is unsigned: `c > 65530` is reached by moving up to the top of the range (no wrap to
/// negative numbers), and `(int) c < 0` has no solution, which the AVM cannot prove (Unknown) and
/// Z3 proves (Unsat).
#[test]
fn characters_stay_in_their_range() {
    let mut arena = Arena::new();
    let (v, c) = arena.var(Sort::Bv(16), "c");
    let ci = arena.mk(Op::ZeroExt(32), &[c]);
    let k = int(&mut arena, 65530);
    let high = arena.mk(Op::Sgt, &[ci, k]);
    let zero = int(&mut arena, 0);
    let negative = arena.mk(Op::Slt, &[ci, zero]);
    let hint = one(v, Value::char('x' as u16));
    let q = Query { name: "c > 65530", arena, constraints: vec![high], hint: hint.clone() };
    let Outcome::Sat(m) = solve(&mut Avm::new(&limits(), 2), &q) else { panic!("c > 65530 unsolved") };
    assert!(m.0[&v].as_u64() > 65530);
    let q = Query { name: "(int) c < 0", arena: q.arena, constraints: vec![negative], hint };
    let small = SolverLimits { z3_rlimit: 1_000_000, avm_evaluations: 3000 };
    assert_eq!(solve(&mut Avm::new(&small, 2), &q), Outcome::Unknown);
    assert_eq!(solve(&mut Z3Solver::new(&small), &q), Outcome::Unsat);
}

#[test]
fn a_zero_rlimit_turns_z3_off_and_the_portfolio_into_the_avm() {
    let off = SolverLimits { z3_rlimit: 0, avm_evaluations: 20_000 };
    let q = square();
    assert_eq!(solve(&mut Z3Solver::new(&off), &q), Outcome::Unknown);
    let mut p = Portfolio::new(&off, 1);
    let Outcome::Sat(m) = solve(&mut p, &q) else { panic!("AVM should solve x*x == 1522756") };
    assert_eq!(m.0.values().next().map(|v| v.as_i32().abs()), Some(1234));
    assert_eq!((p.stats().z3.unknown, p.stats().avm.sat, p.stats().z3_rlimit), (1, 1, 0));
    let mut total = *p.stats();
    total.add(p.stats());
    assert_eq!(total.avm.sat, 2);
}

/// `x != x` on doubles (`dcmpl; ifeq` not taken) holds only for NaN, which no move reaches: the
/// AVM finds it by a restart among the special values, Z3 directly.
#[test]
fn nan_is_found_by_restarts_and_by_z3() {
    let mut arena = Arena::new();
    let (v, x) = arena.var(Sort::F64, "x");
    let cmp = arena.mk(Op::FCmpL, &[x, x]);
    let zero = int(&mut arena, 0);
    let ne = arena.mk(Op::Ne, &[cmp, zero]);
    let q = Query { name: "x != x", arena, constraints: vec![ne], hint: one(v, Value::f64(1.0)) };
    for res in [solve(&mut Avm::new(&limits(), 4), &q), solve(&mut Z3Solver::new(&limits()), &q)] {
        let Outcome::Sat(m) = res else { panic!("x != x unsolved: {res:?}") };
        assert!(m.0[&v].is_nan());
    }
}

/// The hard branches of fixtures/java/dse/FloatMath.java and LongBits.java, as the interpreter
/// builds them (`fcmpl; ifne`, `dcmpg; ifge`, `lcmp; ifne`, d2i, l2i).
#[test]
fn portfolio_solves_float_math_and_long_bits() {
    let mut arena = Arena::new();
    let zero = int(&mut arena, 0);
    let (va, a) = arena.var(Sort::F32, "a");
    let (vd, d) = arena.var(Sort::F64, "d");
    let (vv, v) = arena.var(Sort::Bv(64), "v");
    let (half, quarter, target) =
        (arena.konst(Value::f32(0.5)), arena.konst(Value::f32(0.25)), arena.konst(Value::f32(3.25)));
    let ah = arena.mk(Op::FMul, &[a, half]);
    let sum = arena.mk(Op::FAdd, &[ah, quarter]);
    let cmp = arena.mk(Op::FCmpL, &[sum, target]);
    let float_eq = arena.mk(Op::Eq, &[cmp, zero]);
    let di = arena.mk(Op::FpToInt(32), &[d]);
    let max = int(&mut arena, i32::MAX);
    let sat_max = arena.mk(Op::Eq, &[di, max]);
    let k = arena.konst(Value::f64(3.0e9));
    let dcmp = arena.mk(Op::FCmpG, &[d, k]);
    let below = arena.mk(Op::Slt, &[dcmp, zero]);
    let long = |arena: &mut Arena, x: i64| arena.konst(Value::i64(x));
    let (m, seven, want) = (long(&mut arena, 0x5555), long(&mut arena, 7), long(&mut arena, 691_358_024_707));
    let x = arena.mk(Op::Xor, &[v, m]);
    let x7 = arena.mk(Op::Mul, &[x, seven]);
    let lcmp = arena.mk(Op::Cmp, &[x7, want]);
    let mix1 = arena.mk(Op::Eq, &[lcmp, zero]);
    let forty = long(&mut arena, 40);
    let high = arena.mk(Op::LShr, &[v, forty]);
    let three = long(&mut arena, 3);
    let hcmp = arena.mk(Op::Cmp, &[high, three]);
    let mix2a = arena.mk(Op::Eq, &[hcmp, zero]);
    let low = arena.mk(Op::Extract(32), &[v]);
    let m5 = int(&mut arena, -5);
    let mix2b = arena.mk(Op::Eq, &[low, m5]);
    let hint =
        Assignment([(va, Value::f32(0.0)), (vd, Value::f64(0.0)), (vv, Value::i64(0))].into_iter().collect());
    let mut p = Portfolio::new(&limits(), 9);
    for (name, cs, var, want) in [
        ("FloatMath 1", vec![float_eq], va, Some(Value::f32(6.0))),
        ("FloatMath 2", vec![sat_max, below], vd, None),
        ("LongBits 1", vec![mix1], vv, Some(Value::i64(98_765_432_101 ^ 0x5555))),
        ("LongBits 2", vec![mix2a, mix2b], vv, Some(Value::i64((3 << 40) | 0xffff_fffb))),
    ] {
        let q = Query { name, arena: arena.clone(), constraints: cs, hint: hint.clone() };
        let res = solve(&mut p, &q);
        eprintln!("portfolio {name}: {}", show(&q, &res));
        let Outcome::Sat(model) = res else { panic!("{name}: {res:?}") };
        if let Some(want) = want {
            assert_eq!(model.0[&var], want, "{name}");
        }
    }
    eprintln!("{:?}", p.stats());
    // The float queries are the AVM's; (int)d == MAX needs the objective's resolution far from 0
    // (a step of 1 at a distance of 2^31).
    assert_eq!((p.stats().avm.calls, p.stats().avm.sat), (2, 2));
    assert_eq!((p.stats().z3.calls, p.stats().z3.sat), (2, 2));
    assert_eq!(p.stats().z3_model_mismatches, 0);
}

/// The loop of commons-math's binary gcd (`ArithmeticUtils.gcd(int, int)`) unrolled 80 times:
/// `d = a - b; a = |d| >> tz(|d|); b = min(a, b)`, each node used by several later ones through
/// `ite`s. As nullary `define-fun` macros Z3 4.8 took 21 s to parse 60 rounds and longer than
/// we waited for 80 (the query that hung `Fraction` runs); with one equation per node it takes
/// 0.1 s. With `a` and `b` pinned, Z3 must answer Sat, and its model must satisfy the chain; the
/// watchdog (a thousand times the time it takes) turns a hang back into a failure.
#[test]
fn z3_answers_deep_shared_chains_without_expanding_them() {
    let mut arena = Arena::new();
    let (va, a0) = arena.var(Sort::Bv(32), "a");
    let (vb, b0) = arena.var(Sort::Bv(32), "b");
    let (zero, one, all) = (int(&mut arena, 0), int(&mut arena, 1), int(&mut arena, -1));
    let (mut a, mut b) = (a0, b0);
    for _ in 0..80 {
        let d = arena.mk(Op::Sub, &[a, b]);
        let neg = arena.mk(Op::Neg, &[d]);
        let negative = arena.mk(Op::Slt, &[d, zero]);
        let abs = arena.mk(Op::Ite, &[negative, neg, d]);
        let inverted = arena.mk(Op::Xor, &[abs, all]);
        let below = arena.mk(Op::Sub, &[abs, one]);
        let low = arena.mk(Op::And, &[inverted, below]);
        let half = arena.mk(Op::LShr, &[low, one]);
        let count = arena.mk(Op::Add, &[half, one]);
        let le = arena.mk(Op::Sle, &[a, b]);
        let min = arena.mk(Op::Ite, &[le, a, b]);
        a = arena.mk(Op::AShr, &[abs, count]);
        b = min;
    }
    let at = Assignment([(va, Value::i32(1_071)), (vb, Value::i32(462))].into_iter().collect());
    let (ta, tb) = (arena.eval(a, &at), arena.eval(b, &at));
    let (ta, tb) = (arena.konst(ta), arena.konst(tb));
    let mut constraints = vec![arena.mk(Op::Eq, &[a, ta]), arena.mk(Op::Eq, &[b, tb])];
    for (v, x) in [(a0, 1_071), (b0, 462)] {
        let k = int(&mut arena, x);
        constraints.push(arena.mk(Op::Eq, &[v, k]));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut z3 = Z3Solver::new(&limits());
        let res = z3.solve(&arena, &constraints, &Assignment::default());
        eprintln!("deep chain: {res:?} ({} rlimit units)", z3.rlimit_spent());
        let ok = matches!(&res, Outcome::Sat(m) if satisfies(&arena, &constraints, m));
        tx.send((ok, format!("{res:?}"))).expect("the test waits");
    });
    let (ok, res) = rx.recv_timeout(std::time::Duration::from_secs(100)).expect("Z3 answers within 100 s");
    assert!(ok, "{res}");
}

/// A chain of `n` double additions `x + 1.0 + 1.0 + ... == 3.0` (satisfiable: x = 3.0 - n, exact).
fn float_chain(n: usize) -> (Arena, ExprId) {
    let mut arena = Arena::new();
    let (_, x) = arena.var(Sort::F64, "x");
    let one = arena.konst(Value::f64(1.0));
    let mut e = x;
    for _ in 0..n {
        e = arena.mk(Op::FAdd, &[e, one]);
    }
    let three = arena.konst(Value::f64(3.0));
    let c = arena.mk(Op::FEq, &[e, three]);
    (arena, c)
}

/// Z3's `rlimit` does not bound bit-blasting floating-point operations (a HypergeometricDistribution
/// query grew past 9 GB): a query with more than `MAX_FLOAT_OPS` of them is refused at once
/// (unknown, counted), one with fewer is solved.
#[test]
fn z3_refuses_queries_with_too_many_float_operations() {
    let limits = SolverLimits { z3_rlimit: 50_000_000, ..SolverLimits::default() };
    let mut z3 = Z3Solver::new(&limits);
    let (arena, c) = float_chain(2);
    assert!(matches!(z3.solve(&arena, &[c], &Assignment::default()), Outcome::Sat(_)));
    assert_eq!(z3.float_refusals(), 0);
    let (arena, c) = float_chain(solver::MAX_FLOAT_OPS + 1);
    let spent = z3.rlimit_spent();
    assert!(matches!(z3.solve(&arena, &[c], &Assignment::default()), Outcome::Unknown));
    assert_eq!(z3.float_refusals(), 1);
    assert_eq!(z3.rlimit_spent(), spent, "Z3 did not run");
}
