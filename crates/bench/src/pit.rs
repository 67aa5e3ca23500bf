//! An independent mutation score for the written tests (docs/mutation.md): PIT
//! (`org.pitest:pitest-command-line` [`PIT_VERSION`], with `pitest-junit5-plugin`
//! [`JUNIT5_PLUGIN_VERSION`] for JUnit 5 suites) run on the class under test and its nested classes
//! with the compiled written tests, PIT's default mutators, [`Pit::threads`] minion threads (one
//! unless the bench's `--pit-threads` says otherwise) and PIT's own timeout factor,
//! everything in the run's work directory; its `mutations.xml` parsed into one [`Mutant`] per mutant
//! and summed up as a [`MutationScore`].
//!
//! The jars come from the tools cache that `scripts/fetch-tools.sh` fills from Maven Central
//! ([`PitJars::in_cache`]); the JUnit jars the tests run with are Debian's, the ones they were compiled
//! against (`worker::verify::JUnitJars`). This module does not decide whether PIT runs (the bench's
//! `--pit`) nor report the figures (`report`).

// PIT is a tool outside the engine, started by the benchmark as a user would (through
// `measure::run_measured`, which also kills it and its minions at the safety timeout).
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use worker::Java;
use worker::verify::{JUnitJars, JUnitVersion};

use crate::BenchError;
use crate::measure::run_measured;
use crate::report::fraction;

/// The PIT release the benchmark runs; `scripts/fetch-tools.sh` fetches the same.
pub const PIT_VERSION: &str = "1.30.2";
/// The release of PIT's JUnit 5 plugin.
pub const JUNIT5_PLUGIN_VERSION: &str = "1.2.3";
/// The script that fills the tools cache.
pub const FETCH_SCRIPT: &str = "scripts/fetch-tools.sh";
/// The file the script writes last, once every jar is in place.
const COMPLETE: &str = "COMPLETE";
const MAIN_CLASS: &str = "org.pitest.mutationtest.commandline.MutationCoverageReport";

/// PIT's jars in the tools cache: what its own JVM runs with, and the JUnit 5 plugin (added to both
/// that JVM and PIT's minions for JUnit 5 suites only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PitJars {
    /// PIT and its dependencies, in file-name order, without the JUnit 5 plugin.
    pub launch: Vec<PathBuf>,
    pub junit5_plugin: PathBuf,
}

impl PitJars {
    /// The tools cache: `$SUITESMITH_TOOLS`, else `$XDG_CACHE_HOME/suitesmith/tools`, else
    /// `~/.cache/suitesmith/tools` (the same rule as `scripts/fetch-tools.sh`).
    pub fn default_cache() -> PathBuf {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        if let Some(dir) = var("SUITESMITH_TOOLS") {
            return dir;
        }
        let base = var("XDG_CACHE_HOME")
            .or_else(|| var("HOME").map(|h| h.join(".cache")))
            .unwrap_or_else(std::env::temp_dir);
        base.join("suitesmith").join("tools")
    }

    /// The jars under `cache/pit-<version>/`; [`BenchError::ToolsMissing`] when the script has not
    /// run there (or did not finish).
    pub fn in_cache(cache: &Path) -> Result<PitJars, BenchError> {
        let dir = cache.join(format!("pit-{PIT_VERSION}"));
        let missing = || BenchError::ToolsMissing { dir: dir.clone(), script: FETCH_SCRIPT };
        if !dir.join(COMPLETE).is_file() {
            return Err(missing());
        }
        let mut jars: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|_| missing())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "jar"))
            .collect();
        jars.sort();
        let plugin = dir.join(format!("pitest-junit5-plugin-{JUNIT5_PLUGIN_VERSION}.jar"));
        let required = ["pitest", "pitest-entry", "pitest-command-line"]
            .map(|name| dir.join(format!("{name}-{PIT_VERSION}.jar")));
        if !plugin.is_file() || required.iter().any(|j| !jars.contains(j)) {
            return Err(missing());
        }
        jars.retain(|j| *j != plugin);
        Ok(PitJars { launch: jars, junit5_plugin: plugin })
    }
}

