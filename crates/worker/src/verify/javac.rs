//! Compiling generated test classes with the `javac` of the JDK that runs them, and reading its
//! diagnostics (`File.java:12: error: message`, then the source line, a caret line and detail lines
//! such as `  symbol:`), so that the caller can drop the offending tests and compile again.
//! Messages are forced to English (`-J-Duser.language=en`) because the parser reads `error:`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{VerifyError, process};
use crate::Java;

/// javac's wall-clock limit; generated suites of a few thousand lines compile in seconds.
const JAVAC_TIMEOUT: Duration = Duration::from_secs(300);

/// The result of one javac run. Compile errors are data here; javac failing to run is an `Err`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compilation {
    /// javac exited with 0: every source compiled into `out_dir`.
    pub success: bool,
    pub diagnostics: Vec<Diagnostic>,
    /// javac's whole output, for messages.
    pub output: String,
}

impl Compilation {
    /// The sources (as javac named them, i.e. as given) that have at least one error.
    pub fn failed_sources(&self) -> Vec<&Path> {
        let mut files: Vec<&Path> = self
            .diagnostics
            .iter()
            .filter(|d| d.kind == DiagnosticKind::Error)
            .map(|d| d.file.as_path())
            .collect();
        files.sort();
        files.dedup();
        files
    }

    /// The errors by source file, lines ascending.
    pub fn errors_by_file(&self) -> BTreeMap<&Path, Vec<&Diagnostic>> {
        let mut map: BTreeMap<&Path, Vec<&Diagnostic>> = BTreeMap::new();
        for d in self.diagnostics.iter().filter(|d| d.kind == DiagnosticKind::Error) {
            map.entry(d.file.as_path()).or_default().push(d);
        }
        for v in map.values_mut() {
            v.sort_by_key(|d| d.line);
        }
        map
    }
}

/// One javac diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: PathBuf,
    /// 1-based line in `file`.
    pub line: u32,
    pub kind: DiagnosticKind,
    /// The message; detail lines (`symbol: ...`, `location: ...`) follow it after `; `.
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DiagnosticKind {
    Error,
    Warning,
}

/// Compiles `sources` against `classpath` (the caller includes [`super::JUnitJars::compile`] and
/// the user's classpath) into `out_dir` with `-encoding UTF-8 -nowarn -g`, using the `javac` next
/// to `java` (after resolving symlinks, so that `/usr/bin/java` finds its JDK's javac).
pub fn compile(
    java: &Java,
    sources: &[PathBuf],
    classpath: &[PathBuf],
    out_dir: &Path,
) -> Result<Compilation, VerifyError> {
    compile_with(java, sources, classpath, out_dir, &[])
}

/// The options of the JVM flags `jvm_args` that javac needs to compile what those JVMs run
/// (javac and java share the module options, JEP 261): `--add-exports`, `--add-reads` and
/// `--add-modules` as given, and `--add-opens M/P=T` as `--add-exports M/P=T`, since javac has no
/// `--add-opens` and a test that compiles against an opened package only needs it exported.
/// Both the `--opt=value` and the `--opt value` forms are read; other flags (`-D..`, `-X..`) are
/// the JVM's alone. Error Prone's classes, for one, use `com.sun.tools.javac` packages that
/// `jdk.compiler` does not export.
pub fn javac_module_options(jvm_args: &[String]) -> Vec<String> {
    const SHARED: &[&str] = &["--add-exports", "--add-reads", "--add-modules"];
    let mut res = Vec::new();
    let mut args = jvm_args.iter();
    while let Some(arg) = args.next() {
        let (name, value) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let javac_name = match name {
            "--add-opens" => "--add-exports",
            n if SHARED.contains(&n) => n,
            _ => continue,
        };
        let Some(value) = value.or_else(|| args.next().cloned()) else { continue };
        res.push(format!("{javac_name}={value}"));
    }
    res
}

/// [`compile`] with extra javac options (`javac_module_options` of the run's JVM flags), placed
/// before the sources.
pub fn compile_with(
    java: &Java,
    sources: &[PathBuf],
    classpath: &[PathBuf],
    out_dir: &Path,
    options: &[String],
) -> Result<Compilation, VerifyError> {
    let javac = javac_for(java)?;
    std::fs::create_dir_all(out_dir)
        .map_err(|e| VerifyError::io(format!("cannot create {}", out_dir.display()), e))?;
    let tmp = crate::cleanup::scratch_dir("suitesmith-javac-")
        .map_err(|e| VerifyError::io("cannot create a temporary directory", e))?;
    // No annotation processing: a processor found on the user's classpath would run its code here,
    // and the generated tests need none.
    let mut args =
        vec!["-encoding".to_string(), "UTF-8".into(), "-nowarn".into(), "-g".into(), "-proc:none".into()];
    args.extend(["-Xmaxerrs".to_string(), "10000".into(), "-d".into()]);
    args.push(process::absolute(out_dir)?.to_string_lossy().into_owned());
    if !classpath.is_empty() {
        args.push("-cp".into());
        args.push(process::classpath(classpath)?);
    }
    args.extend(options.iter().cloned());
    // Sources stay as given (made absolute for the child's directory) so diagnostics name them so.
    let mut by_abs = BTreeMap::new();
    for s in sources {
        let abs = process::absolute(s)?;
        args.push(abs.to_string_lossy().into_owned());
        by_abs.insert(abs, s.clone());
    }
    // Options in an @argfile: a classpath and hundreds of sources may pass the kernel's argument limit.
    // `-J` options are not allowed in argfiles, so they stay on the command line.
    let argfile = process::argfile(tmp.path(), "javac.args", &args)?;
    let cmd = vec![
        "-J-Duser.language=en".to_string(),
        "-J-Duser.country=US".into(),
        format!("@{}", argfile.display()),
    ];
    // javac loads classes of the user's classpath (and could be handed a plugin): it writes only
    // its class files and its temporary directory.
    let confinement =
        crate::default_sandbox(java).prepare(&[tmp.path(), out_dir]).map_err(crate::WorkerError::from)?;
    let done = process::run(&javac, &cmd, tmp.path(), JAVAC_TIMEOUT, Some(confinement))?;
    let mut output = done.stdout.join("\n");
    if !output.is_empty() {
        output.push('\n');
    }
    output.push_str(&done.stderr);
    let code = done.status.and_then(|s| s.code());
    // javac: 0 success, 1 compile errors; 2 and more are bad options, system errors or crashes.
    if code != Some(0) && code != Some(1) {
        return Err(VerifyError::Javac { status: process::status_text(done.status), output });
    }
    let mut diagnostics = parse_diagnostics(&output);
    for d in &mut diagnostics {
        if let Some(given) = by_abs.get(&d.file) {
            d.file = given.clone();
        }
    }
    Ok(Compilation { success: code == Some(0), diagnostics, output })
}

