//! JVM opcodes (JVMS §6.5, §7): the byte values, their mnemonics, and the classifications that
//! decoding, encoding and analyses share. It says nothing about operands; `Insn` carries those.

use std::fmt;

/// One opcode byte. Only the values listed as associated constants occur in valid code;
/// `breakpoint` (0xca) and `impdep1/2` (0xfe, 0xff) are reserved (JVMS §6.2) and rejected by
/// the decoder.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Opcode(pub u8);

macro_rules! opcodes {
    ($($name:ident = $val:literal, $text:literal;)*) => {
        #[allow(missing_docs)]
        impl Opcode {
            $(pub const $name: Opcode = Opcode($val);)*
        }
        const NAMES: [&str; 256] = {
            let mut t = [""; 256];
            $(t[$val] = $text;)*
            t
        };
    };
}

opcodes! {
    NOP = 0x00, "nop";
    ACONST_NULL = 0x01, "aconst_null";
    ICONST_M1 = 0x02, "iconst_m1";
    ICONST_0 = 0x03, "iconst_0";
    ICONST_1 = 0x04, "iconst_1";
    ICONST_2 = 0x05, "iconst_2";
    ICONST_3 = 0x06, "iconst_3";
    ICONST_4 = 0x07, "iconst_4";
    ICONST_5 = 0x08, "iconst_5";
    LCONST_0 = 0x09, "lconst_0";
    LCONST_1 = 0x0a, "lconst_1";
    FCONST_0 = 0x0b, "fconst_0";
    FCONST_1 = 0x0c, "fconst_1";
    FCONST_2 = 0x0d, "fconst_2";
    DCONST_0 = 0x0e, "dconst_0";
    DCONST_1 = 0x0f, "dconst_1";
    BIPUSH = 0x10, "bipush";
    SIPUSH = 0x11, "sipush";
    LDC = 0x12, "ldc";
    LDC_W = 0x13, "ldc_w";
    LDC2_W = 0x14, "ldc2_w";
    ILOAD = 0x15, "iload";
    LLOAD = 0x16, "lload";
    FLOAD = 0x17, "fload";
    DLOAD = 0x18, "dload";
    ALOAD = 0x19, "aload";
    ILOAD_0 = 0x1a, "iload_0";
    ILOAD_1 = 0x1b, "iload_1";
    ILOAD_2 = 0x1c, "iload_2";
    ILOAD_3 = 0x1d, "iload_3";
    LLOAD_0 = 0x1e, "lload_0";
    LLOAD_1 = 0x1f, "lload_1";
    LLOAD_2 = 0x20, "lload_2";
    LLOAD_3 = 0x21, "lload_3";
    FLOAD_0 = 0x22, "fload_0";
    FLOAD_1 = 0x23, "fload_1";
    FLOAD_2 = 0x24, "fload_2";
    FLOAD_3 = 0x25, "fload_3";
    DLOAD_0 = 0x26, "dload_0";
    DLOAD_1 = 0x27, "dload_1";
    DLOAD_2 = 0x28, "dload_2";
    DLOAD_3 = 0x29, "dload_3";
    ALOAD_0 = 0x2a, "aload_0";
    ALOAD_1 = 0x2b, "aload_1";
    ALOAD_2 = 0x2c, "aload_2";
    ALOAD_3 = 0x2d, "aload_3";
    IALOAD = 0x2e, "iaload";
    LALOAD = 0x2f, "laload";
    FALOAD = 0x30, "faload";
    DALOAD = 0x31, "daload";
    AALOAD = 0x32, "aaload";
    BALOAD = 0x33, "baload";
    CALOAD = 0x34, "caload";
    SALOAD = 0x35, "saload";
    ISTORE = 0x36, "istore";
    LSTORE = 0x37, "lstore";
    FSTORE = 0x38, "fstore";
    DSTORE = 0x39, "dstore";
    ASTORE = 0x3a, "astore";
    ISTORE_0 = 0x3b, "istore_0";
    ISTORE_1 = 0x3c, "istore_1";
    ISTORE_2 = 0x3d, "istore_2";
    ISTORE_3 = 0x3e, "istore_3";
    LSTORE_0 = 0x3f, "lstore_0";
    LSTORE_1 = 0x40, "lstore_1";
    LSTORE_2 = 0x41, "lstore_2";
    LSTORE_3 = 0x42, "lstore_3";
    FSTORE_0 = 0x43, "fstore_0";
    FSTORE_1 = 0x44, "fstore_1";
    FSTORE_2 = 0x45, "fstore_2";
    FSTORE_3 = 0x46, "fstore_3";
    DSTORE_0 = 0x47, "dstore_0";
    DSTORE_1 = 0x48, "dstore_1";
    DSTORE_2 = 0x49, "dstore_2";
    DSTORE_3 = 0x4a, "dstore_3";
    ASTORE_0 = 0x4b, "astore_0";
    ASTORE_1 = 0x4c, "astore_1";
    ASTORE_2 = 0x4d, "astore_2";
    ASTORE_3 = 0x4e, "astore_3";
    IASTORE = 0x4f, "iastore";
    LASTORE = 0x50, "lastore";
    FASTORE = 0x51, "fastore";
    DASTORE = 0x52, "dastore";
    AASTORE = 0x53, "aastore";
    BASTORE = 0x54, "bastore";
    CASTORE = 0x55, "castore";
    SASTORE = 0x56, "sastore";
    POP = 0x57, "pop";
    POP2 = 0x58, "pop2";
    DUP = 0x59, "dup";
    DUP_X1 = 0x5a, "dup_x1";
    DUP_X2 = 0x5b, "dup_x2";
    DUP2 = 0x5c, "dup2";
    DUP2_X1 = 0x5d, "dup2_x1";
    DUP2_X2 = 0x5e, "dup2_x2";
    SWAP = 0x5f, "swap";
    IADD = 0x60, "iadd";
    LADD = 0x61, "ladd";
    FADD = 0x62, "fadd";
    DADD = 0x63, "dadd";
    ISUB = 0x64, "isub";
    LSUB = 0x65, "lsub";
    FSUB = 0x66, "fsub";
    DSUB = 0x67, "dsub";
    IMUL = 0x68, "imul";
    LMUL = 0x69, "lmul";
    FMUL = 0x6a, "fmul";
    DMUL = 0x6b, "dmul";
    IDIV = 0x6c, "idiv";
    LDIV = 0x6d, "ldiv";
    FDIV = 0x6e, "fdiv";
    DDIV = 0x6f, "ddiv";
    IREM = 0x70, "irem";
    LREM = 0x71, "lrem";
    FREM = 0x72, "frem";
    DREM = 0x73, "drem";
    INEG = 0x74, "ineg";
    LNEG = 0x75, "lneg";
    FNEG = 0x76, "fneg";
    DNEG = 0x77, "dneg";
    ISHL = 0x78, "ishl";
    LSHL = 0x79, "lshl";
    ISHR = 0x7a, "ishr";
    LSHR = 0x7b, "lshr";
    IUSHR = 0x7c, "iushr";
    LUSHR = 0x7d, "lushr";
    IAND = 0x7e, "iand";
    LAND = 0x7f, "land";
    IOR = 0x80, "ior";
    LOR = 0x81, "lor";
    IXOR = 0x82, "ixor";
    LXOR = 0x83, "lxor";
    IINC = 0x84, "iinc";
    I2L = 0x85, "i2l";
    I2F = 0x86, "i2f";
    I2D = 0x87, "i2d";
    L2I = 0x88, "l2i";
    L2F = 0x89, "l2f";
    L2D = 0x8a, "l2d";
    F2I = 0x8b, "f2i";
    F2L = 0x8c, "f2l";
    F2D = 0x8d, "f2d";
    D2I = 0x8e, "d2i";
    D2L = 0x8f, "d2l";
    D2F = 0x90, "d2f";
    I2B = 0x91, "i2b";
    I2C = 0x92, "i2c";
    I2S = 0x93, "i2s";
    LCMP = 0x94, "lcmp";
    FCMPL = 0x95, "fcmpl";
    FCMPG = 0x96, "fcmpg";
    DCMPL = 0x97, "dcmpl";
    DCMPG = 0x98, "dcmpg";
    IFEQ = 0x99, "ifeq";
    IFNE = 0x9a, "ifne";
    IFLT = 0x9b, "iflt";
    IFGE = 0x9c, "ifge";
    IFGT = 0x9d, "ifgt";
    IFLE = 0x9e, "ifle";
    IF_ICMPEQ = 0x9f, "if_icmpeq";
    IF_ICMPNE = 0xa0, "if_icmpne";
    IF_ICMPLT = 0xa1, "if_icmplt";
    IF_ICMPGE = 0xa2, "if_icmpge";
    IF_ICMPGT = 0xa3, "if_icmpgt";
    IF_ICMPLE = 0xa4, "if_icmple";
    IF_ACMPEQ = 0xa5, "if_acmpeq";
    IF_ACMPNE = 0xa6, "if_acmpne";
    GOTO = 0xa7, "goto";
    JSR = 0xa8, "jsr";
    RET = 0xa9, "ret";
    TABLESWITCH = 0xaa, "tableswitch";
    LOOKUPSWITCH = 0xab, "lookupswitch";
    IRETURN = 0xac, "ireturn";
    LRETURN = 0xad, "lreturn";
    FRETURN = 0xae, "freturn";
    DRETURN = 0xaf, "dreturn";
    ARETURN = 0xb0, "areturn";
    RETURN = 0xb1, "return";
    GETSTATIC = 0xb2, "getstatic";
    PUTSTATIC = 0xb3, "putstatic";
    GETFIELD = 0xb4, "getfield";
    PUTFIELD = 0xb5, "putfield";
    INVOKEVIRTUAL = 0xb6, "invokevirtual";
    INVOKESPECIAL = 0xb7, "invokespecial";
    INVOKESTATIC = 0xb8, "invokestatic";
    INVOKEINTERFACE = 0xb9, "invokeinterface";
    INVOKEDYNAMIC = 0xba, "invokedynamic";
    NEW = 0xbb, "new";
    NEWARRAY = 0xbc, "newarray";
    ANEWARRAY = 0xbd, "anewarray";
    ARRAYLENGTH = 0xbe, "arraylength";
    ATHROW = 0xbf, "athrow";
    CHECKCAST = 0xc0, "checkcast";
    INSTANCEOF = 0xc1, "instanceof";
    MONITORENTER = 0xc2, "monitorenter";
    MONITOREXIT = 0xc3, "monitorexit";
    WIDE = 0xc4, "wide";
    MULTIANEWARRAY = 0xc5, "multianewarray";
    IFNULL = 0xc6, "ifnull";
    IFNONNULL = 0xc7, "ifnonnull";
    GOTO_W = 0xc8, "goto_w";
    JSR_W = 0xc9, "jsr_w";
}

