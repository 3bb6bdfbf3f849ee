use super::rules::pascal;
use super::*;
use crate::finding::Suppression;
use crate::model::{ScanResult, ServerResult};
use crate::surface::{Location, ServerSurface, Source, Transport};

fn server(id: &str, findings: Vec<Finding>) -> ServerResult {
    let src = Source {
        location: Location::new("mcp.json", 2, 5),
        format: "client-config".into(),
        client: None,
    };
    let surface = ServerSurface::new(id.into(), id.into(), src, Transport::Unknown);
    let score = crate::score::score(&findings);
    ServerResult {
        surface,
        roles: Default::default(),
        findings,
        score,
        digest: String::new(),
        drift: None,
        policy: None,
    }
}

fn finding(rule: &str, path: &str, line: u32, tool: &str) -> Finding {
    Finding::new(
        rule,
        format!("message about {tool}"),
        Location::new(path, line, 3),
    )
    .server("mcp.json#a")
    .tool(Some(tool))
    .field(format!("tools[{tool}].description"))
}

fn parse(s: &str) -> Value {
    serde_json::from_str(s).expect("valid JSON")
}

fn verdict() -> Verdict {
    Verdict {
        failed: false,
        reasons: vec![],
        worst_grade: None,
    }
}

#[test]
fn uris_are_repo_relative_or_refused() {
    assert_eq!(repo_uri("a/b c.json").as_deref(), Some("a/b%20c.json"));
    assert_eq!(
        repo_uri("./x/.cursor/mcp.json").as_deref(),
        Some("x/.cursor/mcp.json")
    );
    assert_eq!(repo_uri("/etc/passwd"), None);
    assert_eq!(repo_uri("../outside/x.json"), None);
    assert_eq!(repo_uri("C:/x.json"), None);
    assert_eq!(repo_uri(""), None);
    assert_eq!(repo_uri("ab:c").as_deref(), Some("ab%3Ac"));
}

#[test]
fn fingerprint_ignores_lines_and_counts_repeats() {
    let a = finding(crate::rules::ids::MTC_UNI_001, "mcp.json", 4, "t");
    let b = finding(crate::rules::ids::MTC_UNI_001, "mcp.json", 40, "t");
    assert_eq!(fingerprint(&a, "s"), fingerprint(&b, "s"));
    assert_ne!(
        fingerprint(&a, "s"),
        fingerprint(
            &finding(crate::rules::ids::MTC_UNI_001, "mcp.json", 4, "u"),
            "s"
        )
    );
    let r = ScanResult {
        servers: vec![server(
            "mcp.json#a",
            vec![a.clone(), a.clone().evidence("other")],
        )],
        ..Default::default()
    };
    let v = parse(&render(&r, &verdict()));
    let res = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(res.len(), 2);
    let f0 = res[0]["partialFingerprints"][FINGERPRINT_KEY]
        .as_str()
        .unwrap();
    let f1 = res[1]["partialFingerprints"][FINGERPRINT_KEY]
        .as_str()
        .unwrap();
    assert_ne!(f0, f1);
    let h0 = res[0]["partialFingerprints"][LINE_HASH_KEY]
        .as_str()
        .unwrap();
    let h1 = res[1]["partialFingerprints"][LINE_HASH_KEY]
        .as_str()
        .unwrap();
    assert_eq!(h0, format!("{}:1", &fingerprint(&a, "mcp.json#a")[..16]));
    assert_eq!(h1, format!("{}:2", &fingerprint(&a, "mcp.json#a")[..16]));
    // The same finding forty lines further down keeps its line hash.
    let moved = ScanResult {
        servers: vec![server("mcp.json#a", vec![b])],
        ..Default::default()
    };
    let v = parse(&render(&moved, &verdict()));
    assert_eq!(
        v["runs"][0]["results"][0]["partialFingerprints"][LINE_HASH_KEY],
        json!(h0)
    );
}

#[test]
fn unlocated_findings_are_dropped_with_a_notification() {
    let r = ScanResult {
        servers: vec![server(
            "mcp.json#a",
            vec![finding(
                crate::rules::ids::MTC_UNI_001,
                "/home/u/.cursor/mcp.json",
                4,
                "t",
            )],
        )],
        ..Default::default()
    };
    let v = parse(&render(&r, &verdict()));
    assert!(v["runs"][0]["results"].as_array().unwrap().is_empty());
    let n = &v["runs"][0]["invocations"][0]["toolExecutionNotifications"][0];
    assert!(
        n["message"]["text"]
            .as_str()
            .unwrap()
            .contains("no location inside the repository")
    );
}

