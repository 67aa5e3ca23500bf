//! Layering that holds: the internal crates are listed bottom-up in the root
//! `Cargo.toml` (`[workspace.dependencies]`), and this test reads the real dependencies from
//! `cargo metadata` and fails when a crate depends on one listed after it.
//!
//! The rule: normal and build dependencies point strictly down the list. Dev-dependencies do too,
//! with two exceptions: any crate may dev-depend on [`TEST_DOOR`] (dev-only; it depends on
//! `programdb` alone, to open databases as a run does), and the upward dev-dependencies of
//! [`UPWARD_DEV_DEPS`], each with its reason. Cargo
//! accepts such a cycle (a crate's test targets are crates of their own), but it makes the lower
//! crate's tests integration tests of the upper one, so each is a decision written down here.
//!
//! It also checks that every workspace member is in the list (a new crate is one line in the root
//! `Cargo.toml`) and that docs/architecture.md's code map names the crates in the same order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The crate through which tests locate their inputs and open a program database over them: every
/// crate's tests may use it, wherever it sits.
const TEST_DOOR: &str = "test-support";

/// Dev-dependencies allowed to point up the list: (crate, dependency, why).
const UPWARD_DEV_DEPS: &[(&str, &str, &str)] = &[(
    "postprocess",
    "engine",
    "tests/jvm.rs runs minimisation and assertions through the engine's real `Runner` (JvmProblem) on fixtures",
)];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The internal crates in the order the root `Cargo.toml` lists them (`name = { path = "crates/..." }`
/// lines of `[workspace.dependencies]`).
fn stated_order() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("Cargo.toml")).expect("root Cargo.toml");
    let section = text.split("[workspace.dependencies]").nth(1).expect("[workspace.dependencies]");
    let section = section.split("\n[").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.contains("path = \"crates/"))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// `cargo metadata --no-deps`: every workspace member with its dependencies on other members, as
/// (name, [(dependency, kind)]) with kind `normal`, `dev` or `build`.
// Running cargo is the point of this test; clippy.toml reserves `Command::new` for `worker` in the
// product crates.
#[allow(clippy::disallowed_methods)]
fn members() -> Vec<(String, Vec<(String, String)>)> {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let packages = meta["packages"].as_array().expect("packages");
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                // Workspace members are path dependencies; external crates come from the registry.
                .filter(|d| d["path"].is_string())
                .map(|d| {
                    let name = d["name"].as_str().expect("dependency name").to_string();
                    (name, d["kind"].as_str().unwrap_or("normal").to_string())
                })
                .collect();
            (p["name"].as_str().expect("package name").to_string(), deps)
        })
        .collect()
}

#[test]
fn crates_depend_only_on_crates_below_them() {
    let order = stated_order();
    let rank: BTreeMap<&str, usize> = order.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    assert_eq!(rank.len(), order.len(), "a crate is listed twice in Cargo.toml: {order:?}");
    let mut problems = Vec::new();
    for (name, deps) in members() {
        let Some(&me) = rank.get(name.as_str()) else {
            problems.push(format!("{name} is not listed in the root Cargo.toml's [workspace.dependencies]"));
            continue;
        };
        for (dep, kind) in deps {
            let Some(&them) = rank.get(dep.as_str()) else {
                problems.push(format!("{name} depends on {dep}, which the root Cargo.toml does not list"));
                continue;
            };
            let upward_ok = kind == "dev"
                && (dep == TEST_DOOR || UPWARD_DEV_DEPS.iter().any(|&(c, d, _)| c == name && d == dep));
            if them >= me && !upward_ok {
                problems.push(format!(
                    "{name} has a {kind} dependency on {dep}, which is listed after it in the root Cargo.toml"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "layering broken:\n{}", problems.join("\n"));
}

/// The exceptions are real: each names a dev-dependency that exists and points up.
#[test]
fn upward_dev_dependencies_are_current() {
    let order = stated_order();
    let members = members();
    for &(c, d, why) in UPWARD_DEV_DEPS {
        assert!(!why.is_empty());
        let deps = &members.iter().find(|(n, _)| n == c).unwrap_or_else(|| panic!("no crate {c}")).1;
        assert!(deps.iter().any(|(n, k)| n == d && k == "dev"), "{c} no longer dev-depends on {d}: drop it");
        let pos = |n: &str| order.iter().position(|x| x == n);
        assert!(pos(d) > pos(c), "{c} -> {d} points down: drop the exception");
    }
}

/// docs/architecture.md's code map, a paragraph per crate opening with the crate's name in bold,
/// lists the crates in the order of the root `Cargo.toml`, each once.
#[test]
fn code_map_follows_the_stated_order() {
    let text = std::fs::read_to_string(root().join("docs/architecture.md")).expect("docs/architecture.md");
    let map = text.split("## Code map").nth(1).expect("a `## Code map` section");
    let map = map.split("\n## ").next().unwrap_or(map);
    let documented: Vec<&str> = map
        .lines()
        .filter_map(|l| l.strip_prefix("**`"))
        .filter_map(|l| l.split('`').next())
        .filter(|n| !n.contains('/'))
        .collect();
    let order = stated_order();
    let expected: Vec<&str> = order.iter().map(String::as_str).collect();
    assert_eq!(documented, expected, "docs/architecture.md's code map and the root Cargo.toml differ");
}
