//! Test names that say what a test shows (Daka et al., ISSTA 2017; EvoSuite's coverage-goal naming,
//! docs/tests.md): `testPopThrowsIllegalStateException`, `testSizeReturningZero`,
//! `testCreatesStackTakingNegative`. Each test's *facts* are the goals of four criteria it covers,
//! computed from its statements and what they gave when it ran: the members of the class under test
//! it calls (method), the exception its last call throws (exception), the kind of value each call
//! returns (output) and of each argument it passes (input). A test is named after the facts it
//! alone shows in the suite, the strongest kind first; tests whose names still collide get more of
//! their facts while the name stays within [`MAX_CHARS`], then a number. Everything is ordered by
//! value, so equal suites get equal names.

use std::collections::{BTreeMap, BTreeSet};

use testcase::{Statement, VarId};

use crate::JUnitTest;
use crate::names::SourceName;

/// Names are at most this long (EvoSuite allows 70; shorter reads better in a test report).
pub const MAX_CHARS: usize = 60;
const PREFIX: &str = "test";
/// Facts of one kind used together in a name at most; past it one representative is taken.
const MAX_SIMILAR: usize = 2;
/// The rank of [`Fact::Given`], the weakest.
const GIVEN: u8 = 4;
/// Constant arguments with a longer word are not spelled out.
const MAX_LITERAL: usize = 12;

/// How the tests of a class are named (`--test-names`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TestNames {
    /// From what each test shows ([`names`]), the default.
    Descriptive,
    /// `test00`, `test01`, ... in suite order, as EvoSuite's numbered strategy.
    Numbered,
}

/// The kind of a value a call returned or was passed (EvoSuite's input/output value classes).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueKind {
    True,
    False,
    Negative,
    Zero,
    Positive,
    NaN,
    Letter,
    Digit,
    Char,
    EmptyString,
    NonEmptyString,
    EmptyArray,
    NonEmptyArray,
    Null,
    NonNull,
    /// An enum constant by its name (`RED`), or a string that is one short word (`"full"`): the
    /// value itself says more than its class.
    Word(String),
}

impl ValueKind {
    /// The kind of a number's sign (`NaN` for a float that is not a number).
    pub fn of_number(x: f64) -> ValueKind {
        if x.is_nan() {
            ValueKind::NaN
        } else if x < 0.0 {
            ValueKind::Negative
        } else if x == 0.0 {
            ValueKind::Zero
        } else {
            ValueKind::Positive
        }
    }

    /// The kind of a `char` (a UTF-16 unit).
    pub fn of_char(c: u16) -> ValueKind {
        match char::from_u32(u32::from(c)) {
            Some(c) if c.is_alphabetic() => ValueKind::Letter,
            Some(c) if c.is_ascii_digit() => ValueKind::Digit,
            _ => ValueKind::Char,
        }
    }

    fn word(&self) -> String {
        match self {
            ValueKind::Word(name) => camel(name),
            other => format!("{other:?}"),
        }
    }
}

/// A member of the class under test as a name shows it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Member {
    /// The method's name, or `None` for a constructor.
    method: Option<String>,
    /// The simple name of the class (a constructor's word).
    class: String,
    descriptor: String,
}

/// One goal a test covers, as naming uses it; the variant order is the rank (exceptions say most).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Fact {
    Throws(Member, String),
    Calls(Member),
    Returns(Member, ValueKind),
    Takes(Member, ValueKind),
    /// The constant arguments of a call in words (`3And3`, `Minus1AndWoof`): the last resort to
    /// tell apart tests that show the same of everything else, never a name's first fact.
    Given(Member, String),
}

impl Fact {
    fn member(&self) -> &Member {
        match self {
            Fact::Throws(m, _)
            | Fact::Calls(m)
            | Fact::Returns(m, _)
            | Fact::Takes(m, _)
            | Fact::Given(m, _) => m,
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Fact::Throws(..) => 0,
            Fact::Calls(..) => 1,
            Fact::Returns(..) => 2,
            Fact::Takes(..) => 3,
            Fact::Given(..) => GIVEN,
        }
    }
}

