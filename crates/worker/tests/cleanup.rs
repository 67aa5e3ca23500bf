//! Nothing left behind, at the worker: a worker that died under a test (here `Runtime.halt`) is reaped and
//! its scratch directory removed when it is dropped (as the pool drops it to restart it), files the
//! code under test left there and a directory it made read-only included.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use protocol::{Setup, Statement, TestRef, Var};
use worker::{Java, TestRun, Worker, WorkerConfig};

fn config() -> WorkerConfig {
    let hostile = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/classes/hostile");
    let mut setup = Setup::empty();
    setup.classpath = vec![hostile.canonicalize().expect("fixtures").display().to_string()];
    setup.timeout_ms = 3000;
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    WorkerConfig::new(java, worker::runtime_jar().expect("runtime jar"), setup)
}

#[test]
fn a_crashed_worker_is_reaped_and_its_scratch_dir_removed() {
    let mut w = Worker::spawn(&config()).unwrap_or_else(|e| panic!("{e}"));
    let (pid, scratch): (u32, PathBuf) = (w.pid(), w.scratch_dir().to_path_buf());
    // What the code under test might leave: a file, and a read-only directory with a file in it.
    std::fs::write(scratch.join("left.txt"), b"x").expect("write");
    let ro = scratch.join("ro");
    std::fs::create_dir(&ro).expect("mkdir");
    std::fs::write(ro.join("f"), b"x").expect("write");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o500)).expect("chmod");

    let halt = vec![
        Statement::int(7),
        Statement::Method {
            class: "hostile.Halt".into(),
            name: "halt".into(),
            descriptor: "(I)V".into(),
            is_static: true,
            receiver: None,
            args: vec![Var(0)],
        },
    ];
    let runs = w.run_batch(&[TestRef { id: 0, statements: &halt }]);
    assert!(matches!(&runs[0], TestRun::Crash { .. }), "{:?}", runs[0]);
    assert!(w.needs_restart());
    drop(w);
    assert!(!scratch.exists(), "{} is still there", scratch.display());
    assert!(!Path::new(&format!("/proc/{pid}")).exists(), "the JVM {pid} was not reaped");
}
