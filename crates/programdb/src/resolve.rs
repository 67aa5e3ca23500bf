//! The one implementation of JVM member resolution and method selection of a run: which method
//! an invoke instruction names (resolution, JVMS §5.4.3.3 for class method references, §5.4.3.4
//! for interface method references), which field a field instruction names (§5.4.3.2), and which
//! method an instance of a given class runs for `invokevirtual` and `invokeinterface` (selection,
//! §5.4.6). The call graph asks it for every receiver class of a call site, and the symbolic
//! interpreter asks it at every invoke it executes, so the two can never disagree on a callee.
//!
//! Deviations from the JVMS, each because the database has one class loader and no caller:
//! - Access control (§5.4.4) is not checked: resolution never fails with `IllegalAccessError`.
//! - Overriding (§5.4.5) ignores the package-private rule: a package-private method is taken as
//!   overridden by a same-signature instance method of a subclass in any package. The exact rule
//!   needs the transitive "overrides a method that overrides it" clause; javac-compiled libraries
//!   hardly ever rely on it, and both askers are over-approximations anyway (the call graph lists
//!   every receiver's method, the interpreter stops where it is unsure).
//! - `invokespecial` is resolution only: the §6.5 re-selection from the caller's direct
//!   superclass (`ACC_SUPER`) is skipped, since javac names that superclass (or the interface of
//!   `I.super.m()`) in the reference itself.
//! - Where resolution may pick "any" superinterface method (§5.4.3.3 step 3, §5.4.3.4 step 5),
//!   it picks the first in `supertypes` order (breadth first, superclass before interfaces,
//!   interfaces in declaration order), so that the answer is deterministic.
//!
//! Lookups are memoised per class in the database's slots: a sorted method table and the list of
//! all superinterfaces. Selection itself is not memoised; it walks a short superclass chain.

use std::collections::BTreeSet;

use bytecode::Opcode;
use classfile::access;

use crate::{ClassId, MethodId, OBJECT, ProgramDb};

/// A class's declared methods, sorted by (name, descriptor); the third element is the index in
/// the class file's `methods` (the first, if a malformed class declares one twice).
pub(crate) type MethodTable = Box<[(Box<str>, Box<str>, u16)]>;

/// How an invoke instruction chooses its method (JVMS §6.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InvokeKind {
    /// `invokestatic`: the resolved method.
    Static,
    /// `invokespecial`: the resolved method (constructors, `super.m()`, private methods of old
    /// class files); see the module comment for the skipped re-selection.
    Special,
    /// `invokevirtual`: resolved from a class reference, then selected by the receiver's class.
    Virtual,
    /// `invokeinterface`: resolved from an interface reference, then selected.
    Interface,
}

impl InvokeKind {
    /// The kind of an invoke opcode; `None` for `invokedynamic` and non-invokes.
    pub fn of(op: Opcode) -> Option<InvokeKind> {
        match op {
            Opcode::INVOKESTATIC => Some(InvokeKind::Static),
            Opcode::INVOKESPECIAL => Some(InvokeKind::Special),
            Opcode::INVOKEVIRTUAL => Some(InvokeKind::Virtual),
            Opcode::INVOKEINTERFACE => Some(InvokeKind::Interface),
            _ => None,
        }
    }

    /// Whether the method is selected by the receiver's class.
    pub fn is_virtual(self) -> bool {
        matches!(self, InvokeKind::Virtual | InvokeKind::Interface)
    }
}

/// Why selection (JVMS §5.4.6) finds no method to run for a receiver class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectError {
    /// The method found is abstract: the JVM throws `AbstractMethodError`.
    Abstract(MethodId),
    /// Several maximally-specific superinterface methods are non-abstract (conflicting default
    /// methods): the JVM throws `IncompatibleClassChangeError`. Sorted by id.
    Conflict(Box<[MethodId]>),
    /// No declaration at all, or the receiver class does not parse.
    Missing,
}

impl std::fmt::Display for SelectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SelectError::Abstract(_) => f.write_str("the selected method is abstract"),
            SelectError::Conflict(ms) => write!(f, "{} conflicting default methods", ms.len()),
            SelectError::Missing => f.write_str("no method to select"),
        }
    }
}

impl std::error::Error for SelectError {}

