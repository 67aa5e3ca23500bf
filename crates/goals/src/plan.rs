//! Building the probe plan of a class: walk every method's decoded instructions in order and
//! allocate one probe per probe site (DESIGN.md §3.2), with the goals each probe serves.
//!
//! The order of probes at one instruction is the order the instrumenter emits them in:
//! `ClassInit`, `MethodEnter` (instruction 0 only), `Line`, `Caught`, then the instruction's own
//! probe (call site, branch, compare, switch, operator, throw, return value) and, before a return,
//! `MethodExit`. Two weak-mutation probes break the "own instruction" pattern:
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
use std::collections::{BTreeMap, BTreeSet};

use bytecode::{Insn, InsnIdx, MethodBody, Opcode};
use classfile::{ClassFile, ConstantPool, Member};
use programdb::ProgramDb;
use rt_abi::{ProbeKind, cond};

use crate::{
    BinOp, ClassId, ClassPlan, Constant, Detail, Goal, GoalId, MethodIdx, MethodPlan, Mutant, OutputValue,
    Probe, ProbeId, ProbePlan, SwitchCase, UnaryOp, Witness, jacoco,
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

/// The output goals of a method returning the type `ret` (a field descriptor, or `V`).
fn output_values(ret: &str) -> &'static [OutputValue] {
    use OutputValue::*;
    match ret.as_bytes().first() {
        Some(b'Z') => &[True, False],
        Some(b'C') => &[Alphabetic, Digit, OtherChar],
        Some(b'B' | b'S' | b'I' | b'J' | b'F' | b'D') => &[Negative, Zero, Positive],
        Some(b'L' | b'[') => &[Null, NonNull],
        _ => &[],
    }
}

impl ProbePlan {
    /// Plans the probes of a class from its bytes; see `add_class`.
    pub fn add_class_bytes(&mut self, bytes: &[u8], opts: &PlanOptions) -> Result<ClassId, PlanError> {
        let class = ClassFile::parse(bytes)?;
        self.add_class(&class, opts)
    }

