//! The renderer: statements to Java statements with the casts overload resolution and generics need,
//! assertions to JUnit calls, expected exceptions to `assertThrows` (JUnit 4.13 and 5), and the
//! class around them with its header and imports. The crate documentation
//! (lib.rs) states the rules; this file applies them in one pass per test over an import table
//! decided beforehand.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use testcase::types::{parse_field_type, parse_method_sig};
use testcase::{
    ConstructorRef, JType, MethodRef, PrimType, PrimValue, ScratchFile, ScratchKind, Statement, StubRef,
    TestCase, VarId,
};

use crate::literal::{ascii_ident, prim_literal, string_literal};
use crate::names::{Names, SourceName, VarNames};
use crate::properties;
use crate::{
    Assertion, Check, Expected, JUnitTest, RenderConfig, RenderError, Rendered, Rule, Style, Subject,
    TestLines,
};

const INDENT: &str = "  ";

/// The variable the expected exception is bound to; test variables always end in a digit.
const THROWN: &str = "e";

/// The JUnit classes a style writes by name.
struct JUnitNames {
    test: &'static str,
    assertions: &'static str,
    timeout: Option<&'static str>,
}

fn junit_names(style: Style) -> JUnitNames {
    match style {
        Style::JUnit4 => JUnitNames { test: "org.junit.Test", assertions: "org.junit.Assert", timeout: None },
        Style::JUnit5 => JUnitNames {
            test: "org.junit.jupiter.api.Test",
            assertions: "org.junit.jupiter.api.Assertions",
            timeout: Some("org.junit.jupiter.api.Timeout"),
        },
    }
}

const TIME_UNIT: &str = "java.util.concurrent.TimeUnit";

/// Renders `tests` as one JUnit test class for the class under test `cut` (a binary name).
pub fn render(cut: &str, tests: &[JUnitTest], config: &RenderConfig) -> Result<Rendered, RenderError> {
    let cut_name = SourceName::parse(cut);
    if cut.is_empty() || cut_name.top.is_empty() || cut.chars().any(|c| c.is_whitespace() || c == '/') {
        return Err(RenderError::BadClassName(cut.to_string()));
    }
    for (ti, t) in tests.iter().enumerate() {
        validate(ti, t)?;
    }
    check_names(tests)?;
    let package = cut_name.package.clone();
    let class_name = test_class_name(&cut_name, config)?;

    let jn = junit_names(config.style);
    let ms_timeout = config.style == Style::JUnit5 && !config.timeout_ms.is_multiple_of(1000);
    let mut junit: BTreeSet<String> = [jn.test].iter().map(|s| s.to_string()).collect();
    let files =
        tests.iter().any(|t| t.case.statements.iter().any(|s| matches!(s, Statement::ScratchFile(_))));
    if files {
        junit.extend(temporary_folder_classes(config.style).iter().map(|s| s.to_string()));
    }
    let restores = tests.iter().any(|t| t.changes_system_properties);
    if restores {
        junit.extend(properties::classes(config.style).map(str::to_string));
    }
    if config.timeout_ms > 0 {
        junit.extend(jn.timeout.map(str::to_string));
        if ms_timeout {
            junit.insert(TIME_UNIT.to_string());
        }
    }
    let mut mentioned = BTreeSet::new();
    mentioned.insert(cut.to_string());
    for c in ["Object", "String", "Integer", "Long", "Float", "Double"] {
        mentioned.insert(format!("java.lang.{c}"));
    }
    for t in tests {
        collect_mentioned(t, &mut mentioned);
    }
    mentioned
        .extend(config.package_classes.iter().filter(|c| SourceName::parse(c).package == package).cloned());
    let mut names = Names::new(&package, cut, &mentioned, &junit);

    let mut statics: BTreeSet<&'static str> = BTreeSet::new();
    let width = tests.len().saturating_sub(1).to_string().len().max(2);
    let mut methods = String::new();
    let mut placed: Vec<TestLines> = Vec::new();
    for (ti, t) in tests.iter().enumerate() {
        let mut ctx = Ctx {
            names: &mut names,
            statics: &mut statics,
            style: config.style,
            test_idx: ti,
            inline_constants: config.inline_constants,
            inline: Vec::new(),
            lines: BodyLines::default(),
            static_nested: &config.static_nested,
        };
        let body = ctx.test_body(t)?;
        methods.push('\n');
        test_annotations(&mut methods, ctx.names, config, &jn, ms_timeout);
        let method = t.name.clone().unwrap_or_else(|| format!("test{ti:0width$}"));
        writeln!(methods, "{INDENT}public void {method}() throws Throwable {{").ok();
        let body_start = line_count(&methods);
        methods.push_str(&body);
        writeln!(methods, "{INDENT}}}").ok();
        let at = |offset: usize| (body_start + offset) as u32;
        placed.push(TestLines {
            method,
            first_line: at(0),
            last_line: (line_count(&methods) - 1) as u32,
            assertions: ctx.lines.assertions.iter().map(|&(a, off)| (a, at(off))).collect(),
            fail: ctx.lines.fail.map(at),
            throwing: ctx.lines.throwing.map(at),
        });
    }

    let folder = files.then(|| temporary_folder_field(&mut names, config.style));
    let restore = restores.then(|| properties::restore(&mut names, config.style, INDENT));
    let mut out = preamble(cut, &package, &statics, &names, config, &jn);
    writeln!(out, "public class {} {{", ascii_ident(&class_name)).ok();
    if let Some(f) = &folder {
        out.push_str(f);
    }
    if let Some(r) = restore {
        if folder.is_some() {
            out.push('\n');
        }
        out.push_str(&r);
    }
    // Offsets so far count from the first line of `methods`; make them 1-based file lines.
    shift_lines(&mut placed, line_count(&out) as u32 + 1);
    out.push_str(&methods);
    out.push_str("}\n");
    Ok(Rendered { package, class_name, source: out, tests: placed })
}

