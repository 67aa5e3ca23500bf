//! Coverage goals and the probe plan (DESIGN.md §3.2): which probe the instrumenter
//! puts at which instruction, which goals each probe serves, and back from a goal to its probes.
//!
//! The plan is a pure function of the class files, in the order they are added: probe and goal ids
//! are dense and assigned in class / method / instruction order, so two runs over the same classes
//! give the same ids (STYLE.md rule 4). The instrumenter emits exactly the probes listed here, in id
//! order at each instruction, so it never allocates ids itself. This crate does not rewrite code
//! (that is `instrument`) and does not compute fitness (that is `fitness`).

mod dump;
mod family;
mod jacoco;
mod locate;
mod plan;

pub use dump::goal_text;
pub use family::{Extensions, MethodView, ProbeFamily, RecordProbe};
pub use rt_abi::RecordShape;

use std::collections::BTreeMap;
use std::fmt;

pub use bytecode::InsnIdx;
pub use plan::{
    PlanError, PlanOptions, binop_of, branch_cond, cmp_kind, constant_of, constant_replacements,
    load_value_kind, return_probe,
};
pub use rt_abi::{ProbeId, ProbeKind};

/// A coverage goal. Dense, starting at 0 over a plan.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GoalId(pub u32);

/// The position of a class in its probe plan, in the order the classes were added: an index of
/// the plan's classes (those instrumented in one run), not of the program database's, whose
/// `programdb::ClassId` numbers every class it parsed. Also the argument of the `ClassInit` probe,
/// so the runtime can name the classes it saw initialised.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlanClassIdx(pub u32);

/// A method by its position in the class file's `methods` table (JVMS §4.6).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MethodIdx(pub u16);

macro_rules! id_fmt {
    ($($t:ident $p:literal),*) => {$(
        impl $t {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($p, "{}"), self.0)
            }
        }
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($p, "{}"), self.0)
            }
        }
    )*};
}
id_fmt!(GoalId "g", PlanClassIdx "c", MethodIdx "m");

/// A binary operator whose operands a weak-mutation probe records (JVMS §6.5 `iadd` .. `lxor`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    Ushr,
    And,
    Or,
    Xor,
}

impl BinOp {
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::Rem => "rem",
            BinOp::Shl => "shl",
            BinOp::Shr => "shr",
            BinOp::Ushr => "ushr",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
        }
    }

    /// The operators a mutant may put in this one's place (the operator group of EvoSuite's
    /// `ReplaceArithmeticOperator` / `ReplaceBitwiseOperator`).
    pub fn replacements(self) -> &'static [BinOp] {
        use BinOp::*;
        match self {
            Add => &[Sub, Mul, Div, Rem],
            Sub => &[Add, Mul, Div, Rem],
            Mul => &[Add, Sub, Div, Rem],
            Div => &[Add, Sub, Mul, Rem],
            Rem => &[Add, Sub, Mul, Div],
            Shl => &[Shr, Ushr],
            Shr => &[Shl, Ushr],
            Ushr => &[Shl, Shr],
            And => &[Or, Xor],
            Or => &[And, Xor],
            Xor => &[And, Or],
        }
    }

    /// Arithmetic operators may also be replaced by either operand (EvoSuite's AOR variants).
    pub fn is_arithmetic(self) -> bool {
        matches!(self, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem)
    }
}

/// What a probe is attached to, beyond its kind.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Detail {
    None,
    /// A conditional jump (or a `?cmp*` + `if<cond>` pair): the rt-abi condition under which the
    /// jump is taken, with `cond::NAN_GREATER` or-ed in for `fcmpg`/`dcmpg`.
    Branch {
        cond: i32,
    },
    /// A switch: the keys that lead somewhere else than the default, in key order, and for each
    /// key the smallest key with the same jump target. A switch's branch goals are its distinct
    /// targets, named by that smallest key (`SwitchCase::Key`), plus the default: `case 1: case 2:`
    /// sharing one body is one branch of the control flow, as JaCoCo counts it.
    Switch {
        keys: Vec<i32>,
        target_key: Vec<i32>,
    },
    /// A binary operator (weak mutation).
    Operator {
        op: BinOp,
    },
    /// An exception handler entry; `catch_type` is `None` for catch-all (`finally`) handlers.
    Caught {
        catch_type: Option<String>,
    },
    /// A call instruction: the called method, `owner.name descriptor`.
    Call {
        callee: String,
    },
    /// A hit-only probe on the fall-through edge into `insn` (a jump target or handler entry):
    /// it runs when the instruction before `insn` completes and falls through, not when a jump
    /// arrives. The instrumenter inserts its code first at `insn` and moves the jumps, handler
    /// entries and the stack-map frame past it. It witnesses completed lines (`completion_witnesses`).
    FallThrough,
    /// An extension probe (`ProbeKind::Record`) of the family named `family`, with the family's
    /// own `tag` (docs/probes.md). It serves no goals.
    Record {
        family: &'static str,
        tag: u32,
    },
}

