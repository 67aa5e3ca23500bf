//! Mutant schemata (Untch, Offutt and Harrold, "Mutation analysis using mutant schemata", ISSTA
//! 1993): with `Options::schemata`, every weak-mutation site of the plan becomes a static call into
//! `rt_abi::mutants::MUTANTS_CLASS` that computes the original operation unless the test's active
//! mutant is one of the site's, so one instrumented class runs every mutant of the weak-mutation
//! criterion (docs/mutation.md). Used only for the mutation runs of post-processing, never during
//! the search.
//!
//! A site is named by its *key*, the smallest goal id among its mutants' goals, so a mutant is its
//! weak-mutation goal ([`active_mutant`]). What each site becomes:
//!
//! - an operator (`iadd` .. `lxor`): the key pushed before it, the operator replaced by `bin*`;
//! - a jump with ROR mutants (`if<cond>`, `if_icmp<cond>`, `if_acmp<cond>`, `if[non]null`, the `if`
//!   after `lcmp`/`fcmp*`/`dcmp*`): `cond*` called before it, the jump replaced by `ifne` to its
//!   target;
//! - a numeric load with UOI mutants: `unary*` called right after it (after the probes there);
//! - a numeric constant with RC mutants: the constant and the key pushed before it, the constant
//!   replaced by `const*`.
//!
//! Nothing is inserted between a jump target and its instruction's own operands, the sequences add
//! no branch target, and each leaves the stack as the replaced instruction did: stack-map frames
//! only move, as for probes (DESIGN.md §3.2).

use std::collections::{BTreeMap, BTreeSet};

use bytecode::{Insn, InsnIdx, MethodBody, Opcode};
use classfile::ConstantPool;
use goals::{BinOp, Constant, Detail, Goal, GoalId, Mutant, Probe, ProbeId, ProbeKind, ProbePlan, UnaryOp};
use rt_abi::mutants::{self, ActiveMutant, MUTANTS_CLASS, Schema};

/// What a site does to the method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edit {
    /// The key is pushed before `at`, which becomes the schemata call.
    Replace,
    /// The schemata call is made before `at`, which becomes `ifne` to the same target.
    Jump,
    /// The schemata call is made before `at` (right after a load).
    After,
    /// The constant at `at` and the key are pushed before it, and it becomes the schemata call.
    Constant,
}

/// One schemata site of a method.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub(crate) key: u32,
    schema: Schema,
    at: InsnIdx,
    edit: Edit,
    /// The original operation's code (an operator or condition), 0 where there is none.
    original: i32,
}

/// The code of a binary operator (`rt_abi::mutants::op`).
fn op_code(op: BinOp) -> i32 {
    use rt_abi::mutants::op;
    match op {
        BinOp::Add => op::ADD,
        BinOp::Sub => op::SUB,
        BinOp::Mul => op::MUL,
        BinOp::Div => op::DIV,
        BinOp::Rem => op::REM,
        BinOp::Shl => op::SHL,
        BinOp::Shr => op::SHR,
        BinOp::Ushr => op::USHR,
        BinOp::And => op::AND,
        BinOp::Or => op::OR,
        BinOp::Xor => op::XOR,
    }
}

/// The group of a mutant at its probe: RC mutants by their constant's instruction, the others
/// all in one (a probe has operator, condition or unary mutants, never two of these kinds).
fn group(m: Mutant) -> Option<InsnIdx> {
    match m {
        Mutant::ReplaceConstant { at, .. } => Some(at),
        _ => None,
    }
}

/// The mutants served by probe `p`, grouped into sites: (group, key, the mutants).
fn groups(plan: &ProbePlan, p: ProbeId) -> BTreeMap<Option<InsnIdx>, (u32, Vec<Mutant>)> {
    let mut out: BTreeMap<Option<InsnIdx>, (u32, Vec<Mutant>)> = BTreeMap::new();
    for &g in &plan.probe(p).goals {
        if let Goal::WeakMutation { probe, mutant } = plan.goal(g)
            && *probe == p
        {
            let e = out.entry(group(*mutant)).or_insert((g.0, Vec::new()));
            e.0 = e.0.min(g.0);
            e.1.push(*mutant);
        }
    }
    out
}

