//! The machine: the state of one replay (heap, expression arena, inputs, path, covered goals,
//! counters) and the method interpreter's main loop, with exception dispatch through the handler
//! tables (JVMS §2.10). The instructions themselves are in `frame` (moves, constants, locals),
//! `ops` (arithmetic, conversions, compares, jumps, switches, arrays) and `invoke` (calls,
//! fields, objects).
//!
//! Calls recurse on the Rust stack, bounded by `SymConfig::max_depth`: models (String.valueOf of
//! an object, Objects.equals) call back into bytecode, which an explicit frame stack would need
//! continuations for.

use std::borrow::Cow;
use std::collections::BTreeMap;

use bytecode::{Insn, MethodBody, Opcode};
use classfile::ConstantPool;
use goals::{GoalId, ProbePlan};
use programdb::{MethodId, ProgramDb};
use solver::{Arena, Assignment, ExprId, Op, Value, VarId};

use crate::branches::{GoalIndex, MethodGoals, NO_GOAL};
use crate::heap::{Heap, Obj};
use crate::value::{ObjId, Slot};
use crate::{EntryKind, Input, InterpStats, PcEntry, Replay, Stop, SymConfig};

/// The expression nodes one replay may make: a deterministic bound on its memory and time, as
/// `max_steps` bounds its instructions. Instructions that build expressions per character
/// (concatenations of strings of symbolic length) once made a replay of commons-lang3's
/// `StringUtils` grow to 19 GB and run for 300 s of a 30 s search; a node takes about 100 bytes.
pub(crate) const MAX_EXPR_NODES: usize = 1 << 21;

/// How a call or an instruction ended abruptly.
#[derive(Debug)]
pub(crate) enum Abrupt {
    /// A Java exception, propagating.
    Throw(ObjId),
    /// The replay ends.
    Stop(Stop),
}

pub(crate) type Res<T> = Result<T, Abrupt>;

pub(crate) fn stop<T>(s: Stop) -> Res<T> {
    Err(Abrupt::Stop(s))
}

pub(crate) fn unsupported<T>(what: impl Into<String>) -> Res<T> {
    Err(Abrupt::Stop(Stop::Unsupported(what.into())))
}

/// What an instruction does to control.
pub(crate) enum Next {
    Go,
    Jump(usize),
    Ret(Option<Slot>),
}

/// One activation of a method interpreted from bytecode.
pub(crate) struct Frame<'a> {
    pub class: &'a str,
    pub name: Cow<'a, str>,
    pub desc: Cow<'a, str>,
    pub body: &'a MethodBody,
    pub cp: &'a ConstantPool,
    pub pc: usize,
    pub locals: Vec<Slot>,
    pub stack: Vec<Slot>,
    pub goals: Option<std::sync::Arc<MethodGoals>>,
    /// A constant-push diamond being merged (`merge`).
    pub merge: Option<crate::merge::Merge>,
}

impl Frame<'_> {
    pub fn pop(&mut self) -> Slot {
        self.stack.pop().unwrap_or(Slot::TOP)
    }

    pub fn push(&mut self, s: Slot) {
        self.stack.push(s);
    }
}

/// Where the current instruction is, for path entries made by models.
#[derive(Clone, Debug)]
pub(crate) struct Loc {
    pub class: String,
    pub method: String,
    pub insn: u32,
}

