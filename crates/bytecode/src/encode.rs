//! `MethodBody` -> `Code` bytes: lays out the instructions (switch padding depends on the
//! position, JVMS §6.5.tableswitch), widens jumps whose offset no longer fits 16 bits until a
//! fixpoint is reached (`goto` -> `goto_w`, `jsr` -> `jsr_w`, `if<c> L` -> `if<!c> +8; goto_w L`),
//! and rewrites every offset-bearing part of the attribute from instruction indices.
//! An unchanged decoded body encodes to the original bytes.

use classfile::{Attribute, Code, ConstantPool, ExceptionEntry};

use crate::body::{CodeAttribute, Frame, FrameKind, LineEntry, LocalVar, MethodBody, VType};
use crate::error::EncodeError;
use crate::frames::{MethodContext, Pool, with_fallthrough_frames};
use crate::insn::{Insn, InsnIdx};
use crate::opcode::{Format, Opcode};

/// Something encoding did that the caller may want to report.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Note {
    /// A code type-annotation attribute (by its name index) was dropped because the code moved
    /// and its offsets cannot be remapped.
    DroppedTypeAnnotations { name_index: u16 },
    /// This many jumps were widened to 32-bit forms.
    WidenedJumps { count: usize },
}

/// The largest code array (JVMS §4.7.3: `code_length` must be less than 65536).
const MAX_CODE: usize = 65535;

/// Encodes a body into a `Code` attribute, with notes on what had to change. `cp` is the class's
/// constant pool. Without the method's context, a frame needed after a widened conditional jump
/// can only be computed from a preceding `full_frame`; use `encode_method` to start from the
/// method's entry frame and to let new `Class` entries be interned.
pub fn encode(body: &MethodBody, cp: &ConstantPool) -> Result<(Code, Vec<Note>), EncodeError> {
    encode_impl(body, Pool::Shared(cp), None)
}

/// Like `encode`, with what is needed to compute any stack-map frame that widening a conditional
/// jump requires: the method's context and a writable pool (frames may name classes that have no
/// `Class` entry yet).
pub fn encode_method(
    body: &MethodBody,
    cp: &mut ConstantPool,
    ctx: &MethodContext,
) -> Result<(Code, Vec<Note>), EncodeError> {
    encode_impl(body, Pool::Mut(cp), Some(ctx))
}