impl ProgramDb {
    fn method_table(&self, c: ClassId) -> &[(Box<str>, Box<str>, u16)] {
        self.classes[c.index()].method_table.get_or_init(|| {
            let Ok(class) = self.class(c) else { return Box::default() };
            let cp = &class.constant_pool;
            let mut table: Vec<(Box<str>, Box<str>, u16)> = class
                .methods
                .iter()
                .enumerate()
                .filter_map(|(i, m)| Some((m.name(cp)?.into(), m.descriptor(cp)?.into(), i as u16)))
                .collect();
            table.sort();
            table.into_boxed_slice()
        })
    }

    /// The method `name` + `descriptor` declared by `c` itself.
    pub fn declared_method(&self, c: ClassId, name: &str, descriptor: &str) -> Option<MethodId> {
        let table = self.method_table(c);
        let i = table.partition_point(|(n, d, _)| (&**n, &**d) < (name, descriptor));
        let (n, d, index) = table.get(i)?;
        (&**n == name && &**d == descriptor).then_some(MethodId { class: c, index: *index })
    }

    fn flags(&self, m: MethodId) -> u16 {
        self.member(m).map_or(0, |mm| mm.access_flags)
    }

    /// Every superinterface of `c`, direct or through superclasses and superinterfaces, each
    /// once, in `supertypes` order; only those on the classpath.
    pub fn superinterfaces(&self, c: ClassId) -> &[ClassId] {
        self.classes[c.index()].superinterfaces.get_or_init(|| {
            let own = self.class_name(c);
            let names = self.supertypes(own);
            names
                .into_iter()
                .filter(|&n| n != own)
                .filter_map(|n| self.class_id(n))
                .filter(|&k| self.is_interface(k))
                .collect()
        })
    }

    /// The maximally-specific superinterface methods of `c` for `name` + `descriptor` (JVMS
    /// §5.4.3.3): declared by a superinterface of `c`, neither private nor static, and with no
    /// other such method declared by a subinterface of the declaring one. In `supertypes` order
    /// of their interfaces.
    pub fn maximally_specific(&self, c: ClassId, name: &str, descriptor: &str) -> Vec<MethodId> {
        let candidates: Vec<MethodId> = self
            .superinterfaces(c)
            .iter()
            .filter_map(|&i| self.declared_method(i, name, descriptor))
            .filter(|&m| self.flags(m) & (access::PRIVATE | access::STATIC) == 0)
            .collect();
        candidates
            .iter()
            .copied()
            .filter(|m| {
                !candidates
                    .iter()
                    .any(|o| o.class != m.class && self.superinterfaces(o.class).contains(&m.class))
            })
            .collect()
    }

    /// Step 3 of §5.4.3.3 and steps 4 and 5 of §5.4.3.4: the one non-abstract maximally-specific
    /// superinterface method, else the first maximally-specific one (any superinterface method
    /// would do; a maximally-specific one is the more useful pick).
    fn resolve_in_superinterfaces(&self, c: ClassId, name: &str, descriptor: &str) -> Option<MethodId> {
        let max = self.maximally_specific(c, name, descriptor);
        let mut concrete = max.iter().filter(|&&m| self.flags(m) & access::ABSTRACT == 0);
        match (concrete.next(), concrete.next()) {
            (Some(&m), None) => Some(m),
            _ => max.first().copied(),
        }
    }

    /// Class method resolution (JVMS §5.4.3.3) from class `c`: the declaration in `c` or the
    /// nearest superclass (§5.4.3.3 step 2, including the signature-polymorphic methods of
    /// `MethodHandle` and `VarHandle`), else one of the superinterfaces'. `None` when `c` is an
    /// interface (the JVM's `IncompatibleClassChangeError`) or nothing is found.
    pub fn resolve_class_method(&self, c: ClassId, name: &str, descriptor: &str) -> Option<MethodId> {
        if self.is_interface(c) {
            return None;
        }
        let mut seen = BTreeSet::new();
        let mut cur = Some(c);
        while let Some(k) = cur.filter(|&k| seen.insert(k)) {
            if let Some(m) = self.declared_method(k, name, descriptor) {
                return Some(m);
            }
            if let Some(m) = self.signature_polymorphic(k, name) {
                return Some(m);
            }
            cur = self.superclass(k);
        }
        self.resolve_in_superinterfaces(c, name, descriptor)
    }