/// A test's facts, each with the position of the last statement showing it (later calls are what a
/// test builds up to, so they represent it).
type Facts = BTreeMap<Fact, usize>;

/// The names of `tests` for the class under test `cut` (a binary name), one per test, unique, Java
/// identifiers of at most [`MAX_CHARS`] characters. `values[t][i]` is the kind of the value statement
/// `i` of test `t` gave when it ran (`None`: none, or not known); constants need none.
pub fn names(cut: &str, tests: &[JUnitTest], values: &[Vec<Option<ValueKind>>]) -> Vec<String> {
    let facts: Vec<Facts> = tests
        .iter()
        .enumerate()
        .map(|(t, test)| facts_of(cut, test, values.get(t).map_or(&[], Vec::as_slice)))
        .collect();
    let overloaded = overloaded(&facts);
    let mut shown_by: BTreeMap<&Fact, usize> = BTreeMap::new();
    for f in facts.iter().flat_map(|f| f.keys()) {
        *shown_by.entry(f).or_default() += 1;
    }
    let name = |c: &BTreeSet<Fact>, f: &Facts| compose(c, f, &overloaded);
    let mut chosen: Vec<BTreeSet<Fact>> = (0..tests.len())
        .map(|t| {
            let mut c = initial(&facts[t], &shown_by);
            // Two facts that make too long a name: the one shown last alone.
            if c.len() > 1 && name(&c, &facts[t]).len() > MAX_CHARS {
                let of: Vec<(&Fact, usize)> =
                    c.iter().map(|f| (f, facts[t].get(f).copied().unwrap_or(0))).collect();
                c = representative(&of).into_iter().collect();
            }
            // A test that ends in an exception says so, even when other tests throw it too.
            if let Some(throws) = facts[t].keys().find(|f| matches!(f, Fact::Throws(..)))
                && !c.contains(throws)
            {
                let mut with = c.clone();
                with.insert(throws.clone());
                if name(&with, &facts[t]).len() <= MAX_CHARS {
                    c = with;
                }
            }
            c
        })
        .collect();
    // Add facts to colliding names while that separates them; each round adds at least one fact,
    // so this ends.
    loop {
        let current: Vec<String> = chosen.iter().zip(&facts).map(|(c, f)| name(c, f)).collect();
        let mut changed = false;
        for group in collisions(&current) {
            if current[group[0]].len() >= MAX_CHARS {
                continue;
            }
            for &t in &group {
                let others: Vec<&Facts> = group.iter().filter(|&&o| o != t).map(|&o| &facts[o]).collect();
                // The best fact that keeps the name within bounds.
                for extra in separating(&facts[t], &chosen[t], &others) {
                    let mut more = chosen[t].clone();
                    more.insert(extra);
                    if name(&more, &facts[t]).len() <= MAX_CHARS {
                        chosen[t] = more;
                        changed = true;
                        break;
                    }
                }
            }
        }
        if !changed {
            return numbered_apart(current);
        }
    }
}

