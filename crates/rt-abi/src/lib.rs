//! The ABI between instrumented classes and `java/runtime`: which static methods of the runtime a
//! probe or a guard calls, with their JVM descriptors.
//!
//! This is the one shared definition DESIGN.md §3.2 asks for: `instrument` emits calls only
//! to the methods listed here, and a test in `worker` parses the compiled runtime jar and checks that
//! every method listed here exists there with the same descriptor and is `public static`.
//! It also defines [`ProbeId`], the one probe id type of the workspace. It deliberately knows nothing
//! about the wire protocol or about goals.

/// Internal name of the tracer class that every probe calls.
pub const TRACER_CLASS: &str = "suitesmith/rt/Tracer";
/// Internal name of the class whose methods replace calls that would escape the test (DESIGN.md §3.4).
pub const GUARDS_CLASS: &str = "suitesmith/rt/Guards";
/// The static method the instrumenter adds to every instrumented class: a copy of `<clinit>`
/// (preceded by resetting every non-constant static field to its default) that the runtime calls to
/// reset static state between tests. Classes without `<clinit>` get one that only resets fields.
pub const STATIC_RESET_METHOD: &str = "__suitesmith_reset";
pub const STATIC_RESET_DESCRIPTOR: &str = "()V";
/// Internal name of the runtime class every generated stub method calls (`stubgen`).
pub const STUBS_CLASS: &str = "suitesmith/rt/Stubs";
/// The static method of [`STUBS_CLASS`] every stub method calls, as (name, descriptor): it takes
/// the method's answer and its boxed arguments and returns the (boxed) value to return.
pub const STUB_ANSWER_METHOD: (&str, &str) =
    ("answer", "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;");

/// The JVM option that makes the runtime's guarded file system provider the default one (the
/// sandbox's layer 2): every JVM that runs code under test (workers, contained verification runs) gets it,
/// with the runtime jar on its class path. `crates/worker` spells it out (it does not depend on
/// this crate); a test of this crate checks the class and property against java/runtime.
pub const GUARDED_PROVIDER_ARG: &str =
    "-Djava.nio.file.spi.DefaultFileSystemProvider=suitesmith.rt.GuardedFileSystemProvider";

pub mod mutants;

/// A probe: one call to the tracer that the instrumenter inserts, and its index in the tracer's
/// per-probe arrays. Dense, starting at 0 over a probe plan (`goals` allocates them). Defined here,
/// in the crate both the planner (`goals`) and the wire format (`protocol`) depend on, so the id a
/// plan assigns is the very type a trace reports; both crates re-export it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProbeId(pub u32);

impl ProbeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Debug for ProbeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "p{}", self.0)
    }
}

impl std::fmt::Display for ProbeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "p{}", self.0)
    }
}

/// Condition codes packed into the low 4 bits of a branch probe's site argument:
/// `site = (probe_id << 4) | cond`, with bit 3 set for the `g` variants of `fcmp`/`dcmp`
/// (NaN compares greater). The condition is the one under which the *jump is taken*.
pub mod cond {
    pub const EQ: i32 = 0;
    pub const NE: i32 = 1;
    pub const LT: i32 = 2;
    pub const GE: i32 = 3;
    pub const GT: i32 = 4;
    pub const LE: i32 = 5;
    /// Or-ed into the condition of an `fcmpg`/`dcmpg` compare.
    pub const NAN_GREATER: i32 = 8;
    /// Bits of the site argument that hold the condition; the probe id is `site >>> SHIFT`.
    pub const SHIFT: u32 = 4;
}

/// What a probe records. Each kind is one static method of [`TRACER_CLASS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProbeKind {
    /// A source line was entered. Stack: `id` → nothing.
    Line,
    /// A method was entered. `id` is the method's probe id.
    MethodEnter,
    /// A method returns normally (before each `*return`).
    MethodExit,
    /// An invoke instruction is about to run (call-site id, for context branch coverage).
    CallSite,
    /// `if<cond>` on an int: `(value, site)`.
    BranchZero,
    /// `if_icmp<cond>`: `(a, b, site)`.
    BranchInt,
    /// `if_acmp<cond>`: `(a, b, site)`.
    BranchRef,
    /// `ifnull` (cond EQ) / `ifnonnull` (cond NE): `(value, site)`.
    BranchNull,
    /// `lcmp` followed by `if<cond>`: `(a, b, site)`.
    CmpLong,
    /// `fcmpl`/`fcmpg` followed by `if<cond>`: `(a, b, site)`.
    CmpFloat,
    /// `dcmpl`/`dcmpg` followed by `if<cond>`: `(a, b, site)`.
    CmpDouble,
    /// `tableswitch`/`lookupswitch` key: `(key, id)`.
    SwitchKey,
    /// `athrow` is about to throw: `(throwable, id)`.
    Thrown,
    /// An exception handler was entered: `(throwable, id)`.
    Caught,
    /// Return values for output coverage: `(value, id)`.
    ReturnInt,
    ReturnLong,
    ReturnFloat,
    ReturnDouble,
    ReturnRef,
    /// Operands of a binary operator, for weak mutation: `(a, b, id)`.
    OperandsInt,
    OperandsLong,
    /// `lshl`/`lshr`/`lushr`: a long shifted by an int.
    OperandsLongShift,
    OperandsFloat,
    OperandsDouble,
    /// A value just loaded from a local variable or pushed as a constant (UOI, RC mutants): `(v, id)`.
    ValueInt,
    ValueLong,
    ValueFloat,
    ValueDouble,
    /// `<clinit>` of an instrumented class started: `(class_id)`. The runtime resets exactly the
    /// classes whose initialisation it saw, in that order.
    ClassInit,
    /// The generic extension probe (docs/probes.md): copies the operands `shape` names from the
    /// top of the stack and records them, with the call depth, in the trace's `records` section,
    /// without the runtime knowing which probe family planned it.
    Record(RecordShape),
}

/// The operands an extension probe ([`ProbeKind::Record`]) copies from the top of the operand
/// stack: none, one value, or two values of the same kind (as a compare consumes them), in every
/// kind the JVM stack holds (narrower ints are `Int`; references are recorded by identity hash and
/// null flag, never by calling SUT code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RecordShape {
    /// Nothing but the hit and the call depth.
    Event,
    Int,
    Long,
    Float,
    Double,
    Ref,
    IntInt,
    LongLong,
    FloatFloat,
    DoubleDouble,
    RefRef,
}