    /// A signature-polymorphic method of `c` named `name` (JVMS §2.9.3): `c` is
    /// `java/lang/invoke/MethodHandle` or `VarHandle` and declares exactly one method of that
    /// name, native and varargs with one `Object[]` parameter. Any descriptor resolves to it.
    fn signature_polymorphic(&self, c: ClassId, name: &str) -> Option<MethodId> {
        let cname = self.class_name(c);
        if cname != "java/lang/invoke/MethodHandle" && cname != "java/lang/invoke/VarHandle" {
            return None;
        }
        let table = self.method_table(c);
        let first = table.partition_point(|(n, _, _)| &**n < name);
        let mut named = table[first..].iter().take_while(|(n, _, _)| &**n == name);
        let (Some((_, d, index)), None) = (named.next(), named.next()) else { return None };
        let m = MethodId { class: c, index: *index };
        let poly = access::NATIVE | access::TRANSIENT_OR_VARARGS;
        (self.flags(m) & poly == poly && d.starts_with("([Ljava/lang/Object;)")).then_some(m)
    }

    /// Interface method resolution (JVMS §5.4.3.4) from interface `c`: its own declaration,
    /// else a public instance method of `java/lang/Object` (every interface has them, §9.2 of
    /// the JLS), else one of the superinterfaces'. `None` when `c` is a class or nothing is
    /// found.
    pub fn resolve_interface_method(&self, c: ClassId, name: &str, descriptor: &str) -> Option<MethodId> {
        if !self.is_interface(c) {
            return None;
        }
        if let Some(m) = self.declared_method(c, name, descriptor) {
            return Some(m);
        }
        let object = self.class_id(OBJECT).and_then(|o| self.declared_method(o, name, descriptor));
        if let Some(m) =
            object.filter(|&m| self.flags(m) & (access::PUBLIC | access::STATIC) == access::PUBLIC)
        {
            return Some(m);
        }
        self.resolve_in_superinterfaces(c, name, descriptor)
    }

    /// The method a reference naming `owner` resolves to: interface method resolution when
    /// `owner` is an interface (javac then writes an `InterfaceMethodref`), class method
    /// resolution otherwise. `None` when `owner` is not on the classpath or has no such method.
    pub fn resolve_method(&self, owner: &str, name: &str, descriptor: &str) -> Option<MethodId> {
        let c = self.class_id(owner)?;
        if self.is_interface(c) {
            self.resolve_interface_method(c, name, descriptor)
        } else {
            self.resolve_class_method(c, name, descriptor)
        }
    }

    /// Method selection (JVMS §5.4.6) for a receiver of class `receiver` and the resolved
    /// method `resolved`: a private `resolved` is itself; otherwise the nearest instance method up
    /// the superclass chain that can override it (not static, not private), else the one
    /// non-abstract maximally-specific superinterface method.
    pub fn select(&self, receiver: ClassId, resolved: MethodId) -> Result<MethodId, SelectError> {
        if self.flags(resolved) & access::PRIVATE != 0 {
            return Ok(resolved);
        }
        let class = self.class(resolved.class).map_err(|_| SelectError::Missing)?;
        let member = &class.methods[resolved.index as usize];
        let cp = &class.constant_pool;
        let (Some(name), Some(descriptor)) = (member.name(cp), member.descriptor(cp)) else {
            return Err(SelectError::Missing);
        };
        self.select_by_signature(receiver, &name, &descriptor)
    }

    /// Selection (JVMS §5.4.6) of `name` + `descriptor` for a receiver of class `receiver`, as
    /// for a resolved method that is neither private nor static: what a call whose reference
    /// does not resolve (its owner is not on the classpath) can still be asked.
    pub fn select_by_signature(
        &self,
        receiver: ClassId,
        name: &str,
        descriptor: &str,
    ) -> Result<MethodId, SelectError> {
        let mut seen = BTreeSet::new();
        let mut cur = Some(receiver);
        while let Some(k) = cur.filter(|&k| seen.insert(k)) {
            if let Some(m) = self.declared_method(k, name, descriptor)
                && self.flags(m) & (access::STATIC | access::PRIVATE) == 0
            {
                return if self.flags(m) & access::ABSTRACT == 0 {
                    Ok(m)
                } else {
                    Err(SelectError::Abstract(m))
                };
            }
            cur = self.superclass(k);
        }
        let max = self.maximally_specific(receiver, name, descriptor);
        let mut concrete: Vec<MethodId> =
            max.iter().copied().filter(|&m| self.flags(m) & access::ABSTRACT == 0).collect();
        match concrete.len() {
            1 => Ok(concrete[0]),
            0 => Err(max.first().map_or(SelectError::Missing, |&m| SelectError::Abstract(m))),
            _ => {
                concrete.sort_unstable();
                Err(SelectError::Conflict(concrete.into_boxed_slice()))
            }
        }
    }

