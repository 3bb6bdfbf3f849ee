//! SARIF 2.1.0 for GitHub code scanning. One run; every result sits at a file
//! in the repository (GitHub drops results it cannot place); fingerprints are
//! derived from what a finding is about, never from line numbers, so an alert
//! survives unrelated edits; GitHub's size limits are enforced by keeping the
//! most severe results and saying so in the run's notifications.

use crate::finding::{Confidence, Finding, Severity};
use crate::model::{ScanResult, Verdict};
use crate::rules::Rule;
use serde_json::{Value, json};
use serde_sarif::sarif;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Key of our entry in `partialFingerprints` (bump the suffix if the derivation changes).
pub const FINGERPRINT_KEY: &str = "mcptrustchecker/v1";
/// The key GitHub tracks alerts by. Given, it is used as is; absent, GitHub
/// hashes the text around the line, so an alert would not follow a moved entry.
pub const LINE_HASH_KEY: &str = "primaryLocationLineHash";
/// Where `$schema` points.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The base every result URI is relative to.
pub const SRCROOT: &str = "%SRCROOT%";
const INFORMATION_URI: &str = "https://github.com/mcptrustchecker/mcptrustchecker";

/// GitHub's upload limits (docs: "SARIF support for code scanning").
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Results per run.
    pub max_results: usize,
    /// Bytes of the serialised file (GitHub's cap is 10 MB gzipped; staying under it uncompressed is always safe).
    pub max_bytes: usize,
}

/// How one SARIF log is written.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub limits: Limits,
    /// The code-scanning category: `automationDetails.id` is `CATEGORY/`, so
    /// two runs in one repository keep separate alerts. `None` leaves it unset
    /// (upload-sarif then applies its own `category`).
    pub category: Option<String>,
    /// Line lengths of the files results point at, for full regions.
    pub lines: LineIndex,
}

/// The length (in Unicode code points, SARIF's `columnKind`) of every line of
/// the files results sit in, so each region names its whole line.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    files: BTreeMap<String, Vec<u32>>,
}

impl LineIndex {
    /// Read the files the findings of `r` point at, inside `root` only (a path
    /// leaving it, or a file larger than `max_bytes`, is left out: its regions
    /// then name the start only).
    pub fn read(root: &std::path::Path, r: &ScanResult, max_bytes: u64) -> LineIndex {
        let Ok(ws) = crate::acquire::confine::Workspace::new(root) else {
            return LineIndex::default();
        };
        let mut paths: Vec<&str> = r
            .servers
            .iter()
            .flat_map(|s| s.findings.iter())
            .chain(r.sessions.iter().flat_map(|s| s.findings.iter()))
            .chain(r.policy.iter().flat_map(|p| p.findings.iter()))
            .map(|f| f.location.path.as_str())
            .filter(|p| !p.is_empty())
            .collect();
        paths.sort_unstable();
        paths.dedup();
        let mut files = BTreeMap::new();
        for p in paths {
            let Ok((abs, _)) = ws.resolve(p) else {
                continue;
            };
            let Ok(text) = crate::parse::read_text(&abs, p, max_bytes) else {
                continue;
            };
            files.insert(p.to_string(), Self::lengths(&text));
        }
        LineIndex { files }
    }
    /// Code points per line (`\r\n`, `\n` and `\r` end a line).
    pub fn lengths(text: &str) -> Vec<u32> {
        text.split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l).chars().count() as u32)
            .collect()
    }
    pub fn insert(&mut self, path: &str, text: &str) {
        self.files.insert(path.to_string(), Self::lengths(text));
    }
    fn line_len(&self, path: &str, line: u32) -> Option<u32> {
        let i = usize::try_from(line.checked_sub(1)?).ok()?;
        self.files.get(path)?.get(i).copied()
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_results: 25_000,
            max_bytes: 10_000_000,
        }
    }
}

/// GitHub's `security-severity` for a severity (bands: critical ≥ 9.0, high 7.0–8.9,
/// medium 4.0–6.9, low 0.1–3.9); `None` for info, which is not a security alert.
pub fn security_severity(s: Severity) -> Option<&'static str> {
    match s {
        Severity::Critical => Some("9.5"),
        Severity::High => Some("8.0"),
        Severity::Medium => Some("5.5"),
        Severity::Low => Some("2.0"),
        Severity::Info => None,
    }
}

