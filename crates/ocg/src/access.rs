//! Choosing the method that sets or gets a non-public field (digest 000-001 §A2.4, Eq. (1)).
//!
//! A template that must put a value into a private field, or read one, calls a method of the
//! object's class instead. The candidates are the paths `p = <m_s, ..., m_e>` of the call graph
//! where `m_s` is a method a test can call on the object and `m_e` writes (or, for a getter,
//! returns) the field; each path is scored by Eq. (1),
//!
//! `score(p) = (N_v + 1) * (sum_i comp(m_i)) / |p|`,
//!
//! a method scores the best of its paths, and `sample` picks one with probability proportional to
//! its score (the paper's roulette). The analysis is static and per object: `class` is the
//! object's runtime class, so a call on `this` goes where dispatch on that class sends it.
//!
//! What a path is, precisely (the paper leaves most of this open; [I] marks our readings):
//! - `m_s` is an instance method declared in `class` or inherited from a superclass, the one
//!   dispatch selects (an override hides what it overrides); not a constructor, static, private,
//!   abstract, synthetic or bridge method.
//! - A path continues only through calls whose receiver is `this` of the caller (the receiver's
//!   producer, seen through locals and `checkcast`, is the entry value of slot 0), to the method
//!   dispatch on `class` selects (`invokespecial`: the method it resolves to, so `super.m()` and
//!   private helpers are followed); at most `max_depth` methods, none twice. Static helpers and
//!   calls on other objects are not followed [I].
//! - `m_e` of a setter writes the slot on `this`: a `putfield` of the field, or, for an element,
//!   an `xastore` whose array is read from the field of `this`. The field an instruction names is
//!   resolved up the superclasses (javac names the class of the qualifier, often a subclass of
//!   the declaring one). `m_e` of a getter returns a value produced by a `getfield` of the field
//!   on `this` (element: by an `xaload` of that array); for a getter path every `m_i` before
//!   `m_e` must return the result of its call to `m_{i+1}`, or the test would not get the value
//!   [I].
//! - `N_v` counts the declared parameters of `m_s` the written value depends on, followed back
//!   through the path (parameter k of `m_{i+1}` is whatever reaches argument k of the call in
//!   `m_i`). Data dependence is followed through locals and through every operand of every
//!   instruction, so a call's result depends on its receiver and arguments, and a value made by
//!   `new X(args)` depends on what reaches the constructor's arguments [I]. For an element, the
//!   parameters that reach the index count too (digest E3: `install(slot, capacity)`). For a
//!   getter the value is read, not written: `N_v` counts only the parameters that reach the
//!   index of an element read, and is 0 for a plain field [I].
//! - `comp(m_i) = |B'| / |B|`: `B` are the conditional edges of the CFG of `m_i` (taken and not
//!   taken, switch cases and default), `B'` those on some CFG path that also visits `s_i`, the
//!   call to `m_{i+1}` or the field access in `m_e`: `reach(e.dst, s_i) or reach(s_i, e.src)`,
//!   over all CFG edges including exceptional ones; `comp = 1` when `B` is empty (the digest's
//!   reading, which reproduces Figure 6).
//!
//! Deviations from the digest's numbers: for E3's `install` we count the constructor argument
//! `capacity` as well as `slot`, so `N_v = 2` and the score is `3 * 0.75 = 2.25` (the digest's
//! alternative), not `1.5`. Ties between a method's paths go to the shorter path, then to the
//! first found (calls in instruction order). Code unreachable from a method's entry ends or
//! continues no path, and a candidate scoring 0 is dropped. A class that is not on the classpath
//! has no candidates (the signature has no error: nothing we cannot see can be called).
//!
//! Besides Eq. (1)'s dependence sets, each candidate names the parameter passed on unchanged as
//! the value (`direct_value_param`) and as the index (`direct_index_param`): `value_params` may
//! hold a parameter of another type (E3's `capacity` reaches the stored `Shelf` only through its
//! constructor), so a template that puts its value into a parameter should use the direct one.
//! `interesting_paths` lists every scored path (what the tests check against Figure 6), `render`
//! prints candidates as text.
//!
//! It deliberately does not run anything: whether a sampled setter really sets the field is for
//! the executed template to show.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use analysis::{Cfg, DataDeps, EdgeKind, LocalDef, StackDef};
use bytecode::{Insn, InsnIdx, MethodBody, Opcode};
use classfile::descriptor::MethodDescriptor;
use classfile::{ConstantPool, MemberRef, access};
use programdb::{ClassId, InvokeKind, MethodId, ProgramDb};

