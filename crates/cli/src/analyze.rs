//! `suitesmith analyze`: the analysis of one class as text — what the engine knows about a class before
//! it runs anything. Until test generation exists, this is the README's run command. With `--dse`,
//! instead, what dynamic symbolic execution sees of one random test of the class (paper 004,
//! docs/dse.md): the path condition per branch and the solver's answer for each negation. With
//! `--flags`, instead, the interprocedural flags of each method (paper 001, docs/flags.md). With
//! `--goal-selection`, instead, smart selection's split of the class's goals (paper 002,
//! docs/selection.md): guiding and deferred goal counts per criterion and both lists. With
//! `--ocg`, instead, the object construction graph of every branch of every method (paper 000,
//! docs/ocg.md): the backward slice's nodes in their calling contexts, their roles and the leaves.
//! With `--paths`, instead, the path conditions symbolic exploration with lazy initialisation finds
//! for each public method (paper 003, docs/sushi.md), with the branches each path covers.
//! The analysis ends with the portfolio's gates (docs/portfolio.md): which techniques an adaptive
//! run keeps for the class, and why.

use jvm_model::ClassName;
use std::fmt::Write as _;

use anyhow::Context as _;

use crate::{Failure, open_classpath};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Classpath (jars and directories, `:`-separated) holding the class.
    #[arg(long)]
    classpath: String,
    /// The class to analyse, e.g. `com.example.Stack`.
    #[arg(long)]
    class: String,
    /// Print DSE's view of one random test (drawn with `--seed`) instead of the analysis.
    #[arg(long)]
    dse: bool,
    /// The seed of the random test `--dse` explains.
    #[arg(long, default_value_t = 0, requires = "dse")]
    seed: u64,
    /// Print the interprocedural flags of each method (flag branches, flag methods, required
    /// paths) instead of the analysis.
    #[arg(long, conflicts_with = "dse")]
    flags: bool,
    /// Print which goals of the eight criteria smart selection lets guide the search and which it
    /// defers, instead of the analysis.
    #[arg(long, conflicts_with_all = ["dse", "flags"])]
    goal_selection: bool,
    /// Print the object construction graph of every branch of each method (the fields and array
    /// elements of the inputs that decide it) instead of the analysis.
    #[arg(long, conflicts_with_all = ["dse", "flags", "goal_selection"])]
    ocg: bool,
    /// Print the path conditions of each public method (symbolic exploration with lazy
    /// initialisation, `symbolic::ExploreConfig::standard`) instead of the analysis.
    #[arg(long, conflicts_with_all = ["dse", "flags", "goal_selection", "ocg"])]
    paths: bool,
    /// The "represents" table for `--goal-selection`, e.g.
    /// `cbranch>branch,line,weakmutation;methodnoexception>method` (the default).
    #[arg(long, requires = "goal_selection")]
    represents: Option<String>,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let cp = open_classpath(&args.classpath)?;
    let internal = ClassName::from_binary(&args.class).into_internal();
    // The views that read the program database rather than one class file.
    type View = fn(&[std::path::PathBuf], &str, &Args) -> Result<String, Failure>;
    let views: [(bool, View); 4] = [
        (args.dse, |cp, _, a| {
            engine::explain_dse(cp, &a.class, a.seed, &engine::Techniques::standard().dse)
                .map_err(|e| Failure::Internal(e.into()))
        }),
        (args.flags, |cp, class, _| render_flags(cp, class)),
        (args.ocg, |cp, class, _| render_ocg(cp, class)),
        (args.paths, |cp, class, _| render_paths(cp, class)),
    ];
    if let Some((_, view)) = views.iter().find(|(on, _)| *on) {
        if !cp.contains(&internal) {
            return Err(Failure::BadInput(format!("class {} is not on the classpath", args.class)));
        }
        let classpath: Vec<std::path::PathBuf> = args.classpath.split(':').map(Into::into).collect();
        print!("{}", view(&classpath, &internal, args)?);
        return Ok(());
    }
    let bytes = cp
        .class_bytes(&internal)
        .map_err(|e| Failure::BadInput(format!("cannot read class {}: {e}", args.class)))?
        .ok_or_else(|| Failure::BadInput(format!("class {} is not on the classpath", args.class)))?;
    let class = classfile::ClassFile::parse(&bytes)
        .map_err(|e| Failure::BadInput(format!("class {} is corrupt: {e}", args.class)))?;
    if args.goal_selection {
        print!("{}", render_selection(&class, args.represents.as_deref())?);
        return Ok(());
    }
    let classpath: Vec<std::path::PathBuf> = args.classpath.split(':').map(Into::into).collect();
    let gates = render_gates(&classpath, &internal)?;
    print!("{}{gates}", render(&class, &bytes)?);
    Ok(())
}

