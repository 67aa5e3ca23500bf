//! Test support: the program database over the `dse` fixtures and `java.base`, the probe plan of
//! the fixture classes, and test cases written as one line of text:
//!
//! `dse.Magic.linear(III)I *1 *2 3` calls a static method with the literal arguments; a `*` makes
//! the argument's statement a symbolic input. `new dse.Account(I) 1123 ; .unlock(I)Z *5` makes an
//! object and calls a method on it. Literals: `12`, `7L`, `1.5d`, `2.5f`, `'c'`, `"text"`, `true`,
//! `null:dse.Foo`, and int arrays `[656,11,11]`.

#![allow(dead_code)]

use std::sync::Arc;

use goals::{PlanOptions, ProbePlan};
use programdb::ProgramDb;
use protocol::{PrimType as WirePrim, Statement as Wire, Var};
use solver::{Assignment, Value};
use symbolic::{InputOrigin, Replay};
use testcase::types::parse_field_type;
use testcase::{ConstructorRef, JType, MethodRef, PrimType, PrimValue, Statement, TestCase, VarId};

pub fn db() -> ProgramDb {
    let paths = [test_support::fixture_classes("dse"), test_support::java_base_jmod()];
    test_support::open_db(&paths)
}

/// The probe plan of every class of the `dse` area (package `dse` and below), in name order.
pub fn plan(db: &ProgramDb) -> ProbePlan {
    let mut plan = ProbePlan::new();
    for c in db.class_ids() {
        if db.class_name(c).starts_with("dse/") {
            plan.add_class_in(db, c, &PlanOptions::all()).expect("fixture class plans");
        }
    }
    plan
}

fn method_parts(desc: &str) -> (Vec<JType>, Option<JType>) {
    let close = desc.find(')').expect("descriptor");
    let mut params = Vec::new();
    let b = desc.as_bytes();
    let mut i = 1;
    while i < close {
        let start = i;
        while b[i] == b'[' {
            i += 1;
        }
        if b[i] == b'L' {
            i = desc[i..].find(';').map(|k| i + k).expect("class descriptor");
        }
        i += 1;
        params.push(parse_field_type(&desc[start..i]).expect("parameter type"));
    }
    let ret = &desc[close + 1..];
    (params, (ret != "V").then(|| parse_field_type(ret).expect("return type")))
}

/// A literal argument as statements appended to `t`; returns its variable.
fn literal(t: &mut TestCase, tok: &str) -> VarId {
    if let Some(s) = tok.strip_prefix('"') {
        return t.push(Statement::String(s.trim_end_matches('"').to_string()));
    }
    if let Some(ty) = tok.strip_prefix("null:") {
        return t.push(Statement::Null(JType::class(ty)));
    }
    if let Some(items) = tok.strip_prefix('[') {
        let items: Vec<i32> = items
            .trim_end_matches(']')
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().expect("int"))
            .collect();
        let arr = t.push(Statement::NewArray {
            ty: JType::array_of(JType::Prim(PrimType::Int)),
            length: items.len() as u32,
        });
        for (i, v) in items.into_iter().enumerate() {
            let value = t.push(Statement::Primitive(PrimValue::Int(v)));
            t.push(Statement::ArrayStore { array: arr, index: i as u32, value });
        }
        return arr;
    }
    let v = if let Some(c) = tok.strip_prefix('\'') {
        PrimValue::Char(c.chars().next().expect("char") as u16)
    } else if tok == "true" || tok == "false" {
        PrimValue::Boolean(tok == "true")
    } else if let Some(l) = tok.strip_suffix('L') {
        PrimValue::Long(l.parse().expect("long"))
    } else if let Some(d) = tok.strip_suffix('d') {
        PrimValue::double(d.parse().expect("double"))
    } else if let Some(f) = tok.strip_suffix('f') {
        PrimValue::float(f.parse().expect("float"))
    } else {
        PrimValue::Int(tok.parse().expect("int"))
    };
    t.push(Statement::Primitive(v))
}

/// Splits arguments on spaces outside double quotes.
fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A test from its one-line form, with the statements made symbolic by `*`.
pub fn test_of(spec: &str) -> (TestCase, Vec<usize>) {
    let mut t = TestCase::new();
    let mut symbolic = Vec::new();
    let mut last_obj: Option<(VarId, String)> = None;
    for step in spec.split(" ; ") {
        let toks = tokens(step);
        let (head, args) = toks.split_first().expect("a call");
        if head == "stub" || head == "stub-class" {
            let v = stub(&mut t, head == "stub", args, &last_obj, &mut symbolic);
            last_obj = Some((v, args[0].split('(').next().unwrap_or_default().to_string()));
            continue;
        }
        let (is_new, head) = match head.as_str() {
            "new" => (true, args[0].clone()),
            _ => (false, head.clone()),
        };
        let args = if is_new { &args[1..] } else { args };
        let paren = head.find('(').expect("descriptor");
        let (path, desc) = head.split_at(paren);
        let desc = if desc.ends_with(')') { format!("{desc}V") } else { desc.to_string() };
        let desc = desc.as_str();
        let mut vars = Vec::new();
        for a in args {
            if a == "$" {
                vars.push(last_obj.clone().expect("an object to pass").0);
                continue;
            }
            let sym = a.starts_with('*');
            let v = literal(&mut t, a.trim_start_matches('*'));
            if sym {
                symbolic.push(v.index());
            }
            vars.push(v);
        }
        let (params, ret) = method_parts(desc);
        if is_new {
            let ctor = ConstructorRef {
                class: path.to_string(),
                descriptor: desc.to_string(),
                ty: JType::class(path),
                params,
            };
            let v = t.push(Statement::Constructor { ctor: Arc::new(ctor), args: vars });
            last_obj = Some((v, path.to_string()));
        } else if let Some(name) = path.strip_prefix('.') {
            let (recv, class) = last_obj.clone().expect("an object to call on");
            let method = MethodRef {
                class: class.clone(),
                name: name.to_string(),
                descriptor: desc.to_string(),
                is_static: false,
                owner: JType::class(&class),
                params,
                ret,
            };
            t.push(Statement::Method { method: Arc::new(method), receiver: Some(recv), args: vars });
        } else {
            let (class, name) = path.rsplit_once('.').expect("class.method");
            let method = MethodRef {
                class: class.to_string(),
                name: name.to_string(),
                descriptor: desc.to_string(),
                is_static: true,
                owner: JType::class(class),
                params,
                ret,
            };
            t.push(Statement::Method { method: Arc::new(method), receiver: None, args: vars });
        }
    }
    (t, symbolic)
}

