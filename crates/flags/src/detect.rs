//! Static detection of interprocedural flags (paper 001 §3, Step 1; digest 000-001 §B2.4).
//!
//! In a method, an *IPF branch* is a conditional jump whose operand comes (see `origin`) from a
//! call returning `boolean`, and whose outcome depends on the value of that call; each outcome
//! then needs one flag value. The called method, resolved through the program database's call
//! graph (the declared target for static and special calls, every override on the classpath for
//! virtual and interface calls), is a *flag method*. In a flag method, each `ireturn` returns a
//! constant merged in (javac lowers `return c;` into `if<!c> L; iconst_1; goto E; L: iconst_0;
//! E: ireturn`), the result of a nested flag call (`return g(..);`, Algorithm 2 scenario 1), or
//! something we cannot follow. The *required paths* for a value are the returns of that constant
//! and the forwarded calls; the *required branches* are the last decisions before each such
//! constant (`origin::MethodCtx::last_branches`). A required branch that is itself an IPF branch
//! (`if (g(..)) return true;`, javac's `g() && h()`) and a forwarded call are cascades: their
//! flag methods are analysed in turn, breadth first, up to `FlagConfig::max_depth` levels below
//! the method under test (recursive flag methods end there, or when a method was seen).
//!
//! Only flag methods with code on the classpath and outside the excluded packages (the JDK: the
//! paper's filter H1, they cannot be instrumented) get a summary; their IPF branches are listed
//! anyway, with their targets.

use std::collections::{BTreeMap, VecDeque};

use bytecode::{InsnIdx, Opcode};
use programdb::{MethodId, ProgramDb};

use crate::origin::{Leaf, MethodCtx, Via};

/// What detection is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagConfig {
    /// Cascade levels below the method under test that get a summary (its own flag methods are
    /// level 1). The digest's recommendation (§C, decision 10) is 5, as EvoObj's `t_dep`.
    pub max_depth: u32,
    /// Internal-name prefixes of classes whose methods are never flag methods (not instrumentable).
    pub excluded_prefixes: Vec<String>,
}

impl FlagConfig {
    /// Depth 5; the JDK's packages excluded.
    pub fn standard() -> FlagConfig {
        let excluded = ["java/", "javax/", "jdk/", "sun/", "com/sun/"];
        FlagConfig { max_depth: 5, excluded_prefixes: excluded.iter().map(|s| s.to_string()).collect() }
    }
}

/// A conditional jump whose outcome depends on the result of one call returning `boolean`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpfBranch {
    /// The conditional jump.
    pub branch: InsnIdx,
    /// The `invoke*` whose result it tests.
    pub call: InsnIdx,
    /// The jump tests the negation of the result (`!f()`, `f() ^ true`).
    pub negated: bool,
    /// The flag value (the call's result) under which the jump is taken; the fall-through needs
    /// the other.
    pub taken_needs: bool,
    /// The operand may also come from something other than a flag call (another path stores a
    /// parameter, a field, ...).
    pub mixed: bool,
    /// The called method as named at the call site: `owner.name(descriptor)`.
    pub callee: String,
    /// The methods it may run (CHA), sorted.
    pub targets: Vec<MethodId>,
}

impl IpfBranch {
    /// The flag value that the given outcome needs.
    pub fn needs(&self, taken: bool) -> bool {
        if taken { self.taken_needs } else { !self.taken_needs }
    }
}

/// Why a flag method may return a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSource {
    /// A constant pushed at `producer`, reached through each of `via` (the required branches).
    Constant { producer: InsnIdx, via: Vec<Via> },
    /// The result of the nested flag call at `call` (possibly negated), which must be `needs`.
    Call { call: InsnIdx, needs: bool },
    /// A value not followed (a field, a parameter, a non-boolean computation).
    Unknown,
}

/// One required path: an `ireturn` and where its value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequiredPath {
    pub ret: InsnIdx,
    pub source: PathSource,
}

/// What detection knows about one flag method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagMethod {
    pub method: MethodId,
    /// The cascade level at which it was first met (1 = called from the method under test).
    pub depth: u32,
    /// The required paths returning `false` (index 0) and `true` (index 1).
    pub returns: [Vec<RequiredPath>; 2],
    /// Its own IPF branches (cascades through `if (g(..))`).
    pub branches: Vec<IpfBranch>,
    /// Nested flag calls whose result is returned (`return g(..);`), sorted.
    pub forwards: Vec<InsnIdx>,
}

impl FlagMethod {
    /// The paths returning `value`.
    pub fn paths(&self, value: bool) -> &[RequiredPath] {
        &self.returns[usize::from(value)]
    }

    /// The IPF branch at `insn`, if that jump is one.
    pub fn branch_at(&self, insn: InsnIdx) -> Option<&IpfBranch> {
        self.branches.iter().find(|b| b.branch == insn)
    }
}

/// The flags of one method under test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagAnalysis {
    pub method: MethodId,
    /// Its IPF branches, by jump then call.
    pub branches: Vec<IpfBranch>,
    /// The summaries of every flag method reached, sorted by method.
    pub flag_methods: Vec<FlagMethod>,
    /// Some cascade went deeper than `FlagConfig::max_depth`.
    pub depth_capped: bool,
}

