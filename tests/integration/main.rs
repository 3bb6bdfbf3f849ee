//! Integration tests: all in one binary (faster to link), each module runs the
//! real `mcptrustchecker` binary on fixtures.

mod common;
mod foundation;
mod flows;
