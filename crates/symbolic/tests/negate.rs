//! Negating a path entry and solving it (solver::Portfolio) gives inputs whose re-interpreted run
//! takes the other side: the path conditions are exact. For every branch entry of a run whose
//! other side the run did not cover, the prefix and the negated condition are solved, the model is
//! put back into the test, and the test replayed: the negated goal must then be covered.

mod common;

use expect_test::expect;
use solver::{Outcome, Portfolio, Solver, SolverLimits};
use symbolic::{Concolic, SymConfig};
use testcase::Statement;

/// One line per negated entry: where, the solver's answer, and whether the new run covers the goal.
fn negations(spec: &str) -> String {
    let db = common::db();
    let plan = common::plan(&db);
    let (test, sym) = common::test_of(spec);
    let mut c = Concolic::new(&db, &plan, SymConfig::STANDARD);
    let mut r = c.run(&test, &sym);
    let mut solver = Portfolio::new(&SolverLimits::default(), 1);
    let mut out = String::new();
    for (i, goal, constraints) in common::branch_negations(&mut r) {
        let insn = r.path[i].insn;
        let answer = match solver.solve(&r.arena, &constraints, &r.hint) {
            Outcome::Sat(model) => {
                let t = common::substitute(&test, &r, &model);
                let again = c.run(&t, &sym);
                let text = t.statements.iter().filter_map(|s| match s {
                    Statement::Primitive(p) => Some(p.to_string()),
                    Statement::String(s) => Some(format!("{s:?}")),
                    _ => None,
                });
                let args = text.collect::<Vec<_>>().join(", ");
                let ok = if again.covered.contains(&goal) { "covered" } else { "NOT COVERED" };
                format!("sat ({args}) -> {}: {ok}", again.outcomes.last().cloned().unwrap_or_default())
            }
            Outcome::Unsat => "unsat".to_string(),
            Outcome::Unknown => "unknown".to_string(),
        };
        out.push_str(&format!("@{insn} {goal}: {answer}\n"));
    }
    out
}

#[test]
fn negated_entries_take_the_other_side() {
    expect![[r#"
        @10 g1901: sat (0, 0, 1000003) -> 1: covered
    "#]]
    .assert_eq(&negations("dse.Magic.linear(III)I *1 *2 *3"));
    // The branches on `big` and `far` after `y == 5` are queries, solved without the merged
    // jumps' conditions in their prefixes (with them, `x <= 10 && x > 10` would be unsat).
    expect![[r#"
        @2 g3075: sat (11, 5, 0L) -> 127: covered
        @8 g3091: sat (3, -1, 0L) -> -3: covered
        @16 g3117: sat (3, 5, 101L) -> 1107: covered
        @25 g3141: sat (3, -6, 0L) -> -3: covered
        @28 g3154: sat (11, 5, 0L) -> 127: covered
        @31 g3166: sat (10, 5, 101L) -> 1107: covered
    "#]]
    .assert_eq(&negations("dse.symbolic.Flow.merged(IIJ)I *3 *5 *0L"));
    expect![[r#"
        @9 g243: sat ("") -> -1: covered
        @12 g259: sat ("7732-18-6aaaa") -> -1: covered
        @21 g283: sat ("7732-18ￒ6") -> -2: covered
        @28 g310: sat ("7732ￒ18-6") -> -2: covered
        @53 g397: sat ("7732-1\0-6") -> -3: covered
        @56 g413: sat ("7732-1:-6") -> -3: covered
        @53 g397: sat ("7732-\00-6") -> -3: covered
        @56 g413: sat ("7732-耰0-6") -> -3: covered
        @53 g397: sat ("773\0-00-6") -> -3: covered
        @56 g413: sat ("773:-00-6") -> -3: covered
        @53 g397: sat ("77\00-00-6") -> -3: covered
        @56 g413: sat ("77:0-00-6") -> -3: covered
        @53 g397: sat ("7\000-00-6") -> -3: covered
        @56 g413: sat ("7耰00-00-6") -> -3: covered
        @53 g397: sat ("\0000-00-6") -> -3: covered
        @56 g413: sat (":000-00-6") -> -3: covered
        @78 g481: sat ("0000-00-\0") -> -3: covered
        @81 g497: sat ("0000-00-:") -> -3: covered
        @90 g539: sat ("8832-20-0") -> 1: covered
    "#]]
    .assert_eq(&negations("dse.CasNumber.check(Ljava/lang/String;)I *\"7732-18-6\""));
    expect![[r#"
        @11 g671: sat ("id", 'Q') -> 1: covered
    "#]]
    .assert_eq(&negations("dse.Concat.id(Ljava/lang/String;C)I *\"ix\" *'Q'"));
    // The concatenation keeps the prefix's length symbolic: a 15-character prefix becomes "id".
    expect![[r#"
        @11 g671: sat ("id", 'Q') -> 1: covered
    "#]]
    .assert_eq(&negations("dse.Concat.id(Ljava/lang/String;C)I *\"abcdefghijklmno\" *'x'"));
    expect![[r#"
        @5 g1477: sat ("") -> -1: covered
    "#]]
    .assert_eq(&negations("dse.Keyword.kind(Ljava/lang/String;)I *\"xxbeta\""));
    expect![[r#"
        @3 g2218: sat (249) -> 1: covered
    "#]]
    .assert_eq(&negations("dse.Narrow.narrow(I)I *0"));
    expect![[r#"
        @7 g1313: sat (6.0F, 1.0) -> 1: covered
        @13 g1337: sat (1.0F, 2147483648.0) -> 2: covered
    "#]]
    .assert_eq(&negations("dse.FloatMath.f(FD)I *1.0f *1.0d"));
    expect![[r#"
        @11 g2316: sat ("5711") -> 2: covered
    "#]]
    .assert_eq(&negations("dse.ParseNum.parse(Ljava/lang/String;)I *\"12\""));
    expect![[r#"
        @9 g1196: sat ("") -> 0: covered
        @26 g1226: sat ("\u{ffbf}\u{ffbf}@\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0") -> 0: covered
        @32 g1236: sat ("\u{ffbf}\u{ffbf}@\u{ffbf}\u{ffbf}\u{ffbf}\u{ffbf}\u{ffbf}\u{ffbf}\u{ffbf}.org") -> 0: covered
    "#]]
    .assert_eq(&negations("dse.Email.valid(Ljava/lang/String;)Z *\"ab@cd.org\""));
}
