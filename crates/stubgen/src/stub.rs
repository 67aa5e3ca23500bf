//! The stub class itself: checks a [`StubSpec`], then lays out the constant pool, the answers
//! field, one constructor per mirrored superclass constructor and one method per abstract method,
//! whose bodies `crate::code` builds and `bytecode` encodes. Everything is laid out in the order of
//! the spec, so equal specs give equal bytes.

use std::collections::BTreeSet;

use classfile::descriptor::{FieldType, MethodDescriptor};
use classfile::{Attribute, ClassFile, Code, ConstantPool, Member, access};
use rt_abi::{STUB_ANSWER_METHOD, STUBS_CLASS};

use crate::code::{CodeBuilder, Invoke};
use crate::{ANSWERS_FIELD, StubError, StubSpec};

/// Class-file version 52.0 (Java 8), the oldest JDK `java/runtime` supports. From version 50 on
/// methods are verified by type checking against stack-map frames, but code without branches or
/// handlers needs no frame, so stubs carry no `StackMapTable`.
const MAJOR_VERSION: u16 = 52;

/// The descriptor of [`ANSWERS_FIELD`] and of the extra last constructor parameter.
const ANSWERS_DESC: &str = "[Ljava/lang/Object;";
const OBJECT: &str = "java/lang/Object";

/// JVMS §4.3.3: the parameters of a method, `this` included, take at most 255 slots.
const MAX_PARAM_SLOTS: u32 = 255;

/// Generates the class file of the stub `spec` describes (see the crate documentation for its
/// shape). Fails, without panicking, on a spec that would give a malformed class: bad names or
/// descriptors, a constructor descriptor that does not return `V`, too many parameters, members
/// listed twice, or a constant pool overflow; and, were there a bug here, on a body `bytecode`
/// refuses to encode.
pub fn generate(spec: &StubSpec<'_>) -> Result<Vec<u8>, StubError> {
    let checked = check(spec)?;
    let class = build(spec, &checked).map_err(|e| {
        let class = spec.name.to_owned();
        match e {
            BuildError::Pool(source) => StubError::ConstantPool { class, source },
            BuildError::Encode { member, descriptor, source } => {
                StubError::Encode { class, member, descriptor, source }
            }
        }
    })?;
    Ok(class.to_bytes())
}

/// Why laying out a checked spec failed; [`generate`] adds the class name.
enum BuildError {
    Pool(classfile::Error),
    /// `bytecode` refused a body: the member's name and descriptor as the class declares them.
    Encode {
        member: String,
        descriptor: String,
        source: bytecode::EncodeError,
    },
}

impl From<classfile::Error> for BuildError {
    fn from(e: classfile::Error) -> BuildError {
        BuildError::Pool(e)
    }
}

/// The parsed descriptors of a spec that passed [`check`], in the spec's order.
struct Checked {
    constructors: Vec<MethodDescriptor>,
    methods: Vec<MethodDescriptor>,
}

/// Checks everything that would make the class file malformed, before anything is laid out.
fn check(spec: &StubSpec<'_>) -> Result<Checked, StubError> {
    let class = || spec.name.to_owned();
    let names = [("class name", spec.name), ("superclass name", spec.super_name)];
    for (what, name) in names.into_iter().chain(spec.interfaces.iter().map(|i| ("interface name", &**i))) {
        if !is_class_name(name) {
            return Err(StubError::BadName { class: class(), what, name: name.to_owned() });
        }
    }
    if spec.interfaces.len() > usize::from(u16::MAX) {
        return Err(StubError::TooMany { class: class(), what: "interfaces", count: spec.interfaces.len() });
    }
    let members = spec.constructors.len() + spec.methods.len();
    if members > usize::from(u16::MAX) {
        return Err(StubError::TooMany { class: class(), what: "constructors and methods", count: members });
    }
    let mut seen = BTreeSet::new();
    let mut constructors = Vec::with_capacity(spec.constructors.len());
    for desc in spec.constructors {
        let parsed = parse_descriptor(spec, "<init>", desc)?;
        if parsed.ret.is_some() {
            return Err(StubError::ConstructorNotVoid { class: class(), descriptor: desc.clone() });
        }
        // `this` and the answers array come on top of the mirrored parameters.
        check_slots(spec, "<init>", desc, u32::from(parsed.param_slots()) + 2)?;
        check_unique(spec, &mut seen, "<init>", desc)?;
        constructors.push(parsed);
    }
    let mut methods = Vec::with_capacity(spec.methods.len());
    for (name, desc) in spec.methods {
        if !is_method_name(name) {
            return Err(StubError::BadName { class: class(), what: "method name", name: name.clone() });
        }
        let parsed = parse_descriptor(spec, name, desc)?;
        check_slots(spec, name, desc, u32::from(parsed.param_slots()) + 1)?;
        check_unique(spec, &mut seen, name, desc)?;
        methods.push(parsed);
    }
    Ok(Checked { constructors, methods })
}

