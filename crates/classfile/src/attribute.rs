//! Reading and writing attribute tables (JVMS §4.7): `u2 count`, then per attribute a `u2` name
//! index, a `u4` length and that many raw bytes. Attributes stay raw; see `Code` for a typed view.

use crate::reader::{Reader, put_len16, put_u16, put_u32};
use crate::{Attribute, Error};

pub(crate) fn parse_attributes(r: &mut Reader<'_>) -> Result<Vec<Attribute>, Error> {
    let n = r.u16("attributes_count")? as usize;
    // Each attribute takes at least 6 bytes: a corrupt count fails before allocating.
    r.take_check(n * 6, "attributes")?;
    let mut res = Vec::with_capacity(n);
    for _ in 0..n {
        let name_index = r.u16("attribute_name_index")?;
        let len = r.u32("attribute_length")? as usize;
        let info = r.take(len, "attribute info")?.to_vec();
        res.push(Attribute { name_index, info });
    }
    Ok(res)
}

pub(crate) fn write_attributes(out: &mut Vec<u8>, attributes: &[Attribute]) {
    put_len16(out, attributes.len());
    for a in attributes {
        put_u16(out, a.name_index);
        put_u32(out, a.info.len() as u32);
        out.extend_from_slice(&a.info);
    }
}
