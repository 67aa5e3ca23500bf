//! Probe-plan tests: a snapshot of the plan of a fixture class (hand-checked against `javap -c`),
//! and, over every class of a real jar, determinism and the consistency of probe <-> goal maps.

use std::path::{Path, PathBuf};

use expect_test::expect_file;
use goals::{Detail, Goal, GoalId, PlanOptions, ProbeId, ProbeKind, ProbePlan};

fn fixture(name: &str) -> Vec<u8> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/behaviour/behaviour").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn check_plan(class_file: &str, snapshot: &str) {
    let mut plan = ProbePlan::new();
    plan.add_class_bytes(&fixture(class_file), &PlanOptions::all()).expect("plan");
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(snapshot);
    expect_file![path].assert_eq(&plan.dump());
}

#[test]
fn plan_of_compares() {
    check_plan("Compares.class", "Compares.plan.txt");
}

#[test]
fn plan_of_switches() {
    check_plan("Switches.class", "Switches.plan.txt");
}

/// UOI and RC (weak mutation) on the mutation fixture: value probes after numeric loads of locals
/// and fields (none before the ternary's merge point, none in `<clinit>`), constant goals served by
/// the probe that follows them in their straight run, or by an added hit-only probe.
#[test]
fn plan_of_mutation_values() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/mutation/mutation/Values.class");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut plan = ProbePlan::new();
    plan.add_class_bytes(&bytes, &PlanOptions::all()).expect("plan");
    expect_file![Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/Values.plan.txt")]
        .assert_eq(&plan.dump());
}