#[test]
fn limits_keep_the_most_severe_and_say_so() {
    let mut fs = Vec::new();
    for i in 0..30 {
        fs.push(finding(
            crate::rules::ids::MTC_META_002,
            "mcp.json",
            i + 1,
            &format!("low{i}"),
        ));
    }
    fs.push(finding(
        crate::rules::ids::MTC_UNI_001,
        "mcp.json",
        99,
        "crit",
    ));
    let r = ScanResult {
        servers: vec![server("mcp.json#a", fs)],
        ..Default::default()
    };
    let v = parse(&render_with(
        &r,
        &verdict(),
        &Limits {
            max_results: 5,
            max_bytes: 10_000_000,
        },
    ));
    let res = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(res.len(), 5);
    assert_eq!(res[0]["ruleId"], crate::rules::ids::MTC_UNI_001);
    let note = v["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(note.contains("26 of 31 results omitted"), "{note}");
    // A byte cap trims further.
    let full = render_with(&r, &verdict(), &Limits::default());
    let cap = full.len() - 2000;
    let small = render_with(
        &r,
        &verdict(),
        &Limits {
            max_results: 25_000,
            max_bytes: cap,
        },
    );
    assert!(small.len() <= cap);
    let v = parse(&small);
    let n = v["runs"][0]["results"].as_array().unwrap().len();
    assert!(n < 31 && n > 0, "{n}");
    assert_eq!(
        v["runs"][0]["results"][0]["ruleId"],
        crate::rules::ids::MTC_UNI_001
    );
}

/// The predicted shrink ends exactly where serialising at every step ends,
/// byte for byte, whatever the limits (hostile `##[` text included).
#[test]
fn predicted_shrink_equals_the_serialising_loop() {
    let mut fs = Vec::new();
    for i in 0..120 {
        let mut f = finding(
            if i % 3 == 0 {
                crate::rules::ids::MTC_UNI_001
            } else {
                crate::rules::ids::MTC_META_002
            },
            "mcp.json",
            i + 1,
            &format!("t{i} ##[add-mask]x{}", "y".repeat(i as usize % 17)),
        );
        f.evidence = format!("e{i}\n##[error]{}", "z".repeat(i as usize));
        fs.push(f);
    }
    let r = ScanResult {
        servers: vec![
            server("mcp.json#a", fs),
            server("b##[x].json#b", Vec::new()),
        ],
        ..Default::default()
    };
    let full = render_with(&r, &verdict(), &Limits::default()).len();
    for (max_results, max_bytes) in [
        (25_000, 10_000_000),
        (100, 10_000_000),
        (25_000, full - 1),
        (25_000, full / 2),
        (30, full / 3),
        (25_000, 3_000),
        (25_000, 10),
        (7, 10),
    ] {
        let limits = Limits {
            max_results,
            max_bytes,
        };
        let opts = Options {
            limits,
            ..Options::default()
        };
        assert_eq!(
            render_inner(&r, &verdict(), &opts, true),
            render_inner(&r, &verdict(), &opts, false),
            "{max_results} results, {max_bytes} bytes"
        );
    }
}

#[test]
fn suppressions_and_levels() {
    let mut f = finding(crate::rules::ids::MTC_UNI_001, "mcp.json", 4, "t");
    f.suppressed = Some(Suppression {
        reason: "vendor fix pending".into(),
        owner: "sec-team".into(),
        expires: "2027-01-01".into(),
    });
    let r = ScanResult {
        servers: vec![server("mcp.json#a", vec![f])],
        ..Default::default()
    };
    let v = parse(&render(&r, &verdict()));
    let res = &v["runs"][0]["results"][0];
    assert_eq!(res["level"], "error");
    assert_eq!(res["suppressions"][0]["kind"], "external");
    assert!(
        res["suppressions"][0]["justification"]
            .as_str()
            .unwrap()
            .contains("vendor fix pending")
    );
    assert!(
        res["message"]["text"]
            .as_str()
            .unwrap()
            .contains("tools\\[t\\].description")
    );
    assert!(
        v["runs"][0].get("automationDetails").is_none(),
        "no category unless one is asked for"
    );
    let mut lines = LineIndex::default();
    lines.insert("mcp.json", "{\n  \"servers\": {\r\n    \"a\": {}\n");
    let opts = Options {
        category: Some("mcp/prod".into()),
        lines,
        ..Options::default()
    };
    let v = parse(&render_opts(&r, &verdict(), &opts));
    assert_eq!(v["runs"][0]["automationDetails"]["id"], "mcp/prod/");
    let region = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (
            &region["startLine"],
            &region["endLine"],
            &region["endColumn"]
        ),
        (&json!(4), &json!(4), &json!(3 + 1)),
        "line 4 is empty: the region from column 3 still spans one column"
    );
    let mut lines = LineIndex::default();
    lines.insert("mcp.json", "{\n\n\n  \"a\": { \"command\": \"x\" }\n}");
    let v = parse(&render_opts(
        &r,
        &verdict(),
        &Options {
            lines,
            ..Options::default()
        },
    ));
    let region = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        region["endColumn"],
        json!(25 + 1),
        "to the end of line 4 (25 code points)"
    );
    assert_eq!(
        v["runs"][0]["properties"]["methodology"],
        crate::METHODOLOGY
    );
    let rules = v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), crate::rules::all().len());
    assert_eq!(
        pascal("Hidden Tags-block payload"),
        "HiddenTagsBlockPayload"
    );
}
