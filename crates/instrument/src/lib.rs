//! Probe plan + class file -> instrumented class file (DESIGN.md §3.2, §3.4): the only crate that
//! rewrites bytecode.
//!
//! Every method with code is decoded, receives the probes the plan lists for it (stack-neutral
//! sequences that call `rt_abi::TRACER_CLASS`, see `probes.rs`), gets its escaping calls redirected
//! to `rt_abi::GUARDS_CLASS` (`rt_abi::REDIRECTS`), and is encoded back. Probes add no branch
//! targets, so stack-map frames only move (the `bytecode` crate relocates them). A method that
//! cannot be rewritten (it would exceed 64 KB, a widened jump would need a new frame, the code does
//! not decode) is left exactly as it was and reported, never half-rewritten. The class also gets
//! the static reset method `rt_abi::STATIC_RESET_METHOD` (see `reset.rs`).
//!
//! Architecture Invariant: this crate allocates no probe ids; it emits exactly the probes of the
//! `goals::ProbePlan`, in id order at each instruction.

mod probes;
mod reset;
mod schemata;

pub use schemata::active_mutant;

use std::borrow::Cow;

use bytecode::{Insn, InsnIdx, MethodBody, Opcode};
use classfile::{Attribute, ClassFile, ConstantPool};
use goals::{Detail, MethodIdx, PlanClassIdx, PlanError, PlanOptions, Probe, ProbeId, ProbeKind, ProbePlan};
use programdb::ProgramDb;
use rt_abi::{GUARDS_CLASS, GuardSet, RedirectAction};

/// Past this many constant-pool entries a method gets no mutant schemata: each site may add an
/// `Integer` constant for its argument, and the probes of the methods after it need room too.
const SCHEMATA_POOL_LIMIT: usize = 60_000;

/// What to do to a class. Built with `all()` or `none()`; there is deliberately no `Default`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Options {
    /// Which probes to plan, for `instrument_standalone` (with `instrument_class` the plan
    /// given decides).
    pub plan: PlanOptions,
    /// Redirect escaping and nondeterministic calls to the guards (`rt_abi::REDIRECTS`): all of
    /// them, only those that contain the test (`GuardSet::Containment`, for classes other than
    /// the ones under test), or none.
    pub guards: Option<GuardSet>,
    /// Add the static reset method (and a `<clinit>` for the `ClassInit` probe when missing).
    pub reset: bool,
    /// Replace every weak-mutation site of the plan by a mutant schemata call (`schemata.rs`,
    /// docs/mutation.md): for the mutation runs of post-processing only, never the search. The
    /// probes stay as they are.
    pub schemata: bool,
}

impl Options {
    /// Every probe kind, the guards and the reset method.
    pub fn all() -> Options {
        Options { plan: PlanOptions::all(), guards: Some(GuardSet::All), reset: true, schemata: false }
    }

    /// Nothing added: every method is decoded and encoded back unchanged.
    pub fn none() -> Options {
        Options { plan: PlanOptions::none(), guards: None, reset: false, schemata: false }
    }

    /// Every guard, no probes, no reset: the classes under test in the verification runs.
    pub fn guards_only() -> Options {
        Options { plan: PlanOptions::none(), guards: Some(GuardSet::All), reset: false, schemata: false }
    }

    /// The containment guards alone (no probes, no reset): what a class of the user's classpath
    /// other than those under test gets when it calls a redirected method.
    pub fn containment() -> Options {
        Options {
            plan: PlanOptions::none(),
            guards: Some(GuardSet::Containment),
            reset: false,
            schemata: false,
        }
    }
}

/// A method left as it was, and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Unchanged {
    /// `name` + descriptor, e.g. `parse(Ljava/lang/String;)I`.
    pub method: String,
    pub index: MethodIdx,
    /// The plan's probes of the method, which were not emitted: their goals cannot be covered.
    pub probes: std::ops::Range<u32>,
    pub reason: String,
}