    /// The method an instance of `c` runs for a virtual call of `name` + `descriptor`
    /// (`select_by_signature`), when there is one to run. It never answers a private method,
    /// which nothing overrides: for a call site, ask `invoke_target`, which resolves first.
    pub fn dispatch(&self, c: ClassId, name: &str, descriptor: &str) -> Option<MethodId> {
        self.select_by_signature(c, name, descriptor).ok()
    }

    /// The method an invoke of kind `kind` naming `owner.name descriptor` runs, for a receiver
    /// of class `receiver` (ignored by static and special calls): the resolved method for
    /// `invokestatic` and `invokespecial`, the selected one for `invokevirtual` and
    /// `invokeinterface`. A virtual call whose reference does not resolve is selected by
    /// signature. This is the question both the call graph and the interpreter ask.
    pub fn invoke_target(
        &self,
        kind: InvokeKind,
        owner: &str,
        name: &str,
        descriptor: &str,
        receiver: Option<ClassId>,
    ) -> Option<MethodId> {
        let resolved = self.linked(kind, owner, name, descriptor)?;
        if !kind.is_virtual() {
            return resolved;
        }
        self.select_resolved(receiver?, resolved, name, descriptor)
    }

    /// Resolution with the linking checks of §6.5: `invokestatic` needs a static method and the
    /// other three an instance method, else the JVM throws `IncompatibleClassChangeError` (the
    /// outer `None`). The inner `None`: the reference does not resolve on this classpath.
    pub(crate) fn linked(
        &self,
        kind: InvokeKind,
        owner: &str,
        name: &str,
        descriptor: &str,
    ) -> Option<Option<MethodId>> {
        let resolved = self.resolve_method(owner, name, descriptor);
        let is_static = resolved.is_some_and(|m| self.flags(m) & access::STATIC != 0);
        (resolved.is_none() || is_static == (kind == InvokeKind::Static)).then_some(resolved)
    }

    /// The selection step of `invoke_target` for a virtual call, once resolution is done (the
    /// call graph resolves once for all receivers of a site).
    pub(crate) fn select_resolved(
        &self,
        receiver: ClassId,
        resolved: Option<MethodId>,
        name: &str,
        descriptor: &str,
    ) -> Option<MethodId> {
        match resolved {
            Some(r) => self.select(receiver, r).ok(),
            None => self.dispatch(receiver, name, descriptor),
        }
    }

    /// The class declaring the field `name` + `descriptor` that a reference naming `owner`
    /// resolves to (JVMS §5.4.3.2): `owner` itself, else its direct superinterfaces (each
    /// recursively, in declaration order), else its superclass (recursively). `None` when no
    /// class on the way declares it.
    pub fn resolve_field(&self, owner: &str, name: &str, descriptor: &str) -> Option<ClassId> {
        let mut seen = BTreeSet::new();
        self.field_lookup(self.class_id(owner)?, name, descriptor, &mut seen)
    }

    fn field_lookup(
        &self,
        c: ClassId,
        name: &str,
        descriptor: &str,
        seen: &mut BTreeSet<ClassId>,
    ) -> Option<ClassId> {
        // A cycle in a corrupt hierarchy ends here.
        if !seen.insert(c) {
            return None;
        }
        if self.class(c).ok()?.field(name, descriptor).is_some() {
            return Some(c);
        }
        for &i in self.interfaces(c) {
            if let Some(found) = self.field_lookup(i, name, descriptor, seen) {
                return Some(found);
            }
        }
        self.field_lookup(self.superclass(c)?, name, descriptor, seen)
    }
}