/// SARIF result level for a severity.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low | Severity::Info => "note",
    }
}

fn result_level(s: Severity) -> sarif::ResultLevel {
    match level(s) {
        "error" => sarif::ResultLevel::Error,
        "warning" => sarif::ResultLevel::Warning,
        _ => sarif::ResultLevel::Note,
    }
}

/// GitHub's `precision` vocabulary for our confidence.
pub fn precision(c: Confidence) -> &'static str {
    match c {
        Confidence::Confirmed => "very-high",
        Confidence::Strong => "high",
        Confidence::Heuristic => "medium",
        Confidence::Speculative => "low",
    }
}

/// A repo-relative path as a URI reference, or `None` when the path is not inside
/// the repository (absolute, `..`, empty): such a result cannot be shown by GitHub.
pub fn repo_uri(path: &str) -> Option<String> {
    let p = path.replace('\\', "/");
    let p = p.strip_prefix("./").unwrap_or(&p);
    if p.is_empty()
        || p.starts_with('/')
        || p.as_bytes().get(1) == Some(&b':')
        || p.split('/').any(|seg| seg == ".." || seg.is_empty())
    {
        return None;
    }
    let mut out = String::with_capacity(p.len());
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Some(out)
}

/// Plain-text SARIF message: invisible characters shown, and brackets escaped so a
/// scanned `[x](1)` can never become an embedded link (SARIF §3.11.6).
pub fn message_text(s: &str) -> String {
    crate::text::visible(s)
        .replace('[', "\\[")
        .replace(']', "\\]")
}

/// `primaryLocationLineHash` from a finding's identity (not its line's text),
/// in GitHub's `hash:occurrence` shape: moving an entry keeps its alert.
pub fn line_hash(f: &Finding, scope: &str, occurrence: usize) -> String {
    format!("{}:{}", &fingerprint(f, scope)[..16], occurrence + 1)
}

/// Stable identity of a finding: rule, server (or session), tool and field.
pub fn fingerprint(f: &Finding, scope: &str) -> String {
    let mut h = Sha256::new();
    for part in [
        f.rule_id.as_str(),
        scope,
        f.tool.as_deref().unwrap_or(""),
        f.field.as_deref().unwrap_or(""),
    ] {
        h.update(part.as_bytes());
        h.update([0x1f]);
    }
    hex::encode(h.finalize())[..32].to_string()
}

