//! The flag fitness on hand-built specs and traces, checked against values computed by hand: the
//! digest's worked examples where it has them (Eq. 3 on Table 1's distances, the normalised
//! 0.544, Eq. 1's 2.5), Listing 5's call-site separation, the cascades of F3 (scenario 2 through a
//! nested flag branch) and F4 (scenario 1, a forwarded flag), the recursion cap and the memo.
//! Instruction indices in the specs are those of the fixtures' bytecode where a fixture exists
//! (`test_data/*.txt`), else arbitrary.

use std::collections::BTreeMap;

use bytecode::InsnIdx;
use flags::fitness::{
    Dep, Distances, Evaluator, FitnessConfig, FlagBranchSpec, FlagObjective, FlagSpecs, FlagTrace, Frame,
    Invocation, MethodKey, MethodSpec, Required, case_distance, flag_fitness, harmonic_mean, normalize,
};

const CONFIG: FitnessConfig = FitnessConfig { max_depth: 5 };

fn at(i: u32) -> InsnIdx {
    InsnIdx(i)
}

fn dist(taken: f64, not_taken: f64) -> Distances {
    Distances { taken, not_taken }
}

fn frame(call: u32, occurrence: u32, callee: u32) -> Frame {
    Frame { call: at(call), occurrence, callee: MethodKey(callee) }
}

fn close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
}

fn spec(
    required_false: Vec<Required>,
    required_true: Vec<Required>,
    deps: &[(u32, &[(u32, bool)])],
) -> MethodSpec {
    MethodSpec {
        required: [required_false, required_true],
        deps: deps
            .iter()
            .map(|(n, ds)| (at(*n), ds.iter().map(|&(insn, taken)| Dep { insn: at(insn), taken }).collect()))
            .collect(),
        flag_branches: BTreeMap::new(),
        switches: BTreeMap::new(),
    }
}

#[test]
fn eq3_harmonic_mean_on_the_digest_numbers() {
    // Digest §B2.6: 2 / (1/0.99 + 1/1.5) = 1.193; with 1.99 as well, 1.377; normalised, 0.544.
    let two = harmonic_mean(&[0.99, 1.5]).expect("values");
    assert_eq!(format!("{two:.3}"), "1.193");
    assert_eq!(format!("{:.3}", normalize(two)), "0.544");
    let three = harmonic_mean(&[0.99, 1.5, 1.99]).expect("values");
    assert_eq!(format!("{three:.3}"), "1.377");
    // The zero short-circuit, a single value, no value.
    assert_eq!(harmonic_mean(&[0.0, 7.0]), Some(0.0));
    assert_eq!(harmonic_mean(&[3.0]), Some(3.0));
    assert_eq!(harmonic_mean(&[]), None);
    // The numerator k: ten equal iterations are no closer than one (numerator 1 would give 0.3).
    close(harmonic_mean(&[3.0; 10]).expect("values"), 3.0);
}

/// F1's `checkValue` with `keys = [0, 1], value = 0` (paper Table 1). Nodes: the jump of
/// `keys[index] == 0` at 16 (taken: towards node 5 of the paper), of `value >= 2^index + 100` at
/// 21 (taken: towards node 5) and of `keys[index] == key` at 30 (taken: `return true`). Node 30
/// depends on 16 taken or 21 taken; node 21 on 16 not taken.
fn check_value_spec() -> FlagSpecs {
    let s = spec(
        vec![],
        vec![Required::Branch { insn: at(30), taken: true }],
        &[(16, &[]), (21, &[(16, false)]), (30, &[(16, true), (21, true)])],
    );
    FlagSpecs { methods: BTreeMap::from([(MethodKey(0), s)]) }
}

