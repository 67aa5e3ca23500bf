//! Encoding and decoding of frames (docs/protocol.md "Transport"): `u32 length` (big-endian, counts
//! the bytes after itself), `u8 kind`, payload. Everything is big-endian as `DataOutputStream` writes
//! it. Decoders take the frame body (kind byte first, without the length) and never panic: every
//! malformed input is a [`DecodeError`], and no count read from the wire allocates more than the
//! bytes that remain could hold.

use std::hash::{BuildHasherDefault, Hasher};
use std::io::Read;

use indexmap::IndexMap;

use crate::trace::site_key;
use crate::{
    AccessPath, ActiveMutant, Branch, Clause, Cmp, Compared, ContextBranch, DecodeError, MAX_EXPR_DEPTH,
    NO_VAR, NumExpr, NumOp, Outcome, PathCondition, PathDistance, PrimType, ProbeId, Record, Request,
    Response, Root, Setup, Statement, Step, StringTest, StubAnswers, Test, TestRef, TestResult, TestStatus,
    Trace, Value, Var, kind,
};

/// Frames longer than this are refused by [`read_frame`] (a corrupt length would otherwise make us
/// allocate gigabytes). Large enough for a Setup carrying a big instrumented library.
pub const MAX_FRAME_LEN: u32 = 1 << 30;

// ---------------------------------------------------------------------------------------------
// Writing.

fn put_u8(out: &mut Vec<u8>, v: u8) {
    out.push(v);
}
fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_be_bytes());
}
fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}
fn put_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_be_bytes());
}
fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_be_bytes());
}
fn put_i64(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(&v.to_be_bytes());
}
fn put_bool(out: &mut Vec<u8>, v: bool) {
    out.push(u8::from(v));
}
/// Lengths on the wire are `u32`; nothing we send comes near 4 G elements, and a longer list would
/// be refused by the frame limit anyway, so saturating is only a guard against silent wrap-around.
fn put_len(out: &mut Vec<u8>, n: usize) {
    put_u32(out, u32::try_from(n).unwrap_or(u32::MAX));
}

/// `str`: `u32` count of UTF-16 code units, then the units.
fn put_str(out: &mut Vec<u8>, s: &str) {
    if s.is_ascii() {
        put_len(out, s.len());
        out.reserve(2 * s.len());
        for b in s.bytes() {
            out.extend_from_slice(&[0, b]);
        }
        return;
    }
    let at = out.len();
    put_u32(out, 0);
    let mut n: u32 = 0;
    for unit in s.encode_utf16() {
        put_u16(out, unit);
        n += 1;
    }
    out[at..at + 4].copy_from_slice(&n.to_be_bytes());
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_len(out, b.len());
    out.extend_from_slice(b);
}

fn put_var(out: &mut Vec<u8>, v: Option<Var>) {
    put_u16(out, v.map_or(NO_VAR, |v| v.0));
}

/// Starts a frame: a length placeholder and the kind. [`end_frame`] patches the length.
fn begin_frame(out: &mut Vec<u8>, kind: u8) -> usize {
    let at = out.len();
    put_u32(out, 0);
    put_u8(out, kind);
    at
}

fn end_frame(out: &mut [u8], at: usize) {
    let len = u32::try_from(out.len() - at - 4).unwrap_or(u32::MAX);
    out[at..at + 4].copy_from_slice(&len.to_be_bytes());
}

/// Appends one request frame (with its length prefix) to `out`.
pub fn encode_request(req: &Request, out: &mut Vec<u8>) {
    match req {
        Request::Hello { version } => {
            let at = begin_frame(out, kind::HELLO);
            put_u16(out, *version);
            end_frame(out, at);
        }
        Request::Setup(setup) => encode_setup(setup, out),
        Request::Execute { tests, focus } => {
            let refs: Vec<TestRef<'_>> =
                tests.iter().map(|t| TestRef { id: t.id, statements: &t.statements }).collect();
            encode_execute(&refs, focus.as_deref(), out);
        }
        Request::Shutdown => {
            let at = begin_frame(out, kind::SHUTDOWN);
            end_frame(out, at);
        }
    }
}

fn encode_setup(s: &Setup, out: &mut Vec<u8>) {
    let at = begin_frame(out, kind::SETUP);
    put_len(out, s.classpath.len());
    for e in &s.classpath {
        put_str(out, e);
    }
    put_len(out, s.classes.len());
    for (name, bytes) in &s.classes {
        put_str(out, name);
        put_bytes(out, bytes);
    }
    put_u32(out, s.probe_count);
    put_len(out, s.class_ids.len());
    for (id, name) in &s.class_ids {
        put_u32(out, *id);
        put_str(out, name);
    }
    put_u32(out, s.timeout_ms);
    put_u32(out, s.max_threads);
    put_str(out, &s.scratch_dir);
    put_i64(out, s.time_base_ms);
    put_u64(out, s.path_epsilon.to_bits());
    put_len(out, s.path_conditions.len());
    for pc in &s.path_conditions {
        put_path_condition(out, pc);
    }
    put_u8(out, u8::from(s.string_compares));
    end_frame(out, at);
}

// Path conditions (v9, docs/protocol.md "Path conditions"): strings inline, tags as below.

