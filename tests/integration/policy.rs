//! The policy file end to end: every MTC-POL rule, suppressions expiring,
//! a policy tightening the gate, and `policy init` followed by `scan`.

use crate::common::*;
use std::path::Path;

const SECRET: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";

/// A repository (has `.git`) with one Cursor config and one tool manifest.
fn repo_with(config: &str, policy: Option<&str>) -> tempfile::TempDir {
    let dir = marked_repo();
    write(dir.path(), ".cursor/mcp.json", config);
    write(
        dir.path(),
        "servers/notes/tools.json",
        r#"{"tools": [{"name": "search_notes", "description": "Search notes."}, {"name": "delete_note", "description": "Delete a note."}]}"#,
    );
    if let Some(p) = policy {
        write(dir.path(), "mcptrustchecker.toml", p);
    }
    dir
}

fn scan_at(dir: &Path, extra: &[&str]) -> (serde_json::Value, i32) {
    let mut args = vec![dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    scan_json(&args)
}

fn rules(v: &serde_json::Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap().to_string())
        .collect()
}

fn finding<'a>(v: &'a serde_json::Value, rule: &str) -> &'a serde_json::Value {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == rule)
        .unwrap_or_else(|| panic!("no {rule} in {}", v["findings"]))
}

const CONFIG: &str = r#"{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_0123456789abcdefghijABCDEFGHIJ012345", "DEBUG": "1" }
    },
    "remote": { "url": "http://mcp.evil.example/mcp", "headers": { "Authorization": "Bearer ${env:REMOTE_TOKEN}" } },
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory@latest"] },
    "unlisted": { "command": "npx", "args": ["-y", "unlisted-server@1.0.0"] }
  }
}
"#;

const POLICY: &str = r#"version = 1

[servers.".cursor/mcp.json#github"]
owner = "platform"
review_expires = 2027-06-01
package = "@modelcontextprotocol/server-github@2025.4.7"
env_allow = ["GITHUB_PERSONAL_ACCESS_TOKEN"]

[servers.".cursor/mcp.json#remote"]
owner = "platform"
review_expires = 2026-10-01
url = "http://mcp.evil.example/mcp"
network_allow = ["mcp.good.example"]

[servers.".cursor/mcp.json#memory"]
owner = "platform"
review_expires = 2027-06-01
package = "@modelcontextprotocol/server-memory@latest"

[servers."servers/notes/tools.json"]
owner = "notes-team"
review_expires = 2027-06-01
tools_allow = ["search_notes"]

[servers.".cursor/mcp.json#removed"]
owner = "platform"
review_expires = 2027-06-01
package = "gone@1.0.0"

[[suppressions]]
rule = "MTC-META-001"
server = ".cursor/mcp.json#memory"
reason = "catalog comes with the lockfile next sprint"
owner = "platform"
expires = 2026-11-15
"#;

