use super::checks::{allows, safe_url};
use super::*;
use crate::acquire::Acquired;
use crate::detect::{self, ScanOptions};
use crate::model::Decision;
use crate::score::Grade;
use crate::surface::{Location, Transport};

/// The scan's gate, as `scan` decides it.
fn verdict(r: &ScanResult, fail_on: FailOn) -> crate::model::Verdict {
    crate::gate::decide(r, fail_on, crate::gate::DriftRule::Always).verdict
}
use crate::surface::{Item, PackageId, RemoteKind, ServerSurface, Source};
use serde_json::json;

fn err(text: &str) -> InputError {
    Policy::parse(text, "mcptrustchecker.toml").expect_err("must be rejected")
}

#[test]
fn unknown_keys_and_wrong_types_are_located_errors() {
    let e = err(
        "version = 1\n[servers.\"a#b\"]\nowner = \"x\"\nreview_expires = 2027-01-01\ntool_allow = [\"x\"]\n",
    );
    assert_eq!((e.line, e.column), (Some(5), Some(1)), "{e}");
    assert!(e.message.contains("unknown field `tool_allow`"), "{e}");

    let e =
        err("[servers.\"a#b\"]\nowner = \"x\"\nreview_expires = 2027-01-01\ntools_allow = \"x\"\n");
    assert_eq!(e.line, Some(4), "{e}");

    let e = err("[servers.\"a#b\"]\nowner = \"x\"\nreview_expires = \"2027-02-30\"\n");
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.message.contains("YYYY-MM-DD"), "{e}");

    let e = err(
        "[[suppressions]]\nrule = \"MTC-NOPE-1\"\nserver = \"s\"\nreason = \"r\"\nowner = \"o\"\nexpires = 2027-01-01\n",
    );
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.contains("unknown rule id"), "{e}");

    let e = err("[gate]\nfail_on = \"Z\"\n");
    assert_eq!(e.line, Some(2), "{e}");
    let e = err("[gate]\nfails_on = \"C\"\n");
    assert_eq!(e.line, Some(2), "{e}");
    let e = err("version = 2\n");
    assert_eq!(e.line, Some(1), "{e}");
    assert!(e.message.contains("version 2"));
    let e = err("[servers.\"a#b\"]\nreview_expires = 2027-01-01\n");
    assert!(e.message.contains("owner"), "{e}");
    let e = err(
        "[servers.\"a#b\"]\nowner = \"x\"\nreview_expires = 2027-01-01\ntransport = \"carrier-pigeon\"\n",
    );
    assert_eq!(e.line, Some(4), "{e}");
    let e = err("[servers\n");
    assert!(e.message.contains("malformed TOML"), "{e}");
    assert!(e.to_string().starts_with("mcptrustchecker.toml:1:"), "{e}");
}

#[test]
fn a_full_policy_parses_with_defaults() {
    let p = Policy::parse(
        "[servers.\"a#b\"]\nowner = \"x\"\nreview_expires = \"2027-01-01\"\ntransport = \"stdio\"\n[[suppressions]]\nrule = \"mtc-meta-001\"\nserver = \"a#b\"\nreason = \"r\"\nowner = \"o\"\nexpires = 2027-01-01\n",
        "p.toml",
    )
    .unwrap();
    assert_eq!(p.gate.fail_on, None);
    assert!(p.gate.drifts_fail() && p.gate.require_entries);
    assert_eq!(
        p.suppressions[0].rule,
        crate::rules::ids::MTC_META_001,
        "rule ids are canonicalised"
    );
    assert_eq!(p.loc("/suppressions/0").line, 5);
}

