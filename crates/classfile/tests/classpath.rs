//! Class containers: directories, jars, jmods, `:`-separated classpaths, `Class-Path:` manifests
//! (relative, chained, cyclic, missing entries skipped), and typed errors for bad entries.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use classfile::{ClassFile, ClassPath, ClassPathEntry, Error};
use zip::write::SimpleFileOptions;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/classfile")
}

/// Writes a jar holding `classes` (name -> bytes) and an optional manifest.
fn write_jar(path: &Path, classes: &[(&str, &[u8])], manifest: Option<&str>) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = SimpleFileOptions::default();
    if let Some(m) = manifest {
        z.start_file("META-INF/MANIFEST.MF", opts).unwrap();
        z.write_all(m.as_bytes()).unwrap();
    }
    for (name, bytes) in classes {
        z.start_file(format!("{name}.class"), opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

fn fixture_bytes(name: &str) -> Vec<u8> {
    let cp = ClassPath::open(&[fixtures_dir()]).unwrap();
    cp.class_bytes(name).unwrap().unwrap()
}

#[test]
fn directory_entry_lists_sorted_classes() {
    let cp = ClassPath::from_classpath_string(fixtures_dir().to_str().unwrap()).unwrap();
    let names: Vec<&str> = cp.class_names().collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert!(names.contains(&"classfile/Outer$Inner"), "{names:?}");
    let b = cp.class_bytes("classfile/Outer$Inner").unwrap().unwrap();
    assert_eq!(ClassFile::parse(&b).unwrap().name(), "classfile/Outer$Inner");
    assert_eq!(cp.class_bytes("classfile/Missing").unwrap(), None);
}

#[test]
fn manifest_class_path_is_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let outer = fixture_bytes("classfile/Outer");
    let kinds = fixture_bytes("classfile/Kinds");
    let consts = fixture_bytes("classfile/Constants");
    std::fs::create_dir(tmp.path().join("lib")).unwrap();
    // main.jar -> lib/dep one.jar (space, percent-encoded) and a missing jar; dep -> ../main.jar
    // (a cycle) and ../third.jar.
    write_jar(
        &tmp.path().join("main.jar"),
        &[("classfile/Outer", &outer)],
        Some("Manifest-Version: 1.0\r\nClass-Path: lib/dep%20one.jar missing.jar\r\n\r\n"),
    );
    write_jar(
        &tmp.path().join("lib/dep one.jar"),
        &[("classfile/Kinds", &kinds), ("classfile/Outer", b"shadowed")],
        Some("Manifest-Version: 1.0\nClass-Path: ../main.jar ../thi\n rd.jar\n"),
    );
    write_jar(&tmp.path().join("third.jar"), &[("classfile/Constants", &consts)], None);

    let cp = ClassPath::open(&[tmp.path().join("main.jar")]).unwrap();
    let entries: Vec<String> = cp
        .entries()
        .iter()
        .map(|e| e.path().strip_prefix(tmp.path()).unwrap().display().to_string())
        .collect();
    assert_eq!(entries, ["main.jar", "lib/dep one.jar", "lib/../third.jar"]);
    let names: Vec<&str> = cp.class_names().collect();
    assert_eq!(names, ["classfile/Constants", "classfile/Kinds", "classfile/Outer"]);
    // The first entry wins.
    assert_eq!(cp.class_bytes("classfile/Outer").unwrap().unwrap(), outer);
    assert_eq!(cp.class_bytes("classfile/Constants").unwrap().unwrap(), consts);
}

#[test]
fn debian_manifest_with_absolute_path_resolves() {
    // Debian's jgrapht-core says `Class-Path: /usr/share/java/jheaps.jar`: an absolute URL path,
    // which resolves to itself.
    let jgrapht = Path::new("/usr/share/java/jgrapht-core.jar");
    let cp = ClassPath::open(&[jgrapht.to_path_buf()]).unwrap();
    let paths: Vec<&Path> = cp.entries().iter().map(|e| e.path()).collect();
    assert_eq!(paths, [jgrapht, Path::new("/usr/share/java/jheaps.jar")]);
    assert!(cp.contains("org/jgrapht/Graph"));
    assert!(cp.contains("org/jheaps/AddressableHeap"));
}

#[test]
fn jmod_and_mixed_classpath() {
    let jmod = test_support::java_base_jmod();
    let cp_str = format!("{}::{}:/usr/share/java/commons-cli.jar", fixtures_dir().display(), jmod.display());
    let cp = ClassPath::from_classpath_string(&cp_str).unwrap();
    assert_eq!(cp.entries().len(), 3);
    let obj = ClassFile::parse(&cp.class_bytes("java/lang/Object").unwrap().unwrap()).unwrap();
    assert_eq!((obj.name().as_ref(), obj.super_name()), ("java/lang/Object", None));
    assert!(cp.contains("org/apache/commons/cli/Options"));
    // module-info is a class file of the jmod but not a class name on the path.
    assert!(!cp.contains("module-info"));
    let base = ClassPathEntry::open(&jmod).unwrap();
    let mi = base.class_files().map(Result::unwrap).find(|(n, _)| n == "module-info").unwrap();
    assert_eq!(ClassFile::parse(&mi.1).unwrap().name(), "module-info");
    assert!(base.class_file_count() > 6000);
    assert!(base.is_jmod());
    assert!(!cp.entries()[0].is_jmod());
}

#[test]
fn classpath_is_a_plain_shareable_value() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<ClassPath>();
    assert_send_sync::<ClassFile>();
    assert_send_sync::<Error>();
}

