//! Contract checks on the objects a generated suite builds, after Randoop's contracts (Pacheco,
//! Lahiri, Ernst and Ball, "Feedback-directed random test generation", ICSE 2007): `equals` is
//! reflexive, symmetric and false on `null`; `hashCode` agrees with `equals`; `compareTo` is
//! reflexive, antisymmetric and agrees with `equals`; `equals`, `hashCode` and `toString` never
//! throw; an `Iterator`'s `hasNext` tells the truth; and a method of the class under test throws
//! no `NullPointerException`, `ArrayIndexOutOfBoundsException` or `ClassCastException` from its own
//! code on arguments that are not null and in range (docs/contracts.md says which).
//!
//! Each check is a *probe*: a test built from the suite's statements that make the objects (a
//! slice of a minimised test), with the contract's calls appended. Probes run twice through a
//! `postprocess::Runner` (the workers, a real JVM), and a violation counts only when both runs
//! show it. Each violation comes with its probe as a minimal test that fails by design: the
//! contract written as an assertion (`Check::Contract`), or the call that must not throw left
//! uncaught.
//!
//! The crate does not render, compile or write the tests, nor check that they fail in a fresh JVM
//! (the engine does, through its verifier); it knows no goals.

mod judge;
mod probe;

use postprocess::{PostError, Runner};
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use programdb::ProgramDb;
use protocol::Outcome;
use testcase::assertion::JUnitTest;
use testcase::{PrimValue, Statement, TestCase};

/// The contracts checked, in the order violations are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ContractKind {
    /// `x.equals(x)` is false.
    EqualsReflexive,
    /// `x.equals(y)` differs from `y.equals(x)`.
    EqualsSymmetric,
    /// `x.equals(null)` is true.
    EqualsNull,
    /// `equals` throws.
    EqualsThrows,
    /// `x.equals(y)` but `x.hashCode() != y.hashCode()`.
    HashCodeConsistent,
    /// `hashCode` throws.
    HashCodeThrows,
    /// `toString` throws.
    ToStringThrows,
    /// `x.compareTo(x)` is not 0.
    CompareToReflexive,
    /// `x.compareTo(y)` and `y.compareTo(x)` do not have opposite signs.
    CompareToAntisymmetric,
    /// `x.compareTo(y) == 0` differs from `x.equals(y)`.
    CompareToEquals,
    /// `hasNext()` is true, then `next()` throws `NoSuchElementException`.
    IteratorHasNext,
    /// `hasNext()` is false, then `next()` returns.
    IteratorNextPastEnd,
    /// A method throws `NullPointerException` from its own code on non-null arguments.
    NullPointerInside,
    /// A method throws `ArrayIndexOutOfBoundsException` from its own code on arguments in range.
    IndexInside,
    /// A method throws `ClassCastException` from its own code on non-null arguments.
    CastInside,
}

