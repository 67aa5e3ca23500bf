//! Straight-line stub bodies as `bytecode` instructions: this module chooses the instructions,
//! interns their constants and tracks the operand-stack depth as it goes, so `max_stack` falls out
//! of the building itself with no separate analysis; `bytecode` picks each instruction's form and
//! writes the code bytes (the architecture gives instruction encoding to `bytecode` alone). It
//! knows no branches, exception handlers or stack-map frames, because stub methods have none; it
//! offers only the instructions stubs use.

use bytecode::{EncodeError, Insn, MethodBody, Opcode, ValueKind};
use classfile::descriptor::FieldType;
use classfile::{Code, ConstantPool, Error};

/// How a method is called: which instruction, and so whether a receiver is popped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Invoke {
    Static,
    Special,
    Virtual,
}

/// The kind of value a type is on the stack and in locals: boolean, byte, char, short and int
/// are all ints there (JVMS §2.11.1).
fn kind(ty: &FieldType) -> ValueKind {
    match ty {
        FieldType::Base('J') => ValueKind::Long,
        FieldType::Base('F') => ValueKind::Float,
        FieldType::Base('D') => ValueKind::Double,
        FieldType::Base(_) => ValueKind::Int,
        FieldType::Object(_) | FieldType::Array(_) => ValueKind::Reference,
    }
}

/// A method body being built. Depths are counted in slots (JVMS §2.6.2: `long` and `double`
/// take two).
pub(crate) struct CodeBuilder<'cp> {
    cp: &'cp mut ConstantPool,
    insns: Vec<Insn>,
    depth: u32,
    max_depth: u32,
}