impl FlagAnalysis {
    /// The summary of `m`, if it is a flag method of this analysis.
    pub fn flag_method(&self, m: MethodId) -> Option<&FlagMethod> {
        self.flag_methods.binary_search_by_key(&m, |f| f.method).ok().map(|i| &self.flag_methods[i])
    }
}

/// The IPF branches of `m` (none when it has no decodable code).
pub fn ipf_branches(db: &ProgramDb, m: MethodId) -> Vec<IpfBranch> {
    let Some(ctx) = MethodCtx::new(db, m) else { return Vec::new() };
    branches_of(&ctx)
}

fn branches_of(ctx: &MethodCtx<'_>) -> Vec<IpfBranch> {
    let mut res = Vec::new();
    for (i, insn) in ctx.body.insns.iter().enumerate() {
        let at = InsnIdx::new(i);
        if !insn.is_conditional() || !ctx.data.is_reachable(at) {
            continue;
        }
        let (flags, mixed) = ctx.branch_flags(at);
        for (src, taken_needs) in flags {
            let site = ctx.db.callees(ctx.method, src.call);
            res.push(IpfBranch {
                branch: at,
                call: src.call,
                negated: src.negated,
                taken_needs,
                mixed,
                callee: site.map(|s| format!("{}.{}{}", s.owner, s.name, s.descriptor)).unwrap_or_default(),
                targets: site.map(|s| s.targets.clone()).unwrap_or_default(),
            });
        }
    }
    res
}

/// The summary of `m` as a flag method met at cascade level `depth`; `None` without code or when
/// it does not return `boolean`.
pub fn flag_method(db: &ProgramDb, m: MethodId, depth: u32) -> Option<FlagMethod> {
    let cp = &db.class(m.class()).ok()?.constant_pool;
    if !db.member(m)?.descriptor(cp)?.ends_with(")Z") {
        return None;
    }
    let ctx = MethodCtx::new(db, m)?;
    let mut returns: [Vec<RequiredPath>; 2] = [Vec::new(), Vec::new()];
    let mut forwards = Vec::new();
    for (i, insn) in ctx.body.insns.iter().enumerate() {
        let ret = InsnIdx::new(i);
        if insn.op() != Opcode::IRETURN || !ctx.data.is_reachable(ret) {
            continue;
        }
        for leaf in ctx.leaves(ctx.data.producers(ret, 0)) {
            match leaf {
                Leaf::Const { value, producer } => {
                    let via = ctx.last_branches(producer);
                    returns[usize::from(value)]
                        .push(RequiredPath { ret, source: PathSource::Constant { producer, via } });
                }
                Leaf::Call { call, negated } => {
                    forwards.push(call);
                    for value in [false, true] {
                        let source = PathSource::Call { call, needs: value ^ negated };
                        returns[usize::from(value)].push(RequiredPath { ret, source });
                    }
                }
                Leaf::Other => {
                    for r in &mut returns {
                        r.push(RequiredPath { ret, source: PathSource::Unknown });
                    }
                }
            }
        }
    }
    forwards.sort_unstable();
    forwards.dedup();
    Some(FlagMethod { method: m, depth, returns, branches: branches_of(&ctx), forwards })
}

/// The flags of the method under test `m`: its IPF branches and the summaries of the flag methods
/// they reach, cascades included (see the module comment).
pub fn analyze(db: &ProgramDb, m: MethodId, config: &FlagConfig) -> FlagAnalysis {
    let branches = ipf_branches(db, m);
    let mut summaries: BTreeMap<MethodId, FlagMethod> = BTreeMap::new();
    let mut depth_capped = false;
    let mut work: VecDeque<(MethodId, u32)> = VecDeque::new();
    let enqueue = |targets: &[MethodId], depth: u32, work: &mut VecDeque<(MethodId, u32)>| {
        work.extend(targets.iter().map(|&t| (t, depth)));
    };
    for b in &branches {
        enqueue(&b.targets, 1, &mut work);
    }
    while let Some((f, depth)) = work.pop_front() {
        if summaries.contains_key(&f) || !instrumentable(db, f, config) {
            continue;
        }
        if depth > config.max_depth {
            depth_capped = true;
            continue;
        }
        let Some(summary) = flag_method(db, f, depth) else { continue };
        for b in &summary.branches {
            enqueue(&b.targets, depth + 1, &mut work);
        }
        for &call in &summary.forwards {
            let targets = db.callees(f, call).map(|s| s.targets.clone()).unwrap_or_default();
            enqueue(&targets, depth + 1, &mut work);
        }
        summaries.insert(f, summary);
    }
    FlagAnalysis { method: m, branches, flag_methods: summaries.into_values().collect(), depth_capped }
}

/// Whether `m` can be a flag method: outside the excluded packages, with code.
fn instrumentable(db: &ProgramDb, m: MethodId, config: &FlagConfig) -> bool {
    let name = db.class_name(m.class());
    !config.excluded_prefixes.iter().any(|p| name.starts_with(p.as_str()))
        && matches!(db.body(m), Some(Ok(_)))
}
