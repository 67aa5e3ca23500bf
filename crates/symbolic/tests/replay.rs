//! Concolic replays of the `dse` fixtures: the digest's B.7 witnesses and the other subjects give
//! the values Java gives (run concretely and with every argument symbolic: shadows never change
//! a concrete result), and the path conditions of a few runs, as text.

mod common;

use expect_test::{Expect, expect};
use symbolic::{Concolic, Replay, SymConfig};

fn replay(spec: &str, symbolic: bool) -> Replay {
    let db = common::db();
    let plan = common::plan(&db);
    let (test, sym) = common::test_of(spec);
    let mut c = Concolic::new(&db, &plan, SymConfig::STANDARD);
    c.run(&test, if symbolic { &sym } else { &[] })
}

#[test]
fn concrete_results_are_javas() {
    let mut failures = Vec::new();
    for (spec, want) in common::CASES {
        for symbolic in [false, true] {
            let r = replay(spec, symbolic);
            let got = r.outcomes.last().cloned().unwrap_or_default();
            if got != *want || r.stop.is_some() {
                failures
                    .push(format!("{spec} (symbolic: {symbolic}): {got}, stop {:?}, want {want}", r.stop));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An array whose length comes from the test is counted against the replay's bound wherever it
/// is made, `Arrays.copyOf` included: a billion elements stop the replay instead of the engine
/// (which once asked for 24 GB on Guava's `Shorts.ensureCapacity` and was killed).
#[test]
fn huge_arrays_stop_the_replay() {
    for symbolic in [false, true] {
        let r = replay("dse.symbolic.Jdk.grow(I)I *1000000000", symbolic);
        let stop = r.stop.as_ref().map(ToString::to_string).unwrap_or_default();
        assert!(stop.starts_with("unsupported arrays of more than"), "symbolic {symbolic}: stop {stop:?}");
    }
}

fn check_path(spec: &str, want: Expect) {
    let r = replay(spec, true);
    let mut text = format!("outcomes: {}\n", r.outcomes.join(", "));
    text.push_str(&r.path_text());
    text.push_str(&format!(
        "stats: symbolic {}, concrete {}, pinned {}, stop {:?}\n",
        r.stats.symbolic, r.stats.concrete, r.stats.pinned, r.stop
    ));
    want.assert_eq(&text);
}

#[test]
fn path_of_magic_linear() {
    check_path(
        "dse.Magic.linear(III)I *455557 *377780 *2277792",
        expect![[r#"
        outcomes: 455557, 377780, 2277792, 3
        Branch g1901/g1900 Magic.linear@10: !((v2 + ((v0 * 3) - (v1 * 7))) != 1000003)
        Branch g1926/g1925 Magic.linear@15: !((v0 - v1) != 77777)
        Branch g1956/g1955 Magic.linear@20: !(v2 <= (v0 * 5))
        Branch g1991/g1990 Magic.linear@27: !(v2 >= ((v0 * 5) + 10))
        stats: symbolic 12, concrete 18, pinned 0, stop None
    "#]],
    );
}

#[test]
fn path_of_cas_number() {
    check_path(
        "dse.CasNumber.check(Ljava/lang/String;)I *\"7732-18-5\"",
        expect![[r#"
            outcomes: "7732-18-5", 1
            Assume -/- test.statement 0@0: ((0 <= len0) && (len0 <= 32))
            Branch g244/g243 CasNumber.check@9: !(len0 < 7)
            Branch g258/g259 CasNumber.check@12: (len0 <= 12)
            Implicit -/- CasNumber.check@19: ((len0 - 2) <u len0)
            Pin -/- CasNumber.check@19: ((len0 - 2) == 7)
            Branch g284/g283 CasNumber.check@21: !(zext32(s0[7]) != 45)
            Implicit -/- CasNumber.check@26: ((len0 - 5) <u len0)
            Pin -/- CasNumber.check@26: ((len0 - 5) == 4)
            Branch g309/g310 CasNumber.check@28: (zext32(s0[4]) == 45)
            Branch g352/g351 CasNumber.check@40: !((len0 - 3) < 0)
            Branch g376/g377 CasNumber.check@45: ((len0 - 5) != (len0 - 3))
            Implicit -/- CasNumber.check@49: ((len0 - 3) <u len0)
            Pin -/- CasNumber.check@49: ((len0 - 3) == 6)
            Branch g398/g397 CasNumber.check@53: !(zext32(s0[6]) < 48)
            Branch g412/g413 CasNumber.check@56: (zext32(s0[6]) <= 57)
            Branch g352/g351 CasNumber.check@40: !(((len0 - 3) + -1) < 0)
            Branch g376/g377 CasNumber.check@45: ((len0 - 5) != ((len0 - 3) + -1))
            Implicit -/- CasNumber.check@49: (((len0 - 3) + -1) <u len0)
            Pin -/- CasNumber.check@49: (((len0 - 3) + -1) == 5)
            Branch g398/g397 CasNumber.check@53: !(zext32(s0[5]) < 48)
            Branch g412/g413 CasNumber.check@56: (zext32(s0[5]) <= 57)
            Branch g352/g351 CasNumber.check@40: !((((len0 - 3) + -1) + -1) < 0)
            Branch g377/g376 CasNumber.check@45: !((len0 - 5) != (((len0 - 3) + -1) + -1))
            Branch g352/g351 CasNumber.check@40: !(((((len0 - 3) + -1) + -1) + -1) < 0)
            Branch g376/g377 CasNumber.check@45: ((len0 - 5) != ((((len0 - 3) + -1) + -1) + -1))
            Implicit -/- CasNumber.check@49: (((((len0 - 3) + -1) + -1) + -1) <u len0)
            Pin -/- CasNumber.check@49: (((((len0 - 3) + -1) + -1) + -1) == 3)
            Branch g398/g397 CasNumber.check@53: !(zext32(s0[3]) < 48)
            Branch g412/g413 CasNumber.check@56: (zext32(s0[3]) <= 57)
            Branch g352/g351 CasNumber.check@40: !((((((len0 - 3) + -1) + -1) + -1) + -1) < 0)
            Branch g376/g377 CasNumber.check@45: ((len0 - 5) != (((((len0 - 3) + -1) + -1) + -1) + -1))
            Implicit -/- CasNumber.check@49: ((((((len0 - 3) + -1) + -1) + -1) + -1) <u len0)
            Pin -/- CasNumber.check@49: ((((((len0 - 3) + -1) + -1) + -1) + -1) == 2)
            Branch g398/g397 CasNumber.check@53: !(zext32(s0[2]) < 48)
            Branch g412/g413 CasNumber.check@56: (zext32(s0[2]) <= 57)
            Branch g352/g351 CasNumber.check@40: !(((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) < 0)
            Branch g376/g377 CasNumber.check@45: ((len0 - 5) != ((((((len0 - 3) + -1) + -1) + -1) + -1) + -1))
            Implicit -/- CasNumber.check@49: (((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) <u len0)
            Pin -/- CasNumber.check@49: (((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) == 1)
            Branch g398/g397 CasNumber.check@53: !(zext32(s0[1]) < 48)
            Branch g412/g413 CasNumber.check@56: (zext32(s0[1]) <= 57)
            Branch g352/g351 CasNumber.check@40: !((((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1) < 0)
            Branch g376/g377 CasNumber.check@45: ((len0 - 5) != (((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1))
            Implicit -/- CasNumber.check@49: ((((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1) <u len0)
            Pin -/- CasNumber.check@49: ((((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1) == 0)
            Branch g398/g397 CasNumber.check@53: !(zext32(s0[0]) < 48)
            Branch g412/g413 CasNumber.check@56: (zext32(s0[0]) <= 57)
            Branch g351/g352 CasNumber.check@40: (((((((((len0 - 3) + -1) + -1) + -1) + -1) + -1) + -1) + -1) < 0)
            Implicit -/- CasNumber.check@74: ((len0 - 1) <u len0)
            Pin -/- CasNumber.check@74: ((len0 - 1) == 8)
            Branch g482/g481 CasNumber.check@78: !(zext32(s0[8]) < 48)
            Branch g496/g497 CasNumber.check@81: (zext32(s0[8]) <= 57)
            Branch g539/g538 CasNumber.check@90: !((((((((zext32(s0[6]) - 48) + ((zext32(s0[5]) - 48) * 2)) + ((zext32(s0[3]) - 48) * 3)) + ((zext32(s0[2]) - 48) * 4)) + ((zext32(s0[1]) - 48) * 5)) + ((zext32(s0[0]) - 48) * 6)) % 10) != (zext32(s0[8]) - 48))
            stats: symbolic 82, concrete 152, pinned 9, stop None
        "#]],
    );
}

#[test]
fn path_of_keyword_switch() {
    check_path(
        "dse.Keyword.kind(Ljava/lang/String;)I *\"xxalpha\"",
        expect![[r#"
            outcomes: "xxalpha", 1
            Assume -/- test.statement 0@0: ((0 <= len0) && (len0 <= 32))
            Branch g1476/g1477 Keyword.kind@5: (len0 >= 2)
            Pin -/- Keyword.kind@10: (2 <= len0)
            Switch g1503/- Keyword.kind@16: ((((len0 - 2) == 30) ? (zext32(s0[31]) + ((zext32(s0[30]) + ((zext32(s0[29]) + ((zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 29) ? (zext32(s0[30]) + ((zext32(s0[29]) + ((zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 28) ? (zext32(s0[29]) + ((zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 27) ? (zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 26) ? (zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 25) ? (zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(…
                case g1504: ((((len0 - 2) == 30) ? (zext32(s0[31]) + ((zext32(s0[30]) + ((zext32(s0[29]) + ((zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 29) ? (zext32(s0[30]) + ((zext32(s0[29]) + ((zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 28) ? (zext32(s0[29]) + ((zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 27) ? (zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 26) ? (zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 25) ? (zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(…
                case g1505: !(((((len0 - 2) == 30) ? (zext32(s0[31]) + ((zext32(s0[30]) + ((zext32(s0[29]) + ((zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 29) ? (zext32(s0[30]) + ((zext32(s0[29]) + ((zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 28) ? (zext32(s0[29]) + ((zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 27) ? (zext32(s0[28]) + ((zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 26) ? (zext32(s0[27]) + ((zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext32(s0[10]) + ((zext32(s0[9]) + ((zext32(s0[8]) + ((zext32(s0[7]) + ((zext32(s0[6]) + ((zext32(s0[5]) + ((zext32(s0[4]) + ((zext32(s0[3]) + (zext32(s0[2]) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) * 31)) : (((len0 - 2) == 25) ? (zext32(s0[26]) + ((zext32(s0[25]) + ((zext32(s0[24]) + ((zext32(s0[23]) + ((zext32(s0[22]) + ((zext32(s0[21]) + ((zext32(s0[20]) + ((zext32(s0[19]) + ((zext32(s0[18]) + ((zext32(s0[17]) + ((zext32(s0[16]) + ((zext32(s0[15]) + ((zext32(s0[14]) + ((zext32(s0[13]) + ((zext32(s0[12]) + ((zext32(s0[11]) + ((zext3…
            Branch g1507/g1506 Keyword.kind@20: (((((((len0 - 2) == 5) && ((0 <u (len0 - 2)) => (s0[2] == (char)97))) && ((1 <u (len0 - 2)) => (s0[3] == (char)108))) && ((2 <u (len0 - 2)) => (s0[4] == (char)112))) && ((3 <u (len0 - 2)) => (s0[5] == (char)104))) && ((4 <u (len0 - 2)) => (s0[6] == (char)97)))
            stats: symbolic 7, concrete 19, pinned 1, stop None
        "#]],
    );
}

#[test]
fn path_of_floats_and_parse() {
    check_path(
        "dse.Magic.floats(DD)I *13.5d *-1.5d",
        expect![[r#"
        outcomes: 13.5, -1.5, 2
        Branch g2047/g2046 Magic.floats@7: (((v0 * 3.0) + 1.5) == 42.0)
        Branch g2072/g2071 Magic.floats@13: ((v1 * v1) == 2.25)
        Branch g2089/g2088 Magic.floats@17: (v1 < 0.0)
        stats: symbolic 9, concrete 11, pinned 0, stop None
    "#]],
    );
    check_path(
        "dse.ParseNum.parse(Ljava/lang/String;)I *\"5711\"",
        expect![[r#"
            outcomes: "5711", 2
            Assume -/- test.statement 0@0: ((0 <= len0) && (len0 <= 32))
            Implicit -/- ParseNum.parse@1: !(s0[0] == (char)45)
            Implicit -/- ParseNum.parse@1: !(s0[0] == (char)43)
            Pin -/- ParseNum.parse@1: (len0 > 0)
            Pin -/- ParseNum.parse@1: (len0 <= 9)
            Implicit -/- ParseNum.parse@1: !((char)9 <u (s0[0] - (char)48))
            Implicit -/- ParseNum.parse@1: !((char)9 <u (s0[1] - (char)48))
            Implicit -/- ParseNum.parse@1: !((char)9 <u (s0[2] - (char)48))
            Implicit -/- ParseNum.parse@1: !((char)9 <u (s0[3] - (char)48))
            Pin -/- ParseNum.parse@1: ((4 <u len0) => !((char)9 <u (s0[4] - (char)48)))
            Pin -/- ParseNum.parse@1: ((5 <u len0) => !((char)9 <u (s0[5] - (char)48)))
            Pin -/- ParseNum.parse@1: ((6 <u len0) => !((char)9 <u (s0[6] - (char)48)))
            Pin -/- ParseNum.parse@1: ((7 <u len0) => !((char)9 <u (s0[7] - (char)48)))
            Pin -/- ParseNum.parse@1: ((8 <u len0) => !((char)9 <u (s0[8] - (char)48)))
            Branch g2316/g2315 ParseNum.parse@11: !(((((8 <u len0) ? zext32((s0[8] - (char)48)) : 0) + ((((7 <u len0) ? zext32((s0[7] - (char)48)) : 0) + ((((6 <u len0) ? zext32((s0[6] - (char)48)) : 0) + ((((5 <u len0) ? zext32((s0[5] - (char)48)) : 0) + ((((4 <u len0) ? zext32((s0[4] - (char)48)) : 0) + ((((3 <u len0) ? zext32((s0[3] - (char)48)) : 0) + ((((2 <u len0) ? zext32((s0[2] - (char)48)) : 0) + ((((1 <u len0) ? zext32((s0[1] - (char)48)) : 0) + (((0 <u len0) ? zext32((s0[0] - (char)48)) : 0) * ((1 <u len0) ? 10 : 1))) * ((2 <u len0) ? 10 : 1))) * ((3 <u len0) ? 10 : 1))) * ((4 <u len0) ? 10 : 1))) * ((5 <u len0) ? 10 : 1))) * ((6 <u len0) ? 10 : 1))) * ((7 <u len0) ? 10 : 1))) * ((8 <u len0) ? 10 : 1))) * 3) != 17133)
            stats: symbolic 3, concrete 8, pinned 7, stop None
        "#]],
    );
}

/// javac's constant-push diamonds are merged: the value at each join is an `ite` of the jump's
/// condition (`x > 10 ? 1 : 0` as the boolean `x > 10` itself), the jumps are `merged` entries,
/// and the later branches on `big` and `far` state the compares, not constants (without the merge
/// they were concrete and had no entry).
#[test]
fn path_of_merged_diamonds() {
    check_path(
        "dse.symbolic.Flow.merged(IIJ)I *3 *5 *0L",
        expect![[r#"
        outcomes: 3, 5, 0L, 107
        Branch g3074/g3075 Flow.merged@2 merged: (v0 <= 10)
        Branch g3090/g3091 Flow.merged@8 merged: (v1 >= 0)
        Branch g3116/g3117 Flow.merged@16 merged: (v2 <= 100L)
        Branch g3142/g3141 Flow.merged@25: !(v1 != 5)
        Branch g3153/g3154 Flow.merged@28: (v0 <= 10)
        Branch g3165/g3166 Flow.merged@31: (v2 <= 100L)
        stats: symbolic 8, concrete 19, pinned 0, stop None
    "#]],
    );
}

/// A loop of concatenations onto a string of symbolic length runs to its end with expressions
/// that grow with the rounds, not with their square (`strings::MAX_CONCAT_NODES`), and far
/// below the replay's bound on nodes (`interp::MAX_EXPR_NODES`).
#[test]
fn concatenation_loops_stay_linear() {
    for symbolic in [false, true] {
        let r = replay("dse.symbolic.Jdk.appendLoop(Ljava/lang/String;I)I *\"ab\" *3000", symbolic);
        assert_eq!(r.stop, None, "symbolic {symbolic}");
        assert_eq!(r.outcomes.last().map(String::as_str), Some("1"), "symbolic {symbolic}");
        assert!(r.arena.len() < 200_000, "symbolic {symbolic}: {} expression nodes", r.arena.len());
    }
}

/// What a stub does that the interpreter does not reproduce stops the replay: the simple name
/// is read from the class file the worker generates.
#[test]
fn unmodelled_stub_uses_stop() {
    let spec = "stub dse.types.Counter next()I label()Ljava/lang/String; ; \
                dse.types.Uses.simple(Ldse/types/Counter;)Ljava/lang/String; $";
    let stop = format!("{:?}", replay(spec, true).stop);
    assert!(stop.contains("Class.getSimpleName of a stub class"), "{spec}: stop {stop}");
}

/// A stub's answer keeps the shadow of the variable it is: the branch on it is the input's.
#[test]
fn path_through_a_stub_answer() {
    check_path(
        "stub dse.types.Counter next()I label()Ljava/lang/String;=*\"go\" ; \
         dse.types.Uses.label(Ldse/types/Counter;)I $",
        expect![[r#"
            outcomes: "go", dse.types.Counter$SuitesmithStub, 1
            Assume -/- test.statement 0@0: ((0 <= len0) && (len0 <= 32))
            Branch g7317/g7316 Uses.label@10: (((len0 == 2) && ((0 <u len0) => (s0[0] == (char)103))) && ((1 <u len0) => (s0[1] == (char)111)))
            stats: symbolic 2, concrete 9, pinned 0, stop None
        "#]],
    );
}
