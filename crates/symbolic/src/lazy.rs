//! Lazy initialisation of input objects (paper 003, SUSHI; digest 003-004 §A.2.2, §C.4): the
//! state one replay of `Concolic::explore` adds to the machine, and the resolution of an input
//! reference into null, an alias of an earlier input object, or a fresh object of each concrete
//! class in scope, taken from the replay's choice vector.
//!
//! Deviations from JBSE's generalised symbolic execution, each a consequence of running concolically
//! (objects stay concrete heap objects once resolved, so reference comparisons need no solver):
//! - A reference field of an input object is resolved when it is first *read* (`getfield`), not when
//!   the value read is first dereferenced; a field read and only passed along forks all the same
//!   (more paths, never fewer). Reference parameters and the receiver are resolved at the entry,
//!   in order (receiver, then parameters), before the first instruction.
//! - The fresh classes of a reference of declared type `java/lang/Object` are `Object` alone (JBSE
//!   fans out over every class in scope; the search builds the objects anyway); for other types,
//!   every concrete class of the scope assignable to it, plus the type itself when it is a concrete
//!   JDK class we model (`String`, the boxes).
//! - A fresh `String` has a symbolic length (`p.length`, in `0..=max_string`, as a test's string
//!   input) and symbolic characters (`p[k]`), made as the code reads them; a fresh box holds a
//!   symbolic value (`p.value`). Both are named by access paths like any primitive field, so their
//!   clauses reach the worker's Figure 6 distance (which reads a string's length and characters
//!   and a box's value through their public API, docs/protocol.md). Other JDK classes
//!   (collections, ...) get no fresh alternative, only null and aliases: such inputs are left to
//!   the search. An array input's fresh alternative ends the path (`Bound::ArrayInput`).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use classfile::access;
use jvm_model::ClassName;
use protocol::{AccessPath, Clause, PrimType, Root, Step};
use solver::{ExprId, Op, Sort, Value, VarId};

use crate::heap::{Ch, Obj, StrInput, StrVal};
use crate::interp::{Abrupt, Machine, Res};
use crate::invariants::{Binding, Invariants, Preset};
use crate::value::{ObjId, Slot};
use crate::{EntryKind, Stop};

/// A bound of the exploration that ended a path (deterministic, never time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bound {
    /// `ExploreConfig::max_lazy_inits` resolutions were made on the path.
    LazyInits,
    /// `ExploreConfig::max_branch_depth` forks (references and symbolic branches) on the path.
    BranchDepth,
    /// The path would need an array as an input object (not supported yet).
    ArrayInput,
    /// `ExploreConfig::max_unroll` forks at one instruction (a loop unrolled that many times).
    Unroll,
}

/// The bounds a replay checks itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub max_lazy_inits: u32,
    pub heap_scope: u32,
    pub max_branch_depth: u32,
    pub max_unroll: u32,
}

/// What replays keep from one to the next: the fresh classes by declared type and the
/// assignability answers.
pub(crate) type Caches = (BTreeMap<String, Vec<String>>, Vec<(String, String, bool)>);

/// One item of the clause log, in assumption order (§A.2.2: the order is mandatory).
#[derive(Clone, Debug)]
pub(crate) enum Logged {
    /// A reference resolution: its clause, how many alternatives there were and which was taken.
    Ref { clause: Clause, alts: u32, chosen: u32 },
    /// A path entry of the machine (`Replay::path[i]`): branches, implicit checks, pins.
    Entry { index: usize, covered: usize },
}

/// What a resolution may give.
#[derive(Clone, Debug)]
pub(crate) enum Alt {
    Null,
    Alias(ObjId),
    Fresh(String),
    /// A fresh object materialised under another access path than the one resolved (a `repOk`
    /// check's stand-in for an object the entry path reached by that path: `invariants`).
    FreshAt(String, AccessPath),
}