#[test]
fn network_allow_forms() {
    let u = |s: &str| url::Url::parse(s).unwrap();
    assert!(allows(
        "api.example.com",
        &u("https://api.example.com/mcp"),
        false
    ));
    assert!(allows(
        "API.example.com:443",
        &u("https://api.example.com/mcp"),
        false
    ));
    assert!(!allows(
        "api.example.com:8443",
        &u("https://api.example.com/mcp"),
        false
    ));
    assert!(allows(
        "*.example.com",
        &u("https://a.b.example.com/"),
        false
    ));
    assert!(!allows(
        "*.example.com",
        &u("https://example.com.evil.io/"),
        false
    ));
    assert!(!allows(
        "example.com",
        &u("https://evil-example.com/"),
        false
    ));
    assert!(allows(
        "https://api.example.com",
        &u("https://api.example.com/x"),
        false
    ));
    assert!(!allows(
        "https://api.example.com",
        &u("http://api.example.com/x"),
        false
    ));
    assert!(
        !allows("api.example.com", &u("http://api.example.com/x"), true),
        "plain http needs an explicit scheme"
    );
    assert!(allows(
        "http://api.example.com:8080",
        &u("http://api.example.com:8080/x"),
        true
    ));
}

fn surface(id: &str, transport: Transport) -> ServerSurface {
    let (path, name) = id.split_once('#').unwrap_or((id, id));
    let src = Source {
        location: Location::new(path, 3, 5),
        format: "config".into(),
        client: None,
    };
    let mut s = ServerSurface::new(id.into(), name.into(), src, transport);
    s.session = Some(path.into());
    s
}

fn run(surfaces: Vec<ServerSurface>) -> ScanResult {
    detect::run(
        Acquired {
            surfaces,
            ..Acquired::default()
        },
        &ScanOptions::default(),
    )
}

fn date(s: &str) -> Date {
    Date::parse(s).unwrap()
}

fn rules_of(f: &[Finding]) -> Vec<&str> {
    f.iter().map(|f| f.rule_id.as_str()).collect()
}

/// One stdio server with a tool and an env var; one remote over plain http.
fn tree() -> ScanResult {
    let mut a = surface(
        "c.json#a",
        Transport::Stdio {
            command: "npx".into(),
            args: vec!["-y".into(), "pkg@1.0.0".into()],
            env_names: vec!["TOKEN".into()],
            cwd: None,
        },
    );
    a.package = Some(PackageId {
        registry: "npm".into(),
        name: "pkg".into(),
        version: Some("1.0.0".into()),
        spec: "pkg@1.0.0".into(),
        pinned: true,
    });
    a.env.insert("TOKEN".into(), "${env:TOKEN}".into());
    a.tools
        .push(Item::new("send", json!({"name": "send"}), None));
    let b = surface(
        "c.json#b",
        Transport::Remote {
            url: "http://mcp.example.com/mcp".into(),
            protocol: RemoteKind::Unspecified,
            header_names: vec![],
        },
    );
    run(vec![a, b])
}

const ENTRIES: &str = r#"
[servers."c.json#a"]
owner = "team-a"
review_expires = 2027-01-01
package = "pkg@1.0.0"
tools_allow = ["send"]
env_allow = ["TOKEN"]

[servers."c.json#b"]
owner = "team-b"
review_expires = 2027-01-01
url = "http://mcp.example.com/mcp"
network_allow = ["http://mcp.example.com"]
"#;

