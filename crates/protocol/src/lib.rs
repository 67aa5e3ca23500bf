//! The wire format between the engine and its JVM workers (`docs/protocol.md`, version [`VERSION`]):
//! typed messages for every frame, and a hand-written big-endian codec that matches Java's
//! `DataInputStream`/`DataOutputStream` on the other side (`java/runtime`, `suitesmith.rt.Protocol`).
//!
//! This is the only crate that defines a serialisation format (STYLE.md rule 2). It knows nothing
//! about processes (that is `worker`) nor about goals (that is `goals`/`fitness`).
//!
//! Decisions:
//! - Strings are Rust `String`s. The wire carries UTF-16 code units; encoding a `String` is exact,
//!   decoding is exact for every well-formed UTF-16 string, and an unpaired surrogate coming from the
//!   JVM (only possible in SUT-produced values, messages and output) decodes to U+FFFD. That loss is
//!   accepted: those strings are reported, never sent back to the worker.
//! - Requests carry strings inline; the encoder builds the per-batch string table (`sref`) itself,
//!   in first-use order, so equal requests give equal bytes.
//! - Decoding never panics: every malformed input is a [`DecodeError`].

mod codec;
mod path;
mod trace;

pub use codec::{
    FrameError, MAX_FRAME_LEN, canonical_test_bytes, decode_request, decode_response, encode_execute,
    encode_request, encode_response, read_frame,
};
pub use path::{
    AccessPath, Clause, Cmp, MAX_EXPR_DEPTH, NumExpr, NumOp, PathCondition, PathDistance, Root, Step,
};
pub use trace::{Branch, Compared, ContextBranch, Record, StringTest, Trace};

/// Protocol version sent in `Hello` and `Ready`; bumped on every change (docs/protocol.md "Changes").
pub const VERSION: u16 = 16;

/// Index of a probe in the tracer's per-probe arrays (assigned by the probe plan of `goals`); the
/// same type as `goals::ProbeId`, defined in `rt-abi`.
pub use rt_abi::ProbeId;
pub use rt_abi::mutants::ActiveMutant;

/// A statement index inside one test: the variable that statement defines. `0xFFFF` on the wire is
/// "none", represented here as `Option<Var>`, so a `Var` is always a real index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u16);

/// Wire value meaning "no variable".
pub const NO_VAR: u16 = 0xFFFF;

/// JVM primitive types, by their descriptor letter (JVMS §4.3.2), sent on the wire as that letter.
pub use jvm_model::PrimType;

/// One statement of a test (docs/protocol.md, `Execute`). A statement's value is the variable with
/// its own index; statements without a value define a variable holding `null`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Statement {
    /// `bits`: integers sign-extended to 64 bits, floats as their raw int bits, doubles raw.
    Primitive {
        ty: PrimType,
        bits: u64,
    },
    String {
        value: String,
    },
    /// `ty`: binary name or descriptor of the declared type.
    Null {
        ty: String,
    },
    EnumConstant {
        class: String,
        name: String,
    },
    Constructor {
        class: String,
        descriptor: String,
        args: Vec<Var>,
    },
    Method {
        class: String,
        name: String,
        descriptor: String,
        is_static: bool,
        receiver: Option<Var>,
        args: Vec<Var>,
    },
    FieldGet {
        class: String,
        name: String,
        descriptor: String,
        is_static: bool,
        receiver: Option<Var>,
    },
    FieldSet {
        class: String,
        name: String,
        descriptor: String,
        is_static: bool,
        receiver: Option<Var>,
        value: Option<Var>,
    },
    NewArray {
        component: String,
        length: i32,
    },
    ArrayStore {
        array: Option<Var>,
        index: i32,
        value: Option<Var>,
    },
    ArrayLoad {
        array: Option<Var>,
        index: i32,
    },
    Copy {
        from: Option<Var>,
    },
    /// A class literal (`String.class`, `int.class`): `descriptor` is a field descriptor
    /// (`Ljava/lang/String;`, `I`, `[I`). Since version 6.
    ClassLiteral {
        descriptor: String,
    },
    /// An instance of a stub (an anonymous implementation of an abstract class or interface;
    /// since version 7): `class` is the generated class's binary name and `bytes` its class file,
    /// which the worker defines on first sight (a name always comes with the same bytes); `ctor`
    /// is the superclass constructor's descriptor, whose arguments are `args`; method k of the
    /// stub answers from `methods[k]`.
    Stub {
        class: String,
        bytes: Vec<u8>,
        ctor: String,
        args: Vec<Var>,
        methods: Vec<StubAnswers>,
    },
    /// A file in the test's temporary folder (since version 8): `kind` 0 is a regular file with
    /// `contents` (UTF-8), 1 a directory (with `contents` in `data.txt` unless empty), 2 a name
    /// nothing has created; `name` is its name in the folder, which the worker empties at the
    /// test's first such statement. The value is a `java.nio.file.Path` when `path`, else a
    /// `java.io.File`.
    ScratchFile {
        kind: u8,
        path: bool,
        name: String,
        contents: String,
    },
    /// The mutant active from here to the end of the test (since version 15): the schemata calls
    /// of a class instrumented for the mutation runs (`instrument::Options::schemata`) compute it
    /// instead of the original operation at its site. Its value is `void`; the worker clears it
    /// when the test ends.
    Mutant(ActiveMutant),
}

