//! Stages 3, 4 and 6 end to end through the CLI: the seed's worked shapes,
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
