//! Stack-map frames for the fall-through of widened conditional jumps. Widening `if<c> L` into
//! `if<!c> +8; goto_w L` makes the next instruction a branch target right after an unconditional
//! jump, so it needs a frame (JVMS §4.10.1.6). That frame is the type state in effect there, found
//! by expanding the existing frames (§4.7.4) and interpreting the straight-line instructions from
//! the last frame before the jump (§4.10.1.9): in verified code every merge point has a frame, so
//! no merging and no class hierarchy is needed. The frame after an inserted one is rewritten as
//! a `full_frame`, because delta frames (`chop`, `append`, `same`) are relative to their
//! predecessor.
//!
//! It does not handle `jsr`/`ret` (class files before version 50 have no frames anyway).

use classfile::descriptor::{FieldType, MethodDescriptor};
use classfile::{ClassFile, Constant, ConstantPool, Member, access};

use crate::body::{CodeAttribute, Frame, FrameKind, MethodBody, VType};
use crate::error::EncodeError;
use crate::insn::{Insn, InsnIdx};
use crate::opcode::{Opcode, ValueKind};

/// What the encoder must know about a method to compute its entry frame (JVMS §4.10.1.6).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MethodContext {
    /// Constant-pool index of the `Class` entry of the declaring class (`this_class`).
    pub this_class: u16,
    /// The method descriptor, e.g. `(ILjava/lang/String;)V`.
    pub descriptor: String,
    pub is_static: bool,
    /// True for instance initialisers (`<init>`): `this` starts as `uninitializedThis`.
    pub is_init: bool,
}

impl MethodContext {
    /// The context of `method` declared in `class`; `None` if its name or descriptor is not a
    /// valid `Utf8` entry.
    pub fn new(class: &ClassFile, method: &Member) -> Option<MethodContext> {
        let cp = &class.constant_pool;
        let name = method.name(cp)?;
        Some(MethodContext {
            this_class: class.this_class,
            descriptor: method.descriptor(cp)?.into_owned(),
            is_static: method.access_flags & access::STATIC != 0,
            // java/lang/Object's constructor starts initialised, but it has no frames to widen.
            is_init: name == "<init>",
        })
    }
}

/// The constant pool, writable when the caller allows new `Class` entries.
pub(crate) enum Pool<'a> {
    Shared(&'a ConstantPool),
    Mut(&'a mut ConstantPool),
}

impl Pool<'_> {
    fn cp(&self) -> &ConstantPool {
        match self {
            Pool::Shared(cp) => cp,
            Pool::Mut(cp) => cp,
        }
    }

    /// The index of a `Class` entry for `name`, interned if the pool is writable.
    fn class(&mut self, name: &str) -> Option<u16> {
        match self {
            Pool::Mut(cp) => cp.intern_class(name).ok(),
            Pool::Shared(cp) => cp.iter().find_map(|(i, c)| match c {
                Constant::Class { .. } if cp.class_name(i).as_deref() == Some(name) => Some(i),
                _ => None,
            }),
        }
    }

    fn field_vtype(&mut self, t: &FieldType) -> Option<VType> {
        Some(match t {
            FieldType::Base('Z' | 'B' | 'C' | 'S' | 'I') => VType::Integer,
            FieldType::Base('F') => VType::Float,
            FieldType::Base('J') => VType::Long,
            FieldType::Base('D') => VType::Double,
            FieldType::Base(_) => return None,
            FieldType::Object(name) => VType::Object(self.class(name)?),
            FieldType::Array(_) => VType::Object(self.class(&t.to_string())?),
        })
    }

    fn descriptor_vtype(&mut self, d: &str) -> Option<VType> {
        let t = FieldType::parse(d).ok()?;
        self.field_vtype(&t)
    }
}

/// A type state in slot form: `Long`/`Double` are followed by a `Top` slot, in locals and stack.
#[derive(Clone, Debug)]
struct State {
    locals: Vec<VType>,
    stack: Vec<VType>,
}

fn is_wide(v: &VType) -> bool {
    matches!(v, VType::Long | VType::Double)
}

