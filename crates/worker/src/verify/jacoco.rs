//! Line, branch and method coverage of chosen classes from JaCoCo exec files, through
//! `suitesmith.tools.JacocoReport` on `org.jacoco.core`. Only the classes asked for are analysed: their
//! original (uninstrumented) class files are copied out of the given directories or jars into a
//! temporary directory, which is what the report program analyses (a user's jar holds many classes
//! that the tests never meant to cover). JaCoCo counts each conditional jump as two branches, each
//! switch target as one, and a line as covered when at least one of its instructions ran.
//! `jacoco_detail` adds each line's and method's figures (what a project's own tests covered).

use jvm_model::ClassName;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::jars::read_entry;
use super::records::parse;
use super::{JacocoJars, VerifyError, process};
use crate::{Java, runtime_jar};

const REPORT_TIMEOUT: Duration = Duration::from_secs(120);

/// The coverage of one class (binary name, e.g. `a.B$C`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassCoverage {
    pub class: String,
    pub lines: (u32, u32),
    pub branches: (u32, u32),
    pub methods: (u32, u32),
    pub instructions: (u32, u32),
}

/// What JaCoCo saw of one source line of a class with code on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineCoverage {
    /// The class's binary name.
    pub class: String,
    pub line: u32,
    /// Instructions of the line that ran.
    pub instructions_covered: u32,
    /// Branches of the line (each conditional jump two, each switch target one): covered, total.
    pub branches: (u32, u32),
}

/// Whether any instruction of a method ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodCoverage {
    /// The class's binary name.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub covered: bool,
}

/// Per class, per line and per method: what [`jacoco_detail`] reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CoverageDetail {
    pub classes: Vec<ClassCoverage>,
    /// Lines with code, by class then line.
    pub lines: Vec<LineCoverage>,
    pub methods: Vec<MethodCoverage>,
}

/// The coverage of `classes` (binary names) recorded in `exec_files`, analysed over their class files
/// found in `class_files` (directories or jars, first match wins), in the order of `classes`.
pub fn jacoco_coverage(
    java: &Java,
    jacoco: &JacocoJars,
    exec_files: &[PathBuf],
    class_files: &[PathBuf],
    classes: &[String],
) -> Result<Vec<ClassCoverage>, VerifyError> {
    Ok(jacoco_detail(java, jacoco, exec_files, class_files, classes)?.classes)
}

/// [`jacoco_coverage`] with each class's lines and methods.
pub fn jacoco_detail(
    java: &Java,
    jacoco: &JacocoJars,
    exec_files: &[PathBuf],
    class_files: &[PathBuf],
    classes: &[String],
) -> Result<CoverageDetail, VerifyError> {
    for exec in exec_files {
        if !exec.is_file() {
            return Err(VerifyError::ExecFileMissing { path: exec.clone() });
        }
    }
    let tmp = crate::cleanup::scratch_dir("suitesmith-jacoco-")
        .map_err(|e| VerifyError::io("cannot create a temporary directory", e))?;
    let dir = tmp.path().join("classes");
    for class in classes {
        let bytes = class_bytes(class_files, class)?
            .ok_or_else(|| VerifyError::ClassFileMissing { class: class.clone() })?;
        let path = dir.join(ClassName::from_binary(class).class_file_path());
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| VerifyError::io(format!("cannot create {}", parent.display()), e))?;
        }
        std::fs::write(&path, bytes)
            .map_err(|e| VerifyError::io(format!("cannot write {}", path.display()), e))?;
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| VerifyError::io(format!("cannot create {}", dir.display()), e))?;

    let mut cp = vec![runtime_jar()?];
    cp.extend(jacoco.core.iter().cloned());
    let mut args = vec![
        "-XX:TieredStopAtLevel=1".to_string(),
        "-XX:+UseSerialGC".into(),
        "-cp".into(),
        process::classpath(&cp)?,
        "suitesmith.tools.JacocoReport".into(),
        dir.to_string_lossy().into_owned(),
    ];
    for exec in exec_files {
        args.push(process::absolute(exec)?.to_string_lossy().into_owned());
    }
    // JaCoCo's analysis reads class files and runs none of them: no confinement needed.
    let done = process::run(&java.path, &args, tmp.path(), REPORT_TIMEOUT, None)?;
    let tool_error = |detail: String| VerifyError::Tool {
        tool: "suitesmith.tools.JacocoReport",
        detail,
        stderr: done.stderr.clone(),
    };
    let mut found = Vec::new();
    let (mut lines, mut methods) = (Vec::new(), Vec::new());
    let mut finished = false;
    for line in &done.stdout {
        let f = parse(line);
        match f.first().map(String::as_str) {
            Some("class") if f.len() >= 10 => {
                let n = |i: usize| f[i].parse::<u32>().map_err(|_| tool_error(format!("bad record: {line}")));
                found.push(ClassCoverage {
                    class: f[1].clone(),
                    instructions: (n(2)?, n(3)?),
                    branches: (n(4)?, n(5)?),
                    lines: (n(6)?, n(7)?),
                    methods: (n(8)?, n(9)?),
                });
            }
            Some("line") if f.len() >= 6 => {
                let n = |i: usize| f[i].parse::<u32>().map_err(|_| tool_error(format!("bad record: {line}")));
                lines.push(LineCoverage {
                    class: f[1].clone(),
                    line: n(2)?,
                    instructions_covered: n(3)?,
                    branches: (n(4)?, n(5)?),
                });
            }
            Some("method") if f.len() >= 5 => methods.push(MethodCoverage {
                class: f[1].clone(),
                name: f[2].clone(),
                descriptor: f[3].clone(),
                covered: f[4] == "1",
            }),
            Some("nomatch") if f.len() >= 2 => return Err(VerifyError::ExecMismatch { class: f[1].clone() }),
            Some("fatal") => return Err(tool_error(f.get(1).cloned().unwrap_or_default())),
            Some("done") => finished = true,
            _ => {}
        }
    }
    if !finished {
        return Err(tool_error(format!("no report ({})", process::status_text(done.status))));
    }
    // JaCoCo's CoverageBuilder leaves out classes without code (an interface of constants, an
    // annotation): they have nothing to cover, so all their counters are zero.
    let classes = classes
        .iter()
        .map(|c| {
            found.iter().find(|f| &f.class == c).cloned().unwrap_or_else(|| ClassCoverage {
                class: c.clone(),
                lines: (0, 0),
                branches: (0, 0),
                methods: (0, 0),
                instructions: (0, 0),
            })
        })
        .collect();
    Ok(CoverageDetail { classes, lines, methods })
}