use crate::graph::method_name;

/// The state an accessor writes or reads: field `name` (type `descriptor`) declared in class
/// `owner` (internal name), or, when `element`, an element of the array that field holds ("array
/// element is a special form of field of an array object").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldSlot {
    pub owner: String,
    pub name: String,
    pub descriptor: String,
    pub element: bool,
}

/// One candidate: the method a test calls, `m_s` of an interesting path `<m_s..m_e>`.
#[derive(Debug, Clone, PartialEq)]
pub struct Accessor {
    /// `m_s`: an instance method (not a constructor, not static, not private, not abstract) of
    /// the class or one of its superclasses (the one that dispatch on the class selects).
    pub method: MethodId,
    /// The best-scoring path `m_s..m_e`.
    pub path: Vec<MethodId>,
    /// The maximum over its interesting paths of Eq. (1).
    pub score: f64,
    /// Declared parameters of `m_s` (0-based, `this` not counted) on which the written value
    /// depends, sorted (for a getter: empty).
    pub value_params: Vec<u16>,
    /// For an element: parameters of `m_s` on which the array index depends, sorted.
    pub index_params: Vec<u16>,
    /// The parameter of `m_s` whose value is written unchanged (passed along the path through
    /// locals, casts and arguments, not computed from): where a template puts the value it
    /// wants in the field. `None` when the value is computed (`l * 2`, `new Shelf(capacity)`)
    /// or, for a getter, not written.
    pub direct_value_param: Option<u16>,
    /// For an element: the parameter of `m_s` used unchanged as the index, if any.
    pub direct_index_param: Option<u16>,
}

/// Whether a path writes the slot or reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Access {
    Set,
    Get,
}

/// One interesting path with the parts of its Eq. (1) score.
#[derive(Debug, Clone, PartialEq)]
pub struct InterestingPath {
    /// `m_s..m_e`.
    pub path: Vec<MethodId>,
    /// Per method of `path`, the instruction the path goes through: the call to the next
    /// method, or, in `m_e`, the field (or element) write or the return of the read value.
    pub sites: Vec<InsnIdx>,
    /// Per method of `path`, `comp(m_i)`.
    pub comp: Vec<f64>,
    pub value_params: Vec<u16>,
    pub index_params: Vec<u16>,
    pub direct_value_param: Option<u16>,
    pub direct_index_param: Option<u16>,
    /// `N_v`: the parameters of `m_s` in `value_params` or `index_params`.
    pub n_v: u16,
    /// Eq. (1).
    pub score: f64,
}

/// Limits of the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessConfig {
    /// The longest path, in methods (the paper's `t_dep`, 5).
    pub max_depth: u32,
    /// At most this many accessors are returned: the highest-scoring ones (then by `MethodId`).
    pub max_candidates: usize,
    /// At most this many partial and complete paths are looked at per start method, so a class
    /// whose methods call each other densely cannot make the enumeration exponential.
    pub max_paths: usize,
}

impl AccessConfig {
    /// The paper's depth bound (`t_dep = 5`, digest §A2.7); the two caps are ours.
    pub fn paper() -> AccessConfig {
        AccessConfig { max_depth: 5, max_candidates: 32, max_paths: 4096 }
    }
}

/// The methods a test can call on an object of runtime class `class` (internal name) to set
/// `slot`, each with its best path; sorted by `MethodId`.
pub fn setters(db: &ProgramDb, class: &str, slot: &FieldSlot, config: &AccessConfig) -> Vec<Accessor> {
    accessors(db, class, slot, Access::Set, config)
}

