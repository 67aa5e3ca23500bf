//! Building the object construction graph of one branch (digest 000-001 §A2.2): the backward
//! slice of the method under test from the branch's operands, interprocedural up to depth
//! `t_dep`, with callee `this`/parameters bound to the caller's receiver/arguments, then
//! distilled to paths from a graph input to a field or array-element read.
//!
//! The walk is the pseudo-code `BuildOCG` of §A2.2 with an explicit worklist (STYLE.md rule 7).
//! A node is made the first time a value is asked for; processing it asks for the values its
//! instruction consumes (its data predecessors: operand producers through `dup`/`swap`, reaching
//! stores of locals), adds an edge from each with the role the value plays, and, for a call whose
//! depth allows it, descends into the callee (§A2.2 item 6). The walk stops, as item 5 says, at a
//! read of a parameter or of `this` of the method under test (an `Input` node; a `getfield` on
//! such a receiver is then a `Field` node whose `Owner` is that input, so the receiver's own
//! fields are input reads too), at a `getstatic` (a global), and at instructions with no incoming
//! flow (constants, `new`, `newarray`): those make no node at all, since distillation would drop
//! every path starting there anyway ("we cannot modify such a constant").
//!
//! Interprocedural (§A2.2 items 6 and 7): inside a callee, every node's site carries the chain of
//! call instructions from the method under test, so each call site gets its own copies
//! (`player_1()`, `player_2()`). A read of the callee's `this` or parameter k (an `xload` or `iinc`
//! reached by the slot's entry value) is no node: the value it stands for is the caller's
//! receiver or argument k at that call site, i.e. the caller's node that produced that operand
//! (positional binding, no heap alias analysis). When the caller loaded a local, that node is the
//! load's pass-through, as in the paper's path of §A2.3, `aload(state) -> player_1() ->
//! astore(actor) -> aload(actor) -> getfield(action)`; when the caller's operand is itself a read
//! of the caller's own parameter, the binding goes on up. The slice inside a callee starts from the
//! producers of its return instructions' operands (edge `Returned` into the call node) and from
//! the operands of the branches those returns are control dependent on, transitively (edge
//! `Guard` into the call node: `id` in `if (id < 0 || id >= 128) return null; return
//! players[id];`). A virtual or interface call enters its class-hierarchy targets when they are
//! at most `max_dispatch` (the one an instance of the named class runs first), and else only that
//! one; methods without code (abstract, native, not on the classpath) are not entered.
//!
//! Distillation (§A2.2 item 8) keeps the nodes that lie on a path from an `Input` node to a
//! `Field` or `ArrayElement` node, and two kinds of nodes beside them: the call nodes whose
//! returned value is a kept node (directly or through local moves), because the call is how the
//! method under test observes that read and a template calls the getter after it set the field
//! (`player_2()` in E2 returns `players[target]`, which only a null check reads); and a
//! `getstatic` that owns a kept read (`Owner`, `ArrayRef` or `Receiver`, possibly through local
//! moves), since a global is no graph input but the template needs the object it names. Every
//! other path that starts at a global is dropped like one that starts at a constant.
//!
//! Deviations from the paper, each a reading of what it leaves open:
//! - Control dependence is followed only from branches and returns: the target branch and the
//!   branches it is control dependent on (transitively), and, in a callee, the branches guarding
//!   its returns. The paper's pseudo-code adds the control predecessors of every slice node;
//!   inside a loop that pulls in every loop condition for every value, and §A5 item 1 names
//!   large graphs as the approach's main cost. The nodes that feed the target branch itself,
//!   directly or as a guard, have no edge out: the branch is not a node.
//! - A recursive call is not entered again (a callee already on the call chain): its slice
//!   would repeat the caller's one level deeper, up to `t_dep` times.
//! - Arithmetic, comparisons (`lcmp`, `fcmpl`, ...), conversions, `arraylength`, `instanceof` and
//!   `iinc` are `PassThrough` nodes whose parents come with role `Operand`: a template reuses the
//!   operand's variable (an index `i + 1` becomes `i`), which keeps the correlation the search
//!   then refines. `invokedynamic` makes no node (its bootstrap decides what runs).
//! - A read of a slot that holds the entry value on some path and a stored value on another is
//!   taken as the input read (in the method under test) or as the bound argument (in a callee);
//!   the stores into a parameter's slot are not followed.
//! - A graph with more than `max_nodes` nodes before distillation is cut: the walk is breadth
//!   first from the branch, so the nodes nearest to it are kept; `Slice::cut` says so.
//! - Loop-carried definitions of locals are not followed: a read of a local takes the stores
//!   that reach it without going around a loop (those before it in the code), so `n = n.next` in
//!   a loop gives the first iteration's `n`. A template is straight-line code (§A2.4), and the
//!   graph stays acyclic (the few cycles left, through values javac never keeps on the operand
//!   stack around a loop, are broken by dropping the edges that close them).

