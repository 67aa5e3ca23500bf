//! Building the probe plan of a class: walk every method's decoded instructions in order and
//! allocate one probe per probe site (DESIGN.md §3.2), with the goals each probe serves. Each
//! probe family is a planner of its own in `family/` (docs/probes.md); `plan_method` runs them.
//!
//! The order of probes at one instruction is the order the instrumenter emits them in:
//! `ClassInit`, `MethodEnter` (instruction 0 only), `Line`, `Caught`, then the instruction's own
//! probe (call site, branch, compare, switch, operator, throw, return value) and, before a return,
//! `MethodExit`; then any witness or RC `Line` probe and the extension families' `Record` probes
//! (docs/probes.md). Two weak-mutation probes break the "own instruction" pattern:
//! - UOI (`Value*`): the value a numeric load pushed is only on the stack *after* the load, so its
//!   probe is placed before the next instruction, and is allocated right after the load's own
//!   probes (so it precedes the next instruction's `Line`; all probes are stack-neutral, so the
//!   order there changes nothing). It is planned only when the next instruction is not a jump
//!   target or handler entry: otherwise other paths would run the probe too.
//! - RC (replace constant) needs only to know that the constant was executed (EvoSuite: infection
//!   distance 0 once reached). Its goals are served by the first probe at or after the constant
//!   that runs only when control went straight through the constant (no jump target, handler
//!   entry or non-falling-through instruction between them); constants never throw, so a probe
//!   placed before the constant itself also tells. Only when no such probe exists up to the end
//!   of that straight run is a hit-only `Line`-kind probe added, at the run's last instruction.
//!   (An exception thrown between the constant and its probe makes the goal look unreached:
//!   the approximation errs towards "not killed".)

use std::borrow::Cow;
use std::collections::BTreeMap;

use bytecode::{Insn, InsnIdx, MethodBody, Opcode};
use classfile::{ClassFile, ConstantPool, Member};
use programdb::ProgramDb;
use rt_abi::{ProbeKind, cond};

use crate::family::{self, Extensions};
use crate::{
    BinOp, ClassPlan, Constant, Detail, Goal, GoalId, MethodIdx, MethodPlan, PlanClassIdx, Probe, ProbeId,
    ProbePlan,
};

/// Which probe families to plan (and so to emit). Built with `all()` or `none()` and adjusted
/// field by field; there is deliberately no `Default`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlanOptions {
    pub lines: bool,
    /// `MethodEnter` and `MethodExit`.
    pub methods: bool,
    pub call_sites: bool,
    /// Conditional jumps and `?cmp*` + `if<cond>` pairs.
    pub branches: bool,
    pub switches: bool,
    /// `Thrown` before `athrow`, `Caught` at handler entries.
    pub exceptions: bool,
    pub returns: bool,
    /// Operands of binary arithmetic and bitwise operators (weak mutation: AOR, BOR).
    pub operands: bool,
    /// Values of numeric loads (weak mutation: UOI), outside `<clinit>`.
    pub values: bool,
    /// Numeric constants (weak mutation: RC), outside `<clinit>`; mostly served by other probes.
    pub constants: bool,
    pub class_init: bool,
    /// Probe families added through the extension point (docs/probes.md), planned after the
    /// built-in ones at each instruction; none in `all()` and `none()`.
    pub extensions: Extensions,
}

impl PlanOptions {
    pub fn all() -> PlanOptions {
        PlanOptions {
            lines: true,
            methods: true,
            call_sites: true,
            branches: true,
            switches: true,
            exceptions: true,
            returns: true,
            operands: true,
            values: true,
            constants: true,
            class_init: true,
            extensions: Extensions::NONE,
        }
    }

    pub fn none() -> PlanOptions {
        PlanOptions {
            lines: false,
            methods: false,
            call_sites: false,
            branches: false,
            switches: false,
            exceptions: false,
            returns: false,
            operands: false,
            values: false,
            constants: false,
            class_init: false,
            extensions: Extensions::NONE,
        }
    }
}

/// Why a class could not be planned. Methods whose code does not decode are not errors (they are
/// recorded in `MethodPlan::undecodable`); only a class whose structure is unreadable is.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(transparent)]
    ClassFile(#[from] classfile::Error),
    #[error("class {class}: {what}")]
    Malformed { class: String, what: String },
    /// The program database could not parse the class (its error, as text: the database keeps
    /// the error itself).
    #[error("{0}")]
    Unreadable(String),
}

