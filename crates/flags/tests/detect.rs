//! Flag detection on the `flags` fixture area (digest 000-001 §B7's F1–F4 and our own classes of
//! the categories of §B1 and §B5): for each class, every method analysed as the method under test
//! (`flags::text::render`), snapshotted in `test_data/<Class>.txt` (refresh with
//! `UPDATE_EXPECT=1 cargo test -p flags`); and targeted assertions on the facts the paper names.

use std::path::Path;

use flags::{FlagConfig, PathSource, Via};
use programdb::ProgramDb;

mod common;

use common::{db, method};

fn check_class(db: &ProgramDb, class: &str) {
    let c = db.class_id(class).expect("class");
    let cp = &db.class(c).expect("parses").constant_pool;
    let mut out = String::new();
    for m in db.methods(c).collect::<Vec<_>>() {
        let name = db.member(m).and_then(|mm| mm.name(cp)).unwrap_or_default();
        if name.starts_with('<') || !matches!(db.body(m), Some(Ok(_))) {
            continue;
        }
        let a = flags::analyze(db, m, &FlagConfig::standard());
        out.push_str(&flags::text::render(db, &a));
        out.push('\n');
    }
    let simple = class.rsplit('/').next().unwrap_or(class);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(format!("{simple}.txt"));
    expect_test::expect_file![path].assert_eq(&out);
}

#[test]
fn fixture_snapshots() {
    let db = db();
    let classes: Vec<String> = db.class_ids().map(|c| db.class_name(c).to_owned()).collect();
    assert!(classes.len() >= 12, "{classes:?}");
    for class in &classes {
        check_class(&db, class);
    }
}

/// F1: `get` has two flag branches; `!checkPrecondition(..)` falls through to `return null` when
/// the flag is false; `checkPrecondition` returns false along two required paths (C1), both
/// through cascaded flag branches (C2).
#[test]
fn key_index_running_example() {
    let db = db();
    let get = method(&db, "flags/KeyIndex", "get");
    let a = flags::analyze(&db, get, &FlagConfig::standard());
    assert_eq!(a.branches.len(), 2);
    let pre = &a.branches[0];
    assert!(pre.callee.ends_with("checkPrecondition([II)Z"));
    assert!(!pre.needs(false), "the fall-through to `return null` needs checkPrecondition == false");
    let check_pre = a.flag_method(pre.targets[0]).expect("summarised");
    let falses: Vec<&Via> = check_pre
        .paths(false)
        .iter()
        .flat_map(|p| match &p.source {
            PathSource::Constant { via, .. } => via.iter(),
            _ => [].iter(),
        })
        .collect();
    assert_eq!(falses.len(), 2, "{falses:?}");
    for v in falses {
        let Via::Branch { insn, .. } = *v else { panic!("{v:?}") };
        assert!(check_pre.branch_at(insn).is_some(), "required branch {insn} is a cascaded flag branch");
    }
    assert_eq!(a.flag_methods.len(), 4, "checkPrecondition, checkArrayRange, checkValueRange, checkValue");
}

/// F4: the flag reaches `if (ok)` through a local; `authorized` forwards `matchesPin` (scenario 1).
#[test]
fn gate_forwarded_flag_through_a_local() {
    let db = db();
    let open = method(&db, "flags/Gate", "open");
    let a = flags::analyze(&db, open, &FlagConfig::standard());
    assert_eq!(a.branches.len(), 1);
    let authorized = a.flag_method(a.branches[0].targets[0]).expect("summarised");
    assert!(
        matches!(authorized.paths(true), [p] if matches!(p.source, PathSource::Call { needs: true, .. }))
    );
    assert_eq!(a.flag_methods.len(), 2);
}

/// Recursion ends at the depth cap or at a method already summarised.
#[test]
fn recursive_flags_end() {
    let db = db();
    let parity = method(&db, "flags/Recursive", "parity");
    let capped = flags::analyze(&db, parity, &FlagConfig { max_depth: 1, ..FlagConfig::standard() });
    assert_eq!(capped.flag_methods.len(), 1);
    assert!(capped.depth_capped);
    let full = flags::analyze(&db, parity, &FlagConfig::standard());
    assert_eq!(full.flag_methods.len(), 2, "isEven and isOdd");
    assert!(!full.depth_capped);
}
