//! Accessor selection by Eq. (1) (digest 000-001 §A2.4) against the compiled fixtures of
//! `fixtures/java/ocg/access/`: the paper's Figure 6 worked example, the setters and getters of
//! digest §A7 E1 and E3, a field nothing writes, and inherited and overridden setters. The
//! scores the digest computes by hand are the oracles, asserted exactly beside a text snapshot.

use std::path::PathBuf;

use expect_test::{Expect, expect};
use ocg::access::{self, Access, AccessConfig, Accessor, FieldSlot};
use programdb::{MethodId, ProgramDb};

fn db() -> ProgramDb {
    let paths: Vec<PathBuf> = vec![test_support::fixture_classes("ocg")];
    test_support::open_db(&paths)
}

fn field(owner: &str, name: &str, descriptor: &str) -> FieldSlot {
    FieldSlot {
        owner: format!("ocg/access/{owner}"),
        name: name.to_owned(),
        descriptor: descriptor.to_owned(),
        element: false,
    }
}

fn element(owner: &str, name: &str, descriptor: &str) -> FieldSlot {
    FieldSlot { element: true, ..field(owner, name, descriptor) }
}

/// The candidates of `access` for `slot` on an object of class `ocg/access/{class}`, checked
/// against a text snapshot (scores to three places), and returned for exact checks.
fn check(db: &ProgramDb, class: &str, slot: &FieldSlot, access: Access, expect: Expect) -> Vec<Accessor> {
    let class = format!("ocg/access/{class}");
    let res = access::accessors(db, &class, slot, access, &AccessConfig::paper());
    expect.assert_eq(&access::render(db, &res));
    res
}

/// The method `Class.name` of a candidate list, by its rendered name.
fn find<'a>(db: &ProgramDb, res: &'a [Accessor], name: &str) -> &'a Accessor {
    res.iter().find(|a| ocg::graph::method_name(db, a.method) == name).expect("candidate present")
}

fn names(db: &ProgramDb, path: &[MethodId]) -> Vec<String> {
    path.iter().map(|&m| ocg::graph::method_name(db, m)).collect()
}

fn assert_close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
}

/// How often each candidate is drawn over `n` evenly spaced values of `r` in [0, 1).
fn draws(res: &[Accessor], n: usize) -> Vec<usize> {
    let mut counts = vec![0; res.len()];
    for i in 0..n {
        let r = (i as f64 + 0.5) / n as f64;
        let chosen = access::sample(res, r).expect("a candidate");
        let k = res.iter().position(|a| a.method == chosen.method).expect("from the list");
        counts[k] += 1;
    }
    counts
}

