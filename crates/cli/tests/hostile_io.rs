//! The ways out of the file system, one class of `fixtures/java/hostile/corpus` each, through
//! the whole pipeline as `tests/hostile.rs` runs the rest of the corpus: a proof first (the class's
//! hostile calls run once unguarded, `hostile.corpus.Proof`, against a canary directory of their
//! own, must do the damage named, so the checks are not vacuous), then `suitesmith generate` and
//! the written tests in 5 fresh plain JVMs, after each of which the canaries (bytes, mode and
//! modification time), the temporary directories and the test's listener must be as they were.
//!
//! The ways out: java.nio channels, streams, moves, links, attributes, the provider called directly
//! and `SecureDirectoryStream`; java.io's `RandomAccessFile` and metadata calls; JDK classes that
//! open a named file (`PrintWriter`, `PrintStream`, `Formatter`, `FileHandler`) or delete one
//! (`ZipFile`'s `OPEN_DELETE`); Guava's `MoreFiles` and `Files`; reflection, `MethodHandle`s, a
//! visitor and a method reference run by JDK code; child processes; `Runtime.halt`. (`File.delete`,
//! `FileOutputStream`, `FileWriter`, `renameTo` and `createNewFile` are the `Janitor` and
//! `Scribbler`, in `tests/hostile.rs`.)
//!
//! As root (CI), every process these tests start runs as uid 65534 over a tree of the test's own
//! (`confined` in `common/hostile.rs`): a hole fails a test here instead of damaging the machine.

#[path = "common/hostile.rs"]
mod corpus;

use corpus::{GUAVA, assert_contained, assert_no_problems, assert_proof_damages, check, check_with, proof};

#[test]
fn truncator_file_channel_changes_no_canary() {
    assert_contained("Truncator", &["canary victim.txt changed to \"\"", "canary keep.txt changed"]);
}

#[test]
fn channeler_byte_channel_truncates_no_canary() {
    assert_contained("Channeler", &["canary victim.txt changed to \"x\""]);
}

#[test]
fn streamer_output_streams_change_no_canary() {
    assert_contained("Streamer", &["canary keep.txt changed", "canary log.txt changed"]);
}

#[test]
fn mover_moves_and_copies_onto_no_canary() {
    assert_contained(
        "Mover",
        &[
            "canary log.txt deleted",
            "canary victim.txt changed",
            "canary keep.txt changed",
            "canary hook.txt changed to \"xy\"",
        ],
    );
}

#[test]
fn linker_adds_no_link_or_directory_to_the_canaries() {
    assert_contained(
        "Linker",
        &[
            "file soft-1 added to the canaries (a link to victim.txt)",
            "file hard-1 added",
            "file nested added",
        ],
    );
}

#[test]
fn attributer_changes_no_canary_metadata() {
    assert_contained(
        "Attributer",
        &[
            "canary victim.txt's modification time changed",
            "canary keep.txt's mode changed to 777",
            "canary log.txt's modification time changed",
        ],
    );
}

/// The default `FileSystemProvider` called directly, past every `Files` method.
#[test]
fn bypasser_provider_calls_change_no_canary() {
    assert_contained("Bypasser", &["canary victim.txt deleted", "canary keep.txt changed to \"\""]);
}

/// `SecureDirectoryStream.deleteFile` (unlinkat), as Guava deletes, and its `newByteChannel`.
#[test]
fn unlinker_secure_directory_stream_changes_no_canary() {
    assert_contained("Unlinker", &["canary victim.txt deleted", "canary keep.txt changed to \"\""]);
}

#[test]
fn shortener_random_access_file_changes_no_canary() {
    assert_contained("Shortener", &["canary victim.txt changed to \"\"", "canary keep.txt changed"]);
}

/// java.io's metadata calls, and `deleteOnExit`, whose damage comes when the JVM ends.
#[test]
fn marker_file_metadata_calls_change_no_canary() {
    assert_contained(
        "Marker",
        &[
            "canary victim.txt's mode changed to 444",
            "canary keep.txt's modification time changed",
            "canary log.txt's mode changed to 755",
            "canary hook.txt deleted",
        ],
    );
}

/// JDK classes that open a named file for writing on the caller's behalf (`PrintWriter`,
/// `PrintStream`, `Formatter`, java.util.logging's `FileHandler`).
#[test]
fn printer_jdk_writers_change_no_canary() {
    assert_contained(
        "Printer",
        &[
            "canary victim.txt changed to \"\"",
            "canary keep.txt changed to \"xy\"",
            "canary log.txt changed",
            "canary hook.txt changed",
        ],
    );
}

/// A delete inside the JDK: `ZipFile` with `OPEN_DELETE` unlinks its file through java.io, from
/// no call site of the class under test.
#[test]
fn zipper_open_delete_removes_no_canary() {
    assert_contained("Zipper", &["canary victim.txt deleted"]);
}

/// The reported escape in small: Guava 31.1 (Debian's jar, on the classpath of `generate` and of the
/// written tests) deleting the canary directory's contents, the directory itself, and writing a file.
#[test]
fn purger_guava_deletes_and_writes_no_canary() {
    assert_proof_damages("Purger.empty", &["canary victim.txt deleted", "canary hook.txt deleted"]);
    assert_proof_damages("Purger.erase", &["canary directory deleted"]);
    assert_proof_damages("Purger.write", &["canary victim.txt changed to \"xy\""]);
    let (_sb, _, problems) = check_with("Purger", &[GUAVA]);
    assert_no_problems("Purger", &problems);
}

#[test]
fn reflector_reflective_calls_change_no_canary() {
    assert_contained("Reflector", &["canary victim.txt deleted", "file log.txt.1 added"]);
}

#[test]
fn handler_method_handles_delete_no_canary() {
    assert_contained("Handler", &["canary victim.txt deleted", "canary keep.txt deleted"]);
}

/// A visitor run by `Files.walkFileTree`, and a `File::delete` method reference run by a stream.
#[test]
fn walker_deletes_run_by_jdk_code_reach_no_canary() {
    assert_contained("Walker", &["canary victim.txt deleted", "canary keep.txt deleted"]);
}

#[test]
fn forker_child_processes_change_no_canary() {
    assert_contained("Forker", &["canary victim.txt deleted", "canary keep.txt changed to \"\""]);
}

/// `Runtime.halt` ends a JVM without its shutdown hooks: no written test may halt (one would take
/// the JUnit run down, which the plain runs see).
#[test]
fn halter_halts_no_jvm() {
    let (_sb, ran) = proof("Halter", &[]);
    assert_eq!(
        ran.status.and_then(|s| s.code()),
        Some(65),
        "proof: Halter halts with EX_DATAERR\n{}",
        ran.stderr
    );
    let (_sb, _, problems) = check("Halter");
    assert_no_problems("Halter", &problems);
}
