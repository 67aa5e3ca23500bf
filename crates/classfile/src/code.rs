//! A typed view of the `Code` attribute (JVMS §4.7.3): limits, the raw bytecode, the exception
//! table and the nested attributes. Instructions are not decoded here; that is the `bytecode` crate.

use crate::reader::{Reader, put_len16, put_u16, put_u32};
use crate::{Attribute, Error};

/// The `Code` attribute of a method, parsed from `Attribute::info`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    pub max_stack: u16,
    pub max_locals: u16,
    /// The raw instruction bytes (`code_length` of them).
    pub code: Vec<u8>,
    pub exception_table: Vec<ExceptionEntry>,
    /// Nested attributes (`LineNumberTable`, `StackMapTable`, ...), raw.
    pub attributes: Vec<Attribute>,
}

/// One row of the exception table: `[start_pc, end_pc)` is protected; `catch_type` 0 catches all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExceptionEntry {
    pub start_pc: u16,
    pub end_pc: u16,
    pub handler_pc: u16,
    pub catch_type: u16,
}

impl Code {
    /// Parses the `info` bytes of a `Code` attribute (everything after the 6-byte attribute
    /// header). Offsets in errors are relative to the start of `info`.
    ///
    /// Only the layout of class files 45.3 and later is supported; the pre-1.0.2 layout with 8-bit
    /// limits (45.0-45.2) does not occur in practice.
    pub fn parse(info: &[u8]) -> Result<Code, Error> {
        Code::parse_at(info, 0)
    }

    /// Like [`Code::parse`], with `base` the absolute offset of `info` in the class file, so that
    /// errors name file offsets.
    pub fn parse_at(info: &[u8], base: usize) -> Result<Code, Error> {
        let mut r = Reader::new(info, base);
        let max_stack = r.u16("Code.max_stack")?;
        let max_locals = r.u16("Code.max_locals")?;
        let code_length = r.u32("Code.code_length")? as usize;
        let code = r.take(code_length, "Code.code")?.to_vec();
        let n = r.u16("Code.exception_table_length")? as usize;
        // Check the length before reserving so that a corrupt count cannot cause a huge allocation.
        r.take_check(n * 8, "Code.exception_table")?;
        let mut exception_table = Vec::with_capacity(n);
        for _ in 0..n {
            exception_table.push(ExceptionEntry {
                start_pc: r.u16("exception start_pc")?,
                end_pc: r.u16("exception end_pc")?,
                handler_pc: r.u16("exception handler_pc")?,
                catch_type: r.u16("exception catch_type")?,
            });
        }
        let attributes = crate::attribute::parse_attributes(&mut r)?;
        r.finish("Code attribute")?;
        Ok(Code { max_stack, max_locals, code, exception_table, attributes })
    }

    /// Writes the `info` bytes of the attribute (without the 6-byte header). The inverse of
    /// [`Code::parse`]: `Code::parse(b)?.to_bytes() == b` for every well-formed `b`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            12 + self.code.len() + 8 * self.exception_table.len() + 16 * self.attributes.len(),
        );
        put_u16(&mut out, self.max_stack);
        put_u16(&mut out, self.max_locals);
        put_u32(&mut out, self.code.len() as u32);
        out.extend_from_slice(&self.code);
        put_len16(&mut out, self.exception_table.len());
        for e in &self.exception_table {
            put_u16(&mut out, e.start_pc);
            put_u16(&mut out, e.end_pc);
            put_u16(&mut out, e.handler_pc);
            put_u16(&mut out, e.catch_type);
        }
        crate::attribute::write_attributes(&mut out, &self.attributes);
        out
    }
}
