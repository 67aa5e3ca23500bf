//! `Code` bytes -> `MethodBody` (JVMS §4.7.3, §6.5): instructions with byte offsets turned into
//! instruction indices, the exception table, and the code sub-attributes that hold offsets
//! (`LineNumberTable` §4.7.12, `LocalVariableTable` §4.7.13, `LocalVariableTypeTable` §4.7.14,
//! `StackMapTable` §4.7.4). Other sub-attributes stay raw.

use classfile::{Code, ConstantPool};

use crate::body::{CodeAttribute, Frame, FrameKind, Handler, LineEntry, LocalVar, MethodBody, VType};
use crate::error::DecodeError;
use crate::insn::{Insn, InsnIdx};
use crate::opcode::{Format, Opcode};

/// A bounds-checked big-endian reader over one byte slice.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], DecodeError> {
        if self.bytes.len() - self.pos < n {
            return Err(DecodeError::Truncated { what, offset: self.pos });
        }
        let res = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(res)
    }
    fn u8(&mut self, what: &'static str) -> Result<u8, DecodeError> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &'static str) -> Result<u16, DecodeError> {
        let b = self.take(2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    fn i32(&mut self, what: &'static str) -> Result<i32, DecodeError> {
        let b = self.take(4, what)?;
        Ok(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }
}

/// Marks byte offsets that do not start an instruction in `Offsets::index_of`.
const NOT_INSN: u32 = u32::MAX;

/// Byte offset <-> instruction index for the decoded code.
struct Offsets {
    /// `index_of[byte]`, for every byte of the code and the end position `code.len()`.
    index_of: Vec<u32>,
}

impl Offsets {
    /// The instruction starting at `offset` (`end_ok`: the end position is accepted too).
    fn get(&self, offset: i64, end_ok: bool) -> Option<InsnIdx> {
        let last = self.index_of.len() as i64 - 1;
        if offset < 0 || offset > last || (offset == last && !end_ok) {
            return None;
        }
        let i = self.index_of[offset as usize];
        (i != NOT_INSN).then_some(InsnIdx(i))
    }
}

/// Decodes a `Code` attribute. `cp` names the sub-attributes.
pub fn decode(code: &Code, cp: &ConstantPool) -> Result<MethodBody, DecodeError> {
    let (mut insns, starts) = decode_insns(&code.code)?;
    let mut index_of = vec![NOT_INSN; code.code.len() + 1];
    for (i, &s) in starts.iter().enumerate() {
        index_of[s as usize] = i as u32;
    }
    index_of[code.code.len()] = insns.len() as u32;
    let offsets = Offsets { index_of };

    // Branch targets were decoded as absolute byte offsets stored in `InsnIdx`; map them.
    let mut bad = None;
    for (i, insn) in insns.iter_mut().enumerate() {
        insn.map_targets(|t| match offsets.get(i64::from(t.0), false) {
            Some(idx) => idx,
            None => {
                bad.get_or_insert(DecodeError::BadTarget {
                    what: "jump",
                    offset: starts[i] as usize,
                    target: i64::from(t.0),
                });
                InsnIdx(0)
            }
        });
    }
    if let Some(e) = bad {
        return Err(e);
    }

    let at = |what: &'static str, pc: u16, end_ok: bool| {
        offsets.get(i64::from(pc), end_ok).ok_or(DecodeError::BadTarget {
            what,
            offset: usize::from(pc),
            target: i64::from(pc),
        })
    };
    let mut handlers = Vec::with_capacity(code.exception_table.len());
    for e in &code.exception_table {
        handlers.push(Handler {
            start: at("exception start_pc", e.start_pc, false)?,
            end: at("exception end_pc", e.end_pc, true)?,
            handler: at("exception handler_pc", e.handler_pc, false)?,
            catch_type: e.catch_type,
        });
    }

    let mut attributes = Vec::with_capacity(code.attributes.len());
    let mut has_type_annotations = false;
    for a in &code.attributes {
        let name = cp.utf8_bytes(a.name_index).unwrap_or(&[]);
        let attr = match name {
            b"LineNumberTable" => CodeAttribute::LineNumberTable {
                name_index: a.name_index,
                entries: decode_lines(&a.info, &offsets)?,
            },
            b"LocalVariableTable" => CodeAttribute::LocalVariableTable {
                name_index: a.name_index,
                entries: decode_locals(&a.info, &offsets, "LocalVariableTable")?,
            },
            b"LocalVariableTypeTable" => CodeAttribute::LocalVariableTypeTable {
                name_index: a.name_index,
                entries: decode_locals(&a.info, &offsets, "LocalVariableTypeTable")?,
            },
            b"StackMapTable" => CodeAttribute::StackMapTable {
                name_index: a.name_index,
                frames: decode_frames(&a.info, &offsets, &insns)?,
            },
            b"RuntimeVisibleTypeAnnotations" | b"RuntimeInvisibleTypeAnnotations" => {
                has_type_annotations = true;
                CodeAttribute::TypeAnnotations { name_index: a.name_index, info: a.info.clone() }
            }
            _ => CodeAttribute::Other { name_index: a.name_index, info: a.info.clone() },
        };
        attributes.push(attr);
    }
    insns.shrink_to_fit();
    Ok(MethodBody {
        max_stack: code.max_stack,
        max_locals: code.max_locals,
        insns,
        handlers,
        attributes,
        original_code: has_type_annotations.then(|| code.code.clone()),
    })
}

/// Decodes the instruction stream; targets are left as absolute byte offsets. Returns the
/// instructions and the byte offset where each starts.
fn decode_insns(code: &[u8]) -> Result<(Vec<Insn>, Vec<u32>), DecodeError> {
    let mut c = Cursor { bytes: code, pos: 0 };
    // Most instructions are 1-3 bytes; this avoids most reallocations.
    let mut insns = Vec::with_capacity(code.len() / 2 + 1);
    let mut starts = Vec::with_capacity(code.len() / 2 + 1);
    while c.remaining() > 0 {
        let start = c.pos;
        starts.push(start as u32);
        let op = Opcode(c.u8("opcode")?);
        let abs = |rel: i64| -> Result<InsnIdx, DecodeError> {
            let t = start as i64 + rel;
            if t < 0 || t >= code.len() as i64 {
                return Err(DecodeError::BadTarget { what: "jump", offset: start, target: t });
            }
            Ok(InsnIdx(t as u32))
        };
        let insn = match op.format() {
            Format::None => Insn::Simple(op),
            Format::Byte => Insn::Push { op, value: i16::from(c.u8("bipush")? as i8) },
            Format::Short => Insn::Push { op, value: c.u16("sipush")? as i16 },
            Format::Ldc => Insn::Ldc { op, index: u16::from(c.u8("ldc")?) },
            Format::LdcWide => Insn::Ldc { op, index: c.u16("ldc_w")? },
            Format::LocalImplicit => {
                let var = op.local_access().and_then(|(_, _, n)| n).unwrap_or(0);
                Insn::Local { op, var, wide: false }
            }
            Format::Local => Insn::Local { op, var: u16::from(c.u8("local index")?), wide: false },
            Format::Iinc => {
                let var = u16::from(c.u8("iinc")?);
                Insn::Iinc { var, delta: i16::from(c.u8("iinc")? as i8), wide: false }
            }
            Format::Branch => Insn::Branch { op, target: abs(i64::from(c.u16("branch")? as i16))? },
            Format::BranchWide => Insn::Branch { op, target: abs(i64::from(c.i32("branch")?))? },
            Format::TableSwitch => {
                // Padding to the next multiple of 4 from the start of the code (JVMS §6.5).
                c.take((4 - (start + 1) % 4) % 4, "tableswitch padding")?;
                let default = abs(i64::from(c.i32("tableswitch")?))?;
                let low = c.i32("tableswitch")?;
                let high = c.i32("tableswitch")?;
                let n = i64::from(high) - i64::from(low) + 1;
                if n < 1 || n * 4 > c.remaining() as i64 {
                    return Err(DecodeError::BadOperand { what: "tableswitch bounds", offset: start });
                }
                let mut targets = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    targets.push(abs(i64::from(c.i32("tableswitch")?))?);
                }
                Insn::TableSwitch { default, low, targets }
            }
            Format::LookupSwitch => {
                c.take((4 - (start + 1) % 4) % 4, "lookupswitch padding")?;
                let default = abs(i64::from(c.i32("lookupswitch")?))?;
                let n = c.i32("lookupswitch")?;
                if n < 0 || i64::from(n) * 8 > c.remaining() as i64 {
                    return Err(DecodeError::BadOperand { what: "lookupswitch npairs", offset: start });
                }
                let mut pairs = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    let key = c.i32("lookupswitch")?;
                    pairs.push((key, abs(i64::from(c.i32("lookupswitch")?))?));
                }
                Insn::LookupSwitch { default, pairs }
            }
            Format::Field => Insn::Field { op, index: c.u16("field ref")? },
            Format::Invoke => Insn::Invoke { op, index: c.u16("method ref")? },
            Format::InvokeInterface => {
                let index = c.u16("invokeinterface")?;
                let count = c.u8("invokeinterface")?;
                if c.u8("invokeinterface")? != 0 {
                    return Err(DecodeError::BadOperand { what: "invokeinterface zero byte", offset: start });
                }
                Insn::InvokeInterface { index, count }
            }
            Format::InvokeDynamic => {
                let index = c.u16("invokedynamic")?;
                if c.u16("invokedynamic")? != 0 {
                    return Err(DecodeError::BadOperand { what: "invokedynamic zero bytes", offset: start });
                }
                Insn::InvokeDynamic { index }
            }
            Format::Type => Insn::Type { op, index: c.u16("class ref")? },
            Format::NewArray => Insn::NewArray { atype: c.u8("newarray")? },
            Format::MultiANewArray => {
                let index = c.u16("multianewarray")?;
                Insn::MultiANewArray { index, dims: c.u8("multianewarray")? }
            }
            Format::Wide => {
                // JVMS §6.5.wide: the modified opcode is a load, store, ret, or iinc.
                let inner = Opcode(c.u8("wide opcode")?);
                match inner.format() {
                    Format::Local => Insn::Local { op: inner, var: c.u16("wide index")?, wide: true },
                    Format::Iinc => {
                        let var = c.u16("wide iinc")?;
                        Insn::Iinc { var, delta: c.u16("wide iinc")? as i16, wide: true }
                    }
                    _ => return Err(DecodeError::BadOpcode { opcode: inner.0, offset: start + 1 }),
                }
            }
            Format::Invalid => return Err(DecodeError::BadOpcode { opcode: op.0, offset: start }),
        };
        insns.push(insn);
    }
    Ok((insns, starts))
}