#[test]
fn table1_two_iterations_of_check_value() {
    let specs = check_value_spec();
    let trace = FlagTrace::new(vec![
        // Iteration 1: keys[0] == 0 holds, node 30 runs with |0 - hash(0)| = 100.
        Invocation {
            keys: Vec::new(),
            context: vec![frame(17, 0, 0)],
            branches: vec![(at(16), dist(0.0, 1.0)), (at(30), dist(100.0, 0.0))],
        },
        // Iteration 2: keys[1] == 0 fails by 1, value >= 2^1 + 100 fails by 101: node 30 not reached.
        Invocation {
            keys: Vec::new(),
            context: vec![frame(17, 1, 0)],
            branches: vec![(at(16), dist(1.0, 0.0)), (at(21), dist(101.0, 0.0))],
        },
    ]);
    let mut ev = Evaluator::new(&specs, &trace, CONFIG);
    let r = Required::Branch { insn: at(30), taken: true };
    let d1 = ev.branch_fitness_r(trace.children(&[], at(17))[0], &r);
    let d2 = ev.branch_fitness_r(trace.children(&[], at(17))[1], &r);
    close(d1, 100.0 / 101.0); // Table 1: 0.99
    close(d2, 1.5); // Table 1: the smaller of 1 + 1/2 and 1 + 101/102
    let expected = normalize(2.0 / (101.0 / 100.0 + 1.0 / 1.5));
    let got =
        flag_fitness(&specs, &trace, FlagObjective { call: at(17), needs: true }, CONFIG).expect("invoked");
    close(got, expected);
    assert_eq!(format!("{got:.3}"), "0.544");
    // Eq. 2 (the minimum) would have stayed at 0.99 whatever iteration 2 did; Eq. 3 moves with it.
    let closer = FlagTrace::new(vec![
        Invocation {
            keys: Vec::new(),
            context: vec![frame(17, 0, 0)],
            branches: vec![(at(16), dist(0.0, 1.0)), (at(30), dist(100.0, 0.0))],
        },
        Invocation {
            keys: Vec::new(),
            context: vec![frame(17, 1, 0)],
            branches: vec![(at(16), dist(1.0, 0.0)), (at(21), dist(0.0, 1.0)), (at(30), dist(3.0, 0.0))],
        },
    ]);
    let better =
        flag_fitness(&specs, &closer, FlagObjective { call: at(17), needs: true }, CONFIG).expect("invoked");
    close(better, normalize(2.0 / (101.0 / 100.0 + 4.0 / 3.0)));
    assert!(better < got);
}

#[test]
fn eq1_approach_level_two_and_a_half() {
    // Digest §B2.2: approach level 2 and distance 1 at the divergence point give 2 + 1/2 = 2.5.
    let s = spec(
        vec![],
        vec![Required::Branch { insn: at(9), taken: false }],
        &[(9, &[(5, true)]), (5, &[(2, false)]), (2, &[])],
    );
    let specs = FlagSpecs { methods: BTreeMap::from([(MethodKey(3), s)]) };
    let trace = FlagTrace::new(vec![Invocation {
        keys: Vec::new(),
        context: vec![frame(4, 0, 3)],
        branches: vec![(at(2), dist(0.0, 1.0))],
    }]);
    let mut ev = Evaluator::new(&specs, &trace, CONFIG);
    close(ev.branch_fitness_r(0, &Required::Branch { insn: at(9), taken: false }), 2.5);
    close(
        flag_fitness(&specs, &trace, FlagObjective { call: at(4), needs: true }, CONFIG).expect("invoked"),
        2.5 / 3.5,
    );
}

/// `LoopFlag.contains` returns `false` from a store before the loop (no decision): when it
/// returned true anyway, that path measures nothing and counts as K, so alone it gives the flat
/// norm(K) = 0.5, and beside a measured branch it only weighs in Eq. 3.
#[test]
fn a_path_without_decision_counts_as_k() {
    let s = spec(vec![Required::Always], vec![], &[(12, &[])]);
    let specs = FlagSpecs { methods: BTreeMap::from([(MethodKey(0), s)]) };
    let trace = FlagTrace::new(vec![Invocation {
        keys: Vec::new(),
        context: vec![frame(6, 0, 0)],
        branches: vec![(at(12), dist(0.0, 3.0))],
    }]);
    let objective = FlagObjective { call: at(6), needs: false };
    close(flag_fitness(&specs, &trace, objective, CONFIG).expect("invoked"), 0.5);
    let s =
        spec(vec![Required::Always, Required::Branch { insn: at(12), taken: false }], vec![], &[(12, &[])]);
    let specs = FlagSpecs { methods: BTreeMap::from([(MethodKey(0), s)]) };
    let expected = normalize(harmonic_mean(&[1.0, normalize(3.0)]).expect("values"));
    close(flag_fitness(&specs, &trace, objective, CONFIG).expect("invoked"), expected);
}

