//! Round-trip tests of every message kind of docs/protocol.md, byte-level checks of the layout
//! against hand-written frames, and hostile-input tests (every truncation, bad tags, bad string
//! references) that must give errors, never panics.

use expect_test::expect;
use protocol::*;

fn frame_of_request(req: &Request) -> Vec<u8> {
    let mut out = Vec::new();
    encode_request(req, &mut out);
    out
}

fn frame_of_response(resp: &Response) -> Vec<u8> {
    let mut out = Vec::new();
    encode_response(resp, &mut out);
    out
}

/// Strips and checks the length prefix.
fn body(frame: &[u8]) -> &[u8] {
    let n = u32::from_be_bytes(frame[..4].try_into().unwrap()) as usize;
    assert_eq!(n, frame.len() - 4, "length prefix counts the bytes after itself");
    &frame[4..]
}

fn all_statements() -> Vec<Statement> {
    vec![
        Statement::int(-7),
        Statement::long(i64::MIN),
        Statement::boolean(true),
        Statement::double(-0.5),
        Statement::float(f32::NAN),
        Statement::Primitive { ty: PrimType::Char, bits: 0xE9 },
        Statement::Primitive { ty: PrimType::Byte, bits: (-1i64) as u64 },
        Statement::Primitive { ty: PrimType::Short, bits: 300 },
        Statement::string("h\u{e9}llo \u{1F600}"),
        Statement::Null { ty: "java.lang.String".into() },
        Statement::EnumConstant { class: "java.util.concurrent.TimeUnit".into(), name: "SECONDS".into() },
        Statement::Constructor {
            class: "java.util.ArrayList".into(),
            descriptor: "(I)V".into(),
            args: vec![Var(0)],
        },
        Statement::Method {
            class: "java.util.ArrayList".into(),
            name: "add".into(),
            descriptor: "(Ljava/lang/Object;)Z".into(),
            is_static: false,
            receiver: Some(Var(11)),
            args: vec![Var(8)],
        },
        Statement::Method {
            class: "java.lang.Integer".into(),
            name: "parseInt".into(),
            descriptor: "(Ljava/lang/String;)I".into(),
            is_static: true,
            receiver: None,
            args: vec![Var(8)],
        },
        Statement::FieldGet {
            class: "java.lang.Integer".into(),
            name: "MAX_VALUE".into(),
            descriptor: "I".into(),
            is_static: true,
            receiver: None,
        },
        Statement::FieldSet {
            class: "p.C".into(),
            name: "f".into(),
            descriptor: "I".into(),
            is_static: false,
            receiver: Some(Var(3)),
            value: Some(Var(0)),
        },
        Statement::NewArray { component: "I".into(), length: 3 },
        Statement::ArrayStore { array: Some(Var(16)), index: 1, value: Some(Var(0)) },
        Statement::ArrayLoad { array: Some(Var(16)), index: -1 },
        Statement::Copy { from: Some(Var(2)) },
        Statement::Copy { from: None },
        Statement::ClassLiteral { descriptor: "[Ljava/lang/String;".into() },
        Statement::Stub {
            class: "suitesmith.stubs.java_util_function_Supplier".into(),
            bytes: vec![0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52],
            ctor: "()V".into(),
            args: vec![],
            methods: vec![
                StubAnswers {
                    descriptor: "()Ljava/lang/Object;".into(),
                    runs_arguments: false,
                    answers: vec![Var(8), Var(2)],
                    throws: None,
                },
                StubAnswers {
                    descriptor: "()V".into(),
                    runs_arguments: false,
                    answers: vec![],
                    throws: Some(Var(3)),
                },
            ],
        },
        Statement::ScratchFile { kind: 0, path: false, name: "file0".into(), contents: "a\nb \u{e9}".into() },
        Statement::ScratchFile { kind: 2, path: true, name: "file1".into(), contents: String::new() },
        Statement::Mutant(ActiveMutant { site: 0x07FF_FFFF, op: -3, bits: u64::MAX - 1 }),
    ]
}

