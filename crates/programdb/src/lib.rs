//! programdb: the program database of one run, shared by every stage so that none of them reads
//! the classpath again. A classpath opened once; each class parsed at most once and each method
//! decoded at most once, on demand, and kept; the per-method analyses memoised beside the body;
//! one class hierarchy (`hierarchy`) and a call graph by class-hierarchy analysis (`callgraph`)
//! answered from the same memoised classes.
//! Callers never parse or decode themselves: they ask the database (rust-analyzer's query model at
//! a small scale, DESIGN.md "Seams before features").
//!
//! Classes are named by `ClassId`, the index of the class's internal name among the classpath's
//! names sorted, so ids, and every list of ids, do not depend on the order of the questions asked
//! or on threads. Answers are references into the database (`&ClassFile`, `&MethodBody`,
//! `&MethodAnalysis`): nothing large is copied per access. Every cache is a `OnceLock` in a slot
//! allocated at `open`, so the database is `Send + Sync`, lock-free to read, and each fact is
//! computed by one thread only.
//!
//! It deliberately does not rewrite classes (`instrument` does, on its own copy) and holds no
//! global state: the engine makes one per run and passes it down.

mod callgraph;
mod hierarchy;
mod resolve;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use analysis::MethodAnalysis;
use bytecode::MethodBody;
use classfile::{ClassFile, ClassPath, Member};

pub use callgraph::CallSite;
pub use hierarchy::{GenericSupertypes, OBJECT, Within};
pub use resolve::{InvokeKind, SelectError};

/// A class on the database's classpath.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClassId(u32);

impl ClassId {
    /// The position among the classpath's class names, sorted.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A method of a class on the classpath: the class and the method's index in its class file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MethodId {
    class: ClassId,
    index: u16,
}

impl MethodId {
    pub fn class(self) -> ClassId {
        self.class
    }

    /// The index in the class file's `methods` table.
    pub fn index(self) -> u16 {
        self.index
    }
}

/// What the database is told once, at `open`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DbConfig {
    /// A virtual or interface call site with more possible targets than this keeps the first ones
    /// (by `MethodId`) and is marked `truncated`: `Object.equals` has thousands of overrides in the
    /// JDK, and no analysis wants all of them.
    pub max_call_targets: usize,
}

impl DbConfig {
    /// What the engine uses.
    pub const STANDARD: DbConfig = DbConfig { max_call_targets: 64 };
}

/// How often the database did its expensive work: the test of "each class parsed once, each
/// method decoded at most once" reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DbStats {
    /// Classes parsed at least once, and parses in all.
    pub classes_parsed: usize,
    pub parses: u64,
    /// Methods decoded at least once, and decodes in all.
    pub methods_decoded: usize,
    pub decodes: u64,
}

/// The program database. See the module comment.
#[derive(Debug)]
pub struct ProgramDb {
    classpath: ClassPath,
    config: DbConfig,
    /// Every class name of the classpath, sorted: `ClassId(i)` is `names[i]`.
    names: Vec<Box<str>>,
    classes: Vec<ClassSlot>,
    /// Direct subtypes by supertype name, over the whole classpath; built on the first question
    /// that needs it (it parses every class).
    subtypes: OnceLock<hierarchy::SubtypeIndex>,
    /// The same over the application's classes only (`Within::Application`).
    application_subtypes: OnceLock<hierarchy::SubtypeIndex>,
}

/// What the database keeps of one class.
#[derive(Debug, Default)]
struct ClassSlot {
    file: OnceLock<Result<ClassFile, classfile::Error>>,
    parses: AtomicU32,
    header: OnceLock<hierarchy::Header>,
    /// The generic supertypes, from the class's `Signature` attribute.
    generic: OnceLock<GenericSupertypes>,
    /// Every superinterface, direct or inherited, in `supertypes` order (`resolve`).
    superinterfaces: OnceLock<Box<[ClassId]>>,
    /// The declared methods by name and descriptor (`resolve`).
    method_table: OnceLock<resolve::MethodTable>,
    /// One slot per entry of the class file's `methods`, made when the class is parsed.
    methods: OnceLock<Box<[MethodSlot]>>,
}

