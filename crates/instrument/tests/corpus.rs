//! Every class of every corpus jar, instrumented with all probe kinds, guards
//! and the reset method, loads and links in a JVM with `-Xverify:all`: 0 VerifyErrors, and every
//! method left unchanged is listed with its reason. One test per jar so they run in parallel. Some
//! jars, and every fixture area, again with mutant schemata (`Options::schemata`): every method
//! keeps its schemata unless it would pass the 64 KB limit.

mod common;

use instrument::Options;

fn check_corpus_jar(file: &str) {
    check_corpus_jar_with(file, &Options::all());
}

fn check_corpus_jar_with(file: &str, opts: &Options) {
    let jar = test_support::corpus_jars()
        .into_iter()
        .find(|j| j.path.file_name().is_some_and(|n| n == file))
        .unwrap_or_else(|| panic!("{file} is not a corpus jar"));
    let out = tempfile::tempdir().expect("tempdir");
    let start = std::time::Instant::now();
    let (plan, reports) = common::instrument_container(&jar.path, out.path(), opts);
    let instrumented = start.elapsed();
    let verified = common::verify_all(out.path(), &jar.deps);
    let unchanged: Vec<String> = reports
        .iter()
        .flat_map(|r| r.unchanged.iter().map(move |u| format!("{}.{}: {}", r.class, u.method, u.reason)))
        .collect();
    eprintln!(
        "{file}: {} classes, {} probes, {} goals, instrumented in {instrumented:?}, verified in {:?}; {}",
        reports.len(),
        plan.n_probes(),
        plan.goals().len(),
        start.elapsed() - instrumented,
        verified.summary
    );
    for u in &unchanged {
        eprintln!("  unchanged: {u}");
    }
    assert_eq!(verified.classes, reports.len(), "{}", verified.summary);
    assert!(verified.failures.is_empty(), "{file}: {}\n{}", verified.summary, verified.failures.join("\n"));
    // Only methods near the 64 KB limit may be left unchanged, or without their schemata.
    for u in &unchanged {
        assert!(u.contains("65535") || u.contains("needs a stack-map frame"), "unexpected: {u}");
    }
    let sites: usize = reports.iter().map(|r| r.mutant_sites.len()).sum();
    assert_eq!(opts.schemata, sites > 0, "{file}: {sites} schemata sites");
    for r in &reports {
        for (m, reason) in &r.unmutated {
            eprintln!("  unmutated: {}.{m}: {reason}", r.class);
            assert!(reason.contains("65535") || reason.contains("needs a stack-map frame"), "{m}: {reason}");
        }
    }
}

fn schemata() -> Options {
    Options { schemata: true, ..Options::all() }
}

macro_rules! corpus_tests {
    ($($name:ident => $file:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            check_corpus_jar($file);
        }
    )*};
}

corpus_tests! {
    commons_lang3 => "commons-lang3.jar",
    commons_io => "commons-io.jar",
    commons_codec => "commons-codec.jar",
    guava => "guava.jar",
    jsoup => "jsoup.jar",
    commons_collections4 => "commons-collections4.jar",
    okio => "okio.jar",
    commons_math3 => "commons-math3.jar",
    gson => "gson.jar",
    commons_csv => "commons-csv.jar",
    commons_cli => "commons-cli.jar",
    zxing_core => "core.jar",
    jackson_core => "jackson-core.jar",
    joda_time => "joda-time.jar",
    commons_text => "commons-text.jar",
    jgrapht_core => "jgrapht-core.jar",
    xz => "xz.jar",
}

macro_rules! schemata_tests {
    ($($name:ident => $file:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            check_corpus_jar_with($file, &schemata());
        }
    )*};
}

schemata_tests! {
    schemata_commons_lang3 => "commons-lang3.jar",
    schemata_commons_math3 => "commons-math3.jar",
    schemata_guava => "guava.jar",
    schemata_joda_time => "joda-time.jar",
    schemata_xz => "xz.jar",
}

/// Every fixture area of the project (STYLE.md: "rewrite every fixture"), including the bytecode
/// area's jumps near and over 32 KB: instrumented, all of it links under `-Xverify:all`.
#[test]
fn every_fixture_area() {
    let root = test_support::workspace_root().join("fixtures/classes");
    let mut areas: Vec<_> =
        std::fs::read_dir(&root).expect("fixtures/classes").map(|e| e.expect("entry").path()).collect();
    areas.sort();
    for (area, opts) in areas.iter().flat_map(|a| [(a, Options::all()), (a, schemata())]) {
        let out = tempfile::tempdir().expect("tempdir");
        let (_, reports) = common::instrument_container(area, out.path(), &opts);
        let verified = common::verify_all(out.path(), &[]);
        eprintln!("{}: {} classes; {}", area.display(), reports.len(), verified.summary);
        for r in &reports {
            for u in &r.unchanged {
                eprintln!("  unchanged: {}.{}: {}", r.class, u.method, u.reason);
                assert!(u.reason.contains("65535") || u.reason.contains("stack-map frame"), "{u:?}");
            }
            for (m, reason) in &r.unmutated {
                eprintln!("  unmutated: {}.{m}: {reason}", r.class);
                assert!(reason.contains("65535") || reason.contains("stack-map frame"), "{m}: {reason}");
            }
        }
        assert!(verified.failures.is_empty(), "{}: {}", area.display(), verified.failures.join("\n"));
    }
}
