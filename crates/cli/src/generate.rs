//! `suitesmith generate` (DESIGN.md §1): for each target class, search, minimise, assert, render and
//! verify (engine::generate_tests), then write `<out>/<package>/<Simple>Test.java`,
//! `<out>/statistics.csv` and `<out>/report.json`. Every input is checked before the first JVM
//! starts: bad input is one line and exit 2 with nothing written. Files are written only when
//! every class is done, each one atomically (a temporary file renamed into place).

use jvm_model::{ClassName, package_internal};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use engine::{
    AssertionStrategy, ClassTests, Criterion, GenerateConfig, JvmVerifier, Phase, Stage, WriteConfig,
};
use junit::naming::TestNames;
use worker::verify::{JUnitJars, JUnitVersion};

use crate::report;
use crate::search::{AlgorithmArg, parse_duration, product};
use crate::shard::Shard;
use crate::{Failure, open_classpath};

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Classpath (jars and directories, `:`-separated) holding the classes and their dependencies.
    #[arg(long, required_unless_present = "project")]
    classpath: Option<String>,
    /// A Maven project (or a compiled Gradle one, docs/maven.md): compiled and its classpath read by
    /// Maven, every class of each module's target/classes tested (or --class/--prefix among them),
    /// the tests written into each module's src/test/java (or --out) for the project's JUnit.
    #[arg(long, conflicts_with_all = ["classpath", "target"])]
    project: Option<PathBuf>,
    /// The classes of one module of `--project`, chosen by crate::project.
    #[arg(skip)]
    project_classes: Option<Vec<String>>,
    /// One class under test, e.g. `com.example.Stack`.
    #[arg(long, group = "targets")]
    class: Option<String>,
    /// Every class of the classpath in this package or its subpackages, e.g. `com.example`.
    #[arg(long, group = "targets")]
    prefix: Option<String>,
    /// Every class of this jar or directory (added to the classpath if it is not on it).
    #[arg(long, group = "targets")]
    target: Option<PathBuf>,
    /// Search time per class, e.g. `90s` or `2m` (by default EvoSuite's).
    #[arg(long, default_value_t = format!("{}s", engine::DEFAULT_BUDGET.as_secs()))]
    budget: String,
    /// Also stop each search after this many test executions (reproducible on any machine).
    #[arg(long)]
    evaluations: Option<u64>,
    /// Where the tests, statistics.csv and report.json go (default `suitesmith-tests`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The seed of the search; the same seed and inputs give the same files, byte for byte, when the
    /// search ends by `--evaluations` (a time budget alone depends on the machine's speed).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// JVM workers evaluating tests in parallel; the tests do not depend on it.
    #[arg(long)]
    workers: Option<usize>,
    /// The JUnit version the tests are written for.
    #[arg(long, default_value = "4", value_parser = ["4", "5"])]
    junit: String,
    /// How test methods are named: after what each test shows (`testPopThrowsIllegalStateException`),
    /// or `test00`, `test01`, ... (docs/tests.md).
    #[arg(long, default_value_t = names_arg(WriteConfig::new(junit::Style::JUnit4).test_names),
          value_parser = ["descriptive", "numbered"])]
    test_names: String,
    /// How assertions are chosen: every value observed (at most 10 per test), or the fewest that
    /// kill the mutants the test's assertions kill, plus the value of its last call (docs/mutation.md).
    #[arg(long, default_value = WriteConfig::new(junit::Style::JUnit4).assertions.name(),
          value_parser = [AssertionStrategy::All.name(), AssertionStrategy::Mutation.name()])]
    assertions: String,
    /// Check the contracts of `equals`, `hashCode`, `toString`, `compareTo` and `Iterator` on the
    /// objects the tests build, and the exceptions thrown from inside the class on arguments in
    /// range; each violation is written as a failing test in `<Class>ViolationTest.java`, listed
    /// in report.json and report.html and on stderr (docs/contracts.md).
    #[arg(long, value_name = "on|off", default_value = on_off(WriteConfig::new(junit::Style::JUnit4).contracts),
          value_parser = ["on", "off"])]
    contracts: String,
    /// The search algorithm.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::of(product().algorithm))]
    algorithm: AlgorithmArg,
    /// Comma-separated criteria (EvoSuite's names); by default EvoSuite's eight.
    #[arg(long, default_value_t = product().criteria.iter().map(|c| c.name()).collect::<Vec<_>>().join(","))]
    criteria: String,
    /// Fresh-JVM runs each written test must pass (a failing assertion is removed).
    #[arg(long, default_value_t = WriteConfig::new(junit::Style::JUnit4).verify_runs)]
    verify_runs: usize,
    /// Also measure the written tests' line and branch coverage with JaCoCo (Debian libjacoco-java)
    /// and put it in report.json beside ours.
    #[arg(long)]
    jacoco: bool,
    /// Also replay every written test in the concolic interpreter (the DSE's, paper 004) and
    /// compare it with the JVM's run: report.json `replay_check` (the interpreter's fidelity).
    #[arg(long)]
    replay_check: bool,
    /// Wall time per class for minimisation, assertions and verification together, e.g. `90s`;
    /// default: the search budget, at least 30 s. When it runs out, what was verified is written.
    #[arg(long)]
    post_budget: Option<String>,
    /// Print every note of a class (each verification round's drops and why) on stderr; they are
    /// always in report.json's "log".
    #[arg(long)]
    verbose: bool,
    /// Only slice I of N of the classes of `--target`/`--prefix`/`--project` (1 <= I <= N), balanced by an
    /// estimate of each class's cost and the same on every machine: run the N slices anywhere,
    /// then `suitesmith merge` their output directories (docs/scale.md).
    #[arg(long)]
    shard: Option<String>,
    /// With `--project`: regenerate every class, also those whose tests are up to date (same
    /// bytecode, dependencies and options as when they were written: .suitesmith/state.json).
    #[arg(long)]
    force: bool,
    /// With `--project`: search nothing and write nothing; run the tests suitesmith wrote into the
    /// project earlier against its current build, name every test whose behaviour changed (its
    /// failing assertion) and exit with status 1 when any did (the CI mode, docs/maven.md).
    #[arg(long)]
    check: bool,
    /// With `--project` (the default there): run the project's own tests once under JaCoCo and
    /// search only for the goals they leave uncovered; report.json says what the written tests
    /// add (docs/maven.md). `--no-complement` searches every goal.
    #[arg(long, overrides_with = "no_complement")]
    complement: bool,
    #[arg(long, overrides_with = "complement", hide = true)]
    no_complement: bool,
    /// What the project's own tests cover, measured by crate::complement for a project's modules.
    #[arg(skip)]
    existing: Option<std::sync::Arc<engine::ExistingSuite>>,
    /// A flag for every JVM that runs the code under test (repeatable): the workers', the
    /// verification's, and, for module options, javac's. Give options with a value as
    /// `--option=value`, e.g. `--jvm-arg=--add-exports=jdk.compiler/com.sun.tools.javac.code=ALL-UNNAMED`
    /// for classes built against a JDK module's internal packages. The written tests name them in
    /// their header: they need them to run.
    #[arg(long = "jvm-arg", allow_hyphen_values = true)]
    jvm_args: Vec<String>,
    /// The operating-system sandbox of every JVM that runs the code under test (docs/sandbox.md):
    /// `auto` takes the first available of Landlock, an unprivileged user (when run as root) and a
    /// read-only user namespace, and warns when none is; `required` refuses to run without one;
    /// `landlock`, `user`, `namespace` ask for exactly that layer. report.json names the layer.
    #[arg(long, default_value = "auto", value_parser = ["auto", "required", "landlock", "user", "namespace"])]
    sandbox: String,
    #[command(flatten)]
    techniques: crate::technique_args::TechniqueArgs,
    /// Source roots (`:`-separated) where report.html looks for each class's `.java` file to show
    /// its lines coloured by coverage; without it, the bytecode's line numbers (docs/report.md).
    #[arg(long)]
    sourcepath: Option<String>,
}

