//! The trace of one test execution (docs/protocol.md, `Trace`): sparse lists sorted by probe id,
//! with lookups by [`ProbeId`] through binary search. Fitness code reads these; it never needs the
//! wire layout.
//!
//! The worker sends every list sorted; the decoder re-sorts (stably) only if a list is not, so
//! lookups stay correct even against a sloppy peer.

use crate::{PathDistance, ProbeId};

/// Minimum branch distances of one conditional jump (EvoSuite's, >= 0; 0 on a side that was taken).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Branch {
    pub probe: ProbeId,
    /// Distance to taking the jump.
    pub to_true: f64,
    /// Distance to falling through.
    pub to_false: f64,
}

/// Branch distances per calling context (context branch coverage).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContextBranch {
    /// Call-site probe of the outermost call into the SUT; `None` when called from the test directly
    /// (`0xFFFFFFFF` on the wire).
    pub site: Option<ProbeId>,
    pub probe: ProbeId,
    pub to_true: f64,
    pub to_false: f64,
}

/// One extension record (rt-abi `ProbeKind::Record`, docs/probes.md): the operands the probe
/// copied, encoded as rt-abi `record` says (unused ones 0), the depth of the worker's
/// call-context stack when it ran, and (v5) the frame on top of that stack: its invocation
/// number in the test (`frame`, 1, 2, ... in method-entry order; 0 when unknown), its caller's
/// (`parent`, 0 for the test or unknown) and the call-site probe it was entered from (`site`,
/// `None` when called from the test or from code without call-site probes). Which family planned
/// the probe, and what the values mean, only the plan knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub depth: u32,
    pub frame: u32,
    pub parent: u32,
    pub site: Option<ProbeId>,
    pub a: u64,
    pub b: u64,
}

/// Which boolean string test a [`Compared`] recorded (v13, docs/strings.md); `a` and `b` are
/// the receiver and the argument, except for `Matches`, where `a` is the input and `b` the regex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StringTest {
    Equals,
    EqualsIgnoreCase,
    StartsWith,
    EndsWith,
    Contains,
    /// `String.matches`, `Pattern.matches`, `Matcher.matches` (then with the pattern's flags).
    Matches,
}

impl StringTest {
    pub const ALL: [StringTest; 6] = [
        StringTest::Equals,
        StringTest::EqualsIgnoreCase,
        StringTest::StartsWith,
        StringTest::EndsWith,
        StringTest::Contains,
        StringTest::Matches,
    ];

    /// The wire byte (the runtime's `StringTests` kinds): 1, 2, ... in the order of [`StringTest::ALL`].
    pub fn tag(self) -> u8 {
        StringTest::ALL.iter().position(|&t| t == self).map_or(0, |i| i as u8 + 1)
    }

    pub fn from_tag(tag: u8) -> Option<StringTest> {
        StringTest::ALL.get(usize::from(tag).checked_sub(1)?).copied()
    }
}

/// A string test whose boolean result a branch probe tested right after it (v13): the kind of
/// test, `Pattern` flags for a `Matcher` (else 0), and both operands, each cut to its first 256
/// UTF-16 units (the runtime's `StringTests.MAX_CHARS`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compared {
    pub test: StringTest,
    pub flags: i32,
    pub a: String,
    pub b: String,
}

/// One execution's trace. Every list is sorted by probe id (contexts by site, then probe; `None`
/// sorts last, as 0xFFFFFFFF does on the wire).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trace {
    /// Every probe hit at least once, with its hit count.
    pub hits: Vec<(ProbeId, u32)>,
    pub branches: Vec<Branch>,
    /// Distinct switch keys seen (first 16).
    pub switches: Vec<(ProbeId, Vec<i32>)>,
    /// Distinct operand pairs seen (first 8), raw bits.
    pub operands: Vec<(ProbeId, Vec<(u64, u64)>)>,
    /// Bit set of return-value categories (see [`Trace::RET_NEGATIVE`] and friends).
    pub returns: Vec<(ProbeId, u32)>,
    /// Thrown/Caught probes hit, with the exception class; a probe may appear more than once.
    pub exceptions: Vec<(ProbeId, String)>,
    pub contexts: Vec<ContextBranch>,
    /// Class ids in initialisation order (not sorted).
    pub class_inits: Vec<u32>,
    /// Strings the SUT compared (`String.equals`, `startsWith`, `compareTo`, ...: both operands),
    /// distinct, in first-seen order, at most 32 of at most 1024 chars (not sorted).
    pub strings: Vec<String>,
    /// Extension records (v4): per extension probe, the distinct records seen, the first
    /// `rt_abi::record::PER_PROBE`, in first-seen order.
    pub records: Vec<(ProbeId, Vec<Record>)>,
    /// Figure 6 clause distances (v9), per path condition of `Setup` whose entry method the test
    /// called, sorted by path condition.
    pub path_distances: Vec<PathDistance>,
    /// String tests (v13): per branch probe that tested one's result right after it, the first 4
    /// distinct ones, in first-seen order; empty unless `Setup::string_compares`.
    pub compares: Vec<(ProbeId, Vec<Compared>)>,
}