/// The methods a test can call on an object of runtime class `class` to get `slot` back as their
/// result, each with its best path; sorted by `MethodId`.
pub fn getters(db: &ProgramDb, class: &str, slot: &FieldSlot, config: &AccessConfig) -> Vec<Accessor> {
    accessors(db, class, slot, Access::Get, config)
}

/// The candidates of `setters` or `getters`.
pub fn accessors(
    db: &ProgramDb,
    class: &str,
    slot: &FieldSlot,
    access: Access,
    config: &AccessConfig,
) -> Vec<Accessor> {
    let mut res: Vec<Accessor> = Vec::new();
    // Paths come grouped by start method: keep the best of each group.
    for p in interesting_paths(db, class, slot, access, config) {
        match res.last_mut() {
            Some(best) if p.path.first() == Some(&best.method) => {
                let better = match p.score.total_cmp(&best.score) {
                    std::cmp::Ordering::Greater => true,
                    std::cmp::Ordering::Equal => p.path.len() < best.path.len(),
                    std::cmp::Ordering::Less => false,
                };
                if better && let Some(a) = to_accessor(p) {
                    *best = a;
                }
            }
            _ => res.extend(to_accessor(p)),
        }
    }
    res.retain(|a| a.score.is_finite() && a.score > 0.0);
    if res.len() > config.max_candidates {
        res.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.method.cmp(&b.method)));
        res.truncate(config.max_candidates);
        res.sort_by_key(|a| a.method);
    }
    res
}

fn to_accessor(p: InterestingPath) -> Option<Accessor> {
    Some(Accessor {
        method: *p.path.first()?,
        path: p.path,
        score: p.score,
        value_params: p.value_params,
        index_params: p.index_params,
        direct_value_param: p.direct_value_param,
        direct_index_param: p.direct_index_param,
    })
}

/// Every interesting path for `slot` on an object of runtime class `class`, grouped by start
/// method in `MethodId` order, each group in the order the search found them (depth first,
/// calls in instruction order).
pub fn interesting_paths(
    db: &ProgramDb,
    class: &str,
    slot: &FieldSlot,
    access: Access,
    config: &AccessConfig,
) -> Vec<InterestingPath> {
    let Some(class_id) = db.class_id(class) else { return Vec::new() };
    let starts = entry_points(db, class_id);
    let summaries = summarize_all(db, class_id, slot, access, &starts);
    let mut res = Vec::new();
    for &start in &starts {
        res.extend(enumerate(&summaries, start, access, config));
    }
    res
}

/// Picks a candidate with probability proportional to its score (Eq. (1)'s roulette): the first
/// whose cumulative score exceeds `r` times the total. `r` is uniform in [0, 1); values outside
/// are clamped. `None` when no candidate has a positive score.
pub fn sample(candidates: &[Accessor], r: f64) -> Option<&Accessor> {
    let weight = |a: &Accessor| if a.score.is_finite() && a.score > 0.0 { a.score } else { 0.0 };
    let total: f64 = candidates.iter().map(weight).sum();
    if total <= 0.0 || !total.is_finite() {
        return None;
    }
    let r = if r.is_finite() { r.clamp(0.0, 1.0) } else { 0.0 };
    let target = r * total;
    let mut acc = 0.0;
    for a in candidates {
        let w = weight(a);
        if w <= 0.0 {
            continue;
        }
        acc += w;
        if target < acc {
            return Some(a);
        }
    }
    // Rounding can leave `r = 1` (or nearly) past the last sum.
    candidates.iter().rev().find(|a| weight(a) > 0.0)
}

/// Candidates as text, one per line: method, score, best path, value and index parameters.
pub fn render(db: &ProgramDb, candidates: &[Accessor]) -> String {
    let mut s = String::new();
    for a in candidates {
        let path: Vec<String> = a.path.iter().map(|&m| method_name(db, m)).collect();
        let _ = writeln!(
            s,
            "{} score {:.3} path {} value {:?} index {:?}",
            method_name(db, a.method),
            a.score,
            path.join(" > "),
            a.value_params,
            a.index_params
        );
    }
    s
}

