//! Java types as the test model sees them: primitives, class types with type arguments, arrays, type
//! variables and wildcards; the parser of JVMS §4.3 descriptors and §4.7.9.1 generic signatures; and
//! assignability over a subtype oracle. It does not load classes: the oracle (the test cluster) does.

use jvm_model::ClassName;
use std::collections::BTreeMap;
use std::fmt;

/// The eight primitive types of JVMS §2.3 (defined at the bottom, shared with the protocol).
pub use jvm_model::PrimType;

/// A type argument of a parameterized class type (JVMS §4.7.9.1 `TypeArgument`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeArg {
    /// `*` (an unbounded wildcard `?`).
    Any,
    /// A concrete argument.
    Exact(JType),
    /// `? extends T`.
    Extends(JType),
    /// `? super T`.
    Super(JType),
}

/// A Java type. Class names are binary names with dots (`java.util.Map$Entry`), as in the protocol.
/// Inner classes of generic classes keep only their own type arguments (the outer ones are dropped).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JType {
    Prim(PrimType),
    Class {
        name: String,
        args: Vec<TypeArg>,
    },
    Array(Box<JType>),
    /// A type variable that no declaration in scope resolved.
    Var(String),
}

pub const OBJECT: &str = "java.lang.Object";
pub const STRING: &str = "java.lang.String";

impl JType {
    /// A class type without type arguments.
    pub fn class(name: &str) -> JType {
        JType::Class { name: name.to_string(), args: Vec::new() }
    }

    pub fn object() -> JType {
        JType::class(OBJECT)
    }

    pub fn string() -> JType {
        JType::class(STRING)
    }

    pub fn array_of(component: JType) -> JType {
        JType::Array(Box::new(component))
    }

    pub fn is_primitive(&self) -> bool {
        matches!(self, JType::Prim(_))
    }

    /// The class name of a class type.
    pub fn class_name(&self) -> Option<&str> {
        match self {
            JType::Class { name, .. } => Some(name),
            _ => None,
        }
    }

    /// Primitives, their wrappers and `String`: the types EvoSuite creates as constants.
    pub fn is_primitive_like(&self) -> bool {
        match self {
            JType::Prim(_) => true,
            JType::Class { name, .. } => name == STRING || PrimType::unwrap(name).is_some(),
            _ => false,
        }
    }

    /// The primitive behind a primitive or wrapper type.
    pub fn as_primitive(&self) -> Option<PrimType> {
        match self {
            JType::Prim(p) => Some(*p),
            JType::Class { name, .. } => PrimType::unwrap(name),
            _ => None,
        }
    }

    /// The type with type arguments and variables erased (JLS §4.6); variables erase to Object.
    pub fn erasure(&self) -> JType {
        match self {
            JType::Prim(p) => JType::Prim(*p),
            JType::Class { name, .. } => JType::class(name),
            JType::Array(c) => JType::array_of(c.erasure()),
            JType::Var(_) => JType::object(),
        }
    }

    /// The JVM field descriptor of the erasure (JVMS §4.3.2).
    pub fn descriptor(&self) -> String {
        let mut out = String::new();
        self.write_descriptor(&mut out);
        out
    }

    fn write_descriptor(&self, out: &mut String) {
        match self {
            JType::Prim(p) => out.push(p.descriptor_char()),
            JType::Class { name, .. } => {
                out.push('L');
                out.push_str(ClassName::from_binary(name).internal());
                out.push(';');
            }
            JType::Array(c) => {
                out.push('[');
                c.write_descriptor(out);
            }
            JType::Var(_) => out.push_str("Ljava/lang/Object;"),
        }
    }

    /// The generic signature of the type (JVMS §4.7.9.1 `ReferenceTypeSignature`, or a base
    /// type's character): `Ljava/util/List<Ljava/lang/String;>;`, `TT;`, `[I`. Nested classes are
    /// written with `$` in one outer-less name, as their binary name has it.
    pub fn signature(&self) -> String {
        let mut out = String::new();
        self.write_signature(&mut out);
        out
    }

