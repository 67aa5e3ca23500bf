//! Instrumented fixture programs behave as the originals (same stdout and exit
//! status under `-Xverify:all`), their probe records match hand-checked expectations, the reset
//! method restores static state, and the harness does catch a class the verifier rejects.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use bytecode::{Insn, InsnIdx, Opcode};
use expect_test::expect_file;
use goals::{ProbeId, ProbePlan};
use instrument::Options;

fn original_dir() -> PathBuf {
    test_support::fixture_classes("behaviour")
}

/// The behaviour fixtures, instrumented once per test process with everything on.
fn instrumented() -> &'static (PathBuf, ProbePlan) {
    static DIR: OnceLock<(PathBuf, ProbePlan)> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::scratch_dir("instrumented");
        let (plan, reports) = common::instrument_container(&original_dir(), &dir, &Options::all());
        for r in &reports {
            assert!(r.unchanged.is_empty(), "{}: {:?}", r.class, r.unchanged);
        }
        (dir, plan)
    })
}

fn check_same_behaviour(main: &str) {
    let (dir, _) = instrumented();
    let original = common::run_java(&[&original_dir()], main, None);
    let trace = tempfile::NamedTempFile::new().expect("temp file");
    let rewritten = common::run_java(&[dir, common::runtime_dir()], main, Some(trace.path()));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(original.status.success(), "{main} fails uninstrumented: {}", text(&original.stderr));
    assert_eq!(text(&rewritten.stderr), "", "{main}: instrumented run wrote to stderr");
    assert_eq!(text(&rewritten.stdout), text(&original.stdout), "{main}: output differs");
    assert_eq!(rewritten.status.code(), original.status.code());
    let log = std::fs::read_to_string(trace.path()).expect("trace");
    assert!(log.lines().count() > 10, "{main}: the probes did not run: {log}");
}

#[test]
fn compares_behave_the_same() {
    check_same_behaviour("behaviour.Compares");
}

#[test]
fn loops_behave_the_same() {
    check_same_behaviour("behaviour.Loops");
}

#[test]
fn switches_behave_the_same() {
    check_same_behaviour("behaviour.Switches");
}

#[test]
fn exceptions_behave_the_same() {
    check_same_behaviour("behaviour.Exceptions");
}

#[test]
fn recursion_behaves_the_same() {
    check_same_behaviour("behaviour.Recursion");
}

#[test]
fn closures_behave_the_same() {
    check_same_behaviour("behaviour.Closures");
}