/// What instrumenting one class did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Report {
    /// Internal name of the class.
    pub class: String,
    /// Probes emitted (those of unchanged methods are not).
    pub probes: usize,
    /// Calls redirected to guards.
    pub redirects: usize,
    /// Methods left unchanged, with the reason.
    pub unchanged: Vec<Unchanged>,
    /// Other remarks (dropped type annotations, a reset method without the `<clinit>` copy).
    pub notes: Vec<String>,
    /// With `Options::schemata`: the keys of the mutant schemata sites emitted, sorted (a mutant
    /// runs only when its site is here, `active_mutant`).
    pub mutant_sites: Vec<u32>,
    /// With `Options::schemata`: methods instrumented with their probes but without their
    /// schemata (they would not encode: past 64 KB, say), with the reason.
    pub unmutated: Vec<(String, String)>,
}

/// Why a class could not be instrumented at all (the caller keeps the original bytes).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    ClassFile(#[from] classfile::Error),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("class {class} is not class {planned} of the plan")]
    NotPlanned { class: String, planned: String },
    #[error("synthesised method {method} does not encode: {source}")]
    Synthesize { method: &'static str, source: bytecode::EncodeError },
    #[error("class {class} already has a {method} method (instrumented twice?)")]
    AlreadyInstrumented { class: String, method: &'static str },
}

/// The instrumented bytes of one class with its report, or why it could not be instrumented.
pub type Instrumented = Result<(Vec<u8>, Report), Error>;

/// Plans a set of classes together (class ids and probe ids in the order given) and instruments
/// each. One result per input: a class that cannot be planned or instrumented is an `Err` (its
/// original bytes should be used as they are) and takes no ids.
pub fn instrument_classes(classes: &[&[u8]], opts: &Options) -> (ProbePlan, Vec<Instrumented>) {
    let mut plan = ProbePlan::new();
    let ids: Vec<Result<PlanClassIdx, Error>> =
        classes.iter().map(|b| plan.add_class_bytes(b, &opts.plan).map_err(Error::from)).collect();
    let results = classes
        .iter()
        .zip(ids)
        .map(|(bytes, id)| id.and_then(|id| instrument_class(bytes, &plan, id, opts)))
        .collect();
    (plan, results)
}

/// `instrument_classes` for classes of the program database: each class is the one the database
/// parsed and each method body the one it decoded, for the plan and the rewriting alike.
pub fn instrument_classes_in(
    db: &ProgramDb,
    classes: &[programdb::ClassId],
    opts: &Options,
) -> (ProbePlan, Vec<Instrumented>) {
    let mut plan = ProbePlan::new();
    let ids: Vec<Result<PlanClassIdx, Error>> =
        classes.iter().map(|&c| plan.add_class_in(db, c, &opts.plan).map_err(Error::from)).collect();
    let results = classes
        .iter()
        .zip(ids)
        .map(|(&c, id)| id.and_then(|id| instrument_class_in(db, c, &plan, id, opts)))
        .collect();
    (plan, results)
}

/// `instrument_class` for class `c` of the program database, planned as `class` of `plan`. The
/// class is copied out of the database, since rewriting changes it.
pub fn instrument_class_in(
    db: &ProgramDb,
    c: programdb::ClassId,
    plan: &ProbePlan,
    class: PlanClassIdx,
    opts: &Options,
) -> Result<(Vec<u8>, Report), Error> {
    let cf = db.class(c).map_err(|e| PlanError::Unreadable(e.to_string()))?.clone();
    rewrite_class(cf, plan, class, opts, |mi| {
        let m = db.method_id(c, mi as u16)?;
        Some(db.body(m)?.map(Cow::Borrowed).map_err(str::to_owned))
    })
}

/// Plans `bytes` alone (probe ids from 0, class id 0) and instruments it.
pub fn instrument_standalone(bytes: &[u8], opts: &Options) -> Result<(Vec<u8>, ProbePlan, Report), Error> {
    let mut plan = ProbePlan::new();
    let class = plan.add_class_bytes(bytes, &opts.plan)?;
    let (out, report) = instrument_class(bytes, &plan, class, opts)?;
    Ok((out, plan, report))
}

/// Instruments class `class` of `plan`, which must have been planned from these same bytes.
pub fn instrument_class(
    bytes: &[u8],
    plan: &ProbePlan,
    class: PlanClassIdx,
    opts: &Options,
) -> Result<(Vec<u8>, Report), Error> {
    let cf = ClassFile::parse(bytes)?;
    // Decoded before the rewriting starts changing the constant pool (which only appends, so
    // the bodies are the same).
    let cp = &cf.constant_pool;
    let mut bodies: Vec<Option<Result<MethodBody, String>>> = cf
        .methods
        .iter()
        .map(|m| {
            let code = m.code(cp)?;
            Some(
                code.map_err(|e| e.to_string())
                    .and_then(|c| bytecode::decode(&c, cp).map_err(|e| e.to_string())),
            )
        })
        .collect();
    rewrite_class(cf, plan, class, opts, |mi| Some(bodies.get_mut(mi)?.take()?.map(Cow::Owned)))
}

/// Rewrites `cf`, class `class` of `plan`, taking each method's decoded original code from `body`
/// (by method index; `None` for a method without code, `Err` with the reason when it does not
/// decode).
fn rewrite_class<'b>(
    mut cf: ClassFile,
    plan: &ProbePlan,
    class: PlanClassIdx,
    opts: &Options,
    mut body: impl FnMut(usize) -> Option<Result<Cow<'b, MethodBody>, String>>,
) -> Result<(Vec<u8>, Report), Error> {
    let name = cf.name().into_owned();
    let cplan = plan.classes().get(class.index()).ok_or_else(|| Error::NotPlanned {
        class: name.clone(),
        planned: format!("{class} (the plan has {} classes)", plan.classes().len()),
    })?;
    if cplan.name != name {
        return Err(Error::NotPlanned { class: name, planned: cplan.name.clone() });
    }
    let mut report = Report { class: name.clone(), ..Report::default() };
    if opts.reset && cf.method(rt_abi::STATIC_RESET_METHOD, rt_abi::STATIC_RESET_DESCRIPTOR).is_some() {
        return Err(Error::AlreadyInstrumented { class: name, method: rt_abi::STATIC_RESET_METHOD });
    }
    let mut clinit_body: Option<MethodBody> = None;
    let mut refs = probes::TracerRefs::default();
    let mut schema_refs = std::collections::BTreeMap::new();
    if let Some(set) = opts.guards {
        report.redirects += redirect_method_handles(&mut cf.constant_pool, set)?;
    }
    let ClassFile { constant_pool: cp, methods, .. } = &mut cf;
    for (mi, method) in methods.iter_mut().enumerate() {
        let Some(attr_pos) =
            method.attributes.iter().position(|a| cp.utf8(a.name_index).as_deref() == Some("Code"))
        else {
            continue;
        };
        let mname =
            format!("{}{}", method.name(cp).unwrap_or_default(), method.descriptor(cp).unwrap_or_default());
        let index = MethodIdx(mi as u16);
        let planned = cplan.methods.iter().find(|m| m.index == index).map_or(0..0, |m| m.probes.clone());
        // The method has a `Code` attribute (`attr_pos`), so `body` has an answer for it.
        let decoded = body(mi).unwrap_or_else(|| Err("no Code attribute".to_string()));
        let body = match decoded {
            Ok(b) => b.into_owned(),
            Err(reason) => {
                report.unchanged.push(Unchanged {
                    method: mname,
                    index,
                    probes: planned,
                    reason: format!("does not decode: {reason}"),
                });
                continue;
            }
        };
        if opts.reset && mname == "<clinit>()V" {
            clinit_body = Some(body.clone());
        }
        let probes: Vec<(ProbeId, &Probe)> = plan.method_probes(class, index).collect();
        let mut redirects = 0;
        let sites = if opts.schemata { schemata::sites(plan, &probes, &body) } else { Vec::new() };
        let mut rewritten = Err(String::new());
        if !sites.is_empty() && cp.len() > SCHEMATA_POOL_LIMIT {
            report.unmutated.push((mname.clone(), format!("constant pool has {} entries", cp.len())));
        } else if !sites.is_empty() {
            // A failed attempt must leave nothing behind: the pool and the interned references
            // are put back as they were.
            let saved = (cp.clone(), refs.clone(), schema_refs.clone());
            let edit = Edit { probes: &probes, sites: &sites, guards: opts.guards };
            rewritten = rewrite(body.clone(), &edit, cp, &mut refs, &mut schema_refs, &mut redirects)
                .and_then(|b| encode(&b, cp));
            match &rewritten {
                Ok(_) => report.mutant_sites.extend(sites.iter().map(|s| s.key)),
                Err(reason) => {
                    report.unmutated.push((mname.clone(), reason.clone()));
                    redirects = 0;
                    (*cp, refs, schema_refs) = saved;
                }
            }
        }
        if rewritten.is_err() {
            let edit = Edit { probes: &probes, sites: &[], guards: opts.guards };
            rewritten = rewrite(body, &edit, cp, &mut refs, &mut schema_refs, &mut redirects)
                .and_then(|b| encode(&b, cp));
        }
        match rewritten {
            Ok((code, notes)) => {
                report.probes += probes.len();
                report.redirects += redirects;
                report.notes.extend(notes.into_iter().map(|n| format!("{mname}: {n}")));
                // The attribute keeps its own name entry: interning "Code" up front would add an
                // unused constant to a class without code (an interface), which must come out
                // byte-identical when nothing is inserted.
                let name_index = method.attributes[attr_pos].name_index;
                method.attributes[attr_pos] = Attribute { name_index, info: code.to_bytes() };
            }
            Err(reason) => report.unchanged.push(Unchanged { method: mname, index, probes: planned, reason }),
        }
    }
    if opts.reset {
        let code_name = cf.constant_pool.intern_utf8("Code")?;
        reset::add_reset(&mut cf, clinit_body, opts.guards, code_name, &mut report)?;
    }
    if let Some(p) = cplan.class_init
        && plan.probe(p).method.is_none()
    {
        let code_name = cf.constant_pool.intern_utf8("Code")?;
        reset::add_clinit(&mut cf, plan.probe(p).arg(p), code_name)?;
        report.probes += 1;
    }
    report.mutant_sites.sort_unstable();
    Ok((cf.to_bytes(), report))
}

