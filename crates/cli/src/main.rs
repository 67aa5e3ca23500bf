//! The `suitesmith` binary: turns arguments into a command's configuration, runs it, and maps the
//! result to an exit code (0 done, 2 bad input with one line on stderr and nothing written, 1 internal
//! error, 130/143 stopped by SIGINT/SIGTERM with one line and nothing written). Commands live in their
//! own modules; this file only dispatches and handles the signals.

mod analyze;
mod check;
mod complement;
mod dse_args;
mod generate;
mod html;
mod incremental;
mod instrument;
mod local_search_args;
mod merge;
mod ocg_args;
mod project;
mod report;
mod search;
mod selection_args;
mod shard;
mod sushi_args;
mod technique_args;
#[cfg(test)]
mod tests;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc rather than glibc's allocator: the search allocates and frees test cases, traces and
/// fitness vectors by the thousand per second, and glibc's `free` (chunk consolidation) was a tenth
/// of the engine's time on classes with fast tests (docs/benchmarks.md "Engine overhead").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What `suitesmith --help` opens with: what the tool does for a user (the package description,
/// clap's default, is a note for developers).
const ABOUT: &str = "Writes JUnit tests for compiled Java classes: a search-based test generator (in the \
manner of EvoSuite) that aims at high coverage of lines, branches, exceptions and mutants, adds \
assertions on what the code did, and keeps only tests that compile and pass every time.";

/// How to start, under the command list of `--help`.
const AFTER_HELP: &str = "Start with: suitesmith generate --classpath CLASSES_OR_JARS --class com.example.Foo --out DIR
(`--target DIR_OR_JAR` or `--prefix com.example` for many classes; `suitesmith generate --help` lists the options).";

/// A search-based unit-test generator for Java.
#[derive(Parser, Debug)]
#[command(name = "suitesmith", version, about = ABOUT, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Print the analysis of one class: per method its control-flow graph, dominators, control
    /// dependences and branch goals, then the probe plan the instrumenter would apply.
    Analyze(analyze::Args),
    /// Write an instrumented (or, with `--probes none`, decoded and re-encoded) copy of every class
    /// of the classpath, with the runtime classes the probes call.
    Instrument(instrument::Args),
    /// Run the search on one class in JVM workers and print the tests found and their coverage.
    Search(search::Args),
    /// Write JUnit tests for classes: search, minimise, add assertions, compile and run them, and
    /// write the test files, statistics.csv and report.json.
    Generate(generate::Args),
    /// Put the output directories of `generate --shard I/N` runs together as one run's: the test
    /// files, one statistics.csv and one report.json.
    Merge(merge::Args),
}

/// Errors a command reports. `BadInput` means the user's input is wrong (exit 2); `Changed` that a
/// check found changed behaviour (exit 1); anything else is ours (exit 1).
#[derive(Debug)]
pub enum Failure {
    BadInput(String),
    Internal(anyhow::Error),
    /// `generate --check` found tests whose behaviour changed (each already named on stderr).
    Changed(String),
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Failure {
        Failure::Internal(e)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(cli.command, Command::Generate(_) | Command::Search(_))
        && let Err(e) = stop_on_signals()
    {
        eprintln!("suitesmith: internal error: cannot handle SIGINT and SIGTERM: {e}");
        return ExitCode::from(1);
    }
    let res = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Instrument(args) => instrument::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Merge(args) => merge::run(&args),
    };
    if worker::cleanup::terminating() {
        // The signal handler is stopping the run and exits the process with the signal's status;
        // whatever this thread would add (an error from the workers it killed) is not news.
        loop {
            std::thread::park();
        }
    }
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::BadInput(msg)) => {
            eprintln!("suitesmith: error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Changed(msg)) => {
            eprintln!("suitesmith: check failed: {msg}");
            ExitCode::from(1)
        }
        Err(Failure::Internal(e)) => {
            eprintln!("suitesmith: internal error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// SIGINT (Ctrl-C) and SIGTERM stop the commands that start JVMs: a thread waits for them and then
/// kills every worker and helper JVM, removes every scratch directory (`worker::cleanup`), writes
/// one line and exits with 128 + the signal's number (130, 143), before any output is written.
/// Without it the process would die at once and its scratch directories stay behind.
fn stop_on_signals() -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    std::thread::Builder::new().name("suitesmith-signals".into()).spawn(move || {
        let Some(signal) = signals.forever().next() else { return };
        // Held until the exit: nothing is started, removed or written after the clean-up.
        let _stopped = worker::cleanup::terminate();
        let name = if signal == SIGINT { "SIGINT" } else { "SIGTERM" };
        if std::io::stderr().is_terminal() {
            eprint!("\r\x1b[2K"); // over the progress bar
        }
        eprintln!(
            "suitesmith: stopped by {name}: workers killed, scratch directories removed, nothing written"
        );
        std::process::exit(128 + signal);
    })?;
    Ok(())
}

/// Whether an output directory that already exists may hold files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutDir {
    /// Files are added or replaced (generated tests beside the user's).
    MayHoldFiles,
    /// It must be empty, so that nothing of an older run is mixed in.
    MustBeEmpty,
}

/// The output directory must be a directory we can write in, or creatable; checked before anything
/// runs, and without writing there, so that bad input writes nothing: a temporary file is created
/// and removed in it or in its nearest existing ancestor.
pub fn check_out_dir(out: &std::path::Path, rule: OutDir) -> Result<(), Failure> {
    let bad = |why: String| {
        Failure::BadInput(format!("cannot write to the output directory {}: {why}", out.display()))
    };
    let mut probe = out.to_path_buf();
    loop {
        match std::fs::metadata(&probe) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => return Err(bad(format!("{} is not a directory", probe.display()))),
            Err(_) => match probe.parent() {
                Some(p) if !p.as_os_str().is_empty() => probe = p.to_path_buf(),
                _ => {
                    probe = std::path::PathBuf::from(".");
                    break;
                }
            },
        }
    }
    if rule == OutDir::MustBeEmpty && probe == out {
        let mut entries = std::fs::read_dir(out).map_err(|e| bad(e.to_string()))?;
        if entries.next().is_some() {
            return Err(Failure::BadInput(format!("the output directory {} is not empty", out.display())));
        }
    }
    tempfile::NamedTempFile::new_in(&probe).map(drop).map_err(|e| bad(e.to_string()))
}

/// Opens a user-given classpath: an empty classpath, a missing entry or a corrupt jar is bad input.
pub fn open_classpath(cp: &str) -> Result<classfile::ClassPath, Failure> {
    let entries: Vec<&str> = cp.split(':').collect();
    if entries.iter().all(|e| e.is_empty()) {
        return Err(Failure::BadInput("the classpath is empty".to_string()));
    }
    for e in &entries {
        if e.is_empty() {
            return Err(Failure::BadInput(format!("the classpath {cp:?} has an empty entry")));
        }
        if !std::path::Path::new(e).exists() {
            return Err(Failure::BadInput(format!("classpath entry {e} does not exist")));
        }
    }
    classfile::ClassPath::from_classpath_string(cp)
        .map_err(|e| Failure::BadInput(format!("cannot read classpath {cp}: {e}")))
}
