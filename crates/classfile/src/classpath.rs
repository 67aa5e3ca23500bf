//! The containers classes come in: directories, jars (zip), `.jmod` files (a zip after the 4-byte
//! header `JM\x01\x00`, classes under `classes/`) and classpaths of them, with `Class-Path:`
//! manifest entries followed the way `java -cp` follows them.
//!
//! Archives are opened once at `open` (their central directory read); a lookup then reads and
//! inflates only the entry asked for, with positioned reads on a shared file handle
//! ([`SharedFile`]). This keeps `ClassPath` a plain `Send + Sync` value with `&self` methods (no
//! locks) without holding the compressed jars in memory: java.base.jmod alone is ~22 MB, which
//! used to stay resident for the whole run and weighed on the engine's peak memory.

use jvm_model::ClassName;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use zip::ZipArchive;

use crate::Error;

type Archive = ZipArchive<SharedFile>;

/// A read-only view of a file from byte `start` on, with its own position: clones share the handle
/// and read with `pread`, so the archives cloned per lookup never disturb each other.
#[derive(Clone, Debug)]
pub(crate) struct SharedFile {
    file: Arc<File>,
    start: u64,
    len: u64,
    pos: u64,
}

impl SharedFile {
    fn new(file: File, start: u64) -> std::io::Result<SharedFile> {
        let len = file.metadata()?.len().saturating_sub(start);
        Ok(SharedFile { file: Arc::new(file), start, len, pos: 0 })
    }
}

impl Read for SharedFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.len.saturating_sub(self.pos);
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        if want == 0 {
            return Ok(0);
        }
        let n = self.file.read_at(&mut buf[..want], self.start + self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for SharedFile {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        let invalid =
            || std::io::Error::new(std::io::ErrorKind::InvalidInput, "seek before the start of the file");
        self.pos = target.ok_or_else(invalid)?;
        Ok(self.pos)
    }
}

/// An ordered list of class containers; a class name resolves to its first occurrence.
#[derive(Debug)]
pub struct ClassPath {
    entries: Vec<ClassPathEntry>,
    /// Internal class name -> index of the first entry holding it.
    names: BTreeMap<String, usize>,
}

/// One container on a classpath.
#[derive(Debug)]
pub struct ClassPathEntry {
    path: PathBuf,
    kind: Kind,
    /// Every `.class` file of the entry: its path inside the entry without `.class` (for a jmod,
    /// without the `classes/` prefix), mapped to the zip index (0 for directories). This includes
    /// `module-info` and `META-INF/versions/**` files.
    files: BTreeMap<String, usize>,
    /// A `.jmod` file.
    jmod: bool,
    /// The jar has a signature file or its manifest seals a package (`Sealed: true`).
    signed_or_sealed: bool,
}

#[derive(Debug)]
enum Kind {
    Directory,
    Archive(Archive),
}

/// The header of a `.jmod` file before its zip data (JDK `jdk.internal.jmod.JmodFile`).
const JMOD_MAGIC: [u8; 4] = *b"JM\x01\x00";

impl ClassPath {
    /// Opens every entry in order. An entry that is missing or not a container is an error; a
    /// `Class-Path:` manifest entry of a jar that is missing is skipped (as the JVM does), and
    /// each path is opened at most once, so manifest cycles terminate.
    pub fn open(paths: &[PathBuf]) -> Result<ClassPath, Error> {
        let mut entries: Vec<ClassPathEntry> = Vec::new();
        // Explicit entries, then manifest entries right after the jar that names them
        // (depth-first, like `jdk.internal.loader.URLClassPath`). The worklist is reversed so that
        // `pop` yields paths in order.
        let mut work: Vec<(PathBuf, bool)> = paths.iter().rev().map(|p| (p.clone(), true)).collect();
        let mut seen: Vec<PathBuf> = Vec::new();
        while let Some((path, explicit)) = work.pop() {
            let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            if !explicit && !path.exists() {
                continue;
            }
            let (entry, manifest_cp) = match ClassPathEntry::open_with_manifest(&path) {
                Ok(x) => x,
                Err(_) if !explicit => continue,
                Err(e) => return Err(e),
            };
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            for rel in manifest_cp.iter().rev() {
                work.push((dir.join(rel), false));
            }
            entries.push(entry);
        }
        let mut names = BTreeMap::new();
        for (i, e) in entries.iter().enumerate() {
            for n in e.class_names() {
                names.entry(n.to_owned()).or_insert(i);
            }
        }
        Ok(ClassPath { entries, names })
    }

