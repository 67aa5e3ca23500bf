//! `contain --writable DIR [--writable DIR ...] -- COMMAND [ARGS ...]`: runs a command, as the user
//! who runs this (root stays root), in a user and mount namespace where every mount is read-only
//! but the named directories. The safety net of the sandbox's acceptance runs: `suitesmith generate`
//! and the written tests run as root inside it, so a hole in the product's own sandbox shows as a
//! changed canary tree (a writable directory) or a refused write, never as damage to the machine.
//! Exits with the command's status (128 + signal when a signal ended it), 2 on bad usage.

// A developer's tool that starts the one command it is given.
#![allow(clippy::disallowed_methods)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut writable = Vec::new();
    let mut command = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--writable" => match args.next() {
                Some(d) => writable.push(PathBuf::from(d)),
                None => usage("--writable needs a directory"),
            },
            "--" => {
                command.extend(args.by_ref());
                break;
            }
            other => usage(&format!("unknown argument {other:?}")),
        }
    }
    if command.is_empty() {
        usage("no command after --");
    }
    let dirs: Vec<&std::path::Path> = writable.iter().map(PathBuf::as_path).collect();
    let confinement = match sandbox::Sandbox::read_only_world(&dirs) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("contain: {e}");
            std::process::exit(2);
        }
    };
    let mut cmd = Command::new(&command[0]);
    cmd.args(&command[1..]);
    Arc::new(confinement).install(&mut cmd);
    match cmd.status() {
        Ok(s) => {
            use std::os::unix::process::ExitStatusExt;
            std::process::exit(s.code().unwrap_or_else(|| 128 + s.signal().unwrap_or(0)));
        }
        Err(e) => {
            eprintln!("contain: cannot run {}: {e}", command[0]);
            std::process::exit(2);
        }
    }
}

fn usage(why: &str) -> ! {
    eprintln!("contain: {why}\nusage: contain --writable DIR [--writable DIR ...] -- COMMAND [ARGS ...]");
    std::process::exit(2);
}
