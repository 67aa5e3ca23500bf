//! The corner cases of `apply` and `Arena::eval` against the values the JLS prescribes (the
//! differential test checks the same against a real JVM at random), and the arena's folding,
//! hash-consing and simplifications.

use solver::{Arena, Assignment, Op, Sort, Value, apply, to_smtlib};

fn i(v: i32) -> Value {
    Value::i32(v)
}
fn l(v: i64) -> Value {
    Value::i64(v)
}
fn d(v: f64) -> Value {
    Value::f64(v)
}
fn f(v: f32) -> Value {
    Value::f32(v)
}

#[test]
fn int_and_long_arithmetic_wraps_and_truncates() {
    let cases: &[(Op, &[Value], Value)] = &[
        (Op::Add, &[i(i32::MAX), i(1)], i(i32::MIN)),
        (Op::Sub, &[i(i32::MIN), i(1)], i(i32::MAX)),
        (Op::Mul, &[i(65536), i(65536)], i(0)),
        (Op::Mul, &[l(i64::MAX), l(2)], l(-2)),
        (Op::Neg, &[i(i32::MIN)], i(i32::MIN)),
        (Op::SDiv, &[i(-7), i(2)], i(-3)),
        (Op::SDiv, &[i(i32::MIN), i(-1)], i(i32::MIN)),
        (Op::SDiv, &[l(i64::MIN), l(-1)], l(i64::MIN)),
        (Op::SDiv, &[i(5), i(0)], i(0)),
        (Op::SRem, &[i(-7), i(2)], i(-1)),
        (Op::SRem, &[i(7), i(-2)], i(1)),
        (Op::SRem, &[i(i32::MIN), i(-1)], i(0)),
        (Op::SRem, &[l(i64::MIN), l(-1)], l(0)),
        (Op::Shl, &[i(1), i(33)], i(2)),
        (Op::Shl, &[i(1), i(-1)], i(i32::MIN)),
        (Op::AShr, &[i(-8), i(1)], i(-4)),
        (Op::LShr, &[i(-8), i(28)], i(15)),
        (Op::LShr, &[i(-1), i(32)], i(-1)),
        (Op::Shl, &[l(1), l(65)], l(2)),
        (Op::LShr, &[l(-1), l(63)], l(1)),
        (Op::AShr, &[l(i64::MIN), l(63)], l(-1)),
        (Op::Cmp, &[l(i64::MIN), l(i64::MAX)], i(-1)),
        (Op::Cmp, &[l(5), l(5)], i(0)),
        (Op::Cmp, &[l(6), l(5)], i(1)),
        (Op::Ult, &[i(-1), i(3)], Value::Bool(false)),
        (Op::Ult, &[i(2), i(3)], Value::Bool(true)),
        (Op::Slt, &[i(-1), i(3)], Value::Bool(true)),
    ];
    check(cases);
}

#[test]
fn narrowing_and_widening_as_i2b_i2s_i2c_i2l() {
    let cases: &[(Op, &[Value], Value)] = &[
        // i2b: the low byte sign-extended back to int.
        (Op::Extract(8), &[i(200)], Value::bv(8, -56)),
        (Op::SignExt(32), &[Value::bv(8, -56)], i(-56)),
        // i2c: the low 16 bits, zero-extended when used as an int.
        (Op::Extract(16), &[i(-1)], Value::char(0xffff)),
        (Op::ZeroExt(32), &[Value::char(0xffff)], i(65535)),
        // i2s.
        (Op::SignExt(32), &[Value::bv(16, 0x8000)], i(-32768)),
        (Op::SignExt(64), &[i(-5)], l(-5)),
        (Op::Extract(32), &[l(0x1_0000_0005)], i(5)),
    ];
    check(cases);
}

#[test]
fn float_conversions_saturate_and_map_nan_to_zero() {
    let cases: &[(Op, &[Value], Value)] = &[
        (Op::FpToInt(32), &[d(f64::NAN)], i(0)),
        (Op::FpToInt(32), &[d(1e300)], i(i32::MAX)),
        (Op::FpToInt(32), &[d(-1e300)], i(i32::MIN)),
        (Op::FpToInt(32), &[d(-2.9)], i(-2)),
        (Op::FpToInt(64), &[d(f64::INFINITY)], l(i64::MAX)),
        (Op::FpToInt(64), &[f(f32::NEG_INFINITY)], l(i64::MIN)),
        (Op::FpToInt(32), &[f(f32::NAN)], i(0)),
        (Op::FpToInt(32), &[f(3e9)], i(i32::MAX)),
        (Op::IntToFp(Sort::F32), &[i(16_777_217)], f(16_777_216.0)),
        (Op::IntToFp(Sort::F64), &[l(i64::MAX)], d(9.223_372_036_854_776e18)),
        (Op::IntToFp(Sort::F32), &[l(i64::MIN)], f(-9.223_372e18)),
        (Op::FpToFp(Sort::F32), &[d(1e300)], f(f32::INFINITY)),
        (Op::FpToFp(Sort::F32), &[d(0.1)], f(0.1)),
        (Op::FpToFp(Sort::F64), &[f(0.1)], d(f64::from(0.1f32))),
    ];
    check(cases);
}