fn encode_impl(
    body: &MethodBody,
    pool: Pool<'_>,
    ctx: Option<&MethodContext>,
) -> Result<(Code, Vec<Note>), EncodeError> {
    let insns = &body.insns;
    let n = insns.len();
    check_targets(insns)?;
    let (offsets, widened) = layout(insns)?;
    let code_len = offsets[n] as usize;
    if code_len > MAX_CODE {
        return Err(EncodeError::TooLarge { len: code_len });
    }
    let mut notes = Vec::new();
    let n_widened = widened.iter().filter(|w| **w).count();
    // The inverted branch of a widened conditional targets the next instruction, which follows
    // the `goto_w`, so it needs a frame (JVMS §4.10.1.6) when the method has frames at all.
    let mut new_frames = None;
    if n_widened > 0 {
        notes.push(Note::WidenedJumps { count: n_widened });
        if let Some(frames) = body.frames() {
            let conds: Vec<InsnIdx> =
                (0..n).filter(|&i| widened[i] && insns[i].is_conditional()).map(InsnIdx::new).collect();
            if !conds.is_empty() {
                let needs = |at| EncodeError::NeedsFrames { at };
                if conds.last().is_some_and(|c| c.index() + 1 >= n) {
                    return Err(needs(conds[conds.len() - 1]));
                }
                let frames = with_fallthrough_frames(frames, insns, &conds, ctx, pool)
                    .ok_or_else(|| needs(conds[0]))?;
                new_frames = Some(frames);
            }
        }
    }

    let mut code = Vec::with_capacity(code_len);
    for (i, insn) in insns.iter().enumerate() {
        debug_assert_eq!(code.len(), offsets[i] as usize);
        emit(&mut code, insn, i, &offsets, widened[i])?;
    }
    let off = |i: InsnIdx| offsets[i.index()];

    let mut exception_table = Vec::with_capacity(body.handlers.len());
    for h in &body.handlers {
        check_index("exception handler", h.start, n, false)?;
        check_index("exception handler", h.end, n, true)?;
        check_index("exception handler", h.handler, n, false)?;
        exception_table.push(ExceptionEntry {
            start_pc: off(h.start) as u16,
            end_pc: off(h.end) as u16,
            handler_pc: off(h.handler) as u16,
            catch_type: h.catch_type,
        });
    }

    let mut attributes = Vec::with_capacity(body.attributes.len());
    for a in &body.attributes {
        let (name_index, info) = match a {
            CodeAttribute::LineNumberTable { name_index, entries } => {
                (*name_index, encode_lines(entries, n, &offsets)?)
            }
            CodeAttribute::LocalVariableTable { name_index, entries }
            | CodeAttribute::LocalVariableTypeTable { name_index, entries } => {
                (*name_index, encode_locals(entries, n, &offsets)?)
            }
            CodeAttribute::StackMapTable { name_index, frames } => {
                (*name_index, encode_frames(new_frames.as_deref().unwrap_or(frames), insns, &offsets)?)
            }
            CodeAttribute::TypeAnnotations { name_index, info } => {
                if body.original_code.as_deref() == Some(&code[..]) {
                    (*name_index, info.clone())
                } else {
                    notes.push(Note::DroppedTypeAnnotations { name_index: *name_index });
                    continue;
                }
            }
            CodeAttribute::Other { name_index, info } => (*name_index, info.clone()),
        };
        attributes.push(Attribute { name_index, info });
    }
    Ok((
        Code { max_stack: body.max_stack, max_locals: body.max_locals, code, exception_table, attributes },
        notes,
    ))
}

fn check_index(what: &'static str, t: InsnIdx, len: usize, end_ok: bool) -> Result<(), EncodeError> {
    if t.index() < len || (end_ok && t.index() == len) {
        Ok(())
    } else {
        Err(EncodeError::BadIndex { what, target: t, len })
    }
}

fn check_targets(insns: &[Insn]) -> Result<(), EncodeError> {
    for insn in insns {
        for t in insn.targets() {
            check_index("jump", t, insns.len(), false)?;
        }
    }
    Ok(())
}

/// `3 - offset % 4`: padding after a switch opcode at `offset` so that its operands start at a
/// multiple of 4 from the start of the code.
fn switch_pad(offset: u32) -> u32 {
    3 - offset % 4
}

/// The encoded size of `insn` at `offset`.
fn size(insn: &Insn, offset: u32, widened: bool) -> u32 {
    match insn {
        Insn::Simple(_) => 1,
        Insn::Push { op, .. } => {
            if *op == Opcode::BIPUSH {
                2
            } else {
                3
            }
        }
        Insn::Ldc { op, index } => {
            if *op == Opcode::LDC && *index <= 255 {
                2
            } else {
                3
            }
        }
        Insn::Local { op, var, wide } => {
            if op.format() == Format::LocalImplicit {
                1
            } else if *wide || *var > 255 {
                4
            } else {
                2
            }
        }
        Insn::Iinc { var, delta, wide } => {
            if *wide || *var > 255 || i8::try_from(*delta).is_err() {
                6
            } else {
                3
            }
        }
        Insn::Branch { op, .. } => {
            if op.format() == Format::BranchWide {
                5
            } else if !widened {
                3
            } else if op.is_conditional_branch() {
                8
            } else {
                5
            }
        }
        Insn::TableSwitch { targets, .. } => 1 + switch_pad(offset) + 12 + 4 * targets.len() as u32,
        Insn::LookupSwitch { pairs, .. } => 1 + switch_pad(offset) + 8 + 8 * pairs.len() as u32,
        Insn::Field { .. } | Insn::Invoke { .. } | Insn::Type { .. } => 3,
        Insn::InvokeInterface { .. } | Insn::InvokeDynamic { .. } => 5,
        Insn::NewArray { .. } => 2,
        Insn::MultiANewArray { .. } => 4,
    }
}

