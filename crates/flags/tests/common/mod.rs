//! What the flags tests share: the program database of the `flags` fixture area and the lookup of
//! a method by class and name.

use std::path::PathBuf;

use programdb::{MethodId, ProgramDb};

pub fn db() -> ProgramDb {
    let paths: Vec<PathBuf> = vec![test_support::fixture_classes("flags")];
    test_support::open_db(&paths)
}

pub fn method(db: &ProgramDb, class: &str, name: &str) -> MethodId {
    let c = db.class_id(class).expect("class on the classpath");
    let cp = &db.class(c).expect("parses").constant_pool;
    db.methods(c)
        .find(|&m| db.member(m).and_then(|mm| mm.name(cp)).is_some_and(|n| n == name))
        .expect("method declared")
}