#[test]
fn a_matching_policy_passes_and_each_breach_is_reported() {
    let p = Policy::parse(ENTRIES, "mcptrustchecker.toml").unwrap();
    let mut r = tree();
    apply(
        &mut r,
        &p,
        date("2026-12-01"),
        crate::score::FailOn::At(Grade::F),
        Path::new("/nonexistent"),
        true,
    );
    for s in &r.servers {
        let pol: Vec<_> = s
            .findings
            .iter()
            .filter(|f| f.rule_id.starts_with("MTC-POL"))
            .collect();
        assert!(pol.is_empty(), "{}: {pol:?}", s.surface.id);
        assert_eq!(s.policy.as_ref().unwrap().decision, Decision::Pass);
    }
    assert!(!verdict(&r, crate::score::FailOn::At(Grade::F)).failed);

    // Narrow the contract: every check fires on the same tree.
    let narrowed = ENTRIES
        .replace("tools_allow = [\"send\"]", "tools_allow = []")
        .replace("env_allow = [\"TOKEN\"]", "")
        .replace("pkg@1.0.0", "pkg@1.0.1")
        .replace("http://mcp.example.com\"]", "other.example.com\"]");
    let p = Policy::parse(&narrowed, "mcptrustchecker.toml").unwrap();
    let mut r = tree();
    apply(
        &mut r,
        &p,
        date("2027-01-02"),
        crate::score::FailOn::At(Grade::F),
        Path::new("/nonexistent"),
        true,
    );
    let a = &r.servers[0];
    assert_eq!(
        rules_of(&a.findings)
            .iter()
            .filter(|x| x.starts_with("MTC-POL"))
            .count(),
        4,
        "{:?}",
        rules_of(&a.findings)
    );
    for id in [
        crate::rules::ids::MTC_POL_002,
        crate::rules::ids::MTC_POL_003,
        crate::rules::ids::MTC_POL_007,
        crate::rules::ids::MTC_POL_009,
    ] {
        assert!(rules_of(&a.findings).contains(&id), "{id}");
    }
    let expired = a
        .findings
        .iter()
        .find(|f| f.rule_id == crate::rules::ids::MTC_POL_009)
        .unwrap();
    assert_eq!(
        (expired.location.path.as_str(), expired.location.line),
        ("mcptrustchecker.toml", 4)
    );
    let b = &r.servers[1];
    for id in [
        crate::rules::ids::MTC_POL_005,
        crate::rules::ids::MTC_POL_006,
        crate::rules::ids::MTC_POL_009,
    ] {
        assert!(
            rules_of(&b.findings).contains(&id),
            "{id}: {:?}",
            rules_of(&b.findings)
        );
    }
    assert_eq!(a.policy.as_ref().unwrap().decision, Decision::Fail);
    let v = verdict(&r, crate::score::FailOn::At(Grade::F));
    assert!(
        v.failed
            && v.reasons
                .iter()
                .any(|x| x.contains(crate::rules::ids::MTC_POL_002)),
        "{:?}",
        v.reasons
    );
}

#[test]
fn suppression_makes_an_exception_until_it_expires() {
    let sup = "\n[[suppressions]]\nrule = \"MTC-POL-002\"\nserver = \"c.json#a\"\ntool = \"send\"\nreason = \"being replaced\"\nowner = \"sec\"\nexpires = 2026-12-31\n";
    let text = ENTRIES.replace("tools_allow = [\"send\"]", "tools_allow = []") + sup;
    let p = Policy::parse(&text, "mcptrustchecker.toml").unwrap();

    let mut r = tree();
    apply(
        &mut r,
        &p,
        date("2026-12-31"),
        crate::score::FailOn::At(Grade::F),
        Path::new("/nonexistent"),
        true,
    );
    let a = &r.servers[0];
    let f = a
        .findings
        .iter()
        .find(|f| f.rule_id == crate::rules::ids::MTC_POL_002)
        .unwrap();
    assert_eq!(f.suppressed.as_ref().map(|s| s.owner.as_str()), Some("sec"));
    assert_eq!(a.score.value, 100, "a suppressed finding does not count");
    let pv = a.policy.as_ref().unwrap();
    assert_eq!(pv.decision, Decision::Exception);
    assert_eq!(
        pv.exception
            .as_ref()
            .map(|x| (x.owner.as_str(), x.expires.as_str())),
        Some(("sec", "2026-12-31"))
    );
    assert!(!verdict(&r, crate::score::FailOn::At(Grade::F)).failed);

    let mut r = tree();
    apply(
        &mut r,
        &p,
        date("2027-01-01"),
        crate::score::FailOn::At(Grade::F),
        Path::new("/nonexistent"),
        true,
    );
    let a = &r.servers[0];
    assert!(a.findings.iter().all(|f| f.suppressed.is_none()));
    assert!(a.score.value < 100, "the finding counts again");
    let lapsed = a
        .findings
        .iter()
        .find(|f| f.rule_id == crate::rules::ids::MTC_POL_010)
        .expect("lapse reported");
    assert_eq!(lapsed.location.line, 15);
    assert_eq!(a.policy.as_ref().unwrap().decision, Decision::Fail);
    // Sessions are re-scored from the same findings.
    assert_eq!(
        r.sessions[0].score.value,
        score::score(r.servers.iter().flat_map(|s| &s.findings)).value
    );
}