/// The facts of one test: every call of a member of the class under test (or of a class nested in
/// it), what it returned or threw, and the kinds of its arguments.
fn facts_of(cut: &str, test: &JUnitTest, values: &[Option<ValueKind>]) -> Facts {
    let sts = &test.case.statements;
    let kind = |v: VarId| -> Option<ValueKind> {
        match sts.get(v.index())? {
            Statement::Primitive(p) => constant_kind(*p),
            Statement::String(s) => Some(string_kind(s)),
            Statement::Null(_) => Some(ValueKind::Null),
            _ => values.get(v.index()).cloned().flatten(),
        }
    };
    let mut out = Facts::new();
    for (i, st) in sts.iter().enumerate() {
        let (member, args) = match st {
            Statement::Constructor { ctor, args } if in_cut(cut, &ctor.class) => (
                Member { method: None, class: simple(&ctor.class), descriptor: ctor.descriptor.clone() },
                args,
            ),
            Statement::Method { method, args, .. }
                if in_cut(cut, &method.class)
                    || method.owner.class_name().is_some_and(|c| in_cut(cut, c)) =>
            {
                let m = Member {
                    method: Some(method.name.clone()),
                    class: simple(&method.class),
                    descriptor: method.descriptor.clone(),
                };
                (m, args)
            }
            _ => continue,
        };
        let last = i + 1 == sts.len();
        match (&test.expected_exception, last) {
            (Some(e), true) => {
                out.insert(Fact::Throws(member.clone(), simple(e)), i);
            }
            _ => {
                if let Some(k) = values.get(i).cloned().flatten() {
                    out.insert(Fact::Returns(member.clone(), k), i);
                }
            }
        }
        for a in args {
            if let Some(k) = kind(*a) {
                out.insert(Fact::Takes(member.clone(), k), i);
            }
        }
        let literals: Option<Vec<String>> = args.iter().map(|a| literal(sts.get(a.index())?)).collect();
        if let Some(words) = literals.filter(|w| !w.is_empty()) {
            out.insert(Fact::Given(member.clone(), words.join("And")), i);
        }
        out.insert(Fact::Calls(member), i);
    }
    out
}

/// A constant argument as a word of a name: `3`, `Minus3`, `True`, `Null`, a one-word string
/// (`Woof`), `EmptyString`; `None` for other values (floats, characters, long strings, variables).
fn literal(st: &Statement) -> Option<String> {
    use testcase::PrimValue as P;
    let int = |x: i64| if x < 0 { format!("Minus{}", x.unsigned_abs()) } else { x.to_string() };
    let w = match st {
        Statement::Primitive(P::Boolean(b)) => capital(&b.to_string()),
        Statement::Primitive(P::Byte(x)) => int(i64::from(*x)),
        Statement::Primitive(P::Short(x)) => int(i64::from(*x)),
        Statement::Primitive(P::Int(x)) => int(i64::from(*x)),
        Statement::Primitive(P::Long(x)) => int(*x),
        Statement::Null(_) => "Null".to_string(),
        Statement::String(s) => match string_kind(s) {
            ValueKind::Word(w) => capital(&w),
            ValueKind::EmptyString => "EmptyString".to_string(),
            _ => return None,
        },
        _ => return None,
    };
    (w.len() <= MAX_LITERAL).then_some(w)
}

fn constant_kind(p: testcase::PrimValue) -> Option<ValueKind> {
    use testcase::PrimValue as P;
    Some(match p {
        P::Boolean(true) => ValueKind::True,
        P::Boolean(false) => ValueKind::False,
        P::Char(c) => ValueKind::of_char(c),
        P::Byte(x) => ValueKind::of_number(f64::from(x)),
        P::Short(x) => ValueKind::of_number(f64::from(x)),
        P::Int(x) => ValueKind::of_number(f64::from(x)),
        P::Long(x) => ValueKind::of_number(x.signum() as f64),
        P::Float(b) => ValueKind::of_number(f64::from(f32::from_bits(b))),
        P::Double(b) => ValueKind::of_number(f64::from_bits(b)),
    })
}

/// Strings of one word up to this long are named by their value.
const MAX_WORD: usize = 16;

/// The kind of a string value: empty, one short word (`Word("full")`), or any other.
pub fn string_kind(s: &str) -> ValueKind {
    let word = s.len() <= MAX_WORD
        && s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric());
    if s.is_empty() {
        ValueKind::EmptyString
    } else if word {
        ValueKind::Word(s.to_string())
    } else {
        ValueKind::NonEmptyString
    }
}

/// Whether `class` (binary) is the class under test or nested in it.
fn in_cut(cut: &str, class: &str) -> bool {
    class == cut || class.strip_prefix(cut).is_some_and(|rest| rest.starts_with('$'))
}

/// The simple name of a binary class name (`a.Outer$Inner` -> `Inner`).
fn simple(binary: &str) -> String {
    let n = SourceName::parse(binary);
    n.nested.last().cloned().unwrap_or(n.top)
}

