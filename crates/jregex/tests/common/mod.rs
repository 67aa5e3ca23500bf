//! The JVM oracle the test targets share: a small Java program, compiled with `javac` into a
//! temporary directory, that reads (pattern, input) rows on stdin and prints what
//! `java.util.regex` says of each: whole-string match, `find`, and `String.split` with the limits 0, 2 and -1.

// The oracle starts `javac` and `java` itself; in the product only the worker crate spawns
// processes.
#![allow(clippy::disallowed_methods)]
// Not every test target uses every helper.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

use jregex::JavaRegex;

const ORACLE: &str = r#"
import java.io.*;
import java.util.*;
import java.util.regex.*;

public class Oracle {
    static String decode(String hex) {
        StringBuilder b = new StringBuilder();
        if (!hex.isEmpty()) for (String x : hex.split(" ")) b.appendCodePoint(Integer.parseInt(x, 16));
        return b.toString();
    }

    static String encode(String s) {
        StringJoiner j = new StringJoiner(".");
        s.codePoints().forEach(c -> j.add(Integer.toHexString(c)));
        return j.toString();
    }

    public static void main(String[] args) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
        for (String line; (line = r.readLine()) != null; ) {
            String[] f = line.split("\t", -1);
            try {
                Pattern p = Pattern.compile(decode(f[0]));
                String s = decode(f[1]);
                StringBuilder parts = new StringBuilder();
                for (int limit : new int[] {0, 2, -1}) {
                    StringJoiner j = new StringJoiner("/", "[", "]");
                    for (String part : s.split(decode(f[0]), limit)) j.add(encode(part));
                    parts.append(limit == 0 ? "" : " ").append(j);
                }
                out.println(p.matcher(s).matches() + " " + p.matcher(s).find() + " " + parts);
            } catch (PatternSyntaxException e) {
                out.println("error");
            }
        }
        out.flush();
    }
}
"#;

/// The JDK's tool `name`: under `JAVA_HOME` when set, else on `PATH`.
fn jdk_tool(name: &str) -> PathBuf {
    match std::env::var_os("JAVA_HOME") {
        Some(home) => PathBuf::from(home).join("bin").join(name),
        None => PathBuf::from(name),
    }
}

fn hex(s: &str) -> String {
    s.chars().map(|c| format!("{:x}", c as u32)).collect::<Vec<_>>().join(" ")
}

/// The line the oracle prints for `(re, input)`, computed by this crate (`split` for the limit
/// 0, `split_spans` for the others).
pub fn ours(re: &JavaRegex, input: &str) -> String {
    let text = |p: &str| p.chars().map(|c| format!("{:x}", c as u32)).collect::<Vec<_>>().join(".");
    let parts: Vec<String> = re.split(input).iter().map(|p| text(p)).collect();
    let chars: Vec<char> = input.chars().collect();
    let mut line = format!("{} {} [{}]", re.matches(input), re.find(input), parts.join("/"));
    for limit in [2, -1] {
        let spans: Vec<String> = re
            .split_spans(input, limit)
            .iter()
            .map(|&(a, b)| text(&chars[a..b].iter().collect::<String>()))
            .collect();
        line.push_str(&format!(" [{}]", spans.join("/")));
    }
    line
}

/// The oracle's line for each (pattern, input) row.
pub fn jvm(rows: &[(String, String)]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Oracle.java"), ORACLE).unwrap();
    let javac = Command::new(jdk_tool("javac"))
        .arg("-d")
        .arg(dir.path())
        .arg(dir.path().join("Oracle.java"))
        .output()
        .unwrap();
    assert!(javac.status.success(), "javac: {}", String::from_utf8_lossy(&javac.stderr));
    let mut child = Command::new(jdk_tool("java"))
        .arg("-cp")
        .arg(dir.path())
        .arg("Oracle")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = rows.iter().map(|(p, s)| format!("{}\t{}\n", hex(p), hex(s))).collect();
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread: the oracle's output could fill the pipe before all rows are sent.
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "java: {}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), rows.len());
    lines
}