/// The kind of value a local-variable instruction moves (the `i`, `l`, `f`, `d`, `a` prefix).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum ValueKind {
    Int,
    Long,
    Float,
    Double,
    Reference,
}

impl ValueKind {
    /// Slots the value occupies in the local-variable array (JVMS §2.6.1).
    pub fn slots(self) -> u16 {
        match self {
            ValueKind::Long | ValueKind::Double => 2,
            _ => 1,
        }
    }

    fn offset(self) -> u8 {
        match self {
            ValueKind::Int => 0,
            ValueKind::Long => 1,
            ValueKind::Float => 2,
            ValueKind::Double => 3,
            ValueKind::Reference => 4,
        }
    }

    fn from_offset(k: u8) -> ValueKind {
        match k {
            0 => ValueKind::Int,
            1 => ValueKind::Long,
            2 => ValueKind::Float,
            3 => ValueKind::Double,
            _ => ValueKind::Reference,
        }
    }
}

impl Opcode {
    /// The mnemonic, as `javap` prints it; `""` for reserved and unassigned bytes.
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// True for the opcodes of JVMS §6.5 (everything but the reserved and unassigned bytes).
    pub fn is_valid(self) -> bool {
        !self.name().is_empty()
    }

    /// `if<cond>`, `if_icmp<cond>`, `if_acmp<cond>`, `ifnull`, `ifnonnull`.
    pub fn is_conditional_branch(self) -> bool {
        (0x99..=0xa6).contains(&self.0) || self.0 == 0xc6 || self.0 == 0xc7
    }

