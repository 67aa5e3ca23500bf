//! A bounds-checked big-endian byte reader and the writer helpers shared by every parser of the
//! crate. Every read checks the remaining length, so truncated input becomes `Error::Truncated`
//! with the absolute offset, never a panic.

use crate::Error;

/// Reads big-endian values from a slice. `base` is the absolute offset of `bytes[0]` in the class
/// file, so errors inside an attribute still report file offsets.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8], base: usize) -> Reader<'a> {
        Reader { bytes, pos: 0, base }
    }

    /// The absolute offset of the next byte.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub(crate) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], Error> {
        if self.remaining() < n {
            return Err(Error::Truncated { what, offset: self.offset(), needed: n });
        }
        let res = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(res)
    }

    /// Fails unless at least `n` bytes remain, without consuming them.
    pub(crate) fn take_check(&self, n: usize, what: &'static str) -> Result<(), Error> {
        if self.remaining() < n {
            return Err(Error::Truncated { what, offset: self.offset(), needed: n });
        }
        Ok(())
    }

    pub(crate) fn u8(&mut self, what: &'static str) -> Result<u8, Error> {
        Ok(self.take(1, what)?[0])
    }

    pub(crate) fn u16(&mut self, what: &'static str) -> Result<u16, Error> {
        let b = self.take(2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, Error> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn u64(&mut self, what: &'static str) -> Result<u64, Error> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_be_bytes(a))
    }

    /// Fails with `TrailingBytes` unless everything was consumed.
    pub(crate) fn finish(&self, what: &'static str) -> Result<(), Error> {
        if self.remaining() != 0 {
            return Err(Error::TrailingBytes { what, offset: self.offset(), count: self.remaining() });
        }
        Ok(())
    }
}

pub(crate) fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_be_bytes());
}

pub(crate) fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}

/// Writes a length as `u16`. Lengths come from the model; a model built by hand with more than
/// 65535 items cannot be represented, and the count is truncated (documented on `to_bytes`).
pub(crate) fn put_len16(out: &mut Vec<u8>, n: usize) {
    put_u16(out, n as u16);
}
