//! The `--sushi-*` parameters (paper 003, docs/sushi.md), part of `TechniqueArgs` (whose
//! `--sushi` switch turns SUSHI on or off): arguments -> `engine::SushiConfig`. Every default is
//! the standard techniques' (`engine::Techniques::standard`).

use crate::Failure;
use crate::technique_args::Switch;

/// SUSHI's parameters in the standard techniques: the defaults below.
fn standard() -> engine::SushiConfig {
    engine::Techniques::standard().sushi
}

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct SushiArgs {
    /// Paths explored per public method at most.
    #[arg(long, default_value_t = standard().explore.max_paths)]
    sushi_paths: u32,
    /// Paths explored for the whole class at most (each method gets an even share of what is
    /// left).
    #[arg(long, default_value_t = standard().max_class_paths)]
    sushi_class_paths: u32,
    /// Fresh objects of one class per explored path (the heap scope).
    #[arg(long, default_value_t = standard().explore.heap_scope)]
    sushi_heap: u32,
    /// Reference resolutions (lazy initialisations) per explored path: a perfect binary tree of
    /// 15 nodes takes 31 (its 16 null leaves included).
    #[arg(long, default_value_t = standard().explore.max_lazy_inits)]
    sushi_lazy: u32,
    /// Z3 resource units (`rlimit count`) the exploration of the whole class may spend; each
    /// method may spend half of it at most. Deterministic, unlike a time limit.
    #[arg(long, default_value_t = standard().max_class_solver_work)]
    sushi_solver_work: u64,
    /// Path conditions sent to the workers at most (rounds of selection).
    #[arg(long, default_value_t = standard().max_conditions)]
    sushi_conditions: usize,
    /// Evaluations a path goal may stay unsolved before it counts as spurious.
    #[arg(long, default_value_t = standard().patience)]
    sushi_patience: u64,
    /// Prune explored paths whose input state the class's own `repOk()` cannot accept (§A.2.7).
    #[arg(long, value_enum, default_value_t = Switch::of(standard().explore.invariants == symbolic::Invariants::rep_ok()))]
    sushi_rep_ok: Switch,
    /// An invariant of the input heaps (§A.2.7), consulted at every lazy resolution; repeat for
    /// more: `not_null(P)`, `null_only(P)`, `expand_only(P)`, `alias_only(P, T)` or
    /// `alias_targets(P, T | T ..)`, over access-path patterns such as `**.left`, `this.root`
    /// (docs/sushi.md "Invariants").
    #[arg(long, value_name = "RULE")]
    sushi_rule: Vec<String>,
    /// The heap scope of one class, `CLASS=K` (binary name), in place of `--sushi-heap`; repeat
    /// for more.
    #[arg(long, value_name = "CLASS=K")]
    sushi_scope: Vec<String>,
}

impl SushiArgs {
    /// `base` (on or off) with these parameters; a bound of 0 is bad input.
    pub(crate) fn config(&self, base: engine::SushiConfig) -> Result<engine::SushiConfig, Failure> {
        for (name, v) in [
            ("--sushi-paths", u64::from(self.sushi_paths)),
            ("--sushi-class-paths", u64::from(self.sushi_class_paths)),
            ("--sushi-heap", u64::from(self.sushi_heap)),
            ("--sushi-lazy", u64::from(self.sushi_lazy)),
            ("--sushi-conditions", self.sushi_conditions as u64),
            ("--sushi-patience", self.sushi_patience),
            ("--sushi-solver-work", self.sushi_solver_work),
        ] {
            if v == 0 {
                return Err(Failure::BadInput(format!("{name} must be at least 1")));
            }
        }
        let mut c = base;
        c.explore.max_paths = self.sushi_paths;
        c.max_class_paths = self.sushi_class_paths;
        c.explore.heap_scope = self.sushi_heap;
        c.explore.max_lazy_inits = self.sushi_lazy;
        c.max_class_solver_work = self.sushi_solver_work;
        c.max_conditions = self.sushi_conditions;
        c.patience = self.sushi_patience;
        if self.sushi_rep_ok.is_on() {
            c.explore.invariants = symbolic::Invariants::rep_ok();
        }
        for r in &self.sushi_rule {
            let rule =
                symbolic::Rule::parse(r).map_err(|e| Failure::BadInput(format!("--sushi-rule: {e}")))?;
            c.explore.invariants.rules.push(rule);
        }
        for s in &self.sushi_scope {
            let (class, k) = s
                .split_once('=')
                .and_then(|(c, k)| Some((c.trim(), k.trim().parse::<u32>().ok()?)))
                .filter(|(c, k)| !c.is_empty() && *k > 0)
                .ok_or_else(|| {
                    Failure::BadInput(format!("--sushi-scope {s:?} must be CLASS=K, K at least 1"))
                })?;
            c.explore.invariants.max_objects.insert(class.to_string(), k);
        }
        Ok(c)
    }
}