/// `TwoSites.example(0)` (paper Listing 5): `isFlag(0)` at call site 1 (@1) takes `x < 1`;
/// `isFlag(2)` at call site 2 (@9) does not. In `isFlag`, the jump @2 is `if_icmpge` (taken:
/// `x >= 1`, `return false`).
#[test]
fn listing5_call_sites_are_kept_apart() {
    let s = spec(
        vec![Required::Branch { insn: at(2), taken: true }],
        vec![Required::Branch { insn: at(2), taken: false }],
        &[(2, &[])],
    );
    let specs = FlagSpecs { methods: BTreeMap::from([(MethodKey(0), s)]) };
    let trace = FlagTrace::new(vec![
        // x = 0: x < 1 holds; the taken outcome (x >= 1) is 1 - 0 + K = 2 away.
        Invocation {
            keys: Vec::new(),
            context: vec![frame(1, 0, 0)],
            branches: vec![(at(2), dist(2.0, 0.0))],
        },
        // x = 2: x < 1 fails by 2 - 1 + K = 2.
        Invocation {
            keys: Vec::new(),
            context: vec![frame(9, 0, 0)],
            branches: vec![(at(2), dist(0.0, 2.0))],
        },
    ]);
    let site1 = flag_fitness(&specs, &trace, FlagObjective { call: at(1), needs: true }, CONFIG);
    let site2 = flag_fitness(&specs, &trace, FlagObjective { call: at(9), needs: true }, CONFIG);
    assert_eq!(site1, Some(0.0));
    // Not 0, although the same callee branch was covered from call site 1: norm(norm(2)) = 0.4.
    close(site2.expect("invoked"), normalize(normalize(2.0)));
    close(site2.expect("invoked"), 0.4);
    // A site the test never reached has no recovered value (the flat distance stays).
    assert_eq!(flag_fitness(&specs, &trace, FlagObjective { call: at(30), needs: true }, CONFIG), None);
}

/// F3: `scan` calls `isValid` (key 0) at @13 once per element; `isValid` tests `hasChecksum`
/// (key 1, call @3, jump @4 `ifeq`) then `notReserved` (key 2, call @7, jump @8 `ifeq`) and
/// returns true along @8 not taken, which depends on @4 not taken. `hasChecksum` returns true
/// along @10 (`c == 4242`, `if_icmpne`) not taken.
fn checksum_specs() -> FlagSpecs {
    let mut is_valid = spec(
        vec![Required::Branch { insn: at(4), taken: true }, Required::Branch { insn: at(8), taken: true }],
        vec![Required::Branch { insn: at(8), taken: false }],
        &[(3, &[]), (4, &[]), (7, &[(4, false)]), (8, &[(4, false)])],
    );
    is_valid.flag_branches.insert(at(4), FlagBranchSpec { call: at(3), taken_needs: false });
    is_valid.flag_branches.insert(at(8), FlagBranchSpec { call: at(7), taken_needs: false });
    let has_checksum = spec(
        vec![Required::Branch { insn: at(10), taken: true }],
        vec![Required::Branch { insn: at(10), taken: false }],
        &[(10, &[])],
    );
    let not_reserved = spec(
        vec![Required::Branch { insn: at(1), taken: true }, Required::Branch { insn: at(4), taken: false }],
        vec![Required::Branch { insn: at(4), taken: true }],
        &[(1, &[]), (4, &[(1, false)])],
    );
    FlagSpecs {
        methods: BTreeMap::from([
            (MethodKey(0), is_valid),
            (MethodKey(1), has_checksum),
            (MethodKey(2), not_reserved),
        ]),
    }
}

/// One `isValid` invocation per element whose `hasChecksum` misses 4242 by `miss`.
fn scan_trace(misses: &[f64]) -> FlagTrace {
    let mut invs = Vec::new();
    for (i, &miss) in misses.iter().enumerate() {
        let outer = frame(13, i as u32, 0);
        invs.push(Invocation {
            keys: Vec::new(),
            context: vec![outer],
            branches: vec![(at(4), dist(0.0, 1.0))],
        });
        invs.push(Invocation {
            keys: Vec::new(),
            context: vec![outer, frame(3, 0, 1)],
            branches: vec![(at(10), dist(0.0, miss))],
        });
    }
    FlagTrace::new(invs)
}