/// The lazy-initialisation state of one replay.
#[derive(Debug)]
pub(crate) struct LazyState {
    /// The choice vector: the alternative of each reference resolution, in order; past its end 0.
    pub choices: Vec<usize>,
    pub next_choice: usize,
    /// Values of the symbolic inputs by variable name (the access path's text); absent ones are 0.
    pub hints: BTreeMap<String, Value>,
    /// The access path of every materialised input object.
    pub paths: BTreeMap<ObjId, AccessPath>,
    /// Input objects whose fields materialise on first read (instances of interpreted classes).
    pub lazy: BTreeSet<ObjId>,
    /// Materialised input objects in order: the alias candidates.
    pub order: Vec<ObjId>,
    pub log: Vec<Logged>,
    /// The symbolic inputs: variable -> (access path, primitive type).
    pub vars: BTreeMap<VarId, (AccessPath, PrimType)>,
    /// The access paths of the fresh strings, in order: string `k` is `StrInput::Fresh(k)`.
    pub strings: Vec<AccessPath>,
    pub fresh_count: BTreeMap<String, u32>,
    pub lazy_inits: u32,
    pub forks: u32,
    /// Forks so far per instruction (class, method, instruction index): the loop-unrolling bound.
    pub at: BTreeMap<(String, String, u32), u32>,
    pub bound: Option<Bound>,
    /// The choice vector named an alternative this replay did not have.
    pub diverged: bool,
    pub limits: Limits,
    /// Package prefixes (internal names, `sushi/`) of the classes in scope.
    pub scope: Vec<String>,
    /// Concrete classes in scope by declared type, kept across replays.
    pub fresh_classes: BTreeMap<String, Vec<String>>,
    /// (class, declared type, assignable), kept across replays.
    pub assignable: Vec<(String, String, bool)>,
    /// The rules consulted at every resolution, and the per-class heap scope.
    pub invariants: Rc<Invariants>,
    /// In a `repOk` check: the entry path's decisions, and which objects stand for its objects.
    pub preset: Option<Rc<Preset>>,
    pub binding: Binding,
    /// Alternatives the rules removed at resolutions this replay reached first.
    pub rule_pruned: u64,
    /// A resolution had no alternative left: the path is not one of a legal input state.
    pub pruned: bool,
    /// The heap scope removed a fresh alternative (a bound, which makes a `repOk` check
    /// inconclusive).
    pub scope_cut: bool,
}

impl LazyState {
    pub fn new(
        choices: Vec<usize>,
        hints: BTreeMap<String, Value>,
        limits: Limits,
        scope: Vec<String>,
        (fresh_classes, assignable): Caches,
    ) -> LazyState {
        LazyState {
            choices,
            next_choice: 0,
            hints,
            paths: BTreeMap::new(),
            lazy: BTreeSet::new(),
            order: Vec::new(),
            log: Vec::new(),
            vars: BTreeMap::new(),
            strings: Vec::new(),
            fresh_count: BTreeMap::new(),
            lazy_inits: 0,
            forks: 0,
            at: BTreeMap::new(),
            bound: None,
            diverged: false,
            limits,
            scope,
            fresh_classes,
            assignable,
            invariants: Rc::new(Invariants::none()),
            preset: None,
            binding: Binding::default(),
            rule_pruned: 0,
            pruned: false,
            scope_cut: false,
        }
    }
}

impl LazyState {
    /// Counts a fork at an instruction; true when that exceeds the unrolling bound.
    fn count_at(&mut self, key: (String, String, u32)) -> bool {
        let n = self.at.entry(key).or_insert(0);
        *n += 1;
        *n > self.limits.max_unroll
    }
}

/// The primitive type and solver sort of a field descriptor.
pub(crate) fn prim_of(desc: &str) -> Option<(PrimType, Sort)> {
    Some(match desc {
        "Z" => (PrimType::Boolean, Sort::Bool),
        "B" => (PrimType::Byte, Sort::Bv(8)),
        "C" => (PrimType::Char, Sort::Bv(16)),
        "S" => (PrimType::Short, Sort::Bv(16)),
        "I" => (PrimType::Int, Sort::Bv(32)),
        "J" => (PrimType::Long, Sort::Bv(64)),
        "F" => (PrimType::Float, Sort::F32),
        "D" => (PrimType::Double, Sort::F64),
        _ => return None,
    })
}

/// An access path as text: `p0.header.next`, `this.size`.
pub fn path_text(p: &AccessPath) -> String {
    let mut s = match p.root {
        Root::This => "this".to_string(),
        Root::Param(k) => format!("p{k}"),
    };
    for st in &p.steps {
        match st {
            Step::Field { name, .. } => {
                s.push('.');
                s.push_str(name);
            }
            Step::Element(i) => s.push_str(&format!("[{i}]")),
            Step::Length => s.push_str(".length"),
        }
    }
    s
}

