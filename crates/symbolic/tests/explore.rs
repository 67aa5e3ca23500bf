//! Symbolic exploration with lazy initialisation (paper 003, SUSHI; digest 003-004 §A.2.2–A.2.3)
//! over the `sushi` fixtures: the path conditions `Concolic::explore` finds, their clauses in
//! assumption order, the branches each path covers, determinism and the bounds. The longer
//! snapshots are in `test_data/` (refresh with `UPDATE_EXPECT=1 cargo test -p symbolic`).

use std::time::Instant;

use expect_test::{expect, expect_file};
use programdb::ProgramDb;
use protocol::{PathCondition, Setup, Statement, Var};
use symbolic::{Concolic, Exploration, ExploreConfig, PathEnd, Stop, SymConfig, clause_text};

mod lazy_common;

use lazy_common::{db, plan};

fn explore(db: &ProgramDb, class: &str, name: &str, desc: &str, cfg: &ExploreConfig) -> Exploration {
    let plan = plan(db);
    let mut c = Concolic::new(db, &plan, SymConfig::STANDARD);
    c.explore(class, name, desc, cfg).expect("the method exists")
}

const SAMPLE: (&str, &str, &str) = ("sushi/Sample", "sample", "(Lsushi/DList;Ljava/lang/Object;)I");

/// One path as `Exploration::text` shows it.
fn path_text(e: &Exploration, i: usize) -> String {
    Exploration { paths: vec![e.paths[i].clone()], stats: Default::default() }.text()
}

/// Bounds that admit Figure 3's path for N = 15: 16 list entries (the header, its `previous` and
/// 14 more), 19 resolutions (the two parameters, the header, its `previous`, 15 `next` links).
fn figure_3_bounds() -> ExploreConfig {
    ExploreConfig { max_paths: 100_000, heap_scope: 16, max_lazy_inits: 19, ..ExploreConfig::standard() }
}