fn all_requests() -> Vec<Request> {
    let mut setup = Setup::empty();
    setup.classpath = vec!["/a.jar".into(), "/b/classes".into()];
    setup.classes = vec![("p.C".into(), vec![0xCA, 0xFE, 0xBA, 0xBE]), ("p.D".into(), vec![])];
    setup.probe_count = 12;
    setup.class_ids = vec![(0, "p.C".into()), (1, "p.D".into())];
    setup.scratch_dir = "/tmp/scratch \u{e9}".into();
    setup.time_base_ms = -5;
    setup.path_epsilon = 0.001;
    setup.path_conditions = vec![every_clause()];
    setup.string_compares = false;
    vec![
        Request::Hello { version: VERSION },
        Request::Setup(setup),
        Request::Setup(Setup::empty()),
        Request::Execute { tests: vec![], focus: None },
        Request::Execute {
            tests: vec![
                Test { id: 0, statements: all_statements() },
                Test { id: 7, statements: vec![] },
                Test { id: 9, statements: all_statements()[8..12].to_vec() },
            ],
            focus: Some(vec![0, 3, 70_000]),
        },
        Request::Execute { tests: vec![Test { id: 1, statements: vec![] }], focus: Some(vec![]) },
        Request::Shutdown,
    ]
}

/// A path condition using every clause, root, step, operation and conversion kind.
fn every_clause() -> PathCondition {
    let list = AccessPath::fields(Root::Param(0), &[("p.L", "header"), ("p.L$E", "next")]);
    let arr = AccessPath { root: Root::This, steps: vec![Step::Element(-1), Step::Length] };
    let size = NumExpr::Path { ty: PrimType::Int, path: AccessPath::fields(Root::This, &[("p.L", "size")]) };
    let mut clauses = vec![
        Clause::Null(arr.clone()),
        Clause::Alias(list.clone(), AccessPath { root: Root::Param(7), steps: vec![] }),
        Clause::Fresh { path: list, class: "p.L$E".into() },
    ];
    let ops = [
        NumOp::Add,
        NumOp::Sub,
        NumOp::Mul,
        NumOp::Div,
        NumOp::Rem,
        NumOp::And,
        NumOp::Or,
        NumOp::Xor,
        NumOp::Shl,
        NumOp::Shr,
        NumOp::Ushr,
    ];
    for (i, cmp) in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge].into_iter().enumerate() {
        let left = NumExpr::Binary {
            op: ops[i],
            ty: PrimType::Long,
            left: Box::new(NumExpr::Convert { to: PrimType::Long, operand: Box::new(size.clone()) }),
            right: Box::new(NumExpr::Neg { ty: PrimType::Long, operand: Box::new(NumExpr::int(i as i32)) }),
        };
        clauses.push(Clause::Numeric {
            cmp,
            left,
            right: NumExpr::Const { ty: PrimType::Double, bits: 1.5f64.to_bits() },
        });
    }
    for op in &ops[6..] {
        clauses.push(Clause::Numeric {
            cmp: Cmp::Eq,
            left: NumExpr::Binary {
                op: *op,
                ty: PrimType::Int,
                left: Box::new(size.clone()),
                right: Box::new(NumExpr::int(1)),
            },
            right: NumExpr::int(0),
        });
    }
    PathCondition {
        class: "p.S".into(),
        name: "sample".into(),
        descriptor: "(Lp/L;Ljava/lang/Object;)I".into(),
        clauses,
    }
}