/// The probe kind and rt-abi condition (of the jump being taken) of a conditional jump.
pub fn branch_cond(op: Opcode) -> Option<(ProbeKind, i32)> {
    const CONDS: [i32; 6] = [cond::EQ, cond::NE, cond::LT, cond::GE, cond::GT, cond::LE];
    match op.0 {
        // ifeq .. ifle, if_icmpeq .. if_icmple (JVMS §6.5): six conditions each, in rt-abi order.
        0x99..=0x9e => Some((ProbeKind::BranchZero, CONDS[(op.0 - 0x99) as usize])),
        0x9f..=0xa4 => Some((ProbeKind::BranchInt, CONDS[(op.0 - 0x9f) as usize])),
        0xa5 => Some((ProbeKind::BranchRef, cond::EQ)),
        0xa6 => Some((ProbeKind::BranchRef, cond::NE)),
        0xc6 => Some((ProbeKind::BranchNull, cond::EQ)),
        0xc7 => Some((ProbeKind::BranchNull, cond::NE)),
        _ => None,
    }
}

/// For `lcmp`, `fcmpl`, `fcmpg`, `dcmpl`, `dcmpg`: the compare probe kind and whether NaN
/// compares greater (the `g` forms, JVMS §6.5.fcmp<op>).
pub fn cmp_kind(op: Opcode) -> Option<(ProbeKind, bool)> {
    match op {
        Opcode::LCMP => Some((ProbeKind::CmpLong, false)),
        Opcode::FCMPL => Some((ProbeKind::CmpFloat, false)),
        Opcode::FCMPG => Some((ProbeKind::CmpFloat, true)),
        Opcode::DCMPL => Some((ProbeKind::CmpDouble, false)),
        Opcode::DCMPG => Some((ProbeKind::CmpDouble, true)),
        _ => None,
    }
}

/// For `iadd` .. `drem` and `ishl` .. `lxor`: the operator and the operand probe kind.
pub fn binop_of(op: Opcode) -> Option<(BinOp, ProbeKind)> {
    const KINDS: [ProbeKind; 4] = [
        ProbeKind::OperandsInt,
        ProbeKind::OperandsLong,
        ProbeKind::OperandsFloat,
        ProbeKind::OperandsDouble,
    ];
    match op.0 {
        // 0x60..=0x73: add, sub, mul, div, rem, each for i, l, f, d.
        0x60..=0x73 => {
            let k = op.0 - 0x60;
            let bin = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Rem][(k / 4) as usize];
            Some((bin, KINDS[(k % 4) as usize]))
        }
        // 0x78..=0x7d: shl, shr, ushr for i and l (the long forms shift by an int).
        0x78..=0x7d => {
            let k = op.0 - 0x78;
            let bin = [BinOp::Shl, BinOp::Shr, BinOp::Ushr][(k / 2) as usize];
            let kind =
                if k.is_multiple_of(2) { ProbeKind::OperandsInt } else { ProbeKind::OperandsLongShift };
            Some((bin, kind))
        }
        // 0x7e..=0x83: and, or, xor for i and l.
        0x7e..=0x83 => {
            let k = op.0 - 0x7e;
            let bin = [BinOp::And, BinOp::Or, BinOp::Xor][(k / 2) as usize];
            let kind = if k.is_multiple_of(2) { ProbeKind::OperandsInt } else { ProbeKind::OperandsLong };
            Some((bin, kind))
        }
        _ => None,
    }
}

/// For `ireturn` .. `areturn`: the return-value probe kind (`return` has none).
pub fn return_probe(op: Opcode) -> Option<ProbeKind> {
    match op {
        Opcode::IRETURN => Some(ProbeKind::ReturnInt),
        Opcode::LRETURN => Some(ProbeKind::ReturnLong),
        Opcode::FRETURN => Some(ProbeKind::ReturnFloat),
        Opcode::DRETURN => Some(ProbeKind::ReturnDouble),
        Opcode::ARETURN => Some(ProbeKind::ReturnRef),
        _ => None,
    }
}

