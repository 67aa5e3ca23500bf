//! The two machine-readable outputs of `suitesmith generate`: `statistics.csv` with EvoSuite's
//! columns (anchors.md §1.9: `TARGET_CLASS,criterion,Coverage,Total_Goals,Covered_Goals`, then the
//! per-criterion `<X>Coverage` columns and a few of its runtime variables) and `report.json`
//! (DESIGN.md §1: per class the goals and covered goals per criterion, tests, statements,
//! executions, search time, generations, and the configuration that ran).

use std::time::Duration;

use engine::{ClassTests, Criterion, GenerateConfig, WriteConfig};
use serde_json::{Value, json};

/// `covered / total` in percent; 100 when there is nothing to cover (EvoSuite reports 1.0 then).
pub fn percent(covered: usize, total: usize) -> f64 {
    if total == 0 { 100.0 } else { 100.0 * covered as f64 / total as f64 }
}

fn ratio(covered: usize, total: usize) -> f64 {
    percent(covered, total) / 100.0
}

/// EvoSuite's column for one criterion's coverage (`RuntimeVariable` names).
fn evosuite_column(c: Criterion) -> &'static str {
    match c {
        Criterion::Line => "LineCoverage",
        Criterion::Branch => "BranchCoverage",
        Criterion::Exception => "ExceptionCoverage",
        Criterion::WeakMutation => "WeakMutationScore",
        Criterion::Output => "OutputCoverage",
        Criterion::Method => "MethodCoverage",
        Criterion::MethodNoException => "MethodNoExceptionCoverage",
        Criterion::ContextBranch => "CBranchCoverage",
    }
}

/// One row per class: EvoSuite's five default columns, the selected criteria's coverage columns,
/// then `Size` (tests), `Length` (statements), `Total_Time` (ms) and `Random_Seed`... as EvoSuite
/// names them. `criterion` joins the criteria's names with `;`, as EvoSuite does.
pub fn statistics_csv(done: &[ClassTests], criteria: &[Criterion], seed: u64) -> String {
    let mut out = String::from("TARGET_CLASS,criterion,Coverage,Total_Goals,Covered_Goals");
    for &c in criteria {
        out.push(',');
        out.push_str(evosuite_column(c));
    }
    out.push_str(",Size,Length,Fitness_Evaluations,Generations,Total_Time,Random_Seed\n");
    let names: Vec<String> = criteria.iter().map(|c| c.name().to_uppercase()).collect();
    for t in done {
        let (covered, total) = t
            .coverage
            .iter()
            .filter(|c| criteria.contains(&c.criterion))
            .fold((0, 0), |(a, b), c| (a + c.covered, b + c.total));
        out.push_str(&format!(
            "{},{},{},{},{}",
            t.class,
            names.join(";"),
            ratio(covered, total),
            total,
            covered
        ));
        for &c in criteria {
            let v = t.criterion(c).map_or(1.0, |c| ratio(c.covered, c.total));
            out.push_str(&format!(",{v}"));
        }
        let total_ms = (t.search.elapsed + t.postprocess_time).as_millis();
        out.push_str(&format!(
            ",{},{},{},{},{total_ms},{seed}\n",
            t.tests.len(),
            t.statements(),
            t.search.evaluations,
            t.search.generations
        ));
    }
    out
}

