//! Paper 003's path-condition distance (Figure 6; digest 003-004 §A.2.4) computed by a real worker
//! on live objects (protocol v9): the digest's worked example on the doubly linked list of Figure 3
//! (`fixtures/java/sushi`: `DList`, `Sample`) is the oracle, clause by clause for N = 4 and in
//! total for N = 15; several calls keep the best one, a test without the entry call reports
//! nothing, and a path through a field that does not exist is undefined (δ = 1), never an error.

use std::path::Path;

use protocol::{
    AccessPath, Clause, Cmp, NumExpr, PathCondition, PathDistance, PrimType, Root, Setup, Statement, Var,
};
use worker::{Java, Pool, TestRun, WorkerConfig};

const LIST: &str = "sushi.DList";
const ENTRY: &str = "sushi.DList$Entry";

/// `List.header` followed by `fields` (each a field of `DList$Entry`).
fn header(fields: &[&str]) -> AccessPath {
    let mut steps = vec![(LIST, "header")];
    steps.extend(fields.iter().map(|f| (ENTRY, *f)));
    AccessPath::fields(Root::Param(0), &steps)
}

/// The path condition of Figure 3 of 003 for `N`, with clause N + 4 as the digest corrects it:
/// fresh `obj`, `list`, `header`, `header.previous` and `header.next^j` (j < N), then
/// `header.next^N = header.previous` and `List.size > N - 1`.
fn figure3(n: usize) -> PathCondition {
    let fresh = |path: AccessPath, class: &str| Clause::Fresh { path, class: class.into() };
    let mut clauses = vec![
        fresh(AccessPath { root: Root::Param(1), steps: vec![] }, "java.lang.Object"),
        fresh(AccessPath { root: Root::Param(0), steps: vec![] }, LIST),
        fresh(header(&[]), ENTRY),
        fresh(header(&["previous"]), ENTRY),
    ];
    for j in 1..n {
        clauses.push(fresh(header(&vec!["next"; j]), ENTRY));
    }
    clauses.push(Clause::Alias(header(&vec!["next"; n]), header(&["previous"])));
    let size = AccessPath::fields(Root::Param(0), &[(LIST, "size")]);
    clauses.push(Clause::Numeric {
        cmp: Cmp::Gt,
        left: NumExpr::Path { ty: PrimType::Int, path: size },
        right: NumExpr::int(n as i32 - 1),
    });
    PathCondition {
        class: "sushi.Sample".into(),
        name: "sample".into(),
        descriptor: "(Lsushi/DList;Ljava/lang/Object;)I".into(),
        clauses,
    }
}

fn pool(conditions: Vec<PathCondition>) -> Pool {
    let classes =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/sushi").canonicalize().unwrap();
    let mut setup = Setup::empty();
    setup.classpath = vec![classes.display().to_string()];
    // The digest's worked example uses ε = 0.001.
    setup.path_epsilon = 0.001;
    setup.path_conditions = conditions;
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    Pool::new(WorkerConfig::new(java, worker::runtime_jar().unwrap(), setup), 1).unwrap()
}

/// Statements that build a `DList` holding `k` fresh objects (variable `list`), starting at `at`.
fn list_of(k: usize, at: u16) -> (Vec<Statement>, Var) {
    let list = Var(at);
    let mut t = vec![Statement::Constructor { class: LIST.into(), descriptor: "()V".into(), args: vec![] }];
    for _ in 0..k {
        let o = Var(at + t.len() as u16);
        t.push(Statement::Constructor {
            class: "java.lang.Object".into(),
            descriptor: "()V".into(),
            args: vec![],
        });
        t.push(Statement::Method {
            class: LIST.into(),
            name: "add".into(),
            descriptor: "(Ljava/lang/Object;)V".into(),
            is_static: false,
            receiver: Some(list),
            args: vec![o],
        });
    }
    (t, list)
}

/// Appends `obj = new Object(); Sample.sample(list, obj)`.
fn call_sample(t: &mut Vec<Statement>, list: Var) {
    let obj = Var(t.len() as u16);
    t.push(Statement::Constructor {
        class: "java.lang.Object".into(),
        descriptor: "()V".into(),
        args: vec![],
    });
    t.push(Statement::Method {
        class: "sushi.Sample".into(),
        name: "sample".into(),
        descriptor: "(Lsushi/DList;Ljava/lang/Object;)I".into(),
        is_static: true,
        receiver: None,
        args: vec![list, obj],
    });
}

/// The test: a list of `k` objects passed to `sample`.
fn sample_with(k: usize) -> Vec<Statement> {
    let (mut t, list) = list_of(k, 0);
    call_sample(&mut t, list);
    t
}

fn distances(pool: &mut Pool, tests: &[Vec<Statement>]) -> Vec<Vec<PathDistance>> {
    let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
    pool.execute(&refs)
        .unwrap()
        .into_iter()
        .map(|run| match run {
            TestRun::Finished(r) => r.trace.path_distances,
            other => panic!("expected a result, got {other:?}"),
        })
        .collect()
}

