//! Helpers shared by the integration tests (and, via #[path], the benchmark).

pub mod corpus;