/// The methods a test can call on an object of class `c`: see the module comment. Sorted.
fn entry_points(db: &ProgramDb, c: ClassId) -> Vec<MethodId> {
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    let mut res = Vec::new();
    let mut cur = Some(c);
    let mut visited = BTreeSet::new();
    while let Some(k) = cur {
        // A cycle in a corrupt hierarchy ends the walk.
        if !visited.insert(k) {
            break;
        }
        let Ok(file) = db.class(k) else { break };
        let cp = &file.constant_pool;
        for m in db.methods(k) {
            let Some(member) = db.member(m) else { continue };
            let (Some(name), Some(desc)) = (member.name(cp), member.descriptor(cp)) else { continue };
            let flags = member.access_flags;
            // Constructors are not calls on an existing object; private and static methods do not
            // take part in overriding.
            if name.starts_with('<') || flags & (access::STATIC | access::PRIVATE) != 0 {
                continue;
            }
            if !seen.insert((name.into_owned(), desc.into_owned())) {
                continue;
            }
            let skip = access::ABSTRACT | access::SYNTHETIC | access::VOLATILE_OR_BRIDGE | access::NATIVE;
            if flags & skip == 0 {
                res.push(m);
            }
        }
        cur = db.superclass(k);
    }
    res.sort();
    res
}

/// What one method offers a path: where it ends one (`ends`) and where it goes on (`calls`).
#[derive(Debug, Default)]
struct Summary {
    ends: Vec<End>,
    calls: Vec<Call>,
}

/// A field write (or read returned) in `m_e`, with the parameters of its method it depends on.
#[derive(Debug)]
struct End {
    insn: InsnIdx,
    comp: f64,
    value: BTreeSet<u16>,
    index: BTreeSet<u16>,
    /// The parameter written unchanged as the value, and the one used unchanged as the index.
    direct: Direct,
}

/// Parameters passed on unchanged: as the written value and as the index.
#[derive(Debug, Clone, Copy, Default)]
struct Direct {
    value: Option<u16>,
    index: Option<u16>,
}

/// A call on `this`: its target and, per declared argument, the parameters of the caller that
/// reach it.
#[derive(Debug)]
struct Call {
    insn: InsnIdx,
    comp: f64,
    target: MethodId,
    args: Vec<BTreeSet<u16>>,
    /// Per declared argument, the caller's parameter passed unchanged as it, if any.
    direct_args: Vec<Option<u16>>,
    /// Its result is returned by the caller (what a getter path needs).
    returned: bool,
}

/// The summaries of the starts and of every method reachable from them by calls on `this`
/// (`None`: no decodable code).
fn summarize_all(
    db: &ProgramDb,
    class: ClassId,
    slot: &FieldSlot,
    access: Access,
    starts: &[MethodId],
) -> BTreeMap<MethodId, Option<Summary>> {
    let mut res = BTreeMap::new();
    let mut work: Vec<MethodId> = starts.to_vec();
    while let Some(m) = work.pop() {
        if res.contains_key(&m) {
            continue;
        }
        let sum = Ctx::new(db, m).map(|ctx| ctx.summarize(class, slot, access));
        if let Some(s) = &sum {
            work.extend(s.calls.iter().map(|c| c.target));
        }
        res.insert(m, sum);
    }
    res
}

/// A path under construction: the methods so far with the index of the call each takes, and
/// the method it has reached.
type Partial = (Vec<(MethodId, usize)>, MethodId);

/// The interesting paths from `start`, depth first with an explicit stack.
fn enumerate(
    summaries: &BTreeMap<MethodId, Option<Summary>>,
    start: MethodId,
    access: Access,
    config: &AccessConfig,
) -> Vec<InterestingPath> {
    let get = |m: MethodId| summaries.get(&m).and_then(Option::as_ref);
    let mut res = Vec::new();
    let mut budget = config.max_paths;
    let mut stack: Vec<Partial> = vec![(Vec::new(), start)];
    while let Some((hops, last)) = stack.pop() {
        let Some(sum) = get(last) else { continue };
        for end in &sum.ends {
            if budget == 0 {
                return res;
            }
            budget -= 1;
            res.push(evaluate(summaries, &hops, last, end));
        }
        if hops.len() + 1 >= config.max_depth as usize {
            continue;
        }
        // Reversed, so that the stack pops the calls in instruction order.
        for (ci, call) in sum.calls.iter().enumerate().rev() {
            let cycle = call.target == last || hops.iter().any(|&(m, _)| m == call.target);
            if cycle || (access == Access::Get && !call.returned) || get(call.target).is_none() {
                continue;
            }
            if budget == 0 {
                return res;
            }
            budget -= 1;
            let mut next = hops.clone();
            next.push((last, ci));
            stack.push((next, call.target));
        }
    }
    res
}

