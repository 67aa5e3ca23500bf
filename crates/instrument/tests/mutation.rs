//! The weak-mutation probes of UOI and RC on the mutation fixture: the program
//! behaves the same instrumented (under `-Xverify:all`), and each `Value*` probe records the value
//! its load just pushed, checked against the source and `javap -c` in the log snapshot.

mod common;

use std::fmt::Write;
use std::path::Path;

use expect_test::expect_file;
use goals::ProbeId;
use instrument::Options;

/// `Values.main` prints what `scaleInt(0)`, `scaleInt(5)`, `addLong(41)`, `timesFloat(1e20f)`,
/// `half(0.0)`, `fields()`, `pick(true, 1, 2)`, `choose(false)` and `constants()` return. The
/// log keeps the value probes (`p<id> <Kind> L<line> <value>`) and the hit-only probes RC added
/// where its constants had no other probe (the arms of `choose`'s ternary).
#[test]
fn values_behave_the_same_and_record_loaded_values() {
    let original = test_support::fixture_classes("mutation");
    let dir = common::scratch_dir("mutation");
    let (plan, reports) = common::instrument_container(&original, &dir, &Options::all());
    for r in &reports {
        assert!(r.unchanged.is_empty(), "{}: {:?}", r.class, r.unchanged);
    }
    let before = common::run_java(&[&original], "mutation.Values", None);
    let trace = tempfile::NamedTempFile::new().expect("temp file");
    let after = common::run_java(&[&dir, common::runtime_dir()], "mutation.Values", Some(trace.path()));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(before.status.success(), "{}", text(&before.stderr));
    assert_eq!(text(&after.stderr), "");
    assert_eq!(text(&after.stdout), text(&before.stdout));

    let log = std::fs::read_to_string(trace.path()).expect("trace");
    let mut out = String::new();
    for event in log.lines() {
        let mut words = event.split(' ');
        let (Some(kind), Some(site)) = (words.next(), words.next()) else { continue };
        let Ok(id) = site.parse::<u32>() else { continue };
        if id as usize >= plan.n_probes() {
            continue;
        }
        let p = plan.probe(ProbeId(id));
        let hit_only_rc = kind == "line"
            && p.goals.iter().all(|&g| matches!(plan.goal(g), goals::Goal::WeakMutation { .. }));
        if !kind.starts_with("value") && !hit_only_rc {
            continue;
        }
        let method = plan.method_of(ProbeId(id)).map_or("?", |m| m.name.as_str());
        let values: Vec<&str> = words.collect();
        let _ = writeln!(
            out,
            "p{id} {:?} {method}:L{} @{} {}",
            p.kind,
            p.line.unwrap_or(0),
            p.insn,
            values.join(" ")
        );
    }
    expect_file![Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/Values.main.log.txt")].assert_eq(&out);
}
