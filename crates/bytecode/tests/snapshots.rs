//! Snapshot tests of the text printer on the fixture classes: every method, one instruction per
//! line with targets as indices, then handlers, lines, locals and frames. Bless with
//! `UPDATE_EXPECT=1 cargo test -p bytecode --test snapshots`.

mod common;

use expect_test::expect_file;

fn check(class: &str, expected: expect_test::ExpectFile) {
    expected.assert_eq(&bytecode::print_class(&common::fixture(class)));
}

#[test]
fn switches() {
    check("Switches", expect_file!["../test_data/Switches.txt"]);
}

#[test]
fn exceptions() {
    check("Exceptions", expect_file!["../test_data/Exceptions.txt"]);
}

#[test]
fn uninit() {
    check("Uninit", expect_file!["../test_data/Uninit.txt"]);
}

#[test]
fn main() {
    check("Main", expect_file!["../test_data/Main.txt"]);
}

/// A probe (`sipush i; pop`) before every third instruction of `Exceptions.parse`: handler
/// ranges, handler starts, lines, scopes and frames move to the probes in front of them.
#[test]
fn relocated_exceptions_parse() {
    let class = common::fixture("Exceptions");
    let cp = &class.constant_pool;
    let method = class.method("parse", "(Ljava/lang/String;)I").expect("parse method");
    let mut body = bytecode::decode(&method.code(cp).unwrap().unwrap(), cp).unwrap();
    let at = (0..body.insns.len())
        .step_by(3)
        .map(|i| {
            let probe = vec![
                bytecode::Insn::push_int(1000 + i as i32).unwrap(),
                bytecode::Insn::simple(bytecode::Opcode::POP),
            ];
            (bytecode::InsnIdx::new(i), probe)
        })
        .collect();
    body.insert_before(at).unwrap();
    body.raise_max_stack(body.max_stack + 1);
    expect_file!["../test_data/Exceptions.parse.relocated.txt"]
        .assert_eq(&bytecode::print_body(&body, Some(cp)));
}

/// `LongJump.rich` with a `nop` before every instruction: its conditional back edge no longer
/// fits 16 bits and becomes `if_icmpge +8; goto_w`, and the instruction after the `goto_w` gets a
/// computed full frame; the frame after it turns into a full frame too. Printed: the frames and
/// the instructions around the widened jump.
#[test]
fn widened_back_edge_gets_a_frame() {
    let class = common::fixture("LongJump");
    let method = class.method("rich", "(I)Ljava/lang/String;").expect("rich method");
    let ctx = bytecode::MethodContext::new(&class, method).unwrap();
    let mut cp = class.constant_pool.clone();
    let mut body = bytecode::decode(&method.code(&cp).unwrap().unwrap(), &cp).unwrap();
    let at = (0..body.insns.len())
        .map(|i| (bytecode::InsnIdx::new(i), vec![bytecode::Insn::simple(bytecode::Opcode::NOP)]))
        .collect();
    body.insert_before(at).unwrap();
    let (code, notes) = bytecode::encode_method(&body, &mut cp, &ctx).unwrap();
    let again = bytecode::decode(&code, &cp).unwrap();
    let text = bytecode::print_body(&again, Some(&cp));
    let goto_w = text.lines().position(|l| l.contains("goto_w")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let frames = lines.iter().position(|l| *l == "  frames:").unwrap();
    let out = format!(
        "{notes:?}\n{}\n...\n{}\n",
        lines[goto_w - 3..goto_w + 4].join("\n"),
        lines[frames..].join("\n")
    );
    expect_file!["../test_data/LongJump.rich.widened.txt"].assert_eq(&out);
}