fn parse_descriptor(spec: &StubSpec<'_>, member: &str, desc: &str) -> Result<MethodDescriptor, StubError> {
    MethodDescriptor::parse(desc).map_err(|source| StubError::BadDescriptor {
        class: spec.name.to_owned(),
        member: member.to_owned(),
        source,
    })
}

fn check_slots(spec: &StubSpec<'_>, member: &str, desc: &str, slots: u32) -> Result<(), StubError> {
    if slots > MAX_PARAM_SLOTS {
        return Err(StubError::TooManyParameterSlots {
            class: spec.name.to_owned(),
            member: member.to_owned(),
            descriptor: desc.to_owned(),
            slots,
        });
    }
    Ok(())
}

/// Two members with one name and descriptor are a `ClassFormatError` (JVMS §4.6).
fn check_unique<'s>(
    spec: &StubSpec<'_>,
    seen: &mut BTreeSet<(&'s str, &'s str)>,
    member: &'s str,
    desc: &'s str,
) -> Result<(), StubError> {
    if !seen.insert((member, desc)) {
        return Err(StubError::Duplicate {
            class: spec.name.to_owned(),
            member: member.to_owned(),
            descriptor: desc.to_owned(),
        });
    }
    Ok(())
}

/// A binary class name in internal form (JVMS §4.2.1): `/`-separated, non-empty unqualified
/// names, none containing `.`, `;` or `[`.
fn is_class_name(name: &str) -> bool {
    name.split('/').all(|part| !part.is_empty() && !part.contains(['.', ';', '[']))
}

/// An unqualified method name (JVMS §4.2.2). `<init>` and `<clinit>` are excluded too: a stub
/// implements ordinary methods only, and its constructors come from [`StubSpec::constructors`].
fn is_method_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['.', ';', '[', '/', '<', '>'])
}

/// Lays out the class. Only the constant pool, and in principle encoding, can fail here: [`check`]
/// has ruled out the rest.
fn build(spec: &StubSpec<'_>, checked: &Checked) -> Result<ClassFile, BuildError> {
    let mut cp = ConstantPool::new();
    let this_class = cp.intern_class(spec.name)?;
    let super_class = cp.intern_class(spec.super_name)?;
    let interfaces = spec.interfaces.iter().map(|i| cp.intern_class(i)).collect::<Result<_, _>>()?;
    let field = Member {
        access_flags: access::PRIVATE | access::FINAL,
        name_index: cp.intern_utf8(ANSWERS_FIELD)?,
        descriptor_index: cp.intern_utf8(ANSWERS_DESC)?,
        attributes: Vec::new(),
    };
    let code_name = cp.intern_utf8("Code")?;
    let mut methods = Vec::with_capacity(checked.constructors.len() + checked.methods.len());
    for ctor in &checked.constructors {
        let mut desc = ctor.clone();
        desc.params.push(FieldType::Array(Box::new(FieldType::Object(OBJECT.to_owned()))));
        let desc = desc.to_string();
        let code = constructor_code(&mut cp, spec, ctor, &desc)?;
        methods.push(method(&mut cp, "<init>", &desc, code_name, &code)?);
    }
    for (k, ((name, desc), parsed)) in spec.methods.iter().zip(&checked.methods).enumerate() {
        // `check` bounds the number of methods by 65535, so the index always fits.
        let k = i32::try_from(k).unwrap_or(i32::MAX);
        let code = method_code(&mut cp, spec, k, (name, desc), parsed)?;
        methods.push(method(&mut cp, name, desc, code_name, &code)?);
    }
    let mut attributes = Vec::new();
    if let Some(sig) = spec.signature {
        let name_index = cp.intern_utf8("Signature")?;
        let sig_index = cp.intern_utf8(sig)?;
        attributes.push(Attribute { name_index, info: sig_index.to_be_bytes().to_vec() });
    }
    Ok(ClassFile {
        minor_version: 0,
        major_version: MAJOR_VERSION,
        constant_pool: cp,
        access_flags: access::PUBLIC | access::FINAL | access::SUPER_OR_SYNCHRONIZED | access::SYNTHETIC,
        this_class,
        super_class,
        interfaces,
        fields: vec![field],
        methods,
        attributes,
    })
}

/// A public method (or constructor) with its `Code` attribute.
fn method(
    cp: &mut ConstantPool,
    name: &str,
    desc: &str,
    code_name: u16,
    code: &Code,
) -> Result<Member, classfile::Error> {
    Ok(Member {
        access_flags: access::PUBLIC,
        name_index: cp.intern_utf8(name)?,
        descriptor_index: cp.intern_utf8(desc)?,
        attributes: vec![Attribute { name_index: code_name, info: code.to_bytes() }],
    })
}

/// The encoded body `b` of the member `name` with descriptor `desc`, whose parameters (`this`
/// included) take `max_locals` slots.
fn finish(b: CodeBuilder<'_>, max_locals: u16, (name, desc): (&str, &str)) -> Result<Code, BuildError> {
    b.finish(max_locals).map_err(|source| BuildError::Encode {
        member: name.to_owned(),
        descriptor: desc.to_owned(),
        source,
    })
}

