//! Compiles `java/runtime/src/**/*.java` with the JDK's `javac --release 8` and packs the classes into
//! `$OUT_DIR/runtime.jar`, which `src/runtime.rs` embeds (DESIGN.md §3.1: the worker is compiled by
//! the build and embedded in the binary). The jar is deterministic (sorted entries, fixed
//! timestamps), so its hash names the cache file. `java/runtime/build.sh` runs the same javac.
//! A missing javac or a compile error fails the build with a clear message: there is no fallback.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    if let Err(msg) = run() {
        // `cargo:warning` lines survive in cargo's output even when the error text is long.
        for line in msg.lines() {
            println!("cargo:warning={line}");
        }
        eprintln!("{msg}");
        std::process::exit(1);
    }
}

// The build runs javac: process spawning is this crate's job (STYLE.md rule 2, clippy.toml).
#[allow(clippy::disallowed_methods)]
fn run() -> Result<(), String> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    let src = manifest.join("../../java/runtime/src");
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    println!("cargo:rerun-if-changed={}", src.display());
    println!("cargo:rerun-if-env-changed=JAVA_HOME");

    let mut sources = Vec::new();
    collect(&src, "java", &mut sources).map_err(|e| format!("cannot list {}: {e}", src.display()))?;
    sources.sort();
    if sources.is_empty() {
        return Err(format!("suitesmith worker: no Java sources under {}", src.display()));
    }
    for s in &sources {
        println!("cargo:rerun-if-changed={}", s.display());
    }

    let javac = match std::env::var_os("JAVA_HOME") {
        Some(home) if Path::new(&home).join("bin/javac").is_file() => Path::new(&home).join("bin/javac"),
        _ => PathBuf::from("javac"),
    };
    let classes = out.join("runtime-classes");
    let _ = std::fs::remove_dir_all(&classes);
    std::fs::create_dir_all(&classes).map_err(|e| e.to_string())?;
    let output = Command::new(&javac)
        .args(["--release", "8", "-Xlint:-options", "-g", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .args(&sources)
        .output()
        .map_err(|e| {
            format!(
                "suitesmith worker: cannot run `{}` ({e}). Building suitesmith needs a JDK (8 or later) \
                 with javac: install one and put it on PATH or set JAVA_HOME.",
                javac.display()
            )
        })?;
    if !output.status.success() {
        return Err(format!(
            "suitesmith worker: javac failed to compile java/runtime ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }

    let mut files = Vec::new();
    collect(&classes, "class", &mut files).map_err(|e| e.to_string())?;
    let mut entries: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&classes).map(Path::to_path_buf).unwrap_or_else(|_| p.clone());
            let name =
                rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            (name, p)
        })
        .collect();
    entries.sort();
    let jar = pack(&entries).map_err(|e| format!("suitesmith worker: cannot write the runtime jar: {e}"))?;
    let hash = fnv1a(&jar);
    std::fs::write(out.join("runtime.jar"), &jar).map_err(|e| e.to_string())?;
    println!("cargo:rustc-env=SUITESMITH_RUNTIME_HASH={hash:016x}");
    Ok(())
}

fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, ext, out)?;
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
    Ok(())
}

/// A jar is a zip with a manifest first; stored entries with the zip epoch as timestamp keep the
/// bytes reproducible.
fn pack(entries: &[(String, PathBuf)]) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    use zip::write::SimpleFileOptions;
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("META-INF/MANIFEST.MF", options)?;
    zip.write_all(b"Manifest-Version: 1.0\r\nCreated-By: suitesmith build.rs\r\n\r\n")?;
    for (name, path) in entries {
        zip.start_file(name.as_str(), options)?;
        zip.write_all(&std::fs::read(path)?)?;
    }
    Ok(zip.finish()?.into_inner())
}

/// FNV-1a, 64 bits: a stable content hash with no dependency (std's hashers may change).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