/// `class` and its nested classes (`class$...`, binary names, sorted) as found in the first entry of
/// `class_files` that holds `class`.
pub fn nested_classes(class_files: &[PathBuf], class: &str) -> Result<Vec<String>, VerifyError> {
    let rel = ClassName::from_binary(class).into_internal();
    let prefix = format!("{rel}$");
    for entry in class_files {
        let mut names = Vec::new();
        if entry.is_dir() {
            if !entry.join(format!("{rel}.class")).is_file() {
                continue;
            }
            let pkg_dir = entry.join(&rel).parent().map(Path::to_path_buf).unwrap_or_else(|| entry.clone());
            let pkg = rel.rsplit_once('/').map(|(p, _)| format!("{p}/")).unwrap_or_default();
            let list = std::fs::read_dir(&pkg_dir)
                .map_err(|e| VerifyError::io(format!("cannot list {}", pkg_dir.display()), e))?;
            for f in list.flatten() {
                let name = format!("{pkg}{}", f.file_name().to_string_lossy());
                if let Some(stem) = name.strip_suffix(".class")
                    && stem.starts_with(&prefix)
                {
                    names.push(ClassName::from_internal(stem).binary());
                }
            }
        } else if entry.is_file() {
            let bad = |detail: String| VerifyError::Jar { path: entry.clone(), detail };
            let file = std::fs::File::open(entry).map_err(|e| bad(e.to_string()))?;
            let zip = zip::ZipArchive::new(file).map_err(|e| bad(e.to_string()))?;
            if zip.index_for_name(&format!("{rel}.class")).is_none() {
                continue;
            }
            for name in zip.file_names() {
                let name = name.map_err(|e| bad(e.to_string()))?;
                if let Some(stem) = name.strip_suffix(".class")
                    && stem.starts_with(&prefix)
                {
                    names.push(ClassName::from_internal(stem).binary());
                }
            }
        } else {
            continue;
        }
        names.sort();
        names.insert(0, class.to_string());
        return Ok(names);
    }
    Err(VerifyError::ClassFileMissing { class: class.to_string() })
}

/// The bytes of `class` from the first directory or jar of `class_files` that has it.
fn class_bytes(class_files: &[PathBuf], class: &str) -> Result<Option<Vec<u8>>, VerifyError> {
    let rel = ClassName::from_binary(class).class_file_path();
    for entry in class_files {
        if entry.is_dir() {
            let path = entry.join(&rel);
            if path.is_file() {
                return std::fs::read(&path)
                    .map(Some)
                    .map_err(|e| VerifyError::io(format!("cannot read {}", path.display()), e));
            }
        } else if entry.is_file()
            && let Some(bytes) = read_entry(entry, &rel)?
        {
            return Ok(Some(bytes));
        }
    }
    Ok(None)
}