/// A constructor mirroring the superclass constructor `ctor`, with the answers array as an extra
/// last parameter (`desc` is its own descriptor, with that parameter). The field is stored before
/// the superclass constructor runs (legal for a field of the class itself, as javac does for
/// `this$0`), so an abstract method the superclass constructor calls already sees its answers.
fn constructor_code(
    cp: &mut ConstantPool,
    spec: &StubSpec<'_>,
    ctor: &MethodDescriptor,
    desc: &str,
) -> Result<Code, BuildError> {
    let mut e = CodeBuilder::new(cp);
    let answers_slot = 1 + ctor.param_slots();
    e.load_this();
    e.load(&FieldType::Object(OBJECT.to_owned()), answers_slot);
    e.putfield_ref(spec.name, ANSWERS_FIELD, ANSWERS_DESC)?;
    e.load_this();
    let mut slot = 1;
    for p in &ctor.params {
        e.load(p, slot);
        slot += p.slots();
    }
    e.invoke(Invoke::Special, (spec.super_name, "<init>", &ctor.to_string()), ctor.param_slots(), 0)?;
    e.ret(None);
    finish(e, answers_slot + 1, ("<init>", desc))
}

/// The method `member` (name and descriptor) with answer index `k`:
/// `Stubs.answer(answers[k], new Object[] { args... })`, then the result discarded, cast, or
/// unboxed to the return type.
fn method_code(
    cp: &mut ConstantPool,
    spec: &StubSpec<'_>,
    k: i32,
    member: (&str, &str),
    desc: &MethodDescriptor,
) -> Result<Code, BuildError> {
    let mut e = CodeBuilder::new(cp);
    e.load_this();
    e.getfield_ref(spec.name, ANSWERS_FIELD, ANSWERS_DESC)?;
    e.push_int(k)?;
    e.aaload();
    // `check` bounds the parameters by 255 slots, so their count fits an int.
    e.push_int(i32::try_from(desc.params.len()).unwrap_or(i32::MAX))?;
    e.anewarray(OBJECT)?;
    let mut slot = 1;
    for (i, p) in desc.params.iter().enumerate() {
        e.dup();
        e.push_int(i32::try_from(i).unwrap_or(i32::MAX))?;
        e.load(p, slot);
        if let FieldType::Base(c) = p
            && let Some(b) = boxing(*c)
        {
            e.invoke(Invoke::Static, (b.class, "valueOf", b.value_of), p.slots(), 1)?;
        }
        e.aastore();
        slot += p.slots();
    }
    let (answer, answer_desc) = STUB_ANSWER_METHOD;
    e.invoke(Invoke::Static, (STUBS_CLASS, answer, answer_desc), 2, 1)?;
    match &desc.ret {
        None => e.pop(),
        Some(FieldType::Object(name)) if name == OBJECT => {}
        Some(FieldType::Object(name)) => e.checkcast(name)?,
        // A Class constant for an array type is named by its descriptor (JVMS §4.4.1).
        Some(t @ FieldType::Array(_)) => e.checkcast(&t.to_string())?,
        Some(t @ FieldType::Base(c)) => {
            if let Some(b) = boxing(*c) {
                e.checkcast(b.class)?;
                e.invoke(Invoke::Virtual, (b.class, b.unbox, b.unbox_desc), 0, t.slots())?;
            }
        }
    }
    e.ret(desc.ret.as_ref());
    finish(e, 1 + desc.param_slots(), member)
}

/// How a primitive type is boxed and unboxed: its wrapper class, the wrapper's `valueOf`
/// descriptor, and the name and descriptor of its `<x>Value` method.
struct Boxing {
    class: &'static str,
    value_of: &'static str,
    unbox: &'static str,
    unbox_desc: &'static str,
}

/// The boxing of the base type `c` (JVMS Table 4.3-A); `None` only for characters that are no
/// base type, which a parsed descriptor never holds.
fn boxing(c: char) -> Option<Boxing> {
    let (class, value_of, unbox, unbox_desc) = match c {
        'Z' => ("java/lang/Boolean", "(Z)Ljava/lang/Boolean;", "booleanValue", "()Z"),
        'B' => ("java/lang/Byte", "(B)Ljava/lang/Byte;", "byteValue", "()B"),
        'C' => ("java/lang/Character", "(C)Ljava/lang/Character;", "charValue", "()C"),
        'S' => ("java/lang/Short", "(S)Ljava/lang/Short;", "shortValue", "()S"),
        'I' => ("java/lang/Integer", "(I)Ljava/lang/Integer;", "intValue", "()I"),
        'J' => ("java/lang/Long", "(J)Ljava/lang/Long;", "longValue", "()J"),
        'F' => ("java/lang/Float", "(F)Ljava/lang/Float;", "floatValue", "()F"),
        'D' => ("java/lang/Double", "(D)Ljava/lang/Double;", "doubleValue", "()D"),
        _ => return None,
    };
    Some(Boxing { class, value_of, unbox, unbox_desc })
}
