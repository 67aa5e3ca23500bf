//! From detection to the fitness's input on the fixtures: the specs `flags::spec::specs` derives
//! for the methods under test of F1–F4 and Listing 5 (snapshot), and Listing 5's separation of
//! call sites computed on specs and objectives that detection produced, with a trace laid out on
//! the real instruction indices of `TwoSites`.

use std::fmt::Write as _;

use flags::FlagConfig;
use flags::fitness::{
    Distances, FitnessConfig, FlagTrace, Frame, Invocation, Required, flag_fitness, normalize,
};
use programdb::{MethodId, ProgramDb};

mod common;

use common::{db, method};

fn render(db: &ProgramDb, m: MethodId) -> String {
    let a = flags::analyze(db, m, &FlagConfig::standard());
    let index = flags::spec::specs(db, &a);
    let mut out = format!("{}\n", flags::text::method_name(db, m));
    for (branch, taken, o) in flags::spec::objectives(&a) {
        let _ = writeln!(
            out,
            "  objective @{branch} {}: call @{} needs {}",
            if taken { "taken" } else { "not taken" },
            o.call,
            o.needs
        );
    }
    for (key, spec) in &index.specs.methods {
        let _ = writeln!(out, "  {key:?} = {}", flags::text::method_name(db, index.keys[key.0 as usize]));
        for value in [false, true] {
            let _ = writeln!(out, "    returns {value}: {:?}", spec.required[usize::from(value)]);
        }
        for (insn, deps) in &spec.deps {
            let d: Vec<String> = deps
                .iter()
                .map(|d| format!("@{} {}", d.insn, if d.taken { "taken" } else { "not taken" }))
                .collect();
            let _ = writeln!(out, "    deps @{insn}: [{}]", d.join(", "));
        }
        for (insn, fb) in &spec.flag_branches {
            let _ =
                writeln!(out, "    flag branch @{insn}: call @{} taken needs {}", fb.call, fb.taken_needs);
        }
    }
    out
}

#[test]
fn specs_of_the_digest_subjects() {
    let db = db();
    let mut out = String::new();
    for (class, name) in [
        ("flags/KeyIndex", "get"),
        ("flags/BandClassifier", "classify"),
        ("flags/ChecksumScanner", "scan"),
        ("flags/Gate", "open"),
        ("flags/TwoSites", "example"),
    ] {
        out.push_str(&render(&db, method(&db, class, name)));
    }
    expect_test::expect_file!["../test_data/specs.txt"].assert_eq(&out);
}

#[test]
fn listing5_on_detected_specs() {
    let db = db();
    let example = method(&db, "flags/TwoSites", "example");
    let a = flags::analyze(&db, example, &FlagConfig::standard());
    let index = flags::spec::specs(&db, &a);
    let is_flag = index.key(a.branches[0].targets[0]).expect("isFlag has a key");
    let objectives = flags::spec::objectives(&a);
    // The not-taken outcome of each `ifeq` (the then-branch) needs isFlag == true.
    let site = |k: usize| {
        objectives.iter().find(|(b, taken, _)| *b == a.branches[k].branch && !taken).expect("objective").2
    };
    let (first, second) = (site(0), site(1));
    assert!(first.needs && second.needs);
    // example(0): isFlag(0) at the first site, isFlag(2) at the second; `x < 1` is isFlag's one
    // jump, and returning true needs its fall-through.
    let [Required::Branch { insn: jump, taken: false }] = index.specs.methods[&is_flag].required[1][..]
    else {
        panic!("{:?}", index.specs.methods[&is_flag])
    };
    let inv = |call, d: Distances| Invocation {
        keys: Vec::new(),
        context: vec![Frame { call, occurrence: 0, callee: is_flag }],
        branches: vec![(jump, d)],
    };
    let trace = FlagTrace::new(vec![
        inv(first.call, Distances { taken: 2.0, not_taken: 0.0 }),
        inv(second.call, Distances { taken: 0.0, not_taken: 2.0 }),
    ]);
    let config = FitnessConfig { max_depth: 5 };
    assert_eq!(flag_fitness(&index.specs, &trace, first, config), Some(0.0));
    let got = flag_fitness(&index.specs, &trace, second, config).expect("invoked");
    assert!((got - normalize(normalize(2.0))).abs() < 1e-12, "{got}");
}