/// A Stub statement appended to `t`: `stub dse.types.Counter next()I=1,2 label()Ljava/lang/String;`
/// stubs an interface (`stub-class dse.types.Shape(I) 3 area()J=5` an abstract class, with the
/// constructor's arguments after its descriptor); each method token lists its answers after `=`,
/// then after `!` the class of a new exception (or `null`) to throw after them. `$` is the last
/// object.
fn stub(
    t: &mut TestCase,
    interface: bool,
    args: &[String],
    last: &Option<(VarId, String)>,
    symbolic: &mut Vec<usize>,
) -> VarId {
    let mut value = |t: &mut TestCase, tok: &str| {
        if tok == "null" {
            return t.push(Statement::Null(JType::class("java.lang.Object")));
        }
        let v = literal(t, tok.trim_start_matches('*'));
        if tok.starts_with('*') {
            symbolic.push(v.index());
        }
        v
    };
    let (class, ctor) = match args[0].split_once('(') {
        Some((c, d)) => (c.to_string(), format!("({d}V")),
        None => (args[0].clone(), "()V".to_string()),
    };
    let (ctor_params, _) = method_parts(&ctor);
    let mut ctor_args = Vec::new();
    let mut methods = Vec::new();
    let mut answers = Vec::new();
    let mut throws = Vec::new();
    for tok in &args[1..] {
        if !tok.contains('(') {
            ctor_args.push(if tok == "$" { last.clone().expect("an object").0 } else { value(t, tok) });
            continue;
        }
        let (head, thrown) = tok.split_once('!').map_or((tok.as_str(), None), |(a, b)| (a, Some(b)));
        let (sig, values) = head.split_once('=').unwrap_or((head, ""));
        let paren = sig.find('(').expect("a method descriptor");
        let (name, desc) = sig.split_at(paren);
        let (params, ret) = method_parts(desc);
        let runs = ret.is_none() && params.iter().any(|p| p == &JType::class("java.lang.Runnable"));
        answers.push(values.split(',').filter(|v| !v.is_empty()).map(|v| value(t, v)).collect::<Vec<_>>());
        throws.push(thrown.map(|c| match c {
            "null" => t.push(Statement::Null(JType::class("java.lang.RuntimeException"))),
            c => {
                let ctor = ConstructorRef {
                    class: c.to_string(),
                    descriptor: "()V".to_string(),
                    ty: JType::class(c),
                    params: Vec::new(),
                };
                t.push(Statement::Constructor { ctor: Arc::new(ctor), args: Vec::new() })
            }
        }));
        methods.push(testcase::StubMethod {
            name: name.to_string(),
            descriptor: desc.to_string(),
            java_params: params.clone(),
            java_ret: ret.clone(),
            params,
            ret,
            runs_arguments: runs,
            throw_bound: thrown.unwrap_or("java.lang.RuntimeException").to_string(),
        });
    }
    let ty = testcase::StubType {
        stub_class: testcase::cluster::stub_class_name(&class, class.starts_with("java.")),
        class: class.clone(),
        is_interface: interface,
        constructors: vec![(ctor, ctor_params)],
        methods,
    };
    let answer_types = ty.methods.iter().map(|m| m.ret.clone()).collect();
    let stub = testcase::StubRef { stub: Arc::new(ty), ty: JType::class(&class), ctor: 0, answer_types };
    t.push(Statement::Stub { stub: Arc::new(stub), args: ctor_args, answers, throws })
}

