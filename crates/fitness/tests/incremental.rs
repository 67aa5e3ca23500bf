//! `goal_fitness` (incremental: only the goals of the methods a trace touches are recomputed over
//! the model's empty-trace baseline) must give exactly `goal_fitness_reference`'s values (every
//! goal computed from scratch) on real traces: random calls of the fixture classes and of
//! commons-lang3's `StringUtils` (~15k goals) run in a JVM, each trace scored both ways, and also
//! derived traces that drop part of the data (hits without branches, branches without hits, every
//! other hit), which a real run rarely shows but the touched-method logic must survive.

use std::path::{Path, PathBuf};

use classfile::access;
use exec::JvmExecutor;
use fitness::{GoalModel, goal_fitness, goal_fitness_reference};
use protocol::{Statement, Trace, Var};
use worker::{Java, Pool, WorkerConfig};

/// A small deterministic generator (xorshift64), so that the test needs no seed plumbing.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A callable member with parameters the generator can make.
struct Callable {
    class: String,
    name: String,
    descriptor: String,
    params: Vec<char>,
    is_static: bool,
}

/// The parameter kinds of a descriptor when all are `I J Z C D` or `String`.
fn simple_params(descriptor: &str) -> Option<Vec<char>> {
    let inner = descriptor.strip_prefix('(')?.split(')').next()?;
    let mut out = Vec::new();
    let mut rest = inner;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("Ljava/lang/String;") {
            out.push('S');
            rest = r;
            continue;
        }
        let c = rest.chars().next()?;
        if !"IJZCD".contains(c) {
            return None;
        }
        out.push(c);
        rest = &rest[1..];
    }
    Some(out)
}

fn arg(rng: &mut Rng, kind: char) -> Statement {
    const INTS: [i32; 9] = [0, 1, -1, 2, 3, 7, 10, 100, -42];
    const STRINGS: [&str; 8] = ["", "a", "abc", " ab c ", "Hello World", "a1B2", "xyzxyz", "  "];
    match kind {
        'I' => Statement::int(INTS[rng.below(INTS.len())]),
        'J' => Statement::long(INTS[rng.below(INTS.len())] as i64),
        'Z' => Statement::boolean(rng.below(2) == 0),
        'C' => Statement::Primitive { ty: protocol::PrimType::Char, bits: b"a Z1,"[rng.below(5)] as u64 },
        'D' => Statement::double([0.0, 1.5, -2.0, 1e9][rng.below(4)]),
        _ => Statement::string(STRINGS[rng.below(STRINGS.len())]),
    }
}

/// A test of one to three calls: static methods with simple arguments, or an instance method on
/// an object built by a simple constructor.
fn random_test(rng: &mut Rng, calls: &[Callable], ctors: &[Callable]) -> Vec<Statement> {
    let mut t: Vec<Statement> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let c = &calls[rng.below(calls.len())];
        let receiver = if c.is_static {
            None
        } else {
            let Some(k) = ctors.iter().find(|k| k.class == c.class) else { continue };
            let args = k.params.iter().map(|&p| push(&mut t, arg(rng, p))).collect();
            Some(push(
                &mut t,
                Statement::Constructor { class: k.class.clone(), descriptor: k.descriptor.clone(), args },
            ))
        };
        let args = c.params.iter().map(|&p| push(&mut t, arg(rng, p))).collect();
        push(
            &mut t,
            Statement::Method {
                class: c.class.clone(),
                name: c.name.clone(),
                descriptor: c.descriptor.clone(),
                is_static: c.is_static,
                receiver,
                args,
            },
        );
    }
    t
}

fn push(t: &mut Vec<Statement>, s: Statement) -> Var {
    t.push(s);
    Var(t.len() as u16 - 1)
}