fn put_path_condition(out: &mut Vec<u8>, pc: &PathCondition) {
    put_str(out, &pc.class);
    put_str(out, &pc.name);
    put_str(out, &pc.descriptor);
    put_len(out, pc.clauses.len());
    for c in &pc.clauses {
        match c {
            Clause::Null(p) => {
                put_u8(out, 0);
                put_access_path(out, p);
            }
            Clause::Alias(a, b) => {
                put_u8(out, 1);
                put_access_path(out, a);
                put_access_path(out, b);
            }
            Clause::Fresh { path, class } => {
                put_u8(out, 2);
                put_access_path(out, path);
                put_str(out, class);
            }
            Clause::Numeric { cmp, left, right } => {
                put_u8(out, 3);
                put_u8(out, *cmp as u8);
                put_num_expr(out, left);
                put_num_expr(out, right);
            }
        }
    }
}

fn put_access_path(out: &mut Vec<u8>, p: &AccessPath) {
    match p.root {
        Root::This => put_u8(out, 0),
        Root::Param(k) => {
            put_u8(out, 1);
            put_u16(out, k);
        }
    }
    put_len(out, p.steps.len());
    for s in &p.steps {
        match s {
            Step::Field { class, name } => {
                put_u8(out, 0);
                put_str(out, class);
                put_str(out, name);
            }
            Step::Element(i) => {
                put_u8(out, 1);
                put_i32(out, *i);
            }
            Step::Length => put_u8(out, 2),
        }
    }
}

fn put_num_expr(out: &mut Vec<u8>, e: &NumExpr) {
    match e {
        NumExpr::Const { ty, bits } => {
            put_u8(out, 0);
            put_u8(out, ty.letter());
            put_u64(out, *bits);
        }
        NumExpr::Path { ty, path } => {
            put_u8(out, 1);
            put_u8(out, ty.letter());
            put_access_path(out, path);
        }
        NumExpr::Neg { ty, operand } => {
            put_u8(out, 2);
            put_u8(out, ty.letter());
            put_num_expr(out, operand);
        }
        NumExpr::Binary { op, ty, left, right } => {
            put_u8(out, 3);
            put_u8(out, *op as u8);
            put_u8(out, ty.letter());
            put_num_expr(out, left);
            put_num_expr(out, right);
        }
        NumExpr::Convert { to, operand } => {
            put_u8(out, 4);
            put_u8(out, to.letter());
            put_num_expr(out, operand);
        }
    }
}

/// Interns strings into the batch's string table, in first-use order (deterministic bytes).
struct StringTable<'a> {
    index: IndexMap<&'a str, u32, BuildHasherDefault<Fnv>>,
}

impl StringTable<'_> {
    fn new() -> Self {
        StringTable { index: IndexMap::default() }
    }
}

/// FNV-1a: the keys are short class and member names from our own engine, so hash flooding is no
/// concern, and SipHash was a visible part of encoding time.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = h;
    }
}

impl<'a> StringTable<'a> {
    fn sref(&mut self, out: &mut Vec<u8>, s: &'a str) {
        let next = u32::try_from(self.index.len()).unwrap_or(u32::MAX);
        let i = *self.index.entry(s).or_insert(next);
        put_u32(out, i);
    }
}

fn put_statement<'a>(out: &mut Vec<u8>, table: &mut StringTable<'a>, st: &'a Statement) {
    match st {
        Statement::Primitive { ty, bits } => {
            put_u8(out, 0);
            put_u8(out, ty.letter());
            put_u64(out, *bits);
        }
        Statement::String { value } => {
            put_u8(out, 1);
            table.sref(out, value);
        }
        Statement::Null { ty } => {
            put_u8(out, 2);
            table.sref(out, ty);
        }
        Statement::EnumConstant { class, name } => {
            put_u8(out, 3);
            table.sref(out, class);
            table.sref(out, name);
        }
        Statement::Constructor { class, descriptor, args } => {
            put_u8(out, 4);
            table.sref(out, class);
            table.sref(out, descriptor);
            put_vars(out, args);
        }
        Statement::Method { class, name, descriptor, is_static, receiver, args } => {
            put_u8(out, 5);
            table.sref(out, class);
            table.sref(out, name);
            table.sref(out, descriptor);
            put_bool(out, *is_static);
            put_var(out, *receiver);
            put_vars(out, args);
        }
        Statement::FieldGet { class, name, descriptor, is_static, receiver } => {
            put_u8(out, 6);
            table.sref(out, class);
            table.sref(out, name);
            table.sref(out, descriptor);
            put_bool(out, *is_static);
            put_var(out, *receiver);
        }
        Statement::FieldSet { class, name, descriptor, is_static, receiver, value } => {
            put_u8(out, 7);
            table.sref(out, class);
            table.sref(out, name);
            table.sref(out, descriptor);
            put_bool(out, *is_static);
            put_var(out, *receiver);
            put_var(out, *value);
        }
        Statement::NewArray { component, length } => {
            put_u8(out, 8);
            table.sref(out, component);
            put_i32(out, *length);
        }
        Statement::ArrayStore { array, index, value } => {
            put_u8(out, 9);
            put_var(out, *array);
            put_i32(out, *index);
            put_var(out, *value);
        }
        Statement::ArrayLoad { array, index } => {
            put_u8(out, 10);
            put_var(out, *array);
            put_i32(out, *index);
        }
        Statement::Copy { from } => {
            put_u8(out, 11);
            put_var(out, *from);
        }
        Statement::ClassLiteral { descriptor } => {
            put_u8(out, 12);
            table.sref(out, descriptor);
        }
        Statement::Stub { class, bytes, ctor, args, methods } => {
            put_u8(out, 13);
            table.sref(out, class);
            put_bytes(out, bytes);
            table.sref(out, ctor);
            put_vars(out, args);
            put_len(out, methods.len());
            for m in methods {
                table.sref(out, &m.descriptor);
                put_bool(out, m.runs_arguments);
                put_vars(out, &m.answers);
                put_var(out, m.throws);
            }
        }
        Statement::ScratchFile { kind, path, name, contents } => {
            put_u8(out, 14);
            put_u8(out, *kind);
            put_bool(out, *path);
            table.sref(out, name);
            table.sref(out, contents);
        }
        Statement::Mutant(m) => {
            put_u8(out, 15);
            put_u32(out, m.site);
            put_i32(out, m.op);
            put_u64(out, m.bits);
        }
    }
}

