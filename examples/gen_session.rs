//! Write a synthetic session: one Cursor config enabling SERVERS servers, and a
//! `mcptrustchecker.lock` pinning TOOLS synthetic tools for each, so that
//! `mcptrustchecker scan DIR` grades every server on its pinned catalog and runs
//! the cross-server stages (toxic flows, shadowing) over the whole session.
//!
//! `cargo run --release --example gen_session -- SERVERS TOOLS DIR`

// Tool and test code: a panic is the failure report and printing is the output.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

#[path = "../bench/gen.rs"]
mod synth;

use mcptrustchecker::acquire::{AcquireOptions, acquire_paths};
use mcptrustchecker::lock::lockfile::Lockfile;
use mcptrustchecker::lock::pin::lock_surfaces;
use mcptrustchecker::surface::Item;
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(servers), Some(tools), Some(dir)) = (
        args.get(1).and_then(|s| s.parse::<usize>().ok()),
        args.get(2).and_then(|s| s.parse::<usize>().ok()),
        args.get(3).map(PathBuf::from),
    ) else {
        eprintln!("usage: gen_session SERVERS TOOLS DIR");
        std::process::exit(2);
    };
    std::fs::create_dir_all(dir.join(".cursor")).expect("creates the directory");
    std::fs::create_dir_all(dir.join(".git")).expect("marks the repository root");
    let entries: serde_json::Map<String, serde_json::Value> = (0..servers)
        .map(|i| {
            (
                format!("server-{i}"),
                serde_json::json!({"command": "npx", "args": ["-y", format!("@synthetic/server-{i}@1.0.{i}")]}),
            )
        })
        .collect();
    let config = serde_json::json!({ "mcpServers": entries });
    let text = serde_json::to_string_pretty(&config).expect("serialises");
    std::fs::write(dir.join(".cursor/mcp.json"), text + "\n").expect("writes the config");

    // Acquire the config exactly as a scan does, then give each server its catalog.
    let opts = AcquireOptions {
        root: dir.clone(),
        ..AcquireOptions::default()
    };
    let mut acquired = acquire_paths(std::slice::from_ref(&dir), &opts);
    for (i, s) in acquired.surfaces.iter_mut().enumerate() {
        let cat = synth::catalog(tools, i as u64);
        s.tools = cat["tools"]
            .as_array()
            .expect("a tools array")
            .iter()
            .enumerate()
            .map(|(j, t)| {
                // Most names are the server's own; every tenth keeps the shared
                // synthetic name, so servers collide the way real ones do (`search`).
                let mut t = t.clone();
                let base = t["name"].as_str().unwrap_or("tool").to_string();
                let name = if j % 10 == 0 {
                    base
                } else {
                    format!("{}_{base}", namespace(i))
                };
                t["name"] = serde_json::Value::String(name.clone());
                Item::new(name, t, None)
            })
            .collect();
        s.coverage = mcptrustchecker::surface::Coverage::Live;
    }
    let mut lock = Lockfile::empty("mcptrustchecker.lock");
    lock_surfaces(&mut lock, &acquired.surfaces, &[]);
    std::fs::write(dir.join("mcptrustchecker.lock"), lock.to_text()).expect("writes the lockfile");
}

/// A server's own 8-letter namespace (`github_…`, `slack_…` in real sessions):
/// pseudo-random, so two servers' prefixes are rarely within edit distance 2.
fn namespace(i: usize) -> String {
    let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (0..8)
        .map(|_| {
            x ^= x >> 29;
            x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            (b'a' + (x % 26) as u8) as char
        })
        .collect()
}