fn bad(attribute: &'static str, reason: impl Into<String>) -> DecodeError {
    DecodeError::BadAttribute { attribute, reason: reason.into() }
}

fn trunc(attribute: &'static str) -> impl Fn(DecodeError) -> DecodeError {
    move |e| bad(attribute, e.to_string())
}

fn decode_lines(info: &[u8], offsets: &Offsets) -> Result<Vec<LineEntry>, DecodeError> {
    const A: &str = "LineNumberTable";
    let mut c = Cursor { bytes: info, pos: 0 };
    let n = c.u16("count").map_err(trunc(A))?;
    let mut res = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        let pc = c.u16("start_pc").map_err(trunc(A))?;
        let line = c.u16("line_number").map_err(trunc(A))?;
        let start = offsets
            .get(i64::from(pc), false)
            .ok_or_else(|| bad(A, format!("start_pc {pc} is not an instruction")))?;
        res.push(LineEntry { start, line });
    }
    if c.remaining() != 0 {
        return Err(bad(A, "trailing bytes"));
    }
    Ok(res)
}

fn decode_locals(info: &[u8], offsets: &Offsets, a: &'static str) -> Result<Vec<LocalVar>, DecodeError> {
    let mut c = Cursor { bytes: info, pos: 0 };
    let n = c.u16("count").map_err(trunc(a))?;
    let mut res = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        let pc = c.u16("start_pc").map_err(trunc(a))?;
        let len = c.u16("length").map_err(trunc(a))?;
        let name_index = c.u16("name_index").map_err(trunc(a))?;
        let descriptor_index = c.u16("descriptor_index").map_err(trunc(a))?;
        let slot = c.u16("index").map_err(trunc(a))?;
        let start = offsets
            .get(i64::from(pc), false)
            .ok_or_else(|| bad(a, format!("start_pc {pc} is not an instruction")))?;
        let end_pc = i64::from(pc) + i64::from(len);
        let end =
            offsets.get(end_pc, true).ok_or_else(|| bad(a, format!("end {end_pc} is not an instruction")))?;
        res.push(LocalVar { start, end, name_index, descriptor_index, slot });
    }
    if c.remaining() != 0 {
        return Err(bad(a, "trailing bytes"));
    }
    Ok(res)
}

