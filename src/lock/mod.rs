//! The lockfile feature: the canonical form of a surface and its digest, the
//! `mcptrustchecker.lock` file, pinning, the semantic diff between two
//! snapshots, and the `lock` and `diff` commands.

pub mod canonical;
pub mod cmd;
pub mod diff;
pub mod lockfile;
pub mod pin;