pub(crate) struct Machine<'a, 'g> {
    pub db: &'a ProgramDb,
    pub plan: &'a ProbePlan,
    pub cfg: SymConfig,
    pub goals: &'g mut GoalIndex,
    pub cache: &'g crate::classes::ClassCache,
    pub arena: Arena,
    pub inputs: Vec<Input>,
    pub hint: BTreeMap<VarId, Value>,
    pub path: Vec<PcEntry>,
    pub covered: Vec<GoalId>,
    pub stats: InterpStats,
    pub heap: Heap,
    pub steps: u64,
    pub depth: u32,
    /// Frames of `<clinit>` methods active: their branches are not the test's (the worker runs
    /// every class initialiser at set-up, outside any test's trace).
    pub in_clinit: u32,
    /// The current instruction flagged as having a symbolic operand (for the counters).
    pub sym_insn: bool,
    /// Character variables of string inputs, by (statement, index).
    pub str_chars: BTreeMap<(crate::heap::StrInput, u32), ExprId>,
    /// Boxes of the `valueOf` caches (−128..127, Boolean, small chars), by (class, value).
    pub box_cache: BTreeMap<(String, i64), ObjId>,
    pub locs: Vec<Loc>,
    /// Three-way compare results by expression: (compare, left, right), so that the `if` after
    /// an `lcmp`/`fcmp*`/`dcmp*` states the comparison itself.
    pub cmps: BTreeMap<ExprId, (Op, ExprId, ExprId)>,
    /// JVM booleans made from Bool conditions (`BoolToBv(b)` -> `b`), so that `ifeq` on a model's
    /// boolean result states the condition itself.
    pub bools: BTreeMap<ExprId, ExprId>,
    pub outcomes: Vec<String>,
    /// Array elements allocated so far (`ops::MAX_HEAP_CELLS` bounds them).
    pub heap_cells: u64,
    /// Clock queries so far (the workers' clock advances 1 ms per query).
    pub clock_ticks: i64,
    /// The state of the workers' `Math.random` generator, once used.
    pub random_seed: Option<u64>,
    /// Seeds handed to `new Random()` so far (the workers count them per test).
    pub random_seeds: i64,
    /// The fields `Unsafe.objectFieldOffset` handed out offsets for, as (owner, name, descriptor):
    /// an offset is an index into this (models/unsafe_ops.rs).
    pub field_offsets: Vec<(String, String, String)>,
    /// Exploration mode (`Concolic::explore`): lazy input objects and the clause log.
    pub lazy: Option<Box<crate::lazy::LazyState>>,
}

impl<'a, 'g> Machine<'a, 'g> {
    pub fn new(
        db: &'a ProgramDb,
        plan: &'a ProbePlan,
        cfg: SymConfig,
        goals: &'g mut GoalIndex,
        cache: &'g crate::classes::ClassCache,
    ) -> Self {
        Machine {
            db,
            plan,
            cfg,
            goals,
            cache,
            arena: Arena::new(),
            inputs: Vec::new(),
            hint: BTreeMap::new(),
            path: Vec::new(),
            covered: Vec::new(),
            stats: InterpStats::default(),
            heap: Heap::default(),
            steps: 0,
            depth: 0,
            in_clinit: 0,
            sym_insn: false,
            str_chars: BTreeMap::new(),
            box_cache: BTreeMap::new(),
            locs: Vec::new(),
            cmps: BTreeMap::new(),
            bools: BTreeMap::new(),
            outcomes: Vec::new(),
            heap_cells: 0,
            clock_ticks: 0,
            random_seed: None,
            random_seeds: 0,
            field_offsets: Vec::new(),
            lazy: None,
        }
    }

    pub fn finish(self) -> Replay {
        let stop = self.stats.stop.clone();
        Replay {
            arena: self.arena,
            inputs: self.inputs,
            hint: Assignment(self.hint),
            path: self.path,
            covered: self.covered,
            stop,
            stats: self.stats,
            outcomes: self.outcomes,
        }
    }

    // ----- Counting and limits. -----

    pub fn tick(&mut self) -> Res<()> {
        self.steps += 1;
        if self.steps > self.cfg.max_steps {
            return stop(Stop::Steps);
        }
        if self.arena.len() > MAX_EXPR_NODES {
            return stop(Stop::Nodes);
        }
        if let Some(b) = self.lazy.as_ref().and_then(|st| st.bound) {
            return unsupported(format!("exploration bound {b:?}"));
        }
        Ok(())
    }

    /// The expression of a value (its shadow, or its constant); flags the instruction symbolic
    /// when the value has a shadow.
    pub fn expr(&mut self, s: Slot) -> ExprId {
        match s.s {
            Some(e) => {
                self.sym_insn = true;
                e
            }
            None => self.arena.konst(s.c.value().unwrap_or(Value::i32(0))),
        }
    }

    // ----- The path. -----

    fn loc(&self) -> Loc {
        self.locs.last().cloned().unwrap_or(Loc { class: String::new(), method: String::new(), insn: 0 })
    }