    fn write_signature(&self, out: &mut String) {
        match self {
            JType::Prim(p) => out.push(p.descriptor_char()),
            JType::Var(v) => {
                out.push('T');
                out.push_str(v);
                out.push(';');
            }
            JType::Array(c) => {
                out.push('[');
                c.write_signature(out);
            }
            JType::Class { name, args } => {
                out.push('L');
                out.push_str(ClassName::from_binary(name).internal());
                if !args.is_empty() {
                    out.push('<');
                    for a in args {
                        match a {
                            TypeArg::Any => out.push('*'),
                            TypeArg::Exact(t) => t.write_signature(out),
                            TypeArg::Extends(t) => {
                                out.push('+');
                                t.write_signature(out);
                            }
                            TypeArg::Super(t) => {
                                out.push('-');
                                t.write_signature(out);
                            }
                        }
                    }
                    out.push('>');
                }
                out.push(';');
            }
        }
    }

    /// Whether a type variable occurs anywhere in the type.
    pub fn has_vars(&self) -> bool {
        match self {
            JType::Prim(_) => false,
            JType::Var(_) => true,
            JType::Array(c) => c.has_vars(),
            JType::Class { args, .. } => args.iter().any(|a| match a {
                TypeArg::Any => false,
                TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => t.has_vars(),
            }),
        }
    }

    /// Replaces type variables by the substitution; unmapped variables stay.
    pub fn subst(&self, map: &BTreeMap<String, JType>) -> JType {
        self.map_vars(&|v| map.get(v).cloned())
    }

    /// Rebuilds the type with each type variable replaced by what `f` gives for its name (`None`:
    /// the variable stays); the one structural walk behind substitution and erasure.
    pub fn map_vars(&self, f: &impl Fn(&str) -> Option<JType>) -> JType {
        match self {
            JType::Prim(_) => self.clone(),
            JType::Var(v) => f(v).unwrap_or_else(|| self.clone()),
            JType::Array(c) => JType::array_of(c.map_vars(f)),
            JType::Class { name, args } => JType::Class {
                name: name.clone(),
                args: args
                    .iter()
                    .map(|a| match a {
                        TypeArg::Any => TypeArg::Any,
                        TypeArg::Exact(t) => TypeArg::Exact(t.map_vars(f)),
                        TypeArg::Extends(t) => TypeArg::Extends(t.map_vars(f)),
                        TypeArg::Super(t) => TypeArg::Super(t.map_vars(f)),
                    })
                    .collect(),
            },
        }
    }

    /// Every class name mentioned, type arguments and array components included.
    pub fn mentioned_classes(&self, out: &mut Vec<String>) {
        match self {
            JType::Prim(_) | JType::Var(_) => {}
            JType::Array(c) => c.mentioned_classes(out),
            JType::Class { name, args } => {
                out.push(name.clone());
                for a in args {
                    match a {
                        TypeArg::Any => {}
                        TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => {
                            t.mentioned_classes(out)
                        }
                    }
                }
            }
        }
    }
}

/// The simple display name: the part after the package, `$` shown as `.`.
pub fn simple_name(binary: &str) -> String {
    binary.rsplit('.').next().unwrap_or(binary).replace('$', ".")
}

impl fmt::Display for JType {
    /// Compact Java-like text with simple class names (`List<String>`, `int[]`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JType::Prim(p) => f.write_str(p.name()),
            JType::Var(v) => f.write_str(v),
            JType::Array(c) => write!(f, "{c}[]"),
            JType::Class { name, args } => {
                f.write_str(&simple_name(name))?;
                if !args.is_empty() {
                    f.write_str("<")?;
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        match a {
                            TypeArg::Any => f.write_str("?")?,
                            TypeArg::Exact(t) => write!(f, "{t}")?,
                            TypeArg::Extends(t) => write!(f, "? extends {t}")?,
                            TypeArg::Super(t) => write!(f, "? super {t}")?,
                        }
                    }
                    f.write_str(">")?;
                }
                Ok(())
            }
        }
    }
}

/// A formal type parameter (`T extends Comparable<T>`): its name and bounds (class bound first).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeParam {
    pub name: String,
    pub bounds: Vec<JType>,
}

impl TypeParam {
    /// The first bound, or Object: what the variable erases to (JLS §4.6).
    pub fn erased_bound(&self) -> JType {
        self.bounds.first().map(JType::erasure).unwrap_or_else(JType::object)
    }
}

/// A parsed `ClassSignature` (JVMS §4.7.9.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassSig {
    pub type_params: Vec<TypeParam>,
    pub superclass: JType,
    pub interfaces: Vec<JType>,
}

