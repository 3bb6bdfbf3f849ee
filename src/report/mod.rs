//! Output formats. Each takes the whole [`crate::model::ScanResult`] and its
//! [`crate::model::Verdict`] and returns a string, so every format is
//! deterministic and testable without a terminal.

pub mod json;
pub mod markdown;
pub mod sarif;
pub mod terminal;
