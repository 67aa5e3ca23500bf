//! The line subset (paper 002 §3.4): in a basic block the last line subsumes the others, and only
//! blocks of at least `line_threshold` lines contribute their last line, because the branch goals
//! of the representative already capture most of what line coverage asks for.
//!
//! The paper says blocks "with fewer than lineThreshold lines" are skipped (`LineRule::Count`:
//! the number of distinct source lines of the block's instructions); the authors' artifact keeps a
//! line when `last - first >= threshold` (`LineRule::Span`), which drops a block of lines 10–17
//! that the paper keeps. Both are here; the paper's is the default (docs/selection.md).

use std::collections::BTreeSet;

use analysis::Cfg;
use bytecode::{InsnIdx, MethodBody};
use classfile::{ClassFile, ConstantPool};
use goals::{MethodIdx, PlanClassIdx};

/// How a block's size is measured against `line_threshold`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRule {
    /// The number of distinct source lines in the block (the paper).
    Count,
    /// The last line minus the first (the authors' artifact, `smart_combine_line_span`).
    Span,
}

/// The source lines of one basic block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockLines {
    pub method: MethodIdx,
    /// The distinct source lines of the block's instructions, ascending.
    pub lines: Vec<u16>,
    /// The line of the block's last instruction: the one reached last, which subsumes the others
    /// (in a loop it need not be the greatest).
    pub last: Option<u16>,
}

impl BlockLines {
    /// Whether the block is long enough under `rule` and `threshold` to keep its last line.
    pub fn is_long(&self, rule: LineRule, threshold: u16) -> bool {
        match (rule, self.last, self.lines.first()) {
            (LineRule::Count, Some(_), _) => self.lines.len() >= usize::from(threshold),
            (LineRule::Span, Some(last), Some(&first)) => last.saturating_sub(first) >= threshold,
            _ => false,
        }
    }
}

/// What the selection reads of a planned class's code beyond the plan: its basic blocks with their
/// lines, and its jumps on boolean values (`crate::booleans`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassBlocks {
    /// The class's id in the probe plan the selection reads.
    pub class: PlanClassIdx,
    pub blocks: Vec<BlockLines>,
    /// The `ifeq`/`ifne` instructions that test a boolean, by method and instruction.
    pub boolean_jumps: BTreeSet<(MethodIdx, InsnIdx)>,
}

impl ClassBlocks {
    /// The blocks of every method of `file` that has code and decodes (a method that does not
    /// decode gets no probes and so no line goals, `goals::ProbePlan::add_class`).
    pub fn of_class(class: PlanClassIdx, file: &ClassFile) -> ClassBlocks {
        let cp = &file.constant_pool;
        let bodies: Vec<(MethodIdx, MethodBody)> = file
            .methods
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let code = m.code(cp)?.ok()?;
                Some((MethodIdx(i as u16), bytecode::decode(&code, cp).ok()?))
            })
            .collect();
        ClassBlocks::of_bodies(class, cp, bodies.iter().map(|(m, b)| (*m, b)))
    }

    /// The blocks of the given method bodies (for callers that keep decoded bodies, such as the
    /// program database).
    pub fn of_bodies<'a>(
        class: PlanClassIdx,
        cp: &ConstantPool,
        bodies: impl IntoIterator<Item = (MethodIdx, &'a MethodBody)>,
    ) -> ClassBlocks {
        let mut blocks = Vec::new();
        let mut boolean_jumps = BTreeSet::new();
        for (m, body) in bodies {
            blocks.extend(method_blocks(m, body));
            boolean_jumps.extend(crate::booleans::boolean_jumps(body, cp).into_iter().map(|i| (m, i)));
        }
        ClassBlocks { class, blocks, boolean_jumps }
    }
}

fn method_blocks(method: MethodIdx, body: &MethodBody) -> Vec<BlockLines> {
    let cfg = Cfg::compute(body);
    cfg.blocks()
        .iter()
        .map(|b| {
            let last = (b.end.index() > b.start.index())
                .then(|| cfg.line_of(InsnIdx::new(b.end.index() - 1)))
                .flatten()
                .or_else(|| b.lines.last().copied());
            BlockLines { method, lines: b.lines.clone(), last }
        })
        .collect()
}