#[test]
fn float_arithmetic_and_compares_are_ieee() {
    let nan = d(f64::NAN);
    let cases: &[(Op, &[Value], Value)] = &[
        (Op::FAdd, &[d(0.1), d(0.2)], d(0.30000000000000004)),
        (Op::FAdd, &[f(0.1), f(0.2)], f(0.3)),
        (Op::FDiv, &[d(1.0), d(-0.0)], d(f64::NEG_INFINITY)),
        (Op::FRem, &[d(5.5), d(2.0)], d(1.5)),
        (Op::FRem, &[d(-5.5), d(2.0)], d(-1.5)),
        (Op::FRem, &[d(5.5), d(-2.0)], d(1.5)),
        (Op::FRem, &[d(-0.0), d(2.0)], d(-0.0)),
        (Op::FRem, &[d(1.0), d(0.0)], nan),
        (Op::FRem, &[f(7.0), f(2.5)], f(2.0)),
        (Op::FNeg, &[d(0.0)], d(-0.0)),
        (Op::FEq, &[d(0.0), d(-0.0)], Value::Bool(true)),
        (Op::FEq, &[nan, nan], Value::Bool(false)),
        (Op::Eq, &[nan, nan], Value::Bool(true)),
        (Op::Eq, &[d(0.0), d(-0.0)], Value::Bool(false)),
        (Op::FLt, &[nan, d(1.0)], Value::Bool(false)),
        (Op::FGe, &[nan, d(1.0)], Value::Bool(false)),
        (Op::IsNaN, &[f(f32::NAN)], Value::Bool(true)),
        (Op::FCmpL, &[nan, d(1.0)], i(-1)),
        (Op::FCmpG, &[nan, d(1.0)], i(1)),
        (Op::FCmpL, &[d(2.0), d(1.0)], i(1)),
        (Op::FCmpG, &[d(-0.0), d(0.0)], i(0)),
        (Op::FCmpL, &[f(1.0), f(2.0)], i(-1)),
    ];
    check(cases);
}

#[test]
fn booleans_ite_and_jvm_booleans() {
    let t = Value::Bool(true);
    let fa = Value::Bool(false);
    let cases: &[(Op, &[Value], Value)] = &[
        (Op::Implies, &[fa, fa], t),
        (Op::Implies, &[t, fa], fa),
        (Op::And2, &[t, fa], fa),
        (Op::Or2, &[t, fa], t),
        (Op::Ite, &[fa, d(1.0), d(2.0)], d(2.0)),
        (Op::BoolToBv, &[t], i(1)),
        (Op::BvToBool, &[i(-4)], t),
        (Op::BvToBool, &[i(0)], fa),
    ];
    check(cases);
}

fn check(cases: &[(Op, &[Value], Value)]) {
    for (op, args, want) in cases {
        let got = apply(*op, args);
        // The JLS leaves a NaN's payload open (x86 makes fresh NaNs negative): any NaN is a NaN.
        let same = got == *want || (got.is_nan() && want.is_nan());
        assert!(same, "{op:?}{args:?}: got {got} ({got:?}), want {want}");
        // The arena folds constants with the same function.
        let mut arena = Arena::new();
        let ids: Vec<_> = args.iter().map(|&a| arena.konst(a)).collect();
        let e = arena.mk(*op, &ids);
        assert_eq!(arena.as_const(e), Some(got), "folded {op:?}{args:?}");
    }
}

#[test]
fn eval_agrees_with_apply_on_symbolic_nodes() {
    let mut arena = Arena::new();
    let (vx, x) = arena.var(Sort::Bv(32), "x");
    let (vy, y) = arena.var(Sort::F64, "y");
    let seven = arena.konst(i(7));
    let rem = arena.mk(Op::SRem, &[x, seven]);
    let as_d = arena.mk(Op::IntToFp(Sort::F64), &[rem]);
    let sum = arena.mk(Op::FAdd, &[as_d, y]);
    let back = arena.mk(Op::FpToInt(32), &[sum]);
    let mut a = Assignment::default();
    a.0.insert(vx, i(-23));
    a.0.insert(vy, d(0.75));
    // (int)((double)(-23 % 7) + 0.75) = (int)(-2.0 + 0.75) = (int)-1.25 = -1
    assert_eq!(arena.eval(back, &a), i(-1));
    // Unassigned variables take their defaults: (int)(0 + 0.0) = 0.
    assert_eq!(arena.eval(back, &Assignment::default()), i(0));
    assert_eq!(arena.size(back), 7);
    assert_eq!(arena.vars_of(&[back]), vec![vx, vy]);
    expect_test::expect!["(int)((double)(x % 7) + y)"].assert_eq(&arena.display(back));
}

