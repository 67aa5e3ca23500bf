//! CFG construction on hand-built bodies for what javac no longer emits: `jsr`/`ret` subroutines
//! (class files before version 50), a `tableswitch` whose cases share a target, a protected range
//! that starts and ends inside straight-line code, and an empty body.

use analysis::method::MethodAnalysis;
use bytecode::{Handler, Insn, InsnIdx, MethodBody, Opcode};
use classfile::ConstantPool;
use expect_test::{Expect, expect};

fn check(body: &MethodBody, expect: Expect) {
    let a = MethodAnalysis::compute(body);
    expect.assert_eq(&analysis::text::render("method test", body, &a, &ConstantPool::new()));
}

fn local(op: Opcode, var: u16) -> Insn {
    Insn::Local { op, var, wide: false }
}

#[test]
fn jsr_and_ret() {
    // try { x = 1 } finally { x = 2 }, compiled the pre-Java-6 way with a subroutine at 7.
    let mut body = MethodBody::new(
        1,
        3,
        vec![
            Insn::Simple(Opcode::ICONST_1),                       // 0
            local(Opcode::ISTORE_0, 0),                           // 1
            Insn::Branch { op: Opcode::JSR, target: InsnIdx(7) }, // 2
            Insn::Simple(Opcode::RETURN),                         // 3
            local(Opcode::ASTORE_1, 1),                           // 4 (handler)
            Insn::Branch { op: Opcode::JSR, target: InsnIdx(7) }, // 5
            Insn::Simple(Opcode::ATHROW),                         // 6 (stack shape aside)
            local(Opcode::ASTORE_2, 2),                           // 7 (subroutine)
            Insn::Simple(Opcode::ICONST_2),                       // 8
            local(Opcode::ISTORE_0, 0),                           // 9
            local(Opcode::RET, 2),                                // 10
        ],
    );
    body.handlers.push(Handler { start: InsnIdx(0), end: InsnIdx(2), handler: InsnIdx(4), catch_type: 0 });
    check(
        &body,
        expect![[r#"
            method test

            blocks:
              B0 [0..2) lines -
                   0: iconst_1
                   1: istore_0
              B1 [2..3) lines -
                   2: jsr 7
              B2 [3..4) lines -
                   3: return
              B3 [4..6) lines -
                   4: astore_1
                   5: jsr 7
              B4 [6..7) lines -
                   6: athrow
              B5 [7..11) lines -
                   7: astore_2
                   8: iconst_2
                   9: istore_0
                  10: ret 2

            handlers:
              h0 [0..2) -> 4 catch any

            edges:
              e0 B0 -> B1 fallthrough
              e1 B0 -> B3 exception h0
              e2 B1 -> B5 jsr
              e3 B3 -> B5 jsr
              e4 B5 -> B2 ret
              e5 B5 -> B4 ret

            dominator tree:
              B0
                B1
                B3
                B5
                  B2
                  B4

            post-dominator tree:
              exit
                B2
                B4
                B5
                  B0
                  B1
                  B3

            control dependences:
              B0: entry
              B1: e0 (B0 -> B1 fallthrough)
              B2: e4 (B5 -> B2 ret)
              B3: e1 (B0 -> B3 exception h0)
              B4: e5 (B5 -> B4 ret)
              B5: entry

            goal dependences:
              B0: entry
              B1: entry
              B2: entry
              B3: entry
              B4: entry
              B5: entry

            branch goals:
              g0 root
        "#]],
    );
}

#[test]
fn shared_switch_targets_and_mid_block_range() {
    let mut body = MethodBody::new(
        2,
        1,
        vec![
            Insn::Simple(Opcode::NOP), // 0
            Insn::Simple(Opcode::NOP), // 1
            Insn::Simple(Opcode::NOP), // 2
            local(Opcode::ILOAD_0, 0), // 3
            Insn::TableSwitch { default: InsnIdx(6), low: 5, targets: vec![InsnIdx(5), InsnIdx(5)] }, // 4
            Insn::Simple(Opcode::RETURN), // 5
            Insn::Simple(Opcode::RETURN), // 6
        ],
    );
    body.handlers.push(Handler { start: InsnIdx(1), end: InsnIdx(3), handler: InsnIdx(6), catch_type: 0 });
    check(
        &body,
        expect![[r#"
            method test

            blocks:
              B0 [0..1) lines -
                   0: nop
              B1 [1..3) lines -
                   1: nop
                   2: nop
              B2 [3..5) lines -
                   3: iload_0
                   4: tableswitch { 5: 5, 6: 5, default: 6 }
              B3 [5..6) lines -
                   5: return
              B4 [6..7) lines -
                   6: return

            handlers:
              h0 [1..3) -> 6 catch any

            edges:
              e0 B0 -> B1 fallthrough
              e1 B1 -> B2 fallthrough
              e2 B1 -> B4 exception h0
              e3 B2 -> B3 case 5
              e4 B2 -> B3 case 6
              e5 B2 -> B4 default

            dominator tree:
              B0
                B1
                  B2
                    B3
                  B4

            post-dominator tree:
              exit
                B1
                  B0
                B2
                B3
                B4

            control dependences:
              B0: entry
              B1: entry
              B2: e1 (B1 -> B2 fallthrough)
              B3: e3 (B2 -> B3 case 5), e4 (B2 -> B3 case 6)
              B4: e2 (B1 -> B4 exception h0), e5 (B2 -> B4 default)

            goal dependences:
              B0: entry
              B1: entry
              B2: entry
              B3: g0, g1
              B4: entry, g2

            branch goals:
              g0 @4 tableswitch line - case 5 (B2 e3 -> B3)
              g1 @4 tableswitch line - case 6 (B2 e4 -> B3)
              g2 @4 tableswitch line - default (B2 e5 -> B4)
        "#]],
    );
}

#[test]
fn empty_body() {
    check(
        &MethodBody::new(0, 0, Vec::new()),
        expect![[r#"
            method test

            blocks:

            edges:

            dominator tree:

            post-dominator tree:
              exit

            control dependences:

            goal dependences:

            branch goals:
              g0 root
        "#]],
    );
}