/// What a test activates to run the mutant of weak-mutation goal `goal` in classes instrumented
/// with schemata from `plan` (`None` for a goal of another criterion). Whether its site was
/// emitted is in the instrumenter's report (`Report::mutant_sites`).
pub fn active_mutant(plan: &ProbePlan, goal: GoalId) -> Option<ActiveMutant> {
    let Goal::WeakMutation { probe, mutant } = plan.goal(goal) else { return None };
    let (key, _) = groups(plan, *probe).remove(&group(*mutant))?;
    let (op, bits) = match *mutant {
        Mutant::ReplaceOp(r) => (op_code(r), 0),
        Mutant::FirstOperand => (mutants::op::FIRST, 0),
        Mutant::SecondOperand => (mutants::op::SECOND, 0),
        Mutant::ReplaceCond(c) => (c & 7, 0),
        Mutant::InsertUnary(u) => (unary_code(u), 0),
        Mutant::ReplaceConstant { by, .. } => (0, constant_bits(by)),
    };
    Some(ActiveMutant { site: key, op, bits })
}

fn unary_code(u: UnaryOp) -> i32 {
    match u {
        UnaryOp::Inc => mutants::unary::INC,
        UnaryOp::Dec => mutants::unary::DEC,
        UnaryOp::Neg => mutants::unary::NEG,
    }
}

/// A constant as `ActiveMutant::bits`: ints and longs sign-extended, floats and doubles raw.
fn constant_bits(c: Constant) -> u64 {
    match c {
        Constant::Int(v) => i64::from(v) as u64,
        Constant::Long(v) => v as u64,
        Constant::Float(b) => u64::from(b),
        Constant::Double(b) => b,
    }
}

/// The schemata sites of one method, from its probes (in probe order), with keys at most
/// `mutants::MAX_SITE`.
pub(crate) fn sites(plan: &ProbePlan, probes: &[(ProbeId, &Probe)], body: &MethodBody) -> Vec<Site> {
    let mut out = Vec::new();
    for &(id, p) in probes {
        for (grp, (key, muts)) in groups(plan, id) {
            if key > mutants::MAX_SITE {
                continue;
            }
            if let Some(at) = grp {
                if let Some(schema) = const_schema(muts.first().copied()) {
                    out.push(Site { key, schema, at, edit: Edit::Constant, original: 0 });
                }
                continue;
            }
            let site = |schema, at, edit, original| Site { key, schema, at, edit, original };
            match (&p.detail, p.kind) {
                (Detail::Operator { op }, kind) => {
                    let schema = match kind {
                        ProbeKind::OperandsInt => Schema::BinInt,
                        ProbeKind::OperandsLong => Schema::BinLong,
                        ProbeKind::OperandsLongShift => Schema::BinLongShift,
                        ProbeKind::OperandsFloat => Schema::BinFloat,
                        ProbeKind::OperandsDouble => Schema::BinDouble,
                        _ => continue,
                    };
                    out.push(site(schema, p.insn, Edit::Replace, op_code(*op)));
                }
                (Detail::Branch { cond }, kind) => {
                    let (schema, at) = match kind {
                        ProbeKind::BranchZero => (Schema::CondZero, p.insn),
                        ProbeKind::BranchInt => (Schema::CondInt, p.insn),
                        ProbeKind::BranchRef => (Schema::CondRef, p.insn),
                        ProbeKind::BranchNull => (Schema::CondNull, p.insn),
                        // The jump after the compare, which tests its result against 0.
                        ProbeKind::CmpLong | ProbeKind::CmpFloat | ProbeKind::CmpDouble => {
                            (Schema::CondZero, InsnIdx::new(p.insn.index() + 1))
                        }
                        _ => continue,
                    };
                    if body.insns.get(at.index()).is_some_and(|i| matches!(i, Insn::Branch { .. })) {
                        out.push(site(schema, at, Edit::Jump, cond & 7));
                    }
                }
                (_, ProbeKind::ValueInt) => out.push(site(Schema::UnaryInt, p.insn, Edit::After, 0)),
                (_, ProbeKind::ValueLong) => out.push(site(Schema::UnaryLong, p.insn, Edit::After, 0)),
                (_, ProbeKind::ValueFloat) => out.push(site(Schema::UnaryFloat, p.insn, Edit::After, 0)),
                (_, ProbeKind::ValueDouble) => out.push(site(Schema::UnaryDouble, p.insn, Edit::After, 0)),
                _ => {}
            }
        }
    }
    out
}