/// A parsed `MethodSignature` or method descriptor. `ret` is `None` for `void`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodSig {
    pub type_params: Vec<TypeParam>,
    pub params: Vec<JType>,
    pub ret: Option<JType>,
}

/// A descriptor or signature that does not follow JVMS §4.3 / §4.7.9.1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad signature {text:?} at character {offset}: {what}")]
pub struct SignatureError {
    pub text: String,
    pub offset: usize,
    pub what: &'static str,
}

/// A recursive-descent parser over the grammar of JVMS §4.7.9.1. Descriptors (§4.3) are the
/// subset without `<...>`, `T...;` and wildcards, so one parser reads both. Nesting depth is
/// bounded by the input length, which the class-file format bounds to 65535 bytes.
struct SigParser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> SigParser<'a> {
    fn new(text: &'a str) -> SigParser<'a> {
        SigParser { text, bytes: text.as_bytes(), pos: 0 }
    }

    fn err(&self, what: &'static str) -> SignatureError {
        SignatureError { text: self.text.to_string(), offset: self.pos, what }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn expect(&mut self, b: u8, what: &'static str) -> Result<(), SignatureError> {
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(what))
        }
    }

    /// An identifier: everything up to one of the signature's punctuation characters.
    fn ident(&mut self) -> Result<&'a str, SignatureError> {
        let start = self.pos;
        while let Some(b) = self.peek() {
            if matches!(b, b'.' | b';' | b'[' | b'/' | b'<' | b'>' | b':') {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.err("empty identifier"));
        }
        Ok(&self.text[start..self.pos])
    }

    fn type_params(&mut self) -> Result<Vec<TypeParam>, SignatureError> {
        let mut res = Vec::new();
        if self.peek() != Some(b'<') {
            return Ok(res);
        }
        self.pos += 1;
        while self.peek() != Some(b'>') {
            let name = self.ident()?.to_string();
            let mut bounds = Vec::new();
            // ClassBound: `:` with an optional reference type; then InterfaceBounds `:T`.
            self.expect(b':', "':' in type parameter")?;
            if !matches!(self.peek(), Some(b':') | Some(b'>')) {
                bounds.push(self.reference_type()?);
            }
            while self.peek() == Some(b':') {
                self.pos += 1;
                bounds.push(self.reference_type()?);
            }
            res.push(TypeParam { name, bounds });
            if self.peek().is_none() {
                return Err(self.err("unterminated type parameters"));
            }
        }
        self.pos += 1;
        Ok(res)
    }

    fn java_type(&mut self) -> Result<JType, SignatureError> {
        match self.peek() {
            Some(c) if PrimType::from_descriptor_char(c as char).is_some() => {
                self.pos += 1;
                Ok(JType::Prim(PrimType::from_descriptor_char(c as char).unwrap_or(PrimType::Int)))
            }
            _ => self.reference_type(),
        }
    }

    fn reference_type(&mut self) -> Result<JType, SignatureError> {
        match self.peek() {
            Some(b'L') => self.class_type(),
            Some(b'T') => {
                self.pos += 1;
                let name = self.ident()?.to_string();
                self.expect(b';', "';' after type variable")?;
                Ok(JType::Var(name))
            }
            Some(b'[') => {
                self.pos += 1;
                Ok(JType::array_of(self.java_type()?))
            }
            _ => Err(self.err("expected a reference type")),
        }
    }

    /// `L pkg/Name<args>.Inner<args>;` -> `pkg.Name$Inner` with the innermost arguments.
    fn class_type(&mut self) -> Result<JType, SignatureError> {
        self.expect(b'L', "'L'")?;
        let mut name = String::new();
        // Package and simple name: identifiers separated by '/'.
        loop {
            name.push_str(self.ident()?);
            if self.peek() == Some(b'/') {
                self.pos += 1;
                name.push('.');
            } else {
                break;
            }
        }
        let mut args = self.type_args()?;
        while self.peek() == Some(b'.') {
            self.pos += 1;
            name.push('$');
            name.push_str(self.ident()?);
            args = self.type_args()?;
        }
        self.expect(b';', "';' after class type")?;
        Ok(JType::Class { name, args })
    }

    fn type_args(&mut self) -> Result<Vec<TypeArg>, SignatureError> {
        let mut res = Vec::new();
        if self.peek() != Some(b'<') {
            return Ok(res);
        }
        self.pos += 1;
        loop {
            match self.peek() {
                Some(b'>') => break,
                Some(b'*') => {
                    self.pos += 1;
                    res.push(TypeArg::Any);
                }
                Some(b'+') => {
                    self.pos += 1;
                    res.push(TypeArg::Extends(self.reference_type()?));
                }
                Some(b'-') => {
                    self.pos += 1;
                    res.push(TypeArg::Super(self.reference_type()?));
                }
                Some(_) => res.push(TypeArg::Exact(self.reference_type()?)),
                None => return Err(self.err("unterminated type arguments")),
            }
        }
        self.pos += 1;
        if res.is_empty() {
            return Err(self.err("empty type arguments"));
        }
        Ok(res)
    }

    fn finish(&self) -> Result<(), SignatureError> {
        if self.pos != self.bytes.len() {
            return Err(self.err("trailing characters"));
        }
        Ok(())
    }
}

