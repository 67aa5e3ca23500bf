//! protocol: see docs/architecture.md (placeholder until its issue lands).
