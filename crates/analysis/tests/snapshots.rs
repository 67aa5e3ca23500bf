//! Snapshot tests of every analysis on the fixture classes of `fixtures/java/analysis/`: for each
//! method with code, the text dump of `analysis::text::render` (blocks with instructions and lines,
//! edges, dominator and post-dominator trees, control dependences, branch goals) must equal
//! `test_data/<Class>.<method>.txt`. Refresh with `UPDATE_EXPECT=1 cargo test -p analysis`.
//! The fast and reference dominator algorithms are also cross-checked on every method.

use std::collections::BTreeSet;
use std::path::Path;

use analysis::method::MethodAnalysis;
use analysis::{DomTree, PostDomTree};
use classfile::{ClassFile, ClassPathEntry};

/// File-name stem of a method: `<init>` and `<clinit>` lose their brackets.
fn method_stem(name: &str) -> String {
    name.trim_start_matches('<').trim_end_matches('>').to_owned()
}

fn check_class(class: &ClassFile, seen: &mut BTreeSet<String>) {
    let cp = &class.constant_pool;
    let class_name = class.name();
    let simple = class_name.rsplit('/').next().unwrap_or(&class_name).to_owned();
    for m in &class.methods {
        let Some(code) = m.code(cp) else { continue };
        let code = code.expect("Code parses");
        let body = bytecode::decode(&code, cp).expect("method decodes");
        let name = m.name(cp).expect("name").into_owned();
        let desc = m.descriptor(cp).expect("descriptor").into_owned();
        let a = MethodAnalysis::compute(&body);
        assert_eq!(a.dominators, DomTree::compute_reference(a.cfg.graph()));
        assert_eq!(a.post_dominators, PostDomTree::compute_reference(a.cfg.graph()));
        let text = analysis::text::render(&format!("method {class_name}.{name}{desc}"), &body, &a, cp);
        let file = format!("{simple}.{}.txt", method_stem(&name));
        assert!(seen.insert(file.clone()), "two methods map to {file}: rename one in the fixture");
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(&file);
        expect_test::expect_file![path].assert_eq(&text);
    }
}

#[test]
fn fixture_methods() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/analysis");
    let entry = ClassPathEntry::open(&dir).expect("fixture classes");
    let mut seen = BTreeSet::new();
    for res in entry.class_files() {
        let (_, bytes) = res.expect("readable");
        let class = ClassFile::parse(&bytes).expect("parses");
        check_class(&class, &mut seen);
    }
    // Every snapshot file belongs to a method, so renamed methods leave no stale files behind.
    let on_disk: BTreeSet<String> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data"))
            .map(|rd| rd.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
            .unwrap_or_default();
    let stale: Vec<&String> = on_disk.difference(&seen).collect();
    assert!(stale.is_empty(), "stale snapshot files: {stale:?}");
    assert!(seen.len() > 30, "only {} methods", seen.len());
}