/// `HiddenTagsBlockPayload` from "Hidden Tags-block payload".
fn pascal(title: &str) -> String {
    title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            cs.next()
                .map(|c| c.to_ascii_uppercase().to_string() + cs.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn mfs(text: &str, markdown: Option<String>) -> sarif::MultiformatMessageString {
    sarif::MultiformatMessageString {
        markdown,
        properties: None,
        text: text.to_string(),
    }
}

fn descriptor(r: &Rule) -> sarif::ReportingDescriptor {
    let mut props = BTreeMap::new();
    props.insert("precision".to_string(), json!(precision(r.confidence)));
    if let Some(s) = security_severity(r.severity) {
        props.insert("security-severity".to_string(), json!(s));
    }
    props.insert(
        "problem.severity".to_string(),
        json!(match r.severity {
            Severity::Critical | Severity::High => "error",
            Severity::Medium => "warning",
            _ => "recommendation",
        }),
    );
    let help_text = format!(
        "What it detects: {}\n\nWhy it matters: {}\n\nHow to fix it: {}",
        r.what, r.why, r.fix
    );
    let help_md = format!(
        "**What it detects**\n\n{}\n\n**Why it matters**\n\n{}\n\n**How to fix it**\n\n{}\n\nSeverity {}, confidence {}, category {}. [Rule documentation]({})",
        r.what,
        r.why,
        r.fix,
        r.severity,
        r.confidence,
        r.category,
        crate::rules::help_uri(&r.id)
    );
    sarif::ReportingDescriptor::builder()
        .id(r.id.clone())
        .name(pascal(&r.title))
        .short_description(mfs(&r.title, None))
        .full_description(mfs(
            if r.what.is_empty() { &r.title } else { &r.what },
            None,
        ))
        .help(mfs(&help_text, Some(help_md)))
        .help_uri(crate::rules::help_uri(&r.id))
        .default_configuration(
            sarif::ReportingConfiguration::builder()
                .level(json!(level(r.severity)))
                .build(),
        )
        .properties(
            sarif::PropertyBag::builder()
                .tags(vec![
                    "security".to_string(),
                    r.category.as_str().to_string(),
                    "mcp".to_string(),
                ])
                .additional_properties(props)
                .build(),
        )
        .build()
}

/// One finding with the scope it belongs to: `kind` is `server`, `session` or
/// `policy` (a finding about the policy file itself), `scope` that id or path.
struct Candidate<'a> {
    f: &'a Finding,
    scope: &'a str,
    kind: &'static str,
    uri: String,
    order: usize,
}

/// A region from the start of the finding to the end of its line (the end
/// column is exclusive; an unknown line length gives the start line only).
fn location(uri: &str, line: u32, column: u32, line_len: Option<u32>) -> sarif::Location {
    let art = sarif::ArtifactLocation::builder()
        .uri(uri.to_string())
        .uri_base_id(SRCROOT.to_string())
        .build();
    let phys = if line >= 1 {
        let start = column.max(1);
        let mut region = sarif::Region::builder()
            .start_line(line as i64)
            .start_column(start as i64)
            .end_line(line as i64)
            .build();
        region.end_column = line_len.map(|n| (n + 1).max(start + 1) as i64);
        sarif::PhysicalLocation::builder()
            .artifact_location(art)
            .region(region)
            .build()
    } else {
        sarif::PhysicalLocation::builder()
            .artifact_location(art)
            .build()
    };
    sarif::Location::builder().physical_location(phys).build()
}

fn result(
    c: &Candidate<'_>,
    rule_index: &BTreeMap<String, usize>,
    occurrence: usize,
    lines: &LineIndex,
) -> sarif::Result {
    let f = c.f;
    let mut who = vec![format!("{} {}", c.kind, c.scope)];
    if let Some(t) = &f.tool {
        who.push(format!("tool {t}"));
    }
    if let Some(field) = &f.field {
        who.push(format!("field {field}"));
    }
    let mut text = format!("{} ({})", f.message, who.join(", "));
    if !f.evidence.is_empty() {
        text.push_str(&format!(". Evidence: {}", f.evidence));
    }
    let mut fp = BTreeMap::new();
    let base = fingerprint(f, c.scope);
    fp.insert(
        FINGERPRINT_KEY.to_string(),
        if occurrence == 0 {
            base
        } else {
            format!("{base}:{occurrence}")
        },
    );
    fp.insert(LINE_HASH_KEY.to_string(), line_hash(f, c.scope, occurrence));
    let mut props = BTreeMap::new();
    props.insert("severity".to_string(), json!(f.severity.as_str()));
    props.insert("confidence".to_string(), json!(f.confidence.as_str()));
    props.insert(c.kind.to_string(), json!(c.scope));
    if let Some(s) = security_severity(f.severity) {
        props.insert("security-severity".to_string(), json!(s));
    }
    let mut b = sarif::Result::builder()
        .rule_id(f.rule_id.clone())
        .rule_index(rule_index.get(&f.rule_id).copied().unwrap_or(0) as i64)
        .level(result_level(f.severity))
        .message(sarif::Message::builder().text(message_text(&text)).build())
        .locations(vec![location(
            &c.uri,
            f.location.line,
            f.location.column,
            lines.line_len(&f.location.path, f.location.line),
        )])
        .partial_fingerprints(fp)
        .properties(
            sarif::PropertyBag::builder()
                .additional_properties(props)
                .build(),
        )
        .build();
    if let Some(s) = &f.suppressed {
        let just = format!(
            "{} (owner {}, expires {})",
            crate::text::visible(&s.reason),
            crate::text::visible(&s.owner),
            crate::text::visible(&s.expires)
        );
        b.suppressions = Some(vec![
            sarif::Suppression::builder()
                .kind(json!("external"))
                .status(json!("accepted"))
                .justification(just)
                .build(),
        ]);
    }
    b
}

fn notification(level: &str, text: String) -> sarif::Notification {
    sarif::Notification::builder()
        .level(json!(level))
        .message(sarif::Message::builder().text(message_text(&text)).build())
        .build()
}

/// Render the SARIF log with GitHub's default limits and no category.
pub fn render(r: &ScanResult, v: &Verdict) -> String {
    render_opts(r, v, &Options::default())
}

/// Render the SARIF log, keeping within `limits`.
pub fn render_with(r: &ScanResult, v: &Verdict, limits: &Limits) -> String {
    render_opts(
        r,
        v,
        &Options {
            limits: *limits,
            ..Options::default()
        },
    )
}

/// Render the SARIF log as `opts` say.
pub fn render_opts(r: &ScanResult, v: &Verdict, opts: &Options) -> String {
    render_inner(r, v, opts, true)
}

/// The `automationDetails.id` for a category: `cat/` (the trailing `/` says
/// "category only, no run id").
pub fn automation_id(category: &str) -> String {
    let c = category.trim();
    if c.ends_with('/') {
        c.to_string()
    } else {
        format!("{c}/")
    }
}

/// `predict`: size the shrink loop from per-result sizes (serialise once);
/// otherwise serialise at every step (the reference the tests compare with).
fn render_inner(r: &ScanResult, v: &Verdict, opts: &Options, predict: bool) -> String {
    let limits = &opts.limits;
    // Every finding with the scope it belongs to, in report order.
    let mut all: Vec<(&Finding, &str, &'static str)> = Vec::new();
    for s in &r.servers {
        for f in &s.findings {
            all.push((f, f.server.as_deref().unwrap_or(&s.surface.id), "server"));
        }
    }
    for s in &r.sessions {
        for f in &s.findings {
            match f.server.as_deref() {
                Some(id) => all.push((f, id, "server")),
                None => all.push((f, &s.id, "session")),
            }
        }
    }
    if let Some(p) = &r.policy {
        for f in &p.findings {
            match f.server.as_deref() {
                Some(id) => all.push((f, id, "server")),
                None => all.push((f, &p.path, "policy")),
            }
        }
    }
    let mut notes = Vec::new();
    let mut candidates = Vec::new();
    let mut unlocated = 0usize;
    for (order, (f, scope, kind)) in all.into_iter().enumerate() {
        match repo_uri(&f.location.path) {
            Some(uri) => candidates.push(Candidate {
                f,
                scope,
                kind,
                uri,
                order,
            }),
            None => unlocated += 1,
        }
    }
    if unlocated > 0 {
        notes.push(notification(
            "warning",
            format!("{unlocated} finding(s) have no location inside the repository and are not in this SARIF file (GitHub cannot display them); they are in the JSON and terminal reports."),
        ));
    }
    // Most severe first; counted findings before suppressed ones; then report order.
    candidates.sort_by_key(|c| {
        (
            c.f.suppressed.is_some(),
            std::cmp::Reverse(c.f.severity),
            c.order,
        )
    });

    // Rules: the whole catalogue, plus any id a finding carries that is not in it.
    let mut rules: Vec<Rule> = crate::rules::all().to_vec();
    for c in &candidates {
        if !rules.iter().any(|r| r.id == c.f.rule_id) {
            let mut u = crate::rules::unknown_rule().clone();
            u.id = c.f.rule_id.clone();
            rules.push(u);
        }
    }
    rules.sort_by(|a, b| a.id.cmp(&b.id));
    let rule_index: BTreeMap<String, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.clone(), i))
        .collect();

    // Fingerprints: identical identities get an occurrence number in report order.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_order: Vec<&Candidate<'_>> = candidates.iter().collect();
    by_order.sort_by_key(|c| c.order);
    let mut occurrence: BTreeMap<usize, usize> = BTreeMap::new();
    for c in by_order {
        let n = seen
            .entry(format!(
                "{}\u{1f}{}",
                fingerprint(c.f, c.scope),
                c.f.rule_id
            ))
            .or_insert(0);
        occurrence.insert(c.order, *n);
        *n += 1;
    }
    // Only results that can be kept are built (a 60,000-server scan has
    // 150,000 candidates and keeps 25,000): building them all was most of the run.
    let total = candidates.len();
    let mut keep = total.min(limits.max_results);
    let mut results: Vec<sarif::Result> = candidates[..keep]
        .iter()
        .map(|c| result(c, &rule_index, occurrence[&c.order], &opts.lines))
        .collect();
    let driver = sarif::ToolComponent::builder()
        .name("mcptrustchecker")
        .full_name(format!("MCP Trust Checker {}", crate::VERSION))
        .version(crate::VERSION)
        .semantic_version(crate::VERSION)
        .information_uri(INFORMATION_URI)
        .rules(rules.iter().map(descriptor).collect::<Vec<_>>())
        .build();
    let run_props = run_properties(r, v);
    let log_for = |results: Vec<sarif::Result>, keep: usize| -> sarif::Sarif {
        let mut n = notes.clone();
        if keep < total {
            n.push(notification(
                "warning",
                format!(
                    "{} of {total} results omitted to stay within GitHub's limits ({} results per run, {} bytes per file): the {keep} most severe are kept. The JSON report has them all.",
                    total - keep,
                    limits.max_results,
                    limits.max_bytes
                ),
            ));
        }
        for e in &r.errors {
            n.push(notification("error", format!("input error: {e}")));
        }
        let mut invocation = sarif::Invocation::builder()
            .execution_successful(true)
            .build();
        if !n.is_empty() {
            invocation.tool_execution_notifications = Some(n);
        }
        let mut run = sarif::Run::builder()
            .tool(sarif::Tool::builder().driver(driver.clone()).build())
            .column_kind(json!("unicodeCodePoints"))
            .invocations(vec![invocation])
            .results(results)
            .properties(run_props.clone())
            .build();
        run.automation_details = opts.category.as_deref().map(|c| {
            sarif::RunAutomationDetails::builder()
                .id(automation_id(c))
                .build()
        });
        sarif::Sarif::builder()
            .schema(SCHEMA_URI)
            .version(json!("2.1.0"))
            .runs(vec![run])
            .build()
    };
    // Log-safe (no `##[` from scanned text), decoding to the same values.
    let serialize = |log: &sarif::Sarif| -> String {
        let mut text = crate::text::log_json(
            serde_json::to_string_pretty(log)
                .unwrap_or_else(|e| format!("{{\"error\": \"serialisation failed: {e}\"}}")),
        );
        text.push('\n');
        text
    };
    // GitHub's byte limit is met by dropping the least severe results,
    // shrinking proportionally. The size of the log for any number of results is
    // known exactly from each result's own size and the size of the log
    // without results, so the whole log is serialised once, not once per step.
    let plan = if predict {
        predicted_keep(&results, keep, total, limits, |k| {
            serialize(&log_for(Vec::new(), k)).len()
        })
    } else {
        None
    };
    if let Some((k, expected)) = plan {
        results.truncate(k);
        let text = serialize(&log_for(results, k));
        // Exact by construction; every test that renders SARIF checks it.
        debug_assert_eq!(text.len(), expected, "SARIF size prediction");
        if text.len() == expected {
            return text;
        }
        // The prediction did not hold (it always should): the slow, direct way.
        results = candidates[..keep]
            .iter()
            .map(|c| result(c, &rule_index, occurrence[&c.order], &opts.lines))
            .collect();
    }
    loop {
        let mut log = log_for(std::mem::take(&mut results), keep);
        let text = serialize(&log);
        if text.len() <= limits.max_bytes || keep == 0 {
            return text;
        }
        // Shrink proportionally (with a margin), then by at least one result;
        // the results move back out of the log instead of being rebuilt.
        keep = next_keep(keep, text.len(), limits);
        results = log
            .runs
            .first_mut()
            .and_then(|run| run.results.take())
            .unwrap_or_default();
        results.truncate(keep);
    }
}

