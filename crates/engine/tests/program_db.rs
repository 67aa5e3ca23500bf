//! In a whole `generate` run (cluster, plan, instrumentation, goal model, search
//! in real JVM workers) each class is parsed once and each method decoded at most once, by the run's
//! one program database.

use engine::{GenerateConfig, generate_in, open_program};
use search::Budget;

#[test]
fn each_class_parsed_once_and_each_method_decoded_at_most_once() {
    let config = GenerateConfig {
        workers: 1,
        techniques: engine::Techniques::none(),
        ..GenerateConfig::standard(
            vec![test_support::workspace_root().join("examples/classes")],
            "example.Triangle",
            Budget::evaluations(200),
            1,
        )
    };
    let db = open_program(&config).expect("classpath opens");
    let generation = generate_in(&db, &config).expect("generates");
    assert!(!generation.suite.is_empty());
    let (parsed_again, decoded_again) = db.repeated_work();
    assert_eq!(parsed_again, [], "classes parsed more than once");
    assert_eq!(decoded_again, [], "methods decoded more than once");
    let stats = db.stats();
    println!("{stats:?} of {} classes on the classpath", db.class_ids().count());
    assert_eq!(stats.parses, stats.classes_parsed as u64);
    assert_eq!(stats.decodes, stats.methods_decoded as u64);
    // The classes under test were read through the database: the CUT and its nested enum, with
    // every method that has code decoded (by the planner, then shared with the instrumenter and
    // the goal model).
    for name in ["example/Triangle", "example/Triangle$Kind"] {
        let c = db.class_id(name).expect("on the classpath");
        assert_eq!(db.parse_count(c), 1, "{name}");
        for m in db.methods(c) {
            let decoded = db.decode_count(m);
            let has_code = db.body(m).is_some();
            assert_eq!(decoded, u32::from(has_code), "{name} method {}", m.index());
        }
    }
}