/// Runs `main` instrumented and renders the trace events of the probes of `class.method` as
/// `p<id> <Kind> L<line> <recorded values>`, one per event, in order.
fn probe_log(main: &str, class: &str, method: &str) -> String {
    let (dir, plan) = instrumented();
    let trace = tempfile::NamedTempFile::new().expect("temp file");
    let out = common::run_java(&[dir, common::runtime_dir()], main, Some(trace.path()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let log = std::fs::read_to_string(trace.path()).expect("trace");
    let mut res = String::new();
    for event in log.lines() {
        let mut words = event.split(' ');
        let (Some(kind), Some(site)) = (words.next(), words.next()) else { continue };
        if kind == "classInit" {
            continue;
        }
        let (id, cond) = site.split_once('/').map_or((site, None), |(i, c)| (i, Some(c)));
        let id = ProbeId(id.parse().expect("probe id"));
        let p = plan.probe(id);
        let Some(m) = plan.method_of(id) else { continue };
        if plan.class(p.class).name != class || m.name != method {
            continue;
        }
        let line = p.line.map_or(String::new(), |l| format!(" L{l}"));
        let cond = cond.map_or(String::new(), |c| format!(" {c}"));
        let values: Vec<&str> = words.collect();
        let text = format!("{id} {:?}{line}{cond} {}", p.kind, values.join(" "));
        res.push_str(text.trim_end());
        res.push('\n');
    }
    res
}

/// Hand-checked against the source of `Compares.compareAll`, `javap -c` and the program's output
/// (125, 2, 68): each compare records its operands and the condition of the jump as javac wrote
/// it (`i > 3` is `if_icmple`, `a < b` is `lcmp; ifge`, `f >= 1.5f` is `fcmpl; iflt`, `x > y`
/// is `dcmpl; ifle`, `o == null` is `ifnonnull`, `o != "s"` is `if_acmpeq`); `r += k` is an
/// `iinc`, so no operand probe; one return value and one exit per call.
#[test]
fn probe_log_of_compare_all() {
    let log = probe_log("behaviour.Compares", "behaviour/Compares", "compareAll");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/Compares.compareAll.log.txt");
    expect_file![path].assert_eq(&log);
}

/// `nanCompares` distinguishes `fcmpl` from `fcmpg`: the condition carries the NaN-greater bit
/// (`f < 0f` is `fcmpg; ifge`, shown `ge/nan>`). Hand-checked: the `ior` operand probes run exactly
/// when the jump is not taken, and the returned values are the program's 5, 12, 10, 16.
#[test]
fn probe_log_of_nan_compares() {
    let log = probe_log("behaviour.Compares", "behaviour/Compares", "nanCompares");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/Compares.nanCompares.log.txt");
    expect_file![path].assert_eq(&log);
}

/// The reset method zeroes the statics and re-runs the copy of `<clinit>`.
#[test]
fn reset_restores_static_state() {
    let (dir, _) = instrumented();
    let out = common::run_java(&[dir, common::runtime_dir()], "ResetCheck", None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    expect_test::expect![[r#"
        before created=2 names=[delta, alpha, charlie, bravo, echo]
        reset modifiers=public static NAMES final=false
        after created=0 names=[delta, alpha, charlie, bravo] fresh=true CONSTANT=17
    "#]]
    .assert_eq(&text);
}

/// The harness is only worth something if it fails on bad code: a `pop` on an empty stack at the
/// start of `compareAll` must be reported as a VerifyError (and nothing else).
#[test]
fn verify_all_reports_a_verify_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bytes = std::fs::read(original_dir().join("behaviour/Compares.class")).expect("class");
    let mut cf = classfile::ClassFile::parse(&bytes).expect("parse");
    let cp = cf.constant_pool.clone();
    let m = cf.methods.iter_mut().find(|m| m.name(&cp).as_deref() == Some("compareAll")).expect("method");
    let pos =
        m.attributes.iter().position(|a| cp.utf8(a.name_index).as_deref() == Some("Code")).expect("code");
    let mut body = bytecode::decode(&classfile::Code::parse(&m.attributes[pos].info).expect("code"), &cp)
        .expect("decode");
    body.insert_before(vec![(InsnIdx(0), vec![Insn::simple(Opcode::POP)])]).expect("insert");
    m.attributes[pos].info = bytecode::encode(&body, &cp).expect("encode").0.to_bytes();
    std::fs::create_dir_all(dir.path().join("behaviour")).expect("mkdir");
    std::fs::write(dir.path().join("behaviour/Compares.class"), cf.to_bytes()).expect("write");
    let v = common::verify_all(dir.path(), &[]);
    assert_eq!((v.classes, v.ok), (1, 0), "{}", v.summary);
    assert_eq!(v.failures.len(), 1);
    assert!(v.failures[0].starts_with("VerifyError behaviour.Compares: "), "{}", v.failures[0]);
}

/// With no probes, no guards and no reset, every method is decoded and encoded back: the class
/// bytes are those of the original.
#[test]
fn none_reproduces_the_original_bytes() {
    for entry in std::fs::read_dir(original_dir().join("behaviour")).expect("dir") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("class");
        let (out, plan, report) =
            instrument::instrument_standalone(&bytes, &Options::none()).expect("instrument");
        assert_eq!(plan.n_probes(), 0);
        assert!(report.unchanged.is_empty(), "{report:?}");
        assert!(out == bytes, "{} changed", path.display());
    }
}

/// Guard redirections (rt-abi `REDIRECTS`): with the test guards, time and randomness are fixed
/// (`new Random()` gets the seed 42 through `PushArgAndRetarget`), and the file write (a
/// `CheckLastArgBefore`, and an append-mode `CheckArgUnderTopBefore`), the `mkdirs` and
/// `System.exit` (replacements) throw SecurityException.
#[test]
fn guards_redirect_escaping_calls() {
    let (dir, _) = instrumented();
    let out = common::run_java(&[dir, common::runtime_dir()], "behaviour.Guarded", None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let expected = format!(
        "millis 1600000000000\nrandom 0.5\nseeded {} {}\n{}\n{}\n{}\n{}\nstill running\n",
        java_random_first_int(42, 1000),
        java_random_first_int(7, 1000),
        "denied: suitesmith guard: writing /tmp/suitesmith-guarded-should-not-exist is not allowed in a test",
        "denied: suitesmith guard: writing /tmp/suitesmith-guarded-appended is not allowed in a test",
        "denied: suitesmith guard: File.mkdirs is not allowed in a test",
        "denied: suitesmith guard: System.exit(3) is not allowed in a test",
    );
    assert_eq!(text, expected);
    assert!(!Path::new("/tmp/suitesmith-guarded-should-not-exist").exists());
    assert!(!Path::new("/tmp/suitesmith-guarded-appended").exists());
}

/// `new java.util.Random(seed).nextInt(bound)` for a bound that is not a power of two: the LCG of
/// the `java.util.Random` documentation, so the expectation does not depend on running Java.
fn java_random_first_int(seed: i64, bound: i32) -> i32 {
    const MULT: i64 = 0x5_DEEC_E66D;
    let mut s = (seed ^ MULT) & ((1 << 48) - 1);
    loop {
        s = (s.wrapping_mul(MULT).wrapping_add(0xB)) & ((1 << 48) - 1);
        let bits = (s >> 17) as i32;
        let val = bits % bound;
        if bits - val + (bound - 1) >= 0 {
            return val;
        }
    }
}

/// `Loops.spin` starts with a loop, so its first instruction is a jump target: the entry probe
/// must run once per call while the loop head's line probe runs on every iteration.
#[test]
fn probe_log_of_a_loop_at_instruction_zero() {
    let log = probe_log("behaviour.Loops", "behaviour/Loops", "spin");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/Loops.spin.log.txt");
    expect_file![path].assert_eq(&log);
}

/// Exceptions: `Thrown` before each `athrow` with the exception's class, `Caught` at handler
/// entries, and the `finally` copies javac makes. Hand-checked against `Exceptions.nested` for
/// depth 0..3 (results 0, 1, -2, -100): depth 2 throws Oops, runs the catch-all `finally` handler
/// (which rethrows) and lands in `catch (Oops)`; depth 3 throws from the `finally`.
#[test]
fn probe_log_of_exceptions() {
    let log = probe_log("behaviour.Exceptions", "behaviour/Exceptions", "nested");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/Exceptions.nested.log.txt");
    expect_file![path].assert_eq(&log);
}
