//! Supply chain (stage 5) end to end: real package names offline, declared
//! `packageMeta`, and `--online` against a fake registry on 127.0.0.1.

use crate::common::*;
use std::io::{Read, Write};
use std::net::TcpListener;

fn rules_of(s: &serde_json::Value) -> Vec<String> {
    let mut r: Vec<String> = s["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap().to_string())
        .filter(|r| r != "MTC-META-001")
        .collect();
    r.sort();
    r
}

fn finding<'a>(s: &'a serde_json::Value, rule: &str) -> &'a serde_json::Value {
    s["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == rule)
        .unwrap_or_else(|| panic!("no {rule} in {}", s["findings"]))
}

#[test]
fn real_names_are_flagged_with_the_right_rule_offline() {
    let (r, _) = scan_json(&["fixtures/supply/mcp.json"]);
    assert_eq!(rules_of(server(&r, "#typo")), vec!["MTC-SUP-005"]);
    assert_eq!(rules_of(server(&r, "#capital-i")), vec!["MTC-SUP-004"]);
    assert_eq!(rules_of(server(&r, "#fake-scope")), vec!["MTC-SUP-002"]);
    assert_eq!(rules_of(server(&r, "#combosquat")), vec!["MTC-SUP-006"]);
    assert_eq!(rules_of(server(&r, "#old-remote")), vec!["MTC-NET-001"]);
    assert_eq!(rules_of(server(&r, "#floating")), vec!["MTC-SUP-013"]);
    for clean in ["#official", "#remote-fixed", "#git"] {
        assert!(
            rules_of(server(&r, clean)).is_empty(),
            "{clean}: {:?}",
            rules_of(server(&r, clean))
        );
    }
    let cve = finding(server(&r, "#old-remote"), "MTC-NET-001");
    assert_eq!(
        (
            cve["severity"].as_str(),
            cve["confidence"].as_str(),
            cve["category"].as_str()
        ),
        (Some("critical"), Some("confirmed"), Some("supply-chain"))
    );
    assert!(cve["message"].as_str().unwrap().contains("CVE-2025-6514"));
    assert_eq!(
        cve["location"]["line"], 7,
        "the finding points at the server's entry"
    );
    let typo = finding(server(&r, "#typo"), "MTC-SUP-005");
    assert_eq!(
        typo["severity"], "medium",
        "edit distance alone is never more than medium"
    );
}

#[test]
fn declared_package_meta_fires_offline() {
    let (r, _) = scan_json(&["fixtures/supply/meta/tools.json"]);
    let s = server(&r, "fixtures/supply/meta/tools.json");
    assert_eq!(s["source"]["package"]["name"], "mcp-remote");
    let rules = rules_of(s);
    for want in [
        "MTC-NET-001",
        "MTC-SUP-010",
        "MTC-SUP-011",
        "MTC-SUP-012",
        "MTC-SUP-014",
    ] {
        assert!(
            rules.contains(&want.to_string()),
            "{want} missing from {rules:?}"
        );
    }
    assert_eq!(finding(s, "MTC-SUP-010")["severity"], "high");
    assert!(
        !rules.contains(&"MTC-SUP-013".to_string()),
        "declared metadata is not an unpinned spec"
    );
}

#[test]
fn reference_corpus_package_meta_cases_fire() {
    let corpus: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(corpora().join("mcptrustchecker-benchmark/corpus.json")).unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut n = 0;
    for case in corpus
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["manifest"].get("packageMeta").is_some())
    {
        let path = dir
            .path()
            .join(format!("{}.tools.json", case["id"].as_str().unwrap()));
        std::fs::write(&path, case["manifest"].to_string()).unwrap();
        let (r, _) = scan_json(&[path.to_str().unwrap()]);
        let rules = rules_of(&r["servers"][0]);
        assert!(
            rules
                .iter()
                .any(|r| r == "MTC-NET-001" || r == "MTC-SUP-014"),
            "{}: {rules:?}",
            case["id"]
        );
        n += 1;
    }
    assert_eq!(n, 7);
}

/// A registry that answers canned JSON by path (404 otherwise); one thread, closes each connection.
fn fake_registry(routes: Vec<(&'static str, &'static str)>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            let req = String::from_utf8_lossy(&buf);
            let path = req.split_whitespace().nth(1).unwrap_or("").to_string();
            let (status, body) = match routes.iter().find(|(p, _)| *p == path) {
                Some((_, b)) => ("200 OK", b.to_string()),
                None => ("404 Not Found", "{\"error\":\"not found\"}".to_string()),
            };
            let resp = format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(resp.as_bytes());
        }
    });
    base
}

