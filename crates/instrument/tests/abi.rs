//! The test runtime (`test_data/rt`) must implement the whole rt-abi: every tracer method of every
//! `ProbeKind` and every guard of `REDIRECTS`, `public static`, with the exact descriptors; else
//! an instrumented class would fail at run time with NoSuchMethodError rather than in a test.

mod common;

use classfile::{ClassFile, access};
use rt_abi::{ProbeKind, REDIRECTS, RedirectAction};

fn has_public_static(class: &ClassFile, name: &str, descriptor: &str) -> bool {
    class.method(name, descriptor).is_some_and(|m| {
        m.access_flags & (access::PUBLIC | access::STATIC) == access::PUBLIC | access::STATIC
    })
}

fn load(internal: &str) -> ClassFile {
    let path = common::runtime_dir().join(format!("{internal}.class"));
    ClassFile::parse(&std::fs::read(&path).expect("compiled runtime class")).expect("parse")
}

#[test]
fn test_tracer_implements_every_probe_kind() {
    let tracer = load(rt_abi::TRACER_CLASS);
    for kind in ProbeKind::ALL {
        let (name, descriptor) = kind.method();
        assert!(has_public_static(&tracer, name, descriptor), "Tracer lacks {name}{descriptor} ({kind:?})");
    }
}

#[test]
fn test_guards_implement_every_redirect() {
    let guards = load(rt_abi::GUARDS_CLASS);
    for r in REDIRECTS {
        let (name, descriptor) = match r.action {
            RedirectAction::ReplaceWith { name, descriptor }
            | RedirectAction::CheckLastArgBefore { name, descriptor }
            | RedirectAction::CheckArgUnderTopBefore { name, descriptor }
            | RedirectAction::PushArgAndRetarget { name, descriptor, .. } => (name, descriptor),
            RedirectAction::DenyBefore { name } => (name, "()V"),
        };
        assert!(
            has_public_static(&guards, name, descriptor),
            "Guards lacks {name}{descriptor} for {}.{}{}",
            r.owner,
            r.name,
            r.descriptor
        );
    }
}
