//! The expansion of paper 004 §III.B (digest B.2.2 step 2), done on a test before it is replayed
//! concolically: every use of a primitive or string variable gets a statement of its own holding
//! the same value, so that each occurrence is an independent symbolic input (`same(x, x)` becomes
//! `same(x1, x2)`, whose negation `x1 != x2` is satisfiable where `x != x` is not), and every slot of
//! a primitive array the test creates that the test never stores into gets an explicit store of
//! the default value, so that each slot is an input too. The expanded test runs exactly as the
//! original (same values, same calls, same order); it only has more statements.

use testcase::{JType, PrimType, PrimValue, Statement, TestCase, VarId};

/// Arrays longer than this get no default stores: each store is a statement and an input, and a
/// test with thousands of them would swamp the interpreter and the solver for little gain.
pub const MAX_EXPANDED_SLOTS: u32 = 32;

/// The expanded copy of `test` (see the module's doc). Idempotent: expanding an expanded test
/// changes nothing.
pub fn expand(test: &TestCase) -> TestCase {
    let mut t = test.clone();
    split_shared_values(&mut t);
    store_default_slots(&mut t);
    t
}

/// Whether a statement is a value the expansion duplicates (and the interpreter makes symbolic).
fn is_value(st: &Statement) -> bool {
    matches!(st, Statement::Primitive(_) | Statement::String(_))
}

/// Every use of a primitive or string statement after its first gets a copy of the statement,
/// inserted right before the user.
fn split_shared_values(t: &mut TestCase) {
    let mut used = vec![false; t.len()];
    let mut i = 0;
    while i < t.len() {
        let uses = t.statements[i].uses();
        let mut inserted = 0;
        for (slot, v) in uses.iter().enumerate() {
            // `v` was renumbered by the insertions before `i` only if it is at or after them, and
            // insertions happen right before `i`, so earlier definitions keep their index.
            let def = v.index();
            if def >= t.len() || !is_value(&t.statements[def]) {
                continue;
            }
            if !used[def] {
                used[def] = true;
                continue;
            }
            let copy = t.statements[def].clone();
            let user = i + inserted;
            let new = t.insert(user, copy);
            used.insert(new.index(), true);
            inserted += 1;
            // The user moved one up; point its `slot`-th use at the copy.
            if let Some(u) = t.statements[user + 1].uses_mut().into_iter().nth(slot) {
                *u = new;
            }
        }
        i += inserted + 1;
    }
}

/// A default store for every unstored slot of every primitive array the test creates.
fn store_default_slots(t: &mut TestCase) {
    let mut i = 0;
    while i < t.len() {
        let Statement::NewArray { ty: JType::Array(component), length } = &t.statements[i] else {
            i += 1;
            continue;
        };
        let (Some(p), length) = (component.as_primitive(), *length) else {
            i += 1;
            continue;
        };
        if length > MAX_EXPANDED_SLOTS {
            i += 1;
            continue;
        }
        let array = VarId(i as u32);
        let stored: Vec<u32> = t.statements[i + 1..]
            .iter()
            .filter_map(|s| match s {
                Statement::ArrayStore { array: a, index, .. } if *a == array => Some(*index),
                _ => None,
            })
            .collect();
        let mut at = i + 1;
        for index in (0..length).filter(|x| !stored.contains(x)) {
            let value = t.insert(at, Statement::Primitive(default_value(p)));
            t.insert(at + 1, Statement::ArrayStore { array, index, value });
            at += 2;
        }
        i = at;
    }
}

/// Java's default value of a primitive type.
pub fn default_value(p: PrimType) -> PrimValue {
    match p {
        PrimType::Boolean => PrimValue::Boolean(false),
        PrimType::Byte => PrimValue::Byte(0),
        PrimType::Char => PrimValue::Char(0),
        PrimType::Short => PrimValue::Short(0),
        PrimType::Int => PrimValue::Int(0),
        PrimType::Long => PrimValue::Long(0),
        PrimType::Float => PrimValue::float(0.0),
        PrimType::Double => PrimValue::double(0.0),
    }
}

/// The statements of a test that the interpreter makes symbolic: its primitive and string values.
pub fn symbolic_statements(test: &TestCase) -> Vec<usize> {
    (0..test.len()).filter(|&i| is_value(&test.statements[i])).collect()
}