/// Frame lists (one entry per `Long`/`Double`) to slot form.
fn to_slots(list: &[VType]) -> Vec<VType> {
    let mut res = Vec::with_capacity(list.len() + 2);
    for v in list {
        res.push(*v);
        if is_wide(v) {
            res.push(VType::Top);
        }
    }
    res
}

/// Slot form back to a frame list.
fn compress(slots: &[VType]) -> Vec<VType> {
    let mut res = Vec::with_capacity(slots.len());
    let mut i = 0;
    while i < slots.len() {
        res.push(slots[i]);
        i += if is_wide(&slots[i]) { 2 } else { 1 };
    }
    res
}

/// The frame at method entry (JVMS §4.10.1.6), as a frame list.
fn entry_locals(ctx: &MethodContext, pool: &mut Pool<'_>) -> Option<Vec<VType>> {
    let desc = MethodDescriptor::parse(&ctx.descriptor).ok()?;
    let mut locals = Vec::new();
    if !ctx.is_static {
        locals.push(if ctx.is_init { VType::UninitializedThis } else { VType::Object(ctx.this_class) });
    }
    for p in &desc.params {
        locals.push(pool.field_vtype(p)?);
    }
    Some(locals)
}

/// Every frame's full state as (locals, stack) frame lists; `None` where it depends on an
/// unknown entry frame.
fn expand(frames: &[Frame], entry: Option<Vec<VType>>) -> Vec<Option<(Vec<VType>, Vec<VType>)>> {
    let mut prev = entry;
    let mut res = Vec::with_capacity(frames.len());
    for f in frames {
        let state = match &f.kind {
            FrameKind::Full { locals, stack } => Some((locals.clone(), stack.clone())),
            FrameKind::Same { .. } => prev.clone().map(|l| (l, Vec::new())),
            FrameKind::SameLocals1StackItem { stack, .. } => prev.clone().map(|l| (l, vec![*stack])),
            FrameKind::Chop { k } => prev.clone().and_then(|mut l| {
                let keep = l.len().checked_sub(usize::from(*k))?;
                l.truncate(keep);
                Some((l, Vec::new()))
            }),
            FrameKind::Append { locals } => prev.clone().map(|mut l| {
                l.extend_from_slice(locals);
                (l, Vec::new())
            }),
        };
        prev = state.as_ref().map(|(l, _)| l.clone());
        res.push(state);
    }
    res
}

/// Frames for the instruction after each conditional in `widened` that has none, merged into
/// `frames`; `None` if some state cannot be computed.
pub(crate) fn with_fallthrough_frames(
    frames: &[Frame],
    insns: &[Insn],
    widened: &[InsnIdx],
    ctx: Option<&MethodContext>,
    mut pool: Pool<'_>,
) -> Option<Vec<Frame>> {
    let entry = match ctx {
        Some(ctx) => Some(entry_locals(ctx, &mut pool)?),
        None => None,
    };
    let states = expand(frames, entry.clone());
    let mut added: Vec<Frame> = Vec::new();
    for &i in widened {
        let next = InsnIdx(i.0 + 1);
        if frames.iter().any(|f| f.at == next) || added.iter().any(|f| f.at == next) {
            continue;
        }
        // Start from the last frame at or before `i`, or from the method entry.
        let base = frames.iter().rposition(|f| f.at <= i);
        let (start, locals, stack) = match base {
            Some(k) => {
                let (l, s) = states[k].clone()?;
                (frames[k].at, l, s)
            }
            None => (InsnIdx(0), entry.clone()?, Vec::new()),
        };
        let mut st = State { locals: to_slots(&locals), stack: to_slots(&stack) };
        for at in start.0..=i.0 {
            let insn = &insns[at as usize];
            if at < i.0 && !insn.falls_through() || insn.op().is_jsr() {
                return None;
            }
            step(&mut st, insn, InsnIdx(at), insns, ctx, &mut pool)?;
        }
        added.push(Frame {
            at: next,
            kind: FrameKind::Full { locals: compress(&st.locals), stack: compress(&st.stack) },
        });
    }
    if added.is_empty() {
        return Some(frames.to_vec());
    }
    // Merge, turning the original frame after each added one into a full frame.
    let mut res: Vec<Frame> = Vec::with_capacity(frames.len() + added.len());
    let mut after_added = false;
    let mut new = added.into_iter().peekable();
    for (k, f) in frames.iter().enumerate() {
        while let Some(a) = new.next_if(|a| a.at < f.at) {
            res.push(a);
            after_added = true;
        }
        if after_added {
            let (locals, stack) = states[k].clone()?;
            res.push(Frame { at: f.at, kind: FrameKind::Full { locals, stack } });
        } else {
            res.push(f.clone());
        }
        after_added = false;
    }
    res.extend(new);
    res.sort_by_key(|f| f.at);
    Some(res)
}