fn put_vars(out: &mut Vec<u8>, vars: &[Var]) {
    put_len(out, vars.len());
    for v in vars {
        put_u16(out, v.0);
    }
}

/// Appends an `Execute` frame for `tests` to `out`; the string table is built here. `focus`: the
/// path conditions the worker evaluates in the batch (`None`: every one; `Request::Execute`).
pub fn encode_execute(tests: &[TestRef<'_>], focus: Option<&[u32]>, out: &mut Vec<u8>) {
    // Statements are encoded first into `body` while the string table grows, because the table
    // precedes the tests on the wire.
    let mut table = StringTable::new();
    let mut body = Vec::with_capacity(64 * tests.len());
    put_len(&mut body, tests.len());
    for t in tests {
        put_u32(&mut body, t.id);
        put_len(&mut body, t.statements.len());
        for st in t.statements {
            put_statement(&mut body, &mut table, st);
        }
    }
    let at = begin_frame(out, kind::EXECUTE);
    put_len(out, table.index.len());
    for s in table.index.keys() {
        put_str(out, s);
    }
    out.extend_from_slice(&body);
    match focus {
        None => put_u8(out, 0),
        Some(ids) => {
            put_u8(out, 1);
            put_len(out, ids.len());
            for &id in ids {
                put_u32(out, id);
            }
        }
    }
    end_frame(out, at);
}

/// The canonical bytes of one test's statement list: its own string table followed by the
/// statements, exactly as an `Execute` payload would carry them. Equal lists give equal bytes;
/// `exec` keys its result cache on these.
pub fn canonical_test_bytes(statements: &[Statement]) -> Vec<u8> {
    let mut table = StringTable::new();
    let mut body = Vec::with_capacity(16 * statements.len());
    put_len(&mut body, statements.len());
    for st in statements {
        put_statement(&mut body, &mut table, st);
    }
    let mut out = Vec::with_capacity(body.len() + 64);
    put_len(&mut out, table.index.len());
    for s in table.index.keys() {
        put_str(&mut out, s);
    }
    out.extend_from_slice(&body);
    out
}

/// Appends one response frame (with its length prefix) to `out`. The engine never sends these; they
/// exist for round-trip tests and for fake workers.
pub fn encode_response(resp: &Response, out: &mut Vec<u8>) {
    match resp {
        Response::Ready { version, java_version, pid } => {
            let at = begin_frame(out, kind::READY);
            put_u16(out, *version);
            put_str(out, java_version);
            put_i64(out, *pid);
            end_frame(out, at);
        }
        Response::SetupDone { classes_defined, init_trace } => {
            let at = begin_frame(out, kind::SETUP_DONE);
            put_u32(out, *classes_defined);
            put_trace(out, init_trace);
            end_frame(out, at);
        }
        Response::TestResult(r) => {
            let at = begin_frame(out, kind::TEST_RESULT);
            put_test_result(out, r);
            end_frame(out, at);
        }
        Response::BatchDone { tests } => {
            let at = begin_frame(out, kind::BATCH_DONE);
            put_u32(out, *tests);
            end_frame(out, at);
        }
        Response::Error { message } => {
            let at = begin_frame(out, kind::ERROR);
            put_str(out, message);
            end_frame(out, at);
        }
    }
}

fn put_test_result(out: &mut Vec<u8>, r: &TestResult) {
    put_u32(out, r.test_id);
    put_u8(
        out,
        match r.status {
            TestStatus::Normal => 0,
            TestStatus::Timeout => 1,
            TestStatus::Guard => 2,
        },
    );
    put_u32(out, r.elapsed_us);
    put_len(out, r.outcomes.len());
    for o in &r.outcomes {
        put_outcome(out, o);
    }
    put_trace(out, &r.trace);
    put_str(out, &r.stdout);
    put_bool(out, r.properties_changed);
}

fn put_outcome(out: &mut Vec<u8>, o: &Outcome) {
    match o {
        Outcome::NotExecuted => put_u8(out, 0),
        Outcome::Value(v) => {
            put_u8(out, 1);
            put_value(out, v);
        }
        Outcome::Threw { class, message, from_sut, thrown_in, top_frame } => {
            put_u8(out, 2);
            put_str(out, class);
            put_str(out, message);
            put_bool(out, *from_sut);
            put_str(out, thrown_in);
            put_str(out, top_frame);
        }
        Outcome::Timeout => put_u8(out, 3),
        Outcome::Guard { what } => {
            put_u8(out, 4);
            put_str(out, what);
        }
    }
}

fn put_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Void => put_u8(out, 0),
        Value::Null => put_u8(out, 1),
        Value::Bool(b) => {
            put_u8(out, 2);
            put_bool(out, *b);
        }
        Value::Byte(x) => {
            put_u8(out, 3);
            put_i32(out, *x);
        }
        Value::Char(x) => {
            put_u8(out, 4);
            put_i32(out, *x);
        }
        Value::Short(x) => {
            put_u8(out, 5);
            put_i32(out, *x);
        }
        Value::Int(x) => {
            put_u8(out, 6);
            put_i32(out, *x);
        }
        Value::Long(x) => {
            put_u8(out, 7);
            put_i64(out, *x);
        }
        Value::Float(bits) => {
            put_u8(out, 8);
            put_u32(out, *bits);
        }
        Value::Double(bits) => {
            put_u8(out, 9);
            put_u64(out, *bits);
        }
        Value::String(s) => {
            put_u8(out, 10);
            put_str(out, s);
        }
        Value::Object { class } => {
            put_u8(out, 11);
            put_str(out, class);
        }
        Value::Array { class, length } => {
            put_u8(out, 12);
            put_str(out, class);
            put_i32(out, *length);
        }
        Value::Enum { class, name } => {
            put_u8(out, 13);
            put_str(out, class);
            put_str(out, name);
        }
    }
}

