//! Decoded method bodies: JVM instructions with branch targets as instruction indices
//! (`InsnIdx`), exception handlers, line and local-variable tables and stack-map frames in the
//! same index space, decoded from and encoded back into `classfile::Code` (JVMS §4.7.3, §6.5).
//!
//! Architecture Invariant: `encode(decode(code))` reproduces the original `Code` bytes for every
//! method that decodes; inserting code only ever relocates indices, and all byte offsets are
//! recomputed at encoding. This crate does not compute stack-map frames in general: editing must not
//! add branch targets (straight-line probes); the one frame kind it derives is the frame after a
//! widened conditional jump, by straight-line interpretation from the preceding frame.

mod body;
mod decode;
mod encode;
mod error;
mod frames;
mod insn;
mod opcode;
mod print;

pub use body::{
    CodeAttribute, EditError, Frame, FrameKind, Handler, LineEntry, LocalVar, MethodBody, Relocation, VType,
};
pub use decode::decode;
pub use encode::{Note, encode, encode_method};
pub use error::{DecodeError, EncodeError};
pub use frames::{MethodContext, add_fallthrough_frames};
pub use insn::{Insn, InsnIdx, Targets};
pub use opcode::{Opcode, ValueKind};
pub use print::{print_body, print_class};
