//! The summary of a class the cluster needs (names, access, generic signatures of the class and its
//! members, enum constants, constant-pool values), read from a `classfile::ClassFile`, and a cache of
//! such summaries over the run's program database. Generic signatures come from `Signature`
//! attributes (JVMS §4.7.9.1); where a member has none, or one that disagrees with its descriptor
//! (inner-class constructors omit the outer instance), the descriptor is used.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use bytecode::{Insn, MethodBody};
use classfile::{ClassFile, ClassPath, Constant, ConstantPool, Member, access};
use jvm_model::ClassName;
use programdb::ProgramDb;

use crate::cluster::ClusterError;
use crate::types::{
    ClassSig, JType, MethodSig, TypeArg, parse_class_sig, parse_field_type, parse_method_sig,
};

/// A method or constructor (`<init>`) of a class.
#[derive(Debug, Clone)]
pub(crate) struct MethodInfo {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    pub sig: MethodSig,
    /// The classes of its `throws` clause (binary names).
    pub exceptions: Vec<String>,
}

/// A field of a class.
#[derive(Debug, Clone)]
pub(crate) struct FieldInfo {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    pub ty: JType,
}

/// What the cluster knows about one class.
#[derive(Debug, Clone)]
pub(crate) struct ClassInfo {
    /// Binary name with dots.
    pub name: String,
    /// Class access flags, with the `InnerClasses` flags of the class itself when it is nested
    /// (JVMS §4.7.6: the top-level flags of a nested class do not say `private`/`static`).
    pub access: u16,
    /// Whether this is a local or anonymous class, which a test cannot name.
    pub is_local: bool,
    pub super_name: Option<String>,
    pub interfaces: Vec<String>,
    pub sig: ClassSig,
    pub methods: Vec<MethodInfo>,
    pub fields: Vec<FieldInfo>,
}

impl ClassInfo {
    pub fn is_abstract(&self) -> bool {
        self.access & (access::ABSTRACT | access::INTERFACE) != 0
    }

    pub fn is_enum(&self) -> bool {
        self.access & access::ENUM != 0 && self.super_name.as_deref() == Some("java.lang.Enum")
    }

    pub fn package(&self) -> &str {
        package_of(&self.name)
    }

    /// The class as a type with its own type variables as arguments (`ArrayList<E>`).
    pub fn generic_self(&self) -> JType {
        JType::Class {
            name: self.name.clone(),
            args: self.sig.type_params.iter().map(|p| TypeArg::Exact(JType::Var(p.name.clone()))).collect(),
        }
    }

    /// The enum constants, in declaration order (fields with `ACC_ENUM`, JVMS §4.5).
    pub fn enum_constants(&self) -> Vec<String> {
        self.fields.iter().filter(|f| f.access & access::ENUM != 0).map(|f| f.name.clone()).collect()
    }
}

/// The package of a binary name (`a.b` of `a.b.C$D`).
pub(crate) fn package_of(name: &str) -> &str {
    name.rfind('.').map_or("", |i| &name[..i])
}

fn signature_text(cp: &ConstantPool, attrs_owner: Option<&Member>, cf: &ClassFile) -> Option<String> {
    let attr = match attrs_owner {
        Some(m) => m.attribute(cp, "Signature"),
        None => cf.attribute("Signature"),
    }?;
    if attr.info.len() != 2 {
        return None;
    }
    let idx = u16::from_be_bytes([attr.info[0], attr.info[1]]);
    cp.utf8(idx).map(|s| s.into_owned())
}

/// The flags of the class itself in its `InnerClasses` attribute, and whether it is local or
/// anonymous (no outer class or no simple name there).
pub(crate) fn inner_class_flags(cf: &ClassFile, own: &str) -> Option<(u16, bool)> {
    let attr = cf.attribute("InnerClasses")?;
    let info = &attr.info;
    let n = u16::from_be_bytes([*info.first()?, *info.get(1)?]) as usize;
    for i in 0..n {
        let at = 2 + i * 8;
        let rec = info.get(at..at + 8)?;
        let inner = u16::from_be_bytes([rec[0], rec[1]]);
        let outer = u16::from_be_bytes([rec[2], rec[3]]);
        let name = u16::from_be_bytes([rec[4], rec[5]]);
        let flags = u16::from_be_bytes([rec[6], rec[7]]);
        if cf.constant_pool.class_name(inner).as_deref() == Some(own) {
            return Some((flags, outer == 0 || name == 0));
        }
    }
    None
}