use std::collections::{BTreeSet, VecDeque};

use analysis::{DataDeps, LocalDef, Pdg, StackDef};
use bytecode::{Insn, InsnIdx, MethodBody, Opcode};
use classfile::descriptor::{FieldType, MethodDescriptor};
use classfile::{ConstantPool, access};
use programdb::{CallSite, InvokeKind, MethodId, ProgramDb};

use crate::graph::{Input, NodeId, NodeKind, Ocg, Role, Site, Target};

/// How far the slicer goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliceConfig {
    /// `t_dep`: the longest call chain `m_t -> m_1 -> ... -> m_k` entered (k <= depth).
    pub depth: u32,
    /// The most nodes the slice may have before distillation; a larger graph is cut.
    pub max_nodes: usize,
    /// The most targets of one virtual or interface call entered (class-hierarchy analysis).
    pub max_dispatch: usize,
}

impl SliceConfig {
    /// The paper's `t_dep = 5` (§A2.2 item 6), with caps of our own: 300 nodes (the paper's
    /// largest reported graph has 128, §A4) and 4 targets per virtual call.
    pub fn paper() -> SliceConfig {
        SliceConfig { depth: 5, max_nodes: 300, max_dispatch: 4 }
    }
}

/// What `slice` made: the distilled graph and how large the slice was before distillation.
#[derive(Debug, Clone)]
pub struct Slice {
    pub ocg: Ocg,
    /// Nodes before distillation.
    pub sliced: usize,
    /// The slice reached `max_nodes` and was cut.
    pub cut: bool,
}

/// The object construction graph of `target` (§A2.2): slice, then distil.
pub fn build(db: &ProgramDb, target: Target, config: &SliceConfig) -> Ocg {
    slice(db, target, config).ocg
}

/// Like `build`, with the size of the slice and whether it was cut.
pub fn slice(db: &ProgramDb, target: Target, config: &SliceConfig) -> Slice {
    let mut b = Builder {
        db,
        config,
        ocg: Ocg::new(target),
        frames: Vec::new(),
        frame_of: Vec::new(),
        work: VecDeque::new(),
        cut: false,
    };
    if let Some(code) = Code::of(db, target.method) {
        let params = param_table(db, target.method);
        b.frames.push(Frame { context: Vec::new(), method: target.method, code, bound: None, params });
        b.criterion(target.insn);
        while let Some(n) = b.work.pop_front() {
            b.process(n);
        }
    }
    let sliced = b.ocg.nodes().len();
    let mut ocg = b.ocg;
    break_cycles(&mut ocg);
    distil(&mut ocg);
    Slice { ocg, sliced, cut: b.cut }
}

/// The conditional branch instructions of a method (if*, switches): where `build` may start.
pub fn branch_insns(db: &ProgramDb, m: MethodId) -> Vec<InsnIdx> {
    let Some(Ok(body)) = db.body(m) else { return Vec::new() };
    (0..body.insns.len())
        .filter(|&i| body.insns[i].is_conditional() || body.insns[i].is_switch())
        .map(InsnIdx::new)
        .collect()
}

/// The facts about one method's code the slicer reads.
#[derive(Clone, Copy)]
struct Code<'a> {
    body: &'a MethodBody,
    data: &'a DataDeps,
    pdg: &'a Pdg,
    cp: &'a ConstantPool,
}

impl<'a> Code<'a> {
    fn of(db: &'a ProgramDb, m: MethodId) -> Option<Code<'a>> {
        let body = db.body(m)?.ok()?;
        Some(Code {
            body,
            data: db.data_deps(m)?,
            pdg: db.pdg(m)?,
            cp: &db.class(m.class()).ok()?.constant_pool,
        })
    }

    fn insn(&self, i: InsnIdx) -> Option<&'a Insn> {
        self.body.insns.get(i.index())
    }
}

