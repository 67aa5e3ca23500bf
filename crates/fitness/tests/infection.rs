//! Infection distances of weak mutants with Java semantics (JVMS §6.5: wrapping arithmetic, masked
//! shift counts, `idiv`/`irem` by zero throwing) and of ROR mutants from branch distances, and the
//! normalisation function; one table per function, snapshotted.

use expect_test::expect;
use fitness::{cond_infection, norm, operator_infection};
use goals::{BinOp, Mutant, ProbeKind};
use rt_abi::cond;

/// A row: what is tested, the probe kind, the operator, the mutant, one operand sample.
type OpCase = (&'static str, ProbeKind, BinOp, Mutant, (u64, u64));

fn int(a: i32, b: i32) -> (u64, u64) {
    (a as i64 as u64, b as i64 as u64)
}

fn long(a: i64, b: i64) -> (u64, u64) {
    (a as u64, b as u64)
}

fn float(a: f32, b: f32) -> (u64, u64) {
    (a.to_bits() as u64, b.to_bits() as u64)
}

fn double(a: f64, b: f64) -> (u64, u64) {
    (a.to_bits(), b.to_bits())
}

#[test]
fn operator_mutants_follow_java_semantics() {
    use BinOp::*;
    use Mutant::*;
    use ProbeKind::*;
    let cases: &[OpCase] = &[
        ("MAX + 1 -> MAX - 1 (wrapping)", OperandsInt, Add, ReplaceOp(Sub), int(i32::MAX, 1)),
        ("2 + 2 -> 2 * 2", OperandsInt, Add, ReplaceOp(Mul), int(2, 2)),
        ("5 + 0 -> 5 / 0 (mutant throws)", OperandsInt, Add, ReplaceOp(Div), int(5, 0)),
        ("5 / 0 -> 5 % 0 (both throw)", OperandsInt, Div, ReplaceOp(Rem), int(5, 0)),
        ("MIN / -1 -> MIN * -1 (both MIN)", OperandsInt, Div, ReplaceOp(Mul), int(i32::MIN, -1)),
        ("MIN % -1 -> MIN - -1", OperandsInt, Rem, ReplaceOp(Sub), int(i32::MIN, -1)),
        ("MIN % 0 -> MIN + 0 (original throws)", OperandsInt, Rem, ReplaceOp(Add), int(i32::MIN, 0)),
        ("1 << 32 -> 1 >> 32 (count masked)", OperandsInt, Shl, ReplaceOp(Shr), int(1, 32)),
        ("-1 >> 1 -> -1 >>> 1", OperandsInt, Shr, ReplaceOp(Ushr), int(-1, 1)),
        ("-1 >> 32 -> -1 >>> 32 (count masked to 0)", OperandsInt, Shr, ReplaceOp(Ushr), int(-1, 32)),
        ("6 & 3 -> 6 | 3", OperandsInt, And, ReplaceOp(Or), int(6, 3)),
        ("5 & 5 -> 5 | 5", OperandsInt, And, ReplaceOp(Or), int(5, 5)),
        ("x + 0 -> x", OperandsInt, Add, FirstOperand, int(7, 0)),
        ("0 + y -> y", OperandsInt, Add, SecondOperand, int(0, 7)),
        ("3 * 4 -> 4", OperandsInt, Mul, SecondOperand, int(3, 4)),
        ("long MAX + 1 -> MAX - 1", OperandsLong, Add, ReplaceOp(Sub), long(i64::MAX, 1)),
        ("long 7 / 0 -> 7 * 0", OperandsLong, Div, ReplaceOp(Mul), long(7, 0)),
        ("long 1 << 64 -> 1 >> 64 (count masked)", OperandsLongShift, Shl, ReplaceOp(Shr), long(1, 64)),
        ("long 1 << 1 -> 1 >>> 1", OperandsLongShift, Shl, ReplaceOp(Ushr), long(1, 1)),
        ("float 1 / 0 -> 1 * 0 (no throw)", OperandsFloat, Div, ReplaceOp(Mul), float(1.0, 0.0)),
        ("float NaN + 1 -> NaN - 1", OperandsFloat, Add, ReplaceOp(Sub), float(f32::NAN, 1.0)),
        ("float 0 + -0 -> 0 - -0 (== equal)", OperandsFloat, Add, ReplaceOp(Sub), float(0.0, -0.0)),
        ("double 5.5 % 2 -> 5.5 - 2", OperandsDouble, Rem, ReplaceOp(Sub), double(5.5, 2.0)),
        ("double 4 % 2 -> 4 / 2", OperandsDouble, Rem, ReplaceOp(Div), double(4.0, 2.0)),
        ("double 2 % 2 -> 2 - 2 (both 0)", OperandsDouble, Rem, ReplaceOp(Sub), double(2.0, 2.0)),
    ];
    let mut out = String::new();
    for (name, kind, op, m, s) in cases {
        out.push_str(&format!("{name}: {}\n", operator_infection(*kind, *op, *m, &[*s])));
    }
    // No samples: not infected.
    out.push_str(&format!("no samples: {}\n", operator_infection(OperandsInt, Add, ReplaceOp(Sub), &[])));
    // Any one sample that infects is enough.
    let two = [int(0, 0), int(1, 2)];
    out.push_str(&format!("0+0, 1+2 -> -: {}\n", operator_infection(OperandsInt, Add, ReplaceOp(Sub), &two)));
    expect![[r#"
        MAX + 1 -> MAX - 1 (wrapping): 0
        2 + 2 -> 2 * 2: 1
        5 + 0 -> 5 / 0 (mutant throws): 0
        5 / 0 -> 5 % 0 (both throw): 1
        MIN / -1 -> MIN * -1 (both MIN): 1
        MIN % -1 -> MIN - -1: 0
        MIN % 0 -> MIN + 0 (original throws): 0
        1 << 32 -> 1 >> 32 (count masked): 1
        -1 >> 1 -> -1 >>> 1: 0
        -1 >> 32 -> -1 >>> 32 (count masked to 0): 1
        6 & 3 -> 6 | 3: 0
        5 & 5 -> 5 | 5: 1
        x + 0 -> x: 1
        0 + y -> y: 1
        3 * 4 -> 4: 0
        long MAX + 1 -> MAX - 1: 0
        long 7 / 0 -> 7 * 0: 0
        long 1 << 64 -> 1 >> 64 (count masked): 1
        long 1 << 1 -> 1 >>> 1: 0
        float 1 / 0 -> 1 * 0 (no throw): 0
        float NaN + 1 -> NaN - 1: 1
        float 0 + -0 -> 0 - -0 (== equal): 1
        double 5.5 % 2 -> 5.5 - 2: 0
        double 4 % 2 -> 4 / 2: 0
        double 2 % 2 -> 2 - 2 (both 0): 1
        no samples: 1
        0+0, 1+2 -> -: 0
    "#]]
    .assert_eq(&out);
}

#[test]
fn condition_mutants_from_branch_distances() {
    let name = |c: i32| ["eq", "ne", "lt", "ge", "gt", "le"][(c & 7) as usize];
    // (kind, jump condition, replacement, to_true, to_false, what the runtime saw)
    let cases: &[(ProbeKind, i32, i32, f64, f64, &str)] = &[
        (ProbeKind::BranchInt, cond::LT, cond::LE, 0.0, 3.0, "v = -3 only"),
        (ProbeKind::BranchInt, cond::LT, cond::LE, 1.0, 0.0, "v = 0 only"),
        (ProbeKind::BranchInt, cond::LT, cond::LE, 5.0, 0.0, "v = 4 only"),
        (ProbeKind::BranchInt, cond::LT, cond::GT, 0.0, 3.0, "v = -3 only"),
        (ProbeKind::BranchInt, cond::LT, cond::GT, 1.0, 0.0, "v = 0 only"),
        (ProbeKind::BranchInt, cond::LT, cond::GE, 0.0, 3.0, "v = -3 only"),
        (ProbeKind::BranchInt, cond::LT, cond::NE, 0.0, 3.0, "v = -3 only"),
        (ProbeKind::BranchInt, cond::LT, cond::EQ, 5.0, 0.0, "v = 4 only"),
        (ProbeKind::BranchInt, cond::LT, cond::LE, 0.0, 0.0, "both sides, magnitudes lost"),
        (ProbeKind::BranchInt, cond::GE, cond::GT, 0.0, 1.0, "v = 0 only"),
        (ProbeKind::BranchInt, cond::GE, cond::GT, 0.0, 3.0, "v = 2 only"),
        (ProbeKind::BranchInt, cond::EQ, cond::NE, 0.0, 1.0, "v = 0 only"),
        (ProbeKind::BranchInt, cond::EQ, cond::LT, 0.0, 1.0, "v = 0 only"),
        (ProbeKind::BranchInt, cond::EQ, cond::GE, 0.0, 1.0, "v = 0 only"),
        (ProbeKind::BranchInt, cond::EQ, cond::GE, 3.0, 0.0, "|v| = 3, sign unknown"),
        (ProbeKind::BranchInt, cond::EQ, cond::LE, 3.0, 0.0, "|v| = 3, sign unknown"),
        (ProbeKind::BranchZero, cond::NE, cond::GT, 0.0, 2.0, "|v| = 2, sign unknown"),
        (ProbeKind::BranchZero, cond::NE, cond::LE, 0.0, 2.0, "|v| = 2: LE differs on P and Z"),
        (ProbeKind::CmpDouble, cond::LE | cond::NAN_GREATER, cond::LT, 0.0, 1.5, "v = -0.5 only"),
        (ProbeKind::CmpDouble, cond::LE | cond::NAN_GREATER, cond::LT, 0.0, 1.0, "v = 0 only"),
        (ProbeKind::BranchRef, cond::EQ, cond::NE, 1.0, 0.0, "refs differ"),
        (ProbeKind::BranchNull, cond::NE, cond::EQ, 0.0, 1.0, "non-null"),
    ];
    let mut out = String::new();
    for (kind, c, r, t, f, what) in cases {
        let d = cond_infection(*kind, *c, *r, *t, *f);
        out.push_str(&format!("{kind:?} {} -> {} ({what}): {d}\n", name(*c), name(*r)));
    }
    expect![[r#"
        BranchInt lt -> le (v = -3 only): 3
        BranchInt lt -> le (v = 0 only): 0
        BranchInt lt -> le (v = 4 only): 4
        BranchInt lt -> gt (v = -3 only): 0
        BranchInt lt -> gt (v = 0 only): 1
        BranchInt lt -> ge (v = -3 only): 0
        BranchInt lt -> ne (v = -3 only): 4
        BranchInt lt -> eq (v = 4 only): 4
        BranchInt lt -> le (both sides, magnitudes lost): 1
        BranchInt ge -> gt (v = 0 only): 0
        BranchInt ge -> gt (v = 2 only): 2
        BranchInt eq -> ne (v = 0 only): 0
        BranchInt eq -> lt (v = 0 only): 0
        BranchInt eq -> ge (v = 0 only): 1
        BranchInt eq -> ge (|v| = 3, sign unknown): 1
        BranchInt eq -> le (|v| = 3, sign unknown): 1
        BranchZero ne -> gt (|v| = 2, sign unknown): 1
        BranchZero ne -> le (|v| = 2: LE differs on P and Z): 1
        CmpDouble le -> lt (v = -0.5 only): 0.5
        CmpDouble le -> lt (v = 0 only): 0
        BranchRef eq -> ne (refs differ): 0
        BranchNull ne -> eq (non-null): 0
    "#]]
    .assert_eq(&out);
}

#[test]
fn normalisation() {
    let xs = [0.0, 0.5, 1.0, 3.0, 9.0, 1e9, f64::INFINITY, -1.0];
    let out: Vec<String> = xs.iter().map(|&x| format!("{x} -> {}", norm(x))).collect();
    expect![[r#"
        0 -> 0
        0.5 -> 0.3333333333333333
        1 -> 0.5
        3 -> 0.75
        9 -> 0.9
        1000000000 -> 0.999999999
        inf -> 1
        -1 -> 0"#]]
    .assert_eq(&out.join("\n"));
    // Monotone and below 1 on finite distances.
    for w in [0.0, 0.1, 1.0, 2.0, 100.0, 1e12].windows(2) {
        assert!(norm(w[0]) < norm(w[1]) && norm(w[1]) < 1.0);
    }
}