/// The next number of results to try when the log is `len` bytes with `keep`.
fn next_keep(keep: usize, len: usize, limits: &Limits) -> usize {
    let scaled = (keep as f64 * limits.max_bytes as f64 / len as f64 * 0.95) as usize;
    scaled.min(keep - 1)
}

/// Indentation of a result in the pretty log: `runs[0].results[i]` is four
/// levels deep, two spaces each.
const RESULT_DEPTH: usize = 4;
/// `log_json` writes `##[` (3 bytes) as `#\u0023[` (8 bytes).
const LEGACY_GROWTH: usize = 5;

/// The shrink loop run on sizes instead of serialised logs: which number of
/// results the loop ends with, and the log's exact length then. `skeleton(k)`
/// is the length of the log with no results and the notes for `k` results
/// kept. `None` when there is nothing to predict (no results).
fn predicted_keep(
    results: &[sarif::Result],
    mut keep: usize,
    total: usize,
    limits: &Limits,
    skeleton: impl Fn(usize) -> usize,
) -> Option<(usize, usize)> {
    if results.is_empty() {
        return None;
    }
    let indent = 2 * RESULT_DEPTH;
    let mut prefix = Vec::with_capacity(results.len() + 1);
    prefix.push(0usize);
    for res in results {
        let s = serde_json::to_string_pretty(res).ok()?;
        let e =
            s.len() + indent * s.matches('\n').count() + LEGACY_GROWTH * s.matches("##[").count();
        prefix.push(prefix.last().copied().unwrap_or(0) + e);
    }
    // The skeleton depends on `k` only through the digits of the omission note.
    let digits = |n: usize| n.to_string().len();
    let full = skeleton(total.min(keep));
    let omitted_at = keep - 1;
    let omitted = skeleton(omitted_at);
    let skel = |k: usize| -> usize {
        if k == total {
            full
        } else {
            omitted + digits(total - k) + digits(k)
                - digits(total - omitted_at)
                - digits(omitted_at)
        }
    };
    // `"results": []` becomes `[`, per result a separator, indent and the
    // result, then a line break, the closing indent and `]`.
    let len = |k: usize| -> usize {
        if k == 0 {
            skel(0)
        } else {
            skel(k) - 2 + 2 * k + indent * k + prefix[k] + indent
        }
    };
    loop {
        let l = len(keep);
        if l <= limits.max_bytes || keep == 0 {
            return Some((keep, l));
        }
        keep = next_keep(keep, l, limits);
    }
}