/// Points every method handle constant of `cp` that names a method `set` redirects by a guard of
/// the same effective type ([`RedirectAction::ReplaceWith`] of a static or virtual method) at that
/// guard instead, and returns how many it changed. Such a constant is an `ldc` operand or
/// a bootstrap argument: `list.forEach(File::delete)` hands `File.delete` to JDK code through
/// `LambdaMetafactory` without any call instruction that [`rewrite`] could redirect. A static
/// guard taking the receiver first has the effective type of the virtual method, which is all
/// `LambdaMetafactory` and `invokeExact` look at. Constructor references keep their target (their
/// guards check an argument rather than replace the call); the OS sandbox covers them. The pool is
/// rebuilt entry by entry, so every index stays what it was.
fn redirect_method_handles(cp: &mut ConstantPool, set: GuardSet) -> Result<usize, Error> {
    const REF_INVOKE_VIRTUAL: u8 = 5;
    const REF_INVOKE_STATIC: u8 = 6;
    let handles: Vec<(u16, u8, u16)> = cp
        .iter()
        .filter_map(|(i, c)| match c {
            classfile::Constant::MethodHandle { reference_kind, reference_index } => {
                Some((i, *reference_kind, *reference_index))
            }
            _ => None,
        })
        .collect();
    let mut swaps: Vec<(u16, u16)> = Vec::new();
    for (at, kind, target) in handles {
        let opcode = match kind {
            REF_INVOKE_VIRTUAL => rt_abi::opcode::INVOKEVIRTUAL,
            REF_INVOKE_STATIC => rt_abi::opcode::INVOKESTATIC,
            _ => continue,
        };
        let Some(r) = cp.member_ref(target) else { continue };
        if !r.class.starts_with("java/") {
            continue;
        }
        let Some(red) = rt_abi::redirect_for(opcode, &r.class, &r.name, &r.descriptor) else { continue };
        let RedirectAction::ReplaceWith { name, descriptor } = red.action else { continue };
        if !set.applies(red) {
            continue;
        }
        swaps.push((at, cp.intern_methodref(GUARDS_CLASS, name, descriptor)?));
    }
    if swaps.is_empty() {
        return Ok(0);
    }
    let mut out = ConstantPool::new();
    for (i, c) in cp.iter() {
        let c = match swaps.iter().find(|(at, _)| *at == i) {
            Some(&(_, guard)) => classfile::Constant::MethodHandle {
                reference_kind: REF_INVOKE_STATIC,
                reference_index: guard,
            },
            None => c.clone(),
        };
        if out.push(c)? != i {
            // A pool with gaps other than the second slots of longs and doubles: left as it was.
            return Ok(0);
        }
    }
    *cp = out;
    Ok(swaps.len())
}