fn put_trace(out: &mut Vec<u8>, t: &Trace) {
    put_len(out, t.hits.len());
    for (p, n) in &t.hits {
        put_u32(out, p.0);
        put_u32(out, *n);
    }
    put_len(out, t.branches.len());
    for b in &t.branches {
        put_u32(out, b.probe.0);
        put_u64(out, b.to_true.to_bits());
        put_u64(out, b.to_false.to_bits());
    }
    put_len(out, t.switches.len());
    for (p, keys) in &t.switches {
        put_u32(out, p.0);
        put_len(out, keys.len());
        for k in keys {
            put_i32(out, *k);
        }
    }
    put_len(out, t.operands.len());
    for (p, samples) in &t.operands {
        put_u32(out, p.0);
        put_len(out, samples.len());
        for (a, b) in samples {
            put_u64(out, *a);
            put_u64(out, *b);
        }
    }
    put_len(out, t.returns.len());
    for (p, c) in &t.returns {
        put_u32(out, p.0);
        put_u32(out, *c);
    }
    put_len(out, t.exceptions.len());
    for (p, class) in &t.exceptions {
        put_u32(out, p.0);
        put_str(out, class);
    }
    put_len(out, t.contexts.len());
    for c in &t.contexts {
        put_u32(out, site_key(c.site));
        put_u32(out, c.probe.0);
        put_u64(out, c.to_true.to_bits());
        put_u64(out, c.to_false.to_bits());
    }
    put_len(out, t.class_inits.len());
    for id in &t.class_inits {
        put_u32(out, *id);
    }
    put_len(out, t.strings.len());
    for s in &t.strings {
        put_str(out, s);
    }
    put_len(out, t.records.len());
    for (p, records) in &t.records {
        put_u32(out, p.0);
        put_len(out, records.len());
        for r in records {
            put_u32(out, r.depth);
            put_u32(out, r.frame);
            put_u32(out, r.parent);
            put_u32(out, r.site.map_or(u32::MAX, |p| p.0));
            put_u64(out, r.a);
            put_u64(out, r.b);
        }
    }
    put_len(out, t.path_distances.len());
    for d in &t.path_distances {
        put_u32(out, d.pc);
        put_len(out, d.clauses.len());
        for c in &d.clauses {
            put_u64(out, c.to_bits());
        }
    }
    put_len(out, t.compares.len());
    for (p, compares) in &t.compares {
        put_u32(out, p.0);
        put_len(out, compares.len());
        for c in compares {
            put_u8(out, c.test.tag());
            put_i32(out, c.flags);
            put_str(out, &c.a);
            put_str(out, &c.b);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading.

/// A cursor over one frame body. Every read checks the remaining length first.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let rest = self.buf.len() - self.pos;
        if n > rest {
            return Err(DecodeError::Truncated { at: self.pos, needed: n - rest });
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.array::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_be_bytes(self.array()?))
    }
    fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_be_bytes(self.array()?))
    }
    fn i32(&mut self) -> Result<i32, DecodeError> {
        Ok(i32::from_be_bytes(self.array()?))
    }
    fn u64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_be_bytes(self.array()?))
    }
    fn i64(&mut self) -> Result<i64, DecodeError> {
        Ok(i64::from_be_bytes(self.array()?))
    }
    fn f64(&mut self) -> Result<f64, DecodeError> {
        Ok(f64::from_bits(self.u64()?))
    }
    fn bool(&mut self) -> Result<bool, DecodeError> {
        let at = self.pos;
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            tag => Err(DecodeError::UnknownTag { what: "bool", tag, at }),
        }
    }
    /// A list count, checked against the bytes left (each element takes at least `min_elem`
    /// bytes), so a corrupt count fails as truncated instead of allocating.
    fn count(&mut self, min_elem: usize) -> Result<usize, DecodeError> {
        let at = self.pos;
        let n = self.u32()? as usize;
        let rest = self.buf.len() - self.pos;
        let need = n.saturating_mul(min_elem);
        if need > rest {
            return Err(DecodeError::Truncated { at, needed: need - rest });
        }
        Ok(n)
    }
    fn str(&mut self) -> Result<String, DecodeError> {
        let n = self.count(2)?;
        let raw = self.take(2 * n)?;
        // Fast path: ASCII, the common case for class names and most values.
        if raw.chunks_exact(2).all(|u| u[0] == 0 && u[1] < 0x80) {
            let ascii: Vec<u8> = raw.chunks_exact(2).map(|u| u[1]).collect();
            return Ok(String::from_utf8(ascii).unwrap_or_default());
        }
        let units = raw.chunks_exact(2).map(|u| u16::from_be_bytes([u[0], u[1]]));
        Ok(char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect())
    }
    fn bytes(&mut self) -> Result<Vec<u8>, DecodeError> {
        let n = self.count(1)?;
        Ok(self.take(n)?.to_vec())
    }
    fn var(&mut self) -> Result<Option<Var>, DecodeError> {
        let v = self.u16()?;
        Ok(if v == NO_VAR { None } else { Some(Var(v)) })
    }
    fn finish(&self, kind: u8) -> Result<(), DecodeError> {
        let extra = self.buf.len() - self.pos;
        if extra == 0 { Ok(()) } else { Err(DecodeError::TrailingBytes { kind, extra }) }
    }
}

