//! The test model (`testcase::TestCase`) as the worker protocol's statement list (docs/protocol.md,
//! `Execute`): class names as binary names with dots, JVM descriptors, variables as `u16` statement
//! indices, primitives as raw bits (integers sign-extended, floats as their raw IEEE bits).

use protocol::{Statement as Wire, Var};
use testcase::{JType, Statement, TestCase, VarId};

/// The protocol statements of a test, one per statement, in order.
///
/// A variable index that does not fit the wire's `u16` (a test of 65,535 statements or more, which the
/// factory never builds) is sent as "none", so the worker fails that statement instead of reading a
/// wrong variable. Array indices and lengths beyond `i32::MAX` saturate (the JVM rejects them anyway).
pub fn to_protocol(test: &TestCase) -> Vec<Wire> {
    (0..test.len()).map(|i| statement(test, i)).collect()
}

fn var(v: VarId) -> Option<Var> {
    u16::try_from(v.0).ok().filter(|&i| i != protocol::NO_VAR).map(Var)
}

fn vars(vs: &[VarId]) -> Vec<Var> {
    vs.iter().map(|&v| var(v).unwrap_or(Var(protocol::NO_VAR))).collect()
}

fn int(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// A declared type as the protocol's `Null` names it: the binary name of a class, the descriptor of
/// an array or primitive, `java.lang.Object` for an unresolved type variable (its erasure).
fn type_name(t: &JType) -> String {
    match t {
        JType::Class { name, .. } => name.clone(),
        JType::Var(_) => testcase::types::OBJECT.to_string(),
        JType::Prim(_) | JType::Array(_) => t.descriptor(),
    }
}

fn statement(test: &TestCase, i: usize) -> Wire {
    match &test.statements[i] {
        Statement::Primitive(v) => Wire::Primitive { ty: v.ty(), bits: v.bits() },
        Statement::String(v) => Wire::String { value: v.clone() },
        Statement::Null(t) => Wire::Null { ty: type_name(t) },
        Statement::EnumConstant { ty, name } => {
            Wire::EnumConstant { class: type_name(ty), name: name.clone() }
        }
        Statement::Constructor { ctor, args } => Wire::Constructor {
            class: ctor.class.clone(),
            descriptor: ctor.descriptor.clone(),
            args: vars(args),
        },
        Statement::Method { method, receiver, args } => Wire::Method {
            class: method.class.clone(),
            name: method.name.clone(),
            descriptor: method.descriptor.clone(),
            is_static: method.is_static,
            receiver: receiver.and_then(var),
            args: vars(args),
        },
        Statement::FieldGet { field, receiver } => Wire::FieldGet {
            class: field.class.clone(),
            name: field.name.clone(),
            descriptor: field.descriptor.clone(),
            is_static: field.is_static,
            receiver: receiver.and_then(var),
        },
        Statement::FieldSet { field, receiver, value } => Wire::FieldSet {
            class: field.class.clone(),
            name: field.name.clone(),
            descriptor: field.descriptor.clone(),
            is_static: field.is_static,
            receiver: receiver.and_then(var),
            value: var(*value),
        },
        // `ty` is the array type; the protocol wants the component's descriptor (tag 8).
        Statement::NewArray { ty, length } => {
            let component = match ty {
                JType::Array(c) => c.descriptor(),
                other => other.descriptor(),
            };
            Wire::NewArray { component, length: int(*length) }
        }
        Statement::ArrayStore { array, index, value } => {
            Wire::ArrayStore { array: var(*array), index: int(*index), value: var(*value) }
        }
        Statement::ArrayLoad { array, index, .. } => {
            Wire::ArrayLoad { array: var(*array), index: int(*index) }
        }
        Statement::Copy { from, .. } => Wire::Copy { from: var(*from) },
        Statement::ClassLiteral { ty } => Wire::ClassLiteral { descriptor: ty.erasure().descriptor() },
        Statement::Stub { stub, args, answers, throws } => {
            let st = &stub.stub;
            let methods = st
                .methods
                .iter()
                .zip(answers)
                .enumerate()
                .map(|(k, (m, a))| protocol::StubAnswers {
                    descriptor: m.descriptor.clone(),
                    runs_arguments: m.runs_arguments,
                    answers: vars(a),
                    throws: throws.get(k).copied().flatten().and_then(var),
                })
                .collect();
            Wire::Stub {
                class: stub.stub_class(),
                // A class the generator refuses (a descriptor it cannot read, which the cluster
                // never lets through) goes as no bytes: the worker then fails the statement, as it
                // would a constructor that throws.
                bytes: stub.class_file().unwrap_or_default(),
                ctor: st.constructors.get(stub.ctor).map_or_else(|| "()V".to_string(), |(d, _)| d.clone()),
                args: vars(args),
                methods,
            }
        }
        Statement::ScratchFile(sf) => Wire::ScratchFile {
            kind: sf.kind.code(),
            path: sf.path,
            // Named by its place among the test's scratch files, as the renderer names it.
            name: testcase::ScratchFile::name(test, i),
            contents: sf.contents.clone(),
        },
    }
}