/// The JUnit classes the temporary folder of a test class with scratch files needs.
fn temporary_folder_classes(style: Style) -> &'static [&'static str] {
    match style {
        Style::JUnit4 => &["org.junit.Rule", "org.junit.rules.TemporaryFolder"],
        Style::JUnit5 => &["org.junit.jupiter.api.io.TempDir", PATH_CLASS],
    }
}

const PATH_CLASS: &str = testcase::statement::PATH;

/// The name of the temporary folder's field; test variables always end in a digit, so it is
/// never one of theirs.
const FOLDER: &str = "temporaryFolder";

/// The declaration of the temporary folder that scratch files go in: a new empty one per test
/// method, which JUnit deletes after it (JUnit 4's rule, JUnit 5's `@TempDir`).
fn temporary_folder_field(names: &mut Names, style: Style) -> String {
    match style {
        Style::JUnit4 => {
            let (rule, folder) =
                (names.class("org.junit.Rule"), names.class("org.junit.rules.TemporaryFolder"));
            format!("{INDENT}@{rule}\n{INDENT}public {folder} {FOLDER} = new {folder}();\n")
        }
        Style::JUnit5 => {
            let (temp_dir, path) = (names.class("org.junit.jupiter.api.io.TempDir"), names.class(PATH_CLASS));
            format!("{INDENT}@{temp_dir}\n{INDENT}{path} {FOLDER};\n")
        }
    }
}

/// The simple name of the test class: the configured one, else `<Simple>_ESTest` (nested classes
/// joined with `_`).
fn test_class_name(cut_name: &SourceName, config: &RenderConfig) -> Result<String, RenderError> {
    Ok(match &config.class_name {
        Some(n) if !n.is_empty() => n.clone(),
        Some(_) => return Err(RenderError::BadClassName(String::new())),
        None => {
            let mut n = cut_name.top.clone();
            for p in &cut_name.nested {
                n.push('_');
                n.push_str(p);
            }
            format!("{n}_ESTest")
        }
    })
}

/// The `@Test` annotation of one method, with its timeout.
fn test_annotations(
    methods: &mut String,
    names: &mut Names,
    config: &RenderConfig,
    jn: &JUnitNames,
    ms_timeout: bool,
) {
    let test_ann = names.class(jn.test);
    match (config.style, config.timeout_ms) {
        (_, 0) => writeln!(methods, "{INDENT}@{test_ann}"),
        (Style::JUnit4, ms) => writeln!(methods, "{INDENT}@{test_ann}(timeout = {ms})"),
        (Style::JUnit5, ms) => {
            let timeout = names.class(jn.timeout.unwrap_or("org.junit.jupiter.api.Timeout"));
            if ms_timeout {
                let unit = names.class(TIME_UNIT);
                writeln!(
                    methods,
                    "{INDENT}@{test_ann}\n{INDENT}@{timeout}(value = {ms}, unit = {unit}.MILLISECONDS)"
                )
            } else {
                writeln!(methods, "{INDENT}@{test_ann}\n{INDENT}@{timeout}({})", ms / 1000)
            }
        }
    }
    .ok();
}

/// Everything before the class declaration: the header comment, the package, the static imports
/// of the assertions used and the single-type imports.
fn preamble(
    cut: &str,
    package: &str,
    statics: &BTreeSet<&'static str>,
    names: &Names,
    config: &RenderConfig,
    jn: &JUnitNames,
) -> String {
    let mut out = String::new();
    let junit_version = match config.style {
        Style::JUnit4 => 4,
        Style::JUnit5 => 5,
    };
    // The flags cannot end the comment: `*/` in one is split.
    let flags = match config.jvm_args.as_slice() {
        [] => String::new(),
        args => format!(" Run with the JVM flags {}.", args.join(" ").replace("*/", "* /")),
    };
    if config.failing_by_design {
        writeln!(
            out,
            "/* These tests FAIL by design: each shows a contract {} breaks (suitesmith, docs/contracts.md). */",
            ascii_ident(cut)
        )
        .ok();
    }
    writeln!(
        out,
        "/* Generated by suitesmith {}, seed {}, for {}, JUnit {junit_version}.{flags} */",
        config.tool_version,
        config.seed,
        ascii_ident(cut)
    )
    .ok();
    out.push('\n');
    if !package.is_empty() {
        writeln!(out, "package {};\n", ascii_ident(package)).ok();
    }
    if !statics.is_empty() {
        for s in statics {
            writeln!(out, "import static {}.{s};", jn.assertions).ok();
        }
        out.push('\n');
    }
    let imports = names.imports();
    if !imports.is_empty() {
        for i in &imports {
            writeln!(out, "import {i};").ok();
        }
        out.push('\n');
    }
    out
}

/// Test names are plain identifiers, none used twice (a numbered name can clash with a given one).
fn check_names(tests: &[JUnitTest]) -> Result<(), RenderError> {
    let width = tests.len().saturating_sub(1).to_string().len().max(2);
    let mut seen = BTreeSet::new();
    for (ti, t) in tests.iter().enumerate() {
        let name = t.name.clone().unwrap_or_else(|| format!("test{ti:0width$}"));
        let identifier = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if !identifier || !seen.insert(name.clone()) {
            return Err(RenderError::BadTestName { test: ti, name });
        }
    }
    Ok(())
}

/// Moves the lines of `placed`, counted from the first line of the methods, down by `shift`.
fn shift_lines(placed: &mut [TestLines], shift: u32) {
    for t in placed {
        t.first_line += shift;
        t.last_line += shift;
        for (_, l) in &mut t.assertions {
            *l += shift;
        }
        for l in [&mut t.fail, &mut t.throwing].into_iter().flatten() {
            *l += shift;
        }
    }
}

