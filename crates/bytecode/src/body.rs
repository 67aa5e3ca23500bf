//! `MethodBody`: a decoded `Code` attribute (JVMS §4.7.3) whose every code position (targets,
//! handler ranges, line entries, local-variable scopes, stack-map frames, `Uninitialized`
//! types) is an `InsnIdx`, so that inserting code relocates by index arithmetic and encoding
//! recomputes all byte offsets at once. Also the editing API used by the instrumenter.

use crate::insn::{Insn, InsnIdx};

/// A decoded method body.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MethodBody {
    pub max_stack: u16,
    pub max_locals: u16,
    pub insns: Vec<Insn>,
    /// Exception handlers in table order (the order is the JVM's search order, JVMS §2.10).
    pub handlers: Vec<Handler>,
    /// Sub-attributes of `Code` in file order.
    pub attributes: Vec<CodeAttribute>,
    /// The code bytes as decoded, kept only when code type annotations exist: they may be kept
    /// on encoding only if the code comes out byte-identical.
    pub(crate) original_code: Option<Vec<u8>>,
}

/// An exception-table entry (JVMS §4.7.3) in instruction indices. `end` is exclusive and may
/// equal `insns.len()`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Handler {
    pub start: InsnIdx,
    pub end: InsnIdx,
    pub handler: InsnIdx,
    /// Constant-pool index of the caught class; 0 catches everything (`finally`).
    pub catch_type: u16,
}

/// A `LineNumberTable` entry (JVMS §4.7.12).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct LineEntry {
    pub start: InsnIdx,
    pub line: u16,
}

/// A `LocalVariableTable` or `LocalVariableTypeTable` entry (JVMS §4.7.13, §4.7.14); the scope is
/// `[start, end)`, `end` may equal `insns.len()`. `descriptor_index` is the signature index in a
/// `LocalVariableTypeTable`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct LocalVar {
    pub start: InsnIdx,
    pub end: InsnIdx,
    pub name_index: u16,
    pub descriptor_index: u16,
    pub slot: u16,
}

/// A verification type (JVMS §4.10.1.2, `verification_type_info` of §4.7.4).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum VType {
    Top,
    Integer,
    Float,
    Double,
    Long,
    Null,
    UninitializedThis,
    /// A class, by constant-pool index of its `Class` entry.
    Object(u16),
    /// The result of the `new` instruction at this index, before its constructor ran.
    Uninitialized(InsnIdx),
}

/// A stack-map frame at an instruction. The frame kind of the file is kept; encoding switches to
/// the `_extended` forms only when the offset delta no longer fits (JVMS §4.7.4).
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct Frame {
    pub at: InsnIdx,
    pub kind: FrameKind,
}

/// The `stack_map_frame` union of JVMS §4.7.4.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub enum FrameKind {
    /// `same_frame` (0-63), or `same_frame_extended` (251) when `extended`.
    Same { extended: bool },
    /// `same_locals_1_stack_item_frame` (64-127), or `..._extended` (247) when `extended`.
    SameLocals1StackItem { stack: VType, extended: bool },
    /// `chop_frame` (248-250): the last `k` (1..=3) locals are absent.
    Chop { k: u8 },
    /// `append_frame` (252-254): 1..=3 more locals.
    Append { locals: Vec<VType> },
    /// `full_frame` (255).
    Full { locals: Vec<VType>, stack: Vec<VType> },
}

/// A sub-attribute of `Code`. Those with code positions are decoded; the rest stay raw.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CodeAttribute {
    LineNumberTable {
        name_index: u16,
        entries: Vec<LineEntry>,
    },
    LocalVariableTable {
        name_index: u16,
        entries: Vec<LocalVar>,
    },
    LocalVariableTypeTable {
        name_index: u16,
        entries: Vec<LocalVar>,
    },
    StackMapTable {
        name_index: u16,
        frames: Vec<Frame>,
    },
    /// `RuntimeVisibleTypeAnnotations` / `RuntimeInvisibleTypeAnnotations` of the code (JVMS
    /// §4.7.20): they hold byte offsets in target-specific shapes that are not remapped; encoding
    /// keeps them only when the code bytes are unchanged and drops them (with a note) otherwise.
    TypeAnnotations {
        name_index: u16,
        info: Vec<u8>,
    },
    /// Anything else, unchanged.
    Other {
        name_index: u16,
        info: Vec<u8>,
    },
}

