//! Data dependence and the program dependence graph: hand-built bodies whose producers are
//! known (merges, loops, `dup*` and `swap` around one- and two-word values); a snapshot of
//! `pdg::render` for every method of the `flags` fixture area and of three `analysis` fixture
//! classes (handlers, loops, switches), in `test_data_deps/<Class>.txt` (refresh with
//! `UPDATE_EXPECT=1`); and, on the guava and commons-lang3 jars, the invariants every verified
//! method must satisfy (no operand without a producer, every producer is reachable, every read
//! local has a definition, consumers are the inverse of producers). Everywhere, the block-level
//! analysis equals the instruction-level reference (`DataDeps::compute_reference`).

use std::path::Path;

use analysis::cfg::Cfg;
use analysis::data_deps::{DataDeps, LocalDef, StackDef, Use};
use analysis::pdg::{self, Pdg};
use analysis::{ControlDeps, PostDomTree};
use bytecode::{Insn, InsnIdx, MethodBody, Opcode};
use classfile::{ClassFile, ClassPathEntry, ConstantPool};

fn at(i: u32) -> InsnIdx {
    InsnIdx(i)
}

fn simple(op: Opcode) -> Insn {
    Insn::Simple(op)
}

fn local(op: Opcode, var: u16) -> Insn {
    Insn::Local { op, var, wide: false }
}

fn branch(op: Opcode, target: u32) -> Insn {
    Insn::Branch { op, target: at(target) }
}

fn deps(insns: Vec<Insn>, max_locals: u16) -> (MethodBody, DataDeps, Pdg) {
    let body = MethodBody::new(8, max_locals, insns);
    let cfg = Cfg::compute(&body);
    let data = DataDeps::compute(&body, &cfg, &ConstantPool::new());
    assert_eq!(data, DataDeps::compute_reference(&body, &ConstantPool::new()));
    let pdom = PostDomTree::compute(cfg.graph());
    let cd = ControlDeps::compute(cfg.graph(), &pdom);
    let pdg = Pdg::compute(&body, &cfg, &cd, &data);
    (body, data, pdg)
}

fn render(insns: Vec<Insn>, max_locals: u16) -> String {
    let (body, data, pdg) = deps(insns, max_locals);
    pdg::render("method", &body, &data, &pdg)
}