impl Machine<'_, '_> {
    /// The value of a field of a lazy input object, materialising it on first read; `None` when
    /// the object is not a lazy input object or the field is already there.
    pub(crate) fn lazy_get(&mut self, id: ObjId, owner: &str, name: &str, desc: &str) -> Res<Option<Slot>> {
        let Some(st) = self.lazy.as_ref() else { return Ok(None) };
        if !st.lazy.contains(&id) {
            return Ok(None);
        }
        let key = format!("{owner}.{name}");
        if let Obj::Inst { fields, .. } = self.heap.get(id)
            && fields.contains_key(&key)
        {
            return Ok(None);
        }
        let Some(base) = st.paths.get(&id) else { return Ok(None) };
        let mut path = base.clone();
        path.steps.push(Step::Field { class: ClassName::binary_of(owner), name: name.to_string() });
        let v = if let Some((ty, sort)) = prim_of(desc) {
            self.symbolic_input(path, ty, sort)
        } else {
            let ty = desc.strip_prefix('L').map_or(desc, |d| d.trim_end_matches(';'));
            match self.resolve_ref(path, ty)? {
                Some(o) => Slot::obj(o),
                None => Slot::null(),
            }
        };
        if let Obj::Inst { fields, .. } = self.heap.get_mut(id) {
            fields.insert(key, v);
        }
        Ok(Some(v))
    }

    /// The solver variable of the input at `path`, named by the path's text, and its value now
    /// (the hint of that name, else the sort's default); registered as an input of the path.
    fn path_var(&mut self, path: AccessPath, ty: PrimType, sort: Sort) -> (ExprId, Value) {
        let name = path_text(&path);
        let hint = self
            .lazy
            .as_ref()
            .and_then(|st| st.hints.get(&name).copied())
            .filter(|v| v.sort() == sort)
            .unwrap_or_else(|| Value::default_of(sort));
        let (var, e) = self.arena.var(sort, &name);
        self.hint.insert(var, hint);
        if let Some(st) = self.lazy.as_mut() {
            st.vars.insert(var, (path, ty));
        }
        (e, hint)
    }

    /// A primitive input at `path`: a solver variable named by the path, with its hint.
    pub(crate) fn symbolic_input(&mut self, path: AccessPath, ty: PrimType, sort: Sort) -> Slot {
        let (e, hint) = self.path_var(path, ty, sort);
        let c = crate::value::C::from_value(hint);
        // The JVM value of the narrow types, as `stmts::primitive` widens a test's inputs.
        let (c, w) = match sort {
            Sort::Bool => {
                let w = self.arena.mk(Op::BoolToBv, &[e]);
                self.bools.insert(w, e);
                (crate::value::C::I(i32::from(hint.as_bool())), w)
            }
            Sort::Bv(8) => (c, self.arena.mk(Op::SignExt(32), &[e])),
            Sort::Bv(16) if ty == PrimType::Short => (c, self.arena.mk(Op::SignExt(32), &[e])),
            Sort::Bv(16) => {
                (crate::value::C::I(hint.as_u64() as i32 & 0xffff), self.arena.mk(Op::ZeroExt(32), &[e]))
            }
            _ => (c, e),
        };
        Slot { c, s: Some(w) }
    }

    /// Resolves an input reference of declared type `ty` (internal name or array descriptor) at
    /// `path`: the alternative the choice vector names, recorded in the clause log.
    pub(crate) fn resolve_ref(&mut self, path: AccessPath, ty: &str) -> Res<Option<ObjId>> {
        let alts = self.alternatives(ty);
        self.resolve_among(path, alts)
    }

    /// Resolves the receiver of the entry method: a fresh object of each concrete class in scope
    /// assignable to `class` (never null, never an alias: it is the first input).
    pub(crate) fn resolve_receiver(&mut self, path: AccessPath, class: &str) -> Res<Option<ObjId>> {
        let alts: Vec<Alt> = self.fresh_classes_of(class).into_iter().map(Alt::Fresh).collect();
        if alts.is_empty() {
            return Ok(None);
        }
        self.resolve_among(path, alts)
    }