/// What the database keeps of one method. A new memoised analysis is one more
/// `OnceLock` field here, computed from `body` (and from `analysis`, when it needs the CFG) in a
/// getter shaped like `ProgramDb::analysis`.
#[derive(Debug, Default)]
struct MethodSlot {
    /// `None`: no `Code` attribute (abstract or native); `Err`: why the code does not decode.
    body: OnceLock<Option<Result<MethodBody, String>>>,
    decodes: AtomicU32,
    analysis: OnceLock<MethodAnalysis>,
    /// Operand producers and reaching definitions, then the program dependence graph over them.
    data_deps: OnceLock<analysis::DataDeps>,
    pdg: OnceLock<analysis::Pdg>,
    calls: OnceLock<Box<[CallSite]>>,
}

impl ProgramDb {
    /// Opens `paths` as one classpath (`ClassPath::open`).
    pub fn open(paths: &[PathBuf], config: DbConfig) -> Result<ProgramDb, classfile::Error> {
        Ok(ProgramDb::new(ClassPath::open(paths)?, config))
    }

    /// The database over an opened classpath.
    pub fn new(classpath: ClassPath, config: DbConfig) -> ProgramDb {
        let names: Vec<Box<str>> = classpath.class_names().map(Box::from).collect();
        debug_assert!(names.is_sorted());
        let classes = names.iter().map(|_| ClassSlot::default()).collect();
        ProgramDb {
            classpath,
            config,
            names,
            classes,
            subtypes: OnceLock::new(),
            application_subtypes: OnceLock::new(),
        }
    }

    /// The classpath, for what is not a class (listing names, the entries).
    pub fn classpath(&self) -> &ClassPath {
        &self.classpath
    }

    pub fn config(&self) -> DbConfig {
        self.config
    }

    /// The id of a class by internal name (`java/util/List`), if the classpath has it.
    pub fn class_id(&self, internal: &str) -> Option<ClassId> {
        self.names.binary_search_by(|n| (**n).cmp(internal)).ok().map(|i| ClassId(i as u32))
    }

    /// The internal name of a class.
    pub fn class_name(&self, c: ClassId) -> &str {
        &self.names[c.index()]
    }