/// Checks what the renderer relies on: variables defined before use and with values, assertions
/// placed inside the test and on variables visible there.
fn validate(ti: usize, t: &JUnitTest) -> Result<(), RenderError> {
    let sts = &t.case.statements;
    let var_ok = |stmt: usize, v: VarId, upto: usize| -> Result<(), RenderError> {
        if v.index() >= upto {
            return Err(RenderError::ForwardUse { test: ti, stmt, var: v });
        }
        if sts[v.index()].value_type().is_none() {
            return Err(RenderError::VoidUse { test: ti, stmt, var: v });
        }
        Ok(())
    };
    for (i, st) in sts.iter().enumerate() {
        for v in st.uses() {
            var_ok(i, v, i)?;
        }
    }
    if t.expected_exception.is_some() && sts.is_empty() {
        return Err(RenderError::EmptyThrowingTest { test: ti });
    }
    for (ai, a) in t.assertions.iter().enumerate() {
        let bad = |what: String| RenderError::BadAssertion { test: ti, assertion: ai, what };
        if a.after >= sts.len() {
            return Err(bad(format!("placed after statement {} of {}", a.after, sts.len())));
        }
        if a.check.on_thrown() && (t.expected_exception.is_none() || a.after + 1 != sts.len()) {
            return Err(bad(
                "a check of the thrown exception needs one, after the last statement".to_string()
            ));
        }
        // After a throwing last statement, its own variable was never assigned.
        let visible =
            if t.expected_exception.is_some() && a.after + 1 == sts.len() { a.after } else { a.after + 1 };
        for v in check_vars(&a.check) {
            var_ok(a.after, v, visible).map_err(|e| bad(e.to_string()))?;
        }
    }
    Ok(())
}

fn check_vars(c: &Check) -> Vec<VarId> {
    c.vars()
}

/// Every class the rendered test might name (a superset: it only decides which simple names are
/// contested; imports come from what is actually written).
fn collect_mentioned(t: &JUnitTest, out: &mut BTreeSet<String>) {
    let mut v: Vec<String> = Vec::new();
    let ty = |t: &JType, v: &mut Vec<String>| t.mentioned_classes(v);
    for st in &t.case.statements {
        if let Some(t) = st.value_type() {
            ty(&t, &mut v);
        }
        match st {
            Statement::Constructor { ctor, .. } => {
                v.push(ctor.class.clone());
                ctor.params.iter().for_each(|p| ty(p, &mut v));
            }
            Statement::Method { method, .. } => {
                v.push(method.class.clone());
                ty(&method.owner, &mut v);
                method.params.iter().for_each(|p| ty(p, &mut v));
            }
            Statement::FieldGet { field, .. } | Statement::FieldSet { field, .. } => {
                v.push(field.class.clone());
                ty(&field.owner, &mut v);
                ty(&field.ty, &mut v);
            }
            Statement::ScratchFile(_) => {
                v.extend(["java.nio.file.Files", "java.nio.charset.StandardCharsets"].map(str::to_string));
            }
            Statement::Stub { stub, .. } => {
                v.push(stub.stub.class.clone());
                stub.ctor_params().iter().for_each(|p| ty(p, &mut v));
                for m in &stub.stub.methods {
                    m.java_params.iter().chain(&m.java_ret).for_each(|p| ty(p, &mut v));
                }
            }
            _ => {}
        }
    }
    v.extend(t.expected_exception.iter().cloned());
    for a in &t.assertions {
        if let Check::Equals { subject: Subject::Call { ret, .. }, .. } = &a.check {
            ty(ret, &mut v);
        }
    }
    out.extend(v);
}

struct Ctx<'a> {
    names: &'a mut Names,
    statics: &'a mut BTreeSet<&'static str>,
    style: Style,
    test_idx: usize,
    inline_constants: bool,
    /// Per statement of the current test: whether its constant is written at its uses.
    inline: Vec<bool>,
    /// Where the current test's assertions and `fail` call are, as line offsets in its body.
    lines: BodyLines,
    /// `RenderConfig::static_nested`.
    static_nested: &'a [String],
}

/// Line offsets (0-based, in the test body) of a test's assertions and of its `fail` call.
#[derive(Default)]
struct BodyLines {
    assertions: Vec<(usize, usize)>,
    fail: Option<usize>,
    throwing: Option<usize>,
}

/// The number of lines `out` holds so far (it always ends with a newline or is empty).
fn line_count(out: &str) -> usize {
    out.bytes().filter(|&b| b == b'\n').count()
}

/// One rendered statement: the declaration prefix (`Type name = `) if it has a value, the
/// expression, and for calls the bare call (no result cast), usable as an expression lambda body.
struct Line {
    decl: Option<String>,
    expr: String,
    call: Option<String>,
}

impl Line {
    fn text(&self) -> String {
        match &self.decl {
            Some(d) => format!("{d}{};", self.expr),
            None => format!("{};", self.expr),
        }
    }
}