impl RecordShape {
    pub const ALL: [RecordShape; 11] = [
        RecordShape::Event,
        RecordShape::Int,
        RecordShape::Long,
        RecordShape::Float,
        RecordShape::Double,
        RecordShape::Ref,
        RecordShape::IntInt,
        RecordShape::LongLong,
        RecordShape::FloatFloat,
        RecordShape::DoubleDouble,
        RecordShape::RefRef,
    ];

    /// How many operands the probe copies (0, 1 or 2).
    pub fn arity(self) -> usize {
        match self {
            RecordShape::Event => 0,
            RecordShape::Int
            | RecordShape::Long
            | RecordShape::Float
            | RecordShape::Double
            | RecordShape::Ref => 1,
            _ => 2,
        }
    }

    /// Operand-stack slots the copied operands take (JVMS §2.6.2: longs and doubles take two).
    pub fn slots(self) -> u16 {
        match self {
            RecordShape::Event => 0,
            RecordShape::Int | RecordShape::Float | RecordShape::Ref => 1,
            RecordShape::Long
            | RecordShape::Double
            | RecordShape::IntInt
            | RecordShape::FloatFloat
            | RecordShape::RefRef => 2,
            RecordShape::LongLong | RecordShape::DoubleDouble => 4,
        }
    }
}

/// How the runtime turns a recorded operand into the `u64` of a trace record (docs/protocol.md,
/// `records`): ints and longs sign-extended, floats and doubles as raw bits (floats zero-extended),
/// references as `REF_NON_NULL | identityHashCode` (0 for null).
pub mod record {
    /// Set in a reference operand's record value when the reference is not null.
    pub const REF_NON_NULL: u64 = 1 << 32;

    /// The distinct records the runtime keeps per probe and test (`Tracer.MAX_RECORDS`); later
    /// ones are dropped, so a probe with this many may have missed some (the flag fitness then
    /// drops the invocations after the first it may have missed).
    pub const PER_PROBE: usize = 64;
}

impl ProbeKind {
    /// Every kind: the 29 built-in ones, then `Record` of every shape.
    pub const ALL: [ProbeKind; 40] = [
        ProbeKind::Line,
        ProbeKind::MethodEnter,
        ProbeKind::MethodExit,
        ProbeKind::CallSite,
        ProbeKind::BranchZero,
        ProbeKind::BranchInt,
        ProbeKind::BranchRef,
        ProbeKind::BranchNull,
        ProbeKind::CmpLong,
        ProbeKind::CmpFloat,
        ProbeKind::CmpDouble,
        ProbeKind::SwitchKey,
        ProbeKind::Thrown,
        ProbeKind::Caught,
        ProbeKind::ReturnInt,
        ProbeKind::ReturnLong,
        ProbeKind::ReturnFloat,
        ProbeKind::ReturnDouble,
        ProbeKind::ReturnRef,
        ProbeKind::OperandsInt,
        ProbeKind::OperandsLong,
        ProbeKind::OperandsLongShift,
        ProbeKind::OperandsFloat,
        ProbeKind::OperandsDouble,
        ProbeKind::ValueInt,
        ProbeKind::ValueLong,
        ProbeKind::ValueFloat,
        ProbeKind::ValueDouble,
        ProbeKind::ClassInit,
        ProbeKind::Record(RecordShape::Event),
        ProbeKind::Record(RecordShape::Int),
        ProbeKind::Record(RecordShape::Long),
        ProbeKind::Record(RecordShape::Float),
        ProbeKind::Record(RecordShape::Double),
        ProbeKind::Record(RecordShape::Ref),
        ProbeKind::Record(RecordShape::IntInt),
        ProbeKind::Record(RecordShape::LongLong),
        ProbeKind::Record(RecordShape::FloatFloat),
        ProbeKind::Record(RecordShape::DoubleDouble),
        ProbeKind::Record(RecordShape::RefRef),
    ];

    /// The tracer method this kind calls: (name, descriptor).
    pub fn method(self) -> (&'static str, &'static str) {
        match self {
            ProbeKind::Line => ("line", "(I)V"),
            ProbeKind::MethodEnter => ("enter", "(I)V"),
            ProbeKind::MethodExit => ("exit", "(II)V"),
            ProbeKind::CallSite => ("callSite", "(I)V"),
            ProbeKind::BranchZero => ("branchZero", "(II)V"),
            ProbeKind::BranchInt => ("branchInt", "(III)V"),
            ProbeKind::BranchRef => ("branchRef", "(Ljava/lang/Object;Ljava/lang/Object;I)V"),
            ProbeKind::BranchNull => ("branchNull", "(Ljava/lang/Object;I)V"),
            ProbeKind::CmpLong => ("cmpLong", "(JJI)V"),
            ProbeKind::CmpFloat => ("cmpFloat", "(FFI)V"),
            ProbeKind::CmpDouble => ("cmpDouble", "(DDI)V"),
            ProbeKind::SwitchKey => ("switchKey", "(II)V"),
            ProbeKind::Thrown => ("thrown", "(Ljava/lang/Throwable;I)V"),
            ProbeKind::Caught => ("caught", "(Ljava/lang/Throwable;I)V"),
            ProbeKind::ReturnInt => ("returnInt", "(II)V"),
            ProbeKind::ReturnLong => ("returnLong", "(JI)V"),
            ProbeKind::ReturnFloat => ("returnFloat", "(FI)V"),
            ProbeKind::ReturnDouble => ("returnDouble", "(DI)V"),
            ProbeKind::ReturnRef => ("returnRef", "(Ljava/lang/Object;I)V"),
            ProbeKind::OperandsInt => ("operandsInt", "(III)V"),
            ProbeKind::OperandsLong => ("operandsLong", "(JJI)V"),
            ProbeKind::OperandsLongShift => ("operandsLongShift", "(JII)V"),
            ProbeKind::OperandsFloat => ("operandsFloat", "(FFI)V"),
            ProbeKind::OperandsDouble => ("operandsDouble", "(DDI)V"),
            ProbeKind::ValueInt => ("valueInt", "(II)V"),
            ProbeKind::ValueLong => ("valueLong", "(JI)V"),
            ProbeKind::ValueFloat => ("valueFloat", "(FI)V"),
            ProbeKind::ValueDouble => ("valueDouble", "(DI)V"),
            ProbeKind::ClassInit => ("classInit", "(I)V"),
            ProbeKind::Record(shape) => match shape {
                RecordShape::Event => ("record", "(I)V"),
                RecordShape::Int => ("recordInt", "(II)V"),
                RecordShape::Long => ("recordLong", "(JI)V"),
                RecordShape::Float => ("recordFloat", "(FI)V"),
                RecordShape::Double => ("recordDouble", "(DI)V"),
                RecordShape::Ref => ("recordRef", "(Ljava/lang/Object;I)V"),
                RecordShape::IntInt => ("recordIntInt", "(III)V"),
                RecordShape::LongLong => ("recordLongLong", "(JJI)V"),
                RecordShape::FloatFloat => ("recordFloatFloat", "(FFI)V"),
                RecordShape::DoubleDouble => ("recordDoubleDouble", "(DDI)V"),
                RecordShape::RefRef => ("recordRefRef", "(Ljava/lang/Object;Ljava/lang/Object;I)V"),
            },
        }
    }
}

