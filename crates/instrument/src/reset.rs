//! Static state reset (DESIGN.md §3.4): the method `rt_abi::STATIC_RESET_METHOD` that sets every
//! non-constant static field back to its default and then runs a copy of `<clinit>` (with guards,
//! without probes), and the `<clinit>` synthesised for the `ClassInit` probe of classes that have
//! none.
//!
//! So that the copy can assign them again, static final fields that `<clinit>` assigns lose
//! `ACC_FINAL` (a `putstatic` to a final field outside `<clinit>` fails, JVMS §6.5.putstatic).
//! Not reset, deliberately: constants (`ConstantValue`, JVMS §4.7.2), interface fields (always
//! final, JVMS §4.5: interfaces of version >= 52 get an empty reset method so the runtime can call
//! it uniformly), and enum classes (re-creating the constants would break identity and the
//! caches of `Enum.valueOf`: their reset method is empty too).

use bytecode::{Insn, MethodBody, Opcode};
use classfile::{Attribute, ClassFile, Constant, Member, access};
use rt_abi::GuardSet;

use crate::{Error, Report};

fn zero_insn(descriptor: &str) -> Insn {
    match descriptor.as_bytes().first() {
        Some(b'J') => Insn::simple(Opcode::LCONST_0),
        Some(b'F') => Insn::simple(Opcode::FCONST_0),
        Some(b'D') => Insn::simple(Opcode::DCONST_0),
        Some(b'L' | b'[') => Insn::simple(Opcode::ACONST_NULL),
        _ => Insn::simple(Opcode::ICONST_0),
    }
}

/// Adds the reset method. `clinit` is the decoded original `<clinit>`, when the class has one.
pub(crate) fn add_reset(
    cf: &mut ClassFile,
    clinit: Option<MethodBody>,
    guards: Option<GuardSet>,
    code_name: u16,
    report: &mut Report,
) -> Result<(), Error> {
    let is_interface = cf.access_flags & access::INTERFACE != 0;
    let is_enum = cf.access_flags & access::ENUM != 0;
    if is_interface && cf.major_version < 52 {
        // Static interface methods need version 52 (JVMS §4.6).
        report.notes.push("no reset method: interface of class-file version < 52".to_string());
        return Ok(());
    }
    let this = cf.name().into_owned();
    let mut zeroing: Vec<Insn> = Vec::new();
    let mut body = None;
    if !is_interface && !is_enum {
        // Fields of this class assigned by `<clinit>`.
        let mut assigned: Vec<(String, String)> = Vec::new();
        if let Some(c) = &clinit {
            for insn in &c.insns {
                if let Insn::Field { op: Opcode::PUTSTATIC, index } = insn
                    && let Some(r) = cf.constant_pool.member_ref(*index)
                    && r.class == this
                {
                    assigned.push((r.name.into_owned(), r.descriptor.into_owned()));
                }
            }
        }
        let ClassFile { constant_pool: cp, fields, .. } = cf;
        for f in fields.iter_mut() {
            if f.access_flags & access::STATIC == 0 {
                continue;
            }
            let (Some(name), Some(desc)) = (f.name(cp), f.descriptor(cp)) else { continue };
            let (name, desc) = (name.into_owned(), desc.into_owned());
            let constant = f
                .attribute(cp, "ConstantValue")
                .and_then(|a| (a.info.len() == 2).then(|| u16::from_be_bytes([a.info[0], a.info[1]])));
            let value = match constant {
                // A constant: the JVM sets it before `<clinit>` and nothing may change it.
                Some(_) if f.access_flags & access::FINAL != 0 => continue,
                Some(index) => match cp.get(index) {
                    Some(Constant::Long(_) | Constant::Double(_)) => Insn::Ldc { op: Opcode::LDC2_W, index },
                    Some(_) => Insn::ldc(index),
                    None => continue,
                },
                None => zero_insn(&desc),
            };
            if f.access_flags & access::FINAL != 0 {
                if !assigned.iter().any(|(n, d)| *n == name && *d == desc) {
                    continue;
                }
                f.access_flags &= !access::FINAL;
            }
            zeroing.push(value);
            zeroing
                .push(Insn::Field { op: Opcode::PUTSTATIC, index: cp.intern_fieldref(&this, &name, &desc)? });
        }
        if let Some(c) = clinit {
            let mut redirects = 0;
            let mut copy = crate::rewrite(
                c,
                &crate::Edit { probes: &[], sites: &[], guards },
                cp,
                &mut crate::probes::TracerRefs::default(),
                &mut std::collections::BTreeMap::new(),
                &mut redirects,
            )
            .map_err(|e| e.to_string());
            if let Ok(b) = &mut copy
                && !zeroing.is_empty()
            {
                b.raise_max_stack(2);
                let len = zeroing.len();
                match b.insert_before(vec![(bytecode::InsnIdx(0), zeroing.clone())]) {
                    Ok(_) => crate::skip_prelude_on_jumps(b, len),
                    Err(e) => copy = Err(e.to_string()),
                }
            }
            match copy.and_then(|b| bytecode::encode(&b, cp).map_err(|e| e.to_string())) {
                Ok((code, _)) => body = Some(code),
                Err(e) => report.notes.push(format!("reset method without the <clinit> copy: {e}")),
            }
        }
    }
    let code = match body {
        Some(code) => code,
        None => {
            zeroing.push(Insn::simple(Opcode::RETURN));
            let b = MethodBody::new(2, 0, zeroing);
            bytecode::encode(&b, &cf.constant_pool)
                .map_err(|source| Error::Synthesize { method: rt_abi::STATIC_RESET_METHOD, source })?
                .0
        }
    };
    let name_index = cf.constant_pool.intern_utf8(rt_abi::STATIC_RESET_METHOD)?;
    let descriptor_index = cf.constant_pool.intern_utf8(rt_abi::STATIC_RESET_DESCRIPTOR)?;
    cf.methods.push(Member {
        access_flags: access::PUBLIC | access::STATIC | access::SYNTHETIC,
        name_index,
        descriptor_index,
        attributes: vec![Attribute { name_index: code_name, info: code.to_bytes() }],
    });
    Ok(())
}

/// Adds `<clinit>` holding only the `ClassInit` probe, for a class that has none.
pub(crate) fn add_clinit(cf: &mut ClassFile, class_arg: i32, code_name: u16) -> Result<(), Error> {
    let cp = &mut cf.constant_pool;
    let (name, desc) = rt_abi::ProbeKind::ClassInit.method();
    let call = Insn::invokestatic(cp.intern_methodref(rt_abi::TRACER_CLASS, name, desc)?);
    let push = crate::probes::push_int(class_arg, cp)?;
    let b = MethodBody::new(1, 0, vec![push, call, Insn::simple(Opcode::RETURN)]);
    let code = bytecode::encode(&b, cp).map_err(|source| Error::Synthesize { method: "<clinit>", source })?.0;
    let name_index = cp.intern_utf8("<clinit>")?;
    let descriptor_index = cp.intern_utf8("()V")?;
    cf.methods.push(Member {
        access_flags: access::STATIC,
        name_index,
        descriptor_index,
        attributes: vec![Attribute { name_index: code_name, info: code.to_bytes() }],
    });
    Ok(())
}
