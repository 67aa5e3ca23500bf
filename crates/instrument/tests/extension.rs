//! Extension probes (rt-abi `ProbeKind::Record`, docs/probes.md) are emitted from their shape
//! alone: a family that asks for every shape where the stack holds such operands (compares,
//! returns, method entry) gives fixture programs that pass `-Xverify:all` and print what the
//! originals print, and the test tracer sees a record of every shape.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use bytecode::Opcode;
use goals::{InsnIdx, MethodView, ProbeFamily, ProbePlan, RecordProbe, RecordShape};
use instrument::Options;

/// Asks, before each instruction, for the shapes of the operands it consumes from the stack.
struct EveryShape;

impl ProbeFamily for EveryShape {
    fn name(&self) -> &'static str {
        "every-shape"
    }

    fn plan(&self, method: &MethodView<'_>, at: InsnIdx, out: &mut Vec<RecordProbe>) {
        let op = method.body.insns[at.index()].op();
        let shape = match op.0 {
            _ if at.index() == 0 => Some(RecordShape::Event),
            0x99..=0x9e | 0xac => Some(RecordShape::Int),
            0x9f..=0xa4 => Some(RecordShape::IntInt),
            0xa5 | 0xa6 => Some(RecordShape::RefRef),
            0xc6 | 0xc7 | 0xb0 => Some(RecordShape::Ref),
            _ => match op {
                Opcode::LCMP => Some(RecordShape::LongLong),
                Opcode::FCMPL | Opcode::FCMPG => Some(RecordShape::FloatFloat),
                Opcode::DCMPL | Opcode::DCMPG => Some(RecordShape::DoubleDouble),
                Opcode::LRETURN => Some(RecordShape::Long),
                Opcode::FRETURN => Some(RecordShape::Float),
                Opcode::DRETURN => Some(RecordShape::Double),
                _ => None,
            },
        };
        out.extend(shape.map(|shape| RecordProbe { shape, tag: at.0 }));
    }
}

static FAMILIES: [&dyn ProbeFamily; 1] = [&EveryShape];

fn instrumented() -> &'static (PathBuf, ProbePlan) {
    static DIR: OnceLock<(PathBuf, ProbePlan)> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::scratch_dir("extension");
        let mut opts = Options::all();
        opts.plan.extensions = goals::Extensions(&FAMILIES);
        let original = test_support::fixture_classes("behaviour");
        let (plan, reports) = common::instrument_container(&original, &dir, &opts);
        for r in &reports {
            assert!(r.unchanged.is_empty(), "{}: {:?}", r.class, r.unchanged);
        }
        (dir, plan)
    })
}

#[test]
fn every_record_shape_runs_verified_and_changes_nothing() {
    let (dir, plan) = instrumented();
    let original = test_support::fixture_classes("behaviour");
    let mut log = String::new();
    for main in ["Compares", "Loops", "Switches", "Exceptions", "Recursion", "Closures"] {
        let main = format!("behaviour.{main}");
        let before = common::run_java(&[&original], &main, None);
        let trace = tempfile::NamedTempFile::new().expect("temp file");
        let after = common::run_java(&[dir, common::runtime_dir()], &main, Some(trace.path()));
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        assert_eq!(text(&after.stderr), "", "{main}: instrumented run wrote to stderr");
        assert_eq!(text(&after.stdout), text(&before.stdout), "{main}: output differs");
        assert_eq!(after.status.code(), before.status.code());
        log.push_str(&std::fs::read_to_string(trace.path()).expect("trace"));
    }
    let planned: std::collections::BTreeSet<RecordShape> = plan
        .probes()
        .iter()
        .filter_map(|p| match p.kind {
            goals::ProbeKind::Record(s) => Some(s),
            _ => None,
        })
        .collect();
    // The behaviour fixtures compare no two references and return no float.
    for shape in RecordShape::ALL {
        let (name, _) = goals::ProbeKind::Record(shape).method();
        let ran = log.lines().any(|l| l.split_whitespace().next() == Some(name));
        assert_eq!(ran, planned.contains(&shape), "{shape:?}: planned {}", planned.contains(&shape));
    }
    assert!(planned.len() >= 8, "{planned:?}");
}