    /// `goto` and `goto_w`.
    pub fn is_goto(self) -> bool {
        self == Opcode::GOTO || self == Opcode::GOTO_W
    }

    /// `jsr` and `jsr_w` (subroutines of class files before version 50, JVMS §4.10.2.5).
    pub fn is_jsr(self) -> bool {
        self == Opcode::JSR || self == Opcode::JSR_W
    }

    /// Opcodes whose single operand is a branch offset (`Insn::Branch`).
    pub fn is_branch(self) -> bool {
        self.is_conditional_branch() || self.is_goto() || self.is_jsr()
    }

    /// `ireturn` .. `return`.
    pub fn is_return(self) -> bool {
        (0xac..=0xb1).contains(&self.0)
    }

    /// The conditional branch with the opposite condition (`ifeq` <-> `ifne`, `iflt` <-> `ifge`,
    /// ...), used to widen a conditional jump into `if<!cond> +8; goto_w L`. `None` for others.
    pub fn inverted(self) -> Option<Opcode> {
        match self.0 {
            // Opcodes 0x99..=0xa6 come in complementary pairs starting at the odd 0x99.
            0x99..=0xa6 => Some(Opcode(if self.0 & 1 == 1 { self.0 + 1 } else { self.0 - 1 })),
            0xc6 => Some(Opcode::IFNONNULL),
            0xc7 => Some(Opcode::IFNULL),
            _ => None,
        }
    }