fn find<T>(list: &[T], probe: ProbeId, key: impl Fn(&T) -> ProbeId) -> Option<&T> {
    let i = list.partition_point(|e| key(e) < probe);
    list.get(i).filter(|e| key(e) == probe)
}

impl Trace {
    pub const RET_NEGATIVE: u32 = 1 << 0;
    pub const RET_ZERO: u32 = 1 << 1;
    pub const RET_POSITIVE: u32 = 1 << 2;
    pub const RET_NAN: u32 = 1 << 3;
    pub const RET_NULL: u32 = 1 << 4;
    pub const RET_NON_NULL: u32 = 1 << 5;
    pub const RET_TRUE: u32 = 1 << 6;
    pub const RET_FALSE: u32 = 1 << 7;
    pub const RET_EMPTY: u32 = 1 << 8;
    pub const RET_NON_EMPTY: u32 = 1 << 9;

    /// How often `probe` was hit (0 if never).
    pub fn hit_count(&self, probe: ProbeId) -> u32 {
        find(&self.hits, probe, |e| e.0).map_or(0, |e| e.1)
    }

    pub fn is_hit(&self, probe: ProbeId) -> bool {
        self.hit_count(probe) > 0
    }

    /// Branch distances of a jump probe, if it was evaluated.
    pub fn branch(&self, probe: ProbeId) -> Option<&Branch> {
        find(&self.branches, probe, |b| b.probe)
    }

    pub fn switch_keys(&self, probe: ProbeId) -> &[i32] {
        find(&self.switches, probe, |e| e.0).map_or(&[], |e| &e.1)
    }

    pub fn operand_samples(&self, probe: ProbeId) -> &[(u64, u64)] {
        find(&self.operands, probe, |e| e.0).map_or(&[], |e| &e.1)
    }

    /// Return-value categories seen at `probe` (0 if never).
    pub fn return_categories(&self, probe: ProbeId) -> u32 {
        find(&self.returns, probe, |e| e.0).map_or(0, |e| e.1)
    }

    /// Exception classes recorded at `probe`.
    pub fn exceptions_at(&self, probe: ProbeId) -> impl Iterator<Item = &str> {
        let start = self.exceptions.partition_point(|e| e.0 < probe);
        self.exceptions[start..].iter().take_while(move |e| e.0 == probe).map(|e| e.1.as_str())
    }

    /// String tests whose result branch probe `probe` tested, first seen first.
    pub fn compares_at(&self, probe: ProbeId) -> &[Compared] {
        find(&self.compares, probe, |e| e.0).map_or(&[], |e| &e.1)
    }

    /// Extension records made at `probe`, first seen first.
    pub fn records_at(&self, probe: ProbeId) -> &[Record] {
        find(&self.records, probe, |e| e.0).map_or(&[], |e| &e.1)
    }

    /// Branch distances of `probe` in the context of call site `site`.
    pub fn context_branch(&self, site: Option<ProbeId>, probe: ProbeId) -> Option<&ContextBranch> {
        let key = (site_key(site), probe);
        let i = self.contexts.partition_point(|c| (site_key(c.site), c.probe) < key);
        self.contexts.get(i).filter(|c| (site_key(c.site), c.probe) == key)
    }

    /// Restores the sort invariant (stable), if a peer broke it.
    pub(crate) fn normalise(&mut self) {
        if !self.hits.is_sorted_by_key(|e| e.0) {
            self.hits.sort_by_key(|e| e.0);
        }
        if !self.branches.is_sorted_by_key(|e| e.probe) {
            self.branches.sort_by_key(|e| e.probe);
        }
        if !self.switches.is_sorted_by_key(|e| e.0) {
            self.switches.sort_by_key(|e| e.0);
        }
        if !self.operands.is_sorted_by_key(|e| e.0) {
            self.operands.sort_by_key(|e| e.0);
        }
        if !self.returns.is_sorted_by_key(|e| e.0) {
            self.returns.sort_by_key(|e| e.0);
        }
        if !self.exceptions.is_sorted_by_key(|e| e.0) {
            self.exceptions.sort_by_key(|e| e.0);
        }
        if !self.records.is_sorted_by_key(|e| e.0) {
            self.records.sort_by_key(|e| e.0);
        }
        if !self.contexts.is_sorted_by_key(|c| (site_key(c.site), c.probe)) {
            self.contexts.sort_by_key(|c| (site_key(c.site), c.probe));
        }
        if !self.compares.is_sorted_by_key(|e| e.0) {
            self.compares.sort_by_key(|e| e.0);
        }
        if !self.path_distances.is_sorted_by_key(|d| d.pc) {
            self.path_distances.sort_by_key(|d| d.pc);
        }
    }

    /// The clause distances of path condition `pc`, when the test called its entry method.
    pub fn path_distance(&self, pc: u32) -> Option<&PathDistance> {
        let i = self.path_distances.partition_point(|d| d.pc < pc);
        self.path_distances.get(i).filter(|d| d.pc == pc)
    }
}

/// The wire value of a context site: `None` is 0xFFFFFFFF, so it sorts last.
pub(crate) fn site_key(site: Option<ProbeId>) -> u32 {
    site.map_or(u32::MAX, |p| p.0)
}