    /// Records a path entry for a Bool condition that held, unless it is constant.
    pub fn record(&mut self, kind: EntryKind, cond: ExprId, goal: GoalId, negated: Option<GoalId>) {
        if self.arena.as_const(cond).is_some() {
            return;
        }
        let loc = self.loc();
        self.path.push(PcEntry {
            goal,
            negated_goal: negated,
            cond,
            kind,
            cases: Vec::new(),
            class: loc.class,
            method: loc.method,
            insn: loc.insn,
            merged: false,
        });
        if self.lazy.is_some() {
            self.log_entry(kind);
        }
    }

    /// An implicit check (may throw) whose outcome `held` (Bool) is symbolic.
    pub fn implicit(&mut self, held: ExprId) {
        self.record(EntryKind::Implicit, held, NO_GOAL, None);
    }

    /// Concretises a symbolic value: adds `e == v` to the path and returns the concrete value.
    pub fn pin(&mut self, s: Slot) -> Slot {
        if let Some(e) = s.s {
            let k = self.arena.konst(s.c.value().unwrap_or(Value::i32(0)));
            let eq = self.arena.mk(Op::Eq, &[e, k]);
            if self.arena.as_const(eq).is_none() {
                self.stats.pinned += 1;
                self.record(EntryKind::Pin, eq, NO_GOAL, None);
            }
        }
        Slot::conc(s.c)
    }

    /// A branch goal was taken (outside class initialisers).
    pub fn cover(&mut self, g: GoalId) {
        if self.in_clinit == 0 {
            self.covered.push(g);
        }
    }

    // ----- The method loop. -----

    /// Runs a method from bytecode with its locals set, to its return or an uncaught throw.
    pub fn execute(&mut self, f: &mut Frame<'a>) -> Res<Option<Slot>> {
        let body = f.body;
        loop {
            self.tick()?;
            let pc = f.pc;
            f.join_merge();
            if let Some(l) = self.locs.last_mut() {
                l.insn = pc as u32;
            }
            let Some(insn) = body.insns.get(pc) else {
                return unsupported(format!("control falls off the code of {}.{}", f.class, f.name));
            };
            self.sym_insn = false;
            let r = self.step(f, insn);
            if self.sym_insn {
                self.stats.symbolic += 1;
            } else {
                self.stats.concrete += 1;
            }
            match r {
                Ok(Next::Go) => f.pc += 1,
                Ok(Next::Jump(t)) => f.pc = t,
                Ok(Next::Ret(v)) => return Ok(v),
                Err(Abrupt::Throw(e)) => match self.handler(f, pc, e) {
                    Some(h) => {
                        f.stack.clear();
                        f.stack.push(Slot::obj(e));
                        f.pc = h;
                    }
                    None => return Err(Abrupt::Throw(e)),
                },
                Err(s) => return Err(s),
            }
        }
    }

    /// The handler of the innermost matching exception-table entry (table order, JVMS §2.10).
    fn handler(&self, f: &Frame<'a>, pc: usize, e: ObjId) -> Option<usize> {
        let class = self.heap.class_of(e);
        for h in &f.body.handlers {
            if h.start.index() <= pc && pc < h.end.index() {
                if h.catch_type == 0 {
                    return Some(h.handler.index());
                }
                let caught = f.cp.class_name(h.catch_type)?;
                if self.db.is_subclass(&class, &caught) {
                    return Some(h.handler.index());
                }
            }
        }
        None
    }

    fn step(&mut self, f: &mut Frame<'a>, insn: &Insn) -> Res<Next> {
        match insn {
            Insn::Simple(op) => self.simple(f, *op),
            Insn::Push { value, .. } => {
                f.push(Slot::int(i32::from(*value)));
                Ok(Next::Go)
            }
            Insn::Ldc { index, .. } => self.ldc(f, *index),
            Insn::Local { op, var, .. } => self.local(f, *op, *var),
            Insn::Iinc { var, delta, .. } => self.iinc(f, *var, *delta),
            Insn::Branch { op, target } => self.jump(f, *op, target.index()),
            Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => self.switch(f, insn),
            Insn::Field { op, index } => self.field(f, *op, *index),
            Insn::Invoke { op, index } => self.invoke_insn(f, *op, *index),
            Insn::InvokeInterface { index, .. } => self.invoke_insn(f, Opcode::INVOKEINTERFACE, *index),
            Insn::InvokeDynamic { index } => self.indy(f, *index),
            Insn::Type { op, index } => self.type_op(f, *op, *index),
            Insn::NewArray { atype } => self.new_array(f, *atype),
            Insn::MultiANewArray { index, dims } => self.multi_array(f, *index, *dims),
        }
    }