/// Splits a frame body into its kind and a reader over the payload.
fn open(frame: &[u8]) -> Result<(u8, Reader<'_>), DecodeError> {
    let (&kind, _) = frame.split_first().ok_or(DecodeError::Empty)?;
    Ok((kind, Reader { buf: frame, pos: 1 }))
}

/// Decodes a request frame body (kind byte first, no length prefix).
pub fn decode_request(frame: &[u8]) -> Result<Request, DecodeError> {
    let (k, mut r) = open(frame)?;
    let req = match k {
        kind::HELLO => Request::Hello { version: r.u16()? },
        kind::SETUP => Request::Setup(read_setup(&mut r)?),
        kind::EXECUTE => {
            let (tests, focus) = read_execute(&mut r)?;
            Request::Execute { tests, focus }
        }
        kind::SHUTDOWN => Request::Shutdown,
        other => return Err(DecodeError::UnknownKind(other)),
    };
    r.finish(k)?;
    Ok(req)
}

fn read_setup(r: &mut Reader<'_>) -> Result<Setup, DecodeError> {
    let n = r.count(4)?;
    let mut classpath = Vec::with_capacity(n);
    for _ in 0..n {
        classpath.push(r.str()?);
    }
    let n = r.count(8)?;
    let mut classes = Vec::with_capacity(n);
    for _ in 0..n {
        classes.push((r.str()?, r.bytes()?));
    }
    let probe_count = r.u32()?;
    let n = r.count(8)?;
    let mut class_ids = Vec::with_capacity(n);
    for _ in 0..n {
        class_ids.push((r.u32()?, r.str()?));
    }
    Ok(Setup {
        classpath,
        classes,
        probe_count,
        class_ids,
        timeout_ms: r.u32()?,
        max_threads: r.u32()?,
        scratch_dir: r.str()?,
        time_base_ms: r.i64()?,
        path_epsilon: r.f64()?,
        path_conditions: {
            let n = r.count(16)?;
            let mut pcs = Vec::with_capacity(n);
            for _ in 0..n {
                pcs.push(read_path_condition(r)?);
            }
            pcs
        },
        string_compares: r.bool()?,
    })
}

fn read_path_condition(r: &mut Reader<'_>) -> Result<PathCondition, DecodeError> {
    let (class, name, descriptor) = (r.str()?, r.str()?, r.str()?);
    let n = r.count(6)?;
    let mut clauses = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.pos;
        clauses.push(match r.u8()? {
            0 => Clause::Null(read_access_path(r)?),
            1 => Clause::Alias(read_access_path(r)?, read_access_path(r)?),
            2 => Clause::Fresh { path: read_access_path(r)?, class: r.str()? },
            3 => {
                let at = r.pos;
                let cmp = match r.u8()? {
                    0 => Cmp::Eq,
                    1 => Cmp::Ne,
                    2 => Cmp::Lt,
                    3 => Cmp::Le,
                    4 => Cmp::Gt,
                    5 => Cmp::Ge,
                    tag => return Err(DecodeError::UnknownTag { what: "comparison", tag, at }),
                };
                Clause::Numeric { cmp, left: read_num_expr(r, 0)?, right: read_num_expr(r, 0)? }
            }
            tag => return Err(DecodeError::UnknownTag { what: "clause", tag, at }),
        });
    }
    Ok(PathCondition { class, name, descriptor, clauses })
}