#[test]
fn online_registry_facts_against_a_fake_registry() {
    let weather = r#"{"name":"@acme/weather-mcp","version":"1.0.0","license":"MIT","repository":{"type":"git","url":"git+https://github.com/acme/weather-mcp.git"},"dependencies":{"zod":"^3"}}"#;
    let base = fake_registry(vec![
        (
            "/hooked-mcp/1.0.0",
            r#"{"name":"hooked-mcp","version":"1.0.0","license":"MIT","scripts":{"postinstall":"node -e \"eval(Buffer.from('Y29uc29sZS5sb2coMSk=','base64').toString())\"","test":"jest"},"dependencies":{"context7-mcp":"^1.0.0","mcp-remote":"^0.1.0"}}"#,
        ),
        (
            "/downloads/point/last-week/hooked-mcp",
            r#"{"downloads":12}"#,
        ),
        ("/@acme/weather-mcp/latest", weather),
        ("/@acme/weather-mcp/1.0.0", weather),
        (
            "/pypi/acme-mcp-py/json",
            r#"{"info":{"version":"1.2.0","license":"","project_urls":{"Docs":"https://docs.example"},"requires_dist":["mcp>=1.0","httpx"]},"releases":{"1.2.0":[]}}"#,
        ),
        (
            "/pypi/acme-mcp-py/1.2.0/json",
            r#"{"info":{"version":"1.2.0","license":"","project_urls":{"Docs":"https://docs.example"},"requires_dist":["mcp>=1.0","httpx"]}}"#,
        ),
    ]);
    let args = [
        "fixtures/supply/online/mcp.json",
        "--online",
        "--npm-registry",
        &base,
        "--pypi-index",
        &base,
    ];
    let (r, _) = scan_json(&args);
    let hooked = server(&r, "#hooked");
    assert_eq!(
        rules_of(hooked),
        vec!["MTC-SUP-010", "MTC-SUP-011", "MTC-SUP-014"]
    );
    let hook = finding(hooked, "MTC-SUP-010");
    assert_eq!(
        (hook["severity"].as_str(), hook["confidence"].as_str()),
        (Some("high"), Some("confirmed"))
    );
    assert_eq!(
        finding(hooked, "MTC-SUP-014")["evidence"].as_str().unwrap(),
        "published dependency context7-mcp (MTC-SUP-001)"
    );
    let ghost_v = finding(server(&r, "#ghost-version"), "MTC-SUP-015");
    assert_eq!(ghost_v["severity"], "medium");
    let ghost_p = finding(server(&r, "#ghost-package"), "MTC-SUP-015");
    assert_eq!(
        (ghost_p["severity"].as_str(), ghost_p["confidence"].as_str()),
        (Some("high"), Some("confirmed"))
    );
    assert_eq!(
        rules_of(server(&r, "#py")),
        vec!["MTC-SUP-011", "MTC-SUP-012"]
    );
    assert!(
        rules_of(server(&r, "#clean")).is_empty(),
        "{:?}",
        rules_of(server(&r, "#clean"))
    );
    // Same input, same bytes, online too (the cache makes one request per package).
    let again = mtc()
        .arg("scan")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap()
        .stdout;
    assert_eq!(
        serde_json::to_vec(&serde_json::from_slice::<serde_json::Value>(&again).unwrap()).unwrap(),
        serde_json::to_vec(&r).unwrap()
    );
}

#[test]
fn unreachable_registry_is_reported_not_passed() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let dead = format!("http://127.0.0.1:{port}");
    let (r, _) = scan_json(&[
        "fixtures/supply/online/mcp.json",
        "--online",
        "--npm-registry",
        &dead,
        "--pypi-index",
        &dead,
    ]);
    for id in [
        "#hooked",
        "#ghost-version",
        "#ghost-package",
        "#py",
        "#clean",
    ] {
        let f = finding(server(&r, id), "MTC-SUP-016");
        assert!(
            f["message"].as_str().unwrap().contains("not checked"),
            "{id}"
        );
        assert!(
            f["evidence"].as_str().unwrap().contains("unreachable"),
            "{id}: {}",
            f["evidence"]
        );
    }
    assert!(
        finding(server(&r, "#hooked"), "MTC-SUP-016")["message"]
            .as_str()
            .unwrap()
            .contains("MTC-SUP-010")
    );
}

#[test]
fn online_flags_need_online() {
    let out = mtc()
        .args([
            "scan",
            "fixtures/supply/mcp.json",
            "--npm-registry",
            "http://127.0.0.1:9",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn real_configs_raise_no_squat_findings() {
    let (r, _) = scan_json(&[corpora().join("real-configs").to_str().unwrap()]);
    let mut squats = Vec::new();
    let mut cves = 0;
    for s in r["servers"].as_array().unwrap() {
        for f in s["findings"].as_array().unwrap() {
            let id = f["rule_id"].as_str().unwrap();
            if [
                "MTC-SUP-001",
                "MTC-SUP-002",
                "MTC-SUP-003",
                "MTC-SUP-004",
                "MTC-SUP-005",
                "MTC-SUP-006",
            ]
            .contains(&id)
            {
                squats.push(format!("{} {id}", s["id"]));
            }
            cves += usize::from(id == "MTC-NET-001");
        }
    }
    assert!(squats.is_empty(), "{squats:?}");
    assert_eq!(
        cves, 1,
        "the MCPSecBench config pins mcp-remote@0.1.15 on purpose"
    );
}