#[test]
fn every_policy_rule_fires_end_to_end_and_secrets_stay_redacted() {
    let dir = repo_with(CONFIG, Some(POLICY));
    let (r, code) = scan_at(dir.path(), &["--now", "2026-12-01"]);
    assert_eq!(code, 1, "policy breaches fail the gate");

    let github = server(&r, "#github");
    let rs = rules(github);
    for id in ["MTC-POL-003", "MTC-POL-004", "MTC-POL-007"] {
        assert!(rs.contains(&id.to_string()), "{id} missing: {rs:?}");
    }
    assert_eq!(finding(github, "MTC-POL-003")["field"], "env.DEBUG");
    assert_eq!(
        finding(github, "MTC-POL-004")["location"]["path"],
        ".cursor/mcp.json"
    );
    assert_eq!(finding(github, "MTC-POL-004")["location"]["line"], 3);
    assert_eq!(github["policy"]["decision"], "fail");

    let remote = server(&r, "#remote");
    for id in ["MTC-POL-005", "MTC-POL-006", "MTC-POL-009"] {
        assert!(
            rules(remote).contains(&id.to_string()),
            "{id}: {:?}",
            rules(remote)
        );
    }
    let expired = finding(remote, "MTC-POL-009");
    assert_eq!(
        (
            expired["location"]["path"].as_str(),
            expired["location"]["line"].as_u64()
        ),
        (Some("mcptrustchecker.toml"), Some(11))
    );

    let memory = server(&r, "#memory");
    assert!(rules(memory).contains(&"MTC-POL-008".to_string()));
    let lapsed = finding(memory, "MTC-POL-010");
    assert_eq!(lapsed["location"]["line"], 30);
    assert!(
        finding(memory, "MTC-META-001")["suppressed"].is_null(),
        "expired suppression no longer applies"
    );

    assert!(rules(server(&r, "#unlisted")).contains(&"MTC-POL-001".to_string()));

    let notes = server(&r, "servers/notes/tools.json");
    let tool = finding(notes, "MTC-POL-002");
    assert_eq!(tool["tool"], "delete_note");
    assert!(tool["message"].as_str().unwrap().contains("roles:"));

    let stale = &r["policy"]["findings"][0];
    assert_eq!(stale["rule_id"], "MTC-POL-011");
    assert_eq!(stale["location"]["line"], 25);
    assert_eq!(r["policy"]["path"], "mcptrustchecker.toml");

    // The literal secret never appears in any output.
    let json = serde_json::to_string(&r).unwrap();
    assert!(!json.contains(SECRET));
    assert!(json.contains("REDACTED 40 chars"));
    let out = mtc()
        .args(["scan", dir.path().to_str().unwrap(), "--now", "2026-12-01"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains(SECRET));
    assert!(
        text.contains("policy: FAIL") && text.contains("MTC-POL-011"),
        "{text}"
    );
}

const CLEAN: &str = r#"{ "mcpServers": { "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem@2025.8.21", "/srv"] } } }"#;

const CLEAN_POLICY: &str = r#"[servers.".cursor/mcp.json#fs"]
owner = "platform"
review_expires = 2027-06-01
package = "@modelcontextprotocol/server-filesystem@2025.8.21"

[servers."servers/notes/tools.json"]
owner = "notes-team"
review_expires = 2027-06-01
tools_allow = ["search_notes"]

[[suppressions]]
rule = "MTC-POL-002"
server = "servers/notes/tools.json"
tool = "delete_note"
reason = "removal scheduled with the notes v2 release"
owner = "notes-team"
expires = 2026-12-31
"#;

#[test]
fn an_expired_suppression_counts_again() {
    let dir = repo_with(CLEAN, Some(CLEAN_POLICY));
    let (r, code) = scan_at(dir.path(), &["--now", "2026-12-31"]);
    assert_eq!(code, 0, "{}", r["summary"]["gate"]);
    let notes = server(&r, "servers/notes/tools.json");
    let f = finding(notes, "MTC-POL-002");
    assert_eq!(f["suppressed"]["owner"], "notes-team");
    assert_eq!(f["suppressed"]["expires"], "2026-12-31");
    assert_eq!(notes["score"]["value"], 100);
    assert_eq!(notes["policy"]["decision"], "exception");
    assert_eq!(notes["policy"]["exception"]["expires"], "2026-12-31");

    // The day after, through the environment variable this time.
    let out = mtc()
        .args(["scan", dir.path().to_str().unwrap(), "--format", "json"])
        .env("MTC_NOW", "2027-01-01")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = server(&r, "servers/notes/tools.json");
    assert!(finding(notes, "MTC-POL-002")["suppressed"].is_null());
    assert!(notes["score"]["value"].as_i64().unwrap() < 100);
    assert_eq!(
        finding(notes, "MTC-POL-010")["location"]["path"],
        "mcptrustchecker.toml"
    );
    assert_eq!(notes["policy"]["decision"], "fail");
}

#[test]
fn a_policy_can_tighten_the_gate_to_c() {
    // A literal API key (high, strong: 15.4 points) plus the config-only note (9): 76, grade C,
    // and no breach of the contract.
    let config = r#"{ "mcpServers": { "gh": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"], "env": { "API_KEY": "a1b2c3d4e5f6g7h8i9" } } } }"#;
    let entries = "[servers.\".cursor/mcp.json#gh\"]\nowner = \"platform\"\nreview_expires = 2027-06-01\npackage = \"@modelcontextprotocol/server-github@2025.4.8\"\nenv_allow = [\"API_KEY\"]\n\n[servers.\"servers/notes/tools.json\"]\nowner = \"n\"\nreview_expires = 2027-06-01\ntools_allow = [\"search_notes\", \"delete_note\"]\n";
    let dir = repo_with(config, Some(entries));
    let (r, code) = scan_at(dir.path(), &["--now", "2026-12-01"]);
    assert_eq!(server(&r, "#gh")["score"]["grade"], "C");
    assert_eq!(code, 0, "the default gate fails at F only");
    assert_eq!(server(&r, "#gh")["policy"]["decision"], "pass");

    std::fs::write(
        dir.path().join("mcptrustchecker.toml"),
        format!("[gate]\nfail_on = \"C\"\n\n{entries}"),
    )
    .unwrap();
    let (r, code) = scan_at(dir.path(), &["--now", "2026-12-01"]);
    assert_eq!(code, 1);
    assert_eq!(r["policy"]["fail_on"], "C");
    assert_eq!(server(&r, "#gh")["policy"]["decision"], "fail");
    assert!(
        r["summary"]["gate"]["reasons"][0]
            .as_str()
            .unwrap()
            .contains("graded C")
    );
    // The policy's gate overrides --fail-on.
    let (_, code) = scan_at(dir.path(), &["--now", "2026-12-01", "--fail-on", "F"]);
    assert_eq!(code, 1);
}

#[test]
fn policy_init_then_scan_passes_on_the_same_tree() {
    let config = r#"{
  "mcpServers": {
    "gh": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"], "env": { "GITHUB_TOKEN": "${env:GITHUB_TOKEN}" } },
    "docs": { "url": "https://docs.example.com/mcp", "headers": { "Authorization": "Bearer ${env:DOCS}" } }
  }
}"#;
    let dir = repo_with(config, None);
    // Without a policy the tree passes; with a required-entries policy it would fail until init.
    let init = |extra: &[&str]| {
        mtc()
            .args([
                "policy",
                "init",
                dir.path().to_str().unwrap(),
                "--now",
                "2026-11-29",
            ])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = init(&[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.path().join("mcptrustchecker.toml")).unwrap();
    assert!(text.contains("review_expires = 2027-02-27"), "{text}");
    assert!(
        text.contains("[servers.\".cursor/mcp.json#gh\"]")
            && text.contains("env_allow = [\"GITHUB_TOKEN\"]")
    );
    assert!(text.contains("tools_allow = [\"delete_note\", \"search_notes\"]"));
    assert!(text.contains("network_allow = [\"docs.example.com\"]"));

    let (r, code) = scan_at(dir.path(), &["--now", "2026-12-01"]);
    assert_eq!(code, 0, "{}", r["summary"]["gate"]);
    for s in r["servers"].as_array().unwrap() {
        assert_eq!(s["policy"]["decision"], "pass", "{}", s["id"]);
        assert!(
            rules(s).iter().all(|id| !id.starts_with("MTC-POL")),
            "{}: {:?}",
            s["id"],
            rules(s)
        );
    }

    // Never overwrites silently.
    let out = init(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    std::fs::write(dir.path().join("mcptrustchecker.toml"), "# edited\n").unwrap();
    assert_eq!(init(&["--force"]).status.code(), Some(0));
    assert!(
        std::fs::read_to_string(dir.path().join("mcptrustchecker.toml"))
            .unwrap()
            .contains("[servers.")
    );

    // After the expiry the drafted reviews lapse.
    let (r, code) = scan_at(dir.path(), &["--now", "2027-02-28"]);
    assert_eq!(code, 1);
    assert!(rules(server(&r, "#gh")).contains(&"MTC-POL-009".to_string()));
}

#[test]
fn a_bad_policy_is_a_located_error() {
    let dir = repo_with(
        CLEAN,
        Some(
            "[servers.\".cursor/mcp.json#fs\"]\nowner = \"x\"\nreview_expires = 2027-01-01\ntools = [\"a\"]\n",
        ),
    );
    let out = mtc()
        .args(["scan", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("mcptrustchecker.toml:4:1") && err.contains("unknown field `tools`"),
        "{err}"
    );

    let out = mtc()
        .args([
            "scan",
            dir.path().to_str().unwrap(),
            "--policy",
            "/nonexistent/policy.toml",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = mtc()
        .args(["scan", dir.path().to_str().unwrap(), "--now", "2026-13-01"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));

    // --policy points anywhere; without one, no policy is applied.
    let elsewhere = dir.path().join("other.toml");
    std::fs::write(&elsewhere, "[gate]\nrequire_entries = false\n").unwrap();
    let (r, code) = scan_at(dir.path(), &["--policy", elsewhere.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(r["policy"]["path"], "other.toml");
    std::fs::remove_file(dir.path().join("mcptrustchecker.toml")).unwrap();
    let (r, _) = scan_at(dir.path(), &[]);
    assert!(r.get("policy").is_none() && r["servers"][0].get("policy").is_none());
}