impl ContractKind {
    /// The name in report.json.
    pub fn name(self) -> &'static str {
        match self {
            ContractKind::EqualsReflexive => "equals_reflexive",
            ContractKind::EqualsSymmetric => "equals_symmetric",
            ContractKind::EqualsNull => "equals_null",
            ContractKind::EqualsThrows => "equals_throws",
            ContractKind::HashCodeConsistent => "hash_code_consistent",
            ContractKind::HashCodeThrows => "hash_code_throws",
            ContractKind::ToStringThrows => "to_string_throws",
            ContractKind::CompareToReflexive => "compare_to_reflexive",
            ContractKind::CompareToAntisymmetric => "compare_to_antisymmetric",
            ContractKind::CompareToEquals => "compare_to_equals",
            ContractKind::IteratorHasNext => "iterator_has_next",
            ContractKind::IteratorNextPastEnd => "iterator_next_past_end",
            ContractKind::NullPointerInside => "null_pointer_inside",
            ContractKind::IndexInside => "index_inside",
            ContractKind::CastInside => "cast_inside",
        }
    }

    /// The words a violation test's name is made of (`testEqualsIsNotReflexive`).
    pub fn title(self) -> &'static str {
        match self {
            ContractKind::EqualsReflexive => "EqualsIsNotReflexive",
            ContractKind::EqualsSymmetric => "EqualsIsNotSymmetric",
            ContractKind::EqualsNull => "EqualsNullIsTrue",
            ContractKind::EqualsThrows => "EqualsThrows",
            ContractKind::HashCodeConsistent => "HashCodeDisagreesWithEquals",
            ContractKind::HashCodeThrows => "HashCodeThrows",
            ContractKind::ToStringThrows => "ToStringThrows",
            ContractKind::CompareToReflexive => "CompareToIsNotReflexive",
            ContractKind::CompareToAntisymmetric => "CompareToIsNotAntisymmetric",
            ContractKind::CompareToEquals => "CompareToDisagreesWithEquals",
            ContractKind::IteratorHasNext => "HasNextLies",
            ContractKind::IteratorNextPastEnd => "NextReturnsPastTheEnd",
            ContractKind::NullPointerInside => "NullPointerException",
            ContractKind::IndexInside => "ArrayIndexOutOfBounds",
            ContractKind::CastInside => "ClassCastException",
        }
    }

    /// The method an object contract is about (`equals` for all four of its contracts, whichever
    /// probe showed it); `None` for the exceptions from inside, which name the method called.
    pub fn method(self) -> Option<&'static str> {
        Some(match self {
            ContractKind::EqualsReflexive
            | ContractKind::EqualsSymmetric
            | ContractKind::EqualsNull
            | ContractKind::EqualsThrows => "equals",
            ContractKind::HashCodeConsistent | ContractKind::HashCodeThrows => "hashCode",
            ContractKind::ToStringThrows => "toString",
            ContractKind::CompareToReflexive
            | ContractKind::CompareToAntisymmetric
            | ContractKind::CompareToEquals => "compareTo",
            ContractKind::IteratorHasNext => "hasNext",
            ContractKind::IteratorNextPastEnd => "next",
            ContractKind::NullPointerInside | ContractKind::IndexInside | ContractKind::CastInside => {
                return None;
            }
        })
    }

    /// Whether the contract is about one method of the class (the exceptions from inside) rather
    /// than about its objects: those are reported once per method, the others once per class.
    pub fn per_method(self) -> bool {
        matches!(self, ContractKind::NullPointerInside | ContractKind::IndexInside | ContractKind::CastInside)
    }
}

/// One contract broken, with the test that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub kind: ContractKind,
    /// The class (binary name) whose object or method breaks the contract.
    pub class: String,
    /// The method that breaks it (`equals`, `initials`).
    pub method: String,
    /// What happened, in one line (no variable names: `x.equals(x) returned false`).
    pub message: String,
    /// The minimal test that shows it, failing by design where the contract is broken; named.
    pub test: JUnitTest,
}

/// What [`find`] looks at. No `Default`: [`ContractConfig::new`] gives the product's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractConfig {
    /// The class under test (binary name): objects of it and of its nested classes are checked,
    /// and its methods for exceptions from inside.
    pub cut: String,
    /// Objects checked, the first distinct ones in suite order; pairs are formed among them.
    pub max_objects: usize,
    /// Probes per runner batch; the runner's deadline is checked between batches.
    pub batch: usize,
}

impl ContractConfig {
    /// 16 objects (136 pairs), batches of 128 probes.
    pub fn new(cut: &str) -> ContractConfig {
        ContractConfig { cut: cut.to_string(), max_objects: 16, batch: 128 }
    }
}

/// What [`find`] found and did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// One per contract and class (per method for the exceptions from inside), in
    /// [`ContractKind`] order, then by class and method.
    pub violations: Vec<Violation>,
    /// Probes built and run (each twice).
    pub probes: usize,
    /// Whether the runner's time ran out before every probe ran (the rest were not judged).
    pub stopped_early: bool,
}

