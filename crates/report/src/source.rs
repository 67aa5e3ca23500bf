//! Finding a class's source under source roots (`--sourcepath`, a project's `src/main/java`).

use jvm_model::ClassName;
use std::path::{Path, PathBuf};

use crate::Source;

/// The relative path of the source file of a class given by binary name (`a.b.Outer$Inner` ->
/// `a/b/Outer.java`): nested classes live in their outermost class's file.
pub fn source_path(class: &str) -> PathBuf {
    PathBuf::from(ClassName::from_binary(class).source_file_path())
}

/// The source of `class` in the first root that has it; `None` when no root does or it cannot be
/// read as UTF-8 (the report then shows the bytecode's lines only).
pub fn find_source(roots: &[PathBuf], class: &str) -> Option<Source> {
    let rel = source_path(class);
    roots.iter().map(|r| r.join(&rel)).find_map(|p| read(&p))
}

fn read(path: &Path) -> Option<Source> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(Source { path: path.display().to_string(), text })
}
