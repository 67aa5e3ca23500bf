//! Incremental `generate --project`: the project's `.suitesmith/state.json` remembers, per module
//! and class, what the tests written for it were made from (the class's bytecode, the bytecode of
//! the project classes it depends on, the options that decide generation) and which test files they
//! are. A later run regenerates only the classes for which any of that changed, or whose test
//! files are gone or were edited, and leaves the other test files untouched; `--force`
//! regenerates all. A class that left the project takes its generated test files with it. The
//! state is written only when the whole run succeeded (docs/maven.md, "Incremental runs").
//!
//! A class depends on every project class (of any module) its constant pool names, as a class or
//! inside a descriptor or signature, and transitively on theirs: the regression assertions record
//! values computed anywhere down the call tree, so a change two calls away can make a test stale.
//! Classes of jars are represented by the jars' paths (a Maven repository path names the version).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use classfile::{ClassFile, ClassPathEntry, Constant};
use jvm_model::ClassName;
use serde::{Deserialize, Serialize};

use crate::Failure;
use crate::project::{Build, GENERATED_MARK, Module};

/// The state file, relative to the project's directory.
pub const STATE_FILE: &str = ".suitesmith/state.json";
/// The layout of the state file; a state of another layout is not read (everything regenerates).
const FORMAT: u32 = 1;

/// The state file's content: sorted maps, so the same run writes the same bytes.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    format: u32,
    /// The suitesmith version that wrote it (also part of every class's `config`).
    suitesmith: String,
    /// Module (directory relative to the project, `.` for the project's own) to binary class name
    /// to what its tests were made from.
    modules: BTreeMap<String, BTreeMap<String, Entry>>,
}

/// What one class's tests were made from, each a 64-bit FNV-1a hash in hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The options that decide generation (`generate::Args::generation_key`), the suitesmith
    /// version, the module's JUnit and jars.
    config: String,
    /// The class's own `.class` file.
    class: String,
    /// The project classes it depends on, transitively (names and bytecode).
    dependencies: String,
    /// The test files written for it (relative to the project when inside it) and their content.
    files: BTreeMap<String, String>,
}

/// One project class as the dependency scan sees it.
struct Scanned {
    hash: u64,
    /// The project classes its constant pool names (internal names).
    refs: Vec<String>,
}

/// One incremental project run: the state read at the start, the entries of the classes this run
/// regenerated, and the project's classes.
pub struct Incremental {
    root: PathBuf,
    build: Build,
    force: bool,
    old: State,
    new: BTreeMap<(String, String), Entry>,
    classes: BTreeMap<String, Scanned>,
    /// The compiled-classes directories of all modules.
    dirs: Vec<PathBuf>,
}

impl Incremental {
    /// Reads the state of the project at `root` (canonical) and scans the compiled classes of all its
    /// modules. A missing state means a first run; an unreadable one is said on stderr and treated
    /// as missing (it is a record of earlier runs, not the user's input).
    pub fn start(root: &Path, build: Build, force: bool) -> Result<Incremental, Failure> {
        let path = root.join(STATE_FILE);
        let old = match std::fs::read(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => State::default(),
            Err(e) => {
                eprintln!(
                    "suitesmith: warning: cannot read {} ({e}): regenerating every class",
                    path.display()
                );
                State::default()
            }
            Ok(bytes) => match serde_json::from_slice::<State>(&bytes) {
                Ok(s) if s.format == FORMAT => s,
                Ok(_) | Err(_) => {
                    eprintln!(
                        "suitesmith: warning: {} is not a state this suitesmith wrote: regenerating every class",
                        path.display()
                    );
                    State::default()
                }
            },
        };
        let mut classes = BTreeMap::new();
        let dirs = crate::project::all_classes_dirs(root, build);
        for dir in &dirs {
            scan(dir, &mut classes)?;
        }
        let names: BTreeSet<String> = classes.keys().cloned().collect();
        for s in classes.values_mut() {
            s.refs.retain(|r| names.contains(r));
        }
        Ok(Incremental { root: root.to_path_buf(), build, force, old, new: BTreeMap::new(), classes, dirs })
    }

