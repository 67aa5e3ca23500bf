//! Hand-assembled corner cases of decoding and encoding (feasibility.md §1.3 lists the ones that
//! broke a prototype): the first frame at offset 0, `_extended` frame promotion, `Uninitialized`
//! remapping, switch padding that depends on the position, `goto_w` widening, the 64 KB limit,
//! `wide` forms, type annotations, and corrupt code that must give errors, not panics.

use bytecode::{
    CodeAttribute, DecodeError, EncodeError, Frame, FrameKind, Insn, InsnIdx, MethodBody, Note, Opcode,
    VType, decode, encode,
};
use classfile::{Attribute, Code, ConstantPool, ExceptionEntry};

struct Names {
    cp: ConstantPool,
    smt: u16,
    lnt: u16,
    rvta: u16,
}

fn names() -> Names {
    let mut cp = ConstantPool::new();
    let smt = cp.intern_utf8("StackMapTable").unwrap();
    let lnt = cp.intern_utf8("LineNumberTable").unwrap();
    let rvta = cp.intern_utf8("RuntimeVisibleTypeAnnotations").unwrap();
    Names { cp, smt, lnt, rvta }
}

fn code(bytes: &[u8], exceptions: Vec<ExceptionEntry>, attributes: Vec<Attribute>) -> Code {
    Code { max_stack: 4, max_locals: 4, code: bytes.to_vec(), exception_table: exceptions, attributes }
}

fn roundtrip(c: &Code, cp: &ConstantPool) -> MethodBody {
    let body = decode(c, cp).expect("decodes");
    let (out, notes) = encode(&body, cp).expect("encodes");
    assert_eq!(out, *c, "unchanged body must encode to the same Code");
    assert!(notes.is_empty());
    body
}

fn nop() -> Insn {
    Insn::Simple(Opcode::NOP)
}

#[test]
fn first_frame_at_offset_zero_and_extended_promotion() {
    let n = names();
    // 0: iinc 0 1; 3: iload_0; 4: ifne 0; 7: iload_0; 8: ifeq 3 (backwards); 11: return
    let bytes = [0x84, 0, 1, 0x1a, 0x9a, 0xff, 0xfc, 0x1a, 0x99, 0xff, 0xfb, 0xb1];
    // Frames at 0 (delta 0, the offset itself) and 3 (delta 3 - 0 - 1 = 2).
    let smt = Attribute { name_index: n.smt, info: vec![0, 2, 0, 2] };
    let c = code(&bytes, vec![], vec![smt]);
    let body = roundtrip(&c, &n.cp);
    assert_eq!(
        body.frames().unwrap(),
        &[
            Frame { at: InsnIdx(0), kind: FrameKind::Same { extended: false } },
            Frame { at: InsnIdx(1), kind: FrameKind::Same { extended: false } }
        ]
    );
    // 70 nops before instruction 1 push the second frame's delta past 63: same -> same_frame_extended.
    let mut edited = body.clone();
    edited.insert_before(vec![(InsnIdx(1), vec![nop(); 70])]).unwrap();
    let (out, _) = encode(&edited, &n.cp).unwrap();
    // The frame of instruction 1 is now at the first inserted nop, byte 3: delta still 2.
    assert_eq!(out.attributes[0].info, vec![0, 2, 0, 2]);
    let mut edited = body.clone();
    edited.insert_before(vec![(InsnIdx(0), vec![nop(); 3]), (InsnIdx(2), vec![nop(); 70])]).unwrap();
    let (out, _) = encode(&edited, &n.cp).unwrap();
    // Frames at 0 (delta 0) and 6 (delta 5); the ifne at 77 jumps back to 0.
    assert_eq!(out.attributes[0].info, vec![0, 2, 0, 5]);
    assert_eq!(&out.code[77..80], &[0x9a, 0xff, 0xb3]);
    let mut edited = body;
    edited.insert_before(vec![(InsnIdx(0), vec![nop(); 70])]).unwrap();
    let (out, _) = encode(&edited, &n.cp).unwrap();
    // Frames at 0 (the first inserted nop) and 73 (the iload_0 after the iinc): delta 72 needs
    // same_frame_extended (251).
    assert_eq!(out.attributes[0].info, vec![0, 2, 0, 251, 0, 72]);
    let again = decode(&out, &n.cp).unwrap();
    assert_eq!(
        again.frames().unwrap()[1],
        Frame { at: InsnIdx(71), kind: FrameKind::Same { extended: true } }
    );
}