/// The least default post-processing budget: a compile and five JVM runs of a large suite.
const MIN_POST_BUDGET: Duration = Duration::from_secs(30);

/// A checked run: everything the classes need, decided before any JVM starts.
struct Plan {
    classes: Vec<String>,
    classpath: Vec<PathBuf>,
    config: GenerateConfig,
    write: WriteConfig,
    java: worker::Java,
    /// The sandbox of every JVM that runs the code under test, resolved once.
    sandbox: std::sync::Arc<worker::Sandbox>,
    jars: JUnitJars,
    version: JUnitVersion,
    out: PathBuf,
    shard: Option<Shard>,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    if let Some(dir) = &args.project {
        if args.check {
            let opts = crate::check::CheckOptions {
                selection: crate::project::Selection {
                    class: args.class.as_deref(),
                    prefix: args.prefix.as_deref(),
                    out: args.out.as_deref(),
                },
                jvm_args: &jvm_args(&args.jvm_args)?,
                sandbox: args.sandbox.parse().map_err(Failure::BadInput)?,
            };
            return crate::check::run(dir, &opts);
        }
        return run_project(args, dir);
    }
    if args.force {
        // Only a project run keeps a record of earlier runs: without one, every run is forced.
        return Err(Failure::BadInput("--force applies to --project runs only".into()));
    }
    for (given, flag) in [(args.complement, "--complement"), (args.check, "--check")] {
        if given {
            return Err(Failure::BadInput(format!("{flag} applies to --project runs only")));
        }
    }
    run_classes(args).map(|_| ())
}

