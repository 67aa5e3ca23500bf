//! A javap-like text form of decoded methods for snapshot tests and debugging: one instruction
//! per line with its index, targets as indices, then handlers, lines, local variables and
//! frames, all in indices. Constant-pool operands are shown as `#n` plus a `// ...` comment when
//! the pool resolves them. It is an output format only; there is no parser for it yet.

use std::fmt::Write;

use classfile::{ClassFile, Constant, ConstantPool};

use crate::body::{CodeAttribute, FrameKind, LocalVar, MethodBody, VType};
use crate::insn::Insn;

/// Prints every method of a class: a header line `method <flags> <name><descriptor>` and the
/// body (or why it could not be decoded).
pub fn print_class(class: &ClassFile) -> String {
    let cp = &class.constant_pool;
    let mut out = String::new();
    for m in &class.methods {
        let name = m.name(cp).unwrap_or_default();
        let desc = m.descriptor(cp).unwrap_or_default();
        let stat = if m.access_flags & classfile::access::STATIC != 0 { "static " } else { "" };
        let _ = writeln!(out, "method {stat}{name}{desc}");
        match m.code(cp) {
            None => out.push_str("  (no code)\n"),
            Some(Err(e)) => {
                let _ = writeln!(out, "  (bad Code attribute: {e})");
            }
            Some(Ok(code)) => match crate::decode(&code, cp) {
                Ok(body) => out.push_str(&print_body(&body, Some(cp))),
                Err(e) => {
                    let _ = writeln!(out, "  (cannot decode: {e})");
                }
            },
        }
        out.push('\n');
    }
    out
}

/// Prints one body, indented by two spaces.
pub fn print_body(body: &MethodBody, cp: Option<&ConstantPool>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  max_stack={} max_locals={}", body.max_stack, body.max_locals);
    let width = body.insns.len().saturating_sub(1).to_string().len();
    for (i, insn) in body.insns.iter().enumerate() {
        let _ = writeln!(out, "  {i:>width$}: {}", insn_text(insn, cp));
    }
    if !body.handlers.is_empty() {
        out.push_str("  handlers:\n");
        for h in &body.handlers {
            let catch = if h.catch_type == 0 { "any".to_owned() } else { class_text(h.catch_type, cp) };
            let _ = writeln!(out, "    [{}, {}) -> {} catch {catch}", h.start, h.end, h.handler);
        }
    }
    for a in &body.attributes {
        match a {
            CodeAttribute::LineNumberTable { entries, .. } => {
                out.push_str("  lines:\n");
                for e in entries {
                    let _ = writeln!(out, "    {}: line {}", e.start, e.line);
                }
            }
            CodeAttribute::LocalVariableTable { entries, .. } => locals_text(&mut out, "locals", entries, cp),
            CodeAttribute::LocalVariableTypeTable { entries, .. } => {
                locals_text(&mut out, "local types", entries, cp)
            }
            CodeAttribute::StackMapTable { frames, .. } => {
                out.push_str("  frames:\n");
                for f in frames {
                    let kind = match &f.kind {
                        FrameKind::Same { extended } => format!("same{}", ext(*extended)),
                        FrameKind::SameLocals1StackItem { stack, extended } => {
                            format!("same_locals_1_stack_item{} [{}]", ext(*extended), vtype_text(stack, cp))
                        }
                        FrameKind::Chop { k } => format!("chop {k}"),
                        FrameKind::Append { locals } => format!("append [{}]", vtypes_text(locals, cp)),
                        FrameKind::Full { locals, stack } => {
                            format!(
                                "full locals=[{}] stack=[{}]",
                                vtypes_text(locals, cp),
                                vtypes_text(stack, cp)
                            )
                        }
                    };
                    let _ = writeln!(out, "    {}: {kind}", f.at);
                }
            }
            CodeAttribute::TypeAnnotations { name_index, info }
            | CodeAttribute::Other { name_index, info } => {
                let name = cp
                    .and_then(|cp| cp.utf8(*name_index))
                    .map(|s| s.into_owned())
                    .unwrap_or_else(|| format!("#{name_index}"));
                let _ = writeln!(out, "  attribute {name} ({} bytes)", info.len());
            }
        }
    }
    out
}

fn ext(extended: bool) -> &'static str {
    if extended { "_extended" } else { "" }
}

fn locals_text(out: &mut String, title: &str, entries: &[LocalVar], cp: Option<&ConstantPool>) {
    let _ = writeln!(out, "  {title}:");
    for e in entries {
        let name = utf8_text(e.name_index, cp);
        let desc = utf8_text(e.descriptor_index, cp);
        let _ = writeln!(out, "    [{}, {}) slot {} {name} {desc}", e.start, e.end, e.slot);
    }
}

fn utf8_text(index: u16, cp: Option<&ConstantPool>) -> String {
    cp.and_then(|cp| cp.utf8(index)).map(|s| s.into_owned()).unwrap_or_else(|| format!("#{index}"))
}

