//! The ELF interpreter (`PT_INTERP`, e.g. `/lib64/ld-linux-x86-64.so.2`) an executable names: the
//! kernel opens it for execution during `execve`, so Landlock must allow executing it as well as
//! the executable itself.

use std::io::Read;
use std::path::{Path, PathBuf};

const PT_INTERP: u32 = 3;

/// The interpreter of the 64-bit little-endian ELF executable at `path`; `None` for anything else
/// (a script, a static binary, another format), which then needs no interpreter rule.
pub(crate) fn interpreter(path: &Path) -> Option<PathBuf> {
    let mut bytes = Vec::new();
    // The program headers and the interpreter's name sit near the start of the file.
    std::fs::File::open(path).ok()?.take(64 * 1024).read_to_end(&mut bytes).ok()?;
    if bytes.get(..4)? != b"\x7fELF" || *bytes.get(4)? != 2 || *bytes.get(5)? != 1 {
        return None;
    }
    let u16_at = |o: usize| Some(u16::from_le_bytes(bytes.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |o: usize| Some(u32::from_le_bytes(bytes.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |o: usize| Some(u64::from_le_bytes(bytes.get(o..o + 8)?.try_into().ok()?));
    let phoff = usize::try_from(u64_at(0x20)?).ok()?;
    let phentsize = usize::from(u16_at(0x36)?);
    let phnum = usize::from(u16_at(0x38)?);
    for i in 0..phnum {
        let ph = phoff + i * phentsize;
        if u32_at(ph)? == PT_INTERP {
            let offset = usize::try_from(u64_at(ph + 8)?).ok()?;
            let size = usize::try_from(u64_at(ph + 32)?).ok()?;
            let name = bytes.get(offset..offset + size)?;
            let name = name.split(|&b| b == 0).next()?;
            return Some(PathBuf::from(std::str::from_utf8(name).ok()?));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shell_names_an_interpreter_that_exists_and_a_script_none() {
        let sh = std::fs::canonicalize("/bin/sh").expect("/bin/sh");
        let interp = interpreter(&sh).expect("a dynamically linked /bin/sh names an interpreter");
        assert!(interp.is_absolute() && interp.exists(), "{}", interp.display());
        let dir = tempfile::tempdir().expect("tempdir");
        let script = dir.path().join("s");
        std::fs::write(&script, "#!/bin/sh\necho\n").expect("write");
        assert_eq!(interpreter(&script), None);
    }
}
