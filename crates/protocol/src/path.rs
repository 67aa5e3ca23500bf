//! Path conditions over heap inputs (paper 003, SUSHI; digest 003-004 §A.2.3) as the engine sends them
//! to the workers at `Setup` (protocol v9), and the clause distances of Figure 6 (§A.2.4) the worker
//! returns with a test's trace.
//!
//! The worker evaluates a path condition on the live receiver and arguments at the entry of every
//! call statement to its entry method, by reflection, before the method's first instruction runs;
//! no SUT code runs during the evaluation (fields are read, never getters called). Which paths there
//! are, and what their distances mean to the search, is the business of the crates that make them.

use crate::PrimType;

/// Where an access path starts: the receiver of the entry call or one of its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    This,
    /// The argument at this index (0 is the first argument, whatever the receiver).
    Param(u16),
}

/// One step of an access path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// The field `name` declared in `class` (binary name, dots); a private field of a superclass is
    /// named by the superclass.
    Field { class: String, name: String },
    /// The array element at a constant index.
    Element(i32),
    /// The array's length.
    Length,
}

/// An input reference or value: a root followed by steps (`List.header.next` is `Param(0)` then the
/// fields `header` and `next`). Undefined (⊥ in Figure 6) when a step crosses `null`, a field the
/// object's class does not have, or an index outside its array.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccessPath {
    pub root: Root,
    pub steps: Vec<Step>,
}

impl AccessPath {
    /// `root` followed by the fields `class.name`, in order.
    pub fn fields(root: Root, fields: &[(&str, &str)]) -> AccessPath {
        AccessPath {
            root,
            steps: fields
                .iter()
                .map(|(class, name)| Step::Field { class: (*class).into(), name: (*name).into() })
                .collect(),
        }
    }
}

/// A comparison `n1 ⋈ n2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A binary operation with Java semantics in its sort (int and long wrap; `/` and `%` by zero are
/// undefined).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NumOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Ushr,
}

/// A numeric expression over input values; `ty` is the sort the operation computes in (boolean,
/// byte, char, short and int compute as int, as the JVM does).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NumExpr {
    /// `bits` as in [`crate::Statement::Primitive`].
    Const {
        ty: PrimType,
        bits: u64,
    },
    /// The value at `path` (a primitive field, array element or length, or a boxed argument).
    Path {
        ty: PrimType,
        path: AccessPath,
    },
    Neg {
        ty: PrimType,
        operand: Box<NumExpr>,
    },
    Binary {
        op: NumOp,
        ty: PrimType,
        left: Box<NumExpr>,
        right: Box<NumExpr>,
    },
    /// A primitive conversion (`i2l`, `d2i`, `i2b`, ...) to `to`.
    Convert {
        to: PrimType,
        operand: Box<NumExpr>,
    },
}

impl NumExpr {
    pub fn int(v: i32) -> NumExpr {
        NumExpr::Const { ty: PrimType::Int, bits: i64::from(v) as u64 }
    }
}

/// The three clause kinds of §A.2.3 (a null clause is reference equality with the null constant).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Clause {
    /// `r = null`.
    Null(AccessPath),
    /// `r1 = r2`.
    Alias(AccessPath, AccessPath),
    /// `fresh(r)`: an object of exactly `class` (binary name) that no earlier fresh clause named.
    Fresh { path: AccessPath, class: String },
    /// `n1 ⋈ n2`.
    Numeric { cmp: Cmp, left: NumExpr, right: NumExpr },
}

/// A path condition `c1 ∧ … ∧ ck` in assumption order, for calls of one method.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PathCondition {
    /// The entry method's class (binary name), as call statements name it.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub clauses: Vec<Clause>,
}

/// What a test did for one path condition: the clause distances (each in [0, 1]) at the call of its
/// entry method whose total was smallest (the first such call on ties). Absent from a trace when
/// the test never called the entry method.
#[derive(Debug, Clone, PartialEq)]
pub struct PathDistance {
    /// Index of the path condition in `Setup::path_conditions`.
    pub pc: u32,
    pub clauses: Vec<f64>,
}

impl PathDistance {
    /// DISTANCE_PC of Figure 6: the sum of the clause distances; 0 exactly when every clause holds.
    pub fn total(&self) -> f64 {
        self.clauses.iter().sum()
    }
}

/// Expressions nested deeper than this are refused by both decoders (a hostile or corrupt frame
/// must not overflow a stack).
pub const MAX_EXPR_DEPTH: usize = 64;
