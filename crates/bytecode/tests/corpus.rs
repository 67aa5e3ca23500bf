//! Corpus-wide tests over every method of the real-world corpus: decode + encode with no
//! change reproduces the `Code` bytes exactly, and inserting a `nop` before every instruction
//! relocates every code position consistently.

mod common;

use bytecode::{
    CodeAttribute, EncodeError, FrameKind, Insn, InsnIdx, MethodBody, Note, Opcode, VType, decode, encode,
};
use classfile::{ClassFile, Code, ConstantPool};

/// Every method with code in the corpus: (class label, method index, parsed code, raw info).
fn for_each_method(mut f: impl FnMut(&str, &ConstantPool, &Code, &[u8])) -> usize {
    let mut n = 0;
    for (label, bytes) in common::corpus() {
        let class = ClassFile::parse(&bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
        let cp = &class.constant_pool;
        for m in &class.methods {
            let Some(attr) = m.attribute(cp, "Code") else { continue };
            let code = Code::parse(&attr.info).unwrap_or_else(|e| panic!("{label}: {e}"));
            let name =
                format!("{label}.{}{}", m.name(cp).unwrap_or_default(), m.descriptor(cp).unwrap_or_default());
            f(&name, cp, &code, &attr.info);
            n += 1;
        }
    }
    n
}

#[test]
fn decode_encode_reproduces_every_method() {
    let mut failures = Vec::new();
    let mut insns = 0usize;
    let methods = for_each_method(|name, cp, code, info| {
        let body = match decode(code, cp) {
            Ok(b) => b,
            Err(e) => return failures.push(format!("{name}: decode: {e}")),
        };
        insns += body.insns.len();
        match encode(&body, cp) {
            Ok((out, notes)) => {
                if out.to_bytes() != info {
                    failures.push(format!("{name}: bytes differ"));
                }
                if !notes.is_empty() {
                    failures.push(format!("{name}: notes {notes:?}"));
                }
            }
            Err(e) => failures.push(format!("{name}: encode: {e}")),
        }
    });
    eprintln!("{methods} methods, {insns} instructions");
    assert!(methods > 100_000, "only {methods} methods");
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

/// Maps every code position of `body` as `insert_before` with one `nop` before each instruction
/// must: entries to `2i`, `Uninitialized(i)` to `2i + 1`.
fn expected_with_nops(body: &MethodBody) -> MethodBody {
    let entry = |t: InsnIdx| InsnIdx(2 * t.0);
    let uninit = |v: &mut VType| {
        if let VType::Uninitialized(at) = v {
            *at = InsnIdx(2 * at.0 + 1);
        }
    };
    let mut res = body.clone();
    res.insns = Vec::with_capacity(2 * body.insns.len());
    for insn in &body.insns {
        let mut insn = insn.clone();
        insn.map_targets(entry);
        res.insns.push(Insn::Simple(Opcode::NOP));
        res.insns.push(insn);
    }
    for h in &mut res.handlers {
        (h.start, h.end, h.handler) = (entry(h.start), entry(h.end), entry(h.handler));
    }
    for a in &mut res.attributes {
        match a {
            CodeAttribute::LineNumberTable { entries, .. } => {
                entries.iter_mut().for_each(|e| e.start = entry(e.start))
            }
            CodeAttribute::LocalVariableTable { entries, .. }
            | CodeAttribute::LocalVariableTypeTable { entries, .. } => {
                entries.iter_mut().for_each(|e| (e.start, e.end) = (entry(e.start), entry(e.end)))
            }
            CodeAttribute::StackMapTable { frames, .. } => {
                for f in frames {
                    f.at = entry(f.at);
                    match &mut f.kind {
                        FrameKind::SameLocals1StackItem { stack, .. } => uninit(stack),
                        FrameKind::Append { locals } => locals.iter_mut().for_each(uninit),
                        FrameKind::Full { locals, stack } => {
                            locals.iter_mut().chain(stack.iter_mut()).for_each(uninit)
                        }
                        FrameKind::Same { .. } | FrameKind::Chop { .. } => {}
                    }
                }
            }
            CodeAttribute::TypeAnnotations { .. } | CodeAttribute::Other { .. } => {}
        }
    }
    res
}

/// The parts of a body that encoding must preserve: type annotations are dropped on change, and
/// `same` frames may be promoted to their `_extended` forms when deltas grow.
fn observable(b: &MethodBody) -> (u16, u16, &[Insn], &[bytecode::Handler], Vec<CodeAttribute>) {
    let mut attrs: Vec<CodeAttribute> = b
        .attributes
        .iter()
        .filter(|a| !matches!(a, CodeAttribute::TypeAnnotations { .. }))
        .cloned()
        .collect();
    for a in &mut attrs {
        if let CodeAttribute::StackMapTable { frames, .. } = a {
            for f in frames {
                if let FrameKind::Same { extended } | FrameKind::SameLocals1StackItem { extended, .. } =
                    &mut f.kind
                {
                    *extended = false;
                }
            }
        }
    }
    (b.max_stack, b.max_locals, &b.insns, &b.handlers, attrs)
}

#[test]
fn nop_before_every_instruction_relocates_everything() {
    let mut failures = Vec::new();
    let (mut widened, mut needs_frames, mut too_large, mut dropped_annotations) = (0, 0, 0, 0);
    let methods = for_each_method(|name, cp, code, _| {
        let Ok(body) = decode(code, cp) else { return failures.push(format!("{name}: decode")) };
        let mut edited = body.clone();
        let all = (0..body.insns.len()).map(|i| (InsnIdx::new(i), vec![Insn::Simple(Opcode::NOP)])).collect();
        let reloc = edited.insert_before(all).expect("valid insertion points");
        if reloc.entry(InsnIdx(0)) != InsnIdx(0)
            || (!body.insns.is_empty() && reloc.insn(InsnIdx(0)) != InsnIdx(1))
        {
            failures.push(format!("{name}: relocation map"));
        }
        let expected = expected_with_nops(&body);
        if observable(&edited) != observable(&expected) {
            return failures.push(format!("{name}: insert_before relocated differently"));
        }
        let (out, notes) = match encode(&edited, cp) {
            Ok(r) => r,
            Err(EncodeError::NeedsFrames { .. }) => return needs_frames += 1,
            Err(EncodeError::TooLarge { .. }) => return too_large += 1,
            Err(e) => return failures.push(format!("{name}: encode: {e}")),
        };
        dropped_annotations +=
            notes.iter().filter(|n| matches!(n, Note::DroppedTypeAnnotations { .. })).count();
        let Ok(again) = decode(&out, cp) else { return failures.push(format!("{name}: re-decode")) };
        // Structural invariants of the encoded result.
        let n = again.end();
        for h in &again.handlers {
            if !(h.start < h.end && h.end <= n && h.handler < n) {
                failures.push(format!("{name}: bad handler range {h:?}"));
            }
        }
        if let Some(frames) = again.frames()
            && frames.windows(2).any(|w| w[0].at >= w[1].at)
        {
            failures.push(format!("{name}: frames out of order"));
        }
        if notes.iter().any(|n| matches!(n, Note::WidenedJumps { .. })) {
            // Widened conditionals became two instructions; the index spaces differ.
            widened += 1;
        } else if observable(&again) != observable(&edited) {
            failures.push(format!("{name}: encode + decode of the edited body differs"));
        }
    });
    eprintln!(
        "{methods} methods: {widened} with widened jumps, {needs_frames} need frames, {too_large} too large, \
         {dropped_annotations} type annotations dropped"
    );
    assert!(methods > 100_000);
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

/// The frame computation used after widened conditional jumps succeeds after every conditional
/// jump of every method with a `StackMapTable` (their JVM verification is `jvm_frames.rs`).
#[test]
fn fallthrough_frames_can_be_computed_everywhere() {
    let (mut failures, mut added) = (Vec::new(), 0usize);
    for (label, bytes) in common::corpus() {
        let class = ClassFile::parse(&bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
        let mut cp = class.constant_pool.clone();
        for m in &class.methods {
            let Some(code) = m.code(&class.constant_pool) else { continue };
            let mut body = decode(&code.unwrap(), &cp).unwrap();
            let ctx = bytecode::MethodContext::new(&class, m).unwrap();
            match bytecode::add_fallthrough_frames(&mut body, &mut cp, &ctx) {
                Ok(n) => added += n,
                Err(e) => failures.push(format!("{label}.{}: {e}", m.name(&cp).unwrap_or_default())),
            }
        }
    }
    eprintln!("{added} frames computed");
    assert!(added > 100_000);
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}
