//! With no probes, no guards and no reset (`Options::none()`, what `suitesmith
//! instrument --probes none` does), every class of the 17-jar corpus comes out exactly as it went in,
//! byte for byte: interfaces and other classes without a `Code` attribute included, which once got
//! an unused "Code" constant. The jars are spread over the machine's cores (std threads), which keeps
//! the test near a minute in a debug build.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use instrument::Options;

/// (classes checked, the names of those that changed or failed, with why).
fn check_jar(jar: &Path) -> (usize, Vec<String>) {
    let entry = classfile::ClassPathEntry::open(jar).expect("open corpus jar");
    let (mut n, mut bad) = (0, Vec::new());
    for item in entry.class_files() {
        let (name, bytes) = item.expect("read class");
        n += 1;
        match instrument::instrument_standalone(&bytes, &Options::none()) {
            Ok((out, _, report)) if out == bytes => {
                assert!(report.unchanged.is_empty(), "{name}: methods left unchanged with no probes")
            }
            Ok((out, ..)) => {
                let at =
                    out.iter().zip(&bytes).position(|(a, b)| a != b).unwrap_or(out.len().min(bytes.len()));
                bad.push(format!(
                    "{name}: {} bytes in, {} out, first difference at {at}",
                    bytes.len(),
                    out.len()
                ))
            }
            Err(e) => bad.push(format!("{name}: {e}")),
        }
    }
    (n, bad)
}

#[test]
fn no_probes_leaves_every_corpus_class_byte_identical() {
    let jars: Vec<PathBuf> = test_support::corpus_jars().into_iter().map(|j| j.path).collect();
    let next = Mutex::new(jars.iter());
    let results = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(jars.len());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(jar) = next.lock().expect("queue").next() {
                    let r = check_jar(jar);
                    results.lock().expect("results").push((jar.clone(), r));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("results");
    results.sort();
    let mut total = 0;
    let mut changed = Vec::new();
    for (jar, (n, bad)) in &results {
        eprintln!("{}: {n} classes, {} not identical", jar.display(), bad.len());
        total += n;
        changed.extend(bad.iter().cloned());
    }
    eprintln!("{} jars, {total} classes, {} byte-identical", results.len(), total - changed.len());
    assert_eq!(results.len(), 17);
    assert!(total > 6_000, "only {total} classes: is the corpus complete?");
    assert!(changed.is_empty(), "{} of {total} classes changed:\n{}", changed.len(), changed.join("\n"));
}