/// Eq. (1) for the path `hops` + `last`, ending at `end`.
fn evaluate(
    summaries: &BTreeMap<MethodId, Option<Summary>>,
    hops: &[(MethodId, usize)],
    last: MethodId,
    end: &End,
) -> InterestingPath {
    // `enumerate` only made hops through methods with summaries and calls that exist.
    let call =
        |m: MethodId, ci: usize| summaries.get(&m).and_then(Option::as_ref).and_then(|s| s.calls.get(ci));
    let mut path = Vec::with_capacity(hops.len() + 1);
    let mut sites = Vec::with_capacity(hops.len() + 1);
    let mut comp = Vec::with_capacity(hops.len() + 1);
    for &(m, ci) in hops {
        let c = call(m, ci);
        path.push(m);
        sites.push(c.map_or(InsnIdx(0), |c| c.insn));
        comp.push(c.map_or(0.0, |c| c.comp));
    }
    path.push(last);
    sites.push(end.insn);
    comp.push(end.comp);
    let (mut value, mut index) = (end.value.clone(), end.index.clone());
    let mut direct = end.direct;
    for &(m, ci) in hops.iter().rev() {
        let Some(c) = call(m, ci) else { continue };
        value = bind(c, &value);
        index = bind(c, &index);
        let pass = |k: Option<u16>| k.and_then(|k| c.direct_args.get(k as usize).copied().flatten());
        direct = Direct { value: pass(direct.value), index: pass(direct.index) };
    }
    let n_v = value.union(&index).count();
    let score = (n_v as f64 + 1.0) * comp.iter().sum::<f64>() / path.len() as f64;
    InterestingPath {
        path,
        sites,
        comp,
        value_params: value.into_iter().collect(),
        index_params: index.into_iter().collect(),
        direct_value_param: direct.value,
        direct_index_param: direct.index,
        n_v: n_v as u16,
        score,
    }
}

/// The caller's parameters that reach the callee parameters `params` through `call`.
fn bind(call: &Call, params: &BTreeSet<u16>) -> BTreeSet<u16> {
    params.iter().filter_map(|&k| call.args.get(k as usize)).flatten().copied().collect()
}

/// `comp(m) = |B'| / |B|` for target instruction `s` (see the module comment).
fn comp(cfg: &Cfg, s: InsnIdx) -> f64 {
    let n = cfg.blocks().len();
    let target = cfg.block_of(s);
    let graph = cfg.graph();
    // Blocks reachable from `s`'s block, and blocks that reach it (both reflexive: a branch at
    // the end of `s`'s own block comes after `s`, an edge into that block comes before it).
    let mut from_s = vec![false; n];
    let mut work = vec![target.node()];
    while let Some(b) = work.pop() {
        if !std::mem::replace(&mut from_s[b.index()], true) {
            work.extend(graph.succs(b));
        }
    }
    let mut to_s = vec![false; n];
    let mut work = vec![target.node()];
    while let Some(b) = work.pop() {
        if !std::mem::replace(&mut to_s[b.index()], true) {
            work.extend_from_slice(graph.preds(b));
        }
    }
    let (mut all, mut via) = (0usize, 0usize);
    for e in cfg.edges() {
        if !matches!(e.kind, EdgeKind::Taken | EdgeKind::NotTaken | EdgeKind::Case(_) | EdgeKind::Default) {
            continue;
        }
        all += 1;
        if to_s[e.to.index()] || from_s[e.from.index()] {
            via += 1;
        }
    }
    if all == 0 { 1.0 } else { via as f64 / all as f64 }
}

/// What a value comes from once locals and `checkcast` are seen through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Insn(InsnIdx),
    /// The entry value of a local slot (`this` or a parameter).
    Entry(u16),
    /// A caught exception.
    Other,
}