/// The portfolio's gates of `class` (docs/portfolio.md, "The gates"): which techniques a run
/// with the adaptive allocation keeps for the class, and why. The database has `java.base`, as a
/// run's does, for the checks that ask whether a type is the JDK's.
fn render_gates(classpath: &[std::path::PathBuf], class: &str) -> Result<String, Failure> {
    let mut full = classpath.to_vec();
    full.extend(testcase::cluster::jdk_base_jmod());
    let db = programdb::ProgramDb::open(&full, programdb::DbConfig::STANDARD)
        .map_err(|e| Failure::BadInput(format!("cannot open the classpath: {e}")))?;
    let id = db
        .class_id(class)
        .ok_or_else(|| Failure::BadInput(format!("class {class} is not on the classpath")))?;
    let gates = portfolio::gates(&db, id).map_err(|e| Failure::BadInput(e.to_string()))?;
    Ok(format!("\n== portfolio gates\n{}", portfolio::render(&gates)))
}

/// Smart selection over the class's goals of the eight criteria, planned with every probe family
/// (`selection::Selection::dump`).
fn render_selection(class: &classfile::ClassFile, represents: Option<&str>) -> Result<String, Failure> {
    let mut opts = selection::Options::default();
    if let Some(text) = represents {
        opts.represents =
            text.parse().map_err(|e: selection::SelectionError| Failure::BadInput(e.to_string()))?;
    }
    let mut plan = goals::ProbePlan::new();
    let id = plan
        .add_class(class, &goals::PlanOptions::all())
        .map_err(|e| anyhow::anyhow!("planning probes: {e}"))?;
    let blocks = [selection::ClassBlocks::of_class(id, class)];
    let sel = selection::select(&plan, &blocks, &goals::Criterion::DEFAULT, &opts);
    Ok(format!("class {}, represents {}\n{}", class.name(), opts.represents, sel.dump(&plan)))
}

/// The program database over `classpath` and the methods of `class` with code, but constructors
/// and initialisers: what `--flags` and `--ocg` print about.
fn program_methods(
    classpath: &[std::path::PathBuf],
    class: &str,
) -> Result<(programdb::ProgramDb, Vec<programdb::MethodId>), Failure> {
    let db = programdb::ProgramDb::open(classpath, programdb::DbConfig::STANDARD)
        .map_err(|e| Failure::BadInput(format!("cannot open the classpath: {e}")))?;
    let c = db
        .class_id(class)
        .ok_or_else(|| Failure::BadInput(format!("class {class} is not on the classpath")))?;
    let cp =
        &db.class(c).map_err(|e| Failure::BadInput(format!("class {class} is corrupt: {e}")))?.constant_pool;
    let methods = db
        .methods(c)
        .filter(|&m| {
            let name = db.member(m).and_then(|mm| mm.name(cp)).unwrap_or_default();
            !name.starts_with('<') && matches!(db.body(m), Some(Ok(_)))
        })
        .collect();
    Ok((db, methods))
}

/// The flags of every method of `class` (but constructors and initialisers), as one string.
fn render_flags(classpath: &[std::path::PathBuf], class: &str) -> Result<String, Failure> {
    let (db, methods) = program_methods(classpath, class)?;
    let config = flags::FlagConfig::standard();
    let mut out = String::new();
    for m in methods {
        out.push_str(&flags::text::render(&db, &flags::analyze(&db, m, &config)));
        out.push('\n');
    }
    Ok(out)
}