#[test]
fn sample_has_the_path_of_figure_3() {
    let db = db();
    let start = Instant::now();
    let e = explore(&db, SAMPLE.0, SAMPLE.1, SAMPLE.2, &figure_3_bounds());
    eprintln!("Sample.sample: {} paths in {:?}; {:?}", e.paths.len(), start.elapsed(), e.stats);
    assert!(!e.stats.truncated);
    // Figure 3 of 003 (digest §A.2.2, corrected clause 8, N = 15): fresh inputs, a chain of
    // fresh `next` links, the 15th aliasing `header.previous` (the entry `addLast` links before the
    // header), and the bound check `index < size` on `size + 1`.
    let closing = format!("p0.header{} = p0.header.previous", ".next".repeat(15));
    let i = e
        .paths
        .iter()
        .position(|p| {
            let has = |text: &str| p.condition.clauses.iter().any(|c| clause_text(c) == text);
            has(&closing) && has("fresh(p1) java.lang.Object")
        })
        .expect("Figure 3's path is explored");
    eprintln!("Figure 3's path is path {i}");
    assert_eq!(e.paths[i].end, PathEnd::Return("1".into()));
    expect![[r#"
        path 0: returns 1; covers [g463 g475 g494 g495 g4159]
            fresh(p0) sushi.DList
            fresh(p1) java.lang.Object
            fresh(p0.header) sushi.DList$Entry
            fresh(p0.header.previous) sushi.DList$Entry
            15 < p0.size + 1
            fresh(p0.header.next) sushi.DList$Entry
            fresh(p0.header.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next.next.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next.next.next.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next.next.next.next.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next.next.next.next.next.next.next.next.next) sushi.DList$Entry
            fresh(p0.header.next.next.next.next.next.next.next.next.next.next.next.next.next.next) sushi.DList$Entry
            p0.header.next.next.next.next.next.next.next.next.next.next.next.next.next.next.next = p0.header.previous
    "#]]
    .assert_eq(&path_text(&e, i));
    // The worker's Figure 6 distance (protocol v9) of this condition is 0 exactly on a list of
    // 15 objects, as the paper's Figure 2 test has for N = 4.
    let d = worker_distances(e.paths[i].condition.clone(), &[14, 15, 16]);
    assert_eq!(d[1], 0.0, "{d:?}");
    assert!(d[0] > 0.0 && d[2] > 0.0, "{d:?}");
    // Both sides of `r == obj` are covered by some path, and the other paths end as listed.
    let true_side = e.paths[i].covered.last().copied().expect("a goal");
    assert!(e.paths.iter().filter(|p| p.covered.contains(&true_side)).count() > 1);
    expect![[r#"
        {"bound": 717, "exception": 395, "return": 46838}
    "#]]
    .assert_eq(&format!("{:?}\n", e.stats.ends));
}

/// IntTree.contains(int) (a second fixture): the receiver is fresh, the tree's nodes are lazy, the
/// keys are symbols named by their access paths, and the searched key is the parameter `p0`.
/// Without invariants (§A.2.7, off here; `tests/invariants.rs`), aliases make cycles, which the
/// branch depth ends.
#[test]
fn int_tree_contains_paths_and_their_branches() {
    let db = db();
    let cfg = ExploreConfig { heap_scope: 2, max_branch_depth: 12, ..ExploreConfig::standard() };
    let e = explore(&db, "sushi/IntTree", "contains", "(I)Z", &cfg);
    expect_file!["../test_data/IntTree.contains.paths.txt"].assert_eq(&e.text());
    expect![[r#"
        ExploreStats { replays: 20, steps: 964, solver_calls: 6, sat: 6, unsat: 56, unknown: 0, repeated: 56, dropped: 0, ends: {"bound": 10, "return": 10}, diverged: 0, truncated: false, solver_work: 215309, solver_work_exhausted: false, rule_pruned_alternatives: 0, rule_pruned_paths: 0, rep_ok_pruned: 0, rep_ok_inconclusive: 0, rep_ok_checks: 0, rep_ok_replays: 0 }
    "#]].assert_eq(&format!("{:?}\n", e.stats));
    // Every branch of `contains` is covered by some path that returned.
    let mut covered: Vec<_> = e
        .paths
        .iter()
        .filter(|p| matches!(p.end, PathEnd::Return(_)))
        .flat_map(|p| p.covered.clone())
        .collect();
    covered.sort();
    covered.dedup();
    expect![[r#"
        [g1404, g1405, g1414, g1415, g1435, g1436]
    "#]]
    .assert_eq(&format!("{covered:?}\n"));
}

#[test]
fn exploration_is_deterministic() {
    let db = db();
    let small = ExploreConfig { max_paths: 300, heap_scope: 4, ..ExploreConfig::standard() };
    let a = explore(&db, SAMPLE.0, SAMPLE.1, SAMPLE.2, &small);
    let b = explore(&db, SAMPLE.0, SAMPLE.1, SAMPLE.2, &small);
    assert_eq!(a, b);
    assert_eq!(a.paths.len(), 300);
    let cfg = ExploreConfig { heap_scope: 3, ..ExploreConfig::standard() };
    let a = explore(&db, "sushi/IntTree", "insert", "(I)Z", &cfg);
    let b = explore(&db, "sushi/IntTree", "insert", "(I)Z", &cfg);
    assert_eq!(a, b);
    assert!(a.stats.sat > 0, "{:?}", a.stats);
}

#[test]
fn bounds_hold() {
    let db = db();
    let five = ExploreConfig { max_paths: 5, ..ExploreConfig::standard() };
    let e = explore(&db, SAMPLE.0, SAMPLE.1, SAMPLE.2, &five);
    assert_eq!(e.paths.len(), 5);
    assert!(e.stats.truncated);
    // A step budget below what `addLast` needs stops every path that gets into the list.
    let tiny = ExploreConfig {
        sym: SymConfig { max_steps: 12, ..SymConfig::STANDARD },
        max_paths: 50,
        ..ExploreConfig::standard()
    };
    let e = explore(&db, SAMPLE.0, SAMPLE.1, SAMPLE.2, &tiny);
    let stopped = e.paths.iter().filter(|p| p.end == PathEnd::Stop(Stop::Steps)).count();
    assert!(stopped > 0);
    assert_eq!(e.stats.ends.get("stop").copied(), Some(stopped as u64));
    // Heap scope 1: one list entry per path, so no path reaches `remove(15)`'s walk past it.
    let one = ExploreConfig { heap_scope: 1, ..ExploreConfig::standard() };
    let e = explore(&db, SAMPLE.0, SAMPLE.1, SAMPLE.2, &one);
    for p in &e.paths {
        let entries = p.condition.clauses.iter().filter(|c| clause_text(c).ends_with("DList$Entry")).count();
        assert!(entries <= 1, "{}", clause_text(&p.condition.clauses[0]));
    }
    // A loop unrolled at most twice: IntTree.contains compares the key with two nodes at most,
    // and a path that reaches a third comparison ends right after it (its last clause).
    let unroll = ExploreConfig { max_unroll: 2, ..ExploreConfig::standard() };
    let e = explore(&db, "sushi/IntTree", "contains", "(I)Z", &unroll);
    assert!(e.paths.iter().any(|p| p.end == PathEnd::Bound(symbolic::Bound::Unroll)));
    for (i, p) in e.paths.iter().enumerate() {
        let keys = p.condition.clauses.iter().filter(|c| clause_text(c).starts_with("p0 !=")).count();
        let limit = if p.end == PathEnd::Bound(symbolic::Bound::Unroll) { 3 } else { 2 };
        assert!(keys <= limit, "{}", path_text(&e, i));
    }
    // At most 3 resolutions: paths needing more end with the bound.
    let lazy = ExploreConfig { max_lazy_inits: 3, ..ExploreConfig::standard() };
    let e = explore(&db, SAMPLE.0, SAMPLE.1, SAMPLE.2, &lazy);
    assert!(e.paths.iter().any(|p| p.end == PathEnd::Bound(symbolic::Bound::LazyInits)));
    for p in &e.paths {
        let refs =
            p.condition.clauses.iter().filter(|c| !matches!(c, protocol::Clause::Numeric { .. })).count();
        assert!(refs <= 3);
    }
}

/// The total distance of `pc` at the call of `Sample.sample(list, new Object())` on lists of each
/// of `sizes` objects, from a real worker.
fn worker_distances(pc: PathCondition, sizes: &[usize]) -> Vec<f64> {
    let tests: Vec<Vec<Statement>> = sizes.iter().map(|&k| sample_test(k)).collect();
    distances(pc, &tests)
}

/// `list = new DList(); list.add(new Object())` k times; `Sample.sample(list, new Object())`.
fn sample_test(k: usize) -> Vec<Statement> {
    let new =
        |class: &str| Statement::Constructor { class: class.into(), descriptor: "()V".into(), args: vec![] };
    let mut t = vec![new("sushi.DList")];
    for _ in 0..k {
        let o = Var(t.len() as u16);
        t.push(new("java.lang.Object"));
        t.push(Statement::Method {
            class: "sushi.DList".into(),
            name: "add".into(),
            descriptor: "(Ljava/lang/Object;)V".into(),
            is_static: false,
            receiver: Some(Var(0)),
            args: vec![o],
        });
    }
    let obj = Var(t.len() as u16);
    t.push(new("java.lang.Object"));
    t.push(Statement::Method {
        class: "sushi.Sample".into(),
        name: "sample".into(),
        descriptor: "(Lsushi/DList;Ljava/lang/Object;)I".into(),
        is_static: true,
        receiver: None,
        args: vec![Var(0), obj],
    });
    t
}

/// Every public method of every `sushi` fixture class, explored with the standard bounds (at most
/// 60 paths each): nothing panics, and each method's paths, how they ended, and the branch goals
/// they cover together, as one line. Without invariants (§A.2.7, off here) many paths run around
/// alias cycles until the branch depth ends them; arrays as inputs end paths (`ArrayInput`).
#[test]
fn every_sushi_method_explores() {
    let db = db();
    let plan = plan(&db);
    let mut c = Concolic::new(&db, &plan, SymConfig::STANDARD);
    let cfg = ExploreConfig { max_paths: 60, ..ExploreConfig::standard() };
    let mut out = String::new();
    let start = Instant::now();
    for id in db.class_ids() {
        let class = db.class_name(id).to_string();
        if !class.starts_with("sushi/") || class.contains('$') {
            continue;
        }
        let file = db.class(id).expect("fixture class parses");
        for m in &file.methods {
            let cp = &file.constant_pool;
            let (name, desc) = (m.name(cp).expect("name"), m.descriptor(cp).expect("descriptor"));
            if m.access_flags & classfile::access::PUBLIC == 0 || name.starts_with('<') {
                continue;
            }
            let e = c.explore(&class, &name, &desc, &cfg).expect("the method exists");
            // Why paths ended early (interpreter stops and exploration bounds), once each.
            let early: std::collections::BTreeSet<String> = e
                .paths
                .iter()
                .filter(|p| matches!(p.end, PathEnd::Stop(_) | PathEnd::Bound(_)))
                .map(|p| p.end.to_string())
                .collect();
            let mut covered: Vec<_> = e.paths.iter().flat_map(|p| p.covered.clone()).collect();
            covered.sort();
            covered.dedup();
            out.push_str(&format!(
                "{}.{name}{desc}: {} paths {:?}, {} goals, {} sat {} unsat {} unknown, {} left out {early:?}\n",
                class.trim_start_matches("sushi/"),
                e.paths.len(),
                e.stats.ends,
                covered.len(),
                e.stats.sat,
                e.stats.unsat,
                e.stats.unknown,
                e.stats.dropped
            ));
        }
    }
    eprintln!("every method in {:?}", start.elapsed());
    expect_file!["../test_data/sushi.methods.txt"].assert_eq(&out);
}

/// A side the solver cannot decide is kept as a path of its own, not run (§A.2.2: `unknown` keeps
/// the path): its condition is the prefix and the negated branch, its goals the prefix's and the
/// negated one. With the solver switched off every query is unknown.
#[test]
fn unknown_keeps_the_side() {
    let db = db();
    let off = solver::SolverLimits { z3_rlimit: 0, avm_evaluations: 0 };
    let cfg = ExploreConfig { heap_scope: 1, max_branch_depth: 6, solver: off, ..ExploreConfig::standard() };
    let e = explore(&db, "sushi/IntTree", "contains", "(I)Z", &cfg);
    assert!(e.stats.unknown > 0 && e.stats.sat == 0, "{:?}", e.stats);
    let i = e.paths.iter().position(|p| p.end == PathEnd::Unknown).expect("an unknown path");
    expect![[r#"
        path 0: solver unknown (not run); covers [g1405 g1414]
            fresh(this) sushi.IntTree
            fresh(this.root) sushi.IntTree$Node
            p0 != this.root.key
    "#]]
    .assert_eq(&path_text(&e, i));
}

/// Fresh strings and boxes have symbolic contents (a length, characters, a boxed value, each named
/// by its access path): `Roster.review`'s deepest path asks for a head whose name has length 4
/// and starts with `r`, whose quota is above 1,000, and whose successor's quota is one below it;
/// a real worker scores that condition 0 on a roster built that way and more on others (the
/// string's length and characters and the box's value read through their API, protocol v11).
#[test]
fn fresh_strings_and_boxes_have_symbolic_contents() {
    let db = db();
    let cfg = ExploreConfig { heap_scope: 3, ..ExploreConfig::standard() };
    let e = explore(&db, "sushi/Roster", "review", "()I", &cfg);
    let five: Vec<usize> =
        (0..e.paths.len()).filter(|&i| matches!(&e.paths[i].end, PathEnd::Return(v) if v == "5")).collect();
    assert!(!five.is_empty(), "{}", e.text());
    expect![[r#"
        path 0: returns 5; covers [g4032 g4043 g4052 g4066 g4079 g4082 g4096 g4099 g4111]; 1 condition(s) left out
            fresh(this) sushi.Roster
            fresh(this.head) sushi.Roster$Member
            fresh(this.head.name) java.lang.String
            0 <= this.head.name.length
            this.head.name.length <= 32
            this.head.name.length == 4
            this.head.name[0] == 114
            fresh(this.head.quota) java.lang.Integer
            this.head.quota.value > 1000
            fresh(this.head.next) sushi.Roster$Member
            fresh(this.head.next.quota) java.lang.Integer
            this.head.next.quota.value == this.head.quota.value - 1
    "#]].assert_eq(&path_text(&e, five[0]));
    let pc = e.paths[five[0]].condition.clone();
    let roster = |members: &[(&str, i32)]| {
        let mut t = vec![Statement::Constructor {
            class: "sushi.Roster".into(),
            descriptor: "()V".into(),
            args: vec![],
        }];
        for (name, quota) in members {
            let s = Var(t.len() as u16);
            t.push(Statement::String { value: (*name).into() });
            let q = Var(t.len() as u16);
            t.push(Statement::Primitive { ty: protocol::PrimType::Int, bits: i64::from(*quota) as u64 });
            let b = Var(t.len() as u16);
            t.push(Statement::Method {
                class: "java.lang.Integer".into(),
                name: "valueOf".into(),
                descriptor: "(I)Ljava/lang/Integer;".into(),
                is_static: true,
                receiver: None,
                args: vec![q],
            });
            t.push(Statement::Method {
                class: "sushi.Roster".into(),
                name: "join".into(),
                descriptor: "(Ljava/lang/String;Ljava/lang/Integer;)V".into(),
                is_static: false,
                receiver: Some(Var(0)),
                args: vec![s, b],
            });
        }
        t.push(Statement::Method {
            class: "sushi.Roster".into(),
            name: "review".into(),
            descriptor: "()I".into(),
            is_static: false,
            receiver: Some(Var(0)),
            args: vec![],
        });
        t
    };
    let d = distances(
        pc,
        &[
            roster(&[("a", 1500), ("rust", 1501)]),
            roster(&[("a", 1499), ("rust", 1501)]),
            roster(&[("a", 1500), ("rusty", 1501)]),
            roster(&[("a", 1500), ("bust", 1501)]),
            roster(&[("a", 1500), ("rust", 900)]),
        ],
    );
    assert_eq!(d[0], 0.0, "{d:?}");
    assert!(d[1..].iter().all(|&x| x > 0.0), "{d:?}");
}

/// The total distance of `pc` in each test, from a real worker.
fn distances(pc: PathCondition, tests: &[Vec<Statement>]) -> Vec<f64> {
    let mut setup = Setup::empty();
    setup.classpath = vec![test_support::fixture_classes("sushi").display().to_string()];
    setup.path_conditions = vec![pc];
    let java = worker::Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let config = worker::WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), setup);
    let mut pool = worker::Pool::new(config, 1).expect("pool");
    let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
    pool.execute(&refs)
        .expect("the tests run")
        .into_iter()
        .map(|run| match run {
            worker::TestRun::Finished(r) => r.trace.path_distances.first().map_or(f64::NAN, |d| d.total()),
            other => panic!("expected a result, got {other:?}"),
        })
        .collect()
}
