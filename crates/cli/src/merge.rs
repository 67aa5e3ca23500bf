//! `suitesmith merge --out DIR SHARD_DIR...` (docs/scale.md): the output directories of
//! `generate --shard I/N` runs put together as one run's: every test file, one statistics.csv (the
//! rows in class order, as one run writes them), one report.json (the classes in class order,
//! the shards' failures, their times added) and one report.html (every shard's classes, read back
//! from their pages). The shards must have run with one configuration (the shard and the worker
//! count aside) and must not write the same file twice. Bad input is one line
//! and exit 2 with nothing written; the result appears whole (written beside `--out`, then renamed).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::Value;

use crate::Failure;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The output directories of the shards' `generate --shard` runs.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Where the merged tests, statistics.csv and report.json go (a new or empty directory).
    #[arg(long)]
    out: PathBuf,
}

/// One shard's output: its test files (relative path -> bytes), statistics rows and report.
struct ShardOutput {
    files: BTreeMap<PathBuf, Vec<u8>>,
    header: String,
    rows: Vec<String>,
    report: Value,
    /// The data of its report.html.
    page: report::ReportData,
}

pub fn run(args: &Args) -> Result<(), Failure> {
    let shards: Vec<ShardOutput> = args.dirs.iter().map(|d| read_shard(d)).collect::<Result<_, _>>()?;
    crate::check_out_dir(&args.out, crate::OutDir::MustBeEmpty)?;
    let merged = merge(&args.dirs, shards)?;
    write_whole(&args.out, &merged).map_err(Failure::Internal)?;
    eprintln!(
        "merged {} shard directories into {} ({} files)",
        args.dirs.len(),
        args.out.display(),
        merged.len()
    );
    Ok(())
}

fn bad(m: String) -> Failure {
    Failure::BadInput(m)
}

fn read_shard(dir: &Path) -> Result<ShardOutput, Failure> {
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .map_err(|e| bad(format!("{} is not a generate output: {name}: {e}", dir.display())))
    };
    let report: Value = serde_json::from_str(&read("report.json")?)
        .map_err(|e| bad(format!("{}: report.json does not parse: {e}", dir.display())))?;
    let stats = read("statistics.csv")?;
    let mut lines = stats.lines();
    let header = lines.next().unwrap_or_default().to_string();
    let rows = lines.filter(|l| !l.is_empty()).map(str::to_string).collect();
    let mut files = BTreeMap::new();
    collect_files(dir, dir, &mut files).map_err(|e| bad(format!("cannot read {}: {e}", dir.display())))?;
    files.remove(Path::new("report.json"));
    files.remove(Path::new("statistics.csv"));
    files.remove(Path::new("report.html"));
    let page = report::embedded(&read("report.html")?)
        .map_err(|e| bad(format!("{}: report.html: {e}", dir.display())))?;
    Ok(ShardOutput { files, header, rows, report, page })
}

fn collect_files(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(root, &path, out)?;
        } else {
            let rel = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            out.insert(rel, std::fs::read(&path)?);
        }
    }
    Ok(())
}

/// The configuration a shard ran with, without what may differ between shards.
fn shared_configuration(report: &Value) -> Value {
    let mut c = report.get("configuration").cloned().unwrap_or(Value::Null);
    if let Some(m) = c.as_object_mut() {
        m.remove("shard");
        m.remove("workers");
    }
    c
}

/// The merged output: relative path -> bytes.
fn merge(dirs: &[PathBuf], shards: Vec<ShardOutput>) -> Result<BTreeMap<PathBuf, Vec<u8>>, Failure> {
    let first = &shards[0];
    let mut files: BTreeMap<PathBuf, Vec<u8>> = BTreeMap::new();
    let (mut rows, mut classes, mut failed, mut seconds, mut merged_from) =
        (vec![], vec![], vec![], 0.0, vec![]);
    for (dir, s) in dirs.iter().zip(&shards) {
        if shared_configuration(&s.report) != shared_configuration(&first.report) || s.header != first.header
        {
            return Err(bad(format!(
                "{} ran with another configuration than {}",
                dir.display(),
                dirs[0].display()
            )));
        }
        for (path, bytes) in &s.files {
            if files.insert(path.clone(), bytes.clone()).is_some() {
                return Err(bad(format!(
                    "{} is in more than one shard (at {})",
                    path.display(),
                    dir.display()
                )));
            }
        }
        rows.extend(s.rows.iter().cloned());
        let list = |k: &str| s.report.get(k).and_then(Value::as_array).cloned().unwrap_or_default();
        classes.extend(list("classes"));
        failed.extend(list("failed"));
        seconds += s.report.get("total_seconds").and_then(Value::as_f64).unwrap_or(0.0);
        merged_from.push(s.report.pointer("/configuration/shard").cloned().unwrap_or(Value::Null));
    }
    let class_of = |v: &Value| v.get("class").and_then(Value::as_str).unwrap_or_default().to_string();
    classes.sort_by_key(|v| class_of(v));
    failed.sort_by_key(|v| class_of(v));
    rows.sort_by(|a, b| a.split(',').next().cmp(&b.split(',').next()));
    let mut report = first.report.clone();
    report["configuration"]["shard"] = Value::Null;
    report["classes"] = Value::Array(classes);
    report["failed"] = Value::Array(failed);
    report["total_seconds"] = seconds.into();
    report["merged_shards"] = Value::Array(merged_from);
    let mut json = serde_json::to_string_pretty(&report).unwrap_or_default();
    json.push('\n');
    files.insert(PathBuf::from("report.json"), json.into_bytes());
    let mut csv = first.header.clone();
    for r in rows {
        csv.push('\n');
        csv.push_str(&r);
    }
    csv.push('\n');
    files.insert(PathBuf::from("statistics.csv"), csv.into_bytes());
    files.insert(PathBuf::from("report.html"), merged_page(&shards).into_bytes());
    Ok(files)
}

/// One report.html of every shard's classes.
fn merged_page(shards: &[ShardOutput]) -> String {
    let pages: Vec<report::ReportData> = shards.iter().map(|s| s.page.clone()).collect();
    let n = pages.iter().map(|p| p.classes.len()).sum();
    report::render(&report::merge(crate::html::title(n), pages))
}

/// Writes `files` into a fresh directory beside `out`, then renames it into place.
fn write_whole(out: &Path, files: &BTreeMap<PathBuf, Vec<u8>>) -> anyhow::Result<()> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).with_context(|| format!("creating {}", parent.display()))?;
    let tmp = tempfile::Builder::new().prefix(".suitesmith-merge").tempdir_in(&parent)?;
    for (rel, bytes) in files {
        let path = tmp.path().join(rel);
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    if out.exists() {
        std::fs::remove_dir(out).with_context(|| format!("replacing the empty {}", out.display()))?;
    }
    let kept = tmp.keep();
    std::fs::rename(&kept, out).with_context(|| format!("moving the merged files to {}", out.display()))?;
    Ok(())
}