    /// Opens a `:`-separated classpath string (empty elements are ignored).
    pub fn from_classpath_string(cp: &str) -> Result<ClassPath, Error> {
        let paths: Vec<PathBuf> = cp.split(':').filter(|s| !s.is_empty()).map(PathBuf::from).collect();
        ClassPath::open(&paths)
    }

    /// The entries in lookup order, including those added from manifests.
    pub fn entries(&self) -> &[ClassPathEntry] {
        &self.entries
    }

    /// The bytes of the class `internal_name` (`java/lang/String`) from the first entry that has
    /// it; `Ok(None)` if no entry does.
    pub fn class_bytes(&self, internal_name: &str) -> Result<Option<Vec<u8>>, Error> {
        match self.names.get(internal_name) {
            Some(&i) => self.entries[i].read(internal_name).map(Some),
            None => Ok(None),
        }
    }

    /// Every class name on the classpath, sorted and without duplicates (see
    /// `ClassPathEntry::class_names` for what counts).
    pub fn class_names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(String::as_str)
    }

    /// True if some entry holds `internal_name`.
    pub fn contains(&self, internal_name: &str) -> bool {
        self.names.contains_key(internal_name)
    }

    /// Of `names` (internal names), the top-level classes, read from this classpath, that are
    /// neither interfaces nor annotations (`module-info` and `package-info` are none), as sorted
    /// distinct binary names: the classes `generate --target`/`--prefix` and the benchmark's
    /// whole-jar lists test (nested classes are tested through their outer class). A class that
    /// cannot be read is left out.
    pub fn top_level_classes<'a>(&self, names: impl Iterator<Item = &'a str>) -> Vec<String> {
        let mut out: Vec<String> = names
            .filter(|n| !n.contains('$') && !n.ends_with("module-info") && !n.ends_with("package-info"))
            .filter(|n| {
                let Ok(Some(bytes)) = self.class_bytes(n) else { return false };
                let Ok(cf) = crate::ClassFile::parse(&bytes) else { return false };
                cf.access_flags & (crate::access::INTERFACE | crate::access::ANNOTATION) == 0
            })
            .map(|n| ClassName::from_internal(n).binary())
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

impl ClassPathEntry {
    /// Opens one directory, jar/zip or jmod (manifest `Class-Path` is not followed; use
    /// `ClassPath::open` for that).
    pub fn open(path: &Path) -> Result<ClassPathEntry, Error> {
        ClassPathEntry::open_with_manifest(path).map(|(e, _)| e)
    }

    fn open_with_manifest(path: &Path) -> Result<(ClassPathEntry, Vec<String>), Error> {
        let io = |source| Error::Io { path: path.to_path_buf(), source };
        let meta = std::fs::metadata(path).map_err(io)?;
        if meta.is_dir() {
            let files = walk_dir(path)?;
            return Ok((
                ClassPathEntry {
                    path: path.to_path_buf(),
                    kind: Kind::Directory,
                    files,
                    jmod: false,
                    signed_or_sealed: false,
                },
                Vec::new(),
            ));
        }
        let file = File::open(path).map_err(io)?;
        let mut magic = [0u8; 4];
        let is_jmod = file.read_exact_at(&mut magic, 0).is_ok() && magic == JMOD_MAGIC;
        let data = SharedFile::new(file, if is_jmod { 4 } else { 0 }).map_err(io)?;
        let zip_err = |source| Error::Zip { path: path.to_path_buf(), source };
        let mut archive = match ZipArchive::new(data) {
            Ok(a) => a,
            Err(zip::result::ZipError::InvalidArchive(_)) if !has_archive_extension(path) => {
                return Err(Error::NotAContainer { path: path.to_path_buf() });
            }
            Err(e) => return Err(zip_err(e)),
        };
        let prefix = if is_jmod { "classes/" } else { "" };
        let mut files = BTreeMap::new();
        let mut signed = false;
        for i in 0..archive.len() {
            let Some(Ok(name)) = archive.name_for_index(i) else { continue };
            signed |= name
                .strip_prefix("META-INF/")
                .is_some_and(|f| !f.contains('/') && f.to_ascii_uppercase().ends_with(".SF"));
            if let Some(n) = name.strip_prefix(prefix).and_then(|n| n.strip_suffix(".class"))
                && !n.is_empty()
            {
                files.entry(n.to_owned()).or_insert(i);
            }
        }
        let (manifest, sealed) =
            if is_jmod { (Vec::new(), false) } else { manifest_class_path(&mut archive, path)? };
        let entry = ClassPathEntry {
            path: path.to_path_buf(),
            kind: Kind::Archive(archive),
            files,
            jmod: is_jmod,
            signed_or_sealed: signed || sealed,
        };
        Ok((entry, manifest))
    }

    /// The path this entry was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The classes this entry contributes to a classpath, sorted: every `.class` file except
    /// `module-info`/`package-info` style descriptors whose names are not class names (containing
    /// `-`), and except `META-INF/**` (multi-release versions must not shadow the base classes).
    pub fn class_names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str).filter(|n| is_class_name(n))
    }

    /// Every `.class` file of the entry (including `module-info` and `META-INF/versions/**`), as
    /// (path without `.class`, bytes), sorted by path. Read errors are returned per file.
    pub fn class_files(&self) -> impl Iterator<Item = Result<(String, Vec<u8>), Error>> + '_ {
        let mut archive = match &self.kind {
            Kind::Archive(a) => Some(a.clone()),
            Kind::Directory => None,
        };
        self.files.iter().map(move |(name, &i)| {
            let bytes = match &mut archive {
                Some(a) => read_zip_entry(a, i, &self.path)?,
                None => self.read_file(name)?,
            };
            Ok((name.clone(), bytes))
        })
    }

    /// The classes of the entry as (internal name, bytes), sorted by name: what `class_names`
    /// lists, read one at a time. Read errors are returned per class.
    pub fn classes(&self) -> impl Iterator<Item = Result<(String, Vec<u8>), Error>> + '_ {
        let mut archive = match &self.kind {
            Kind::Archive(a) => Some(a.clone()),
            Kind::Directory => None,
        };
        self.files.iter().filter(|(name, _)| is_class_name(name)).map(move |(name, &i)| {
            let bytes = match &mut archive {
                Some(a) => read_zip_entry(a, i, &self.path)?,
                None => self.read_file(name)?,
            };
            Ok((name.clone(), bytes))
        })
    }

    /// Whether a multi-release jar has a variant of class `name` under `META-INF/versions/<n>/`,
    /// which a JVM of version n or later loads instead of the base class.
    pub fn is_versioned(&self, name: &str) -> bool {
        let prefix = "META-INF/versions/";
        self.files
            .range(prefix.to_owned()..)
            .take_while(|(k, _)| k.starts_with(prefix))
            .any(|(k, _)| k.splitn(4, '/').nth(3) == Some(name))
    }

    /// Whether the entry is a `.jmod` (the JDK's; never on a user's `-cp`).
    pub fn is_jmod(&self) -> bool {
        self.jmod
    }

    /// Whether the jar is signed (a `META-INF/*.SF` signature file) or seals a package (a
    /// `Sealed: true` manifest attribute). The JVM refuses a class of such a package that comes
    /// from anywhere else than the jar (a signer or sealing violation), so a rewritten copy of one
    /// of its classes cannot be loaded beside the others.
    pub fn is_signed_or_sealed(&self) -> bool {
        self.signed_or_sealed
    }

    /// The number of `.class` files in the entry (what `class_files` yields).
    pub fn class_file_count(&self) -> usize {
        self.files.len()
    }

    /// Reads the `.class` file at `name` (a key of `files`).
    fn read(&self, name: &str) -> Result<Vec<u8>, Error> {
        match &self.kind {
            Kind::Archive(a) => {
                let i = self.files.get(name).copied().unwrap_or(usize::MAX);
                read_zip_entry(&mut a.clone(), i, &self.path)
            }
            Kind::Directory => self.read_file(name),
        }
    }

    fn read_file(&self, name: &str) -> Result<Vec<u8>, Error> {
        let p = self.path.join(format!("{name}.class"));
        std::fs::read(&p).map_err(|source| Error::Io { path: p, source })
    }
}

