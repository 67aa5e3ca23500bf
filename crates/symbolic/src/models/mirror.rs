//! The cheap queries of `java.lang.Class` a mirror answers from its name and the program
//! database alone (`isArray`, `isPrimitive`, `isInterface`, `isEnum`, `isAnnotation`,
//! `isAssignableFrom`, `getComponentType`, `getSuperclass`, `cast`, `getPackageName`,
//! `getClassLoader` of the JDK's classes), `Class.forName`, and the
//! primitive types' mirrors (`Class.getPrimitiveClass`, native, behind `Integer.TYPE` and its
//! siblings), and `Array.newArray` (native, behind `Array.newInstance`). A mirror's name is a class's internal name, an array's descriptor (`[I`,
//! `[Ljava/lang/String;`) or a primitive type's Java name (`int`, `void`), which no class can have.

use classfile::access;
use jvm_model::ClassName;

use crate::interp::{Machine, Res};
use crate::value::Slot;

/// The Java names of the primitive types (and `void`) with their descriptors.
const PRIMITIVES: &[(&str, &str)] = &[
    ("boolean", "Z"),
    ("byte", "B"),
    ("char", "C"),
    ("short", "S"),
    ("int", "I"),
    ("long", "J"),
    ("float", "F"),
    ("double", "D"),
    ("void", "V"),
];

fn is_primitive(name: &str) -> bool {
    PRIMITIVES.iter().any(|(n, _)| *n == name)
}

/// Whether the bootstrap loader defines a class: the JDK's, but for the platform modules' few
/// the subjects reach (`java.sql`).
fn boot_class(class: &str) -> bool {
    crate::classes::is_jdk(class) && !class.starts_with("java/sql/")
}

/// The class of a mirror's innermost element type: itself for a class, the class of an array's
/// elements, `int` for `[[I`.
fn element_class(mirror: &str) -> String {
    match mirror.strip_prefix('[') {
        Some(_) => mirror_name_of(mirror.trim_start_matches('[')),
        None => mirror.to_string(),
    }
}

/// The mirror name of a field descriptor (an array's component type).
fn mirror_name_of(desc: &str) -> String {
    if let Some(c) = desc.strip_prefix('L') {
        return c.trim_end_matches(';').to_string();
    }
    match PRIMITIVES.iter().find(|(_, d)| *d == desc) {
        Some((n, _)) => n.to_string(),
        None => desc.to_string(),
    }
}

/// The field descriptor of the type a mirror names (its array's component descriptor).
fn descriptor_of(mirror: &str) -> String {
    if mirror.starts_with('[') {
        return mirror.to_string();
    }
    match PRIMITIVES.iter().find(|(n, _)| *n == mirror) {
        Some((_, d)) => d.to_string(),
        None => format!("L{mirror};"),
    }
}

