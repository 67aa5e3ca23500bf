//! The "represents" table (`selection::Represents`): the paper's default, its text form both
//! ways, the errors of a bad table, and the split of configured criteria it gives.

use goals::Criterion::{self, *};
use selection::{Represents, SelectionError};

#[test]
fn default_is_the_papers_grouping() {
    let table = Represents::default();
    assert_eq!(table.to_string(), "cbranch>branch,line,weakmutation;methodnoexception>method");
    assert_eq!(table.to_string().parse::<Represents>(), Ok(table.clone()));
    // Digest §3.3: SC = {DBC, NTMC, EC, OutC}, USC = {BC, LC, WM, TMC}, in `DEFAULT` order.
    let (reps, represented) = table.split(&Criterion::DEFAULT);
    assert_eq!(reps, [Exception, Output, MethodNoException, ContextBranch]);
    assert_eq!(represented, [Line, Branch, WeakMutation, Method]);
}

#[test]
fn rows_of_unconfigured_criteria_have_no_effect() {
    let (reps, represented) = Represents::default().split(&[Branch, Line]);
    assert_eq!((reps, represented), (vec![Branch, Line], vec![]));
    // The artifact's {BRANCH, LINE} -> main BRANCH, penalty LINE needs its own row.
    let table: Represents = "branch>line,weakmutation".parse().unwrap();
    assert_eq!(table.split(&[Branch, Line]), (vec![Branch], vec![Line]));
}

/// A cycle (the artifact's symmetric pairs) resolves greedily in table order.
#[test]
fn cycles_resolve_in_table_order() {
    let table: Represents = "line>branch; branch>line".parse().unwrap();
    assert_eq!(table.split(&[Branch, Line]), (vec![Line], vec![Branch]));
    let table: Represents = "branch>line;line>branch".parse().unwrap();
    assert_eq!(table.split(&[Branch, Line]), (vec![Branch], vec![Line]));
}

#[test]
fn bad_tables_are_errors() {
    let reason = |text: &str| match text.parse::<Represents>() {
        Err(SelectionError::Represents { reason, .. }) => reason,
        Ok(t) => panic!("{text} parsed as {t}"),
    };
    assert_eq!(reason("cbranch>brnch"), "unknown criterion `brnch`");
    assert_eq!(reason("cbranch"), "row `cbranch` has no `>`");
    assert_eq!(reason("line>line"), "`line` represents itself");
    assert_eq!(reason("line>branch;line>method"), "`line` has two rows");
}
