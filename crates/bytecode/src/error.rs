//! Typed errors of decoding and encoding. Decoding errors carry the byte offset in the code
//! array (or the attribute) so that a report can point at the bad spot; a corrupt method is an
//! `Err`, never a panic.

use crate::insn::InsnIdx;

/// Why a `Code` attribute could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("code truncated in {what} at byte {offset}")]
    Truncated { what: &'static str, offset: usize },
    #[error("invalid opcode {opcode:#04x} at byte {offset}")]
    BadOpcode { opcode: u8, offset: usize },
    #[error("invalid operand of {what} at byte {offset}")]
    BadOperand { what: &'static str, offset: usize },
    #[error("{what} at byte {offset} points to byte {target}, which does not start an instruction")]
    BadTarget { what: &'static str, offset: usize, target: i64 },
    #[error("malformed {attribute} attribute: {reason}")]
    BadAttribute { attribute: &'static str, reason: String },
}

/// Why a `MethodBody` could not be encoded. The caller keeps the original method then.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The code would exceed the 65535-byte limit of JVMS §4.7.3 (`code_length < 65536`).
    #[error("code would be {len} bytes, more than 65535")]
    TooLarge { len: usize },
    /// A conditional jump had to be widened into `if<!cond> +8; goto_w L`, which makes the
    /// instruction after it a branch target without a stack-map frame (JVMS §4.10.1).
    #[error("widening the conditional jump at {at:?} needs a stack-map frame at {at:?}+1")]
    NeedsFrames { at: InsnIdx },
    /// An instruction whose variant and opcode do not match, or whose operand is out of range.
    #[error("instruction {at:?} ({what}) cannot be encoded")]
    BadInsn { at: InsnIdx, what: String },
    /// A target, range or frame position outside the instructions, or frames out of order.
    #[error("{what} refers to {target:?}, outside the {len} instructions")]
    BadIndex { what: &'static str, target: InsnIdx, len: usize },
    #[error("stack-map frames are not in increasing instruction order at {at:?}")]
    FramesOutOfOrder { at: InsnIdx },
    #[error("{what} has more than 65535 entries")]
    TooManyEntries { what: &'static str },
}