/// Archives are read lazily through one shared file handle with positioned reads: lookups from
/// several threads at once, interleaved, give exactly the bytes a sequential read gives (a shared
/// seek position would mix entries up).
#[test]
fn concurrent_lookups_read_the_same_bytes() {
    let jmod = test_support::java_base_jmod();
    let cp_str = format!("{}:/usr/share/java/commons-cli.jar", jmod.display());
    let cp = ClassPath::from_classpath_string(&cp_str).unwrap();
    let names: Vec<&str> = ["java/lang/String", "java/util/HashMap", "org/apache/commons/cli/Options"]
        .into_iter()
        .chain(cp.class_names().filter(|n| n.starts_with("java/util/concurrent/")).take(40))
        .collect();
    let sequential: Vec<Vec<u8>> = names.iter().map(|n| cp.class_bytes(n).unwrap().unwrap()).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let (cp, names) = (&cp, &names);
                s.spawn(move || {
                    // Each thread walks the names from a different start, so reads interleave.
                    (0..names.len())
                        .map(|k| {
                            let i = (k + t * 7) % names.len();
                            (i, cp.class_bytes(names[i]).unwrap().unwrap())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (i, bytes) in h.join().unwrap() {
                assert_eq!(bytes, sequential[i], "{}", names[i]);
            }
        }
    });
    assert!(sequential.iter().all(|b| b.starts_with(&[0xCA, 0xFE, 0xBA, 0xBE])));
}

#[test]
fn bad_entries_are_typed_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nope.jar");
    assert!(matches!(ClassPath::open(&[missing]), Err(Error::Io { .. })));
    let text = tmp.path().join("notes.txt");
    std::fs::write(&text, "hello").unwrap();
    assert!(matches!(ClassPath::open(&[text]), Err(Error::NotAContainer { .. })));
    let jar = tmp.path().join("broken.jar");
    std::fs::write(&jar, b"PK\x03\x04 not really a zip").unwrap();
    let err = ClassPath::open(&[jar]).unwrap_err();
    assert!(matches!(err, Error::Zip { .. }), "{err}");
    assert!(err.to_string().contains("broken.jar"), "{err}");
}

/// The dependency scan leaves signed and sealed jars alone (a rewritten copy of one of
/// their classes would be refused by the JVM) and classes with multi-release variants, and reads
/// each class's constant pool on its own.
#[test]
fn signed_and_sealed_jars_are_told_and_constant_pools_read_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let outer = fixture_bytes("classfile/Outer");
    let plain = tmp.path().join("plain.jar");
    write_jar(&plain, &[("classfile/Outer", &outer)], Some("Manifest-Version: 1.0\nSealed: false\n"));
    let sealed = tmp.path().join("sealed.jar");
    let manifest = "Manifest-Version: 1.0\n\nName: classfile/\nSealed: true\n";
    write_jar(&sealed, &[("classfile/Outer", &outer)], Some(manifest));
    let signed = tmp.path().join("signed.jar");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&signed).unwrap());
    z.start_file("META-INF/SIGNER.SF", SimpleFileOptions::default()).unwrap();
    z.write_all(b"Signature-Version: 1.0\n").unwrap();
    z.start_file("classfile/Outer.class", SimpleFileOptions::default()).unwrap();
    z.write_all(&outer).unwrap();
    z.finish().unwrap();
    let told = |p: &Path| ClassPathEntry::open(p).unwrap().is_signed_or_sealed();
    assert!(!told(&plain));
    assert!(told(&sealed));
    assert!(told(&signed));
    assert!(!told(&fixtures_dir()));

    let multi = tmp.path().join("multi.jar");
    write_jar(&multi, &[("classfile/Outer", &outer), ("META-INF/versions/11/classfile/Outer", &outer)], None);
    assert!(ClassPathEntry::open(&multi).unwrap().is_versioned("classfile/Outer"));
    assert!(!ClassPathEntry::open(&multi).unwrap().is_versioned("classfile/Other"));

    let entry = ClassPathEntry::open(&plain).unwrap();
    assert!(!entry.is_versioned("classfile/Outer"));
    let classes: Vec<String> = entry.classes().map(|c| c.unwrap().0).collect();
    assert_eq!(classes, ["classfile/Outer"]);
    assert!(!entry.is_jmod());
    let pool = ClassFile::read_constant_pool(&outer).unwrap();
    assert_eq!(pool, ClassFile::parse(&outer).unwrap().constant_pool);
    assert!(ClassFile::read_constant_pool(&outer[..20]).is_err());
}
