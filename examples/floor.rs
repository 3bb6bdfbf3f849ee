//! The floor for whole-process figures (`bench/run.sh`): a process that only
//! reads a file and parses it with serde_json, with the scanner's allocator.
//! A scan of the same file can be no faster than this.
//!
//! Run: `cargo run --release --example floor -- FILE`

// Tool and test code: a panic is the failure report and printing is the output.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: floor FILE");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(v) => {
            let n = v["tools"].as_array().map_or(0, Vec::len);
            println!("{n}");
            // Like the scanner, leave freeing to the OS.
            std::mem::forget(v);
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    }
}
