//! Corrupt and truncated input never panics: every truncation of real classes is an `Err`, and
//! every byte corruption either fails or (if the result is still well-formed) round-trips exactly.
//! Errors carry the class name and a byte offset.

mod common;

use std::path::Path;

use classfile::{ClassFile, ClassPath, ClassPathEntry, Code, Error};

fn fixture_classes() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/classfile");
    ClassPathEntry::open(&dir).unwrap().class_files().map(Result::unwrap).collect()
}

/// A few real classes of different shapes from the corpus: module-info, an old-version class, an
/// interface, a class with many constants.
fn sample_corpus_classes() -> Vec<(String, Vec<u8>)> {
    let mut res = Vec::new();
    for (jar, names) in [
        ("/usr/share/java/commons-cli.jar", &["org/apache/commons/cli/Option"][..]),
        ("/usr/share/java/xz.jar", &["org/tukaani/xz/LZMA2Options"][..]),
        ("/usr/share/java/joda-time.jar", &["org/joda/time/DateTimeZone"][..]),
    ] {
        let cp = ClassPath::open(&[jar.into()]).unwrap();
        for n in names {
            res.push((n.to_string(), cp.class_bytes(n).unwrap().unwrap()));
        }
    }
    let jmod = test_support::java_base_jmod();
    let entry = ClassPathEntry::open(&jmod).unwrap();
    for f in entry.class_files() {
        let (n, b) = f.unwrap();
        if n == "module-info" || n == "java/lang/invoke/MethodHandles$Lookup" {
            res.push((n, b));
        }
    }
    assert_eq!(res.len(), 5);
    res
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Parses possibly corrupt bytes; a success must round-trip, and every `Code` must parse or fail
/// cleanly too.
fn check_corrupt(bytes: &[u8]) -> bool {
    match ClassFile::parse(bytes) {
        Ok(cf) => {
            assert_eq!(cf.to_bytes(), bytes, "accepted input must round-trip");
            for m in &cf.methods {
                if let Some(Ok(code)) = m.code(&cf.constant_pool) {
                    let _ = code.to_bytes();
                }
                let _ = m.name(&cf.constant_pool);
            }
            let _ = (cf.name(), cf.super_name(), cf.interface_names().count());
            true
        }
        Err(e) => {
            let _ = e.to_string();
            false
        }
    }
}

#[test]
fn every_truncation_is_an_error() {
    let mut n = 0;
    for (name, bytes) in fixture_classes().into_iter().chain(sample_corpus_classes()) {
        // Every offset for small classes; a stride for big ones keeps the test fast.
        let step = (bytes.len() / 3000).max(1);
        for len in (0..bytes.len()).step_by(step) {
            let res = ClassFile::parse(&bytes[..len]);
            assert!(res.is_err(), "{name} truncated to {len} bytes parsed");
            n += 1;
        }
    }
    assert!(n > 20_000, "{n}");
}

#[test]
fn corrupted_bytes_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut accepted, mut rejected) = (0, 0);
    for (_, bytes) in fixture_classes().into_iter().chain(sample_corpus_classes()) {
        for _ in 0..1500 {
            let mut b = bytes.clone();
            // One to three bytes set to an extreme or random value.
            for _ in 0..=(rng.next() % 3) {
                let at = (rng.next() % b.len() as u64) as usize;
                b[at] = match rng.next() % 4 {
                    0 => 0x00,
                    1 => 0xFF,
                    2 => b[at].wrapping_add(1),
                    _ => rng.next() as u8,
                };
            }
            if check_corrupt(&b) { accepted += 1 } else { rejected += 1 }
        }
    }
    eprintln!("corrupted classes: {accepted} accepted (and round-tripped), {rejected} rejected");
    assert!(rejected > 1000 && accepted > 1000, "{accepted} / {rejected}");
}

#[test]
fn corrupted_code_attributes_never_panic() {
    let mut rng = Rng(42);
    for (_, bytes) in fixture_classes() {
        let cf = ClassFile::parse(&bytes).unwrap();
        for m in &cf.methods {
            let Some(a) = m.attribute(&cf.constant_pool, "Code") else { continue };
            for len in 0..a.info.len() {
                assert!(Code::parse(&a.info[..len]).is_err());
            }
            for _ in 0..50 {
                let mut info = a.info.clone();
                let at = (rng.next() % info.len() as u64) as usize;
                info[at] = rng.next() as u8;
                if let Ok(code) = Code::parse(&info) {
                    assert_eq!(code.to_bytes(), info);
                }
            }
        }
    }
}

#[test]
fn errors_carry_class_name_and_offset() {
    let bytes = fixture_classes().into_iter().find(|(n, _)| n == "classfile/Outer").unwrap().1;
    let cf = ClassFile::parse(&bytes).unwrap();
    // Cut inside the last method: the error names the class and the offset of the cut.
    let cut = bytes.len() - 20;
    let err = ClassFile::parse(&bytes[..cut]).unwrap_err();
    assert_eq!(err.class(), Some("classfile/Outer"));
    let off = err.offset().unwrap();
    assert!(off <= cut && off > cut - 200, "{err}");
    assert!(err.to_string().starts_with("in class classfile/Outer: truncated input"), "{err}");
    assert_eq!(cf.name(), "classfile/Outer");

    // Before this_class is known there is no class name.
    let err = ClassFile::parse(&bytes[..30]).unwrap_err();
    assert_eq!(err.class(), None);
    assert!(matches!(err, Error::Truncated { .. }), "{err}");
    assert!(matches!(ClassFile::parse(b"\xCA\xFE\xBA\xBF\0\0\0\x34"), Err(Error::BadMagic { .. })));
    assert!(matches!(
        ClassFile::parse(b"\xCA\xFE\xBA\xBE\0\0\0\x2C"),
        Err(Error::UnsupportedVersion { major: 44, .. })
    ));
    // Trailing garbage is rejected too (the JVM refuses it, and it would not round-trip).
    let mut long = bytes.clone();
    long.push(0);
    let err = ClassFile::parse(&long).unwrap_err();
    assert_eq!(err.offset(), Some(bytes.len()), "{err}");
}