/// The method names (constructors as `<init>` of their class) called with more than one descriptor
/// in the suite: their words say which overload.
fn overloaded(facts: &[Facts]) -> BTreeSet<(Option<String>, String)> {
    let mut descriptors: BTreeMap<(Option<String>, String), BTreeSet<&str>> = BTreeMap::new();
    for f in facts.iter().flat_map(|f| f.keys()) {
        let m = f.member();
        descriptors.entry((m.method.clone(), m.class.clone())).or_default().insert(&m.descriptor);
    }
    descriptors.into_iter().filter(|(_, d)| d.len() > 1).map(|(k, _)| k).collect()
}

/// The facts a test is first named after: of those no other test shows, the strongest kind; up to
/// [`MAX_SIMILAR`] of them, else the one shown last. With nothing unique, its strongest fact.
fn initial(facts: &Facts, shown_by: &BTreeMap<&Fact, usize>) -> BTreeSet<Fact> {
    let unique: Facts =
        facts.iter().filter(|(f, _)| shown_by.get(f) == Some(&1)).map(|(f, &p)| (f.clone(), p)).collect();
    let first: Facts = facts.iter().filter(|(f, _)| f.rank() < GIVEN).map(|(f, &p)| (f.clone(), p)).collect();
    let unique: Facts = unique.into_iter().filter(|(f, _)| f.rank() < GIVEN).collect();
    let pool = if unique.is_empty() { &first } else { &unique };
    let Some(top) = pool.keys().map(Fact::rank).min() else { return BTreeSet::new() };
    let of_top: Vec<(&Fact, usize)> =
        pool.iter().filter(|(f, _)| f.rank() == top).map(|(f, &p)| (f, p)).collect();
    if of_top.len() <= MAX_SIMILAR && !unique.is_empty() {
        of_top.into_iter().map(|(f, _)| f.clone()).collect()
    } else {
        representative(&of_top).into_iter().collect()
    }
}

/// The fact shown last (the first in order among those at the same statement).
fn representative(facts: &[(&Fact, usize)]) -> Option<Fact> {
    let last = facts.iter().map(|&(_, p)| p).max()?;
    facts.iter().find(|&&(_, p)| p == last).map(|(f, _)| (*f).clone())
}

/// How well a fact separates: (none of the others shows it: 0, not all: 1; rank; latest first).
type SeparatingKey = (u8, u8, std::cmp::Reverse<usize>);

/// The facts of `mine`, not yet chosen, that tell it from the colliding tests, best first: those
/// none of them shows, then those not all of them show; each group by strength, the latest first.
fn separating(mine: &Facts, chosen: &BTreeSet<Fact>, others: &[&Facts]) -> Vec<Fact> {
    let open = mine.iter().filter(|(f, _)| !chosen.contains(*f));
    let mut ranked: Vec<(SeparatingKey, &Fact)> = open
        .filter_map(|(f, &p)| {
            let tier = if others.iter().all(|o| !o.contains_key(f)) {
                0
            } else if !others.iter().all(|o| o.contains_key(f)) {
                1
            } else {
                return None;
            };
            Some(((tier, f.rank(), std::cmp::Reverse(p)), f))
        })
        .collect();
    ranked.sort();
    ranked.into_iter().map(|(_, f)| f.clone()).collect()
}