    /// For `xload`, `xstore` (also `_<n>` forms): the value kind, whether it stores, and the
    /// implicit slot of a `_<n>` form.
    pub fn local_access(self) -> Option<(ValueKind, bool, Option<u16>)> {
        let b = self.0;
        match b {
            0x15..=0x19 => Some((ValueKind::from_offset(b - 0x15), false, None)),
            0x1a..=0x2d => {
                Some((ValueKind::from_offset((b - 0x1a) / 4), false, Some(u16::from((b - 0x1a) % 4))))
            }
            0x36..=0x3a => Some((ValueKind::from_offset(b - 0x36), true, None)),
            0x3b..=0x4e => {
                Some((ValueKind::from_offset((b - 0x3b) / 4), true, Some(u16::from((b - 0x3b) % 4))))
            }
            _ => None,
        }
    }

    /// `xload <var>` (the general form) for a kind.
    pub fn load(kind: ValueKind) -> Opcode {
        Opcode(0x15 + kind.offset())
    }

    /// `xstore <var>` (the general form) for a kind.
    pub fn store(kind: ValueKind) -> Opcode {
        Opcode(0x36 + kind.offset())
    }

    /// `xload_<n>` for n in 0..=3.
    pub fn load_n(kind: ValueKind, n: u8) -> Option<Opcode> {
        (n < 4).then(|| Opcode(0x1a + kind.offset() * 4 + n))
    }

    /// `xstore_<n>` for n in 0..=3.
    pub fn store_n(kind: ValueKind, n: u8) -> Option<Opcode> {
        (n < 4).then(|| Opcode(0x3b + kind.offset() * 4 + n))
    }
}