/// A condition on a suite's traces standing for one of JaCoCo's probes
/// (`ProbePlan::completion_witnesses`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Witness {
    /// The probe was hit.
    Hit(ProbeId),
    /// The goal is covered as the search counts it: a jump's own branch taken, a switch gone to
    /// that case's target (JaCoCo's probe on that edge ran).
    Covered(GoalId),
}

/// One probe of the plan.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Probe {
    pub kind: ProbeKind,
    pub class: PlanClassIdx,
    /// The method the probe is in; `None` for the `ClassInit` probe of a `<clinit>` that the
    /// instrumenter synthesises because the class has none.
    pub method: Option<MethodIdx>,
    /// The instruction the probe code is inserted before (decoded by `bytecode::decode`).
    pub insn: InsnIdx,
    /// The source line of `insn`, from the `LineNumberTable`, when there is one.
    pub line: Option<u16>,
    pub detail: Detail,
    pub goals: Vec<GoalId>,
}

impl Probe {
    /// The last `int` argument the probe passes to the tracer: `id << 4 | cond` for branch kinds
    /// (rt_abi::cond), the class id for `ClassInit`, the probe id otherwise.
    pub fn arg(&self, id: ProbeId) -> i32 {
        match (&self.kind, &self.detail) {
            (ProbeKind::ClassInit, _) => self.class.0 as i32,
            (_, Detail::Branch { cond }) => ((id.0 << rt_abi::cond::SHIFT) as i32) | cond,
            _ => id.0 as i32,
        }
    }
}

/// One case of a switch goal: `Key(k)` is the jump target of key `k`, the smallest of the keys that
/// share it (`Detail::Switch::target_key`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum SwitchCase {
    Key(i32),
    Default,
}

/// A class of return values (EvoSuite's output coverage, Alshahwan & Harman): each is one goal per
/// method, covered when the method returns such a value.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum OutputValue {
    True,
    False,
    Negative,
    Zero,
    Positive,
    Alphabetic,
    Digit,
    OtherChar,
    Null,
    NonNull,
}

/// A mutant of an operator, a condition, a loaded value or a constant, killed weakly when its
/// infection distance is 0 (EvoSuite's operators, digest 002 §1.3).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Mutant {
    /// AOR / BOR: the operator is replaced by another of its group.
    ReplaceOp(BinOp),
    /// AOR variants: the operation is replaced by its first or second operand.
    FirstOperand,
    SecondOperand,
    /// ROR: a conditional jump whose condition is replaced by this rt-abi condition code.
    ReplaceCond(i32),
    /// UOI: a unary operator inserted after a numeric load; the probe is the `Value*` probe that
    /// records the loaded value (placed right after the load, so at the load's index + 1).
    InsertUnary(UnaryOp),
    /// RC: the numeric constant pushed at `at` is replaced by `by`. The probe serving the goal
    /// only tells that the constant was reached (infection distance 0 once reached).
    ReplaceConstant {
        at: InsnIdx,
        by: Constant,
    },
}

/// The unary operators UOI inserts (EvoSuite's `InsertUnaryOperator`: `+1`, `-1`, negation).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum UnaryOp {
    Inc,
    Dec,
    Neg,
}

impl UnaryOp {
    pub const ALL: [UnaryOp; 3] = [UnaryOp::Inc, UnaryOp::Dec, UnaryOp::Neg];

    pub fn name(self) -> &'static str {
        match self {
            UnaryOp::Inc => "+1",
            UnaryOp::Dec => "-1",
            UnaryOp::Neg => "neg",
        }
    }
}

