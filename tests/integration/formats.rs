//! One real-looking fixture per client format and descriptor shape: every
//! server is found, located at its entry's line, with the right transport.

use crate::common::*;

/// Scan one fixture path and return (id, transport, client, line) per server.
fn servers(path: &str) -> Vec<(String, String, String, u64)> {
    let (r, _) = scan_json(&[path]);
    assert!(
        r["errors"].as_array().unwrap().is_empty(),
        "{path}: {}",
        r["errors"]
    );
    r["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let id = s["id"].as_str().unwrap();
            let short = id
                .rsplit_once('#')
                .map(|(_, n)| n.to_string())
                .unwrap_or_else(|| id.rsplit('/').next().unwrap().to_string());
            (
                short,
                s["source"]["transport"].as_str().unwrap().to_string(),
                s["source"]["client"].as_str().unwrap_or("-").to_string(),
                s["source"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn t(id: &str, transport: &str, client: &str, line: u64) -> (String, String, String, u64) {
    (id.into(), transport.into(), client.into(), line)
}

#[test]
fn claude_desktop() {
    assert_eq!(
        servers("fixtures/formats/claude-desktop"),
        vec![
            t("filesystem", "stdio", "claude-desktop", 3),
            t("remote-bridge", "stdio", "claude-desktop", 7)
        ]
    );
}

#[test]
fn claude_code_interpolated_http() {
    assert_eq!(
        servers("fixtures/formats/claude-code"),
        vec![
            t("api", "streamable-http", "claude-code", 3),
            t("db", "stdio", "claude-code", 8)
        ]
    );
}

#[test]
fn cursor() {
    assert_eq!(
        servers("fixtures/formats/cursor"),
        vec![
            t("ctx", "remote", "cursor", 3),
            t("local", "stdio", "cursor", 7)
        ]
    );
}

#[test]
fn vscode_jsonc_with_inputs() {
    assert_eq!(
        servers("fixtures/formats/vscode"),
        vec![
            t("remote", "sse", "vscode", 14),
            t("svc", "stdio", "vscode", 7)
        ]
    );
    let (r, _) = scan_json(&["fixtures/formats/vscode"]);
    // A number in env is kept (as text) and the name listed; values never appear.
    let svc = server(&r, "#svc");
    assert_eq!(
        svc["source"]["env"],
        serde_json::json!(["API_KEY", "RETRIES"])
    );
}

#[test]
fn windsurf_server_url_and_disabled() {
    assert_eq!(
        servers("fixtures/formats/windsurf"),
        vec![
            t("maria", "stdio", "windsurf", 4),
            t("remote", "remote", "windsurf", 3)
        ]
    );
    let (r, _) = scan_json(&["fixtures/formats/windsurf"]);
    assert_eq!(server(&r, "#maria")["disabled"], true);
    assert_eq!(server(&r, "#maria")["source"]["package"]["registry"], "oci");
}

#[test]
fn cline_bare_url_is_sse() {
    assert_eq!(
        servers("fixtures/formats/cline"),
        vec![
            t("legacy", "sse", "cline", 3),
            t("local", "stdio", "cline", 5),
            t("stream", "streamable-http", "cline", 4)
        ]
    );
}

#[test]
fn roo_code() {
    assert_eq!(
        servers("fixtures/formats/roo-code"),
        vec![
            t("remote", "streamable-http", "roo-code", 8),
            t("smart-tree", "stdio", "roo-code", 3)
        ]
    );
}

#[test]
fn zed_three_generations() {
    let s = servers("fixtures/formats/zed");
    assert_eq!(
        s,
        vec![
            t("current", "stdio", "zed", 5),
            t("older", "stdio", "zed", 7),
            t("oldest", "stdio", "zed", 8),
            t("remote", "remote", "zed", 6)
        ]
    );
    let (r, _) = scan_json(&["fixtures/formats/zed"]);
    assert_eq!(server(&r, "#oldest")["source"]["command"], "python3");
    assert_eq!(
        server(&r, "#oldest")["source"]["args"],
        serde_json::json!(["-m", "srv"])
    );
}

#[test]
fn continue_yaml_list() {
    assert_eq!(
        servers("fixtures/formats/continue"),
        vec![
            t("browser", "stdio", "continue", 11),
            t("docs", "streamable-http", "continue", 5)
        ]
    );
}

#[test]
fn gemini_http_url_and_url() {
    assert_eq!(
        servers("fixtures/formats/gemini-cli"),
        vec![
            t("events", "sse", "gemini-cli", 5),
            t("py", "stdio", "gemini-cli", 3),
            t("web", "streamable-http", "gemini-cli", 4)
        ]
    );
}

#[test]
fn codex_toml() {
    assert_eq!(
        servers("fixtures/formats/codex"),
        vec![
            t("docs", "stdio", "codex", 3),
            t("figma", "remote", "codex", 11)
        ]
    );
    let (r, _) = scan_json(&["fixtures/formats/codex"]);
    assert_eq!(
        server(&r, "#docs")["source"]["env"],
        serde_json::json!(["DOCS_TOKEN", "LOG_LEVEL"])
    );
    assert_eq!(
        server(&r, "#figma")["source"]["headers"],
        serde_json::json!(["Authorization"])
    );
}

#[test]
fn opencode_command_arrays() {
    assert_eq!(
        servers("fixtures/formats/opencode"),
        vec![
            t("local", "stdio", "opencode", 5),
            t("remote", "remote", "opencode", 6)
        ]
    );
    let (r, _) = scan_json(&["fixtures/formats/opencode"]);
    assert_eq!(server(&r, "#local")["source"]["command"], "npx");
    assert_eq!(server(&r, "#local")["source"]["package"]["name"], "my-mcp");
    assert_eq!(server(&r, "#remote")["disabled"], true);
}

#[test]
fn goose_extensions_and_recipe() {
    let s = servers("fixtures/formats/goose");
    assert_eq!(
        s,
        vec![
            t("developer", "unknown", "goose", 3),
            t("fetch", "stdio", "goose", 8),
            t("remote", "streamable-http", "goose", 17),
            t("github", "stdio", "goose", 4)
        ]
    );
}

#[test]
fn amazon_q_kiro_junie_lmstudio() {
    assert_eq!(
        servers("fixtures/formats/amazon-q"),
        vec![t("cost-explorer", "stdio", "amazon-q", 3)]
    );
    assert_eq!(
        servers("fixtures/formats/kiro"),
        vec![
            t("fetch", "stdio", "kiro", 4),
            t("figma", "remote", "kiro", 3)
        ]
    );
    assert_eq!(
        servers("fixtures/formats/junie"),
        vec![t("laravel-boost", "stdio", "junie", 3)]
    );
    assert_eq!(
        servers("fixtures/formats/lm-studio"),
        vec![t("hf", "remote", "lm-studio", 3)]
    );
}

#[test]
fn copilot_cli_agent_and_devcontainer() {
    assert_eq!(
        servers("fixtures/formats/copilot-cli"),
        vec![
            t("docs", "streamable-http", "copilot-cli", 4),
            t("gh", "stdio", "copilot-cli", 3)
        ]
    );
    assert_eq!(
        servers("fixtures/formats/copilot-agent"),
        vec![t("context7", "streamable-http", "copilot-cli", 5)]
    );
    assert_eq!(
        servers("fixtures/formats/devcontainer"),
        vec![t("fs", "stdio", "vscode", 4)]
    );
}

#[test]
fn registry_server_json_and_mcpb() {
    let (r, _) = scan_json(&["fixtures/formats/descriptors"]);
    let ids: Vec<&str> = r["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![
            "fixtures/formats/descriptors/bundle/manifest.json",
            "fixtures/formats/descriptors/server.json#packages/0",
            "fixtures/formats/descriptors/server.json#remotes/0"
        ]
    );
    let mcpb = server(&r, "bundle/manifest.json");
    assert_eq!(mcpb["coverage"], "manifest");
    assert_eq!(mcpb["counts"]["tools"], 1);
    assert_eq!(mcpb["counts"]["prompts"], 1);
    let pkg = server(&r, "server.json#packages/0");
    assert_eq!(pkg["source"]["package"]["name"], "@acme/weather-mcp");
    assert_eq!(pkg["source"]["package"]["pinned"], true);
    assert_eq!(
        server(&r, "#remotes/0")["source"]["transport"],
        "streamable-http"
    );
}

#[test]
fn every_tool_manifest_shape() {
    let (r, code) = scan_json(&["fixtures/formats/manifests"]);
    assert_eq!(code, 0);
    let all = r["servers"].as_array().unwrap();
    assert_eq!(all.len(), 5);
    for s in all {
        assert_eq!(s["coverage"], "manifest", "{}", s["id"]);
        assert_eq!(s["counts"]["tools"], 1, "{}", s["id"]);
        assert_eq!(s["source"]["line"], 1);
    }
    let obj = server(&r, "object.tools.json");
    assert_eq!(
        obj["counts"],
        serde_json::json!({"tools": 1, "prompts": 1, "resources": 1, "resource_templates": 1})
    );
    let dump = server(&r, "initialize-dump.tools.json");
    assert_eq!(dump["name"], "dump");
}

#[test]
fn tool_locations_point_at_the_tool_in_the_file() {
    let (r, _) = scan_json(&["fixtures/demo/servers/notes/tools.json"]);
    let f = &server(&r, "notes/tools.json")["findings"][0];
    assert_eq!(f["location"]["line"], 9);
}