    /// The classes of `m` to generate now under configuration `key`; the others are said on stderr
    /// as unchanged and skipped.
    pub fn stale(&self, m: &Module, key: &str) -> Vec<String> {
        let recorded = self.old.modules.get(&m.name);
        let mut stale = Vec::new();
        let mut skipped = Vec::new();
        for c in &m.classes {
            let now = self.entry(m, c, key, BTreeMap::new());
            let same = recorded.and_then(|r| r.get(c)).is_some_and(|e| {
                e.config == now.config
                    && e.class == now.class
                    && e.dependencies == now.dependencies
                    && e.files
                        .iter()
                        .all(|(f, h)| std::fs::read(self.absolute(f)).is_ok_and(|b| hex(fnv(&b)) == *h))
            });
            if same && !self.force {
                skipped.push(c.as_str());
            } else {
                stale.push(c.clone());
            }
        }
        if !skipped.is_empty() {
            eprintln!(
                "module {}: {} classes unchanged since the last run, skipped: {}",
                m.name,
                skipped.len(),
                skipped.join(", ")
            );
        }
        stale
    }

    /// Records the test files a run of `m` under `key` wrote for each class (relative to
    /// `m.scratch`, whose copies are about to be installed under `m.tests`).
    pub fn record(&mut self, m: &Module, key: &str, written: &[(String, Vec<String>)]) -> anyhow::Result<()> {
        for (class, rels) in written {
            let mut files = BTreeMap::new();
            for rel in rels {
                let from = m.scratch.join(rel);
                let bytes = std::fs::read(&from).with_context(|| format!("reading {}", from.display()))?;
                files.insert(self.relative(&m.tests.join(rel)), hex(fnv(&bytes)));
            }
            let e = self.entry(m, class, key, files);
            self.new.insert((m.name.clone(), class.clone()), e);
        }
        Ok(())
    }

    /// After the new tests are installed: deletes the generated test files of classes that left
    /// the project and those a regenerated class no longer has, then writes the state (through a
    /// temporary file, so it is whole or the old one).
    pub fn finish(self, modules: &[Module]) -> anyhow::Result<()> {
        let mut state = self.old.clone();
        for ((module, class), e) in &self.new {
            let tests =
                modules.iter().find(|m| &m.name == module).and_then(|m| std::path::absolute(&m.tests).ok());
            let entries = state.modules.entry(module.clone()).or_default();
            if let (Some(old), Some(tests)) = (entries.get(class), tests) {
                // Only below this run's test directory: files an earlier `--out` put elsewhere stay.
                for f in old.files.keys().filter(|f| !e.files.contains_key(*f)) {
                    let p = self.absolute(f);
                    if p.starts_with(&tests) && remove_generated(&p)? {
                        eprintln!("module {module}: deleted {f}, no longer written for {class}");
                    }
                }
            }
            entries.insert(class.clone(), e.clone());
        }
        for (module, entries) in &mut state.modules {
            let dir = crate::project::classes_dir(self.build, &self.root.join(module));
            let gone: Vec<String> = entries
                .keys()
                .filter(|c| !dir.join(format!("{}.class", ClassName::from_binary(c).internal())).is_file())
                .cloned()
                .collect();
            for c in gone {
                let e = entries.remove(&c).expect("listed");
                let mut deleted = Vec::new();
                for f in e.files.keys() {
                    if remove_generated(&self.absolute(f))? {
                        deleted.push(f.as_str());
                    }
                }
                eprintln!(
                    "module {module}: class {c} is no longer in the project; deleted its tests: {}",
                    if deleted.is_empty() { "none left".to_string() } else { deleted.join(", ") }
                );
            }
        }
        state.modules.retain(|_, e| !e.is_empty());
        state.format = FORMAT;
        state.suitesmith = env!("CARGO_PKG_VERSION").to_string();
        let path = self.root.join(STATE_FILE);
        if std::fs::read(&path).is_ok_and(|b| serde_json::from_slice::<State>(&b).is_ok_and(|s| s == state)) {
            return Ok(()); // Nothing changed: the file keeps its time.
        }
        let dir = path.parent().expect("in .suitesmith");
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        let mut text = serde_json::to_string_pretty(&state)?;
        text.push('\n');
        tmp.write_all(text.as_bytes())?;
        tmp.persist(&path).with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }

    /// Whether the bytecode of `class` of `m`, or of a project class it depends on, differs from
    /// when its tests were written; `None` when the state has no record of it.
    pub fn code_changed(&self, m: &Module, class: &str) -> Option<bool> {
        let e = self.old.modules.get(&m.name)?.get(class)?;
        let now = self.entry(m, class, "", BTreeMap::new());
        Some(e.class != now.class || e.dependencies != now.dependencies)
    }

    /// The project's own tests that can run code of `targets` (binary names), as Surefire names
    /// them: the top-level classes of the hand-written sources below each module's `src/test/java`
    /// whose compiled class, or a class nested in it, names in its constant pool a project class
    /// that depends on a target (the dependencies the state hashes, `closure`). Code a test class
    /// cannot reach that way it runs only through a name made at run time or a service file
    /// (docs/maven.md, "Complement mode"). `None` when it cannot be told: a hand-written test
    /// source has no compiled class at least as new as it (the tests were not compiled since).
    pub fn tests_reaching(&self, targets: &BTreeSet<String>) -> Result<Option<Vec<String>>, Failure> {
        let reach = self.reaching(targets);
        let mut out = Vec::new();
        for module in crate::project::module_dirs(&self.root, self.build) {
            let sources = module.join("src/test/java");
            let compiled = crate::project::test_classes_dir(self.build, &module);
            let mut scanned = BTreeMap::new();
            if compiled.is_dir() {
                scan(&compiled, &mut scanned)?;
            }
            for src in crate::project::java_files_below(&sources) {
                match std::fs::read_to_string(&src) {
                    Ok(t) if t.starts_with(GENERATED_MARK) => continue,
                    Ok(_) => {}
                    Err(_) => return Ok(None),
                }
                let Ok(rel) = src.strip_prefix(&sources) else { continue };
                if !compiled_since(&compiled.join(rel).with_extension("class"), &src) {
                    return Ok(None);
                }
                let top = rel.with_extension("").to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/");
                let nested = format!("{top}$");
                let reaches = scanned
                    .iter()
                    .filter(|(n, _)| **n == top || n.starts_with(&nested))
                    .any(|(_, s)| s.refs.iter().any(|r| reach.contains(r)));
                if reaches {
                    out.push(ClassName::from_internal(&top).binary());
                }
            }
        }
        out.sort();
        Ok(Some(out))
    }

    /// The project classes (internal names) whose dependencies include one of `targets` (binary
    /// names), the targets included: the reverse of `closure`, from all targets at once.
    fn reaching(&self, targets: &BTreeSet<String>) -> BTreeSet<String> {
        let mut users: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (name, s) in &self.classes {
            for r in &s.refs {
                users.entry(r.as_str()).or_default().push(name.as_str());
            }
        }
        let mut seen = BTreeSet::new();
        let mut stack: Vec<String> =
            targets.iter().map(|c| ClassName::from_binary(c).internal().to_string()).collect();
        while let Some(c) = stack.pop() {
            if let Some(u) = users.get(c.as_str()) {
                stack.extend(u.iter().filter(|n| !seen.contains(**n)).map(|n| n.to_string()));
            }
            seen.insert(c);
        }
        seen
    }

    /// What the tests of `class` of `m` would be made from now, with `files`.
    fn entry(&self, m: &Module, class: &str, key: &str, files: BTreeMap<String, String>) -> Entry {
        let internal = ClassName::from_binary(class).internal().to_string();
        let own = self.classes.get(&internal).map_or(0, |s| s.hash);
        let mut deps = Vec::new();
        for d in self.closure(&internal).iter().filter(|d| **d != internal) {
            deps.extend_from_slice(d.as_bytes());
            deps.push(0);
            deps.extend_from_slice(&self.classes[d].hash.to_le_bytes());
        }
        let config = format!("{key}\u{0}{}\u{0}{}", env!("CARGO_PKG_VERSION"), self.jars(m).join(":"));
        Entry { config: hex(fnv(config.as_bytes())), class: hex(own), dependencies: hex(fnv(&deps)), files }
    }

    /// The project classes `internal` depends on, itself included, transitively.
    fn closure(&self, internal: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![internal.to_string()];
        while let Some(c) = stack.pop() {
            if !seen.insert(c.clone()) {
                continue;
            }
            if let Some(s) = self.classes.get(&c) {
                stack.extend(s.refs.iter().filter(|r| !seen.contains(*r)).cloned());
            }
        }
        seen
    }