#[test]
fn uninitialized_follows_its_new_instruction() {
    let mut n = names();
    let class = n.cp.intern_class("X").unwrap();
    let init = n.cp.intern_methodref("X", "<init>", "(I)V").unwrap();
    let [c0, c1] = class.to_be_bytes();
    let [i0, i1] = init.to_be_bytes();
    // 0: new X; 3: dup; 4: iload_0; 5: ifeq 12; 8: iconst_1; 9: goto 13; 12: iconst_2;
    // 13: invokespecial X.<init>(I)V; 16: areturn
    let bytes = [0xbb, c0, c1, 0x59, 0x1a, 0x99, 0, 7, 0x04, 0xa7, 0, 4, 0x05, 0xb7, i0, i1, 0xb0];
    // Frames: at 12 (delta 12): full [int] stack [U(0), U(0)]; at 13 (delta 0): full [int] stack [U(0), U(0), int].
    let info = vec![
        0, 2, 255, 0, 12, 0, 1, 1, 0, 2, 8, 0, 0, 8, 0, 0, //
        255, 0, 0, 0, 1, 1, 0, 3, 8, 0, 0, 8, 0, 0, 1,
    ];
    let c = code(&bytes, vec![], vec![Attribute { name_index: n.smt, info }]);
    let body = roundtrip(&c, &n.cp);
    let frames = body.frames().unwrap();
    assert_eq!(
        frames[0].kind,
        FrameKind::Full { locals: vec![VType::Integer], stack: vec![VType::Uninitialized(InsnIdx(0)); 2] }
    );
    let mut edited = body.clone();
    let reloc = edited.insert_before(vec![(InsnIdx(0), vec![nop(), nop()])]).unwrap();
    assert_eq!((reloc.entry(InsnIdx(0)), reloc.insn(InsnIdx(0))), (InsnIdx(0), InsnIdx(2)));
    let (out, _) = encode(&edited, &n.cp).unwrap();
    let again = decode(&out, &n.cp).unwrap();
    assert_eq!(
        again.frames().unwrap()[0].kind,
        FrameKind::Full { locals: vec![VType::Integer], stack: vec![VType::Uninitialized(InsnIdx(2)); 2] }
    );
    // In bytes: the Uninitialized offsets are now 2 (the `new`), the frame offset 14.
    assert_eq!(&out.attributes[0].info[..16], &[0, 2, 255, 0, 14, 0, 1, 1, 0, 2, 8, 0, 2, 8, 0, 2]);
}

#[test]
fn switch_padding_depends_on_position() {
    let n = names();
    // 0: iload_0; 1: tableswitch (pad 2) default 28, low 0, high 1, [24, 26]; 24: iconst_0; 25: ireturn;
    // 26: iconst_1; 27: ireturn; 28: iconst_m1; 29: ireturn
    let mut bytes = vec![0x1a, 0xaa, 0, 0];
    for v in [27i32, 0, 1, 23, 25] {
        bytes.extend_from_slice(&v.to_be_bytes());
    }
    bytes.extend_from_slice(&[0x03, 0xac, 0x04, 0xac, 0x02, 0xac]);
    let c = code(&bytes, vec![], vec![]);
    let body = roundtrip(&c, &n.cp);
    assert_eq!(
        body.insns[1],
        Insn::TableSwitch { default: InsnIdx(6), low: 0, targets: vec![InsnIdx(2), InsnIdx(4)] }
    );
    for k in 1..=4usize {
        let mut edited = body.clone();
        edited.insert_before(vec![(InsnIdx(1), vec![nop(); k])]).unwrap();
        let (out, _) = encode(&edited, &n.cp).unwrap();
        let at = 1 + k;
        let pad = 3 - at % 4;
        assert!(out.code[at + 1..at + 1 + pad].iter().all(|b| *b == 0));
        assert_eq!((at + 1 + pad) % 4, 0, "operands aligned");
        let again = decode(&out, &n.cp).unwrap();
        assert_eq!(again.insns, edited.insns);
    }
}

