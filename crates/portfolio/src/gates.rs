//! The static gates: per technique one cheap check over the program database of whether the
//! class under test has anything the technique works on. They are data, one table (`GATES`), so
//! that `analyze` can print it and docs/portfolio.md can state it row by row. A closed gate means
//! the technique costs nothing for that class (the engine turns it off there); an open one says
//! why, naming the member that opened it.
//!
//! The checks read the classes under test: the CUT and every class nested in it (`Cut$...`, which
//! are instrumented with it and whose goals count). The API checks read what a test can call: the
//! non-private, non-synthetic methods and constructors of the CUT and of its named member classes
//! (not anonymous ones, `Cut$1`, which no test names). Each check is a sufficient reason to keep a
//! technique, never a proof that it helps: deciding how much it gets is the allocation's job.
//!
//! Not here: running anything, the test cluster (gates must be cheaper than building it), or
//! deciding goals the technique would reach.

use std::collections::BTreeSet;

use analysis::StackDef;
use bytecode::{Insn, InsnIdx, Opcode};
use classfile::descriptor::{FieldType, MethodDescriptor};
use classfile::{ClassFile, access};
use programdb::{ClassId, MethodId, ProgramDb};

use crate::Arm;

/// What a gate check reads: the database and the class under test.
pub struct GateInput<'a> {
    db: &'a ProgramDb,
    cut: ClassId,
    /// The CUT and every class nested in it, in id order.
    classes: Vec<ClassId>,
    /// The CUT and its named member classes: the classes whose members a test calls.
    api: Vec<ClassId>,
    /// The packages of the JDK, as flag detection excludes them (`flags::FlagConfig::standard`).
    jdk: Vec<String>,
}

/// Why the gates cannot be computed.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    #[error("class {class} does not parse: {message}")]
    Unreadable { class: String, message: String },
}

/// One technique's verdict for one class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    pub arm: Arm,
    pub open: bool,
    /// For an open gate, what opened it (a member of the CUT) or why the row is always open; for
    /// a closed one, the row's `closed` text.
    pub reason: String,
}

/// One row of the table: a technique, its check, and what a closed gate says.
pub struct GateRow {
    pub arm: Arm,
    /// `Some(evidence)` when the gate is open, `None` when it is closed.
    pub check: fn(&GateInput<'_>) -> Option<String>,
    /// What a closed gate says about the class.
    pub closed: &'static str,
}

/// The gates, one row per technique, in `Arm::ALL` order.
pub const GATES: &[GateRow] = &[
    GateRow {
        arm: Arm::Ocg,
        check: ocg,
        closed: "no callable member takes an object of an application class with instance fields, no branch tests a field",
    },
    GateRow {
        arm: Arm::Flags,
        check: flags,
        closed: "no branch on the result of a boolean method of the application",
    },
    GateRow { arm: Arm::GoalSelection, check: goal_selection, closed: "never closed" },
    GateRow {
        arm: Arm::Sushi,
        check: sushi,
        closed: "no public method has a heap input (a parameter of an application class with instance fields, or a receiver with an array or application-class field)",
    },
    GateRow {
        arm: Arm::Dse,
        check: dse,
        closed: "no branch on a number, a character or a method's result, no switch, no division",
    },
    GateRow { arm: Arm::LocalSearch, check: local_search, closed: "no callable member takes a number" },
    GateRow {
        arm: Arm::Stubs,
        check: stubs,
        closed: "the class is concrete and no callable member takes an interface or an abstract class",
    },
    GateRow { arm: Arm::Files, check: files, closed: "no File or Path parameter or field" },
    GateRow { arm: Arm::PackageGenerators, check: package_generators, closed: "never closed" },
    GateRow { arm: Arm::FormatStrings, check: format_strings, closed: "never closed" },
    GateRow { arm: Arm::CodeConstants, check: code_constants, closed: "never closed" },
    GateRow {
        arm: Arm::StringDistance,
        check: string_distance,
        closed: "no class under test calls a string or regex test (equals, startsWith, matches, ...)",
    },
    GateRow { arm: Arm::RegexStrings, check: regex_strings, closed: "never closed" },
];

/// Every gate of the class `cut`, in `GATES` order.
pub fn gates(db: &ProgramDb, cut: ClassId) -> Result<Vec<Gate>, GateError> {
    let input = GateInput::new(db, cut)?;
    Ok(GATES
        .iter()
        .map(|row| match (row.check)(&input) {
            Some(reason) => Gate { arm: row.arm, open: true, reason },
            None => Gate { arm: row.arm, open: false, reason: row.closed.to_string() },
        })
        .collect())
}

/// A member a test can call, with its parsed descriptor.
struct Callable {
    method: MethodId,
    name: String,
    descriptor: MethodDescriptor,
    access: u16,
}

impl<'a> GateInput<'a> {
    /// The classes under test of `cut`; fails when one of them does not parse.
    pub fn new(db: &'a ProgramDb, cut: ClassId) -> Result<GateInput<'a>, GateError> {
        let prefix = format!("{}$", db.class_name(cut));
        let mut classes = vec![cut];
        let mut api = vec![cut];
        for c in db.class_ids().filter(|&c| db.class_name(c).starts_with(&prefix)) {
            classes.push(c);
            let tail = &db.class_name(c)[prefix.len()..];
            // `Cut$1`, `Cut$Inner$2`: anonymous and local classes no test can name.
            if !tail.split('$').any(|part| part.starts_with(|ch: char| ch.is_ascii_digit())) {
                api.push(c);
            }
        }
        for &c in &classes {
            db.class(c).map_err(|e| GateError::Unreadable {
                class: db.class_name(c).to_string(),
                message: e.to_string(),
            })?;
        }
        let jdk = flags::FlagConfig::standard().excluded_prefixes;
        Ok(GateInput { db, cut, classes, api, jdk })
    }

    pub fn db(&self) -> &'a ProgramDb {
        self.db
    }