fn full_trace() -> Trace {
    Trace {
        hits: vec![(ProbeId(0), 1), (ProbeId(3), 40), (ProbeId(9), 2)],
        branches: vec![
            Branch { probe: ProbeId(3), to_true: 0.0, to_false: 4.5 },
            Branch { probe: ProbeId(9), to_true: 1.0, to_false: 0.0 },
        ],
        switches: vec![(ProbeId(4), vec![1, -2, 300]), (ProbeId(5), vec![])],
        operands: vec![(ProbeId(6), vec![(1, 2), (u64::MAX, 0)])],
        returns: vec![(ProbeId(7), Trace::RET_ZERO | Trace::RET_NON_EMPTY)],
        exceptions: vec![(ProbeId(8), "java.lang.IllegalStateException".into()), (ProbeId(8), "E2".into())],
        contexts: vec![
            ContextBranch { site: Some(ProbeId(1)), probe: ProbeId(3), to_true: 0.0, to_false: 2.0 },
            ContextBranch { site: None, probe: ProbeId(3), to_true: 3.0, to_false: 0.0 },
        ],
        class_inits: vec![2, 0, 1],
        strings: vec!["b".into(), "a".into(), "\u{1F600} é \0".into()],
        records: vec![
            (
                ProbeId(2),
                vec![
                    Record { depth: 1, frame: 2, parent: 1, site: Some(ProbeId(7)), a: 1, b: 0 },
                    Record { depth: 3, frame: 0, parent: 0, site: None, a: u64::MAX, b: 1 << 32 },
                ],
            ),
            (ProbeId(7), vec![]),
        ],
        path_distances: vec![
            PathDistance { pc: 0, clauses: vec![0.0, 1.0, 0.7501] },
            PathDistance { pc: 3, clauses: vec![] },
        ],
        compares: vec![
            (
                ProbeId(3),
                StringTest::ALL
                    .iter()
                    .map(|&test| Compared { test, flags: 0, a: "deploy".into(), b: "\u{1F600}\\d+".into() })
                    .collect(),
            ),
            (
                ProbeId(9),
                vec![Compared { test: StringTest::Matches, flags: 2, a: String::new(), b: "x".into() }],
            ),
        ],
    }
}

fn all_values() -> Vec<Value> {
    vec![
        Value::Void,
        Value::Null,
        Value::Bool(false),
        Value::Byte(-128),
        Value::Char(0xFFFF),
        Value::Short(-3),
        Value::Int(i32::MIN),
        Value::Long(1 << 40),
        Value::Float(1.5f32.to_bits()),
        Value::Double(f64::NAN.to_bits()),
        Value::String("\u{0}x\u{2603}".into()),
        Value::Object { class: "java.util.ArrayList".into() },
        Value::Array { class: "[I".into(), length: 3 },
        Value::Enum { class: "java.util.concurrent.TimeUnit".into(), name: "DAYS".into() },
    ]
}

fn all_responses() -> Vec<Response> {
    let mut outcomes: Vec<Outcome> = all_values().into_iter().map(Outcome::Value).collect();
    outcomes.extend([
        Outcome::NotExecuted,
        Outcome::Threw {
            class: "java.lang.NumberFormatException".into(),
            message: "For input string: \"x\"".into(),
            from_sut: true,
            thrown_in: "java.lang.Integer.parseInt".into(),
            top_frame: "java.lang.NumberFormatException".into(),
        },
        Outcome::Timeout,
        Outcome::Guard { what: "System.exit(3)".into() },
    ]);
    vec![
        Response::Ready { version: VERSION, java_version: "17.0.15".into(), pid: 4242 },
        Response::SetupDone { classes_defined: 3, init_trace: full_trace() },
        Response::SetupDone { classes_defined: 0, init_trace: Trace::default() },
        Response::TestResult(TestResult {
            test_id: 5,
            status: TestStatus::Normal,
            elapsed_us: 12,
            outcomes,
            trace: full_trace(),
            stdout: "printed\n".into(),
            properties_changed: true,
        }),
        Response::TestResult(TestResult {
            test_id: 6,
            status: TestStatus::Timeout,
            elapsed_us: 3_000_000,
            outcomes: vec![Outcome::Timeout, Outcome::NotExecuted],
            trace: Trace::default(),
            stdout: String::new(),
            properties_changed: false,
        }),
        Response::TestResult(TestResult {
            test_id: 7,
            status: TestStatus::Guard,
            elapsed_us: 1,
            outcomes: vec![Outcome::Guard { what: "Runtime.halt(1)".into() }],
            trace: Trace::default(),
            stdout: String::new(),
            properties_changed: false,
        }),
        Response::BatchDone { tests: 3 },
        Response::Error { message: "bad setup".into() },
    ]
}

#[test]
fn every_request_round_trips() {
    for req in all_requests() {
        let frame = frame_of_request(&req);
        let back = decode_request(body(&frame)).unwrap();
        assert_eq!(back, req);
        // And through a byte stream.
        let mut buf = Vec::new();
        assert!(read_frame(&mut &frame[..], &mut buf).unwrap());
        assert_eq!(buf, body(&frame));
    }
}