#[test]
fn long_jumps_are_widened_to_a_fixpoint() {
    let n = names();
    // goto over 40000 nops: goto -> goto_w.
    let mut insns = vec![Insn::Branch { op: Opcode::GOTO, target: InsnIdx(40_001) }];
    insns.extend(std::iter::repeat_n(nop(), 40_000));
    insns.push(Insn::Simple(Opcode::RETURN));
    let body = MethodBody::new(0, 0, insns);
    let (out, notes) = encode(&body, &n.cp).unwrap();
    assert_eq!(notes, vec![Note::WidenedJumps { count: 1 }]);
    assert_eq!(&out.code[..5], &[0xc8, 0, 0, 0x9c, 0x45]); // goto_w +40005
    assert_eq!(out.code.len(), 40_006);

    // A backward conditional: if<!cond> +8; goto_w back. No StackMapTable: fine.
    let mut insns = vec![Insn::Simple(Opcode::ICONST_0)];
    insns.extend(std::iter::repeat_n(nop(), 40_000));
    insns.push(Insn::Simple(Opcode::ICONST_0));
    insns.push(Insn::Branch { op: Opcode::IFEQ, target: InsnIdx(1) });
    insns.push(Insn::Simple(Opcode::RETURN));
    let body = MethodBody::new(1, 0, insns);
    let (out, _) = encode(&body, &n.cp).unwrap();
    assert_eq!(&out.code[40_002..40_010], &[0x9a, 0, 8, 0xc8, 0xff, 0xff, 0x63, 0xbc]); // ifne +8; goto_w -40004
    let again = decode(&out, &n.cp).unwrap();
    assert_eq!(again.insns.len(), body.insns.len() + 1);

    // With a StackMapTable but no frame after the conditional: reported, not emitted wrongly.
    let mut with_frames = body.clone();
    with_frames.attributes.push(CodeAttribute::StackMapTable {
        name_index: n.smt,
        frames: vec![Frame { at: InsnIdx(1), kind: FrameKind::Same { extended: false } }],
    });
    assert_eq!(encode(&with_frames, &n.cp), Err(EncodeError::NeedsFrames { at: InsnIdx(40_002) }));
    // With a frame there already, the widening is fine.
    if let CodeAttribute::StackMapTable { frames, .. } = &mut with_frames.attributes[0] {
        frames.push(Frame { at: InsnIdx(40_003), kind: FrameKind::Same { extended: false } });
    }
    let (out, _) = encode(&with_frames, &n.cp).unwrap();
    let again = decode(&out, &n.cp).unwrap();
    assert_eq!(again.frames().unwrap()[1].at, InsnIdx(40_004), "frame after the goto_w");

    // Widening cascades: the first jump fits (+32767) until the second one, inside its range,
    // grows to goto_w.
    let mut insns = vec![
        Insn::Branch { op: Opcode::GOTO, target: InsnIdx(2 + 32_761) },
        Insn::Branch { op: Opcode::GOTO, target: InsnIdx(2 + 32_761 + 1 + 30_000) },
    ];
    insns.extend(std::iter::repeat_n(nop(), 32_761));
    insns.push(Insn::Simple(Opcode::RETURN));
    insns.extend(std::iter::repeat_n(nop(), 30_000));
    insns.push(Insn::Simple(Opcode::RETURN));
    let body = MethodBody::new(0, 0, insns);
    let (out, notes) = encode(&body, &n.cp).unwrap();
    let again = decode(&out, &n.cp).unwrap();
    let ops: Vec<Opcode> = again.insns[..2].iter().map(Insn::op).collect();
    assert_eq!(ops, vec![Opcode::GOTO_W; 2]);
    assert_eq!(notes, vec![Note::WidenedJumps { count: 2 }]);
    let targets = |b: &MethodBody| b.insns.iter().flat_map(Insn::targets).collect::<Vec<_>>();
    assert_eq!(targets(&again), targets(&body));
    // Without the second jump's growth the first one stays short, at exactly +32767.
    let mut short = body.clone();
    short.insns[1] = Insn::Branch { op: Opcode::GOTO, target: InsnIdx(2 + 32_761) };
    let (out, _) = encode(&short, &n.cp).unwrap();
    assert_eq!(&out.code[..3], &[0xa7, 0x7f, 0xff]);
}