impl Machine<'_, '_> {
    /// `java.lang.reflect.Array.newArray(component, length)` (native, behind `Array.newInstance`):
    /// a new array of the mirror's type; a null or `void` component throws as the JDK does.
    pub(crate) fn reflect_new_array(&mut self, comp: Slot, length: Slot) -> Res<Slot> {
        let Some(c) = comp.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "Array.newInstance(null, ...)");
        };
        let crate::heap::Obj::Mirror(t) = self.heap.get(c).clone() else {
            return crate::interp::unsupported("Array.newArray of a non-mirror");
        };
        if t == "void" {
            return self.throw_new("java/lang/IllegalArgumentException", "");
        }
        let a = self.alloc_array(&descriptor_of(&t), length)?;
        Ok(Slot::obj(a))
    }

    /// `Class.forName(name)` and `forName(name, initialize, loader)`: the class's mirror, its
    /// initialiser run first when asked; `ClassNotFoundException` for a class the program database
    /// does not hold (the loader is not consulted: every class is on the one class path).
    pub(crate) fn class_for_name(&mut self, name: Slot, initialize: bool) -> Res<Slot> {
        let Some(n) = name.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "Class.forName(null)");
        };
        let binary = self.concrete_str(n)?.to_rust();
        // A name in the internal form is no binary name: the JVM finds no such class.
        if binary.contains('/') {
            return self.throw_new("java/lang/ClassNotFoundException", &binary);
        }
        let internal = ClassName::internal_of(&binary);
        if internal.starts_with('[') {
            return Ok(Slot::obj(self.heap.mirror(&internal)));
        }
        if self.db.class_id(&internal).is_none() {
            return self.throw_new("java/lang/ClassNotFoundException", &binary);
        }
        if initialize {
            self.ensure_init(&internal)?;
        }
        Ok(Slot::obj(self.heap.mirror(&internal)))
    }

    /// `Class.getPrimitiveClass(name)`: the mirror of a primitive type.
    pub(crate) fn primitive_class(&mut self, name: Slot) -> Res<Slot> {
        let Some(n) = name.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "getPrimitiveClass(null)");
        };
        let text = self.concrete_str(n)?.to_rust();
        if !is_primitive(&text) {
            return crate::interp::unsupported(format!("Class.getPrimitiveClass({text})"));
        }
        Ok(Slot::obj(self.heap.mirror(&text)))
    }

    /// A query of the mirror named `t` (`args[0]` is the mirror); `None` if it is not one of these.
    pub(crate) fn class_query(&mut self, t: &str, name: &str, args: &[Slot]) -> Option<Res<Slot>> {
        let flags = || self.db.class_id(t).map_or(0, |id| self.db.access_flags(id));
        let flag =
            |f: u16| Ok(Slot::int(i32::from(!t.starts_with('[') && !is_primitive(t) && flags() & f != 0)));
        let r = match name {
            "isArray" => Ok(Slot::int(i32::from(t.starts_with('[')))),
            "isPrimitive" => Ok(Slot::int(i32::from(is_primitive(t)))),
            "isInterface" => flag(access::INTERFACE),
            "isAnnotation" => flag(access::ANNOTATION),
            "isSynthetic" => flag(access::SYNTHETIC),
            // An enum constant with a body is a subclass of its enum, without ACC_ENUM's meaning
            // here: `isEnum` needs the direct superclass to be `Enum` too.
            "isEnum" => {
                let sup = self.db.class_id(t).and_then(|id| self.db.super_name(id));
                let direct = sup == Some("java/lang/Enum");
                flag(access::ENUM).map(|s| Slot::int(s.as_int() & i32::from(direct)))
            }
            "getComponentType" | "componentType" => Ok(match t.strip_prefix('[') {
                Some(c) => Slot::obj(self.heap.mirror(&mirror_name_of(c))),
                None => Slot::null(),
            }),
            "getSuperclass" => Ok(self.superclass_mirror(t)),
            "isAssignableFrom" => self.is_assignable_from(t, args[1]),
            "cast" => self.class_cast(t, args[1]),
            "getPackageName" => {
                let binary = ClassName::binary_of(t.trim_start_matches('['));
                let pkg = match binary.rfind('.') {
                    Some(i) if !t.starts_with('[') && !is_primitive(t) => binary[..i].to_string(),
                    _ if t.starts_with('[') || is_primitive(t) => "java.lang".to_string(),
                    _ => String::new(),
                };
                Ok(self.new_rust_string(&pkg))
            }
            // The JDK's classes (java.base's and the other boot modules') have the bootstrap
            // loader, null; a class path class's loader is not modelled.
            "getClassLoader" if is_primitive(&element_class(t)) || boot_class(&element_class(t)) => {
                Ok(Slot::null())
            }
            _ => return None,
        };
        Some(r)
    }

    fn superclass_mirror(&mut self, t: &str) -> Slot {
        if t.starts_with('[') {
            return Slot::obj(self.heap.mirror(programdb::OBJECT));
        }
        let sup = self
            .db
            .class_id(t)
            .filter(|&id| !self.db.is_interface(id))
            .and_then(|id| self.db.super_name(id))
            .map(str::to_string);
        match sup {
            Some(s) if !is_primitive(t) => Slot::obj(self.heap.mirror(&s)),
            _ => Slot::null(),
        }
    }

    fn is_assignable_from(&mut self, t: &str, other: Slot) -> Res<Slot> {
        let Some(o) = other.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "isAssignableFrom(null)");
        };
        let crate::heap::Obj::Mirror(sub) = self.heap.get(o).clone() else {
            return crate::interp::unsupported("isAssignableFrom of a non-mirror");
        };
        let yes = if is_primitive(t) || is_primitive(&sub) { *t == sub } else { self.assignable(&sub, t) };
        Ok(Slot::int(i32::from(yes)))
    }

    fn class_cast(&mut self, t: &str, o: Slot) -> Res<Slot> {
        if let Some(id) = o.as_ref() {
            let c = self.heap.class_of(id);
            if is_primitive(t) || !self.assignable(&c, t) {
                let msg = format!("Cannot cast {} to {}", ClassName::binary_of(&c), ClassName::binary_of(t));
                return self.throw_new("java/lang/ClassCastException", &msg);
            }
        }
        Ok(o)
    }
}