/// How PIT runs: its jars and a safety limit on the whole PIT process (PIT's own timeout factor
/// decides when a mutant's test run is a timeout).
#[derive(Debug, Clone)]
pub struct Pit {
    pub jars: PitJars,
    pub timeout: Duration,
    /// PIT's `--threads`: how many mutants it analyses at once. The score does not depend on it
    /// (each mutant's verdict comes from its own minion run); only PIT's wall time does, and a
    /// mutant near PIT's timeout may turn into a timeout on a busier machine.
    pub threads: usize,
}

/// What one PIT run measures.
#[derive(Debug, Clone, Copy)]
pub struct PitTarget<'a> {
    /// The class under test (binary name); its nested classes are mutated too.
    pub class: &'a str,
    /// The compiled test classes (binary names) PIT runs.
    pub test_classes: &'a [String],
    /// The directory holding the compiled test classes.
    pub tests_dir: &'a Path,
    /// The subject's classpath.
    pub classpath: &'a [PathBuf],
    pub junit: JUnitVersion,
    /// Extra JVM flags for the JVMs that run the tests (PIT's minions).
    pub jvm_args: &'a [String],
}

/// PIT's verdict on one mutant (`DetectionStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MutantStatus {
    Killed,
    Survived,
    NoCoverage,
    TimedOut,
    MemoryError,
    RunError,
    NonViable,
    NotStarted,
    Started,
    /// Set by PIT's commercial extensions only; counted as detected, as PIT does.
    Equivalent,
}

impl MutantStatus {
    fn parse(text: &str) -> Option<MutantStatus> {
        Some(match text {
            "KILLED" => MutantStatus::Killed,
            "SURVIVED" => MutantStatus::Survived,
            "NO_COVERAGE" => MutantStatus::NoCoverage,
            "TIMED_OUT" => MutantStatus::TimedOut,
            "MEMORY_ERROR" => MutantStatus::MemoryError,
            "RUN_ERROR" => MutantStatus::RunError,
            "NON_VIABLE" => MutantStatus::NonViable,
            "NOT_STARTED" => MutantStatus::NotStarted,
            "STARTED" => MutantStatus::Started,
            "EQUIVALENT" => MutantStatus::Equivalent,
            _ => return None,
        })
    }
}

/// One mutant of PIT's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant {
    pub class: String,
    pub method: String,
    pub line: u32,
    /// The mutator's simple class name, e.g. `MathMutator`.
    pub mutator: String,
    pub status: MutantStatus,
    /// PIT's own `detected` flag: killed, timed out, memory or run error, non-viable, equivalent.
    pub detected: bool,
}

/// The counts of one class's mutants.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MutationScore {
    pub mutants: u32,
    pub killed: u32,
    pub survived: u32,
    pub no_coverage: u32,
    pub timed_out: u32,
    /// Memory errors, run errors, non-viable, not started, equivalent.
    pub other: u32,
    /// PIT's detected mutants (killed, timed out, ...): the numerator of its mutation score.
    pub detected: u32,
}

impl MutationScore {
    pub fn of(mutants: &[Mutant]) -> MutationScore {
        let mut s = MutationScore { mutants: mutants.len() as u32, ..MutationScore::default() };
        for m in mutants {
            match m.status {
                MutantStatus::Killed => s.killed += 1,
                MutantStatus::Survived => s.survived += 1,
                MutantStatus::NoCoverage => s.no_coverage += 1,
                MutantStatus::TimedOut => s.timed_out += 1,
                _ => s.other += 1,
            }
            s.detected += u32::from(m.detected);
        }
        s
    }

    /// PIT's mutation score: detected / generated (a class without mutants counts as 1, as
    /// [`fraction`] counts a class without branches).
    pub fn score(&self) -> f64 {
        fraction((self.detected, self.mutants))
    }
}