/// A parameter (or the receiver) by the local slot it arrives in.
#[derive(Clone)]
struct Param {
    input: Input,
    descriptor: String,
}

/// One method entered, in one calling context.
struct Frame<'a> {
    context: Vec<(MethodId, InsnIdx)>,
    method: MethodId,
    code: Code<'a>,
    /// `None` for the method under test; for a callee, per local slot, the caller's nodes bound to
    /// the receiver or argument arriving there (§A2.2 item 7).
    bound: Option<Vec<Vec<NodeId>>>,
    /// Per local slot, the parameter that arrives there.
    params: Vec<Option<Param>>,
}

/// What an instruction is to the slicer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Load,
    Store,
    Iinc,
    Field {
        is_static: bool,
    },
    Element,
    Call {
        is_static: bool,
    },
    Cast,
    Arith,
    /// Constants, `new`, `invokedynamic`, and instructions that push nothing.
    Other,
}

fn shape(insn: &Insn) -> Shape {
    let op = insn.op();
    match insn {
        Insn::Local { .. } => match op.local_access() {
            Some((_, false, _)) => Shape::Load,
            Some((_, true, _)) => Shape::Store,
            None => Shape::Other,
        },
        Insn::Iinc { .. } => Shape::Iinc,
        Insn::Field { op, .. } if *op == Opcode::GETFIELD => Shape::Field { is_static: false },
        Insn::Field { op, .. } if *op == Opcode::GETSTATIC => Shape::Field { is_static: true },
        Insn::Invoke { op, .. } => Shape::Call { is_static: *op == Opcode::INVOKESTATIC },
        Insn::InvokeInterface { .. } => Shape::Call { is_static: false },
        Insn::Type { op, .. } if *op == Opcode::CHECKCAST => Shape::Cast,
        Insn::Type { op, .. } if *op == Opcode::INSTANCEOF => Shape::Arith,
        Insn::Simple(op) if (Opcode::IALOAD.0..=Opcode::SALOAD.0).contains(&op.0) => Shape::Element,
        // iadd .. lxor, i2l .. i2s, lcmp .. dcmpg (0x84 is iinc, not `Simple`), arraylength.
        Insn::Simple(op) if (0x60..=0x98).contains(&op.0) || *op == Opcode::ARRAYLENGTH => Shape::Arith,
        _ => Shape::Other,
    }
}

struct Builder<'a> {
    db: &'a ProgramDb,
    config: &'a SliceConfig,
    ocg: Ocg,
    frames: Vec<Frame<'a>>,
    /// Per node, the frame it belongs to.
    frame_of: Vec<usize>,
    /// Nodes made but not processed yet, breadth first from the branch.
    work: VecDeque<NodeId>,
    cut: bool,
}