fn class_text(index: u16, cp: Option<&ConstantPool>) -> String {
    match cp.and_then(|cp| cp.class_name(index)) {
        Some(name) => format!("#{index} {name}"),
        None => format!("#{index}"),
    }
}

fn vtypes_text(vs: &[VType], cp: Option<&ConstantPool>) -> String {
    vs.iter().map(|v| vtype_text(v, cp)).collect::<Vec<_>>().join(", ")
}

fn vtype_text(v: &VType, cp: Option<&ConstantPool>) -> String {
    match v {
        VType::Top => "top".into(),
        VType::Integer => "int".into(),
        VType::Float => "float".into(),
        VType::Double => "double".into(),
        VType::Long => "long".into(),
        VType::Null => "null".into(),
        VType::UninitializedThis => "uninit_this".into(),
        VType::Object(i) => match cp.and_then(|cp| cp.class_name(*i)) {
            Some(name) => name.into_owned(),
            None => format!("#{i}"),
        },
        VType::Uninitialized(at) => format!("uninit@{at}"),
    }
}

/// A constant-pool operand with a resolved comment when possible.
fn cp_text(index: u16, cp: Option<&ConstantPool>) -> String {
    let Some(cp) = cp else { return format!("#{index}") };
    let comment = match cp.get(index) {
        Some(
            Constant::Fieldref { .. } | Constant::Methodref { .. } | Constant::InterfaceMethodref { .. },
        ) => cp.member_ref(index).map(|m| format!("{}.{}:{}", m.class, m.name, m.descriptor)),
        Some(Constant::Class { .. }) => cp.class_name(index).map(|s| s.into_owned()),
        Some(Constant::String { string_index }) => {
            cp.utf8(*string_index).map(|s| format!("{:?}", s.as_ref()))
        }
        Some(Constant::Integer(v)) => Some(format!("int {v}")),
        Some(Constant::Long(v)) => Some(format!("long {v}")),
        Some(Constant::Float(bits)) => Some(format!("float {:?}", f32::from_bits(*bits))),
        Some(Constant::Double(bits)) => Some(format!("double {:?}", f64::from_bits(*bits))),
        Some(Constant::MethodType { descriptor_index }) => {
            cp.utf8(*descriptor_index).map(|s| format!("methodtype {s}"))
        }
        Some(Constant::InvokeDynamic { bootstrap_method_attr_index, name_and_type_index })
        | Some(Constant::Dynamic { bootstrap_method_attr_index, name_and_type_index }) => cp
            .name_and_type(*name_and_type_index)
            .map(|(n, d)| format!("bsm {bootstrap_method_attr_index} {n}:{d}")),
        _ => None,
    };
    match comment {
        Some(c) => format!("#{index} // {c}"),
        None => format!("#{index}"),
    }
}

/// One instruction: mnemonic and operands, targets as instruction indices.
pub(crate) fn insn_text(insn: &Insn, cp: Option<&ConstantPool>) -> String {
    let name = insn.op().name();
    match insn {
        Insn::Simple(_) => name.to_owned(),
        Insn::Push { value, .. } => format!("{name} {value}"),
        Insn::Ldc { index, .. } => format!("{name} {}", cp_text(*index, cp)),
        Insn::Local { op, var, wide } => {
            if op.local_access().and_then(|(_, _, n)| n).is_some() {
                name.to_owned()
            } else if *wide {
                format!("wide {name} {var}")
            } else {
                format!("{name} {var}")
            }
        }
        Insn::Iinc { var, delta, wide } => format!("{}iinc {var} {delta}", if *wide { "wide " } else { "" }),
        Insn::Branch { target, .. } => format!("{name} {target}"),
        Insn::TableSwitch { default, low, targets } => {
            let cases: Vec<String> = targets
                .iter()
                .enumerate()
                .map(|(k, t)| format!("{}: {t}", i64::from(*low) + k as i64))
                .collect();
            format!("{name} {{ {}, default: {default} }}", cases.join(", "))
        }
        Insn::LookupSwitch { default, pairs } => {
            let cases: Vec<String> = pairs.iter().map(|(k, t)| format!("{k}: {t}")).collect();
            if cases.is_empty() {
                format!("{name} {{ default: {default} }}")
            } else {
                format!("{name} {{ {}, default: {default} }}", cases.join(", "))
            }
        }
        Insn::Field { index, .. }
        | Insn::Invoke { index, .. }
        | Insn::Type { index, .. }
        | Insn::InvokeDynamic { index } => {
            format!("{name} {}", cp_text(*index, cp))
        }
        Insn::InvokeInterface { index, count } => format!("{name} {} count {count}", cp_text(*index, cp)),
        Insn::NewArray { atype } => {
            // JVMS table 6.5.newarray-A.
            let t = match atype {
                4 => "boolean",
                5 => "char",
                6 => "float",
                7 => "double",
                8 => "byte",
                9 => "short",
                10 => "int",
                11 => "long",
                _ => "?",
            };
            format!("{name} {t}")
        }
        Insn::MultiANewArray { index, dims } => format!("{name} {} dims {dims}", cp_text(*index, cp)),
    }
}