fn decode_frames(info: &[u8], offsets: &Offsets, insns: &[Insn]) -> Result<Vec<Frame>, DecodeError> {
    const A: &str = "StackMapTable";
    let mut c = Cursor { bytes: info, pos: 0 };
    let n = c.u16("count").map_err(trunc(A))?;
    let mut res = Vec::with_capacity(usize::from(n));
    // The first frame's offset is its delta; later ones are previous + delta + 1 (JVMS §4.7.4).
    let mut prev: i64 = -1;
    for _ in 0..n {
        let tag = c.u8("frame_type").map_err(trunc(A))?;
        let (delta, kind) = match tag {
            0..=63 => (u16::from(tag), FrameKind::Same { extended: false }),
            64..=127 => {
                let stack = vtype(&mut c, offsets, insns)?;
                (u16::from(tag - 64), FrameKind::SameLocals1StackItem { stack, extended: false })
            }
            247 => {
                let d = c.u16("offset_delta").map_err(trunc(A))?;
                (d, FrameKind::SameLocals1StackItem { stack: vtype(&mut c, offsets, insns)?, extended: true })
            }
            248..=250 => (c.u16("offset_delta").map_err(trunc(A))?, FrameKind::Chop { k: 251 - tag }),
            251 => (c.u16("offset_delta").map_err(trunc(A))?, FrameKind::Same { extended: true }),
            252..=254 => {
                let d = c.u16("offset_delta").map_err(trunc(A))?;
                let locals =
                    (0..tag - 251).map(|_| vtype(&mut c, offsets, insns)).collect::<Result<_, _>>()?;
                (d, FrameKind::Append { locals })
            }
            255 => {
                let d = c.u16("offset_delta").map_err(trunc(A))?;
                let nl = c.u16("number_of_locals").map_err(trunc(A))?;
                let locals = (0..nl).map(|_| vtype(&mut c, offsets, insns)).collect::<Result<_, _>>()?;
                let ns = c.u16("number_of_stack_items").map_err(trunc(A))?;
                let stack = (0..ns).map(|_| vtype(&mut c, offsets, insns)).collect::<Result<_, _>>()?;
                (d, FrameKind::Full { locals, stack })
            }
            _ => return Err(bad(A, format!("reserved frame type {tag}"))),
        };
        let off = prev + 1 + i64::from(delta);
        let at = offsets
            .get(off, false)
            .ok_or_else(|| bad(A, format!("frame offset {off} is not an instruction")))?;
        prev = off;
        res.push(Frame { at, kind });
    }
    if c.remaining() != 0 {
        return Err(bad(A, "trailing bytes"));
    }
    Ok(res)
}

fn vtype(c: &mut Cursor<'_>, offsets: &Offsets, insns: &[Insn]) -> Result<VType, DecodeError> {
    const A: &str = "StackMapTable";
    Ok(match c.u8("verification_type_info").map_err(trunc(A))? {
        0 => VType::Top,
        1 => VType::Integer,
        2 => VType::Float,
        3 => VType::Double,
        4 => VType::Long,
        5 => VType::Null,
        6 => VType::UninitializedThis,
        7 => VType::Object(c.u16("cpool_index").map_err(trunc(A))?),
        8 => {
            let off = c.u16("offset").map_err(trunc(A))?;
            // JVMS §4.10.1.2: the offset of the `new` that created the object.
            let at = offsets
                .get(i64::from(off), false)
                .filter(|at| insns[at.index()].op() == Opcode::NEW)
                .ok_or_else(|| bad(A, format!("Uninitialized({off}) is not a `new` instruction")))?;
            VType::Uninitialized(at)
        }
        t => return Err(bad(A, format!("unknown verification type tag {t}"))),
    })
}