/// Builds the summary of a parsed class. Malformed signatures fall back to descriptors; a member
/// whose descriptor is malformed is dropped (the class-file parser does not check descriptors).
pub(crate) fn summarize(cf: &ClassFile) -> ClassInfo {
    let cp = &cf.constant_pool;
    let own = cf.name().into_owned();
    let name = ClassName::binary_of(&own);
    let (access, is_local) = match inner_class_flags(cf, &own) {
        Some((flags, local)) => ((cf.access_flags & !0x0007) | (flags & 0x000f), local),
        None => (cf.access_flags, false),
    };
    let super_name = cf.super_name().map(|s| ClassName::binary_of(&s));
    let interfaces: Vec<String> = cf.interface_names().map(|s| ClassName::binary_of(&s)).collect();
    let erased_sig = ClassSig {
        type_params: Vec::new(),
        superclass: JType::class(super_name.as_deref().unwrap_or(crate::types::OBJECT)),
        interfaces: interfaces.iter().map(|i| JType::class(i)).collect(),
    };
    let sig = signature_text(cp, None, cf)
        .and_then(|t| parse_class_sig(&t).ok())
        .filter(|s| s.interfaces.len() == interfaces.len())
        .unwrap_or(erased_sig);
    let mut methods = Vec::new();
    for m in &cf.methods {
        let (Some(mname), Some(desc)) = (m.name(cp), m.descriptor(cp)) else { continue };
        let Ok(erased) = parse_method_sig(&desc) else { continue };
        let sig = signature_text(cp, Some(m), cf)
            .and_then(|t| parse_method_sig(&t).ok())
            .filter(|s| s.params.len() == erased.params.len() && s.ret.is_some() == erased.ret.is_some())
            .unwrap_or(erased);
        methods.push(MethodInfo {
            name: mname.into_owned(),
            descriptor: desc.into_owned(),
            access: m.access_flags,
            sig,
            exceptions: m.exceptions(cp).iter().map(|e| ClassName::binary_of(e)).collect(),
        });
    }
    let mut fields = Vec::new();
    for f in &cf.fields {
        let (Some(fname), Some(desc)) = (f.name(cp), f.descriptor(cp)) else { continue };
        let Ok(erased) = parse_field_type(&desc) else { continue };
        let ty = signature_text(cp, Some(f), cf).and_then(|t| parse_field_type(&t).ok()).unwrap_or(erased);
        fields.push(FieldInfo {
            name: fname.into_owned(),
            descriptor: desc.into_owned(),
            access: f.access_flags,
            ty,
        });
    }
    ClassInfo { name, access, is_local, super_name, interfaces, sig, methods, fields }
}

/// Primitive and string constants of a class's constant pool (JVMS §4.4.4, §4.4.5, §4.4.3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PoolConstants {
    pub ints: Vec<i32>,
    pub longs: Vec<i64>,
    pub floats: Vec<u32>,
    pub doubles: Vec<u64>,
    pub strings: Vec<String>,
}

pub(crate) fn pool_constants(cf: &ClassFile) -> PoolConstants {
    let cp = &cf.constant_pool;
    let mut res = PoolConstants::default();
    for (_, c) in cp.iter() {
        match c {
            Constant::Integer(v) => res.ints.push(*v),
            Constant::Long(v) => res.longs.push(*v),
            Constant::Float(v) => res.floats.push(*v),
            Constant::Double(v) => res.doubles.push(*v),
            Constant::String { string_index } => {
                // Recipes of `StringConcatFactory` (U+0001 marks an argument) are not values of
                // the program.
                if let Some(s) = cp.utf8(*string_index).filter(|s| !s.contains('\u{1}')) {
                    res.strings.push(s.into_owned());
                }
            }
            _ => {}
        }
    }
    res
}

/// Adds the numbers `body` pushes with instructions rather than from the constant pool
/// (`iconst_<i>`, `bipush`, `sipush`, `lconst_<l>`, `fconst_<f>`, `dconst_<d>`; JVMS §6.5): a
/// comparison with `5_000` or `':'` is a `sipush` or `bipush`, never a `CONSTANT_Integer`.
/// EvoSuite's static pool (`PrimitivePoolMethodAdapter`) collects them as well; without them a
/// branch like `v >= 5_000` had to be reached by small mutation steps alone.
pub(crate) fn code_constants(body: &MethodBody, cp: &ConstantPool, res: &mut PoolConstants) {
    use goals::Constant as C;
    // `ldc` values are the constant pool's, which `pool_constants` already holds.
    for insn in body.insns.iter().filter(|i| !matches!(i, Insn::Ldc { .. })) {
        match goals::constant_of(insn, cp) {
            Some(C::Int(v)) => res.ints.push(v),
            Some(C::Long(v)) => res.longs.push(v),
            Some(C::Float(b)) => res.floats.push(b),
            Some(C::Double(b)) => res.doubles.push(b),
            None => {}
        }
    }
}