impl<'cp> CodeBuilder<'cp> {
    pub(crate) fn new(cp: &'cp mut ConstantPool) -> CodeBuilder<'cp> {
        CodeBuilder { cp, insns: Vec::new(), depth: 0, max_depth: 0 }
    }

    /// Appends one instruction that pops `pops` slots and then pushes `pushes`.
    fn insn(&mut self, insn: Insn, pops: u32, pushes: u32) {
        self.insns.push(insn);
        // Every sequence this crate builds is balanced by construction (the JVM tests verify each
        // shape), so an underflow would be a bug here; saturating keeps it from wrapping around.
        self.depth = self.depth.saturating_sub(pops) + pushes;
        self.max_depth = self.max_depth.max(self.depth);
    }

    /// Pushes the int `v` with the shortest instruction: `iconst_<n>`, `bipush`, `sipush`, else
    /// `ldc`/`ldc_w` of an `Integer` constant.
    pub(crate) fn push_int(&mut self, v: i32) -> Result<(), Error> {
        let insn = match Insn::push_int(v) {
            Some(insn) => insn,
            None => Insn::ldc(self.cp.intern_integer(v)?),
        };
        self.insn(insn, 0, 1);
        Ok(())
    }

    /// Loads the local at `slot` of type `ty`, in the shortest form for the slot.
    pub(crate) fn load(&mut self, ty: &FieldType, slot: u16) {
        self.insn(Insn::load(kind(ty), slot), 0, u32::from(ty.slots()));
    }

    /// `aload_0`: the receiver.
    pub(crate) fn load_this(&mut self) {
        self.insn(Insn::load(ValueKind::Reference, 0), 0, 1);
    }

    /// `aaload`: array, index -> element.
    pub(crate) fn aaload(&mut self) {
        self.insn(Insn::simple(Opcode::AALOAD), 2, 1);
    }

    /// `aastore`: array, index, value -> (nothing).
    pub(crate) fn aastore(&mut self) {
        self.insn(Insn::simple(Opcode::AASTORE), 3, 0);
    }

    /// `dup` of a one-slot value.
    pub(crate) fn dup(&mut self) {
        self.insn(Insn::simple(Opcode::DUP), 1, 2);
    }

    /// `pop` of a one-slot value.
    pub(crate) fn pop(&mut self) {
        self.insn(Insn::simple(Opcode::POP), 1, 0);
    }

    /// `anewarray class`: length -> array. `class` is an internal name or an array descriptor.
    pub(crate) fn anewarray(&mut self, class: &str) -> Result<(), Error> {
        let index = self.cp.intern_class(class)?;
        self.insn(Insn::Type { op: Opcode::ANEWARRAY, index }, 1, 1);
        Ok(())
    }

    /// `checkcast class`: reference -> reference. `class` is an internal name or an array
    /// descriptor.
    pub(crate) fn checkcast(&mut self, class: &str) -> Result<(), Error> {
        let index = self.cp.intern_class(class)?;
        self.insn(Insn::Type { op: Opcode::CHECKCAST, index }, 1, 1);
        Ok(())
    }

    /// `getfield` of a one-slot (reference) field: object -> value.
    pub(crate) fn getfield_ref(&mut self, class: &str, name: &str, desc: &str) -> Result<(), Error> {
        let index = self.cp.intern_fieldref(class, name, desc)?;
        self.insn(Insn::Field { op: Opcode::GETFIELD, index }, 1, 1);
        Ok(())
    }

    /// `putfield` of a one-slot (reference) field: object, value -> (nothing).
    pub(crate) fn putfield_ref(&mut self, class: &str, name: &str, desc: &str) -> Result<(), Error> {
        let index = self.cp.intern_fieldref(class, name, desc)?;
        self.insn(Insn::Field { op: Opcode::PUTFIELD, index }, 2, 0);
        Ok(())
    }

    /// Calls a method of a class (a `Methodref`, never an interface method). `arg_slots` are the
    /// slots its parameters take, without the receiver; `ret_slots` those of its result.
    pub(crate) fn invoke(
        &mut self,
        how: Invoke,
        (class, name, desc): (&str, &str, &str),
        arg_slots: u16,
        ret_slots: u16,
    ) -> Result<(), Error> {
        let index = self.cp.intern_methodref(class, name, desc)?;
        let (op, receiver) = match how {
            Invoke::Static => (Opcode::INVOKESTATIC, 0),
            Invoke::Special => (Opcode::INVOKESPECIAL, 1),
            Invoke::Virtual => (Opcode::INVOKEVIRTUAL, 1),
        };
        self.insn(Insn::Invoke { op, index }, u32::from(arg_slots) + receiver, u32::from(ret_slots));
        Ok(())
    }

    /// Returns a value of type `ty` (`None`: `return` from a void method).
    pub(crate) fn ret(&mut self, ty: Option<&FieldType>) {
        let op = match ty.map(kind) {
            None => Opcode::RETURN,
            Some(ValueKind::Int) => Opcode::IRETURN,
            Some(ValueKind::Long) => Opcode::LRETURN,
            Some(ValueKind::Float) => Opcode::FRETURN,
            Some(ValueKind::Double) => Opcode::DRETURN,
            Some(ValueKind::Reference) => Opcode::ARETURN,
        };
        let pops = ty.map_or(0, |t| u32::from(t.slots()));
        self.insn(Insn::simple(op), pops, 0);
    }

    /// The finished `Code` attribute, encoded by `bytecode`. `max_locals` is the caller's: it
    /// knows the parameters.
    pub(crate) fn finish(self, max_locals: u16) -> Result<Code, EncodeError> {
        // Stub bodies push a handful of slots (at most 6), far below the `u2` limit.
        let max_stack = u16::try_from(self.max_depth).unwrap_or(u16::MAX);
        let body = MethodBody::new(max_stack, max_locals, self.insns);
        // Notes report dropped type annotations and widened jumps; a stub body has neither
        // attributes nor jumps, so there is never a note to pass on.
        let (code, _notes) = bytecode::encode(&body, self.cp)?;
        Ok(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The int pushes pick the shortest form at each boundary, and `ldc` an interned `Integer`.
    #[test]
    fn push_int_picks_the_shortest_form() {
        let mut cp = ConstantPool::new();
        let mut b = CodeBuilder::new(&mut cp);
        for v in [-1, 0, 5, 6, -2, 127, -128, 128, -129, 32767, -32768, 32768, -32769] {
            b.push_int(v).unwrap();
        }
        let code = b.finish(0).unwrap();
        assert_eq!(
            code.code,
            [
                0x02, 0x03, 0x08, // iconst_m1, iconst_0, iconst_5
                0x10, 6, 0x10, 0xfe, 0x10, 127, 0x10, 0x80, // bipush
                0x11, 0, 128, 0x11, 0xff, 0x7f, 0x11, 0x7f, 0xff, 0x11, 0x80, 0x00, // sipush
                0x12, 1, 0x12, 2, // ldc #1, ldc #2
            ]
        );
        assert_eq!(code.max_stack, 13);
        assert_eq!(cp.get(1), Some(&classfile::Constant::Integer(32768)));
        assert_eq!(cp.get(2), Some(&classfile::Constant::Integer(-32769)));
    }

    /// An `Integer` constant past index 255 is loaded with `ldc_w`.
    #[test]
    fn push_int_uses_ldc_w_for_high_indices() {
        let mut cp = ConstantPool::new();
        for i in 0..300 {
            cp.intern_integer(100_000 + i).unwrap();
        }
        let mut b = CodeBuilder::new(&mut cp);
        b.push_int(1_000_000).unwrap();
        let code = b.finish(0).unwrap();
        assert_eq!(code.code, [0x13, 0x01, 0x2d]);
        assert_eq!(cp.get(301), Some(&classfile::Constant::Integer(1_000_000)));
    }

    /// Loads use the short forms for slots 0-3, one byte of index up to 255 and `wide` above;
    /// two-slot types count twice on the stack.
    #[test]
    fn loads_pick_the_form_by_slot() {
        let mut cp = ConstantPool::new();
        let mut b = CodeBuilder::new(&mut cp);
        b.load(&FieldType::Base('J'), 1);
        b.load(&FieldType::Base('Z'), 3);
        b.load(&FieldType::Base('D'), 4);
        b.load(&FieldType::Object("java/lang/Object".into()), 300);
        let code = b.finish(0).unwrap();
        assert_eq!(code.code, [0x1f, 0x1d, 0x18, 4, 0xc4, 0x19, 0x01, 0x2c]);
        assert_eq!(code.max_stack, 6);
    }

    /// Returns pop their value's slots, so a balanced body ends at depth 0, and `max_stack`
    /// counts the deepest point, not the sum of pushes.
    #[test]
    fn depth_follows_pops_and_pushes() {
        let mut cp = ConstantPool::new();
        let mut b = CodeBuilder::new(&mut cp);
        b.load(&FieldType::Base('D'), 1);
        b.ret(Some(&FieldType::Base('D')));
        assert_eq!(b.depth, 0);
        b.load_this();
        b.pop();
        b.ret(None);
        let code = b.finish(3).unwrap();
        assert_eq!(code.code, [0x27, 0xaf, 0x2a, 0x57, 0xb1]);
        assert_eq!((code.max_stack, code.max_locals), (2, 3));
    }
}