/// UOI: the value probe kind of a numeric load, `iload` .. `dload` in every form (JVMS §6.5) and
/// `getfield`/`getstatic` of an `int`, `long`, `float` or `double` field (EvoSuite's
/// `InsertUnaryOperator` sites; narrower int fields are left out, as there).
pub fn load_value_kind(insn: &Insn, cp: &ConstantPool) -> Option<ProbeKind> {
    const KINDS: [ProbeKind; 4] =
        [ProbeKind::ValueInt, ProbeKind::ValueLong, ProbeKind::ValueFloat, ProbeKind::ValueDouble];
    match insn {
        Insn::Local { op, .. } => match op.0 {
            0x15..=0x18 => Some(KINDS[(op.0 - 0x15) as usize]),
            // iload_0 .. dload_3: four forms per type.
            0x1a..=0x29 => Some(KINDS[((op.0 - 0x1a) / 4) as usize]),
            _ => None,
        },
        Insn::Field { op, index } if matches!(*op, Opcode::GETFIELD | Opcode::GETSTATIC) => {
            match cp.member_ref(*index)?.descriptor.as_ref() {
                "I" => Some(ProbeKind::ValueInt),
                "J" => Some(ProbeKind::ValueLong),
                "F" => Some(ProbeKind::ValueFloat),
                "D" => Some(ProbeKind::ValueDouble),
                _ => None,
            }
        }
        _ => None,
    }
}

/// RC: the numeric constant an instruction pushes: `iconst_m1` .. `dconst_1`, `bipush`, `sipush`,
/// and `ldc`/`ldc_w`/`ldc2_w` of an int, float, long or double (JVMS §6.5).
pub fn constant_of(insn: &Insn, cp: &ConstantPool) -> Option<Constant> {
    match insn {
        Insn::Simple(op) => match op.0 {
            0x02..=0x08 => Some(Constant::Int(op.0 as i32 - 0x03)),
            0x09..=0x0a => Some(Constant::Long((op.0 - 0x09) as i64)),
            0x0b..=0x0d => Some(Constant::Float(((op.0 - 0x0b) as f32).to_bits())),
            0x0e..=0x0f => Some(Constant::Double(((op.0 - 0x0e) as f64).to_bits())),
            _ => None,
        },
        Insn::Push { value, .. } => Some(Constant::Int(*value as i32)),
        Insn::Ldc { index, .. } => match cp.get(*index)? {
            classfile::Constant::Integer(v) => Some(Constant::Int(*v)),
            classfile::Constant::Long(v) => Some(Constant::Long(*v)),
            classfile::Constant::Float(b) => Some(Constant::Float(*b)),
            classfile::Constant::Double(b) => Some(Constant::Double(*b)),
            _ => None,
        },
        _ => None,
    }
}

/// RC: EvoSuite's replacements of a numeric constant `c`: 0, 1, -1, `c - 1`, `c + 1` in the
/// constant's type (ints and longs wrap as the JVM does), in that order, without duplicates and
/// without any value the program could not tell from `c` (`==`, two NaNs alike; so `c + 1` of a
/// large float, equal to `c`, is no mutant).
pub fn constant_replacements(c: Constant) -> Vec<Constant> {
    let candidates: [Constant; 5] = match c {
        Constant::Int(v) => [0, 1, -1, v.wrapping_sub(1), v.wrapping_add(1)].map(Constant::Int),
        Constant::Long(v) => [0, 1, -1, v.wrapping_sub(1), v.wrapping_add(1)].map(Constant::Long),
        Constant::Float(b) => {
            let v = f32::from_bits(b);
            [0.0, 1.0, -1.0, v - 1.0, v + 1.0].map(|x: f32| Constant::Float(x.to_bits()))
        }
        Constant::Double(b) => {
            let v = f64::from_bits(b);
            [0.0, 1.0, -1.0, v - 1.0, v + 1.0].map(|x: f64| Constant::Double(x.to_bits()))
        }
    };
    let same = |a: Constant, b: Constant| match (a, b) {
        (Constant::Float(x), Constant::Float(y)) => {
            let (x, y) = (f32::from_bits(x), f32::from_bits(y));
            x == y || (x.is_nan() && y.is_nan())
        }
        (Constant::Double(x), Constant::Double(y)) => {
            let (x, y) = (f64::from_bits(x), f64::from_bits(y));
            x == y || (x.is_nan() && y.is_nan())
        }
        _ => a == b,
    };
    let mut out: Vec<Constant> = Vec::with_capacity(5);
    for r in candidates {
        if !same(r, c) && !out.iter().any(|&o| same(o, r)) {
            out.push(r);
        }
    }
    out
}

/// A private `()V` constructor whose code is `aload_0; invokespecial <super>.<init>()V; return`,
/// as JaCoCo's `PrivateEmptyNoArgConstructorFilter` matches it.
fn is_private_empty_constructor(
    class: &ClassFile,
    access: u16,
    name: &str,
    descriptor: &str,
    body: &MethodBody,
) -> bool {
    if access & classfile::access::PRIVATE == 0 || name != "<init>" || descriptor != "()V" {
        return false;
    }
    let cp = &class.constant_pool;
    match body.insns.as_slice() {
        [Insn::Local { var: 0, .. }, Insn::Invoke { op, index }, Insn::Simple(Opcode::RETURN)]
            if matches!(body.insns[0].op(), Opcode::ALOAD_0 | Opcode::ALOAD)
                && *op == Opcode::INVOKESPECIAL =>
        {
            cp.member_ref(*index).is_some_and(|r| {
                r.name == "<init>"
                    && r.descriptor == "()V"
                    && class.super_name().is_some_and(|s| r.class == s)
            })
        }
        _ => false,
    }
}

