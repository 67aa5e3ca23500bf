//! A solver's model put back into the test it came from (digest B.2.2 step 7): each primitive
//! statement that is an input gets its variable's value as a value of the statement's own Java
//! type (a `byte` statement gets the low 8 bits, a `char` the low 16, ...), and each string input
//! is rebuilt from its length and character variables: characters the model does not give come
//! from the hint (the test's own values), past those from the old string, past that 'a'. Inputs the
//! model leaves out keep their values (the hint's).

use std::collections::BTreeMap;

use solver::{Assignment, Value};
use solver::{ExprId, Op};
use symbolic::{Input, InputOrigin, Replay};
use testcase::{PrimType, PrimValue, Statement, TestCase};

/// `test` (the one replayed) with the values of `model` (falling back on `hint`).
pub fn substitute(
    test: &TestCase,
    inputs: &[Input],
    model: &Assignment,
    hint: &Assignment,
    max_string: u32,
) -> TestCase {
    let value = |v: solver::VarId| model.0.get(&v).or_else(|| hint.0.get(&v)).copied();
    let mut out = test.clone();
    let mut strings: BTreeMap<usize, (Option<i64>, BTreeMap<u32, u16>)> = BTreeMap::new();
    for input in inputs {
        match input.origin {
            InputOrigin::Prim { stmt } => {
                if let (Some(Statement::Primitive(old)), Some(v)) =
                    (out.statements.get_mut(stmt), value(input.var))
                {
                    *old = to_prim(v, old.ty());
                }
            }
            InputOrigin::StrLen { stmt } => {
                if let Some(v) = value(input.var) {
                    strings.entry(stmt).or_default().0 = Some(v.as_i64());
                }
            }
            InputOrigin::StrChar { stmt, index } => {
                if let Some(v) = value(input.var) {
                    strings.entry(stmt).or_default().1.insert(index, v.as_u64() as u16);
                }
            }
        }
    }
    for (stmt, (len, chars)) in strings {
        if let Some(Statement::String(s)) = out.statements.get_mut(stmt) {
            *s = rebuild(s, len, &chars, max_string);
        }
    }
    out
}

/// A string of length `len` (the old length when `None`; clamped to `0..=max(max_string, old
/// length)`), its units from `chars`, else from the old string, else 'a'.
fn rebuild(old: &str, len: Option<i64>, chars: &BTreeMap<u32, u16>, max_string: u32) -> String {
    let old: Vec<u16> = old.encode_utf16().collect();
    let cap = (max_string as usize).max(old.len()) as i64;
    let len = len.map_or(old.len(), |l| l.clamp(0, cap) as usize);
    let units: Vec<u16> = (0..len)
        .map(|i| chars.get(&(i as u32)).copied().or_else(|| old.get(i).copied()).unwrap_or(u16::from(b'a')))
        .collect();
    // A lone surrogate cannot be a Rust string; it becomes U+FFFD, and the check in the JVM then
    // finds the test does not take the solved path (a divergence).
    String::from_utf16_lossy(&units)
}

/// A solver value as a primitive of type `ty`: integers narrowed to the type's width (as Java's
/// casts do), booleans from `Bool` or a non-zero bit-vector, floats from their own sort or
/// converted.
pub fn to_prim(v: Value, ty: PrimType) -> PrimValue {
    let bits = v.as_u64();
    match ty {
        PrimType::Boolean => PrimValue::Boolean(match v {
            Value::Bool(b) => b,
            _ => bits != 0,
        }),
        PrimType::Byte => PrimValue::Byte(bits as u8 as i8),
        PrimType::Char => PrimValue::Char(bits as u16),
        PrimType::Short => PrimValue::Short(bits as u16 as i16),
        PrimType::Int => PrimValue::Int(bits as u32 as i32),
        PrimType::Long => PrimValue::Long(bits as i64),
        PrimType::Float => PrimValue::Float(match v {
            Value::F32(b) => b,
            _ => v.as_f32().to_bits(),
        }),
        PrimType::Double => PrimValue::Double(match v {
            Value::F64(b) => b,
            _ => v.as_f64().to_bits(),
        }),
    }
}

/// Adds to a query, for each string character it constrains, that the character is not a lone
/// UTF-16 surrogate (0xD800..=0xDFFF): our test model holds Rust strings, which cannot carry one,
/// so such a model would be rebuilt with U+FFFD and diverge in the JVM (it did on `dse.Keyword`).
pub fn no_lone_surrogates(replay: &mut Replay, constraints: &mut Vec<ExprId>) {
    let used = replay.arena.vars_of(constraints);
    let chars: Vec<solver::VarId> = replay
        .inputs
        .iter()
        .filter(|i| matches!(i.origin, InputOrigin::StrChar { .. }) && used.contains(&i.var))
        .map(|i| i.var)
        .collect();
    for v in chars {
        let a = &mut replay.arena;
        let c = a.var_expr(v);
        let low = a.konst(Value::char(0xD800));
        let span = a.konst(Value::char(0x800));
        let off = a.mk(Op::Sub, &[c, low]);
        let inside = a.mk(Op::Ult, &[off, span]);
        constraints.push(a.mk(Op::Not, &[inside]));
    }
}
