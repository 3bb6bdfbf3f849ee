use super::*;
use serde_json::json;

pub(crate) fn surface(tools: Vec<Value>) -> ServerSurface {
    crate::testkit::surface("t.json")
        .name("t")
        .tools(tools)
        .build()
}

fn roles_of(t: Value) -> BTreeSet<Role> {
    classify(&Item::new(t["name"].as_str().unwrap(), t.clone(), None)).set()
}

fn run(s: &ServerSurface) -> (BTreeMap<String, BTreeSet<Role>>, Vec<Finding>) {
    let mut roles = BTreeMap::new();
    let mut out = Vec::new();
    check(s, &ScanOptions::default(), &mut roles, &mut out);
    (roles, out)
}

fn ids(f: &[Finding]) -> Vec<&str> {
    f.iter().map(|x| x.rule_id.as_str()).collect()
}

#[test]
fn lexicon_loads_and_rule_ids_are_catalogued() {
    let _ = lexicon();
    for id in RULE_IDS {
        assert!(crate::rules::get(id).is_some(), "{id} not catalogued");
    }
}

#[test]
fn tokens_split_every_style() {
    assert_eq!(tokens("readFile"), ["read", "file"]);
    assert_eq!(tokens("HTTPRequest"), ["http", "request"]);
    assert_eq!(tokens("get-env"), ["get", "env"]);
    assert_eq!(tokens("API-post-page"), ["api", "post", "page"]);
    assert_eq!(tokens("run_shell.cmd"), ["run", "shell", "cmd"]);
}

#[test]
fn seed_roles() {
    use Role::*;
    assert_eq!(
        roles_of(json!({"name": "fetch_url", "description": "Fetch a URL"})),
        [UntrustedInput, UrlFetch].into()
    );
    assert_eq!(
        roles_of(
            json!({"name": "read_file", "inputSchema": {"properties": {"path": {"type": "string"}}}})
        ),
        [SensitiveSource].into()
    );
    let http = roles_of(
        json!({"name": "http_request", "inputSchema": {"properties": {"url": {"type": "string"}, "method": {"type": "string"}}}}),
    );
    assert!(http.contains(&ExternalSink), "{http:?}");
    assert_eq!(
        roles_of(
            json!({"name": "run_command", "inputSchema": {"properties": {"command": {"type": "string"}}}})
        ),
        [CodeExec].into()
    );
    assert!(roles_of(json!({"name": "write_file", "inputSchema": {"properties": {"path": {"type": "string"}}}})).contains(&FileWrite));
    assert!(roles_of(json!({"name": "send_email", "inputSchema": {"properties": {"to": {"type": "string", "format": "email"}}}})).contains(&ExternalSink));
    let all = roles_of(
        json!({"name": "sync", "description": "Fetch a URL, read a local file and post the result to a webhook."}),
    );
    assert!(
        all.contains(&UntrustedInput)
            && all.contains(&SensitiveSource)
            && all.contains(&ExternalSink),
        "{all:?}"
    );
}

#[test]
fn negatives() {
    assert!(
        roles_of(
            json!({"name": "get_current_time", "description": "Get the current time in a timezone"})
        )
        .is_empty()
    );
    // An output file name is not a sensitive read.
    let find = roles_of(
        json!({"name": "browser_find", "inputSchema": {"properties": {"filename": {"type": "string", "description": "File name to save the result to."}}}}),
    );
    assert!(!find.contains(&Role::SensitiveSource), "{find:?}");
    assert!(
        roles_of(json!({"name": "generate_pie_chart", "description": "Generate a pie chart"}))
            .is_empty()
    );
    // Getter exclusion: a getter does not send even when its name holds a send word.
    assert!(!roles_of(json!({"name": "get_webhook_subscription"})).contains(&Role::ExternalSink));
    // Azure-style `command` selector is not a shell.
    let az = roles_of(
        json!({"name": "storage", "inputSchema": {"properties": {"command": {"type": "string", "description": "The command to execute against the specified tool."}}}}),
    );
    assert!(!az.contains(&Role::CodeExec), "{az:?}");
    // A pagination token is not a secret.
    assert!(!secret_field("page_token") && secret_field("api_key") && secret_field("password"));
}

#[test]
fn cap_001_002_005_and_preconditions() {
    let s = surface(vec![
        json!({"name": "run_command", "inputSchema": {"properties": {"command": {"type": "string"}}}}),
        json!({"name": "write_file", "annotations": {"destructiveHint": true}, "inputSchema": {"properties": {"path": {"type": "string", "pattern": "^/tmp/"}}}}),
    ]);
    let (roles, f) = run(&s);
    assert_eq!(roles["run_command"], [Role::CodeExec].into());
    let ids = ids(&f);
    assert!(
        ids.contains(&crate::rules::ids::MTC_CAP_001)
            && ids.contains(&crate::rules::ids::MTC_CAP_002)
            && ids.contains(&crate::rules::ids::MTC_CAP_006),
        "{ids:?}"
    );
    assert_eq!(
        ids.iter()
            .filter(|i| **i == crate::rules::ids::MTC_CAP_005)
            .count(),
        1,
        "only run_command lacks destructiveHint"
    );
    assert!(
        !ids.contains(&crate::rules::ids::MTC_CAP_008),
        "a pattern constrains the path"
    );
    let six = f
        .iter()
        .find(|x| x.rule_id == crate::rules::ids::MTC_CAP_006)
        .unwrap();
    assert_eq!(
        six.field.as_deref(),
        Some("tools[run_command].inputSchema.properties.command")
    );
}

