//! The ABI of mutant schemata (docs/mutation.md, "Mutant schemata"): the static methods of
//! [`MUTANTS_CLASS`] that stand in for a mutable instruction when a class is instrumented for the
//! mutation runs of post-processing, and how a test names the mutant that is active while it runs.
//!
//! Each schemata method takes the operands of the instruction it replaces and, last, an `int` whose
//! bits above [`SHIFT`] are the *site* (the goal id of the site's first weak-mutation goal) and whose
//! low bits are the original operation. It computes the original operation unless the active
//! mutant's site is this one; then it computes the mutant's (`ActiveMutant::op`, `bits`). The
//! numbering of operations is fixed here: [`op`] for operators, `cond` (the crate's) for
//! conditions, [`unary`] for inserted unary operators.

/// Internal name of the runtime class every schemata call goes to.
pub const MUTANTS_CLASS: &str = "suitesmith/rt/Mutants";

/// Bits of a schemata call's last argument that hold the original operation; the site is
/// `arg >>> SHIFT`.
pub const SHIFT: u32 = 4;

/// The largest site a schemata call can name (the argument is a non-negative `int`); a site past
/// it is left unmutated.
pub const MAX_SITE: u32 = (1 << (31 - SHIFT)) - 1;

/// Operator codes of the `Bin*` methods: the binary operators in the order of `goals::BinOp`, and
/// the two operand replacements of EvoSuite's AOR.
pub mod op {
    pub const ADD: i32 = 0;
    pub const SUB: i32 = 1;
    pub const MUL: i32 = 2;
    pub const DIV: i32 = 3;
    pub const REM: i32 = 4;
    pub const SHL: i32 = 5;
    pub const SHR: i32 = 6;
    pub const USHR: i32 = 7;
    pub const AND: i32 = 8;
    pub const OR: i32 = 9;
    pub const XOR: i32 = 10;
    /// The operation is replaced by its first operand.
    pub const FIRST: i32 = 11;
    /// The operation is replaced by its second operand.
    pub const SECOND: i32 = 12;
}

/// Codes of the unary operators UOI inserts (`goals::UnaryOp` order): `v + 1`, `v - 1`, `-v`.
pub mod unary {
    pub const INC: i32 = 0;
    pub const DEC: i32 = 1;
    pub const NEG: i32 = 2;
}

/// One schemata method: what it replaces and its operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Schema {
    /// `iadd` .. `ixor`, `ishl` ..: `(a, b, arg)`.
    BinInt,
    /// `ladd` .. `lxor`: `(a, b, arg)`.
    BinLong,
    /// `lshl`, `lshr`, `lushr`: a long shifted by an int.
    BinLongShift,
    BinFloat,
    BinDouble,
    /// The condition of `if<cond>` (also the jump after `lcmp`/`fcmp*`/`dcmp*`): `(v, arg)` -> 1
    /// when the jump is taken; the jump becomes `ifne`.
    CondZero,
    /// `if_icmp<cond>`: `(a, b, arg)` -> 0 or 1.
    CondInt,
    /// `if_acmpeq`/`if_acmpne`.
    CondRef,
    /// `ifnull` (EQ) / `ifnonnull` (NE).
    CondNull,
    /// The value a numeric load just pushed: `(v, arg)` -> `v` or `v` with a unary operator.
    UnaryInt,
    UnaryLong,
    UnaryFloat,
    UnaryDouble,
    /// The value a numeric constant just pushed: `(c, arg)` -> `c` or the replacement.
    ConstInt,
    ConstLong,
    ConstFloat,
    ConstDouble,
}

impl Schema {
    pub const ALL: [Schema; 17] = [
        Schema::BinInt,
        Schema::BinLong,
        Schema::BinLongShift,
        Schema::BinFloat,
        Schema::BinDouble,
        Schema::CondZero,
        Schema::CondInt,
        Schema::CondRef,
        Schema::CondNull,
        Schema::UnaryInt,
        Schema::UnaryLong,
        Schema::UnaryFloat,
        Schema::UnaryDouble,
        Schema::ConstInt,
        Schema::ConstLong,
        Schema::ConstFloat,
        Schema::ConstDouble,
    ];

    /// The method of [`MUTANTS_CLASS`] this schema calls: (name, descriptor).
    pub fn method(self) -> (&'static str, &'static str) {
        match self {
            Schema::BinInt => ("binI", "(III)I"),
            Schema::BinLong => ("binJ", "(JJI)J"),
            Schema::BinLongShift => ("binJI", "(JII)J"),
            Schema::BinFloat => ("binF", "(FFI)F"),
            Schema::BinDouble => ("binD", "(DDI)D"),
            Schema::CondZero => ("condZ", "(II)I"),
            Schema::CondInt => ("condII", "(III)I"),
            Schema::CondRef => ("condAA", "(Ljava/lang/Object;Ljava/lang/Object;I)I"),
            Schema::CondNull => ("condA", "(Ljava/lang/Object;I)I"),
            Schema::UnaryInt => ("unaryI", "(II)I"),
            Schema::UnaryLong => ("unaryJ", "(JI)J"),
            Schema::UnaryFloat => ("unaryF", "(FI)F"),
            Schema::UnaryDouble => ("unaryD", "(DI)D"),
            Schema::ConstInt => ("constI", "(II)I"),
            Schema::ConstLong => ("constJ", "(JI)J"),
            Schema::ConstFloat => ("constF", "(FI)F"),
            Schema::ConstDouble => ("constD", "(DI)D"),
        }
    }
}

/// The mutant active during one test (protocol statement `Mutant`, docs/protocol.md v15): the
/// schemata calls of `site` compute `op` (an [`op`], `cond` or [`unary`] code) instead of their
/// original operation, or, for a constant, return `bits` (ints and longs sign-extended, floats and
/// doubles as raw IEEE bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ActiveMutant {
    pub site: u32,
    pub op: i32,
    pub bits: u64,
}
