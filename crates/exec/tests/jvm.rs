//! The JVM executor through a real worker pool, behind the cache: outcomes come back per test in
//! order, an equal test is answered from the cache, and a timeout is reported and not cached.

use exec::{Cached, ExecResult, ExecStatus, JvmExecutor, Scored};
use protocol::{Outcome, Setup, Statement, Value, Var};
use worker::{Java, Pool, WorkerConfig};

fn parse_int(s: &str) -> Vec<Statement> {
    vec![
        Statement::string(s),
        Statement::Method {
            class: "java.lang.Integer".into(),
            name: "parseInt".into(),
            descriptor: "(Ljava/lang/String;)I".into(),
            is_static: true,
            receiver: None,
            args: vec![Var(0)],
        },
    ]
}

#[test]
fn jvm_executor_behind_the_cache() {
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = WorkerConfig::new(java, worker::runtime_jar().unwrap(), Setup::empty());
    let pool = Pool::new(config, 1).unwrap();
    let mut ex = JvmExecutor::new(pool);
    let mut cache = Cached::new(1000);
    let mut run = |tests: &[Vec<Statement>]| {
        let plan = cache.plan(tests);
        let results = ex.execute(&plan.misses(tests)).unwrap();
        let ran = Scored::<ExecResult, ()> { results, scores: Vec::new(), workers_done: None };
        cache.finish(plan, ran).results
    };
    let rs = run(&[parse_int("42"), parse_int("x"), parse_int("42")]);
    assert_eq!(rs[0].status, ExecStatus::Normal);
    assert_eq!(rs[0].outcomes[1], Outcome::Value(Value::Int(42)));
    assert!(matches!(&rs[1].outcomes[1], Outcome::Threw { class, from_sut: true, .. }
        if class == "java.lang.NumberFormatException"));
    assert_eq!(rs[2], rs[0]);
    let rs2 = run(&[parse_int("x")]);
    assert_eq!(rs2[0], rs[1], "same test, same result");
    assert_eq!(cache.counts(), (2, 2));
    assert_eq!(ex.pool().stats().executed, 2, "only two tests reached the JVM");
}
