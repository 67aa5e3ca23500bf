//! The database's memoisation and its call graph, on the cluster fixtures (an interface `Shape`
//! with two implementations called from `Geometry`, an abstract `Animal` with one subclass).

use std::path::PathBuf;

use bytecode::Opcode;
use expect_test::expect;
use programdb::{DbConfig, MethodId, ProgramDb};

fn cluster(config: DbConfig) -> ProgramDb {
    let paths: Vec<PathBuf> = vec![test_support::fixture_classes("cluster")];
    ProgramDb::open(&paths, config).expect("classpath opens")
}

fn method(db: &ProgramDb, class: &str, name: &str, descriptor: &str) -> MethodId {
    let c = db.class_id(class).expect("class on the classpath");
    db.declared_method(c, name, descriptor).expect("method declared")
}

fn describe(db: &ProgramDb, m: MethodId) -> String {
    let member = db.member(m).expect("member");
    let cp = &db.class(m.class()).expect("parsed").constant_pool;
    let name = member.name(cp).unwrap_or_default();
    format!("{}.{name}", db.class_name(m.class()))
}

fn call_graph(db: &ProgramDb, m: MethodId) -> String {
    let mut out = String::new();
    for s in db.call_sites(m) {
        let targets: Vec<String> = s.targets.iter().map(|&t| describe(db, t)).collect();
        let more = if s.truncated { " ..." } else { "" };
        out +=
            &format!("{} {:?} {}.{}{} -> {targets:?}{more}\n", s.insn.0, s.op, s.owner, s.name, s.descriptor);
    }
    out
}

#[test]
fn each_class_parsed_and_each_method_decoded_once() {
    let db = cluster(DbConfig::STANDARD);
    let c = db.class_id("cluster/Geometry").expect("fixture");
    assert_eq!(db.parse_count(c), 0, "nothing is parsed before it is asked for");
    for _ in 0..3 {
        let class = db.class(c).expect("parses");
        assert_eq!(class.name(), "cluster/Geometry");
        for m in db.methods(c) {
            let body = db.body(m).expect("code").expect("decodes");
            let analysis = db.analysis(m).expect("analysed");
            assert!(std::ptr::eq(&analysis.cfg, db.cfg(m).expect("cfg")), "the same memoised value");
            assert!(!body.insns.is_empty());
            assert!(db.dominators(m).is_some() && db.post_dominators(m).is_some());
            assert!(db.control_deps(m).is_some());
        }
    }
    assert_eq!(db.parse_count(c), 1);
    for m in db.methods(c) {
        assert_eq!(db.decode_count(m), 1);
    }
    let stats = db.stats();
    assert_eq!((stats.classes_parsed, stats.parses), (1, 1));
    assert_eq!(stats.methods_decoded as u64, stats.decodes);
    // An abstract method has no body and is never decoded.
    let sound = method(&db, "cluster/Animal", "sound", "()Ljava/lang/String;");
    assert!(db.body(sound).is_none());
    assert_eq!(db.decode_count(sound), 0);
}

#[test]
fn shared_between_threads() {
    let db = cluster(DbConfig::STANDARD);
    let c = db.class_id("cluster/Geometry").expect("fixture");
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for m in db.methods(c) {
                    assert!(db.analysis(m).is_some());
                }
            });
        }
    });
    assert_eq!(db.parse_count(c), 1);
    assert!(db.methods(c).all(|m| db.decode_count(m) == 1));
}

#[test]
fn interface_calls_reach_every_implementation() {
    let db = cluster(DbConfig::STANDARD);
    let bigger = method(&db, "cluster/Geometry", "bigger", "(Lcluster/Shape;Lcluster/Shape;)Z");
    expect![[r#"
        1 invokeinterface cluster/Shape.area()D -> ["cluster/Circle.area", "cluster/Square.area"]
        3 invokeinterface cluster/Shape.area()D -> ["cluster/Circle.area", "cluster/Square.area"]
    "#]]
    .assert_eq(&call_graph(&db, bigger));
    let site = &db.call_sites(bigger)[0];
    assert_eq!(site.op, Opcode::INVOKEINTERFACE);
    assert_eq!(db.callees(bigger, site.insn), Some(site));
}

#[test]
fn virtual_static_and_special_calls() {
    let db = cluster(DbConfig::STANDARD);
    // `Dog(String)` calls `super(name)`: one target, the declared constructor.
    let ctor = method(&db, "cluster/Dog", "<init>", "(Ljava/lang/String;)V");
    expect![[r#"
        2 invokespecial cluster/Animal.<init>(Ljava/lang/String;)V -> ["cluster/Animal.<init>"]
    "#]]
    .assert_eq(&call_graph(&db, ctor));
    // A virtual call on `Animal.sound` runs `Dog.sound`, the only concrete override; `getName`
    // is inherited by `Dog` from `Animal`.
    let animal = db.class_id("cluster/Animal").expect("fixture");
    let dog = db.class_id("cluster/Dog").expect("fixture");
    let sound = db.dispatch(dog, "sound", "()Ljava/lang/String;").expect("dispatches");
    assert_eq!(describe(&db, sound), "cluster/Dog.sound");
    let get_name = db.dispatch(dog, "getName", "()Ljava/lang/String;").expect("inherited");
    assert_eq!(get_name.class(), animal);
    assert_eq!(db.resolve_method("cluster/Dog", "getName", "()Ljava/lang/String;"), Some(get_name));
}

#[test]
fn targets_are_capped() {
    let db = cluster(DbConfig { max_call_targets: 1 });
    let bigger = method(&db, "cluster/Geometry", "bigger", "(Lcluster/Shape;Lcluster/Shape;)Z");
    let site = &db.call_sites(bigger)[0];
    assert_eq!(site.targets.len(), 1);
    assert!(site.truncated);
}

#[test]
fn data_deps_and_pdg_are_memoised_beside_the_body() {
    let db = cluster(DbConfig::STANDARD);
    let c = db.class_id("cluster/Geometry").expect("Geometry");
    for m in db.methods(c).collect::<Vec<_>>() {
        let Some(Ok(body)) = db.body(m) else { continue };
        let first = db.data_deps(m).expect("decodes") as *const analysis::DataDeps;
        assert!(std::ptr::eq(first, db.data_deps(m).expect("decodes")), "computed twice");
        let cp = &db.class(c).expect("parsed").constant_pool;
        let direct = analysis::DataDeps::compute(body, db.cfg(m).expect("cfg"), cp);
        assert_eq!(db.data_deps(m), Some(&direct));
        let pdg = db.pdg(m).expect("pdg");
        let last = bytecode::InsnIdx::new(body.insns.len() - 1);
        assert!(pdg.backward_slice(last).contains(&last));
        assert_eq!(db.decode_count(m), 1);
    }
}
