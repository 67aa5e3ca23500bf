//! `generate --sandbox` end to end (docs/sandbox.md): every layer this machine has runs the
//! whole pipeline (search workers, javac, the verification JVMs) and writes tests that pass, and
//! report.json names the layer; a layer that is not available is one line of bad input, exit 2,
//! and nothing written.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::{stderr_line, suitesmith};

/// A world any user can read: the fixture's classes copied out of the checkout (which the User
/// layer's uid may not reach), a home for the runtime jar's cache, and the output directory.
struct World {
    root: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let root = tempfile::Builder::new().prefix("sandbox-cli-").tempdir().expect("tempdir");
        std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let classes = root.path().join("classes/search");
        std::fs::create_dir_all(&classes).expect("classes");
        let from = test_support::fixture_classes("search").join("search");
        std::fs::copy(from.join("Grader.class"), classes.join("Grader.class"))
            .expect("copy the fixture class");
        for d in [root.path().join("classes"), classes, root.path().join("home")] {
            std::fs::create_dir_all(&d).expect("dir");
            std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        World { root }
    }

    fn path(&self, p: &str) -> PathBuf {
        self.root.path().join(p)
    }

    fn generate(&self, layer: &str) -> std::process::Output {
        let out = self.path(&format!("out-{layer}"));
        suitesmith(
            &[
                "generate",
                "--classpath",
                &self.path("classes").display().to_string(),
                "--class",
                "search.Grader",
                "--evaluations",
                "300",
                "--budget",
                "60s",
                "--seed",
                "1",
                "--verify-runs",
                "2",
                "--sandbox",
                layer,
                "--out",
                &out.display().to_string(),
            ],
            &[("HOME", &self.path("home").display().to_string()), ("XDG_CACHE_HOME", "")],
        )
    }
}

fn report_layer(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("json");
    json["configuration"]["sandbox"]["layer"].as_str().expect("layer").to_string()
}

fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").expect("status");
    status.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
}

/// Landlock when the kernel has it (our machines: ABI 7), the unprivileged uid as root, the
/// read-only namespace where it can be set up: each runs the whole pipeline.
#[test]
fn every_available_layer_writes_passing_tests() {
    let world = World::new();
    let mut ran = Vec::new();
    for layer in ["landlock", "user", "namespace"] {
        let out = world.generate(layer);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        if out.status.code() == Some(2) && err.contains("is not available here") {
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                !world.path(&format!("out-{layer}")).exists(),
                "nothing is written when the layer is missing"
            );
            continue;
        }
        assert!(out.status.success(), "--sandbox {layer}: {err}");
        let dir = world.path(&format!("out-{layer}"));
        assert_eq!(report_layer(&dir), layer);
        let test = std::fs::read_to_string(dir.join("search/GraderTest.java")).expect("written test");
        assert!(test.contains("@Test"), "--sandbox {layer} wrote no test");
        ran.push(layer);
    }
    if is_root() {
        assert!(ran.contains(&"user"), "as root the user layer is always there: {ran:?}");
    }
    assert!(!ran.is_empty(), "no layer ran");
}

#[test]
fn an_unavailable_layer_is_bad_input() {
    let world = World::new();
    // As root the user layer is there; as a user it never is.
    if is_root() {
        return assert!(world.generate("user").status.success());
    }
    let out = world.generate("user");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("not running as root"));
    assert!(!world.path("out-user").exists());
}

#[test]
fn an_unknown_sandbox_is_refused() {
    let world = World::new();
    let out = world.generate("chroot");
    assert_eq!(out.status.code(), Some(2));
    assert!(!world.path("out-chroot").exists());
}