/// How `insert_before` moved instructions: for every old index `i` (and the end position
/// `insns.len()`), `entry(i)` is where control now arrives (the first instruction inserted
/// before `i`, or `i` itself), and `insn(i)` is where the old instruction now is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Relocation {
    entry: Vec<InsnIdx>,
    moved: Vec<InsnIdx>,
    /// Instructions inserted in total; positions past the old end shift by this much, so an
    /// invalid position stays invalid (and `encode` reports it) instead of panicking here.
    added: u32,
}

impl Relocation {
    /// The new index where control arriving at old `i` now lands.
    pub fn entry(&self, old: InsnIdx) -> InsnIdx {
        self.entry.get(old.index()).copied().unwrap_or(InsnIdx(old.0.saturating_add(self.added)))
    }

    /// The new index of the old instruction `i` itself.
    pub fn insn(&self, old: InsnIdx) -> InsnIdx {
        self.moved.get(old.index()).copied().unwrap_or(InsnIdx(old.0.saturating_add(self.added)))
    }
}

/// An editing request the body cannot satisfy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("insertion point {at:?} is past the end of the {len} instructions")]
    OutOfRange { at: InsnIdx, len: usize },
}

impl MethodBody {
    /// A body with no handlers and no sub-attributes (for tests and synthesized methods).
    pub fn new(max_stack: u16, max_locals: u16, insns: Vec<Insn>) -> MethodBody {
        MethodBody {
            max_stack,
            max_locals,
            insns,
            handlers: Vec::new(),
            attributes: Vec::new(),
            original_code: None,
        }
    }

    /// The end position, `InsnIdx(insns.len())`.
    pub fn end(&self) -> InsnIdx {
        InsnIdx::new(self.insns.len())
    }