/// A numeric constant of the JVM; floating values as raw IEEE bits, so that the type is `Eq`,
/// `Ord` and `Hash` and NaN payloads survive (as in `classfile::Constant`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Constant {
    Int(i32),
    Long(i64),
    Float(u32),
    Double(u64),
}

impl fmt::Display for Constant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Constant::Int(v) => write!(f, "{v}"),
            Constant::Long(v) => write!(f, "{v}L"),
            Constant::Float(b) => write!(f, "{:?}f", f32::from_bits(b)),
            Constant::Double(b) => write!(f, "{:?}d", f64::from_bits(b)),
        }
    }
}

/// Coverage criteria of DESIGN.md §3.6, in EvoSuite's order. All but `ContextBranch` have static
/// goals in the plan; context-branch goals (EvoSuite `CBRANCH`, digest 002 §1.2) are pairs of a
/// calling context and a branch goal, found while tests run (`fitness::ContextGoals`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Criterion {
    Line,
    Branch,
    Exception,
    WeakMutation,
    Output,
    Method,
    MethodNoException,
    ContextBranch,
}

/// A coverage goal.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Goal {
    /// A source line of a class; served by every `Line` probe with that line.
    Line {
        class: PlanClassIdx,
        line: u16,
    },
    /// One outcome of a conditional jump: `taken` is the jump's own direction.
    Branch {
        probe: ProbeId,
        taken: bool,
    },
    SwitchCase {
        probe: ProbeId,
        case: SwitchCase,
    },
    /// The method is called (also the root branch of a method without branches).
    MethodEntry {
        class: PlanClassIdx,
        method: MethodIdx,
    },
    /// The method returns normally; served by every `MethodExit` probe of the method.
    MethodNormalExit {
        class: PlanClassIdx,
        method: MethodIdx,
    },
    /// An `athrow` site throws, or a handler is entered.
    Exception {
        probe: ProbeId,
    },
    /// The method returns a value of this class; served by every return probe of the method.
    Output {
        class: PlanClassIdx,
        method: MethodIdx,
        value: OutputValue,
    },
    /// A mutant of the operator or condition at a probe.
    WeakMutation {
        probe: ProbeId,
        mutant: Mutant,
    },
}

impl Criterion {
    /// Every criterion with static goals, in this order (EvoSuite's default combination, DESIGN.md
    /// §3.6, less context branch, whose goals are found per calling context at run time).
    pub const ALL: [Criterion; 7] = [
        Criterion::Line,
        Criterion::Branch,
        Criterion::Exception,
        Criterion::WeakMutation,
        Criterion::Output,
        Criterion::Method,
        Criterion::MethodNoException,
    ];

    /// EvoSuite's default combination (anchors §1.4): the static criteria (`ALL`) and context branch.
    pub const DEFAULT: [Criterion; 8] = {
        let mut d = [Criterion::ContextBranch; 8];
        let mut i = 0;
        while i < Criterion::ALL.len() {
            d[i] = Criterion::ALL[i];
            i += 1;
        }
        d
    };

    /// The criterion's name on the command line (DESIGN.md §1, `--criteria`).
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Line => "line",
            Criterion::Branch => "branch",
            Criterion::Exception => "exception",
            Criterion::WeakMutation => "weakmutation",
            Criterion::Output => "output",
            Criterion::Method => "method",
            Criterion::MethodNoException => "methodnoexception",
            Criterion::ContextBranch => "cbranch",
        }
    }

    /// The criterion named `name` (as `name` spells it, ASCII case ignored).
    pub fn from_name(name: &str) -> Option<Criterion> {
        Criterion::DEFAULT.into_iter().find(|c| c.name().eq_ignore_ascii_case(name))
    }
}

impl Goal {
    pub fn criterion(&self) -> Criterion {
        match self {
            Goal::Line { .. } => Criterion::Line,
            Goal::Branch { .. } | Goal::SwitchCase { .. } => Criterion::Branch,
            Goal::MethodEntry { .. } => Criterion::Method,
            Goal::MethodNormalExit { .. } => Criterion::MethodNoException,
            Goal::Exception { .. } => Criterion::Exception,
            Goal::Output { .. } => Criterion::Output,
            Goal::WeakMutation { .. } => Criterion::WeakMutation,
        }
    }
}