    /// The entries of `m`'s classpath that are not compiled classes of the project.
    fn jars(&self, m: &Module) -> Vec<String> {
        m.classpath
            .split(':')
            .filter(|e| !self.dirs.iter().any(|p| Path::new(e) == p))
            .map(String::from)
            .collect()
    }

    /// `p` as the state records it: relative to the project when inside it, else absolute (an
    /// `--out` relative to the working directory).
    fn relative(&self, p: &Path) -> String {
        let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        p.strip_prefix(&self.root).unwrap_or(&p).display().to_string()
    }

    fn absolute(&self, recorded: &str) -> PathBuf {
        self.root.join(recorded)
    }
}

/// Adds every class of the directory `dir` to `out`: its bytecode's hash and the class names its
/// constant pool mentions.
fn scan(dir: &Path, out: &mut BTreeMap<String, Scanned>) -> Result<(), Failure> {
    let bad = |e: String| Failure::BadInput(format!("cannot read {}: {e}", dir.display()));
    let entry = ClassPathEntry::open(dir).map_err(|e| bad(e.to_string()))?;
    for c in entry.classes() {
        let (name, bytes) = c.map_err(|e| bad(e.to_string()))?;
        let pool = ClassFile::read_constant_pool(&bytes).map_err(|e| bad(format!("{name}: {e}")))?;
        let mut refs = BTreeSet::new();
        for (_, k) in pool.iter() {
            if let Constant::Utf8(b) = k {
                mentioned_classes(&String::from_utf8_lossy(b), &mut refs);
            }
        }
        out.entry(name).or_insert(Scanned { hash: fnv(&bytes), refs: refs.into_iter().collect() });
    }
    Ok(())
}

/// The internal class names a constant-pool string may be: the whole string (a class entry's
/// name), the same with dots for slashes (a binary name, as `Class.forName` takes it) and every
/// `L…;` in it (descriptors, signatures, array class names). Strings that name no
/// project class are dropped later.
fn mentioned_classes(s: &str, out: &mut BTreeSet<String>) {
    out.insert(s.to_string());
    // A binary name in a string constant: `Class.forName("sample.core.Counter")`.
    if s.contains('.') && !s.contains(['/', ' ', ';']) {
        out.insert(ClassName::internal_of(s));
    }
    let mut rest = s;
    while let Some(at) = rest.find('L') {
        rest = &rest[at + 1..];
        if let Some(end) = rest.find([';', '<']) {
            out.insert(rest[..end].to_string());
        }
    }
}

/// Whether `class` exists and was written no earlier than `source` was.
fn compiled_since(class: &Path, source: &Path) -> bool {
    let time = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    matches!((time(class), time(source)), (Some(c), Some(s)) if c >= s)
}