/// Computes byte offsets (with the end position last) and which 16-bit jumps must be widened.
/// Widening only grows the set, so the loop ends after at most one round per jump.
fn layout(insns: &[Insn]) -> Result<(Vec<u32>, Vec<bool>), EncodeError> {
    let mut widened = vec![false; insns.len()];
    let mut offsets = vec![0u32; insns.len() + 1];
    loop {
        let mut pos = 0u32;
        for (i, insn) in insns.iter().enumerate() {
            offsets[i] = pos;
            pos += size(insn, pos, widened[i]);
            // Stop early on absurd sizes: offsets must stay far from u32 overflow.
            if pos as usize > 4 * MAX_CODE {
                return Err(EncodeError::TooLarge { len: pos as usize });
            }
        }
        offsets[insns.len()] = pos;
        let mut changed = false;
        for (i, insn) in insns.iter().enumerate() {
            if let Insn::Branch { op, target } = insn
                && !widened[i]
                && op.format() == Format::Branch
            {
                let rel = i64::from(offsets[target.index()]) - i64::from(offsets[i]);
                if i16::try_from(rel).is_err() {
                    widened[i] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return Ok((offsets, widened));
        }
    }
}

fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_be_bytes());
}

fn put_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_be_bytes());
}

fn emit(out: &mut Vec<u8>, insn: &Insn, i: usize, offsets: &[u32], widened: bool) -> Result<(), EncodeError> {
    let at = offsets[i];
    let bad = |what: &str| EncodeError::BadInsn { at: InsnIdx::new(i), what: format!("{what}: {insn:?}") };
    let rel = |t: InsnIdx| (i64::from(offsets[t.index()]) - i64::from(at)) as i32;
    let op = insn.op();
    let fmt = op.format();
    match insn {
        Insn::Simple(_) if fmt == Format::None => out.push(op.0),
        Insn::Push { value, .. } if fmt == Format::Byte => {
            let v = i8::try_from(*value).map_err(|_| bad("bipush value out of range"))?;
            out.extend_from_slice(&[op.0, v as u8]);
        }
        Insn::Push { value, .. } if fmt == Format::Short => {
            out.push(op.0);
            put_u16(out, *value as u16);
        }
        Insn::Ldc { index, .. } if fmt == Format::Ldc && *index <= 255 => {
            out.extend_from_slice(&[op.0, *index as u8])
        }
        Insn::Ldc { index, .. } if fmt == Format::Ldc || fmt == Format::LdcWide => {
            out.push(if fmt == Format::Ldc { Opcode::LDC_W.0 } else { op.0 });
            put_u16(out, *index);
        }
        Insn::Local { var, wide, .. } if fmt == Format::LocalImplicit => {
            let implicit = op.local_access().and_then(|(_, _, n)| n);
            if *wide || implicit != Some(*var) {
                return Err(bad("implicit local form with another slot"));
            }
            out.push(op.0);
        }
        Insn::Local { var, wide, .. } if fmt == Format::Local => {
            if *wide || *var > 255 {
                out.extend_from_slice(&[Opcode::WIDE.0, op.0]);
                put_u16(out, *var);
            } else {
                out.extend_from_slice(&[op.0, *var as u8]);
            }
        }
        Insn::Iinc { var, delta, wide } => match (u8::try_from(*var), i8::try_from(*delta)) {
            (Ok(v), Ok(d)) if !*wide => out.extend_from_slice(&[op.0, v, d as u8]),
            _ => {
                out.extend_from_slice(&[Opcode::WIDE.0, op.0]);
                put_u16(out, *var);
                put_u16(out, *delta as u16);
            }
        },
        Insn::Branch { target, .. } if fmt == Format::BranchWide => {
            out.push(op.0);
            put_i32(out, rel(*target));
        }
        Insn::Branch { target, .. } if fmt == Format::Branch => {
            if !widened {
                out.push(op.0);
                put_u16(out, rel(*target) as i16 as u16);
            } else if let Some(inv) = op.inverted() {
                // if<!cond> over the goto_w (3 + 5 bytes), then goto_w from its own position.
                out.push(inv.0);
                put_u16(out, 8);
                out.push(Opcode::GOTO_W.0);
                put_i32(out, rel(*target) - 3);
            } else {
                out.push(if op.is_jsr() { Opcode::JSR_W.0 } else { Opcode::GOTO_W.0 });
                put_i32(out, rel(*target));
            }
        }
        Insn::TableSwitch { default, low, targets } => {
            let high = i64::from(*low) + targets.len() as i64 - 1;
            let high = i32::try_from(high).map_err(|_| bad("tableswitch high out of range"))?;
            if targets.is_empty() {
                return Err(bad("tableswitch without targets"));
            }
            out.push(op.0);
            out.resize(out.len() + switch_pad(at) as usize, 0);
            put_i32(out, rel(*default));
            put_i32(out, *low);
            put_i32(out, high);
            for t in targets {
                put_i32(out, rel(*t));
            }
        }
        Insn::LookupSwitch { default, pairs } => {
            out.push(op.0);
            out.resize(out.len() + switch_pad(at) as usize, 0);
            put_i32(out, rel(*default));
            put_i32(out, pairs.len() as i32);
            for (k, t) in pairs {
                put_i32(out, *k);
                put_i32(out, rel(*t));
            }
        }
        Insn::Field { index, .. } if fmt == Format::Field => {
            out.push(op.0);
            put_u16(out, *index);
        }
        Insn::Invoke { index, .. } if fmt == Format::Invoke => {
            out.push(op.0);
            put_u16(out, *index);
        }
        Insn::Type { index, .. } if fmt == Format::Type => {
            out.push(op.0);
            put_u16(out, *index);
        }
        Insn::InvokeInterface { index, count } => {
            out.push(op.0);
            put_u16(out, *index);
            out.extend_from_slice(&[*count, 0]);
        }
        Insn::InvokeDynamic { index } => {
            out.push(op.0);
            put_u16(out, *index);
            out.extend_from_slice(&[0, 0]);
        }
        Insn::NewArray { atype } => out.extend_from_slice(&[op.0, *atype]),
        Insn::MultiANewArray { index, dims } => {
            out.push(op.0);
            put_u16(out, *index);
            out.push(*dims);
        }
        _ => return Err(bad("opcode does not fit the instruction's operands")),
    }
    Ok(())
}