#[test]
fn methods_over_64k_are_reported() {
    let n = names();
    let mut insns = vec![nop(); 65_535];
    insns.push(Insn::Simple(Opcode::RETURN));
    assert_eq!(encode(&MethodBody::new(0, 0, insns), &n.cp), Err(EncodeError::TooLarge { len: 65_536 }));
    let mut insns = vec![nop(); 65_534];
    insns.push(Insn::Simple(Opcode::RETURN));
    assert_eq!(encode(&MethodBody::new(0, 0, insns), &n.cp).unwrap().0.code.len(), 65_535);
}

#[test]
fn wide_and_short_forms_are_kept() {
    let n = names();
    // iload_1; iload 1; wide iload 1; wide iinc 1 1; iinc 1 -1; ldc_w #1; ldc #1; lstore 300 (wide); return
    let bytes = [
        0x1b, 0x15, 1, 0xc4, 0x15, 0, 1, 0xc4, 0x84, 0, 1, 0, 1, 0x84, 1, 0xff, 0x13, 0, 1, 0x12, 1, 0xc4,
        0x37, 1, 0x2c, 0xb1,
    ];
    let body = roundtrip(&code(&bytes, vec![], vec![]), &n.cp);
    assert_eq!(body.insns[0], Insn::Local { op: Opcode::ILOAD_1, var: 1, wide: false });
    assert_eq!(body.insns[2], Insn::Local { op: Opcode::ILOAD, var: 1, wide: true });
    assert_eq!(body.insns[7], Insn::Local { op: Opcode::LSTORE, var: 300, wide: true });
    // New code gets the operand width it needs.
    let body = MethodBody::new(
        0,
        400,
        vec![
            Insn::Iinc { var: 2, delta: 1000, wide: false },
            Insn::Local { op: Opcode::ALOAD, var: 256, wide: false },
            Insn::ldc(300),
            Insn::Simple(Opcode::RETURN),
        ],
    );
    let (out, _) = encode(&body, &n.cp).unwrap();
    assert_eq!(out.code, vec![0xc4, 0x84, 0, 2, 0x03, 0xe8, 0xc4, 0x19, 1, 0, 0x13, 1, 0x2c, 0xb1]);
    // Mismatched operands are errors, not silent corruption.
    let bad = MethodBody::new(0, 0, vec![Insn::Local { op: Opcode::ILOAD_0, var: 2, wide: false }]);
    assert!(matches!(encode(&bad, &n.cp), Err(EncodeError::BadInsn { .. })));
    let bad = MethodBody::new(0, 0, vec![Insn::Simple(Opcode::GOTO)]);
    assert!(matches!(encode(&bad, &n.cp), Err(EncodeError::BadInsn { .. })));
}

#[test]
fn handlers_and_lines_relocate_to_inserted_code() {
    let n = names();
    // 0: aconst_null; 1: athrow; 2: astore_1; 3: return; handler [0, 2) -> 2, lines 0 -> 10, 2 -> 11.
    let bytes = [0x01, 0xbf, 0x4c, 0xb1];
    let ex = vec![ExceptionEntry { start_pc: 0, end_pc: 2, handler_pc: 2, catch_type: 0 }];
    let lines = Attribute { name_index: n.lnt, info: vec![0, 2, 0, 0, 0, 10, 0, 2, 0, 11] };
    let body = roundtrip(&code(&bytes, ex, vec![lines]), &n.cp);
    let mut edited = body.clone();
    edited
        .insert_before(
            (0..4)
                .map(|i| (InsnIdx(i), vec![Insn::push_int(1000).unwrap(), Insn::Simple(Opcode::POP)]))
                .collect(),
        )
        .unwrap();
    edited.raise_max_stack(5);
    let (out, _) = encode(&edited, &n.cp).unwrap();
    // Probes are 4 bytes: the handler covers [0, 10) (probe of insn 0 up to the probe of insn 2) and
    // starts at the probe of insn 2 (byte 10).
    assert_eq!(
        out.exception_table,
        vec![ExceptionEntry { start_pc: 0, end_pc: 10, handler_pc: 10, catch_type: 0 }]
    );
    assert_eq!(out.attributes[0].info, vec![0, 2, 0, 0, 0, 10, 0, 10, 0, 11]);
    assert_eq!(out.max_stack, 5);
}