/// A call that instrumentation replaces with a call to a guard of [`GUARDS_CLASS`] (DESIGN.md §3.4).
/// Instance methods become static guards taking the receiver first, so the operand stack is
/// unchanged and no frame needs recomputing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Redirect {
    /// The opcode of the original call: `invokestatic`, `invokevirtual` or `invokespecial` (for
    /// constructors, see [`RedirectAction::CheckArgBeforeConstructor`]).
    pub opcode: u8,
    pub owner: &'static str,
    pub name: &'static str,
    pub descriptor: &'static str,
    pub action: RedirectAction,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectAction {
    /// Replace the call by `invokestatic GUARDS_CLASS.name descriptor`.
    ReplaceWith { name: &'static str, descriptor: &'static str },
    /// Keep the call and insert `invokestatic GUARDS_CLASS.name descriptor` just before it. The guard
    /// takes the call's last argument and returns it (checking it first), so the stack is unchanged.
    CheckLastArgBefore { name: &'static str, descriptor: &'static str },
    /// As `CheckLastArgBefore` for the argument below the last, when the last takes one slot
    /// (`new FileWriter(file, append)`): inserted as `swap`, the guard, `swap`.
    CheckArgUnderTopBefore { name: &'static str, descriptor: &'static str },
    /// Keep the call and insert `invokestatic GUARDS_CLASS.name ()V` before it: a guard that always
    /// throws (used for constructors that act at once, such as `new Socket(host, port)`).
    DenyBefore { name: &'static str },
    /// Insert `invokestatic GUARDS_CLASS.name descriptor` (no arguments, pushes one value) before the
    /// call and change the call's descriptor to `new_descriptor`, which takes that value last. Used
    /// for constructors, whose uninitialised receiver cannot be passed to a static guard:
    /// `new Random()` becomes `new Random(Guards.randomSeed())`.
    PushArgAndRetarget { name: &'static str, descriptor: &'static str, new_descriptor: &'static str },
}

impl Redirect {
    /// Whether the redirect only observes (the string comparisons and regex matches, which record
    /// their operands for the value pool and the string distance) rather than contains the test or makes it deterministic. Classes outside the
    /// ones under test get only the others ([`CONTAINMENT`]): what they compare is not the search's
    /// business, and recording it would cost every string comparison of a library.
    pub fn observes_only(&self) -> bool {
        matches!(self.owner, "java/lang/String" | "java/util/regex/Pattern" | "java/util/regex/Matcher")
    }

    /// Whether the redirect is a boolean string or regex test (`equals`, `startsWith`, `matches`,
    /// ...) whose operands the string distance grades at the branch that tests its result
    /// (docs/strings.md): an observing guard of a call that returns `boolean`.
    pub fn grades_string_test(&self) -> bool {
        self.observes_only() && self.descriptor.ends_with(")Z")
    }
}

/// Whether a call of `owner.name descriptor` (internal names) in a class under test is a string
/// test the string distance grades ([`Redirect::grades_string_test`]).
pub fn is_graded_string_test(owner: &str, name: &str, descriptor: &str) -> bool {
    REDIRECTS
        .iter()
        .any(|r| r.owner == owner && r.name == name && r.descriptor == descriptor && r.grades_string_test())
}

/// Which redirects an instrumented class gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardSet {
    /// Every redirect of [`REDIRECTS`]: the classes under test.
    All,
    /// The redirects that contain the test or make it deterministic (exit, processes, files,
    /// sockets, threads, time, randomness), not the observing ones ([`Redirect::observes_only`]):
    /// the other classes of the user's classpath that call one.
    Containment,
}

impl GuardSet {
    /// Whether this set applies `r`.
    pub fn applies(self, r: &Redirect) -> bool {
        match self {
            GuardSet::All => true,
            GuardSet::Containment => !r.observes_only(),
        }
    }
}

/// Whether a method reference (owner, name, descriptor; any invoke opcode) is the target of a
/// redirect of `set`: what a scan of a constant pool asks to find the classes that need guards.
pub fn is_redirect_target(set: GuardSet, owner: &str, name: &str, descriptor: &str) -> bool {
    REDIRECTS
        .iter()
        .any(|r| r.owner == owner && r.name == name && r.descriptor == descriptor && set.applies(r))
}

/// The packages the worker's class loader takes from its parent, never from the classes it is
/// sent (`java/runtime`'s `Loader.PARENT_FIRST`, checked equal by a test of this crate): a
/// rewritten copy of a class in one of them would never be used, so none is made.
pub const PARENT_FIRST_PACKAGES: &[&str] = &[
    "java/",
    "javax/",
    "jdk/",
    "sun/",
    "com/sun/",
    "org/w3c/dom/",
    "org/xml/sax/",
    "org/ietf/jgss/",
    "suitesmith/rt/",
];

/// Opcodes used in [`Redirect::opcode`].
pub mod opcode {
    pub const INVOKEVIRTUAL: u8 = 0xb6;
    pub const INVOKESPECIAL: u8 = 0xb7;
    pub const INVOKESTATIC: u8 = 0xb8;
    pub const INVOKEINTERFACE: u8 = 0xb9;
}

use RedirectAction::{
    CheckArgUnderTopBefore, CheckLastArgBefore, DenyBefore, PushArgAndRetarget, ReplaceWith,
};
use opcode::{INVOKESPECIAL, INVOKESTATIC, INVOKEVIRTUAL};

const fn replace(
    opcode: u8,
    owner: &'static str,
    name: &'static str,
    descriptor: &'static str,
    guard: &'static str,
    guard_descriptor: &'static str,
) -> Redirect {
    Redirect {
        opcode,
        owner,
        name,
        descriptor,
        action: ReplaceWith { name: guard, descriptor: guard_descriptor },
    }
}

/// Every call the instrumenter redirects. `java/runtime`'s `Guards` class implements each guard;
/// the worker's ABI test checks that they exist with these descriptors.
pub const REDIRECTS: &[Redirect] = &[
    // Process exit and process creation.
    replace(INVOKESTATIC, "java/lang/System", "exit", "(I)V", "systemExit", "(I)V"),
    replace(INVOKEVIRTUAL, "java/lang/Runtime", "exit", "(I)V", "runtimeExit", "(Ljava/lang/Runtime;I)V"),
    replace(INVOKEVIRTUAL, "java/lang/Runtime", "halt", "(I)V", "runtimeHalt", "(Ljava/lang/Runtime;I)V"),
    // A shutdown hook runs when the JVM exits: in a worker never during its test, in the user's
    // `mvn test` at the end of the run, doing whatever it does.
    replace(
        INVOKEVIRTUAL,
        "java/lang/Runtime",
        "addShutdownHook",
        "(Ljava/lang/Thread;)V",
        "runtimeAddShutdownHook",
        "(Ljava/lang/Runtime;Ljava/lang/Thread;)V",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/Runtime",
        "exec",
        "(Ljava/lang/String;)Ljava/lang/Process;",
        "runtimeExec",
        "(Ljava/lang/Runtime;Ljava/lang/String;)Ljava/lang/Process;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/Runtime",
        "exec",
        "([Ljava/lang/String;)Ljava/lang/Process;",
        "runtimeExec",
        "(Ljava/lang/Runtime;[Ljava/lang/String;)Ljava/lang/Process;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/Runtime",
        "exec",
        "(Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/Process;",
        "runtimeExec",
        "(Ljava/lang/Runtime;Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/Process;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/Runtime",
        "exec",
        "([Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/Process;",
        "runtimeExec",
        "(Ljava/lang/Runtime;[Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/Process;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/Runtime",
        "exec",
        "(Ljava/lang/String;[Ljava/lang/String;Ljava/io/File;)Ljava/lang/Process;",
        "runtimeExec",
        "(Ljava/lang/Runtime;Ljava/lang/String;[Ljava/lang/String;Ljava/io/File;)Ljava/lang/Process;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/Runtime",
        "exec",
        "([Ljava/lang/String;[Ljava/lang/String;Ljava/io/File;)Ljava/lang/Process;",
        "runtimeExec",
        "(Ljava/lang/Runtime;[Ljava/lang/String;[Ljava/lang/String;Ljava/io/File;)Ljava/lang/Process;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/ProcessBuilder",
        "start",
        "()Ljava/lang/Process;",
        "processBuilderStart",
        "(Ljava/lang/ProcessBuilder;)Ljava/lang/Process;",
    ),
    // String comparisons: the guard compares as the JDK does and records both strings for the
    // engine's dynamic value pool (EvoSuite's `StringHelper` adds the operands of `String.equals`
    // and friends to its dynamic constant pool, digest 002 §2.2 "dynamic_pool").
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "equals",
        "(Ljava/lang/Object;)Z",
        "stringEquals",
        "(Ljava/lang/String;Ljava/lang/Object;)Z",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "equalsIgnoreCase",
        "(Ljava/lang/String;)Z",
        "stringEqualsIgnoreCase",
        "(Ljava/lang/String;Ljava/lang/String;)Z",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "startsWith",
        "(Ljava/lang/String;)Z",
        "stringStartsWith",
        "(Ljava/lang/String;Ljava/lang/String;)Z",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "endsWith",
        "(Ljava/lang/String;)Z",
        "stringEndsWith",
        "(Ljava/lang/String;Ljava/lang/String;)Z",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "contains",
        "(Ljava/lang/CharSequence;)Z",
        "stringContains",
        "(Ljava/lang/String;Ljava/lang/CharSequence;)Z",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "compareTo",
        "(Ljava/lang/String;)I",
        "stringCompareTo",
        "(Ljava/lang/String;Ljava/lang/String;)I",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "compareToIgnoreCase",
        "(Ljava/lang/String;)I",
        "stringCompareToIgnoreCase",
        "(Ljava/lang/String;Ljava/lang/String;)I",
    ),
    // The boolean string tests whose operands the string distance grades (docs/strings.md): the
    // guard also hands the runtime the operands and the kind of test, which the tracer ships with
    // the branch probe that tests the result right after the call.
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "matches",
        "(Ljava/lang/String;)Z",
        "stringMatches",
        "(Ljava/lang/String;Ljava/lang/String;)Z",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "regionMatches",
        "(ILjava/lang/String;II)Z",
        "stringRegionMatches",
        "(Ljava/lang/String;ILjava/lang/String;II)Z",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/String",
        "regionMatches",
        "(ZILjava/lang/String;II)Z",
        "stringRegionMatchesCase",
        "(Ljava/lang/String;ZILjava/lang/String;II)Z",
    ),
    replace(
        INVOKESTATIC,
        "java/util/regex/Pattern",
        "matches",
        "(Ljava/lang/String;Ljava/lang/CharSequence;)Z",
        "patternMatches",
        "(Ljava/lang/String;Ljava/lang/CharSequence;)Z",
    ),
    // `Pattern.compile(p).matcher(s).matches()`: the input is not readable from a `Matcher`, so
    // the guard of `matcher` remembers it for the guard of `matches`.
    replace(
        INVOKEVIRTUAL,
        "java/util/regex/Pattern",
        "matcher",
        "(Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;",
        "patternMatcher",
        "(Ljava/util/regex/Pattern;Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/util/regex/Matcher",
        "matches",
        "()Z",
        "matcherMatches",
        "(Ljava/util/regex/Matcher;)Z",
    ),
    // Threads: counted, and refused beyond a limit.
    replace(INVOKEVIRTUAL, "java/lang/Thread", "start", "()V", "threadStart", "(Ljava/lang/Thread;)V"),
    // Time and randomness, made deterministic per test.
    replace(INVOKESTATIC, "java/lang/System", "currentTimeMillis", "()J", "currentTimeMillis", "()J"),
    replace(INVOKESTATIC, "java/lang/System", "nanoTime", "()J", "nanoTime", "()J"),
    replace(INVOKESTATIC, "java/lang/Math", "random", "()D", "mathRandom", "()D"),
    replace(INVOKESTATIC, "java/lang/StrictMath", "random", "()D", "mathRandom", "()D"),
    replace(
        INVOKESTATIC,
        "java/util/UUID",
        "randomUUID",
        "()Ljava/util/UUID;",
        "randomUUID",
        "()Ljava/util/UUID;",
    ),
    replace(
        INVOKESTATIC,
        "java/time/Clock",
        "systemUTC",
        "()Ljava/time/Clock;",
        "clock",
        "()Ljava/time/Clock;",
    ),
    replace(
        INVOKESTATIC,
        "java/time/Clock",
        "systemDefaultZone",
        "()Ljava/time/Clock;",
        "clock",
        "()Ljava/time/Clock;",
    ),
    replace(
        INVOKESTATIC,
        "java/time/Instant",
        "now",
        "()Ljava/time/Instant;",
        "instantNow",
        "()Ljava/time/Instant;",
    ),
    replace(
        INVOKESTATIC,
        "java/time/LocalDateTime",
        "now",
        "()Ljava/time/LocalDateTime;",
        "localDateTimeNow",
        "()Ljava/time/LocalDateTime;",
    ),
    replace(
        INVOKESTATIC,
        "java/time/LocalDate",
        "now",
        "()Ljava/time/LocalDate;",
        "localDateNow",
        "()Ljava/time/LocalDate;",
    ),
    // `new Random()` becomes `new Random(Guards.randomSeed())`: the seed replaces the no-arg call.
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/Random",
        name: "<init>",
        descriptor: "()V",
        action: PushArgAndRetarget { name: "randomSeed", descriptor: "()J", new_descriptor: "(J)V" },
    },
    // Files: writes and deletes only inside the worker's scratch directory.
    replace(INVOKEVIRTUAL, "java/io/File", "delete", "()Z", "fileDelete", "(Ljava/io/File;)Z"),
    replace(INVOKEVIRTUAL, "java/io/File", "createNewFile", "()Z", "fileCreateNewFile", "(Ljava/io/File;)Z"),
    replace(INVOKEVIRTUAL, "java/io/File", "mkdir", "()Z", "fileMkdir", "(Ljava/io/File;)Z"),
    replace(INVOKEVIRTUAL, "java/io/File", "mkdirs", "()Z", "fileMkdirs", "(Ljava/io/File;)Z"),
    replace(
        INVOKEVIRTUAL,
        "java/io/File",
        "renameTo",
        "(Ljava/io/File;)Z",
        "fileRenameTo",
        "(Ljava/io/File;Ljava/io/File;)Z",
    ),
    replace(INVOKEVIRTUAL, "java/io/File", "deleteOnExit", "()V", "fileDeleteOnExit", "(Ljava/io/File;)V"),
    // Permissions and times: Landlock does not cover chmod or utimes, and the sandbox's seccomp
    // filter refuses them everywhere, silently for java.io; this guard is what tells the search.
    replace(INVOKEVIRTUAL, "java/io/File", "setReadOnly", "()Z", "fileSetReadOnly", "(Ljava/io/File;)Z"),
    replace(
        INVOKEVIRTUAL,
        "java/io/File",
        "setLastModified",
        "(J)Z",
        "fileSetLastModified",
        "(Ljava/io/File;J)Z",
    ),
    replace(INVOKEVIRTUAL, "java/io/File", "setWritable", "(Z)Z", "fileSetWritable", "(Ljava/io/File;Z)Z"),
    replace(INVOKEVIRTUAL, "java/io/File", "setWritable", "(ZZ)Z", "fileSetWritable", "(Ljava/io/File;ZZ)Z"),
    replace(INVOKEVIRTUAL, "java/io/File", "setReadable", "(Z)Z", "fileSetReadable", "(Ljava/io/File;Z)Z"),
    replace(INVOKEVIRTUAL, "java/io/File", "setReadable", "(ZZ)Z", "fileSetReadable", "(Ljava/io/File;ZZ)Z"),
    replace(
        INVOKEVIRTUAL,
        "java/io/File",
        "setExecutable",
        "(Z)Z",
        "fileSetExecutable",
        "(Ljava/io/File;Z)Z",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/io/File",
        "setExecutable",
        "(ZZ)Z",
        "fileSetExecutable",
        "(Ljava/io/File;ZZ)Z",
    ),
    // Temporary files: in the scratch directory only, with names the same in every run (Guards).
    replace(
        INVOKESTATIC,
        "java/io/File",
        "createTempFile",
        "(Ljava/lang/String;Ljava/lang/String;)Ljava/io/File;",
        "fileCreateTempFile",
        "(Ljava/lang/String;Ljava/lang/String;)Ljava/io/File;",
    ),
    replace(
        INVOKESTATIC,
        "java/io/File",
        "createTempFile",
        "(Ljava/lang/String;Ljava/lang/String;Ljava/io/File;)Ljava/io/File;",
        "fileCreateTempFile",
        "(Ljava/lang/String;Ljava/lang/String;Ljava/io/File;)Ljava/io/File;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "createTempFile",
        "(Ljava/lang/String;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "filesCreateTempFile",
        "(Ljava/lang/String;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "createTempFile",
        "(Ljava/nio/file/Path;Ljava/lang/String;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "filesCreateTempFile",
        "(Ljava/nio/file/Path;Ljava/lang/String;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "createTempDirectory",
        "(Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "filesCreateTempDirectory",
        "(Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "createTempDirectory",
        "(Ljava/nio/file/Path;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "filesCreateTempDirectory",
        "(Ljava/nio/file/Path;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
    ),
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileOutputStream",
        name: "<init>",
        descriptor: "(Ljava/lang/String;)V",
        action: CheckLastArgBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileOutputStream",
        name: "<init>",
        descriptor: "(Ljava/io/File;)V",
        action: CheckLastArgBefore { name: "checkWriteFile", descriptor: "(Ljava/io/File;)Ljava/io/File;" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileOutputStream",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Z)V",
        action: CheckArgUnderTopBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileOutputStream",
        name: "<init>",
        descriptor: "(Ljava/io/File;Z)V",
        action: CheckArgUnderTopBefore {
            name: "checkWriteFile",
            descriptor: "(Ljava/io/File;)Ljava/io/File;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileWriter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;)V",
        action: CheckLastArgBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileWriter",
        name: "<init>",
        descriptor: "(Ljava/io/File;)V",
        action: CheckLastArgBefore { name: "checkWriteFile", descriptor: "(Ljava/io/File;)Ljava/io/File;" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileWriter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Z)V",
        action: CheckArgUnderTopBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileWriter",
        name: "<init>",
        descriptor: "(Ljava/io/File;Z)V",
        action: CheckArgUnderTopBefore {
            name: "checkWriteFile",
            descriptor: "(Ljava/io/File;)Ljava/io/File;",
        },
    },
    // PrintWriter/PrintStream on a file name or File create (truncate) the file.
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintWriter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;)V",
        action: CheckLastArgBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintWriter",
        name: "<init>",
        descriptor: "(Ljava/io/File;)V",
        action: CheckLastArgBefore { name: "checkWriteFile", descriptor: "(Ljava/io/File;)Ljava/io/File;" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintStream",
        name: "<init>",
        descriptor: "(Ljava/lang/String;)V",
        action: CheckLastArgBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintStream",
        name: "<init>",
        descriptor: "(Ljava/io/File;)V",
        action: CheckLastArgBefore { name: "checkWriteFile", descriptor: "(Ljava/io/File;)Ljava/io/File;" },
    },
    // The same constructors with a charset (name) after the file: the file is below the
    // top; where it lies deeper (a charset and a flag or locale after it) the write is refused outright.
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileWriter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/nio/charset/Charset;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileWriter",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/nio/charset/Charset;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWriteFile",
            descriptor: "(Ljava/io/File;)Ljava/io/File;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileWriter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/nio/charset/Charset;Z)V",
        action: DenyBefore { name: "denyFileWrite" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/FileWriter",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/nio/charset/Charset;Z)V",
        action: DenyBefore { name: "denyFileWrite" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintWriter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/lang/String;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintWriter",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/lang/String;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWriteFile",
            descriptor: "(Ljava/io/File;)Ljava/io/File;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintWriter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/nio/charset/Charset;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintWriter",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/nio/charset/Charset;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWriteFile",
            descriptor: "(Ljava/io/File;)Ljava/io/File;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintStream",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/lang/String;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintStream",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/lang/String;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWriteFile",
            descriptor: "(Ljava/io/File;)Ljava/io/File;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintStream",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/nio/charset/Charset;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/PrintStream",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/nio/charset/Charset;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWriteFile",
            descriptor: "(Ljava/io/File;)Ljava/io/File;",
        },
    },
    // java.util.Formatter on a file name or File creates (truncates) the file, as PrintStream does.
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/Formatter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;)V",
        action: CheckLastArgBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/Formatter",
        name: "<init>",
        descriptor: "(Ljava/io/File;)V",
        action: CheckLastArgBefore { name: "checkWriteFile", descriptor: "(Ljava/io/File;)Ljava/io/File;" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/Formatter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/lang/String;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWritePath",
            descriptor: "(Ljava/lang/String;)Ljava/lang/String;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/Formatter",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/lang/String;)V",
        action: CheckArgUnderTopBefore {
            name: "checkWriteFile",
            descriptor: "(Ljava/io/File;)Ljava/io/File;",
        },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/Formatter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/lang/String;Ljava/util/Locale;)V",
        action: DenyBefore { name: "denyFileWrite" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/Formatter",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/lang/String;Ljava/util/Locale;)V",
        action: DenyBefore { name: "denyFileWrite" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/Formatter",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/nio/charset/Charset;Ljava/util/Locale;)V",
        action: DenyBefore { name: "denyFileWrite" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/Formatter",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/nio/charset/Charset;Ljava/util/Locale;)V",
        action: DenyBefore { name: "denyFileWrite" },
    },
    // A zip or jar opened with OPEN_DELETE is unlinked by the JDK itself (java.io inside the JDK,
    // which no redirect sees and whose failure under the OS sandbox it ignores): the mode is checked.
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/zip/ZipFile",
        name: "<init>",
        descriptor: "(Ljava/io/File;I)V",
        action: CheckLastArgBefore { name: "checkZipOpenMode", descriptor: "(I)I" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/zip/ZipFile",
        name: "<init>",
        descriptor: "(Ljava/io/File;ILjava/nio/charset/Charset;)V",
        action: CheckArgUnderTopBefore { name: "checkZipOpenMode", descriptor: "(I)I" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/jar/JarFile",
        name: "<init>",
        descriptor: "(Ljava/io/File;ZI)V",
        action: CheckLastArgBefore { name: "checkZipOpenMode", descriptor: "(I)I" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/util/jar/JarFile",
        name: "<init>",
        descriptor: "(Ljava/io/File;ZILjava/lang/Runtime$Version;)V",
        action: CheckArgUnderTopBefore { name: "checkZipOpenMode", descriptor: "(I)I" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/RandomAccessFile",
        name: "<init>",
        descriptor: "(Ljava/lang/String;Ljava/lang/String;)V",
        action: DenyBefore { name: "denyFileWrite" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/io/RandomAccessFile",
        name: "<init>",
        descriptor: "(Ljava/io/File;Ljava/lang/String;)V",
        action: DenyBefore { name: "denyFileWrite" },
    },
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "delete",
        "(Ljava/nio/file/Path;)V",
        "filesDelete",
        "(Ljava/nio/file/Path;)V",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "deleteIfExists",
        "(Ljava/nio/file/Path;)Z",
        "filesDeleteIfExists",
        "(Ljava/nio/file/Path;)Z",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "write",
        "(Ljava/nio/file/Path;[B[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
        "filesWrite",
        "(Ljava/nio/file/Path;[B[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "createFile",
        "(Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "filesCreateFile",
        "(Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "write",
        "(Ljava/nio/file/Path;Ljava/lang/Iterable;[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
        "filesWrite",
        "(Ljava/nio/file/Path;Ljava/lang/Iterable;[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "write",
        "(Ljava/nio/file/Path;Ljava/lang/Iterable;Ljava/nio/charset/Charset;[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
        "filesWrite",
        "(Ljava/nio/file/Path;Ljava/lang/Iterable;Ljava/nio/charset/Charset;[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "newBufferedWriter",
        "(Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/BufferedWriter;",
        "filesNewBufferedWriter",
        "(Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/BufferedWriter;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "newBufferedWriter",
        "(Ljava/nio/file/Path;Ljava/nio/charset/Charset;[Ljava/nio/file/OpenOption;)Ljava/io/BufferedWriter;",
        "filesNewBufferedWriter",
        "(Ljava/nio/file/Path;Ljava/nio/charset/Charset;[Ljava/nio/file/OpenOption;)Ljava/io/BufferedWriter;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "createDirectory",
        "(Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "filesCreateDirectory",
        "(Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "createDirectories",
        "(Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "filesCreateDirectories",
        "(Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "move",
        "(Ljava/nio/file/Path;Ljava/nio/file/Path;[Ljava/nio/file/CopyOption;)Ljava/nio/file/Path;",
        "filesMove",
        "(Ljava/nio/file/Path;Ljava/nio/file/Path;[Ljava/nio/file/CopyOption;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "copy",
        "(Ljava/nio/file/Path;Ljava/nio/file/Path;[Ljava/nio/file/CopyOption;)Ljava/nio/file/Path;",
        "filesCopy",
        "(Ljava/nio/file/Path;Ljava/nio/file/Path;[Ljava/nio/file/CopyOption;)Ljava/nio/file/Path;",
    ),
    replace(
        INVOKESTATIC,
        "java/nio/file/Files",
        "newOutputStream",
        "(Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/OutputStream;",
        "filesNewOutputStream",
        "(Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/OutputStream;",
    ),
    // Network: no connection leaves the worker.
    replace(
        INVOKEVIRTUAL,
        "java/net/Socket",
        "connect",
        "(Ljava/net/SocketAddress;)V",
        "socketConnect",
        "(Ljava/net/Socket;Ljava/net/SocketAddress;)V",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/net/Socket",
        "connect",
        "(Ljava/net/SocketAddress;I)V",
        "socketConnect",
        "(Ljava/net/Socket;Ljava/net/SocketAddress;I)V",
    ),
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/net/Socket",
        name: "<init>",
        descriptor: "(Ljava/lang/String;I)V",
        action: DenyBefore { name: "denyNetwork" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/net/Socket",
        name: "<init>",
        descriptor: "(Ljava/net/InetAddress;I)V",
        action: DenyBefore { name: "denyNetwork" },
    },
    Redirect {
        opcode: INVOKESPECIAL,
        owner: "java/net/ServerSocket",
        name: "<init>",
        descriptor: "(I)V",
        action: DenyBefore { name: "denyNetwork" },
    },
    replace(
        INVOKEVIRTUAL,
        "java/net/URL",
        "openConnection",
        "()Ljava/net/URLConnection;",
        "urlOpenConnection",
        "(Ljava/net/URL;)Ljava/net/URLConnection;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/net/URL",
        "openStream",
        "()Ljava/io/InputStream;",
        "urlOpenStream",
        "(Ljava/net/URL;)Ljava/io/InputStream;",
    ),
    // Reflection and method handles: onto a redirected method they end in its guard
    // (`Reflective` in java/runtime holds a copy of this table, checked below), else they do what
    // the JDK does.
    replace(
        INVOKEVIRTUAL,
        "java/lang/reflect/Method",
        "invoke",
        "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
        "methodInvoke",
        "(Ljava/lang/reflect/Method;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/reflect/Constructor",
        "newInstance",
        "([Ljava/lang/Object;)Ljava/lang/Object;",
        "constructorNewInstance",
        "(Ljava/lang/reflect/Constructor;[Ljava/lang/Object;)Ljava/lang/Object;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/invoke/MethodHandles$Lookup",
        "findStatic",
        "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
        "lookupFindStatic",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/invoke/MethodHandles$Lookup",
        "findVirtual",
        "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
        "lookupFindVirtual",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/invoke/MethodHandles$Lookup",
        "findConstructor",
        "(Ljava/lang/Class;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
        "lookupFindConstructor",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/Class;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/invoke/MethodHandles$Lookup",
        "unreflect",
        "(Ljava/lang/reflect/Method;)Ljava/lang/invoke/MethodHandle;",
        "lookupUnreflect",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/reflect/Method;)Ljava/lang/invoke/MethodHandle;",
    ),
    replace(
        INVOKEVIRTUAL,
        "java/lang/invoke/MethodHandles$Lookup",
        "unreflectConstructor",
        "(Ljava/lang/reflect/Constructor;)Ljava/lang/invoke/MethodHandle;",
        "lookupUnreflectConstructor",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/reflect/Constructor;)Ljava/lang/invoke/MethodHandle;",
    ),
];

/// Looks up the redirect for a call instruction, if any.
pub fn redirect_for(opcode: u8, owner: &str, name: &str, descriptor: &str) -> Option<&'static Redirect> {
    REDIRECTS
        .iter()
        .find(|r| r.opcode == opcode && r.owner == owner && r.name == name && r.descriptor == descriptor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_methods_are_unique() {
        let mut names: Vec<_> = ProbeKind::ALL.iter().map(|k| k.method().0).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "two probe kinds share a tracer method");
    }

    #[test]
    fn only_the_string_and_regex_tests_observe() {
        for r in REDIRECTS {
            let guard = match r.action {
                ReplaceWith { name, .. }
                | CheckLastArgBefore { name, .. }
                | CheckArgUnderTopBefore { name, .. }
                | DenyBefore { name }
                | PushArgAndRetarget { name, .. } => name,
            };
            let observes = ["string", "pattern", "matcher"].iter().any(|p| guard.starts_with(p));
            assert_eq!(r.observes_only(), observes, "{}.{}", r.owner, r.name);
        }
        assert!(is_redirect_target(GuardSet::Containment, "java/lang/System", "nanoTime", "()J"));
        let equals = ("java/lang/String", "equals", "(Ljava/lang/Object;)Z");
        assert!(!is_redirect_target(GuardSet::Containment, equals.0, equals.1, equals.2));
        assert!(is_redirect_target(GuardSet::All, equals.0, equals.1, equals.2));
    }

    #[test]
    fn the_record_cap_is_the_tracers() {
        let tracer = include_str!("../../../java/runtime/src/suitesmith/rt/Tracer.java");
        let line =
            tracer.lines().find(|l| l.contains(" MAX_RECORDS = ")).expect("MAX_RECORDS in Tracer.java");
        let java =
            line.split(" = ").nth(1).and_then(|v| v.trim_end_matches(';').trim().parse::<usize>().ok());
        assert_eq!(java, Some(record::PER_PROBE), "{line}");
    }

    #[test]
    fn the_parent_first_packages_are_the_loaders() {
        // The worker's loader lists them in Java, with dots.
        let loader = include_str!("../../../java/runtime/src/suitesmith/rt/Loader.java");
        let start = loader.find("PARENT_FIRST = {").expect("PARENT_FIRST in Loader.java");
        let end = start + loader[start..].find("};").expect("end of PARENT_FIRST");
        let java: Vec<String> =
            loader[start..end].split('"').skip(1).step_by(2).map(jvm_model::package_internal).collect();
        assert_eq!(java, PARENT_FIRST_PACKAGES);
    }

    /// A redirect as a line of `Reflective.TABLE` in java/runtime: `opcode owner name descriptor
    /// action guard guard-descriptor [new-descriptor]`.
    fn java_table_line(r: &Redirect) -> String {
        let opcode = match r.opcode {
            INVOKESTATIC => "static",
            INVOKEVIRTUAL => "virtual",
            INVOKESPECIAL => "special",
            other => panic!("opcode {other:#x} of {}.{}", r.owner, r.name),
        };
        let (action, guard, descriptor, new) = match r.action {
            ReplaceWith { name, descriptor } => ("replace", name, descriptor, None),
            CheckLastArgBefore { name, descriptor } => ("checkLast", name, descriptor, None),
            CheckArgUnderTopBefore { name, descriptor } => ("checkUnderTop", name, descriptor, None),
            DenyBefore { name } => ("deny", name, "()V", None),
            PushArgAndRetarget { name, descriptor, new_descriptor } => {
                ("push", name, descriptor, Some(new_descriptor))
            }
        };
        let mut line =
            format!("{opcode} {} {} {} {action} {guard} {descriptor}", r.owner, r.name, r.descriptor);
        if let Some(new) = new {
            line = format!("{line} {new}");
        }
        line
    }

    #[test]
    fn the_provider_argument_names_the_runtimes_provider() {
        let java = include_str!("../../../java/runtime/src/suitesmith/rt/GuardedFileSystemProvider.java");
        let (property, class) = GUARDED_PROVIDER_ARG.trim_start_matches("-D").split_once('=').expect("-Dp=v");
        assert!(java.contains(&format!("PROPERTY = \"{property}\";")), "{property}");
        assert!(
            java.contains("package suitesmith.rt;") && class == "suitesmith.rt.GuardedFileSystemProvider"
        );
        assert!(
            java.contains("public GuardedFileSystemProvider(FileSystemProvider delegate)"),
            "constructor"
        );
        for worker in
            [include_str!("../../worker/src/process.rs"), include_str!("../../worker/src/verify/run.rs")]
        {
            assert!(
                worker.contains(&format!("\"{GUARDED_PROVIDER_ARG}\"")),
                "the worker passes {GUARDED_PROVIDER_ARG}"
            );
        }
    }

    #[test]
    fn the_reflective_table_is_the_redirects() {
        // Reflection and method handles onto a redirected method end in its guard: the runtime
        // finds the guard in its copy of the table, which must be this one (observe-only
        // redirects left out: reflection onto `String.equals` has nothing to contain).
        let reflective = include_str!("../../../java/runtime/src/suitesmith/rt/Reflective.java");
        let start = reflective.find("TABLE = {").expect("TABLE in Reflective.java");
        let end = start + reflective[start..].find("};").expect("end of TABLE");
        let java: Vec<&str> = reflective[start..end].split('"').skip(1).step_by(2).collect();
        let rust: Vec<String> =
            REDIRECTS.iter().filter(|r| !r.observes_only()).map(java_table_line).collect();
        assert_eq!(
            java,
            rust,
            "Reflective.TABLE differs from REDIRECTS; expected lines:\n{}",
            rust.join("\n")
        );
    }

    #[test]
    fn replacements_keep_the_stack_shape() {
        // A static guard that replaces an instance method takes the receiver first, then the same
        // arguments, and returns the same type: so it consumes and produces what the call did.
        for r in REDIRECTS {
            let ReplaceWith { descriptor, .. } = r.action else { continue };
            let (args, ret) = r.descriptor[1..].split_once(')').expect("descriptor");
            let (gargs, gret) = descriptor[1..].split_once(')').expect("descriptor");
            assert_ne!(r.name, "<init>", "an uninitialised receiver cannot be passed to a guard");
            assert_eq!(ret, gret, "{}.{}", r.owner, r.name);
            let expected =
                if r.opcode == INVOKESTATIC { args.to_string() } else { format!("L{};{args}", r.owner) };
            assert_eq!(gargs, expected, "{}.{}", r.owner, r.name);
        }
    }
}