/// (test, outcome of its last statement).
pub const CASES: &[(&str, &str)] = &[
    // Digest B.7 witnesses.
    ("dse.CasNumber.check(Ljava/lang/String;)I *\"7732-18-5\"", "1"),
    ("dse.Magic.linear(III)I *455557 *377780 *2277792", "3"),
    ("dse.DateParse.dayOfYear(Ljava/lang/String;)I *\"2000-02-29\"", "400"),
    ("dse.Magic.floats(DD)I *13.5d *-1.5d", "2"),
    (
        "new dse.Bar(Ljava/lang/String;) *\"baz\" ; .coverMe(Ldse/Foo;)Z null:dse.Foo",
        "threw java.lang.NullPointerException",
    ),
    // Other outcomes of the same subjects.
    ("dse.CasNumber.check(Ljava/lang/String;)I *\"7732-18-6\"", "0"),
    ("dse.CasNumber.check(Ljava/lang/String;)I *\"77a2-18-5\"", "-3"),
    ("dse.CasNumber.check(Ljava/lang/String;)I *\"abc\"", "-1"),
    ("dse.CasNumber.check(Ljava/lang/String;)I null:java.lang.String", "-1"),
    ("dse.DateParse.dayOfYear(Ljava/lang/String;)I *\"2001-03-01\"", "60"),
    ("dse.DateParse.dayOfYear(Ljava/lang/String;)I *\"2001-0x-01\"", "-2"),
    ("dse.DateParse.dayOfYear(Ljava/lang/String;)I *\"2001-02-29\"", "-3"),
    ("dse.Magic.linear(III)I *1 *2 *3", "0"),
    // The other subjects of the area.
    ("new dse.Account(I) *1123 ; .unlock(I)Z *2247", "1"),
    ("new dse.Account(I) *1123 ; .unlock(I)Z *2248", "0"),
    ("dse.ArraySum.sum3([I)I [656,11,11]", "1"),
    ("dse.ArraySum.sum3([I)I [1,2]", "-1"),
    ("dse.CharCode.code(CC)I *'8' *'e'", "2"),
    ("dse.CharCode.code(CC)I *'8' *'!'", "0"),
    ("dse.Concat.id(Ljava/lang/String;C)I *\"id\" *'Q'", "1"),
    ("dse.Concat.id(Ljava/lang/String;C)I *\"ix\" *'Q'", "0"),
    ("dse.Email.valid(Ljava/lang/String;)Z *\"bob@example.org\"", "1"),
    ("dse.Email.valid(Ljava/lang/String;)Z *\"bob@example.com\"", "0"),
    ("dse.FloatMath.f(FD)I *6.0f *0.0d", "1"),
    ("dse.FloatMath.f(FD)I *1.0f *2147483648.5d", "2"),
    ("dse.FloatMath.f(FD)I *1.0f *1.0d", "0"),
    ("dse.Guard.ratio(II)I *606 *0", "-1"),
    ("dse.Guard.ratio(II)I *1 *0", "0"),
    ("dse.Keyword.kind(Ljava/lang/String;)I *\"xxalpha\"", "1"),
    ("dse.Keyword.kind(Ljava/lang/String;)I *\"xxomega\"", "2"),
    ("dse.Keyword.kind(Ljava/lang/String;)I *\"xxbeta\"", "0"),
    ("dse.LongBits.mix(J)I *98765418608L", "1"),
    ("dse.LongBits.mix(J)I *3302829850619L", "2"),
    ("dse.Luhn.valid(Ljava/lang/String;)Z *\"00000018\"", "1"),
    ("dse.Luhn.valid(Ljava/lang/String;)Z *\"00000019\"", "0"),
    ("dse.Modular.check(II)I *1320 *101", "2"),
    ("dse.Modular.check(II)I *1 *0", "-1"),
    ("dse.Narrow.narrow(I)I *5963769", "2"),
    ("dse.Narrow.narrow(I)I *-7", "1"),
    ("dse.ParseNum.parse(Ljava/lang/String;)I *\"5711\"", "2"),
    ("dse.ParseNum.parse(Ljava/lang/String;)I *\"-12\"", "1"),
    ("dse.ParseNum.parse(Ljava/lang/String;)I *\"5x\"", "-1"),
    ("dse.Reverse.palindromeOfHello(Ljava/lang/String;)Z *\"hello\"", "1"),
    ("dse.Reverse.palindromeOfHello(Ljava/lang/String;)Z *\"hallo\"", "0"),
    ("dse.Same.same(II)Z *4 *4", "1"),
    ("dse.Square.root(I)Ljava/lang/String; *1234", "\"exact\""),
    ("dse.Square.root(I)Ljava/lang/String; *-3", "\"negative\""),
    ("dse.Table.lookup(I)I *5014", "1"),
    ("dse.Table.lookup(I)I *5015", "0"),
    // The interpreter's own subjects (fixtures/java/dse/symbolic).
    ("dse.symbolic.Shapes.classify(II)I *11 *11", "2"),
    ("dse.symbolic.Shapes.classify(II)I *20 *6", "1"),
    ("dse.symbolic.Shapes.classify(II)I *2 *3", "3"),
    ("dse.symbolic.Shapes.classify(II)I *3 *3", "3"),
    ("dse.symbolic.Shapes.classify(II)I *1 *2", "-1"),
    ("dse.symbolic.Flow.table(I)I *1", "10"),
    ("dse.symbolic.Flow.table(I)I *4", "34"),
    ("dse.symbolic.Flow.table(I)I *9", "0"),
    ("dse.symbolic.Flow.lookup(I)I *77", "2"),
    ("dse.symbolic.Flow.lookup(I)I *-1000", "1"),
    ("dse.symbolic.Flow.lookup(I)I *5", "0"),
    ("dse.symbolic.Flow.merged(IIJ)I *3 *5 *0L", "107"),
    ("dse.symbolic.Flow.merged(IIJ)I *11 *-1 *101L", "1017"),
    ("dse.symbolic.Flow.color(I)I *0", "1"),
    ("dse.symbolic.Flow.color(I)I *1", "2"),
    ("dse.symbolic.Flow.color(I)I *2", "3"),
    ("dse.symbolic.Flow.color(I)I *3", "threw java.lang.ArrayIndexOutOfBoundsException"),
    ("dse.symbolic.Flow.word(Ljava/lang/String;)I *\"Aa\"", "1"),
    ("dse.symbolic.Flow.word(Ljava/lang/String;)I *\"BB\"", "2"),
    ("dse.symbolic.Flow.word(Ljava/lang/String;)I *\"stop\"", "3"),
    ("dse.symbolic.Flow.word(Ljava/lang/String;)I *\"x\"", "0"),
    ("dse.symbolic.Flow.ident(Ljava/lang/String;Ljava/lang/String;)I *\"stop\" \"stop\"", "3"),
    ("dse.symbolic.Flow.ident(Ljava/lang/String;Ljava/lang/String;)I *\"go\" *\"go\"", "2"),
    ("dse.symbolic.Flow.ident(Ljava/lang/String;Ljava/lang/String;)I \"go\" \"og\"", "0"),
    ("dse.symbolic.Flow.guarded(I[I)I *60 [1,2]", "990"),
    ("dse.symbolic.Flow.guarded(I[I)I *1 [5,6]", "1014"),
    ("dse.symbolic.Flow.guarded(I[I)I *5 [1]", "1006"),
    ("dse.symbolic.Flow.message(I)Ljava/lang/String; *70", "\"oops 70\""),
    ("dse.symbolic.Flow.message(I)Ljava/lang/String; *3", "\"fine\""),
    ("dse.symbolic.Numbers.compare(JFD)I *2000000000000L *0.25f *1.0d", "111"),
    ("dse.symbolic.Numbers.compare(JFD)I *-1L *NaNf *NaNd", "10100"),
    ("dse.symbolic.Numbers.compare(JFD)I *268435456L *1.0f *-3.0E10d", "111100"),
    ("dse.symbolic.Numbers.doubles(Ljava/lang/String;)I *\"3.5\"", "1"),
    ("dse.symbolic.Numbers.doubles(Ljava/lang/String;)I *\" NaN \"", "2"),
    ("dse.symbolic.Numbers.doubles(Ljava/lang/String;)I *\"1e-3d\"", "0"),
    ("dse.symbolic.Numbers.doubles(Ljava/lang/String;)I *\"abc\"", "-1"),
    ("dse.symbolic.Numbers.boxes(II)I *5 *5", "3"),
    ("dse.symbolic.Numbers.boxes(II)I *1000 *1000", "2"),
    ("dse.symbolic.Numbers.boxes(II)I *-11 *2", "12"),
    ("dse.symbolic.Numbers.chars(CLjava/lang/String;)I *'Q' *\"-42\"", "11"),
    ("dse.symbolic.Numbers.chars(CLjava/lang/String;)I *'8' *\"x\"", "20"),
    ("dse.symbolic.Numbers.chars(CLjava/lang/String;)I *'a' *\"7\"", "1"),
    ("dse.symbolic.Texts.strings(Ljava/lang/String;)I *\" abc--z\"", "7"),
    ("dse.symbolic.Texts.strings(Ljava/lang/String;)I *\"hello\"", "16"),
    ("dse.symbolic.Texts.strings(Ljava/lang/String;)I *\"xxx\"", "96"),
    ("dse.symbolic.Texts.strings(Ljava/lang/String;)I *\"zzz#\"", "40"),
    ("dse.symbolic.Texts.build(Ljava/lang/String;IC)Ljava/lang/String; *\"ab\" *7 *'q'", "\"]q7ba[/14\""),
    ("dse.symbolic.Texts.build(Ljava/lang/String;IC)Ljava/lang/String; *\"hello\" *12 *'x'", "\"olleh[/24\""),
    ("dse.symbolic.Texts.build(Ljava/lang/String;IC)Ljava/lang/String; *\"abcdq\" *5 *'z'", "\"Qqdcba[\""),
    ("dse.symbolic.Texts.more(Ljava/lang/String;I)I *\"ab,c\" *4", "230"),
    ("dse.symbolic.Texts.more(Ljava/lang/String;I)I *\"zab,x,,\" *3", "233"),
    ("dse.symbolic.Texts.more(Ljava/lang/String;I)I *\" \t \" *3", "-1"),
    ("dse.symbolic.Texts.more(Ljava/lang/String;I)I *\",,\" *2", "4"),
    ("dse.symbolic.Texts.more(Ljava/lang/String;I)I *\"abab\" *4", "121"),
    ("dse.symbolic.Texts.arrays(II)I *50 *49", "1"),
    ("dse.symbolic.Texts.arrays(II)I *1 *0", "2"),
    ("dse.symbolic.Texts.arrays(II)I *0 *5", "0"),
    ("dse.symbolic.Lambdas.apply(ILjava/lang/String;)I *7 *\"abc\"", "59"),
    ("dse.symbolic.Lambdas.apply(ILjava/lang/String;)I *1 *\"hello\"", "36"),
    ("dse.symbolic.Stack.shapes(JI)J *10L *1", "-1L"),
    ("dse.symbolic.Stack.shapes(JI)J *-9000000000L *2", "-62999999996L"),
    ("dse.symbolic.Stack.shapes(JI)J *12L *1", "95L"),
    ("dse.symbolic.Stack.shapes(JI)J *4L *5", "threw java.lang.ArrayIndexOutOfBoundsException"),
    ("dse.symbolic.Collect.maps(Ljava/lang/String;I)I *\"a\" *42", "1"),
    ("dse.symbolic.Collect.maps(Ljava/lang/String;I)I *\"b\" *2", "6"),
    ("dse.symbolic.Collect.lists(II)I *4 *21", "1"),
    ("dse.symbolic.Collect.lists(II)I *9 *3", "0"),
    ("dse.symbolic.Texts.list(II)I *3 *33", "1"),
    ("dse.symbolic.Texts.list(II)I *3 *30", "0"),
    ("dse.symbolic.Jdk.grow(I)I *3", "3"),
    ("dse.symbolic.Jdk.chars(C)I *'a'", "24"),
    ("dse.symbolic.Jdk.chars(C)I *'-'", "0"),
    ("dse.symbolic.Jdk.chars(C)I *'q'", "56"),
    ("dse.symbolic.Jdk.chars(C)I *'1'", "16"),
    ("dse.symbolic.Jdk.chars(C)I *'é'", "24"),
    ("dse.symbolic.Jdk.regions(Ljava/lang/String;Ljava/lang/String;I)I *\"xaBcd\" *\"aBcd\" *1", "5"),
    ("dse.symbolic.Jdk.regions(Ljava/lang/String;Ljava/lang/String;I)I *\"xbC\" *\"abc\" *1", "6"),
    ("dse.symbolic.Jdk.regions(Ljava/lang/String;Ljava/lang/String;I)I *\"abCD\" *\"zBc\" *0", "4"),
    ("dse.symbolic.Jdk.regions(Ljava/lang/String;Ljava/lang/String;I)I *\"hello\" *\"lo\" *3", "5"),
    ("dse.symbolic.Jdk.regions(Ljava/lang/String;Ljava/lang/String;I)I *\"hello\" *\"lo\" *-1", "0"),
    ("dse.symbolic.Jdk.pieces(Ljava/lang/String;II)Ljava/lang/String; *\"abcdef\" *1 *3", "\"bc2defbc\""),
    (
        "dse.symbolic.Jdk.pieces(Ljava/lang/String;II)Ljava/lang/String; *\"ab\" *1 *3",
        "threw java.lang.StringIndexOutOfBoundsException",
    ),
    ("dse.symbolic.Jdk.arrays(IZ)I *3 *true", "-1"),
    ("dse.symbolic.Jdk.arrays(IZ)I *2 *false", "-1"),
    ("dse.symbolic.Jdk.arrays(IZ)I *5 *true", "50"),
    ("dse.symbolic.Jdk.bits(DF)J *2.5d *1.0f", "7L"),
    ("dse.symbolic.Jdk.bits(DF)J *1.0E300d *-3.5f", "9094988921128908188L"),
    ("dse.symbolic.Jdk.ranges(CIII)Ljava/lang/String; *'q' *1 *2 *65", "\"qz|3+\""),
    ("dse.symbolic.Jdk.ranges(CIII)Ljava/lang/String; *'q' *0 *4 *128512", "\"aqz!|4+\""),
    (
        "dse.symbolic.Jdk.ranges(CIII)Ljava/lang/String; *'q' *3 *2 *65",
        "threw java.lang.StringIndexOutOfBoundsException",
    ),
    (
        "dse.symbolic.Jdk.ranges(CIII)Ljava/lang/String; *'q' *-1 *1 *65",
        "threw java.lang.StringIndexOutOfBoundsException",
    ),
    (
        "dse.symbolic.Jdk.ranges(CIII)Ljava/lang/String; *'q' *1 *1 *1114112",
        "threw java.lang.IllegalArgumentException",
    ),
    ("dse.symbolic.Jdk.ranges(CIII)Ljava/lang/String; *'q' *2 *2 *55296", "\"z!|3-\""),
    // Stubs (models::stub; fixtures/java/dse/types): answers in turn, then the default value.
    (
        "stub dse.types.Counter next()I=3,4 label()Ljava/lang/String; ; dse.types.Uses.count(Ldse/types/Counter;I)I $ *5",
        "72",
    ),
    (
        "stub dse.types.Counter next()I=3,4,5 label()Ljava/lang/String; ; dse.types.Uses.count(Ldse/types/Counter;I)I $ *2",
        "72",
    ),
    (
        "stub dse.types.Counter next()I label()Ljava/lang/String; ; dse.types.Uses.label(Ldse/types/Counter;)I $",
        "-1",
    ),
    (
        "stub dse.types.Counter next()I label()Ljava/lang/String;=*\"go\" ; dse.types.Uses.label(Ldse/types/Counter;)I $",
        "1",
    ),
    (
        "stub dse.types.Counter next()I=1,2,3 label()Ljava/lang/String;=*\"abc\" ; dse.types.Uses.label(Ldse/types/Counter;)I $",
        "16",
    ),
    (
        "stub dse.types.Counter next()I=1,null label()Ljava/lang/String; ; dse.types.Uses.count(Ldse/types/Counter;I)I $ 5",
        "threw java.lang.NullPointerException",
    ),
    (
        "stub dse.types.Counter next()I=1!java.lang.IllegalStateException label()Ljava/lang/String; ; dse.types.Uses.count(Ldse/types/Counter;I)I $ 5",
        "threw java.lang.IllegalStateException",
    ),
    (
        "stub-class dse.types.Shape(I) *4 area()J=*7L,*2L round()Z ; dse.types.Uses.shape(Ldse/types/Shape;)J $",
        "711042L",
    ),
    (
        "stub-class dse.types.Shape(I) 4 area()J round()Z=true ; dse.types.Uses.shape(Ldse/types/Shape;)J $",
        "10999L",
    ),
    (
        "stub dse.types.Numbers big()J=*7 real()D='a' small()B=300 flag()Z=true ; dse.types.Uses.numbers(Ldse/types/Numbers;)Ljava/lang/String; $",
        "\"7/97.0/44/true/0\"",
    ),
    (
        "stub dse.types.Numbers big()J=true real()D small()B flag()Z ; dse.types.Uses.numbers(Ldse/types/Numbers;)Ljava/lang/String; $",
        "threw java.lang.ClassCastException",
    ),
    (
        "stub java.util.concurrent.Executor execute(Ljava/lang/Runnable;)V ; dse.types.Uses.runs(Ljava/util/concurrent/Executor;I)I $ *20",
        "41",
    ),
    (
        "stub java.io.Closeable close()V!java.io.IOException ; dse.types.Uses.close(Ljava/io/Closeable;)Ljava/lang/String; $",
        "\"io\"",
    ),
    (
        "stub java.io.Closeable close()V!null ; dse.types.Uses.close(Ljava/io/Closeable;)Ljava/lang/String; $",
        "\"java.lang.NullPointerException\"",
    ),
    (
        "stub java.io.Closeable close()V ; dse.types.Uses.close(Ljava/io/Closeable;)Ljava/lang/String; $",
        "\"ok\"",
    ),
    // ConcurrentHashMap: its own bytecode, over the Unsafe models (models::unsafe_ops).
    ("dse.types.Uses.memo(Ljava/lang/String;I)I *\"hit\" *5", "7121109"),
    ("dse.types.Uses.memo(Ljava/lang/String;I)I *\"k\" *5", "7120107"),
    ("dse.types.Uses.nulls(Ljava/lang/String;)I *\"k\"", "1"),
    ("dse.types.Uses.nulls(Ljava/lang/String;)I null:java.lang.String", "-1"),
    ("dse.types.Uses.views(I)I *3", "1"),
    // The parser models (dse.symbolic.Parsing): split and matches by regular expressions, trim and
    // strip, String.format, Math over doubles; every row confirmed by the JVM (tests/worker.rs).
    (
        "dse.symbolic.Parsing.split(Ljava/lang/String;)Ljava/lang/String; *\"1.2.3\"",
        r#""3:1|2|3\n1:1.2.3\n1:1.2.3\n1:1.2.3\n1:1.2.3\n5:1|.|2|.|3\n1:1.2.3\n1:1.2.3\n5:1|.|2|.|3\n1:1.2.3\n1:1.2.3\n3:|.|.\n5:1|.|2|.|3\n1:1.2.3 1:1.2.3 1:1.2.3""#,
    ),
    (
        "dse.symbolic.Parsing.split(Ljava/lang/String;)Ljava/lang/String; *\" a , b,,c \"",
        r#""1: a , b,,c \n4: a|b||c \n1: a , b,,c \n4:|a|,|b,,c\n4: a | b||c \n10: || |,| |b|,|,|c| \n1: a , b,,c \n1: a , b,,c \n7: |a| , |b|,,|c| \n4: | , |,,| \n1: a , b,,c \n1: a , b,,c \n10: |a| |,| |b|,|,|c| \n2: a | b,,c  1: a , b,,c  4: a | b||c ""#,
    ),
    (
        "dse.symbolic.Parsing.split(Ljava/lang/String;)Ljava/lang/String; *\"k=v;x=y;\"",
        r#""1:k=v;x=y;\n1:k=v;x=y;\n4:k|v|x|y\n1:k=v;x=y;\n1:k=v;x=y;\n8:k|=|v|;|x|=|y|;\n1:k=v;x=y;\n2:k=v;|=y;\n8:k|=|v|;|x|=|y|;\n1:k=v;x=y;\n1:k=v;x=y;\n1:k=v;x=y;\n8:k|=|v|;|x|=|y|;\n1:k=v;x=y; 1:k=v;x=y; 1:k=v;x=y;""#,
    ),
    (
        "dse.symbolic.Parsing.split(Ljava/lang/String;)Ljava/lang/String; *\"\"",
        r#""1:\n1:\n1:\n1:\n1:\n1:\n1:\n1:\n1:\n1:\n1:\n1:\n1:\n1: 1: 1:""#,
    ),
    (
        "dse.symbolic.Parsing.split(Ljava/lang/String;)Ljava/lang/String; *\"aaba.b|c\"",
        r#""2:aaba|b|c\n1:aaba.b|c\n1:aaba.b|c\n1:aaba.b|c\n1:aaba.b|c\n8:||b||.|b|||c\n2:aaba.b|c\n1:aaba.b|c\n5:aaba|.|b|||c\n6:||||.||\n1:aaba.b|c\n1:aaba.b|c\n8:a|a|b|a|.|b|||c\n1:aaba.b|c 1:aaba.b|c 1:aaba.b|c""#,
    ),
    (
        "dse.symbolic.Parsing.split(Ljava/lang/String;)Ljava/lang/String; *\"x yy\u{9}z\"",
        r#""1:x yy\tz\n1:x yy\tz\n1:x yy\tz\n3:x|yy|z\n1:x yy\tz\n6:x| |y|y|\t|z\n1:x yy\tz\n3:| |\tz\n5:x| |yy|\t|z\n1:x yy\tz\n1:x yy\tz\n1:x yy\tz\n6:x| |y|y|\t|z\n1:x yy\tz 1:x yy\tz 1:x yy\tz""#,
    ),
    (
        "dse.symbolic.Parsing.split(Ljava/lang/String;)Ljava/lang/String; *\"v1.10\"",
        r#""2:v1|10\n1:v1.10\n1:v1.10\n1:v1.10\n1:v1.10\n5:v|1|.|1|0\n1:v1.10\n1:v1.10\n3:v1|.|10\n1:v1.10\n1:v1.10\n2:v|.\n5:v|1|.|1|0\n1:v1.10 1:v1.10 1:v1.10""#,
    ),
    (
        "dse.symbolic.Parsing.split(Ljava/lang/String;)Ljava/lang/String; *\"A-12b3c\"",
        r#""1:A-12b3c\n1:A-12b3c\n1:A-12b3c\n1:A-12b3c\n1:A-12b3c\n7:A|-|1|2|b|3|c\n1:A-12b3c\n1:A-12b3c\n3:A|-|12b3c\n3:|-12|3\n1:A-12b3c\n3:A|b|c\n7:A|-|1|2|b|3|c\n1:A-12b3c 1:A-12b3c 1:A-12b3c""#,
    ),
    ("dse.symbolic.Parsing.matches(Ljava/lang/String;)I *\"1.2.3\"", r#"40"#),
    ("dse.symbolic.Parsing.matches(Ljava/lang/String;)I *\"192.168.0.1\"", r#"44"#),
    ("dse.symbolic.Parsing.matches(Ljava/lang/String;)I *\"yes\"", r#"74"#),
    ("dse.symbolic.Parsing.matches(Ljava/lang/String;)I *\"bob@ex.org\"", r#"136"#),
    ("dse.symbolic.Parsing.matches(Ljava/lang/String;)I *\"v2.0.1\"", r#"40"#),
    ("dse.symbolic.Parsing.matches(Ljava/lang/String;)I *\"007\"", r#"41"#),
    ("dse.symbolic.Parsing.matches(Ljava/lang/String;)I *\"\"", r#"24"#),
    ("dse.symbolic.Parsing.matches(Ljava/lang/String;)I *\"abc7\"", r#"10"#),
    ("dse.symbolic.Parsing.matches(Ljava/lang/String;)I *\"NO\"", r#"72"#),
    (
        "dse.symbolic.Parsing.strip(Ljava/lang/String;)Ljava/lang/String; *\" a b \"",
        r#""1+3 1+3 1+4 0+4 false""#,
    ),
    (
        "dse.symbolic.Parsing.strip(Ljava/lang/String;)Ljava/lang/String; *\"\u{9}\u{1f}x\u{0}\"",
        r#""2+1 2+2 2+2 0+4 false""#,
    ),
    (
        "dse.symbolic.Parsing.strip(Ljava/lang/String;)Ljava/lang/String; *\"  \u{2003} hi \u{a0}\"",
        r#""2+6 4+4 4+4 0+8 false""#,
    ),
    (
        "dse.symbolic.Parsing.strip(Ljava/lang/String;)Ljava/lang/String; *\"\u{3000}\u{2007}x\u{2028}\"",
        r#""0+4 1+2 1+3 0+3 false""#,
    ),
    (
        "dse.symbolic.Parsing.strip(Ljava/lang/String;)Ljava/lang/String; *\"\u{1680}\u{205f}\"",
        r#""0+2 0+0 0+0 0+0 true""#,
    ),
    ("dse.symbolic.Parsing.strip(Ljava/lang/String;)Ljava/lang/String; *\"\"", r#""0+0 0+0 0+0 0+0 true""#),
    (
        "dse.symbolic.Parsing.strip(Ljava/lang/String;)Ljava/lang/String; *\"\u{85}y\u{180e}\"",
        r#""0+3 0+3 0+3 0+3 false""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *42 *\"ab\" *0.125d *'q'",
        r#""42\n   42\n42   |\n00042\n+42\n 42\n2a\n2A\n0000002a\n0x2a\n42\n        42|\n42        |\n42\n42\n0.13\n0.125000\n0\n     0.125\n0.1       |\n+0.1\n00000.13\n0.\n42000126 280defe\n42 2A\n42 2a\nq    q\ntrue true false\n%d \n\n42-ab\nab=42;0.1\n0.125    0.1250\n42/ab""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *-7 *\"Hello, world\" *1.005d *'Z'",
        r#""-7\n   -7\n-7   |\n-0007\n-7\n-7\nfffffff9\nFFFFFFF9\nfffffff9\n0xfffffff9\n-7\n        -7|\n-7        |\n-7\n-7\n1.01\n1.005000\n1\n     1.005\n1.0       |\n+1.0\n00001.01\n1.\n-7000021 ffffffffff95302b\n-7 FFF9\n-7 f9\nZ    Z\ntrue true false\n%d \n\n-7-Hello, world\nHello, world=-7;1.0\n1.005    1.0050\n-7/Hello, world""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *0 *\"\" *-0.0d *'_'",
        r#""0\n    0\n0    |\n00000\n+0\n 0\n0\n0\n00000000\n0x0\n0\n         0|\n0         |\n0\n0\n-0.00\n-0.000000\n-0\n    -0.000\n-0.0      |\n-0.0\n-0000.00\n-0.\n0 0\n0 0\n0 0\n_    _\ntrue true false\n%d \n\n0-\n=0;-0.0\n-0.000   -0.0000\n0/""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *-2147483648 *\"x\" *9.995d *'7'",
        r#""-2147483648\n-2147483648\n-2147483648|\n-2147483648\n-2147483648\n-2147483648\n80000000\n80000000\n80000000\n0x80000000\n-2147483648\n-2147483648|\n-2147483648|\n-2\n-2147483648\n10.00\n9.995000\n10\n     9.995\n10.0      |\n+10.0\n00010.00\n10.\n-2147490090450944 fff85ede80000000\n0 0\n0 0\n7    7\ntrue true false\n%d \n\n-2147483648-x\nx=-2147483648;10.0\n9.995    9.9950\n-2147483648/x""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *255 *\"tab\u{9}x\" *2.5d *'a'",
        r#""255\n  255\n255  |\n00255\n+255\n 255\nff\nFF\n000000ff\n0xff\n255\n       255|\n255       |\n25\n255\n2.50\n2.500000\n3\n     2.500\n2.5       |\n+2.5\n00002.50\n3.\n255000765 f3300bd\n255 FF\n-1 ff\na    a\ntrue true false\n%d \n\n255-tab\tx\ntab\tx=255;2.5\n2.500    2.5000\n255/tab\tx""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *1 *\"n\" *NaNd *'b'",
        r#""1\n    1\n1    |\n00001\n+1\n 1\n1\n1\n00000001\n0x1\n1\n         1|\n1         |\n1\n1\nNaN\nNaN\nNaN\n       NaN\nNaN       |\nNaN\n     NaN\nNaN\n1000003 f4243\n1 1\n1 1\nb    b\ntrue true false\n%d \n\n1-n\nn=1;NaN\nNaN       NaN\n1/n""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *3 *\"s\" *-infd *'c'",
        r#""3\n    3\n3    |\n00003\n+3\n 3\n3\n3\n00000003\n0x3\n3\n         3|\n3         |\n3\n3\n-Infinity\n-Infinity\n-Infinity\n -Infinity\n-Infinity |\n-Infinity\n-Infinity\n-Infinity\n3000009 2dc6c9\n3 3\n3 3\nc    c\ntrue true false\n%d \n\n3-s\ns=3;-Infinity\n-Infinity -Infinity\n3/s""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *12345 *\"long string here\" *1.23456789987654e8d *'x'",
        r#""12345\n12345\n12345|\n12345\n+12345\n 12345\n3039\n3039\n00003039\n0x3039\n12345\n     12345|\n12345     |\n12\n12345\n123456789.99\n123456789.987654\n123456790\n123456789.988\n123456790.0|\n+123456790.0\n123456789.99\n123456790.\n12345037035 2dfd250eb\n12345 3039\n57 39\nx    x\ntrue true false\n%d \n\n12345-long string here\nlong string here=12345;123456790.0\n123456789.988  123456789.9877\n12345/long string here""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *-1 *\"q\" *4.0e-4d *'y'",
        r#""-1\n   -1\n-1   |\n-0001\n-1\n-1\nffffffff\nFFFFFFFF\nffffffff\n0xffffffff\n-1\n        -1|\n-1        |\n-1\n-1\n0.00\n0.000400\n0\n     0.000\n0.0       |\n+0.0\n00000.00\n0.\n-1000003 fffffffffff0bdbd\n-1 FFFF\n-1 ff\ny    y\ntrue true false\n%d \n\n-1-q\nq=-1;0.0\n0.000    0.0004\n-1/q""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *9 *\"r\" *1.0e20d *'z'",
        r#""9\n    9\n9    |\n00009\n+9\n 9\n9\n9\n00000009\n0x9\n9\n         9|\n9         |\n9\n9\n100000000000000000000.00\n100000000000000000000.000000\n100000000000000000000\n100000000000000000000.000\n100000000000000000000.0|\n+100000000000000000000.0\n100000000000000000000.00\n100000000000000000000.\n9000027 89545b\n9 9\n9 9\nz    z\ntrue true false\n%d \n\n9-r\nr=9;100000000000000000000.0\n100000000000000000000.000  100000000000000000000.0000\n9/r""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *-300 *\"t\" *0.05d *'w'",
        r#""-300\n -300\n-300 |\n-0300\n-300\n-300\nfffffed4\nFFFFFED4\nfffffed4\n0xfffffed4\n-300\n      -300|\n-300      |\n-3\n-300\n0.05\n0.050000\n0\n     0.050\n0.1       |\n+0.1\n00000.05\n0.\n-300000900 ffffffffee1e597c\n-300 FED4\n-44 d4\nw    w\ntrue true false\n%d \n\n-300-t\nt=-300;0.1\n0.050    0.0500\n-300/t""#,
    ),
    (
        "dse.symbolic.Parsing.format(ILjava/lang/String;DC)Ljava/lang/String; *7 *\"u\" *2.675d *'v'",
        r#""7\n    7\n7    |\n00007\n+7\n 7\n7\n7\n00000007\n0x7\n7\n         7|\n7         |\n7\n7\n2.68\n2.675000\n3\n     2.675\n2.7       |\n+2.7\n00002.68\n3.\n7000021 6acfd5\n7 7\n7 7\nv    v\ntrue true false\n%d \n\n7-u\nu=7;2.7\n2.675    2.6750\n7/u""#,
    ),
    (
        "dse.symbolic.Parsing.math(DD)Ljava/lang/String; *2.0d *3.0d",
        r#""1.4142135623730951 2.0 2.0 2.0 2.0 3.0 4.0 2.0 2.0 3.0 1.7320508075688772""#,
    ),
    (
        "dse.symbolic.Parsing.math(DD)Ljava/lang/String; *-0.0d *0.0d",
        r#""-0.0 -0.0 -0.0 0.0 -0.0 0.0 0.0 0.0 -0.0 0.0 0.0""#,
    ),
    (
        "dse.symbolic.Parsing.math(DD)Ljava/lang/String; *0.0d *-0.0d",
        r#""0.0 0.0 0.0 0.0 -0.0 0.0 0.0 0.0 -0.0 0.0 -0.0""#,
    ),
    (
        "dse.symbolic.Parsing.math(DD)Ljava/lang/String; *-2.5d *NaNd",
        r#""NaN -3.0 -2.0 2.5 NaN NaN 6.25 2.5 NaN NaN NaN""#,
    ),
    (
        "dse.symbolic.Parsing.math(DD)Ljava/lang/String; *NaNd *1.0d",
        r#""NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.0""#,
    ),
    (
        "dse.symbolic.Parsing.math(DD)Ljava/lang/String; *1.0e10d *-1.0e10d",
        r#""100000.0 1.0E10 1.0E10 1.0E10 -1.0E10 1.0E10 1.0E20 1.0E10 -1.0E10 1.0E10 NaN""#,
    ),
    (
        "dse.symbolic.Parsing.math(DD)Ljava/lang/String; *-1.0d *16.0d",
        r#""NaN -1.0 -1.0 1.0 -1.0 16.0 1.0 1.0 -1.0 16.0 4.0""#,
    ),
    (
        "dse.symbolic.Parsing.math(DD)Ljava/lang/String; *0.1d *0.2d",
        r#""0.31622776601683794 0.0 1.0 0.1 0.1 0.2 0.010000000000000002 0.1 0.1 0.2 0.4472135954999579""#,
    ),
    (
        "dse.symbolic.Parsing.math(DD)Ljava/lang/String; *-3.7d *3.7d",
        r#""NaN -4.0 -3.0 3.7 -3.7 3.7 13.690000000000001 3.7 -3.7 3.7 1.9235384061671346""#,
    ),
    (
        "dse.symbolic.Parsing.numbers(Ljava/lang/String;I)Ljava/lang/String; *\"ff\" *255",
        r#""255/255 555/555 NFE NFE ff fffffffffffffd03 255 255|255 2551785-1""#,
    ),
    (
        "dse.symbolic.Parsing.numbers(Ljava/lang/String;I)Ljava/lang/String; *\"-7fffffff\" *-1",
        r#""-2147483647/-2147483647 NFE NFE NFE ffffffff 3 -1 -1|-1 -1-7-1""#,
    ),
    (
        "dse.symbolic.Parsing.numbers(Ljava/lang/String;I)Ljava/lang/String; *\"zz\" *0",
        r#""NFE 1295/1295 NFE NFE 0 0 0 0|0 000""#,
    ),
    (
        "dse.symbolic.Parsing.numbers(Ljava/lang/String;I)Ljava/lang/String; *\"+101\" *-2147483648",
        r#""257/257 1297/1297 5/5 NFE 80000000 180000000 -2147483648 -2147483648|0 -2147483648-150323855360""#,
    ),
    (
        "dse.symbolic.Parsing.numbers(Ljava/lang/String;I)Ljava/lang/String; *\"\" *1000000",
        r#""NFE NFE NFE NFE f4240 ffffffffffd23940 1000000 1000000|16960 1000000700000064""#,
    ),
    (
        "dse.symbolic.Parsing.numbers(Ljava/lang/String;I)Ljava/lang/String; *\"80000000\" *42",
        r#""NFE NFE NFE NFE 2a ffffffffffffff82 42 42|42 4229442""#,
    ),
    (
        "dse.symbolic.Parsing.numbers(Ljava/lang/String;I)Ljava/lang/String; *\"-\" *9",
        r#""NFE NFE NFE NFE 9 ffffffffffffffe5 9 9|9 9639""#,
    ),
    (
        "dse.symbolic.Parsing.numbers(Ljava/lang/String;I)Ljava/lang/String; *\"1x\" *-65536",
        r#""NFE 69/69 NFE NFE ffff0000 30000 -65536 -65536|0 -65536-4587520""#,
    ),
    // System properties, overflow-checked Math, Class queries, regionMatches outside ASCII
    // (fixtures/java/dse/symbolic/Props.java; the values are the JVM's).
    ("dse.symbolic.Props.system(Ljava/lang/String;)I *\"file.separator\"", "255"),
    ("dse.symbolic.Props.system(Ljava/lang/String;)I *\"abc\"", "319"),
    ("dse.symbolic.Props.system(Ljava/lang/String;)I *\"os.name\"", "127"),
    ("dse.symbolic.Props.properties(Ljava/lang/String;)I *\"k\"", "119"),
    ("dse.symbolic.Props.properties(Ljava/lang/String;)I *\"os.arch\"", "125"),
    ("dse.symbolic.Props.platform(I)I *7", "31"),
    ("dse.symbolic.Props.platform(I)I *1", "15"),
    ("dse.symbolic.Props.exact(II)I *50 *50", "65"),
    ("dse.symbolic.Props.exact(II)I *17 *23", "68"),
    ("dse.symbolic.Props.exact(II)I *2147483647 *1", "130"),
    ("dse.symbolic.Props.exact(II)I *100000 *100000", "136"),
    ("dse.symbolic.Props.exact(II)I *10 *15", "80"),
    ("dse.symbolic.Props.exact(II)I *-2147483648 *0", "160"),
    ("dse.symbolic.Props.exact(II)I *40000 *1", "128"),
    ("dse.symbolic.Props.exactLong(JJ)I *1000000L *1000000L", "1"),
    ("dse.symbolic.Props.exactLong(JJ)I *9223372036854775807L *2L", "26"),
    ("dse.symbolic.Props.exactLong(JJ)I *-9223372036854775808L *-1L", "26"),
    ("dse.symbolic.Props.exactLong(JJ)I *-5L *3L", "4"),
    ("dse.symbolic.Props.exactLong(JJ)I *-9223372036854775808L *0L", "20"),
    ("dse.symbolic.Props.exactLong(JJ)I *3000000000L *1L", "0"),
    ("dse.symbolic.Props.classes(IZ)I *4 *true", "247"),
    ("dse.symbolic.Props.classes(IZ)I *3 *false", "60"),
    ("dse.symbolic.Props.regions(Ljava/lang/String;Ljava/lang/String;)I *\"Éa\" *\"éA\"", "3"),
    ("dse.symbolic.Props.regions(Ljava/lang/String;Ljava/lang/String;)I *\"ßx\" *\"SSx\"", "0"),
    ("dse.symbolic.Props.regions(Ljava/lang/String;Ljava/lang/String;)I *\"abc\" *\"ABd\"", "7"),
    ("dse.symbolic.Props.regions(Ljava/lang/String;Ljava/lang/String;)I *\"Ωμx\" *\"ωΜy\"", "7"),
    ("dse.symbolic.Props.regions(Ljava/lang/String;Ljava/lang/String;)I *\"İi\" *\"iI\"", "3"),
    ("dse.symbolic.Props.internals(Ljava/lang/String;I)I *\"ab\" *7", "383"),
    ("dse.symbolic.Props.internals(Ljava/lang/String;I)I *\"aa\" *0", "510"),
    ("dse.symbolic.Props.internals(Ljava/lang/String;I)I *\"xa\" *-1", "126"),
    ("dse.symbolic.Props.internals(Ljava/lang/String;I)I *\"abc\" *3", "506"),
    ("dse.symbolic.Props.internals(Ljava/lang/String;I)I *\"b\" *7", "123"),
];

/// The worker protocol's statements of a test (as the engine's `convert` makes them).
pub fn wire(t: &TestCase) -> Vec<Wire> {
    let var = |v: VarId| Var(v.0 as u16);
    let prim = |p: PrimType| match p {
        PrimType::Boolean => WirePrim::Boolean,
        PrimType::Byte => WirePrim::Byte,
        PrimType::Char => WirePrim::Char,
        PrimType::Short => WirePrim::Short,
        PrimType::Int => WirePrim::Int,
        PrimType::Long => WirePrim::Long,
        PrimType::Float => WirePrim::Float,
        PrimType::Double => WirePrim::Double,
    };
    let type_name = |t: &JType| match t {
        JType::Class { name, .. } => name.clone(),
        JType::Var(_) => "java.lang.Object".to_string(),
        JType::Prim(_) | JType::Array(_) => t.descriptor(),
    };
    t.statements
        .iter()
        .map(|s| match s {
            Statement::Primitive(v) => Wire::Primitive { ty: prim(v.ty()), bits: v.bits() },
            Statement::String(v) => Wire::String { value: v.clone() },
            Statement::Null(ty) => Wire::Null { ty: type_name(ty) },
            Statement::EnumConstant { ty, name } => {
                Wire::EnumConstant { class: type_name(ty), name: name.clone() }
            }
            Statement::Constructor { ctor, args } => Wire::Constructor {
                class: ctor.class.clone(),
                descriptor: ctor.descriptor.clone(),
                args: args.iter().map(|&a| var(a)).collect(),
            },
            Statement::Method { method, receiver, args } => Wire::Method {
                class: method.class.clone(),
                name: method.name.clone(),
                descriptor: method.descriptor.clone(),
                is_static: method.is_static,
                receiver: receiver.map(var),
                args: args.iter().map(|&a| var(a)).collect(),
            },
            Statement::FieldGet { field, receiver } => Wire::FieldGet {
                class: field.class.clone(),
                name: field.name.clone(),
                descriptor: field.descriptor.clone(),
                is_static: field.is_static,
                receiver: receiver.map(var),
            },
            Statement::FieldSet { field, receiver, value } => Wire::FieldSet {
                class: field.class.clone(),
                name: field.name.clone(),
                descriptor: field.descriptor.clone(),
                is_static: field.is_static,
                receiver: receiver.map(var),
                value: Some(var(*value)),
            },
            Statement::NewArray { ty, length } => {
                let component = match ty {
                    JType::Array(c) => c.descriptor(),
                    other => other.descriptor(),
                };
                Wire::NewArray { component, length: *length as i32 }
            }
            Statement::ArrayStore { array, index, value } => {
                Wire::ArrayStore { array: Some(var(*array)), index: *index as i32, value: Some(var(*value)) }
            }
            Statement::ArrayLoad { array, index, .. } => {
                Wire::ArrayLoad { array: Some(var(*array)), index: *index as i32 }
            }
            Statement::Copy { from, .. } => Wire::Copy { from: Some(var(*from)) },
            Statement::ClassLiteral { ty } => Wire::ClassLiteral { descriptor: ty.erasure().descriptor() },
            Statement::Stub { stub, args, answers, throws } => Wire::Stub {
                class: stub.stub_class(),
                bytes: stub.class_file().expect("a stub class"),
                ctor: stub.stub.constructors[stub.ctor].0.clone(),
                args: args.iter().map(|&a| var(a)).collect(),
                methods: stub
                    .stub
                    .methods
                    .iter()
                    .zip(answers)
                    .zip(throws)
                    .map(|((m, a), th)| protocol::StubAnswers {
                        descriptor: m.descriptor.clone(),
                        runs_arguments: m.runs_arguments,
                        answers: a.iter().map(|&v| var(v)).collect(),
                        throws: th.map(var),
                    })
                    .collect(),
            },
            // The differential tests build clusters without files (`ClusterConfig::evosuite()`).
            Statement::ScratchFile(_) => panic!("a scratch file in a differential test"),
        })
        .collect()
}

/// The test with the model's values (the hint's where the model has none).
pub fn substitute(test: &TestCase, r: &Replay, model: &Assignment) -> TestCase {
    let mut out = test.clone();
    let value = |v| model.0.get(&v).or_else(|| r.hint.0.get(&v)).copied();
    let mut strings: std::collections::BTreeMap<usize, (usize, Vec<(u32, u16)>)> = Default::default();
    for input in &r.inputs {
        let Some(v) = value(input.var) else { continue };
        match input.origin {
            InputOrigin::Prim { stmt } => {
                if let Statement::Primitive(p) = &mut out.statements[stmt] {
                    *p = prim(v, p.ty());
                }
            }
            InputOrigin::StrLen { stmt } => strings.entry(stmt).or_default().0 = v.as_i64().max(0) as usize,
            InputOrigin::StrChar { stmt, index } => {
                strings.entry(stmt).or_default().1.push((index, v.as_u64() as u16))
            }
        }
    }
    for (stmt, (len, chars)) in strings {
        let mut units = vec![u16::from(b'a'); len];
        for (i, c) in chars {
            if (i as usize) < len {
                units[i as usize] = c;
            }
        }
        out.statements[stmt] = Statement::String(String::from_utf16_lossy(&units));
    }
    out
}

pub fn prim(v: Value, ty: PrimType) -> PrimValue {
    let bits = v.as_u64();
    match ty {
        PrimType::Boolean => PrimValue::Boolean(v.as_bool()),
        PrimType::Byte => PrimValue::Byte(bits as u8 as i8),
        PrimType::Char => PrimValue::Char(bits as u16),
        PrimType::Short => PrimValue::Short(bits as u16 as i16),
        PrimType::Int => PrimValue::Int(bits as u32 as i32),
        PrimType::Long => PrimValue::Long(bits as i64),
        PrimType::Float => PrimValue::Float(bits as u32),
        PrimType::Double => PrimValue::Double(bits),
    }
}

/// The queries that negate each branch entry of `r` whose other side `r` did not cover: the
/// entry's index, the goal of that side, and the prefix with the negated condition.
pub fn branch_negations(r: &mut Replay) -> Vec<(usize, goals::GoalId, Vec<solver::ExprId>)> {
    let mut out = Vec::new();
    for i in 0..r.path.len() {
        let e = r.path[i].clone();
        let Some(goal) =
            e.negated_goal.filter(|g| e.kind == symbolic::EntryKind::Branch && !r.covered.contains(g))
        else {
            continue;
        };
        let mut constraints = r.prefix(i);
        constraints.push(r.arena.mk(solver::Op::Not, &[e.cond]));
        out.push((i, goal, constraints));
    }
    out
}