/// Checks the contracts on what `suite` (minimised tests) builds: the suite is run twice, the
/// probes are built from it and run twice, and the violations both runs of a probe agree on are
/// returned, one per contract and class (or method).
pub fn find(
    runner: &mut dyn Runner,
    suite: &[TestCase],
    db: &ProgramDb,
    config: &ContractConfig,
) -> Result<Found, PostError> {
    let mut found = Found::default();
    let base = run_twice(runner, suite, config.batch)?;
    if base.len() < suite.len() {
        found.stopped_early = true;
        return Ok(found);
    }
    let probes = probe::build(suite, &base, db, config);
    found.probes = probes.len();
    let cases: Vec<TestCase> = probes.iter().map(|p| p.case.clone()).collect();
    let runs = run_twice(runner, &cases, config.batch)?;
    found.stopped_early = runs.len() < probes.len();
    // (kind, class, method) -> the verdict with the shortest test; the first of equal length.
    let mut best: BTreeMap<(ContractKind, String, String), judge::Verdict> = BTreeMap::new();
    for (p, (first, second)) in probes.iter().zip(&runs) {
        let Some(v) = judge::judge(p, first, &config.cut) else { continue };
        if judge::judge(p, second, &config.cut).as_ref() != Some(&v) {
            continue;
        }
        // An object contract is about its method whichever probe showed it (`equals` throwing in
        // the `hashCode` probe is `equals`'s violation).
        let method = v.kind.method().map_or_else(|| p.method.clone(), str::to_string);
        match best.entry((v.kind, p.class.clone(), method)) {
            Entry::Occupied(mut slot) if slot.get().test.case.len() > v.test.case.len() => {
                slot.insert(v);
            }
            Entry::Occupied(_) => {}
            Entry::Vacant(slot) => {
                slot.insert(v);
            }
        }
    }
    let mut names: Vec<String> = Vec::new();
    for ((kind, class, method), v) in best {
        let mut test = v.test;
        test.name = Some(unique_name(&mut names, kind, &method));
        found.violations.push(Violation { kind, class, method, message: v.message, test });
    }
    Ok(found)
}

/// `test<Title>` (with the method for the exceptions from inside), numbered when taken.
fn unique_name(names: &mut Vec<String>, kind: ContractKind, method: &str) -> String {
    let mut base = format!("test{}", kind.title());
    if kind.per_method() {
        let mut m = method.chars();
        if let Some(c) = m.next() {
            base.push_str("In");
            base.push(c.to_ascii_uppercase());
            base.extend(m.filter(char::is_ascii_alphanumeric));
        }
    }
    let mut name = base.clone();
    let mut k = 1;
    while names.contains(&name) {
        k += 1;
        name = format!("{base}{k}");
    }
    names.push(name.clone());
    name
}

/// Outcomes of two runs of one test.
pub(crate) type TwoRuns = (Vec<Outcome>, Vec<Outcome>);

/// Runs every test twice (the second time as an equivalent copy with one unused constant first,
/// which a caching runner must execute again), in batches; stops before a batch once the runner's
/// time is up, returning the runs of the tests before it.
fn run_twice(runner: &mut dyn Runner, tests: &[TestCase], batch: usize) -> Result<Vec<TwoRuns>, PostError> {
    let mut out = Vec::with_capacity(tests.len());
    for chunk in tests.chunks(batch.max(1)) {
        if runner.out_of_time() {
            break;
        }
        let first = checked(chunk.len(), runner.run(chunk))?;
        let copies: Vec<TestCase> = chunk.iter().map(distinct).collect();
        let second = checked(chunk.len(), runner.run(&copies))?;
        for (a, b) in first.into_iter().zip(second) {
            out.push((a.outcomes, b.outcomes.get(1..).unwrap_or(&[]).to_vec()));
        }
    }
    Ok(out)
}

fn checked(
    want: usize,
    results: Result<Vec<exec::ExecResult>, postprocess::RunnerError>,
) -> Result<Vec<exec::ExecResult>, PostError> {
    let results = results.map_err(PostError::Runner)?;
    if results.len() != want {
        return Err(PostError::ResultCount { want, got: results.len() });
    }
    Ok(results)
}

/// The test with one unused constant first.
fn distinct(test: &TestCase) -> TestCase {
    let mut t = test.clone();
    t.insert(0, Statement::Primitive(PrimValue::Int(0)));
    t
}
