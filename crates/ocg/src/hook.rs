//! The search hook of paper 000 (§A2.5, digest 000-001 §A2.5): after each generation, with
//! probability `p_app`, one uncovered branch goal drawn uniformly gets an object construction
//! graph (built once per branch and cached) and a template from it, which joins the next batch
//! as an extra offspring, so it competes in the algorithm's own selection (DynaMOSA and MOSA: the
//! preference sorting and the archive; whole suite: an extra candidate suite). Nothing happens
//! before the first generation is absorbed (the paper synthesises only during evolution).
//!
//! Deviations: the graph is cached per branch, the template is not: each time a branch is drawn a
//! new template is synthesised from its cached graph (new slot values, a new Eq. (1) draw), since
//! injecting the same test again would only evaluate it again. The hook draws from its own
//! generator, seeded from the run's seed, so the search's own draws do not depend on it.
//! Templates may be up to `max_length` (200) statements long; the search's own tests keep their
//! length (`chromosome_length`), so mutation does not lengthen a template further.

use std::collections::BTreeMap;

use bytecode::InsnIdx;
use programdb::{MethodId, ProgramDb};
use search::{GoalIdx, Hook, ProblemError, View};
use testcase::{TestCase, TestRng};

use crate::graph::{Ocg, Target};
use crate::slice::{self, SliceConfig};
use crate::template::{self, NoTemplate, TemplateConfig};

/// `--ocg` and its parameters (the one configuration value's part for this technique).
#[derive(Debug, Clone, PartialEq)]
pub struct OcgConfig {
    pub enabled: bool,
    /// `p_app`: the probability, per generation, of injecting one template (paper: 0.3).
    pub probability: f64,
    pub slice: SliceConfig,
    pub template: TemplateConfig,
}

impl OcgConfig {
    /// The paper's parameters (§A2.7), switched off.
    pub fn off() -> OcgConfig {
        OcgConfig {
            enabled: false,
            probability: 0.3,
            slice: SliceConfig::paper(),
            template: TemplateConfig::paper(),
        }
    }
}

/// What the problem tells the hook about a goal.
pub trait OcgTarget {
    /// The jump instruction (in `db`) a branch goal is an outcome of; `None` for other goals.
    fn branch_of(&self, db: &ProgramDb, goal: GoalIdx) -> Option<(MethodId, InsnIdx)>;
}

/// Counts for the report (`report.json`'s `ocg`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OcgStats {
    /// Generations in which the hook drew a branch.
    pub applications: u64,
    /// Graphs built (one per distinct branch drawn) and those with at least one leaf.
    pub graphs: u64,
    pub graphs_with_leaves: u64,
    /// The largest graph built (nodes).
    pub max_nodes: u64,
    /// Templates made and injected (the same: every template made is injected).
    pub templates: u64,
    /// Templates not made, by reason.
    pub not_made: BTreeMap<String, u64>,
    /// Goals first covered by a template or a descendant of one (`testcase::Lineage`): the
    /// archive's test for each goal when the hook first sees it covered, after each generation
    /// and at the end (`OcgHook::finish`).
    pub goals_first_covered: u64,
}

/// The hook of one search.
pub struct OcgHook<'a> {
    db: &'a ProgramDb,
    config: OcgConfig,
    rng: TestRng,
    graphs: BTreeMap<(MethodId, InsnIdx), Ocg>,
    stats: OcgStats,
    /// The goals seen covered so far (`goals_first_covered`).
    seen: Vec<bool>,
}

impl std::fmt::Debug for OcgHook<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OcgHook").field("config", &self.config).field("stats", &self.stats).finish()
    }
}

impl<'a> OcgHook<'a> {
    /// The hook of a run with `seed` (its own generator: `seed` mixed with a constant).
    pub fn new(db: &'a ProgramDb, config: &OcgConfig, seed: u64) -> OcgHook<'a> {
        OcgHook {
            db,
            config: config.clone(),
            rng: testcase::rng_from_seed(seed ^ 0x0c90_0c90_0c90_0c90),
            graphs: BTreeMap::new(),
            stats: OcgStats::default(),
            seen: Vec::new(),
        }
    }

    pub fn stats(&self) -> &OcgStats {
        &self.stats
    }

    /// Counts the goals covered since the last look whose archive test is a template or descends
    /// from one. The search calls no hook after its last batch: the engine calls this with the
    /// final archive.
    pub fn finish(&mut self, archive: &search::Archive) {
        self.seen.resize(self.seen.len().max(archive.n_goals()), false);
        for g in archive.covered_goals() {
            if !std::mem::replace(&mut self.seen[g.index()], true)
                && archive.test_for(g).is_some_and(|t| t.lineage.template)
            {
                self.stats.goals_first_covered += 1;
            }
        }
    }

    /// The cached graph of a branch, built on first use.
    pub fn graph(&mut self, method: MethodId, insn: InsnIdx) -> &Ocg {
        let (db, config, stats) = (self.db, &self.config.slice, &mut self.stats);
        self.graphs.entry((method, insn)).or_insert_with(|| {
            let g = slice::build(db, Target { method, insn }, config);
            stats.graphs += 1;
            stats.graphs_with_leaves += u64::from(!g.leaves().is_empty());
            stats.max_nodes = stats.max_nodes.max(g.nodes().len() as u64);
            g
        })
    }

    /// One template for the branch at `insn` of `method`, or why there is none.
    pub fn template_for(
        &mut self,
        method: MethodId,
        insn: InsnIdx,
        view: &View<'_>,
    ) -> Result<TestCase, NoTemplate> {
        self.graph(method, insn);
        let ocg = &self.graphs[&(method, insn)];
        let factory = view.factory();
        template::synthesize(self.db, ocg, view.cluster(), &factory, &self.config.template, &mut self.rng)
            .map(|t| t.test)
    }
}

impl<P: OcgTarget> Hook<P> for OcgHook<'_> {
    fn between(
        &mut self,
        view: &View<'_>,
        problem: &mut P,
        _rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        use rand::RngExt;
        self.finish(view.archive());
        // Only during evolution: the initial population is the search's own (§A2.5).
        if view.iteration() == 0 || !self.rng.random_bool(self.config.probability.clamp(0.0, 1.0)) {
            return Ok(Vec::new());
        }
        let branches: Vec<(MethodId, InsnIdx)> =
            view.uncovered_targets().into_iter().filter_map(|g| problem.branch_of(self.db, g)).collect();
        if branches.is_empty() {
            return Ok(Vec::new());
        }
        self.stats.applications += 1;
        let (method, insn) = branches[self.rng.random_range(0..branches.len())];
        match self.template_for(method, insn, view) {
            Ok(test) => {
                self.stats.templates += 1;
                Ok(vec![test])
            }
            Err(why) => {
                *self.stats.not_made.entry(format!("{why:?}")).or_default() += 1;
                Ok(Vec::new())
            }
        }
    }
}
