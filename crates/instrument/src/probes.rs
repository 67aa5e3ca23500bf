//! The code of one probe: a stack-neutral instruction sequence (DESIGN.md §3.2) that copies the
//! operands the instrumented instruction is about to consume and passes them, with the probe's
//! site argument, to a static method of the tracer (crates/rt-abi). Category-1 pairs are copied
//! with `dup`/`dup2`; two longs or doubles (four slots, beyond what `dup2` can copy, JVMS §6.5.dup2)
//! go through scratch locals above the method's own.

use bytecode::{Insn, Opcode, ValueKind};
use classfile::ConstantPool;
use rt_abi::{ProbeKind, RecordShape, TRACER_CLASS};

/// Pushes an `int` constant: `iconst`/`bipush`/`sipush`, or `ldc` of an interned `Integer`.
pub(crate) fn push_int(v: i32, cp: &mut ConstantPool) -> Result<Insn, classfile::Error> {
    match Insn::push_int(v) {
        Some(insn) => Ok(insn),
        None => Ok(Insn::ldc(cp.intern_integer(v)?)),
    }
}

/// The constant-pool indices of the tracer methods, interned once per class (interning walks
/// several maps and allocates; a class has thousands of probes).
#[derive(Default, Clone)]
pub(crate) struct TracerRefs {
    methods: std::collections::BTreeMap<ProbeKind, u16>,
}

impl TracerRefs {
    fn get(&mut self, kind: ProbeKind, cp: &mut ConstantPool) -> Result<u16, String> {
        if let Some(&i) = self.methods.get(&kind) {
            return Ok(i);
        }
        let (name, descriptor) = kind.method();
        let i = cp.intern_methodref(TRACER_CLASS, name, descriptor).map_err(|e| e.to_string())?;
        self.methods.insert(kind, i);
        Ok(i)
    }
}

/// Whether the probe needs the four scratch local slots.
pub(crate) fn needs_scratch(kind: ProbeKind) -> bool {
    matches!(
        kind,
        ProbeKind::CmpLong
            | ProbeKind::CmpDouble
            | ProbeKind::OperandsLong
            | ProbeKind::OperandsDouble
            | ProbeKind::OperandsLongShift
            | ProbeKind::Record(RecordShape::LongLong | RecordShape::DoubleDouble)
    )
}

/// The probe's code and how many operand-stack slots it needs above the depth at its instruction.
/// `scratch` is the first of four free local slots (required when `needs_scratch(kind)`);
/// `enter` is the argument of the method's `MethodEnter` probe (-1 when it has none), which a
/// `MethodExit` passes too: the tracer pops its call-context stack to the frame that probe
/// pushed, so the exit must name the entry, not itself.
pub(crate) fn probe_code(
    kind: ProbeKind,
    arg: i32,
    enter: i32,
    scratch: Option<u16>,
    refs: &mut TracerRefs,
    cp: &mut ConstantPool,
) -> Result<(Vec<Insn>, u16), String> {
    let call = Insn::invokestatic(refs.get(kind, cp)?);
    let push = push_int(arg, cp).map_err(|e| e.to_string())?;
    let dup = Insn::simple(Opcode::DUP);
    let dup2 = Insn::simple(Opcode::DUP2);
    let res = match kind {
        // Extension probes: the shape alone says how to copy the operands (no per-family code).
        ProbeKind::Record(shape) => match shape.slots() {
            0 => (vec![push, call], 1),
            1 => (vec![dup, push, call], 2),
            2 => (vec![dup2, push, call], 3),
            _ => {
                let s = scratch.ok_or("no scratch locals")?;
                let vk = if shape == RecordShape::LongLong { ValueKind::Long } else { ValueKind::Double };
                (copy_two_wide(vk, s, push, call), 5)
            }
        },
        ProbeKind::MethodExit => (vec![push, push_int(enter, cp).map_err(|e| e.to_string())?, call], 2),
        ProbeKind::Line | ProbeKind::MethodEnter | ProbeKind::CallSite | ProbeKind::ClassInit => {
            (vec![push, call], 1)
        }
        // One category-1 value on top: `dup`, site, call.
        ProbeKind::BranchZero
        | ProbeKind::BranchNull
        | ProbeKind::SwitchKey
        | ProbeKind::Thrown
        | ProbeKind::Caught
        | ProbeKind::ReturnInt
        | ProbeKind::ReturnFloat
        | ProbeKind::ReturnRef
        | ProbeKind::ValueInt
        | ProbeKind::ValueFloat => (vec![dup, push, call], 2),
        // Two category-1 values, or one category-2 value: `dup2` copies both slots.
        ProbeKind::BranchInt
        | ProbeKind::BranchRef
        | ProbeKind::CmpFloat
        | ProbeKind::OperandsInt
        | ProbeKind::OperandsFloat
        | ProbeKind::ReturnLong
        | ProbeKind::ReturnDouble
        | ProbeKind::ValueLong
        | ProbeKind::ValueDouble => (vec![dup2, push, call], 3),
        // Two category-2 values: store both (top first), then load them back twice.
        ProbeKind::CmpLong | ProbeKind::CmpDouble | ProbeKind::OperandsLong | ProbeKind::OperandsDouble => {
            let s = scratch.ok_or("no scratch locals")?;
            let vk = if matches!(kind, ProbeKind::CmpLong | ProbeKind::OperandsLong) {
                ValueKind::Long
            } else {
                ValueKind::Double
            };
            // Depth d holds a and b (4 slots); the copies add 4 and the site 1.
            (copy_two_wide(vk, s, push, call), 5)
        }
        // A long shifted by an int: three slots, not copyable by any `dup` form.
        ProbeKind::OperandsLongShift => {
            let s = scratch.ok_or("no scratch locals")?;
            let (a, b) = (s, s + 2);
            let code = vec![
                Insn::store(ValueKind::Int, b),
                Insn::store(ValueKind::Long, a),
                Insn::load(ValueKind::Long, a),
                Insn::load(ValueKind::Int, b),
                Insn::load(ValueKind::Long, a),
                Insn::load(ValueKind::Int, b),
                push,
                call,
            ];
            (code, 4)
        }
    };
    Ok(res)
}

/// Two category-2 values on top (`a`, then `b`): store both (top first) in the scratch locals from
/// `s`, load them back twice, then the site and the call.
fn copy_two_wide(vk: ValueKind, s: u16, push: Insn, call: Insn) -> Vec<Insn> {
    let (a, b) = (s, s + 2);
    vec![
        Insn::store(vk, b),
        Insn::store(vk, a),
        Insn::load(vk, a),
        Insn::load(vk, b),
        Insn::load(vk, a),
        Insn::load(vk, b),
        push,
        call,
    ]
}
