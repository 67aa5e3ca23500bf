//! Typing rules of a test: every statement uses only earlier variables that have a value of a type
//! assignable to the slot (EvoSuite's `TestCase.isValid`), and the graceful deletion of a statement
//! that repairs its users with other variables or deletes them too (EvoSuite's
//! `TestFactory.deleteStatementGracefully`).

use crate::statement::{Statement, TestCase, VarId};
use crate::types::{JType, SubtypeOracle, is_assignable};

/// Why a test is not well-typed. `stmt` is the offending statement's index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidTest {
    #[error("statement {stmt} uses {var}, which is not defined before it")]
    ForwardUse { stmt: usize, var: VarId },
    #[error("statement {stmt} uses {var}, which has no value")]
    VoidUse { stmt: usize, var: VarId },
    #[error("statement {stmt}: {var} of type {found} is not assignable to {expected}")]
    NotAssignable { stmt: usize, var: VarId, found: String, expected: String },
    #[error("statement {stmt}: {var} is not an array")]
    NotAnArray { stmt: usize, var: VarId },
    #[error("statement {stmt}: index {index} out of bounds for length {length}")]
    IndexOutOfBounds { stmt: usize, index: u32, length: u32 },
    #[error("statement {stmt}: {what}")]
    Shape { stmt: usize, what: &'static str },
}

/// The type each use of statement `i` must be assignable to, in the order of `Statement::uses`,
/// with array slots resolved from the array variable's type. `None` where the array variable is
/// not an array (which `check` reports).
pub fn expected_use_types(test: &TestCase, i: usize) -> Vec<Option<JType>> {
    let st = &test.statements[i];
    match st {
        Statement::ArrayStore { array, .. } => {
            let arr = test.var_type(*array).filter(|t| matches!(t, JType::Array(_)));
            let comp = match &arr {
                Some(JType::Array(c)) => Some(c.as_ref().clone()),
                _ => None,
            };
            vec![arr, comp]
        }
        Statement::ArrayLoad { ty, .. } => vec![Some(JType::array_of(ty.clone()))],
        _ => st.use_types(),
    }
}

/// The length of the array held by `v` when it is statically known (the variable is a `NewArray`).
fn known_array_length(test: &TestCase, v: VarId) -> Option<u32> {
    match test.statements.get(v.index()) {
        Some(Statement::NewArray { length, .. }) => Some(*length),
        _ => None,
    }
}

/// Checks the typing rules; the first violation found is returned.
pub fn check(test: &TestCase, oracle: &dyn SubtypeOracle) -> Result<(), InvalidTest> {
    (0..test.len()).try_for_each(|i| check_statement(test, i, oracle))
}

/// Checks the typing rules of statement `i` alone (its uses against earlier statements).
pub fn check_statement(test: &TestCase, i: usize, oracle: &dyn SubtypeOracle) -> Result<(), InvalidTest> {
    let st = &test.statements[i];
    {
        match st {
            Statement::Constructor { ctor, args } if ctor.params.len() != args.len() => {
                return Err(InvalidTest::Shape { stmt: i, what: "argument count" });
            }
            Statement::Method { method, receiver, args } => {
                if method.params.len() != args.len() {
                    return Err(InvalidTest::Shape { stmt: i, what: "argument count" });
                }
                if method.is_static == receiver.is_some() {
                    return Err(InvalidTest::Shape { stmt: i, what: "receiver of a static method" });
                }
            }
            Statement::FieldGet { field, receiver } | Statement::FieldSet { field, receiver, .. }
                if field.is_static == receiver.is_some() =>
            {
                return Err(InvalidTest::Shape { stmt: i, what: "receiver of a static field" });
            }
            Statement::Stub { stub, args, answers, throws } => {
                if stub.ctor_params().len() != args.len() || stub.ctor >= stub.stub.constructors.len() {
                    return Err(InvalidTest::Shape { stmt: i, what: "argument count" });
                }
                let methods = &stub.stub.methods;
                if answers.len() != methods.len()
                    || throws.len() != methods.len()
                    || stub.answer_types.len() != methods.len()
                    || methods.iter().zip(answers).any(|(m, a)| m.ret.is_none() && !a.is_empty())
                {
                    return Err(InvalidTest::Shape { stmt: i, what: "stub answers" });
                }
            }
            Statement::NewArray { ty, .. } if !matches!(ty, JType::Array(_)) => {
                return Err(InvalidTest::Shape { stmt: i, what: "array creation of a non-array type" });
            }
            Statement::ArrayStore { array, index, .. } | Statement::ArrayLoad { array, index, .. } => {
                if let Some(length) = known_array_length(test, *array)
                    && *index >= length
                {
                    return Err(InvalidTest::IndexOutOfBounds { stmt: i, index: *index, length });
                }
            }
            _ => {}
        }
        let uses = st.uses();
        let expected = expected_use_types(test, i);
        for (slot, var) in uses.iter().enumerate() {
            if var.index() >= i {
                return Err(InvalidTest::ForwardUse { stmt: i, var: *var });
            }
            let Some(found) = test.var_type(*var) else {
                return Err(InvalidTest::VoidUse { stmt: i, var: *var });
            };
            let Some(want) = expected.get(slot).cloned().flatten() else {
                return Err(InvalidTest::NotAnArray { stmt: i, var: uses[0] });
            };
            // A receiver or array is an object: Java has no `5.hashCode()` (JLS §15.12.1).
            if slot == 0 && found.is_primitive() && receiver_first(st) {
                return Err(InvalidTest::NotAssignable {
                    stmt: i,
                    var: *var,
                    found: found.to_string(),
                    expected: want.to_string(),
                });
            }
            if !is_assignable(oracle, &found, &want) {
                return Err(InvalidTest::NotAssignable {
                    stmt: i,
                    var: *var,
                    found: found.to_string(),
                    expected: want.to_string(),
                });
            }
        }
    }
    Ok(())
}