/// The whole run as JSON (pretty, keys sorted): configuration, then one object per class.
pub fn report_json(
    done: &[ClassTests],
    failed: &[(String, String)],
    config: &GenerateConfig,
    write: &WriteConfig,
    sandbox: &worker::SandboxLayer,
    shard: Option<String>,
    total: Duration,
) -> String {
    let classes: Vec<Value> = done.iter().map(class_json).collect();
    let failures: Vec<Value> = failed.iter().map(|(c, e)| json!({ "class": c, "error": e })).collect();
    let report = json!({
        "tool": "suitesmith",
        "version": env!("CARGO_PKG_VERSION"),
        "configuration": {
            "algorithm": format!("{:?}", config.algorithm).to_lowercase(),
            "criteria": config.criteria.iter().map(|c| c.name()).collect::<Vec<_>>(),
            "seed": config.seed,
            "budget_seconds": config.budget.time.map(|d| d.as_secs_f64()),
            "budget_evaluations": config.budget.evaluations,
            "workers": config.workers,
            "junit": match write.style { junit::Style::JUnit4 => 4, junit::Style::JUnit5 => 5 },
            "verify_runs": write.verify_runs,
            "test_names": crate::generate::names_arg(write.test_names),
            "assertions": write.assertions.name(),
            "contracts": write.contracts,
            "post_budget_seconds": write.post_budget.map(|d| d.as_secs_f64()),
            "test_timeout_ms": write.test_timeout_ms,
            "dse": dse_config_json(&config.techniques.dse),
            "goal_selection": goal_selection_config_json(&config.techniques.goal_selection),
            "code_constants": config.techniques.code_constants,
            "flags": config.techniques.flags,
            "jvm_args": config.jvm_args,
            "stubs": config.techniques.stubs,
            "files": config.techniques.files,
            "package_generators": config.techniques.package_generators,
            "format_strings": config.techniques.format_strings,
            "regex_strings": config.techniques.regex_strings,
            "ocg": ocg_config_json(&config.techniques.ocg),
            "local_search": local_search_config_json(&config.techniques.local_search),
            "sushi": sushi_config_json(&config.techniques.sushi),
            "portfolio": portfolio_config_json(&config.techniques.allocation),
            "shard": shard,
            "sandbox": sandbox_json(sandbox),
        },
        "classes": classes,
        "failed": failures,
        "total_seconds": total.as_secs_f64(),
    });
    let mut s = serde_json::to_string_pretty(&report).unwrap_or_default();
    s.push('\n');
    s
}

/// The operating-system sandbox in force: its layer (`landlock`, `user`, `namespace`, `none`),
/// Landlock's ABI, and what it means in a sentence (why there is none, when there is none).
fn sandbox_json(layer: &worker::SandboxLayer) -> Value {
    let abi = match layer {
        worker::SandboxLayer::Landlock { abi } => Some(*abi),
        _ => None,
    };
    json!({ "layer": layer.name(), "landlock_abi": abi, "contains": layer.contains(), "detail": layer.to_string() })
}