fn pop(st: &mut State, n: usize) -> Option<Vec<VType>> {
    let keep = st.stack.len().checked_sub(n)?;
    Some(st.stack.split_off(keep))
}

fn push(st: &mut State, v: VType) {
    st.stack.push(v);
    if is_wide(&v) {
        st.stack.push(VType::Top);
    }
}

fn kind_vtype(kind: ValueKind) -> Option<VType> {
    Some(match kind {
        ValueKind::Int => VType::Integer,
        ValueKind::Long => VType::Long,
        ValueKind::Float => VType::Float,
        ValueKind::Double => VType::Double,
        ValueKind::Reference => return None,
    })
}

/// The type state after `insn` (JVMS §4.10.1.9), for straight-line instructions.
fn step(
    st: &mut State,
    insn: &Insn,
    at: InsnIdx,
    insns: &[Insn],
    ctx: Option<&MethodContext>,
    pool: &mut Pool<'_>,
) -> Option<()> {
    use VType::*;
    let op = insn.op();
    let b = op.0;
    match insn {
        Insn::Local { .. } if op == Opcode::RET => return None,
        Insn::Local { var, .. } => {
            let (kind, is_store, _) = op.local_access()?;
            let var = usize::from(*var);
            if is_store {
                let width = usize::from(kind.slots());
                let v = pop(st, width)?[0];
                if st.locals.len() < var + width {
                    st.locals.resize(var + width, Top);
                }
                // Overwriting the second half of a long/double invalidates it.
                if var > 0 && is_wide(&st.locals[var - 1]) {
                    st.locals[var - 1] = Top;
                }
                st.locals[var] = v;
                if width == 2 {
                    st.locals[var + 1] = Top;
                }
            } else {
                let v = match kind_vtype(kind) {
                    Some(v) => v,
                    None => *st.locals.get(var)?,
                };
                push(st, v);
            }
        }
        Insn::Iinc { .. } => {}
        Insn::Simple(_) => simple(st, b, pool)?,
        Insn::Push { .. } => push(st, Integer),
        Insn::Ldc { index, .. } => {
            let c = pool.cp().get(*index)?.clone();
            let v = match c {
                Constant::Integer(_) => Integer,
                Constant::Float(_) => Float,
                Constant::Long(_) => Long,
                Constant::Double(_) => Double,
                Constant::String { .. } => Object(pool.class("java/lang/String")?),
                Constant::Class { .. } => Object(pool.class("java/lang/Class")?),
                Constant::MethodType { .. } => Object(pool.class("java/lang/invoke/MethodType")?),
                Constant::MethodHandle { .. } => Object(pool.class("java/lang/invoke/MethodHandle")?),
                Constant::Dynamic { name_and_type_index, .. } => {
                    let d = pool.cp().name_and_type(name_and_type_index)?.1.into_owned();
                    pool.descriptor_vtype(&d)?
                }
                _ => return None,
            };
            push(st, v);
        }
        Insn::Branch { .. } => {
            // Only conditionals fall through; they pop one or two values.
            let n = if (0x9f..=0xa6).contains(&b) { 2 } else { 1 };
            if !op.is_conditional_branch() {
                return None;
            }
            pop(st, n)?;
        }
        Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => return None,
        Insn::Field { index, .. } => {
            let t = FieldType::parse(&pool.cp().member_ref(*index)?.descriptor).ok()?;
            match op {
                Opcode::GETSTATIC => {
                    let v = pool.field_vtype(&t)?;
                    push(st, v);
                }
                Opcode::PUTSTATIC => {
                    pop(st, usize::from(t.slots()))?;
                }
                Opcode::GETFIELD => {
                    pop(st, 1)?;
                    let v = pool.field_vtype(&t)?;
                    push(st, v);
                }
                _ => {
                    pop(st, usize::from(t.slots()) + 1)?;
                }
            }
        }
        Insn::Invoke { index, .. } | Insn::InvokeInterface { index, .. } => {
            let m = pool.cp().member_ref(*index)?;
            let (name, desc) = (m.name.into_owned(), MethodDescriptor::parse(&m.descriptor).ok()?);
            pop(st, usize::from(desc.param_slots()))?;
            if op != Opcode::INVOKESTATIC {
                let receiver = pop(st, 1)?[0];
                if op == Opcode::INVOKESPECIAL && name == "<init>" {
                    // The constructor initialises every copy of the receiver (JVMS §4.10.1.9.invokespecial).
                    let done = match receiver {
                        Uninitialized(new_at) => match insns.get(new_at.index())? {
                            Insn::Type { op: Opcode::NEW, index } => Object(*index),
                            _ => return None,
                        },
                        UninitializedThis => Object(ctx?.this_class),
                        _ => return None,
                    };
                    for v in st.locals.iter_mut().chain(st.stack.iter_mut()) {
                        if *v == receiver {
                            *v = done;
                        }
                    }
                }
            }
            if let Some(r) = &desc.ret {
                let v = pool.field_vtype(r)?;
                push(st, v);
            }
        }
        Insn::InvokeDynamic { index } => {
            let cp = pool.cp();
            let Constant::InvokeDynamic { name_and_type_index, .. } = cp.get(*index)? else { return None };
            let desc = MethodDescriptor::parse(&cp.name_and_type(*name_and_type_index)?.1).ok()?;
            pop(st, usize::from(desc.param_slots()))?;
            if let Some(r) = &desc.ret {
                let v = pool.field_vtype(r)?;
                push(st, v);
            }
        }
        Insn::Type { index, .. } => match op {
            Opcode::NEW => push(st, Uninitialized(at)),
            Opcode::ANEWARRAY => {
                pop(st, 1)?;
                let name = pool.cp().class_name(*index)?.into_owned();
                let array = if name.starts_with('[') { format!("[{name}") } else { format!("[L{name};") };
                let v = Object(pool.class(&array)?);
                push(st, v);
            }
            Opcode::CHECKCAST => {
                pop(st, 1)?;
                push(st, Object(*index));
            }
            _ => {
                pop(st, 1)?;
                push(st, Integer);
            }
        },
        Insn::NewArray { atype } => {
            pop(st, 1)?;
            // JVMS table 6.5.newarray-A.
            let name = match atype {
                4 => "[Z",
                5 => "[C",
                6 => "[F",
                7 => "[D",
                8 => "[B",
                9 => "[S",
                10 => "[I",
                11 => "[J",
                _ => return None,
            };
            let v = Object(pool.class(name)?);
            push(st, v);
        }
        Insn::MultiANewArray { index, dims } => {
            pop(st, usize::from(*dims))?;
            push(st, Object(*index));
        }
    }
    Some(())
}