impl Ctx<'_> {
    fn assert_fn(&mut self, name: &'static str) -> &'static str {
        self.statics.insert(name);
        name
    }

    /// A contract's assertion with its message (JUnit 4 takes the message first, JUnit 5 last).
    fn contract(&mut self, rule: &Rule, message: &str, names: &[Option<String>]) -> String {
        let n = |v: VarId| Self::name(names, v);
        let (f, args) = match rule {
            Rule::True(v) => (self.assert_fn("assertTrue"), vec![n(*v)]),
            Rule::False(v) => (self.assert_fn("assertFalse"), vec![n(*v)]),
            Rule::Zero(v) => (self.assert_fn("assertEquals"), vec!["0".to_string(), n(*v)]),
            Rule::Same(a, b) => (self.assert_fn("assertEquals"), vec![n(*a), n(*b)]),
            Rule::OppositeSigns(a, b) => {
                let integer = self.names.class("java.lang.Integer");
                (
                    self.assert_fn("assertEquals"),
                    vec![format!("-{integer}.signum({})", n(*a)), format!("{integer}.signum({})", n(*b))],
                )
            }
            Rule::ZeroWhenEqual { compared, equal } => {
                (self.assert_fn("assertEquals"), vec![n(*equal), format!("{} == 0", n(*compared))])
            }
        };
        let message = string_literal(message);
        let args = args.join(", ");
        match self.style {
            Style::JUnit4 => format!("{f}({message}, {args});"),
            Style::JUnit5 => format!("{f}({args}, {message});"),
        }
    }

    fn test_body(&mut self, t: &JUnitTest) -> Result<String, RenderError> {
        let case = &t.case;
        self.inline =
            if self.inline_constants { inlinable(t, self.static_nested) } else { vec![false; case.len()] };
        let mut var_names = VarNames::default();
        let names: Vec<Option<String>> = case
            .statements
            .iter()
            .zip(&self.inline)
            .map(|(st, &inl)| if inl { None } else { st.value_type().map(|ty| var_names.fresh(&ty)) })
            .collect();
        let mut out = String::new();
        self.lines = BodyLines::default();
        let n = case.len();
        let in2 = format!("{INDENT}{INDENT}");
        let throwing = t.expected_exception.as_ref().map(|x| (n - 1, x));
        for i in 0..n {
            match throwing {
                Some((last, exc)) if i == last => {
                    let line = self.statement(case, &names, i);
                    let after: Vec<(usize, &Assertion)> =
                        t.assertions.iter().enumerate().filter(|(_, a)| a.after == i).collect();
                    self.throwing(&mut out, case, &names, &line, exc, &after)?;
                }
                _ => {
                    // An inlined constant has no line of its own, but assertions placed after it
                    // (on other variables) are still written here.
                    if !self.inline[i] {
                        let line = self.statement(case, &names, i);
                        writeln!(out, "{in2}{}", line.text()).ok();
                    }
                    for (ai, a) in t.assertions.iter().enumerate().filter(|(_, a)| a.after == i) {
                        let s = self.assertion(case, &names, ai, a)?;
                        self.lines.assertions.push((ai, line_count(&out)));
                        writeln!(out, "{in2}{s}").ok();
                    }
                }
            }
        }
        Ok(out)
    }

    /// The throwing last statement with the assertions placed after it: `assertThrows` (JUnit 4.13
    /// and 5) around it, binding the exception to `e` when a check reads it. Every variable is
    /// declared once and never reassigned, so the lambda may capture any of them (JLS §15.27.2).
    fn throwing(
        &mut self,
        out: &mut String,
        case: &TestCase,
        names: &[Option<String>],
        line: &Line,
        exc: &str,
        after: &[(usize, &Assertion)],
    ) -> Result<(), RenderError> {
        let in2 = format!("{INDENT}{INDENT}");
        let exc_src = self.names.class(exc);
        let mut checks = Vec::new();
        for (ai, a) in after {
            checks.push((*ai, self.assertion(case, names, *ai, a)?));
        }
        let assert_throws = self.assert_fn("assertThrows");
        let lambda = match &line.call {
            Some(call) => format!("() -> {call}"),
            None => format!("() -> {{ {} }}", line.text()),
        };
        let bind = if after.iter().any(|(_, a)| a.check.on_thrown()) {
            format!("{exc_src} {THROWN} = ")
        } else {
            String::new()
        };
        // One line both throws and fails (`assertThrows` reports a missing exception).
        self.lines.throwing = Some(line_count(out));
        self.lines.fail = Some(line_count(out));
        writeln!(out, "{in2}{bind}{assert_throws}({exc_src}.class, {lambda});").ok();
        for (ai, c) in &checks {
            self.lines.assertions.push((*ai, line_count(out)));
            writeln!(out, "{in2}{c}").ok();
        }
        Ok(())
    }

    /// `assertEquals(want, e.<read>)` on the expected exception.
    fn thrown_check(&mut self, want: &str, read: &str) -> String {
        let f = self.assert_fn("assertEquals");
        format!("{f}({}, {THROWN}.{read});", string_literal(want))
    }

    fn var_type(case: &TestCase, v: VarId) -> JType {
        case.var_type(v).unwrap_or_else(JType::object)
    }

    fn name(names: &[Option<String>], v: VarId) -> String {
        names.get(v.index()).cloned().flatten().unwrap_or_else(|| "null".to_string())
    }

    /// `v`, cast to `want` when its declared type's erasure differs (JLS §15.12.2: the argument's
    /// static type then equals the parameter type, so the intended overload is the most specific).
    ///
    /// A parameterized target is cast to its raw type instead: the model's assignability of type
    /// arguments is laxer than javac's (values come from raw reflection), and a cast between
    /// differently parameterized types can be illegal (JLS §5.5), while the raw type converts to
    /// any parameterization with an unchecked warning (JLS §5.1.9).
    fn arg(&mut self, case: &TestCase, names: &[Option<String>], v: VarId, want: &JType) -> String {
        if self.inline.get(v.index()).copied().unwrap_or(false) {
            return self.inline_arg(&case.statements[v.index()], want);
        }
        let have = Self::var_type(case, v);
        let name = Self::name(names, v);
        if is_parameterized(want) {
            if have == *want { name } else { format!("({}) {name}", self.names.ty(&want.erasure())) }
        } else if have.erasure() == want.erasure() {
            name
        } else {
            format!("({}) {name}", self.names.ty(want))
        }
    }

    /// An inlined constant passed where `want` is expected. Its static type must equal `want` for
    /// overload resolution as with variables: a primitive becomes a literal of the parameter's
    /// primitive type (widening done here, JLS §5.1.2, with the same round-to-nearest), `null` is
    /// always cast (EvoSuite's `(String) null`), anything else is cast to the reference type, with
    /// a negative literal parenthesised (a reference cast cannot take a unary minus, JLS §15.16).
    fn inline_arg(&mut self, st: &Statement, want: &JType) -> String {
        let target = if is_parameterized(want) { want.erasure() } else { want.clone() };
        match (st, want) {
            (Statement::Primitive(p), JType::Prim(q)) => match widen(*p, *q) {
                Some(w) => self.literal(w),
                None => format!("({}) {}", q.name(), self.literal(*p)),
            },
            (Statement::String(s), _) if want.erasure() == JType::string() => string_literal(s),
            (Statement::Null(_), JType::Prim(_)) => "null".to_string(),
            _ => {
                let lit = match st {
                    Statement::Primitive(p) => self.literal(*p),
                    Statement::String(s) => string_literal(s),
                    _ => "null".to_string(),
                };
                let lit = if lit.starts_with('-') { format!("({lit})") } else { lit };
                format!("({}) {lit}", self.names.ty(&target))
            }
        }
    }

    /// A receiver or array operand: like `arg`, parenthesised when cast.
    fn operand(&mut self, case: &TestCase, names: &[Option<String>], v: VarId, want: &JType) -> String {
        let a = self.arg(case, names, v, want);
        if a.starts_with('(') { format!("({a})") } else { a }
    }

    fn args(
        &mut self,
        case: &TestCase,
        names: &[Option<String>],
        args: &[VarId],
        params: &[JType],
    ) -> String {
        let mut out = Vec::new();
        for (i, a) in args.iter().enumerate() {
            out.push(match params.get(i) {
                Some(p) => self.arg(case, names, *a, p),
                None => Self::name(names, *a),
            });
        }
        out.join(", ")
    }

    fn literal(&mut self, v: PrimValue) -> String {
        let lit = prim_literal(v);
        // Named constants go through the import table like any class (a `Float` of the CUT's
        // package would shadow java.lang.Float).
        for c in ["Integer", "Long", "Float", "Double"] {
            if let Some(rest) = lit.strip_prefix(&format!("{c}.")) {
                return format!("{}.{rest}", self.names.class(&format!("java.lang.{c}")));
            }
        }
        lit
    }

    /// The result cast for a member whose erased declared type (`declared`, from its descriptor)
    /// differs from the model's type `want`: generic returns, raw receivers.
    fn result_cast(&mut self, expr: String, declared: Option<JType>, want: &JType) -> String {
        match declared {
            Some(d) if d.erasure() != want.erasure() => format!("({}) {expr}", self.names.ty(want)),
            _ => expr,
        }
    }

    fn statement(&mut self, case: &TestCase, names: &[Option<String>], i: usize) -> Line {
        let st = &case.statements[i];
        let decl = st.value_type().map(|t| {
            let ty = self.names.ty(&t);
            format!("{ty} {} = ", names[i].clone().unwrap_or_default())
        });
        let mut call = None;
        let expr = match st {
            Statement::Primitive(v) => self.literal(*v),
            Statement::String(s) => string_literal(s),
            Statement::Null(_) => "null".to_string(),
            Statement::EnumConstant { ty, name } => {
                let class = ty.class_name().map(str::to_string).unwrap_or_default();
                format!("{}.{}", self.names.class(&class), ascii_ident(name))
            }
            Statement::Constructor { ctor, args } => {
                let e = self.constructor(case, names, ctor, args);
                call = Some(e.clone());
                e
            }
            Statement::Method { method, receiver, args } => {
                let (e, c) = self.method_call(case, names, method, *receiver, args);
                call = Some(c);
                e
            }
            Statement::FieldGet { field, receiver } => {
                let target = match receiver {
                    Some(r) => self.operand(case, names, *r, &field.owner),
                    None => self.names.class(&field.class),
                };
                let e = format!("{target}.{}", ascii_ident(&field.name));
                let typed_receiver = receiver.is_some_and(|r| {
                    is_parameterized(&field.owner) && case.var_type(r).as_ref() == Some(&field.owner)
                });
                if typed_receiver {
                    return Line { decl, expr: e, call };
                }
                let declared = parse_field_type(&field.descriptor).ok();
                self.result_cast(e, declared, &field.ty)
            }
            Statement::FieldSet { field, receiver, value } => {
                let target = match receiver {
                    Some(r) => self.operand(case, names, *r, &field.owner),
                    None => self.names.class(&field.class),
                };
                let v = self.arg(case, names, *value, &field.ty);
                format!("{target}.{} = {v}", ascii_ident(&field.name))
            }
            Statement::NewArray { ty, length } => {
                // The length goes on the outermost dimension; the element type is erased, since
                // generic array creation is illegal (JLS §15.10.1).
                let (mut base, mut dims) = (ty, 0usize);
                while let JType::Array(c) = base {
                    base = c;
                    dims += 1;
                }
                let b = self.names.ty(&base.erasure());
                format!("new {b}[{length}]{}", "[]".repeat(dims.saturating_sub(1)))
            }
            Statement::ArrayStore { array, index, value } => {
                let arr_ty = Self::var_type(case, *array);
                let a = Self::name(names, *array);
                let v = match &arr_ty {
                    JType::Array(c) => self.arg(case, names, *value, c),
                    _ => Self::name(names, *value),
                };
                format!("{a}[{index}] = {v}")
            }
            Statement::ArrayLoad { array, index, ty } => {
                let arr_ty = Self::var_type(case, *array);
                let e = format!("{}[{index}]", Self::name(names, *array));
                let declared = match arr_ty {
                    JType::Array(c) => Some(*c),
                    _ => None,
                };
                self.result_cast(e, declared, ty)
            }
            Statement::Copy { from, ty } => self.arg(case, names, *from, ty),
            // `ty` is erased already: `List.class`, `int[].class`, `int.class`.
            Statement::ClassLiteral { ty } => format!("{}.class", self.names.ty(&ty.erasure())),
            Statement::Stub { stub, args, answers, throws } => {
                self.stub(case, names, stub, args, answers, throws)
            }
            Statement::ScratchFile(sf) => self.scratch_file(case, i, sf),
        };
        Line { decl, expr, call }
    }

    /// A scratch file as the worker makes it (`suitesmith.rt.Executor.scratchFile`), in the test
    /// class's temporary folder, under the same name; one expression, so it is one statement
    /// like any other: `Files.write(folder.resolve("file0"), "x".getBytes(UTF_8)).toFile()`.
    fn scratch_file(&mut self, case: &TestCase, i: usize, sf: &ScratchFile) -> String {
        let files = self.names.class("java.nio.file.Files");
        let root = match self.style {
            Style::JUnit4 => format!("{FOLDER}.getRoot().toPath()"),
            Style::JUnit5 => FOLDER.to_string(),
        };
        let at = format!("{root}.resolve({})", string_literal(&ScratchFile::name(case, i)));
        let charsets = self.names.class("java.nio.charset.StandardCharsets");
        let bytes = format!("{}.getBytes({charsets}.UTF_8)", string_literal(&sf.contents));
        let path = match sf.kind {
            ScratchKind::File => format!("{files}.write({at}, {bytes})"),
            ScratchKind::Directory if sf.contents.is_empty() => format!("{files}.createDirectory({at})"),
            ScratchKind::Directory => format!(
                "{files}.write({files}.createDirectory({at}).resolve({}), {bytes}).getParent()",
                string_literal(testcase::statement::DIRECTORY_DATA)
            ),
            ScratchKind::Missing => at,
        };
        if sf.path { path } else { format!("{path}.toFile()") }
    }

    /// An answer of a stub method: as an argument of type `want`, except that a constant for a
    /// wrapper or `Object` is its bare literal, which the return boxes (`return 5;`, not
    /// `return (Integer) 5;`), to the same wrapper the worker's value has.
    fn answer(&mut self, case: &TestCase, names: &[Option<String>], v: VarId, want: &JType) -> String {
        if self.inline.get(v.index()).copied().unwrap_or(false)
            && !want.is_primitive()
            && let Some(Statement::Primitive(p)) = case.statements.get(v.index())
        {
            return self.literal(*p);
        }
        self.arg(case, names, v, want)
    }

    /// A stub as the anonymous class the worker's generated class is equivalent to
    /// (`suitesmith.rt.Stubs` has the semantics): the raw type, so that every method is
    /// overridden with its erased signature (JLS §4.8); each method returns its answers in turn,
    /// through a counter field, then the default value (a loop on `hasNext()` ends); a void method
    /// taking a `Runnable` runs it; a method that throws does so once, at the call after its
    /// answers (`if (callsA == answers.length) { callsA++; throw e; }`). The names it declares
    /// (`callsA`, `argA`, `answers`) never end in a digit, so they never shadow a test variable.
    fn stub(
        &mut self,
        case: &TestCase,
        names: &[Option<String>],
        stub: &StubRef,
        args: &[VarId],
        answers: &[Vec<VarId>],
        throws: &[Option<VarId>],
    ) -> String {
        // A capturing stub is written with its type arguments, for code reading them back
        // (`StubRef::capture_signature`); it has no methods to override.
        let class = match stub.capture_signature() {
            Some(_) => self.names.ty(&stub.ty),
            None => self.names.class(&stub.stub.class),
        };
        let a = self.args(case, names, args, stub.ctor_params());
        if stub.stub.methods.is_empty() {
            return format!("new {class}({a}) {{}}");
        }
        let (in3, in4) = (INDENT.repeat(3), INDENT.repeat(4));
        let letter = |k: usize| char::from(b'A' + (k % 26) as u8);
        let mut out = format!("new {class}({a}) {{\n");
        let thrown = |k: usize| throws.get(k).copied().flatten();
        for (k, a) in answers.iter().enumerate() {
            if !a.is_empty() || thrown(k).is_some() {
                writeln!(out, "{in3}int calls{};", letter(k)).ok();
            }
        }
        for (k, (m, a)) in stub.stub.methods.iter().zip(answers).enumerate() {
            // What the method throws, and the `throws` clause a checked exception needs (the
            // overridden method declares it: `throw_bound` comes from its own clause).
            let throw = thrown(k).map(|v| {
                let bound = JType::class(&m.throw_bound);
                let e = self.arg(case, names, v, &bound);
                (e, self.names.class(&m.throw_bound))
            });
            let clause = match &throw {
                Some((_, b)) if m.throw_bound != testcase::cluster::RUNTIME_EXCEPTION => {
                    format!(" throws {b}")
                }
                _ => String::new(),
            };
            let params: Vec<String> = m
                .java_params
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{} arg{}", self.names.ty(p), letter(i)))
                .collect();
            let ret = m.java_ret.as_ref().map_or_else(|| "void".to_string(), |r| self.names.ty(r));
            writeln!(out, "{in3}@Override").ok();
            writeln!(out, "{in3}public {ret} {}({}){clause} {{", ascii_ident(&m.name), params.join(", "))
                .ok();
            if m.runs_arguments {
                for (i, p) in m.params.iter().enumerate() {
                    if p.class_name() == Some("java.lang.Runnable") {
                        writeln!(out, "{in4}arg{}.run();", letter(i)).ok();
                    }
                }
            }
            let c = letter(k);
            if a.is_empty()
                && let Some((e, _)) = &throw
            {
                writeln!(out, "{in4}if (calls{c}++ == 0) {{").ok();
                writeln!(out, "{in4}{INDENT}throw {e};").ok();
                writeln!(out, "{in4}}}").ok();
            }
            if let Some(r) = &m.java_ret {
                // Answers are written as the type the search chose them for (no cast).
                let want = stub.answer_types.get(k).cloned().flatten().unwrap_or_else(|| r.clone());
                if a.is_empty() {
                    writeln!(out, "{in4}return {};", default_value(r)).ok();
                } else {
                    let values: Vec<String> = a.iter().map(|v| self.answer(case, names, *v, &want)).collect();
                    let elem = self.names.ty(&r.erasure());
                    let d = default_value(r);
                    writeln!(out, "{in4}{elem}[] answers = {{{}}};", values.join(", ")).ok();
                    if let Some((e, _)) = &throw {
                        writeln!(out, "{in4}if (calls{c} == answers.length) {{").ok();
                        writeln!(out, "{in4}{INDENT}calls{c}++;").ok();
                        writeln!(out, "{in4}{INDENT}throw {e};").ok();
                        writeln!(out, "{in4}}}").ok();
                    }
                    writeln!(out, "{in4}return calls{c} < answers.length ? answers[calls{c}++] : {d};").ok();
                }
            }
            writeln!(out, "{in3}}}").ok();
        }
        out.push_str(&format!("{INDENT}{INDENT}}}"));
        out
    }

    /// A constructor call: `new C<..>(args)`, or `outer.new Inner(rest)` for an inner class.
    fn constructor(
        &mut self,
        case: &TestCase,
        names: &[Option<String>],
        ctor: &ConstructorRef,
        args: &[VarId],
    ) -> String {
        let cn = SourceName::parse(&ctor.class);
        let type_args = match &ctor.ty {
            JType::Class { args, .. } if args.is_empty() => String::new(),
            JType::Class { args, .. } if args.iter().all(|a| matches!(a, testcase::TypeArg::Exact(_))) => {
                let full = self.names.ty(&ctor.ty);
                full.find('<').map(|p| full[p..].to_string()).unwrap_or_default()
            }
            JType::Class { .. } => "<>".to_string(),
            _ => String::new(),
        };
        let inner = ctor.takes_outer_instance(self.static_nested.contains(&ctor.class));
        if inner && !args.is_empty() && !ctor.params.is_empty() {
            // An inner class: `outer.new Inner(rest)` (JLS §15.9); the outer instance
            // is the constructor's first descriptor parameter.
            let outer = self.operand(case, names, args[0], &ctor.params[0]);
            let rest = self.args(case, names, &args[1..], &ctor.params[1..]);
            let simple = cn.nested.last().map(|s| ascii_ident(s)).unwrap_or_default();
            format!("{outer}.new {simple}{type_args}({rest})")
        } else {
            let class = self.names.class(&ctor.class);
            let a = self.args(case, names, args, &ctor.params);
            format!("new {class}{type_args}({a})")
        }
    }

    /// A method call, and the same call cast to the model's type where javac needs it: (the
    /// expression, the bare call).
    fn method_call(
        &mut self,
        case: &TestCase,
        names: &[Option<String>],
        method: &MethodRef,
        receiver: Option<VarId>,
        args: &[VarId],
    ) -> (String, String) {
        let target = match receiver {
            Some(r) => self.operand(case, names, r, &method.owner),
            None => self.names.class(&method.class),
        };
        let a = self.args(case, names, args, &method.params);
        let e = format!("{target}.{}({a})", ascii_ident(&method.name));
        // A receiver declared exactly as the parameterized owner makes javac substitute
        // the same type arguments the model did: no cast needed.
        let typed_receiver = receiver.is_some_and(|r| {
            is_parameterized(&method.owner) && case.var_type(r).as_ref() == Some(&method.owner)
        });
        let expr = match &method.ret {
            Some(_) if typed_receiver => e.clone(),
            Some(want) => {
                let declared = parse_method_sig(&method.descriptor).ok().and_then(|s| s.ret);
                self.result_cast(e.clone(), declared, want)
            }
            None => e.clone(),
        };
        (expr, e)
    }

    fn subject(&mut self, case: &TestCase, names: &[Option<String>], s: &Subject) -> (String, JType) {
        match s {
            Subject::Var(v) => (Self::name(names, *v), Self::var_type(case, *v)),
            Subject::Call { var, method, ret } => {
                (format!("{}.{}()", Self::name(names, *var), ascii_ident(method)), ret.clone())
            }
        }
    }

    fn assertion(
        &mut self,
        case: &TestCase,
        names: &[Option<String>],
        ai: usize,
        a: &Assertion,
    ) -> Result<String, RenderError> {
        let bad = |what: &str| RenderError::BadAssertion {
            test: self.test_idx,
            assertion: ai,
            what: what.to_string(),
        };
        let reference = |v: VarId| -> Result<(), RenderError> {
            if Self::var_type(case, v).is_primitive() {
                Err(bad("a primitive variable is never null or an object"))
            } else {
                Ok(())
            }
        };
        Ok(match &a.check {
            Check::Equals { subject, value } => {
                if let Subject::Call { var, .. } = subject {
                    reference(*var)?;
                }
                let (expr, ty) = self.subject(case, names, subject);
                match value {
                    Expected::String(s) => {
                        let f = self.assert_fn("assertEquals");
                        format!("{f}({}, {expr});", string_literal(s))
                    }
                    Expected::Prim(p) => {
                        let want = JType::Prim(p.ty());
                        let expr = if ty == want { expr } else { format!("({}) {expr}", p.ty().name()) };
                        match p {
                            PrimValue::Boolean(b) => {
                                let f = self.assert_fn(if *b { "assertTrue" } else { "assertFalse" });
                                format!("{f}({expr});")
                            }
                            PrimValue::Float(_) => {
                                let f = self.assert_fn("assertEquals");
                                format!("{f}({}, {expr}, 0.01F);", self.literal(*p))
                            }
                            PrimValue::Double(_) => {
                                let f = self.assert_fn("assertEquals");
                                format!("{f}({}, {expr}, 0.01);", self.literal(*p))
                            }
                            _ => {
                                let f = self.assert_fn("assertEquals");
                                format!("{f}({}, {expr});", self.literal(*p))
                            }
                        }
                    }
                }
            }
            Check::Null(v) | Check::NotNull(v) => {
                reference(*v)?;
                let f = self.assert_fn(if matches!(a.check, Check::Null(_)) {
                    "assertNull"
                } else {
                    "assertNotNull"
                });
                format!("{f}({});", Self::name(names, *v))
            }
            Check::ArrayLength { var, length } => {
                if !matches!(Self::var_type(case, *var), JType::Array(_)) {
                    return Err(bad("array length of a variable that is not an array"));
                }
                let f = self.assert_fn("assertEquals");
                format!("{f}({length}, {}.length);", Self::name(names, *var))
            }
            Check::ArrayEquals { var, values } => {
                let JType::Array(comp) = Self::var_type(case, *var) else {
                    return Err(bad("array contents of a variable that is not an array"));
                };
                let comp = comp.erasure();
                if !(comp.is_primitive() || comp == JType::string()) {
                    return Err(bad("array contents are checked for primitive and string arrays only"));
                }
                let mut items = Vec::new();
                for v in values {
                    items.push(match v {
                        Expected::Prim(p) => self.literal(*p),
                        Expected::String(s) => string_literal(s),
                    });
                }
                let delta = match comp {
                    JType::Prim(PrimType::Float) => ", 0.01F",
                    JType::Prim(PrimType::Double) => ", 0.01",
                    _ => "",
                };
                let c = self.names.ty(&comp);
                let f = self.assert_fn("assertArrayEquals");
                let items =
                    if items.is_empty() { "{}".to_string() } else { format!("{{{}}}", items.join(", ")) };
                format!("{f}(new {c}[] {items}, {}{delta});", Self::name(names, *var))
            }
            Check::Same(x, y) | Check::NotSame(x, y) => {
                reference(*x)?;
                reference(*y)?;
                let f = self.assert_fn(if matches!(a.check, Check::Same(..)) {
                    "assertSame"
                } else {
                    "assertNotSame"
                });
                format!("{f}({}, {});", Self::name(names, *x), Self::name(names, *y))
            }
            Check::ThrownMessage(message) => self.thrown_check(message, "getMessage()"),
            Check::ThrownFrom(class) => self.thrown_check(class, "getStackTrace()[0].getClassName()"),
            Check::ObjectsEqual { a: x, b: y, equal } => {
                reference(*x)?;
                let f = self.assert_fn(if *equal { "assertTrue" } else { "assertFalse" });
                let object = self.names.class(testcase::types::OBJECT);
                format!("{f}({}.equals(({object}) {}));", Self::name(names, *x), Self::name(names, *y))
            }
            Check::Contract { rule, message } => self.contract(rule, message, names),
        })
    }
}

