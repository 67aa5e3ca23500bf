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
            // The differential tests build clusters without stubs and files (`ClusterConfig::evosuite()`).
            Statement::Stub { .. } => panic!("a stub in a differential test"),
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
