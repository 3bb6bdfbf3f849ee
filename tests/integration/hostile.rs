//! Hostile input: each case finishes in bounded time with no panic, a clear
//! message where something is refused, and the rest of the report intact.

use crate::common::*;
use std::time::{Duration, Instant};

fn scan_dir_with(files: &[(&str, Vec<u8>)]) -> (serde_json::Value, i32, Duration) {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    std::fs::write(
        dir.path().join("good.mcp.json"),
        br#"{"mcpServers": {"good": {"command": "npx"}}}"#,
    )
    .unwrap();
    let start = Instant::now();
    let (r, c) = scan_json(&[
        dir.path().to_str().unwrap(),
        "--root",
        dir.path().to_str().unwrap(),
    ]);
    let took = start.elapsed();
    assert!(
        r["servers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == "good.mcp.json#good"),
        "rest of the report lost: {r}"
    );
    (r, c, took)
}

fn tool_file(tool: serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "tools": [tool] })).unwrap()
}

#[test]
fn a_number_with_ten_thousand_digits() {
    let text = format!(
        "{{\"tools\": [{{\"name\": \"t\", \"description\": \"d\", \"inputSchema\": {{\"type\": \"object\", \"properties\": {{\"n\": {{\"type\": \"integer\", \"default\": {}}}}}}}}}]}}",
        "9".repeat(10_000)
    );
    let (r, c, took) = scan_dir_with(&[("big-number.tools.json", text.into_bytes())]);
    assert_eq!(c, 0, "{r}");
    assert!(took < Duration::from_secs(10));
}

#[test]
fn duplicate_keys_in_a_tool() {
    let text =
        br#"{"tools": [{"name": "t", "description": "first", "description": "second"}]}"#.to_vec();
    let (r, c, _) = scan_dir_with(&[("dup.tools.json", text)]);
    assert_eq!(c, 0);
    assert!(
        r["servers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == "dup.tools.json")
    );
}

#[test]
fn a_tool_with_a_hundred_thousand_parameters() {
    let mut props = serde_json::Map::new();
    for i in 0..100_000 {
        props.insert(
            format!("p{i}"),
            serde_json::json!({"type": "string", "description": "a parameter"}),
        );
    }
    let tool = serde_json::json!({"name": "wide", "description": "d", "inputSchema": {"type": "object", "properties": props}});
    let (r, c, took) = scan_dir_with(&[("wide.tools.json", tool_file(tool))]);
    assert_eq!(c, 0, "{}", r["errors"]);
    // Generous for an unoptimised build on a loaded machine; quadratic behaviour would take hours.
    assert!(took < Duration::from_secs(90), "{took:?}");
}

#[test]
fn names_of_one_megabyte() {
    let name = "n".repeat(1 << 20);
    let tool = serde_json::json!({"name": name, "description": "x".repeat(1 << 20)});
    let (r, c, took) = scan_dir_with(&[("long.tools.json", tool_file(tool))]);
    assert_eq!(c, 0, "{}", r["errors"]);
    assert!(took < Duration::from_secs(20), "{took:?}");
    // Evidence and messages stay short even when the input is huge.
    for f in r["servers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["findings"].as_array().unwrap())
    {
        assert!(f["evidence"].as_str().unwrap().len() < 4096);
    }
}

#[test]
fn nul_bytes_and_lone_surrogates() {
    let text = br#"{"tools": [{"name": "a\u0000b", "description": "x\u0000y \ud800 z"}]}"#.to_vec();
    let (r, _, _) = scan_dir_with(&[("nul.tools.json", text)]);
    let out = serde_json::to_string(&r).unwrap();
    assert!(!out.contains('\u{0}'));
    // Raw NUL bytes inside a JSON string: read (the parser is lenient there), never echoed raw.
    let (r, _, _) = scan_dir_with(&[(
        "raw.tools.json",
        b"{\"tools\": [{\"name\": \"a\x00b\"}]}".to_vec(),
    )]);
    assert!(!serde_json::to_string(&r).unwrap().contains('\u{0}'));
}

#[test]
fn every_unicode_category_in_every_field() {
    // One character from many blocks and categories, incl. controls, format
    // characters, combining marks, private use, noncharacters and astral planes.
    let mut s = String::new();
    for cp in (0u32..0x11_0000).step_by(0x1F1) {
        if let Some(c) = char::from_u32(cp) {
            s.push(c);
        }
    }
    for cp in [
        0x0000, 0x001B, 0x007F, 0x0085, 0x00AD, 0x200B, 0x202E, 0x2066, 0xFE0F, 0xFEFF, 0xFFFE,
        0xE0041, 0xE0100, 0x10FFFF,
    ] {
        s.push(char::from_u32(cp).unwrap());
    }
    let tool = serde_json::json!({
        "name": s, "title": s, "description": s,
        "inputSchema": {"type": "object", "properties": {s.clone(): {"type": "string", "description": s, "default": s, "enum": [s], "examples": [s]}}},
        "annotations": {"title": s}, "x-extra": {"nested": [s]}
    });
    let manifest = serde_json::json!({"serverInfo": {"name": s, "version": s}, "instructions": s, "tools": [tool],
        "prompts": [{"name": s, "description": s, "arguments": [{"name": s, "description": s}]}],
        "resources": [{"uri": s, "name": s, "description": s}], "resourceTemplates": [{"uriTemplate": s, "name": s}]});
    let (r, c, took) =
        scan_dir_with(&[("unicode.tools.json", serde_json::to_vec(&manifest).unwrap())]);
    assert_ne!(c, 2, "{}", r["errors"]);
    assert!(took < Duration::from_secs(20));
    // The terminal report of the same input contains no raw control character.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("unicode.tools.json");
    std::fs::write(&p, serde_json::to_vec(&manifest).unwrap()).unwrap();
    let out = mtc().args(["scan", p.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.chars().any(|c| (c.is_control() && c != '\n')
            || ('\u{202A}'..='\u{202E}').contains(&c)
            || ('\u{E0000}'..='\u{E007F}').contains(&c)),
        "raw control or invisible character in terminal output"
    );
}

#[test]
fn installed_configs_are_found_under_home() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".cursor")).unwrap();
    std::fs::write(
        home.path().join(".cursor/mcp.json"),
        br#"{"mcpServers": {"mine": {"command": "npx", "args": ["-y", "x@1.0.0"]}}}"#,
    )
    .unwrap();
    let out = mtc()
        .env("HOME", home.path())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("APPDATA")
        .args(["scan", "--installed", "--format", "json"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        r["servers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"].as_str().unwrap().ends_with(".cursor/mcp.json#mine")),
        "{r}"
    );
}

/// Fuzz crash (scan_file): an auth header whose scheme prefix ends inside a
/// multi-byte character panicked the literal-secret check.
#[test]
fn auth_header_with_a_multibyte_scheme() {
    let text = "{\"servers\": {\"docs\": {\"type\": \"http\", \"url\": \"https://mcp.example.com/mcp\", \
                \"headers\": {\"Authorization\": \"Beare\u{e9} ${input:tok}\"}}}}";
    let (r, c, _) = scan_dir_with(&[(".vscode/mcp.json", text.as_bytes().to_vec())]);
    assert!(c == 0 || c == 1, "exit {c}: {r}");
    assert!(
        r["servers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == ".vscode/mcp.json#docs"),
        "{r}"
    );
}