/// RC replacement sets (EvoSuite's `ReplaceConstant`: 0, 1, -1, c-1, c+1 without c and duplicates).
#[test]
fn constant_replacements() {
    use goals::Constant::{Double, Float, Int, Long};
    let text = |c: goals::Constant| {
        goals::constant_replacements(c).iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
    };
    let cases = [
        Int(0),
        Int(1),
        Int(-1),
        Int(2),
        Int(i32::MIN),
        Long(5),
        Float(0.5f32.to_bits()),
        Float(1.0e20f32.to_bits()),
        Float(f32::NAN.to_bits()),
        Double(0.0f64.to_bits()),
        Double(1.0e300f64.to_bits()),
    ];
    let out: Vec<String> = cases.iter().map(|&c| format!("{c}: {}", text(c))).collect();
    expect_test::expect![[r#"
        0: 1 -1
        1: 0 -1 2
        -1: 0 1 -2
        2: 0 1 -1 3
        -2147483648: 0 1 -1 2147483647 -2147483647
        5L: 0L 1L -1L 4L 6L
        0.5f: 0.0f 1.0f -1.0f -0.5f 1.5f
        1e20f: 0.0f 1.0f -1.0f
        NaNf: 0.0f 1.0f -1.0f
        0.0d: 1.0d -1.0d
        1e300d: 0.0d 1.0d -1.0d"#]]
    .assert_eq(&out.join("\n"));
}

#[test]
fn no_probes_with_none() {
    let mut plan = ProbePlan::new();
    plan.add_class_bytes(&fixture("Loops.class"), &PlanOptions::none()).expect("plan");
    assert_eq!(plan.n_probes(), 0);
    assert!(plan.goals().is_empty());
}

/// Every class of commons-lang3: planning twice gives the same plan; probe and goal maps agree;
/// ids are contiguous per class and method; branch sites fit the `id << 4` packing.
#[test]
fn plan_of_a_real_jar_is_deterministic_and_consistent() {
    let jar = Path::new("/usr/share/java/commons-lang3.jar");
    let entry = classfile::ClassPathEntry::open(jar).expect("open jar");
    let mut classes: Vec<(String, Vec<u8>)> = entry.class_files().map(|r| r.expect("read class")).collect();
    classes.sort();
    let build = || {
        let mut plan = ProbePlan::new();
        for (_, bytes) in &classes {
            plan.add_class_bytes(bytes, &PlanOptions::all()).expect("plan");
        }
        plan
    };
    let plan = build();
    assert_eq!(plan, build());
    assert!(plan.n_probes() > 10_000, "{} probes", plan.n_probes());
    for (gi, _) in plan.goals().iter().enumerate() {
        let g = GoalId(gi as u32);
        assert!(!plan.probes_of_goal(g).is_empty(), "goal {g} has no probe");
        for &p in plan.probes_of_goal(g) {
            assert!(plan.probe(p).goals.contains(&g));
        }
    }
    let mut next = 0;
    for (ci, c) in plan.classes().iter().enumerate() {
        assert_eq!(c.probes.start, next, "class {ci} ids are not contiguous");
        next = c.probes.end;
        for m in &c.methods {
            assert!(m.undecodable.is_none(), "{}.{}: {:?}", c.name, m.name, m.undecodable);
            for i in m.probes.clone() {
                let p = plan.probe(ProbeId(i));
                assert_eq!(p.method, Some(m.index));
                assert_eq!(plan.method_of(ProbeId(i)).map(|mp| &mp.name), Some(&m.name));
            }
        }
    }
    let branches = plan.probes().iter().filter(|p| matches!(p.detail, Detail::Branch { .. })).count();
    let lines = plan.goals().iter().filter(|g| matches!(g, Goal::Line { .. })).count();
    assert!(branches > 1000 && lines > 1000, "{branches} branch probes, {lines} line goals");
    assert!(plan.probes().iter().all(|p| p.kind != ProbeKind::ClassInit || p.goals.is_empty()));
    assert!((plan.n_probes() as u64) << rt_abi::cond::SHIFT < i32::MAX as u64);
}

/// The classification tables against JVMS §6.5 opcode numbers and rt-abi condition codes.
#[test]
fn opcode_tables() {
    let mut out = String::new();
    for b in 0x60u8..=0xc7 {
        let op = bytecode::Opcode(b);
        let what = if let Some((k, c)) = goals::branch_cond(op) {
            format!("{k:?} cond {c}")
        } else if let Some((k, nan_greater)) = goals::cmp_kind(op) {
            format!("{k:?} nan_greater={nan_greater}")
        } else if let Some((bin, k)) = goals::binop_of(op) {
            format!("{k:?} {}", bin.name())
        } else if let Some(k) = goals::return_probe(op) {
            format!("{k:?}")
        } else {
            continue;
        };
        out.push_str(&format!("{} {what}\n", op.name()));
    }
    expect_test::expect![[r#"
        iadd OperandsInt add
        ladd OperandsLong add
        fadd OperandsFloat add
        dadd OperandsDouble add
        isub OperandsInt sub
        lsub OperandsLong sub
        fsub OperandsFloat sub
        dsub OperandsDouble sub
        imul OperandsInt mul
        lmul OperandsLong mul
        fmul OperandsFloat mul
        dmul OperandsDouble mul
        idiv OperandsInt div
        ldiv OperandsLong div
        fdiv OperandsFloat div
        ddiv OperandsDouble div
        irem OperandsInt rem
        lrem OperandsLong rem
        frem OperandsFloat rem
        drem OperandsDouble rem
        ishl OperandsInt shl
        lshl OperandsLongShift shl
        ishr OperandsInt shr
        lshr OperandsLongShift shr
        iushr OperandsInt ushr
        lushr OperandsLongShift ushr
        iand OperandsInt and
        land OperandsLong and
        ior OperandsInt or
        lor OperandsLong or
        ixor OperandsInt xor
        lxor OperandsLong xor
        lcmp CmpLong nan_greater=false
        fcmpl CmpFloat nan_greater=false
        fcmpg CmpFloat nan_greater=true
        dcmpl CmpDouble nan_greater=false
        dcmpg CmpDouble nan_greater=true
        ifeq BranchZero cond 0
        ifne BranchZero cond 1
        iflt BranchZero cond 2
        ifge BranchZero cond 3
        ifgt BranchZero cond 4
        ifle BranchZero cond 5
        if_icmpeq BranchInt cond 0
        if_icmpne BranchInt cond 1
        if_icmplt BranchInt cond 2
        if_icmpge BranchInt cond 3
        if_icmpgt BranchInt cond 4
        if_icmple BranchInt cond 5
        if_acmpeq BranchRef cond 0
        if_acmpne BranchRef cond 1
        ireturn ReturnInt
        lreturn ReturnLong
        freturn ReturnFloat
        dreturn ReturnDouble
        areturn ReturnRef
        ifnull BranchNull cond 0
        ifnonnull BranchNull cond 1
    "#]]
    .assert_eq(&out);
}