fn class_json(t: &ClassTests) -> Value {
    let mut criteria = serde_json::Map::new();
    for c in &t.coverage {
        criteria.insert(
            c.criterion.name().to_string(),
            json!({ "goals": c.total, "covered": c.covered, "coverage": ratio(c.covered, c.total) }),
        );
    }
    let v = &t.verification;
    json!({
        "class": t.class,
        "files": t.files.iter().map(|f| f.relative_path()).collect::<Vec<_>>(),
        "criteria": criteria,
        "tests": t.tests.len(),
        "statements": t.statements(),
        "assertions": t.assertions(),
        "expected_exceptions": t.expected_exceptions(),
        "tests_without_assertions": t.unasserted(),
        "tests_without_assertions_ending_in_void": t.unasserted_void(),
        "executions": t.search.evaluations,
        "generations": t.search.generations,
        "search_seconds": t.search.elapsed.as_secs_f64(),
        "worker_seconds": t.search.worker_time.as_secs_f64(),
        "postprocess_seconds": t.postprocess_time.as_secs_f64(),
        "minimisation": {
            "tests_before": t.search.tests,
            "statements_before": t.search.statements,
            "tests_after": t.minimised_tests,
            "statements_after": t.minimised_statements,
        },
        "verification": {
            "rounds": v.rounds,
            "uncompilable_tests_dropped": v.uncompilable_tests,
            "failing_assertions_removed": v.failing_assertions,
            "short_rounds": v.short_rounds,
            "failing_tests_dropped": v.failing_tests,
            "verified": v.verified,
            "stopped_by_budget": v.stopped_by_budget,
            "confirmation_runs": v.confirmations,
            "unconfirmed_tests_dropped": v.unconfirmed_tests,
        },
        "phases_seconds": {
            "minimisation": t.phases.minimise.as_secs_f64(),
            "assertions": t.phases.assertions.as_secs_f64(),
            "contracts": t.phases.contracts.as_secs_f64(),
            "verification": t.phases.verification.as_secs_f64(),
            "coverage": t.phases.coverage.as_secs_f64(),
        },
        "program_db": {
            "classes_parsed": t.program.classes_parsed,
            "parses": t.program.parses,
            "methods_decoded": t.program.methods_decoded,
            "decodes": t.program.decodes,
        },
        "guards": {
            "tests_cut": t.guard_cuts.tests_cut,
            "tests_dropped": t.guard_cuts.tests_dropped,
            "statements_removed": t.guard_cuts.statements_removed,
            "refused": t.guard_cuts.refused,
            "dependency_classes": t.guarded_dependencies,
        },
        "jacoco": t.jacoco.map(|j| json!({
            "lines": { "covered": j.lines.0, "total": j.lines.1, "coverage": ratio(j.lines.0 as usize, j.lines.1 as usize) },
            "branches": { "covered": j.branches.0, "total": j.branches.1, "coverage": ratio(j.branches.0 as usize, j.branches.1 as usize) },
        })),
        "complement": t.complement.as_ref().map(complement_json),
        "mutation": t.mutation.as_ref().map(|m| json!({
            "mutants": m.mutants,
            "methods_without_schemata": m.unmutated,
            "tests_analysed": m.stats.tests_analysed,
            "tests_not_analysed": m.stats.tests_not_analysed,
            "mutants_run": m.stats.mutants,
            "runs": m.stats.runs,
            "killed": m.stats.killed,
            "assertions_before": m.stats.assertions_before,
            "assertions_after": m.stats.assertions_after,
        })),
        "dse": t.search.dse.as_ref().map(|d| dse_json(d, t.search.dse_cost.as_ref(), t.search.elapsed)),
        "replay_check": t.replay_check.as_ref().map(replay_check_json),
        "goal_selection": t.search.selection.as_ref().map(goal_selection_json),
        "flags": t.flags.as_ref().map(flags_json),
        "ocg": t.search.ocg.as_ref().map(ocg_json),
        "local_search": t.search.local_search.as_ref().map(local_search_json),
        "sushi": t.search.sushi.as_ref().map(sushi_json),
        "portfolio": t.search.portfolio.as_ref().map(|arms| json!(arms)),
        "violations": t.violations.iter().map(|v| json!({
            "kind": v.kind.name(),
            "class": v.class,
            "method": v.method,
            "message": v.message,
            "test": t.violation_file.as_ref().map(|f| format!("{}.{}", f.class_name, v.test.name.as_deref().unwrap_or_default())),
        })).collect::<Vec<_>>(),
        "violation_file": t.violation_file.as_ref().map(|f| f.relative_path()),
        "uncovered": t.uncovered,
        "uninstrumented": t.unchanged,
        "log": t.log,
    })
}

/// What the written tests add over the project's own (complement mode, docs/maven.md): per
/// criterion the goals the project's tests cover, the written tests cover, and either covers; per
/// test the goals it adds; JaCoCo's figures of the project's tests.
fn complement_json(c: &engine::Complement) -> Value {
    let mut criteria = serde_json::Map::new();
    for k in &c.criteria {
        criteria.insert(
            k.criterion.name().to_string(),
            json!({
                "total": k.total,
                "existing": k.existing,
                "written": k.written,
                "union": k.union,
                "existing_coverage": ratio(k.existing, k.total),
                "union_coverage": ratio(k.union, k.total),
            }),
        );
    }
    let j = c.existing_jacoco;
    json!({
        "criteria": criteria,
        "added_per_test": c.added_per_test,
        "existing_jacoco": {
            "lines": { "covered": j.lines.0, "total": j.lines.1 },
            "branches": { "covered": j.branches.0, "total": j.branches.1 },
        },
    })
}

/// How the techniques shared the run (docs/portfolio.md): `adaptive` with the portfolio's
/// parameters, or `fixed` (every technique on for the whole run).
fn portfolio_config_json(a: &engine::Allocation) -> Value {
    match a {
        engine::Allocation::Fixed => json!({ "allocation": "fixed" }),
        engine::Allocation::Adaptive(p) => json!({
            "allocation": "adaptive",
            "gamma": p.gamma,
            "period": p.period,
            "prior": p.prior,
            "c0_seconds": p.c0_seconds,
            "c0_work": p.c0_work,
            "floor": p.floor,
            "ceiling": p.ceiling,
            "lead": p.lead,
        }),
    }
}

