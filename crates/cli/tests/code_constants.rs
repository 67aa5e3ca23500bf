//! `generate --code-constants on`: the static pool also holds the numbers the class's methods push
//! (`bipush`, `sipush`, `iconst`, ...), as EvoSuite's does. On `constants.Thresholds`, whose first
//! branch needs `5_000 <= v <= 5_010` (two `sipush`), every branch is covered within 3,000
//! evaluations with the switch, and without it the band stays out of reach (a value far from the
//! random range and from every constant-pool number); report.json says which was used, and the
//! files are the same bytes with one worker and two. Both runs leave DSE (on by default) off: it
//! solves the band too, and this test is about the pool alone.

mod common;

#[test]
fn pushed_numbers_reach_a_band_the_constant_pool_does_not_hold() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let on = common::generate_fixture(
        "constants",
        "constants.Thresholds",
        &tmp.path().join("on"),
        &common::pinned(&["--code-constants", "on", "--dse", "off"]),
    );
    assert_eq!(common::uncovered_branches(&on), Vec::<String>::new());
    assert_eq!(on["configuration"]["code_constants"], true);
    assert_eq!(on["classes"][0]["verification"]["verified"], true, "{}", on["classes"][0]["verification"]);

    let off = common::generate_fixture(
        "constants",
        "constants.Thresholds",
        &tmp.path().join("off"),
        &common::pinned(&["--dse", "off"]),
    );
    assert_eq!(off["configuration"]["code_constants"], false);
    assert_eq!(common::uncovered_branches(&off), ["branch p9 not-taken (constants/Thresholds:10)"]);
}

#[test]
fn same_files_with_one_and_two_workers() {
    let [one, two] = common::written_with_one_and_two_workers(
        "constants",
        "constants.Thresholds",
        &common::pinned(&["--code-constants", "on"]),
    );
    assert!(!one.is_empty());
    assert_eq!(one, two);
}
