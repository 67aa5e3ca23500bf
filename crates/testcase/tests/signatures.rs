//! The JVMS §4.7.9.1 signature parser on real class files: every `Signature` attribute of
//! `java.base` and of guava parses, and every descriptor too (JVMS §4.3).

use classfile::{ClassFile, ClassPath};
use testcase::types::{parse_class_sig, parse_field_type, parse_method_sig};

fn signature_of(cf: &ClassFile, attrs: &[classfile::Attribute]) -> Option<String> {
    let cp = &cf.constant_pool;
    let a = attrs.iter().find(|a| cp.utf8(a.name_index).as_deref() == Some("Signature"))?;
    let idx = u16::from_be_bytes([a.info[0], a.info[1]]);
    cp.utf8(idx).map(|s| s.into_owned())
}

/// Parses every signature and descriptor of every class; returns (signatures, descriptors, failures).
fn parse_all(cp: &ClassPath) -> (usize, usize, Vec<String>) {
    let (mut sigs, mut descs, mut failures) = (0, 0, Vec::new());
    for name in cp.class_names().map(str::to_owned).collect::<Vec<_>>() {
        if name.ends_with("module-info") {
            continue;
        }
        let bytes = cp.class_bytes(&name).expect("readable").expect("present");
        let cf = ClassFile::parse(&bytes).expect("parses");
        let cpool = &cf.constant_pool;
        if let Some(s) = signature_of(&cf, &cf.attributes) {
            sigs += 1;
            if let Err(e) = parse_class_sig(&s) {
                failures.push(format!("{name}: {e}"));
            }
        }
        for m in &cf.methods {
            descs += 1;
            let d = m.descriptor(cpool).expect("descriptor");
            if let Err(e) = parse_method_sig(&d) {
                failures.push(format!("{name}: {e}"));
            }
            if let Some(s) = signature_of(&cf, &m.attributes) {
                sigs += 1;
                if let Err(e) = parse_method_sig(&s) {
                    failures.push(format!("{name}: {e}"));
                }
            }
        }
        for f in &cf.fields {
            descs += 1;
            let d = f.descriptor(cpool).expect("descriptor");
            if let Err(e) = parse_field_type(&d) {
                failures.push(format!("{name}: {e}"));
            }
            if let Some(s) = signature_of(&cf, &f.attributes) {
                sigs += 1;
                if let Err(e) = parse_field_type(&s) {
                    failures.push(format!("{name}: {e}"));
                }
            }
        }
    }
    (sigs, descs, failures)
}

#[test]
fn every_signature_of_java_base_and_guava_parses() {
    for path in [test_support::java_base_jmod(), "/usr/share/java/guava.jar".into()] {
        let cp = ClassPath::open(std::slice::from_ref(&path)).expect("opens");
        let (sigs, descs, failures) = parse_all(&cp);
        println!("{}: {sigs} signatures, {descs} descriptors, {} failures", path.display(), failures.len());
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(sigs > 1000);
    }
}