/// Which statements are constants (primitive, string, `null`) written at their uses instead of
/// as variables, as EvoSuite's `ConstantInliner` does: those used at least once, only in argument
/// or stored-value positions (never as a receiver, an array, or an inner class's outer instance),
/// and named by no assertion.
fn inlinable(t: &JUnitTest, static_nested: &[String]) -> Vec<bool> {
    let sts = &t.case.statements;
    let mut uses = vec![0usize; sts.len()];
    let mut blocked = vec![false; sts.len()];
    for a in &t.assertions {
        for v in check_vars(&a.check) {
            if let Some(b) = blocked.get_mut(v.index()) {
                *b = true;
            }
        }
    }
    for st in sts {
        let (inlinable_slots, other): (Vec<VarId>, Vec<VarId>) = match st {
            Statement::Constructor { ctor, args } => {
                if ctor.takes_outer_instance(static_nested.contains(&ctor.class)) && !args.is_empty() {
                    (args[1..].to_vec(), vec![args[0]])
                } else {
                    (args.clone(), Vec::new())
                }
            }
            Statement::Method { receiver, args, .. } => (args.clone(), receiver.iter().copied().collect()),
            Statement::FieldGet { receiver, .. } => (Vec::new(), receiver.iter().copied().collect()),
            Statement::FieldSet { receiver, value, .. } => (vec![*value], receiver.iter().copied().collect()),
            Statement::ArrayStore { array, value, .. } => (vec![*value], vec![*array]),
            Statement::ArrayLoad { array, .. } => (Vec::new(), vec![*array]),
            Statement::Copy { from, .. } => (vec![*from], Vec::new()),
            // Arguments and answers alike are written where a value of their type is expected.
            Statement::Stub { args, answers, throws, .. } => (
                args.iter().chain(answers.iter().flatten()).chain(throws.iter().flatten()).copied().collect(),
                Vec::new(),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        for v in inlinable_slots {
            if let Some(u) = uses.get_mut(v.index()) {
                *u += 1;
            }
        }
        for v in other {
            if let Some(b) = blocked.get_mut(v.index()) {
                *b = true;
            }
        }
    }
    sts.iter()
        .enumerate()
        .map(|(i, st)| {
            matches!(st, Statement::Primitive(_) | Statement::String(_) | Statement::Null(_))
                && uses[i] > 0
                && !blocked[i]
        })
        .collect()
}

/// The default value of a type as a Java expression of that type (JLS §4.12.5).
fn default_value(t: &JType) -> &'static str {
    match t {
        JType::Prim(PrimType::Boolean) => "false",
        JType::Prim(PrimType::Byte) => "(byte) 0",
        JType::Prim(PrimType::Char) => "(char) 0",
        JType::Prim(PrimType::Short) => "(short) 0",
        JType::Prim(PrimType::Int) => "0",
        JType::Prim(PrimType::Long) => "0L",
        JType::Prim(PrimType::Float) => "0.0F",
        JType::Prim(PrimType::Double) => "0.0",
        _ => "null",
    }
}

/// The value of a primitive constant after widening to `to` (JLS §5.1.2), or `None` when that is
/// not a widening. Integer to floating-point conversion rounds to nearest in Rust as in Java.
fn widen(v: PrimValue, to: PrimType) -> Option<PrimValue> {
    if v.ty() == to {
        return Some(v);
    }
    let int: Option<i64> = match v {
        PrimValue::Byte(x) => Some(x as i64),
        PrimValue::Short(x) => Some(x as i64),
        PrimValue::Char(x) => Some(x as i64),
        PrimValue::Int(x) => Some(x as i64),
        PrimValue::Long(x) => Some(x),
        _ => None,
    };
    if !v.ty().widens_to(to) {
        return None;
    }
    match (int, to) {
        (Some(x), PrimType::Short) => i16::try_from(x).ok().map(PrimValue::Short),
        (Some(x), PrimType::Int) => i32::try_from(x).ok().map(PrimValue::Int),
        (Some(x), PrimType::Long) => Some(PrimValue::Long(x)),
        (Some(x), PrimType::Float) => Some(PrimValue::float(x as f32)),
        (Some(x), PrimType::Double) => Some(PrimValue::double(x as f64)),
        (None, PrimType::Double) => match v {
            PrimValue::Float(b) => Some(PrimValue::double(f32::from_bits(b) as f64)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a type has type arguments (itself or, for arrays, its element type).
fn is_parameterized(t: &JType) -> bool {
    match t {
        JType::Class { args, .. } => !args.is_empty(),
        JType::Array(c) => is_parameterized(c),
        JType::Prim(_) | JType::Var(_) => false,
    }
}