impl Builder<'_> {
    /// The slicing criterion in the method under test (frame 0): the producers of the target's
    /// operands and of the operands of the branches it is control dependent on, transitively.
    fn criterion(&mut self, target: InsnIdx) {
        let code = self.frames[0].code;
        let mut insns = vec![target];
        insns.extend(guard_branches(code, &[target]));
        for i in insns {
            // The nodes are made (and queued); nothing consumes them: the branch is no node.
            self.operand_nodes(0, i);
        }
    }

    /// The node at `insn` of frame `f`, made (and queued) on first sight; `None` once the graph
    /// is full.
    fn node(&mut self, f: usize, insn: InsnIdx, kind: NodeKind) -> Option<NodeId> {
        let frame = &self.frames[f];
        let site = Site { context: frame.context.clone(), method: frame.method, insn };
        if let Some(id) = self.ocg.find(&site) {
            return Some(id);
        }
        if self.ocg.nodes().len() >= self.config.max_nodes {
            self.cut = true;
            return None;
        }
        let id = self.ocg.node(site, kind);
        self.frame_of.push(f);
        self.work.push_back(id);
        Some(id)
    }

    /// The nodes standing for a value on the operand stack of frame `f`.
    fn value(&mut self, f: usize, def: StackDef) -> Vec<NodeId> {
        let StackDef::Insn(i) = def else { return Vec::new() };
        let code = self.frames[f].code;
        let Some(insn) = code.insn(i) else { return Vec::new() };
        let kind = match shape(insn) {
            Shape::Load => return self.local_read(f, i),
            Shape::Field { is_static } => match field_kind(code, insn, is_static) {
                Some(kind) => kind,
                None => return Vec::new(),
            },
            Shape::Element => NodeKind::ArrayElement { descriptor: self.element_descriptor(f, i, insn) },
            Shape::Call { is_static } => match call_kind(code, insn, is_static) {
                Some(kind) => kind,
                None => return Vec::new(),
            },
            Shape::Cast | Shape::Arith => NodeKind::PassThrough,
            Shape::Store | Shape::Iinc | Shape::Other => return Vec::new(),
        };
        self.node(f, i, kind).into_iter().collect()
    }

    /// The nodes standing for what the local read at `i` (`xload`, `iinc`) reads: an input or a
    /// bound argument when the slot's entry value reaches it, else a pass-through node.
    fn local_read(&mut self, f: usize, i: InsnIdx) -> Vec<NodeId> {
        let code = self.frames[f].code;
        let entry = code.data.reaching_defs(i).iter().find_map(|d| match d {
            LocalDef::Entry { var } => Some(*var),
            LocalDef::Store(_) => None,
        });
        let Some(var) = entry else { return self.node(f, i, NodeKind::PassThrough).into_iter().collect() };
        let frame = &self.frames[f];
        if let Some(bound) = &frame.bound {
            return bound.get(var as usize).cloned().unwrap_or_default();
        }
        match frame.params.get(var as usize).and_then(Option::as_ref) {
            Some(p) => {
                let input = p.input;
                self.node(f, i, NodeKind::Input(input)).into_iter().collect()
            }
            None => Vec::new(),
        }
    }

    /// The nodes standing for the value a definition of a local (`xstore`, `iinc` at `s`) stores.
    fn stored(&mut self, f: usize, s: InsnIdx) -> Vec<NodeId> {
        match self.frames[f].code.insn(s).map(shape) {
            Some(Shape::Store) => self.node(f, s, NodeKind::PassThrough).into_iter().collect(),
            Some(Shape::Iinc) => self.local_read(f, s),
            _ => Vec::new(),
        }
    }

    /// Per operand of `i` (deepest first), the nodes of its producers.
    fn operand_nodes(&mut self, f: usize, i: InsnIdx) -> Vec<Vec<NodeId>> {
        let data = self.frames[f].code.data;
        let mut res = Vec::new();
        for defs in data.operands(i) {
            let mut nodes: Vec<NodeId> = defs.iter().flat_map(|&d| self.value(f, d)).collect();
            nodes.sort_unstable();
            nodes.dedup();
            res.push(nodes);
        }
        res
    }

    fn edges(&mut self, from: &[NodeId], to: NodeId, role: Role) {
        for &p in from {
            if p != to {
                self.ocg.edge(p, to, role);
            }
        }
    }

    /// Adds the edges into `n` from the values its instruction consumes; descends into callees.
    fn process(&mut self, n: NodeId) {
        let node = self.ocg.get(n);
        if matches!(node.kind, NodeKind::Input(_)) {
            return;
        }
        let i = node.site.insn;
        let Some(&f) = self.frame_of.get(n.index()) else { return };
        let code = self.frames[f].code;
        let Some(insn) = code.insn(i) else { return };
        match shape(insn) {
            Shape::Load | Shape::Iinc => {
                let role = if shape(insn) == Shape::Load { Role::AssignedValue } else { Role::Operand };
                for def in code.data.reaching_defs(i) {
                    // A definition at or after the read reaches it only around a loop: the value
                    // of a later iteration, not followed (see the module comment).
                    if let LocalDef::Store(s) = *def
                        && s < i
                    {
                        let from = self.stored(f, s);
                        self.edges(&from, n, role);
                    }
                }
            }
            Shape::Store | Shape::Cast => {
                let ops = self.operand_nodes(f, i);
                self.edges(ops.first().map_or(&[], |v| v), n, Role::AssignedValue);
            }
            Shape::Arith => {
                for ops in self.operand_nodes(f, i) {
                    self.edges(&ops, n, Role::Operand);
                }
            }
            Shape::Field { is_static: false } => {
                let ops = self.operand_nodes(f, i);
                self.edges(ops.first().map_or(&[], |v| v), n, Role::Owner);
            }
            Shape::Element => {
                let ops = self.operand_nodes(f, i);
                self.edges(ops.first().map_or(&[], |v| v), n, Role::ArrayRef);
                self.edges(ops.get(1).map_or(&[], |v| v), n, Role::ArrayIndex);
            }
            Shape::Call { is_static } => {
                let ops = self.operand_nodes(f, i);
                for (k, from) in ops.iter().enumerate() {
                    let role = match (is_static, k) {
                        (false, 0) => Role::Receiver,
                        (false, k) => Role::Arg(k as u16 - 1),
                        (true, k) => Role::Arg(k as u16),
                    };
                    self.edges(from, n, role);
                }
                self.descend(f, n, i, ops);
            }
            Shape::Field { is_static: true } | Shape::Other => {}
        }
    }

    /// Enters the callees of the call node `n` (at `i` of frame `f`, with operand nodes `ops`)
    /// while the depth allows (§A2.2 items 6 and 7).
    fn descend(&mut self, f: usize, n: NodeId, i: InsnIdx, ops: Vec<Vec<NodeId>>) {
        let (db, config) = (self.db, self.config);
        if self.frames[f].context.len() >= config.depth as usize {
            return;
        }
        let Some(site) = db.callees(self.frames[f].method, i) else { return };
        let Ok(desc) = MethodDescriptor::parse(&site.descriptor) else { return };
        let is_static = site.op == Opcode::INVOKESTATIC;
        // Positional binding: the receiver arrives in slot 0, argument k in its slot.
        let mut ops = ops.into_iter();
        let mut bound: Vec<Vec<NodeId>> = Vec::new();
        if !is_static {
            bound.push(ops.next().unwrap_or_default());
        }
        for p in &desc.params {
            bound.push(ops.next().unwrap_or_default());
            if p.slots() == 2 {
                bound.push(Vec::new());
            }
        }
        let mut context = self.frames[f].context.clone();
        context.push((self.frames[f].method, i));
        for callee in targets(db, site, config.max_dispatch) {
            // A recursive call is not entered again: its slice would repeat one level deeper.
            let recursive = callee == self.frames[f].method || context.iter().any(|c| c.0 == callee);
            let Some(code) = Code::of(db, callee).filter(|_| !recursive) else { continue };
            let params = param_table(db, callee);
            let frame =
                Frame { context: context.clone(), method: callee, code, bound: Some(bound.clone()), params };
            self.frames.push(frame);
            self.returns(self.frames.len() - 1, n);
        }
    }

    /// The slice of a callee (frame `cf`) starts at what its returns return (`Returned` into the
    /// call node `n`) and at the operands of the branches guarding them (`Guard`).
    fn returns(&mut self, cf: usize, n: NodeId) {
        let code = self.frames[cf].code;
        let rets: Vec<InsnIdx> = (0..code.body.insns.len())
            .map(InsnIdx::new)
            .filter(|&r| code.insn(r).is_some_and(|x| x.is_return() && x.op() != Opcode::RETURN))
            .collect();
        for &r in &rets {
            for ops in self.operand_nodes(cf, r) {
                self.edges(&ops, n, Role::Returned);
            }
        }
        for b in guard_branches(code, &rets) {
            for ops in self.operand_nodes(cf, b) {
                self.edges(&ops, n, Role::Guard);
            }
        }
    }

    /// The element type of the `xaload` at `i` of frame `f`: from the opcode, or for `aaload`
    /// (and `baload`, which also reads `boolean[]`) from the array's type when it is known.
    fn element_descriptor(&self, f: usize, i: InsnIdx, insn: &Insn) -> String {
        let fixed = match insn.op() {
            Opcode::IALOAD => "I",
            Opcode::LALOAD => "J",
            Opcode::FALOAD => "F",
            Opcode::DALOAD => "D",
            Opcode::CALOAD => "C",
            Opcode::SALOAD => "S",
            _ => "",
        };
        if !fixed.is_empty() {
            return fixed.to_owned();
        }
        let array = self.array_type(f, self.frames[f].code.data.producers(i, 0), &mut 32);
        let element = array.as_deref().and_then(|a| a.strip_prefix('['));
        match (insn.op(), element) {
            (Opcode::BALOAD, Some("Z")) => "Z".to_owned(),
            (Opcode::BALOAD, _) => "B".to_owned(),
            (_, Some(e)) if !is_primitive(e) => e.to_owned(),
            _ => "Ljava/lang/Object;".to_owned(),
        }
    }

    /// The static type of an array value, when an instruction says it: a field's or a call's
    /// declared type, a parameter's, an array creation's, a cast's, through local moves and
    /// element reads. `budget` bounds the producers looked at (merges of merges of locals).
    fn array_type(&self, f: usize, defs: &[StackDef], budget: &mut u32) -> Option<String> {
        let code = self.frames[f].code;
        for d in defs {
            let StackDef::Insn(i) = *d else { continue };
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            let Some(insn) = code.insn(i) else { continue };
            let found = match insn {
                Insn::Field { index, .. } => code.cp.member_ref(*index).map(|r| r.descriptor.into_owned()),
                Insn::Invoke { index, .. } | Insn::InvokeInterface { index, .. } => code
                    .cp
                    .member_ref(*index)
                    .and_then(|r| r.descriptor.rsplit_once(')').map(|(_, ret)| ret.to_owned())),
                Insn::Type { op, index } if *op == Opcode::CHECKCAST => {
                    code.cp.class_name(*index).map(|c| c.into_owned())
                }
                Insn::Type { op, index } if *op == Opcode::ANEWARRAY => code
                    .cp
                    .class_name(*index)
                    .map(|c| if c.starts_with('[') { format!("[{c}") } else { format!("[L{c};") }),
                Insn::MultiANewArray { index, .. } => code.cp.class_name(*index).map(|c| c.into_owned()),
                Insn::NewArray { atype } => newarray_type(*atype),
                Insn::Simple(op) if *op == Opcode::AALOAD => self
                    .array_type(f, code.data.producers(i, 0), budget)
                    .and_then(|a| a.strip_prefix('[').map(str::to_owned)),
                Insn::Local { .. } => self.local_array_type(f, i, budget),
                _ => None,
            };
            if let Some(t) = found.filter(|t| t.starts_with('[')) {
                return Some(t);
            }
        }
        None
    }

    /// `array_type` of what the local read at `i` reads: a parameter's declared type, or what
    /// the stores reaching it store.
    fn local_array_type(&self, f: usize, i: InsnIdx, budget: &mut u32) -> Option<String> {
        let code = self.frames[f].code;
        for def in code.data.reaching_defs(i) {
            let found = match *def {
                LocalDef::Entry { var } => self.frames[f]
                    .params
                    .get(var as usize)
                    .and_then(Option::as_ref)
                    .map(|p| p.descriptor.clone()),
                LocalDef::Store(s) => self.array_type(f, code.data.producers(s, 0), budget),
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

fn is_primitive(descriptor: &str) -> bool {
    descriptor.len() == 1
}

/// The array type `newarray` makes, by its type code (JVMS table 6.5.newarray-A).
fn newarray_type(atype: u8) -> Option<String> {
    let c = match atype {
        4 => 'Z',
        5 => 'C',
        6 => 'F',
        7 => 'D',
        8 => 'B',
        9 => 'S',
        10 => 'I',
        11 => 'J',
        _ => return None,
    };
    Some(format!("[{c}"))
}

fn field_kind(code: Code<'_>, insn: &Insn, is_static: bool) -> Option<NodeKind> {
    let Insn::Field { index, .. } = insn else { return None };
    let r = code.cp.member_ref(*index)?;
    Some(NodeKind::Field {
        owner: r.class.into_owned(),
        name: r.name.into_owned(),
        descriptor: r.descriptor.into_owned(),
        is_static,
    })
}

fn call_kind(code: Code<'_>, insn: &Insn, is_static: bool) -> Option<NodeKind> {
    let (Insn::Invoke { index, .. } | Insn::InvokeInterface { index, .. }) = insn else { return None };
    let r = code.cp.member_ref(*index)?;
    Some(NodeKind::Call {
        owner: r.class.into_owned(),
        name: r.name.into_owned(),
        descriptor: r.descriptor.into_owned(),
        is_static,
    })
}

/// The branches the instructions `from` are control dependent on, transitively (the branches
/// guarding those branches too), sorted; `from` themselves only when reached again.
fn guard_branches(code: Code<'_>, from: &[InsnIdx]) -> Vec<InsnIdx> {
    let mut seen = BTreeSet::new();
    let mut work: Vec<InsnIdx> = from.to_vec();
    while let Some(i) = work.pop() {
        if i.index() >= code.body.insns.len() {
            continue;
        }
        for &b in code.pdg.control_insns(i) {
            if seen.insert(b) {
                work.push(b);
            }
        }
    }
    seen.into_iter().collect()
}

/// The methods a call may run that the slicer enters (those with code): a static or special
/// call's one target; for a virtual or interface call, the class-hierarchy targets when there are
/// at most `max` of them, the one an instance of the named class runs first, and else that one
/// alone (`Object.toString()` has an override in most classes of a jar, and entering the first
/// few of them by id would slice unrelated code).
fn targets(db: &ProgramDb, site: &CallSite, max: usize) -> Vec<MethodId> {
    let has_code = |m: &MethodId| matches!(db.body(*m), Some(Ok(_)));
    let virtual_call = site.op == Opcode::INVOKEVIRTUAL || site.op == Opcode::INVOKEINTERFACE;
    if !virtual_call {
        return site.targets.iter().copied().filter(has_code).take(1).collect();
    }
    let kind = InvokeKind::of(site.op);
    let first = kind.and_then(|k| {
        db.invoke_target(k, &site.owner, &site.name, &site.descriptor, db.class_id(&site.owner))
    });
    let first = first.filter(has_code);
    let all: Vec<MethodId> = site.targets.iter().copied().filter(has_code).collect();
    if site.truncated || all.len() > max {
        return first.into_iter().collect();
    }
    let mut res: Vec<MethodId> = first.into_iter().collect();
    res.extend(all.into_iter().filter(|m| Some(*m) != first));
    res
}

/// Per local slot of `m`'s entry, the parameter (or receiver) arriving there.
fn param_table(db: &ProgramDb, m: MethodId) -> Vec<Option<Param>> {
    let Ok(class) = db.class(m.class()) else { return Vec::new() };
    let Some(member) = db.member(m) else { return Vec::new() };
    let Some(desc) = member.descriptor(&class.constant_pool).and_then(|d| MethodDescriptor::parse(&d).ok())
    else {
        return Vec::new();
    };
    let mut res = Vec::new();
    if member.access_flags & access::STATIC == 0 {
        let descriptor = FieldType::Object(db.class_name(m.class()).to_owned()).to_string();
        res.push(Some(Param { input: Input::Receiver, descriptor }));
    }
    for (k, p) in desc.params.iter().enumerate() {
        let index = u16::try_from(k).unwrap_or(u16::MAX);
        res.push(Some(Param { input: Input::Param { index }, descriptor: p.to_string() }));
        if p.slots() == 2 {
            res.push(None);
        }
    }
    res
}

/// §A2.2 item 8, with the two additions of the module comment: keeps the nodes on a path from an
/// input to a field or element read, the calls returning kept values, and the globals owning kept
/// nodes.
fn distil(ocg: &mut Ocg) {
    let n = ocg.nodes().len();
    let mut succ = vec![Vec::new(); n];
    let mut pred: Vec<Vec<(NodeId, Role)>> = vec![Vec::new(); n];
    for e in ocg.edges() {
        succ[e.from.index()].push(e.to);
        pred[e.to.index()].push((e.from, e.role));
    }
    let kinds: Vec<&NodeKind> = ocg.nodes().iter().map(|n| &n.kind).collect();
    let is_read = |k: &NodeKind| matches!(k, NodeKind::Field { .. } | NodeKind::ArrayElement { .. });
    let from_inputs = reach(n, kinds.iter().map(|k| matches!(k, NodeKind::Input(_))), |m| succ[m].clone());
    let to_reads = reach(n, kinds.iter().map(|k| is_read(k)), |m| pred[m].iter().map(|p| p.0).collect());
    let mut keep: Vec<bool> = (0..n).map(|i| from_inputs[i] && to_reads[i]).collect();
    let is_global = |m: NodeId| matches!(kinds[m.index()], NodeKind::Field { is_static: true, .. });
    loop {
        let mut add = Vec::new();
        for to in 0..n {
            for &(from, role) in &pred[to] {
                let found = match role {
                    // A call returning a kept value (a getter of a kept read).
                    Role::Returned if !keep[to] && matches!(kinds[to], NodeKind::Call { .. }) => {
                        let chain = moved_from(&pred, &kinds, from, &|m| keep[m.index()]);
                        if chain.is_empty() { chain } else { [chain, vec![NodeId(to as u32)]].concat() }
                    }
                    // A global owning a kept node.
                    Role::Owner | Role::ArrayRef | Role::Receiver if keep[to] && !keep[from.index()] => {
                        moved_from(&pred, &kinds, from, &is_global)
                    }
                    _ => Vec::new(),
                };
                add.extend(found);
            }
        }
        add.retain(|m| !keep[m.index()]);
        if add.is_empty() {
            break;
        }
        for m in add {
            keep[m.index()] = true;
        }
    }
    ocg.retain(|id, _| keep[id.index()]);
}

/// Drops the edges that close a cycle (back edges of a depth-first walk from the parentless
/// nodes, in node order), so the graph is acyclic. Loop-carried definitions of locals are never
/// followed, so only values kept on the operand stack around a loop (not javac's code) get here.
fn break_cycles(ocg: &mut Ocg) {
    let n = ocg.nodes().len();
    let mut succ: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    let mut has_parent = vec![false; n];
    for e in ocg.edges() {
        succ[e.from.index()].push(e.to);
        has_parent[e.to.index()] = true;
    }
    // 0: not seen, 1: on the walk's stack, 2: done.
    let mut state = vec![0u8; n];
    let mut back = BTreeSet::new();
    let starts = (0..n).filter(|&i| !has_parent[i]).chain(0..n);
    for start in starts {
        if state[start] != 0 {
            continue;
        }
        state[start] = 1;
        let mut stack = vec![(start, 0usize)];
        while let Some((m, k)) = stack.pop() {
            let Some(&t) = succ[m].get(k) else {
                state[m] = 2;
                continue;
            };
            stack.push((m, k + 1));
            match state[t.index()] {
                0 => {
                    state[t.index()] = 1;
                    stack.push((t.index(), 0));
                }
                1 => {
                    back.insert((NodeId(m as u32), t));
                }
                _ => {}
            }
        }
    }
    if !back.is_empty() {
        ocg.retain_edges(|e| !back.contains(&(e.from, e.to)));
    }
}

/// The nodes reachable from the `start` nodes (included) along `next`.
fn reach(n: usize, start: impl Iterator<Item = bool>, next: impl Fn(usize) -> Vec<NodeId>) -> Vec<bool> {
    let mut seen: Vec<bool> = start.collect();
    let mut work: Vec<usize> = (0..n).filter(|&i| seen[i]).collect();
    while let Some(m) = work.pop() {
        for t in next(m) {
            if !std::mem::replace(&mut seen[t.index()], true) {
                work.push(t.index());
            }
        }
    }
    seen
}

/// When `start` is a node `stop` accepts, or a pass-through assigned (through `AssignedValue`
/// edges between pass-throughs) from such nodes: `start`, the accepted nodes and the pass-throughs
/// between them; else nothing.
fn moved_from(
    pred: &[Vec<(NodeId, Role)>],
    kinds: &[&NodeKind],
    start: NodeId,
    stop: &dyn Fn(NodeId) -> bool,
) -> Vec<NodeId> {
    // Backwards from `start` over moves, then forwards again from the accepted nodes found, so a
    // pass-through that only leads to a constant is not taken along.
    let mut seen = BTreeSet::from([start]);
    let mut work = vec![start];
    let mut good = BTreeSet::new();
    while let Some(m) = work.pop() {
        if stop(m) {
            good.insert(m);
            continue;
        }
        if !matches!(kinds[m.index()], NodeKind::PassThrough) {
            continue;
        }
        for &(p, role) in &pred[m.index()] {
            if role == Role::AssignedValue && seen.insert(p) {
                work.push(p);
            }
        }
    }
    loop {
        let before = good.len();
        for &m in &seen {
            let fed =
                pred[m.index()].iter().any(|&(p, role)| role == Role::AssignedValue && good.contains(&p));
            if fed && matches!(kinds[m.index()], NodeKind::PassThrough) {
                good.insert(m);
            }
        }
        if good.len() == before {
            break;
        }
    }
    if good.contains(&start) { good.into_iter().collect() } else { Vec::new() }
}