/// What the CUT's static pool is made from: its constant pool's values (`pool_constants`), and,
/// read on first need and then kept, those plus the numbers its methods push
/// (`ClassTable::pool_constants`), which both the code constants and the format strings read.
pub(crate) struct CutPool<'t, 'a> {
    table: &'t ClassTable<'a>,
    name: &'t str,
    cf: &'t ClassFile,
    full: OnceCell<PoolConstants>,
}

impl<'t, 'a> CutPool<'t, 'a> {
    pub fn new(table: &'t ClassTable<'a>, name: &'t str, cf: &'t ClassFile) -> CutPool<'t, 'a> {
        CutPool { table, name, cf, full: OnceCell::new() }
    }

    /// The constant pool's values.
    pub fn constant_pool(&self) -> PoolConstants {
        pool_constants(self.cf)
    }

    /// The constant pool's values and the numbers the methods push.
    pub fn full(&self) -> &PoolConstants {
        self.full.get_or_init(|| self.table.pool_constants(self.name, self.cf))
    }

    /// Calls `f` on the body of every method of the CUT that has one (its static initialiser
    /// too), in the class file's order, with the class's constant pool.
    pub fn for_each_body(&self, mut f: impl FnMut(&MethodBody, &ConstantPool)) {
        let db = self.table.db();
        let Some(class) = db.class_id(ClassName::from_binary(self.name).internal()) else { return };
        for m in db.methods(class) {
            if let Some(Ok(body)) = db.body(m) {
                f(body, &self.cf.constant_pool);
            }
        }
    }
}

/// Loads and caches class summaries from the run's program database (each class parsed once per
/// run, shared with the planner and the goal model). A class that is missing or fails to parse is
/// remembered as absent, with its error text kept for the cluster's report.
pub(crate) struct ClassTable<'a> {
    db: &'a ProgramDb,
    cache: BTreeMap<String, Option<Arc<ClassInfo>>>,
    pub problems: BTreeMap<String, String>,
}

impl<'a> ClassTable<'a> {
    pub fn new(db: &'a ProgramDb) -> ClassTable<'a> {
        ClassTable { db, cache: BTreeMap::new(), problems: BTreeMap::new() }
    }

    /// The class the database parsed (binary name with dots).
    pub fn parse(&self, name: &str) -> Result<Cow<'a, ClassFile>, ClusterError> {
        let internal = ClassName::from_binary(name).into_internal();
        if let Some(Ok(cf)) = self.db.class_id(&internal).map(|c| self.db.class(c)) {
            return Ok(Cow::Borrowed(cf));
        }
        // A class that is missing or does not parse is read again here, for an error of our own
        // that names it.
        let bytes = self
            .classpath()
            .class_bytes(&internal)
            .map_err(|e| ClusterError::ClassFile(e.in_class(internal.clone())))?
            .ok_or_else(|| ClusterError::ClassNotFound(name.to_string()))?;
        ClassFile::parse(&bytes).map(Cow::Owned).map_err(|e| ClusterError::ClassFile(e.in_class(internal)))
    }

    /// The static pool's values of class `cf` (binary name `name`): its constant pool and the
    /// numbers its methods push (`code_constants`), except `<clinit>`'s, whose tables of values
    /// (lookup arrays, enum ordinals) would crowd out the values the methods compare against. The
    /// bodies come from the database, decoded once per run.
    pub fn pool_constants(&self, name: &str, cf: &ClassFile) -> PoolConstants {
        let mut res = pool_constants(cf);
        let initializer =
            |index: usize| cf.methods[index].name(&cf.constant_pool).as_deref() == Some("<clinit>");
        let db = self.db;
        let Some(class) = db.class_id(ClassName::from_binary(name).internal()) else { return res };
        for m in db.methods(class) {
            if !initializer(usize::from(m.index()))
                && let Some(Ok(body)) = db.body(m)
            {
                code_constants(body, &cf.constant_pool, &mut res);
            }
        }
        res
    }

    pub fn get(&mut self, name: &str) -> Option<Arc<ClassInfo>> {
        if let Some(c) = self.cache.get(name) {
            return c.clone();
        }
        let res = match self.parse(name) {
            Ok(cf) => Some(Arc::new(summarize(&cf))),
            Err(e) => {
                self.problems.insert(name.to_string(), e.to_string());
                None
            }
        };
        self.cache.insert(name.to_string(), res.clone());
        res
    }

    /// The run's program database, which owns the class hierarchy.
    pub fn db(&self) -> &'a ProgramDb {
        self.db
    }

    pub fn classpath(&self) -> &'a ClassPath {
        self.db.classpath()
    }
}