    /// All line-number entries of all `LineNumberTable` attributes, in file order.
    pub fn lines(&self) -> impl Iterator<Item = &LineEntry> + '_ {
        self.attributes.iter().flat_map(|a| match a {
            CodeAttribute::LineNumberTable { entries, .. } => entries.as_slice(),
            _ => &[],
        })
    }

    /// The stack-map frames, if the body has a `StackMapTable`.
    pub fn frames(&self) -> Option<&[Frame]> {
        self.attributes.iter().find_map(|a| match a {
            CodeAttribute::StackMapTable { frames, .. } => Some(frames.as_slice()),
            _ => None,
        })
    }

    /// Replaces the instruction at `at` (e.g. redirecting a call), returning the old one. Its
    /// targets, if any, are in the current index space. Panics if `at` is not an instruction
    /// (a caller's bug, not bad input).
    pub fn replace(&mut self, at: InsnIdx, insn: Insn) -> Insn {
        std::mem::replace(&mut self.insns[at.index()], insn)
    }

    /// Raises `max_stack` to at least `n`.
    pub fn raise_max_stack(&mut self, n: u16) {
        self.max_stack = self.max_stack.max(n);
    }

    /// Raises `max_locals` to at least `n`.
    pub fn raise_max_locals(&mut self, n: u16) {
        self.max_locals = self.max_locals.max(n);
    }

    /// Reserves `slots` (1, or 2 for long/double) fresh local slots after all existing ones and
    /// returns the first; `None` if the 65535-slot limit would be exceeded.
    pub fn fresh_local(&mut self, slots: u16) -> Option<u16> {
        let first = self.max_locals;
        self.max_locals = first.checked_add(slots)?;
        Some(first)
    }

    /// Inserts instruction sequences before the given instructions in one pass. Several
    /// insertions at one index are placed in the order given. An index may be `insns.len()`
    /// (code appended at the end).
    ///
    /// Everything that pointed at an old instruction `i` (jump and switch targets, handler
    /// start and handler pc, line entries, local-variable scope starts, stack-map frames) now
    /// points at the first instruction inserted before `i`, so inserted code runs whenever
    /// control arrives at `i`; exclusive ends (handler `end`, scope ends) map the same way.
    /// `Uninitialized(i)` follows the `new` instruction itself. Targets inside inserted
    /// instructions are read as OLD indices and relocated like the others. Inserted code must
    /// not need a new stack-map frame (no branch targets inside it).
    pub fn insert_before(
        &mut self,
        mut insertions: Vec<(InsnIdx, Vec<Insn>)>,
    ) -> Result<Relocation, EditError> {
        let len = self.insns.len();
        if let Some((at, _)) = insertions.iter().find(|(at, _)| at.index() > len) {
            return Err(EditError::OutOfRange { at: *at, len });
        }
        // A stable sort keeps the given order of insertions at the same index.
        insertions.sort_by_key(|(at, _)| *at);
        let added: usize = insertions.iter().map(|(_, v)| v.len()).sum();
        let mut entry = Vec::with_capacity(len + 1);
        let mut moved = Vec::with_capacity(len + 1);
        let mut out: Vec<Insn> = Vec::with_capacity(len + added);
        let mut old = std::mem::take(&mut self.insns).into_iter();
        let mut pending = insertions.into_iter().peekable();
        for i in 0..=len {
            let first = InsnIdx::new(out.len());
            while let Some((_, seq)) = pending.next_if(|(at, _)| at.index() == i) {
                out.extend(seq);
            }
            entry.push(first);
            moved.push(InsnIdx::new(out.len()));
            if let Some(insn) = old.next() {
                out.push(insn);
            }
        }
        let reloc = Relocation { entry, moved, added: added as u32 };
        for insn in &mut out {
            insn.map_targets(|t| reloc.entry(t));
        }
        self.insns = out;
        self.relocate(&reloc);
        Ok(reloc)
    }

    /// Maps every code position outside the instructions through `reloc`.
    fn relocate(&mut self, reloc: &Relocation) {
        for h in &mut self.handlers {
            h.start = reloc.entry(h.start);
            h.end = reloc.entry(h.end);
            h.handler = reloc.entry(h.handler);
        }
        let map_vtype = |v: &mut VType| {
            if let VType::Uninitialized(at) = v {
                *at = reloc.insn(*at);
            }
        };
        for attr in &mut self.attributes {
            match attr {
                CodeAttribute::LineNumberTable { entries, .. } => {
                    for e in entries {
                        e.start = reloc.entry(e.start);
                    }
                }
                CodeAttribute::LocalVariableTable { entries, .. }
                | CodeAttribute::LocalVariableTypeTable { entries, .. } => {
                    for e in entries {
                        e.start = reloc.entry(e.start);
                        e.end = reloc.entry(e.end);
                    }
                }
                CodeAttribute::StackMapTable { frames, .. } => {
                    for f in frames {
                        f.at = reloc.entry(f.at);
                        match &mut f.kind {
                            FrameKind::Same { .. } | FrameKind::Chop { .. } => {}
                            FrameKind::SameLocals1StackItem { stack, .. } => map_vtype(stack),
                            FrameKind::Append { locals } => locals.iter_mut().for_each(map_vtype),
                            FrameKind::Full { locals, stack } => {
                                locals.iter_mut().chain(stack.iter_mut()).for_each(map_vtype)
                            }
                        }
                    }
                }
                CodeAttribute::TypeAnnotations { .. } | CodeAttribute::Other { .. } => {}
            }
        }
    }
}
