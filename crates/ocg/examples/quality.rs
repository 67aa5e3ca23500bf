//! OCG quality on a benchmark's plain runs: for every branch goal a run
//! without templates left uncovered, whether an object construction graph with at least one leaf
//! is built for its jump, how long building takes, and whether the template made from it is a
//! valid test. Reads a `bench` output directory and its subject list:
//!
//! `cargo run --release -p ocg --example quality -- <bench-out> <subjects.tsv> [configuration]`
//!
//! (configuration: the bench configuration whose runs are read, default `off`). Prints one
//! markdown row per class and a total.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use goals::{Detail, ProbeId};
use ocg::graph::Target;
use ocg::slice::{self, SliceConfig};
use ocg::template::{self, TemplateConfig};
use programdb::{DbConfig, ProgramDb};
use search::SearchConfig;
use testcase::{ClusterConfig, TestCluster, TestFactory, ValuePool, rng_from_seed};

#[derive(Default)]
struct Row {
    uncovered: usize,
    mapped: usize,
    with_leaves: usize,
    templates: usize,
    invalid: usize,
    times: Vec<Duration>,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: quality <bench-out> <subjects.tsv> [configuration]");
        std::process::exit(2);
    }
    let (out, subjects) = (PathBuf::from(&args[1]), PathBuf::from(&args[2]));
    let configuration = args.get(3).map_or("off", String::as_str);
    let base = subjects.parent().unwrap_or(Path::new(".")).to_path_buf();
    let text = std::fs::read_to_string(&subjects).expect("subjects");
    let mut total = Row::default();
    // A class listed twice (two competition editions) was run into one directory: measured once.
    let mut seen = std::collections::BTreeSet::new();
    println!(
        "| class | uncovered branch goals | their jumps | OCG with a leaf | templates | invalid | build ms median | build ms max |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.starts_with("class\t") && !l.is_empty()) {
        let mut cols = line.split('\t');
        let (Some(class), Some(cp)) = (cols.next(), cols.next()) else { continue };
        if !seen.insert(class.to_owned()) {
            continue;
        }
        let report = out.join(format!("runs/{configuration}/{class}/seed-1/tests/report.json"));
        let Ok(report) = std::fs::read_to_string(&report) else { continue };
        let report: serde_json::Value = serde_json::from_str(&report).expect("report.json");
        let classpath: Vec<PathBuf> = cp.split(':').map(|p| base.join(p)).collect();
        let row = measure(class, &classpath, &report);
        print_row(class, &row);
        total.uncovered += row.uncovered;
        total.mapped += row.mapped;
        total.with_leaves += row.with_leaves;
        total.templates += row.templates;
        total.invalid += row.invalid;
        total.times.extend(row.times);
    }
    print_row("**all**", &total);
}

fn print_row(class: &str, r: &Row) {
    let mut t = r.times.clone();
    t.sort();
    let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    println!(
        "| {class} | {} | {} | {} ({:.0} %) | {} | {} | {:.2} | {:.2} |",
        r.uncovered,
        r.mapped,
        r.with_leaves,
        100.0 * r.with_leaves as f64 / r.mapped.max(1) as f64,
        r.templates,
        r.invalid,
        ms(t.get(t.len() / 2)),
        ms(t.last()),
    );
}

/// The probe ids of the uncovered branch goals (`branch p16 taken (...)`), once each.
fn uncovered_probes(report: &serde_json::Value) -> (usize, Vec<u32>) {
    let entries: Vec<&str> = report["classes"][0]["uncovered"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str())
        .filter(|u| u.starts_with("branch p"))
        .collect();
    let mut probes: Vec<u32> =
        entries.iter().filter_map(|u| u.strip_prefix("branch p")?.split(' ').next()?.parse().ok()).collect();
    probes.sort();
    probes.dedup();
    (entries.len(), probes)
}

fn measure(class: &str, classpath: &[PathBuf], report: &serde_json::Value) -> Row {
    let mut paths = classpath.to_vec();
    paths.extend(testcase::cluster::jdk_base_jmod());
    let db = ProgramDb::open(&paths, DbConfig::STANDARD).expect("classpath");
    let internal = class.replace('.', "/");
    let prefix = format!("{internal}$");
    let mut names: Vec<String> =
        db.classpath().class_names().filter(|n| n.starts_with(&prefix)).map(str::to_owned).collect();
    names.sort();
    names.insert(0, internal.clone());
    let ids: Vec<programdb::ClassId> = names.iter().filter_map(|c| db.class_id(c)).collect();
    // The plan a run instruments (every criterion), so the report's probe ids name its probes.
    let (plan, _) = instrument::instrument_classes_in(&db, &ids, &instrument::Options::all());
    let cluster_config =
        ClusterConfig { cluster_depth: SliceConfig::paper().depth, ..ClusterConfig::evosuite() };
    let cluster = TestCluster::build_in(&db, class, &cluster_config).expect("cluster");
    let config = SearchConfig::evosuite(search::Budget::evaluations(1));
    let pool = ValuePool::new(cluster.constants().clone(), config.factory.dynamic_pool_size);
    let factory = TestFactory::new(&cluster, &pool, &config.factory);
    let (uncovered, probes) = uncovered_probes(report);
    let mut row = Row { uncovered, ..Row::default() };
    for (k, p) in probes.into_iter().enumerate() {
        let Some(target) = target(&db, &plan, ProbeId(p)) else { continue };
        row.mapped += 1;
        let t0 = Instant::now();
        let graph = slice::build(&db, target, &SliceConfig::paper());
        row.times.push(t0.elapsed());
        if graph.leaves().is_empty() {
            continue;
        }
        row.with_leaves += 1;
        let mut rng = rng_from_seed(k as u64);
        if let Ok(t) =
            template::synthesize(&db, &graph, &cluster, &factory, &TemplateConfig::paper(), &mut rng)
        {
            row.templates += 1;
            if let Err(e) = testcase::check(&t.test, &cluster) {
                row.invalid += 1;
                eprintln!("{class}: invalid template ({e:?}):\n{}", t.test);
            }
        }
    }
    row
}

/// The jump instruction of a branch probe, in `db`.
fn target(db: &ProgramDb, plan: &goals::ProbePlan, id: ProbeId) -> Option<Target> {
    if id.index() >= plan.n_probes() {
        return None;
    }
    let p = plan.probe(id);
    if !matches!(p.detail, Detail::Branch { .. }) {
        return None;
    }
    let cp = plan.class(p.class);
    let mp = cp.methods.iter().find(|m| Some(m.index) == p.method)?;
    let c = db.class_id(&cp.name)?;
    let cf = db.class(c).ok()?;
    let method = db.methods(c).find(|&m| {
        db.member(m).is_some_and(|mm| {
            mm.name(&cf.constant_pool).is_some_and(|n| n == mp.name)
                && mm.descriptor(&cf.constant_pool).is_some_and(|d| d == mp.descriptor)
        })
    })?;
    Some(Target { method, insn: p.insn })
}