    fn resolve_among(&mut self, path: AccessPath, alts: Vec<Alt>) -> Res<Option<ObjId>> {
        let st = self.lazy.as_mut().ok_or_else(|| Abrupt::Stop(Stop::Unsupported("lazy state".into())))?;
        st.lazy_inits += 1;
        if st.lazy_inits > st.limits.max_lazy_inits {
            return self.hit(Bound::LazyInits);
        }
        st.forks += 1;
        if st.forks > st.limits.max_branch_depth {
            return self.hit(Bound::BranchDepth);
        }
        // The entry's own parameters have no instruction; every other resolution is a `getfield`.
        if let Some(l) = self.locs.last() {
            let key = (l.class.clone(), l.method.clone(), l.insn);
            if st.count_at(key) {
                return self.hit(Bound::Unroll);
            }
        }
        let alts = self.constrain(&path, alts);
        let Some(st) = self.lazy.as_mut() else { return Ok(None) };
        if alts.is_empty() {
            st.pruned = true;
            return Err(Abrupt::Stop(Stop::Unsupported("no alternative within the invariants".into())));
        }
        let want = st.choices.get(st.next_choice).copied().unwrap_or(0);
        st.next_choice += 1;
        // A choice past the alternatives (a replay that diverged from its parent) takes the first.
        let chosen = if want < alts.len() {
            want
        } else {
            st.diverged = true;
            0
        };
        let clause = match &alts[chosen] {
            Alt::Null => Clause::Null(path.clone()),
            Alt::Alias(o) => Clause::Alias(path.clone(), st.paths.get(o).cloned().unwrap_or(path.clone())),
            Alt::Fresh(c) | Alt::FreshAt(c, _) => {
                Clause::Fresh { path: path.clone(), class: ClassName::binary_of(c) }
            }
        };
        st.log.push(Logged::Ref { clause, alts: alts.len() as u32, chosen: chosen as u32 });
        let alt = alts[chosen].clone();
        let obj = match &alt {
            Alt::Null => None,
            Alt::Alias(o) => Some(*o),
            Alt::Fresh(c) => Some(self.fresh_input(path.clone(), c)?),
            Alt::FreshAt(c, at) => Some(self.fresh_input(at.clone(), c)?),
        };
        self.bind(&path, &alt, obj);
        Ok(obj)
    }

    fn hit<T>(&mut self, b: Bound) -> Res<T> {
        if let Some(st) = self.lazy.as_mut() {
            st.bound = Some(b);
        }
        Err(Abrupt::Stop(Stop::Unsupported(format!("exploration bound {b:?}"))))
    }

    /// A fresh input object of class `c` (internal name, or an array descriptor) at `path`.
    fn fresh_input(&mut self, path: AccessPath, c: &str) -> Res<ObjId> {
        if c.starts_with('[') {
            return self.hit(Bound::ArrayInput);
        }
        self.ensure_init(c)?;
        let (obj, lazy) = if c == "java/lang/String" {
            (Obj::Str(self.lazy_string(&path)), false)
        } else if let Some(d) = crate::models::boxes::prim_of(c) {
            let value = match prim_of(d) {
                Some((ty, sort)) if self.lazy.is_some() => {
                    let mut at = path.clone();
                    at.steps.push(Step::Field { class: ClassName::binary_of(c), name: "value".to_string() });
                    self.symbolic_input(at, ty, sort)
                }
                _ => crate::value::default_of(d),
            };
            let mut fields = BTreeMap::new();
            fields.insert(format!("{c}.value"), value);
            (Obj::Inst { class: c.to_string(), fields }, false)
        } else {
            (Obj::Inst { class: c.to_string(), fields: BTreeMap::new() }, true)
        };
        let o = self.heap.alloc(obj);
        if let Some(st) = self.lazy.as_mut() {
            *st.fresh_count.entry(c.to_string()).or_insert(0) += 1;
            st.paths.insert(o, path);
            st.order.push(o);
            if lazy {
                st.lazy.insert(o);
            }
        }
        Ok(o)
    }

    /// The contents of a fresh string at `path`: a symbolic length in `0..=max_string` (assumed,
    /// as for a test's string input), and as many symbolic characters as its value now (the hint
    /// of its name; 0 at first: the empty string).
    fn lazy_string(&mut self, path: &AccessPath) -> StrVal {
        let Some(st) = self.lazy.as_mut() else { return StrVal::default() };
        let i = st.strings.len();
        st.strings.push(path.clone());
        let mut at = path.clone();
        at.steps.push(Step::Length);
        let (le, hint) = self.path_var(at, PrimType::Int, Sort::Bv(32));
        let max = self.cfg.max_string;
        self.assume_string_length(le, max);
        let n = hint.as_i64().clamp(0, i64::from(max)) as u32;
        let chars =
            (0..n).filter_map(|k| self.new_lazy_char(i, k)).map(|(e, c)| Ch { c, s: Some(e) }).collect();
        StrVal { chars, len: Some(le), input: Some(StrInput::Fresh(i)), tail: Vec::new() }
    }

    /// Character `index` of fresh string `i` (`LazyState::strings`): its variable, made on first
    /// use (`None` for no such string).
    pub(crate) fn lazy_char(&mut self, i: usize, index: u32) -> Option<ExprId> {
        if let Some(&e) = self.str_chars.get(&(StrInput::Fresh(i), index)) {
            return Some(e);
        }
        self.new_lazy_char(i, index).map(|(e, _)| e)
    }