#[test]
fn arena_hash_conses_and_simplifies_exactly() {
    let mut arena = Arena::new();
    let (_, x) = arena.var(Sort::Bv(32), "x");
    let (_, b) = arena.var(Sort::Bool, "b");
    let (_, p) = arena.var(Sort::F64, "p");
    let (_, q) = arena.var(Sort::F64, "q");
    let zero = arena.konst(i(0));
    let one = arena.konst(i(1));
    let two = arena.konst(i(2));
    // Equal (op, args) is one node; commutative arguments are put in one order.
    let s1 = arena.mk(Op::Add, &[x, two]);
    let s2 = arena.mk(Op::Add, &[two, x]);
    assert_eq!(s1, s2);
    assert_eq!(arena.mk(Op::Add, &[x, zero]), x);
    assert_eq!(arena.mk(Op::Mul, &[one, x]), x);
    assert_eq!(arena.mk(Op::Mul, &[x, zero]), zero);
    assert_eq!(arena.mk(Op::Sub, &[x, x]), zero);
    let n = arena.mk(Op::Not, &[b]);
    assert_eq!(arena.mk(Op::Not, &[n]), b);
    let t = arena.konst(Value::Bool(true));
    assert_eq!(arena.mk(Op::Ite, &[t, x, two]), x);
    assert_eq!(arena.mk(Op::And2, &[t, b]), b);
    assert_eq!(arena.mk(Op::Eq, &[t, b]), b);
    assert_eq!(arena.mk(Op::Ne, &[b, t]), n);
    // A JVM boolean compared with 0 is the condition itself (ifeq/ifne on a boolean).
    let jb = arena.mk(Op::BoolToBv, &[b]);
    assert_eq!(arena.mk(Op::Ne, &[jb, zero]), b);
    assert_eq!(arena.mk(Op::Eq, &[jb, zero]), n);
    // i2c after c2i is the character.
    let (_, c) = arena.var(Sort::Bv(16), "c");
    let ci = arena.mk(Op::ZeroExt(32), &[c]);
    assert_eq!(arena.mk(Op::Extract(16), &[ci]), c);
    // dcmpl; ifge is p >= q, dcmpg; ifge is !(p < q) (true on NaN).
    let l = arena.mk(Op::FCmpL, &[p, q]);
    let g = arena.mk(Op::FCmpG, &[p, q]);
    let ge_l = arena.mk(Op::Sge, &[l, zero]);
    let ge_g = arena.mk(Op::Sge, &[g, zero]);
    expect_test::expect!["(p >= q)"].assert_eq(&arena.display(ge_l));
    expect_test::expect!["!(p < q)"].assert_eq(&arena.display(ge_g));
    // x + 0.0 is not x (for x = -0.0), so it stays.
    let pz = arena.konst(d(0.0));
    assert_ne!(arena.mk(Op::FAdd, &[p, pz]), p);
}

#[test]
fn three_way_compares_against_zero_keep_their_meaning_on_every_value() {
    // The rewrite of `*cmp*(a, b) R 0` must agree with the unrewritten semantics, NaN included.
    let specials = [f64::NAN, -1.0, -0.0, 0.0, 1.0, f64::INFINITY];
    let rels = [Op::Eq, Op::Ne, Op::Slt, Op::Sle, Op::Sgt, Op::Sge];
    for cmp in [Op::FCmpL, Op::FCmpG] {
        for rel in rels {
            let mut arena = Arena::new();
            let (va, a) = arena.var(Sort::F64, "a");
            let (vb, b) = arena.var(Sort::F64, "b");
            let zero = arena.konst(i(0));
            let c = arena.mk(cmp, &[a, b]);
            let e = arena.mk(rel, &[c, zero]);
            for x in specials {
                for y in specials {
                    let want = apply(rel, &[apply(cmp, &[d(x), d(y)]), i(0)]);
                    let mut asg = Assignment::default();
                    asg.0.insert(va, d(x));
                    asg.0.insert(vb, d(y));
                    assert_eq!(arena.eval(e, &asg), want, "{cmp:?} {rel:?} {x} {y}");
                }
            }
        }
    }
}

/// The Z3 encoding of Java's operations, as text: a division guarded by its divisor, a masked
/// shift count, d2i with NaN and saturation, fmod from `fp.rem`, dcmpl, and a double variable
/// declared as its bits.
#[test]
fn smtlib_encoding_of_java_operations() {
    let mut arena = Arena::new();
    let (_, x) = arena.var(Sort::Bv(32), "x");
    let (_, d) = arena.var(Sort::F64, "d");
    let q = arena.mk(Op::SDiv, &[x, x]);
    let s = arena.mk(Op::Shl, &[q, x]);
    let r = arena.mk(Op::FRem, &[d, d]);
    let i = arena.mk(Op::FpToInt(32), &[r]);
    let sum = arena.mk(Op::Add, &[s, i]);
    let c = arena.mk(Op::FCmpL, &[d, d]);
    let e = arena.mk(Op::Slt, &[sum, c]);
    expect_test::expect_file!["../test_data/encoding.smt2"].assert_eq(&to_smtlib(&arena, &[e]));
}