/// The operand layout that follows an opcode byte (JVMS §6.5); shared by the decoder and by the
/// encoder's check that an `Insn` variant carries a matching opcode.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Format {
    /// No operand bytes.
    None,
    /// `bipush`: one signed byte.
    Byte,
    /// `sipush`: one signed short.
    Short,
    /// `ldc`: a one-byte pool index.
    Ldc,
    /// `ldc_w`, `ldc2_w`: a two-byte pool index.
    LdcWide,
    /// `xload_<n>`, `xstore_<n>`: the slot is in the opcode.
    LocalImplicit,
    /// `xload`, `xstore`, `ret`: a one-byte slot (two bytes after `wide`).
    Local,
    Iinc,
    /// 16-bit relative branch.
    Branch,
    /// 32-bit relative branch (`goto_w`, `jsr_w`).
    BranchWide,
    TableSwitch,
    LookupSwitch,
    Field,
    Invoke,
    InvokeInterface,
    InvokeDynamic,
    Type,
    NewArray,
    MultiANewArray,
    Wide,
    Invalid,
}

impl Opcode {
    pub(crate) fn format(self) -> Format {
        match self.0 {
            0x00..=0x0f => Format::None,
            0x10 => Format::Byte,
            0x11 => Format::Short,
            0x12 => Format::Ldc,
            0x13 | 0x14 => Format::LdcWide,
            0x15..=0x19 => Format::Local,
            0x1a..=0x2d => Format::LocalImplicit,
            0x2e..=0x35 => Format::None,
            0x36..=0x3a => Format::Local,
            0x3b..=0x4e => Format::LocalImplicit,
            0x4f..=0x83 => Format::None,
            0x84 => Format::Iinc,
            0x85..=0x98 => Format::None,
            0x99..=0xa8 => Format::Branch,
            0xa9 => Format::Local,
            0xaa => Format::TableSwitch,
            0xab => Format::LookupSwitch,
            0xac..=0xb1 => Format::None,
            0xb2..=0xb5 => Format::Field,
            0xb6..=0xb8 => Format::Invoke,
            0xb9 => Format::InvokeInterface,
            0xba => Format::InvokeDynamic,
            0xbb => Format::Type,
            0xbc => Format::NewArray,
            0xbd => Format::Type,
            0xbe | 0xbf => Format::None,
            0xc0 | 0xc1 => Format::Type,
            0xc2 | 0xc3 => Format::None,
            0xc4 => Format::Wide,
            0xc5 => Format::MultiANewArray,
            0xc6 | 0xc7 => Format::Branch,
            0xc8 | 0xc9 => Format::BranchWide,
            _ => Format::Invalid,
        }
    }
}

impl fmt::Debug for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_valid() { f.write_str(self.name()) } else { write!(f, "Opcode({:#04x})", self.0) }
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_classes() {
        assert_eq!(Opcode::JSR_W.name(), "jsr_w");
        assert_eq!(Opcode(0xca).name(), "");
        assert_eq!(Opcode::IFEQ.inverted(), Some(Opcode::IFNE));
        assert_eq!(Opcode::IF_ICMPLE.inverted(), Some(Opcode::IF_ICMPGT));
        assert_eq!(Opcode::IF_ACMPNE.inverted(), Some(Opcode::IF_ACMPEQ));
        assert_eq!(Opcode::IFNULL.inverted(), Some(Opcode::IFNONNULL));
        assert_eq!(Opcode::GOTO.inverted(), None);
        assert_eq!(Opcode::ALOAD_3.local_access(), Some((ValueKind::Reference, false, Some(3))));
        assert_eq!(Opcode::DSTORE.local_access(), Some((ValueKind::Double, true, None)));
        assert_eq!(Opcode::load_n(ValueKind::Long, 2), Some(Opcode::LLOAD_2));
        assert_eq!(Opcode::store_n(ValueKind::Float, 0), Some(Opcode::FSTORE_0));
        assert_eq!(Opcode::store(ValueKind::Reference), Opcode::ASTORE);
        // Every named opcode has a format and every unnamed byte is invalid.
        for b in 0..=255u8 {
            assert_eq!(Opcode(b).is_valid(), Opcode(b).format() != Format::Invalid, "{b:#x}");
        }
    }
}