/// Instructions without operands.
fn simple(st: &mut State, b: u8, pool: &mut Pool<'_>) -> Option<()> {
    use VType::*;
    match b {
        0x00 => {}
        0x01 => push(st, Null),
        0x02..=0x08 => push(st, Integer),
        0x09 | 0x0a => push(st, Long),
        0x0b..=0x0d => push(st, Float),
        0x0e | 0x0f => push(st, Double),
        // iaload laload faload daload aaload baload caload saload
        0x2e..=0x35 => {
            let popped = pop(st, 2)?;
            let v = match b {
                0x2f => Long,
                0x30 => Float,
                0x31 => Double,
                0x32 => match popped[0] {
                    Null => Null,
                    Object(i) => {
                        let name = pool.cp().class_name(i)?.into_owned();
                        let component = name.strip_prefix('[')?;
                        pool.descriptor_vtype(component)?
                    }
                    _ => return None,
                },
                _ => Integer,
            };
            push(st, v);
        }
        // xastore: arrayref, index, value (two slots for lastore and dastore).
        0x4f..=0x56 => {
            pop(st, if b == 0x50 || b == 0x52 { 4 } else { 3 })?;
        }
        0x57 => {
            pop(st, 1)?;
        }
        0x58 => {
            pop(st, 2)?;
        }
        // dup family and swap, on slots (the verifier checked the categories).
        0x59..=0x5f => {
            let (n, below) = match b {
                0x59 => (1, 0),
                0x5a => (1, 1),
                0x5b => (1, 2),
                0x5c => (2, 0),
                0x5d => (2, 1),
                0x5e => (2, 2),
                _ => {
                    let v = pop(st, 2)?;
                    st.stack.extend([v[1], v[0]]);
                    return Some(());
                }
            };
            let top = pop(st, n + below)?;
            let copied = &top[below..];
            st.stack.extend_from_slice(copied);
            st.stack.extend_from_slice(&top);
        }
        // Arithmetic: add sub mul div rem (binary), neg (unary), for i l f d in turn.
        0x60..=0x73 => binary(st, b - 0x60)?,
        0x74..=0x77 => {
            let (v, w) = typed((b - 0x74) % 4);
            pop(st, w)?;
            push(st, v);
        }
        // Shifts: the shift distance is an int.
        0x78..=0x7d => {
            let long = b % 2 == 1;
            pop(st, if long { 3 } else { 2 })?;
            push(st, if long { Long } else { Integer });
        }
        // and or xor for i, l.
        0x7e..=0x83 => {
            let long = b % 2 == 1;
            pop(st, if long { 4 } else { 2 })?;
            push(st, if long { Long } else { Integer });
        }
        // Conversions i2l .. d2f, then i2b i2c i2s.
        0x85..=0x90 => {
            let from = (b - 0x85) / 3;
            let to_k =
                [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]][usize::from(from)][usize::from((b - 0x85) % 3)];
            pop(st, typed(from).1)?;
            push(st, typed(to_k).0);
        }
        0x91..=0x93 => {
            pop(st, 1)?;
            push(st, Integer);
        }
        0x94 | 0x97 | 0x98 => {
            pop(st, 4)?;
            push(st, Integer);
        }
        0x95 | 0x96 => {
            pop(st, 2)?;
            push(st, Integer);
        }
        0xbe => {
            pop(st, 1)?;
            push(st, Integer);
        }
        0xc2 | 0xc3 => {
            pop(st, 1)?;
        }
        _ => return None,
    }
    Some(())
}