#[test]
fn missing_entries_and_stale_entries() {
    let p = Policy::parse(
        "[servers.\"gone.json#x\"]\nowner = \"o\"\nreview_expires = 2027-01-01\n",
        "mcptrustchecker.toml",
    )
    .unwrap();
    let mut r = tree();
    apply(
        &mut r,
        &p,
        date("2026-12-01"),
        crate::score::FailOn::At(Grade::F),
        Path::new("/nonexistent"),
        true,
    );
    assert!(
        r.servers
            .iter()
            .all(|s| rules_of(&s.findings).contains(&crate::rules::ids::MTC_POL_001))
    );
    let o = r.policy.as_ref().unwrap();
    assert_eq!(rules_of(&o.findings), [crate::rules::ids::MTC_POL_011]);
    assert_eq!(o.findings[0].location.line, 1);

    let p = Policy::parse("[gate]\nrequire_entries = false\n", "mcptrustchecker.toml").unwrap();
    let mut r = tree();
    apply(
        &mut r,
        &p,
        date("2026-12-01"),
        crate::score::FailOn::At(Grade::F),
        Path::new("/nonexistent"),
        true,
    );
    assert!(
        r.servers
            .iter()
            .all(|s| !rules_of(&s.findings).contains(&crate::rules::ids::MTC_POL_001))
    );
}

#[test]
fn unpinned_launches() {
    let mut a = surface(
        "c.json#a",
        Transport::Stdio {
            command: "npx".into(),
            args: vec!["pkg@latest".into()],
            env_names: vec![],
            cwd: None,
        },
    );
    a.package = Some(PackageId {
        registry: "npm".into(),
        name: "pkg".into(),
        version: Some("latest".into()),
        spec: "pkg@latest".into(),
        pinned: false,
    });
    let mut r = run(vec![a]);
    let p = Policy::parse(
        "[servers.\"c.json#a\"]\nowner = \"o\"\nreview_expires = 2027-01-01\n",
        "mcptrustchecker.toml",
    )
    .unwrap();
    apply(
        &mut r,
        &p,
        date("2026-12-01"),
        crate::score::FailOn::At(Grade::F),
        Path::new("/nonexistent"),
        true,
    );
    let f: Vec<_> = r.servers[0]
        .findings
        .iter()
        .filter(|f| f.rule_id == crate::rules::ids::MTC_POL_008)
        .collect();
    assert_eq!(
        f.len(),
        2,
        "unpinned package and an entry that pins nothing: {f:?}"
    );
    assert!(f.iter().any(|f| f.location.path == "mcptrustchecker.toml"));
}

#[test]
fn drafted_policy_parses_and_passes() {
    let r = tree();
    let text = init::render(
        &r,
        Some(&json!({"servers": {"c.json#b": {"tools": [{"name": "later"}]}}})),
        date("2026-11-29"),
    );
    let p = Policy::parse(&text, "mcptrustchecker.toml").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(p.servers["c.json#a"].review_expires, date("2027-02-27"));
    assert_eq!(p.servers["c.json#b"].tools_allow, ["later"]);
    assert_eq!(p.servers["c.json#a"].env_allow, ["TOKEN"]);
    let mut r = tree();
    apply(
        &mut r,
        &p,
        date("2026-11-29"),
        crate::score::FailOn::At(Grade::F),
        Path::new("/nonexistent"),
        true,
    );
    // The plain-http host is left for a human to allow explicitly.
    assert_eq!(
        rules_of(&r.servers[1].findings)
            .iter()
            .filter(|x| x.starts_with("MTC-POL"))
            .collect::<Vec<_>>(),
        [
            &crate::rules::ids::MTC_POL_005,
            &crate::rules::ids::MTC_POL_006
        ]
    );
    assert!(
        r.servers[0]
            .findings
            .iter()
            .all(|f| !f.rule_id.starts_with("MTC-POL"))
    );
}

#[test]
fn urls_are_printed_without_credentials() {
    let shown = safe_url(
        "https://bob:hunter2hunter2@mcp.example.com/mcp?api_key=sk_live_abcdefghijklmnop&x=",
    );
    assert!(
        !shown.contains("hunter2hunter2") && !shown.contains("sk_live_abcdefghijklmnop"),
        "{shown}"
    );
    assert!(shown.contains("mcp.example.com/mcp"), "{shown}");
    assert_eq!(safe_url("not a url"), "not a url");
}