/// The spelling of a naming strategy on the command line and in report.json.
pub(crate) fn names_arg(n: TestNames) -> String {
    match n {
        TestNames::Descriptive => "descriptive",
        TestNames::Numbered => "numbered",
    }
    .to_string()
}

impl Args {
    /// The options that decide what a module's run (`self`, with its JUnit set) writes, as text,
    /// less those that only select the classes, show progress, place the reports or (the classpath)
    /// are followed by crate::incremental itself: a change of any other option regenerates every
    /// class. `tests` is where the module's tests go, relative to the project.
    pub(crate) fn generation_key(&self, tests: &Path) -> String {
        let mut a = self.clone();
        (a.project, a.project_classes, a.classpath, a.class, a.prefix) = (None, None, None, None, None);
        (a.workers, a.verbose, a.shard, a.sourcepath, a.force) = (None, false, None, None, false);
        // What the project's own tests cover is not followed: --force after changing them.
        (a.check, a.existing) = (false, None);
        a.complement = !a.no_complement;
        a.out = Some(tests.to_path_buf());
        format!("{a:?}")
    }
}

/// A plain run; what it wrote for each class: (class, test files relative to the output directory).
fn run_classes(args: &Args) -> Result<Vec<(String, Vec<String>)>, Failure> {
    let plan = check(args)?;
    let started = Instant::now();
    let mut progress = Progress::new(plan.classes.len(), args.verbose);
    let mut done: Vec<ClassTests> = Vec::new();
    let mut failed: Vec<(String, String)> = Vec::new();
    for (i, class) in plan.classes.iter().enumerate() {
        let mut config = plan.config.clone();
        config.class = class.clone();
        progress.start(i, class);
        let mut verifier =
            JvmVerifier::new(plan.java.clone(), plan.jars.clone(), plan.version, &plan.classpath, class)
                .map_err(|e| Failure::Internal(e.into()))?
                .with_jvm_args(&plan.config.jvm_args)
                .with_sandbox(std::sync::Arc::clone(&plan.sandbox));
        let budget = plan.config.budget.time;
        let res =
            engine::generate_tests(&config, &plan.write, &mut verifier, &mut |s| progress.stage(s, budget));
        if worker::cleanup::terminating() {
            // A signal is stopping the run (its workers were killed under the search): say nothing
            // and write nothing; the handler exits the process.
            return Ok(Vec::new());
        }
        match res {
            Ok(t) => {
                progress.finish(&t);
                done.push(t);
            }
            Err(e) => {
                progress.fail(class, &e);
                failed.push((class.clone(), format!("{e:#}")));
            }
        }
    }
    // Written whole or not at all: a signal arriving now either stops the run before this or waits
    // for the files.
    // Where report.html looks for sources, in order; a project's src/main/java is one more root.
    let sources = source_roots(args.sourcepath.as_deref());
    match worker::cleanup::unless_terminating(|| {
        write_outputs(&plan, &sources, &done, &failed, started.elapsed())
    }) {
        None => return Ok(Vec::new()),
        Some(written) => written.map_err(Failure::Internal)?,
    }
    progress.summary(&plan.out, &done, &failed);
    if !failed.is_empty() {
        return Err(Failure::Internal(anyhow::anyhow!(
            "{} of {} classes failed: {}",
            failed.len(),
            plan.classes.len(),
            failed.iter().map(|(c, e)| format!("{c}: {e}")).collect::<Vec<_>>().join("; ")
        )));
    }
    Ok(done.iter().map(|t| (t.class.clone(), t.files.iter().map(|f| f.relative_path()).collect())).collect())
}