/// Parses a field descriptor or a `FieldSignature` (`ReferenceTypeSignature`).
pub fn parse_field_type(text: &str) -> Result<JType, SignatureError> {
    let mut p = SigParser::new(text);
    let res = p.java_type()?;
    p.finish()?;
    Ok(res)
}

/// Parses a method descriptor or a `MethodSignature`; `throws` clauses are read and dropped.
pub fn parse_method_sig(text: &str) -> Result<MethodSig, SignatureError> {
    let mut p = SigParser::new(text);
    let type_params = p.type_params()?;
    p.expect(b'(', "'(' opening the parameters")?;
    let mut params = Vec::new();
    while p.peek() != Some(b')') {
        if p.peek().is_none() {
            return Err(p.err("unterminated parameters"));
        }
        params.push(p.java_type()?);
    }
    p.pos += 1;
    let ret = if p.peek() == Some(b'V') {
        p.pos += 1;
        None
    } else {
        Some(p.java_type()?)
    };
    while p.peek() == Some(b'^') {
        p.pos += 1;
        p.reference_type()?;
    }
    p.finish()?;
    Ok(MethodSig { type_params, params, ret })
}

/// Parses a `TypeParameters` part on its own (`<E:Ljava/lang/Object;>`; empty text has none), as
/// the program database cuts it from a `ClassSignature`.
pub fn parse_type_params(text: &str) -> Result<Vec<TypeParam>, SignatureError> {
    let mut p = SigParser::new(text);
    let res = p.type_params()?;
    p.finish()?;
    Ok(res)
}

/// Parses a `ClassSignature`.
pub fn parse_class_sig(text: &str) -> Result<ClassSig, SignatureError> {
    let mut p = SigParser::new(text);
    let type_params = p.type_params()?;
    let superclass = p.class_type()?;
    let mut interfaces = Vec::new();
    while p.peek().is_some() {
        interfaces.push(p.class_type()?);
    }
    Ok(ClassSig { type_params, superclass, interfaces })
}

/// Which classes are subclasses of which: what assignability needs from the class hierarchy.
/// The test cluster implements it from the class files it loaded.
pub trait SubtypeOracle {
    /// Whether class `sub` is `sup` or a subclass/implementation of it (binary names). Unknown
    /// classes are subtypes only of themselves and of Object.
    fn is_subclass(&self, sub: &str, sup: &str) -> bool;
}

/// An oracle that knows no hierarchy: identity, Object, boxing. Good for tests of the model.
#[derive(Debug, Clone, Copy)]
pub struct NoHierarchy;

impl SubtypeOracle for NoHierarchy {
    fn is_subclass(&self, sub: &str, sup: &str) -> bool {
        sub == sup || sup == OBJECT
    }
}

