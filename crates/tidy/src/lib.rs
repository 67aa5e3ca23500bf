//! Checks over the workspace as a whole, run by `cargo test` (and so by `scripts/test.sh`), kept in
//! a crate of their own that nothing depends on: `tests/layering.rs` (each crate depends only on
//! crates listed before it in the root `Cargo.toml`, and docs/architecture.md's code map lists them
//! in that order) and `tests/function_size.rs` (no function over 120 lines outside an allowlist).
//!
//! This library is empty on purpose: the checks are test targets, and their rules (the order of the
//! crates, the allowlists) live in the root `Cargo.toml` and in the tests themselves.