fn read_zip_entry(a: &mut Archive, i: usize, path: &Path) -> Result<Vec<u8>, Error> {
    let zip_err = |source| Error::Zip { path: path.to_path_buf(), source };
    let mut f = a.by_index(i).map_err(zip_err)?;
    let mut out = Vec::with_capacity(usize::try_from(f.size()).unwrap_or(0).min(1 << 24));
    f.read_to_end(&mut out).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
    Ok(out)
}

fn has_archive_extension(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref(),
        Some("jar" | "zip" | "jmod")
    )
}

/// Whether a path inside a container names a class loadable from it.
fn is_class_name(n: &str) -> bool {
    !n.starts_with("META-INF/") && !n.rsplit('/').next().unwrap_or(n).contains('-')
}

/// Every `.class` file below `root`, by relative `/`-separated path without `.class`. An explicit
/// worklist, not recursion (STYLE.md rule 7); symlinked directories are not followed, so cycles
/// cannot occur.
fn walk_dir(root: &Path) -> Result<BTreeMap<String, usize>, Error> {
    let mut files = BTreeMap::new();
    let mut work = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, rel)) = work.pop() {
        let io = |source| Error::Io { path: dir.clone(), source };
        for ent in std::fs::read_dir(&dir).map_err(io)? {
            let ent = ent.map_err(io)?;
            let Ok(name) = ent.file_name().into_string() else { continue };
            let ty = ent.file_type().map_err(io)?;
            let child = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
            if ty.is_dir() {
                work.push((ent.path(), child));
            } else if let Some(n) = child.strip_suffix(".class") {
                files.insert(n.to_owned(), 0);
            }
        }
    }
    Ok(files)
}