/// What one method of a stub (JVM `descriptor`) returns: `answers` in turn, then the default
/// value of its return type; with `runs_arguments`, it first runs
/// each argument whose parameter type is `Runnable` (a null one throws `NullPointerException`).
/// With `throws` (since version 10), the call after the answers throws that value, once (a null
/// one throws `NullPointerException`, as `throw null` does).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StubAnswers {
    pub descriptor: String,
    pub runs_arguments: bool,
    pub answers: Vec<Var>,
    pub throws: Option<Var>,
}

impl Statement {
    pub fn int(v: i32) -> Statement {
        Statement::Primitive { ty: PrimType::Int, bits: i64::from(v) as u64 }
    }
    pub fn long(v: i64) -> Statement {
        Statement::Primitive { ty: PrimType::Long, bits: v as u64 }
    }
    pub fn boolean(v: bool) -> Statement {
        Statement::Primitive { ty: PrimType::Boolean, bits: u64::from(v) }
    }
    pub fn double(v: f64) -> Statement {
        Statement::Primitive { ty: PrimType::Double, bits: v.to_bits() }
    }
    pub fn float(v: f32) -> Statement {
        Statement::Primitive { ty: PrimType::Float, bits: u64::from(v.to_bits()) }
    }
    pub fn string(v: &str) -> Statement {
        Statement::String { value: v.to_string() }
    }
}

/// One test of an `Execute` request.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Test {
    pub id: u32,
    pub statements: Vec<Statement>,
}

/// A borrowed test, so that callers can encode a batch without cloning statements.
#[derive(Debug, Clone, Copy)]
pub struct TestRef<'a> {
    pub id: u32,
    pub statements: &'a [Statement],
}

/// `Setup` (docs/protocol.md).
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub classpath: Vec<String>,
    /// Instrumented classes: binary name (dots) and class-file bytes; they win over the classpath.
    pub classes: Vec<(String, Vec<u8>)>,
    pub probe_count: u32,
    /// Class id -> binary name, for `ClassInit` probes.
    pub class_ids: Vec<(u32, String)>,
    pub timeout_ms: u32,
    pub max_threads: u32,
    pub scratch_dir: String,
    pub time_base_ms: i64,
    /// Path conditions whose distances the worker computes at each call of their entry method
    /// (v9; paper 003, [`PathCondition`]); a trace's `path_distances` index this list.
    pub path_conditions: Vec<PathCondition>,
    /// Figure 6's ε: a violated numeric clause at difference d scores 1 − 1/(1 + d + ε).
    pub path_epsilon: f64,
    /// Whether the worker records the string tests whose result a branch tests right away
    /// (v13, `Trace::compares`, docs/strings.md): the string distance's switch on the worker side.
    pub string_compares: bool,
}

/// How long one test may run before the worker abandons it (`Setup::timeout_ms`), unless a run sets
/// otherwise: EvoSuite's default per-test timeout.
pub const TEST_TIMEOUT_MS: u32 = 3000;

impl Setup {
    /// A setup with the protocol's defaults (`TEST_TIMEOUT_MS`, 100 threads) and nothing to load.
    pub fn empty() -> Setup {
        Setup {
            classpath: Vec::new(),
            classes: Vec::new(),
            probe_count: 0,
            class_ids: Vec::new(),
            timeout_ms: TEST_TIMEOUT_MS,
            max_threads: 100,
            scratch_dir: String::new(),
            time_base_ms: 1_500_000_000_000,
            path_conditions: Vec::new(),
            path_epsilon: 1e-6,
            string_compares: true,
        }
    }
}