#[test]
fn type_annotations_are_kept_only_when_nothing_moved() {
    let n = names();
    let ta = Attribute { name_index: n.rvta, info: vec![0, 0] };
    let c = code(&[0x00, 0xb1], vec![], vec![ta]);
    let body = roundtrip(&c, &n.cp);
    let mut edited = body.clone();
    edited.insert_before(vec![(InsnIdx(1), vec![nop()])]).unwrap();
    let (out, notes) = encode(&edited, &n.cp).unwrap();
    assert!(out.attributes.is_empty());
    assert_eq!(notes, vec![Note::DroppedTypeAnnotations { name_index: n.rvta }]);
    // Replacing an instruction by an equal-sized one that yields the same bytes keeps them.
    let mut same = body;
    same.replace(InsnIdx(0), nop());
    assert_eq!(encode(&same, &n.cp).unwrap().0.attributes.len(), 1);
}

#[test]
fn corrupt_code_gives_errors() {
    let n = names();
    let cases: &[(&[u8], &str)] = &[
        (&[0x11, 0], "truncated sipush"),
        (&[0xca], "reserved opcode"),
        (&[0xa7, 0, 1, 0xb1], "jump into an instruction"),
        (&[0xa7, 0x7f, 0xff], "jump past the end"),
        (&[0xc4, 0x60, 0, 0], "wide iadd"),
        (&[0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0], "tableswitch high < low"),
        (&[0xab, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff], "lookupswitch npairs huge"),
    ];
    for (bytes, what) in cases {
        assert!(decode(&code(bytes, vec![], vec![]), &n.cp).is_err(), "{what}");
    }
    let bad_ex = vec![ExceptionEntry { start_pc: 1, end_pc: 2, handler_pc: 0, catch_type: 0 }];
    assert!(matches!(
        decode(&code(&[0x11, 0, 0, 0xb1], bad_ex, vec![]), &n.cp),
        Err(DecodeError::BadTarget { .. })
    ));
    for info in
        [vec![0, 1, 64], vec![0, 1, 200], vec![0, 1, 255, 0, 0, 0, 1, 9], vec![0, 1, 10], vec![0, 2, 0, 1]]
    {
        let smt = Attribute { name_index: n.smt, info: info.clone() };
        assert!(
            matches!(
                decode(&code(&[0x00, 0xb1], vec![], vec![smt]), &n.cp),
                Err(DecodeError::BadAttribute { .. })
            ),
            "{info:?}"
        );
    }
}

#[test]
fn subroutines_of_old_class_files() {
    let n = names();
    // 0: jsr 4; 3: return; 4: astore_1; 5: ret 1; 7: jsr_w -7 (back to 0, unreachable); 12: wide ret 1
    let bytes = [0xa8, 0, 4, 0xb1, 0x4c, 0xa9, 1, 0xc9, 0xff, 0xff, 0xff, 0xf9, 0xc4, 0xa9, 0, 1];
    let body = roundtrip(&code(&bytes, vec![], vec![]), &n.cp);
    assert_eq!(body.insns[0], Insn::Branch { op: Opcode::JSR, target: InsnIdx(2) });
    assert_eq!(body.insns[3], Insn::Local { op: Opcode::RET, var: 1, wide: false });
    assert_eq!(body.insns[4], Insn::Branch { op: Opcode::JSR_W, target: InsnIdx(0) });
    assert_eq!(body.insns[5], Insn::Local { op: Opcode::RET, var: 1, wide: true });
    assert!(body.insns[0].falls_through() && !body.insns[3].falls_through());
    // A far subroutine call becomes jsr_w.
    let mut far = body.clone();
    far.insert_before(vec![(InsnIdx(1), vec![nop(); 40_000])]).unwrap();
    let (out, notes) = encode(&far, &n.cp).unwrap();
    assert_eq!(notes, vec![Note::WidenedJumps { count: 1 }]);
    // jsr_w (5 bytes), 40000 nops, return at 40005, the subroutine at 40006.
    assert_eq!(&out.code[..5], &[0xc9, 0, 0, 0x9c, 0x46]);
}
