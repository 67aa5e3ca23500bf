//! `suitesmith instrument`: an instrumented copy of every class of a classpath, like JaCoCo's offline
//! mode. A debugging aid for users, and the way the class-file layer is checked from outside on jars it
//! was never tested on. Classes are planned together, so probe ids are unique across the output.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::Failure;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Classpath (jars and directories, `:`-separated) whose classes are written. Jars named by their
    /// manifests' `Class-Path` are not copied.
    #[arg(long)]
    classpath: String,
    /// Output directory (created if missing; must be empty or not exist).
    #[arg(long)]
    out: PathBuf,
    /// `all` inserts every probe kind, redirects escaping calls and adds the static reset method;
    /// `none` decodes and re-encodes every method unchanged.
    #[arg(long, value_enum, default_value = "all")]
    probes: Probes,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Probes {
    All,
    None,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let opts = match args.probes {
        Probes::All => instrument::Options::all(),
        Probes::None => instrument::Options::none(),
    };
    let entries = open_entries(&args.classpath)?;
    crate::check_out_dir(&args.out, crate::OutDir::MustBeEmpty)?;

    // Read every class first: bad input must be found before anything is written.
    let mut classes: Vec<(String, Vec<u8>)> = Vec::new();
    for entry in &entries {
        for item in entry.class_files() {
            let (name, bytes) =
                item.map_err(|e| Failure::BadInput(format!("cannot read {}: {e}", entry.path().display())))?;
            classes.push((name, bytes));
        }
    }
    classes.sort_by(|a, b| a.0.cmp(&b.0));
    classes.dedup_by(|a, b| a.0 == b.0);

    // One plan over every class, so probe ids do not collide between classes.
    let refs: Vec<&[u8]> = classes.iter().map(|(_, b)| b.as_slice()).collect();
    let (plan, results) = instrument::instrument_classes(&refs, &opts);

    let mut outputs: Vec<(String, Vec<u8>)> = Vec::with_capacity(classes.len());
    let (mut n_unchanged_classes, mut n_unchanged_methods, mut n_probes) = (0usize, 0usize, 0usize);
    let mut lines = Vec::new();
    for ((name, bytes), result) in classes.iter().zip(results) {
        match result {
            Ok((out, report)) => {
                n_probes += report.probes;
                for u in &report.unchanged {
                    n_unchanged_methods += 1;
                    lines.push(format!("unchanged method {name}.{}: {}", u.method, u.reason));
                }
                outputs.push((name.clone(), out));
            }
            Err(reason) => {
                n_unchanged_classes += 1;
                lines.push(format!("unchanged class {name}: {reason}"));
                outputs.push((name.clone(), bytes.clone()));
            }
        }
    }

    // The runtime classes the probes and guards call, so that `java -cp OUT:...` runs.
    let runtime_jar = worker::runtime_jar().context("extracting the runtime jar")?;
    let runtime = classfile::ClassPathEntry::open(&runtime_jar).context("opening the runtime jar")?;
    for item in runtime.class_files() {
        outputs.push(item.context("reading the runtime jar")?);
    }

    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    for (name, bytes) in &outputs {
        let path = args.out.join(format!("{name}.class"));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    std::fs::write(args.out.join("suitesmith-plan.txt"), plan.dump()).context("writing the plan")?;
    for l in &lines {
        println!("{l}");
    }
    println!(
        "instrumented {} classes into {} ({} probes); {} classes and {} methods left unchanged",
        classes.len(),
        args.out.display(),
        n_probes,
        n_unchanged_classes,
        n_unchanged_methods
    );
    Ok(())
}

fn open_entries(cp: &str) -> Result<Vec<classfile::ClassPathEntry>, Failure> {
    let parts: Vec<&str> = cp.split(':').collect();
    if parts.iter().all(|p| p.is_empty()) {
        return Err(Failure::BadInput("the classpath is empty".to_string()));
    }
    parts
        .iter()
        .map(|p| {
            if p.is_empty() {
                return Err(Failure::BadInput(format!("the classpath {cp:?} has an empty entry")));
            }
            if !Path::new(p).exists() {
                return Err(Failure::BadInput(format!("classpath entry {p} does not exist")));
            }
            classfile::ClassPathEntry::open(Path::new(p))
                .map_err(|e| Failure::BadInput(format!("cannot read classpath entry {p}: {e}")))
        })
        .collect()
}