fn read_access_path(r: &mut Reader<'_>) -> Result<AccessPath, DecodeError> {
    let at = r.pos;
    let root = match r.u8()? {
        0 => Root::This,
        1 => Root::Param(r.u16()?),
        tag => return Err(DecodeError::UnknownTag { what: "path root", tag, at }),
    };
    let n = r.count(1)?;
    let mut steps = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.pos;
        steps.push(match r.u8()? {
            0 => Step::Field { class: r.str()?, name: r.str()? },
            1 => Step::Element(r.i32()?),
            2 => Step::Length,
            tag => return Err(DecodeError::UnknownTag { what: "path step", tag, at }),
        });
    }
    Ok(AccessPath { root, steps })
}

fn read_prim(r: &mut Reader<'_>) -> Result<PrimType, DecodeError> {
    let at = r.pos;
    let tag = r.u8()?;
    PrimType::from_letter(tag).ok_or(DecodeError::UnknownTag { what: "primitive type", tag, at })
}

fn read_num_expr(r: &mut Reader<'_>, depth: usize) -> Result<NumExpr, DecodeError> {
    let at = r.pos;
    if depth >= MAX_EXPR_DEPTH {
        return Err(DecodeError::TooDeep(MAX_EXPR_DEPTH, at));
    }
    Ok(match r.u8()? {
        0 => NumExpr::Const { ty: read_prim(r)?, bits: r.u64()? },
        1 => NumExpr::Path { ty: read_prim(r)?, path: read_access_path(r)? },
        2 => NumExpr::Neg { ty: read_prim(r)?, operand: Box::new(read_num_expr(r, depth + 1)?) },
        3 => {
            let at = r.pos;
            let op = match r.u8()? {
                0 => NumOp::Add,
                1 => NumOp::Sub,
                2 => NumOp::Mul,
                3 => NumOp::Div,
                4 => NumOp::Rem,
                5 => NumOp::And,
                6 => NumOp::Or,
                7 => NumOp::Xor,
                8 => NumOp::Shl,
                9 => NumOp::Shr,
                10 => NumOp::Ushr,
                tag => return Err(DecodeError::UnknownTag { what: "numeric operation", tag, at }),
            };
            let ty = read_prim(r)?;
            let left = Box::new(read_num_expr(r, depth + 1)?);
            NumExpr::Binary { op, ty, left, right: Box::new(read_num_expr(r, depth + 1)?) }
        }
        4 => NumExpr::Convert { to: read_prim(r)?, operand: Box::new(read_num_expr(r, depth + 1)?) },
        tag => return Err(DecodeError::UnknownTag { what: "numeric expression", tag, at }),
    })
}

fn read_execute(r: &mut Reader<'_>) -> Result<(Vec<Test>, Option<Vec<u32>>), DecodeError> {
    let n = r.count(4)?;
    let mut strings = Vec::with_capacity(n);
    for _ in 0..n {
        strings.push(r.str()?);
    }
    let n = r.count(8)?;
    let mut tests = Vec::with_capacity(n);
    for _ in 0..n {
        let id = r.u32()?;
        tests.push(Test { id, statements: read_statements(r, &strings)? });
    }
    let at = r.pos;
    let focus = match r.u8()? {
        0 => None,
        1 => {
            let n = r.count(4)?;
            let mut ids = Vec::with_capacity(n);
            for _ in 0..n {
                ids.push(r.u32()?);
            }
            Some(ids)
        }
        tag => return Err(DecodeError::UnknownTag { what: "focus", tag, at }),
    };
    Ok((tests, focus))
}

fn read_statements(r: &mut Reader<'_>, strings: &[String]) -> Result<Vec<Statement>, DecodeError> {
    let sref = |r: &mut Reader<'_>| -> Result<String, DecodeError> {
        let index = r.u32()?;
        strings.get(index as usize).cloned().ok_or(DecodeError::BadStringRef { index, len: strings.len() })
    };
    let n = r.count(1)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.pos;
        let st = match r.u8()? {
            0 => {
                let at = r.pos;
                let letter = r.u8()?;
                let ty = PrimType::from_letter(letter).ok_or(DecodeError::UnknownTag {
                    what: "primitive type",
                    tag: letter,
                    at,
                })?;
                Statement::Primitive { ty, bits: r.u64()? }
            }
            1 => Statement::String { value: sref(r)? },
            2 => Statement::Null { ty: sref(r)? },
            3 => Statement::EnumConstant { class: sref(r)?, name: sref(r)? },
            4 => Statement::Constructor { class: sref(r)?, descriptor: sref(r)?, args: read_vars(r)? },
            5 => Statement::Method {
                class: sref(r)?,
                name: sref(r)?,
                descriptor: sref(r)?,
                is_static: r.bool()?,
                receiver: r.var()?,
                args: read_vars(r)?,
            },
            6 => Statement::FieldGet {
                class: sref(r)?,
                name: sref(r)?,
                descriptor: sref(r)?,
                is_static: r.bool()?,
                receiver: r.var()?,
            },
            7 => Statement::FieldSet {
                class: sref(r)?,
                name: sref(r)?,
                descriptor: sref(r)?,
                is_static: r.bool()?,
                receiver: r.var()?,
                value: r.var()?,
            },
            8 => Statement::NewArray { component: sref(r)?, length: r.i32()? },
            9 => Statement::ArrayStore { array: r.var()?, index: r.i32()?, value: r.var()? },
            10 => Statement::ArrayLoad { array: r.var()?, index: r.i32()? },
            11 => Statement::Copy { from: r.var()? },
            12 => Statement::ClassLiteral { descriptor: sref(r)? },
            13 => {
                let class = sref(r)?;
                let bytes = r.bytes()?;
                let ctor = sref(r)?;
                let args = read_vars(r)?;
                let n = r.count(1)?;
                let mut methods = Vec::with_capacity(n);
                for _ in 0..n {
                    methods.push(StubAnswers {
                        descriptor: sref(r)?,
                        runs_arguments: r.bool()?,
                        answers: read_vars(r)?,
                        throws: r.var()?,
                    });
                }
                Statement::Stub { class, bytes, ctor, args, methods }
            }
            14 => {
                Statement::ScratchFile { kind: r.u8()?, path: r.bool()?, name: sref(r)?, contents: sref(r)? }
            }
            15 => Statement::Mutant(ActiveMutant { site: r.u32()?, op: r.i32()?, bits: r.u64()? }),
            tag => return Err(DecodeError::UnknownTag { what: "statement", tag, at }),
        };
        out.push(st);
    }
    Ok(out)
}