/// The object construction graph of every branch of every method of `class` (but constructors
/// and initialisers), with the paper's depth and our caps (`ocg::slice::SliceConfig::paper`).
fn render_ocg(classpath: &[std::path::PathBuf], class: &str) -> Result<String, Failure> {
    let (db, methods) = program_methods(classpath, class)?;
    let config = ocg::slice::SliceConfig::paper();
    let mut out = String::new();
    for m in methods {
        for insn in ocg::slice::branch_insns(&db, m) {
            let s = ocg::slice::slice(&db, ocg::Target { method: m, insn }, &config);
            out.push_str(&s.ocg.render(&db));
            if s.cut {
                let _ = writeln!(out, "  (slice cut at {} nodes)", config.max_nodes);
            }
            let leaves = s.ocg.leaves().len();
            let _ = writeln!(out, "  {} nodes ({} sliced), {leaves} leaves\n", s.ocg.nodes().len(), s.sliced);
        }
    }
    Ok(out)
}

/// The explored paths of every public method of `class` (constructors and initialisers aside), each
/// with its clauses and covered branch goals, and a legend of those goals.
fn render_paths(classpath: &[std::path::PathBuf], class: &str) -> Result<String, Failure> {
    let mut full = classpath.to_vec();
    full.extend(testcase::cluster::jdk_base_jmod());
    let (db, methods) = program_methods(&full, class)?;
    let c = db
        .class_id(class)
        .ok_or_else(|| Failure::BadInput(format!("class {class} is not on the classpath")))?;
    let mut plan = goals::ProbePlan::new();
    plan.add_class_in(&db, c, &goals::PlanOptions::all())
        .map_err(|e| anyhow::anyhow!("planning probes: {e}"))?;
    let cp =
        &db.class(c).map_err(|e| Failure::BadInput(format!("class {class} is corrupt: {e}")))?.constant_pool;
    let config = symbolic::ExploreConfig::standard();
    let mut concolic = symbolic::Concolic::new(&db, &plan, symbolic::SymConfig::STANDARD);
    let mut out = String::new();
    for m in methods {
        let Some(member) = db.member(m) else { continue };
        if member.access_flags & classfile::access::PUBLIC == 0 {
            continue;
        }
        let (Some(name), Some(desc)) = (member.name(cp), member.descriptor(cp)) else { continue };
        let e = concolic
            .explore(class, &name, &desc, &config)
            .map_err(|e| anyhow::anyhow!("exploring {name}: {e}"))?;
        let s = &e.stats;
        let _ = writeln!(
            out,
            "{}.{name}{desc}: {} paths{} ({} replays, {} solver calls, {} clauses left out)",
            ClassName::from_internal(class).binary(),
            e.paths.len(),
            if s.truncated { ", truncated" } else { "" },
            s.replays,
            s.solver_calls,
            s.dropped
        );
        out.push_str(&e.text());
        let mut covered: Vec<goals::GoalId> =
            e.paths.iter().flat_map(|p| p.covered.iter().copied()).collect();
        covered.sort();
        covered.dedup();
        for g in covered {
            let _ = writeln!(out, "  {g}: {}", goals::goal_text(plan.goal(g)));
        }
        out.push('\n');
    }
    Ok(out)
}

/// The whole report as one string, so a failure halfway prints nothing.
fn render(class: &classfile::ClassFile, bytes: &[u8]) -> Result<String, Failure> {
    let cp = &class.constant_pool;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "class {} (class-file version {}.{}, {} methods)",
        class.name(),
        class.major_version,
        class.minor_version,
        class.methods.len()
    );
    for m in &class.methods {
        let name = m.name(cp).unwrap_or_default();
        let desc = m.descriptor(cp).unwrap_or_default();
        let header = format!("{name}{desc}");
        let Some(code) = m.code(cp) else {
            let _ = writeln!(out, "\n== {header}: no code (abstract or native)");
            continue;
        };
        let code = code.with_context(|| format!("reading the Code of {header}"))?;
        let body = bytecode::decode(&code, cp).map_err(|e| anyhow::anyhow!("decoding {header}: {e}"))?;
        let analysis = analysis::MethodAnalysis::compute(&body);
        out.push('\n');
        out.push_str(&analysis::text::render(&header, &body, &analysis, cp));
    }
    let (_, plan, report) = instrument::instrument_standalone(bytes, &instrument::Options::all())
        .map_err(|e| anyhow::anyhow!("planning probes: {e}"))?;
    let _ = writeln!(out, "\n== probe plan ({} probes, {} goals)", plan.n_probes(), plan.goals().len());
    out.push_str(&plan.dump());
    for u in &report.unchanged {
        let _ = writeln!(out, "left unchanged: {}: {}", u.method, u.reason);
    }
    Ok(out)
}