/// Deletes a test file if suitesmith wrote it (its first line is suitesmith's): whether it did. A
/// file already gone, or now the user's, stays as it is.
fn remove_generated(p: &Path) -> anyhow::Result<bool> {
    match std::fs::read_to_string(p) {
        Ok(t) if t.starts_with(GENERATED_MARK) => {
            std::fs::remove_file(p).with_context(|| format!("deleting {}", p.display()))?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// FNV-1a, 64 bits: stable across runs, platforms and Rust versions (the std hasher is not); the
/// hashes detect changes, nobody is trying to collide them.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn hex(h: u64) -> String {
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Maven-shaped project at `root` whose `target/classes` holds examples/classes, and its module.
    fn project(root: &Path) -> Module {
        let classes = root.join("target/classes/example");
        std::fs::create_dir_all(&classes).unwrap();
        let from = test_support::workspace_root().join("examples/classes/example");
        for f in ["Stack.class", "Triangle.class", "Triangle$Kind.class"] {
            std::fs::copy(from.join(f), classes.join(f)).unwrap();
        }
        Module {
            name: ".".into(),
            classes: vec!["example.Stack".into(), "example.Triangle".into()],
            classpath: root.join("target/classes").display().to_string(),
            junit: None,
            scratch: root.join("target/suitesmith"),
            tests: root.join("src/test/java"),
        }
    }

    /// One run as `run_project` does it: which classes are stale, then "generate" them (a test file
    /// each, installed) and record them.
    fn run(root: &Path, m: &Module, key: &str, force: bool) -> Vec<String> {
        let mut inc = Incremental::start(root, Build::Maven, force).unwrap();
        let stale = inc.stale(m, key);
        let mut written = Vec::new();
        for c in &stale {
            let rel = format!("{}Test.java", ClassName::from_binary(c).internal());
            for dir in [&m.scratch, &m.tests] {
                std::fs::create_dir_all(dir.join("example")).unwrap();
                std::fs::write(dir.join(&rel), format!("{GENERATED_MARK} */ class {c}Test {{}} // {key}\n"))
                    .unwrap();
            }
            written.push((c.clone(), vec![rel]));
        }
        inc.record(m, key, &written).unwrap();
        inc.finish(std::slice::from_ref(m)).unwrap();
        stale
    }

    /// Each change and the classes it makes stale: the class's own bytecode, a nested class's (a
    /// dependency), the configuration, `--force`, an edited test file; a class gone takes its test.
    #[test]
    fn only_what_changed_is_regenerated() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let m = project(&root);
        let classes = root.join("target/classes/example");
        let append = |f: &str| {
            let mut bytes = std::fs::read(classes.join(f)).unwrap();
            bytes.push(0); // after the constant pool: the scan still reads the class
            std::fs::write(classes.join(f), bytes).unwrap();
        };
        let both = ["example.Stack", "example.Triangle"];
        type Step<'a> = (&'a str, Box<dyn Fn() + 'a>, &'a str, bool, &'a [&'a str]);
        let steps: Vec<Step> = vec![
            ("first run", Box::new(|| {}), "k1", false, &both),
            ("nothing changed", Box::new(|| {}), "k1", false, &[]),
            ("Stack's bytecode", Box::new(|| append("Stack.class")), "k1", false, &["example.Stack"]),
            (
                "a nested class",
                Box::new(|| append("Triangle$Kind.class")),
                "k1",
                false,
                &["example.Triangle"],
            ),
            ("the configuration", Box::new(|| {}), "k2", false, &both),
            ("--force", Box::new(|| {}), "k2", true, &both),
            (
                "an edited test",
                Box::new(|| std::fs::write(m.tests.join("example/StackTest.java"), "mine").unwrap()),
                "k2",
                false,
                &["example.Stack"],
            ),
        ];
        for (what, change, key, force, expected) in steps {
            change();
            assert_eq!(run(&root, &m, key, force), expected, "{what}");
        }
        let state = std::fs::read_to_string(root.join(STATE_FILE)).unwrap();
        assert!(state.contains("\"src/test/java/example/TriangleTest.java\""), "{state}");

        std::fs::remove_file(classes.join("Triangle.class")).unwrap();
        let m = Module { classes: vec!["example.Stack".into()], ..m };
        assert_eq!(run(&root, &m, "k2", false), Vec::<String>::new());
        assert!(!m.tests.join("example/TriangleTest.java").exists(), "the test of a class gone is deleted");
        assert!(m.tests.join("example/StackTest.java").exists());
        let state = std::fs::read_to_string(root.join(STATE_FILE)).unwrap();
        assert!(!state.contains("Triangle"), "{state}");
    }

    #[test]
    fn class_names_are_found_in_constant_pool_strings() {
        let cases: &[(&str, &[&str])] = &[
            ("sample/core/Counter", &["sample/core/Counter"]),
            ("(Lsample/core/Counter;I)Ljava/lang/String;", &["sample/core/Counter", "java/lang/String"]),
            ("[Lsample/core/Counter;", &["sample/core/Counter"]),
            ("Ljava/util/List<Lsample/A;>;", &["java/util/List", "sample/A"]),
            ("sample.core.Counter", &["sample/core/Counter"]),
            ("sample.core.Counter$Step", &["sample/core/Counter$Step"]),
        ];
        for (s, expected) in cases {
            let mut out = BTreeSet::new();
            mentioned_classes(s, &mut out);
            for e in *expected {
                assert!(out.contains(*e), "{s}: {e} in {out:?}");
            }
        }
    }
}