fn read_vars(r: &mut Reader<'_>) -> Result<Vec<Var>, DecodeError> {
    let n = r.count(2)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(Var(r.u16()?));
    }
    Ok(out)
}

/// Decodes a response frame body (kind byte first, no length prefix).
pub fn decode_response(frame: &[u8]) -> Result<Response, DecodeError> {
    let (k, mut r) = open(frame)?;
    let resp = match k {
        kind::READY => Response::Ready { version: r.u16()?, java_version: r.str()?, pid: r.i64()? },
        kind::SETUP_DONE => {
            Response::SetupDone { classes_defined: r.u32()?, init_trace: read_trace(&mut r)? }
        }
        kind::TEST_RESULT => Response::TestResult(read_test_result(&mut r)?),
        kind::BATCH_DONE => Response::BatchDone { tests: r.u32()? },
        kind::ERROR => Response::Error { message: r.str()? },
        other => return Err(DecodeError::UnknownKind(other)),
    };
    r.finish(k)?;
    Ok(resp)
}

fn read_test_result(r: &mut Reader<'_>) -> Result<TestResult, DecodeError> {
    let test_id = r.u32()?;
    let at = r.pos;
    let status = match r.u8()? {
        0 => TestStatus::Normal,
        1 => TestStatus::Timeout,
        2 => TestStatus::Guard,
        tag => return Err(DecodeError::UnknownTag { what: "test status", tag, at }),
    };
    let elapsed_us = r.u32()?;
    let n = r.count(1)?;
    let mut outcomes = Vec::with_capacity(n);
    for _ in 0..n {
        outcomes.push(read_outcome(r)?);
    }
    let trace = read_trace(r)?;
    let stdout = r.str()?;
    let properties_changed = r.bool()?;
    Ok(TestResult { test_id, status, elapsed_us, outcomes, trace, stdout, properties_changed })
}

fn read_outcome(r: &mut Reader<'_>) -> Result<Outcome, DecodeError> {
    let at = r.pos;
    Ok(match r.u8()? {
        0 => Outcome::NotExecuted,
        1 => Outcome::Value(read_value(r)?),
        2 => Outcome::Threw {
            class: r.str()?,
            message: r.str()?,
            from_sut: r.bool()?,
            thrown_in: r.str()?,
            top_frame: r.str()?,
        },
        3 => Outcome::Timeout,
        4 => Outcome::Guard { what: r.str()? },
        tag => return Err(DecodeError::UnknownTag { what: "outcome", tag, at }),
    })
}

fn read_value(r: &mut Reader<'_>) -> Result<Value, DecodeError> {
    let at = r.pos;
    Ok(match r.u8()? {
        0 => Value::Void,
        1 => Value::Null,
        2 => Value::Bool(r.bool()?),
        3 => Value::Byte(r.i32()?),
        4 => Value::Char(r.i32()?),
        5 => Value::Short(r.i32()?),
        6 => Value::Int(r.i32()?),
        7 => Value::Long(r.i64()?),
        8 => Value::Float(r.u32()?),
        9 => Value::Double(r.u64()?),
        10 => Value::String(r.str()?),
        11 => Value::Object { class: r.str()? },
        12 => Value::Array { class: r.str()?, length: r.i32()? },
        13 => Value::Enum { class: r.str()?, name: r.str()? },
        tag => return Err(DecodeError::UnknownTag { what: "value", tag, at }),
    })
}