    pub fn cut(&self) -> ClassId {
        self.cut
    }

    fn file(&self, c: ClassId) -> Option<&'a ClassFile> {
        self.db.class(c).ok()
    }

    /// The members a test may call in the API classes: not private, synthetic or bridges, not
    /// `<clinit>`; constructors included.
    fn callables(&self) -> Vec<Callable> {
        let hidden = access::PRIVATE | access::SYNTHETIC | access::VOLATILE_OR_BRIDGE;
        let mut out = Vec::new();
        for &c in &self.api {
            let Some(cf) = self.file(c) else { continue };
            for m in self.db.methods(c) {
                let Some(member) = self.db.member(m) else { continue };
                let (Some(name), Some(desc)) =
                    (member.name(&cf.constant_pool), member.descriptor(&cf.constant_pool))
                else {
                    continue;
                };
                if member.access_flags & hidden != 0 || name == "<clinit>" {
                    continue;
                }
                let Ok(descriptor) = MethodDescriptor::parse(&desc) else { continue };
                out.push(Callable {
                    method: m,
                    name: name.to_string(),
                    descriptor,
                    access: member.access_flags,
                });
            }
        }
        out
    }

    /// The first callable member with a parameter for which `wanted` says something, with what it
    /// said: `Class.name(desc): <said>`.
    fn first_parameter(&self, wanted: impl Fn(&FieldType) -> Option<String>) -> Option<String> {
        self.callables().iter().find_map(|m| {
            m.descriptor.params.iter().find_map(|p| wanted(p).map(|said| format!("{}: {said}", self.show(m))))
        })
    }

    fn show(&self, m: &Callable) -> String {
        format!("{}.{}{}", self.db.class_name(m.method.class()), m.name, m.descriptor)
    }