#[test]
fn f3_cascade_through_a_flag_branch_in_a_loop() {
    let specs = checksum_specs();
    let objective = FlagObjective { call: at(13), needs: true };
    let got = flag_fitness(&specs, &scan_trace(&[100.0, 300.0]), objective, CONFIG).expect("invoked");
    // Per iteration: @8 not reached, its dependence @4 ran with the wrong outcome and is a flag
    // branch: 1 + branch_fitness_if(hasChecksum == true) = 1 + norm(norm(miss)).
    let per_iter = |miss: f64| 1.0 + normalize(normalize(miss));
    let expected = normalize(2.0 / (1.0 / per_iter(100.0) + 1.0 / per_iter(300.0)));
    close(got, expected);
    // The gradient the flat 0/1 flag lacks: a closer checksum in either iteration is better.
    let closer = flag_fitness(&specs, &scan_trace(&[100.0, 5.0]), objective, CONFIG).expect("invoked");
    assert!(closer < got, "{closer} < {got}");
    // An iteration where isValid returned true makes the flag branch covered: 0.
    let invs = vec![
        Invocation {
            keys: Vec::new(),
            context: vec![frame(13, 0, 0)],
            branches: vec![(at(4), dist(1.0, 0.0)), (at(8), dist(1.0, 0.0))],
        },
        Invocation {
            keys: Vec::new(),
            context: vec![frame(13, 1, 0)],
            branches: vec![(at(4), dist(0.0, 1.0))],
        },
    ];
    assert_eq!(flag_fitness(&specs, &FlagTrace::new(invs), objective, CONFIG), Some(0.0));
}

/// F4: `open` calls `authorized` (key 0) at @3, which forwards `matchesPin` (key 1, call @9);
/// `matchesPin` returns true along @8 (`if_icmpne`) not taken.
#[test]
fn f4_forwarded_flag_scenario_1() {
    let authorized = spec(
        vec![Required::Call { call: at(9), needs: false }],
        vec![Required::Call { call: at(9), needs: true }],
        &[(9, &[])],
    );
    let matches_pin = spec(
        vec![Required::Branch { insn: at(8), taken: true }],
        vec![Required::Branch { insn: at(8), taken: false }],
        &[(8, &[])],
    );
    let specs =
        FlagSpecs { methods: BTreeMap::from([(MethodKey(0), authorized), (MethodKey(1), matches_pin)]) };
    let trace = |miss: f64| {
        FlagTrace::new(vec![
            Invocation { keys: Vec::new(), context: vec![frame(3, 0, 0)], branches: vec![] },
            Invocation {
                keys: Vec::new(),
                context: vec![frame(3, 0, 0), frame(9, 0, 1)],
                branches: vec![(at(8), dist(0.0, miss))],
            },
        ])
    };
    let objective = FlagObjective { call: at(3), needs: true };
    // Each level of Algorithm 1 normalises once: norm(norm(norm(miss))).
    let got = flag_fitness(&specs, &trace(1000.0), objective, CONFIG).expect("invoked");
    close(got, normalize(normalize(normalize(1000.0))));
    let nearer = flag_fitness(&specs, &trace(10.0), objective, CONFIG).expect("invoked");
    assert!(nearer < got);
    // The forwarded call was never made (authorized threw before it): the fallback of a node
    // with no control dependence, 0 + 1, normalised once: 0.5, worse than any call made (< 1/3).
    let no_call = FlagTrace::new(vec![Invocation {
        keys: Vec::new(),
        context: vec![frame(3, 0, 0)],
        branches: vec![],
    }]);
    close(flag_fitness(&specs, &no_call, objective, CONFIG).expect("invoked"), 0.5);
}