/// The facts about one method the summary reads.
struct Ctx<'a> {
    db: &'a ProgramDb,
    body: &'a MethodBody,
    cfg: &'a Cfg,
    data: &'a DataDeps,
    cp: &'a ConstantPool,
    /// Per local slot, the declared parameter whose entry value it holds.
    param_of_slot: Vec<Option<u16>>,
    is_static: bool,
}

impl<'a> Ctx<'a> {
    /// The context of `m`; `None` when it has no decodable code.
    fn new(db: &'a ProgramDb, m: MethodId) -> Option<Ctx<'a>> {
        let body = db.body(m)?.ok()?;
        let cfg = db.cfg(m)?;
        let data = db.data_deps(m)?;
        let cp = &db.class(m.class()).ok()?.constant_pool;
        let member = db.member(m)?;
        let is_static = member.access_flags & access::STATIC != 0;
        let desc = MethodDescriptor::parse(&member.descriptor(cp)?).ok()?;
        let mut param_of_slot = Vec::new();
        if !is_static {
            param_of_slot.push(None);
        }
        for (k, p) in desc.params.iter().enumerate() {
            param_of_slot.push(Some(k as u16));
            if p.slots() == 2 {
                param_of_slot.push(None);
            }
        }
        Some(Ctx { db, body, cfg, data, cp, param_of_slot, is_static })
    }

    fn insn(&self, i: InsnIdx) -> &'a Insn {
        &self.body.insns[i.index()]
    }

    /// The ends and calls of this method for `slot` (the object's runtime class is `class`).
    fn summarize(&self, class: ClassId, slot: &FieldSlot, access: Access) -> Summary {
        let mut returned = BTreeSet::new();
        if access == Access::Get {
            for (i, insn) in self.body.insns.iter().enumerate() {
                if insn.is_return() && insn.op() != Opcode::RETURN {
                    returned.extend(self.sources(self.data.producers(InsnIdx::new(i), 0)));
                }
            }
        }
        let mut sum = Summary::default();
        if self.is_static {
            return sum;
        }
        for i in 0..self.body.insns.len() {
            let at = InsnIdx::new(i);
            if !self.data.is_reachable(at) {
                continue;
            }
            let end = match access {
                Access::Set => self.set_end(at, slot),
                Access::Get => self.get_end(at, slot),
            };
            sum.ends.extend(end);
            if let Some(mut call) = self.this_call(at, class) {
                call.returned = returned.contains(&Source::Insn(at));
                sum.calls.push(call);
            }
        }
        sum
    }

    /// A write of `slot` on `this` at `at`, with the parameters the value and the index depend on.
    fn set_end(&self, at: InsnIdx, slot: &FieldSlot) -> Option<End> {
        let op = self.insn(at).op();
        let (value, index) = if !slot.element {
            if op != Opcode::PUTFIELD || !self.names_slot(at, slot) || !self.on_this(at) {
                return None;
            }
            (self.data.producers(at, 1), None)
        } else {
            let stores = (Opcode::IASTORE.0..=Opcode::SASTORE.0).contains(&op.0)
                && self.is_slot_array(self.data.producers(at, 0), slot);
            if !stores {
                return None;
            }
            (self.data.producers(at, 2), Some(self.data.producers(at, 1)))
        };
        Some(End {
            insn: at,
            comp: comp(self.cfg, at),
            value: self.param_deps(value),
            index: index.map(|d| self.param_deps(d)).unwrap_or_default(),
            direct: Direct {
                value: self.direct_param(value),
                index: index.and_then(|d| self.direct_param(d)),
            },
        })
    }