/// Which goals guided the search (paper 002; docs/selection.md): `all`, or smart selection with
/// its options.
fn goal_selection_config_json(g: &engine::GoalSelection) -> Value {
    match g {
        engine::GoalSelection::All => json!({ "mode": "all" }),
        engine::GoalSelection::Smart(o) => json!({
            "mode": "smart",
            "represents": o.represents.to_string(),
            "line_threshold": o.line_threshold,
            "line_rule": format!("{:?}", o.line_rule).to_lowercase(),
            "subsets": o.subsets,
            "mutants_per_site": o.mutants_per_site,
            "subset_weight": o.subset_weight,
        }),
    }
}

/// Smart selection's guiding and deferred static goals per criterion (context branches, found at
/// run time, are not counted: they all guide when context branch is a representative).
fn goal_selection_json(counts: &engine::SelectionCounts) -> Value {
    let mut m = serde_json::Map::new();
    for &(c, guiding, deferred) in counts {
        m.insert(c.name().to_string(), json!({ "guiding": guiding, "deferred": deferred }));
    }
    Value::Object(m)
}

/// DSE's configuration (paper 004; docs/dse.md): the switch and its deterministic budgets.
fn dse_config_json(c: &engine::DseConfig) -> Value {
    json!({
        "enabled": c.enabled,
        "probability": c.probability,
        "rate": c.rate,
        "max_queries": c.max_queries,
        "max_tests": c.max_tests,
        "max_seeds": c.max_seeds,
        "max_steps": c.max_steps,
        "max_depth": c.max_depth,
        "max_string": c.max_string,
        "parser_models": c.parser_models,
        "z3_rlimit": c.solver.z3_rlimit,
        "avm_evaluations": c.solver.avm_evaluations,
        "filter": c.filter,
        "keep_all": c.keep_all,
        "stall": c.stall,
        "share": c.share,
        "time_share": c.time_share,
    })
}

/// What DSE did in a class's search: its counters and P at the end, and what it cost in wall
/// time (`cost`, reporting only: it differs from run to run, the counters do not).
/// Object construction templates' switch and parameters (paper 000; docs/ocg.md).
fn ocg_config_json(c: &engine::OcgConfig) -> Value {
    if !c.enabled {
        return json!(false);
    }
    json!({
        "probability": c.probability,
        "depth": c.slice.depth,
        "max_length": c.template.max_length,
    })
}

/// Local search's switch and parameters (docs/localsearch.md).
fn local_search_config_json(c: &engine::LocalSearchConfig) -> Value {
    if !c.enabled {
        return json!(false);
    }
    json!({ "exponents": c.exponents, "share": c.share, "calls": c.calls, "strings": c.strings })
}

/// What local search did in the search (docs/localsearch.md): rounds, the tests they added, and
/// the rounds after which their goal was better, covered, or had every number tried.
fn local_search_json(l: &engine::LocalSearchStats) -> Value {
    json!({
        "rounds": l.rounds,
        "tests": l.tests,
        "improved": l.improved,
        "covered": l.covered,
        "exhausted": l.exhausted,
        "call_rounds": l.call_rounds,
        "string_rounds": l.string_rounds,
    })
}

/// SUSHI's switch and parameters (paper 003; docs/sushi.md).
fn sushi_config_json(c: &engine::SushiConfig) -> Value {
    if !c.enabled {
        return json!(false);
    }
    json!({
        "paths_per_method": c.explore.max_paths,
        "heap_scope": c.explore.heap_scope,
        "lazy_inits": c.explore.max_lazy_inits,
        "class_steps": c.max_class_steps,
        "class_paths": c.max_class_paths,
        "solver_work_per_method": c.method_solver_work(),
        "class_solver_work": c.max_class_solver_work,
        "rules": c.explore.invariants.rules.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "class_scopes": c.explore.invariants.max_objects,
        "rep_ok": c.explore.invariants.rep_ok,
        "conditions": c.max_conditions,
        "patience": c.patience,
        "epsilon": c.epsilon,
    })
}