fn count16(n: usize, what: &'static str, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let n = u16::try_from(n).map_err(|_| EncodeError::TooManyEntries { what })?;
    put_u16(out, n);
    Ok(())
}

fn encode_lines(entries: &[LineEntry], n: usize, offsets: &[u32]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(2 + 4 * entries.len());
    count16(entries.len(), "LineNumberTable", &mut out)?;
    for e in entries {
        check_index("line entry", e.start, n, false)?;
        put_u16(&mut out, offsets[e.start.index()] as u16);
        put_u16(&mut out, e.line);
    }
    Ok(out)
}

fn encode_locals(entries: &[LocalVar], n: usize, offsets: &[u32]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(2 + 10 * entries.len());
    count16(entries.len(), "LocalVariableTable", &mut out)?;
    for e in entries {
        check_index("local variable", e.start, n, false)?;
        check_index("local variable", e.end, n, true)?;
        if e.end < e.start {
            return Err(EncodeError::BadIndex {
                what: "local variable end before start",
                target: e.end,
                len: n,
            });
        }
        let start = offsets[e.start.index()];
        put_u16(&mut out, start as u16);
        put_u16(&mut out, (offsets[e.end.index()] - start) as u16);
        put_u16(&mut out, e.name_index);
        put_u16(&mut out, e.descriptor_index);
        put_u16(&mut out, e.slot);
    }
    Ok(out)
}