/// The sandbox `--sandbox` asks for, resolved once for the run; a warning on stderr when no layer is
/// available (report.json says it again), bad input when the layer asked for is not.
fn sandbox_for(
    request: worker::SandboxRequest,
    java: &worker::Java,
) -> Result<std::sync::Arc<worker::Sandbox>, Failure> {
    let bad = |m: String| Failure::BadInput(m);
    let sandbox = worker::sandbox_for(request, java).map_err(|e| bad(e.to_string()))?;
    if !sandbox.layer().contains() {
        eprintln!("suitesmith: warning: {}", sandbox.layer());
    }
    Ok(sandbox)
}

/// Checks every input and resolves the classes; any problem is one line of bad input.
fn check(args: &Args) -> Result<Plan, Failure> {
    let bad = |m: String| Failure::BadInput(m);
    if args.verify_runs == 0 {
        return Err(bad("--verify-runs must be at least 1: unverified tests are never written".into()));
    }
    let config = configure(args)?;
    let given_cp = args.classpath.as_deref().unwrap_or_default();
    let mut cp_string = given_cp.to_string();
    if let Some(t) = &args.target {
        if !t.exists() {
            return Err(bad(format!("--target {} does not exist", t.display())));
        }
        let listed = given_cp.split(':').any(|e| Path::new(e) == t.as_path());
        if !listed {
            cp_string = format!("{}:{}", t.display(), given_cp);
        }
    }
    let cp = open_classpath(&cp_string)?;
    let classes: Vec<String> = if let Some(c) = &args.project_classes {
        c.clone()
    } else if let Some(c) = &args.class {
        if !cp.contains(ClassName::from_binary(c).internal()) {
            return Err(bad(format!("class {c} is not on the classpath")));
        }
        vec![c.clone()]
    } else if let Some(p) = &args.prefix {
        let dir = format!("{}/", package_internal(p.trim_end_matches('.')));
        let found = cp.top_level_classes(cp.class_names().filter(|n| n.starts_with(&dir)));
        if found.is_empty() {
            return Err(bad(format!("no class of the classpath is in package {p}")));
        }
        found
    } else if let Some(t) = &args.target {
        let entry = classfile::ClassPathEntry::open(t)
            .map_err(|e| bad(format!("cannot read --target {}: {e}", t.display())))?;
        let found = cp.top_level_classes(entry.class_names());
        if found.is_empty() {
            return Err(bad(format!("--target {} holds no testable class", t.display())));
        }
        found
    } else {
        return Err(bad("give the classes to test: --class, --prefix or --target".into()));
    };
    let shard = args.shard.as_deref().map(Shard::parse).transpose().map_err(bad)?;
    let classes = match shard {
        // A project's slice is taken over all its modules before the runs (run_project).
        Some(s) if args.project_classes.is_none() => {
            let sel = crate::shard::select(&cp, &classes, s);
            eprintln!(
                "shard {s}: {} of {} classes, estimated cost {} (balance of the slicing, max/mean: {:.2})",
                sel.classes.len(),
                classes.len(),
                sel.cost,
                sel.balance
            );
            sel.classes
        }
        _ => classes,
    };
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("suitesmith-tests"));
    crate::check_out_dir(&out, crate::OutDir::MayHoldFiles)?;
    let java = worker::Java::discover().map_err(|e| bad(e.to_string()))?;
    let sandbox = sandbox_for(config.sandbox, &java)?;
    let version = if args.junit == "5" { JUnitVersion::Five } else { JUnitVersion::Four };
    let jars = JUnitJars::debian(version).map_err(|e| bad(e.to_string()))?;
    if args.jacoco {
        worker::verify::JacocoJars::debian().map_err(|e| bad(e.to_string()))?;
    }
    let classpath: Vec<PathBuf> = cp_string.split(':').map(PathBuf::from).collect();
    let config = GenerateConfig { classpath: classpath.clone(), ..config };
    let style = match version {
        JUnitVersion::Four => junit::Style::JUnit4,
        JUnitVersion::Five => junit::Style::JUnit5,
    };
    let mut write = WriteConfig::new(style);
    write.verify_runs = args.verify_runs;
    write.jacoco = args.jacoco;
    write.replay_check = args.replay_check;
    write.test_names = if args.test_names == names_arg(TestNames::Numbered) {
        TestNames::Numbered
    } else {
        TestNames::Descriptive
    };
    write.assertions = if args.assertions == AssertionStrategy::Mutation.name() {
        AssertionStrategy::Mutation
    } else {
        AssertionStrategy::All
    };
    write.contracts = args.contracts == "on";
    write.post_budget = Some(match &args.post_budget {
        Some(b) => parse_duration(b)?,
        None => config.budget.time.unwrap_or(engine::DEFAULT_BUDGET).max(MIN_POST_BUDGET),
    });
    Ok(Plan { classes, classpath, config, write, java, sandbox, jars, version, out, shard })
}

