//! The trace extension point end to end (docs/probes.md): the `flag-returns` family, built only
//! through it (a planner and a decoder defined here, as a technique's crate would define its own):
//! the value each `boolean` method returns, with the call depth, at every `ireturn`; planned on a
//! fixture class with the built-in families, instrumented, run in a real worker JVM and decoded
//! from the trace.

use std::path::Path;

use exec::{ExecStatus, JvmExecutor};
use fitness::{FamilyDecoder, FamilyProbes};
use goals::{
    Detail, Extensions, InsnIdx, MethodIdx, MethodView, ProbeFamily, ProbeId, ProbeKind, ProbePlan,
    RecordProbe, RecordShape,
};
use protocol::{Setup, Statement, Trace, Var};
use worker::{Java, Pool, WorkerConfig};

/// The family: one `Record(Int)` probe before each `ireturn` of a method returning `boolean`,
/// tagged with the method's index.
#[derive(Clone, Copy, Debug)]
pub struct FlagReturns;

/// The family as `PlanOptions::extensions` takes it.
pub const FLAG_RETURNS: &FlagReturns = &FlagReturns;

/// One distinct (value, depth) a flag method returned at one of its `ireturn`s.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct FlagReturn {
    pub probe: ProbeId,
    pub method: MethodIdx,
    pub value: bool,
    /// Frames of instrumented methods below the returning one (0: called by the test directly).
    pub depth: u32,
}

impl ProbeFamily for FlagReturns {
    fn name(&self) -> &'static str {
        "flag-returns"
    }

    fn plan(&self, method: &MethodView<'_>, at: InsnIdx, out: &mut Vec<RecordProbe>) {
        if method.return_type() == "Z" && method.body.insns[at.index()].op() == bytecode::Opcode::IRETURN {
            out.push(RecordProbe { shape: RecordShape::Int, tag: u32::from(method.method.0) });
        }
    }
}

impl FamilyDecoder for FlagReturns {
    type Output = Vec<FlagReturn>;

    /// Every record of the trace, in probe order then first-seen order.
    fn decode(&self, probes: &FamilyProbes, trace: &Trace) -> Vec<FlagReturn> {
        let mut out = Vec::new();
        for (p, records) in probes.records(trace) {
            for r in records {
                // The tag is the method's index (`plan`), which fits a u16 by construction.
                let method = MethodIdx(p.tag as u16);
                out.push(FlagReturn { probe: p.id, method, value: r.a != 0, depth: r.depth });
            }
        }
        out
    }
}

static FAMILIES: [&dyn ProbeFamily; 1] = [FLAG_RETURNS];

fn classes() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/behaviour")
}

fn recursion() -> Vec<u8> {
    std::fs::read(classes().join("behaviour/Recursion.class")).expect("Recursion.class")
}

fn call(name: &str, n: i32) -> Vec<Statement> {
    vec![
        Statement::int(n),
        Statement::Method {
            class: "behaviour.Recursion".into(),
            name: name.into(),
            descriptor: "(I)Z".into(),
            is_static: true,
            receiver: None,
            args: vec![Var(0)],
        },
    ]
}

/// The built-in probes of a plan without their ids: what must not change when a family is added.
fn built_in(plan: &ProbePlan) -> Vec<String> {
    plan.probes()
        .iter()
        .filter(|p| !matches!(p.detail, Detail::Record { .. }))
        .map(|p| {
            format!("{:?} {:?} {:?} {:?} {:?} {}", p.kind, p.class, p.method, p.insn, p.detail, p.goals.len())
        })
        .collect()
}

#[test]
fn an_extension_family_leaves_the_built_in_plan_alone() {
    let bytes = recursion();
    let mut plain = ProbePlan::new();
    plain.add_class_bytes(&bytes, &goals::PlanOptions::all()).expect("plan");
    let mut opts = goals::PlanOptions::all();
    opts.extensions = Extensions(&FAMILIES);
    let mut with = ProbePlan::new();
    with.add_class_bytes(&bytes, &opts).expect("plan");

    assert!(plain.probes().iter().all(|p| !matches!(p.kind, ProbeKind::Record(_))));
    assert_eq!(built_in(&plain), built_in(&with));
    assert_eq!(plain.goals().len(), with.goals().len());
    // One probe before the one `ireturn` of each of `isEven` and `isOdd`, after every built-in
    // probe there.
    let family = FamilyProbes::of(&with, "flag-returns");
    assert_eq!(family.probes().len(), 2);
    for p in family.probes() {
        let probe = with.probe(p.id);
        assert_eq!(probe.kind, ProbeKind::Record(RecordShape::Int));
        let next = with.probes().get(p.id.index() + 1);
        assert!(next.is_none_or(|n| n.insn != probe.insn || n.method != probe.method), "{next:?}");
        let m = with.method_of(p.id).expect("method");
        assert_eq!((m.index.0 as u32, m.descriptor.as_str()), (p.tag, "(I)Z"));
    }
}

#[test]
fn flag_returns_recorded_by_a_real_worker() {
    let bytes = recursion();
    let mut opts = instrument::Options::all();
    opts.plan.extensions = Extensions(&FAMILIES);
    let (plan, out) = instrument::instrument_classes(&[&bytes], &opts);
    let (instrumented, report) = out.into_iter().next().expect("one class").expect("instrumented");
    assert!(report.unchanged.is_empty(), "{:?}", report.unchanged);

    let mut setup = Setup::empty();
    setup.classpath = vec![classes().canonicalize().expect("dir").display().to_string()];
    setup.classes = vec![("behaviour.Recursion".into(), instrumented)];
    setup.probe_count = plan.n_probes() as u32;
    setup.class_ids = vec![(0, "behaviour.Recursion".into())];
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let pool =
        Pool::new(WorkerConfig::new(java, worker::runtime_jar().expect("jar"), setup), 1).expect("pool");
    let mut ex = JvmExecutor::new(pool);
    let tests = [call("isEven", 3), call("isOdd", 0), call("isEven", 0)];
    let results = ex.execute(&tests).expect("execute");
    for r in &results {
        assert_eq!(r.status, ExecStatus::Normal, "{r:?}");
    }

    let family = FamilyProbes::of(&plan, "flag-returns");
    let method = |name: &str| {
        let m = plan.classes()[0].methods.iter().find(|m| m.name == name).expect("method");
        m.index
    };
    let (even, odd) = (method("isEven"), method("isOdd"));
    let seen = |i: usize| -> Vec<(&str, bool, u32)> {
        let mut v: Vec<FlagReturn> = FLAG_RETURNS.decode(&family, &results[i].trace);
        v.sort_by_key(|r| (r.method, r.depth));
        v.iter().map(|r| (if r.method == even { "isEven" } else { "isOdd" }, r.value, r.depth)).collect()
    };
    assert_ne!(even, odd);
    // isEven(3) -> isOdd(2) -> isEven(1) -> isOdd(0): false all the way up. The depth is that of
    // the caller (the returning method's own frame is popped by its `MethodExit` probe first).
    assert_eq!(
        seen(0),
        [("isEven", false, 0), ("isEven", false, 2), ("isOdd", false, 1), ("isOdd", false, 3)]
    );
    assert_eq!(seen(1), [("isOdd", false, 0)]);
    assert_eq!(seen(2), [("isEven", true, 0)]);
    // The same through the generic reader, as a technique would call it.
    assert_eq!(fitness::decode(FLAG_RETURNS, &plan, &results[2].trace).len(), 1);
}