fn read_trace(r: &mut Reader<'_>) -> Result<Trace, DecodeError> {
    let mut t = Trace::default();
    let n = r.count(8)?;
    t.hits.reserve_exact(n);
    for _ in 0..n {
        t.hits.push((ProbeId(r.u32()?), r.u32()?));
    }
    let n = r.count(20)?;
    t.branches.reserve_exact(n);
    for _ in 0..n {
        t.branches.push(Branch { probe: ProbeId(r.u32()?), to_true: r.f64()?, to_false: r.f64()? });
    }
    let n = r.count(8)?;
    t.switches.reserve_exact(n);
    for _ in 0..n {
        let p = ProbeId(r.u32()?);
        let m = r.count(4)?;
        let mut keys = Vec::with_capacity(m);
        for _ in 0..m {
            keys.push(r.i32()?);
        }
        t.switches.push((p, keys));
    }
    let n = r.count(8)?;
    t.operands.reserve_exact(n);
    for _ in 0..n {
        let p = ProbeId(r.u32()?);
        let m = r.count(16)?;
        let mut samples = Vec::with_capacity(m);
        for _ in 0..m {
            samples.push((r.u64()?, r.u64()?));
        }
        t.operands.push((p, samples));
    }
    let n = r.count(8)?;
    t.returns.reserve_exact(n);
    for _ in 0..n {
        t.returns.push((ProbeId(r.u32()?), r.u32()?));
    }
    let n = r.count(8)?;
    t.exceptions.reserve_exact(n);
    for _ in 0..n {
        t.exceptions.push((ProbeId(r.u32()?), r.str()?));
    }
    let n = r.count(24)?;
    t.contexts.reserve_exact(n);
    for _ in 0..n {
        let site = r.u32()?;
        t.contexts.push(ContextBranch {
            site: if site == u32::MAX { None } else { Some(ProbeId(site)) },
            probe: ProbeId(r.u32()?),
            to_true: r.f64()?,
            to_false: r.f64()?,
        });
    }
    let n = r.count(4)?;
    t.class_inits.reserve_exact(n);
    for _ in 0..n {
        t.class_inits.push(r.u32()?);
    }
    let n = r.count(4)?;
    t.strings.reserve_exact(n);
    for _ in 0..n {
        t.strings.push(r.str()?);
    }
    let n = r.count(8)?;
    t.records.reserve_exact(n);
    for _ in 0..n {
        let p = ProbeId(r.u32()?);
        let m = r.count(32)?;
        let mut records = Vec::with_capacity(m);
        for _ in 0..m {
            let (depth, frame, parent) = (r.u32()?, r.u32()?, r.u32()?);
            let site = match r.u32()? {
                u32::MAX => None,
                p => Some(ProbeId(p)),
            };
            records.push(Record { depth, frame, parent, site, a: r.u64()?, b: r.u64()? });
        }
        t.records.push((p, records));
    }
    let n = r.count(8)?;
    t.path_distances.reserve_exact(n);
    for _ in 0..n {
        let pc = r.u32()?;
        let m = r.count(8)?;
        let mut clauses = Vec::with_capacity(m);
        for _ in 0..m {
            clauses.push(r.f64()?);
        }
        t.path_distances.push(PathDistance { pc, clauses });
    }
    let n = r.count(8)?;
    t.compares.reserve_exact(n);
    for _ in 0..n {
        let p = ProbeId(r.u32()?);
        let m = r.count(13)?;
        let mut compares = Vec::with_capacity(m);
        for _ in 0..m {
            let at = r.pos;
            let tag = r.u8()?;
            let test =
                StringTest::from_tag(tag).ok_or(DecodeError::UnknownTag { what: "string test", tag, at })?;
            compares.push(Compared { test, flags: r.i32()?, a: r.str()?, b: r.str()? });
        }
        t.compares.push((p, compares));
    }
    t.normalise();
    Ok(t)
}

// ---------------------------------------------------------------------------------------------
// Frames on a byte stream.

/// Why a frame could not be read from a stream.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("I/O error reading a frame: {0}")]
    Io(#[from] std::io::Error),
    #[error("stream ended inside a frame ({got} of {expected} bytes)")]
    Truncated { expected: usize, got: usize },
    #[error("frame length {0} exceeds the limit of {MAX_FRAME_LEN} bytes")]
    TooLarge(u32),
    #[error("zero-length frame")]
    Empty,
}

/// Reads one frame body (kind + payload) into `buf`, replacing its contents. Returns `Ok(false)` on
/// a clean end of stream before the first byte of a frame.
pub fn read_frame(r: &mut impl Read, buf: &mut Vec<u8>) -> Result<bool, FrameError> {
    let mut len = [0u8; 4];
    let got = read_full(r, &mut len)?;
    if got == 0 {
        return Ok(false);
    }
    if got < 4 {
        return Err(FrameError::Truncated { expected: 4, got });
    }
    let n = u32::from_be_bytes(len);
    if n > MAX_FRAME_LEN {
        return Err(FrameError::TooLarge(n));
    }
    if n == 0 {
        return Err(FrameError::Empty);
    }
    // `take` + `read_to_end` grows the buffer only as bytes arrive, so a corrupt length does not
    // allocate up front.
    buf.clear();
    let got = r.by_ref().take(u64::from(n)).read_to_end(buf)?;
    if got < n as usize {
        return Err(FrameError::Truncated { expected: n as usize + 4, got: got + 4 });
    }
    Ok(true)
}

/// Reads until `buf` is full or the stream ends; returns the bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> Result<usize, std::io::Error> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}