    /// Instructions without operands, by opcode range (JVMS §6.5).
    fn simple(&mut self, f: &mut Frame<'a>, op: Opcode) -> Res<Next> {
        match op.0 {
            0x00..=0x0f => self.constant(f, op),
            0x2e..=0x35 => self.array_load(f, op),
            0x4f..=0x56 => self.array_store(f, op),
            0x57..=0x5f => self.stack_op(f, op),
            0x60..=0x83 => self.arith(f, op),
            0x85..=0x93 => self.convert(f, op),
            0x94..=0x98 => self.compare(f, op),
            0xac..=0xb0 => Ok(Next::Ret(Some(f.pop()))),
            0xb1 => Ok(Next::Ret(None)),
            0xbe => self.array_length(f),
            0xbf => {
                let e = f.pop();
                match e.as_ref() {
                    Some(o) => Err(Abrupt::Throw(o)),
                    None => self.throw_new("java/lang/NullPointerException", "athrow of null"),
                }
            }
            // Monitors are no-ops: one thread runs.
            0xc2 | 0xc3 => {
                let r = f.pop();
                if r.as_ref().is_none() {
                    return self.throw_new("java/lang/NullPointerException", "monitor of null");
                }
                Ok(Next::Go)
            }
            _ => unsupported(format!("instruction {}", op.name())),
        }
    }

    /// Throws a new exception of a JDK class with a message (implicit exceptions, models).
    pub fn throw_new<T>(&mut self, class: &str, msg: &str) -> Res<T> {
        Err(Abrupt::Throw(self.new_throwable(class, msg)))
    }

    pub fn new_throwable(&mut self, class: &str, msg: &str) -> ObjId {
        let units: Vec<u16> = msg.encode_utf16().collect();
        let m = self.heap.alloc(Obj::Str(crate::heap::StrVal::concrete(&units)));
        let mut fields = BTreeMap::new();
        fields.insert("java/lang/Throwable.detailMessage".to_string(), Slot::obj(m));
        self.heap.alloc(Obj::Inst { class: class.to_string(), fields })
    }

    /// Looks up a method's frame data (body, constant pool, names).
    pub fn frame_for(&mut self, m: MethodId, args: Vec<Slot>) -> Res<Frame<'a>> {
        let db = self.db;
        let class = db.class(m.class()).map_err(|e| Abrupt::Stop(Stop::Missing(e.to_string())))?;
        let cp = &class.constant_pool;
        let member = &class.methods[m.index() as usize];
        let name = member.name(cp).unwrap_or(Cow::Borrowed("?"));
        let desc = member.descriptor(cp).unwrap_or(Cow::Borrowed("()V"));
        let cname = db.class_name(m.class());
        let body = match db.body(m) {
            Some(Ok(b)) => b,
            Some(Err(e)) => return unsupported(format!("undecodable {cname}.{name}: {e}")),
            None => return stop(Stop::Native(format!("{cname}.{name}{desc}"))),
        };
        let need: usize = args.iter().map(|a| if a.wide() { 2 } else { 1 }).sum();
        let mut locals = vec![Slot::TOP; usize::from(body.max_locals).max(need)];
        let mut i = 0;
        for a in args {
            let wide = a.wide();
            locals[i] = a;
            i += if wide { 2 } else { 1 };
        }
        let goals = self.goals.method(self.plan, cname, m.index());
        Ok(Frame { class: cname, name, desc, body, cp, pc: 0, locals, stack: Vec::new(), goals, merge: None })
    }

    /// Calls a method interpreted from bytecode with its arguments (receiver first).
    pub fn call_bytecode(&mut self, m: MethodId, args: Vec<Slot>) -> Res<Option<Slot>> {
        if self.depth >= self.cfg.max_depth {
            return stop(Stop::Depth);
        }
        let mut f = self.frame_for(m, args)?;
        let clinit = f.name == "<clinit>";
        self.locs.push(Loc { class: f.class.to_string(), method: format!("{}{}", f.name, f.desc), insn: 0 });
        self.depth += 1;
        self.in_clinit += u32::from(clinit);
        let r = self.execute(&mut f);
        self.in_clinit -= u32::from(clinit);
        self.depth -= 1;
        self.locs.pop();
        r
    }
}