#[test]
fn every_response_round_trips() {
    for resp in all_responses() {
        let frame = frame_of_response(&resp);
        let back = decode_response(body(&frame)).unwrap();
        // NaN has no PartialEq, so compare by re-encoding.
        assert_eq!(frame_of_response(&back), frame, "{resp:?}");
        if !format!("{resp:?}").contains("NaN") {
            assert_eq!(back, resp);
        }
    }
}

#[test]
fn layout_matches_the_document() {
    // Hello: length 3, kind 1, version.
    assert_eq!(frame_of_request(&Request::Hello { version: 1 }), [0, 0, 0, 3, 1, 0, 1]);
    assert_eq!(frame_of_request(&Request::Shutdown), [0, 0, 0, 1, 4]);
    // Execute: string table ["ab"], then one test (id 2) holding String "ab" and Copy(none), then
    // the focus: every path condition (v12).
    let req = Request::Execute {
        tests: vec![Test {
            id: 2,
            statements: vec![Statement::string("ab"), Statement::Copy { from: None }],
        }],
        focus: None,
    };
    let hex: Vec<String> = frame_of_request(&req).iter().map(|b| format!("{b:02x}")).collect();
    expect![[r#"00000022 03 00000001 00000002 00610062 00000001 00000002 00000002 01 00000000 0b ffff 00"#]]
        .assert_eq(&group(&hex, &[4, 1, 4, 4, 4, 4, 4, 4, 1, 4, 1, 2, 1]));
    // A string outside the BMP is two UTF-16 units.
    let r = Response::Error { message: "\u{1F600}".into() };
    assert_eq!(frame_of_response(&r), [0, 0, 0, 9, 132, 0, 0, 0, 2, 0xD8, 0x3D, 0xDE, 0x00]);
}

fn group(hex: &[String], widths: &[usize]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    for w in widths {
        out.push(hex[i..i + w].concat());
        i += w;
    }
    assert_eq!(i, hex.len(), "widths cover the frame");
    out.join(" ")
}

#[test]
fn equal_requests_give_equal_bytes() {
    let a = canonical_test_bytes(&all_statements());
    let b = canonical_test_bytes(&all_statements());
    assert_eq!(a, b);
    let mut other = all_statements();
    other[0] = Statement::int(-8);
    assert_ne!(canonical_test_bytes(&other), a);
}

#[test]
fn every_truncation_is_an_error() {
    let frames: Vec<(bool, Vec<u8>)> = all_requests()
        .iter()
        .map(|r| (true, frame_of_request(r)))
        .chain(all_responses().iter().map(|r| (false, frame_of_response(r))))
        .collect();
    for (is_request, frame) in frames {
        let body = body(&frame);
        for cut in 0..body.len() {
            let res = if is_request {
                decode_request(&body[..cut]).map(|_| ())
            } else {
                decode_response(&body[..cut]).map(|_| ())
            };
            // Shutdown's body is one byte: a zero-length cut is "empty", never Ok.
            assert!(res.is_err(), "cut at {cut} of {:?}", &body[..1]);
        }
        // A cut stream is a truncated frame, not a silent end.
        for cut in 1..frame.len() {
            let mut buf = Vec::new();
            let err = read_frame(&mut &frame[..cut], &mut buf).unwrap_err();
            assert!(matches!(err, FrameError::Truncated { .. }), "{err}");
        }
    }
}

#[test]
fn hostile_inputs_give_typed_errors() {
    assert_eq!(decode_request(&[]), Err(DecodeError::Empty));
    assert_eq!(decode_request(&[99]), Err(DecodeError::UnknownKind(99)));
    assert_eq!(decode_response(&[1, 0, 1]), Err(DecodeError::UnknownKind(1)));
    assert_eq!(decode_request(&[1, 0, 1, 0]), Err(DecodeError::TrailingBytes { kind: 1, extra: 1 }));
    // Unknown outcome tag inside a test result.
    let mut body = vec![130, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 9];
    body.extend([0; 40]);
    assert_eq!(decode_response(&body), Err(DecodeError::UnknownTag { what: "outcome", tag: 9, at: 14 }));
    // Unknown status.
    assert!(matches!(
        decode_response(&[130, 0, 0, 0, 1, 7]),
        Err(DecodeError::UnknownTag { what: "test status", tag: 7, .. })
    ));
    // A string reference past the table.
    let body = [3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 5];
    assert_eq!(decode_request(&body), Err(DecodeError::BadStringRef { index: 5, len: 0 }));
    // A huge count is truncation, not an allocation.
    assert!(matches!(decode_response(&[132, 0xFF, 0xFF, 0xFF, 0xFF]), Err(DecodeError::Truncated { .. })));
    // An over-long frame length is refused before reading it.
    let mut buf = Vec::new();
    let err = read_frame(&mut &[0xFFu8, 0, 0, 0, 1][..], &mut buf).unwrap_err();
    assert!(matches!(err, FrameError::TooLarge(_)));
    assert!(!read_frame(&mut &[][..], &mut buf).unwrap(), "clean end of stream");
    assert_eq!(check_version(VERSION), Ok(()));
    assert_eq!(check_version(8), Err(DecodeError::BadVersion { expected: VERSION, got: 8 }));
    // A path condition's expression nested past the limit is refused, not recursed into.
    let mut deep = NumExpr::int(1);
    for _ in 0..MAX_EXPR_DEPTH {
        deep = NumExpr::Neg { ty: PrimType::Int, operand: Box::new(deep) };
    }
    let mut setup = Setup::empty();
    setup.path_conditions = vec![PathCondition {
        class: "C".into(),
        name: "m".into(),
        descriptor: "()V".into(),
        clauses: vec![Clause::Numeric { cmp: Cmp::Eq, left: deep, right: NumExpr::int(0) }],
    }];
    let frame = frame_of_request(&Request::Setup(setup));
    assert!(matches!(decode_request(&frame[4..]), Err(DecodeError::TooDeep(MAX_EXPR_DEPTH, _))));
}

#[test]
fn unpaired_surrogates_decode_lossily() {
    // "a", lone high surrogate, "b": Java can produce this, Rust strings cannot hold it.
    let body = [132, 0, 0, 0, 3, 0, 0x61, 0xD8, 0x00, 0, 0x62];
    assert_eq!(decode_response(&body), Ok(Response::Error { message: "a\u{FFFD}b".into() }));
}

#[test]
fn trace_lookups_by_probe() {
    let t = full_trace();
    assert_eq!(t.hit_count(ProbeId(3)), 40);
    assert_eq!(t.hit_count(ProbeId(4)), 0);
    assert!(t.is_hit(ProbeId(9)));
    assert_eq!(t.branch(ProbeId(3)).map(|b| b.to_false), Some(4.5));
    assert!(t.branch(ProbeId(4)).is_none());
    assert_eq!(t.switch_keys(ProbeId(4)), &[1, -2, 300]);
    assert_eq!(t.switch_keys(ProbeId(99)), &[] as &[i32]);
    assert_eq!(t.operand_samples(ProbeId(6)).len(), 2);
    assert_eq!(t.return_categories(ProbeId(7)), Trace::RET_ZERO | Trace::RET_NON_EMPTY);
    assert_eq!(t.exceptions_at(ProbeId(8)).collect::<Vec<_>>(), ["java.lang.IllegalStateException", "E2"]);
    assert_eq!(t.context_branch(None, ProbeId(3)).map(|c| c.to_true), Some(3.0));
    assert_eq!(t.context_branch(Some(ProbeId(1)), ProbeId(3)).map(|c| c.to_false), Some(2.0));
    assert!(t.context_branch(Some(ProbeId(2)), ProbeId(3)).is_none());
}

#[test]
fn unsorted_traces_are_normalised_on_decode() {
    let mut t = full_trace();
    t.hits.reverse();
    t.branches.reverse();
    let resp = Response::TestResult(TestResult {
        test_id: 0,
        status: TestStatus::Normal,
        elapsed_us: 0,
        outcomes: vec![],
        trace: t,
        stdout: String::new(),
        properties_changed: false,
    });
    let Response::TestResult(back) = decode_response(body(&frame_of_response(&resp))).unwrap() else {
        panic!("kind changed")
    };
    assert_eq!(back.trace, full_trace());
}