/// Whether a class's constant pool refers to a method that `set` redirects (a `Methodref` or
/// `InterfaceMethodref` to it; the opcode of the call is not looked at, so a class may be named
/// that has no such call, and then comes out with no redirect). This is how the classes of the
/// user's classpath that need the containment guards are found without decoding them.
pub fn refers_to_redirects(cp: &ConstantPool, set: GuardSet) -> bool {
    cp.iter().any(|(i, c)| {
        matches!(c, classfile::Constant::Methodref { .. } | classfile::Constant::InterfaceMethodref { .. })
            && cp.member_ref(i).is_some_and(|r| {
                r.class.starts_with("java/")
                    && rt_abi::is_redirect_target(set, &r.class, &r.name, &r.descriptor)
            })
    })
}

/// Encodes a body, turning encoder notes into text.
fn encode(body: &MethodBody, cp: &ConstantPool) -> Result<(classfile::Code, Vec<String>), String> {
    let (code, notes) = bytecode::encode(body, cp).map_err(|e| e.to_string())?;
    Ok((code, notes.iter().map(|n| format!("{n:?}")).collect()))
}

/// What [`rewrite`] puts into one method: its probes, its mutant schemata sites, its guards.
pub(crate) struct Edit<'a> {
    pub(crate) probes: &'a [(ProbeId, &'a Probe)],
    pub(crate) sites: &'a [schemata::Site],
    pub(crate) guards: Option<GuardSet>,
}