    /// The methods with code of every class under test.
    fn bodies(&self) -> impl Iterator<Item = MethodId> + '_ {
        self.classes.iter().flat_map(|&c| self.db.methods(c))
    }

    /// The first reachable instruction of a class under test for which `wanted` holds (given the
    /// instruction, its method's data dependences and body, and its index), as
    /// `Class.name(desc) at i: opcode`.
    fn first_insn(
        &self,
        wanted: impl Fn(&Insn, &analysis::DataDeps, &bytecode::MethodBody, InsnIdx) -> bool,
    ) -> Option<String> {
        self.bodies().find_map(|m| {
            let Some(Ok(body)) = self.db.body(m) else { return None };
            let deps = self.db.data_deps(m)?;
            body.insns.iter().enumerate().find_map(|(i, insn)| {
                let at = InsnIdx::new(i);
                (deps.is_reachable(at) && wanted(insn, deps, body, at))
                    .then(|| format!("{} at {at}: {:?}", self.method_text(m), insn.op()))
            })
        })
    }

    /// `Class.name(desc)` of a method of a class under test.
    fn method_text(&self, m: MethodId) -> String {
        let Some(cf) = self.file(m.class()) else { return String::new() };
        let Some(member) = self.db.member(m) else { return String::new() };
        let cp = &cf.constant_pool;
        format!(
            "{}.{}{}",
            self.db.class_name(m.class()),
            member.name(cp).unwrap_or_default(),
            member.descriptor(cp).unwrap_or_default()
        )
    }

    /// Whether objects of class `name` (internal) have instance fields, their own or inherited from
    /// the application; false for a class not on the classpath, interfaces and enums.
    fn has_instance_fields(&self, name: &str) -> bool {
        self.instance_fields(name).next().is_some()
    }

    /// The instance fields' descriptors of class `name` and its superclasses, those declared in
    /// the JDK left out (`Enum`'s name and ordinal, `ArrayList`'s array are not what a template
    /// or lazy initialisation builds). Enums have none: their values are constants.
    fn instance_fields(&self, name: &str) -> impl Iterator<Item = String> + '_ {
        let mut chain = Vec::new();
        let mut at = self.db.class_id(name);
        if at.is_some_and(|c| self.db.access_flags(c) & access::ENUM != 0) {
            at = None;
        }
        while let Some(c) = at.filter(|&c| !self.is_jdk(self.db.class_name(c))) {
            chain.push(c);
            at = self.db.superclass(c);
        }
        chain.into_iter().filter_map(|c| self.file(c)).flat_map(|cf| {
            cf.fields
                .iter()
                .filter(|f| f.access_flags & access::STATIC == 0)
                .filter_map(|f| f.descriptor(&cf.constant_pool).map(|d| d.to_string()))
        })
    }

    /// Whether class `name` (internal) is in the JDK.
    fn is_jdk(&self, name: &str) -> bool {
        self.jdk.iter().any(|p| name.starts_with(p.as_str()))
    }

    /// Whether class `name` is an interface or an abstract class on the classpath.
    fn is_abstract(&self, name: &str) -> bool {
        self.db
            .class_id(name)
            .is_some_and(|c| self.db.access_flags(c) & (access::INTERFACE | access::ABSTRACT) != 0)
    }
}

/// The class of a reference type, through arrays; `None` for primitives and arrays of them.
fn class_of(t: &FieldType) -> Option<&str> {
    match t {
        FieldType::Base(_) => None,
        FieldType::Object(name) => Some(name),
        FieldType::Array(elem) => class_of(elem),
    }
}

/// An object with structure the techniques build or explore: a class of the application (the
/// JDK's objects, strings and boxes included, come from the cluster's generators, and neither
/// templates nor lazy initialisation look inside them) with instance fields.
fn structured(input: &GateInput<'_>, t: &FieldType) -> Option<String> {
    let c = class_of(t)?;
    (!input.is_jdk(c) && input.has_instance_fields(c)).then(|| format!("{c} has instance fields"))
}

/// OCG (paper 000) builds the objects a branch reads through fields, the receiver's included
/// (`ocg.Vault`'s `code == 4711`): without an object parameter of an application class with
/// fields, and without a branch on a field read, there is nothing for a template to build beyond
/// what the search makes.
fn ocg(input: &GateInput<'_>) -> Option<String> {
    input.first_parameter(|t| structured(input, t)).or_else(|| {
        input
            .first_insn(|insn, deps, body, at| {
                insn.is_conditional()
                    && (0..deps.operands(at).len()).any(|k| {
                        deps.producers(at, k).iter().any(|p| {
                            matches!(p, StackDef::Insn(i) if body.insns[i.index()].op() == Opcode::GETFIELD)
                        })
                    })
            })
            .map(|at| format!("{at} tests a field"))
    })
}

/// Flags (paper 001) give a gradient to a branch on a boolean method's result from the distances
/// inside that method, which must be instrumentable: a flag method in the JDK gives none. The
/// method as named at the call site must be the application's too: a call of a JDK interface
/// (`Iterator.hasNext`) has the application's implementations among its CHA targets, but it is a
/// loop condition, not a flag of the class.
fn flags(input: &GateInput<'_>) -> Option<String> {
    input.bodies().find_map(|m| {
        flags::ipf_branches(input.db, m).into_iter().find_map(|b| {
            let owner = b.callee.split('.').next().unwrap_or_default();
            let outside = !input.is_jdk(owner)
                && b.targets.iter().any(|t| !input.is_jdk(input.db.class_name(t.class())));
            outside.then(|| format!("{} at {} branches on {}", input.method_text(m), b.branch, b.callee))
        })
    })
}

