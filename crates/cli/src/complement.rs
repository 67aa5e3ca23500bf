//! Complement mode of `generate --project` (on by default; docs/maven.md): the project's own tests
//! run once, by its own build (`mvn test`, Surefire as the project configures it) with JaCoCo's
//! agent on Surefire's `argLine`, and what they cover of each module's classes (lines, branches,
//! methods, per class) becomes the engine's `ExistingSuite`, whose goals the search leaves alone.
//! Tests suitesmith wrote earlier are not the project's: Surefire is told to skip them
//! (`surefire.excludesFile`). They run as `mvn test` runs them for the user, in the user's build
//! and not in our sandbox, like the build itself. When they cannot run (the build fails, a pom
//! sets its own `argLine`, no JaCoCo), one warning says so and every goal is searched.
//! It deliberately does not run the tests itself or read Surefire's reports.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use engine::{CoveredBefore, ExistingSuite, JacocoFigures};
use jvm_model::ClassName;
use worker::verify::{CoverageDetail, JacocoJars};

use crate::Failure;
use crate::project::{Build, GENERATED_MARK, Module, java_files_below};

/// Runs the project's own tests under JaCoCo and reads what they cover of `modules`' classes;
/// `None` (after a warning) when they could not run so. With `only`, just those test classes run
/// (Surefire's `test`): the ones that can reach the classes to generate
/// (`Incremental::tests_reaching`); none at all when it is empty, since then they cover nothing
/// the search is to look for.
pub fn measure(
    root: &Path,
    build: Build,
    modules: &[Module],
    only: Option<&[String]>,
) -> Result<Option<ExistingSuite>, Failure> {
    let warn = |why: String| {
        eprintln!("suitesmith: warning: {why}; complement mode is off, every goal is searched");
        Ok(None)
    };
    if build != Build::Maven {
        return warn("the project's own tests run only in Maven projects".into());
    }
    if only.is_some_and(<[String]>::is_empty) {
        eprintln!(
            "suitesmith: none of the project's own tests can reach the classes to generate \
             (through the project classes their constant pools name): they are not run"
        );
        return Ok(Some(ExistingSuite::default()));
    }
    let jacoco = match JacocoJars::debian() {
        Ok(j) => j,
        Err(e) => return warn(format!("cannot run the project's tests under JaCoCo: {e}")),
    };
    let java = worker::Java::discover().map_err(|e| Failure::BadInput(e.to_string()))?;
    let scratch = worker::cleanup::scratch_dir("suitesmith-complement").map_err(|e| anyhow::anyhow!(e))?;
    let exec = scratch.path().join("project-tests.exec");
    let excludes = scratch.path().join("generated-tests.txt");
    std::fs::write(&excludes, generated_patterns(root, modules))
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", excludes.display()))?;
    let agent = jacoco.agent_jar().map_err(|e| anyhow::anyhow!(e))?;
    let mut args: Vec<String> = vec![
        "-B".into(),
        "-q".into(),
        "-o".into(),
        "-Dstyle.color=never".into(),
        "test".into(),
        "-Dmaven.test.failure.ignore=true".into(),
        "-Dsurefire.failIfNoSpecifiedTests=false".into(),
        format!("-Dsurefire.excludesFile={}", excludes.display()),
        format!("-DargLine=-javaagent:{}=destfile={},append=true", agent.display(), exec.display()),
    ];
    if let Some(tests) = only {
        // `test` overrides Surefire's excludes: the list holds only hand-written tests.
        args.push(format!("-Dtest={}", tests.join(",")));
        eprintln!(
            "suitesmith: the project's own tests that can reach the classes to generate run: {}",
            tests.join(", ")
        );
    }
    let mvn = crate::project::on_path("mvn")
        .ok_or_else(|| Failure::BadInput("mvn is not on PATH: --project needs Maven".into()))?;
    let out = worker::tool::run_tool(&mvn, &args, root, crate::project::BUILD_TIMEOUT)
        .map_err(|e| Failure::BadInput(format!("cannot run {}: {e}", mvn.display())))?;
    if !out.success {
        let why = crate::project::maven_error(&out.stdout, &out.stderr)
            .unwrap_or_else(|| format!("exit status {:?}", out.code));
        return warn(format!("mvn cannot run the project's own tests: {why}"));
    }
    if !exec.is_file() {
        return warn("the project's tests wrote no JaCoCo data (does a pom set Surefire's argLine?)".into());
    }
    let mut suite = ExistingSuite::default();
    for m in modules {
        let classes_dir = PathBuf::from(m.classpath.split(':').next().unwrap_or_default());
        let classes = all_classes(&classes_dir)?;
        let detail = worker::verify::jacoco_detail(
            &java,
            &jacoco,
            std::slice::from_ref(&exec),
            &[classes_dir],
            &classes,
        )
        .map_err(|e| anyhow::anyhow!("reading the project's tests' coverage: {e}"))?;
        let before = covered_before(&detail);
        let (mut lines, mut branches) = ((0, 0), (0, 0));
        for c in before.values() {
            (lines.0, lines.1) = (lines.0 + c.jacoco.lines.0, lines.1 + c.jacoco.lines.1);
            (branches.0, branches.1) = (branches.0 + c.jacoco.branches.0, branches.1 + c.jacoco.branches.1);
        }
        eprintln!(
            "module {}: the project's own tests cover {} of {} lines and {} of {} branches (JaCoCo); \
             the search leaves those goals alone",
            m.name, lines.0, lines.1, branches.0, branches.1
        );
        suite.classes.extend(before);
    }
    Ok(Some(suite))
}