/// `isEven(n)` forwards `isOdd(n - 1)`, which forwards `isEven(n - 2)`, ...: a chain deeper than
/// the cap. Each key forwards call @11 and returns true along @1 not taken.
#[test]
fn recursion_cap_and_memo() {
    let mut methods = BTreeMap::new();
    let s = spec(
        vec![],
        vec![Required::Branch { insn: at(1), taken: false }, Required::Call { call: at(11), needs: true }],
        &[(1, &[]), (11, &[(1, true)])],
    );
    methods.insert(MethodKey(0), s);
    let specs = FlagSpecs { methods };
    let mut invs = Vec::new();
    let mut context = vec![frame(2, 0, 0)];
    for _ in 0..8 {
        invs.push(Invocation {
            keys: Vec::new(),
            context: context.clone(),
            branches: vec![(at(1), dist(0.0, 1.0))],
        });
        context.push(frame(11, 0, 0));
    }
    let trace = FlagTrace::new(invs);
    let objective = FlagObjective { call: at(2), needs: true };
    let capped = flag_fitness(&specs, &trace, objective, FitnessConfig { max_depth: 2 }).expect("invoked");
    // Level 2 is past the cap (1.0 for its call); level 1: the branch norm(1) = 0.5 and the call
    // 1.0 give norm(hm(0.5, 1.0)); level 0 the same with that value for its call.
    let level1 = normalize(harmonic_mean(&[0.5, 1.0]).expect("values"));
    close(capped, normalize(harmonic_mean(&[0.5, level1]).expect("values")));
    let mut ev = Evaluator::new(&specs, &trace, FitnessConfig { max_depth: 5 });
    let first = ev.branch_fitness_if(&[], at(2), true);
    let computed = ev.computed();
    assert_eq!(computed, 5, "one result per context level up to the cap");
    assert_eq!(ev.branch_fitness_if(&[], at(2), true), first);
    assert_eq!(ev.computed(), computed, "the second question is answered from the memo");
}

/// `Guards.isVowel(c)`: a `lookupswitch` at 1 whose cases 'a', 'e', 'i', 'o', 'u' return true and
/// whose default returns false (our extension: `Required::Case`, docs/flags.md "Switches").
#[test]
fn switch_cases_give_the_case_distance() {
    const VOWELS: [i32; 5] = [97, 101, 105, 111, 117];
    let mut s = spec(
        vec![Required::Case { insn: at(1), key: None }],
        VOWELS.iter().map(|&k| Required::Case { insn: at(1), key: Some(k) }).collect(),
        &[(1, &[])],
    );
    s.switches.insert(at(1), VOWELS.to_vec());
    let specs = FlagSpecs { methods: BTreeMap::from([(MethodKey(0), s)]) };
    let trace = |keys: Vec<i32>| {
        FlagTrace::new(vec![Invocation {
            context: vec![frame(5, 0, 0)],
            branches: vec![],
            keys: keys.into_iter().map(|v| (at(1), v)).collect(),
        }])
    };
    let vowel = FlagObjective { call: at(5), needs: true };
    // On 90: |90 - k| = 7, 11, 15, 21, 27 to the five cases, each normalised, Eq. 3 over them.
    let expected = normalize(5.0 / (8.0 / 7.0 + 12.0 / 11.0 + 16.0 / 15.0 + 22.0 / 21.0 + 28.0 / 27.0));
    close(flag_fitness(&specs, &trace(vec![90]), vowel, CONFIG).expect("invoked"), expected);
    // Nearer is better; a switch run twice in one invocation keeps the nearer key; a case is 0.
    let nearer = flag_fitness(&specs, &trace(vec![96]), vowel, CONFIG).expect("invoked");
    assert!(nearer < expected);
    close(flag_fitness(&specs, &trace(vec![90, 96]), vowel, CONFIG).expect("invoked"), nearer);
    close(flag_fitness(&specs, &trace(vec![101]), vowel, CONFIG).expect("invoked"), 0.0);
    // The default: K when the key is a case (norm(1) = 0.5, normalised again: 1/3), else 0.
    let consonant = FlagObjective { call: at(5), needs: false };
    close(flag_fitness(&specs, &trace(vec![101]), consonant, CONFIG).expect("invoked"), 1.0 / 3.0);
    close(flag_fitness(&specs, &trace(vec![98]), consonant, CONFIG).expect("invoked"), 0.0);
    assert_eq!(case_distance(i32::MIN, Some(i32::MAX), &[]), f64::from(i32::MAX) - f64::from(i32::MIN));
}
