//! Method references to redirected methods: `list.forEach(File::delete)` hands
//! `File.delete` to JDK code as a method handle constant (a bootstrap argument of
//! `LambdaMetafactory`), with no call instruction the guards could redirect. Instrumented with the
//! containment guards, the constant points at the guard, so the test runtime's guard refuses, while
//! method references to other methods work as before; the class still passes `-Xverify:all`.

mod common;

use std::process::Command;

use instrument::Options;

const SOURCE: &str = r#"
import java.io.File;
import java.util.Arrays;
import java.util.Collections;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

public class MethodRefs {
    public static void main(String[] args) {
        File f = new File("/nonexistent/suitesmith-method-ref");
        try {
            Collections.singletonList(f).forEach(File::delete);
            System.out.println("deleted through a method reference");
        } catch (SecurityException e) {
            System.out.println("denied: " + e.getMessage());
        }
        try {
            IntConsumer exit = System::exit;
            exit.accept(3);
        } catch (SecurityException e) {
            System.out.println("denied: " + e.getMessage());
        }
        System.out.println(Arrays.asList("b", "a").stream().map(String::toUpperCase).collect(Collectors.joining(",")));
    }
}
"#;

#[test]
fn method_references_to_redirected_methods_end_in_the_guard() {
    let dir = common::scratch_dir("method-refs");
    let src = dir.join("src");
    let classes = dir.join("classes");
    let out = dir.join("out");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(src.join("MethodRefs.java"), SOURCE).expect("write source");
    let javac = test_support::java_home().join("bin").join("javac");
    #[allow(clippy::disallowed_methods)] // tests start javac themselves
    let built = Command::new(javac)
        .args(["--release", "17", "-d"])
        .arg(&classes)
        .arg(src.join("MethodRefs.java"))
        .output()
        .expect("run javac");
    assert!(built.status.success(), "javac: {}", String::from_utf8_lossy(&built.stderr));

    let (_, reports) = common::instrument_container(&classes, &out, &Options::containment());
    let redirects: usize = reports.iter().map(|r| r.redirects).sum();
    // File::delete and System::exit (method handle constants); the calls to `println` are not redirected.
    assert_eq!(redirects, 2, "{reports:?}");

    let run = common::run_java(&[&out, common::runtime_dir()], "MethodRefs", None);
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(
        text,
        "denied: suitesmith guard: File.delete is not allowed in a test\n\
         denied: suitesmith guard: System.exit(3) is not allowed in a test\n\
         B,A\n"
    );
}
