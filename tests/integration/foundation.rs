//! The spine end to end: demo, real configs, determinism, exit codes, rules.

use crate::common::*;

#[test]
fn demo_scans_and_fails_on_the_poisoned_server() {
    let (r, code) = scan_json(&["fixtures/demo"]);
    assert_eq!(code, 1, "the poisoned notes server is graded F");
    let notes = server(&r, "fixtures/demo/servers/notes/tools.json");
    assert_eq!(notes["score"]["grade"], "F");
    let f = notes["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "MTC-UNI-001")
        .expect("UNI-001");
    assert!(f["evidence"].as_str().unwrap().contains("~/.ssh/id_rsa"));
    assert_eq!(
        f["location"]["path"],
        "fixtures/demo/servers/notes/tools.json"
    );
    assert_eq!(f["tool"], "search_notes");
    let fs = server(&r, ".cursor/mcp.json#filesystem");
    assert_eq!(fs["coverage"], "config-only");
    assert_eq!(fs["source"]["line"], 3);
    assert_eq!(
        fs["source"]["package"]["name"],
        "@modelcontextprotocol/server-filesystem"
    );
    assert!(
        fs["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "MTC-META-001")
    );
    assert_eq!(r["summary"]["worst_grade"], "F");
    assert_eq!(r["methodology"], mcptrustchecker::METHODOLOGY);
}

#[test]
fn json_is_byte_identical_across_runs() {
    let a = mtc()
        .args(["scan", "fixtures/demo", "--format", "json"])
        .output()
        .unwrap()
        .stdout;
    let b = mtc()
        .args(["scan", "fixtures/demo", "--format", "json"])
        .output()
        .unwrap()
        .stdout;
    assert!(!a.is_empty());
    assert_eq!(a, b);
}

#[test]
fn every_real_config_is_listed_or_a_located_error() {
    let dir = corpora().join("real-configs");
    let mut files = Vec::new();
    for e in walkdir::WalkDir::new(&dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() && e.file_name() != "SOURCE.md" {
            files.push(e.path().to_path_buf());
        }
    }
    assert!(files.len() >= 30, "corpus has {} files", files.len());
    for f in &files {
        let (r, code) = scan_json(&[f.to_str().unwrap()]);
        let servers = r["servers"].as_array().unwrap();
        let errors = r["errors"].as_array().unwrap();
        if errors.is_empty() {
            assert!(!servers.is_empty(), "{}: no servers", f.display());
            for s in servers {
                assert!(s["source"]["line"].as_u64().unwrap() >= 1);
                assert!(
                    s["source"]["path"]
                        .as_str()
                        .unwrap()
                        .ends_with(f.file_name().unwrap().to_str().unwrap())
                );
            }
        } else {
            assert_eq!(code, 2, "{}: input error exit code", f.display());
            assert!(
                errors[0]["line"].as_u64().is_some(),
                "{}: error has a line",
                f.display()
            );
        }
    }
}

#[test]
fn duplicate_key_in_claude_desktop_config_is_reported() {
    let f = corpora()
        .join("real-configs/claude-desktop/TUM-DSE__MCPSecBench__code_claude_desktop_config.json");
    let (r, _) = scan_json(&[f.to_str().unwrap()]);
    let check = server(&r, "#check");
    assert_eq!(check["source"]["package"]["name"], "mcp-remote");
    let dup = check["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "MTC-META-002")
        .expect("duplicate reported");
    assert!(dup["message"].as_str().unwrap().contains("defined twice"));
}

#[test]
fn rules_and_explain() {
    let out = mtc().arg("rules").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("MTC-UNI-001") && text.contains("MTC-META-001"));
    let out = mtc().args(["explain", "mtc-uni-001"]).output().unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("How to fix it")
    );
    let out = mtc().args(["explain", "MTC-NOPE"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        mtc()
            .args(["scan", "--fail-on", "Z"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        mtc().args(["bogus"]).output().unwrap().status.code(),
        Some(2)
    );
}

#[test]
fn fail_on_threshold_is_honoured() {
    // The demo's worst non-F grade is A; with --fail-on A every server fails.
    let out = mtc()
        .args(["scan", "fixtures/demo/servers/weather", "--fail-on", "A"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = mtc()
        .args(["scan", "fixtures/demo/servers/weather"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn terminal_output_never_contains_raw_escapes_from_input() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("tools.json");
    std::fs::write(&p, "{\"tools\": [{\"name\": \"x\\u001b[2J\", \"description\": \"\\u001b]8;;http://evil\\u0007click\\u001b]8;;\\u0007\"}]}").unwrap();
    let out = mtc().args(["scan", p.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{1b}'), "raw ESC leaked: {text:?}");
    assert!(text.contains("tools.json"));
}

#[test]
fn docs_rules_md_is_in_sync_with_the_catalogue() {
    let out = mtc().args(["rules", "--markdown"]).output().unwrap();
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).unwrap();
    let committed = std::fs::read_to_string(repo().join("docs/rules.md")).unwrap_or_default();
    assert!(
        generated == committed,
        "docs/rules.md is stale: run `cargo run -- rules --markdown > docs/rules.md`"
    );
    for r in mcptrustchecker::rules::all() {
        assert!(generated.contains(&format!("<a id=\"{}\"></a>", r.id.to_ascii_lowercase())));
    }
}