/// What SUSHI did (paper 003; docs/sushi.md): the exploration (methods, paths, candidates,
/// steps, wall time), conditions sent, goals selected, solved (checked by re-execution), unsound,
/// spurious and still open, and the spurious share of the selected goals.
fn sushi_json(s: &engine::SushiStats) -> Value {
    let e = &s.explore;
    json!({
        "methods": e.methods,
        "methods_skipped": e.methods_skipped,
        "paths_explored": e.paths,
        "candidates": e.candidates,
        "branches": e.branches,
        "steps": e.steps,
        "solver_calls": e.solver_calls,
        "solver_work": e.solver_work,
        "solver_work_exhausted": e.work_exhausted,
        "rounds_before_search": e.rounds,
        "explore_seconds": e.explore_time.as_secs_f64(),
        "select_seconds": e.select_time.as_secs_f64(),
        "sent": s.sent,
        "selected": s.selected,
        "solved": s.solved,
        "unsound": s.unsound,
        "spurious": s.spurious,
        "covered_otherwise": s.covered_otherwise,
        "open": s.open,
        "reselections": s.reselections,
        "spurious_share": if s.selected == 0 { 0.0 } else { s.spurious as f64 / s.selected as f64 },
    })
}

/// What object construction templates did in the search (paper 000; docs/ocg.md): generations
/// that drew a branch, graphs built (and with a leaf), the largest graph, templates injected, and
/// templates not made by reason, goals first covered by a template or a descendant of one.
fn ocg_json(o: &engine::OcgStats) -> Value {
    json!({
        "applications": o.applications,
        "graphs": o.graphs,
        "graphs_with_leaves": o.graphs_with_leaves,
        "max_nodes": o.max_nodes,
        "templates": o.templates,
        "not_made": o.not_made,
        "goals_first_covered": o.goals_first_covered,
    })
}

fn dse_json(d: &engine::DseStats, cost: Option<&engine::DseCost>, search: Duration) -> Value {
    let mut m = serde_json::Map::new();
    for (k, v) in d.counters() {
        m.insert(k.to_string(), json!(v));
    }
    m.insert("probability".to_string(), json!(d.probability));
    m.insert("stops".to_string(), json!(d.stops));
    if let Some(c) = cost {
        m.insert("cost".to_string(), dse_cost_json(c, search));
    }
    Value::Object(m)
}

/// DSE's wall time: in all and as a share of the search's, by part, per solver query (median,
/// 95th percentile, maximum; in all and per back-end combination), and the replays' speed.
fn dse_cost_json(c: &engine::DseCost, search: Duration) -> Value {
    let times = |q: engine::QueryTimes| {
        json!({
            "queries": q.count,
            "seconds": q.total.as_secs_f64(),
            "median_ms": q.median.as_secs_f64() * 1e3,
            "p95_ms": q.p95.as_secs_f64() * 1e3,
            "max_ms": q.max.as_secs_f64() * 1e3,
        })
    };
    let mut backends = serde_json::Map::new();
    for (name, q) in c.by_backend() {
        backends.insert(name.to_string(), times(q));
    }
    let share = if search.is_zero() { 0.0 } else { c.application_time.as_secs_f64() / search.as_secs_f64() };
    json!({
        "applications": c.applications,
        "seconds": c.application_time.as_secs_f64(),
        "share_of_search": share,
        "replay_seconds": c.replay_time.as_secs_f64(),
        "replay_instructions": c.replay_instructions,
        "replay_instructions_per_second": c.replay_instructions_per_second(),
        "check_seconds": c.check_time.as_secs_f64(),
        "solver": times(c.all_queries()),
        "solver_by_backend": backends,
    })
}

/// The interpreter's replays of the written tests against the JVM's runs (`--replay-check`).
fn replay_check_json(r: &engine::ReplayCheck) -> Value {
    json!({
        "tests": r.tests,
        "replayed_fully": r.replayed_fully,
        "stopped": r.stopped,
        "stop_reasons": r.stop_reasons,
        "not_compared": r.not_compared,
        "instructions_symbolic": r.instructions_symbolic,
        "instructions_concrete": r.instructions_concrete,
        "pins": r.pins,
        "goals_compared": r.goals_compared,
        "divergences": r.divergences,
        "goal_divergences": r.goal_divergences,
        "outcome_divergences": r.outcome_divergences,
        "examples": r.examples,
        "seconds": r.elapsed.as_secs_f64(),
        "instructions_per_second": r.instructions_per_second(),
    })
}

/// Interprocedural flag fitness (paper 001; docs/flags.md): flag methods traced, flag branch
/// outcomes found and covered by the written tests, and those left uncovered.
fn flags_json(f: &engine::FlagFigures) -> Value {
    json!({
        "methods": f.methods,
        "branches": f.branches,
        "covered": f.covered,
        "uncovered": f.uncovered,
    })
}
