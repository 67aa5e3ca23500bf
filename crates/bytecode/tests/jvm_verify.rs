//! Rewrites the bytecode fixture classes (a probe before every instruction), writes them to a
//! temporary directory and runs them with `java -Xverify:all`: the verifier must accept every
//! rewritten method and the program must print what the original prints. Methods that cannot be
//! rewritten (`NeedsFrames`, `TooLarge`) are kept unchanged and listed in a snapshot.

// Tests start `java`/`javac` themselves; in the engine only the worker crate spawns processes.
#![allow(clippy::disallowed_methods)]

mod common;

use std::process::Command;

use bytecode::{EncodeError, Insn, InsnIdx, MethodContext, Opcode, decode, encode_method};
use classfile::ClassFile;
use expect_test::expect;

/// The probe inserted before instruction `i`.
type Probe = fn(usize) -> Vec<Insn>;

fn nop_probe(_: usize) -> Vec<Insn> {
    vec![Insn::Simple(Opcode::NOP)]
}

/// A stack-using probe: push the instruction index and pop it (needs one more stack slot).
fn push_pop_probe(i: usize) -> Vec<Insn> {
    vec![Insn::push_int(i as i32).expect("index fits sipush"), Insn::Simple(Opcode::POP)]
}

/// Rewrites every fixture class into `out`; returns the methods left unchanged and why, and the
/// notes of rewritten ones.
fn rewrite_fixtures(out: &std::path::Path, probe: Probe) -> Vec<String> {
    let mut unchanged = Vec::new();
    let src = common::fixture_dir().join("bytecode");
    std::fs::create_dir_all(out.join("bytecode")).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&src).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for path in files {
        let mut class = ClassFile::parse(&std::fs::read(&path).unwrap()).unwrap();
        let mut cp = class.constant_pool.clone();
        for mi in 0..class.methods.len() {
            let ctx = MethodContext::new(&class, &class.methods[mi]).unwrap();
            let m = &mut class.methods[mi];
            let name = format!("{}.{}", class_name(&path), m.name(&cp).unwrap());
            let Some(pos) =
                m.attributes.iter().position(|a| cp.utf8(a.name_index).as_deref() == Some("Code"))
            else {
                continue;
            };
            let code = classfile::Code::parse(&m.attributes[pos].info).unwrap();
            let mut body = decode(&code, &cp).unwrap();
            let at = (0..body.insns.len()).map(|i| (InsnIdx::new(i), probe(i))).collect();
            body.insert_before(at).unwrap();
            body.raise_max_stack(code.max_stack + 1);
            match encode_method(&body, &mut cp, &ctx) {
                Ok((new_code, notes)) => {
                    m.attributes[pos].info = new_code.to_bytes();
                    for note in notes {
                        unchanged.push(format!("{name}: rewritten, {note:?}"));
                    }
                }
                Err(e @ (EncodeError::NeedsFrames { .. } | EncodeError::TooLarge { .. })) => {
                    unchanged.push(format!("{name}: {e}"))
                }
                Err(e) => panic!("{name}: {e}"),
            }
        }
        class.constant_pool = cp;
        std::fs::write(out.join("bytecode").join(path.file_name().unwrap()), class.to_bytes()).unwrap();
    }
    unchanged
}

fn class_name(path: &std::path::Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

fn run_main(cp: &std::path::Path) -> String {
    let java = common::java_home().join("bin/java");
    let out =
        Command::new(java).arg("-Xverify:all").arg("-cp").arg(cp).arg("bytecode.Main").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "java failed on {}: {stderr}", cp.display());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn rewritten_fixtures_verify_and_behave_the_same() {
    let expected = run_main(&common::fixture_dir());
    let dir = tempfile::tempdir().unwrap();

    let nops = dir.path().join("nops");
    let unchanged = rewrite_fixtures(&nops, nop_probe);
    assert_eq!(run_main(&nops), expected);
    expect![[r#"
        LongJump.medium: rewritten, WidenedJumps { count: 1 }
        LongJump.topExit: rewritten, WidenedJumps { count: 1 }
        LongJump.rich: rewritten, WidenedJumps { count: 1 }
    "#]]
    .assert_eq(&(unchanged.join("\n") + "\n"));

    let probes = dir.path().join("probes");
    let unchanged = rewrite_fixtures(&probes, push_pop_probe);
    assert_eq!(run_main(&probes), expected);
    expect![[r#"
        LongJump.medium: code would be 94392 bytes, more than 65535
        LongJump.topExit: code would be 94395 bytes, more than 65535
        LongJump.large: code would be 141704 bytes, more than 65535
        LongJump.rich: code would be 101335 bytes, more than 65535
    "#]]
    .assert_eq(&(unchanged.join("\n") + "\n"));
}
