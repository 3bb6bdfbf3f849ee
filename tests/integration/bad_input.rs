//! Bad input never crashes or hangs the scan: each case is a clear, located
//! error (exit 2) and the rest of the report is intact.

use crate::common::*;
use std::io::Write;
use std::time::{Duration, Instant};

/// Scan a temp dir holding `name` = `bytes` plus one good config; return (report, exit code).
fn with_bad_file(name: &str, bytes: &[u8]) -> (serde_json::Value, i32) {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join(name);
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, bytes).unwrap();
    std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
    std::fs::write(
        dir.path().join(".cursor/mcp.json"),
        br#"{"mcpServers": {"good": {"command": "npx", "args": ["-y", "x@1.0.0"]}}}"#,
    )
    .unwrap();
    let start = Instant::now();
    let r = scan_json(&[
        dir.path().to_str().unwrap(),
        "--root",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
    r
}

fn assert_error(r: &serde_json::Value, code: i32, path_end: &str, needle: &str) {
    assert_eq!(code, 2, "input errors exit 2: {r}");
    let errs = r["errors"].as_array().unwrap();
    let e = errs
        .iter()
        .find(|e| e["path"].as_str().unwrap().ends_with(path_end))
        .unwrap_or_else(|| panic!("no error for {path_end}: {errs:?}"));
    assert!(e["message"].as_str().unwrap().contains(needle), "{e}");
    // The rest of the scan went on.
    assert!(
        r["servers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == ".cursor/mcp.json#good"),
        "good server missing: {r}"
    );
}

#[test]
fn malformed_json_toml_yaml() {
    let (r, c) = with_bad_file(
        ".vscode/mcp.json",
        b"{\n  \"servers\": {\n    \"a\": {\"command\": \"x\"\n",
    );
    assert_error(&r, c, ".vscode/mcp.json", "malformed JSON");
    let (r, c) = with_bad_file(".codex/config.toml", b"[mcp_servers.a]\ncommand = \n");
    assert_error(&r, c, ".codex/config.toml", "malformed TOML");
    assert_eq!(r["errors"][0]["line"], 2);
    let (r, c) = with_bad_file(
        ".continue/mcpServers/x.yaml",
        b"mcpServers:\n  - name: a\n   bad: [\n",
    );
    assert_error(&r, c, "x.yaml", "malformed YAML");
}

#[test]
fn invalid_utf8_names_its_line() {
    let (r, c) = with_bad_file(
        "mcp.json",
        b"{\n\"mcpServers\": {\"a\": {\"command\": \"\xff\xfe\"}}}",
    );
    assert_error(&r, c, "mcp.json", "invalid UTF-8");
    assert_eq!(r["errors"][0]["line"], 2);
}

#[test]
fn deep_nesting_is_refused() {
    let deep = format!(
        "{{\"mcpServers\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let (r, c) = with_bad_file("mcp.json", deep.as_bytes());
    assert_error(&r, c, "mcp.json", "nesting");
    let deep_yaml = format!(
        "mcpServers: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let (r, c) = with_bad_file("x.mcp.yaml", deep_yaml.as_bytes());
    assert_error(&r, c, "x.mcp.yaml", "nesting");
}

#[test]
fn a_200_mb_file_is_refused_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("huge.mcp.json");
    let mut f = std::fs::File::create(&p).unwrap();
    // Sparse: 200 MB on disk costs nothing to create.
    f.set_len(200 * 1024 * 1024).unwrap();
    f.flush().unwrap();
    std::fs::write(
        dir.path().join("mcp.json"),
        br#"{"mcpServers": {"good": {"command": "npx"}}}"#,
    )
    .unwrap();
    let start = Instant::now();
    let (r, c) = scan_json(&[
        dir.path().to_str().unwrap(),
        "--root",
        dir.path().to_str().unwrap(),
    ]);
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(c, 2);
    assert!(
        r["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("byte limit"),
        "{r}"
    );
    assert_eq!(r["servers"][0]["id"], "mcp.json#good");
}

#[test]
fn wrong_types_in_an_entry_are_reported_not_fatal() {
    let cfg = br#"{"mcpServers": {"a": {"command": 5, "args": "npx -y x"}, "b": "not an object", "c": {"command": "npx", "args": ["-y", 3]}}}"#;
    let (r, c) = with_bad_file("mcp.json", cfg);
    assert_eq!(c, 0, "wrong types are findings, not input errors: {r}");
    for id in ["mcp.json#a", "mcp.json#b", "mcp.json#c"] {
        let s = r["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("{id} missing"));
        assert!(
            s["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["rule_id"] == "MTC-META-002"),
            "{id}: {s}"
        );
    }
}

#[test]
fn symlink_out_of_the_tree_is_not_followed() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("mcp.json"),
        br#"{"mcpServers": {"secret": {"command": "npx"}}}"#,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path().join("mcp.json"), dir.path().join("mcp.json"))
        .unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("linked-dir")).unwrap();
    let (r, c) = scan_json(&[
        dir.path().to_str().unwrap(),
        "--root",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(c, 0);
    assert!(r["servers"].as_array().unwrap().is_empty(), "{r}");
    assert!(
        r["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["reason"].as_str().unwrap().contains("outside")),
        "{r}"
    );
}

#[test]
fn a_directory_of_ten_thousand_files_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..10_000 {
        let sub = dir.path().join(format!("d{}", i % 100));
        if i < 100 {
            std::fs::create_dir_all(&sub).unwrap();
        }
        std::fs::write(sub.join(format!("f{i}.txt")), b"x").unwrap();
    }
    std::fs::write(
        dir.path().join("d7/mcp.json"),
        br#"{"mcpServers": {"only": {"command": "npx"}}}"#,
    )
    .unwrap();
    let start = Instant::now();
    let (r, c) = scan_json(&[
        dir.path().to_str().unwrap(),
        "--root",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(c, 0);
    assert_eq!(r["servers"][0]["id"], "d7/mcp.json#only");
}

#[test]
fn yaml_alias_bomb_is_refused() {
    let mut t = String::from("mcpServers:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = i - 1;
        t.push_str(&format!(
            "  a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let (r, c) = with_bad_file("bomb.mcp.yaml", t.as_bytes());
    assert_error(&r, c, "bomb.mcp.yaml", "nodes");
}

#[test]
fn unrecognised_explicit_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("package.json");
    std::fs::write(&p, br#"{"name": "x", "version": "1.0.0"}"#).unwrap();
    let (r, c) = scan_json(&[p.to_str().unwrap()]);
    assert_eq!(c, 2);
    assert!(
        r["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("not recognised")
    );
}