#[test]
fn figure6_scores_match_the_worked_example() {
    let db = db();
    let slot = field("Figure6", "f", "I");
    let res = check(
        &db,
        "Figure6",
        &slot,
        Access::Set,
        expect![[r#"
            Figure6.m1 score 2.000 path Figure6.m1 > Figure6.m3 value [0] index []
            Figure6.m2 score 2.000 path Figure6.m2 > Figure6.m3 value [0] index []
            Figure6.m3 score 2.000 path Figure6.m3 value [0] index []
            Figure6.m4 score 1.000 path Figure6.m4 value [] index []
        "#]],
    );
    let scores: Vec<f64> = res.iter().map(|a| a.score).collect();
    assert_eq!(scores, [2.0, 2.0, 2.0, 1.0]);
    assert_eq!(find(&db, &res, "Figure6.m3").direct_value_param, Some(0));
    assert_eq!(find(&db, &res, "Figure6.m1").direct_value_param, Some(0));
    assert_eq!(find(&db, &res, "Figure6.m4").direct_value_param, None);

    // Every interesting path of m1: p1 = <m1,m2,m3> = 2 * (1/2 + 1 + 1) / 3 and p3 = <m1,m3> = 2.
    let paths =
        access::interesting_paths(&db, "ocg/access/Figure6", &slot, Access::Set, &AccessConfig::paper());
    let m1: Vec<_> = paths.iter().filter(|p| names(&db, &p.path[..1]) == ["Figure6.m1"]).collect();
    assert_eq!(m1.len(), 2);
    assert_eq!(names(&db, &m1[0].path), ["Figure6.m1", "Figure6.m2", "Figure6.m3"]);
    assert_eq!(m1[0].comp, [0.5, 1.0, 1.0]);
    assert_eq!(m1[0].n_v, 1);
    assert_close(m1[0].score, 5.0 / 3.0);
    assert_eq!(names(&db, &m1[1].path), ["Figure6.m1", "Figure6.m3"]);
    assert_eq!(m1[1].comp, [1.0, 1.0]);
    assert_close(m1[1].score, 2.0);
    assert_eq!(paths.len(), 5, "p1..p5 of the worked example and nothing else");
}

#[test]
fn figure6_sampling_is_proportional_to_score() {
    let db = db();
    let res = access::setters(&db, "ocg/access/Figure6", &field("Figure6", "f", "I"), &AccessConfig::paper());
    // P = 2/7, 2/7, 2/7, 1/7.
    assert_eq!(draws(&res, 700), [200, 200, 200, 100]);
    let at = |r: f64| access::sample(&res, r).map(|a| ocg::graph::method_name(&db, a.method));
    assert_eq!(at(0.0).as_deref(), Some("Figure6.m1"));
    assert_eq!(at(2.0 / 7.0 - 1e-9).as_deref(), Some("Figure6.m1"));
    assert_eq!(at(2.0 / 7.0 + 1e-9).as_deref(), Some("Figure6.m2"));
    assert_eq!(at(6.0 / 7.0 + 1e-9).as_deref(), Some("Figure6.m4"));
    // Out of range is clamped rather than refused.
    assert_eq!(at(1.0).as_deref(), Some("Figure6.m4"));
    assert_eq!(at(-3.0).as_deref(), Some("Figure6.m1"));
    assert_eq!(at(f64::NAN).as_deref(), Some("Figure6.m1"));
    assert!(access::sample(&[], 0.5).is_none());
}

#[test]
fn figure6_getter() {
    let db = db();
    let res = check(
        &db,
        "Figure6",
        &field("Figure6", "f", "I"),
        Access::Get,
        expect![[r#"
            Figure6.getF score 1.000 path Figure6.getF value [] index []
        "#]],
    );
    assert_eq!(res[0].score, 1.0);
}

#[test]
fn e1_award_num_prefers_the_setter_with_a_parameter() {
    let db = db();
    let res = check(
        &db,
        "CV",
        &field("CV", "awardNum", "I"),
        Access::Set,
        expect![[r#"
            CV.setAwardNum score 2.000 path CV.setAwardNum value [0] index []
            CV.reset score 1.000 path CV.reset value [] index []
        "#]],
    );
    assert_eq!(find(&db, &res, "CV.setAwardNum").score, 2.0);
    assert_eq!(find(&db, &res, "CV.reset").score, 1.0);
    // P = 2/3 against 1/3.
    assert_eq!(draws(&res, 300), [200, 100]);
}

#[test]
fn e1_guarded_attach_scores_one() {
    let db = db();
    let slot = field("Supervisor", "cv", "Locg/access/CV;");
    let res = check(
        &db,
        "Supervisor",
        &slot,
        Access::Set,
        expect![[r#"
            Supervisor.attach score 1.000 path Supervisor.attach value [0] index []
        "#]],
    );
    // (N_v + 1) * comp = (1 + 1) * 1/2.
    assert_eq!(res[0].score, 1.0);
    assert_eq!(res[0].direct_value_param, Some(0));
    let paths =
        access::interesting_paths(&db, "ocg/access/Supervisor", &slot, Access::Set, &AccessConfig::paper());
    assert_eq!(paths[0].comp, [0.5]);
    assert_eq!(paths[0].n_v, 1);
}

#[test]
fn e1_student_supervisor_getter_and_setter() {
    let db = db();
    let slot = field("Student", "supervisor", "Locg/access/Supervisor;");
    let res = check(
        &db,
        "Student",
        &slot,
        Access::Get,
        expect![[r#"
            Student.getSupervisor score 1.000 path Student.getSupervisor value [] index []
        "#]],
    );
    assert_eq!(res[0].score, 1.0);
    let res = check(
        &db,
        "Student",
        &slot,
        Access::Set,
        expect![[r#"
            Student.setSupervisor score 2.000 path Student.setSupervisor value [0] index []
        "#]],
    );
    assert_eq!(res[0].score, 2.0);
}

#[test]
fn e3_shelves_element_through_the_indirect_setter() {
    let db = db();
    let slot = element("Warehouse", "shelves", "[Locg/access/Shelf;");
    let res = check(
        &db,
        "Warehouse",
        &slot,
        Access::Set,
        expect![[r#"
            Warehouse.install score 2.250 path Warehouse.install > Warehouse.place value [1] index [0]
            Warehouse.clearAll score 1.000 path Warehouse.clearAll value [] index []
        "#]],
    );
    let install = find(&db, &res, "Warehouse.install");
    // comp(install) = 1, comp(place) = 2/4; N_v = 2: `slot` reaches the index, `capacity` the
    // stored `new Shelf(capacity)` (our reading; the digest's alternative 3 * 0.75).
    assert_close(install.score, 3.0 * 0.75);
    assert_eq!(install.direct_index_param, Some(0));
    assert_eq!(install.direct_value_param, None, "the stored Shelf is made, not passed");
    let clear_all = find(&db, &res, "Warehouse.clearAll");
    assert!(clear_all.score <= 1.0);
    assert_eq!(clear_all.score, 1.0);
    let paths =
        access::interesting_paths(&db, "ocg/access/Warehouse", &slot, Access::Set, &AccessConfig::paper());
    let install_path = paths.iter().find(|p| p.path.len() == 2).expect("install -> place");
    assert_eq!(install_path.comp, [1.0, 0.5]);
    assert_eq!(install_path.n_v, 2);
    // install is drawn with probability 2.25 / 3.25 >= 0.6.
    let counts = draws(&res, 1300);
    assert_eq!(counts, [900, 400]);
    assert!(counts[0] as f64 / 1300.0 >= 0.6);

    // The element getter: the index is parameter 0; the range check leaves comp = 2/4.
    let res = check(
        &db,
        "Warehouse",
        &slot,
        Access::Get,
        expect![[r#"
            Warehouse.shelf score 1.000 path Warehouse.shelf value [] index [0]
        "#]],
    );
    assert_eq!(res[0].direct_index_param, Some(0));
}

#[test]
fn a_field_nothing_writes_on_this_has_no_setter() {
    let db = db();
    // The constructor, the uncalled private rotate, the static forge and copyTo (which writes
    // another Vault) all write `secret`, none of them on `this` from a callable method.
    let slot = field("Vault", "secret", "I");
    check(&db, "Vault", &slot, Access::Set, expect![[r#""#]]);
    // open compares the field but does not return it.
    check(&db, "Vault", &slot, Access::Get, expect![[r#""#]]);
}

#[test]
fn inherited_and_overridden_setters() {
    let db = db();
    let level = field("Base", "level", "I");
    // On a Derived, setLevel is the override (which reaches Base.setLevel through super), and
    // the inherited bump dispatches to the override too.
    let res = check(
        &db,
        "Derived",
        &level,
        Access::Set,
        expect![[r#"
            Base.bump score 1.000 path Base.bump > Derived.setLevel > Base.setLevel value [] index []
            Derived.setLevel score 2.000 path Derived.setLevel > Base.setLevel value [0] index []
        "#]],
    );
    assert_eq!(find(&db, &res, "Derived.setLevel").direct_value_param, None, "l * 2 is computed");
    check(
        &db,
        "Base",
        &level,
        Access::Set,
        expect![[r#"
            Base.setLevel score 2.000 path Base.setLevel value [0] index []
            Base.bump score 1.000 path Base.bump > Base.setLevel value [] index []
        "#]],
    );
    // javac names Derived as the owner of `this.mark`; the field resolves to Base.
    check(
        &db,
        "Derived",
        &field("Base", "mark", "I"),
        Access::Set,
        expect![[r#"
            Derived.mark score 2.000 path Derived.mark value [0] index []
        "#]],
    );
}

#[test]
fn limits_and_unknown_classes() {
    let db = db();
    let slot = field("Figure6", "f", "I");
    let class = "ocg/access/Figure6";
    // Depth 1: only the direct writers m3 and m4.
    let shallow = AccessConfig { max_depth: 1, ..AccessConfig::paper() };
    let res = access::setters(&db, class, &slot, &shallow);
    assert_eq!(
        res.iter().map(|a| ocg::graph::method_name(&db, a.method)).collect::<Vec<_>>(),
        ["Figure6.m3", "Figure6.m4"]
    );
    // One candidate: the best score, ties by MethodId.
    let one = AccessConfig { max_candidates: 1, ..AccessConfig::paper() };
    let res = access::setters(&db, class, &slot, &one);
    assert_eq!(res.len(), 1);
    assert_eq!(ocg::graph::method_name(&db, res[0].method), "Figure6.m1");
    // No path budget: nothing is looked at.
    let none = AccessConfig { max_paths: 0, ..AccessConfig::paper() };
    assert!(access::setters(&db, class, &slot, &none).is_empty());
    // A class the classpath does not have.
    assert!(access::setters(&db, "ocg/access/Missing", &slot, &AccessConfig::paper()).is_empty());
    // The same question twice gives the same answer.
    let a = access::setters(&db, class, &slot, &AccessConfig::paper());
    let b = access::setters(&db, class, &slot, &AccessConfig::paper());
    assert_eq!(a, b);
}