/// Inserts the probes, mutant schemata and guard redirections into a decoded body. On `Err` the
/// caller keeps the original method; the body is consumed either way, so nothing half-done can
/// leak out.
pub(crate) fn rewrite(
    mut body: MethodBody,
    edit: &Edit<'_>,
    cp: &mut ConstantPool,
    refs: &mut probes::TracerRefs,
    schema_refs: &mut std::collections::BTreeMap<rt_abi::mutants::Schema, u16>,
    redirects: &mut usize,
) -> Result<MethodBody, String> {
    let (probes, guards) = (edit.probes, edit.guards);
    let n = body.insns.len();
    let scratch = if probes.iter().any(|(_, p)| probes::needs_scratch(p.kind)) {
        Some(body.fresh_local(4).ok_or("no room for 4 scratch locals (max_locals limit)")?)
    } else {
        None
    };
    let mut insertions: Vec<(InsnIdx, Vec<Insn>)> = Vec::new();
    let mut extra: u16 = 0;
    let enter =
        probes.iter().find(|(_, p)| p.kind == ProbeKind::MethodEnter).map_or(-1, |(id, p)| p.arg(*id));
    // Probes at instruction 0 that must run once per call, not again when a loop jumps back to 0.
    let mut prelude_len = 0usize;
    // Fall-through probes: (instruction, code length); the plan puts each first at its instruction.
    let mut edges: Vec<(InsnIdx, usize)> = Vec::new();
    for (id, p) in probes {
        if p.insn.index() >= n {
            return Err(format!("the plan's probe {id} is at {}, past the {n} instructions", p.insn));
        }
        let (code, need) = probes::probe_code(p.kind, p.arg(*id), enter, scratch, refs, cp)?;
        if p.insn.index() == 0 && matches!(p.kind, ProbeKind::ClassInit | ProbeKind::MethodEnter) {
            prelude_len += code.len();
        }
        if p.detail == Detail::FallThrough {
            if p.insn.index() == 0 || insertions.last().is_some_and(|(at, _)| *at == p.insn) {
                return Err(format!("the plan's fall-through probe {id} is not first at {}", p.insn));
            }
            edges.push((p.insn, code.len()));
        }
        extra = extra.max(need);
        insertions.push((p.insn, code));
    }
    // After every probe's code at an instruction (and before a guard's check of an argument).
    if !edit.sites.is_empty() {
        let (code, need) = schemata::emit(edit.sites, &mut body, cp, schema_refs)?;
        extra = extra.max(need);
        insertions.extend(code);
    }
    if let Some(set) = guards {
        for i in 0..n {
            let Insn::Invoke { op, index } = body.insns[i] else { continue };
            let Some(r) = cp.member_ref(index) else { continue };
            // Every redirected owner is a JDK class: skip the table scan for the others.
            if !r.class.starts_with("java/") {
                continue;
            }
            let Some(red) = rt_abi::redirect_for(op.0, &r.class, &r.name, &r.descriptor) else { continue };
            if !set.applies(red) {
                continue;
            }
            let class = r.class.into_owned();
            let at = InsnIdx::new(i);
            let guard = |cp: &mut ConstantPool, name: &str, desc: &str| -> Result<Insn, String> {
                Ok(Insn::invokestatic(
                    cp.intern_methodref(GUARDS_CLASS, name, desc).map_err(|e| e.to_string())?,
                ))
            };
            match red.action {
                RedirectAction::ReplaceWith { name, descriptor } => {
                    body.replace(at, guard(cp, name, descriptor)?);
                }
                RedirectAction::CheckLastArgBefore { name, descriptor } => {
                    insertions.push((at, vec![guard(cp, name, descriptor)?]));
                }
                RedirectAction::CheckArgUnderTopBefore { name, descriptor } => {
                    let swap = Insn::simple(Opcode::SWAP);
                    insertions.push((at, vec![swap.clone(), guard(cp, name, descriptor)?, swap]));
                }
                RedirectAction::DenyBefore { name } => {
                    insertions.push((at, vec![guard(cp, name, "()V")?]));
                }
                RedirectAction::PushArgAndRetarget { name, descriptor, new_descriptor } => {
                    let target =
                        cp.intern_methodref(&class, "<init>", new_descriptor).map_err(|e| e.to_string())?;
                    insertions.push((at, vec![guard(cp, name, descriptor)?]));
                    body.replace(at, Insn::Invoke { op: Opcode::INVOKESPECIAL, index: target });
                    // The pushed argument takes at most two slots (a long seed).
                    extra = extra.max(2);
                }
            }
            *redirects += 1;
        }
    }
    if insertions.is_empty() {
        return Ok(body);
    }
    body.max_stack = body.max_stack.checked_add(extra).ok_or("max_stack would exceed 65535")?;
    let reloc = body.insert_before(insertions).map_err(|e| e.to_string())?;
    if prelude_len > 0 {
        skip_prelude_on_jumps(&mut body, prelude_len);
    }
    // A fall-through probe's code must run only when the instruction before it falls through:
    // jumps and handlers that arrived at its code now land just past it.
    for (at, len) in edges {
        let from = reloc.entry(at);
        move_arrivals(&mut body, from, InsnIdx::new(from.index() + len));
    }
    Ok(body)
}

/// After code was inserted before instruction 0, every jump to the old instruction 0 lands on the
/// first inserted instruction. A method whose first instruction is a loop head would then re-run
/// its entry probes on every iteration: move those jumps (and the frame, JVMS §4.7.4) past the
/// `len` prelude instructions. Line entries and handler ranges keep pointing at 0.
pub(crate) fn skip_prelude_on_jumps(body: &mut MethodBody, len: usize) {
    move_arrivals(body, InsnIdx(0), InsnIdx::new(len));
}

/// Makes every jump, handler entry and stack-map frame at `from` point at `to` instead, so the
/// straight-line code in between runs only when control falls into it. Line entries and handler
/// ranges stay.
fn move_arrivals(body: &mut MethodBody, from: InsnIdx, to: InsnIdx) {
    for insn in &mut body.insns {
        insn.map_targets(|t| if t == from { to } else { t });
    }
    for h in &mut body.handlers {
        if h.handler == from {
            h.handler = to;
        }
    }
    for a in &mut body.attributes {
        if let bytecode::CodeAttribute::StackMapTable { frames, .. } = a {
            for f in frames {
                if f.at == from {
                    f.at = to;
                }
            }
        }
    }
}