/// The run's configuration as far as the arguments decide it, before any file is read: what no
/// argument sets is the product's (`GenerateConfig::standard`); the classpath and the class are
/// the caller's to set.
pub(crate) fn configure(args: &Args) -> Result<GenerateConfig, Failure> {
    let bad = |m: String| Failure::BadInput(m);
    let mut budget = search::Budget::time(parse_duration(&args.budget)?);
    if args.evaluations == Some(0) {
        return Err(bad("--evaluations must be positive".into()));
    }
    budget.evaluations = args.evaluations;
    let criteria = parse_criteria(&args.criteria)?;
    let techniques = args.techniques.config()?;
    let sandbox: worker::SandboxRequest = args.sandbox.parse().map_err(bad)?;
    let standard = GenerateConfig::standard(Vec::new(), "", budget, args.seed);
    Ok(GenerateConfig {
        criteria,
        algorithm: args.algorithm.algorithm(),
        workers: args.workers.unwrap_or(standard.workers).max(1),
        techniques,
        jvm_args: jvm_args(&args.jvm_args)?,
        sandbox,
        existing: args.existing.clone(),
        ..standard
    })
}

/// `--project`: crate::project finds the modules and their classes; each module is a plain run into
/// its scratch directory of the classes whose tests are not up to date (crate::incremental), and
/// the tests are installed only when every run is done.
fn run_project(args: &Args, dir: &Path) -> Result<(), Failure> {
    let sel = crate::project::Selection {
        class: args.class.as_deref(),
        prefix: args.prefix.as_deref(),
        out: args.out.as_deref(),
    };
    let (build, mut modules) = crate::project::open(dir, &sel)?;
    if let Some(text) = &args.shard {
        let shard = Shard::parse(text).map_err(Failure::BadInput)?;
        modules = shard_modules(modules, shard)?;
    }
    // `open` checked that it is a directory.
    let root = dir.canonicalize().with_context(|| format!("reading {}", dir.display()))?;
    let mut state = crate::incremental::Incremental::start(&root, build, args.force)?;
    let mut runs = Vec::new();
    for m in &modules {
        let run_args = module_args(args, dir, build, m);
        eprintln!("module {}: {} classes", m.name, m.classes.len());
        let tests = std::path::absolute(&m.tests).unwrap_or_else(|_| m.tests.clone());
        let key = run_args.generation_key(tests.strip_prefix(&root).unwrap_or(&tests));
        let stale = state.stale(m, &key);
        runs.push((run_args, key, stale));
    }
    // The project's own tests run once, and only when a class is to be searched; only those that
    // can reach a class to be searched, when that can be told.
    let existing = if args.no_complement || runs.iter().all(|r| r.2.is_empty()) {
        None
    } else {
        let targets: std::collections::BTreeSet<String> =
            runs.iter().flat_map(|r| r.2.iter().cloned()).collect();
        let only = state.tests_reaching(&targets)?;
        crate::complement::measure(&root, build, &modules, only.as_deref())?.map(std::sync::Arc::new)
    };
    let mut installs = Vec::new();
    for (m, (mut run_args, key, stale)) in modules.iter().zip(runs) {
        if stale.is_empty() {
            installs.push(Vec::new());
            continue;
        }
        run_args.project_classes = Some(stale);
        run_args.existing.clone_from(&existing);
        // Earlier runs' files would be installed with this run's.
        if m.scratch.exists() {
            std::fs::remove_dir_all(&m.scratch)
                .with_context(|| format!("removing {}", m.scratch.display()))?;
        }
        let written = run_classes(&run_args)?;
        if worker::cleanup::terminating() {
            return Ok(());
        }
        installs.push(crate::project::planned_installs(m)?);
        state.record(m, &key, &written)?;
    }
    for (m, plan) in modules.iter().zip(&installs) {
        crate::project::install(plan)?;
        if !plan.is_empty() {
            eprintln!("module {}: {} test files in {}", m.name, plan.len(), m.tests.display());
        }
    }
    state.finish(&modules)?;
    Ok(())
}