/// Where one PIT run works: everything it writes is below `work`.
struct Dirs {
    work: PathBuf,
    /// The working directory of PIT's JVM and of its minions (PIT starts them in its own).
    cwd: PathBuf,
    tmp: PathBuf,
    home: PathBuf,
    report: PathBuf,
}

impl Pit {
    /// Runs PIT on `target` in `work_dir` (created; PIT's report, its logs, the JVMs' working,
    /// temporary and home directories all go there) and returns its mutants in report order.
    pub fn run(
        &self,
        java: &Java,
        target: &PitTarget<'_>,
        work_dir: &Path,
    ) -> Result<Vec<Mutant>, BenchError> {
        let work =
            std::path::absolute(work_dir).map_err(io(format!("cannot resolve {}", work_dir.display())))?;
        let dirs = Dirs {
            cwd: work.join("cwd"),
            tmp: work.join("tmp"),
            home: work.join("home"),
            report: work.join("report"),
            work,
        };
        for d in [&dirs.cwd, &dirs.tmp, &dirs.home] {
            std::fs::create_dir_all(d).map_err(io(format!("cannot create {}", d.display())))?;
        }
        let args = self.arguments(java, target, &dirs)?;
        let (stdout, stderr) = (dirs.work.join("pit.stdout"), dirs.work.join("pit.stderr"));
        let env = [("TMPDIR", dirs.tmp.as_path())];
        let measured = run_measured(&java.path, &args, &dirs.cwd, &env, &stdout, &stderr, self.timeout)?;
        if measured.timed_out {
            return Err(BenchError::Pit(format!("PIT was killed after {} s", self.timeout.as_secs())));
        }
        if measured.exit_code != Some(0) {
            return Err(BenchError::Pit(format!("PIT failed: {}", last_error(&stderr, &stdout))));
        }
        let xml = dirs.report.join("mutations.xml");
        let text = std::fs::read_to_string(&xml).map_err(io(format!("PIT wrote no {}", xml.display())))?;
        parse_mutations_xml(&text).map_err(|e| BenchError::Pit(format!("{}: {e}", xml.display())))
    }