impl ProbePlan {
    /// Plans the probes of a class from its bytes; see `add_class`.
    pub fn add_class_bytes(&mut self, bytes: &[u8], opts: &PlanOptions) -> Result<PlanClassIdx, PlanError> {
        let class = ClassFile::parse(bytes)?;
        self.add_class(&class, opts)
    }

    /// Plans the probes of one more class. Ids continue after those of the classes added before;
    /// nothing is added when an error is returned. Each method is decoded here; `add_class_in`
    /// takes the bodies the program database keeps instead.
    pub fn add_class(&mut self, class: &ClassFile, opts: &PlanOptions) -> Result<PlanClassIdx, PlanError> {
        let cp = &class.constant_pool;
        self.add_class_with(class, opts, |_, m| {
            let code = m.code(cp)?;
            Some(
                code.map_err(|e| e.to_string())
                    .and_then(|c| bytecode::decode(&c, cp).map_err(|e| e.to_string()))
                    .map(Cow::Owned),
            )
        })
    }

    /// Plans the probes of class `class` of the program database (see `add_class`), from the
    /// class and method bodies the database parsed and decoded.
    pub fn add_class_in(
        &mut self,
        db: &ProgramDb,
        class: programdb::ClassId,
        opts: &PlanOptions,
    ) -> Result<PlanClassIdx, PlanError> {
        let file = db.class(class).map_err(|e| PlanError::Unreadable(e.to_string()))?;
        self.add_class_with(file, opts, |mi, _| {
            let m = db.method_id(class, mi as u16)?;
            Some(db.body(m)?.map(Cow::Borrowed).map_err(str::to_owned))
        })
    }

    /// `add_class` with the method bodies from `body` (by method index): `None` for a method
    /// without code, `Err` with the reason for code that does not decode.
    fn add_class_with<'b>(
        &mut self,
        class: &ClassFile,
        opts: &PlanOptions,
        body: impl Fn(usize, &Member) -> Option<Result<Cow<'b, MethodBody>, String>>,
    ) -> Result<PlanClassIdx, PlanError> {
        let id = PlanClassIdx(self.classes.len() as u32);
        let cp = &class.constant_pool;
        let name = class.name().into_owned();
        let mut b = Builder {
            plan: ProbePlan {
                classes: Vec::new(),
                probes: std::mem::take(&mut self.probes),
                goals: std::mem::take(&mut self.goals),
                goal_probes: std::mem::take(&mut self.goal_probes),
                completion_witnesses: std::mem::take(&mut self.completion_witnesses),
            },
            class: id,
            lines: BTreeMap::new(),
        };
        let first_probe = b.plan.probes.len() as u32;
        // Check every name first, so that an error leaves the plan untouched.
        let mut named = Vec::with_capacity(class.methods.len());
        for (mi, m) in class.methods.iter().enumerate() {
            let (Some(mname), Some(mdesc)) = (m.name(cp), m.descriptor(cp)) else {
                self.probes = b.plan.probes;
                self.goals = b.plan.goals;
                self.goal_probes = b.plan.goal_probes;
                self.completion_witnesses = b.plan.completion_witnesses;
                let what = format!("method #{mi} has a bad name or descriptor index");
                return Err(PlanError::Malformed { class: name, what });
            };
            named.push((m, mname, mdesc));
        }
        let mut methods = Vec::new();
        let mut class_init = None;
        let mut has_clinit = false;
        for (mi, (m, mname, mdesc)) in named.into_iter().enumerate() {
            let is_clinit = mname == "<clinit>";
            has_clinit |= is_clinit;
            let Some(body) = body(mi, m) else { continue };
            let index = MethodIdx(mi as u16);
            let start = b.plan.probes.len() as u32;
            let undecodable = match body {
                Ok(body) => {
                    if is_clinit && opts.class_init {
                        class_init = Some(ProbeId(b.plan.probes.len() as u32));
                    }
                    // JaCoCo leaves out a private empty no-argument constructor (the idiom that
                    // keeps a utility class from being instantiated: no test can call it) and the
                    // methods the compiler wrote (bridges, `access$000`, an enum's `$values`; not
                    // lambda bodies): their lines are not code anyone wrote. Their other goals stay.
                    let synthetic =
                        m.access_flags & classfile::access::SYNTHETIC != 0 && !mname.starts_with("lambda$");
                    let mut method_opts = *opts;
                    method_opts.lines &= !synthetic
                        && !is_private_empty_constructor(class, m.access_flags, &mname, &mdesc, &body);
                    b.plan_method(class, index, &mdesc, &body, is_clinit, &method_opts);
                    None
                }
                Err(e) => Some(e),
            };
            methods.push(MethodPlan {
                index,
                name: mname.into_owned(),
                descriptor: mdesc.into_owned(),
                probes: start..b.plan.probes.len() as u32,
                undecodable,
            });
        }
        if !has_clinit && opts.class_init {
            // The instrumenter adds a `<clinit>` holding only this probe.
            class_init = Some(b.push(ProbeKind::ClassInit, None, InsnIdx(0), None, Detail::None));
        }
        let end = b.plan.probes.len() as u32;
        self.probes = b.plan.probes;
        self.goals = b.plan.goals;
        self.goal_probes = b.plan.goal_probes;
        self.completion_witnesses = b.plan.completion_witnesses;
        self.classes.push(ClassPlan { name, methods, class_init, probes: first_probe..end });
        Ok(id)
    }
}