/// The arguments of one module's plain run: its classpath, its scratch directory as the output,
/// its sources for report.html, its JUnit (or a line saying what to add to the build).
fn module_args(args: &Args, dir: &Path, build: crate::project::Build, m: &crate::project::Module) -> Args {
    let mut run_args = args.clone();
    run_args.project = None;
    run_args.classpath = Some(m.classpath.clone());
    run_args.out = Some(m.scratch.clone());
    // report.html shows the module's own sources unless the user named others.
    let main_sources = dir.join(&m.name).join("src/main/java");
    if args.sourcepath.is_none() && main_sources.is_dir() {
        run_args.sourcepath = Some(main_sources.display().to_string());
    }
    match m.junit {
        Some(v) => run_args.junit = if v == JUnitVersion::Five { "5" } else { "4" }.to_string(),
        None => {
            let v = if args.junit == "5" { JUnitVersion::Five } else { JUnitVersion::Four };
            eprintln!("{}", crate::project::missing_junit_line(build, m, v));
        }
    }
    run_args
}

/// Slice `shard` of the classes of all `modules` together, each class costed on its module's
/// classpath; a module left with no class is not run.
fn shard_modules(
    modules: Vec<crate::project::Module>,
    shard: Shard,
) -> Result<Vec<crate::project::Module>, Failure> {
    let mut costs = Vec::new();
    let mut owner = Vec::new();
    for (k, m) in modules.iter().enumerate() {
        let cp = open_classpath(&m.classpath)?;
        for c in &m.classes {
            costs.push((c.clone(), crate::shard::cost(&cp, c)));
            owner.push(k);
        }
    }
    let sel = crate::shard::select_costed(&costs, shard);
    eprintln!(
        "shard {shard}: {} of {} classes of the project, estimated cost {} (balance of the slicing, max/mean: {:.2})",
        sel.classes.len(),
        costs.len(),
        sel.cost,
        sel.balance
    );
    let mut picked: Vec<Vec<String>> = vec![Vec::new(); modules.len()];
    for &i in &sel.positions {
        picked[owner[i]].push(costs[i].0.clone());
    }
    let mut kept = Vec::new();
    for (mut m, classes) in modules.into_iter().zip(picked) {
        if !classes.is_empty() {
            m.classes = classes;
            kept.push(m);
        }
    }
    Ok(kept)
}