    /// A new variable for character `index` of fresh string `i`, named by its access path
    /// (`p[index]`), and its value now.
    fn new_lazy_char(&mut self, i: usize, index: u32) -> Option<(ExprId, u16)> {
        let mut at = self.lazy.as_ref()?.strings.get(i)?.clone();
        at.steps.push(Step::Element(index as i32));
        let (e, hint) = self.path_var(at, PrimType::Char, Sort::Bv(16));
        self.str_chars.insert((StrInput::Fresh(i), index), e);
        Some((e, hint.as_u64() as u16))
    }

    /// The alternatives of a reference of declared type `ty`, in the fixed order: null, aliases
    /// of earlier input objects of a compatible class, fresh objects of each class in scope
    /// within the heap scope.
    fn alternatives(&mut self, ty: &str) -> Vec<Alt> {
        let mut alts = vec![Alt::Null];
        let Some(st) = self.lazy.as_ref() else { return alts };
        let order = st.order.clone();
        for o in order {
            let class = self.heap.class_of(o);
            if self.assignable_cached(&class, ty) {
                alts.push(Alt::Alias(o));
            }
        }
        if ty.starts_with('[') {
            alts.push(Alt::Fresh(ty.to_string()));
            return alts;
        }
        let classes = self.fresh_classes_of(ty);
        let Some(st) = self.lazy.as_mut() else { return alts };
        for c in classes {
            if st.fresh_count.get(&c).copied().unwrap_or(0) < st.invariants.scope_of(&c, st.limits.heap_scope)
            {
                alts.push(Alt::Fresh(c));
            } else {
                st.scope_cut = true;
            }
        }
        alts
    }

    /// `assignable`, remembered across replays: alias candidates ask it for every earlier input
    /// object at every resolution.
    fn assignable_cached(&mut self, class: &str, ty: &str) -> bool {
        if let Some(st) = self.lazy.as_ref()
            && let Some(&(_, _, yes)) = st.assignable.iter().find(|(c, t, _)| c == class && t == ty)
        {
            return yes;
        }
        let yes = self.assignable(class, ty);
        if let Some(st) = self.lazy.as_mut() {
            st.assignable.push((class.to_string(), ty.to_string(), yes));
        }
        yes
    }

    /// The concrete classes a fresh object of declared type `ty` may have (see the module's notes).
    fn fresh_classes_of(&mut self, ty: &str) -> Vec<String> {
        if let Some(v) = self.lazy.as_ref().and_then(|st| st.fresh_classes.get(ty)) {
            return v.clone();
        }
        let concrete =
            |db: &programdb::ProgramDb, id| db.access_flags(id) & (access::ABSTRACT | access::INTERFACE) == 0;
        let mut out = Vec::new();
        if ty == programdb::OBJECT || ty == "java/lang/String" || crate::models::boxes::prim_of(ty).is_some()
        {
            out.push(ty.to_string());
        } else {
            let scope = self.lazy.as_ref().map(|st| st.scope.clone()).unwrap_or_default();
            let db = self.db;
            for id in db.class_ids() {
                let name = db.class_name(id);
                if scope.iter().any(|p| name.starts_with(p.as_str()))
                    && concrete(db, id)
                    && db.class(id).is_ok()
                    && db.is_subtype(name, ty)
                {
                    out.push(name.to_string());
                }
            }
            out.sort();
        }
        if let Some(st) = self.lazy.as_mut() {
            st.fresh_classes.insert(ty.to_string(), out.clone());
        }
        out
    }

    /// Counts a symbolic fork (a path entry that can be negated) against the depth bound and logs
    /// the entry; called by `Machine::record` in exploration mode.
    pub(crate) fn log_entry(&mut self, kind: EntryKind) {
        let covered = self.covered.len();
        let index = self.path.len() - 1;
        let Some(st) = self.lazy.as_mut() else { return };
        st.log.push(Logged::Entry { index, covered });
        if matches!(kind, EntryKind::Branch | EntryKind::Switch | EntryKind::Implicit) {
            st.forks += 1;
            let e = &self.path[index];
            if st.forks > st.limits.max_branch_depth {
                st.bound = Some(Bound::BranchDepth);
            } else if st.count_at((e.class.clone(), e.method.clone(), e.insn)) {
                st.bound = Some(Bound::Unroll);
            }
        }
    }
}
