//! `suitesmith analyze --goal-selection` from outside (issue 19): smart selection's split of a
//! fixture class as the `selection` crate's snapshot has it, and a bad "represents" table as bad
//! input (exit 2, one line).

// Tests run the binary as a user would; only the worker crate spawns processes in the engine.
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::Path;

use common::{stderr_line, suitesmith};

/// `TokenBucket` (digest 002 §8.3) under the default table: a header naming the class and the
/// table, then exactly `crates/selection/test_data/TokenBucket.sel.txt`.
#[test]
fn analyze_goal_selection_prints_the_split() {
    let args = ["analyze", "--classpath", "fixtures/classes/selection", "--class", "selection.TokenBucket"];
    let res = suitesmith(&[&args[..], &["--goal-selection"]].concat(), &[]);
    assert_eq!(res.status.code(), Some(0), "{res:?}");
    let stdout = String::from_utf8_lossy(&res.stdout);
    let snapshot = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../selection/test_data/TokenBucket.sel.txt"),
    )
    .expect("selection snapshot");
    let header =
        "class selection/TokenBucket, represents cbranch>branch,line,weakmutation;methodnoexception>method\n";
    assert_eq!(stdout, format!("{header}{snapshot}"));
}

#[test]
fn a_bad_represents_table_is_bad_input() {
    let res = suitesmith(
        &[
            "analyze",
            "--classpath",
            "fixtures/classes/selection",
            "--class",
            "selection.TokenBucket",
            "--goal-selection",
            "--represents",
            "cbranch>brnch",
        ],
        &[],
    );
    assert_eq!(res.status.code(), Some(2), "{res:?}");
    assert!(stderr_line(&res).contains("unknown criterion `brnch`"), "{res:?}");
}