    /// The `java` command line of one run (and the classpath file it names, written here).
    fn arguments(&self, java: &Java, target: &PitTarget<'_>, dirs: &Dirs) -> Result<Vec<String>, BenchError> {
        let junit = JUnitJars::debian(target.junit).map_err(|e| BenchError::Pit(e.to_string()))?;
        let mut launch = self.jars.launch.clone();
        // The minions' classpath: the tests, the subject, JUnit (and PIT's plugin for JUnit 5); PIT
        // adds its own jar. PIT's launch classpath stays out of it (`includeLaunchClasspath=false`),
        // so its commons-lang3 never shadows a subject's.
        let mut minion_cp =
            vec![std::path::absolute(target.tests_dir).map_err(io("cannot resolve the tests".into()))?];
        minion_cp.extend(target.classpath.iter().cloned());
        minion_cp.extend(junit.run);
        if target.junit == JUnitVersion::Five {
            launch.push(self.jars.junit5_plugin.clone());
            minion_cp.push(self.jars.junit5_plugin.clone());
        }
        let cp_file = dirs.work.join("classpath.txt");
        let cp_text: String = minion_cp.iter().map(|p| format!("{}\n", p.display())).collect();
        std::fs::write(&cp_file, cp_text).map_err(io(format!("cannot write {}", cp_file.display())))?;
        // Only the tests' and the subject's entries hold code to mutate (PIT's default is directories
        // only, and the subjects are jars); the target filter picks the class.
        let mutable: Vec<String> =
            minion_cp[..1 + target.classpath.len()].iter().map(|p| p.display().to_string()).collect();
        let contained = [
            format!("-Djava.io.tmpdir={}", dirs.tmp.display()),
            format!("-Duser.home={}", dirs.home.display()),
        ];
        let mut jvm_args = contained.to_vec();
        jvm_args.extend(target.jvm_args.iter().cloned());
        for (what, list) in [
            ("classpath entry", &mutable),
            ("JVM flag", &jvm_args),
            ("test class", &target.test_classes.to_vec()),
        ] {
            if let Some(bad) = list.iter().find(|s| s.contains(',')) {
                return Err(BenchError::Pit(format!(
                    "PIT takes comma-separated lists: {what} {bad:?} has a comma"
                )));
            }
        }
        let launch_cp: Vec<String> = launch.iter().map(|p| p.display().to_string()).collect();
        let mut args = contained.to_vec();
        args.extend(["-cp".into(), launch_cp.join(":"), MAIN_CLASS.into()]);
        let class = target.class;
        for (k, v) in [
            ("--reportDir", dirs.report.display().to_string()),
            ("--targetClasses", format!("{class},{class}$*")),
            ("--targetTests", target.test_classes.join(",")),
            // PIT insists on source directories; it only reads them for its HTML report.
            ("--sourceDirs", dirs.cwd.display().to_string()),
            ("--classPathFile", cp_file.display().to_string()),
            ("--mutableCodePaths", mutable.join(",")),
            ("--jvmArgs", jvm_args.join(",")),
            ("--jvmPath", java.path.display().to_string()),
            ("--outputFormats", "XML,CSV".into()),
            ("--threads", self.threads.max(1).to_string()),
        ] {
            args.extend([k.to_string(), v]);
        }
        // Failing (or flaky) written tests are left out of the analysis rather than failing it.
        for flag in [
            "includeLaunchClasspath=false",
            "timestampedReports=false",
            "skipFailingTests=true",
            "failWhenNoMutations=false",
        ] {
            args.push(format!("--{flag}"));
        }
        Ok(args)
    }
}

fn io(what: String) -> impl FnOnce(std::io::Error) -> BenchError {
    move |e| BenchError::Io { what, source: e }
}

/// The line that says why PIT failed: its exception, else the last non-empty line of its logs.
fn last_error(stderr: &Path, stdout: &Path) -> String {
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    let (err, out) = (read(stderr), read(stdout));
    let lines = || err.lines().chain(out.lines()).map(str::trim).filter(|l| !l.is_empty());
    lines()
        .find(|l| l.contains("Exception") || l.starts_with("Error"))
        .or_else(|| lines().next_back())
        .unwrap_or("no output")
        .to_string()
}

/// The mutants of PIT's `mutations.xml`, in file order. PIT writes one `<mutation>` element per line
/// with single-quoted attributes and text-only children; this reads exactly that shape.
pub fn parse_mutations_xml(text: &str) -> Result<Vec<Mutant>, String> {
    let mut out = Vec::new();
    if !text.contains("<mutations") {
        return Err("no <mutations> element".into());
    }
    for (i, chunk) in text.split("<mutation ").skip(1).enumerate() {
        let bad = |what: &str| format!("mutation {}: {what}", i + 1);
        let head = chunk.split_once('>').map(|(h, _)| h).ok_or_else(|| bad("unterminated tag"))?;
        let status_text = attribute(head, "status").ok_or_else(|| bad("no status"))?;
        let status =
            MutantStatus::parse(status_text).ok_or_else(|| bad(&format!("unknown status {status_text}")))?;
        let detected = match attribute(head, "detected") {
            Some("true") => true,
            Some("false") => false,
            _ => return Err(bad("no detected flag")),
        };
        let child = |name: &str| element(chunk, name).ok_or_else(|| bad(&format!("no <{name}>")));
        let mutator = child("mutator")?;
        out.push(Mutant {
            class: child("mutatedClass")?,
            method: child("mutatedMethod")?,
            line: child("lineNumber")?.parse().map_err(|_| bad("bad lineNumber"))?,
            mutator: mutator.rsplit('.').next().unwrap_or(&mutator).to_string(),
            status,
            detected,
        });
    }
    Ok(out)
}

