//! `suitesmith generate --project DIR --check`, the CI mode (docs/maven.md): the project is built
//! as it is now, and the tests suitesmith wrote into it earlier (each file whose first line is
//! suitesmith's) are compiled and run once against that build, guarded and in the sandbox as
//! verification runs them. They passed every verification run when they were written, so a test
//! that fails now records behaviour that changed: each is named on stderr with its failing
//! assertion, and the exit status is 1. No search runs and nothing is written.
//! It deliberately does not decide whether a change was intended: that is the reader's call.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use engine::{JvmVerifier, Verifier};
use worker::verify::{JUnitJars, JUnitVersion};

use crate::Failure;
use crate::project::{GENERATED_MARK, Module, java_files_below};

/// What a check needs besides the project: the options of `generate` that apply to running tests.
pub struct CheckOptions<'a> {
    pub selection: crate::project::Selection<'a>,
    pub jvm_args: &'a [String],
    pub sandbox: worker::SandboxRequest,
}

/// One generated test file found in a module: the class it tests and its source.
struct Found {
    cut: String,
    path: PathBuf,
    rendered: junit::Rendered,
    version: JUnitVersion,
}

/// Runs the check; `Failure::Changed` when any test no longer passes or compiles.
pub fn run(dir: &Path, opts: &CheckOptions<'_>) -> Result<(), Failure> {
    let (build, modules) = crate::project::open(dir, &opts.selection)?;
    // `open` checked that it is a directory; files are named relative to it.
    let root = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    // Only to say which classes changed since their tests were written.
    let state = crate::incremental::Incremental::start(&root, build, false)?;
    let mut code_changed: Vec<String> = Vec::new();
    let java = worker::Java::discover().map_err(|e| Failure::BadInput(e.to_string()))?;
    let sandbox = worker::sandbox_for(opts.sandbox, &java).map_err(|e| Failure::BadInput(e.to_string()))?;
    let (mut classes, mut tests, mut changed) = (0usize, 0usize, 0usize);
    for m in &modules {
        let found = generated_files(m, &root)?;
        let mut cuts: Vec<&str> = found.iter().map(|f| f.cut.as_str()).collect();
        cuts.dedup();
        for cut in cuts {
            let files: Vec<&Found> = found.iter().filter(|f| f.cut == cut).collect();
            // The module's classes are those `--class`/`--prefix` selected.
            if !m.classes.iter().any(|c| c == cut) {
                if opts.selection.class.is_none() && opts.selection.prefix.is_none() {
                    eprintln!(
                        "module {}: class {cut} is no longer in the project; its tests were not run",
                        m.name
                    );
                }
                continue;
            }
            classes += 1;
            if state.code_changed(m, cut) == Some(true) {
                code_changed.push(cut.to_string());
            }
            tests += files.iter().map(|f| f.rendered.tests.len()).sum::<usize>();
            changed += check_class(m, cut, &files, &java, &sandbox, opts.jvm_args)?;
        }
    }
    if classes == 0 {
        return Err(Failure::BadInput(format!(
            "project {}: no test file written by suitesmith to check (run generate --project first)",
            dir.display()
        )));
    }
    if !code_changed.is_empty() {
        eprintln!(
            "check: {} of {classes} classes changed since their tests were written (their code or a project \
             class they depend on): {}",
            code_changed.len(),
            code_changed.join(", ")
        );
    }
    if changed > 0 {
        return Err(Failure::Changed(format!(
            "{changed} of {tests} generated tests of {classes} classes changed behaviour"
        )));
    }
    eprintln!("check: {tests} generated tests of {classes} classes pass against the current build");
    Ok(())
}

