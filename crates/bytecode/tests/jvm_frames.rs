//! Checks the frame computation of `bytecode` (used after widened conditional jumps) against the
//! JVM verifier on real jars: a computed `full_frame` is added after EVERY conditional jump of
//! every method that has none, the classes are written to a temporary directory, and a JVM with
//! `-Xverify:all` loads and initialises every class. A wrong frame is a `VerifyError`.

// Tests start `java`/`javac` themselves; in the engine only the worker crate spawns processes.
#![allow(clippy::disallowed_methods)]

mod common;

use std::process::Command;

use bytecode::{MethodContext, add_fallthrough_frames, decode, encode_method};
use classfile::ClassFile;

const LOADER: &str = r#"
// Loads and initialises every class named in the file args[0]; prints verification failures.
import java.nio.file.*;
public class Loader {
    public static void main(String[] args) throws Exception {
        int ok = 0, bad = 0;
        for (String name : Files.readAllLines(Path.of(args[0]))) {
            try {
                Class.forName(name, true, Loader.class.getClassLoader());
                ok++;
            } catch (VerifyError | ClassFormatError e) {
                bad++;
                System.out.println("BAD " + name + ": " + e);
            } catch (Throwable e) {
                ok++; // initialisation failures are not our concern here
            }
        }
        System.out.println("loaded " + ok + " bad " + bad);
    }
}
"#;

/// Jars whose classes load without outside dependencies.
const JARS: &[&str] = &["commons-lang3", "joda-time", "jsoup", "commons-math3"];

#[test]
fn computed_frames_after_every_conditional_verify() {
    for jar in JARS {
        check_jar(&format!("/usr/share/java/{jar}.jar"));
    }
}

fn check_jar(jar: &str) {
    let jar = std::path::Path::new(jar);
    let entry = classfile::ClassPathEntry::open(jar).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (mut names, mut added, mut methods) = (Vec::new(), 0usize, 0usize);
    for f in entry.class_files() {
        let (name, bytes) = f.unwrap();
        if name.contains('-') || name.starts_with("META-INF") {
            continue;
        }
        let mut class = ClassFile::parse(&bytes).unwrap();
        let mut cp = class.constant_pool.clone();
        for mi in 0..class.methods.len() {
            let ctx = MethodContext::new(&class, &class.methods[mi]).unwrap();
            let m = &mut class.methods[mi];
            let Some(pos) =
                m.attributes.iter().position(|a| cp.utf8(a.name_index).as_deref() == Some("Code"))
            else {
                continue;
            };
            let code = classfile::Code::parse(&m.attributes[pos].info).unwrap();
            let mut body = decode(&code, &cp).unwrap();
            added +=
                add_fallthrough_frames(&mut body, &mut cp, &ctx).unwrap_or_else(|e| panic!("{name}: {e}"));
            let (new_code, _) = encode_method(&body, &mut cp, &ctx).unwrap();
            m.attributes[pos].info = new_code.to_bytes();
            methods += 1;
        }
        class.constant_pool = cp;
        let path = dir.path().join(format!("{name}.class"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, class.to_bytes()).unwrap();
        names.push(name.replace('/', "."));
    }
    eprintln!("{}: {} classes, {methods} methods, {added} frames added", jar.display(), names.len());
    assert!(added > 500, "{}: only {added} frames added", jar.display());
    let list = dir.path().join("classes.txt");
    std::fs::write(&list, names.join("\n")).unwrap();
    let loader = dir.path().join("Loader.java");
    std::fs::write(&loader, LOADER).unwrap();
    let java = common::java_home().join("bin/java");
    let out = Command::new(java)
        .arg("-Xverify:all")
        .arg("-cp")
        .arg(dir.path())
        .arg(&loader)
        .arg(&list)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.ends_with(&format!("loaded {} bad 0\n", names.len())), "{stdout}");
}