#[test]
fn figure_6_on_the_doubly_linked_list() {
    let mut pool = pool(vec![figure3(4), figure3(15)]);
    let ks = [0, 1, 2, 3, 4, 5, 6, 10, 13, 14, 15, 16];
    let tests: Vec<Vec<Statement>> = ks.iter().map(|&k| sample_with(k)).collect();
    let got = distances(&mut pool, &tests);

    // N = 4: the digest's table, clause by clause (δ9 to the table's 4 decimals).
    let table: [(usize, [f64; 9], f64); 7] = [
        (0, [0., 0., 0., 1., 1., 1., 1., 0., 0.7501], 4.7501),
        (1, [0., 0., 0., 0., 1., 1., 1., 1., 0.6668], 4.6668),
        (2, [0., 0., 0., 0., 0., 1., 1., 1., 0.5002], 3.5002),
        (3, [0., 0., 0., 0., 0., 0., 1., 1., 0.001], 2.001),
        (4, [0.; 9], 0.),
        (5, [0., 0., 0., 0., 0., 0., 0., 1., 0.], 1.),
        (6, [0., 0., 0., 0., 0., 0., 0., 1., 0.], 1.),
    ];
    for (k, clauses, total) in table {
        let i = ks.iter().position(|&x| x == k).unwrap();
        let d = &got[i][0];
        assert_eq!(d.pc, 0);
        assert_eq!(d.clauses.len(), 9, "k = {k}");
        for (j, (g, want)) in d.clauses.iter().zip(clauses).enumerate() {
            assert!((g - want).abs() < 5e-5, "N = 4, k = {k}, clause {}: {g} vs {want}", j + 1);
        }
        assert!((d.total() - total).abs() < 1e-4, "N = 4, k = {k}: total {} vs {total}", d.total());
        assert_eq!(d.total() == 0.0, k == 4, "0 exactly when every clause holds");
    }
    // N = 15: the digest's totals, to the digits it gives.
    for (k, total, digits) in
        [(0, 15.93, 2), (5, 11.9, 1), (10, 6.8, 1), (13, 3.5002, 4), (14, 2.001, 3), (15, 0., 0), (16, 1., 0)]
    {
        let i = ks.iter().position(|&x| x == k).unwrap();
        let d = &got[i][1];
        assert_eq!((d.pc, d.clauses.len()), (1, 20));
        let tolerance = 0.5 * 10f64.powi(-digits) + 1e-9;
        assert!((d.total() - total).abs() <= tolerance, "N = 15, k = {k}: total {} vs {total}", d.total());
    }
    // The distance falls as the list grows towards N (the smoothness the paper claims).
    let totals: Vec<f64> = got.iter().take(5).map(|d| d[0].total()).collect();
    assert!(totals.windows(2).all(|w| w[1] < w[0]), "{totals:?}");
}

#[test]
fn the_best_call_counts_and_a_test_without_the_entry_reports_nothing() {
    let mut broken = figure3(4);
    // A field no class has: undefined, δ = 1, the other clauses still measured.
    broken.clauses[2] =
        Clause::Fresh { path: AccessPath::fields(Root::Param(0), &[(LIST, "head")]), class: ENTRY.into() };
    let mut pool = pool(vec![figure3(4), broken]);
    // Two calls in one test: a list of 16 (for N = 4 only the alias clause fails; `sample` returns
    // normally), then a list of 4 (every clause holds; `sample` throws, after the evaluation).
    let (mut two, first) = list_of(16, 0);
    call_sample(&mut two, first);
    let at = two.len() as u16;
    let (rest, second) = list_of(4, at);
    two.extend(rest);
    call_sample(&mut two, second);
    let (no_call, _) = list_of(3, 0);
    let got = distances(&mut pool, &[two, no_call, sample_with(4)]);

    assert_eq!(got[0].len(), 2);
    assert_eq!(got[0][0].total(), 0.0, "the list of 4 satisfies the path condition");
    assert_eq!(got[0][1].clauses[2], 1.0, "an unknown field is undefined");
    assert_eq!(got[0][1].total(), 1.0, "only the broken clause fails");
    assert!(got[1].is_empty(), "no call of the entry method, no distance: {:?}", got[1]);
    assert_eq!(got[2][0].clauses, vec![0.0; 9]);
}

/// `Execute`'s focus (v12): only the conditions named are evaluated, per batch; `None` is every
/// one, and a focus lasts for its batch only.
#[test]
fn a_batch_evaluates_only_the_conditions_in_its_focus() {
    let mut pool = pool(vec![figure3(4), figure3(15), figure3(2)]);
    let tests = [sample_with(4), sample_with(15)];
    let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
    let pcs = |focus: Option<&[u32]>, pool: &mut Pool| -> Vec<Vec<u32>> {
        let out =
            pool.execute_scored(&refs, focus, &|r| r.trace.path_distances.iter().map(|d| d.pc).collect());
        out.unwrap().scores.into_iter().map(Option::unwrap).collect::<Vec<Vec<u32>>>()
    };
    assert_eq!(pcs(Some(&[1]), &mut pool), [vec![1], vec![1]]);
    assert_eq!(pcs(Some(&[]), &mut pool), [Vec::<u32>::new(), vec![]]);
    assert_eq!(pcs(None, &mut pool), [vec![0, 1, 2], vec![0, 1, 2]]);
    assert_eq!(pcs(Some(&[2, 0]), &mut pool), [vec![0, 2], vec![0, 2]]);
    // The distances in focus are those measured without one.
    let all = distances(&mut pool, &tests);
    let out = pool.execute_scored(&refs, Some(&[1]), &|r| r.trace.path_distances.clone()).unwrap();
    let focused: Vec<Vec<PathDistance>> = out.scores.into_iter().map(Option::unwrap).collect();
    for (f, a) in focused.iter().zip(&all) {
        assert_eq!(f, &vec![a[1].clone()]);
    }
}