/// The type and slot count of kind `k` in the i, l, f, d order of the arithmetic opcodes.
fn typed(k: u8) -> (VType, usize) {
    match k {
        0 => (VType::Integer, 1),
        1 => (VType::Long, 2),
        2 => (VType::Float, 1),
        _ => (VType::Double, 2),
    }
}

fn binary(st: &mut State, rel: u8) -> Option<()> {
    let (v, w) = typed(rel % 4);
    pop(st, 2 * w)?;
    push(st, v);
    Some(())
}

/// Adds a computed `full_frame` after every conditional jump whose next instruction has no
/// frame, as widening would need. Returns how many frames were added; a body without a
/// `StackMapTable` is left alone. Useful to check the frame computation on whole jars with the
/// JVM verifier, and for rewrites that need explicit frames at fall-through points.
pub fn add_fallthrough_frames(
    body: &mut MethodBody,
    cp: &mut ConstantPool,
    ctx: &MethodContext,
) -> Result<usize, EncodeError> {
    let Some(frames) = body.frames() else { return Ok(0) };
    let n = body.insns.len();
    let conds: Vec<InsnIdx> = (0..n)
        .filter(|&i| body.insns[i].is_conditional() && i + 1 < n)
        .map(InsnIdx::new)
        .filter(|i| !frames.iter().any(|f| f.at.0 == i.0 + 1))
        .collect();
    if conds.is_empty() {
        return Ok(0);
    }
    let new = with_fallthrough_frames(frames, &body.insns, &conds, Some(ctx), Pool::Mut(cp))
        .ok_or(EncodeError::NeedsFrames { at: conds[0] })?;
    let added = new.len() - frames.len();
    for a in &mut body.attributes {
        if let CodeAttribute::StackMapTable { frames, .. } = a {
            *frames = new;
            break;
        }
    }
    Ok(added)
}