/// The value of `name='...'` (or `"..."`) in a tag's text.
fn attribute<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    for quote in ['\'', '"'] {
        let key = format!("{name}={quote}");
        if let Some(start) = head.find(&key) {
            let rest = &head[start + key.len()..];
            return rest.find(quote).map(|end| &rest[..end]);
        }
    }
    None
}

/// The unescaped text of the first `<name>...</name>` in `text`.
fn element(text: &str, name: &str) -> Option<String> {
    let open = format!("<{name}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&format!("</{name}>"))? + start;
    Some(
        text[start..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_jars_name_the_script() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join(format!("pit-{PIT_VERSION}"));
        let err = PitJars::in_cache(tmp.path()).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("PIT's jars are not in {}: run scripts/fetch-tools.sh (docs/mutation.md)", dir.display())
        );
        // An interrupted fetch (no COMPLETE) and a cache without the plugin are missing too.
        std::fs::create_dir_all(&dir).expect("mkdir");
        for name in ["pitest", "pitest-entry", "pitest-command-line"] {
            std::fs::write(dir.join(format!("{name}-{PIT_VERSION}.jar")), b"").expect("write");
        }
        std::fs::write(dir.join("asm-9.11.jar"), b"").expect("write");
        assert!(PitJars::in_cache(tmp.path()).is_err());
        std::fs::write(dir.join(COMPLETE), b"").expect("write");
        assert!(PitJars::in_cache(tmp.path()).is_err());
        let plugin = dir.join(format!("pitest-junit5-plugin-{JUNIT5_PLUGIN_VERSION}.jar"));
        std::fs::write(&plugin, b"").expect("write");
        let jars = PitJars::in_cache(tmp.path()).expect("complete");
        let names: Vec<String> = jars
            .launch
            .iter()
            .filter_map(|j| j.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "asm-9.11.jar",
                "pitest-1.30.2.jar",
                "pitest-command-line-1.30.2.jar",
                "pitest-entry-1.30.2.jar"
            ]
        );
        assert_eq!(jars.junit5_plugin, plugin);
    }

    #[test]
    fn parser_reads_escapes_and_refuses_other_shapes() {
        let xml = "<?xml version=\"1.0\"?>\n<mutations partial=\"true\">\n<mutation detected='true' \
                   status='MEMORY_ERROR' numberOfTestsRun='2'><sourceFile>A.java</sourceFile>\
                   <mutatedClass>a.A$B</mutatedClass><mutatedMethod>&lt;init&gt;</mutatedMethod>\
                   <lineNumber>7</lineNumber><mutator>org.pitest.X</mutator><killingTest/></mutation>\n</mutations>\n";
        let m = parse_mutations_xml(xml).expect("parse");
        assert_eq!(
            m,
            [Mutant {
                class: "a.A$B".into(),
                method: "<init>".into(),
                line: 7,
                mutator: "X".into(),
                status: MutantStatus::MemoryError,
                detected: true,
            }]
        );
        let s = MutationScore::of(&m);
        assert_eq!((s.other, s.detected, s.score()), (1, 1, 1.0));
        assert_eq!(MutationScore::default().score(), 1.0, "no mutant: nothing to kill");
        assert_eq!(parse_mutations_xml("<mutations>\n</mutations>"), Ok(vec![]));
        assert_eq!(parse_mutations_xml("<html/>"), Err("no <mutations> element".into()));
        let odd = xml.replace("MEMORY_ERROR", "MAYBE");
        assert_eq!(parse_mutations_xml(&odd), Err("mutation 1: unknown status MAYBE".into()));
        let no_line = xml.replace("<lineNumber>7</lineNumber>", "");
        assert_eq!(parse_mutations_xml(&no_line), Err("mutation 1: no <lineNumber>".into()));
    }
}
