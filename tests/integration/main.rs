//! Integration tests: all in one binary (faster to link), each module runs the
//! real `mcptrustchecker` binary on fixtures.

mod action;
mod ci;
mod common;
mod foundation;