/// The relative paths of the main section's `Class-Path:` attribute of the jar's manifest (JAR
/// File Specification: 72-byte lines, continuation lines start with one space; values are
/// space-separated relative URLs), and whether any section seals its package (`Sealed: true`).
fn manifest_class_path(a: &mut Archive, path: &Path) -> Result<(Vec<String>, bool), Error> {
    let Some(i) = a.index_for_name("META-INF/MANIFEST.MF") else { return Ok((Vec::new(), false)) };
    let bytes = read_zip_entry(a, i, path)?;
    let text = String::from_utf8_lossy(&bytes);
    let sealed = text.lines().any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("Sealed") && v.trim().eq_ignore_ascii_case("true")
        })
    });
    Ok((parse_manifest_class_path(&text), sealed))
}

/// See `manifest_class_path`. Only the main section (before the first blank line) counts.
pub(crate) fn parse_manifest_class_path(manifest: &str) -> Vec<String> {
    let mut logical: Vec<String> = Vec::new();
    for line in manifest.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            break;
        }
        match (line.strip_prefix(' '), logical.last_mut()) {
            (Some(cont), Some(last)) => last.push_str(cont),
            _ => logical.push(line.to_owned()),
        }
    }
    let Some(value) = logical.iter().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case("Class-Path").then(|| v.to_owned())
    }) else {
        return Vec::new();
    };
    // Only local paths: `file:` URLs lose their scheme; other schemes (http://...) are skipped.
    value
        .split_ascii_whitespace()
        .filter_map(|u| match u.strip_prefix("file:") {
            Some(p) => Some(p.strip_prefix("//").unwrap_or(p)),
            None if u.contains("://") => None,
            None => Some(u),
        })
        .map(percent_decode)
        .collect()
}

/// Decodes `%XX` escapes of a relative URL; malformed escapes are kept literally.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_class_path_parsing() {
        let m = "Manifest-Version: 1.0\r\nClass-Path: a.jar lib/b%20c.jar\r\n  more.jar ../d.j\r\n ar\r\nMain-Class: X\r\n\r\nName: foo\r\nClass-Path: ignored.jar\r\n";
        assert_eq!(parse_manifest_class_path(m), ["a.jar", "lib/b c.jar", "more.jar", "../d.jar"]);
        assert!(parse_manifest_class_path("Manifest-Version: 1.0\n").is_empty());
        let m = "Class-Path: file:/opt/x.jar http://h/y.jar file:///z.jar\n";
        assert_eq!(parse_manifest_class_path(m), ["/opt/x.jar", "/z.jar"]);
        assert_eq!(percent_decode("x%2"), "x%2");
        assert_eq!(percent_decode("%41%zz"), "A%zz");
    }
}
