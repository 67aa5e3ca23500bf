//! Detection on real code (commons-lang3 and guava, Debian jars): every method analysed as a
//! method under test must not panic, and what it reports must be consistent (a flag branch is a
//! conditional jump on an invoke returning `boolean`; each required branch of a flag method is a
//! conditional jump of that method; the fitness spec knows the control dependences of every
//! required node). Prints the prevalence, to compare with paper 001 §4.2
//! (11.8 % of the methods with branches have an interprocedural flag; per project mean 14.4 %).

use std::path::PathBuf;

use bytecode::Insn;
use flags::fitness::Required;
use flags::{FlagConfig, PathSource, Via};

#[test]
fn commons_lang3_and_guava() {
    let config = FlagConfig::standard();
    let mut lines = Vec::new();
    for jar in ["/usr/share/java/commons-lang3.jar", "/usr/share/java/guava.jar"] {
        let db = test_support::open_db(&[PathBuf::from(jar)]);
        let (mut with_branches, mut with_flags, mut with_local_flags, mut branches) = (0, 0, 0, 0);
        for c in db.class_ids().collect::<Vec<_>>() {
            for m in db.methods(c).collect::<Vec<_>>() {
                let Some(Ok(body)) = db.body(m) else { continue };
                if !body.insns.iter().any(Insn::is_conditional) {
                    continue;
                }
                with_branches += 1;
                let a = flags::analyze(&db, m, &config);
                for b in &a.branches {
                    assert!(body.insns[b.branch.index()].is_conditional());
                    let site = db.callees(m, b.call).expect("an invoke");
                    assert!(site.descriptor.ends_with(")Z"), "{}", site.descriptor);
                }
                for f in &a.flag_methods {
                    let Some(Ok(fb)) = db.body(f.method) else { panic!("summarised without code") };
                    for p in f.returns.iter().flatten() {
                        if let PathSource::Constant { via, .. } = &p.source {
                            for v in via {
                                if let Via::Branch { insn, .. } = v {
                                    assert!(fb.insns[insn.index()].is_conditional());
                                }
                            }
                        }
                    }
                }
                let index = flags::spec::specs(&db, &a);
                for spec in index.specs.methods.values() {
                    for r in spec.required.iter().flatten() {
                        if let Required::Branch { insn, .. } | Required::Call { call: insn, .. } = r {
                            assert!(spec.deps.contains_key(insn), "a required node without its dependences");
                        }
                    }
                }
                branches += a.branches.len();
                with_flags += usize::from(!a.branches.is_empty());
                with_local_flags += usize::from(a.branches.iter().any(|b| !b.targets.is_empty()));
            }
        }
        let pct = |n: usize| 100.0 * n as f64 / with_branches.max(1) as f64;
        lines.push(format!(
            "{jar}: {with_branches} methods with branches, {with_flags} ({:.1} %) with a flag branch, {with_local_flags} ({:.1} %) with one whose flag method is in the jar; {branches} flag branches",
            pct(with_flags),
            pct(with_local_flags)
        ));
        assert!(with_branches > 1_000 && with_flags > 0 && with_local_flags > 0);
    }
    eprintln!("{}", lines.join("\n"));
}
