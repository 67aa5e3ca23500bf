//! Stub classes as class-file bytes: a concrete subclass of an abstract class, or an implementation
//! of an interface, whose abstract methods return values chosen by the test generator. The engine
//! sends the bytes to a JVM worker, which defines the class with its own class loader.
//!
//! A stub carries its answers in one field, [`ANSWERS_FIELD`], filled by every constructor from an
//! extra last `Object[]` parameter. The method at position `k` of [`StubSpec::methods`] passes
//! `answers[k]` and its own arguments (boxed, in an `Object[]`) to the runtime's
//! `suitesmith.rt.Stubs.answer` ([`rt_abi::STUB_ANSWER_METHOD`], part of the runtime's ABI, checked
//! against the built runtime jar), and returns what that returns, cast or unboxed to its
//! return type. What an answer means (a constant, a sequence, a thrown exception) is therefore the
//! runtime's business, and the generated code stays one fixed shape that needs no stack-map frames.
//!
//! It deliberately does not find the abstract methods of a type (the caller knows the class
//! hierarchy), choose names, or check that the JVM will accept the overrides (access across class
//! loaders is the worker's concern); it checks only what would make the class file itself malformed.

mod code;
mod error;
mod stub;

pub use error::StubError;
pub use stub::generate;

/// What a stub class is made of (all names are JVM internal names, `a/b/C`).
#[derive(Debug, Clone, Copy)]
pub struct StubSpec<'a> {
    /// The class to generate (`com/x/Ticker$SuitesmithStub`).
    pub name: &'a str,
    /// Its superclass (`java/lang/Object` for an interface stub).
    pub super_name: &'a str,
    /// The interfaces it implements (the interface itself, for an interface stub).
    pub interfaces: &'a [String],
    /// Descriptors of the superclass constructors it mirrors (`(ILjava/lang/String;)V`); `()V` for
    /// an interface stub.
    pub constructors: &'a [String],
    /// The abstract methods it implements: (name, descriptor). The position k in this list is the
    /// method's answer index.
    pub methods: &'a [(String, String)],
    /// The class's generic signature (JVMS §4.7.9.1), for a stub that captures type arguments as
    /// `new TypeToken<List<String>>() {}` does (`Ljava/lang/Object;La/TypeToken<Ljava/lang/String;>;`):
    /// code that reads `getGenericSuperclass()` sees them. `None` writes no `Signature`.
    pub signature: Option<&'a str>,
}

/// The name of the stub's one field, `private final Object[]`: the answers, indexed by the
/// position of a method in [`StubSpec::methods`]. Its prefix, with a `$` that hand-written
/// Java rarely uses, keeps it clear of the names of the subject's own fields.
pub const ANSWERS_FIELD: &str = "suitesmith$answers";