/// Whether a value of type `from` can be passed where `to` is expected by reflection-style
/// invocation: identity and widening of primitives, boxing and unboxing (JLS §5.3), reference
/// widening by the oracle with type arguments compared when both sides name the same class.
/// Type variables count as their erasure (Object).
pub fn is_assignable(oracle: &dyn SubtypeOracle, from: &JType, to: &JType) -> bool {
    match (from, to) {
        (JType::Prim(a), JType::Prim(b)) => a.widens_to(*b),
        (JType::Prim(a), JType::Class { name, .. }) => {
            // Boxing then reference widening (Integer -> Number -> Object).
            oracle.is_subclass(a.wrapper(), name) || name == OBJECT
        }
        (JType::Class { name, .. }, JType::Prim(b)) => {
            PrimType::unwrap(name).is_some_and(|a| a.widens_to(*b))
        }
        // An unresolved variable target accepts anything (boxing included), as its erasure Object does.
        (_, JType::Var(_)) => true,
        (JType::Var(_), JType::Class { name, .. }) => name == OBJECT,
        (JType::Var(_), _) => false,
        (JType::Array(_), JType::Class { name, .. }) => {
            name == OBJECT || name == "java.lang.Cloneable" || name == "java.io.Serializable"
        }
        (JType::Class { .. }, JType::Array(_))
        | (JType::Prim(_), JType::Array(_))
        | (JType::Array(_), JType::Prim(_)) => false,
        (JType::Array(a), JType::Array(b)) => match (a.as_ref(), b.as_ref()) {
            (JType::Prim(x), JType::Prim(y)) => x == y,
            (JType::Prim(_), _) | (_, JType::Prim(_)) => false,
            (x, y) => is_assignable(oracle, x, y),
        },
        (JType::Class { name: fname, args: fargs }, JType::Class { name: tname, args: targs }) => {
            if !oracle.is_subclass(fname, tname) {
                return false;
            }
            // Raw types on either side are assignable with an unchecked conversion (JLS §5.1.9).
            if fname != tname || fargs.is_empty() || targs.is_empty() || fargs.len() != targs.len() {
                return true;
            }
            fargs.iter().zip(targs).all(|(f, t)| arg_contained(oracle, f, t))
        }
    }
}

/// Type-argument containment (JLS §4.5.1), with an unknown (`?`) source accepted everywhere
/// because our values come from raw reflection.
fn arg_contained(oracle: &dyn SubtypeOracle, from: &TypeArg, to: &TypeArg) -> bool {
    let from_ty = match from {
        TypeArg::Any => return true,
        TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => t,
    };
    match to {
        TypeArg::Any => true,
        TypeArg::Exact(t) => from_ty.erasure() == t.erasure() || matches!(t, JType::Var(_)),
        TypeArg::Extends(t) => is_assignable(oracle, from_ty, t),
        TypeArg::Super(t) => is_assignable(oracle, t, from_ty),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_generic_signatures() {
        let s = parse_method_sig(
            "<T::Ljava/lang/Comparable<-TT;>;>(Ljava/util/List<+TT;>;[I)TT;^Ljava/io/IOException;",
        )
        .unwrap();
        assert_eq!(s.type_params[0].name, "T");
        assert_eq!(s.params[0].to_string(), "List<? extends T>");
        assert_eq!(s.params[1].to_string(), "int[]");
        assert_eq!(s.ret, Some(JType::Var("T".into())));
        let c = parse_class_sig("<K:Ljava/lang/Object;V:Ljava/lang/Object;>Ljava/util/AbstractMap<TK;TV;>;Ljava/util/Map<TK;TV;>;").unwrap();
        assert_eq!(c.superclass.to_string(), "AbstractMap<K, V>");
        assert_eq!(c.interfaces.len(), 1);
        let inner = parse_field_type("Ljava/util/Map<TK;TV;>.Entry<TK;TV;>;").unwrap();
        assert_eq!(inner.class_name(), Some("java.util.Map$Entry"));
        assert!(parse_field_type("Ljava/util/List<>;").is_err());
        assert!(parse_method_sig("(I").is_err());
        assert!(parse_field_type("").is_err());
    }

    #[test]
    fn assignability() {
        let o = NoHierarchy;
        let int = JType::Prim(PrimType::Int);
        assert!(is_assignable(&o, &int, &JType::Prim(PrimType::Long)));
        assert!(!is_assignable(&o, &JType::Prim(PrimType::Long), &int));
        assert!(is_assignable(&o, &int, &JType::class("java.lang.Integer")));
        assert!(is_assignable(&o, &JType::class("java.lang.Integer"), &int));
        assert!(is_assignable(&o, &JType::string(), &JType::object()));
        assert!(!is_assignable(&o, &JType::object(), &JType::string()));
        let ls = parse_field_type("Ljava/util/List<Ljava/lang/String;>;").unwrap();
        let li = parse_field_type("Ljava/util/List<Ljava/lang/Integer;>;").unwrap();
        assert!(!is_assignable(&o, &li, &ls));
        assert!(is_assignable(&o, &JType::class("java.util.List"), &ls));
    }
}