/// Whether the first use of a statement is a receiver or an array (an object, never a primitive).
pub fn receiver_first(st: &Statement) -> bool {
    matches!(
        st,
        Statement::Method { receiver: Some(_), .. }
            | Statement::FieldGet { receiver: Some(_), .. }
            | Statement::FieldSet { receiver: Some(_), .. }
            | Statement::ArrayStore { .. }
            | Statement::ArrayLoad { .. }
    )
}

/// Earlier variables (before `before`, other than `exclude`) whose type is assignable to `want`,
/// nearest first.
pub fn candidates(
    test: &TestCase,
    oracle: &dyn SubtypeOracle,
    want: &JType,
    before: usize,
    exclude: Option<VarId>,
) -> Vec<VarId> {
    (0..before.min(test.len()))
        .rev()
        .map(|i| VarId(i as u32))
        .filter(|v| Some(*v) != exclude)
        .filter(|v| test.var_type(*v).is_some_and(|t| is_assignable(oracle, &t, want)))
        .collect()
}

/// Removes statement `pos`. Each use of its variable is replaced by the nearest earlier variable of
/// an assignable type when there is one; statements that cannot be repaired are removed the same
/// way, recursively. Returns how many statements were removed. Keeps a valid test valid.
pub fn remove_statement(test: &mut TestCase, pos: usize, oracle: &dyn SubtypeOracle) -> usize {
    if pos >= test.len() {
        return 0;
    }
    let removed = VarId(pos as u32);
    let mut broken = Vec::new();
    for i in pos + 1..test.len() {
        let uses = test.statements[i].uses();
        if !uses.contains(&removed) {
            continue;
        }
        let expected = expected_use_types(test, i);
        let mut repl = Vec::new();
        let mut ok = true;
        for (slot, var) in uses.iter().enumerate() {
            if *var != removed {
                continue;
            }
            let found = expected
                .get(slot)
                .cloned()
                .flatten()
                .and_then(|want| candidates(test, oracle, &want, i, Some(removed)).first().copied());
            match found {
                Some(c) => repl.push((slot, c)),
                None => ok = false,
            }
        }
        if ok {
            let original = test.statements[i].clone();
            let mut slots = test.statements[i].uses_mut();
            for (slot, c) in repl {
                *slots[slot] = c;
            }
            // A new array variable can change what its store accepts (`Object[]` repaired with a
            // `CharSequence[]`), so the repaired statement is checked as a whole.
            if check_statement(test, i, oracle).is_err() {
                test.statements[i] = original;
                broken.push(i);
            }
        } else {
            broken.push(i);
        }
    }
    test.statements.remove(pos);
    for st in &mut test.statements[pos..] {
        for v in st.uses_mut() {
            if v.index() > pos {
                v.0 -= 1;
            }
        }
    }
    // Highest first: removing a later statement never moves an earlier one.
    let mut n = 1;
    for i in broken.into_iter().rev() {
        n += remove_statement(test, i - 1, oracle);
    }
    n
}
