//! The call graph by class-hierarchy analysis (Dean, Grove and Chambers, ECOOP 1995), per method
//! on demand: each invoke instruction's possible targets. A static or special call has the one
//! method it resolves to; a virtual or interface call has, for the named class and every subtype
//! of it on the classpath that can have instances (not abstract, not an interface), the method
//! that instance would run. Both answers come from `resolve` (JVMS §5.4.3.3, §5.4.3.4, §5.4.6),
//! the same code the interpreter asks at an invoke. Targets are sorted by `MethodId` and capped
//! (`DbConfig::max_call_targets`).
//! `invokedynamic` sites have no targets here (their bootstrap decides).
//!
//! It deliberately does not prune by what is instantiated (RTA) or by types flowing to the
//! receiver: that precision comes later, with the same `CallSite` answer.

use classfile::access;

use bytecode::{Insn, InsnIdx, Opcode};

use crate::{InvokeKind, MethodId, ProgramDb};

/// One invoke instruction of a method and where it may go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    pub insn: InsnIdx,
    /// `INVOKEVIRTUAL`, `INVOKESPECIAL`, `INVOKESTATIC`, `INVOKEINTERFACE` or `INVOKEDYNAMIC`.
    pub op: Opcode,
    /// The named owner, method name and descriptor (for `invokedynamic`, no owner).
    pub owner: String,
    pub name: String,
    pub descriptor: String,
    /// The methods on the classpath it may call, sorted; targets outside the classpath are not
    /// listed.
    pub targets: Vec<MethodId>,
    /// More targets exist than the cap let in.
    pub truncated: bool,
}

impl ProgramDb {
    /// The call sites of a method, in instruction order, with their targets; empty when the
    /// method has no code or its code does not decode. Computed on the first request.
    pub fn call_sites(&self, m: MethodId) -> &[CallSite] {
        let slot = &self.method_slots(m.class)[m.index as usize];
        slot.calls.get_or_init(|| self.compute_call_sites(m))
    }

    /// The call site at instruction `insn` of `m`, if that instruction is an invoke.
    pub fn callees(&self, m: MethodId, insn: InsnIdx) -> Option<&CallSite> {
        let sites = self.call_sites(m);
        sites.binary_search_by_key(&insn, |s| s.insn).ok().map(|i| &sites[i])
    }

    fn compute_call_sites(&self, m: MethodId) -> Box<[CallSite]> {
        let (Some(Ok(body)), Ok(class)) = (self.body(m), self.class(m.class)) else { return Box::default() };
        let cp = &class.constant_pool;
        let mut sites = Vec::new();
        for (i, insn) in body.insns.iter().enumerate() {
            let (op, index) = match *insn {
                Insn::Invoke { op, index } => (op, index),
                Insn::InvokeInterface { index, .. } => (Opcode::INVOKEINTERFACE, index),
                Insn::InvokeDynamic { index } => (Opcode::INVOKEDYNAMIC, index),
                _ => continue,
            };
            let insn = InsnIdx(i as u32);
            if op == Opcode::INVOKEDYNAMIC {
                let nat = match cp.get(index) {
                    Some(classfile::Constant::InvokeDynamic { name_and_type_index, .. }) => {
                        cp.name_and_type(*name_and_type_index)
                    }
                    _ => None,
                };
                let (name, descriptor) =
                    nat.map(|(n, d)| (n.into_owned(), d.into_owned())).unwrap_or_default();
                sites.push(CallSite {
                    insn,
                    op,
                    owner: String::new(),
                    name,
                    descriptor,
                    targets: Vec::new(),
                    truncated: false,
                });
                continue;
            }
            let Some(r) = cp.member_ref(index) else { continue };
            let (targets, truncated) = self.targets(op, &r.class, &r.name, &r.descriptor);
            sites.push(CallSite {
                insn,
                op,
                owner: r.class.into_owned(),
                name: r.name.into_owned(),
                descriptor: r.descriptor.into_owned(),
                targets,
                truncated,
            });
        }
        sites.into_boxed_slice()
    }

    fn targets(&self, op: Opcode, owner: &str, name: &str, descriptor: &str) -> (Vec<MethodId>, bool) {
        let Some(kind) = InvokeKind::of(op) else { return (Vec::new(), false) };
        if !kind.is_virtual() {
            return (self.invoke_target(kind, owner, name, descriptor, None).into_iter().collect(), false);
        }
        // `invoke_target` for each receiver, resolved once for all (`Object.equals` has
        // thousands of receivers).
        let Some(resolved) = self.linked(kind, owner, name, descriptor) else { return (Vec::new(), false) };
        let receivers = self.class_id(owner).into_iter().chain(self.subtypes(owner));
        let mut targets: Vec<MethodId> = receivers
            .filter(|&c| self.access_flags(c) & (access::ABSTRACT | access::INTERFACE) == 0)
            .filter_map(|c| self.select_resolved(c, resolved, name, descriptor))
            .collect();
        targets.sort_unstable();
        targets.dedup();
        let cap = self.config.max_call_targets;
        let truncated = targets.len() > cap;
        targets.truncate(cap);
        (targets, truncated)
    }
}
