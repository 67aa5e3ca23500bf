//! What the walk collects of a class: its accessible constructors, methods and fields (inherited
//! ones once, overloads javac would find ambiguous left out), and the accessibility and
//! nameability rules a test in the CUT's package is held to (JLS §6.6).

use std::collections::BTreeSet;
use std::sync::Arc;

use classfile::access;

use super::load::ClassInfo;
use super::walk::Builder;
use super::{CallableKind, GenericCallable, jdk, overloads};
use crate::types::{JType, OBJECT};

/// The parameter part of a method descriptor (`(ILjava/lang/String;` of `(ILjava/lang/String;)V`):
/// what an override or a hiding method shares with the method it replaces.
pub(super) fn param_part(descriptor: &str) -> &str {
    descriptor.rsplit_once(')').map_or(descriptor, |(p, _)| p)
}

pub(super) fn is_bridge_or_synthetic(access: u16) -> bool {
    access & (access::SYNTHETIC | access::VOLATILE_OR_BRIDGE) != 0
}

impl Builder<'_> {
    pub(super) fn cut_package(&self) -> &str {
        self.cut.package()
    }

    /// `class_accessible` of the class and of every class enclosing it: a package-private member
    /// of a private nested class (Guava's `TreeRangeMap.SubRangeMap.SubRangeMapAsMap`) cannot be
    /// named from a test (JLS §6.6.1).
    pub(super) fn class_and_outers_accessible(&mut self, c: &ClassInfo) -> bool {
        if !self.class_accessible(c) {
            return false;
        }
        let mut name = c.name.clone();
        while let Some(i) = name.rfind('$') {
            name.truncate(i);
            match self.table.get(&name) {
                Some(outer) if !self.class_accessible(&outer) => return false,
                Some(_) => {}
                // Not a nested class after all (a `$` in a top-level name), or unreadable.
                None => break,
            }
        }
        true
    }

    /// Whether a test in the CUT's package can name class `name`: a primitive, wrapper or
    /// `String`, or a class the table reads that is accessible with its enclosing classes.
    pub(super) fn nameable(&mut self, name: &str) -> bool {
        JType::class(name).is_primitive_like()
            || self.table.get(name).is_some_and(|c| self.class_and_outers_accessible(&c))
    }

    /// Whether a test in the CUT's package can write every class `t` mentions. A class not on
    /// the classpath counts as nameable: what cannot be read is not judged here.
    pub(super) fn type_nameable(&mut self, t: &JType) -> bool {
        let mut names = Vec::new();
        t.mentioned_classes(&mut names);
        names.iter().all(|n| self.table.get(n).is_none() || self.nameable(n))
    }

    /// `t` as a test can declare a variable of it: a class it cannot name becomes its nearest
    /// superclass it can (jsoup's `Parser.getTreeBuilder()` returns a package-private
    /// `TreeBuilder`: the test's variable is an `Object`), and type arguments it cannot name
    /// make the type raw.
    pub(super) fn nameable_type(&mut self, t: JType) -> JType {
        match t {
            JType::Array(c) => JType::Array(Box::new(self.nameable_type(*c))),
            JType::Class { ref name, .. } if !self.type_nameable(&JType::class(name)) => {
                let Some(info) = self.table.get(name) else { return JType::object() };
                for c in self.superclass_chain(&info).iter().skip(1) {
                    if self.nameable(&c.name) {
                        return JType::class(&c.name);
                    }
                }
                JType::object()
            }
            JType::Class { ref name, .. } if !self.type_nameable(&t) => JType::class(name),
            other => other,
        }
    }

    /// The interfaces named by `roots` with all their superinterfaces, each once, in work-list
    /// order, and whether the table read every one.
    pub(super) fn interface_closure(&mut self, roots: Vec<String>) -> (Vec<Arc<ClassInfo>>, bool) {
        let mut res = Vec::new();
        let mut complete = true;
        let mut seen = BTreeSet::new();
        let mut work = roots;
        while let Some(i) = work.pop() {
            if !seen.insert(i.clone()) {
                continue;
            }
            let Some(ii) = self.table.get(&i) else {
                complete = false;
                continue;
            };
            work.extend(ii.interfaces.iter().cloned());
            res.push(ii);
        }
        (res, complete)
    }

    pub(super) fn class_accessible(&self, c: &ClassInfo) -> bool {
        !c.is_local
            && c.access & access::PRIVATE == 0
            && (c.access & access::PUBLIC != 0 || c.package() == self.cut_package())
    }

    /// JLS §6.6.1 from a test in the CUT's package: public, or not private and in the package.
    pub(super) fn member_accessible(&self, member_access: u16, declaring: &ClassInfo) -> bool {
        if member_access & access::PRIVATE != 0 || is_bridge_or_synthetic(member_access) {
            return false;
        }
        member_access & access::PUBLIC != 0 || declaring.package() == self.cut_package()
    }

    /// The class and its superclasses, most derived first (interfaces are not walked: default
    /// methods are rare in subjects and reached through the implementing class's own calls).
    pub(super) fn superclass_chain(&mut self, c: &Arc<ClassInfo>) -> Vec<Arc<ClassInfo>> {
        let mut res = vec![c.clone()];
        let mut cur = c.clone();
        while let Some(s) = cur.super_name.clone() {
            let Some(next) = self.table.get(&s) else { break };
            if res.iter().any(|x| x.name == next.name) {
                break;
            }
            res.push(next.clone());
            cur = next;
        }
        res
    }

    pub(super) fn callable(
        &self,
        decl: &ClassInfo,
        kind: CallableKind,
        name: &str,
        descriptor: &str,
        is_static: bool,
    ) -> GenericCallable {
        GenericCallable {
            kind,
            class: decl.name.clone(),
            name: name.to_string(),
            descriptor: descriptor.to_string(),
            is_static,
            class_params: decl.sig.type_params.clone(),
            type_params: Vec::new(),
            owner: decl.generic_self(),
            receiver: decl.generic_self(),
            params: Vec::new(),
            ret: None,
        }
    }

    /// The accessible constructors, methods and fields of `c` (inherited ones included, overridden
    /// ones once). `object_methods` keeps Object's own `equals`; `jdk_only_modifiers` keeps only
    /// container-filling methods and the class's own `jdk_factories` (for JDK classes). Object's
    /// own `hashCode` and `toString` are never members: their results come from the identity
    /// hash, which differs between JVM runs, so a test feeding one into a later call
    /// (`d.cumulativeProbability(d.hashCode())`) would cover different code in the user's runs
    /// than in the workers (`-XX:hashCode=2`). Overrides of them are members as usual.
    pub(super) fn members(
        &mut self,
        c: &Arc<ClassInfo>,
        object_methods: bool,
        jdk_only_modifiers: bool,
    ) -> Vec<GenericCallable> {
        let mut res = Vec::new();
        let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
        let concrete = !c.is_abstract() && !c.is_enum();
        let user_class = !jdk::is_jdk(&c.name);
        for decl in self.superclass_chain(c) {
            let is_object = decl.name == OBJECT;
            // Members a user class inherits from the JDK (`Enum.describeConstable`, ...) are left
            // out, except Object's equals on the CUT.
            if user_class && !is_object && jdk::is_jdk(&decl.name) {
                continue;
            }
            for m in &decl.methods {
                if m.name == "<clinit>" {
                    continue;
                }
                if !self.member_accessible(m.access, &decl) {
                    // An instance method the test cannot call still hides the superclass's of the
                    // same signature (JLS §8.4.8: it is not inherited): Spatial4j's
                    // `JtsSpatialContextFactory` overrides the protected `init` of
                    // `SpatialContextFactory` from another package, so a test in the latter's
                    // package cannot call `init` on it, though it can call the superclass's.
                    if m.name != "<init>"
                        && m.access & access::STATIC == 0
                        && !is_bridge_or_synthetic(m.access)
                    {
                        seen.insert((m.name.clone(), param_part(&m.descriptor).to_string()));
                    }
                    continue;
                }
                let is_ctor = m.name == "<init>";
                if is_ctor && (decl.name != c.name || !concrete) {
                    continue;
                }
                if is_ctor
                    && !user_class
                    && (jdk::is_nondeterministic_constructor(&decl.name, &m.descriptor)
                        || jdk::is_file_constructor(&decl.name, &m.descriptor))
                {
                    continue;
                }
                if is_object && !(object_methods && m.name == "equals") {
                    continue;
                }
                let factory = m.access & access::STATIC != 0
                    && decl.name == c.name
                    && jdk::jdk_factories(&decl.name).contains(&m.name.as_str());
                if jdk_only_modifiers && !is_ctor && !factory && !jdk::is_jdk_modifier(&m.name) {
                    continue;
                }
                // An override is the same name and parameters; its return type may be narrower
                // (`StringBuilder.append` returns `StringBuilder` where the package-private
                // `AbstractStringBuilder.append` it overrides returns `AbstractStringBuilder`, a
                // type a test cannot name). The most derived declaration comes first and wins.
                if !seen.insert((m.name.clone(), param_part(&m.descriptor).to_string())) {
                    continue;
                }
                let is_static = m.access & access::STATIC != 0;
                let kind = if is_ctor { CallableKind::Constructor } else { CallableKind::Method };
                let mut g = self.callable(&decl, kind, &m.name, &m.descriptor, is_static);
                g.receiver = c.generic_self();
                if is_static && !is_ctor {
                    // Static methods do not see the class's type variables.
                    g.class_params.clear();
                }
                g.type_params = m.sig.type_params.clone();
                g.params = m.sig.params.clone();
                // A parameter of a class the test cannot name (jsoup's `new Parser(TreeBuilder)`,
                // `TreeBuilder` package-private) only ever gets `(TreeBuilder) null`: such a class
                // has no generators, and the cast does not compile.
                if !g.params.iter().all(|p| self.type_nameable(p)) {
                    continue;
                }
                g.ret = if is_ctor {
                    Some(decl.generic_self())
                } else {
                    m.sig.ret.clone().map(|r| self.nameable_type(r))
                };
                res.push(g);
            }
            if jdk_only_modifiers {
                continue;
            }
            for f in &decl.fields {
                if !self.member_accessible(f.access, &decl) || f.access & access::ENUM != 0 {
                    continue;
                }
                if !seen.insert((f.name.clone(), f.descriptor.clone())) {
                    continue;
                }
                let is_static = f.access & access::STATIC != 0;
                let mut g = self.callable(&decl, CallableKind::FieldGet, &f.name, &f.descriptor, is_static);
                g.receiver = c.generic_self();
                if is_static {
                    g.class_params.clear();
                }
                g.ret = Some(self.nameable_type(f.ty.clone()));
                if f.access & access::FINAL == 0 && self.type_nameable(&f.ty) {
                    let mut s = g.clone();
                    s.kind = CallableKind::FieldSet;
                    s.params = vec![f.ty.clone()];
                    s.ret = None;
                    res.push(s);
                }
                res.push(g);
            }
        }
        let ambiguous = overloads::ambiguous(&res);
        res.into_iter().enumerate().filter(|(i, _)| !ambiguous.contains(i)).map(|(_, g)| g).collect()
    }
}