    /// Plans the probes of one more class. Ids continue after those of the classes added before;
    /// nothing is added when an error is returned. Each method is decoded here; `add_class_in`
    /// takes the bodies the program database keeps instead.
    pub fn add_class(&mut self, class: &ClassFile, opts: &PlanOptions) -> Result<ClassId, PlanError> {
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
    ) -> Result<ClassId, PlanError> {
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
    ) -> Result<ClassId, PlanError> {
        let id = ClassId(self.classes.len() as u32);
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
struct Builder {
    plan: ProbePlan,
    class: ClassId,
    /// Line goals of the class so far, by line.
    lines: BTreeMap<u16, GoalId>,
}

impl Builder {
    fn push(
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
    fn serve(&mut self, probe: ProbeId, existing: Option<GoalId>, goal: impl FnOnce() -> Goal) -> GoalId {
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

    fn plan_method(
        &mut self,
        class: &ClassFile,
        method: MethodIdx,
        descriptor: &str,
        body: &MethodBody,
        is_clinit: bool,
        opts: &PlanOptions,
    ) {
        let cp = &class.constant_pool;
        let m = Some(method);
        let n = body.insns.len();
        // The line of each instruction: the entry with the greatest start at or before it.
        let mut line_starts: BTreeMap<InsnIdx, u16> = BTreeMap::new();
        for e in body.lines() {
            line_starts.entry(e.start).or_insert(e.line);
        }
        let line_at = |i: InsnIdx| line_starts.range(..=i).next_back().map(|(_, l)| *l);
        // Jump targets and handler entries: a `?cmp*` is paired with the `if` after it only when
        // nothing else can reach that `if`.
        let mut targets: BTreeSet<InsnIdx> = BTreeSet::new();
        for insn in &body.insns {
            targets.extend(insn.targets());
        }
        let mut handlers: BTreeMap<InsnIdx, u16> = BTreeMap::new();
        for h in &body.handlers {
            targets.insert(h.handler);
            handlers.entry(h.handler).or_insert(h.catch_type);
        }
        let ret = descriptor.rsplit_once(')').map_or("V", |(_, r)| r);
        let mut exit_goal = None;
        let mut output_goals: Option<Vec<GoalId>> = None;
        let mut paired_if: Option<usize> = None;
        let method_start = self.plan.probes.len();
        // `<clinit>` runs once per JVM, before any test (docs/protocol.md, v1): its loads and
        // constants (often large tables) would only give goals that no test can tell apart.
        let (values, constants) = (opts.values && !is_clinit, opts.constants && !is_clinit);
        // RC constants of the current straight run still waiting for a probe that tells they ran.
        let mut pending_rc: Vec<(InsnIdx, Constant)> = Vec::new();
        // JaCoCo's probe positions (`jacoco::Flow`), for the completion witnesses of line and
        // branch goals (`ProbePlan::completion_witnesses`). JaCoCo marks a line-table entry holding
        // a call, so that the lines before a call that throws still count.
        let witnesses = opts.lines || opts.branches || opts.switches;
        let mut call_lines: BTreeSet<InsnIdx> = BTreeSet::new();
        for (i, insn) in body.insns.iter().enumerate() {
            if matches!(insn, Insn::Invoke { .. } | Insn::InvokeInterface { .. } | Insn::InvokeDynamic { .. })
                && let Some((&start, _)) = line_starts.range(..=InsnIdx::new(i)).next_back()
            {
                call_lines.insert(start);
            }
        }
        let flow = jacoco::Flow::new(body, &call_lines);
        let mut jumps = jacoco::MethodProbes {
            at: BTreeMap::new(),
            fall_through: BTreeMap::new(),
            branch: BTreeMap::new(),
            switch: BTreeMap::new(),
        };
        for (i, insn) in body.insns.iter().enumerate().take(n) {
            let at = InsnIdx::new(i);
            let line = line_at(at);
            if witnesses && flow.needs_fall_through_probe(i) {
                // JaCoCo's probe on the fall-through edge into a jump target: ours must come first
                // here, so that the instrumenter can move the jumps past it.
                let p = self.push(ProbeKind::Line, m, at, line, Detail::FallThrough);
                jumps.fall_through.insert(i, p);
            }
            if i == 0 {
                if is_clinit && opts.class_init {
                    self.push(ProbeKind::ClassInit, m, at, line, Detail::None);
                }
                if opts.methods {
                    let p = self.push(ProbeKind::MethodEnter, m, at, line, Detail::None);
                    let class = self.class;
                    self.serve(p, None, || Goal::MethodEntry { class, method });
                }
            }
            if opts.lines
                && let Some(&l) = line_starts.get(&at)
            {
                let p = self.push(ProbeKind::Line, m, at, line, Detail::None);
                let existing = self.lines.get(&l).copied();
                let class = self.class;
                let g = self.serve(p, existing, || Goal::Line { class, line: l });
                self.lines.insert(l, g);
            }
            if opts.exceptions
                && let Some(&ct) = handlers.get(&at)
            {
                let catch_type = if ct == 0 { None } else { cp.class_name(ct).map(|c| c.into_owned()) };
                let p = self.push(ProbeKind::Caught, m, at, line, Detail::Caught { catch_type });
                self.serve(p, None, || Goal::Exception { probe: p });
            }
            let op = insn.op();
            match insn {
                Insn::Invoke { index, .. } | Insn::InvokeInterface { index, .. } if opts.call_sites => {
                    let callee = cp.member_ref(*index).map_or_else(
                        || format!("#{index}"),
                        |r| format!("{}.{}{}", r.class, r.name, r.descriptor),
                    );
                    self.push(ProbeKind::CallSite, m, at, line, Detail::Call { callee });
                }
                _ => {}
            }
            if opts.branches {
                if let Some((kind, nan_greater)) = cmp_kind(op) {
                    let next = body.insns.get(i + 1).map(Insn::op);
                    let paired = next
                        .filter(|o| (0x99..=0x9e).contains(&o.0))
                        .filter(|_| !targets.contains(&InsnIdx::new(i + 1)));
                    if let Some(next) = paired {
                        let (_, c) = branch_cond(next).unwrap_or((kind, cond::EQ));
                        let c = if nan_greater { c | cond::NAN_GREATER } else { c };
                        self.branch(kind, m, at, line, c);
                        paired_if = Some(i + 1);
                    }
                } else if let Some((kind, c)) = branch_cond(op)
                    && paired_if != Some(i)
                {
                    self.branch(kind, m, at, line, c);
                }
            }
            if opts.switches {
                // (key, target) pairs; keys that lead to the default target are gaps javac filled
                // in, not cases.
                let mut pairs: Vec<(i32, InsnIdx)> = match insn {
                    Insn::TableSwitch { default, low, targets } => targets
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| *t != default)
                        .map(|(k, t)| (low.wrapping_add(k as i32), *t))
                        .collect(),
                    Insn::LookupSwitch { default, pairs } => {
                        pairs.iter().filter(|(_, t)| t != default).copied().collect()
                    }
                    _ => Vec::new(),
                };
                if insn.is_switch() {
                    pairs.sort_unstable_by_key(|&(k, _)| k);
                    pairs.dedup_by_key(|&mut (k, _)| k);
                    let keys: Vec<i32> = pairs.iter().map(|&(k, _)| k).collect();
                    // Keys are sorted, so the first key seen for a target is its smallest.
                    let target_key: Vec<i32> = pairs
                        .iter()
                        .map(|&(_, t)| pairs.iter().find(|&&(_, u)| u == t).map_or(0, |&(k, _)| k))
                        .collect();
                    let mut goal_keys = target_key.clone();
                    goal_keys.sort_unstable();
                    goal_keys.dedup();
                    let p = self.push(ProbeKind::SwitchKey, m, at, line, Detail::Switch { keys, target_key });
                    // Each distinct target with its goal (named by its smallest key, first in `pairs`).
                    let mut cases = Vec::with_capacity(goal_keys.len() + 1);
                    for k in goal_keys {
                        let g =
                            self.serve(p, None, || Goal::SwitchCase { probe: p, case: SwitchCase::Key(k) });
                        let target = pairs.iter().find(|&&(key, _)| key == k).map_or(at, |&(_, t)| t);
                        cases.push((target, g));
                    }
                    let g = self.serve(p, None, || Goal::SwitchCase { probe: p, case: SwitchCase::Default });
                    cases.push((insn.targets().next().unwrap_or(at), g));
                    jumps.switch.insert(i, cases);
                }
            }
            if opts.operands
                && let Some((bin, kind)) = binop_of(op)
            {
                let p = self.push(kind, m, at, line, Detail::Operator { op: bin });
                for &r in bin.replacements() {
                    self.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::ReplaceOp(r) });
                }
                if bin.is_arithmetic() {
                    self.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::FirstOperand });
                    self.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::SecondOperand });
                }
            }
            if opts.exceptions && op == Opcode::ATHROW {
                let p = self.push(ProbeKind::Thrown, m, at, line, Detail::None);
                self.serve(p, None, || Goal::Exception { probe: p });
            }
            if op.is_return() {
                if opts.returns
                    && let Some(kind) = return_probe(op)
                {
                    let p = self.push(kind, m, at, line, Detail::None);
                    let values = output_values(ret);
                    let class = self.class;
                    let existing = output_goals.take();
                    let mut goals = Vec::with_capacity(values.len());
                    for (k, &value) in values.iter().enumerate() {
                        let g = existing.as_ref().map(|e| e[k]);
                        goals.push(self.serve(p, g, || Goal::Output { class, method, value }));
                    }
                    output_goals = Some(goals);
                }
                if opts.methods {
                    let p = self.push(ProbeKind::MethodExit, m, at, line, Detail::None);
                    let class = self.class;
                    exit_goal = Some(self.serve(p, exit_goal, || Goal::MethodNormalExit { class, method }));
                }
            }
            if witnesses && flow.needs_probe_at(i, insn) {
                // JaCoCo has a probe that runs whenever this instruction does (a return, `athrow`,
                // `goto` into a multi-target instruction, or the first of a line with a call that
                // nothing jumps to): any probe of ours here stands for it.
                let p = self
                    .probe_at(method_start, at)
                    .unwrap_or_else(|| self.push(ProbeKind::Line, m, at, line, Detail::None));
                jumps.at.insert(i, p);
            }
            if witnesses && matches!(insn, Insn::Branch { .. }) && insn.falls_through() {
                // A paired `if` has no probe of its own: its compare's records the jump.
                let pos = if paired_if == Some(i) { InsnIdx::new(i - 1) } else { at };
                if let Some(p) = self.probe_at_with(method_start, pos, |d| matches!(d, Detail::Branch { .. }))
                {
                    // `branch` serves the taken goal, then the fall-through one.
                    if let [taken, fall, ..] = self.plan.probes[p.index()].goals[..] {
                        jumps.branch.insert(i, (taken, fall));
                    }
                }
            }
            let next = InsnIdx::new(i + 1);
            let straight_on = i + 1 < n && insn.falls_through() && !targets.contains(&next);
            if constants && let Some(c) = constant_of(insn, cp) {
                pending_rc.push((at, c));
            }
            if !pending_rc.is_empty() {
                let server = match self.probe_at(method_start, at) {
                    Some(p) => Some(p),
                    None if !straight_on => Some(self.push(ProbeKind::Line, m, at, line, Detail::None)),
                    None => None,
                };
                if let Some(p) = server {
                    for (c_at, c) in std::mem::take(&mut pending_rc) {
                        for by in constant_replacements(c) {
                            let mutant = Mutant::ReplaceConstant { at: c_at, by };
                            self.serve(p, None, || Goal::WeakMutation { probe: p, mutant });
                        }
                    }
                }
            }
            // (Not before a try block's start that JaCoCo probes on the fall-through edge: that
            // edge probe must be the first at its instruction.)
            if values
                && straight_on
                && !(witnesses && flow.needs_fall_through_probe(i + 1))
                && let Some(kind) = load_value_kind(insn, cp)
            {
                let p = self.push(kind, m, next, line_at(next), Detail::None);
                for u in UnaryOp::ALL {
                    self.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::InsertUnary(u) });
                }
            }
        }
        if witnesses {
            self.completion_witnesses(body, &flow, &jumps, |i| line_at(InsnIdx::new(i)), opts.lines);
        }
    }

    /// Records the witnesses of this method's line goals (each instruction's, on its line) and of
    /// its branch and switch goals (`ProbePlan::completion_witnesses`).
    fn completion_witnesses(
        &mut self,
        body: &MethodBody,
        flow: &jacoco::Flow,
        jumps: &jacoco::MethodProbes,
        line_at: impl Fn(usize) -> Option<u16>,
        lines: bool,
    ) {
        let per_insn = jacoco::instruction_witnesses(flow, body, jumps);
        let mut found: BTreeMap<GoalId, BTreeSet<Witness>> = BTreeMap::new();
        if lines {
            for (i, w) in per_insn.iter().enumerate() {
                if let Some(&g) = line_at(i).and_then(|l| self.lines.get(&l)) {
                    found.entry(g).or_default().extend(w.iter().copied());
                }
            }
        }
        let edge = |fall: bool, to: usize, on_edge: Option<Witness>| {
            jacoco::edge_witnesses(flow, &per_insn, jumps, fall, to, on_edge)
        };
        for (&i, &(taken, fall)) in &jumps.branch {
            let Some(target) = body.insns[i].targets().next() else { continue };
            found.entry(taken).or_default().extend(edge(
                false,
                target.index(),
                Some(Witness::Covered(taken)),
            ));
            found.entry(fall).or_default().extend(edge(true, i + 1, None));
        }
        for cases in jumps.switch.values() {
            for &(t, g) in cases {
                found.entry(g).or_default().extend(edge(false, t.index(), Some(Witness::Covered(g))));
            }
        }
        for (g, w) in found {
            let all = self.plan.completion_witnesses.entry(g).or_default();
            all.extend(w);
            all.sort_unstable();
            all.dedup();
        }
    }

    /// The first probe planned at `at` in the method whose probes start at `method_start` that
    /// runs whenever `at` runs (a `FallThrough` probe does not when a jump arrives).
    fn probe_at(&self, method_start: usize, at: InsnIdx) -> Option<ProbeId> {
        self.probe_at_with(method_start, at, |d| *d != Detail::FallThrough)
    }

    /// The first probe planned at `at` whose detail passes `want`. Probes are in instruction
    /// order, so those at `at` end the method's list so far.
    fn probe_at_with(
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

    fn branch(&mut self, kind: ProbeKind, m: Option<MethodIdx>, at: InsnIdx, line: Option<u16>, c: i32) {
        let p = self.push(kind, m, at, line, Detail::Branch { cond: c });
        self.serve(p, None, || Goal::Branch { probe: p, taken: true });
        self.serve(p, None, || Goal::Branch { probe: p, taken: false });
        let base = c & 7;
        let mutants: Vec<i32> = match kind {
            // References can only be compared for (in)equality: the mutant negates the condition.
            ProbeKind::BranchRef | ProbeKind::BranchNull => vec![base ^ 1],
            _ => (cond::EQ..=cond::LE).filter(|&o| o != base).collect(),
        };
        for o in mutants {
            self.serve(p, None, || Goal::WeakMutation { probe: p, mutant: Mutant::ReplaceCond(o) });
        }
    }
}