    /// A return at `at` of a value read from `slot` on `this`: no value parameters, and the
    /// parameters the index of an element read depends on.
    fn get_end(&self, at: InsnIdx, slot: &FieldSlot) -> Option<End> {
        let insn = self.insn(at);
        if !insn.is_return() || insn.op() == Opcode::RETURN {
            return None;
        }
        let mut found = false;
        let mut index = BTreeSet::new();
        let mut direct = Direct::default();
        for src in self.sources(self.data.producers(at, 0)) {
            let Source::Insn(q) = src else { continue };
            let op = self.insn(q).op();
            if !slot.element {
                found |= op == Opcode::GETFIELD && self.names_slot(q, slot) && self.on_this(q);
            } else if (Opcode::IALOAD.0..=Opcode::SALOAD.0).contains(&op.0)
                && self.is_slot_array(self.data.producers(q, 0), slot)
            {
                found = true;
                index.extend(self.param_deps(self.data.producers(q, 1)));
                direct.index = direct.index.or(self.direct_param(self.data.producers(q, 1)));
            }
        }
        found.then(|| End { insn: at, comp: comp(self.cfg, at), value: BTreeSet::new(), index, direct })
    }

    /// A call on `this` at `at`: the method it runs on an object of class `class`, and per
    /// declared argument the parameters that reach it (`returned` is left for the caller).
    fn this_call(&self, at: InsnIdx, class: ClassId) -> Option<Call> {
        let (op, index) = match *self.insn(at) {
            Insn::Invoke { op, index } => (op, index),
            Insn::InvokeInterface { index, .. } => (Opcode::INVOKEINTERFACE, index),
            _ => return None,
        };
        if op == Opcode::INVOKESTATIC {
            return None;
        }
        let r = self.cp.member_ref(index)?;
        if r.name.starts_with('<') || !self.is_this(self.data.producers(at, 0)) {
            return None;
        }
        // As the JVM links and selects it (a private method called with invokevirtual included).
        let kind = InvokeKind::of(op)?;
        let target = self.db.invoke_target(kind, &r.class, &r.name, &r.descriptor, Some(class))?;
        let flags = self.db.member(target)?.access_flags;
        if flags & (access::STATIC | access::ABSTRACT | access::NATIVE) != 0 {
            return None;
        }
        let n = MethodDescriptor::parse(&r.descriptor).ok()?.params.len();
        let args = (0..n).map(|k| self.param_deps(self.data.producers(at, k + 1))).collect();
        let direct_args = (0..n).map(|k| self.direct_param(self.data.producers(at, k + 1))).collect();
        Some(Call { insn: at, comp: comp(self.cfg, at), target, args, direct_args, returned: false })
    }

    /// The parameter a value is, unchanged (through locals and `checkcast` only).
    fn direct_param(&self, defs: &[StackDef]) -> Option<u16> {
        let srcs = self.sources(defs);
        match srcs.first() {
            Some(&Source::Entry(var)) if srcs.len() == 1 => {
                self.param_of_slot.get(var as usize).copied().flatten()
            }
            _ => None,
        }
    }

    /// Whether the field instruction at `at` names `slot`'s field (resolved up the superclasses).
    fn names_slot(&self, at: InsnIdx, slot: &FieldSlot) -> bool {
        let Insn::Field { index, .. } = *self.insn(at) else { return false };
        let Some(r) = self.cp.member_ref(index) else { return false };
        r.name == slot.name.as_str()
            && r.descriptor == slot.descriptor.as_str()
            && declaring_class(self.db, &r) == slot.owner
    }

    /// Whether every source of an array operand is a `getfield` of `slot`'s field on `this`.
    fn is_slot_array(&self, defs: &[StackDef], slot: &FieldSlot) -> bool {
        let srcs = self.sources(defs);
        !srcs.is_empty()
            && srcs.iter().all(|s| match *s {
                Source::Insn(q) => {
                    self.insn(q).op() == Opcode::GETFIELD && self.names_slot(q, slot) && self.on_this(q)
                }
                _ => false,
            })
    }

    /// Whether the object operand (operand 0) of the instruction at `at` is `this`.
    fn on_this(&self, at: InsnIdx) -> bool {
        self.is_this(self.data.producers(at, 0))
    }

    /// Whether a value is `this`: the entry value of slot 0 of an instance method, and nothing
    /// else.
    fn is_this(&self, defs: &[StackDef]) -> bool {
        !self.is_static && self.sources(defs).into_iter().eq([Source::Entry(0)])
    }