    /// Every class of the classpath, in id (= name) order.
    pub fn class_ids(&self) -> impl Iterator<Item = ClassId> + '_ {
        (0..self.names.len() as u32).map(ClassId)
    }

    /// The parsed class, parsed on the first request. The error (reading the classpath entry or
    /// parsing) is kept and handed out again.
    pub fn class(&self, c: ClassId) -> Result<&ClassFile, &classfile::Error> {
        let slot = &self.classes[c.index()];
        let res = slot.file.get_or_init(|| {
            slot.parses.fetch_add(1, Ordering::Relaxed);
            let name = self.class_name(c);
            match self.classpath.class_bytes(name) {
                Ok(Some(bytes)) => ClassFile::parse(&bytes),
                // The name came from the classpath's own list.
                Ok(None) => {
                    Err(classfile::Error::Malformed { what: "classpath entry", offset: 0 }.in_class(name))
                }
                Err(e) => Err(e),
            }
        });
        res.as_ref()
    }

    /// The methods of a class, in class-file order; none when it does not parse.
    pub fn methods(&self, c: ClassId) -> impl Iterator<Item = MethodId> + use<> {
        let n = self.method_slots(c).len() as u16;
        (0..n).map(move |index| MethodId { class: c, index })
    }

    /// The method `index` of a class, if it has that many.
    pub fn method_id(&self, c: ClassId, index: u16) -> Option<MethodId> {
        ((index as usize) < self.method_slots(c).len()).then_some(MethodId { class: c, index })
    }

    /// The class-file entry of a method.
    pub fn member(&self, m: MethodId) -> Option<&Member> {
        // A `MethodId` is only made for a class that parsed, so this is always `Some`.
        self.class(m.class).ok()?.methods.get(m.index as usize)
    }

    /// The decoded code of a method, decoded on the first request: `None` when the method has
    /// no `Code` attribute, `Some(Err)` with the reason when its code does not decode.
    pub fn body(&self, m: MethodId) -> Option<Result<&MethodBody, &str>> {
        let slot = &self.method_slots(m.class)[m.index as usize];
        let res = slot.body.get_or_init(|| {
            let class = self.class(m.class).ok()?;
            let code = class.methods[m.index as usize].code(&class.constant_pool)?;
            slot.decodes.fetch_add(1, Ordering::Relaxed);
            Some(
                code.map_err(|e| e.to_string())
                    .and_then(|c| bytecode::decode(&c, &class.constant_pool).map_err(|e| e.to_string())),
            )
        });
        res.as_ref().map(|r| r.as_ref().map_err(String::as_str))
    }

    /// The per-method analyses (CFG, dominators, post-dominators, control dependence, branch
    /// goals and their dependences) of a method whose code decodes, computed on the first request.
    pub fn analysis(&self, m: MethodId) -> Option<&MethodAnalysis> {
        let body = self.body(m)?.ok()?;
        let slot = &self.method_slots(m.class)[m.index as usize];
        Some(slot.analysis.get_or_init(|| MethodAnalysis::compute(body)))
    }

    /// The CFG of a method whose code decodes.
    pub fn cfg(&self, m: MethodId) -> Option<&analysis::Cfg> {
        self.analysis(m).map(|a| &a.cfg)
    }

    /// The dominator tree of a method's CFG.
    pub fn dominators(&self, m: MethodId) -> Option<&analysis::DomTree> {
        self.analysis(m).map(|a| &a.dominators)
    }

    /// The post-dominator tree of a method's CFG.
    pub fn post_dominators(&self, m: MethodId) -> Option<&analysis::PostDomTree> {
        self.analysis(m).map(|a| &a.post_dominators)
    }

    /// The control dependences between the blocks of a method's CFG.
    pub fn control_deps(&self, m: MethodId) -> Option<&analysis::ControlDeps> {
        self.analysis(m).map(|a| &a.control_deps)
    }

    /// The data dependences (operand producers, reaching definitions of locals) of a method whose
    /// code decodes, computed on the first request.
    pub fn data_deps(&self, m: MethodId) -> Option<&analysis::DataDeps> {
        let body = self.body(m)?.ok()?;
        let cfg = self.cfg(m)?;
        let class = self.class(m.class).ok()?;
        let slot = &self.method_slots(m.class)[m.index as usize];
        Some(slot.data_deps.get_or_init(|| analysis::DataDeps::compute(body, cfg, &class.constant_pool)))
    }

    /// The program dependence graph (data and control dependence per instruction) of a method
    /// whose code decodes.
    pub fn pdg(&self, m: MethodId) -> Option<&analysis::Pdg> {
        let body = self.body(m)?.ok()?;
        let (a, data) = (self.analysis(m)?, self.data_deps(m)?);
        let slot = &self.method_slots(m.class)[m.index as usize];
        Some(slot.pdg.get_or_init(|| analysis::Pdg::compute(body, &a.cfg, &a.control_deps, data)))
    }

    /// How many times a class was parsed (0 or 1).
    pub fn parse_count(&self, c: ClassId) -> u32 {
        self.classes[c.index()].parses.load(Ordering::Relaxed)
    }

    /// How many times a method was decoded (0 or 1).
    pub fn decode_count(&self, m: MethodId) -> u32 {
        self.classes[m.class.index()]
            .methods
            .get()
            .and_then(|ms| ms.get(m.index as usize))
            .map_or(0, |s| s.decodes.load(Ordering::Relaxed))
    }

    /// The counters over every class and method.
    pub fn stats(&self) -> DbStats {
        let mut s = DbStats::default();
        for slot in &self.classes {
            let p = slot.parses.load(Ordering::Relaxed);
            s.parses += u64::from(p);
            s.classes_parsed += usize::from(p > 0);
            for m in slot.methods.get().map_or(&[][..], |b| &b[..]) {
                let d = m.decodes.load(Ordering::Relaxed);
                s.decodes += u64::from(d);
                s.methods_decoded += usize::from(d > 0);
            }
        }
        s
    }

    /// The classes parsed more than once and the methods decoded more than once (both empty,
    /// unless the database is wrong).
    pub fn repeated_work(&self) -> (Vec<ClassId>, Vec<MethodId>) {
        let classes = self.class_ids().filter(|&c| self.parse_count(c) > 1).collect();
        let methods = self
            .class_ids()
            .filter(|&c| self.classes[c.index()].methods.get().is_some())
            .flat_map(|c| self.methods(c))
            .filter(|&m| self.decode_count(m) > 1)
            .collect();
        (classes, methods)
    }

    fn method_slots(&self, c: ClassId) -> &[MethodSlot] {
        let slot = &self.classes[c.index()];
        slot.methods.get_or_init(|| {
            let n = self.class(c).map_or(0, |f| f.methods.len());
            (0..n).map(|_| MethodSlot::default()).collect()
        })
    }
}