#[test]
fn two_word_values_through_dup2_and_swap() {
    let text = render(
        vec![
            simple(Opcode::LCONST_1),
            simple(Opcode::DUP2),
            simple(Opcode::LADD),
            simple(Opcode::L2I),
            simple(Opcode::ICONST_2),
            simple(Opcode::SWAP),
            simple(Opcode::ISUB),
            simple(Opcode::IRETURN),
        ],
        0,
    );
    expect_test::expect![[r#"
        method
          0: lconst_1
          1: dup2
          2: ladd  ops [0 | 0]
          3: l2i  ops [2]
          4: iconst_2
          5: swap
          6: isub  ops [4 | 3]
          7: ireturn  ops [6]
    "#]]
    .assert_eq(&text);
}

#[test]
fn dup_x2_under_an_array_store() {
    // v = x; a[0] = v; return v, as javac emits `return a[0] = x;`.
    let text = render(
        vec![
            local(Opcode::ALOAD_0, 0),
            simple(Opcode::ICONST_0),
            local(Opcode::ILOAD_1, 1),
            simple(Opcode::DUP_X2),
            simple(Opcode::IASTORE),
            simple(Opcode::IRETURN),
        ],
        2,
    );
    expect_test::expect![[r#"
        method
          0: aload_0  local [entry 0]
          1: iconst_0
          2: iload_1  local [entry 1]
          3: dup_x2
          4: iastore  ops [0 | 1 | 2]
          5: ireturn  ops [2]
    "#]]
    .assert_eq(&text);
}

#[test]
fn merged_constants_reach_the_return() {
    // return x != 0 ? 1 : 0, javac's shape of `return flag;` after a branch.
    let (_, data, pdg) = deps(
        vec![
            local(Opcode::ILOAD_0, 0),
            branch(Opcode::IFEQ, 4),
            simple(Opcode::ICONST_1),
            branch(Opcode::GOTO, 5),
            simple(Opcode::ICONST_0),
            simple(Opcode::IRETURN),
        ],
        1,
    );
    assert_eq!(data.producers(at(5), 0), &[StackDef::Insn(at(2)), StackDef::Insn(at(4))]);
    assert_eq!(data.producers(at(1), 0), &[StackDef::Insn(at(0))]);
    assert_eq!(data.consumers(at(2)), &[Use { insn: at(5), operand: 0 }]);
    assert_eq!(data.reaching_defs(at(0)), &[LocalDef::Entry { var: 0 }]);
    assert_eq!(pdg.control_insns(at(2)), &[at(1)]);
    assert_eq!(pdg.control_insns(at(5)), &[] as &[InsnIdx]);
    assert_eq!(pdg.backward_slice(at(5)), vec![at(0), at(1), at(2), at(4), at(5)]);
}

#[test]
fn reaching_definitions_around_a_loop() {
    // int i = 0; while (i < 10) i++; return i;
    let text = render(
        vec![
            simple(Opcode::ICONST_0),
            local(Opcode::ISTORE_1, 1),
            local(Opcode::ILOAD_1, 1),
            Insn::Push { op: Opcode::BIPUSH, value: 10 },
            branch(Opcode::IF_ICMPGE, 7),
            Insn::Iinc { var: 1, delta: 1, wide: false },
            branch(Opcode::GOTO, 2),
            local(Opcode::ILOAD_1, 1),
            simple(Opcode::IRETURN),
            simple(Opcode::NOP),
        ],
        2,
    );
    expect_test::expect![[r#"
        method
          0: iconst_0
          1: istore_1  ops [0]
          2: iload_1  local [1, 5]  ctrl [4]
          3: bipush 10  ctrl [4]
          4: if_icmpge 7  ops [2 | 3]  ctrl [4]
          5: iinc 1 1  local [1, 5]  ctrl [4]
          6: goto 2  ctrl [4]
          7: iload_1  local [1, 5]
          8: ireturn  ops [7]
          9: nop (unreachable)
    "#]]
    .assert_eq(&text);
}

#[test]
fn a_long_store_clobbers_the_next_slot() {
    // Slot 1 held an int; storing a long into slot 0 overwrites slots 0 and 1.
    let (_, data, _) = deps(
        vec![
            simple(Opcode::ICONST_1),
            local(Opcode::ISTORE_1, 1),
            simple(Opcode::LCONST_0),
            local(Opcode::LSTORE_0, 0),
            local(Opcode::LLOAD_0, 0),
            simple(Opcode::LRETURN),
        ],
        2,
    );
    assert_eq!(data.reaching_defs(at(4)), &[LocalDef::Store(at(3))]);
    assert_eq!(data.local_uses(at(3)), &[at(4)]);
    assert_eq!(data.local_uses(at(1)), &[] as &[InsnIdx]);
    assert_eq!(data.producers(at(5), 0), &[StackDef::Insn(at(4))]);
}

#[test]
fn a_subroutine_returns_through_ret() {
    // Before class-file version 50: `jsr` pushes the return address, the subroutine stores it and
    // `ret` reads it back; the code after `jsr` is reached through `ret` alone.
    let text = render(
        vec![
            branch(Opcode::JSR, 3),
            local(Opcode::ILOAD_0, 0),
            simple(Opcode::IRETURN),
            local(Opcode::ASTORE_1, 1),
            local(Opcode::RET, 1),
        ],
        2,
    );
    expect_test::expect![[r#"
        method
          0: jsr 3
          1: iload_0  local [entry 0]
          2: ireturn  ops [1]
          3: astore_1  ops [0]
          4: ret 1  local [3]
    "#]]
    .assert_eq(&text);
}

fn snapshot_class(class: &ClassFile, dir: &Path) {
    let cp = &class.constant_pool;
    let name = class.name();
    let simple = name.rsplit('/').next().unwrap_or(&name).to_owned();
    let mut text = String::new();
    for m in &class.methods {
        let Some(code) = m.code(cp) else { continue };
        let body = bytecode::decode(&code.expect("Code parses"), cp).expect("method decodes");
        let cfg = Cfg::compute(&body);
        let data = DataDeps::compute(&body, &cfg, cp);
        assert_eq!(data, DataDeps::compute_reference(&body, cp));
        let pdom = PostDomTree::compute(cfg.graph());
        let cd = ControlDeps::compute(cfg.graph(), &pdom);
        let pdg = Pdg::compute(&body, &cfg, &cd, &data);
        let header =
            format!("method {}{}", m.name(cp).unwrap_or_default(), m.descriptor(cp).unwrap_or_default());
        text.push_str(&pdg::render(&header, &body, &data, &pdg));
        text.push('\n');
    }
    expect_test::expect_file![dir.join(format!("{simple}.txt"))].assert_eq(&text);
}

#[test]
fn fixture_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("test_data_deps");
    let fixtures = root.join("../../fixtures/classes");
    let flags = ClassPathEntry::open(&fixtures.join("flags")).expect("flags fixtures");
    let mut n = 0;
    for res in flags.class_files() {
        let (_, bytes) = res.expect("readable");
        snapshot_class(&ClassFile::parse(&bytes).expect("parses"), &dir);
        n += 1;
    }
    assert!(n >= 12, "only {n} classes");
    for name in ["Exceptions", "Loops", "Switches"] {
        let bytes =
            std::fs::read(fixtures.join(format!("analysis/analysis/{name}.class"))).expect("fixture class");
        snapshot_class(&ClassFile::parse(&bytes).expect("parses"), &dir);
    }
}

/// The invariants of `DataDeps` on one method; returns the number of operand edges.
fn check_method(body: &MethodBody, cp: &ConstantPool, what: &str) -> usize {
    let cfg = Cfg::compute(body);
    let data = DataDeps::compute(body, &cfg, cp);
    assert_eq!(data, DataDeps::compute_reference(body, cp), "{what}: block and reference analyses differ");
    let mut edges = 0;
    for (i, insn) in body.insns.iter().enumerate() {
        let here = InsnIdx::new(i);
        if !data.is_reachable(here) {
            continue;
        }
        for (k, defs) in data.operands(here).iter().enumerate() {
            assert!(!defs.is_empty(), "{what} @{i}: operand {k} has no producer");
            for d in defs.iter() {
                edges += 1;
                if let StackDef::Insn(p) = d {
                    assert!(data.is_reachable(*p), "{what} @{i}: unreachable producer {p}");
                    let u = Use { insn: here, operand: k as u16 };
                    assert!(data.consumers(*p).contains(&u), "{what} @{i}: consumer edge missing");
                }
            }
        }
        let reads =
            insn.local_var().is_some() && !insn.op().local_access().is_some_and(|(_, store, _)| store);
        assert_eq!(reads, !data.reaching_defs(here).is_empty(), "{what} @{i}: reaching definitions");
    }
    edges
}

#[test]
fn corpus_invariants() {
    let mut methods = 0;
    let mut edges = 0;
    for jar in ["/usr/share/java/guava.jar", "/usr/share/java/commons-lang3.jar"] {
        let entry = ClassPathEntry::open(Path::new(jar)).expect("jar opens");
        for res in entry.class_files() {
            let (file, bytes) = res.expect("readable");
            let class = ClassFile::parse(&bytes).expect("parses");
            let cp = &class.constant_pool;
            for m in &class.methods {
                let Some(Ok(code)) = m.code(cp) else { continue };
                let Ok(body) = bytecode::decode(&code, cp) else { continue };
                edges += check_method(&body, cp, &format!("{file}.{:?}", m.name(cp)));
                methods += 1;
            }
        }
    }
    eprintln!("data deps corpus: {methods} methods, {edges} operand edges");
    assert!(methods > 15_000, "{methods}");
}
