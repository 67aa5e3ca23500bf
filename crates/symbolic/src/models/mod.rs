//! JDK models (digest §C.3): Rust implementations with concrete and symbolic semantics of the
//! library methods the subjects use most, chosen before any bytecode when a call's method is
//! selected (`invoke`). `call` answers `None` when a class has no model for a method: the method's
//! own bytecode then runs, except in `opaque` classes, whose objects exist only as models.

mod atomic;
pub(crate) mod boxes;
mod builder;
mod exact;
mod format;
mod logging;
mod math;
mod mirror;
pub(crate) mod misc;
pub(crate) mod props;
mod regex;
mod split;
mod string;
mod string_len;
mod string_more;
pub(crate) mod stub;
mod unsafe_ops;

use crate::interp::{self, Machine, Res};
use crate::value::Slot;

pub(crate) type ModelResult = Option<Res<Option<Slot>>>;

/// The model of `class.name desc` applied to `args` (receiver first), if there is one.
pub(crate) fn call(
    m: &mut Machine<'_, '_>,
    class: &str,
    name: &str,
    desc: &str,
    args: &[Slot],
) -> ModelResult {
    if !m.cfg.parser_models
        && let Some(r) = without_parser_models(m, class, name, desc, args)
    {
        return r;
    }
    match class {
        "java/lang/String" => m.string_model(name, desc, args),
        "java/lang/StringBuilder" | "java/lang/StringBuffer" | "java/lang/AbstractStringBuilder" => {
            m.builder_model(name, desc, args)
        }
        "java/lang/Integer" | "java/lang/Long" | "java/lang/Short" | "java/lang/Byte"
        | "java/lang/Boolean" | "java/lang/Double" | "java/lang/Float" | "java/lang/Number" => {
            m.box_model(class, name, desc, args)
        }
        "java/lang/Character" => m.character_model(name, desc, args),
        "java/lang/Math" | "java/lang/StrictMath" => m.math_model(name, desc, args),
        "java/lang/Object" => m.object_model(name, desc, args),
        "java/lang/Throwable" => m.throwable_model(name, desc, args),
        "java/lang/System" => {
            m.system_property_model(name, desc, args).or_else(|| m.system_model(name, desc, args))
        }
        "java/util/Properties" => m.properties_model(name, desc, args),
        "jdk/internal/misc/VM" => m.saved_property_model(name, desc, args),
        "java/lang/ref/Reference" | "java/lang/ref/PhantomReference" => m.reference_model(name, desc, args),
        "java/util/Arrays" => m.arrays_model(name, desc, args),
        "java/util/Objects" => m.objects_model(name, desc, args),
        "jdk/internal/util/Preconditions" if name == "checkIndex" => {
            m.objects_model(name, "(II)I", &args[..2.min(args.len())])
        }
        "java/lang/Class" => m.stub_mirror_model(name, args).or_else(|| m.class_model(name, desc, args)),
        "java/lang/Enum" => m.enum_model(name, desc, args),
        "java/util/concurrent/atomic/AtomicLong" | "java/util/concurrent/atomic/AtomicInteger" => {
            m.atomic_model(class, name, desc, args)
        }
        "java/util/Random" => m.random_model(name, desc, args),
        // Class-data sharing is off: no archive, and a fixed seed where the JDK would take the
        // dump seed or the clock (ImmutableCollections' SALT: its order differs in every JVM).
        "jdk/internal/misc/CDS" => {
            let ret = desc.rsplit(')').next().unwrap_or("V");
            let v = match (name, ret) {
                ("getRandomSeedForDumping", _) => Some(Slot::long(1)),
                (_, "V") => None,
                (_, r) => Some(crate::value::default_of(r)),
            };
            Some(Ok(v))
        }
        "java/io/PrintStream" => m.print_model(name, desc, args),
        "java/lang/reflect/Array" if name == "getLength" => Some(m.array_length_of(args[0]).map(Some)),
        "java/lang/reflect/Array"
            if (name, desc) == ("newArray", "(Ljava/lang/Class;I)Ljava/lang/Object;") =>
        {
            Some(m.reflect_new_array(args[0], args[1]).map(Some))
        }
        "jdk/internal/misc/Unsafe" => m.unsafe_model(name, desc, args),
        "java/util/logging/Logger" => m.logger_model(name, desc, args),
        "jdk/internal/reflect/Reflection" if (name, desc) == ("getCallerClass", "()Ljava/lang/Class;") => {
            Some(Ok(Some(m.caller_class())))
        }
        "java/lang/Runtime" => m.runtime_model(name, desc),
        "java/lang/Thread" if (name, desc) == ("currentThread", "()Ljava/lang/Thread;") => {
            Some(Ok(Some(m.current_thread())))
        }
        _ => None,
    }
}

/// Characters `String.split` treats as regular-expression syntax: its fast path (a literal
/// delimiter) excludes them.
const REGEX_META: &str = ".$|()[{^?*+\\";