/// Per class (internal name) what JaCoCo saw run.
fn covered_before(detail: &CoverageDetail) -> BTreeMap<String, CoveredBefore> {
    let mut out: BTreeMap<String, CoveredBefore> = BTreeMap::new();
    let internal = |c: &str| ClassName::from_binary(c).into_internal();
    for c in &detail.classes {
        let b = out.entry(internal(&c.class)).or_default();
        b.jacoco = JacocoFigures { lines: c.lines, branches: c.branches };
    }
    for l in &detail.lines {
        let (Some(b), Ok(line)) = (out.get_mut(&internal(&l.class)), u16::try_from(l.line)) else { continue };
        if l.instructions_covered > 0 {
            b.lines.insert(line);
        }
        if l.branches.1 > 0 && l.branches.0 == l.branches.1 {
            b.branch_lines.insert(line);
        }
    }
    for m in detail.methods.iter().filter(|m| m.covered) {
        if let Some(b) = out.get_mut(&internal(&m.class)) {
            b.methods.insert(format!("{}{}", m.name, m.descriptor));
        }
    }
    out
}

/// Every class (binary name) below a classes directory, sorted.
fn all_classes(dir: &Path) -> Result<Vec<String>, Failure> {
    let entry = classfile::ClassPathEntry::open(dir)
        .map_err(|e| Failure::BadInput(format!("cannot read {}: {e}", dir.display())))?;
    let mut names: Vec<String> = entry.class_names().map(|n| ClassName::from_internal(n).binary()).collect();
    names.sort();
    Ok(names)
}

/// Surefire's exclusion patterns (one a line) of the test files suitesmith wrote into the
/// modules' `src/test/java`: only the project's own tests are its suite.
fn generated_patterns(root: &Path, modules: &[Module]) -> String {
    let mut out = String::new();
    for m in modules {
        let dir = root.join(&m.name).join("src/test/java");
        for p in java_files_below(&dir) {
            if std::fs::read_to_string(&p).is_ok_and(|t| t.starts_with(GENERATED_MARK))
                && let Ok(rel) = p.strip_prefix(&dir)
            {
                out.push_str(&format!("{}\n", rel.display()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use worker::verify::{ClassCoverage, LineCoverage, MethodCoverage};

    #[test]
    fn a_line_is_covered_when_code_ran_and_its_branches_when_all_ran() {
        let line = |line, instructions_covered, branches| LineCoverage {
            class: "a.B$C".into(),
            line,
            instructions_covered,
            branches,
        };
        let detail = CoverageDetail {
            classes: vec![ClassCoverage {
                class: "a.B$C".into(),
                lines: (2, 4),
                branches: (3, 6),
                methods: (1, 2),
                instructions: (9, 20),
            }],
            lines: vec![line(7, 3, (1, 2)), line(8, 2, (4, 4)), line(9, 0, (0, 2)), line(10, 0, (0, 0))],
            methods: vec![
                MethodCoverage {
                    class: "a.B$C".into(),
                    name: "f".into(),
                    descriptor: "()I".into(),
                    covered: true,
                },
                MethodCoverage {
                    class: "a.B$C".into(),
                    name: "g".into(),
                    descriptor: "()V".into(),
                    covered: false,
                },
            ],
        };
        let before = covered_before(&detail);
        let c = &before["a/B$C"];
        assert_eq!(c.lines.iter().copied().collect::<Vec<_>>(), [7, 8]);
        assert_eq!(c.branch_lines.iter().copied().collect::<Vec<_>>(), [8]);
        assert_eq!(c.methods.iter().cloned().collect::<Vec<_>>(), ["f()I"]);
        assert_eq!(c.jacoco, JacocoFigures { lines: (2, 4), branches: (3, 6) });
    }
}
