//! Write a synthetic catalog: `cargo run --release --example gen_catalog -- TOOLS OUT.json [SEED]`.

// Tool and test code: a panic is the failure report and printing is the output.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

#[path = "../bench/gen.rs"]
mod synth;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(n), Some(out)) = (
        args.get(1).and_then(|s| s.parse::<usize>().ok()),
        args.get(2),
    ) else {
        eprintln!("usage: gen_catalog TOOLS OUT.json [SEED]");
        std::process::exit(2);
    };
    let seed = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(42);
    let text = serde_json::to_string_pretty(&synth::catalog(n, seed)).expect("serialises");
    std::fs::write(out, text + "\n").expect("writes");
}