fn encode_frames(frames: &[Frame], insns: &[Insn], offsets: &[u32]) -> Result<Vec<u8>, EncodeError> {
    let n = insns.len();
    let mut out = Vec::with_capacity(2 + 4 * frames.len());
    count16(frames.len(), "StackMapTable", &mut out)?;
    // offset_delta is the offset for the first frame and offset - previous - 1 afterwards
    // (JVMS §4.7.4); starting `prev` at -1 makes both the same formula.
    let mut prev: i64 = -1;
    for f in frames {
        check_index("stack-map frame", f.at, n, false)?;
        let off = i64::from(offsets[f.at.index()]);
        if off <= prev {
            return Err(EncodeError::FramesOutOfOrder { at: f.at });
        }
        let delta = (off - prev - 1) as u16;
        prev = off;
        match &f.kind {
            FrameKind::Same { extended } => {
                if !*extended && delta <= 63 {
                    out.push(delta as u8);
                } else {
                    out.push(251);
                    put_u16(&mut out, delta);
                }
            }
            FrameKind::SameLocals1StackItem { stack, extended } => {
                if !*extended && delta <= 63 {
                    out.push(64 + delta as u8);
                } else {
                    out.push(247);
                    put_u16(&mut out, delta);
                }
                vtype(&mut out, stack, insns, offsets)?;
            }
            FrameKind::Chop { k } => {
                if !(1..=3).contains(k) {
                    return Err(EncodeError::BadIndex { what: "chop frame size", target: f.at, len: n });
                }
                out.push(251 - k);
                put_u16(&mut out, delta);
            }
            FrameKind::Append { locals } => {
                if !(1..=3).contains(&locals.len()) {
                    return Err(EncodeError::BadIndex { what: "append frame size", target: f.at, len: n });
                }
                out.push(251 + locals.len() as u8);
                put_u16(&mut out, delta);
                for v in locals {
                    vtype(&mut out, v, insns, offsets)?;
                }
            }
            FrameKind::Full { locals, stack } => {
                out.push(255);
                put_u16(&mut out, delta);
                count16(locals.len(), "full frame locals", &mut out)?;
                for v in locals {
                    vtype(&mut out, v, insns, offsets)?;
                }
                count16(stack.len(), "full frame stack", &mut out)?;
                for v in stack {
                    vtype(&mut out, v, insns, offsets)?;
                }
            }
        }
    }
    Ok(out)
}

fn vtype(out: &mut Vec<u8>, v: &VType, insns: &[Insn], offsets: &[u32]) -> Result<(), EncodeError> {
    match v {
        VType::Top => out.push(0),
        VType::Integer => out.push(1),
        VType::Float => out.push(2),
        VType::Double => out.push(3),
        VType::Long => out.push(4),
        VType::Null => out.push(5),
        VType::UninitializedThis => out.push(6),
        VType::Object(i) => {
            out.push(7);
            put_u16(out, *i);
        }
        VType::Uninitialized(at) => {
            // The new byte offset of the same `new` instruction (JVMS §4.10.1.2).
            check_index("Uninitialized", *at, insns.len(), false)?;
            if insns[at.index()].op() != Opcode::NEW {
                return Err(EncodeError::BadIndex {
                    what: "Uninitialized (not a `new`)",
                    target: *at,
                    len: insns.len(),
                });
            }
            out.push(8);
            put_u16(out, offsets[at.index()] as u16);
        }
    }
    Ok(())
}
