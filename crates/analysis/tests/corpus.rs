//! Corpus test: CFG, dominators (fast and reference, compared), post-dominators (likewise),
//! control dependences and branch goals for every method of guava and commons-lang3 (Debian jars).
//! It must not panic, and the analyses must be internally consistent: every block has an
//! immediate post-dominator, every reachable block but the entry an immediate dominator, and
//! every goal's edge leaves a conditional jump or switch. Prints counts and time.

use std::time::Instant;

use analysis::branch_goals::BranchGoal;
use analysis::method::MethodAnalysis;
use analysis::{DomTree, PostDomTree};
use classfile::{ClassFile, ClassPathEntry};

#[derive(Default, Debug)]
struct Counts {
    classes: usize,
    methods: usize,
    blocks: usize,
    edges: usize,
    goals: usize,
    virtual_exits: usize,
    analysis_time: std::time::Duration,
    reference_time: std::time::Duration,
    decode_errors: Vec<String>,
}

fn analyse_jar(path: &str, counts: &mut Counts) {
    let entry = ClassPathEntry::open(std::path::Path::new(path)).expect("jar opens");
    for res in entry.class_files() {
        let (file, bytes) = res.expect("readable");
        let class = ClassFile::parse(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        counts.classes += 1;
        let cp = &class.constant_pool;
        for m in &class.methods {
            let Some(code) = m.code(cp) else { continue };
            let code = code.unwrap_or_else(|e| panic!("{file}: {e}"));
            let body = match bytecode::decode(&code, cp) {
                Ok(b) => b,
                Err(e) => {
                    counts.decode_errors.push(format!("{file}.{:?}: {e}", m.name(cp)));
                    continue;
                }
            };
            let t0 = Instant::now();
            let a = MethodAnalysis::compute(&body);
            let t1 = Instant::now();
            let g = a.cfg.graph();
            let (dom_ref, pdom_ref) = (DomTree::compute_reference(g), PostDomTree::compute_reference(g));
            counts.analysis_time += t1 - t0;
            counts.reference_time += t1.elapsed();
            assert_eq!(a.dominators, dom_ref, "{file}.{:?}", m.name(cp));
            assert_eq!(a.post_dominators, pdom_ref, "{file}.{:?}", m.name(cp));
            for b in a.cfg.block_ids() {
                assert!(a.post_dominators.ipdom(b.node()).is_some());
                let reachable = a.dominators.is_reachable(b.node());
                assert_eq!(a.dominators.idom(b.node()).is_some(), reachable && b.0 != 0);
            }
            for goal in &a.branch_goals {
                if let BranchGoal::Branch { insn, edge, .. } = goal {
                    let i = &body.insns[insn.index()];
                    assert!(i.is_conditional() || i.is_switch());
                    assert_eq!(a.cfg.edge(*edge).from, a.cfg.block_of(*insn));
                }
            }
            counts.methods += 1;
            counts.blocks += a.cfg.blocks().len();
            counts.edges += a.cfg.edges().len();
            counts.goals += a.branch_goals.len();
            counts.virtual_exits += a.post_dominators.virtual_exits().len();
        }
    }
}

#[test]
fn guava_and_commons_lang3() {
    let start = Instant::now();
    let mut counts = Counts::default();
    for jar in ["/usr/share/java/guava.jar", "/usr/share/java/commons-lang3.jar"] {
        analyse_jar(jar, &mut counts);
    }
    let elapsed = start.elapsed();
    eprintln!(
        "corpus: {} classes, {} methods, {} blocks, {} edges, {} branch goals, {} virtual exits, {} decode errors in {:.2?} (all analyses {:.2?}, reference dominators {:.2?})",
        counts.classes,
        counts.methods,
        counts.blocks,
        counts.edges,
        counts.goals,
        counts.virtual_exits,
        counts.decode_errors.len(),
        elapsed,
        counts.analysis_time,
        counts.reference_time
    );
    assert!(
        counts.decode_errors.is_empty(),
        "{:?}",
        &counts.decode_errors[..counts.decode_errors.len().min(10)]
    );
    assert!(counts.methods > 15_000, "{counts:?}");
}