/// Plans, instruments and runs `n` random tests of `classes` (internal names) found on
/// `classpath`; returns the model and the traces.
fn traces_of(classpath: &[PathBuf], classes: &[String], n: usize, seed: u64) -> (GoalModel, Vec<Trace>) {
    let db = test_support::open_db(classpath);
    let subject =
        exec::prepare_in(&db, classpath, classes, &instrument::Options::all(), 2000).expect("prepare");
    let cp = classfile::ClassPath::open(classpath).expect("classpath");
    let originals: Vec<Vec<u8>> = subject
        .plan
        .classes()
        .iter()
        .map(|c| cp.class_bytes(&c.name).expect("read").expect("class"))
        .collect();
    let parsed: Vec<classfile::ClassFile> =
        originals.iter().map(|b| classfile::ClassFile::parse(b).expect("parse")).collect();
    let model = GoalModel::build(&subject.plan, &parsed).expect("model");
    let (mut calls, mut ctors) = (Vec::new(), Vec::new());
    for bytes in &originals {
        let class = classfile::ClassFile::parse(bytes).expect("parse");
        if class.access_flags & (access::ABSTRACT | access::INTERFACE) != 0 {
            continue;
        }
        let binary = class.name().replace('/', ".");
        for m in &class.methods {
            let cp = &class.constant_pool;
            let (Some(name), Some(descriptor)) = (m.name(cp), m.descriptor(cp)) else { continue };
            let Some(params) = simple_params(&descriptor) else { continue };
            if m.access_flags & access::PUBLIC == 0 || name == "<clinit>" {
                continue;
            }
            let c = Callable {
                class: binary.clone(),
                name: name.to_string(),
                descriptor: descriptor.to_string(),
                params,
                is_static: m.access_flags & access::STATIC != 0,
            };
            if name == "<init>" { ctors.push(c) } else { calls.push(c) }
        }
    }
    calls.retain(|c| c.is_static || ctors.iter().any(|k| k.class == c.class));
    assert!(calls.len() > 10, "{} callable methods", calls.len());
    let mut rng = Rng(seed);
    let tests: Vec<Vec<Statement>> = (0..n).map(|_| random_test(&mut rng, &calls, &ctors)).collect();
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let pool = Pool::new(WorkerConfig::new(java, worker::runtime_jar().expect("jar"), subject.setup), 1)
        .expect("pool");
    let results = JvmExecutor::new(pool).execute(&tests).expect("execute");
    (model, results.into_iter().map(|r| r.trace).collect())
}

/// Scores `trace` and its derived traces both ways; returns how many goals the trace covers.
fn check(model: &GoalModel, trace: &Trace, what: &str) -> usize {
    let mut variants = vec![trace.clone()];
    let mut no_branches = trace.clone();
    no_branches.branches.clear();
    no_branches.switches.clear();
    variants.push(no_branches);
    let mut no_hits = trace.clone();
    no_hits.hits.clear();
    variants.push(no_hits);
    let mut half = trace.clone();
    half.hits = trace.hits.iter().step_by(2).copied().collect();
    half.branches = trace.branches.iter().skip(1).step_by(2).copied().collect();
    variants.push(half);
    for (k, t) in variants.iter().enumerate() {
        let fast = goal_fitness(model, t);
        let reference = goal_fitness_reference(model, t);
        for (g, (a, b)) in fast.values().iter().zip(reference.values()).enumerate() {
            assert!(a.to_bits() == b.to_bits(), "{what}, variant {k}: goal g{g} {a} != reference {b}");
        }
        assert_eq!(fast.values().len(), reference.values().len());
    }
    goal_fitness(model, trace).covered().count()
}

#[test]
fn incremental_fitness_equals_the_reference_on_fixture_traces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes");
    let mut classpath = Vec::new();
    let mut classes = Vec::new();
    for area in ["behaviour", "search", "context"] {
        let dir = root.join(area);
        for e in std::fs::read_dir(dir.join(area)).expect("fixture dir") {
            let name = e.expect("entry").file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".class") {
                classes.push(format!("{area}/{stem}"));
            }
        }
        classpath.push(dir);
    }
    classes.sort();
    let (model, traces) = traces_of(&classpath, &classes, 300, 0x9E37_79B9_7F4A_7C15);
    let covered: usize = traces.iter().enumerate().map(|(i, t)| check(&model, t, &format!("test {i}"))).sum();
    assert!(covered > 1000, "the random tests cover too little to mean anything ({covered} goals)");
}

#[test]
fn incremental_fitness_equals_the_reference_on_string_utils_traces() {
    let jar = PathBuf::from("/usr/share/java/commons-lang3.jar");
    let cp = classfile::ClassPath::open(std::slice::from_ref(&jar)).expect("jar");
    let cut = "org/apache/commons/lang3/StringUtils";
    let mut classes = vec![cut.to_string()];
    let prefix = format!("{cut}$");
    classes.extend(cp.class_names().filter(|n| n.starts_with(&prefix)).map(str::to_owned));
    let (model, traces) = traces_of(&[jar], &classes, 150, 7);
    assert!(model.n_goals() > 5000, "{} goals", model.n_goals());
    let covered: usize = traces.iter().enumerate().map(|(i, t)| check(&model, t, &format!("test {i}"))).sum();
    assert!(covered > 1000, "the random tests cover too little to mean anything ({covered} goals)");
}
