//! The workers on real libraries: hand-built tests against commons-lang3 and Guava classes
//! instrumented by the class-file layer, run in a real worker; the traces carry the branch distances
//! computed by hand below (EvoSuite's distances, docs/protocol.md "Branch distance").

use std::path::PathBuf;

use exec::{ExecStatus, JvmExecutor, Subject};
use goals::{Detail, MethodIdx, ProbeKind};
use protocol::{Outcome, PrimType, ProbeId, Statement, Value, Var};
use worker::{Java, Pool, WorkerConfig};

fn int(v: i32) -> Statement {
    Statement::Primitive { ty: PrimType::Int, bits: v as i64 as u64 }
}

fn static_call(class: &str, name: &str, descriptor: &str, n_args: usize) -> Statement {
    Statement::Method {
        class: class.into(),
        name: name.into(),
        descriptor: descriptor.into(),
        is_static: true,
        receiver: None,
        args: (0..n_args).map(|i| Var(i as u16)).collect(),
    }
}

fn subject(jar: &str, class: &str) -> (Subject, JvmExecutor) {
    let jar = PathBuf::from(format!("/usr/share/java/{jar}"));
    let cp = [jar];
    let db = test_support::open_db(&cp);
    let subject =
        exec::prepare_in(&db, &cp, &[class.to_string()], &instrument::Options::all(), 3000).expect("prepare");
    assert!(subject.unchanged.is_empty(), "{:?}", subject.unchanged);
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), subject.setup.clone());
    (subject, JvmExecutor::new(Pool::new(config, 1).expect("pool")))
}

/// The branch probes of `name descriptor` in class 0 of the plan, in instruction order, with their
/// condition codes (rt_abi::cond).
fn branch_probes(s: &Subject, name: &str, descriptor: &str) -> Vec<(ProbeId, i32)> {
    let class = &s.plan.classes()[0];
    let m =
        class.methods.iter().find(|m| m.name == name && m.descriptor == descriptor).expect("method planned");
    s.plan
        .method_probes(goals::PlanClassIdx(0), MethodIdx(m.index.0))
        .filter(|(_, p)| matches!(p.kind, ProbeKind::BranchInt | ProbeKind::BranchZero))
        .map(|(id, p)| match p.detail {
            Detail::Branch { cond } => (id, cond),
            ref d => panic!("branch probe without a condition: {d:?}"),
        })
        .collect()
}

fn distances(r: &exec::ExecResult, probe: ProbeId) -> (f64, f64) {
    let b = r.trace.branch(probe).unwrap_or_else(|| panic!("no branch entry for {probe:?} in {:?}", r.trace));
    (b.to_true, b.to_false)
}

/// `NumberUtils.max(int a, int b, int c)` is `if (b > a) a = b; if (c > a) a = c; return a;`, which
/// javac compiles to two `if_icmple` (jump when `b <= a`, then when `c <= a`).
#[test]
fn commons_lang3_number_utils_max() {
    let class = "org/apache/commons/lang3/math/NumberUtils";
    let (s, mut ex) = subject("commons-lang3.jar", class);
    let probes = branch_probes(&s, "max", "(III)I");
    assert_eq!(probes.iter().map(|p| p.1).collect::<Vec<_>>(), [rt_abi::cond::LE, rt_abi::cond::LE]);
    let max = static_call("org.apache.commons.lang3.math.NumberUtils", "max", "(III)I", 3);
    let tests: Vec<Vec<Statement>> =
        vec![vec![int(3), int(10), int(7), max.clone()], vec![int(9), int(2), int(9), max.clone()]];
    let rs = ex.execute(&tests).expect("execute");
    assert_eq!(rs[0].status, ExecStatus::Normal);
    assert_eq!(rs[0].outcomes[3], Outcome::Value(Value::Int(10)));
    // max(3, 10, 7): `10 <= 3` is false: to true (jump) 10 - 3 = 7, to false 0. Then a = 10 and
    // `7 <= 10` holds: to true 0, to false (7 > 10) 10 - 7 + 1 = 4.
    assert_eq!(distances(&rs[0], probes[0].0), (7.0, 0.0));
    assert_eq!(distances(&rs[0], probes[1].0), (0.0, 4.0));
    // max(9, 2, 9): `2 <= 9` holds: (0, 9 - 2 + 1 = 8); `9 <= 9` holds: (0, 9 - 9 + 1 = 1).
    assert_eq!(rs[1].outcomes[3], Outcome::Value(Value::Int(9)));
    assert_eq!(distances(&rs[1], probes[0].0), (0.0, 8.0));
    assert_eq!(distances(&rs[1], probes[1].0), (0.0, 1.0));
}

/// `IntMath.isPowerOfTwo(int x)` is `x > 0 & (x & (x - 1)) == 0`: an `ifle` on `x`, then an `ifne` on
/// `x & (x - 1)`.
#[test]
fn guava_int_math_is_power_of_two() {
    let class = "com/google/common/math/IntMath";
    let (s, mut ex) = subject("guava.jar", class);
    let probes = branch_probes(&s, "isPowerOfTwo", "(I)Z");
    assert_eq!(probes.iter().map(|p| p.1).collect::<Vec<_>>(), [rt_abi::cond::LE, rt_abi::cond::NE]);
    let call = static_call("com.google.common.math.IntMath", "isPowerOfTwo", "(I)Z", 1);
    let tests: Vec<Vec<Statement>> =
        vec![vec![int(5), call.clone()], vec![int(8), call.clone()], vec![int(-3), call]];
    let rs = ex.execute(&tests).expect("execute");
    // x = 5: `5 <= 0` is false: (5, 0). `5 & 4 = 4 != 0` holds: (0, |4| = 4).
    assert_eq!(rs[0].outcomes[1], Outcome::Value(Value::Bool(false)));
    assert_eq!(distances(&rs[0], probes[0].0), (5.0, 0.0));
    assert_eq!(distances(&rs[0], probes[1].0), (0.0, 4.0));
    // x = 8: `8 & 7 = 0`: the `ifne` falls through: (distance to `!= 0` is 1, 0).
    assert_eq!(rs[1].outcomes[1], Outcome::Value(Value::Bool(true)));
    assert_eq!(distances(&rs[1], probes[0].0), (8.0, 0.0));
    assert_eq!(distances(&rs[1], probes[1].0), (1.0, 0.0));
    // x = -3: `-3 <= 0` holds: (0, 0 - (-3) + 1 = 4). `-3 & -4 = -4 != 0`: (0, 4).
    assert_eq!(rs[2].outcomes[1], Outcome::Value(Value::Bool(false)));
    assert_eq!(distances(&rs[2], probes[0].0), (0.0, 4.0));
    assert_eq!(distances(&rs[2], probes[1].0), (0.0, 4.0));
}