/// Engine -> worker messages.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Hello {
        version: u16,
    },
    Setup(Setup),
    /// `focus` (v12): the path conditions (indices in `Setup::path_conditions`) the worker
    /// evaluates in this batch; `None`: every one.
    Execute {
        tests: Vec<Test>,
        focus: Option<Vec<u32>>,
    },
    Shutdown,
}

/// Per-test status set by the worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TestStatus {
    /// Ran to the end or stopped at a thrown exception.
    Normal,
    /// Abandoned past `timeout_ms`; the worker exits after this batch reply.
    Timeout,
    /// A guard refused an escape (exit, halt, exec, file, socket, thread limit).
    Guard,
}

/// A statement's value summary.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    Void,
    Null,
    Bool(bool),
    Byte(i32),
    Char(i32),
    Short(i32),
    Int(i32),
    Long(i64),
    /// Raw IEEE bits.
    Float(u32),
    /// Raw IEEE bits.
    Double(u64),
    String(String),
    Object {
        class: String,
    },
    Array {
        class: String,
        length: i32,
    },
    Enum {
        class: String,
        name: String,
    },
}

/// What happened to one statement.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    NotExecuted,
    Value(Value),
    /// `from_sut`: thrown inside the called code (true) or by the call itself (false).
    /// `thrown_in`: `class.method` of the top SUT frame, or empty. `top_frame`: the class of the
    /// top stack frame outside the worker's runtime (what `e.getStackTrace()[0]` names in a written
    /// test), or empty (v14).
    Threw {
        class: String,
        message: String,
        from_sut: bool,
        thrown_in: String,
        top_frame: String,
    },
    Timeout,
    Guard {
        what: String,
    },
}

/// `TestResult` (docs/protocol.md).
#[derive(Debug, Clone, PartialEq)]
pub struct TestResult {
    pub test_id: u32,
    pub status: TestStatus,
    pub elapsed_us: u32,
    pub outcomes: Vec<Outcome>,
    pub trace: Trace,
    pub stdout: String,
    /// The test changed the JVM's system properties; the worker has restored them (v16).
    pub properties_changed: bool,
}

/// Worker -> engine messages.
// A result is moved a few times and then kept; boxing it would add an allocation per test.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    Ready {
        version: u16,
        java_version: String,
        pid: i64,
    },
    /// `init_trace`: what the worker's initialisation of every instrumented class executed (v3).
    SetupDone {
        classes_defined: u32,
        init_trace: Trace,
    },
    TestResult(TestResult),
    BatchDone {
        tests: u32,
    },
    Error {
        message: String,
    },
}

/// Frame kinds (docs/protocol.md).
pub mod kind {
    pub const HELLO: u8 = 1;
    pub const SETUP: u8 = 2;
    pub const EXECUTE: u8 = 3;
    pub const SHUTDOWN: u8 = 4;
    pub const READY: u8 = 128;
    pub const SETUP_DONE: u8 = 129;
    pub const TEST_RESULT: u8 = 130;
    pub const BATCH_DONE: u8 = 131;
    pub const ERROR: u8 = 132;
}

/// Why a frame could not be decoded. Offsets count from the frame's kind byte.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("truncated frame: needed {needed} more bytes at offset {at}")]
    Truncated { at: usize, needed: usize },
    #[error("empty frame (no kind byte)")]
    Empty,
    #[error("unknown frame kind {0}")]
    UnknownKind(u8),
    #[error("unknown {what} tag {tag} at offset {at}")]
    UnknownTag { what: &'static str, tag: u8, at: usize },
    #[error("string reference {index} out of a table of {len} strings")]
    BadStringRef { index: u32, len: usize },
    #[error("{extra} trailing bytes after a {kind} frame")]
    TrailingBytes { kind: u8, extra: usize },
    #[error("expression nested deeper than {0} at offset {1}")]
    TooDeep(usize, usize),
    #[error("protocol version mismatch: engine speaks {expected}, worker {got}")]
    BadVersion { expected: u16, got: u16 },
}

/// Checks the version a peer announced against ours.
pub fn check_version(got: u16) -> Result<(), DecodeError> {
    if got == VERSION { Ok(()) } else { Err(DecodeError::BadVersion { expected: VERSION, got }) }
}
