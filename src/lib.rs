//! MCP Trust Checker: a deterministic, offline-first security scanner for
//! Model Context Protocol servers.
//!
//! The pipeline is one function, [`scan::run`], and reads top to bottom:
//! [`acquire`] turns files and live servers into [`surface::ServerSurface`]s,
//! [`detect`] runs the stages over them and emits [`finding::Finding`]s,
//! integrity compares them with the [`lock`]file, [`policy`] applies the
//! policy file, and [`score`] grades. The result is a [`model::ScanResult`];
//! [`gate`] judges it (verdict and exit code) and [`report`] renders it.
//! The commands ([`app`], [`lock::cmd`], [`ci`]) only build a
//! [`scan::Request`] and print; [`output`] is where anything is printed.
#![forbid(unsafe_code)]

pub mod acquire;
pub mod app;
pub mod candidate;
pub mod chars;
pub mod ci;
pub mod confusables;
pub mod data;
pub mod detect;
pub mod finding;
pub mod gate;
pub mod lang;
pub mod launch;
pub mod lazy;
pub mod lock;
pub mod model;
pub mod output;
pub mod parse;
pub mod pattern_nfa;
pub mod policy;
pub mod prebuilt;
pub mod prefilter;
pub mod report;
pub mod rules;
pub mod scan;
pub mod score;
pub mod surface;
#[cfg(test)]
pub(crate) mod testkit;
pub mod text;

/// Version of the scoring methodology. Bump whenever a change can move a score.
pub const METHODOLOGY: &str = "mtc-rs-5";

/// The tool's own version, as written into every report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