/// The javac of `java`'s JDK.
fn javac_for(java: &Java) -> Result<PathBuf, VerifyError> {
    let mut candidates = Vec::new();
    let resolved =
        if java.path.components().count() == 1 { which(&java.path) } else { Some(java.path.clone()) };
    if let Some(path) = resolved {
        if let Ok(real) = std::fs::canonicalize(&path) {
            candidates.extend(real.parent().map(|d| d.join("javac")));
        }
        candidates.extend(path.parent().map(|d| d.join("javac")));
    }
    candidates
        .into_iter()
        .find(|c| c.is_file())
        .ok_or_else(|| VerifyError::NoJavac { java: java.path.clone() })
}

/// A bare program name looked up on `PATH`.
fn which(name: &Path) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Reads javac's diagnostics. A header is `<file>.java:<line>: error|warning: <message>`; the lines up
/// to the next header are the message's continuation, the echoed source line, the caret line and
/// details. The echoed source line is the one right before the caret line.
pub(crate) fn parse_diagnostics(output: &str) -> Vec<Diagnostic> {
    let lines: Vec<&str> = output.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(mut d) = header(lines[i]) else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        while j < lines.len() && header(lines[j]).is_none() && !is_summary(lines[j]) {
            j += 1;
        }
        let body = &lines[i + 1..j];
        let caret = body.iter().position(|l| l.trim() == "^");
        let mut extra = Vec::new();
        for (k, l) in body.iter().enumerate() {
            let is_echo = caret.is_some_and(|c| k + 1 == c);
            if Some(k) == caret || is_echo || l.trim().is_empty() {
                continue;
            }
            // Without a caret line there is no telling the echo from text: keep only indented details.
            if caret.is_none() && !l.starts_with("  ") {
                continue;
            }
            extra.push(l.trim());
        }
        if !extra.is_empty() {
            d.message = format!("{}; {}", d.message, extra.join("; "));
        }
        out.push(d);
        i = j;
    }
    out
}

fn header(line: &str) -> Option<Diagnostic> {
    for (kind, tag) in [(DiagnosticKind::Error, ": error: "), (DiagnosticKind::Warning, ": warning: ")] {
        let Some(at) = line.find(tag) else { continue };
        let (file, num) = line[..at].rsplit_once(':')?;
        if !file.ends_with(".java") {
            continue;
        }
        let line_no: u32 = num.parse().ok()?;
        return Some(Diagnostic {
            file: PathBuf::from(file),
            line: line_no,
            kind,
            message: line[at + tag.len()..].to_string(),
        });
    }
    None
}

/// `3 errors`, `1 warning`, `Note: ...`: not part of a diagnostic.
fn is_summary(line: &str) -> bool {
    line.starts_with("Note: ")
        || line.split_once(' ').is_some_and(|(n, rest)| {
            n.parse::<u32>().is_ok() && ["error", "errors", "warning", "warnings"].contains(&rest)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_options_of_jvm_flags() {
        let flags: Vec<String> = [
            "-Duser.timezone=UTC",
            "--add-exports=jdk.compiler/com.sun.tools.javac.code=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang=ALL-UNNAMED",
            "-Xmx1g",
            "--add-modules=jdk.compiler",
            "--add-reads",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            javac_module_options(&flags),
            [
                "--add-exports=jdk.compiler/com.sun.tools.javac.code=ALL-UNNAMED",
                "--add-exports=java.base/java.lang=ALL-UNNAMED",
                "--add-modules=jdk.compiler",
            ]
        );
        assert!(javac_module_options(&["-ea".to_string()]).is_empty());
    }

    #[test]
    fn diagnostics_with_details_and_summaries() {
        let out = "\
/t/a/FooTest.java:12: error: cannot find symbol
    int x = bar();
            ^
  symbol:   method bar()
  location: class FooTest
/t/a/FooTest.java:14: error: incompatible types: String cannot be converted to int
    int y = \"s\";
            ^
Note: Some input files use unchecked or unsafe operations.
2 errors
";
        let d = parse_diagnostics(out);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].file, PathBuf::from("/t/a/FooTest.java"));
        assert_eq!(d[0].line, 12);
        assert_eq!(d[0].message, "cannot find symbol; symbol:   method bar(); location: class FooTest");
        assert_eq!(d[1].line, 14);
        assert_eq!(d[1].message, "incompatible types: String cannot be converted to int");
        assert!(parse_diagnostics("error: file not found: X.java\n").is_empty());
    }
}