/// A method of a planned class.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MethodPlan {
    pub index: MethodIdx,
    pub name: String,
    pub descriptor: String,
    /// The method's probes: a contiguous id range, in instruction order.
    pub probes: std::ops::Range<u32>,
    /// Why the method's code could not be decoded, when it could not: it gets no probes and the
    /// instrumenter leaves it unchanged.
    pub undecodable: Option<String>,
}

/// A planned class.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ClassPlan {
    /// Internal name (`java/lang/String`).
    pub name: String,
    /// Methods with code, in class-file order.
    pub methods: Vec<MethodPlan>,
    /// The `ClassInit` probe, when planned.
    pub class_init: Option<ProbeId>,
    /// All probes of the class: a contiguous id range.
    pub probes: std::ops::Range<u32>,
}

/// The probe plan of a set of classes. Built by `ProbePlan::add_class`, read by the instrumenter
/// (what to emit), the worker protocol (how many probes) and fitness (which goals a probe serves).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ProbePlan {
    classes: Vec<ClassPlan>,
    probes: Vec<Probe>,
    goals: Vec<Goal>,
    /// `goal_probes[g]`: the probes that serve goal `g`, in id order.
    goal_probes: Vec<Vec<ProbeId>>,
    /// The completion witnesses of line goals and jumps' fall-through goals
    /// (see `completion_witnesses`).
    completion_witnesses: BTreeMap<GoalId, Vec<Witness>>,
}

impl ProbePlan {
    pub fn new() -> ProbePlan {
        ProbePlan::default()
    }

    pub fn classes(&self) -> &[ClassPlan] {
        &self.classes
    }

    pub fn class(&self, id: PlanClassIdx) -> &ClassPlan {
        &self.classes[id.index()]
    }

    /// The class with this internal name, if planned.
    pub fn class_id(&self, name: &str) -> Option<PlanClassIdx> {
        self.classes.iter().position(|c| c.name == name).map(|i| PlanClassIdx(i as u32))
    }

    pub fn probes(&self) -> &[Probe] {
        &self.probes
    }

    pub fn probe(&self, id: ProbeId) -> &Probe {
        &self.probes[id.index()]
    }

    pub fn n_probes(&self) -> usize {
        self.probes.len()
    }

    pub fn goals(&self) -> &[Goal] {
        &self.goals
    }

    pub fn goal(&self, id: GoalId) -> &Goal {
        &self.goals[id.index()]
    }

    /// The probes that serve a goal, in id order.
    pub fn probes_of_goal(&self, id: GoalId) -> &[ProbeId] {
        &self.goal_probes[id.index()]
    }

    /// The conditions on a suite's traces of which any one shows that goal `id` is covered as
    /// JaCoCo counts it (empty for goals JaCoCo does not count, or counts as we do). For a line
    /// goal: an instruction of the line completed, where our line goal (EvoSuite's) only asks that
    /// the line started, so that a line whose every run ends in an exception thrown by a call on it
    /// is covered for us and not for JaCoCo. For a branch or switch goal: JaCoCo's probe on that
    /// edge ran, or, where it has none, the instruction the edge leads to completed. The
    /// conditions stand for JaCoCo's probes, placed as JaCoCo places them (`jacoco.rs`).
    pub fn completion_witnesses(&self, id: GoalId) -> &[Witness] {
        self.completion_witnesses.get(&id).map_or(&[], Vec::as_slice)
    }

    /// The probes of one method of a class, as `(id, probe)` in id (= emission) order.
    pub fn method_probes(
        &self,
        class: PlanClassIdx,
        method: MethodIdx,
    ) -> impl Iterator<Item = (ProbeId, &Probe)> + '_ {
        let range =
            self.class(class).methods.iter().find(|m| m.index == method).map_or(0..0, |m| m.probes.clone());
        range.map(move |i| (ProbeId(i), &self.probes[i as usize]))
    }

    /// The method a probe is in, when it is in one.
    pub fn method_of(&self, id: ProbeId) -> Option<&MethodPlan> {
        let p = self.probe(id);
        let m = p.method?;
        self.class(p.class).methods.iter().find(|mp| mp.index == m)
    }

    /// A text dump of the plan, one line per class, method, probe and goal, for snapshot tests.
    pub fn dump(&self) -> String {
        dump::dump(self)
    }
}