    /// Where a value comes from, through locals and `checkcast`.
    fn sources(&self, defs: &[StackDef]) -> BTreeSet<Source> {
        let mut seen = BTreeSet::new();
        let mut res = BTreeSet::new();
        let mut work: Vec<StackDef> = defs.to_vec();
        while let Some(d) = work.pop() {
            if !seen.insert(d) {
                continue;
            }
            let StackDef::Insn(p) = d else {
                res.insert(Source::Other);
                continue;
            };
            let insn = self.insn(p);
            if is_load(insn) {
                for def in self.data.reaching_defs(p) {
                    match *def {
                        LocalDef::Entry { var } => {
                            res.insert(Source::Entry(var));
                        }
                        LocalDef::Store(s) if self.insn(s).op() != Opcode::IINC => {
                            work.extend_from_slice(self.data.producers(s, 0));
                        }
                        LocalDef::Store(s) => {
                            res.insert(Source::Insn(s));
                        }
                    }
                }
            } else if insn.op() == Opcode::CHECKCAST {
                work.extend_from_slice(self.data.producers(p, 0));
            } else {
                res.insert(Source::Insn(p));
            }
        }
        res
    }

    /// The declared parameters a value depends on (see the module comment for what is followed).
    fn param_deps(&self, defs: &[StackDef]) -> BTreeSet<u16> {
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        enum Dep {
            Stack(StackDef),
            Local(LocalDef),
        }
        let mut seen = BTreeSet::new();
        let mut res = BTreeSet::new();
        let mut work: Vec<Dep> = defs.iter().map(|&d| Dep::Stack(d)).collect();
        let operands = |p: InsnIdx| self.data.operands(p).iter().flatten().map(|&d| Dep::Stack(d));
        while let Some(d) = work.pop() {
            if !seen.insert(d) {
                continue;
            }
            match d {
                Dep::Stack(StackDef::CaughtException { .. }) => {}
                Dep::Stack(StackDef::Insn(p)) if is_load(self.insn(p)) => {
                    work.extend(self.data.reaching_defs(p).iter().map(|&l| Dep::Local(l)));
                }
                Dep::Stack(StackDef::Insn(p)) if self.insn(p).op() == Opcode::NEW => {
                    // The object is made by the constructor call whose receiver it is.
                    for u in self.data.consumers(p) {
                        if u.operand == 0 && self.is_init(u.insn) {
                            work.extend(operands(u.insn));
                        }
                    }
                }
                Dep::Stack(StackDef::Insn(p)) => work.extend(operands(p)),
                Dep::Local(LocalDef::Entry { var }) => {
                    res.extend(self.param_of_slot.get(var as usize).copied().flatten());
                }
                Dep::Local(LocalDef::Store(s)) if self.insn(s).op() == Opcode::IINC => {
                    work.extend(self.data.reaching_defs(s).iter().map(|&l| Dep::Local(l)));
                }
                Dep::Local(LocalDef::Store(s)) => work.extend(operands(s)),
            }
        }
        res
    }

    /// Whether the instruction at `at` is a constructor call.
    fn is_init(&self, at: InsnIdx) -> bool {
        match *self.insn(at) {
            Insn::Invoke { op: Opcode::INVOKESPECIAL, index } => {
                self.cp.member_ref(index).is_some_and(|r| r.name == "<init>")
            }
            _ => false,
        }
    }
}

/// `xload` of a local (any form).
fn is_load(insn: &Insn) -> bool {
    matches!(insn.op().local_access(), Some((_, false, _)))
}

/// The class that declares the field `r` names: the named class or the nearest superclass
/// declaring it (JVMS §5.4.3.2, instance fields live in classes only); the named class itself
/// when the walk leaves the classpath.
fn declaring_class(db: &ProgramDb, r: &MemberRef<'_>) -> String {
    let mut cur = db.class_id(&r.class);
    let mut seen = BTreeSet::new();
    while let Some(c) = cur {
        if !seen.insert(c) {
            break;
        }
        let Ok(file) = db.class(c) else { break };
        if file.field(&r.name, &r.descriptor).is_some() {
            return db.class_name(c).to_owned();
        }
        cur = db.superclass(c);
    }
    r.class.clone().into_owned()
}