/// Compiles and runs the tests of one class once; prints every test that fails or file that no
/// longer compiles, and returns how many.
fn check_class(
    m: &Module,
    cut: &str,
    files: &[&Found],
    java: &worker::Java,
    sandbox: &Arc<worker::Sandbox>,
    jvm_args: &[String],
) -> Result<usize, Failure> {
    let version = files[0].version;
    let jars = JUnitJars::debian(version).map_err(|e| Failure::BadInput(e.to_string()))?;
    let classpath: Vec<PathBuf> = m.classpath.split(':').map(PathBuf::from).collect();
    let mut verifier = JvmVerifier::new(java.clone(), jars, version, &classpath, cut)
        .map_err(|e| Failure::Internal(e.into()))?
        .with_jvm_args(jvm_args)
        .with_sandbox(Arc::clone(sandbox));
    let rendered: Vec<junit::Rendered> = files.iter().map(|f| f.rendered.clone()).collect();
    let errors = verifier.compile(&rendered).map_err(|e| Failure::Internal(e.into()))?;
    if !errors.is_empty() {
        for e in &errors {
            let f = files[e.file];
            let at = e.line.map_or(String::new(), |l| format!(":{l}"));
            eprintln!(
                "behaviour changed: {} no longer compiles against the current build: {}{at}: {}",
                f.rendered.binary_name(),
                f.path.display(),
                e.message.lines().next().unwrap_or_default()
            );
        }
        return Ok(files.iter().map(|f| f.rendered.tests.len()).sum());
    }
    let failures = verifier.run(&rendered, 1).map_err(|e| Failure::Internal(e.into()))?;
    let mut failed: Vec<(usize, String)> = Vec::new();
    for f in &failures {
        let file = files[f.file];
        if failed.contains(&(f.file, f.method.clone())) {
            continue;
        }
        failed.push((f.file, f.method.clone()));
        eprintln!(
            "behaviour changed: {}.{}: {}",
            file.rendered.binary_name(),
            f.method,
            f.message.lines().next().unwrap_or_default().trim_end().trim_end_matches(':')
        );
        if let Some(line) = f.line {
            let text = file.rendered.source.lines().nth(line as usize - 1).unwrap_or_default().trim();
            eprintln!("  at {}:{line}: {text}", file.path.display());
        }
    }
    Ok(failed.len())
}

/// The files below the module's test directory whose first line is suitesmith's, sorted by path
/// (relative to the project `root` when below it), with the class each tests as its header names it.
fn generated_files(m: &Module, root: &Path) -> Result<Vec<Found>, Failure> {
    let mut out = Vec::new();
    for p in java_files_below(&m.tests) {
        let source = std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
        if !source.starts_with(GENERATED_MARK) {
            continue;
        }
        let rel = p.strip_prefix(&m.tests).unwrap_or(&p);
        match found(rel, p.strip_prefix(root).unwrap_or(&p), source) {
            Some(f) => out.push(f),
            None => eprintln!("{}: not a test file suitesmith wrote as it is now; not run", p.display()),
        }
    }
    out.sort_by(|a, b| (&a.cut, &a.path).cmp(&(&b.cut, &b.path)));
    Ok(out)
}

/// A generated file read back: its header names the class and JUnit (`/* Generated by suitesmith
/// 0.0.0, seed 1, for a.B, JUnit 4. */`), its path the package and class, and each `@Test`
/// method's `public void NAME()` line the tests.
fn found(rel: &Path, path: &Path, source: String) -> Option<Found> {
    let header = source.lines().next()?;
    let (_, after) = header.split_once(", for ")?;
    let (cut, junit) = after.split_once(", JUnit ")?;
    let cut = cut.to_string();
    let version = if junit.starts_with('5') { JUnitVersion::Five } else { JUnitVersion::Four };
    let test_class = jvm_model::ClassName::from_internal(rel.with_extension("").to_string_lossy());
    let class_name = test_class.simple_name().to_string();
    let package = jvm_model::ClassName::binary_of(test_class.package_internal());
    let mut tests = Vec::new();
    let mut after_test = false;
    for (i, line) in source.lines().enumerate() {
        let t = line.trim();
        if t.starts_with("@Test") {
            after_test = true;
        } else if after_test && let Some(rest) = t.strip_prefix("public void ").or(t.strip_prefix("void ")) {
            let method = rest.split('(').next().unwrap_or_default().to_string();
            let first_line = i as u32 + 2;
            tests.push(junit::TestLines {
                method,
                first_line,
                last_line: first_line,
                assertions: Vec::new(),
                fail: None,
                throwing: None,
            });
            after_test = false;
        }
    }
    let rendered = junit::Rendered { package, class_name, source, tests };
    Some(Found { cut, path: path.to_path_buf(), rendered, version })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_file_names_its_class_junit_and_tests() {
        let source = "/* Generated by suitesmith 0.0.0, seed 1, for a.b.Stack, JUnit 5. */\n\npackage a.b;\n\n\
                      class StackTest {\n\n  @Test\n  @Timeout(4)\n  void test00() throws Throwable {\n  }\n\n\
                      @Test(timeout = 4000)\n  public void test01() throws Throwable {\n  }\n}\n";
        let f = found(Path::new("a/b/StackTest2.java"), Path::new("x/a/b/StackTest2.java"), source.into())
            .expect("a generated file");
        assert_eq!((f.cut.as_str(), f.version), ("a.b.Stack", JUnitVersion::Five));
        assert_eq!(f.rendered.binary_name(), "a.b.StackTest2");
        let tests: Vec<(&str, u32)> =
            f.rendered.tests.iter().map(|t| (t.method.as_str(), t.first_line)).collect();
        assert_eq!(tests, [("test00", 10), ("test01", 14)]);
        assert!(
            found(Path::new("A.java"), Path::new("A.java"), "/* Generated by suitesmith */".into()).is_none()
        );
    }
}