#[test]
fn cap_007_008_fire_and_enum_silences() {
    let s = surface(vec![
        json!({"name": "fetch_page", "inputSchema": {"properties": {"url": {"type": "string"}}}}),
        json!({"name": "read_file", "inputSchema": {"properties": {"path": {"type": "string"}}}}),
        json!({"name": "fetch_known", "inputSchema": {"properties": {"url": {"type": "string", "enum": ["https://a.example"]}}}}),
    ]);
    let (_, f) = run(&s);
    let got: Vec<(&str, Option<&str>)> = f
        .iter()
        .filter(|x| x.rule_id.starts_with("MTC-CAP-00"))
        .map(|x| (x.rule_id.as_str(), x.tool.as_deref()))
        .collect();
    assert!(
        got.contains(&(crate::rules::ids::MTC_CAP_007, Some("fetch_page"))),
        "{got:?}"
    );
    assert!(
        got.contains(&(crate::rules::ids::MTC_CAP_008, Some("read_file"))),
        "{got:?}"
    );
    assert!(
        !got.iter().any(|(_, t)| *t == Some("fetch_known")),
        "{got:?}"
    );
}

#[test]
fn cap_003_contradictions() {
    let s = surface(vec![
        json!({"name": "delete_file", "annotations": {"readOnlyHint": true}, "inputSchema": {"properties": {"path": {"type": "string"}}}}),
        json!({"name": "drop_table", "annotations": {"readOnlyHint": false, "destructiveHint": false}}),
        json!({"name": "read_file", "annotations": {"readOnlyHint": true}}),
    ]);
    let (_, f) = run(&s);
    let hits: Vec<&str> = f
        .iter()
        .filter(|x| x.rule_id == crate::rules::ids::MTC_CAP_003)
        .map(|x| x.tool.as_deref().unwrap())
        .collect();
    assert_eq!(hits, ["delete_file", "drop_table"]);
    // A sentence that says it outright confirms the lie; a file write alone stays strong.
    let s = surface(vec![
        json!({"name": "helper", "description": "Writes a file to disk", "annotations": {"readOnlyHint": true}}),
        json!({"name": "tidy", "description": "Delete every file in the workspace directory.", "annotations": {"readOnlyHint": true}}),
        json!({"name": "lookup", "description": "Searches the index. It does not delete anything.", "annotations": {"readOnlyHint": true}}),
    ]);
    let f = run(&s).1;
    let three = |t: &str| {
        f.iter()
            .find(|x| x.rule_id == crate::rules::ids::MTC_CAP_003 && x.tool.as_deref() == Some(t))
            .map(|x| (x.severity, x.confidence))
    };
    use crate::finding::{Confidence, Severity};
    assert_eq!(
        three("helper"),
        Some((Severity::Medium, Confidence::Strong))
    );
    assert_eq!(three("tidy"), Some((Severity::High, Confidence::Confirmed)));
    assert_eq!(three("lookup"), None);
}

#[test]
fn cap_004_open_world_sensitive() {
    let s = surface(vec![
        json!({"name": "read_env", "annotations": {"openWorldHint": true}}),
    ]);
    assert!(ids(&run(&s).1).contains(&crate::rules::ids::MTC_CAP_004));
    let s = surface(vec![
        json!({"name": "read_env", "annotations": {"openWorldHint": false}}),
    ]);
    assert!(!ids(&run(&s).1).contains(&crate::rules::ids::MTC_CAP_004));
}

#[test]
fn sampling_and_elicitation() {
    let mut s = surface(vec![
        json!({"name": "login", "inputSchema": {"properties": {"api_key": {"type": "string"}}}}),
    ]);
    s.capabilities = Some(json!({"tools": {}, "sampling": {}, "elicitation": {}}));
    let f = run(&s).1;
    let ids = ids(&f);
    assert!(
        ids.contains(&crate::rules::ids::MTC_CAP_009)
            && ids.contains(&crate::rules::ids::MTC_CAP_011)
            && !ids.contains(&crate::rules::ids::MTC_CAP_010),
        "{ids:?}"
    );
    assert!(
        f.iter()
            .any(|x| x.evidence.contains("tools[login].api_key"))
    );
    s.tools.clear();
    s.capabilities = Some(json!({"experimental": {"elicitation": {}}}));
    assert_eq!(
        run(&s)
            .1
            .iter()
            .map(|x| x.rule_id.as_str())
            .collect::<Vec<_>>(),
        [crate::rules::ids::MTC_CAP_010]
    );
    s.capabilities = Some(json!({"tools": {}, "logging": {}}));
    assert!(run(&s).1.is_empty());
}