/// Smart selection (paper 002) changes which goals guide and costs no time per generation; no
/// static test of a class says it would not help, so the gate stays open.
fn goal_selection(_: &GateInput<'_>) -> Option<String> {
    Some("always open: it only chooses which goals guide, at no cost per generation".to_string())
}

/// SUSHI (paper 003) explores the CUT's public methods with lazy initialisation of their heap
/// inputs, the receiver included (`symbolic::explore` resolves `this` lazily): a method whose
/// inputs are numbers, strings or field-less objects gives path conditions DSE and the search
/// handle alone. A receiver counts when the CUT has an instance field of an array type or of an
/// application class, where a linked structure can hang.
fn sushi(input: &GateInput<'_>) -> Option<String> {
    let cut = input.db.class_name(input.cut).to_string();
    let receiver_heap = input.instance_fields(&cut).find(|d| match FieldType::parse(d) {
        Ok(FieldType::Array(_)) => true,
        Ok(FieldType::Object(c)) => !input.is_jdk(&c),
        _ => false,
    });
    input.callables().iter().filter(|m| m.method.class() == input.cut).find_map(|m| {
        let entry = m.access & access::PUBLIC != 0
            && m.access & (access::ABSTRACT | access::NATIVE) == 0
            && !m.name.starts_with('<');
        if !entry {
            return None;
        }
        if let Some(field) = receiver_heap.as_ref().filter(|_| m.access & access::STATIC == 0) {
            return Some(format!("{}: its receiver has a field of type {field}", input.show(m)));
        }
        m.descriptor
            .params
            .iter()
            .find_map(|p| structured(input, p).map(|s| format!("{}: {s}", input.show(m))))
    })
}

/// DSE (paper 004) negates branches whose condition its solver can express over the test's
/// numbers and strings: comparisons of numbers and characters, switches, tests of a method's
/// boolean result (`String.equals`, `isEmpty`, which the interpreter models or runs) and the
/// implicit branch of a division. A class whose every branch tests a reference (`ifnull`,
/// `if_acmp*`) or an `instanceof` gives it nothing to solve. A division by a constant counts too:
/// telling it apart needs the producer, and such a class nearly always has a comparison anyway.
fn dse(input: &GateInput<'_>) -> Option<String> {
    input.first_insn(|insn, deps, body, at| {
        insn.is_switch() || (insn.is_conditional() && !on_references(insn, deps, body, at)) || divides(insn)
    })
}

/// An integer division or remainder: its implicit `ArithmeticException` is a branch of the path
/// condition (`symbolic`'s implicit-exception entries) when the divisor is not a constant.
fn divides(insn: &Insn) -> bool {
    matches!(insn.op(), Opcode::IDIV | Opcode::IREM | Opcode::LDIV | Opcode::LREM)
}

/// A conditional jump that tests only references or a type: `ifnull`, `ifnonnull`, `if_acmp*`,
/// and `ifeq`/`ifne` on an `instanceof`.
fn on_references(insn: &Insn, deps: &analysis::DataDeps, body: &bytecode::MethodBody, at: InsnIdx) -> bool {
    match insn.op() {
        Opcode::IFNULL | Opcode::IFNONNULL | Opcode::IF_ACMPEQ | Opcode::IF_ACMPNE => true,
        Opcode::IFEQ | Opcode::IFNE => {
            let producers = deps.producers(at, 0);
            !producers.is_empty()
                && producers.iter().all(|p| match p {
                    StackDef::Insn(i) => body.insns[i.index()].op() == Opcode::INSTANCEOF,
                    StackDef::CaughtException { .. } => false,
                })
        }
        _ => false,
    }
}

/// Local search moves numbers (bytes to doubles and characters, never booleans or strings:
/// docs/localsearch.md): a class whose callable members take no number leaves it nothing to move
/// that reaches the CUT directly.
fn local_search(input: &GateInput<'_>) -> Option<String> {
    fn numeric(t: &FieldType) -> bool {
        match t {
            FieldType::Base(c) => *c != 'Z',
            FieldType::Array(e) => numeric(e),
            FieldType::Object(_) => false,
        }
    }
    input.first_parameter(|t| numeric(t).then(|| format!("takes {t}")))
}