/// `line,branch,...` in EvoSuite's names (case-insensitive), without repeats.
/// The user's `--jvm-arg` flags, checked: each is one flag (`-...`, options with a value in their
/// `--option=value` form), and none replaces what we put on the command line ourselves: the
/// classpath, the main class, and the directories the guards keep the tests in. (The workers and
/// the verification put their own `java.io.tmpdir` after the user's flags, so it would win anyway;
/// the refusal tells the user instead of ignoring the flag.)
fn jvm_args(args: &[String]) -> Result<Vec<String>, Failure> {
    const OURS: &[&str] = &[
        "-cp",
        "-classpath",
        "--class-path",
        "-jar",
        "-m",
        "--module",
        "-Djava.io.tmpdir",
        "-Duser.dir",
        "-Duser.home",
    ];
    for a in args {
        let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
        if !a.starts_with('-') || a.contains(char::is_whitespace) {
            return Err(Failure::BadInput(format!(
                "--jvm-arg {a:?} is not one JVM flag (give an option's value as --option=value)"
            )));
        }
        if OURS.contains(&name) {
            return Err(Failure::BadInput(format!("--jvm-arg {a:?} would replace suitesmith's own {name}")));
        }
    }
    Ok(args.to_vec())
}

fn parse_criteria(s: &str) -> Result<Vec<Criterion>, Failure> {
    let mut out = Vec::new();
    for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let c = Criterion::from_name(&name.to_ascii_lowercase()).ok_or_else(|| {
            let known: Vec<&str> = Criterion::DEFAULT.iter().map(|c| c.name()).collect();
            Failure::BadInput(format!("unknown criterion {name:?}: expected some of {}", known.join(",")))
        })?;
        if !out.contains(&c) {
            out.push(c);
        }
    }
    if out.is_empty() {
        return Err(Failure::BadInput("--criteria names no criterion".into()));
    }
    Ok(out)
}

/// Writes the test files, statistics.csv, report.json and report.html, each through a temporary file.
fn write_outputs(
    plan: &Plan,
    sources: &[PathBuf],
    done: &[ClassTests],
    failed: &[(String, String)],
    total: Duration,
) -> anyhow::Result<()> {
    let out = &plan.out;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    for t in done {
        for f in t.files.iter().chain(&t.violation_file) {
            write_file(&out.join(f.relative_path()), f.source.as_bytes())?;
        }
    }
    write_file(
        &out.join("statistics.csv"),
        report::statistics_csv(done, &plan.config.criteria, plan.config.seed).as_bytes(),
    )?;
    let shard = plan.shard.map(|s| s.to_string());
    let json =
        report::report_json(done, failed, &plan.config, &plan.write, plan.sandbox.layer(), shard, total);
    write_file(&out.join("report.json"), json.as_bytes())?;
    write_file(&out.join("report.html"), crate::html::report_html(done, sources).as_bytes())?;
    Ok(())
}

/// The roots of `--sourcepath` (`:`-separated; empty entries skipped).
fn source_roots(sourcepath: Option<&str>) -> Vec<PathBuf> {
    sourcepath.map_or(Vec::new(), |s| s.split(':').filter(|e| !e.is_empty()).map(PathBuf::from).collect())
}

fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).with_context(|| format!("writing in {}", dir.display()))?;
    tmp.write_all(bytes)?;
    tmp.persist(path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// `on` or `off`, as `--contracts` spells a switch.
fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// The progress display: a bar redrawn in place on a terminal (stderr), plain lines otherwise.
struct Progress {
    terminal: bool,
    /// Print every note of a class, not just how many there are.
    verbose: bool,
    classes: usize,
    index: usize,
    class: String,
    last_line: Instant,
}

impl Progress {
    fn new(classes: usize, verbose: bool) -> Progress {
        Progress {
            terminal: std::io::stderr().is_terminal(),
            verbose,
            classes,
            index: 0,
            class: String::new(),
            last_line: Instant::now(),
        }
    }

    fn start(&mut self, index: usize, class: &str) {
        self.index = index;
        self.class = class.to_string();
        if !self.terminal {
            eprintln!("[{}/{}] {class}: searching", index + 1, self.classes);
        }
        self.last_line = Instant::now();
    }

    fn stage(&mut self, stage: &Stage, budget: Option<Duration>) {
        if worker::cleanup::terminating() {
            return; // The signal handler's line is the last one.
        }
        let head = format!("[{}/{}] {}", self.index + 1, self.classes, self.class);
        let text = match *stage {
            Stage::Search { iteration, evaluations, covered, goals, elapsed } => {
                let rate = evaluations as f64 / elapsed.as_secs_f64().max(1e-3);
                let left = budget
                    .map_or(String::new(), |b| format!(", {}s left", b.saturating_sub(elapsed).as_secs()));
                let width = 20;
                let filled = (covered * width).checked_div(goals).unwrap_or(0).min(width);
                let bar = format!("{}{}", "#".repeat(filled), "-".repeat(width - filled));
                if !self.terminal && self.last_line.elapsed() < Duration::from_secs(10) {
                    return;
                }
                format!(
                    "{head} [{bar}] {covered}/{goals} goals, generation {iteration}, {rate:.0} tests/s{left}"
                )
            }
            Stage::Post { phase, left } => {
                let what = match phase {
                    Phase::Minimising => "minimising".to_string(),
                    Phase::Asserting => "adding assertions".to_string(),
                    Phase::Verifying { round } => format!("compiling and running the tests (round {round})"),
                };
                let left =
                    left.map_or(String::new(), |l| format!(", {}s of post-processing left", l.as_secs()));
                format!("{head}: {what}{left}")
            }
        };
        self.last_line = Instant::now();
        if self.terminal {
            eprint!("\r\x1b[2K{text}");
        } else {
            eprintln!("{text}");
        }
    }

    fn clear(&self) {
        if self.terminal {
            eprint!("\r\x1b[2K");
        }
    }

    fn finish(&self, t: &ClassTests) {
        self.clear();
        let cov: Vec<String> = t
            .coverage
            .iter()
            .filter(|c| matches!(c.criterion, Criterion::Line | Criterion::Branch))
            .map(|c| format!("{} {:.1} %", c.criterion.name(), report::percent(c.covered, c.total)))
            .collect();
        eprintln!(
            "[{}/{}] {}: {} tests, {} assertions; {}",
            self.index + 1,
            self.classes,
            t.class,
            t.tests.len(),
            t.assertions(),
            cov.join(", ")
        );
        if let Some(c) = &t.complement {
            let union: Vec<String> = c
                .criteria
                .iter()
                .filter(|k| matches!(k.criterion, Criterion::Line | Criterion::Branch))
                .map(|k| {
                    let (e, u) = (report::percent(k.existing, k.total), report::percent(k.union, k.total));
                    format!("{} {e:.1} % -> {u:.1} %", k.criterion.name())
                })
                .collect();
            eprintln!("  over the project's own tests: {}", union.join(", "));
        }
        // One line per contract violation: it is a bug report, not a note.
        for v in &t.violations {
            let test = t.violation_file.as_ref().map_or(String::new(), |f| {
                format!(" ({}.{})", f.class_name, v.test.name.as_deref().unwrap_or_default())
            });
            eprintln!("  violation: {}.{}: {}: {}{test}", t.class, v.method, v.kind.name(), v.message);
        }
        if self.verbose {
            for l in &t.log {
                eprintln!("  {l}");
            }
        } else if !t.log.is_empty() {
            eprintln!("  {} notes in report.json (--verbose prints them)", t.log.len());
        }
    }

    fn fail(&self, class: &str, e: &engine::EngineError) {
        self.clear();
        eprintln!("[{}/{}] {class}: failed: {e}", self.index + 1, self.classes);
    }

    fn summary(&self, out: &Path, done: &[ClassTests], failed: &[(String, String)]) {
        let files: usize = done.iter().map(|t| t.files.len()).sum();
        let tests: usize = done.iter().map(|t| t.tests.len()).sum();
        let violations: usize = done.iter().map(|t| t.violations.len()).sum();
        eprintln!(
            "wrote {files} test files ({tests} tests) for {} classes to {}{}{}",
            done.len(),
            out.display(),
            if violations == 0 {
                String::new()
            } else {
                format!(", and {violations} contract violations as failing tests (*ViolationTest.java)")
            },
            if failed.is_empty() { String::new() } else { format!("; {} classes failed", failed.len()) }
        );
    }
}
