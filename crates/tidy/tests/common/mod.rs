//! What the tidy tests share: the workspace root and its Rust sources.

// Each test crate that includes this module uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() && p.file_name().is_some_and(|n| n != "target") {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Every Rust file under `crates/`, as (path relative to the workspace root with `/`, contents),
/// in path order.
pub fn sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&root().join("crates"), &mut files);
    files
        .into_iter()
        .map(|f| {
            let src = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let rel = f.strip_prefix(root()).unwrap_or(&f).to_string_lossy().replace('\\', "/");
            (rel.trim_start_matches("./").to_string(), src)
        })
        .collect()
}

/// The library and binary sources: files under a crate's `src/`.
pub fn product_sources() -> Vec<(String, String)> {
    sources().into_iter().filter(|(f, _)| f.split('/').nth(2) == Some("src")).collect()
}