/// With `SymConfig::parser_models` off, what the calls those models handle do instead: stop the
/// replay (`split` by a one-character literal, which was modelled before them, excepted), run
/// the JDK's bytecode (`toHexString`), or for `Math`'s double functions, concretise. `None` for
/// every other call.
fn without_parser_models(
    m: &mut Machine<'_, '_>,
    class: &str,
    name: &str,
    desc: &str,
    args: &[Slot],
) -> Option<ModelResult> {
    let off = || Some(Some(interp::unsupported(format!("{class}.{name}{desc} without the parser models"))));
    match (class, name) {
        ("java/lang/String", "split") => {
            let literal =
                args.get(1).and_then(|r| r.as_ref()).and_then(|r| m.str_of(r).ok()).map(|re| re.units());
            let fast = match literal.as_deref() {
                Some([c]) => !REGEX_META.encode_utf16().any(|x| x == *c),
                Some([b, c]) => {
                    *b == u16::from(b'\\')
                        && !char::from_u32(u32::from(*c)).is_some_and(|c| c.is_ascii_alphanumeric())
                }
                _ => false,
            };
            if fast && desc == "(Ljava/lang/String;)[Ljava/lang/String;" { None } else { off() }
        }
        (
            "java/lang/String",
            "matches" | "format" | "formatted" | "strip" | "stripLeading" | "stripTrailing",
        ) => off(),
        // Before the models, `toHexString` ran from the JDK's bytecode and radix parsing stopped.
        ("java/lang/Integer" | "java/lang/Long", "toHexString") => Some(None),
        ("java/lang/Integer" | "java/lang/Long", "parseInt" | "parseLong")
            if matches!(desc, "(Ljava/lang/String;I)I" | "(Ljava/lang/String;I)J")
                && args[1].as_int() != 10 =>
        {
            off()
        }
        (
            "java/lang/Math" | "java/lang/StrictMath",
            "sqrt" | "floor" | "ceil" | "abs" | "min" | "max" | "pow",
        ) if desc.starts_with("(D") || desc.starts_with("(F") => {
            Some(Some(m.math_concrete(name, args).map(Some)))
        }
        _ => None,
    }
}

/// Classes whose objects are models only: a method without a model stops the replay.
pub(crate) fn opaque(class: &str) -> bool {
    matches!(
        class,
        "java/lang/String"
            | "java/lang/StringBuilder"
            | "java/lang/StringBuffer"
            | "java/lang/AbstractStringBuilder"
            | "java/lang/Class"
            | "java/lang/System"
            | "java/io/PrintStream"
            | "java/lang/Math"
            | "java/lang/StrictMath"
    )
}

/// Native methods a replay may skip: the ones a class initialiser calls to register its natives
/// or cache field ids (`UnixFileSystem.initIDs`, `Thread.registerNatives`), and `VM.initialize`
/// (the boot state it sets is answered by `VM`'s model), which change nothing a replay can
/// observe.
pub(crate) fn native_no_op(class: &str, name: &str, desc: &str) -> bool {
    desc == "()V"
        && (matches!(name, "initIDs" | "registerNatives")
            || (class, name) == ("jdk/internal/misc/VM", "initialize"))
}

/// Static fields of modelled classes (`System.out`, `Boolean.TRUE`, ...).
pub(crate) fn static_field(m: &mut Machine<'_, '_>, class: &str, name: &str) -> Option<Slot> {
    match (class, name) {
        ("java/lang/System", "out" | "err") => {
            let key = format!("java/lang/System.{name}");
            if let Some(v) = m.heap.statics.get(&key) {
                return Some(*v);
            }
            let o = m.heap.alloc(crate::heap::Obj::Inst {
                class: "java/io/PrintStream".to_string(),
                fields: Default::default(),
            });
            m.heap.statics.insert(key, Slot::obj(o));
            Some(Slot::obj(o))
        }
        ("java/lang/Boolean", "TRUE" | "FALSE") => {
            let b = m.box_value("java/lang/Boolean", Slot::int(i32::from(name == "TRUE")));
            Some(Slot::obj(b))
        }
        (
            "java/lang/Integer"
            | "java/lang/Long"
            | "java/lang/Short"
            | "java/lang/Byte"
            | "java/lang/Character"
            | "java/lang/Boolean"
            | "java/lang/Float"
            | "java/lang/Double"
            | "java/lang/Void",
            "TYPE",
        ) => {
            // The primitive types' mirrors (`Integer.TYPE`): their classes' initialisers do not
            // run (classes.rs `NO_CLINIT`), and `Void`'s asks a native (models/mirror.rs).
            let prim = match class {
                "java/lang/Character" => "char",
                "java/lang/Integer" => "int",
                c => c.trim_start_matches("java/lang/"),
            };
            Some(Slot::obj(m.heap.mirror(&prim.to_ascii_lowercase())))
        }
        // The JVM has booted (`VM.SYSTEM_BOOTED`) before any test: `VM.isBooted()` holds.
        ("jdk/internal/misc/VM", "initLevel") => Some(Slot::int(4)),
        _ => m.unsafe_static(class, name),
    }
}