fn const_schema(m: Option<Mutant>) -> Option<Schema> {
    match m? {
        Mutant::ReplaceConstant { by, .. } => Some(match by {
            Constant::Int(_) => Schema::ConstInt,
            Constant::Long(_) => Schema::ConstLong,
            Constant::Float(_) => Schema::ConstFloat,
            Constant::Double(_) => Schema::ConstDouble,
        }),
        _ => None,
    }
}

/// Code to insert before instructions, as `MethodBody::insert_before` takes it.
type Insertions = Vec<(InsnIdx, Vec<Insn>)>;

/// The code of the sites of a method: the insertions (the calls after loads first at each
/// instruction, then each instruction's own), after every probe's code at the same instruction;
/// the instructions they replace, already replaced in `body`; and the operand-stack slots they need
/// above the depth at their instruction.
pub(crate) fn emit(
    sites: &[Site],
    body: &mut MethodBody,
    cp: &mut ConstantPool,
    refs: &mut BTreeMap<Schema, u16>,
) -> Result<(Insertions, u16), String> {
    let mut after: Vec<(InsnIdx, Vec<Insn>)> = Vec::new();
    let mut own: Vec<(InsnIdx, Vec<Insn>)> = Vec::new();
    let mut replaced: BTreeSet<InsnIdx> = BTreeSet::new();
    let mut need: u16 = 0;
    for s in sites {
        let call = Insn::invokestatic(match refs.get(&s.schema) {
            Some(&i) => i,
            None => {
                let (name, desc) = s.schema.method();
                let i = cp.intern_methodref(MUTANTS_CLASS, name, desc).map_err(|e| e.to_string())?;
                refs.insert(s.schema, i);
                i
            }
        });
        let arg = crate::probes::push_int(((s.key << mutants::SHIFT) as i32) | s.original, cp)
            .map_err(|e| e.to_string())?;
        if s.edit != Edit::After && !replaced.insert(s.at) {
            return Err(format!("two schemata sites at {}", s.at));
        }
        let at = s.at.index();
        match s.edit {
            Edit::After => {
                after.push((s.at, vec![arg, call]));
                need = need.max(1);
            }
            Edit::Replace => {
                own.push((s.at, vec![arg]));
                body.replace(s.at, call);
                need = need.max(1);
            }
            Edit::Jump => {
                let Insn::Branch { target, .. } = body.insns[at] else {
                    return Err(format!("schemata site {} is not a jump", s.at));
                };
                own.push((s.at, vec![arg, call]));
                body.replace(s.at, Insn::Branch { op: Opcode::IFNE, target });
                need = need.max(1);
            }
            Edit::Constant => {
                let constant = body.insns[at].clone();
                let wide = matches!(s.schema, Schema::ConstLong | Schema::ConstDouble);
                own.push((s.at, vec![constant, arg]));
                body.replace(s.at, call);
                need = need.max(if wide { 3 } else { 2 });
            }
        }
    }
    after.extend(own);
    Ok((after, need))
}