fn run_properties(r: &ScanResult, v: &Verdict) -> sarif::PropertyBag {
    let servers: Vec<Value> = r
        .servers
        .iter()
        .map(|s| json!({"id": s.surface.id, "grade": s.score.grade.as_str(), "score": s.score.value, "coverage": s.surface.coverage.as_str()}))
        .collect();
    let sessions: Vec<Value> = r
        .sessions
        .iter()
        .map(|s| json!({"id": s.id, "grade": s.score.grade.as_str(), "score": s.score.value}))
        .collect();
    let mut props = BTreeMap::new();
    props.insert("methodology".to_string(), json!(crate::METHODOLOGY));
    props.insert("servers".to_string(), Value::Array(servers));
    props.insert("sessions".to_string(), Value::Array(sessions));
    props.insert(
        "worstGrade".to_string(),
        json!(v.worst_grade.map(|g| g.as_str())),
    );
    props.insert("gateFailed".to_string(), json!(v.failed));
    sarif::PropertyBag::builder()
        .additional_properties(props)
        .build()
}

#[cfg(test)]
mod tests {
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
        let a = finding("MTC-UNI-001", "mcp.json", 4, "t");
        let b = finding("MTC-UNI-001", "mcp.json", 40, "t");
        assert_eq!(fingerprint(&a, "s"), fingerprint(&b, "s"));
        assert_ne!(
            fingerprint(&a, "s"),
            fingerprint(&finding("MTC-UNI-001", "mcp.json", 4, "u"), "s")
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
                vec![finding("MTC-UNI-001", "/home/u/.cursor/mcp.json", 4, "t")],
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
                "MTC-META-002",
                "mcp.json",
                i + 1,
                &format!("low{i}"),
            ));
        }
        fs.push(finding("MTC-UNI-001", "mcp.json", 99, "crit"));
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
        assert_eq!(res[0]["ruleId"], "MTC-UNI-001");
        let note =
            v["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
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
        assert_eq!(v["runs"][0]["results"][0]["ruleId"], "MTC-UNI-001");
    }

    /// The predicted shrink ends exactly where serialising at every step ends,
    /// byte for byte, whatever the limits (hostile `##[` text included).
    #[test]
    fn predicted_shrink_equals_the_serialising_loop() {
        let mut fs = Vec::new();
        for i in 0..120 {
            let mut f = finding(
                if i % 3 == 0 {
                    "MTC-UNI-001"
                } else {
                    "MTC-META-002"
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
        let mut f = finding("MTC-UNI-001", "mcp.json", 4, "t");
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
}
