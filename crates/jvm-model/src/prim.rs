//! The eight primitive types of JVMS §2.3: descriptor letters, keywords, wrappers, widening.

/// The eight primitive types of JVMS §2.3, in descriptor-letter order of the protocol (`ZBCSIJFD`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PrimType {
    Boolean,
    Byte,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
}

impl PrimType {
    pub const ALL: [PrimType; 8] = [
        PrimType::Boolean,
        PrimType::Byte,
        PrimType::Char,
        PrimType::Short,
        PrimType::Int,
        PrimType::Long,
        PrimType::Float,
        PrimType::Double,
    ];

    /// The descriptor letter (JVMS Table 4.3-A) as a byte, as the worker protocol sends it.
    pub fn letter(self) -> u8 {
        match self {
            PrimType::Boolean => b'Z',
            PrimType::Byte => b'B',
            PrimType::Char => b'C',
            PrimType::Short => b'S',
            PrimType::Int => b'I',
            PrimType::Long => b'J',
            PrimType::Float => b'F',
            PrimType::Double => b'D',
        }
    }

    pub fn from_letter(letter: u8) -> Option<PrimType> {
        PrimType::ALL.into_iter().find(|p| p.letter() == letter)
    }

    /// The descriptor letter (JVMS Table 4.3-A).
    pub fn descriptor_char(self) -> char {
        char::from(self.letter())
    }

    pub fn from_descriptor_char(c: char) -> Option<PrimType> {
        u8::try_from(c).ok().and_then(PrimType::from_letter)
    }

    /// The Java keyword.
    pub fn name(self) -> &'static str {
        match self {
            PrimType::Boolean => "boolean",
            PrimType::Byte => "byte",
            PrimType::Char => "char",
            PrimType::Short => "short",
            PrimType::Int => "int",
            PrimType::Long => "long",
            PrimType::Float => "float",
            PrimType::Double => "double",
        }
    }

    /// The wrapper class (binary name) that boxing conversion (JLS §5.1.7) produces.
    pub fn wrapper(self) -> &'static str {
        match self {
            PrimType::Boolean => "java.lang.Boolean",
            PrimType::Byte => "java.lang.Byte",
            PrimType::Char => "java.lang.Character",
            PrimType::Short => "java.lang.Short",
            PrimType::Int => "java.lang.Integer",
            PrimType::Long => "java.lang.Long",
            PrimType::Float => "java.lang.Float",
            PrimType::Double => "java.lang.Double",
        }
    }

    /// The primitive a wrapper class unboxes to (JLS §5.1.8).
    pub fn unwrap(class: &str) -> Option<PrimType> {
        PrimType::ALL.into_iter().find(|p| p.wrapper() == class)
    }

    /// Widening primitive conversion (JLS §5.1.2), identity included.
    pub fn widens_to(self, to: PrimType) -> bool {
        use PrimType::*;
        if self == to {
            return true;
        }
        match self {
            Byte => matches!(to, Short | Int | Long | Float | Double),
            Short | Char => matches!(to, Int | Long | Float | Double),
            Int => matches!(to, Long | Float | Double),
            Long => matches!(to, Float | Double),
            Float => matches!(to, Double),
            Boolean | Double => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PrimType;

    #[test]
    fn letters_round_trip() {
        let letters: String = PrimType::ALL.iter().map(|p| p.descriptor_char()).collect();
        assert_eq!(letters, "ZBCSIJFD");
        for p in PrimType::ALL {
            assert_eq!(PrimType::from_letter(p.letter()), Some(p));
            assert_eq!(PrimType::from_descriptor_char(p.descriptor_char()), Some(p));
            assert_eq!(PrimType::unwrap(p.wrapper()), Some(p));
        }
        assert_eq!(PrimType::from_letter(b'V'), None);
        assert_eq!(PrimType::from_descriptor_char('é'), None);
    }
}