/// Accumulates the probes and goals of one class.
pub(crate) struct Builder {
    pub(crate) plan: ProbePlan,
    pub(crate) class: PlanClassIdx,
    /// Line goals of the class so far, by line.
    pub(crate) lines: BTreeMap<u16, GoalId>,
}

impl Builder {
    pub(crate) fn push(
        &mut self,
        kind: ProbeKind,
        method: Option<MethodIdx>,
        insn: InsnIdx,
        line: Option<u16>,
        detail: Detail,
    ) -> ProbeId {
        let id = ProbeId(self.plan.probes.len() as u32);
        self.plan.probes.push(Probe {
            kind,
            class: self.class,
            method,
            insn,
            line,
            detail,
            goals: Vec::new(),
        });
        id
    }

    /// Adds a goal served by `probe` (a new goal, or `existing` if given).
    pub(crate) fn serve(
        &mut self,
        probe: ProbeId,
        existing: Option<GoalId>,
        goal: impl FnOnce() -> Goal,
    ) -> GoalId {
        let g = match existing {
            Some(g) => g,
            None => {
                let g = GoalId(self.plan.goals.len() as u32);
                self.plan.goals.push(goal());
                self.plan.goal_probes.push(Vec::new());
                g
            }
        };
        self.plan.goal_probes[g.index()].push(probe);
        self.plan.probes[probe.index()].goals.push(g);
        g
    }

    /// Plans the probes of one method: every family of `family::STEPS` at each instruction in
    /// turn (the order of the ids), then the method's completion witnesses.
    fn plan_method(
        &mut self,
        class: &ClassFile,
        method: MethodIdx,
        descriptor: &str,
        body: &MethodBody,
        is_clinit: bool,
        opts: &PlanOptions,
    ) {
        let cx = family::MethodCx::new(self, class, method, descriptor, body, is_clinit, opts);
        let mut state = family::MethodState::new();
        for i in 0..body.insns.len() {
            for step in family::STEPS {
                step(self, &cx, &mut state, i);
            }
        }
        family::completion_witnesses(self, &cx, &state);
    }

    /// The first probe planned at `at` in the method whose probes start at `method_start` that
    /// runs whenever `at` runs (a `FallThrough` probe does not when a jump arrives) and is built
    /// in (extension probes come and go with the options, the goals they would serve must not).
    pub(crate) fn probe_at(&self, method_start: usize, at: InsnIdx) -> Option<ProbeId> {
        self.probe_at_with(method_start, at, |d| !matches!(d, Detail::FallThrough | Detail::Record { .. }))
    }

    /// The first probe planned at `at` whose detail passes `want`. Probes are in instruction
    /// order, so those at `at` end the method's list so far.
    pub(crate) fn probe_at_with(
        &self,
        method_start: usize,
        at: InsnIdx,
        want: impl Fn(&Detail) -> bool,
    ) -> Option<ProbeId> {
        (method_start..self.plan.probes.len())
            .rev()
            .take_while(|&k| self.plan.probes[k].insn >= at)
            .filter(|&k| self.plan.probes[k].insn == at && want(&self.plan.probes[k].detail))
            .last()
            .map(|k| ProbeId(k as u32))
    }
}