/// Stubs implement abstract types a test needs a value of: an abstract class under test (only a
/// stub makes one, `stubs.Shape`) or an interface or abstract class among the parameters; without
/// either the cluster offers none.
fn stubs(input: &GateInput<'_>) -> Option<String> {
    let cut = input.db.class_name(input.cut);
    if input.is_abstract(cut) {
        return Some(format!("{cut} is abstract: only a stub makes one"));
    }
    input.first_parameter(|t| {
        let c = class_of(t)?;
        (input.is_abstract(c) && c != "java/lang/Object").then(|| format!("{c} is abstract"))
    })
}

const FILE_TYPES: [&str; 2] = ["java/io/File", "java/nio/file/Path"];

/// Files in the test's temporary folder stand in for `File` and `Path` values: a class that
/// neither takes nor keeps one has no use for them.
fn files(input: &GateInput<'_>) -> Option<String> {
    let param = input.first_parameter(|t| {
        let c = class_of(t)?;
        FILE_TYPES.contains(&c).then(|| format!("takes {c}"))
    });
    param.or_else(|| {
        input.classes.iter().find_map(|&c| {
            let cf = input.file(c)?;
            cf.fields.iter().find_map(|f| {
                let d = f.descriptor(&cf.constant_pool)?;
                let t = FieldType::parse(&d).ok()?;
                let name = class_of(&t)?;
                FILE_TYPES
                    .contains(&name)
                    .then(|| format!("{} has a field of type {name}", input.db.class_name(c)))
            })
        })
    })
}

/// Package generators only add makers for types nothing else in the cluster makes, and cost one
/// pass at cluster building: the feature gates itself, so the gate stays open.
fn package_generators(_: &GateInput<'_>) -> Option<String> {
    Some(
        "always open: it adds generators only for types nothing else makes, once, at cluster building"
            .to_string(),
    )
}

/// Format strings are added to the static pool only when the class compares with separators,
/// once, before the search: the feature gates itself.
fn format_strings(_: &GateInput<'_>) -> Option<String> {
    Some("always open: it adds strings only for the separators the class compares with, once".to_string())
}

/// Code constants are a one-time read of the numbers the CUT pushes into the static pool; no
/// static test says they would not help, and they cost nothing per generation.
fn code_constants(_: &GateInput<'_>) -> Option<String> {
    Some("always open: a one-time read of the class's constants into the static pool".to_string())
}

/// Regex strings are added to the static pool only for the patterns the class passes to a
/// regex-taking call, once, before the search: the feature gates itself.
fn regex_strings(_: &GateInput<'_>) -> Option<String> {
    Some(
        "always open: it adds strings only for the patterns the class passes to matches, split, ..., once"
            .to_string(),
    )
}

/// The string distance grades the branch after a string or regex test of a class under test (the
/// calls the runtime's observing guards replace, `rt_abi::is_graded_string_test`): without such a
/// call the workers would record nothing for it to grade.
fn string_distance(input: &GateInput<'_>) -> Option<String> {
    // The constant pool names the call; no call graph is needed (its targets would not matter).
    input.bodies().find_map(|m| {
        let Some(Ok(body)) = input.db.body(m) else { return None };
        let cp = &input.file(m.class())?.constant_pool;
        body.insns.iter().enumerate().find_map(|(i, insn)| {
            let Insn::Invoke { index, .. } = *insn else { return None };
            let r = cp.member_ref(index)?;
            rt_abi::is_graded_string_test(&r.class, &r.name, &r.descriptor).then(|| {
                format!("{} at {}: calls {}.{}", input.method_text(m), InsnIdx::new(i), r.class, r.name)
            })
        })
    })
}

/// The arms whose gate is open, for the engine to keep on.
pub fn open_arms(gates: &[Gate]) -> BTreeSet<Arm> {
    gates.iter().filter(|g| g.open).map(|g| g.arm).collect()
}

/// The table as text, one line per technique: what `analyze` prints and the tests snapshot.
pub fn render(gates: &[Gate]) -> String {
    gates
        .iter()
        .map(|g| format!("{:18} {:6} {}\n", g.arm.name(), if g.open { "open" } else { "closed" }, g.reason))
        .collect()
}
