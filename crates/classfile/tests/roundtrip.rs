//! Byte-exact round trip (parse, write, compare) of every class in the real-world corpus
//! and of the Java 17 fixtures in `fixtures/classes/classfile/`; every `Code` attribute
//! must also round-trip on its own.

mod common;

use std::path::Path;
use std::time::Instant;

use classfile::{ClassFile, ClassPathEntry, Code};

/// Checks one class; returns a description of the first difference, if any.
fn check_class(bytes: &[u8]) -> Result<(), String> {
    let cf = ClassFile::parse(bytes).map_err(|e| format!("parse: {e}"))?;
    let out = cf.to_bytes();
    if out != bytes {
        let at = out.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(out.len().min(bytes.len()));
        return Err(format!("mismatch at byte {at} (lengths {} vs {})", out.len(), bytes.len()));
    }
    for m in &cf.methods {
        if let Some(a) = m.attribute(&cf.constant_pool, "Code") {
            let code = Code::parse(&a.info).map_err(|e| format!("Code: {e}"))?;
            if code.to_bytes() != a.info {
                return Err(format!("Code mismatch in {:?}", m.name(&cf.constant_pool)));
            }
        }
    }
    Ok(())
}

#[test]
fn corpus_round_trips_byte_identical() {
    let start = Instant::now();
    let corpus = common::corpus::load();
    let loaded = start.elapsed();
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut per_container = std::collections::BTreeMap::<&str, usize>::new();
    for (container, name, bytes) in &corpus {
        *per_container.entry(container).or_default() += 1;
        if let Err(e) = check_class(bytes) {
            failures.push(format!("{container}!{name}: {e}"));
        }
    }
    eprintln!(
        "round trip: {} classes ({per_container:?}); read in {loaded:?}, parse+write+compare in {:?}",
        corpus.len(),
        start.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
    // 17 jars (6,682 classes) + java.base (6,426) + java.xml + java.desktop: about 20k classes.
    // Fewer than 19,000 means a container was silently skipped.
    assert!(corpus.len() >= 19_000, "only {} classes read", corpus.len());
    assert_eq!(per_container.len(), common::corpus::paths().len(), "{per_container:?}");
}

#[test]
fn java17_fixtures_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/classfile");
    let entry = ClassPathEntry::open(&dir).expect("fixtures compiled by fixtures/build.sh classfile");
    let mut n = 0;
    for f in entry.class_files() {
        let (name, bytes) = f.expect("readable fixture");
        check_class(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let cf = ClassFile::parse(&bytes).unwrap();
        assert_eq!(cf.major_version, 61, "{name}: javac --release 17");
        assert_eq!(cf.name(), name.as_str());
        n += 1;
    }
    assert!(n >= 10, "only {n} fixture classes");
}
