//! Integration tests: all in one binary (faster to link), each module runs the
//! real `mcptrustchecker` binary on fixtures.

// Tool and test code: a panic is the failure report and printing is the output.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

mod action;
mod architecture;
mod bad_input;
mod boundaries;
mod ci;
mod common;
mod detection;
mod families;
mod flows;
mod formats;
mod foundation;
mod fuzz_corpus;
mod hostile;
mod live;
mod lockfile;
mod outputs;
mod policy;
mod roles;
mod supply;