/// The name of a set of facts: per member (in the order the test calls them) its word, the kinds
/// it takes and returns and what it throws; members joined by `And`, or `AndCalls` after a
/// constructor. Not cut to [`MAX_CHARS`]: callers compare its length, [`numbered_apart`] cuts.
fn compose(
    chosen: &BTreeSet<Fact>,
    facts: &Facts,
    overloaded: &BTreeSet<(Option<String>, String)>,
) -> String {
    let mut by_member: BTreeMap<&Member, Vec<&Fact>> = BTreeMap::new();
    for f in chosen {
        by_member.entry(f.member()).or_default().push(f);
    }
    let mut members: Vec<(&Member, Vec<&Fact>)> = by_member.into_iter().collect();
    let position = |m: &Member| facts.iter().filter(|(f, _)| f.member() == m).map(|(_, &p)| p).max();
    members.sort_by_key(|(m, _)| position(m));
    let mut name = PREFIX.to_string();
    for (k, (m, fs)) in members.iter().enumerate() {
        if k > 0 {
            name.push_str(if members[k - 1].0.method.is_none() && m.method.is_some() {
                "AndCalls"
            } else {
                "And"
            });
        }
        name.push_str(&member_word(m, overloaded));
        let kinds = |pick: &dyn Fn(&Fact) -> Option<String>| -> Vec<String> {
            fs.iter().filter_map(|f| pick(f)).collect()
        };
        let given = kinds(&|f| if let Fact::Given(_, w) = f { Some(w.clone()) } else { None });
        let takes = kinds(&|f| if let Fact::Takes(_, k) = f { Some(k.word()) } else { None });
        let returns = kinds(&|f| if let Fact::Returns(_, k) = f { Some(k.word()) } else { None });
        let throws = kinds(&|f| if let Fact::Throws(_, e) = f { Some(capital(e)) } else { None });
        for (word, list) in [("With", given), ("Taking", takes), ("Returning", returns), ("Throws", throws)] {
            if !list.is_empty() {
                name.push_str(word);
                name.push_str(&list.join("And"));
            }
        }
    }
    identifier(&name)
}

/// `CreatesStack`, `Pop`, and for an overloaded one its parameters (`PushWithInt`, `CreatesStackWithNoArguments`).
fn member_word(m: &Member, overloaded: &BTreeSet<(Option<String>, String)>) -> String {
    let mut w = match &m.method {
        None => format!("Creates{}", capital(&m.class)),
        Some(n) => capital(n),
    };
    if overloaded.contains(&(m.method.clone(), m.class.clone())) {
        let params = testcase::types::parse_method_sig(&m.descriptor).map(|s| s.params).unwrap_or_default();
        if params.is_empty() {
            w.push_str("WithNoArguments");
        } else {
            w.push_str("With");
            for p in params {
                w.push_str(&capital(&type_word(&p)));
            }
        }
    }
    w
}

fn type_word(t: &testcase::JType) -> String {
    match t {
        testcase::JType::Prim(p) => p.name().to_string(),
        testcase::JType::Array(c) => format!("{}Array", capital(&type_word(c))),
        testcase::JType::Var(v) => v.clone(),
        testcase::JType::Class { name, .. } => simple(name),
    }
}

/// `RED` -> `Red`, `DARK_RED` -> `DarkRed`, `value` -> `Value`.
fn camel(s: &str) -> String {
    if s.chars().any(|c| c.is_ascii_lowercase()) {
        return capital(s);
    }
    s.split('_').filter(|p| !p.is_empty()).map(|p| capital(&p.to_ascii_lowercase())).collect()
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// The name as a plain ASCII Java identifier.
fn identifier(name: &str) -> String {
    name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$').collect()
}

/// The groups (test indices, ascending) of tests sharing a name, in the order of their first test.
fn collisions(names: &[String]) -> Vec<Vec<usize>> {
    let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (t, n) in names.iter().enumerate() {
        by_name.entry(n).or_default().push(t);
    }
    let mut groups: Vec<Vec<usize>> = by_name.into_values().filter(|g| g.len() > 1).collect();
    groups.sort();
    groups
}

/// The names cut to [`MAX_CHARS`], with every name still shared numbered in suite order
/// (`testPush0`, `testPush1`), and any clash that makes with another name numbered on.
fn numbered_apart(names: Vec<String>) -> Vec<String> {
    let mut names: Vec<String> = names.into_iter().map(|n| n.chars().take(MAX_CHARS).collect()).collect();
    for group in collisions(&names) {
        let base = names[group[0]].clone();
        let mut k = 0usize;
        for t in group {
            loop {
                let digits = k.to_string();
                let cut: String = base.chars().take(MAX_CHARS - digits.len()).collect();
                let candidate = format!("{cut}{digits}");
                k += 1;
                if !names.contains(&candidate) {
                    names[t] = candidate;
                    break;
                }
            }
        }
    }
    names
}

#[cfg(test)]
mod tests;
